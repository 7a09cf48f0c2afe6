/* Information-set MCTS over the GsGame interface (gsearch.h): agents/bots/generic_ismcts.py's
 * GenericISMCTSAgent in C, and the options that made Airships' search strong (ranked candidates
 * with progressive widening, the gate, forced moves skipped, a fixed tree size). Not
 * bit-identical to the Python search (the budgets differ with the speed), but the same algorithm,
 * deterministic for a ``sims`` budget and a generator state, and blind to everything
 * ``determinize`` does not keep of the root.
 */
#define _POSIX_C_SOURCE 199309L
#include "gsearch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    int32_t first_child, next_sibling; /* indices into the node array, -1: none */
    int32_t visits, available;
    double total;  /* the results of ``mover`` summed over the visits */
    double square; /* their squares summed (the gate's standard errors) */
    int16_t action;
    int8_t mover;     /* the seat that chose ``action`` (-1 at the root) */
    int32_t prior_at; /* net mode: the node's prior in ``priors`` (-1: not evaluated yet) */
    float value;      /* net mode: the node's value for the seat to act, when evaluated */
    /* net mode: the seat to act when the node was evaluated, and the next record of the same
     * node for another situation (another seat to act, or no action legal in both: situation()) */
    int8_t acting;
    int32_t situation;
} Node;

typedef struct {
    const GsGame *game;
    const GsOptions *options;
    Rng *rng;
    Node *nodes;
    int32_t n_nodes, capacity, limit;
    int32_t *path;
    int32_t *slot; /* per action: the child of the node being visited, or -1 */
    int16_t *legal, *untried, *ranked;
    int16_t *root_ranked; /* ranked candidates: the root's, best first */
    int n_root_ranked;
    double *means, *errors; /* the root children's, as reported */
    int64_t actions;
    unsigned char *world;
    /* net mode */
    float *priors; /* max_actions per evaluated node: exp(logit - the node's largest logit) */
    int32_t n_priors, prior_capacity;
    float *observation, *logits;
    int32_t evaluations, situations;
    /* paired worlds: the determinizations made so far, in order (``state_size`` bytes each) */
    unsigned char *worlds;
    int32_t n_worlds, worlds_capacity;
    /* luck (net mode): the world's luck before each action of the simulation's path
     * (``luck_width`` numbers each, every seat's terms), at the leaf and at the end; the fit's
     * sums over the simulations so far (the root seat's luck terms x, its result y) and slopes */
    double *luck_path, *luck_leaf, *luck_end;
    int32_t luck_depth, luck_width, root_mover;
    double fit_n, fit_x[GS_MAX_LUCK_TERMS], fit_y, fit_xx[GS_MAX_LUCK_TERMS][GS_MAX_LUCK_TERMS],
        fit_xy[GS_MAX_LUCK_TERMS], slope[GS_MAX_LUCK_TERMS];
} Search;

/* Simulations before the luck's slopes are fitted (before: no correction). */
#define GS_LUCK_FIT_AFTER 16

enum { FULL = -1, OUT_OF_MEMORY = -2 };

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A new node (the array grows by doubling); its index, or FULL at the size limit, or
 * OUT_OF_MEMORY. */
static int32_t new_node(Search *s, int action, int mover) {
    if (s->n_nodes >= s->limit) return FULL;
    if (s->n_nodes == s->capacity) {
        int32_t capacity = s->capacity > s->limit / 2 ? s->limit : s->capacity * 2;
        Node *nodes = realloc(s->nodes, sizeof(Node) * (size_t)capacity);
        if (!nodes) return OUT_OF_MEMORY;
        s->nodes = nodes;
        int32_t *path = realloc(s->path, sizeof(int32_t) * ((size_t)capacity + 1));
        if (!path) return OUT_OF_MEMORY;
        s->path = path;
        s->capacity = capacity;
    }
    Node *node = &s->nodes[s->n_nodes];
    node->first_child = node->next_sibling = -1;
    node->visits = node->available = 0;
    node->total = node->square = 0.0;
    node->action = (int16_t)action;
    node->mover = (int8_t)mover;
    node->prior_at = -1;
    node->value = 0.0f;
    node->acting = -1;
    node->situation = -1;
    return s->n_nodes++;
}

static int apply(Search *s, void *world, int action) {
    s->actions += 1;
    return s->game->apply(world, action) != 0 ? GS_APPLY_FAILED : GS_OK;
}

