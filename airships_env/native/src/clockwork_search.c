/* Escape from Clockwork City as a game of the generic search (gsearch.h): its rules, views and
 * bots (clockwork.c, clockwork_view.c, clockwork_bots.c), and ports of the search hooks of the
 * Python game: ``rollout_action`` (airships_env/games/clockwork/rollout.py) and ``evaluate``
 * (airships_env/games/clockwork/evaluate.py, the fitted weights copied from it; a test holds the
 * two to the same values).
 */
#include <math.h>
#include <string.h>

#include "clockwork.h"
#include "gsearch.h"

#define HEURISTIC_THRESHOLD 0.3 /* agents.bots.clockwork.HeuristicBot's default */

static int cw_current(const void *s) { return ((const CwGame *)s)->actor; }
static int cw_players(const void *s) { return ((const CwGame *)s)->num_players; }
static int cw_terminal(const void *s) { return ((const CwGame *)s)->phase == CW_OVER; }
static int cw_legal(const void *s, int16_t *out) { return cw_legal_actions((const CwGame *)s, out); }

static int cw_apply_search(void *s, int action) {
    CwRecord record;
    return cw_apply_legal((CwGame *)s, action, NULL, &record);
}

static void cw_results(const void *s, double *out) { /* W2/W3: the winner 1, a draw all 0 */
    const CwGame *g = s;
    for (int p = 0; p < g->num_players; p++) out[p] = p == g->winner ? 1.0 : 0.0;
}

static void cw_determinize_search(const void *root, int seat, Rng *rng, void *out) {
    cw_determinize((const CwGame *)root, seat, rng, (CwGame *)out);
}

static int cw_bot(const void *s, int bot, Rng *rng) {
    return cw_bot_action((const CwGame *)s, bot, HEURISTIC_THRESHOLD, rng);
}

/* rollout._lands_on_yard */
static int lands_on_yard(const CwGame *g, int action) {
    int position = g->pawns[g->actor], length = g->config.length, field;
    if (action < CW_A_MOVE_CCW) field = (position + action - CW_A_MOVE_CW + 1) % length;
    else field = position - (action - CW_A_MOVE_CCW + 1);
    field = (field % length + length) % length;
    for (int k = 0; k < CW_NUM_YARDS; k++)
        if (g->config.yards[k] == field) return g->pile_size[k] > 0;
    return 0;
}

/* rollout.rollout_action: draw when possible, head for a Scrapyard with cards, answer with Scrap
 * Metal, discard what it holds least of. */
static int cw_rollout(const void *s, Rng *rng) {
    const CwGame *g = s;
    int16_t legal[CW_NUM_ACTIONS];
    int n = cw_legal_actions(g, legal);
    if (n == 1) return legal[0];
    for (int i = 0; i < n; i++)
        if (legal[i] == CW_A_DRAW) return CW_A_DRAW;
    const int8_t *hand = g->hands[g->actor];
    if (g->phase == CW_MOVE) {
        int16_t yards[CW_NUM_ACTIONS];
        int k = 0;
        for (int i = 0; i < n; i++) {
            int a = legal[i];
            if ((a >= CW_A_JUMP_YARD && a < CW_A_DRAW) || (a < CW_A_JUMP_TOWERS && lands_on_yard(g, a)))
                yards[k++] = (int16_t)a;
        }
        if (k > 0) return yards[uniform_below(rng, (uint64_t)k)];
    } else if (g->phase == CW_RESPOND) {
        return CW_A_GIVE + CW_SCRAP;
    } else if (g->phase == CW_DISCARD || g->phase == CW_GIVE_BACK) {
        int base = g->phase == CW_DISCARD ? CW_A_DISCARD : CW_A_GIVE;
        int best = legal[0], best_keep = 1 << 20;
        for (int i = 0; i < n; i++) { /* min by (keep, action): ascending, so strict < */
            int card = legal[i] - base;
            int keep = card == CW_SCRAP ? -1 : (card == CW_FUEL || card == CW_POWER) ? 9 : hand[card];
            if (keep < best_keep) {
                best_keep = keep;
                best = legal[i];
            }
        }
        return best;
    }
    return legal[uniform_below(rng, (uint64_t)n)];
}

/* evaluate.WEIGHTS, in evaluate.FEATURES order */
static const double WEIGHTS[14] = {0.211,  -0.051, 0.836, 0.083, 0.521, 0.924,  -0.024,
                                   -1.142, 2.605,  0.158, 0.134, -0.025, 0.948, 0.122};

/* evaluate._machine */
static double machine(const CwGame *g, const int8_t *hand, int first, int count, int laid) {
    if (laid >= 0) return 1.0;
    double best = 0.0;
    int any = 0;
    for (int t = first; t < first + count; t++)
        if (g->config.counts[t] > 0) {
            double share = (double)hand[t] / (double)g->config.counts[t];
            if (!any || share > best) best = share;
            any = 1;
        }
    return any ? best : 0.0;
}

/* evaluate.score */
static double score(const CwGame *g, int seat) {
    if (g->winner == seat) return 50.0;
    const int8_t *hand = g->hands[seat];
    double fm_laid = g->laid_fm[seat] >= 0 ? 1.0 : 0.0, cb_laid = g->laid_cb[seat] >= 0 ? 1.0 : 0.0;
    double fm = machine(g, hand, 0, CW_NUM_FM, g->laid_fm[seat]);
    double cb = machine(g, hand, CW_FIRST_CB, CW_NUM_CB, g->laid_cb[seat]);
    double fuel = hand[CW_FUEL] > 0 ? 1.0 : 0.0;
    double airship = g->config.counts[CW_AS] ? (double)hand[CW_AS] / g->config.counts[CW_AS] : 0.0;
    int size = 0;
    for (int t = 0; t < CW_NUM_TYPES; t++) size += hand[t];
    double features[14] = {fm_laid,
                           fm,
                           fm * fm,
                           cb_laid,
                           cb,
                           cb * cb,
                           fuel,
                           airship,
                           airship * airship,
                           hand[CW_POWER] > 0 ? 1.0 : 0.0,
                           (double)(hand[CW_SCRAP] < 2 ? hand[CW_SCRAP] : 2),
                           (double)size,
                           fm_laid * cb_laid,
                           (fm_laid + cb_laid) * fuel};
    double total = 0.0;
    for (int i = 0; i < 14; i++) total += WEIGHTS[i] * features[i];
    return total;
}

/* evaluate.evaluate: a softmax of the seats' scores. */
static void cw_evaluate(const void *s, double *out) {
    const CwGame *g = s;
    int n = g->num_players;
    double scores[CW_MAX_PLAYERS], top = -INFINITY, total = 0.0;
    for (int p = 0; p < n && p < CW_MAX_PLAYERS; p++) {
        scores[p] = score(g, p);
        if (scores[p] > top) top = scores[p];
    }
    for (int p = 0; p < n && p < CW_MAX_PLAYERS; p++) {
        out[p] = exp(scores[p] - top);
        total += out[p];
    }
    for (int p = 0; p < n && p < CW_MAX_PLAYERS; p++) out[p] /= total;
}

void cw_evaluate_values(const CwGame *g, double *out) { cw_evaluate(g, out); }
int cw_rollout_action(const CwGame *g, Rng *rng) { return cw_rollout(g, rng); }

const GsGame GS_CLOCKWORK = {
    sizeof(CwGame), CW_NUM_ACTIONS, cw_current,    cw_players,  cw_terminal, cw_legal,
    cw_apply_search, cw_results,    cw_determinize_search, cw_bot, cw_rollout, cw_evaluate,
};
