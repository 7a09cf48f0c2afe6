/* Information-set MCTS written once over a small game interface (gsearch.c): every game with a
 * native core gets the generic search of agents/bots/generic_ismcts.py at native speed by filling
 * a GsGame with its functions (clockwork_search.c, airships_search.c, nippon_search.c,
 * australia_search.c).
 *
 * The algorithm is the Python one's: single-observer ISMCTS (Cowling, Powley and Whitehouse
 * 2012), one tree over the searching seat's action sequences (an open-loop tree: chance happens
 * inside ``apply``); each simulation determinizes the view, descends choosing among the children
 * legal in this world by UCB with availability counts (the ``prior`` bot's choice expanded first
 * and given ``bias / (visits + 1)``), expands one untried action, plays a rollout (the
 * ``playout`` bot, else the game's rollout policy, else uniform) to the end or ``rollout``
 * actions and the game's ``evaluate``, and backs up every seat's result, each node scoring the
 * result of the seat that chose its action. The choice: the most visited root child (ties: the
 * best mean, then the lowest action). The search reads the root only through ``determinize``.
 *
 * Options a game may turn on (all off by default; off, the search is the one above, bit for bit):
 * - ranked candidates (``candidates`` > 0, the game's ``rank``): the root searches the rank's best
 *   ``candidates`` actions (ranked once, on the root as given); a node below widens to
 *   ``max(1, widening * sqrt(visits))`` of its world's ranked actions, expands the first
 *   untried of them, and chooses among them by UCB (ties: the rank's order); children are keyed by
 *   (mover, action); the choice ties in the rank's order; a root with one candidate is not
 *   searched;
 * - the gate (``z`` > 0, with ranked candidates): the rank's first root candidate stays unless
 *   the most visited one's mean beats it by ``z`` standard errors of the difference;
 * - ``skip_forced``: an action that is the only legal one is no decision (no node);
 * - ``max_nodes`` > 0: the tree's size, and once full the simulations go on: they descend among
 *   existing children and roll out from the first node with none in this world (0: the tree grows
 *   to GS_MAX_NODES and a full tree ends the budget).
 *
 * The network mode (``net`` set; agents/az/search.py's PUCT, in C): a simulation descends from a
 * fresh determinization by PUCT, ``Q + c * P * sqrt(N) / (1 + n)`` for the seat to act over the
 * actions legal in this world (``P``: the network's prior renormalised over them; ``N``: their
 * visits; an unvisited action's ``Q``: ``fpu`` below); a forced action still makes a node. With
 * ``paired_worlds`` the determinizations are one list made in order and a root action's k-th
 * visit plays the k-th of them (common random numbers: every root action meets the same worlds,
 * so the difference of two actions' means loses the noise they share). Worlds reach one node in
 * different situations (after a roll: the same seat's chip choice, or the next seat's turn);
 * a node keeps one record per situation, a seat to act and actions legal in both (its prior,
 * value and children), and a situation the node has not met is evaluated like a new node. The
 * first node it reaches that was never evaluated is evaluated: the network reads the acting
 * seat's observation of this world (``observe``) and answers logits, kept as the node's prior
 * for every action (a world where others are legal renormalises them), and one value per seat,
 * mixed with a rollout's results by ``rollout_weight``; those values are backed up (a finished
 * world backs up its results). An unvisited action's ``Q`` (``fpu``): GS_FPU_MEAN, the node's
 * mean for the seat to act so far (its own evaluation and the results of its visited children
 * legal in this world, one sample each), or GS_FPU_FIRST, the node's own evaluation alone (with
 * rollouts, one game's result: a noisy start). The root's prior is mixed with ``noise``
 * (self-play exploration). With ``luck`` (the game's ``luck``) a simulation's results are
 * corrected for chance: a node's result has the luck of the chance events after its action was
 * chosen subtracted, weighted by slopes fitted on the search's earlier simulations (a least-squares
 * fit of the root seat's result on its luck over the whole simulation). The luck has mean zero
 * after any choice, so a node's expected result stays what it was, and its noise loses the share
 * the luck explains (a control variate; the slopes come from earlier simulations only, so they do
 * not bias the one they correct). The choice: the most visited root child (ties: the higher
 * prior, then the lower action; with one simulation, the network's choice). The result reports
 * every legal root action, visited or not. Ranked candidates, ``prior`` and ``max_nodes`` are
 * not used.
 */
