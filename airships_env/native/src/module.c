/* The CPython binding of the native core: ``airships_env.native._core``.
 *
 * Plain C API and the buffer protocol: no build dependency beyond a C compiler and Python's
 * headers. Every argument from Python is checked here (types, ranges, buffer shapes and dtypes)
 * and a bad one raises a Python exception; the core itself is never handed anything unchecked.
 *
 * Objects:
 *   Core(card_words, options)       a card set and rules options (shared, immutable)
 *   Game(core, ...)                 one game: apply, legal actions, observe, odds, bots, views
 *   Batch(core, ...)                N games stepped in one call with the GIL released (batch.c over gbatch.c)
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "binding.h"
#include "gsearch.h"

/* ------------------------------------------------------------------------------------------ */
/* Core                                                                                        */
/* ------------------------------------------------------------------------------------------ */
static PyTypeObject CoreType;

static int get_int32_buffer(PyObject *obj, Py_buffer *view, const char *what) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    const char *format = view->format ? view->format : "B";
    if (view->itemsize != 4 || (strcmp(format, "i") != 0 && strcmp(format, "<i") != 0 &&
                                strcmp(format, "=i") != 0 && strcmp(format, "l") != 0)) {
        PyErr_Format(PyExc_TypeError, "%s must be a buffer of int32, got format '%s'", what, format);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static int Core_init(CoreObject *self, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"card_words", "options", NULL};
    PyObject *words_obj, *options_obj;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO", keywords, &words_obj, &options_obj)) return -1;
    Py_buffer view;
    if (get_int32_buffer(words_obj, &view, "card_words") < 0) return -1;
    int bad = cards_unpack(&self->cards, (const int32_t *)view.buf, (int)(view.len / 4));
    PyBuffer_Release(&view);
    if (bad) {
        PyErr_Format(PyExc_ValueError,
                     "the card table does not fit the native core (word %d of %d is out of range)",
                     bad - 1, CARD_TABLE_WORDS);
        return -1;
    }
    int values[5];
    if (!PyTuple_Check(options_obj) || PyTuple_GET_SIZE(options_obj) != 5) {
        PyErr_SetString(PyExc_TypeError, "options must be a tuple of 5 booleans");
        return -1;
    }
    for (int i = 0; i < 5; i++) {
        values[i] = PyObject_IsTrue(PyTuple_GET_ITEM(options_obj, i));
        if (values[i] < 0) return -1;
    }
    self->options.reveal_after_change_of_era = (uint8_t)values[0];
    self->options.hindenburg_any_order = (uint8_t)values[1];
    self->options.engine_bonus_needs_cost_colour = (uint8_t)values[2];
    self->options.wooden_airship_with_opening_airship = (uint8_t)values[3];
    self->options.stalemate_ends_game = (uint8_t)values[4];
    return 0;
}

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "airships_env.native._core.Core",
    .tp_basicsize = sizeof(CoreObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_doc = "A card set and rules options for the native core.",
};

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                     */
/* ------------------------------------------------------------------------------------------ */
static int parse_u32_words(PyObject *seq, uint32_t *out, int max, int *count, const char *what) {
    PyObject *fast = PySequence_Fast(seq, "expected a sequence of 32-bit words");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > max) {
        PyErr_Format(PyExc_ValueError, "%s: at most %d words, got %zd", what, max, n);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned long long v = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (PyErr_Occurred() || v > 0xFFFFFFFFull) {
            if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "%s: word %zd is not 32-bit", what, i);
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (uint32_t)v;
    }
    *count = (int)n;
    Py_DECREF(fast);
    return 0;
}

/* A generator's state as numpy's PCG64 dict holds it: (state, inc, has_uint32, uinteger). */
int rng_from_tuple(PyObject *obj, Rng *rng) {
    memset(rng, 0, sizeof *rng);
    if (obj == Py_None) return 0;
    if (!PyTuple_Check(obj)) {
        PyErr_Format(PyExc_TypeError,
                     "a generator state must be a tuple (state, inc, has_uint32, uinteger) or "
                     "None, got %.100s", Py_TYPE(obj)->tp_name);
        return -1;
    }
    PyObject *state, *inc;
    int has_uint32;
    unsigned long uinteger;
    if (!PyArg_ParseTuple(obj, "OOik", &state, &inc, &has_uint32, &uinteger)) return -1;
    PyObject *mask = PyLong_FromUnsignedLongLong(0xFFFFFFFFFFFFFFFFull);
    PyObject *shift = PyLong_FromLong(64);
    PyObject *parts[4] = {NULL, NULL, NULL, NULL};
    int ok = mask && shift;
    if (ok) {
        parts[0] = PyNumber_Rshift(state, shift);
        parts[1] = parts[0] ? PyNumber_And(state, mask) : NULL;
        parts[2] = parts[1] ? PyNumber_Rshift(inc, shift) : NULL;
        parts[3] = parts[2] ? PyNumber_And(inc, mask) : NULL;
        ok = parts[3] != NULL;
    }
    uint64_t values[4] = {0, 0, 0, 0};
    for (int i = 0; ok && i < 4; i++) {
        values[i] = PyLong_AsUnsignedLongLong(parts[i]);
        if (PyErr_Occurred()) ok = 0;
    }
    for (int i = 0; i < 4; i++) Py_XDECREF(parts[i]);
    Py_XDECREF(mask);
    Py_XDECREF(shift);
    if (!ok) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad generator state");
        else PyErr_SetString(PyExc_ValueError, "a generator's state and inc must be 128-bit non-negative integers");
        return -1;
    }
    rng->state_hi = values[0];
    rng->state_lo = values[1];
    rng->inc_hi = values[2];
    rng->inc_lo = values[3];
    rng->has_uint32 = has_uint32;
    rng->uinteger = (uint32_t)uinteger;
    rng->present = 1;
    return 0;
}

static PyObject *u128_to_pylong(uint64_t hi, uint64_t lo) {
    PyObject *high = PyLong_FromUnsignedLongLong(hi), *low = PyLong_FromUnsignedLongLong(lo);
    PyObject *shift = PyLong_FromLong(64);
    PyObject *shifted = high && shift ? PyNumber_Lshift(high, shift) : NULL;
    PyObject *result = shifted && low ? PyNumber_Or(shifted, low) : NULL;
    Py_XDECREF(high);
    Py_XDECREF(low);
    Py_XDECREF(shift);
    Py_XDECREF(shifted);
    return result;
}

PyObject *rng_to_tuple(const Rng *rng) {
    if (!rng->present) Py_RETURN_NONE;
    PyObject *state = u128_to_pylong(rng->state_hi, rng->state_lo);
    PyObject *inc = u128_to_pylong(rng->inc_hi, rng->inc_lo);
    if (!state || !inc) {
        Py_XDECREF(state);
        Py_XDECREF(inc);
        return NULL;
    }
    return Py_BuildValue("NNik", state, inc, (int)rng->has_uint32, (unsigned long)rng->uinteger);
}