/* Play the world on to the end or the ``rollout`` cut; each seat's result into ``results``. */
static int finish(Search *s, void *world, double *results) {
    const GsGame *g = s->game;
    const GsOptions *o = s->options;
    int limit = o->rollout >= 0 ? o->rollout : o->max_rollout;
    for (int steps = 0; steps < limit && !g->is_terminal(world); steps++) {
        int action;
        if (o->playout > 0) {
            action = g->bot_action(world, o->playout, s->rng);
        } else if (g->rollout_action) {
            action = g->rollout_action(world, s->rng);
        } else {
            int n = g->legal_actions(world, s->legal);
            action = s->legal[uniform_below(s->rng, (uint64_t)n)];
        }
        if (apply(s, world, action) != GS_OK) return GS_APPLY_FAILED;
    }
    int players = g->num_players(world);
    if (g->is_terminal(world)) {
        g->results(world, results);
    } else if (o->rollout >= 0) {
        g->evaluate(world, results);
    } else {
        for (int p = 0; p < players; p++) results[p] = 0.0; /* cut at max_rollout: a draw */
    }
    return GS_OK;
}

/* ``result`` of ``seat`` less its luck between ``before`` and ``after`` (every seat's terms),
 * weighted by the fitted slopes. */
static double corrected(const Search *s, double result, int seat, const double *before,
                        const double *after) {
    int terms = s->game->luck_terms;
    for (int k = 0; k < terms; k++)
        result -= s->slope[k] * (after[seat * terms + k] - before[seat * terms + k]);
    return result;
}

/* Every node of the simulation's path (``depth`` of them) scores its mover's result; with
 * ``luck_end`` (the world's luck at the end: the net mode's ``luck``), less the luck since the
 * node's action (its path entry's), weighted by the fitted slopes. */
static void backup(Search *s, int depth, const double *results, const double *luck_end) {
    for (int i = 0; i < depth; i++) {
        Node *visited = &s->nodes[s->path[i]];
        double result = results[visited->mover];
        if (luck_end)
            result = corrected(s, result, visited->mover,
                               s->luck_path + (size_t)i * (size_t)s->luck_width, luck_end);
        visited->visits += 1;
        visited->total += result;
        visited->square += result * result;
    }
}

/* UCB over the tried children among ``order[0..n)``: availability counts, the prior's
 * progressive bias, ties to the first in ``order``; -1 when none is tried. */
static int select_child(Search *s, const int16_t *order, int n, int favoured) {
    const GsOptions *o = s->options;
    int best = -1;
    double best_value = -INFINITY;
    for (int i = 0; i < n; i++) {
        int action = order[i];
        if (s->slot[action] < 0) continue;
        const Node *child = &s->nodes[s->slot[action]];
        double value = child->visits ? child->total / child->visits +
                                           o->c * sqrt(log((double)child->available) / child->visits)
                                     : INFINITY;
        if (action == favoured) value += o->bias / (child->visits + 1);
        if (best < 0 || value > best_value) {
            best_value = value;
            best = action;
        }
    }
    return best;
}

/* A new entry of the node's kept values (``max_actions`` floats, the pool grows by doubling),
 * recorded as the node's ``prior_at``; NULL without memory. */
static float *new_prior(Search *s, int32_t node) {
    size_t width = (size_t)s->game->max_actions;
    if (s->n_priors == s->prior_capacity) {
        int32_t capacity = s->prior_capacity ? s->prior_capacity * 2 : 256;
        float *priors = realloc(s->priors, sizeof(float) * (size_t)capacity * width);
        if (!priors) return NULL;
        s->priors = priors;
        s->prior_capacity = capacity;
    }
    s->nodes[node].prior_at = s->n_priors;
    return s->priors + (size_t)s->n_priors++ * width;
}

/* ``legal`` ranked by ``rank_net``'s logits for the acting seat's observation of ``state``, best
 * first (ties: action order), into ``out``; their number, or -1 without memory. With ``node`` >= 0
 * the logits are computed at the node's first ranking and kept (``prior_at``). */
static int net_rank(Search *s, int32_t node, const void *state, const int16_t *legal, int n_legal,
                    int16_t *out) {
    const GsGame *g = s->game;
    const GnNet *net = s->options->rank_net;
    const float *logits = s->logits;
    if (node >= 0 && s->nodes[node].prior_at >= 0) {
        logits = s->priors + (size_t)s->nodes[node].prior_at * (size_t)g->max_actions;
    } else {
        g->observe(state, g->current_player(state), s->observation);
        gn_forward(net, s->observation, s->logits, NULL);
        if (node >= 0) { /* keep them */
            float *kept = new_prior(s, node);
            if (!kept) return -1;
            memcpy(kept, s->logits, sizeof(float) * (size_t)g->max_actions);
            logits = kept;
        }
    }
    for (int i = 0; i < n_legal; i++) { /* insertion sort, descending by logit, stable */
        int16_t action = legal[i];
        int j = i - 1;
        while (j >= 0 && logits[out[j]] < logits[action]) {
            out[j + 1] = out[j];
            j--;
        }
        out[j + 1] = action;
    }
    return n_legal;
}

