/* Australia's batch: N games stepped in one call with the GIL released, the twin of Clockwork
 * City's clockwork_batch.c (airships_env/native/australia.py's AustraliaBatch is its face).
 *
 * Every seat of every game has a controller: 0 a Python seat that learns (the learner), 1 the
 * random bot, 2 greedy, 3 heuristic (played inside the step, australia_bots.c), 16 + k an
 * external Python policy k (evaluated by the caller in one batched forward). A step applies the
 * given action in every game that waits for a Python seat, then plays the bots' turns until a
 * Python seat must act or the game ends; a game that ends writes its rewards, its final
 * observation (for its learner seat), its scores and its winners, and starts its slot's next
 * episode (auto-reset): new deal, new learner seat, the opponents the caller queued for it.
 *
 * Seeds (Clockwork's stream): episode e of slot i deals from PCG64(SeedSequence(seed,
 * spawn_key=(i, e, 0))), the bot in seat s draws from (i, e, 1 + s) and the learner's seat is
 * uniform_below(players) from (i, e, 7): a slot's games depend on neither the number of slots nor
 * the other slots.
 *
 * Rewards (GameAEC's, from the outcome E3: VP + dollars, a tie to the most dollars, still tied a
 * shared win): ``"win"`` gives each of the k winners 1/k and the others -1; ``"score"`` the margin
 * over the best other seat / 50 (the game's score_scale). ``max_turns`` (GameAEC's): the episode
 * is truncated, rewards 0, once that many actions were played.
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
#include "australia_binding.h"

#define CONTROL_LEARNER 0
#define CONTROL_EXTERNAL 16
#define SPAWN_GAME 0
#define SPAWN_LEARNER 7
#define AU_BATCH_MAX_GAMES 100000 /* as Airships' batch: a mistaken size is an error, not swap */
#define MASK_WORDS ((AU_NUM_ACTIONS + 63) / 64)

typedef struct {
    AuGame game;
    Rng seat_rng[AU_MAX_PLAYERS];
    int8_t controllers[AU_MAX_PLAYERS];
    int8_t learner;
    uint32_t episode;
    uint64_t legal[MASK_WORDS]; /* the waiting seat's legal actions, kept privately */
} AuSlot;

enum { B_OBS, B_MASKS, B_REWARDS, B_TERMINATED, B_TRUNCATED, B_ACTING, B_CONTROLLER, B_FINAL_OBS,
       B_LEARNER, B_NEXT_OPPONENTS, B_SCORES, B_WINNERS, B_STEPS, B_COUNT };

static const char *BUFFER_NAMES[B_COUNT] = {"obs", "masks", "rewards", "terminated", "truncated",
                                            "acting", "controller", "final_obs", "learner",
                                            "next_opponents", "scores", "winners",
                                            "episode_steps"};

typedef struct {
    PyObject_HEAD
    AuConfig config;
    int num_games, num_players;
    uint32_t seed_words[56];
    int n_seed_words;
    int max_turns, autoreset, learner_mode, external_policies;
    int reward_score; /* 0 "win", 1 "score" */
    int started;
    AuSlot *slots;
    Py_buffer views[B_COUNT];
    int n_views;
    PyThread_type_lock lock;
} AuBatchObject;

#define BUF(self, index, type) ((type *)(self)->views[index].buf)

