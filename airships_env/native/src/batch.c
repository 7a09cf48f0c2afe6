/* The batch API: N games stepped in one call, with the GIL released.
 *
 * Every seat of every game has a controller: 0 a Python seat that learns (the learner), 1 the
 * random bot, 2 greedy, 3 heuristic (played inside the step), 16 + k an external Python policy
 * k (a league snapshot, self-play: evaluated by the caller in one batched forward). A step
 * applies the given action in every game that waits for a Python seat, then plays the bots'
 * turns until a Python seat must act or the game ends; a game that ends writes its rewards, its
 * final observation (for its learner seat) and its scores, and starts the next episode of its
 * slot (auto-reset): new deal, new learner seat, the opponents the caller queued for it.
 *
 * Seeds (documented in airships_env/native/batch.py): episode e of slot i deals from
 * PCG64(SeedSequence(seed, spawn_key=(i, e, 0))), its random bot in seat s draws from
 * (i, e, 1 + s), and its learner seat comes from (i, e, 7). So a slot's games do not depend on
 * the number of slots or on the other slots.
 *
 * All output goes into buffers the caller allocated once (numpy arrays, kept for the batch's
 * lifetime): nothing is allocated or copied per step.
 *
 * Threads: a batch may be shared. Every method that reads or changes the games (reset, step,
 * observe, export_game, controllers) holds the batch's own lock from its first check to its last
 * write, so a step's check of the actions and their application see the same games even when
 * another thread resets the batch in between. The lock is taken and released with the GIL
 * released (never the GIL while holding the lock: no deadlock), and uncontended it costs one
 * mutex operation per call (scripts in issue 27: no measurable change to a step).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

#include "binding.h"

#define CONTROL_LEARNER 0
#define CONTROL_EXTERNAL 16
#define SPAWN_GAME 0
#define SPAWN_LEARNER 7

/* At most this many games in a batch. A step runs every game on one core (2 to 8 us per game
 * and step, bots' turns included), so 100,000 games are already a step of a fraction of a second
 * and about 1.7 GB of state and arrays (4 players: 608 bytes of state, 16,000 of arrays, mostly
 * the two observations), with no gain in throughput per game past a few thousand. The bound
 * turns a mistaken size (1,000,000 would be 17 GB) into a clear error instead of an allocation
 * that fails or swaps, and keeps every index far inside int. The README states the same number
 * (tests/native/test_batch_guards.py checks it). */
#define BATCH_MAX_GAMES 100000

typedef struct {
    Game game;
    Rng seat_rng[MAX_PLAYERS];
    int8_t controllers[MAX_PLAYERS];
    int8_t learner;
    uint32_t episode;
    uint64_t legal[2]; /* the legal actions of the seat that waits, as bits (kept privately: the
                          caller may write into the masks array) */
} Slot;

enum { B_OBS, B_MASKS, B_REWARDS, B_TERMINATED, B_TRUNCATED, B_ACTING, B_CONTROLLER, B_FINAL_OBS,
       B_LEARNER, B_NEXT_OPPONENTS, B_SCORES, B_WINNERS, B_STEPS, B_COUNT };

static const char *BUFFER_NAMES[B_COUNT] = {"obs", "masks", "rewards", "terminated", "truncated",
                                            "acting", "controller", "final_obs", "learner",
                                            "next_opponents", "scores", "winners", "episode_steps"};

typedef struct {
    PyObject_HEAD
    PyObject *core_obj;
    const Cards *cards;
    const Options *options;
    int num_games, num_players, obs_size;
    uint32_t seed_words[56];
    int n_seed_words;
    int reward_mode, max_turns, autoreset, learner_mode, started;
    int external_policies; /* external policy k is controller 16 + k, k < external_policies */
    GreedyConfig greedy;
    HeuristicConfig heuristic;
    Slot *slots;
    ShapeCache *cache;
    Py_buffer views[B_COUNT];
    int n_views;
    PyThread_type_lock lock; /* held across every read or change of the games (see the top) */
} BatchObject;

static PyTypeObject BatchType;
static PyTypeObject *CoreTypePtr;

