/* The batch written once over a game interface (gbatch.h says what it does; each game's
 * *_batch.c fills a GbGame). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pythread.h>
#include <stdlib.h>
#include <string.h>

#include "gbatch.h"

#define SPAWN_GAME 0
#define SPAWN_LEARNER 7
#define GB_MAX_TYPES 8 /* the games with a batch */

/* A slot's fixed head; its legal-action bits, its seats' bot memories and its game follow it in
 * the slot's bytes (offsets in the batch object). */
typedef struct {
    Rng seat_rng[GB_MAX_PLAYERS];
    int8_t controllers[GB_MAX_PLAYERS];
    int8_t learner;
    uint32_t episode;
} GbSlot;

enum { B_OBS, B_MASKS, B_REWARDS, B_TERMINATED, B_TRUNCATED, B_ACTING, B_CONTROLLER, B_FINAL_OBS,
       B_LEARNER, B_NEXT_OPPONENTS, B_SCORES, B_WINNERS, B_STEPS, B_COUNT };

static const char *BUFFER_NAMES[B_COUNT] = {"obs", "masks", "rewards", "terminated", "truncated",
                                            "acting", "controller", "final_obs", "learner",
                                            "next_opponents", "scores", "winners",
                                            "episode_steps"};

typedef struct {
    PyObject_HEAD
    const GbGame *game;
    void *config;
    int num_games, num_players, obs_size;
    uint32_t seed_words[56];
    int n_seed_words;
    int max_turns, autoreset, learner_mode, external_policies;
    double setting;
    int started;
    size_t stride, legal_at, memory_at, state_at; /* a slot's size and its parts' offsets */
    int mask_words;
    unsigned char *slots;
    Py_buffer views[B_COUNT];
    int n_views;
    PyThread_type_lock lock;
} GbBatch;

#define BUF(self, index, type) ((type *)(self)->views[index].buf)

/* -- the registered games' types ------------------------------------------------------------- */
static PyTypeObject gb_types[GB_MAX_TYPES];
static const GbGame *gb_games[GB_MAX_TYPES];
static int gb_n_types;

static const char *type_short_name(PyTypeObject *type) {
    const char *dot = strrchr(type->tp_name, '.');
    return dot ? dot + 1 : type->tp_name;
}

static GbSlot *slot_at(const GbBatch *self, int index) {
    return (GbSlot *)(self->slots + (size_t)index * self->stride);
}
static uint64_t *slot_legal(const GbBatch *self, int index) {
    return (uint64_t *)(self->slots + (size_t)index * self->stride + self->legal_at);
}
static void *slot_memory(const GbBatch *self, int index, int seat) {
    return self->slots + (size_t)index * self->stride + self->memory_at +
           (size_t)seat * self->game->memory_size;
}
static void *slot_state(const GbBatch *self, int index) {
    return self->slots + (size_t)index * self->stride + self->state_at;
}