static void au_batch_dealloc(AuBatchObject *self) {
    for (int i = 0; i < self->n_views; i++) PyBuffer_Release(&self->views[i]);
    if (self->lock) PyThread_free_lock(self->lock);
    free(self->slots);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int expect_buffer(AuBatchObject *self, PyObject *obj, int index, Py_ssize_t items,
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
static void seed_slot_rng(const AuBatchObject *self, Rng *rng, int slot, uint32_t episode,
                          uint32_t stream) {
    uint32_t spawn[3] = {(uint32_t)slot, episode, stream};
    rng_seed_sequence(rng, self->seed_words, self->n_seed_words, spawn, 3);
}

static void start_episode(AuBatchObject *self, int index) {
    AuSlot *slot = &self->slots[index];
    int n = self->num_players;
    Rng game_rng;
    seed_slot_rng(self, &game_rng, index, slot->episode, SPAWN_GAME);
    au_new_game(&slot->game, &self->config, n, &game_rng);
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

#define SCORE_SCALE 50.0 /* AustraliaGame.score_scale: reward="score" is the margin / 50 */

static void end_of_episode(AuBatchObject *self, int index, int truncated) {
    AuSlot *slot = &self->slots[index];
    const AuGame *game = &slot->game;
    int n = self->num_players;
    float *rewards = BUF(self, B_REWARDS, float) + (size_t)index * n;
    int32_t *scores = BUF(self, B_SCORES, int32_t) + (size_t)index * n;
    int totals[AU_MAX_PLAYERS], n_winners;
    for (int p = 0; p < n; p++) scores[p] = totals[p] = game->vp[p] + game->dollars[p]; /* E3 */
    unsigned winners = au_winners(game, &n_winners);
    if (truncated) {
        BUF(self, B_TRUNCATED, uint8_t)[index] = 1;
        BUF(self, B_WINNERS, uint8_t)[index] = 0;
    } else {
        BUF(self, B_TERMINATED, uint8_t)[index] = 1;
        BUF(self, B_WINNERS, uint8_t)[index] = (uint8_t)winners;
        for (int p = 0; p < n; p++) {
            if (!self->reward_score) {
                rewards[p] = winners >> p & 1u ? (float)(1.0 / n_winners) : -1.0f;
                continue;
            }
            int other_best = 0, any = 0;
            for (int q = 0; q < n; q++)
                if (q != p && (!any || totals[q] > other_best)) {
                    other_best = totals[q];
                    any = 1;
                }
            rewards[p] = (float)(((double)totals[p] - (double)other_best) / SCORE_SCALE);
        }
    }
    au_observe(game, slot->learner, BUF(self, B_FINAL_OBS, float) + (size_t)index * AU_OBS_SIZE);
}

/* Play bot turns until a Python seat acts or the episode ends; then handle the end. */
static void advance(AuBatchObject *self, int index) {
    AuSlot *slot = &self->slots[index];
    for (;;) {
        AuGame *game = &slot->game;
        int over = game->phase == AU_OVER;
        int truncated = !over && self->max_turns > 0 &&
                        BUF(self, B_STEPS, int32_t)[index] >= self->max_turns;
        if (over || truncated) {
            end_of_episode(self, index, truncated);
            if (!self->autoreset) return;
            slot->episode++;
            start_episode(self, index);
            continue;
        }
        int seat = game->current;
        if (is_python_seat(slot->controllers[seat])) return;
        int action = au_bot_action(game, slot->controllers[seat], &slot->seat_rng[seat]);
        au_apply_legal(game, action, NULL);
        BUF(self, B_STEPS, int32_t)[index]++;
    }
}

static void write_outputs(AuBatchObject *self, int index) {
    AuSlot *slot = &self->slots[index];
    const AuGame *game = &slot->game;
    uint8_t *mask = BUF(self, B_MASKS, uint8_t) + (size_t)index * AU_NUM_ACTIONS;
    float *obs = BUF(self, B_OBS, float) + (size_t)index * AU_OBS_SIZE;
    memset(mask, 0, AU_NUM_ACTIONS);
    memset(slot->legal, 0, sizeof slot->legal);
    if (game->phase == AU_OVER || (self->max_turns > 0 &&
                                   BUF(self, B_STEPS, int32_t)[index] >= self->max_turns)) {
        BUF(self, B_ACTING, int8_t)[index] = -1; /* only without auto-reset */
        BUF(self, B_CONTROLLER, int8_t)[index] = -1;
        return;
    }
    int16_t legal[AU_NUM_ACTIONS];
    int n_legal = au_legal_actions(game, legal);
    for (int k = 0; k < n_legal; k++) {
        mask[legal[k]] = 1;
        slot->legal[legal[k] >> 6] |= 1ull << (legal[k] & 63);
    }
    BUF(self, B_ACTING, int8_t)[index] = game->current;
    BUF(self, B_CONTROLLER, int8_t)[index] = slot->controllers[game->current];
    au_observe(game, game->current, obs);
}

static void clear_step_outputs(AuBatchObject *self, int index) {
    int n = self->num_players;
    memset(BUF(self, B_REWARDS, float) + (size_t)index * n, 0, sizeof(float) * n);
    BUF(self, B_TERMINATED, uint8_t)[index] = 0;
    BUF(self, B_TRUNCATED, uint8_t)[index] = 0;
}

/* -- Python methods -------------------------------------------------------------------------- */
static void batch_lock(AuBatchObject *self) { PyThread_acquire_lock(self->lock, WAIT_LOCK); }
static void batch_unlock(AuBatchObject *self) { PyThread_release_lock(self->lock); }

/* The first queued opponent code that is neither a bot (1-3) nor an external policy, or -1. */
static Py_ssize_t bad_queued_opponent(const AuBatchObject *self) {
    const int8_t *queued = BUF(self, B_NEXT_OPPONENTS, int8_t);
    Py_ssize_t count = (Py_ssize_t)self->num_games * (self->num_players - 1);
    for (Py_ssize_t i = 0; i < count; i++)
        if (!(queued[i] >= AU_BOT_RANDOM && queued[i] <= AU_BOT_HEURISTIC) &&
            !(queued[i] >= CONTROL_EXTERNAL &&
              queued[i] < CONTROL_EXTERNAL + self->external_policies))
            return i;
    return -1;
}

static PyObject *raise_bad_opponent(const AuBatchObject *self, Py_ssize_t at, int code) {
    int others = self->num_players - 1;
    PyErr_Format(PyExc_ValueError,
                 "next_opponents[%zd, %zd] (game %zd) holds controller %d, which is not a bot "
                 "(1-3) or an external policy (16-%d); no game was changed",
                 at / others, at % others, at / others, code,
                 CONTROL_EXTERNAL + self->external_policies - 1);
    return NULL;
}

static int not_ready(const AuBatchObject *self) {
    if (self->lock) return 0;
    PyErr_SetString(PyExc_RuntimeError, "this native AustraliaBatch was not initialised");
    return 1;
}

static PyObject *AuBatch_reset(AuBatchObject *self, PyObject *unused) {
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

static PyObject *AuBatch_step(AuBatchObject *self, PyObject *actions_obj) {
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
    int16_t legal[AU_NUM_ACTIONS];
    Py_BEGIN_ALLOW_THREADS
    batch_lock(self);
    /* every action (and every queued opponent) is checked before any game changes; -1 is the
     * only "leave this game alone" */
    for (int i = 0; i < self->num_games && bad < 0; i++) {
        int action = actions[i];
        if (action == -1) continue;
        AuSlot *slot = &self->slots[i];
        AuGame *game = &slot->game;
        if (action < -1 || action >= AU_NUM_ACTIONS ||
            !(slot->legal[action >> 6] >> (action & 63) & 1u) ||
            !is_python_seat(slot->controllers[game->current])) {
            bad = i;
            bad_action = action;
            n_legal = 0;
            for (int a = 0; a < AU_NUM_ACTIONS; a++)
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
            au_apply_legal(&self->slots[i].game, actions[i], NULL);
            BUF(self, B_STEPS, int32_t)[i]++;
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

static int game_index(const AuBatchObject *self, PyObject *arg, long *index) {
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
static PyObject *AuBatch_export_game(AuBatchObject *self, PyObject *arg) {
    if (not_ready(self)) return NULL;
    long index;
    if (game_index(self, arg, &index) < 0) return NULL;
    AuGame copy; /* taken under the lock: another thread may be stepping this batch */
    Py_BEGIN_ALLOW_THREADS
    batch_lock(self);
    copy = self->slots[index].game;
    batch_unlock(self);
    Py_END_ALLOW_THREADS
    return au_export_dict(&copy);
}

static PyObject *AuBatch_controllers(AuBatchObject *self, PyObject *arg) {
    if (not_ready(self)) return NULL;
    long index;
    if (game_index(self, arg, &index) < 0) return NULL;
    int8_t controllers[AU_MAX_PLAYERS];
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

static PyObject *AuBatch_bytes_per_game(AuBatchObject *self, void *closure) {
    (void)self;
    (void)closure;
    return PyLong_FromSize_t(sizeof(AuSlot));
}

static PyMethodDef AuBatch_methods[] = {
    {"reset", (PyCFunction)AuBatch_reset, METH_NOARGS, "Start every slot's next episode."},
    {"step", (PyCFunction)AuBatch_step, METH_O,
     "Apply one action per waiting game, then play the bots."},
    {"export_game", (PyCFunction)AuBatch_export_game, METH_O, "A slot's game as a state dict."},
    {"controllers", (PyCFunction)AuBatch_controllers, METH_O, "A slot's controllers by seat."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef AuBatch_getset[] = {
    {"bytes_per_game", (getter)AuBatch_bytes_per_game, NULL, "Bytes of core state per game.",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* AustraliaBatch(num_games, num_players, seed_words, options, map, components, buffers, settings)
 * with settings (max_turns (0: none), autoreset, learner seat (-1: random), external policies,
 * reward (0 "win", 1 "score")). */
static int AuBatch_init(AuBatchObject *self, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"num_games", "num_players", "seed_words", "options", "map",
                               "components", "buffers",    "settings",   NULL};
    PyObject *seed_obj, *options, *map, *components, *buffers, *settings, *stack_cards_obj;
    int num_games, num_players;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iiOOOOOO", keywords, &num_games, &num_players,
                                     &seed_obj, &options, &map, &components, &buffers, &settings))
        return -1;
    if (self->lock) {
        PyErr_SetString(PyExc_RuntimeError, "a native AustraliaBatch is initialised once");
        return -1;
    }
    if (num_games < 1 || num_games > AU_BATCH_MAX_GAMES) {
        PyErr_Format(PyExc_ValueError, "num_games must be 1..%d, got %d", AU_BATCH_MAX_GAMES,
                     num_games);
        return -1;
    }
    if (num_players < AU_MIN_PLAYERS || num_players > AU_MAX_PLAYERS) {
        PyErr_Format(PyExc_ValueError, "num_players must be 2 to 5, got %d", num_players);
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
    if (au_parse_config(options, map, components, num_players, &self->config, &stack_cards_obj) <
            0 ||
        au_check_stack_cards(&self->config, stack_cards_obj) < 0)
        return -1;
    if (!PyTuple_Check(settings) ||
        !PyArg_ParseTuple(settings, "iiiii", &self->max_turns, &self->autoreset,
                          &self->learner_mode, &self->external_policies, &self->reward_score)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "settings must be a tuple (max_turns, autoreset, "
                                             "learner seat, external policies, reward)");
        return -1;
    }
    if (self->max_turns < 0 || self->learner_mode < -1 || self->learner_mode >= num_players ||
        self->external_policies < 0 || self->external_policies > INT8_MAX - CONTROL_EXTERNAL + 1 ||
        self->reward_score < 0 || self->reward_score > 1) {
        PyErr_SetString(PyExc_ValueError,
                        "settings: max_turns >= 0, learner seat -1 or a seat, external policies "
                        "0..112, reward 0 (win) or 1 (score)");
        return -1;
    }
    self->num_games = num_games;
    self->num_players = num_players;
    if (!PyTuple_Check(buffers) || PyTuple_GET_SIZE(buffers) != B_COUNT) {
        PyErr_Format(PyExc_TypeError, "buffers must be a tuple of %d arrays", B_COUNT);
        return -1;
    }
    Py_ssize_t N = num_games, P = num_players, O = AU_OBS_SIZE;
    const struct {
        Py_ssize_t items;
        int size;
        const char *formats;
    } spec[B_COUNT] = {
        {N * O, 4, "f"}, {N * AU_NUM_ACTIONS, 1, "B?b"}, {N * P, 4, "f"}, {N, 1, "B?b"},
        {N, 1, "B?b"},   {N, 1, "b"},                    {N, 1, "b"},     {N * O, 4, "f"},
        {N, 1, "b"},     {N * (P - 1), 1, "b"},          {N * P, 4, "il"}, {N, 1, "B"},
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
    self->slots = calloc((size_t)num_games, sizeof(AuSlot));
    self->lock = PyThread_allocate_lock();
    if (!self->slots || !self->lock) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static PyTypeObject AuBatchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "airships_env.native._core.AustraliaBatch",
    .tp_basicsize = sizeof(AuBatchObject),
    .tp_dealloc = (destructor)au_batch_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)AuBatch_init,
    .tp_methods = AuBatch_methods,
    .tp_getset = AuBatch_getset,
    .tp_doc = "N Australia games stepped together (see airships_env/native/australia.py).",
};

/* au_bot_decisions(kind, num_players, games, seed, options, map, components) -> decisions: whole
 * games between copies of one native bot in the core alone (the bots' benchmark). Game g deals
 * from SeedSequence(seed, spawn_key=(g, 0)) and seat s's bot draws from (g, 1 + s), the GIL
 * released; a game stops after 1,000,000 actions. */
static PyObject *py_au_bot_decisions(PyObject *module, PyObject *args) {
    (void)module;
    int kind, num_players, games;
    unsigned int seed;
    PyObject *options, *map, *components, *stack_cards_obj;
    if (!PyArg_ParseTuple(args, "iiiIOOO", &kind, &num_players, &games, &seed, &options, &map,
                          &components))
        return NULL;
    if (kind < AU_BOT_RANDOM || kind > AU_BOT_HEURISTIC || num_players < AU_MIN_PLAYERS ||
        num_players > AU_MAX_PLAYERS || games < 0) {
        PyErr_SetString(PyExc_ValueError, "bot kind 1..3, num_players 2 to 5 and games >= 0");
        return NULL;
    }
    AuConfig config;
    if (au_parse_config(options, map, components, num_players, &config, &stack_cards_obj) < 0 ||
        au_check_stack_cards(&config, stack_cards_obj) < 0)
        return NULL;
    long long decisions = 0;
    Py_BEGIN_ALLOW_THREADS
    AuGame game;
    for (int g = 0; g < games; g++) {
        Rng deal, seat_rng[AU_MAX_PLAYERS];
        uint32_t spawn[2] = {(uint32_t)g, 0};
        rng_seed_sequence(&deal, &seed, 1, spawn, 2);
        for (int s = 0; s < num_players; s++) {
            spawn[1] = 1u + (uint32_t)s;
            rng_seed_sequence(&seat_rng[s], &seed, 1, spawn, 2);
        }
        au_new_game(&game, &config, num_players, &deal);
        for (long steps = 0; game.phase != AU_OVER && steps < 1000000; steps++) {
            au_apply_legal(&game, au_bot_action(&game, kind, &seat_rng[game.current]), NULL);
            decisions++;
        }
    }
    Py_END_ALLOW_THREADS
    return PyLong_FromLongLong(decisions);
}

static PyMethodDef au_batch_functions[] = {
    {"au_bot_decisions", py_au_bot_decisions, METH_VARARGS,
     "au_bot_decisions(kind, num_players, games, seed, options, map, components) -> decisions"},
    {NULL, NULL, 0, NULL},
};

int australia_batch_register(PyObject *module) {
    if (PyType_Ready(&AuBatchType) < 0) return -1;
    Py_INCREF(&AuBatchType);
    if (PyModule_AddObject(module, "AustraliaBatch", (PyObject *)&AuBatchType) < 0) return -1;
    if (PyModule_AddIntConstant(module, "AU_BATCH_MAX_GAMES", AU_BATCH_MAX_GAMES) < 0) return -1;
    return PyModule_AddFunctions(module, au_batch_functions);
}