static void batch_dealloc(BatchObject *self) {
    for (int i = 0; i < self->n_views; i++) PyBuffer_Release(&self->views[i]);
    if (self->lock) PyThread_free_lock(self->lock);
    free(self->slots);
    free(self->cache);
    Py_XDECREF(self->core_obj);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int expect_buffer(BatchObject *self, PyObject *obj, int index, Py_ssize_t items, int itemsize,
                         const char *formats) {
    Py_buffer *view = &self->views[index];
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    self->n_views = index + 1;
    const char *format = view->format ? view->format : "B";
    if (format[0] == '<' || format[0] == '=' || format[0] == '@') format++;
    if (view->itemsize != itemsize || !strchr(formats, format[0]) || format[1] != '\0') {
        PyErr_Format(PyExc_TypeError, "buffer '%s' has format '%s' (item size %zd); expected one of '%s' with %d bytes",
                     BUFFER_NAMES[index], view->format ? view->format : "B", view->itemsize, formats, itemsize);
        return -1;
    }
    if (view->len != items * itemsize) {
        PyErr_Format(PyExc_ValueError, "buffer '%s' holds %zd items, expected %zd", BUFFER_NAMES[index],
                     view->len / itemsize, items);
        return -1;
    }
    return 0;
}

#define BUF(self, index, type) ((type *)(self)->views[index].buf)

/* -- episodes ------------------------------------------------------------------------------ */
static void seed_slot_rng(const BatchObject *self, Rng *rng, int slot, uint32_t episode, uint32_t stream) {
    uint32_t spawn[3] = {(uint32_t)slot, episode, stream};
    rng_seed_sequence(rng, self->seed_words, self->n_seed_words, spawn, 3);
}

static void start_episode(BatchObject *self, int index) {
    Slot *slot = &self->slots[index];
    int n = self->num_players;
    Rng game_rng;
    seed_slot_rng(self, &game_rng, index, slot->episode, SPAWN_GAME);
    game_new(&slot->game, self->cards, self->options, n, &game_rng);
    for (int s = 0; s < n; s++) seed_slot_rng(self, &slot->seat_rng[s], index, slot->episode, 1u + (uint32_t)s);
    if (self->learner_mode >= 0) {
        slot->learner = (int8_t)self->learner_mode;
    } else {
        Rng seat_rng;
        seed_slot_rng(self, &seat_rng, index, slot->episode, SPAWN_LEARNER);
        slot->learner = (int8_t)uniform_below(&seat_rng, (uint64_t)n);
    }
    const int8_t *queued = BUF(self, B_NEXT_OPPONENTS, int8_t) + (size_t)index * (n - 1);
    slot->controllers[slot->learner] = CONTROL_LEARNER;
    for (int k = 0; k < n - 1; k++) slot->controllers[(slot->learner + 1 + k) % n] = queued[k];
    BUF(self, B_LEARNER, int8_t)[index] = slot->learner;
    BUF(self, B_STEPS, int32_t)[index] = 0;
}

static int is_python_seat(int controller) { return controller == CONTROL_LEARNER || controller >= CONTROL_EXTERNAL; }

static int bot_move(BatchObject *self, Slot *slot) {
    Game *game = &slot->game;
    int8_t legal[NUM_ACTIONS];
    int n_legal = game_legal_list(game, self->cards, self->options, legal);
    int seat = game->current_player;
    switch (slot->controllers[seat]) {
    case BOT_GREEDY:
        return bot_greedy(game, self->cards, self->options, self->cache, &self->greedy, legal, n_legal);
    case BOT_HEURISTIC:
        return bot_heuristic(game, self->cards, self->options, self->cache, &self->heuristic, legal, n_legal);
    default: /* BOT_RANDOM: uniform over the legal actions, from the seat's own generator */
        return legal[uniform_below(&slot->seat_rng[seat], (uint64_t)n_legal)];
    }
}

static void end_of_episode(BatchObject *self, int index, int truncated) {
    Slot *slot = &self->slots[index];
    Game *game = &slot->game;
    int n = self->num_players;
    float *rewards = BUF(self, B_REWARDS, float) + (size_t)index * n;
    int16_t *scores = BUF(self, B_SCORES, int16_t) + (size_t)index * n;
    if (truncated) {
        BUF(self, B_TRUNCATED, uint8_t)[index] = 1;
        game_scores(game, self->cards, scores);
        BUF(self, B_WINNERS, uint8_t)[index] = 0;
    } else {
        BUF(self, B_TERMINATED, uint8_t)[index] = 1;
        int winners = 0;
        for (int p = 0; p < n; p++) {
            scores[p] = game->final_scores[p];
            winners += game->winners_mask >> p & 1u;
        }
        BUF(self, B_WINNERS, uint8_t)[index] = game->winners_mask;
        for (int p = 0; p < n; p++) {
            if (self->reward_mode == 0) { /* win: 1/k per winner, -1 otherwise (aec.game_rewards) */
                rewards[p] = (game->winners_mask >> p & 1u) ? (float)(1.0 / winners) : -1.0f;
            } else { /* score: (own - best other) / 20 */
                int best = -100000;
                for (int q = 0; q < n; q++)
                    if (q != p && game->final_scores[q] > best) best = game->final_scores[q];
                rewards[p] = (float)((game->final_scores[p] - best) / 20.0);
            }
        }
    }
    obs_encode(game, self->cards, self->options, self->cache, slot->learner,
               BUF(self, B_FINAL_OBS, float) + (size_t)index * self->obs_size);
}

/* Play bot turns until a Python seat acts or the game is over; then handle the end. */
static void advance(BatchObject *self, int index) {
    Slot *slot = &self->slots[index];
    for (;;) {
        Game *game = &slot->game;
        int over = game->phase == GAME_OVER;
        int truncated = !over && self->max_turns > 0 && game->turn > self->max_turns;
        if (over || truncated) {
            end_of_episode(self, index, truncated);
            if (!self->autoreset) return;
            slot->episode++;
            start_episode(self, index);
            continue;
        }
        if (is_python_seat(slot->controllers[game->current_player])) return;
        int action = bot_move(self, slot);
        game_apply_legal(game, self->cards, self->options, action, NULL, NULL, NULL);
        BUF(self, B_STEPS, int32_t)[index]++;
    }
}

static void write_outputs(BatchObject *self, int index) {
    Slot *slot = &self->slots[index];
    Game *game = &slot->game;
    uint8_t *mask = BUF(self, B_MASKS, uint8_t) + (size_t)index * NUM_ACTIONS;
    float *obs = BUF(self, B_OBS, float) + (size_t)index * self->obs_size;
    if (game->phase == GAME_OVER) { /* only without auto-reset */
        memset(mask, 0, NUM_ACTIONS);
        slot->legal[0] = slot->legal[1] = 0;
        BUF(self, B_ACTING, int8_t)[index] = -1;
        BUF(self, B_CONTROLLER, int8_t)[index] = -1;
        return;
    }
    game_legal(game, self->cards, self->options, mask);
    slot->legal[0] = slot->legal[1] = 0;
    for (int a = 0; a < NUM_ACTIONS; a++)
        if (mask[a]) slot->legal[a >> 6] |= 1ull << (a & 63);
    BUF(self, B_ACTING, int8_t)[index] = game->current_player;
    BUF(self, B_CONTROLLER, int8_t)[index] = slot->controllers[game->current_player];
    obs_encode(game, self->cards, self->options, self->cache, game->current_player, obs);
}

static void clear_step_outputs(BatchObject *self, int index) {
    int n = self->num_players;
    memset(BUF(self, B_REWARDS, float) + (size_t)index * n, 0, sizeof(float) * n);
    BUF(self, B_TERMINATED, uint8_t)[index] = 0;
    BUF(self, B_TRUNCATED, uint8_t)[index] = 0;
}

/* -- Python methods -------------------------------------------------------------------------- */
/* Both called without the GIL (see the top of the file). */
static void batch_lock(BatchObject *self) { PyThread_acquire_lock(self->lock, WAIT_LOCK); }
static void batch_unlock(BatchObject *self) { PyThread_release_lock(self->lock); }

/* The first queued opponent code that is neither a bot (1-3) nor an external policy (16 + k), as
 * its index in next_opponents, or -1. The caller may write into the array at any time, so it is
 * checked at every call that can start an episode, before any game changes. */
static Py_ssize_t bad_queued_opponent(const BatchObject *self) {
    const int8_t *queued = BUF(self, B_NEXT_OPPONENTS, int8_t);
    Py_ssize_t count = (Py_ssize_t)self->num_games * (self->num_players - 1);
    for (Py_ssize_t i = 0; i < count; i++)
        if (!(queued[i] >= BOT_RANDOM && queued[i] <= BOT_HEURISTIC) &&
            !(queued[i] >= CONTROL_EXTERNAL && queued[i] < CONTROL_EXTERNAL + self->external_policies))
            return i;
    return -1;
}

static PyObject *raise_bad_opponent(const BatchObject *self, Py_ssize_t at, int code) {
    int others = self->num_players - 1;
    PyErr_Format(PyExc_ValueError,
                 "next_opponents[%zd, %zd] (game %zd) holds controller %d, which is not a bot (1-3) "
                 "or an external policy (16-%d); no game was changed",
                 at / others, at % others, at / others, code, CONTROL_EXTERNAL + self->external_policies - 1);
    return NULL;
}

/* A Batch made by __new__ alone (or whose __init__ failed) has no games: every method says so. */
static int not_ready(const BatchObject *self) {
    if (self->lock) return 0;
    PyErr_SetString(PyExc_RuntimeError, "this native Batch was not initialised");
    return 1;
}

static PyObject *Batch_reset(BatchObject *self, PyObject *unused) {
    (void)unused;
    if (not_ready(self)) return NULL;
    Py_ssize_t bad = -1;
    int bad_code = 0;
    Py_BEGIN_ALLOW_THREADS
    batch_lock(self);
    bad = bad_queued_opponent(self);
    if (bad >= 0) bad_code = BUF(self, B_NEXT_OPPONENTS, int8_t)[bad];
    int first = !self->started;
    if (bad < 0) self->started = 1;
    for (int i = 0; bad < 0 && i < self->num_games; i++) {
        /* the first reset starts episode 0 of every slot; a later one starts each slot's next */
        self->slots[i].episode = first ? 0 : self->slots[i].episode + 1;
        start_episode(self, i);
        clear_step_outputs(self, i);
        advance(self, i);
        write_outputs(self, i);
    }
    batch_unlock(self);
    Py_END_ALLOW_THREADS
    if (bad >= 0) return raise_bad_opponent(self, bad, bad_code);
    Py_RETURN_NONE;
}

static PyObject *Batch_step(BatchObject *self, PyObject *actions_obj) {
    if (not_ready(self)) return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(actions_obj, &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return NULL;
    const char *format = view.format ? view.format : "B";
    if (format[0] == '<' || format[0] == '=' || format[0] == '@') format++;
    if (view.itemsize != 4 || !strchr("il", format[0]) || view.len != (Py_ssize_t)self->num_games * 4) {
        PyErr_Format(PyExc_ValueError, "actions must be int32 with one entry per game (%d), got format '%s' and %zd bytes",
                     self->num_games, view.format ? view.format : "B", view.len);
        PyBuffer_Release(&view);
        return NULL;
    }
    const int32_t *actions = (const int32_t *)view.buf;
    int bad = -1, bad_action = 0, n_legal = 0, bad_code = 0;
    Py_ssize_t bad_opponent = -1;
    int8_t legal[NUM_ACTIONS];
    Py_BEGIN_ALLOW_THREADS
    batch_lock(self);
    /* every action (and every queued opponent) is checked before any game changes; -1 is the only
     * "leave this game alone" */
    for (int i = 0; i < self->num_games && bad < 0; i++) {
        int action = actions[i];
        if (action == -1) continue;
        Slot *slot = &self->slots[i];
        Game *game = &slot->game;
        if (action < -1 || action >= NUM_ACTIONS || game->phase == GAME_OVER ||
            !is_python_seat(slot->controllers[game->current_player]) ||
            !(slot->legal[action >> 6] >> (action & 63) & 1u)) {
            bad = i;
            bad_action = action;
            /* the legal actions are read under the lock, before another call can change them */
            n_legal = game->phase == GAME_OVER ? 0 : game_legal_list(game, self->cards, self->options, legal);
        }
    }
    if (bad < 0) {
        bad_opponent = bad_queued_opponent(self);
        if (bad_opponent >= 0) bad_code = BUF(self, B_NEXT_OPPONENTS, int8_t)[bad_opponent];
    }
    if (bad < 0 && bad_opponent < 0)
        for (int i = 0; i < self->num_games; i++) {
            clear_step_outputs(self, i);
            if (actions[i] == -1) continue;
            game_apply_legal(&self->slots[i].game, self->cards, self->options, actions[i], NULL, NULL, NULL);
            BUF(self, B_STEPS, int32_t)[i]++;
            advance(self, i);
            write_outputs(self, i);
        }
    batch_unlock(self);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    if (bad >= 0) {
        PyObject *list = PyList_New(n_legal);
        for (int k = 0; list && k < n_legal; k++) PyList_SET_ITEM(list, k, PyLong_FromLong(legal[k]));
        PyObject *error = list ? Py_BuildValue("(iiN)", bad, bad_action, list) : NULL;
        if (error) PyErr_SetObject(PyExc_LookupError, error);
        Py_XDECREF(error);
        return NULL;
    }
    if (bad_opponent >= 0) return raise_bad_opponent(self, bad_opponent, bad_code);
    Py_RETURN_NONE;
}

/* observe(seats, out): the observation of seats[i] in game i, into out[i] (seat -1: zeros) */
static PyObject *Batch_observe(BatchObject *self, PyObject *args) {
    if (not_ready(self)) return NULL;
    PyObject *seats_obj, *out_obj;
    if (!PyArg_ParseTuple(args, "OO", &seats_obj, &out_obj)) return NULL;
    Py_buffer seats, out;
    if (PyObject_GetBuffer(seats_obj, &seats, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return NULL;
    if (seats.itemsize != 1 || seats.len != self->num_games) {
        PyBuffer_Release(&seats);
        PyErr_Format(PyExc_ValueError, "seats must be int8 with one entry per game (%d)", self->num_games);
        return NULL;
    }
    if (PyObject_GetBuffer(out_obj, &out, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyBuffer_Release(&seats);
        return NULL;
    }
    if (out.itemsize != 4 || out.len != (Py_ssize_t)self->num_games * self->obs_size * 4) {
        PyBuffer_Release(&seats);
        PyBuffer_Release(&out);
        PyErr_Format(PyExc_ValueError, "out must be float32 of shape (%d, %d)", self->num_games, self->obs_size);
        return NULL;
    }
    const int8_t *seat = (const int8_t *)seats.buf;
    for (int i = 0; i < self->num_games; i++)
        if (seat[i] < -1 || seat[i] >= self->num_players) {
            PyBuffer_Release(&seats);
            PyBuffer_Release(&out);
            PyErr_Format(PyExc_ValueError, "seats[%d] = %d is not a seat", i, seat[i]);
            return NULL;
        }
    Py_BEGIN_ALLOW_THREADS
    batch_lock(self);
    for (int i = 0; i < self->num_games; i++) {
        float *row = (float *)out.buf + (size_t)i * self->obs_size;
        if (seat[i] < 0)
            memset(row, 0, sizeof(float) * self->obs_size);
        else
            obs_encode(&self->slots[i].game, self->cards, self->options, self->cache, seat[i], row);
    }
    batch_unlock(self);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&seats);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

/* export_game(i) -> (words, rng) of slot i's game, for tests and tools (see module.c) */

static PyObject *Batch_export_game(BatchObject *self, PyObject *arg) {
    if (not_ready(self)) return NULL;
    long index = PyLong_AsLong(arg);
    if (index == -1 && PyErr_Occurred()) return NULL;
    if (index < 0 || index >= self->num_games) {
        PyErr_Format(PyExc_IndexError, "game %ld out of range (0..%d)", index, self->num_games - 1);
        return NULL;
    }
    Game copy; /* taken under the lock: another thread may be stepping this batch */
    Py_BEGIN_ALLOW_THREADS
    batch_lock(self);
    copy = self->slots[index].game;
    batch_unlock(self);
    Py_END_ALLOW_THREADS
    return game_export_tuple(&copy);
}

static PyObject *Batch_controllers(BatchObject *self, PyObject *arg) {
    if (not_ready(self)) return NULL;
    long index = PyLong_AsLong(arg);
    if (index == -1 && PyErr_Occurred()) return NULL;
    if (index < 0 || index >= self->num_games) {
        PyErr_Format(PyExc_IndexError, "game %ld out of range (0..%d)", index, self->num_games - 1);
        return NULL;
    }
    int8_t controllers[MAX_PLAYERS];
    Py_BEGIN_ALLOW_THREADS
    batch_lock(self);
    memcpy(controllers, self->slots[index].controllers, sizeof controllers);
    batch_unlock(self);
    Py_END_ALLOW_THREADS
    PyObject *out = PyTuple_New(self->num_players);
    if (!out) return NULL;
    for (int s = 0; s < self->num_players; s++) PyTuple_SET_ITEM(out, s, PyLong_FromLong(controllers[s]));
    return out;
}

static PyObject *Batch_bytes_per_game(BatchObject *self, void *closure) {
    (void)closure;
    return PyLong_FromSize_t(sizeof(Slot));
}

static PyMethodDef Batch_methods[] = {
    {"reset", (PyCFunction)Batch_reset, METH_NOARGS, "Start every slot's first episode."},
    {"step", (PyCFunction)Batch_step, METH_O, "Apply one action per waiting game, then play the bots."},
    {"observe", (PyCFunction)Batch_observe, METH_VARARGS, "Observations of given seats."},
    {"export_game", (PyCFunction)Batch_export_game, METH_O, "A slot's game state (words, rng)."},
    {"controllers", (PyCFunction)Batch_controllers, METH_O, "A slot's controllers by seat."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Batch_getset[] = {
    {"bytes_per_game", (getter)Batch_bytes_per_game, NULL, "Bytes of core state per game.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static int Batch_init(BatchObject *self, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"core", "num_games", "num_players", "seed_words", "buffers", "settings",
                               "greedy", "heuristic", NULL};
    PyObject *core_obj, *seed_obj, *buffers, *settings, *greedy_obj, *heuristic_obj;
    int num_games, num_players;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OiiOOOOO", keywords, &core_obj, &num_games, &num_players,
                                     &seed_obj, &buffers, &settings, &greedy_obj, &heuristic_obj))
        return -1;
    if (!PyObject_TypeCheck(core_obj, CoreTypePtr)) {
        PyErr_SetString(PyExc_TypeError, "core must be a native Core");
        return -1;
    }
    if (self->lock) {
        PyErr_SetString(PyExc_RuntimeError, "a native Batch is initialised once");
        return -1;
    }
    if (num_games < 1 || num_games > BATCH_MAX_GAMES) {
        PyErr_Format(PyExc_ValueError, "num_games must be 1..%d, got %d", BATCH_MAX_GAMES, num_games);
        return -1;
    }
    if (num_players < MIN_PLAYERS || num_players > MAX_PLAYERS) {
        PyErr_Format(PyExc_ValueError, "num_players must be 2 to 4, got %d", num_players);
        return -1;
    }
    PyObject *fast = PySequence_Fast(seed_obj, "seed_words must be a sequence of 32-bit words");
    if (!fast) return -1;
    Py_ssize_t n_words = PySequence_Fast_GET_SIZE(fast);
    if (n_words < 1 || n_words > 56) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "seed_words: 1..56 words");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n_words; i++) {
        unsigned long long v = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (PyErr_Occurred() || v > 0xFFFFFFFFull) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "seed_words must be 32-bit");
            return -1;
        }
        self->seed_words[i] = (uint32_t)v;
    }
    self->n_seed_words = (int)n_words;
    Py_DECREF(fast);
    if (!PyArg_ParseTuple(settings, "iiiii", &self->reward_mode, &self->max_turns, &self->autoreset, &self->learner_mode,
                          &self->external_policies))
        return -1;
    if (self->reward_mode < 0 || self->reward_mode > 1 || self->max_turns < 0 ||
        self->learner_mode < -1 || self->learner_mode >= num_players || self->external_policies < 0 ||
        self->external_policies > INT8_MAX - CONTROL_EXTERNAL + 1) {
        PyErr_SetString(PyExc_ValueError, "settings: reward mode 0/1, max_turns >= 0, learner seat -1 or a seat, "
                                          "external policies 0..112");
        return -1;
    }
    if (parse_greedy_config(greedy_obj, &self->greedy) < 0 || parse_heuristic_config(heuristic_obj, &self->heuristic) < 0)
        return -1;
    if (self->heuristic.value_era < 1 || self->heuristic.value_era > 2) {
        PyErr_SetString(PyExc_ValueError, "heuristic value_era must be 1 or 2");
        return -1;
    }
    self->num_games = num_games;
    self->num_players = num_players;
    self->obs_size = obs_size(num_players);
    self->core_obj = core_obj;
    Py_INCREF(core_obj);
    self->cards = &((CoreObject *)core_obj)->cards;
    self->options = &((CoreObject *)core_obj)->options;
    if (!PyTuple_Check(buffers) || PyTuple_GET_SIZE(buffers) != B_COUNT) {
        PyErr_Format(PyExc_TypeError, "buffers must be a tuple of %d arrays", B_COUNT);
        return -1;
    }
    Py_ssize_t N = num_games, P = num_players, O = self->obs_size;
    const struct { Py_ssize_t items; int size; const char *formats; } spec[B_COUNT] = {
        {N * O, 4, "f"}, {N * NUM_ACTIONS, 1, "B?b"}, {N * P, 4, "f"}, {N, 1, "B?b"}, {N, 1, "B?b"},
        {N, 1, "b"},     {N, 1, "b"},                 {N * O, 4, "f"}, {N, 1, "b"},   {N * (P - 1), 1, "b"},
        {N * P, 2, "h"}, {N, 1, "B"},                 {N, 4, "il"},
    };
    for (int i = 0; i < B_COUNT; i++)
        if (expect_buffer(self, PyTuple_GET_ITEM(buffers, i), i, spec[i].items, spec[i].size, spec[i].formats) < 0)
            return -1;
    const int8_t *queued = BUF(self, B_NEXT_OPPONENTS, int8_t);
    Py_ssize_t bad = bad_queued_opponent(self);
    if (bad >= 0) {
        raise_bad_opponent(self, bad, queued[bad]);
        return -1;
    }
    self->slots = calloc((size_t)num_games, sizeof(Slot));
    self->cache = calloc(1, sizeof(ShapeCache));
    self->lock = PyThread_allocate_lock();
    if (!self->slots || !self->cache || !self->lock) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static PyTypeObject BatchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "airships_env.native._core.Batch",
    .tp_basicsize = sizeof(BatchObject),
    .tp_dealloc = (destructor)batch_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Batch_init,
    .tp_methods = Batch_methods,
    .tp_getset = Batch_getset,
    .tp_doc = "N games stepped together (see airships_env/native/batch.py).",
};

/* -- whole bot games (the arena on the core) -------------------------------------------------- */
/* play_bot_games(core, num_players, games, greedy, heuristic, max_steps): ``games`` is a list of
 * (game_rng, (seat_rng, ...), (controller, ...)); returns per game (over, scores, winners mask,
 * turns, steps, decisions per seat). Every controller must be a bot (1-3). */
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
    Slot *slots = calloc((size_t)(count ? count : 1), sizeof(Slot));
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
        Slot *slot = &slots[g];
        Game *game = &slot->game;
        while (game->phase != GAME_OVER && steps[g] < max_steps) {
            int8_t legal[NUM_ACTIONS];
            int n_legal = game_legal_list(game, cards, options, legal);
            int seat = game->current_player, action;
            if (slot->controllers[seat] == BOT_GREEDY)
                action = bot_greedy(game, cards, options, cache, &greedy, legal, n_legal);
            else if (slot->controllers[seat] == BOT_HEURISTIC)
                action = bot_heuristic(game, cards, options, cache, &heuristic, legal, n_legal);
            else
                action = legal[uniform_below(&slot->seat_rng[seat], (uint64_t)n_legal)];
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
    if (PyType_Ready(&BatchType) < 0) return -1;
    Py_INCREF(&BatchType);
    if (PyModule_AddObject(module, "Batch", (PyObject *)&BatchType) < 0) return -1;
    if (PyModule_AddIntConstant(module, "BATCH_MAX_GAMES", BATCH_MAX_GAMES) < 0) return -1;
    return PyModule_AddFunctions(module, batch_functions);
}