static int simulate(Search *s, const void *root, int seat) {
    const GsGame *g = s->game;
    const GsOptions *o = s->options;
    void *world = s->world;
    g->determinize(root, seat, s->rng, world);
    int32_t node = 0;
    int depth = 0;
    while (!g->is_terminal(world)) {
        int n_legal = g->legal_actions(world, s->legal);
        if (o->skip_forced && n_legal == 1) { /* no decision: the same node */
            if (apply(s, world, s->legal[0]) != GS_OK) return GS_APPLY_FAILED;
            continue;
        }
        int mover = g->current_player(world);
        /* the actions this node may choose among, in the order that breaks ties */
        const int16_t *order = s->legal;
        int allowed = n_legal;
        if (o->candidates > 0 && node == 0) {
            order = s->root_ranked;
            allowed = s->n_root_ranked;
        } else if (o->candidates > 0) {
            int n_ranked = o->rank_net && o->rank_all
                               ? net_rank(s, node, world, s->legal, n_legal, s->ranked)
                               : g->rank(world, s->legal, n_legal, s->ranked);
            if (n_ranked < 0) return GS_NO_MEMORY;
            double width = o->widening * sqrt((double)s->nodes[node].visits);
            order = s->ranked;
            /* a width past the ranked actions is never converted (a huge one would overflow) */
            allowed = width < 1.0 ? 1 : width >= n_ranked ? n_ranked : (int)width;
            if (allowed > n_ranked) allowed = n_ranked; /* a rank that kept nothing */
        }
        for (int32_t c = s->nodes[node].first_child; c >= 0; c = s->nodes[c].next_sibling)
            if (o->candidates <= 0 || s->nodes[c].mover == mover)
                s->slot[s->nodes[c].action] = c;
        int n_untried = 0;
        int16_t *untried = s->untried;
        for (int i = 0; i < allowed; i++) {
            int32_t child = s->slot[order[i]];
            if (child < 0) untried[n_untried++] = order[i];
            else s->nodes[child].available += 1;
        }
        int favoured = -1;
        if (o->prior > 0)
            favoured = n_legal == 1 ? s->legal[0] : g->bot_action(world, o->prior, s->rng);
        int action = -1;
        int32_t next = -1;
        if (n_untried > 0) {
            if (o->candidates > 0) {
                action = untried[0]; /* the rank's best untried */
            } else {
                for (int i = 0; i < n_untried; i++)
                    if (untried[i] == favoured) action = favoured;
                if (action < 0) action = untried[uniform_below(s->rng, (uint64_t)n_untried)];
            }
            next = new_node(s, action, mover);
            if (next == OUT_OF_MEMORY || (next == FULL && o->max_nodes <= 0)) {
                next = OUT_OF_MEMORY;
            } else if (next >= 0) {
                s->nodes[next].available = 1;
                s->nodes[next].next_sibling = s->nodes[node].first_child;
                s->nodes[node].first_child = next;
            }
        }
        int expanded = next >= 0;
        if (next == FULL || n_untried == 0) { /* UCB among the tried (a full tree: if any) */
            action = select_child(s, order, allowed, favoured);
            next = action >= 0 ? s->slot[action] : -1;
        }
        for (int32_t c = s->nodes[node].first_child; c >= 0; c = s->nodes[c].next_sibling)
            s->slot[s->nodes[c].action] = -1;
        if (next == OUT_OF_MEMORY) return GS_NO_MEMORY;
        if (next < 0) break; /* a full tree and nothing tried here: roll out from this world */
        if (apply(s, world, action) != GS_OK) return GS_APPLY_FAILED;
        s->path[depth++] = next;
        node = next;
        if (expanded) break;
    }
    double results[GS_MAX_PLAYERS];
    int status = finish(s, world, results);
    if (status != GS_OK) return status;
    backup(s, depth, results, NULL);
    return GS_OK;
}

/* -- the network mode -------------------------------------------------------------------- */

