/* Escape from Clockwork City's batch: N games stepped in one call with the GIL released, the
 * twin of Airships' batch.c (airships_env/native/clockwork.py's ClockworkBatch is its face).
 *
 * Every seat of every game has a controller: 0 a Python seat that learns (the learner), 1 the
 * random bot, 2 greedy, 3 heuristic (played inside the step, clockwork_bots.c), 16 + k an
 * external Python policy k (evaluated by the caller in one batched forward). A step applies the
 * given action in every game that waits for a Python seat, then plays the bots' turns until a
 * Python seat must act or the game ends; a game that ends writes its rewards, its final
 * observation (for its learner seat) and its winner, and starts its slot's next episode
 * (auto-reset): new deal, new learner seat, the opponents the caller queued for it.
 *
 * Seeds: episode e of slot i deals from PCG64(SeedSequence(seed, spawn_key=(i, e, 0))), the bot
 * in seat s draws from (i, e, 1 + s) and the learner's seat is uniform_below(players) from
 * (i, e, 7): a slot's games depend on neither the number of slots nor the other slots.
 *
 * Rewards (GameAEC's, the game's outcome: the winner scores 1, the others 0): the winner 1, the
 * others -1, everyone 0 without a winner (W3); ``reward="score"`` gives the same numbers.
 * ``max_turns`` (GameAEC's): the episode is truncated once that many actions were played.
 *
 * All output goes into buffers the caller allocated once; nothing is allocated per step. Every
 * method holds the batch's lock from its first check to its last write (taken with the GIL
 * released), so a batch shared between threads is stepped by one call at a time.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pythread.h>
#include <stdlib.h>
#include <string.h>

#include "binding.h"
#include "clockwork_binding.h"

#define CONTROL_LEARNER 0
#define CONTROL_EXTERNAL 16
#define SPAWN_GAME 0
#define SPAWN_LEARNER 7
#define CW_BATCH_MAX_GAMES 100000 /* as Airships' batch: a mistaken size is an error, not swap */
#define MASK_WORDS ((CW_NUM_ACTIONS + 63) / 64)

typedef struct {
    CwGame game;
    Rng seat_rng[CW_MAX_PLAYERS];
    int8_t controllers[CW_MAX_PLAYERS];
    int8_t learner;
    uint32_t episode;
    uint64_t legal[MASK_WORDS]; /* the waiting seat's legal actions, kept privately */
} CwSlot;

enum { B_OBS, B_MASKS, B_REWARDS, B_TERMINATED, B_TRUNCATED, B_ACTING, B_CONTROLLER, B_FINAL_OBS,
       B_LEARNER, B_NEXT_OPPONENTS, B_SCORES, B_WINNERS, B_STEPS, B_COUNT };

static const char *BUFFER_NAMES[B_COUNT] = {"obs", "masks", "rewards", "terminated", "truncated",
                                            "acting", "controller", "final_obs", "learner",
                                            "next_opponents", "scores", "winners",
                                            "episode_steps"};

typedef struct {
    PyObject_HEAD
    CwConfig config;
    int num_games, num_players;
    uint32_t seed_words[56];
    int n_seed_words;
    int max_turns, autoreset, learner_mode, external_policies;
    double threshold;
    int started;
    CwSlot *slots;
    Py_buffer views[B_COUNT];
    int n_views;
    PyThread_type_lock lock;
} CwBatchObject;

#define BUF(self, index, type) ((type *)(self)->views[index].buf)

