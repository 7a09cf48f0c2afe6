/* Australia's batch: the game interface of the shared batch (gbatch.h says how a batch steps,
 * seeds and resets; airships_env/native/australia.py's AustraliaBatch is its face) and the
 * native bots' benchmark.
 *
 * AustraliaBatch(num_games, num_players, seed_words, options, map, components, buffers,
 * settings): the game's setting is the reward, 0 "win" or 1 "score". Rewards (GameAEC's, from the
 * outcome E3: VP + dollars, a tie to the most dollars, still tied a shared win): ``"win"`` gives
 * each of the k winners 1/k and the others -1; ``"score"`` the margin over the best other seat /
 * 50 (the game's score_scale).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "australia_binding.h"
#include "gbatch.h"

#define SCORE_SCALE 50.0 /* AustraliaGame.score_scale: reward="score" is the margin / 50 */

static int parse_config(PyObject *options, PyObject *map, PyObject *components, int num_players,
                        void *config) {
    PyObject *stack_cards_obj;
    if (au_parse_config(options, map, components, num_players, config, &stack_cards_obj) < 0)
        return -1;
    return au_check_stack_cards(config, stack_cards_obj);
}
static int reward_ok(double reward) { return reward == 0.0 || reward == 1.0; }
static int obs_size(const void *config, int num_players) { return AU_OBS_SIZE; }
static void new_game(void *state, const void *config, int num_players, const Rng *rng) {
    au_new_game(state, config, num_players, rng);
}
static int is_over(const void *state) { return ((const AuGame *)state)->phase == AU_OVER; }
static int actor(const void *state) { return ((const AuGame *)state)->current; }
static int legal_actions(const void *state, int16_t *out) { return au_legal_actions(state, out); }
static int apply(void *state, int action) {
    au_apply_legal(state, action, NULL);
    return 0;
}
static void observe(const void *state, int seat, float *out) { au_observe(state, seat, out); }
/* the same reading the batch's config, the one every game was dealt with (gbatch.h) */
static int legal_actions_shared(const void *state, const void *config, int16_t *out) {
    return au_legal_actions_with(state, config, out);
}
static int apply_shared(void *state, const void *config, int action) {
    au_apply_legal_with(state, config, action, NULL);
    return 0;
}
static void observe_shared(const void *state, const void *config, int seat, float *out) {
    au_observe_with(state, config, seat, out);
}
static int bot_action(const void *state, int bot, const void *config, double setting, Rng *rng,
                      void *memory) {
    return au_bot_action(state, bot, rng);
}
static void finish(const void *state, int n, int truncated, double reward, float *rewards,
                   void *scores_out, uint8_t *winners) {
    const AuGame *game = state;
    int32_t *scores = scores_out;
    double totals[AU_MAX_PLAYERS];
    for (int p = 0; p < n; p++) { /* E3: VP + dollars */
        scores[p] = game->vp[p] + game->dollars[p];
        totals[p] = scores[p];
    }
    if (truncated) return;
    int n_winners;
    unsigned won = au_winners(game, &n_winners); /* E3's one owner in C (australia.c) */
    *winners = (uint8_t)won;
    gb_rewards(n, totals, won, reward != 0.0, SCORE_SCALE, rewards);
}
static PyObject *export_dict(const void *state) { return au_export_dict(state); }

static const GbGame AU_BATCH = {
    .type_name = "AustraliaBatch",
    .max_constant = "AU_BATCH_MAX_GAMES",
    .doc = "N Australia games stepped together (see airships_env/native/australia.py).",
    .arg_names = {"options", "map", "components"},
    .state_size = sizeof(AuGame),
    .config_size = sizeof(AuConfig),
    .memory_size = 0,
    .num_actions = AU_NUM_ACTIONS,
    .min_players = AU_MIN_PLAYERS,
    .max_players = AU_MAX_PLAYERS,
    .scores_itemsize = 4,
    .scores_formats = "il",
    .setting_format = 'i',
    .setting_name = "reward",
    .setting_text = "reward 0 (win) or 1 (score)",
    .setting_ok = reward_ok,
    .parse_config = parse_config,
    .obs_size = obs_size,
    .new_game = new_game,
    .is_over = is_over,
    .actor = actor,
    .legal_actions = legal_actions,
    .apply = apply,
    .observe = observe,
    .legal_actions_shared = legal_actions_shared,
    .apply_shared = apply_shared,
    .observe_shared = observe_shared,
    .bot_action = bot_action,
    .finish = finish,
    .export_dict = export_dict,
};

/* au_bot_decisions(kind, num_players, games, seed, options, map, components) -> decisions: whole
 * games between copies of one native bot in the core alone (the bots' benchmark, gb_bot_games);
 * a game stops after 1,000,000 actions. */
static PyObject *py_au_bot_decisions(PyObject *module, PyObject *args) {
    (void)module;
    int kind, num_players, games;
    unsigned int seed;
    PyObject *options, *map, *components;
    if (!PyArg_ParseTuple(args, "iiiIOOO", &kind, &num_players, &games, &seed, &options, &map,
                          &components))
        return NULL;
    if (kind < AU_BOT_RANDOM || kind > AU_BOT_HEURISTIC || num_players < AU_MIN_PLAYERS ||
        num_players > AU_MAX_PLAYERS || games < 0) {
        PyErr_SetString(PyExc_ValueError, "bot kind 1..3, num_players 2 to 5 and games >= 0");
        return NULL;
    }
    AuConfig config;
    if (parse_config(options, map, components, num_players, &config) < 0) return NULL;
    long long decisions = gb_bot_games(&AU_BATCH, &config, num_players, kind, 0.0, games, seed,
                                       1000000L);
    return decisions < 0 ? NULL : PyLong_FromLongLong(decisions);
}

static PyMethodDef au_batch_functions[] = {
    {"au_bot_decisions", py_au_bot_decisions, METH_VARARGS,
     "au_bot_decisions(kind, num_players, games, seed, options, map, components) -> decisions"},
    {NULL, NULL, 0, NULL},
};

int australia_batch_register(PyObject *module) {
    if (gb_register(module, &AU_BATCH) < 0) return -1;
    return PyModule_AddFunctions(module, au_batch_functions);
}
