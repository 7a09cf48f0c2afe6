/* Information-set MCTS on the native core (see search.h for the design).
 *
 * Why one tree for every seat is sound here: in Airships nobody holds private information (V2:
 * the deck order, the cards under the stack tops and the left-out airships are hidden from every
 * player), so every seat's information set is the same public view, and a determinization is a
 * sample of the chance still to come. The tree is keyed by (seat, action) edges over that public
 * history; what chance does between two decisions (dice, reveals) differs from iteration to
 * iteration, so a node's children are those legal in the current determinization, and the UCB
 * of a child counts the iterations in which it was available (ISMCTS's subset-armed bandit).
 *
 * Nothing here touches the caller's game or its generator: the root is the game's public view,
 * every determinization is drawn from the search's own generator (config->seed), and each
 * determinization's dice come from a generator seeded from it (game_determinize).
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c11 */
#include "search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    int32_t first_child, next_sibling;
    int32_t visits, available;
    int8_t action, player; /* the edge into this node: which seat chose which action */
    double value[MAX_PLAYERS]; /* every seat's summed result over the visits */
    double square;             /* the summed squares of the choosing seat's results */
} Node;

typedef struct {
    const Cards *cards;
    const Options *options;
    const SearchConfig *config;
    ShapeCache *cache;
    Rng rng;
    Node *nodes;
    int32_t n_nodes;
    int64_t actions;
} Search;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int32_t new_node(Search *s, int32_t parent, int action, int player) {
    if (s->n_nodes >= s->config->max_nodes) return -1;
    int32_t id = s->n_nodes++;
    Node *node = &s->nodes[id];
    memset(node, 0, sizeof *node);
    node->first_child = -1;
    node->action = (int8_t)action;
    node->player = (int8_t)player;
    if (parent >= 0) {
        node->next_sibling = s->nodes[parent].first_child;
        s->nodes[parent].first_child = id;
    } else {
        node->next_sibling = -1;
    }
    return id;
}

static int32_t find_child(const Search *s, int32_t parent, int action, int player) {
    for (int32_t c = s->nodes[parent].first_child; c >= 0; c = s->nodes[c].next_sibling)
        if (s->nodes[c].action == action && s->nodes[c].player == player) return c;
    return -1;
}

/* The legal actions ranked by the heuristic's values, best first (ties: action order), one per
 * target (between the exchange variants of one target only the odds differ, and the heuristic
 * already weighs them). Returns how many. */
static int ranked_actions(Search *s, const Game *game, const int8_t *legal, int n_legal,
                          int8_t *out) {
    double values[NUM_ACTIONS];
    bot_heuristic_values(game, s->cards, s->options, s->cache, &s->config->heuristic, legal,
                         n_legal, values);
    int best_of_target[NUM_TARGETS];
    for (int t = 0; t < NUM_TARGETS; t++) best_of_target[t] = -1;
    int keep[NUM_ACTIONS], n = 0;
    for (int i = 0; i < n_legal; i++) {
        if (legal[i] < NUM_ATTEMPTS) {
            int t = legal[i] / NUM_VARIANTS;
            int at = best_of_target[t];
            if (at >= 0) {
                if (values[i] > values[keep[at]]) keep[at] = i;
                continue;
            }
            best_of_target[t] = n;
        }
        keep[n++] = i;
    }
    /* insertion sort, descending by value, stable */
    for (int i = 1; i < n; i++) {
        int v = keep[i], j = i - 1;
        while (j >= 0 && values[keep[j]] < values[v]) {
            keep[j + 1] = keep[j];
            j--;
        }
        keep[j + 1] = v;
    }
    for (int i = 0; i < n; i++) out[i] = legal[keep[i]];
    return n;
}

static int rollout_action(Search *s, const Game *game, const int8_t *legal, int n_legal) {
    if (n_legal == 1) return legal[0];
    switch (s->config->rollout) {
    case BOT_RANDOM:
        return legal[uniform_below(&s->rng, (uint64_t)n_legal)];
    case BOT_GREEDY:
        return bot_greedy(game, s->cards, s->options, s->cache, &s->config->greedy, legal, n_legal);
    default:
        return bot_heuristic(game, s->cards, s->options, s->cache, &s->config->heuristic, legal,
                             n_legal);
    }
}

