/* Airships' batch: the game interface of the shared batch (gbatch.h says how a batch steps,
 * seeds, resets and locks; airships_env/native/batch.py's NativeBatch is its face), the arena's
 * whole bot games and the engine benchmark's random games in the core.
 *
 * Batch(core, num_games, num_players, seed_words, buffers, settings, greedy, heuristic): the
 * arguments in Airships' own order; settings are (reward mode, max_turns, autoreset, learner
 * seat, external policies), the reward mode (0 "win", 1 "score") being the game's setting.
 * Rewards are GameAEC's (aec.game_rewards: gb_rewards with the final scores, E2, and the
 * winners, E3; "score" divides the margin by 20). ``max_turns`` counts the game's turns, as
 * AirshipsAEC does: an episode is truncated once its turn passes it.
 *
 * At most GB_MAX_GAMES (100,000) games in a batch. A step runs every game on one core (2 to 8 us
 * per game and step, bots' turns included), so 100,000 games are already a step of a fraction of
 * a second and about 1.7 GB of state and arrays (4 players: about 1 KB of state, 16,000 bytes of
 * arrays, mostly the two observations), with no gain in throughput per game past a few thousand.
 * The bound turns a mistaken size (1,000,000 would be 17 GB) into a clear error instead of an
 * allocation that fails or swaps, and keeps every index far inside int. The README states the
 * same number (tests/native/test_batch_guards.py checks it).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

#include "binding.h"
#include "gbatch.h"

static PyTypeObject *CoreTypePtr;

/* What every game of a batch shares: the rules (copied from the Core), the bots' settings and
 * their odds cache (written by the bots and the observations: one per batch, as each batch
 * steps its games on one thread under its lock). */
typedef struct {
    Cards cards;
    Options options;
    GreedyConfig greedy;
    HeuristicConfig heuristic;
    ShapeCache cache;
} AsConfig;

/* A slot's game: the engine's state and its batch's shared part. */
typedef struct {
    Game game;
    AsConfig *config;
} AsGame;

/* The native bot ``bot`` for the seat to act: the random one draws from ``rng``. */
static int bot_choose(const Game *game, const Cards *cards, const Options *options,
                      ShapeCache *cache, const GreedyConfig *greedy,
                      const HeuristicConfig *heuristic, int bot, Rng *rng) {
    int8_t legal[NUM_ACTIONS];
    int n_legal = game_legal_list(game, cards, options, legal);
    switch (bot) {
    case BOT_GREEDY:
        return bot_greedy(game, cards, options, cache, greedy, legal, n_legal);
    case BOT_HEURISTIC:
        return bot_heuristic(game, cards, options, cache, heuristic, legal, n_legal);
    default: /* BOT_RANDOM: uniform over the legal actions, from the seat's own generator */
        return legal[uniform_below(rng, (uint64_t)n_legal)];
    }
}