/* The world's luck into the path's entry ``depth`` (the room grows by doubling); GS_NO_MEMORY. */
static int keep_luck(Search *s, int depth, const void *world) {
    if (depth >= s->luck_depth) {
        int32_t room = s->luck_depth ? s->luck_depth * 2 : 64;
        double *path = realloc(s->luck_path, sizeof(double) * (size_t)room * (size_t)s->luck_width);
        if (!path) return GS_NO_MEMORY;
        s->luck_path = path;
        s->luck_depth = room;
    }
    s->game->luck(world, s->luck_path + (size_t)depth * (size_t)s->luck_width);
    return GS_OK;
}

/* Add a simulation to the fit (``luck``: the root seat's terms over the whole simulation,
 * ``result``: its result) and solve for the slopes: the least-squares fit with an intercept (a
 * small ridge keeps a term that never varied at zero); no slopes before GS_LUCK_FIT_AFTER. */
static void fit_luck(Search *s, const double *luck, double result) {
    int terms = s->game->luck_terms;
    s->fit_n += 1.0;
    s->fit_y += result;
    for (int i = 0; i < terms; i++) {
        s->fit_x[i] += luck[i];
        s->fit_xy[i] += luck[i] * result;
        for (int j = 0; j < terms; j++) s->fit_xx[i][j] += luck[i] * luck[j];
    }
    if (s->fit_n < GS_LUCK_FIT_AFTER) return;
    double a[GS_MAX_LUCK_TERMS][GS_MAX_LUCK_TERMS + 1];
    double n = s->fit_n, mean_y = s->fit_y / n;
    for (int i = 0; i < terms; i++) {
        double mean_i = s->fit_x[i] / n;
        for (int j = 0; j < terms; j++) a[i][j] = s->fit_xx[i][j] / n - mean_i * s->fit_x[j] / n;
        a[i][i] += 1e-9 + 1e-6 * a[i][i];
        a[i][terms] = s->fit_xy[i] / n - mean_i * mean_y;
    }
    for (int col = 0; col < terms; col++) { /* Gauss-Jordan, partial pivoting */
        int pivot = col;
        for (int r = col + 1; r < terms; r++)
            if (fabs(a[r][col]) > fabs(a[pivot][col])) pivot = r;
        if (!(fabs(a[pivot][col]) > 1e-12)) { /* degenerate: no correction */
            for (int k = 0; k < terms; k++) s->slope[k] = 0.0;
            return;
        }
        for (int j = 0; j <= terms; j++) {
            double t = a[col][j];
            a[col][j] = a[pivot][j];
            a[pivot][j] = t;
        }
        for (int r = 0; r < terms; r++) {
            if (r == col) continue;
            double f = a[r][col] / a[col][col];
            for (int j = col; j <= terms; j++) a[r][j] -= f * a[col][j];
        }
    }
    for (int k = 0; k < terms; k++) s->slope[k] = a[k][terms] / a[k][k];
}

/* Evaluate ``node`` in ``world`` (legal actions ``legal[0..n_legal)``): keep the network's
 * prior, and write every seat's value (mixed with a rollout's) into ``values``. */
static int evaluate_node(Search *s, int32_t node, void *world, const int16_t *legal, int n_legal,
                         double *values) {
    const GsGame *g = s->game;
    const GsOptions *o = s->options;
    const GnNet *net = o->net;
    int mover = g->current_player(world);
    int players = g->num_players(world);
    float *prior = new_prior(s, node);
    if (!prior) return GS_NO_MEMORY;
    float relative[GS_MAX_PLAYERS];
    g->observe(world, mover, s->observation);
    gn_forward(net, s->observation, s->logits, o->rollout_weight < 1.0 ? relative : NULL);
    s->evaluations += 1;
    float top = -INFINITY;
    for (int a = 0; a < g->max_actions; a++) top = s->logits[a] > top ? s->logits[a] : top;
    float scale = o->temperature > 0 ? (float)(1.0 / o->temperature) : 1.0f;
    for (int a = 0; a < g->max_actions; a++) prior[a] = expf((s->logits[a] - top) * scale);
    if (node == 0 && o->noise && o->noise_fraction > 0) { /* the root: over its legal actions */
        double total = 0.0;
        for (int i = 0; i < n_legal; i++) total += prior[legal[i]];
        for (int i = 0; i < n_legal; i++) {
            int a = legal[i];
            double share = total > 0 ? prior[a] / total : 1.0 / n_legal;
            prior[a] = (float)((1.0 - o->noise_fraction) * share + o->noise_fraction * o->noise[a]);
        }
    }
    /* the actions not legal here keep their prior, negated: situation() reads the sign */
    for (int i = 0, a = 0; a < g->max_actions; a++) {
        if (i < n_legal && legal[i] == a) i++;
        else prior[a] = -prior[a];
    }
    s->nodes[node].acting = (int8_t)mover;
    for (int p = 0; p < players; p++)
        values[p] = o->rollout_weight < 1.0 ? (double)relative[(p - mover + players) % players] : 0.0;
    if (o->luck) g->luck(world, s->luck_leaf);
    if (o->rollout_weight > 0.0) { /* the world is played on: nothing below reads it */
        double rolled[GS_MAX_PLAYERS];
        int status = finish(s, world, rolled);
        if (status != GS_OK) return status;
        for (int p = 0; p < players; p++)
            values[p] = (1.0 - o->rollout_weight) * values[p] + o->rollout_weight * rolled[p];
    }
    double value = values[mover];
    if (o->luck) { /* the node's own value: less the rollout's luck */
        g->luck(world, s->luck_end);
        value = corrected(s, value, mover, s->luck_leaf, s->luck_end);
    }
    s->nodes[node].value = (float)value;
    return GS_OK;
}

