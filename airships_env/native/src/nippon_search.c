/* Nippon as a game of the generic search (gsearch.h): its rules, views and bots (nippon.c,
 * nippon_view.c, nippon_bots.c), E4's winners for the results (rules.outcome), and a port of the
 * Python game's ``evaluate`` hook (NipponGame.evaluate: gamekit.score_shares of the VP; a test
 * holds the two to the same values). The game has no rollout policy of its own: rollouts are
 * uniform unless a ``playout`` bot plays them.
 *
 * The search's states are NiSearchState: the game, the bots' weights (from Python, their one
 * owner) and the bots' plans. A bot plans the rest of its turn (NiBotMemory); in a simulated world
 * its plan is kept while the world plays exactly the bot's own choices and dropped as soon as any
 * other action is applied (a tree choice, a uniform rollout step, another bot's), so a bot never
 * follows a plan made for a different position. A determinization starts every plan afresh.
 */
#include <math.h>
#include <string.h>

#include "gsearch.h"
#include "nippon.h"

#define SCORE_SPREAD (50.0 / 5) /* NipponGame.score_scale / 5 */

static const NiGame *game_of(const void *s) { return &((const NiSearchState *)s)->game; }

static int ni_current(const void *s) { return game_of(s)->current; }
static int ni_players(const void *s) { return game_of(s)->num_players; }
static int ni_terminal(const void *s) { return game_of(s)->game_over; }
static int ni_legal(const void *s, int16_t *out) { return ni_legal_actions(game_of(s), out); }

static int ni_apply_search(void *s, int action) {
    NiSearchState *state = s;
    NiSearchMemory *memory = state->memory;
    for (int bot = 0; bot <= NI_BOT_HEURISTIC; bot++) {
        if (memory->expected[bot] != action) memory->bot[bot].len = 0;
        memory->expected[bot] = -1;
    }
    ni_apply_legal(&state->game, action, NULL);
    return 0;
}

void ni_results(const NiGame *g, double *out) {
    int n = g->num_players, winners = 0;
    int32_t best_vp = INT32_MIN, best_turn = INT32_MIN;
    for (int p = 0; p < n; p++)
        if (g->vp[p] > best_vp || (g->vp[p] == best_vp && g->last_turn[p] > best_turn)) {
            best_vp = g->vp[p];
            best_turn = g->last_turn[p];
        }
    for (int p = 0; p < n; p++) winners += g->vp[p] == best_vp && g->last_turn[p] == best_turn;
    for (int p = 0; p < n; p++)
        out[p] = g->vp[p] == best_vp && g->last_turn[p] == best_turn ? 1.0 / winners : 0.0;
}

static void ni_results_search(const void *s, double *out) { ni_results(game_of(s), out); }

/* gamekit.score_shares(vp, 10.0): exp((vp - top) / spread) normalised, summed left to right. */
void ni_search_values(const NiGame *g, double *out) {
    int n = g->num_players;
    int32_t top = g->vp[0];
    for (int p = 1; p < n; p++)
        if (g->vp[p] > top) top = g->vp[p];
    double total = 0.0;
    for (int p = 0; p < n; p++) {
        out[p] = exp((double)(g->vp[p] - top) / SCORE_SPREAD);
        total += out[p];
    }
    for (int p = 0; p < n; p++) out[p] /= total;
}

static void ni_evaluate_search(const void *s, double *out) { ni_search_values(game_of(s), out); }

static void ni_determinize_search(const void *root, int seat, Rng *rng, void *out) {
    const NiSearchState *from = root;
    NiSearchState *world = out;
    ni_determinize(&from->game, seat, rng, &world->game);
    world->weights = from->weights;
    world->memory = from->memory;
    for (int bot = 0; bot <= NI_BOT_HEURISTIC; bot++) {
        world->memory->bot[bot].len = 0;
        world->memory->bot[bot].key_turn = -1;
        world->memory->bot[bot].key_seat = -1;
        world->memory->expected[bot] = -1;
    }
}

/* The bot ``bot`` for the seat to act; it remembers its choice (see ni_apply_search). The search
 * calls bots only on its own world (whose memory is the search's), never on the root. */
static int ni_bot(const void *s, int bot, Rng *rng) {
    const NiSearchState *state = s;
    NiSearchMemory *memory = state->memory;
    int action = ni_bot_action(&state->game, bot, &state->weights[bot], rng, &memory->bot[bot]);
    memory->expected[bot] = (int16_t)action;
    return action;
}

const GsGame GS_NIPPON = {
    sizeof(NiSearchState), NI_NUM_ACTIONS, ni_current,         ni_players,
    ni_terminal,           ni_legal,       ni_apply_search,    ni_results_search,
    ni_determinize_search, ni_bot,         NULL,               ni_evaluate_search,
};

int ni_search(const NiGame *root, int seat, const GsOptions *options,
              const NiBotWeights weights[NI_BOT_HEURISTIC + 1], Rng *rng, GsResult *result) {
    NiSearchMemory memory;
    memset(&memory, 0, sizeof memory);
    NiSearchState state;
    state.game = *root;
    state.weights = weights;
    state.memory = &memory;
    return gs_search(&GS_NIPPON, &state, seat, options, rng, result);
}