#ifndef AIRSHIPS_GSEARCH_H
#define AIRSHIPS_GSEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "gnet.h"
#include "rng.h"

#define GS_MAX_PLAYERS 8
#define GS_MAX_NODES 4000000 /* ~190 MB: a long time budget's search ends when its tree is full */

/* A game, as the search sees it. States are plain structs of ``state_size`` bytes (copied with
 * memcpy). Every function but the optional ones must be set. */
typedef struct {
    size_t state_size;
    int max_actions; /* room the legal-action buffer needs */
    int (*current_player)(const void *state);
    int (*num_players)(const void *state);
    int (*is_terminal)(const void *state);
    /* The legal actions, ascending, into ``out``; their number (> 0 unless terminal). */
    int (*legal_actions)(const void *state, int16_t *out);
    /* Apply a legal action (chance from the state's own generator); 0, or an error code. */
    int (*apply)(void *state, int action);
    /* A finished game's result per seat: 1/k for each of the k winners, 0 for the others. */
    void (*results)(const void *state, double *out);
    /* A world consistent with ``seat``'s view of ``root`` into ``out``, drawn from ``rng``. */
    void (*determinize)(const void *root, int seat, Rng *rng, void *out);
    /* The game's bot ``bot`` (a code > 0) for the seat to act, drawing from ``rng``; optional. */
    int (*bot_action)(const void *state, int bot, Rng *rng);
    /* The game's rollout policy; optional (NULL: uniform over the legal actions). */
    int (*rollout_action)(const void *state, Rng *rng);
    /* Each seat's value of an unfinished state in [0, 1]; optional (needed by ``rollout``). */
    void (*evaluate)(const void *state, double *out);
    /* The legal actions worth searching, best first (a subset of ``legal``, in the game's order
     * of preference), into ``out``; their number (>= 1). Optional (needed by ``candidates``). */
    int (*rank)(const void *state, const int16_t *legal, int n_legal, int16_t *out);
    /* The length of a seat's observation, and that observation of ``state`` into ``out``;
     * optional (needed by ``net``). */
    int (*observation_size)(const void *state);
    void (*observe)(const void *state, int seat, float *out);
    /* Luck (needed by ``luck``; optional: 0 and NULL): ``luck_terms`` (at most GS_MAX_LUCK_TERMS)
     * numbers per seat into ``out``, seat by seat, each a sum over the chance events since the
     * determinization of an outcome's measure less its expectation given the state before it
     * (mean zero whatever the seats choose), relative to the other seats'. */
    int luck_terms;
    void (*luck)(const void *state, double *out);
} GsGame;

#define GS_MAX_LUCK_TERMS 4

/* Paired worlds a search keeps at most (a root action's later visits get fresh ones): ~12 MB of
 * Airships'. The module exports it (``GS_MAX_WORLDS``) for agents/az/search.py's tree. */
#define GS_MAX_WORLDS 8192