static void gb_dealloc(GbBatch *self) {
    for (int i = 0; i < self->n_views; i++) PyBuffer_Release(&self->views[i]);
    if (self->lock) PyThread_free_lock(self->lock);
    free(self->slots);
    free(self->config);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int expect_buffer(GbBatch *self, PyObject *obj, int index, Py_ssize_t items, int itemsize,
                         const char *formats) {
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
static void seed_slot_rng(const GbBatch *self, Rng *rng, int slot, uint32_t episode,
                          uint32_t stream) {
    uint32_t spawn[3] = {(uint32_t)slot, episode, stream};
    rng_seed_sequence(rng, self->seed_words, self->n_seed_words, spawn, 3);
}

static void start_episode(GbBatch *self, int index) {
    const GbGame *g = self->game;
    GbSlot *slot = slot_at(self, index);
    int n = self->num_players;
    Rng game_rng;
    seed_slot_rng(self, &game_rng, index, slot->episode, SPAWN_GAME);
    g->new_game(slot_state(self, index), self->config, n, &game_rng);
    for (int s = 0; s < n; s++) {
        seed_slot_rng(self, &slot->seat_rng[s], index, slot->episode, 1u + (uint32_t)s);
        if (g->memory_size) g->reset_memory(slot_memory(self, index, s));
    }
    if (self->learner_mode >= 0) {
        slot->learner = (int8_t)self->learner_mode;
    } else {
        Rng seat_rng;
        seed_slot_rng(self, &seat_rng, index, slot->episode, SPAWN_LEARNER);
        slot->learner = (int8_t)uniform_below(&seat_rng, (uint64_t)n);
    }
    const int8_t *queued = BUF(self, B_NEXT_OPPONENTS, int8_t) + (size_t)index * (n - 1);
    slot->controllers[slot->learner] = GB_CONTROL_LEARNER;
    for (int k = 0; k < n - 1; k++) slot->controllers[(slot->learner + 1 + k) % n] = queued[k];
    BUF(self, B_LEARNER, int8_t)[index] = slot->learner;
    BUF(self, B_STEPS, int32_t)[index] = 0;
}

/* A slot's game's legal actions, an action applied, a seat's observation: through the game's
 * *_shared hooks, reading the batch's one config, when it has them (gbatch.h). */
static int legal_in_slot(const GbBatch *self, const void *state, int16_t *out) {
    const GbGame *g = self->game;
    return g->legal_actions_shared ? g->legal_actions_shared(state, self->config, out)
                                   : g->legal_actions(state, out);
}
static int apply_in_slot(const GbBatch *self, void *state, int action) {
    const GbGame *g = self->game;
    return g->apply_shared ? g->apply_shared(state, self->config, action)
                           : g->apply(state, action);
}
static void observe_slot(const GbBatch *self, const void *state, int seat, float *out) {
    const GbGame *g = self->game;
    if (g->observe_shared) g->observe_shared(state, self->config, seat, out);
    else g->observe(state, seat, out);
}

static int is_python_seat(int controller) {
    return controller == GB_CONTROL_LEARNER || controller >= GB_CONTROL_EXTERNAL;
}

static void end_of_episode(GbBatch *self, int index, int truncated) {
    GbSlot *slot = slot_at(self, index);
    const void *state = slot_state(self, index);
    int n = self->num_players;
    float *rewards = BUF(self, B_REWARDS, float) + (size_t)index * n;
    void *scores = BUF(self, B_SCORES, unsigned char) +
                   (size_t)index * n * (size_t)self->game->scores_itemsize;
    uint8_t *winners = BUF(self, B_WINNERS, uint8_t) + index;
    self->game->finish(state, n, truncated, self->setting, rewards, scores, winners);
    if (truncated) {
        BUF(self, B_TRUNCATED, uint8_t)[index] = 1;
        *winners = 0;
    } else {
        BUF(self, B_TERMINATED, uint8_t)[index] = 1;
    }
    observe_slot(self, state, slot->learner,
                 BUF(self, B_FINAL_OBS, float) + (size_t)index * self->obs_size);
}

/* An episode the core could not go on with (see GbGame.apply) ends truncated; 1 when the slot
 * starts its next one, 0 when it waits for reset. */
static int cut_episode(GbBatch *self, int index) {
    end_of_episode(self, index, 1);
    if (!self->autoreset) {
        if (self->game->halt) self->game->halt(slot_state(self, index));
        return 0;
    }
    slot_at(self, index)->episode++;
    start_episode(self, index);
    return 1;
}

static int turns_used_up(const GbBatch *self, int index) {
    if (self->max_turns <= 0) return 0;
    if (self->game->turn) return self->game->turn(slot_state(self, index)) > self->max_turns;
    return BUF(self, B_STEPS, int32_t)[index] >= self->max_turns;
}

/* Play bot turns until a Python seat acts or the episode ends; then handle the end. */
static void advance(GbBatch *self, int index) {
    const GbGame *g = self->game;
    GbSlot *slot = slot_at(self, index);
    for (;;) {
        void *state = slot_state(self, index);
        int over = g->is_over(state);
        int truncated = !over && turns_used_up(self, index);
        if (over || truncated) {
            end_of_episode(self, index, truncated);
            if (!self->autoreset) return;
            slot->episode++;
            start_episode(self, index);
            continue;
        }
        int seat = g->actor(state);
        if (is_python_seat(slot->controllers[seat])) return;
        void *memory = g->memory_size ? slot_memory(self, index, seat) : NULL;
        int action = g->bot_action(state, slot->controllers[seat], self->config, self->setting,
                                   &slot->seat_rng[seat], memory);
        if (apply_in_slot(self, state, action) != 0) {
            if (!cut_episode(self, index)) return;
            continue;
        }
        BUF(self, B_STEPS, int32_t)[index]++;
    }
}

static void write_outputs(GbBatch *self, int index) {
    const GbGame *g = self->game;
    GbSlot *slot = slot_at(self, index);
    const void *state = slot_state(self, index);
    uint64_t *bits = slot_legal(self, index);
    uint8_t *mask = BUF(self, B_MASKS, uint8_t) + (size_t)index * g->num_actions;
    float *obs = BUF(self, B_OBS, float) + (size_t)index * self->obs_size;
    memset(mask, 0, (size_t)g->num_actions);
    memset(bits, 0, sizeof(uint64_t) * (size_t)self->mask_words);
    if (g->is_over(state) || turns_used_up(self, index)) {
        BUF(self, B_ACTING, int8_t)[index] = -1; /* only without auto-reset */
        BUF(self, B_CONTROLLER, int8_t)[index] = -1;
        return;
    }
    int16_t legal[GB_MAX_ACTIONS];
    int n_legal = legal_in_slot(self, state, legal);
    for (int k = 0; k < n_legal; k++) {
        mask[legal[k]] = 1;
        bits[legal[k] >> 6] |= 1ull << (legal[k] & 63);
    }
    int actor = g->actor(state);
    BUF(self, B_ACTING, int8_t)[index] = (int8_t)actor;
    BUF(self, B_CONTROLLER, int8_t)[index] = slot->controllers[actor];
    observe_slot(self, state, actor, obs);
}

static void clear_step_outputs(GbBatch *self, int index) {
    int n = self->num_players;
    memset(BUF(self, B_REWARDS, float) + (size_t)index * n, 0, sizeof(float) * n);
    BUF(self, B_TERMINATED, uint8_t)[index] = 0;
    BUF(self, B_TRUNCATED, uint8_t)[index] = 0;
}

/* -- Python methods -------------------------------------------------------------------------- */
static void batch_lock(GbBatch *self) { PyThread_acquire_lock(self->lock, WAIT_LOCK); }
static void batch_unlock(GbBatch *self) { PyThread_release_lock(self->lock); }

/* The first queued opponent code that is neither a bot (1-3) nor an external policy, or -1. */
static Py_ssize_t bad_queued_opponent(const GbBatch *self) {
    const int8_t *queued = BUF(self, B_NEXT_OPPONENTS, int8_t);
    Py_ssize_t count = (Py_ssize_t)self->num_games * (self->num_players - 1);
    for (Py_ssize_t i = 0; i < count; i++)
        if (!(queued[i] >= GB_BOT_FIRST && queued[i] <= GB_BOT_LAST) &&
            !(queued[i] >= GB_CONTROL_EXTERNAL &&
              queued[i] < GB_CONTROL_EXTERNAL + self->external_policies))
            return i;
    return -1;
}

static PyObject *raise_bad_opponent(const GbBatch *self, Py_ssize_t at, int code) {
    int others = self->num_players - 1;
    PyErr_Format(PyExc_ValueError,
                 "next_opponents[%zd, %zd] (game %zd) holds controller %d, which is not a bot "
                 "(1-3) or an external policy (16-%d); no game was changed",
                 at / others, at % others, at / others, code,
                 GB_CONTROL_EXTERNAL + self->external_policies - 1);
    return NULL;
}

static int not_ready(const GbBatch *self) {
    if (self->lock) return 0;
    PyErr_Format(PyExc_RuntimeError, "this native %s was not initialised",
                 type_short_name(Py_TYPE(self)));
    return 1;
}

static PyObject *gb_reset(GbBatch *self, PyObject *unused) {
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
        GbSlot *slot = slot_at(self, i);
        slot->episode = first ? 0 : slot->episode + 1;
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

static int has_bit(const uint64_t *bits, int action) {
    return (bits[action >> 6] >> (action & 63)) & 1u;
}

static PyObject *gb_step(GbBatch *self, PyObject *actions_obj) {
    if (not_ready(self)) return NULL;
    const GbGame *g = self->game;
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
    int16_t legal[GB_MAX_ACTIONS];
    Py_BEGIN_ALLOW_THREADS
    batch_lock(self);
    /* every action (and every queued opponent) is checked before any game changes; -1 is the
     * only "leave this game alone" */
    for (int i = 0; i < self->num_games && bad < 0; i++) {
        int action = actions[i];
        if (action == -1) continue;
        const uint64_t *bits = slot_legal(self, i);
        if (action < -1 || action >= g->num_actions || !has_bit(bits, action) ||
            !is_python_seat(slot_at(self, i)->controllers[g->actor(slot_state(self, i))])) {
            bad = i;
            bad_action = action;
            n_legal = 0;
            for (int a = 0; a < g->num_actions; a++)
                if (has_bit(bits, a)) legal[n_legal++] = (int16_t)a;
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
            if (apply_in_slot(self, slot_state(self, i), actions[i]) != 0) {
                if (!cut_episode(self, i)) {
                    write_outputs(self, i);
                    continue;
                }
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

/* observe(seats, out): the observation of seats[i] in game i, into out[i] (seat -1: zeros) */
static PyObject *gb_observe(GbBatch *self, PyObject *args) {
    if (not_ready(self)) return NULL;
    PyObject *seats_obj, *out_obj;
    if (!PyArg_ParseTuple(args, "OO", &seats_obj, &out_obj)) return NULL;
    Py_buffer seats, out;
    if (PyObject_GetBuffer(seats_obj, &seats, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return NULL;
    if (seats.itemsize != 1 || seats.len != self->num_games) {
        PyBuffer_Release(&seats);
        PyErr_Format(PyExc_ValueError, "seats must be int8 with one entry per game (%d)",
                     self->num_games);
        return NULL;
    }
    if (PyObject_GetBuffer(out_obj, &out, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) <
        0) {
        PyBuffer_Release(&seats);
        return NULL;
    }
    if (out.itemsize != 4 || out.len != (Py_ssize_t)self->num_games * self->obs_size * 4) {
        PyBuffer_Release(&seats);
        PyBuffer_Release(&out);
        PyErr_Format(PyExc_ValueError, "out must be float32 of shape (%d, %d)", self->num_games,
                     self->obs_size);
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
            memset(row, 0, sizeof(float) * (size_t)self->obs_size);
        else
            observe_slot(self, slot_state(self, i), seat[i], row);
    }
    batch_unlock(self);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&seats);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

static int game_index(const GbBatch *self, PyObject *arg, long *index) {
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
static PyObject *gb_export_game(GbBatch *self, PyObject *arg) {
    if (not_ready(self)) return NULL;
    long index;
    if (game_index(self, arg, &index) < 0) return NULL;
    void *copy = malloc(self->game->state_size);
    if (!copy) return PyErr_NoMemory();
    Py_BEGIN_ALLOW_THREADS /* copied under the lock: another thread may be stepping this batch */
    batch_lock(self);
    memcpy(copy, slot_state(self, (int)index), self->game->state_size);
    batch_unlock(self);
    Py_END_ALLOW_THREADS
    PyObject *out = self->game->export_dict(copy);
    free(copy);
    return out;
}

static PyObject *gb_controllers(GbBatch *self, PyObject *arg) {
    if (not_ready(self)) return NULL;
    long index;
    if (game_index(self, arg, &index) < 0) return NULL;
    int8_t controllers[GB_MAX_PLAYERS];
    Py_BEGIN_ALLOW_THREADS
    batch_lock(self);
    memcpy(controllers, slot_at(self, (int)index)->controllers, sizeof controllers);
    batch_unlock(self);
    Py_END_ALLOW_THREADS
    PyObject *out = PyTuple_New(self->num_players);
    if (!out) return NULL;
    for (int s = 0; s < self->num_players; s++)
        PyTuple_SET_ITEM(out, s, PyLong_FromLong(controllers[s]));
    return out;
}

/* The game a registered batch type steps. */
static const GbGame *game_of(PyTypeObject *type) {
    for (int i = 0; i < gb_n_types; i++)
        if (&gb_types[i] == type) return gb_games[i];
    return NULL;
}

static size_t align16(size_t n) { return (n + 15) & ~(size_t)15; }

/* A slot's bytes: its head, its legal-action bits, its seats' bot memories, its game. */
static void layout(GbBatch *self, const GbGame *g, int num_players) {
    self->mask_words = (g->num_actions + 63) / 64;
    self->legal_at = align16(sizeof(GbSlot));
    self->memory_at = align16(self->legal_at + sizeof(uint64_t) * (size_t)self->mask_words);
    self->state_at = align16(self->memory_at + g->memory_size * (size_t)num_players);
    self->stride = align16(self->state_at + g->state_size);
}

static PyObject *gb_bytes_per_game(GbBatch *self, void *closure) {
    (void)closure;
    if (!self->lock) {
        const GbGame *g = game_of(Py_TYPE(self));
        GbBatch probe;
        layout(&probe, g, g->max_players);
        return PyLong_FromSize_t(probe.stride);
    }
    return PyLong_FromSize_t(self->stride);
}

static PyObject *gb_get_obs_size(GbBatch *self, void *closure) {
    (void)closure;
    if (not_ready(self)) return NULL;
    return PyLong_FromLong(self->obs_size);
}

static PyMethodDef gb_methods[] = {
    {"reset", (PyCFunction)gb_reset, METH_NOARGS, "Start every slot's next episode."},
    {"step", (PyCFunction)gb_step, METH_O,
     "Apply one action per waiting game, then play the bots."},
    {"observe", (PyCFunction)gb_observe, METH_VARARGS, "Observations of given seats."},
    {"export_game", (PyCFunction)gb_export_game, METH_O, "A slot's game as its game exports it."},
    {"controllers", (PyCFunction)gb_controllers, METH_O, "A slot's controllers by seat."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef gb_getset[] = {
    {"bytes_per_game", (getter)gb_bytes_per_game, NULL, "Bytes of core state per game.", NULL},
    {"obs_size", (getter)gb_get_obs_size, NULL, "The observation's length.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static int parse_seed_words(GbBatch *self, PyObject *seed_obj) {
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
    return 0;
}

static int parse_settings(GbBatch *self, const GbGame *g, PyObject *settings, int num_players) {
    char format[6] = {'i', 'i', 'i', 'i', 'i', '\0'};
    format[g->setting_first ? 0 : 4] = g->setting_format;
    int as_int = 0;
    double as_double = 0.0;
    void *own = g->setting_format == 'd' ? (void *)&as_double : (void *)&as_int;
    int ok = PyTuple_Check(settings);
    if (ok && g->setting_first)
        ok = PyArg_ParseTuple(settings, format, own, &self->max_turns, &self->autoreset,
                              &self->learner_mode, &self->external_policies);
    else if (ok)
        ok = PyArg_ParseTuple(settings, format, &self->max_turns, &self->autoreset,
                              &self->learner_mode, &self->external_policies, own);
    if (!ok) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_TypeError,
                         g->setting_first ? "settings must be a tuple (%s, max_turns, autoreset, "
                                            "learner seat, external policies)"
                                          : "settings must be a tuple (max_turns, autoreset, "
                                            "learner seat, external policies, %s)",
                         g->setting_name);
        return -1;
    }
    self->setting = g->setting_format == 'd' ? as_double : (double)as_int;
    if (self->max_turns < 0 || self->learner_mode < -1 || self->learner_mode >= num_players ||
        self->external_policies < 0 ||
        self->external_policies > INT8_MAX - GB_CONTROL_EXTERNAL + 1 ||
        !g->setting_ok(self->setting)) {
        PyErr_Format(PyExc_ValueError,
                     g->setting_first ? "settings: %s, max_turns >= 0, learner seat -1 or a "
                                        "seat, external policies 0..112"
                                      : "settings: max_turns >= 0, learner seat -1 or a seat, "
                                        "external policies 0..112, %s",
                     g->setting_text);
        return -1;
    }
    return 0;
}

static int gb_init(GbBatch *self, PyObject *args, PyObject *kwargs) {
    const GbGame *g = game_of(Py_TYPE(self));
    const char *standard[8] = {"num_games",    "num_players",  "seed_words", g->arg_names[0],
                               g->arg_names[1], g->arg_names[2], "buffers",    "settings"};
    const char *const *order = g->keywords ? g->keywords : standard;
    PyObject *seed_obj, *a, *b, *c, *buffers, *settings;
    int num_games, num_players;
    /* each keyword's target and its format ('i' for the two sizes, 'O' for the rest) */
    const struct {
        const char *name;
        void *target;
    } targets[8] = {{"num_games", &num_games},   {"num_players", &num_players},
                    {"seed_words", &seed_obj},   {g->arg_names[0], &a},
                    {g->arg_names[1], &b},       {g->arg_names[2], &c},
                    {"buffers", &buffers},       {"settings", &settings}};
    char *keywords[9] = {NULL};
    void *at[8] = {NULL};
    char format[9] = {'\0'};
    for (int k = 0; k < 8; k++) {
        keywords[k] = (char *)order[k];
        for (int t = 0; t < 8; t++)
            if (!strcmp(order[k], targets[t].name)) at[k] = targets[t].target;
        if (!at[k]) {
            PyErr_Format(PyExc_RuntimeError, "gbatch: %s names an unknown keyword '%s'",
                         g->type_name, order[k]);
            return -1;
        }
        format[k] = at[k] == (void *)&num_games || at[k] == (void *)&num_players ? 'i' : 'O';
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, format, keywords, at[0], at[1], at[2], at[3],
                                     at[4], at[5], at[6], at[7]))
        return -1;
    if (self->lock) {
        PyErr_Format(PyExc_RuntimeError, "a native %s is initialised once", g->type_name);
        return -1;
    }
    if (num_games < 1 || num_games > GB_MAX_GAMES) {
        PyErr_Format(PyExc_ValueError, "num_games must be 1..%d, got %d", GB_MAX_GAMES,
                     num_games);
        return -1;
    }
    if (num_players < g->min_players || num_players > g->max_players) {
        PyErr_Format(PyExc_ValueError, "num_players must be %d to %d, got %d", g->min_players,
                     g->max_players, num_players);
        return -1;
    }
    if (parse_seed_words(self, seed_obj) < 0) return -1;
    free(self->config); /* a failed __init__ before may have left one */
    self->config = calloc(1, g->config_size);
    if (!self->config) {
        PyErr_NoMemory();
        return -1;
    }
    if (g->parse_config(a, b, c, num_players, self->config) < 0) return -1;
    if (parse_settings(self, g, settings, num_players) < 0) return -1;
    self->game = g;
    self->num_games = num_games;
    self->num_players = num_players;
    self->obs_size = g->obs_size(self->config, num_players);
    if (self->obs_size <= 0) { /* else empty observation buffers would pass the checks below */
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "the tables do not fit the observation's layout");
        return -1;
    }
    if (!PyTuple_Check(buffers) || PyTuple_GET_SIZE(buffers) != B_COUNT) {
        PyErr_Format(PyExc_TypeError, "buffers must be a tuple of %d arrays", B_COUNT);
        return -1;
    }
    for (int i = 0; i < self->n_views; i++) PyBuffer_Release(&self->views[i]);
    self->n_views = 0;
    Py_ssize_t N = num_games, P = num_players, O = self->obs_size;
    const struct {
        Py_ssize_t items;
        int size;
        const char *formats;
    } spec[B_COUNT] = {
        {N * O, 4, "f"},
        {N * g->num_actions, 1, "B?b"},
        {N * P, 4, "f"},
        {N, 1, "B?b"},
        {N, 1, "B?b"},
        {N, 1, "b"},
        {N, 1, "b"},
        {N * O, 4, "f"},
        {N, 1, "b"},
        {N * (P - 1), 1, "b"},
        {N * P, g->scores_itemsize, g->scores_formats},
        {N, 1, "B"},
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
    layout(self, g, num_players);
    self->slots = calloc((size_t)num_games, self->stride);
    self->lock = PyThread_allocate_lock();
    if (!self->slots || !self->lock) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

int gb_register(PyObject *module, const GbGame *game) {
    if (gb_n_types >= GB_MAX_TYPES) {
        PyErr_SetString(PyExc_RuntimeError, "gbatch: more games than GB_MAX_TYPES");
        return -1;
    }
    int keywords_ok = 1;
    for (int k = 0; game->keywords && k < 8; k++) keywords_ok &= game->keywords[k] != NULL;
    if (game->num_actions > GB_MAX_ACTIONS || game->max_players > GB_MAX_PLAYERS || !keywords_ok) {
        PyErr_Format(PyExc_RuntimeError,
                     "gbatch: %s exceeds GB_MAX_ACTIONS or GB_MAX_PLAYERS, or names fewer than "
                     "eight keywords",
                     game->type_name);
        return -1;
    }
    PyTypeObject *type = &gb_types[gb_n_types];
    PyTypeObject blank = {PyVarObject_HEAD_INIT(NULL, 0)};
    *type = blank;
    char *name = PyMem_Malloc(strlen(game->type_name) + 32); /* lives as long as the type */
    if (!name) {
        PyErr_NoMemory();
        return -1;
    }
    strcpy(name, "airships_env.native._core.");
    strcat(name, game->type_name);
    type->tp_name = name;
    type->tp_basicsize = sizeof(GbBatch);
    type->tp_dealloc = (destructor)gb_dealloc;
    type->tp_flags = Py_TPFLAGS_DEFAULT;
    type->tp_new = PyType_GenericNew;
    type->tp_init = (initproc)gb_init;
    type->tp_methods = gb_methods;
    type->tp_getset = gb_getset;
    type->tp_doc = game->doc;
    gb_games[gb_n_types++] = game;
    if (PyType_Ready(type) < 0) return -1;
    Py_INCREF(type);
    if (PyModule_AddObject(module, game->type_name, (PyObject *)type) < 0) return -1;
    return PyModule_AddIntConstant(module, game->max_constant, GB_MAX_GAMES);
}

/* -- shared by the games' outcomes and benchmarks --------------------------------------------- */
void gb_rewards(int num_players, const double *totals, unsigned winners, int score_mode,
                double score_scale, float *rewards) {
    int n_winners = 0;
    for (int p = 0; p < num_players; p++) n_winners += (int)(winners >> p & 1u);
    for (int p = 0; p < num_players; p++) {
        if (!score_mode) {
            rewards[p] = n_winners == 0          ? 0.0f
                         : winners >> p & 1u     ? (float)(1.0 / n_winners)
                                                 : -1.0f;
            continue;
        }
        double other_best = 0.0;
        int any = 0;
        for (int q = 0; q < num_players; q++)
            if (q != p && (!any || totals[q] > other_best)) {
                other_best = totals[q];
                any = 1;
            }
        rewards[p] = (float)((totals[p] - other_best) / score_scale);
    }
}

long long gb_bot_games(const GbGame *game, const void *config, int num_players, int bot,
                       double setting, long games, uint32_t seed, long max_steps) {
    void *state = malloc(game->state_size);
    void *memory = game->memory_size ? malloc(game->memory_size * (size_t)num_players) : NULL;
    if (!state || (game->memory_size && !memory)) {
        free(state);
        free(memory);
        PyErr_NoMemory();
        return -1;
    }
    long long decisions = 0;
    Py_BEGIN_ALLOW_THREADS
    for (long g = 0; g < games; g++) {
        Rng deal, seat_rng[GB_MAX_PLAYERS];
        uint32_t spawn[2] = {(uint32_t)g, 0};
        rng_seed_sequence(&deal, &seed, 1, spawn, 2);
        for (int s = 0; s < num_players; s++) {
            spawn[1] = 1u + (uint32_t)s;
            rng_seed_sequence(&seat_rng[s], &seed, 1, spawn, 2);
            if (memory) game->reset_memory((char *)memory + game->memory_size * (size_t)s);
        }
        game->new_game(state, config, num_players, &deal);
        for (long steps = 0; !game->is_over(state) && steps < max_steps; steps++) {
            int seat = game->actor(state);
            void *seat_memory = memory ? (char *)memory + game->memory_size * (size_t)seat : NULL;
            int action = game->bot_action(state, bot, config, setting, &seat_rng[seat],
                                          seat_memory);
            if (game->apply(state, action) != 0) break;
            decisions++;
        }
    }
    Py_END_ALLOW_THREADS
    free(state);
    free(memory);
    return decisions;
}