/* The PUCT choice among ``legal`` at ``node`` (children in ``slot``): the first best score. */
static int select_puct(Search *s, int32_t node, const int16_t *legal, int n_legal) {
    const float *prior = s->priors + (size_t)s->nodes[node].prior_at * (size_t)s->game->max_actions;
    double total = 0.0, results = 0.0;
    int64_t seen = 0;
    for (int i = 0; i < n_legal; i++) {
        total += fabsf(prior[legal[i]]);
        if (s->slot[legal[i]] >= 0) {
            seen += s->nodes[s->slot[legal[i]]].visits;
            results += s->nodes[s->slot[legal[i]]].total;
        }
    }
    double scale = s->options->c * sqrt((double)(seen > 1 ? seen : 1));
    /* an unvisited action's Q: the node's mean so far, or its first evaluation alone */
    double fallback = s->options->fpu == GS_FPU_FIRST
                          ? s->nodes[node].value
                          : (s->nodes[node].value + results) / (double)(1 + seen);
    int best = legal[0];
    double best_score = -INFINITY;
    for (int i = 0; i < n_legal; i++) {
        int a = legal[i];
        const Node *child = s->slot[a] >= 0 ? &s->nodes[s->slot[a]] : NULL;
        int32_t visits = child ? child->visits : 0;
        double q = visits ? child->total / visits : fallback;
        double share = total > 0 ? fabsf(prior[a]) / total : 1.0 / n_legal;
        double score = q + scale * share / (1 + visits);
        if (score > best_score) {
            best_score = score;
            best = a;
        }
    }
    return best;
}

/* Paired worlds: the search's world ``index`` into ``s->world``, the worlds before it made first
 * (in order, from the search's generator); past GS_MAX_WORLDS, a fresh determinization. */
static int load_world(Search *s, const void *root, int seat, int32_t index) {
    const GsGame *g = s->game;
    if (index >= GS_MAX_WORLDS) {
        g->determinize(root, seat, s->rng, s->world);
        return GS_OK;
    }
    while (s->n_worlds <= index) {
        if (s->n_worlds == s->worlds_capacity) {
            int32_t capacity = s->worlds_capacity ? s->worlds_capacity * 2 : 64;
            unsigned char *worlds = realloc(s->worlds, g->state_size * (size_t)capacity);
            if (!worlds) return GS_NO_MEMORY;
            s->worlds = worlds;
            s->worlds_capacity = capacity;
        }
        g->determinize(root, seat, s->rng, s->worlds + g->state_size * (size_t)s->n_worlds++);
    }
    memcpy(s->world, s->worlds + g->state_size * (size_t)index, g->state_size);
    return GS_OK;
}

/* The record of ``node`` for this world's situation: the node itself until it is evaluated, else
 * the first of its records evaluated for ``mover`` with an action legal both then and here (the
 * legal actions of the evaluation are the prior's positive entries), else a new record (not
 * evaluated yet) at the end of its chain; -1 without room. Worlds reach one open-loop node in
 * different situations (after a roll, the same seat's chip or extra-turn choice, or the next
 * seat's turn): each situation gets its own prior, value and children. */
