/* Information-set MCTS over the GsGame interface (gsearch.h): agents/bots/generic_ismcts.py's
 * GenericISMCTSAgent in C. Not bit-identical to it (the budgets differ with the speed), but the
 * same algorithm, deterministic for a ``sims`` budget and a generator state, and blind to
 * everything ``determinize`` does not keep of the root.
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
    double total; /* the results of ``mover`` summed over the visits */
    int16_t action;
    int8_t mover; /* the seat that chose ``action`` (-1 at the root) */
} Node;

typedef struct {
    const GsGame *game;
    const GsOptions *options;
    Rng *rng;
    Node *nodes;
    int32_t n_nodes, capacity;
    int32_t *path;
    int32_t *slot; /* per action: the child of the node being visited, or -1 */
    int16_t *legal, *untried;
    unsigned char *world;
} Search;

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A new node (the array grows by doubling); its index, or -1 when memory or the limit runs out. */
static int32_t new_node(Search *s, int action, int mover) {
    if (s->n_nodes == s->capacity) {
        if (s->capacity >= GS_MAX_NODES) return -1;
        int32_t capacity = s->capacity * 2 > GS_MAX_NODES ? GS_MAX_NODES : s->capacity * 2;
        Node *nodes = realloc(s->nodes, sizeof(Node) * (size_t)capacity);
        if (!nodes) return -1;
        s->nodes = nodes;
        int32_t *path = realloc(s->path, sizeof(int32_t) * ((size_t)capacity + 1));
        if (!path) return -1;
        s->path = path;
        s->capacity = capacity;
    }
    Node *node = &s->nodes[s->n_nodes];
    node->first_child = node->next_sibling = -1;
    node->visits = node->available = 0;
    node->total = 0.0;
    node->action = (int16_t)action;
    node->mover = (int8_t)mover;
    return s->n_nodes++;
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
        if (g->apply(world, action) != 0) return GS_APPLY_FAILED;
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

/* UCB over the legal children (all tried): availability counts, the prior's progressive bias,
 * ties to the lowest action (the legal actions are ascending). */
static int select_child(Search *s, int n_legal, int favoured) {
    const GsOptions *o = s->options;
    int best = s->legal[0];
    double best_value = -INFINITY;
    for (int i = 0; i < n_legal; i++) {
        int action = s->legal[i];
        const Node *child = &s->nodes[s->slot[action]];
        double value = child->total / child->visits +
                       o->c * sqrt(log((double)child->available) / child->visits);
        if (action == favoured) value += o->bias / (child->visits + 1);
        if (value > best_value) {
            best_value = value;
            best = action;
        }
    }
    return best;
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
        for (int32_t c = s->nodes[node].first_child; c >= 0; c = s->nodes[c].next_sibling)
            s->slot[s->nodes[c].action] = c;
        int n_untried = 0;
        int16_t *untried = s->untried;
        for (int i = 0; i < n_legal; i++) {
            int32_t child = s->slot[s->legal[i]];
            if (child < 0) untried[n_untried++] = s->legal[i];
            else s->nodes[child].available += 1;
        }
        int mover = g->current_player(world);
        int favoured = -1;
        if (o->prior > 0)
            favoured = n_legal == 1 ? s->legal[0] : g->bot_action(world, o->prior, s->rng);
        int action;
        if (n_untried > 0) {
            action = -1;
            for (int i = 0; i < n_untried; i++)
                if (untried[i] == favoured) action = favoured;
            if (action < 0) action = untried[uniform_below(s->rng, (uint64_t)n_untried)];
        } else {
            action = select_child(s, n_legal, favoured);
        }
        int32_t next = n_untried > 0 ? -1 : s->slot[action];
        for (int32_t c = s->nodes[node].first_child; c >= 0; c = s->nodes[c].next_sibling)
            s->slot[s->nodes[c].action] = -1;
        if (next < 0) {
            next = new_node(s, action, mover);
            if (next < 0) return GS_NO_MEMORY;
            s->nodes[next].available = 1;
            s->nodes[next].next_sibling = s->nodes[node].first_child;
            s->nodes[node].first_child = next;
        }
        if (g->apply(world, action) != 0) return GS_APPLY_FAILED;
        s->path[depth++] = next;
        node = next;
        if (n_untried > 0) break;
    }
    double results[GS_MAX_PLAYERS];
    int status = finish(s, world, results);
    if (status != GS_OK) return status;
    for (int i = 0; i < depth; i++) {
        Node *visited = &s->nodes[s->path[i]];
        visited->visits += 1;
        visited->total += results[visited->mover];
    }
    return GS_OK;
}

