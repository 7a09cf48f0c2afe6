/* Nippon's batch: the game interface of the shared batch (gbatch.h says how a batch steps, seeds
 * and resets; airships_env/native/nippon.py's NipponBatch is its face) and the native bots'
 * benchmark.
 *
 * NipponBatch(num_games, num_players, seed_words, options, tables, weights, buffers, settings):
 * ``weights`` is (greedy, heuristic), the two evaluations' weights (nippon.py's BOTS); the game's
 * setting is the reward, 0 "win" or 1 "score". A seat's bot keeps its turn's plan between its
 * decisions, as the Python bot does, and starts every episode without one. Rewards (GameAEC's,
 * from the outcome E4: most VP, a tie to the tied player who took a turn last, still tied a
 * shared win): ``"win"`` gives each of the k winners 1/k and the others -1; ``"score"`` the
 * margin in VP over the best other seat / 50 (NipponGame.score_scale).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "gbatch.h"
#include "nippon_binding.h"

#define SCORE_SCALE 50.0 /* NipponGame.score_scale */
#define NI_BOT_GAME_STEPS 10000000L

typedef struct {
    NiConfig rules;
    NiBotWeights weights[NI_BOT_HEURISTIC + 1]; /* by bot code; the random bot reads none */
} NiBatchConfig;

/* (greedy weights, heuristic weights), each checked as NipponGame.bot_action checks them. */
static int parse_weight_pair(PyObject *obj, NiBatchConfig *config) {
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != 2) {
        PyErr_SetString(PyExc_TypeError, "weights: expected a tuple (greedy, heuristic)");
        return -1;
    }
    for (int k = 0; k < 2; k++) {
        NiBotWeights *w = &config->weights[NI_BOT_GREEDY + k];
        if (ni_parse_weights(PyTuple_GET_ITEM(obj, k), w) < 0) return -1;
        if (w->planning && config->rules.colour_cost == 0) {
            PyErr_SetString(PyExc_ValueError,
                            "a planning evaluation divides by the colour cost: 0");
            return -1;
        }
    }
    config->weights[NI_BOT_RANDOM] = config->weights[NI_BOT_GREEDY];
    return 0;
}

static int parse_config(PyObject *options, PyObject *tables, PyObject *weights, int num_players,
                        void *config) {
    NiBatchConfig *c = config;
    if (ni_parse_config(options, tables, &c->rules) < 0) return -1;
    return parse_weight_pair(weights, c);
}
static int reward_ok(double reward) { return reward == 0.0 || reward == 1.0; }
/* The layout's length for this table size (ni_obs_size of a game dealt so), 0 when the data
 * file's action spaces or rows do not fit it (the Python side names them first) or no memory. */
static int obs_size(const void *config, int num_players) {
    NiGame *probe = calloc(1, sizeof *probe);
    if (!probe) {
        PyErr_NoMemory();
        return 0; /* refused by the batch */
    }
    probe->config = ((const NiBatchConfig *)config)->rules;
    probe->num_players = (int8_t)num_players;
    probe->num_rows = probe->config.rows[num_players - 2];
    int size = ni_obs_fits(probe) ? ni_obs_size(probe) : 0; /* 0: refused */
    free(probe);
    return size;
}
static void new_game(void *state, const void *config, int num_players, const Rng *rng) {
    ni_new_game(state, &((const NiBatchConfig *)config)->rules, num_players, rng);
}
static int is_over(const void *state) { return ((const NiGame *)state)->game_over; }
static int actor(const void *state) { return ((const NiGame *)state)->current; }
static int legal_actions(const void *state, int16_t *out) { return ni_legal_actions(state, out); }
static int apply(void *state, int action) {
    ni_apply_legal(state, action, NULL);
    return 0;
}
static void observe(const void *state, int seat, float *out) { ni_observe(state, seat, out); }
static void reset_memory(void *memory) {
    NiBotMemory *m = memory;
    m->len = 0;
    m->key_turn = -1;
    m->key_seat = -1;
}
static int bot_action(const void *state, int bot, const void *config, double setting, Rng *rng,
                      void *memory) {
    const NiBatchConfig *c = config;
    return ni_bot_action(state, bot, &c->weights[bot], rng, memory);
}
/* E4: most VP; a tie goes to the tied player who took a turn last (rules.outcome). */
static void finish(const void *state, int n, int truncated, double reward, float *rewards,
                   void *scores_out, uint8_t *winners) {
    const NiGame *game = state;
    int32_t *scores = scores_out;
    double totals[NI_MAX_PLAYERS];
    for (int p = 0; p < n; p++) {
        scores[p] = game->vp[p];
        totals[p] = game->vp[p];
    }
    if (truncated) return;
    int best = 0;
    for (int p = 1; p < n; p++)
        if (game->vp[p] > game->vp[best] ||
            (game->vp[p] == game->vp[best] && game->last_turn[p] > game->last_turn[best]))
            best = p;
    unsigned won = 0;
    for (int p = 0; p < n; p++)
        if (game->vp[p] == game->vp[best] && game->last_turn[p] == game->last_turn[best])
            won |= 1u << p;
    *winners = (uint8_t)won;
    gb_rewards(n, totals, won, reward != 0.0, SCORE_SCALE, rewards);
}
static PyObject *export_dict(const void *state) { return ni_export_dict(state); }