static int parse_config(PyObject *core, PyObject *greedy, PyObject *heuristic, int num_players,
                        void *out) {
    (void)num_players;
    AsConfig *config = out;
    if (!PyObject_TypeCheck(core, CoreTypePtr)) {
        PyErr_SetString(PyExc_TypeError, "core must be a native Core");
        return -1;
    }
    if (parse_greedy_config(greedy, &config->greedy) < 0 ||
        parse_heuristic_config(heuristic, &config->heuristic) < 0)
        return -1;
    if (config->heuristic.value_era < 1 || config->heuristic.value_era > 2) {
        PyErr_SetString(PyExc_ValueError, "heuristic value_era must be 1 or 2");
        return -1;
    }
    config->cards = ((CoreObject *)core)->cards;
    config->options = ((CoreObject *)core)->options;
    return 0;
}
static int reward_mode_ok(double mode) { return mode == 0.0 || mode == 1.0; }
static int batch_obs_size(const void *config, int num_players) {
    (void)config;
    return obs_size(num_players);
}
static void new_game(void *state, const void *config, int num_players, const Rng *rng) {
    AsGame *slot = state;
    slot->config = (AsConfig *)config; /* the batch's own, writable (the cache) */
    game_new(&slot->game, &slot->config->cards, &slot->config->options, num_players, rng);
}
static int is_over(const void *state) { return ((const AsGame *)state)->game.phase == GAME_OVER; }
static int turn(const void *state) { return ((const AsGame *)state)->game.turn; }
static int actor(const void *state) { return ((const AsGame *)state)->game.current_player; }
static int legal_actions(const void *state, int16_t *out) {
    const AsGame *slot = state;
    int8_t legal[NUM_ACTIONS];
    int n = game_legal_list(&slot->game, &slot->config->cards, &slot->config->options, legal);
    for (int k = 0; k < n; k++) out[k] = legal[k];
    return n;
}
static int apply(void *state, int action) {
    AsGame *slot = state;
    game_apply_legal(&slot->game, &slot->config->cards, &slot->config->options, action, NULL, NULL,
                     NULL);
    return 0;
}
static void observe(const void *state, int seat, float *out) {
    const AsGame *slot = state;
    obs_encode(&slot->game, &slot->config->cards, &slot->config->options, &slot->config->cache,
               seat, out);
}
static int bot_action(const void *state, int bot, const void *config, double reward_mode,
                      Rng *rng, void *memory) {
    (void)config;
    (void)reward_mode;
    (void)memory;
    const AsGame *slot = state;
    AsConfig *shared = slot->config;
    return bot_choose(&slot->game, &shared->cards, &shared->options, &shared->cache,
                      &shared->greedy, &shared->heuristic, bot, rng);
}
/* Truncated: the scores so far (E2) and no winner; over: the final scores and GameAEC's
 * rewards. */
static void finish(const void *state, int n, int truncated, double reward_mode, float *rewards,
                   void *scores_out, uint8_t *winners) {
    const AsGame *slot = state;
    const Game *game = &slot->game;
    int16_t *scores = scores_out;
    if (truncated) {
        game_scores(game, &slot->config->cards, scores);
        return;
    }
    double totals[MAX_PLAYERS];
    for (int p = 0; p < n; p++) {
        scores[p] = game->final_scores[p];
        totals[p] = game->final_scores[p];
    }
    *winners = game->winners_mask;
    gb_rewards(n, totals, game->winners_mask, reward_mode != 0.0, 20.0, rewards);
}
/* (words, rng) of the game, as module.c's export (NativeBatch.game_state reads it) */
static PyObject *export_game(const void *state) {
    return game_export_tuple(&((const AsGame *)state)->game);
}

static const char *const AS_KEYWORDS[8] = {"core",    "num_games", "num_players", "seed_words",
                                           "buffers", "settings",  "greedy",      "heuristic"};

static const GbGame AS_BATCH = {
    .type_name = "Batch",
    .max_constant = "BATCH_MAX_GAMES",
    .doc = "N games stepped together (see airships_env/native/batch.py).",
    .arg_names = {"core", "greedy", "heuristic"},
    .keywords = AS_KEYWORDS,
    .state_size = sizeof(AsGame),
    .config_size = sizeof(AsConfig),
    .memory_size = 0,
    .num_actions = NUM_ACTIONS,
    .min_players = MIN_PLAYERS,
    .max_players = MAX_PLAYERS,
    .scores_itemsize = 2,
    .scores_formats = "h",
    .setting_format = 'i',
    .setting_name = "reward mode",
    .setting_text = "reward mode 0/1",
    .setting_ok = reward_mode_ok,
    .setting_first = 1,
    .parse_config = parse_config,
    .obs_size = batch_obs_size,
    .new_game = new_game,
    .is_over = is_over,
    .turn = turn,
    .actor = actor,
    .legal_actions = legal_actions,
    .apply = apply,
    .observe = observe,
    .bot_action = bot_action,
    .finish = finish,
    .export_dict = export_game,
};

/* -- whole bot games (the arena on the core) -------------------------------------------------- */
/* play_bot_games(core, num_players, games, greedy, heuristic, max_steps): ``games`` is a list of
 * (game_rng, (seat_rng, ...), (controller, ...)); returns per game (over, scores, winners mask,
 * turns, steps, decisions per seat). Every controller must be a bot (1-3). */
