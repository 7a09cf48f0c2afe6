/* Australia as a game of the generic search (gsearch.h): its rules, views and bots (australia.c,
 * australia_view.c, australia_bots.c), and ports of the search hooks of the Python game
 * (airships_env/games/australia/__init__.py): ``evaluate`` (gamekit.score_shares of each seat's
 * VP + dollars over a fifth of score_scale) and ``rollout_action`` (actions.kind_uniform_choice);
 * tests/native/test_australia_search.py holds the two to the same values and draws.
 */
#include <math.h>

#include "australia.h"
#include "gsearch.h"

#define SHARE_SPREAD 10.0 /* AustraliaGame.score_scale / 5 */

/* The rank of an action's kind (actions.ACTION_KINDS, the first word of its name) among the kinds
 * sorted by name: done, draw, end, fly, move, no, place, play, ranger, stop, take, windmill. */
enum { K_DONE, K_DRAW, K_END, K_FLY, K_MOVE, K_NO, K_PLACE, K_PLAY, K_RANGER, K_STOP, K_TAKE,
       K_WINDMILL, NUM_KINDS };

static int kind_rank(int action) {
    if (action < AU_A_PLAY) return K_FLY;
    if (action < AU_A_PLACE) return K_PLAY; /* play, play paying */
    if (action < AU_A_NO_RANGERS) return K_PLACE;
    if (action < AU_A_RANGER_TRACK) return K_NO;
    if (action < AU_A_STOP_PLACING) return K_RANGER;
    if (action < AU_A_DRAW) return K_STOP;
    if (action < AU_A_TAKE_BACK) return K_DRAW;
    if (action < AU_A_DONE_TAKING) return K_TAKE;
    if (action < AU_A_MOVE_FROM) return K_DONE;
    if (action < AU_A_END_TURN) return K_MOVE; /* move from, move to */
    if (action < AU_A_WINDMILL) return K_END;
    return K_WINDMILL;
}

/* actions.kind_uniform_choice: a kind of the legal actions uniformly (in name order), then one of
 * its actions uniformly (ascending), each by uniform_below. */
int au_rollout_action(const AuGame *g, Rng *rng) {
    int16_t legal[AU_NUM_ACTIONS];
    int n = au_legal_actions(g, legal);
    int count[NUM_KINDS] = {0}, first[NUM_KINDS];
    for (int i = 0; i < n; i++) {
        int k = kind_rank(legal[i]);
        if (count[k]++ == 0) first[k] = i; /* a kind's actions are contiguous in ``legal`` */
    }
    int present[NUM_KINDS], n_kinds = 0;
    for (int k = 0; k < NUM_KINDS; k++)
        if (count[k]) present[n_kinds++] = k;
    int chosen = present[uniform_below(rng, (uint64_t)n_kinds)];
    return legal[first[chosen] + (int)uniform_below(rng, (uint64_t)count[chosen])];
}

/* AustraliaGame.evaluate: gamekit.score_shares(VP + dollars, 10), a softmax summed in seat order. */
void au_evaluate_values(const AuGame *g, double *out) {
    int n = g->num_players, top = 0;
    for (int p = 0; p < n; p++) {
        int total = g->vp[p] + g->dollars[p];
        if (p == 0 || total > top) top = total;
    }
    double sum = 0.0;
    for (int p = 0; p < n; p++) {
        out[p] = exp((double)(g->vp[p] + g->dollars[p] - top) / SHARE_SPREAD);
        sum += out[p];
    }
    for (int p = 0; p < n; p++) out[p] /= sum;
}

static int au_current(const void *s) { return ((const AuGame *)s)->current; }
static int au_players(const void *s) { return ((const AuGame *)s)->num_players; }
static int au_terminal(const void *s) { return ((const AuGame *)s)->phase == AU_OVER; }
static int au_legal(const void *s, int16_t *out) { return au_legal_actions((const AuGame *)s, out); }

static int au_apply_search(void *s, int action) {
    au_apply_legal((AuGame *)s, action, NULL);
    return 0;
}

static void au_results(const void *s, double *out) { /* E3: 1/k for each of the k winners */
    const AuGame *g = s;
    int n_winners;
    unsigned winners = au_winners(g, &n_winners);
    for (int p = 0; p < g->num_players; p++)
        out[p] = winners >> p & 1u ? 1.0 / n_winners : 0.0;
}

/* A world for one simulation: its generator is never drawn from (all chance is at setup). */
static void au_determinize_search(const void *root, int seat, Rng *rng, void *out) {
    au_determinize((const AuGame *)root, seat, rng, (AuGame *)out, 0);
}

static int au_bot(const void *s, int bot, Rng *rng) {
    return au_bot_action((const AuGame *)s, bot, rng);
}

static int au_rollout(const void *s, Rng *rng) { return au_rollout_action((const AuGame *)s, rng); }

static void au_evaluate(const void *s, double *out) { au_evaluate_values((const AuGame *)s, out); }

const GsGame GS_AUSTRALIA = {
    sizeof(AuGame),  AU_NUM_ACTIONS, au_current,           au_players, au_terminal, au_legal,
    au_apply_search, au_results,     au_determinize_search, au_bot,     au_rollout,  au_evaluate,
};