/* Every seat's result: its share of the win plus margin_weight * tanh(margin / 10), the margin
 * over the best other seat. A game the rollout cap stopped is judged by the scores so far. */
static void results_of(const Search *s, const Game *game, double *out) {
    int16_t scores[MAX_PLAYERS];
    uint8_t winners = 0;
    int n = game->num_players;
    if (game->phase == GAME_OVER) {
        memcpy(scores, game->final_scores, sizeof scores);
        winners = game->winners_mask;
    } else {
        game_scores(game, s->cards, scores);
        int best = -32768;
        for (int p = 0; p < n; p++) best = scores[p] > best ? scores[p] : best;
        for (int p = 0; p < n; p++)
            if (scores[p] == best) winners |= (uint8_t)(1u << p);
    }
    int n_winners = 0;
    for (int p = 0; p < n; p++) n_winners += winners >> p & 1u;
    for (int p = 0; p < n; p++) {
        int best_other = -32768;
        for (int q = 0; q < n; q++)
            if (q != p && scores[q] > best_other) best_other = scores[q];
        double win = (winners >> p & 1u) ? 1.0 / n_winners : 0.0;
        out[p] = win + s->config->margin_weight * tanh((scores[p] - best_other) / 10.0);
    }
}

static int apply_action(Search *s, Game *world, int action) {
    Record record;
    s->actions++;
    return game_apply(world, s->cards, s->options, action, NULL, NULL, &record);
}

/* One iteration from the root: determinize, select and expand down the tree, roll out, back up. */
static int iterate(Search *s, const Game *view, const int8_t *root_ranked, int n_root) {
    Game world;
    game_determinize(&world, view, s->cards, &s->rng);
    int32_t path[SEARCH_MAX_ROLLOUT_ACTIONS + 1];
    int depth = 0;
    int32_t node = 0;
    path[depth++] = node;
    int8_t legal[NUM_ACTIONS], ranked[NUM_ACTIONS];
    int in_tree = 1, steps = 0;
    while (world.phase != GAME_OVER && steps < SEARCH_MAX_ROLLOUT_ACTIONS) {
        int n_legal = game_legal_list(&world, s->cards, s->options, legal);
        if (n_legal <= 0) break; /* cannot happen in a sound state */
        int action;
        if (!in_tree) {
            action = rollout_action(s, &world, legal, n_legal);
        } else if (n_legal == 1) {
            action = legal[0]; /* a forced move is no decision: it stays in the same node */
        } else {
            int player = world.current_player;
            int n_ranked, allowed;
            const int8_t *order;
            if (node == 0) {
                order = root_ranked;
                n_ranked = allowed = n_root;
            } else {
                n_ranked = ranked_actions(s, &world, legal, n_legal, ranked);
                order = ranked;
                double width = s->config->widening * sqrt((double)s->nodes[node].visits);
                allowed = width < 1.0 ? 1 : (int)width;
                if (allowed > n_ranked) allowed = n_ranked;
            }
            /* the first allowed action without a child is expanded; else UCB over the children */
            int32_t chosen = -1;
            int expand = -1;
            for (int i = 0; i < allowed; i++) {
                int32_t child = find_child(s, node, order[i], player);
                if (child < 0) {
                    if (expand < 0) expand = order[i];
                    continue;
                }
                s->nodes[child].available++;
            }
            if (expand >= 0) {
                chosen = new_node(s, node, expand, player);
                if (chosen >= 0) {
                    s->nodes[chosen].available = 1;
                    in_tree = 0;
                    action = expand;
                } else {
                    expand = -1; /* the tree is full: choose among the existing children */
                }
            }
            if (chosen < 0) {
                double best = -INFINITY;
                for (int i = 0; i < allowed; i++) {
                    int32_t child = find_child(s, node, order[i], player);
                    if (child < 0) continue;
                    const Node *c = &s->nodes[child];
                    double score = c->visits
                                       ? c->value[player] / c->visits +
                                             s->config->c * sqrt(log((double)c->available) / c->visits)
                                       : INFINITY;
                    if (score > best) {
                        best = score;
                        chosen = child;
                    }
                }
            }
            if (chosen < 0) { /* nothing to descend into (a full tree): roll out from here */
                in_tree = 0;
                action = rollout_action(s, &world, legal, n_legal);
            } else {
                action = s->nodes[chosen].action;
                node = chosen;
                path[depth++] = node;
            }
        }
        int code = apply_action(s, &world, action);
        if (code != CORE_OK) return code;
        steps++;
    }
    double results[MAX_PLAYERS] = {0, 0, 0, 0};
    results_of(s, &world, results);
    for (int i = 0; i < depth; i++) {
        Node *n = &s->nodes[path[i]];
        n->visits++;
        for (int p = 0; p < world.num_players; p++) n->value[p] += results[p];
        if (n->player >= 0) n->square += results[n->player] * results[n->player];
    }
    return CORE_OK;
}