/* ------------------------------------------------------------------------------------------ */
/* Game                                                                                        */
/* ------------------------------------------------------------------------------------------ */
typedef struct {
    PyObject_HEAD
    CoreObject *core;
    Game game;
    ShapeCache *cache;
} GameObject;

static PyTypeObject GameType;

static GameObject *game_alloc(CoreObject *core) {
    GameObject *self = PyObject_New(GameObject, &GameType);
    if (!self) return NULL;
    self->cache = calloc(1, sizeof(ShapeCache));
    if (!self->cache) {
        Py_DECREF(self);
        PyErr_NoMemory();
        return NULL;
    }
    Py_INCREF(core);
    self->core = core;
    memset(&self->game, 0, sizeof self->game);
    return self;
}

static void Game_dealloc(GameObject *self) {
    free(self->cache);
    Py_XDECREF(self->core);
    PyObject_Free(self);
}

static int check_core(PyObject *obj) {
    if (!PyObject_TypeCheck(obj, &CoreType)) {
        PyErr_SetString(PyExc_TypeError, "expected a native Core");
        return -1;
    }
    return 0;
}

/* new_game(core, num_players, rng_state) -> Game (S1-S6 with that generator) */
static PyObject *py_new_game(PyObject *module, PyObject *args) {
    PyObject *core_obj, *rng_obj;
    int num_players;
    (void)module;
    if (!PyArg_ParseTuple(args, "OiO", &core_obj, &num_players, &rng_obj)) return NULL;
    if (check_core(core_obj) < 0) return NULL;
    if (num_players < MIN_PLAYERS || num_players > MAX_PLAYERS) {
        PyErr_Format(PyExc_ValueError, "num_players must be 2 to 4, got %d", num_players);
        return NULL;
    }
    Rng rng;
    if (rng_from_tuple(rng_obj, &rng) < 0) return NULL;
    if (!rng.present) {
        PyErr_SetString(PyExc_ValueError, "a new game needs a generator");
        return NULL;
    }
    CoreObject *core = (CoreObject *)core_obj;
    GameObject *self = game_alloc(core);
    if (!self) return NULL;
    game_new(&self->game, &core->cards, &core->options, num_players, &rng);
    return (PyObject *)self;
}

/* seed_sequence_state(entropy_words, spawn_words) -> (state, inc, 0, 0), numpy's PCG64 seeding */
static PyObject *py_seed_sequence_state(PyObject *module, PyObject *args) {
    PyObject *entropy_obj, *spawn_obj;
    (void)module;
    if (!PyArg_ParseTuple(args, "OO", &entropy_obj, &spawn_obj)) return NULL;
    uint32_t entropy[56], spawn[8];
    int n_entropy, n_spawn;
    if (parse_u32_words(entropy_obj, entropy, 56, &n_entropy, "entropy") < 0) return NULL;
    if (parse_u32_words(spawn_obj, spawn, 8, &n_spawn, "spawn key") < 0) return NULL;
    Rng rng;
    rng_seed_sequence(&rng, entropy, n_entropy, spawn, n_spawn);
    return rng_to_tuple(&rng);
}

/* rng_draws(rng_state, kind, count_or_bound) -> (values, new state): the sampler, for tests */
static PyObject *py_rng_draws(PyObject *module, PyObject *args) {
    PyObject *rng_obj;
    unsigned long long bound;
    int count;
    (void)module;
    if (!PyArg_ParseTuple(args, "OKi", &rng_obj, &bound, &count)) return NULL;
    Rng rng;
    if (rng_from_tuple(rng_obj, &rng) < 0) return NULL;
    if (!rng.present || count < 0 || count > 1000000) {
        PyErr_SetString(PyExc_ValueError, "need a generator and 0..1e6 draws");
        return NULL;
    }
    PyObject *values = PyList_New(count);
    if (!values) return NULL;
    for (int i = 0; i < count; i++) {
        uint64_t v = bound ? uniform_below(&rng, bound) : rng_next64(&rng);
        PyList_SET_ITEM(values, i, PyLong_FromUnsignedLongLong(v));
    }
    return Py_BuildValue("NN", values, rng_to_tuple(&rng));
}

static PyObject *Game_clone(GameObject *self, PyObject *unused) {
    (void)unused;
    GameObject *copy = game_alloc(self->core);
    if (!copy) return NULL;
    copy->game = self->game;
    return (PyObject *)copy;
}

static PyObject *Game_legal_actions(GameObject *self, PyObject *unused) {
    (void)unused;
    int8_t legal[NUM_ACTIONS];
    int n = game_legal_list(&self->game, &self->core->cards, &self->core->options, legal);
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(legal[i]));
    return list;
}

static PyObject *exchange_tuple(const ExchangeMade *x) {
    if (!x->has) Py_RETURN_NONE;
    return Py_BuildValue("(iii)(iii)(ii)", x->gave[0], x->gave[1], x->gave[2], x->received[0],
                         x->received[1], x->received[2], x->gave_fixed_colour, x->gave_fixed_value);
}

static PyObject *dice_tuple(const int8_t *counts, const int8_t values[3][MAX_ROLLED]) {
    PyObject *outer = PyTuple_New(3);
    if (!outer) return NULL;
    for (int c = 0; c < 3; c++) {
        PyObject *inner = PyTuple_New(counts[c]);
        if (!inner) {
            Py_DECREF(outer);
            return NULL;
        }
        for (int i = 0; i < counts[c]; i++) PyTuple_SET_ITEM(inner, i, PyLong_FromLong(values[c][i]));
        PyTuple_SET_ITEM(outer, c, inner);
    }
    return outer;
}

/* The compact record as a tuple (airships_env/native/records.py builds the ActionRecord). */
static PyObject *record_tuple(const Record *r, int num_players) {
    PyObject *bonuses = PyTuple_New(r->n_bonuses);
    PyObject *chips = PyTuple_New(r->n_chips);
    PyObject *reveals = PyTuple_New(r->n_reveals);
    if (!bonuses || !chips || !reveals) goto fail;
    for (int b = 0; b < r->n_bonuses; b++)
        PyTuple_SET_ITEM(bonuses, b, Py_BuildValue("(iii)", r->bonuses[b].kind, r->bonuses[b].colour, r->bonuses[b].amount));
    for (int c = 0; c < r->n_chips; c++) {
        const ChipMove *m = &r->chips[c];
        PyTuple_SET_ITEM(chips, c, Py_BuildValue("(iiiii)", m->player, m->count, m->source, m->destination, m->reason));
    }
    for (int v = 0; v < r->n_reveals; v++) {
        const RevealRec *rv = &r->reveals[v];
        PyTuple_SET_ITEM(reveals, v, Py_BuildValue("(iii)", rv->card, rv->slot, rv->pushed_out));
    }
    PyObject *scores;
    if (r->game_over) {
        scores = PyTuple_New(num_players);
        if (!scores) goto fail;
        for (int p = 0; p < num_players; p++) PyTuple_SET_ITEM(scores, p, PyLong_FromLong(r->scores[p]));
    } else {
        scores = Py_None;
        Py_INCREF(scores);
    }
    PyObject *attempt;
    if (r->has_attempt) {
        attempt = Py_BuildValue("(iiNNNiiiN)", r->target_kind, r->target_card, exchange_tuple(&r->exchange),
                                dice_tuple(r->n_rolled, r->rolled), dice_tuple(r->n_kept, r->kept),
                                r->dice_sum, r->total, r->needed, bonuses);
        bonuses = NULL;
        if (!attempt) {
            Py_DECREF(scores);
            goto fail;
        }
    } else {
        attempt = Py_None;
        Py_INCREF(attempt);
        Py_CLEAR(bonuses);
    }
    return Py_BuildValue("(iiiiiNiiiiNNiiiiiiN)", r->step, r->turn, r->player, r->action, r->phase, attempt,
                         r->result, r->acquired_kind, r->acquired, r->discarded, chips, reveals,
                         r->era_changed, r->hindenburg_opened, r->wooden_airship, r->next_player,
                         r->game_over, (int)r->winners_mask, scores);
fail:
    Py_XDECREF(bonuses);
    Py_XDECREF(chips);
    Py_XDECREF(reveals);
    return NULL;
}