static void cw_batch_dealloc(CwBatchObject *self) {
    for (int i = 0; i < self->n_views; i++) PyBuffer_Release(&self->views[i]);
    if (self->lock) PyThread_free_lock(self->lock);
    free(self->slots);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int expect_buffer(CwBatchObject *self, PyObject *obj, int index, Py_ssize_t items,
                         int itemsize, const char *formats) {
    Py_buffer *view = &self->views[index];
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    self->n_views = index + 1;
    const char *format = view->format ? view->format : "B";
    if (format[0] == '<' || format[0] == '=' || format[0] == '@') format++;
    if (view->itemsize != itemsize || !strchr(formats, format[0]) || format[1] != '\0') {
        PyErr_Format(PyExc_TypeError,
                     "buffer '%s' has format '%s' (item size %zd); expected one of '%s' with %d "
                     "bytes",
                     BUFFER_NAMES[index], view->format ? view->format : "B", view->itemsize,
                     formats, itemsize);
        return -1;
    }
    if (view->len != items * itemsize) {
        PyErr_Format(PyExc_ValueError, "buffer '%s' holds %zd items, expected %zd",
                     BUFFER_NAMES[index], view->len / itemsize, items);
        return -1;
    }
    return 0;
}

/* -- episodes ------------------------------------------------------------------------------ */
static void seed_slot_rng(const CwBatchObject *self, Rng *rng, int slot, uint32_t episode,
                          uint32_t stream) {
    uint32_t spawn[3] = {(uint32_t)slot, episode, stream};
    rng_seed_sequence(rng, self->seed_words, self->n_seed_words, spawn, 3);
}

static void start_episode(CwBatchObject *self, int index) {
    CwSlot *slot = &self->slots[index];
    int n = self->num_players;
    Rng game_rng;
    seed_slot_rng(self, &game_rng, index, slot->episode, SPAWN_GAME);
    cw_new_game(&slot->game, &self->config, n, &game_rng);
    for (int s = 0; s < n; s++)
        seed_slot_rng(self, &slot->seat_rng[s], index, slot->episode, 1u + (uint32_t)s);
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

static int is_python_seat(int controller) {
    return controller == CONTROL_LEARNER || controller >= CONTROL_EXTERNAL;
}

static void end_of_episode(CwBatchObject *self, int index, int truncated) {
    CwSlot *slot = &self->slots[index];
    const CwGame *game = &slot->game;
    int n = self->num_players;
    float *rewards = BUF(self, B_REWARDS, float) + (size_t)index * n;
    int16_t *scores = BUF(self, B_SCORES, int16_t) + (size_t)index * n;
    for (int p = 0; p < n; p++) scores[p] = (int16_t)(!truncated && p == game->winner); /* W2 */
    if (truncated) {
        BUF(self, B_TRUNCATED, uint8_t)[index] = 1;
        BUF(self, B_WINNERS, uint8_t)[index] = 0;
    } else {
        BUF(self, B_TERMINATED, uint8_t)[index] = 1;
        int winner = game->winner;
        BUF(self, B_WINNERS, uint8_t)[index] = winner >= 0 ? (uint8_t)(1u << winner) : 0;
        for (int p = 0; p < n; p++) rewards[p] = winner < 0 ? 0.0f : p == winner ? 1.0f : -1.0f;
    }
    cw_observe(game, slot->learner, BUF(self, B_FINAL_OBS, float) + (size_t)index * CW_OBS_SIZE);
}

/* Play bot turns until a Python seat acts or the episode ends; then handle the end. */
static void advance(CwBatchObject *self, int index) {
    CwSlot *slot = &self->slots[index];
    CwRecord record;
    for (;;) {
        CwGame *game = &slot->game;
        int over = game->phase == CW_OVER;
        int truncated = !over && self->max_turns > 0 &&
                        BUF(self, B_STEPS, int32_t)[index] >= self->max_turns;
        if (over || truncated) {
            end_of_episode(self, index, truncated);
            if (!self->autoreset) return;
            slot->episode++;
            start_episode(self, index);
            continue;
        }
        int seat = game->actor;
        if (is_python_seat(slot->controllers[seat])) return;
        int action = cw_bot_action(game, slot->controllers[seat], self->threshold,
                                   &slot->seat_rng[seat]);
        if (cw_apply_legal(game, action, NULL, &record) != CW_OK) { /* no free place (see step) */
            end_of_episode(self, index, 1);
            if (!self->autoreset) {
                game->phase = CW_OVER;
                return;
            }
            slot->episode++;
            start_episode(self, index);
            continue;
        }
        BUF(self, B_STEPS, int32_t)[index]++;
    }
}

static void write_outputs(CwBatchObject *self, int index) {
    CwSlot *slot = &self->slots[index];
    const CwGame *game = &slot->game;
    uint8_t *mask = BUF(self, B_MASKS, uint8_t) + (size_t)index * CW_NUM_ACTIONS;
    float *obs = BUF(self, B_OBS, float) + (size_t)index * CW_OBS_SIZE;
    memset(mask, 0, CW_NUM_ACTIONS);
    memset(slot->legal, 0, sizeof slot->legal);
    if (game->phase == CW_OVER || (self->max_turns > 0 &&
                                   BUF(self, B_STEPS, int32_t)[index] >= self->max_turns)) {
        BUF(self, B_ACTING, int8_t)[index] = -1; /* only without auto-reset */
        BUF(self, B_CONTROLLER, int8_t)[index] = -1;
        return;
    }
    int16_t legal[CW_NUM_ACTIONS];
    int n_legal = cw_legal_actions(game, legal);
    for (int k = 0; k < n_legal; k++) {
        mask[legal[k]] = 1;
        slot->legal[legal[k] >> 6] |= 1ull << (legal[k] & 63);
    }
    BUF(self, B_ACTING, int8_t)[index] = game->actor;
    BUF(self, B_CONTROLLER, int8_t)[index] = slot->controllers[game->actor];
    cw_observe(game, game->actor, obs);
}

static void clear_step_outputs(CwBatchObject *self, int index) {
    int n = self->num_players;
    memset(BUF(self, B_REWARDS, float) + (size_t)index * n, 0, sizeof(float) * n);
    BUF(self, B_TERMINATED, uint8_t)[index] = 0;
    BUF(self, B_TRUNCATED, uint8_t)[index] = 0;
}

/* -- Python methods -------------------------------------------------------------------------- */
static void batch_lock(CwBatchObject *self) { PyThread_acquire_lock(self->lock, WAIT_LOCK); }
static void batch_unlock(CwBatchObject *self) { PyThread_release_lock(self->lock); }

/* The first queued opponent code that is neither a bot (1-3) nor an external policy, or -1. */
static Py_ssize_t bad_queued_opponent(const CwBatchObject *self) {
    const int8_t *queued = BUF(self, B_NEXT_OPPONENTS, int8_t);
    Py_ssize_t count = (Py_ssize_t)self->num_games * (self->num_players - 1);
    for (Py_ssize_t i = 0; i < count; i++)
        if (!(queued[i] >= CW_BOT_RANDOM && queued[i] <= CW_BOT_HEURISTIC) &&
            !(queued[i] >= CONTROL_EXTERNAL &&
              queued[i] < CONTROL_EXTERNAL + self->external_policies))
            return i;
    return -1;
}

static PyObject *raise_bad_opponent(const CwBatchObject *self, Py_ssize_t at, int code) {
    int others = self->num_players - 1;
    PyErr_Format(PyExc_ValueError,
                 "next_opponents[%zd, %zd] (game %zd) holds controller %d, which is not a bot "
                 "(1-3) or an external policy (16-%d); no game was changed",
                 at / others, at % others, at / others, code,
                 CONTROL_EXTERNAL + self->external_policies - 1);
    return NULL;
}

static int not_ready(const CwBatchObject *self) {
    if (self->lock) return 0;
    PyErr_SetString(PyExc_RuntimeError, "this native ClockworkBatch was not initialised");
    return 1;
}

static PyObject *CwBatch_reset(CwBatchObject *self, PyObject *unused) {
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
        /* the first reset starts episode 0 of every slot; a later one each slot's next */
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

static PyObject *CwBatch_step(CwBatchObject *self, PyObject *actions_obj) {
    if (not_ready(self)) return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(actions_obj, &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return NULL;
    const char *format = view.format ? view.format : "B";
    if (format[0] == '<' || format[0] == '=' || format[0] == '@') format++;
    if (view.itemsize != 4 || !strchr("il", format[0]) ||
        view.len != (Py_ssize_t)self->num_games * 4) {
        PyErr_Format(PyExc_ValueError,
                     "actions must be int32 with one entry per game (%d), got format '%s' and "
                     "%zd bytes",
                     self->num_games, view.format ? view.format : "B", view.len);
        PyBuffer_Release(&view);
        return NULL;
    }
    const int32_t *actions = (const int32_t *)view.buf;
    int bad = -1, bad_action = 0, n_legal = 0, bad_code = 0;
    Py_ssize_t bad_opponent = -1;
    int16_t legal[CW_NUM_ACTIONS];
    Py_BEGIN_ALLOW_THREADS
    batch_lock(self);
    /* every action (and every queued opponent) is checked before any game changes; -1 is the
     * only "leave this game alone" */
    for (int i = 0; i < self->num_games && bad < 0; i++) {
        int action = actions[i];
        if (action == -1) continue;
        CwSlot *slot = &self->slots[i];
        CwGame *game = &slot->game;
        if (action < -1 || action >= CW_NUM_ACTIONS ||
            !(slot->legal[action >> 6] >> (action & 63) & 1u) ||
            !is_python_seat(slot->controllers[game->actor])) {
            bad = i;
            bad_action = action;
            n_legal = 0;
            for (int a = 0; a < CW_NUM_ACTIONS; a++)
                if (slot->legal[a >> 6] >> (a & 63) & 1u) legal[n_legal++] = (int16_t)a;
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
            CwRecord record;
            if (cw_apply_legal(&self->slots[i].game, actions[i], NULL, &record) != CW_OK) {
                /* no free place to lay a card (more cards than the 58 places: the loader refuses
                 * such a data file, so this is a guard): the episode ends, truncated */
                end_of_episode(self, i, 1);
                if (!self->autoreset) {
                    self->slots[i].game.phase = CW_OVER;
                    write_outputs(self, i);
                    continue;
                }
                self->slots[i].episode++;
                start_episode(self, i);
            } else {
                BUF(self, B_STEPS, int32_t)[i]++;
            }
            advance(self, i);
            write_outputs(self, i);
        }
    batch_unlock(self);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    if (bad >= 0) {
        PyObject *list = PyList_New(n_legal);
        for (int k = 0; list && k < n_legal; k++) {
            PyObject *item = PyLong_FromLong(legal[k]);
            if (!item) {
                Py_CLEAR(list);
                break;
            }
            PyList_SET_ITEM(list, k, item);
        }
        PyObject *error = list ? Py_BuildValue("(iiN)", bad, bad_action, list) : NULL;
        if (error) PyErr_SetObject(PyExc_LookupError, error);
        Py_XDECREF(error);
        return NULL;
    }
    if (bad_opponent >= 0) return raise_bad_opponent(self, bad_opponent, bad_code);
    Py_RETURN_NONE;
}

static int game_index(const CwBatchObject *self, PyObject *arg, long *index) {
    if (!PyLong_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "game: expected an integer, got %.100s",
                     Py_TYPE(arg)->tp_name);
        return -1;
    }
    int overflow;
    *index = PyLong_AsLongAndOverflow(arg, &overflow);
    if (*index == -1 && PyErr_Occurred()) return -1;
    if (overflow || *index < 0 || *index >= self->num_games) {
        PyErr_Format(PyExc_IndexError, "game %R out of range (0..%d)", arg, self->num_games - 1);
        return -1;
    }
    return 0;
}

/* export_game(i) -> slot i's game as State.to_dict()'s fields (tests and tools) */
static PyObject *CwBatch_export_game(CwBatchObject *self, PyObject *arg) {
    if (not_ready(self)) return NULL;
    long index;
    if (game_index(self, arg, &index) < 0) return NULL;
    CwGame copy; /* taken under the lock: another thread may be stepping this batch */
    Py_BEGIN_ALLOW_THREADS
    batch_lock(self);
    copy = self->slots[index].game;
    batch_unlock(self);
    Py_END_ALLOW_THREADS
    return cw_export_dict(&copy);
}

static PyObject *CwBatch_controllers(CwBatchObject *self, PyObject *arg) {
    if (not_ready(self)) return NULL;
    long index;
    if (game_index(self, arg, &index) < 0) return NULL;
    int8_t controllers[CW_MAX_PLAYERS];
    Py_BEGIN_ALLOW_THREADS
    batch_lock(self);
    memcpy(controllers, self->slots[index].controllers, sizeof controllers);
    batch_unlock(self);
    Py_END_ALLOW_THREADS
    PyObject *out = PyTuple_New(self->num_players);
    if (!out) return NULL;
    for (int s = 0; s < self->num_players; s++)
        PyTuple_SET_ITEM(out, s, PyLong_FromLong(controllers[s]));
    return out;
}

static PyObject *CwBatch_bytes_per_game(CwBatchObject *self, void *closure) {
    (void)self;
    (void)closure;
    return PyLong_FromSize_t(sizeof(CwSlot));
}

static PyMethodDef CwBatch_methods[] = {
    {"reset", (PyCFunction)CwBatch_reset, METH_NOARGS, "Start every slot's next episode."},
    {"step", (PyCFunction)CwBatch_step, METH_O,
     "Apply one action per waiting game, then play the bots."},
    {"export_game", (PyCFunction)CwBatch_export_game, METH_O, "A slot's game as a state dict."},
    {"controllers", (PyCFunction)CwBatch_controllers, METH_O, "A slot's controllers by seat."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef CwBatch_getset[] = {
    {"bytes_per_game", (getter)CwBatch_bytes_per_game, NULL, "Bytes of core state per game.",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* ClockworkBatch(num_games, num_players, seed_words, options, counts, track, buffers, settings)
 * with settings (max_turns (0: none), autoreset, learner seat (-1: random), external policies,
 * heuristic threshold). */
static int CwBatch_init(CwBatchObject *self, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"num_games", "num_players", "seed_words", "options", "counts",
                               "track",     "buffers",     "settings",   NULL};
    PyObject *seed_obj, *options, *counts, *track, *buffers, *settings;
    int num_games, num_players;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iiOOOOOO", keywords, &num_games, &num_players,
                                     &seed_obj, &options, &counts, &track, &buffers, &settings))
        return -1;
    if (self->lock) {
        PyErr_SetString(PyExc_RuntimeError, "a native ClockworkBatch is initialised once");
        return -1;
    }
    if (num_games < 1 || num_games > CW_BATCH_MAX_GAMES) {
        PyErr_Format(PyExc_ValueError, "num_games must be 1..%d, got %d", CW_BATCH_MAX_GAMES,
                     num_games);
        return -1;
    }
    if (num_players < CW_MIN_PLAYERS || num_players > CW_MAX_PLAYERS) {
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
    if (cw_parse_config(options, counts, track, num_players, &self->config) < 0) return -1;
    if (!PyTuple_Check(settings) ||
        !PyArg_ParseTuple(settings, "iiiid", &self->max_turns, &self->autoreset,
                          &self->learner_mode, &self->external_policies, &self->threshold)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "settings must be a tuple (max_turns, autoreset, "
                                             "learner seat, external policies, threshold)");
        return -1;
    }
    if (self->max_turns < 0 || self->learner_mode < -1 || self->learner_mode >= num_players ||
        self->external_policies < 0 || self->external_policies > INT8_MAX - CONTROL_EXTERNAL + 1 ||
        !(self->threshold == self->threshold)) {
        PyErr_SetString(PyExc_ValueError,
                        "settings: max_turns >= 0, learner seat -1 or a seat, external policies "
                        "0..112, a threshold that is a number");
        return -1;
    }
    self->num_games = num_games;
    self->num_players = num_players;
    if (!PyTuple_Check(buffers) || PyTuple_GET_SIZE(buffers) != B_COUNT) {
        PyErr_Format(PyExc_TypeError, "buffers must be a tuple of %d arrays", B_COUNT);
        return -1;
    }
    Py_ssize_t N = num_games, P = num_players, O = CW_OBS_SIZE;
    const struct {
        Py_ssize_t items;
        int size;
        const char *formats;
    } spec[B_COUNT] = {
        {N * O, 4, "f"}, {N * CW_NUM_ACTIONS, 1, "B?b"}, {N * P, 4, "f"}, {N, 1, "B?b"},
        {N, 1, "B?b"},   {N, 1, "b"},                    {N, 1, "b"},     {N * O, 4, "f"},
        {N, 1, "b"},     {N * (P - 1), 1, "b"},          {N * P, 2, "h"}, {N, 1, "B"},
        {N, 4, "il"},
    };
    for (int i = 0; i < B_COUNT; i++)
        if (expect_buffer(self, PyTuple_GET_ITEM(buffers, i), i, spec[i].items, spec[i].size,
                          spec[i].formats) < 0)
            return -1;
    Py_ssize_t bad = bad_queued_opponent(self);
    if (bad >= 0) {
        raise_bad_opponent(self, bad, BUF(self, B_NEXT_OPPONENTS, int8_t)[bad]);
        return -1;
    }
    self->slots = calloc((size_t)num_games, sizeof(CwSlot));
    self->lock = PyThread_allocate_lock();
    if (!self->slots || !self->lock) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static PyTypeObject CwBatchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "airships_env.native._core.ClockworkBatch",
    .tp_basicsize = sizeof(CwBatchObject),
    .tp_dealloc = (destructor)cw_batch_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)CwBatch_init,
    .tp_methods = CwBatch_methods,
    .tp_getset = CwBatch_getset,
    .tp_doc = "N Clockwork City games stepped together (see airships_env/native/clockwork.py).",
};

/* cw_bot_decisions(kind, num_players, games, seed, options, counts, track, threshold) ->
 * decisions: whole games between copies of one native bot in the core alone (the heuristic
 * benchmark). Game g deals from SeedSequence(seed, spawn_key=(g, 0)) and seat s's bot draws from
 * (g, 1 + s), the GIL released; a game stops after 1,000,000 actions. */
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
    long long decisions = 0;
    Py_BEGIN_ALLOW_THREADS
    CwGame game;
    CwRecord record;
    for (int g = 0; g < games; g++) {
        Rng deal, seat_rng[CW_MAX_PLAYERS];
        uint32_t spawn[2] = {(uint32_t)g, 0};
        rng_seed_sequence(&deal, &seed, 1, spawn, 2);
        for (int s = 0; s < num_players; s++) {
            spawn[1] = 1u + (uint32_t)s;
            rng_seed_sequence(&seat_rng[s], &seed, 1, spawn, 2);
        }
        cw_new_game(&game, &config, num_players, &deal);
        for (long steps = 0; game.phase != CW_OVER && steps < 1000000; steps++) {
            int action = cw_bot_action(&game, kind, threshold, &seat_rng[game.actor]);
            if (cw_apply_legal(&game, action, NULL, &record) != CW_OK) break;
            decisions++;
        }
    }
    Py_END_ALLOW_THREADS
    return PyLong_FromLongLong(decisions);
}

static PyMethodDef cw_batch_functions[] = {
    {"cw_bot_decisions", py_cw_bot_decisions, METH_VARARGS,
     "cw_bot_decisions(kind, num_players, games, seed, options, counts, track, threshold) -> "
     "decisions"},
    {NULL, NULL, 0, NULL},
};

int clockwork_batch_register(PyObject *module) {
    if (PyType_Ready(&CwBatchType) < 0) return -1;
    Py_INCREF(&CwBatchType);
    if (PyModule_AddObject(module, "ClockworkBatch", (PyObject *)&CwBatchType) < 0) return -1;
    if (PyModule_AddIntConstant(module, "CW_BATCH_MAX_GAMES", CW_BATCH_MAX_GAMES) < 0) return -1;
    return PyModule_AddFunctions(module, cw_batch_functions);
}