int search_run(const Game *game, const Cards *cards, const Options *options,
               const SearchConfig *config, SearchResult *result) {
    memset(result, 0, sizeof *result);
    if (game->phase == GAME_OVER) return SEARCH_GAME_OVER;
    double started = now_seconds();
    Game view;
    game_public_view(&view, game, cards);
    int8_t legal[NUM_ACTIONS];
    int n_legal = game_legal_list(&view, cards, options, legal);
    result->action = legal[0];
    if (n_legal <= 1) return SEARCH_OK;

    Search s;
    memset(&s, 0, sizeof s);
    s.cards = cards;
    s.options = options;
    s.config = config;
    uint32_t words[2] = {(uint32_t)config->seed, (uint32_t)(config->seed >> 32)};
    rng_seed_sequence(&s.rng, words, 2, NULL, 0);
    s.cache = calloc(1, sizeof(ShapeCache));
    s.nodes = malloc((size_t)(config->max_nodes > 1 ? config->max_nodes : 1) * sizeof(Node));
    if (!s.cache || !s.nodes) {
        free(s.cache);
        free(s.nodes);
        return SEARCH_NO_MEMORY;
    }

    int8_t root_ranked[NUM_ACTIONS];
    int n_root = ranked_actions(&s, &view, legal, n_legal, root_ranked);
    if (n_root > config->candidates) n_root = config->candidates > 0 ? config->candidates : 1;
    result->action = root_ranked[0];
    result->n_root = n_root;
    for (int i = 0; i < n_root; i++) result->root_action[i] = root_ranked[i];
    if (n_root == 1) {
        free(s.cache);
        free(s.nodes);
        return SEARCH_OK;
    }
    new_node(&s, -1, -1, -1);
    int code = CORE_OK;
    for (;;) {
        if (config->sims > 0 && result->simulations >= config->sims) break;
        if (config->seconds > 0 && result->simulations > 0 &&
            now_seconds() - started >= config->seconds)
            break;
        code = iterate(&s, &view, root_ranked, n_root);
        if (code != CORE_OK) break;
        result->simulations++;
    }
    /* the most visited candidate; ties: the better mean, then the heuristic's order */
    int player = view.current_player;
    int best = 0, best_visits = -1;
    double best_mean = -INFINITY;
    for (int i = 0; i < n_root; i++) {
        int32_t child = find_child(&s, 0, root_ranked[i], player);
        int visits = child >= 0 ? s.nodes[child].visits : 0;
        double mean = visits ? s.nodes[child].value[player] / visits : -INFINITY;
        result->root_visits[i] = visits;
        result->root_value[i] = visits ? mean : 0.0;
        result->root_error[i] = INFINITY;
        if (visits > 1) {
            double variance = (s.nodes[child].square - visits * mean * mean) / (visits - 1);
            result->root_error[i] = sqrt((variance > 0 ? variance : 0.0) / visits);
        }
        if (visits > best_visits || (visits == best_visits && mean > best_mean)) {
            best = i;
            best_visits = visits;
            best_mean = mean;
        }
    }
    /* noise alone never overrides the heuristic: its choice stays unless clearly beaten */
    if (best != 0 && config->z > 0) {
        double error = sqrt(result->root_error[best] * result->root_error[best] +
                            result->root_error[0] * result->root_error[0]);
        if (!(result->root_value[best] - result->root_value[0] > config->z * error)) best = 0;
    }
    result->action = root_ranked[best];
    result->actions = s.actions;
    result->nodes = s.n_nodes;
    free(s.cache);
    free(s.nodes);
    return code == CORE_OK ? SEARCH_OK : SEARCH_GAME_OVER + code;
}