static PyObject *legal_error(GameObject *self, int code, int action) {
    PyObject *legal = Game_legal_actions(self, NULL);
    if (!legal) return NULL;
    PyObject *error = Py_BuildValue("(iiN)", code, action, legal);
    if (error) PyErr_SetObject(PyExc_LookupError, error);
    Py_XDECREF(error);
    return NULL;
}

/* apply(action, dice=None) -> record tuple; raises LookupError((code, action, legal)) */
static PyObject *Game_apply(GameObject *self, PyObject *args) {
    int action;
    PyObject *dice = Py_None;
    if (!PyArg_ParseTuple(args, "i|O", &action, &dice)) return NULL;
    int8_t counts[3] = {0, 0, 0}, faces[3 * MAX_ROLLED];
    memset(faces, 0, sizeof faces);
    int forced = dice != Py_None;
    if (forced) {
        PyObject *fast = PySequence_Fast(dice, "dice must be three sequences of faces");
        if (!fast) return NULL;
        if (PySequence_Fast_GET_SIZE(fast) != 3) {
            Py_DECREF(fast);
            return legal_error(self, CORE_BAD_DICE, action);
        }
        for (int c = 0; c < 3; c++) {
            PyObject *inner = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, c), "dice must be three sequences of faces");
            if (!inner) {
                Py_DECREF(fast);
                return NULL;
            }
            Py_ssize_t n = PySequence_Fast_GET_SIZE(inner);
            if (n > MAX_ROLLED) {
                Py_DECREF(inner);
                Py_DECREF(fast);
                return legal_error(self, CORE_BAD_DICE, action);
            }
            counts[c] = (int8_t)n;
            for (Py_ssize_t i = 0; i < n; i++) {
                long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(inner, i));
                if (v == -1 && PyErr_Occurred()) {
                    Py_DECREF(inner);
                    Py_DECREF(fast);
                    return NULL;
                }
                faces[c * MAX_ROLLED + i] = (int8_t)(v < 0 || v > 100 ? 0 : v);
            }
            Py_DECREF(inner);
        }
        Py_DECREF(fast);
    }
    Record record;
    int code = game_apply(&self->game, &self->core->cards, &self->core->options, action,
                          forced ? counts : NULL, forced ? faces : NULL, &record);
    if (code != CORE_OK) return legal_error(self, code, action);
    return record_tuple(&record, self->game.num_players);
}

/* The whole state as (words, rng state): airships_env/native/convert.py reads it. */
PyObject *game_export_tuple(const Game *g) {
    PyObject *words = PyList_New(0);
    if (!words) return NULL;
#define PUT(v)                                        \
    do {                                              \
        PyObject *item = PyLong_FromLong((long)(v));  \
        if (!item || PyList_Append(words, item) < 0) { \
            Py_XDECREF(item);                         \
            Py_DECREF(words);                         \
            return NULL;                              \
        }                                             \
        Py_DECREF(item);                              \
    } while (0)
    PUT(g->num_players); PUT(g->era); PUT(g->phase); PUT(g->current_player);
    PUT(g->wooden_airship); PUT(g->hindenburg_open); PUT(g->is_public_view); PUT(g->over);
    PUT(g->deck_len);
    for (int i = 0; i < DECK_MAX; i++) PUT(g->deck[i]);
    for (int i = 0; i < BOARD_SLOTS; i++) PUT(g->board[i]);
    for (int s = 0; s < NUM_STACKS; s++) {
        PUT(g->stack_len[s]);
        for (int i = 0; i < STACK_HEIGHT; i++) PUT(g->stacks[s][i]);
    }
    PUT(g->n_left_out);
    for (int i = 0; i < LEFT_OUT; i++) PUT(g->left_out[i]);
    PUT(g->n_removed);
    for (int i = 0; i < NUM_EXPANSIONS; i++) PUT(g->removed[i]);
    for (int j = 0; j < NUM_PHASES; j++) PUT(g->hindenburg[j]);
    PUT(g->passed_mask); PUT(g->winners_mask);
    for (int p = 0; p < MAX_PLAYERS; p++) {
        const Player *pl = &g->players[p];
        for (int d = 0; d < NUM_DEPARTMENTS; d++) PUT(pl->slots[d]);
        PUT(pl->n_airships);
        for (int a = 0; a < NUM_AIRSHIPS; a++) PUT(pl->airships[a]);
        PUT(pl->chips_on_board); PUT(pl->chips_supply);
    }
    const Pending *pd = &g->pending;
    PUT(pd->active); PUT(pd->target); PUT(pd->variant); PUT(pd->needed); PUT(pd->dice_sum); PUT(pd->total);
    PUT(pd->exchange.has);
    for (int c = 0; c < 3; c++) PUT(pd->exchange.gave[c]);
    PUT(pd->exchange.gave_fixed_colour); PUT(pd->exchange.gave_fixed_value);
    for (int c = 0; c < 3; c++) PUT(pd->exchange.received[c]);
    for (int c = 0; c < 3; c++) {
        PUT(pd->n_rolled[c]);
        for (int i = 0; i < MAX_ROLLED; i++) PUT(pd->rolled[c][i]);
        PUT(pd->n_kept[c]);
        for (int i = 0; i < MAX_ROLLED; i++) PUT(pd->kept[c][i]);
    }
    PUT(pd->n_bonuses);
    for (int b = 0; b < MAX_RECORD_BONUSES; b++) {
        PUT(pd->bonuses[b].kind); PUT(pd->bonuses[b].colour); PUT(pd->bonuses[b].amount);
    }
    PUT(g->turn); PUT(g->step);
    for (int p = 0; p < MAX_PLAYERS; p++) PUT(g->final_scores[p]);
#undef PUT
    return Py_BuildValue("NN", words, rng_to_tuple(&g->rng));
}