static const GbGame NI_BATCH = {
    .type_name = "NipponBatch",
    .max_constant = "NI_BATCH_MAX_GAMES",
    .doc = "N Nippon games stepped together (see airships_env/native/nippon.py).",
    .arg_names = {"options", "tables", "weights"},
    .state_size = sizeof(NiGame),
    .config_size = sizeof(NiBatchConfig),
    .memory_size = sizeof(NiBotMemory),
    .num_actions = NI_NUM_ACTIONS,
    .min_players = NI_MIN_PLAYERS,
    .max_players = NI_MAX_PLAYERS,
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
    .reset_memory = reset_memory,
    .bot_action = bot_action,
    .finish = finish,
    .export_dict = export_dict,
};

/* ni_bot_decisions(kind, num_players, games, seed, options, tables, weights) -> decisions: whole
 * games between copies of the native bot ``kind`` in the core alone (the bots' benchmark,
 * gb_bot_games): each seat's bot keeps its own plan; a game stops after NI_BOT_GAME_STEPS
 * actions. */
static PyObject *py_ni_bot_decisions(PyObject *module, PyObject *args) {
    PyObject *kind_obj, *players_obj, *games_obj, *seed_obj, *options, *tables, *weights_obj;
    (void)module;
    if (!PyArg_ParseTuple(args, "OOOOOOO", &kind_obj, &players_obj, &games_obj, &seed_obj,
                          &options, &tables, &weights_obj))
        return NULL;
    long kind, players, games, seed;
    if (arg_int(kind_obj, NI_BOT_RANDOM, NI_BOT_HEURISTIC,
                "bot kind (1 random, 2 greedy, 3 heuristic)", &kind) < 0 ||
        arg_int(players_obj, NI_MIN_PLAYERS, NI_MAX_PLAYERS, "num_players", &players) < 0 ||
        arg_int(games_obj, 0, 1L << 30, "games", &games) < 0 ||
        arg_int(seed_obj, 0, 0xFFFFFFFFL, "seed (a 32-bit word)", &seed) < 0)
        return NULL;
    NiBatchConfig *config = PyMem_Calloc(1, sizeof *config);
    if (!config) return PyErr_NoMemory();
    long long decisions = -1;
    if (ni_parse_config(options, tables, &config->rules) >= 0 &&
        ni_parse_weights(weights_obj, &config->weights[kind]) >= 0) {
        if (kind != NI_BOT_RANDOM && config->weights[kind].planning &&
            config->rules.colour_cost == 0)
            PyErr_SetString(PyExc_ValueError,
                            "a planning evaluation divides by the colour cost: 0");
        else
            decisions = gb_bot_games(&NI_BATCH, config, (int)players, (int)kind, 0.0, games,
                                     (uint32_t)seed, NI_BOT_GAME_STEPS);
    }
    PyMem_Free(config);
    return decisions < 0 ? NULL : PyLong_FromLongLong(decisions);
}

static PyMethodDef ni_batch_functions[] = {
    {"ni_bot_decisions", py_ni_bot_decisions, METH_VARARGS,
     "ni_bot_decisions(kind, num_players, games, seed, options, tables, weights) -> decisions"},
    {NULL, NULL, 0, NULL},
};

int nippon_batch_register(PyObject *module) {
    if (gb_register(module, &NI_BATCH) < 0) return -1;
    return PyModule_AddFunctions(module, ni_batch_functions);
}