static int compare_actions(const void *a, const void *b) {
    return (int)*(const int16_t *)a - (int)*(const int16_t *)b;
}

int gs_search(const GsGame *game, const void *root, int seat, const GsOptions *options, Rng *rng,
              GsResult *result) {
    result->action = -1;
    result->simulations = 0;
    result->nodes = 0;
    result->n_root = 0;
    if (options->sims <= 0 && options->seconds <= 0) return GS_BAD_OPTIONS;
    if ((options->prior > 0 || options->playout > 0) && !game->bot_action) return GS_BAD_OPTIONS;
    if (options->rollout >= 0 && !game->evaluate) return GS_BAD_OPTIONS;
    if (game->is_terminal(root)) return GS_GAME_OVER;
    Search s = {game, options, rng, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL};
    int status = GS_NO_MEMORY;
    s.capacity = 1024;
    s.nodes = malloc(sizeof(Node) * (size_t)s.capacity);
    s.path = malloc(sizeof(int32_t) * ((size_t)s.capacity + 1));
    s.slot = malloc(sizeof(int32_t) * (size_t)game->max_actions);
    s.legal = malloc(sizeof(int16_t) * (size_t)game->max_actions);
    s.untried = malloc(sizeof(int16_t) * (size_t)game->max_actions);
    s.world = malloc(game->state_size);
    if (!s.nodes || !s.path || !s.slot || !s.legal || !s.untried || !s.world) goto done;
    for (int a = 0; a < game->max_actions; a++) s.slot[a] = -1;
    new_node(&s, -1, -1);
    double deadline = options->seconds > 0 ? now_seconds() + options->seconds : 0.0;
    for (;;) {
        status = simulate(&s, root, seat);
        if (status == GS_NO_MEMORY && result->simulations > 0) {
            status = GS_OK; /* the tree is full: the budget ends here */
            break;
        }
        if (status != GS_OK) goto done;
        result->simulations += 1;
        if (options->sims > 0 && result->simulations >= options->sims) break;
        if (options->seconds > 0 && now_seconds() >= deadline) break;
    }
    /* the most visited root child (ties: the best mean, then the lowest action) */
    int16_t *actions = s.legal;
    int n = 0;
    for (int32_t c = s.nodes[0].first_child; c >= 0; c = s.nodes[c].next_sibling)
        actions[n++] = s.nodes[c].action;
    qsort(actions, (size_t)n, sizeof actions[0], compare_actions);
    for (int32_t c = s.nodes[0].first_child; c >= 0; c = s.nodes[c].next_sibling)
        s.slot[s.nodes[c].action] = c;
    int32_t best_visits = -1;
    double best_mean = -INFINITY;
    for (int i = 0; i < n; i++) {
        const Node *child = &s.nodes[s.slot[actions[i]]];
        double mean = child->visits ? child->total / child->visits : -INFINITY;
        if (child->visits > best_visits || (child->visits == best_visits && mean > best_mean)) {
            best_visits = child->visits;
            best_mean = mean;
            result->action = actions[i];
        }
        if (result->root_action) {
            result->root_action[i] = actions[i];
            result->root_visits[i] = child->visits;
            result->root_mean[i] = mean;
        }
    }
    result->n_root = n;
    result->nodes = s.n_nodes;
    status = GS_OK;
done:
    free(s.nodes);
    free(s.path);
    free(s.slot);
    free(s.legal);
    free(s.untried);
    free(s.world);
    return status;
}