static PyObject *Game_export(GameObject *self, PyObject *unused) {
    (void)unused;
    return game_export_tuple(&self->game);
}

#define EXPORT_WORDS \
    (9 + DECK_MAX + BOARD_SLOTS + NUM_STACKS * (1 + STACK_HEIGHT) + 1 + LEFT_OUT + 1 + NUM_EXPANSIONS + NUM_PHASES + 2 + \
     MAX_PLAYERS * (NUM_DEPARTMENTS + 1 + NUM_AIRSHIPS + 2) + 7 + 8 + 3 * (2 + 2 * MAX_ROLLED) + 1 + 3 * MAX_RECORD_BONUSES + 2 + MAX_PLAYERS)

/* import_state(core, words, rng_state) -> Game; every word is range-checked */
static PyObject *py_import_state(PyObject *module, PyObject *args) {
    PyObject *core_obj, *words_obj, *rng_obj;
    (void)module;
    if (!PyArg_ParseTuple(args, "OOO", &core_obj, &words_obj, &rng_obj)) return NULL;
    if (check_core(core_obj) < 0) return NULL;
    PyObject *fast = PySequence_Fast(words_obj, "state words must be a sequence of integers");
    if (!fast) return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != EXPORT_WORDS) {
        PyErr_Format(PyExc_ValueError, "expected %d state words, got %zd", EXPORT_WORDS, PySequence_Fast_GET_SIZE(fast));
        Py_DECREF(fast);
        return NULL;
    }
    long w[EXPORT_WORDS];
    for (int i = 0; i < EXPORT_WORDS; i++) {
        w[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (w[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return NULL;
        }
        /* every field is small, except turn and step */
        if ((w[i] < -128 || w[i] > 127) && i < EXPORT_WORDS - 2 - MAX_PLAYERS) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "state word %d out of range: %ld", i, w[i]);
            return NULL;
        }
    }
    Py_DECREF(fast);
    GameObject *self = game_alloc((CoreObject *)core_obj);
    if (!self) return NULL;
    Game *g = &self->game;
    int at = 0;
#define GET() ((int8_t)w[at++])
    g->num_players = GET(); g->era = GET(); g->phase = GET(); g->current_player = GET();
    g->wooden_airship = GET(); g->hindenburg_open = GET(); g->is_public_view = GET(); g->over = GET();
    g->deck_len = GET();
    for (int i = 0; i < DECK_MAX; i++) g->deck[i] = GET();
    for (int i = 0; i < BOARD_SLOTS; i++) g->board[i] = GET();
    for (int s = 0; s < NUM_STACKS; s++) {
        g->stack_len[s] = GET();
        for (int i = 0; i < STACK_HEIGHT; i++) g->stacks[s][i] = GET();
    }
    g->n_left_out = GET();
    for (int i = 0; i < LEFT_OUT; i++) g->left_out[i] = GET();
    g->n_removed = GET();
    for (int i = 0; i < NUM_EXPANSIONS; i++) g->removed[i] = GET();
    for (int j = 0; j < NUM_PHASES; j++) g->hindenburg[j] = GET();
    g->passed_mask = (uint8_t)GET(); g->winners_mask = (uint8_t)GET();
    for (int p = 0; p < MAX_PLAYERS; p++) {
        Player *pl = &g->players[p];
        for (int d = 0; d < NUM_DEPARTMENTS; d++) pl->slots[d] = GET();
        pl->n_airships = GET();
        for (int a = 0; a < NUM_AIRSHIPS; a++) pl->airships[a] = GET();
        pl->chips_on_board = GET(); pl->chips_supply = GET();
    }
    Pending *pd = &g->pending;
    pd->active = GET(); pd->target = GET(); pd->variant = GET();
    pd->needed = GET(); pd->dice_sum = GET(); pd->total = GET();
    pd->exchange.has = GET();
    for (int c = 0; c < 3; c++) pd->exchange.gave[c] = GET();
    pd->exchange.gave_fixed_colour = GET(); pd->exchange.gave_fixed_value = GET();
    for (int c = 0; c < 3; c++) pd->exchange.received[c] = GET();
    for (int c = 0; c < 3; c++) {
        pd->n_rolled[c] = GET();
        for (int i = 0; i < MAX_ROLLED; i++) pd->rolled[c][i] = GET();
        pd->n_kept[c] = GET();
        for (int i = 0; i < MAX_ROLLED; i++) pd->kept[c][i] = GET();
    }
    pd->n_bonuses = GET();
    for (int b = 0; b < MAX_RECORD_BONUSES; b++) {
        pd->bonuses[b].kind = GET(); pd->bonuses[b].colour = GET(); pd->bonuses[b].amount = GET();
    }
#undef GET
    g->turn = (int32_t)w[at++];
    g->step = (int32_t)w[at++];
    for (int p = 0; p < MAX_PLAYERS; p++) g->final_scores[p] = (int16_t)w[at++];
    if (rng_from_tuple(rng_obj, &g->rng) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    int bad = game_check(g, &self->core->cards);
    if (bad) {
        Py_DECREF(self);
        PyErr_Format(PyExc_ValueError, "the state breaks an invariant the native core needs (check %d)", bad);
        return NULL;
    }
    return (PyObject *)self;
}

