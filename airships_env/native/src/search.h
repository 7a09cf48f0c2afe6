/* Information-set Monte Carlo tree search on the native core (search.c).
 *
 * Single-observer ISMCTS (Cowling, Powley and Whitehouse 2012): one tree over the public action
 * history, every iteration played in a fresh determinization of the public view (hidden deck
 * order and stack contents re-dealt, a fresh dice generator), so chance is handled by sampled
 * outcomes. Per-player values (max-n): each node keeps every seat's value and the seat that
 * chose its edge maximises its own. Children are widened in the order of the heuristic bot's
 * values, and rollouts are played by a native bot.
 */
#ifndef AIRSHIPS_SEARCH_H
#define AIRSHIPS_SEARCH_H

#include "core.h"

#define SEARCH_MAX_ROLLOUT_ACTIONS 1000 /* a rollout stops here (random games can stall) */

typedef struct {
    int64_t sims;          /* simulation budget; 0: none */
    double seconds;        /* time budget; 0: none (at least one budget is set) */
    int32_t rollout;       /* BOT_RANDOM, BOT_GREEDY or BOT_HEURISTIC */
    int32_t candidates;    /* the root searches the heuristic's best this many (one per target) */
    double c;              /* UCB exploration constant */
    double margin_weight;  /* value = win share + margin_weight * tanh(margin / 10) */
    double widening;       /* below the root: max(1, widening * sqrt(visits)) children */
    double z;              /* the heuristic's choice is kept unless the most visited candidate's
                            * mean beats it by z standard errors (0: the most visited, always) */
    int32_t max_nodes;     /* tree size limit; once full, iterations roll out from the leaf */
    uint64_t seed;         /* the search's own generator (determinizations, random rollouts) */
    GreedyConfig greedy;
    HeuristicConfig heuristic;
} SearchConfig;

typedef struct {
    int32_t action;      /* the chosen action */
    int64_t simulations; /* iterations run */
    int64_t actions;     /* actions applied in all iterations (tree and rollouts) */
    int32_t nodes;       /* tree nodes used */
    int32_t n_root;      /* root candidates, in the heuristic's order */
    int8_t root_action[NUM_ACTIONS];
    int32_t root_visits[NUM_ACTIONS];
    double root_value[NUM_ACTIONS]; /* the acting seat's mean value */
    double root_error[NUM_ACTIONS]; /* its standard error */
} SearchResult;

enum { SEARCH_OK = 0, SEARCH_NO_MEMORY = 1, SEARCH_GAME_OVER = 2 };

/* Search the decision of the player to act in ``game`` (a full state or a public view: only its
 * public view is used, so the hidden cards never matter). ``game`` is not modified. */
int search_run(const Game *game, const Cards *cards, const Options *options,
               const SearchConfig *config, SearchResult *result);

#endif