typedef struct {
    Game game;
    Rng seat_rng[MAX_PLAYERS];
    int8_t controllers[MAX_PLAYERS];
} BotTable;

static PyObject *py_play_bot_games(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *core_obj, *games_obj, *greedy_obj, *heuristic_obj;
    int num_players, max_steps;
    if (!PyArg_ParseTuple(args, "OiOOOi", &core_obj, &num_players, &games_obj, &greedy_obj, &heuristic_obj, &max_steps))
        return NULL;
    if (!PyObject_TypeCheck(core_obj, CoreTypePtr)) {
        PyErr_SetString(PyExc_TypeError, "core must be a native Core");
        return NULL;
    }
    if (num_players < MIN_PLAYERS || num_players > MAX_PLAYERS || max_steps < 1) {
        PyErr_SetString(PyExc_ValueError, "num_players must be 2 to 4 and max_steps positive");
        return NULL;
    }
    GreedyConfig greedy;
    HeuristicConfig heuristic;
    if (parse_greedy_config(greedy_obj, &greedy) < 0 || parse_heuristic_config(heuristic_obj, &heuristic) < 0) return NULL;
    PyObject *fast = PySequence_Fast(games_obj, "games must be a sequence");
    if (!fast) return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
    BotTable *slots = calloc((size_t)(count ? count : 1), sizeof(BotTable));
    int32_t *steps = calloc((size_t)(count ? count : 1), sizeof(int32_t));
    int32_t *decisions = calloc((size_t)(count ? count : 1) * MAX_PLAYERS, sizeof(int32_t));
    ShapeCache *cache = calloc(1, sizeof(ShapeCache));
    if (!slots || !steps || !decisions || !cache) {
        free(slots); free(steps); free(decisions); free(cache);
        Py_DECREF(fast);
        return PyErr_NoMemory();
    }
    const Cards *cards = &((CoreObject *)core_obj)->cards;
    const Options *options = &((CoreObject *)core_obj)->options;
    for (Py_ssize_t g = 0; g < count; g++) {
        PyObject *game_rng, *seat_rngs, *controllers;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, g), "OOO", &game_rng, &seat_rngs, &controllers)) goto fail;
        Rng rng;
        if (rng_from_tuple(game_rng, &rng) < 0) goto fail;
        if (!rng.present) {
            PyErr_SetString(PyExc_ValueError, "every game needs a generator");
            goto fail;
        }
        if (!PyTuple_Check(seat_rngs) || PyTuple_GET_SIZE(seat_rngs) != num_players || !PyTuple_Check(controllers) ||
            PyTuple_GET_SIZE(controllers) != num_players) {
            PyErr_SetString(PyExc_ValueError, "seat generators and controllers: one per seat");
            goto fail;
        }
        game_new(&slots[g].game, cards, options, num_players, &rng);
        for (int s = 0; s < num_players; s++) {
            if (rng_from_tuple(PyTuple_GET_ITEM(seat_rngs, s), &slots[g].seat_rng[s]) < 0) goto fail;
            long code = PyLong_AsLong(PyTuple_GET_ITEM(controllers, s));
            if (code < BOT_RANDOM || code > BOT_HEURISTIC) {
                if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "controller %ld is not a native bot (1-3)", code);
                goto fail;
            }
            if (code == BOT_RANDOM && !slots[g].seat_rng[s].present) {
                PyErr_SetString(PyExc_ValueError, "the random bot needs its generator");
                goto fail;
            }
            slots[g].controllers[s] = (int8_t)code;
        }
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t g = 0; g < count; g++) {
        BotTable *slot = &slots[g];
        Game *game = &slot->game;
        while (game->phase != GAME_OVER && steps[g] < max_steps) {
            int seat = game->current_player;
            int action = bot_choose(game, cards, options, cache, &greedy, &heuristic,
                                    slot->controllers[seat], &slot->seat_rng[seat]);
            decisions[g * MAX_PLAYERS + seat]++;
            game_apply_legal(game, cards, options, action, NULL, NULL, NULL);
            steps[g]++;
        }
    }
    Py_END_ALLOW_THREADS
    PyObject *results = PyList_New(count);
    if (!results) goto fail;
    for (Py_ssize_t g = 0; g < count; g++) {
        Game *game = &slots[g].game;
        PyObject *scores = PyTuple_New(num_players), *airships = PyTuple_New(num_players), *made = PyTuple_New(num_players);
        if (!scores || !airships || !made) {
            Py_XDECREF(scores); Py_XDECREF(airships); Py_XDECREF(made);
            Py_DECREF(results);
            goto fail;
        }
        for (int s = 0; s < num_players; s++) {
            PyTuple_SET_ITEM(scores, s, PyLong_FromLong(game->final_scores[s]));
            PyTuple_SET_ITEM(airships, s, PyLong_FromLong(game_airship_count(game, s)));
            PyTuple_SET_ITEM(made, s, PyLong_FromLong(decisions[g * MAX_PLAYERS + s]));
        }
        PyList_SET_ITEM(results, g, Py_BuildValue("(iNiNiiN)", game->phase == GAME_OVER, scores, (int)game->winners_mask,
                                                  airships, game->turn, game->step, made));
    }
    free(slots); free(steps); free(decisions); free(cache);
    Py_DECREF(fast);
    return results;