static int get_float_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t need, const char *what) {
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    const char *format = view->format ? view->format : "B";
    if (view->itemsize != 4 || (strcmp(format, "f") != 0 && strcmp(format, "<f") != 0 && strcmp(format, "=f") != 0)) {
        PyErr_Format(PyExc_TypeError, "%s must be a writable C-contiguous float32 buffer, got format '%s'", what, format);
        PyBuffer_Release(view);
        return -1;
    }
    if (view->len / 4 < need) {
        PyErr_Format(PyExc_ValueError, "%s holds %zd floats, needs %zd", what, view->len / 4, need);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* observe(seat, out) writes the observation vector of ``seat`` into a float32 buffer */
static PyObject *Game_observe(GameObject *self, PyObject *args) {
    int seat;
    PyObject *out;
    if (!PyArg_ParseTuple(args, "iO", &seat, &out)) return NULL;
    if (seat < 0 || seat >= self->game.num_players) {
        PyErr_Format(PyExc_ValueError, "seat must be 0..%d, got %d", self->game.num_players - 1, seat);
        return NULL;
    }
    Py_buffer view;
    if (get_float_buffer(out, &view, obs_size(self->game.num_players), "out") < 0) return NULL;
    obs_encode(&self->game, &self->core->cards, &self->core->options, self->cache, seat, (float *)view.buf);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

/* attempt_odds(action, player) -> (at_least, chip_decides, with_chip, denominator) or None */
static PyObject *Game_attempt_odds(GameObject *self, PyObject *args) {
    int action, player;
    if (!PyArg_ParseTuple(args, "ii", &action, &player)) return NULL;
    if (player < 0 || player >= self->game.num_players || action < 0 || action >= NUM_ATTEMPTS) {
        PyErr_SetString(PyExc_ValueError, "action must be an attempt (0..77) and player a seat");
        return NULL;
    }
    Odds odds;
    if (!game_attempt_odds(&self->game, &self->core->cards, &self->core->options, self->cache, action, player, &odds))
        Py_RETURN_NONE;
    return Py_BuildValue("(kkkk)", (unsigned long)odds.at_least, (unsigned long)odds.chip_decides,
                         (unsigned long)odds.with_chip, (unsigned long)odds.denominator);
}

static PyObject *Game_public_view(GameObject *self, PyObject *unused) {
    (void)unused;
    GameObject *view = game_alloc(self->core);
    if (!view) return NULL;
    game_public_view(&view->game, &self->game, &self->core->cards);
    return (PyObject *)view;
}

/* determinize(rng_state) -> (Game, rng_state after the draws) */
static PyObject *Game_determinize(GameObject *self, PyObject *args) {
    PyObject *rng_obj;
    if (!PyArg_ParseTuple(args, "O", &rng_obj)) return NULL;
    Rng rng;
    if (rng_from_tuple(rng_obj, &rng) < 0) return NULL;
    if (!rng.present) {
        PyErr_SetString(PyExc_ValueError, "determinize needs a generator");
        return NULL;
    }
    GameObject *sample = game_alloc(self->core);
    if (!sample) return NULL;
    game_determinize(&sample->game, &self->game, &self->core->cards, &rng);
    return Py_BuildValue("NN", sample, rng_to_tuple(&rng));
}

static int parse_legal(PyObject *legal_obj, int8_t *legal, int *n_legal) {
    PyObject *fast = PySequence_Fast(legal_obj, "legal actions must be a sequence");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n < 1 || n > NUM_ACTIONS) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "legal actions: 1..83 entries");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long a = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if ((a == -1 && PyErr_Occurred()) || a < 0 || a >= NUM_ACTIONS) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "legal actions must be 0..82");
            return -1;
        }
        legal[i] = (int8_t)a;
    }
    *n_legal = (int)n;
    Py_DECREF(fast);
    return 0;
}

/* A bot's settings come as a tuple (GreedyConfig.native(), HeuristicConfig.native()); anything
 * else is a TypeError here, before PyArg_ParseTuple (which raises SystemError on a non-tuple). */
static int expect_config_tuple(PyObject *obj, const char *what, Py_ssize_t size) {
    if (PyTuple_Check(obj) && PyTuple_GET_SIZE(obj) == size) return 0;
    if (PyTuple_Check(obj))
        PyErr_Format(PyExc_TypeError, "%s must be a tuple of %zd settings, got %zd", what, size,
                     PyTuple_GET_SIZE(obj));
    else
        PyErr_Format(PyExc_TypeError, "%s must be a tuple of %zd settings, got %.100s", what, size,
                     Py_TYPE(obj)->tp_name);
    return -1;
}

int parse_greedy_config(PyObject *obj, GreedyConfig *config) {
    if (expect_config_tuple(obj, "greedy (GreedyConfig.native())", 3) < 0) return -1;
    return PyArg_ParseTuple(obj, "ddd", &config->dice_weight, &config->chip_value, &config->extra_turn_threshold) ? 0 : -1;
}

int parse_heuristic_config(PyObject *obj, HeuristicConfig *c) {
    if (expect_config_tuple(obj, "heuristic (HeuristicConfig.native())", 16) < 0) return -1;
    return PyArg_ParseTuple(obj, "(ddd)(ddd)dddidddddddddd", &c->turns_base[0], &c->turns_base[1], &c->turns_base[2],
                            &c->turns_per_airship[0], &c->turns_per_airship[1], &c->turns_per_airship[2],
                            &c->turns_per_phase, &c->turns_min, &c->dice_weight, &c->value_era,
                            &c->airship_choice, &c->phase_choice, &c->phase_complete_odds,
                            &c->chip_turn_fraction, &c->chip_value_min, &c->wooden_airship_value,
                            &c->extra_turn_min_value, &c->win_value, &c->race_weight, &c->race_scale)
               ? 0
               : -1;
}

/* bot_action(kind, config, legal) -> the bot's choice for the player to act (greedy, heuristic) */
static PyObject *Game_bot_action(GameObject *self, PyObject *args) {
    int kind;
    PyObject *config_obj, *legal_obj;
    if (!PyArg_ParseTuple(args, "iOO", &kind, &config_obj, &legal_obj)) return NULL;
    int8_t legal[NUM_ACTIONS];
    int n_legal;
    if (parse_legal(legal_obj, legal, &n_legal) < 0) return NULL;
    if (self->game.phase == GAME_OVER) {
        PyErr_SetString(PyExc_ValueError, "the game is over");
        return NULL;
    }
    int action;
    if (kind == BOT_GREEDY) {
        GreedyConfig config;
        if (parse_greedy_config(config_obj, &config) < 0) return NULL;
        action = bot_greedy(&self->game, &self->core->cards, &self->core->options, self->cache, &config, legal, n_legal);
    } else if (kind == BOT_HEURISTIC) {
        HeuristicConfig config;
        if (parse_heuristic_config(config_obj, &config) < 0) return NULL;
        action = bot_heuristic(&self->game, &self->core->cards, &self->core->options, self->cache, &config, legal, n_legal);
    } else {
        PyErr_Format(PyExc_ValueError, "unknown bot kind %d", kind);
        return NULL;
    }
    return PyLong_FromLong(action);
}

/* Private copies of what a search reads (the rules, the context, the root): nothing can change
 * under the search while the GIL is released. */
typedef struct {
    Cards cards;
    Options options;
    SearchContext context;
    SearchWorld root;
} SearchCopy;

/* Fill ``copy``'s rules from ``self`` and its context (the bots' settings are the caller's). */
static SearchContext *search_copy(SearchCopy *copy, GameObject *self, ShapeCache *cache,
                                  double margin_weight) {
    copy->cards = self->core->cards;
    copy->options = self->core->options;
    SearchContext *context = &copy->context;
    context->cards = &copy->cards;
    context->options = &copy->options;
    context->cache = cache;
    context->margin_weight = margin_weight;
    context->keyed_dice = 0;
    return context;
}

/* Run the generic search on ``copy``'s root with a generator seeded from ``seed``, the GIL
 * released; 0, or -1 with the exception set. */