static int32_t situation(Search *s, int32_t node, int mover, const int16_t *legal, int n_legal) {
    size_t width = (size_t)s->game->max_actions;
    int32_t last = node;
    for (int32_t r = node; r >= 0; r = s->nodes[r].situation) {
        const Node *record = &s->nodes[r];
        if (record->prior_at < 0) return r;
        if (record->acting == mover) {
            const float *prior = s->priors + (size_t)record->prior_at * width;
            for (int i = 0; i < n_legal; i++)
                if (!signbit(prior[legal[i]])) return r;
        }
        last = r;
    }
    int32_t added = new_node(s, s->nodes[node].action, s->nodes[node].mover);
    if (added < 0) return -1;
    s->nodes[last].situation = added;
    s->situations += 1;
    return added;
}

static int simulate_net(Search *s, const void *root, int seat) {
    const GsGame *g = s->game;
    void *world = s->world;
    int paired = s->options->paired_worlds;
    if (paired) { /* world 0 until the root's action is chosen (the root looks the same in all) */
        if (load_world(s, root, seat, 0) != GS_OK) return GS_NO_MEMORY;
    } else {
        g->determinize(root, seat, s->rng, world);
    }
    int32_t node = 0;
    int depth = 0;
    double results[GS_MAX_PLAYERS];
    for (;;) {
        if (g->is_terminal(world)) {
            g->results(world, results);
            break;
        }
        int n_legal = g->legal_actions(world, s->legal);
        int mover = g->current_player(world);
        node = situation(s, node, mover, s->legal, n_legal);
        if (node < 0) return GS_NO_MEMORY; /* the tree is full: the budget ends */
        if (s->nodes[node].prior_at < 0) {
            int status = evaluate_node(s, node, world, s->legal, n_legal, results);
            if (status != GS_OK) return status;
            break;
        }
        for (int32_t c = s->nodes[node].first_child; c >= 0; c = s->nodes[c].next_sibling)
            s->slot[s->nodes[c].action] = c;
        int action = n_legal == 1 ? s->legal[0] : select_puct(s, node, s->legal, n_legal);
        int32_t next = s->slot[action];
        for (int32_t c = s->nodes[node].first_child; c >= 0; c = s->nodes[c].next_sibling)
            s->slot[s->nodes[c].action] = -1;
        if (next < 0) {
            next = new_node(s, action, mover);
            if (next < 0) return GS_NO_MEMORY; /* FULL too: the tree is full, the budget ends */
            s->nodes[next].next_sibling = s->nodes[node].first_child;
            s->nodes[node].first_child = next;
        }
        int32_t index = s->nodes[next].visits; /* this root action's visit: its world's index */
        if (paired && node == 0 && index > 0 && load_world(s, root, seat, index) != GS_OK)
            return GS_NO_MEMORY;
        if (s->options->luck && keep_luck(s, depth, world) != GS_OK) return GS_NO_MEMORY;
        if (apply(s, world, action) != GS_OK) return GS_APPLY_FAILED;
        s->path[depth++] = next;
        node = next;
    }
    if (!s->options->luck) {
        backup(s, depth, results, NULL);
        return GS_OK;
    }
    s->game->luck(world, s->luck_end);
    backup(s, depth, results, s->luck_end);
    fit_luck(s, s->luck_end + s->root_mover * s->game->luck_terms, results[s->root_mover]);
    return GS_OK;
}

static int compare_actions(const void *a, const void *b) {
    return (int)*(const int16_t *)a - (int)*(const int16_t *)b;
}

static int bad_options(const GsGame *game, const GsOptions *o) {
    if (o->sims <= 0 && o->seconds <= 0) return 1;
    if ((o->prior > 0 || o->playout > 0) && !game->bot_action) return 1;
    if (o->rollout >= 0 && !game->evaluate) return 1;
    if (o->candidates < 0 || o->max_nodes < 0 || !(o->z >= 0)) return 1;
    if (o->candidates > 0 && (!game->rank || !(o->widening > 0) || o->prior > 0)) return 1;
    if (o->rank_net && (o->candidates <= 0 || !game->observe || !game->observation_size ||
                        o->rank_net->n_actions != game->max_actions))
        return 1;
    if (o->z > 0 && o->candidates <= 0) return 1;
    if (o->luck && !o->net) return 1; /* the net mode's option */
    if (o->net) {
        const GnNet *net = o->net;
        if (!game->observe || !game->observation_size || o->candidates > 0 || o->prior > 0 ||
            o->max_nodes > 0 || net->n_actions != game->max_actions ||
            !(o->rollout_weight >= 0 && o->rollout_weight <= 1) ||
            (o->fpu != GS_FPU_MEAN && o->fpu != GS_FPU_FIRST) ||
            (o->paired_worlds != 0 && o->paired_worlds != 1) || (o->luck != 0 && o->luck != 1) ||
            (o->luck && (!game->luck || game->luck_terms < 1 ||
                         game->luck_terms > GS_MAX_LUCK_TERMS)) ||
            !(o->noise_fraction >= 0 && o->noise_fraction <= 1) || !(o->temperature >= 0) ||
            (o->noise_fraction > 0 && !o->noise))
            return 1;
    }
    return 0;
}