fail:
    free(slots); free(steps); free(decisions); free(cache);
    Py_DECREF(fast);
    return NULL;
}

/* random_games(core, num_players, games, seed) -> actions applied: random legal play in the core
 * alone (the engine benchmark): game g deals from SeedSequence(seed, spawn_key=(g, 0)) and its
 * choices come from (g, 1). */
static PyObject *py_random_games(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *core_obj;
    int num_players, games;
    unsigned int seed;
    if (!PyArg_ParseTuple(args, "OiiI", &core_obj, &num_players, &games, &seed)) return NULL;
    if (!PyObject_TypeCheck(core_obj, CoreTypePtr)) {
        PyErr_SetString(PyExc_TypeError, "core must be a native Core");
        return NULL;
    }
    if (num_players < MIN_PLAYERS || num_players > MAX_PLAYERS || games < 0) {
        PyErr_SetString(PyExc_ValueError, "num_players must be 2 to 4 and games >= 0");
        return NULL;
    }
    const Cards *cards = &((CoreObject *)core_obj)->cards;
    const Options *options = &((CoreObject *)core_obj)->options;
    long long actions = 0;
    Py_BEGIN_ALLOW_THREADS
    Game game;
    for (int g = 0; g < games; g++) {
        Rng deal, choices;
        uint32_t spawn[2] = {(uint32_t)g, 0};
        rng_seed_sequence(&deal, &seed, 1, spawn, 2);
        spawn[1] = 1;
        rng_seed_sequence(&choices, &seed, 1, spawn, 2);
        game_new(&game, cards, options, num_players, &deal);
        int steps = 0;
        while (game.phase != GAME_OVER && steps < 20000) {
            int8_t legal[NUM_ACTIONS];
            int n = game_legal_list(&game, cards, options, legal);
            game_apply_legal(&game, cards, options, legal[uniform_below(&choices, (uint64_t)n)], NULL, NULL, NULL);
            steps++;
        }
        actions += steps;
    }
    Py_END_ALLOW_THREADS
    return PyLong_FromLongLong(actions);
}

static PyMethodDef batch_functions[] = {
    {"play_bot_games", py_play_bot_games, METH_VARARGS, "Whole games between native bots."},
    {"random_games", py_random_games, METH_VARARGS, "Random legal games in the core alone."},
    {NULL, NULL, 0, NULL},
};

int batch_register(PyObject *module, PyTypeObject *core_type) {
    CoreTypePtr = core_type;
    if (gb_register(module, &AS_BATCH) < 0) return -1;
    return PyModule_AddFunctions(module, batch_functions);
}