static int run_search(SearchCopy *copy, const GsOptions *options, unsigned long long seed,
                      GsResult *result) {
    Rng rng;
    uint32_t words[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    rng_seed_sequence(&rng, words, 2, NULL, 0);
    int code;
    Py_BEGIN_ALLOW_THREADS
    code = gs_search(&GS_AIRSHIPS, &copy->root, copy->root.game.current_player, options, &rng, result);
    Py_END_ALLOW_THREADS
    if (code == GS_OK) return 0;
    if (code == GS_NO_MEMORY) PyErr_NoMemory();
    else PyErr_Format(PyExc_RuntimeError, "the search failed (code %d)", code);
    return -1;
}

/* The root's rows: (action, visits, mean, ``fourth``) for each of the ``n`` root actions. */
static PyObject *root_rows(int n, const int16_t *actions, const int32_t *visits,
                           const double *means, const double *fourth) {
    PyObject *root = PyTuple_New(n);
    for (int i = 0; root && i < n; i++) {
        PyObject *item = Py_BuildValue("(iidd)", actions[i], visits[i], means[i], fourth[i]);
        if (!item) Py_CLEAR(root);
        else PyTuple_SET_ITEM(root, i, item);
    }
    return root;
}

/* search(sims, seconds, rollout, candidates, c, margin_weight, widening, max_nodes, seed,
 *        greedy, heuristic, z=0, rank_net=None) -> (action, simulations, actions, nodes,
 *                                    ((action, visits, mean, standard error)...))
 * ISMCTS for the player to act on this game's public view: the generic search (gsearch.c) with
 * Airships filling its game (airships_search.c) and its ranked candidates, progressive widening,
 * gate and forced moves skipped turned on (``rank_net``, a make_net network: the root's candidates
 * ranked by its logits instead of the heuristic); the game is not changed. The GIL is released while
 * searching (the search works on its own copies and its own generator, seeded from ``seed``). */
static PyObject *Game_search(GameObject *self, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"sims",      "seconds",   "rollout", "candidates", "c",
                               "margin_weight", "widening", "max_nodes", "seed", "greedy",
                               "heuristic", "z", "rank_net", "rank_all", NULL};
    long long sims;
    unsigned long long seed;
    double seconds, c, margin_weight, widening, z = 0.0;
    int rollout, candidates, max_nodes;
    PyObject *greedy_obj, *heuristic_obj, *rank_obj = Py_None;
    int rank_all = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "LdiidddiKOO|dOp", keywords, &sims, &seconds,
                                     &rollout, &candidates, &c, &margin_weight, &widening,
                                     &max_nodes, &seed, &greedy_obj, &heuristic_obj, &z,
                                     &rank_obj, &rank_all))
        return NULL;
    const GnNet *rank_net = NULL;
    if (rank_obj != Py_None) {
        rank_net = gnet_from(rank_obj);
        if (!rank_net) return NULL;
        if (rank_net->n_actions != NUM_ACTIONS ||
            rank_net->n_inputs != obs_size(self->game.num_players)) {
            PyErr_SetString(PyExc_ValueError,
                            "rank_net is for another table size or game (observation, actions)");
            return NULL;
        }
    }
    if (sims < 0 || !(seconds >= 0.0) || seconds > 3600.0 || (sims == 0 && seconds == 0.0)) {
        /* PyErr_Format has no %g: the number is formatted by PyOS_double_to_string */
        char *text = PyOS_double_to_string(seconds, 'r', 0, Py_DTSF_ADD_DOT_0, NULL);
        if (!text) return NULL;
        PyErr_Format(PyExc_ValueError,
                     "search needs a budget: sims >= 0 and 0 <= seconds <= 3600, not both 0 "
                     "(got sims=%lld, seconds=%s)", sims, text);
        PyMem_Free(text);
        return NULL;
    }
    if (rollout != BOT_RANDOM && rollout != BOT_GREEDY && rollout != BOT_HEURISTIC) {
        PyErr_Format(PyExc_ValueError, "rollout must be 1 (random), 2 (greedy) or 3 (heuristic), got %d", rollout);
        return NULL;
    }
    if (candidates < 1 || candidates > NUM_ACTIONS) {
        PyErr_Format(PyExc_ValueError, "candidates must be 1..%d, got %d", NUM_ACTIONS, candidates);
        return NULL;
    }
    if (!(c >= 0.0) || !isfinite(c) || !isfinite(margin_weight) || !(widening > 0.0) || !isfinite(widening) ||
        !(z >= 0.0) || !isfinite(z)) {
        PyErr_SetString(PyExc_ValueError, "c and z must be >= 0, widening > 0 and margin_weight finite");
        return NULL;
    }
    if (max_nodes < 1 || max_nodes > 50000000) {
        PyErr_Format(PyExc_ValueError, "max_nodes must be 1..50000000, got %d", max_nodes);
        return NULL;
    }
    if (self->game.phase == GAME_OVER) {
        PyErr_SetString(PyExc_ValueError, "the game is over");
        return NULL;
    }
    typedef struct {
        SearchCopy copy;
        int16_t root_action[NUM_ACTIONS];
        int32_t root_visits[NUM_ACTIONS];
        double root_mean[NUM_ACTIONS], root_error[NUM_ACTIONS];
    } Work;
    Work *work = malloc(sizeof(Work));
    ShapeCache *cache = calloc(1, sizeof(ShapeCache));
    if (!work || !cache) {
        free(work);
        free(cache);
        return PyErr_NoMemory();
    }
    SearchContext *context = search_copy(&work->copy, self, cache, margin_weight);
    if (parse_greedy_config(greedy_obj, &context->greedy) < 0 ||
        parse_heuristic_config(heuristic_obj, &context->heuristic) < 0) {
        free(work);
        free(cache);
        return NULL;
    }
    search_world(&work->copy.root, &self->game, context);
    GsOptions options = {
        .sims = sims, .seconds = seconds, .c = c, .max_rollout = SEARCH_MAX_ACTIONS,
        .rollout = -1, .playout = rollout, .candidates = candidates, .widening = widening,
        .z = z, .skip_forced = 1, .max_nodes = max_nodes, .rank_net = rank_net,
        .rank_all = rank_all,
    };
    GsResult result = {-1, 0, 0, 0, work->root_action, work->root_visits, work->root_mean,
                       work->root_error, 0};
    int failed = run_search(&work->copy, &options, seed, &result);
    free(cache);
    PyObject *root = failed ? NULL
                            : root_rows(result.n_root, work->root_action, work->root_visits,
                                        work->root_mean, work->root_error);
    PyObject *out = root ? Py_BuildValue("(iLLiN)", result.action, (long long)result.simulations,
                                         (long long)result.actions, result.nodes, root)
                         : NULL;
    free(work);
    return out;
}

_Static_assert(SEARCH_LUCK_TERMS == GS_MAX_LUCK_TERMS, "az_search reports four luck slopes");

/* az_search(net, sims, seconds, c, rollout_weight, margin_weight, seed, heuristic, noise=None,
 *           noise_fraction=0, temperature=1, fpu="mean", worlds="fresh", luck="keep")
 *     -> (action, simulations, evaluations, nodes, ((action, visits, mean, prior)...), situations,
 *         luck_slopes)
 * The generic search's net mode (gsearch.h) for the player to act on this game's public view:
 * PUCT guided by ``net`` (make_net), leaf values mixed with heuristic rollouts by
 * ``rollout_weight``; ``noise`` (83 float64 as bytes) mixed into the root's prior by
 * ``noise_fraction``; the prior softmax(logits / ``temperature``); an unvisited action's value
 * ``fpu``: "mean" (its node's mean so far) or "first" (its node's first evaluation, gsearch.h's
 * GS_FPU_*); ``worlds``: "fresh" (a determinization a simulation) or "paired" (a root action's
 * k-th visit plays the search's k-th world, gsearch.h's ``paired_worlds``); ``luck``: "keep" or
 * "subtract" (the dice's luck as a control variate, gsearch.h's ``luck``; ``luck_slopes``: the
 * fitted slopes of its SEARCH_LUCK_TERMS terms at the end, zeros when kept). The game is not
 * changed; the GIL is released while searching. */
