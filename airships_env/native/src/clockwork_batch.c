/* Escape from Clockwork City's batch: the game interface of the shared batch (gbatch.h says how
 * a batch steps, seeds and resets; airships_env/native/clockwork.py's ClockworkBatch is its face)
 * and the native bots' benchmark.
 *
 * ClockworkBatch(num_games, num_players, seed_words, options, counts, track, buffers, settings):
 * the game's setting is the heuristic bot's threshold. Rewards (GameAEC's, the game's outcome:
 * the winner scores 1, the others 0): the winner 1, the others -1, everyone 0 without a winner
 * (W3); ``reward="score"`` gives the same numbers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "clockwork_binding.h"
#include "gbatch.h"

static int parse_config(PyObject *options, PyObject *counts, PyObject *track, int num_players,
                        void *config) {
    return cw_parse_config(options, counts, track, num_players, (CwConfig *)config);
}
static int threshold_ok(double threshold) { return threshold == threshold; }
static int obs_size(const void *config, int num_players) { return CW_OBS_SIZE; }
static void new_game(void *state, const void *config, int num_players, const Rng *rng) {
    cw_new_game(state, config, num_players, rng);
}
static int is_over(const void *state) { return ((const CwGame *)state)->phase == CW_OVER; }
static void halt(void *state) { ((CwGame *)state)->phase = CW_OVER; }
static int actor(const void *state) { return ((const CwGame *)state)->actor; }
static int legal_actions(const void *state, int16_t *out) { return cw_legal_actions(state, out); }
/* No free place to lay a card (more cards than the 58 places: the loader refuses such a data
 * file, so this is a guard): the episode ends, truncated. */
static int apply(void *state, int action) {
    CwRecord record;
    return cw_apply_legal(state, action, NULL, &record) != CW_OK;
}
static void observe(const void *state, int seat, float *out) { cw_observe(state, seat, out); }
static int bot_action(const void *state, int bot, const void *config, double threshold, Rng *rng,
                      void *memory) {
    return cw_bot_action(state, bot, threshold, rng);
}
static void finish(const void *state, int n, int truncated, double threshold, float *rewards,
                   void *scores_out, uint8_t *winners) {
    const CwGame *game = state;
    int16_t *scores = scores_out;
    for (int p = 0; p < n; p++) scores[p] = (int16_t)(!truncated && p == game->winner); /* W2 */
    if (truncated) return;
    unsigned won = game->winner >= 0 ? 1u << game->winner : 0u;
    *winners = (uint8_t)won;
    double totals[CW_MAX_PLAYERS];
    for (int p = 0; p < n; p++) totals[p] = scores[p];
    gb_rewards(n, totals, won, 0, 1.0, rewards);
}
static PyObject *export_dict(const void *state) { return cw_export_dict(state); }

static const GbGame CW_BATCH = {
    .type_name = "ClockworkBatch",
    .max_constant = "CW_BATCH_MAX_GAMES",
    .doc = "N Clockwork City games stepped together (see airships_env/native/clockwork.py).",
    .arg_names = {"options", "counts", "track"},
    .state_size = sizeof(CwGame),
    .config_size = sizeof(CwConfig),
    .memory_size = 0,
    .num_actions = CW_NUM_ACTIONS,
    .min_players = CW_MIN_PLAYERS,
    .max_players = CW_MAX_PLAYERS,
    .scores_itemsize = 2,
    .scores_formats = "h",
    .setting_format = 'd',
    .setting_name = "threshold",
    .setting_text = "a threshold that is a number",
    .setting_ok = threshold_ok,
    .parse_config = parse_config,
    .obs_size = obs_size,
    .new_game = new_game,
    .is_over = is_over,
    .halt = halt,
    .actor = actor,
    .legal_actions = legal_actions,
    .apply = apply,
    .observe = observe,
    .bot_action = bot_action,
    .finish = finish,
    .export_dict = export_dict,
};

/* cw_bot_decisions(kind, num_players, games, seed, options, counts, track, threshold) ->
 * decisions: whole games between copies of one native bot in the core alone (the heuristic
 * benchmark, gb_bot_games); a game stops after 1,000,000 actions. */
static PyObject *py_cw_bot_decisions(PyObject *module, PyObject *args) {
    (void)module;
    int kind, num_players, games;
    unsigned int seed;
    double threshold;
    PyObject *options, *counts, *track;
    if (!PyArg_ParseTuple(args, "iiiIOOOd", &kind, &num_players, &games, &seed, &options, &counts,
                          &track, &threshold))
        return NULL;
    if (kind < CW_BOT_RANDOM || kind > CW_BOT_HEURISTIC || num_players < CW_MIN_PLAYERS ||
        num_players > CW_MAX_PLAYERS || games < 0 || !(threshold == threshold)) {
        PyErr_SetString(PyExc_ValueError, "bot kind 1..3, num_players 2 to 4, games >= 0 and a "
                                          "threshold that is a number");
        return NULL;
    }
    CwConfig config;
    if (cw_parse_config(options, counts, track, num_players, &config) < 0) return NULL;
    long long decisions =
        gb_bot_games(&CW_BATCH, &config, num_players, kind, threshold, games, seed, 1000000L);
    return decisions < 0 ? NULL : PyLong_FromLongLong(decisions);
}

static PyMethodDef cw_batch_functions[] = {
    {"cw_bot_decisions", py_cw_bot_decisions, METH_VARARGS,
     "cw_bot_decisions(kind, num_players, games, seed, options, counts, track, threshold) -> "
     "decisions"},
    {NULL, NULL, 0, NULL},
};

int clockwork_batch_register(PyObject *module) {
    if (gb_register(module, &CW_BATCH) < 0) return -1;
    return PyModule_AddFunctions(module, cw_batch_functions);
}