/* The standard error of a node's mean: INFINITY below 2 visits. */
static double standard_error(const Node *node) {
    if (node->visits < 2) return INFINITY;
    double mean = node->total / node->visits;
    double variance = (node->square - node->visits * mean * mean) / (node->visits - 1);
    return sqrt((variance > 0 ? variance : 0.0) / node->visits);
}

int gs_search(const GsGame *game, const void *root, int seat, const GsOptions *options, Rng *rng,
              GsResult *result) {
    result->action = -1;
    result->simulations = 0;
    result->nodes = 0;
    result->n_root = 0;
    result->actions = 0;
    result->evaluations = 0;
    result->situations = 0;
    for (int k = 0; k < GS_MAX_LUCK_TERMS; k++) result->luck_slopes[k] = 0.0;
    if (bad_options(game, options)) return GS_BAD_OPTIONS;
    if (game->is_terminal(root)) return GS_GAME_OVER;
    if (options->net && (options->net->n_inputs != game->observation_size(root) ||
                         options->net->n_values != game->num_players(root)))
        return GS_BAD_OPTIONS;
    if (options->rank_net && options->rank_net->n_inputs != game->observation_size(root))
        return GS_BAD_OPTIONS;
    double started = now_seconds();
    Search s;
    memset(&s, 0, sizeof s);
    s.game = game;
    s.options = options;
    s.rng = rng;
    int status = GS_NO_MEMORY;
    s.limit = options->max_nodes > 0 ? options->max_nodes : GS_MAX_NODES;
    s.capacity = s.limit < 1024 ? s.limit : 1024;
    size_t actions_size = sizeof(int16_t) * (size_t)game->max_actions;
    s.nodes = malloc(sizeof(Node) * (size_t)s.capacity);
    s.path = malloc(sizeof(int32_t) * ((size_t)s.capacity + 1));
    s.slot = malloc(sizeof(int32_t) * (size_t)game->max_actions);
    s.legal = malloc(actions_size);
    s.untried = malloc(actions_size);
    s.ranked = malloc(actions_size);
    s.root_ranked = malloc(actions_size);
    s.means = malloc(sizeof(double) * (size_t)game->max_actions);
    s.errors = malloc(sizeof(double) * (size_t)game->max_actions);
    s.world = malloc(game->state_size);
    if (options->net && options->luck) {
        s.luck_width = game->num_players(root) * game->luck_terms;
        s.root_mover = game->current_player(root);
        s.luck_leaf = malloc(sizeof(double) * (size_t)s.luck_width);
        s.luck_end = malloc(sizeof(double) * (size_t)s.luck_width);
        if (!s.luck_leaf || !s.luck_end) goto done;
    }
    if (options->net || options->rank_net) {
        const GnNet *net = options->net ? options->net : options->rank_net;
        s.observation = malloc(sizeof(float) * (size_t)net->n_inputs);
        s.logits = malloc(sizeof(float) * (size_t)game->max_actions);
        if (!s.observation || !s.logits) goto done;
    }
    if (!s.nodes || !s.path || !s.slot || !s.legal || !s.untried || !s.ranked || !s.root_ranked ||
        !s.means || !s.errors || !s.world)
        goto done;
    for (int a = 0; a < game->max_actions; a++) s.slot[a] = -1;
    int root_mover = game->current_player(root);
    if (options->candidates > 0) { /* the root's candidates; one is no decision */
        int n_legal = game->legal_actions(root, s.legal);
        if (n_legal <= 1) {
            result->action = s.legal[0];
            status = GS_OK;
            goto done;
        }
        int n = options->rank_net ? net_rank(&s, -1, root, s.legal, n_legal, s.root_ranked)
                                  : game->rank(root, s.legal, n_legal, s.root_ranked);
        if (n < 0) goto done;
        s.n_root_ranked = n < options->candidates ? n : options->candidates;
        if (s.n_root_ranked == 1) {
            result->action = s.root_ranked[0];
            result->n_root = 1;
            if (result->root_action) {
                result->root_action[0] = s.root_ranked[0];
                result->root_visits[0] = 0;
                result->root_mean[0] = 0.0;
            }
            if (result->root_error) result->root_error[0] = INFINITY;
            status = GS_OK;
            goto done;
        }
    }
    new_node(&s, -1, -1);
    double deadline = options->seconds > 0 ? started + options->seconds : 0.0;
    for (;;) {
        status = options->net ? simulate_net(&s, root, seat) : simulate(&s, root, seat);
        if (status == GS_NO_MEMORY && result->simulations > 0 && options->max_nodes <= 0) {
            status = GS_OK; /* the tree is full: the budget ends here */
            break;
        }
        if (status != GS_OK) goto done;
        result->simulations += 1;
        if (options->sims > 0 && result->simulations >= options->sims) break;
        if (options->seconds > 0 && now_seconds() >= deadline) break;
    }
    /* the root children to report and choose among: ascending, or the rank's candidates */
    int16_t *actions = s.legal;
    int n = 0;
    if (options->candidates > 0) {
        n = s.n_root_ranked;
        memcpy(actions, s.root_ranked, sizeof(int16_t) * (size_t)n);
    } else if (options->net) { /* every legal action, the unvisited too (ascending) */
        n = game->legal_actions(root, actions);
    } else {
        for (int32_t c = s.nodes[0].first_child; c >= 0; c = s.nodes[c].next_sibling)
            actions[n++] = s.nodes[c].action;
        qsort(actions, (size_t)n, sizeof actions[0], compare_actions);
    }
    for (int32_t c = s.nodes[0].first_child; c >= 0; c = s.nodes[c].next_sibling)
        if (options->candidates <= 0 || s.nodes[c].mover == root_mover)
            s.slot[s.nodes[c].action] = c;
    /* the most visited (ties: the best mean, then the first; net mode: the higher prior) */
    const float *root_prior = options->net && s.nodes[0].prior_at >= 0
                                  ? s.priors + (size_t)s.nodes[0].prior_at * (size_t)game->max_actions
                                  : NULL;
    double prior_total = 0.0;
    if (root_prior)
        for (int i = 0; i < n; i++) prior_total += root_prior[actions[i]];
    int32_t best_visits = -1;
    int best = 0;
    double best_mean = -INFINITY;
    double *means = s.means, *errors = s.errors;
    for (int i = 0; i < n; i++) {
        static const Node unvisited = {-1, -1, 0, 0, 0.0, 0.0, -1, -1};
        const Node *child = s.slot[actions[i]] >= 0 ? &s.nodes[s.slot[actions[i]]] : &unvisited;
        double mean = child->visits ? child->total / child->visits : -INFINITY;
        means[i] = child->visits ? mean : 0.0;
        errors[i] = standard_error(child);
        double prior = root_prior && prior_total > 0 ? root_prior[actions[i]] / prior_total : 0.0;
        if (result->root_prior) result->root_prior[i] = prior;
        if (root_prior) mean = prior; /* net mode: ties go to the higher prior */
        if (child->visits > best_visits || (child->visits == best_visits && mean > best_mean)) {
            best_visits = child->visits;
            best_mean = mean;
            best = i;
        }
        if (result->root_action) {
            result->root_action[i] = actions[i];
            result->root_visits[i] = child->visits;
            result->root_mean[i] = options->candidates > 0 || root_prior ? means[i] : mean;
        }
        if (result->root_error) result->root_error[i] = errors[i];
    }
    /* the gate: noise alone never overrides the rank's first candidate */
    if (options->z > 0 && best != 0) {
        double error = sqrt(errors[best] * errors[best] + errors[0] * errors[0]);
        if (!(means[best] - means[0] > options->z * error)) best = 0;
    }
    if (n > 0) result->action = actions[best];
    result->n_root = n;
    result->nodes = s.n_nodes;
    status = GS_OK;
done:
    result->actions = s.actions;
    result->evaluations = s.evaluations;
    result->situations = s.situations;
    for (int k = 0; k < GS_MAX_LUCK_TERMS; k++) result->luck_slopes[k] = s.slope[k];
    free(s.luck_path);
    free(s.luck_leaf);
    free(s.luck_end);
    free(s.priors);
    free(s.observation);
    free(s.logits);
    free(s.nodes);
    free(s.path);
    free(s.slot);
    free(s.legal);
    free(s.untried);
    free(s.ranked);
    free(s.root_ranked);
    free(s.means);
    free(s.errors);
    free(s.world);
    free(s.worlds);
    return status;
}