static PyObject *Game_az_search(GameObject *self, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"net", "sims", "seconds", "c", "rollout_weight", "margin_weight",
                               "seed", "heuristic", "noise", "noise_fraction", "temperature",
                               "fpu", "worlds", "luck", NULL};
    const char *fpu_name = "mean", *worlds_name = "fresh", *luck_name = "keep";
    PyObject *net_obj, *heuristic_obj, *noise_obj = Py_None;
    long long sims;
    unsigned long long seed;
    double seconds, c, rollout_weight, margin_weight, noise_fraction = 0.0, temperature = 1.0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OLddddKO|Oddsss", keywords, &net_obj, &sims,
                                     &seconds, &c, &rollout_weight, &margin_weight, &seed,
                                     &heuristic_obj, &noise_obj, &noise_fraction, &temperature,
                                     &fpu_name, &worlds_name, &luck_name))
        return NULL;
    const GnNet *net = gnet_from(net_obj);
    if (!net) return NULL;
    const char *problem = NULL;
    if (sims < 0 || !(seconds >= 0.0) || seconds > 3600.0 || (sims == 0 && seconds == 0.0))
        problem = "az_search needs a budget: sims >= 0 and 0 <= seconds <= 3600, not both 0";
    else if (!(c >= 0.0) || !isfinite(c)) problem = "az_search: c must be a finite number >= 0";
    else if (!(rollout_weight >= 0.0 && rollout_weight <= 1.0))
        problem = "az_search: rollout_weight must be in 0..1";
    else if (!isfinite(margin_weight)) problem = "az_search: margin_weight must be finite";
    else if (!(noise_fraction >= 0.0 && noise_fraction <= 1.0))
        problem = "az_search: noise_fraction must be in 0..1";
    else if (!(temperature > 0.0 && temperature <= 100.0))
        problem = "az_search: temperature must be in (0, 100]";
    else if (strcmp(fpu_name, "mean") != 0 && strcmp(fpu_name, "first") != 0)
        problem = "az_search: fpu must be mean or first";
    else if (strcmp(worlds_name, "fresh") != 0 && strcmp(worlds_name, "paired") != 0)
        problem = "az_search: worlds must be fresh or paired";
    else if (strcmp(luck_name, "keep") != 0 && strcmp(luck_name, "subtract") != 0)
        problem = "az_search: luck must be keep or subtract";
    else if (noise_fraction > 0.0 && noise_obj == Py_None)
        problem = "az_search: noise_fraction > 0 needs noise";
    else if (net->n_actions != NUM_ACTIONS)
        problem = "az_search: the network's action count is not this game's";
    else if (net->n_inputs != obs_size(self->game.num_players) ||
             net->n_values != self->game.num_players)
        problem = "az_search: the network is for another table size (observation or seats)";
    else if (self->game.phase == GAME_OVER) problem = "the game is over";
    if (problem) {
        PyErr_SetString(PyExc_ValueError, problem);
        return NULL;
    }
    typedef struct {
        SearchCopy copy;
        double noise[NUM_ACTIONS];
        int16_t root_action[NUM_ACTIONS];
        int32_t root_visits[NUM_ACTIONS];
        double root_mean[NUM_ACTIONS], root_prior[NUM_ACTIONS];
    } Work;
    Work *work = calloc(1, sizeof(Work));
    ShapeCache *cache = calloc(1, sizeof(ShapeCache));
    if (!work || !cache) {
        free(work);
        free(cache);
        return PyErr_NoMemory();
    }
    if (noise_obj != Py_None) {
        Py_buffer noise;
        if (PyObject_GetBuffer(noise_obj, &noise, PyBUF_SIMPLE) < 0) goto fail;
        int ok = noise.len == (Py_ssize_t)sizeof work->noise;
        if (ok) memcpy(work->noise, noise.buf, sizeof work->noise);
        PyBuffer_Release(&noise);
        for (int a = 0; ok && a < NUM_ACTIONS; a++) ok = isfinite(work->noise[a]) && work->noise[a] >= 0;
        if (!ok) {
            PyErr_Format(PyExc_ValueError,
                         "az_search: noise must be %d finite float64 values >= 0 (as bytes)",
                         NUM_ACTIONS);
            goto fail;
        }
    }
    SearchContext *context = search_copy(&work->copy, self, cache, margin_weight);
    context->keyed_dice = strcmp(worlds_name, "paired") == 0;
    context->track_luck = strcmp(luck_name, "subtract") == 0;
    if (parse_heuristic_config(heuristic_obj, &context->heuristic) < 0) goto fail;
    search_world(&work->copy.root, &self->game, context);
    GsOptions options = {
        .sims = sims, .seconds = seconds, .c = c, .max_rollout = SEARCH_MAX_ACTIONS,
        .rollout = -1, .playout = BOT_HEURISTIC, .net = net, .rollout_weight = rollout_weight,
        .noise = noise_obj != Py_None ? work->noise : NULL, .noise_fraction = noise_fraction,
        .temperature = temperature,
        .fpu = strcmp(fpu_name, "first") == 0 ? GS_FPU_FIRST : GS_FPU_MEAN,
        .paired_worlds = strcmp(worlds_name, "paired") == 0,
        .luck = context->track_luck,
    };
    GsResult result = {-1, 0, 0, 0, work->root_action, work->root_visits, work->root_mean, NULL,
                       0, work->root_prior, 0};
    int failed = run_search(&work->copy, &options, seed, &result);
    free(cache);
    PyObject *root = failed ? NULL
                            : root_rows(result.n_root, work->root_action, work->root_visits,
                                        work->root_mean, work->root_prior);
    PyObject *out = root ? Py_BuildValue("(iLiiNi(dddd))", result.action,
                                         (long long)result.simulations, result.evaluations,
                                         result.nodes, root, result.situations,
                                         result.luck_slopes[0], result.luck_slopes[1],
                                         result.luck_slopes[2], result.luck_slopes[3])
                         : NULL;
    free(work);
    return out;
fail:
    free(work);
    free(cache);
    return NULL;
}

/* scores() -> every seat's current score (E2) */
static PyObject *Game_scores(GameObject *self, PyObject *unused) {
    (void)unused;
    int16_t scores[MAX_PLAYERS];
    game_scores(&self->game, &self->core->cards, scores);
    PyObject *out = PyTuple_New(self->game.num_players);
    if (!out) return NULL;
    for (int p = 0; p < self->game.num_players; p++) PyTuple_SET_ITEM(out, p, PyLong_FromLong(scores[p]));
    return out;
}