typedef struct {
    int64_t sims;        /* simulations per decision; 0: none */
    double seconds;      /* time per decision; 0: none (at least one budget is set) */
    double c;            /* UCB exploration constant (>= 0) */
    int32_t max_rollout; /* rollout actions before a rollout counts as a draw */
    int32_t rollout;     /* rollout actions before ``evaluate`` scores the state; -1: to the end */
    int32_t prior;       /* bot code of the prior (0: none) */
    double bias;         /* the prior's progressive bias (>= 0) */
    int32_t playout;     /* bot code of the rollouts (0: the game's rollout policy, else uniform) */
    /* Off when 0 (see the top of this file); set by name, after the fields above. */
    int32_t candidates;  /* > 0: ranked candidates, the root searches the rank's best this many
                          * (needs ``rank`` and widening > 0; not with ``prior``) */
    double widening;     /* ranked: children below the root, max(1, widening * sqrt(visits)) */
    double z;            /* ranked: the gate's standard errors (0: the most visited, always) */
    int32_t skip_forced; /* 1: a forced action is no decision (the simulation stays in its node) */
    int32_t max_nodes;   /* > 0: the tree's size limit; a full tree's simulations go on */
    /* The network mode (see "net" at the top of this file): the network, or NULL. */
    const GnNet *net;
    double rollout_weight; /* a leaf's value: (1 - w) * the network's + w * a rollout's */
    const double *noise;   /* max_actions entries mixed into the root's prior, or NULL */
    double noise_fraction; /* the noise's share of the root prior */
    double temperature;    /* the prior is softmax(logits / temperature) (> 0; 0 counts as 1) */
    int32_t fpu;           /* an unvisited action's Q: GS_FPU_MEAN (0) or GS_FPU_FIRST */
    int32_t paired_worlds; /* 1: a root action's k-th visit plays the search's k-th world (every
                            * root action meets the same worlds: common random numbers) */
    int32_t luck;          /* 1: the game's luck as a control variate (see "luck" above) */
    /* Ranked candidates only: the root's actions ranked by this network's logits for the acting
     * seat's observation of the root (needs ``observe``), in place of the game's ``rank``; the
     * nodes below the root keep the game's rank. NULL: the game's rank everywhere. */
    const GnNet *rank_net;
    int32_t rank_all; /* with ``rank_net``: every node's actions ranked by it, not the root's only */
} GsOptions;

typedef struct {
    int32_t action;      /* the chosen action, or -1 */
    int64_t simulations; /* simulations run */
    int32_t nodes;       /* tree nodes made */
    int32_t n_root;      /* root children, ascending by action */
    int16_t *root_action; /* caller's buffers of max_actions entries (or NULL) */
    int32_t *root_visits;
    double *root_mean;
    double *root_error;  /* the standard error of each root child's mean (or NULL): INFINITY
                          * below 2 visits */
    int64_t actions;     /* actions applied in all simulations (the tree's and the rollouts') */
    double *root_prior;  /* net mode: each root action's prior as the search used it, renormalised
                          * over the root's legal actions (or NULL) */
    int32_t evaluations; /* net mode: network evaluations */
    int32_t situations;  /* net mode: records made for a situation a node had not met */
    double luck_slopes[GS_MAX_LUCK_TERMS]; /* net mode with ``luck``: the slopes at the end */
} GsResult;

/* The network mode's first-play value (``fpu``): what an unvisited action's Q is. */
enum { GS_FPU_MEAN = 0, GS_FPU_FIRST = 1 };

enum {
    GS_OK = 0,
    GS_NO_MEMORY = 1,
    GS_GAME_OVER = 2,
    GS_BAD_OPTIONS = 3,
    GS_APPLY_FAILED = 4 /* the game refused an action it called legal (a data file's limit) */
};

/* Search the decision of ``seat`` in ``root`` (its view, or the true state: only what
 * ``determinize`` keeps of it is read, and, with ranked candidates, what ``rank`` reads of it)
 * with ``rng`` the search's own generator (advanced). With ranked candidates the root children
 * are reported in the rank's order, unvisited ones included (mean 0). */
int gs_search(const GsGame *game, const void *root, int seat, const GsOptions *options, Rng *rng,
              GsResult *result);

/* -- games --------------------------------------------------------------------------------- */
/* Escape from Clockwork City (clockwork_search.c): bots are CW_BOT_* codes. */
extern const GsGame GS_CLOCKWORK;
/* Airships (airships_search.c): states are SearchWorld (core.h), bots are BOT_* codes. */
extern const GsGame GS_AIRSHIPS;
/* Nippon (nippon_search.c): states are NiSearchState (nippon.h), bots are NI_BOT_* codes. */
extern const GsGame GS_NIPPON;
/* Australia (australia_search.c): bots are AU_BOT_* codes. */
extern const GsGame GS_AUSTRALIA;

#endif