/* result() -> (final scores, winners mask) once the game is over, else None (E2, E3) */
static PyObject *Game_result(GameObject *self, PyObject *unused) {
    (void)unused;
    if (self->game.phase != GAME_OVER) Py_RETURN_NONE;
    PyObject *scores = PyTuple_New(self->game.num_players);
    if (!scores) return NULL;
    for (int p = 0; p < self->game.num_players; p++)
        PyTuple_SET_ITEM(scores, p, PyLong_FromLong(self->game.final_scores[p]));
    return Py_BuildValue("(Ni)", scores, (int)self->game.winners_mask);
}

static PyObject *Game_get_current_player(GameObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->game.current_player);
}
static PyObject *Game_get_phase(GameObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->game.phase);
}
static PyObject *Game_get_num_players(GameObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->game.num_players);
}
static PyObject *Game_get_turn(GameObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->game.turn);
}
static PyObject *Game_get_core(GameObject *self, void *closure) {
    (void)closure;
    Py_INCREF(self->core);
    return (PyObject *)self->core;
}

static PyMethodDef Game_methods[] = {
    {"clone", (PyCFunction)Game_clone, METH_NOARGS, "An independent copy."},
    {"legal_actions", (PyCFunction)Game_legal_actions, METH_NOARGS, "The legal actions, sorted."},
    {"apply", (PyCFunction)Game_apply, METH_VARARGS, "Apply an action; returns the compact record."},
    {"export", (PyCFunction)Game_export, METH_NOARGS, "The whole state as (words, rng state)."},
    {"observe", (PyCFunction)Game_observe, METH_VARARGS, "Write a seat's observation into a float32 buffer."},
    {"attempt_odds", (PyCFunction)Game_attempt_odds, METH_VARARGS, "Exact odds counts of an attempt."},
    {"public_view", (PyCFunction)Game_public_view, METH_NOARGS, "The public view (docs/airships/RULES.md V1)."},
    {"determinize", (PyCFunction)Game_determinize, METH_VARARGS, "Hidden cards re-dealt with a generator."},
    {"bot_action", (PyCFunction)Game_bot_action, METH_VARARGS, "A native bot's choice."},
    {"az_search", (PyCFunction)(void (*)(void))Game_az_search, METH_VARARGS | METH_KEYWORDS,
     "PUCT search guided by a policy-value network (the generic search's net mode)."},
    {"search", (PyCFunction)(void (*)(void))Game_search, METH_VARARGS | METH_KEYWORDS,
     "ISMCTS for the player to act on the public view: (action, sims, actions, nodes, root)."},
    {"scores", (PyCFunction)Game_scores, METH_NOARGS, "Every seat's current score."},
    {"result", (PyCFunction)Game_result, METH_NOARGS, "(final scores, winners mask) or None."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Game_getset[] = {
    {"current_player", (getter)Game_get_current_player, NULL, "The seat to act.", NULL},
    {"phase", (getter)Game_get_phase, NULL, "The phase (0 choose target .. 3 game over).", NULL},
    {"num_players", (getter)Game_get_num_players, NULL, "The number of players.", NULL},
    {"turn", (getter)Game_get_turn, NULL, "The turn counter.", NULL},
    {"core", (getter)Game_get_core, NULL, "The card set and options.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject GameType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "airships_env.native._core.Game",
    .tp_basicsize = sizeof(GameObject),
    .tp_dealloc = (destructor)Game_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_methods = Game_methods,
    .tp_getset = Game_getset,
    .tp_doc = "One game in the native core (made by new_game or import_state).",
};

/* ------------------------------------------------------------------------------------------ */
/* Module                                                                                      */
/* ------------------------------------------------------------------------------------------ */
static PyObject *py_obs_size(PyObject *module, PyObject *arg) {
    (void)module;
    long n = PyLong_AsLong(arg);
    if (n == -1 && PyErr_Occurred()) return NULL;
    if (n < MIN_PLAYERS || n > MAX_PLAYERS) {
        PyErr_SetString(PyExc_ValueError, "num_players must be 2 to 4");
        return NULL;
    }
    return PyLong_FromLong(obs_size((int)n));
}

static PyObject *py_obs_high(PyObject *module, PyObject *arg) {
    (void)module;
    long n = PyLong_AsLong(arg);
    if (n == -1 && PyErr_Occurred()) return NULL;
    if (n < MIN_PLAYERS || n > MAX_PLAYERS) {
        PyErr_SetString(PyExc_ValueError, "num_players must be 2 to 4");
        return NULL;
    }
    const float *high = obs_high_table((int)n);
    int size = obs_size((int)n);
    PyObject *out = PyList_New(size);
    if (!out) return NULL;
    for (int i = 0; i < size; i++) PyList_SET_ITEM(out, i, PyFloat_FromDouble(high[i]));
    return out;
}

static PyMethodDef module_methods[] = {
    {"new_game", py_new_game, METH_VARARGS, "new_game(core, num_players, rng_state) -> Game"},
    {"import_state", py_import_state, METH_VARARGS, "import_state(core, words, rng_state) -> Game"},
    {"seed_sequence_state", py_seed_sequence_state, METH_VARARGS, "PCG64(SeedSequence(...)) state"},
    {"rng_draws", py_rng_draws, METH_VARARGS, "Draws of the engine's sampler (for tests)."},
    {"obs_size", py_obs_size, METH_O, "The observation length for a player count."},
    {"make_net", gnet_make, METH_VARARGS,
     "make_net(n_inputs, trunk_widths, value_hidden, n_actions, n_values, weights) -> net"},
    {"net_forward", gnet_forward_py, METH_VARARGS,
     "net_forward(net, observation) -> (logits, values): one forward pass."},
    {"obs_high", py_obs_high, METH_O, "The observation's upper bounds for a player count."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_core", "The native core of airships-env (see airships_env/native).", -1,
    module_methods,
};

PyMODINIT_FUNC PyInit__core(void) {
    odds_init_tables();
    obs_init_tables();
    if (PyType_Ready(&CoreType) < 0 || PyType_Ready(&GameType) < 0) return NULL;
    PyObject *module = PyModule_Create(&module_def);
    if (!module) return NULL;
    Py_INCREF(&CoreType);
    Py_INCREF(&GameType);
    if (PyModule_AddObject(module, "Core", (PyObject *)&CoreType) < 0 ||
        PyModule_AddObject(module, "Game", (PyObject *)&GameType) < 0 ||
        PyModule_AddIntConstant(module, "EXPORT_WORDS", EXPORT_WORDS) < 0 ||
        PyModule_AddIntConstant(module, "CARD_TABLE_WORDS", CARD_TABLE_WORDS) < 0 ||
        PyModule_AddIntConstant(module, "GS_MAX_WORLDS", GS_MAX_WORLDS) < 0 ||
        batch_register(module, &CoreType) < 0 || clockwork_register(module) < 0 ||
        australia_register(module) < 0 || nippon_register(module) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
