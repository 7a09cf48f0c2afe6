/* The CPython binding of Clockwork City's native core (clockwork.c), part of
 * ``airships_env.native._core``; airships_env/native/clockwork.py is its Python face.
 *
 *   cw_new(num_players, rng_state, options, counts, track) -> ClockworkGame   (S1-S4)
 *   cw_import(options, counts, track, state_dict) -> ClockworkGame            (a Python State)
 *   ClockworkGame.legal_actions() / apply(action, dice=None) / export() / clone()
 *
 * ``options`` is (white_field_exact, lucky_rolls == "anywhere", scrap_to == "discards",
 * discard_recall == "none", first_player == "roll", max_turns); ``counts`` the 14 card counts
 * of the player count and ``track`` (length, towers, (6 Scrapyard fields)), as the Python loader
 * validated them. Every argument is checked here again: a bad one is a Python exception, and the
 * core is never handed anything out of range. An illegal action raises the engines'
 * IllegalActionError with the Python engine's message and changes nothing.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <string.h>

#include "args.h"
#include "binding.h"
#include "clockwork_binding.h"
#include "gsearch.h"
#include "gsearch_binding.h"

typedef struct {
    PyObject_HEAD
    CwGame game;
} CwGameObject;

static PyTypeObject CwGameType;

/* -- argument checks ------------------------------------------------------------------------- */
static int int_in(PyObject *obj, long low, long high, const char *what, long *out) {
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: expected an integer, got %.100s", what,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    int overflow;
    long value = PyLong_AsLongAndOverflow(obj, &overflow);
    if (value == -1 && PyErr_Occurred()) return -1;
    if (overflow || value < low || value > high) {
        PyErr_Format(PyExc_ValueError, "%s: expected %ld..%ld, got %R", what, low, high, obj);
        return -1;
    }
    *out = value;
    return 0;
}

/* A sequence of exactly ``n`` integers in low..high. */
static int ints_in(PyObject *obj, int n, long low, long high, const char *what, long *out) {
    PyObject *fast = PySequence_Fast(obj, "expected a sequence of integers");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d integers, got %zd", what, n,
                     PySequence_Fast_GET_SIZE(fast));
        Py_DECREF(fast);
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (int_in(PySequence_Fast_GET_ITEM(fast, i), low, high, what, &out[i]) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    Py_DECREF(fast);
    return 0;
}

/* The rules' parameters for ``num_players`` (the checks of data.py and model.py, again). */
int cw_parse_config(PyObject *options, PyObject *counts, PyObject *track, int num_players,
                    CwConfig *c) {
    memset(c, 0, sizeof *c);
    if (!PyTuple_Check(options) || PyTuple_GET_SIZE(options) != 6) {
        PyErr_SetString(PyExc_TypeError,
                        "options must be a tuple (white_field_exact, lucky_anywhere, "
                        "scrap_to_discards, discard_recall_none, first_player_roll, max_turns)");
        return -1;
    }
    int flags[5];
    for (int i = 0; i < 5; i++) {
        PyObject *item = PyTuple_GET_ITEM(options, i);
        if (!PyBool_Check(item)) {
            PyErr_Format(PyExc_TypeError, "options[%d]: expected a bool, got %.100s", i,
                         Py_TYPE(item)->tp_name);
            return -1;
        }
        flags[i] = item == Py_True;
    }
    c->white_field_exact = (uint8_t)flags[0];
    c->lucky_anywhere = (uint8_t)flags[1];
    c->scrap_to_discards = (uint8_t)flags[2];
    c->discard_recall_none = (uint8_t)flags[3];
    c->first_player_roll = (uint8_t)flags[4];
    PyObject *max_turns = PyTuple_GET_ITEM(options, 5);
    if (!PyLong_Check(max_turns) || PyBool_Check(max_turns)) {
        PyErr_SetString(PyExc_TypeError, "options[5] (max_turns): expected an integer");
        return -1;
    }
    int overflow;
    long long turns = PyLong_AsLongLongAndOverflow(max_turns, &overflow);
    if (turns == -1 && PyErr_Occurred()) return -1;
    if (overflow < 0 || (!overflow && turns < 1)) {
        PyErr_Format(PyExc_ValueError, "max_turns: expected a positive integer, got %R", max_turns);
        return -1;
    }
    /* a limit beyond 2^40 turns is never reached: the same game as the exact product */
    const long long far = 1LL << 40;
    c->turn_limit = (overflow || turns > far ? far : turns) * num_players;
    /* the observation's turn / (max_turns * num_players): Python divides the exact integers;
     * their product as the nearest double gives the same quotient (exactly so below 2^53) */
    PyObject *seats_obj = PyLong_FromLong(num_players);
    PyObject *product = seats_obj ? PyNumber_Multiply(max_turns, seats_obj) : NULL;
    Py_XDECREF(seats_obj);
    if (!product) return -1;
    c->turn_scale = PyLong_AsDouble(product);
    Py_DECREF(product);
    if (c->turn_scale == -1.0 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
        PyErr_Clear();
        c->turn_scale = HUGE_VAL; /* beyond any double: the quotient is 0, as in Python */
    }

    long values[CW_NUM_TYPES];
    if (ints_in(counts, CW_NUM_TYPES, 0, CW_MAX_TYPE_COUNT, "counts", values) < 0) return -1;
    long total = 0;
    for (int t = 0; t < CW_NUM_TYPES; t++) {
        if (t < CW_AS && values[t] != 0 && values[t] != CW_MACHINE_PARTS) {
            PyErr_Format(PyExc_ValueError, "counts[%d]: a machine has 0 or %d parts, got %ld", t,
                         CW_MACHINE_PARTS, values[t]);
            return -1;
        }
        c->counts[t] = (int8_t)values[t];
        total += values[t];
    }
    if (total < CW_HAND_LIMIT * num_players + CW_NUM_YARDS) {
        PyErr_Format(PyExc_ValueError,
                     "counts: %ld cards cannot deal 7 to each of %d players and one to each "
                     "Scrapyard",
                     total, num_players);
        return -1;
    }
    if (!PyTuple_Check(track) || PyTuple_GET_SIZE(track) != 3) {
        PyErr_SetString(PyExc_TypeError, "track must be a tuple (length, towers, scrapyards)");
        return -1;
    }
    long length, towers, yards[CW_NUM_YARDS];
    if (int_in(PyTuple_GET_ITEM(track, 0), CW_MIN_TRACK, CW_MAX_TRACK, "track length", &length) < 0 ||
        int_in(PyTuple_GET_ITEM(track, 1), 0, length - 1, "track towers", &towers) < 0 ||
        ints_in(PyTuple_GET_ITEM(track, 2), CW_NUM_YARDS, 0, length - 1, "track scrapyards",
                yards) < 0)
        return -1;
    c->length = (int16_t)length;
    c->towers = (int16_t)towers;
    for (int k = 0; k < CW_NUM_YARDS; k++) {
        c->yards[k] = (int16_t)yards[k];
        int clash = yards[k] == towers;
        for (int j = 0; j < k; j++) clash |= yards[j] == yards[k];
        if (clash) {
            PyErr_SetString(PyExc_ValueError,
                            "track: the Towers and the six Scrapyards need seven distinct fields");
            return -1;
        }
    }
    cw_config_finish(c);
    return 0;
}

static CwGameObject *cw_alloc(void) {
    CwGameObject *self = PyObject_New(CwGameObject, &CwGameType);
    if (self) memset(&self->game, 0, sizeof self->game);
    return self;
}

/* cw_new(num_players, rng_state, options, counts, track) -> ClockworkGame */
static PyObject *py_cw_new(PyObject *module, PyObject *args) {
    PyObject *players_obj, *rng_obj, *options, *counts, *track;
    (void)module;
    if (!PyArg_ParseTuple(args, "OOOOO", &players_obj, &rng_obj, &options, &counts, &track))
        return NULL;
    long players;
    if (int_in(players_obj, CW_MIN_PLAYERS, CW_MAX_PLAYERS, "num_players", &players) < 0)
        return NULL;
    CwConfig config;
    if (cw_parse_config(options, counts, track, (int)players, &config) < 0) return NULL;
    Rng rng;
    if (rng_from_tuple(rng_obj, &rng) < 0) return NULL;
    if (!rng.present) {
        PyErr_SetString(PyExc_ValueError, "a new game needs a generator");
        return NULL;
    }
    CwGameObject *self = cw_alloc();
    if (!self) return NULL;
    cw_new_game(&self->game, &config, (int)players, &rng);
    return (PyObject *)self;
}

/* -- import: a Python State's to_dict() (the generator as a state tuple) -------------------- */
static int get_int(PyObject *dict, const char *key, long low, long high, long *out) {
    PyObject *value = arg_item(dict, key);
    return value ? int_in(value, low, high, key, out) : -1;
}

static int get_ints8(PyObject *dict, const char *key, int n, long low, long high, int8_t *out) {
    PyObject *value = arg_item(dict, key);
    long values[CW_NUM_PLACES];
    if (!value || ints_in(value, n, low, high, key, values) < 0) return -1;
    for (int i = 0; i < n; i++) out[i] = (int8_t)values[i];
    return 0;
}

/* A list of ``rows`` rows of ``n`` integers in low..high (hands, known). */
static int get_rows(PyObject *rows_obj, const char *key, int rows, int n, long low, long high,
                    int8_t *out) {
    PyObject *fast = PySequence_Fast(rows_obj, "expected a list of rows");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != rows) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d rows", key, rows);
        Py_DECREF(fast);
        return -1;
    }
    long values[CW_NUM_TYPES];
    for (int r = 0; r < rows; r++) {
        if (ints_in(PySequence_Fast_GET_ITEM(fast, r), n, low, high, key, values) < 0) {
            Py_DECREF(fast);
            return -1;
        }
        for (int i = 0; i < n; i++) out[r * n + i] = (int8_t)values[i];
    }
    Py_DECREF(fast);
    return 0;
}

static int import_state(CwGame *g, PyObject *d) {
    long v;
    int n = g->num_players;
    long last_type = CW_NUM_TYPES - 1;
    PyObject *hands = arg_item(d, "hands");
    if (!hands || get_rows(hands, "hands", n, CW_NUM_TYPES, 0, CW_MAX_TYPE_COUNT, &g->hands[0][0]) < 0)
        return -1;
    if (get_ints8(d, "laid_fm", n, -1, CW_NUM_FM - 1, g->laid_fm) < 0 ||
        get_ints8(d, "laid_cb", n, -1, CW_FIRST_CB + CW_NUM_CB - 1, g->laid_cb) < 0)
        return -1;
    for (int s = 0; s < n; s++)
        if (g->laid_cb[s] >= 0 && g->laid_cb[s] < CW_FIRST_CB) {
            PyErr_SetString(PyExc_ValueError, "laid_cb: expected -1 or a CB type");
            return -1;
        }
    PyObject *piles = arg_item(d, "piles");
    if (!piles) return -1;
    PyObject *fast = PySequence_Fast(piles, "piles: expected a list of 6 lists");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != CW_NUM_YARDS) {
        PyErr_SetString(PyExc_ValueError, "piles: expected 6 piles");
        Py_DECREF(fast);
        return -1;
    }
    for (int k = 0; k < CW_NUM_YARDS; k++) {
        PyObject *pile = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, k), "piles: expected lists");
        if (!pile) {
            Py_DECREF(fast);
            return -1;
        }
        Py_ssize_t size = PySequence_Fast_GET_SIZE(pile);
        int bad = size > CW_MAX_DECK;
        if (bad) PyErr_Format(PyExc_ValueError, "piles[%d]: at most %d cards", k, CW_MAX_DECK);
        for (Py_ssize_t i = 0; !bad && i < size; i++) {
            bad = int_in(PySequence_Fast_GET_ITEM(pile, i), 0, last_type, "piles", &v) < 0;
            g->piles[k][i] = (int8_t)v;
        }
        g->pile_size[k] = (int8_t)size;
        Py_DECREF(pile);
        if (bad) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    if (get_ints8(d, "places", CW_NUM_PLACES, -1, last_type, g->places) < 0) return -1;
    if (get_int(d, "removed_scrap", 0, 32000, &v) < 0) return -1;
    g->removed_scrap = (int16_t)v;
    long pawns[CW_MAX_PLAYERS];
    PyObject *pawns_obj = arg_item(d, "pawns");
    if (!pawns_obj || ints_in(pawns_obj, n, 0, g->config.length - 1, "pawns", pawns) < 0) return -1;
    for (int s = 0; s < n; s++) g->pawns[s] = (int16_t)pawns[s];
    if (get_int(d, "start_player", 0, n - 1, &v) < 0) return -1;
    g->start_player = (int8_t)v;
    if (get_int(d, "current", 0, n - 1, &v) < 0) return -1;
    g->current = (int8_t)v;
    if (get_int(d, "actor", 0, n - 1, &v) < 0) return -1;
    g->actor = (int8_t)v;
    if (get_int(d, "phase", 0, CW_OVER, &v) < 0) return -1;
    g->phase = (int8_t)v;
    if (get_ints8(d, "dice", 2, 0, 6, g->dice) < 0) return -1;
    if (get_int(d, "turn", 1, 1L << 30, &v) < 0) return -1;
    g->turn = (int32_t)v;
    if (get_int(d, "step", 0, 1L << 30, &v) < 0) return -1;
    g->step = (int32_t)v;
    if (get_int(d, "turn_start_field", 0, g->config.length - 1, &v) < 0) return -1;
    g->turn_start_field = (int16_t)v;
    PyObject *endgame = arg_item(d, "endgame");
    if (!endgame) return -1;
    int truth = PyObject_IsTrue(endgame);
    if (truth < 0) return -1;
    g->endgame = (int8_t)truth;
    if (get_ints8(d, "challenge", 4, -1, last_type, g->challenge) < 0) return -1;
    int ph = g->phase;
    if (ph == CW_DEMAND || ph == CW_RESPOND || ph == CW_COUNTER || ph == CW_GIVE_BACK) {
        /* the challenge's seats index the hands; the named type the respond actions */
        int ok = g->challenge[0] >= 0 && g->challenge[0] < n && g->challenge[1] >= 0 &&
                 g->challenge[1] < n && g->challenge[0] != g->challenge[1] &&
                 (ph != CW_RESPOND || (g->challenge[2] >= 0 && g->challenge[2] < CW_SCRAP));
        if (!ok) {
            PyErr_Format(PyExc_ValueError, "challenge: %d %d %d does not fit phase '%s'",
                         g->challenge[0], g->challenge[1], g->challenge[2], cw_phase_name(ph));
            return -1;
        }
    }
    if (get_int(d, "seek_type", -1, CW_NUM_NAMEABLE - 1, &v) < 0) return -1;
    g->seek_type = (int8_t)v;
    if (get_int(d, "winner", -1, n - 1, &v) < 0) return -1;
    g->winner = (int8_t)v;
    PyObject *known = arg_item(d, "known");
    if (!known) return -1;
    fast = PySequence_Fast(known, "known: expected a list per observer");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "known: expected %d observers", n);
        Py_DECREF(fast);
        return -1;
    }
    for (int o = 0; o < n; o++)
        if (get_rows(PySequence_Fast_GET_ITEM(fast, o), "known", n, CW_NUM_TYPES, 0,
                     CW_MAX_TYPE_COUNT, &g->known[o][0][0]) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    Py_DECREF(fast);
    PyObject *view_seat = arg_item(d, "view_seat");
    if (!view_seat || int_in(view_seat, -1, -1, "view_seat (a view cannot be played)", &v) < 0)
        return -1;
    PyObject *rng = arg_item(d, "rng");
    return rng ? rng_from_tuple(rng, &g->rng) : -1;
}

/* cw_import(options, counts, track, state) -> ClockworkGame; ``state`` a State.to_dict() with
 * its "rng" as a generator state tuple or None. */
static PyObject *py_cw_import(PyObject *module, PyObject *args) {
    PyObject *options, *counts, *track, *state;
    (void)module;
    if (!PyArg_ParseTuple(args, "OOOO!", &options, &counts, &track, &PyDict_Type, &state))
        return NULL;
    long players;
    PyObject *players_obj = arg_item(state, "num_players");
    if (!players_obj ||
        int_in(players_obj, CW_MIN_PLAYERS, CW_MAX_PLAYERS, "num_players", &players) < 0)
        return NULL;
    CwGameObject *self = cw_alloc();
    if (!self) return NULL;
    self->game.num_players = (int8_t)players;
    if (cw_parse_config(options, counts, track, (int)players, &self->game.config) < 0 ||
        import_state(&self->game, state) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

/* -- the game object ------------------------------------------------------------------------- */
static void CwGame_dealloc(CwGameObject *self) { PyObject_Free(self); }

static PyObject *CwGame_clone(CwGameObject *self, PyObject *unused) {
    (void)unused;
    CwGameObject *copy = cw_alloc();
    if (copy) copy->game = self->game;
    return (PyObject *)copy;
}

static PyObject *legal_list(const CwGame *g) {
    int16_t legal[CW_NUM_ACTIONS];
    return arg_action_list(legal, cw_legal_actions(g, legal));
}

static PyObject *CwGame_legal_actions(CwGameObject *self, PyObject *unused) {
    (void)unused;
    return legal_list(&self->game);
}

/* IllegalActionError(action, phase name, legal, names, why), as the Python engine raises it. */
static PyObject *illegal(CwGameObject *self, PyObject *action) {
    const CwGame *g = &self->game;
    PyObject *legal = legal_list(g);
    PyObject *names = legal ? arg_action_names(legal, cw_action_name) : NULL;
    const char *why = g->phase == CW_OVER ? "the game is over" : "not among the legal actions";
    return arg_raise_illegal(action, cw_phase_name(g->phase), legal, names, why);
}

/* The record as (step, turn, player, action, dice|None, drawn, turned, given, laid, winner),
 * None for each absent value (records.ActionRecord without the name). */
static PyObject *record_tuple(const CwRecord *r) {
    PyObject *laid = PyTuple_New(r->n_laid);
    if (!laid) return NULL;
    for (int i = 0; i < r->n_laid; i++) {
        PyObject *pair = Py_BuildValue("(ii)", r->laid[i][0], r->laid[i][1]);
        if (!pair) {
            Py_DECREF(laid);
            return NULL;
        }
        PyTuple_SET_ITEM(laid, i, pair);
    }
#define OPT(x) ((x) >= 0 ? PyLong_FromLong(x) : Py_NewRef(Py_None))
    PyObject *dice = r->dice[0] ? Py_BuildValue("(ii)", r->dice[0], r->dice[1]) : Py_NewRef(Py_None);
    return Py_BuildValue("(iiiiNNNNNN)", r->step, r->turn, r->player, r->action, dice,
                         OPT(r->drawn), OPT(r->turned), OPT(r->given), laid, OPT(r->winner));
#undef OPT
}

/* apply(action, dice=None) -> record tuple */
static PyObject *CwGame_apply(CwGameObject *self, PyObject *args) {
    PyObject *action_obj, *dice_obj = Py_None;
    if (!PyArg_ParseTuple(args, "O|O", &action_obj, &dice_obj)) return NULL;
    if (!PyLong_Check(action_obj) || PyBool_Check(action_obj)) {
        PyErr_Format(PyExc_TypeError, "action: expected an integer, got %.100s",
                     Py_TYPE(action_obj)->tp_name);
        return NULL;
    }
    int overflow;
    long action = PyLong_AsLongAndOverflow(action_obj, &overflow);
    if (action == -1 && PyErr_Occurred()) return NULL;
    if (overflow || action < 0 || action >= CW_NUM_ACTIONS) return illegal(self, action_obj);
    int8_t dice[2];
    const int8_t *forced = NULL;
    if (dice_obj != Py_None) {
        long faces[2];
        if (ints_in(dice_obj, 2, 1, 6, "forced dice (two faces 1..6)", faces) < 0) return NULL;
        dice[0] = (int8_t)faces[0];
        dice[1] = (int8_t)faces[1];
        forced = dice;
    }
    CwRecord record;
    int code = cw_apply(&self->game, (int)action, forced, &record);
    switch (code) {
    case CW_OK: return record_tuple(&record);
    case CW_ILLEGAL: return illegal(self, action_obj);
    case CW_NO_RNG: {
        const char *message = "this state has no generator: force the dice or determinize it";
        PyObject *error_args = Py_BuildValue("(s)", message);
        arg_raise_typed("airships_env.games.clockwork.engine.rules", "ViewError", error_args,
                        message);
        Py_XDECREF(error_args);
        return NULL;
    }
    case CW_NO_PLACE:
        PyErr_SetString(PyExc_ValueError,
                        "no free place to lay a card face down: all 58 places are taken (a data "
                        "file with more cards than the action table's places)");
        return NULL;
    default: PyErr_SetString(PyExc_ValueError, "forced dice must be two faces 1..6"); return NULL;
    }
}

#define SET(key, value)                                                  \
    do {                                                                 \
        PyObject *item_ = (value);                                       \
        if (!item_ || PyDict_SetItemString(out, key, item_) < 0) {       \
            Py_XDECREF(item_);                                           \
            Py_DECREF(out);                                              \
            return NULL;                                                 \
        }                                                                \
        Py_DECREF(item_);                                                \
    } while (0)

static PyObject *int_list(const int8_t *values, int n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *item = PyLong_FromLong(values[i]);
        if (!item) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

static PyObject *rows_list(const int8_t *values, int rows, int n) {
    PyObject *list = PyList_New(rows);
    if (!list) return NULL;
    for (int r = 0; r < rows; r++) {
        PyObject *row = int_list(values + r * n, n);
        if (!row) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, r, row);
    }
    return list;
}

/* The state as State.to_dict()'s fields (the generator as a state tuple). */
PyObject *cw_export_dict(const CwGame *g) {
    int n = g->num_players;
    PyObject *out = PyDict_New();
    if (!out) return NULL;
    SET("num_players", PyLong_FromLong(n));
    SET("hands", rows_list(&g->hands[0][0], n, CW_NUM_TYPES));
    SET("laid_fm", int_list(g->laid_fm, n));
    SET("laid_cb", int_list(g->laid_cb, n));
    PyObject *piles = PyList_New(CW_NUM_YARDS);
    if (!piles) {
        Py_DECREF(out);
        return NULL;
    }
    for (int k = 0; k < CW_NUM_YARDS; k++) {
        PyObject *pile = int_list(g->piles[k], g->pile_size[k]);
        if (!pile) {
            Py_DECREF(piles);
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(piles, k, pile);
    }
    SET("piles", piles);
    SET("places", int_list(g->places, CW_NUM_PLACES));
    SET("removed_scrap", PyLong_FromLong(g->removed_scrap));
    PyObject *pawns = PyList_New(n);
    if (!pawns) {
        Py_DECREF(out);
        return NULL;
    }
    for (int s = 0; s < n; s++) PyList_SET_ITEM(pawns, s, PyLong_FromLong(g->pawns[s]));
    SET("pawns", pawns);
    SET("start_player", PyLong_FromLong(g->start_player));
    SET("current", PyLong_FromLong(g->current));
    SET("actor", PyLong_FromLong(g->actor));
    SET("phase", PyLong_FromLong(g->phase));
    SET("dice", int_list(g->dice, 2));
    SET("turn", PyLong_FromLong(g->turn));
    SET("step", PyLong_FromLong(g->step));
    SET("turn_start_field", PyLong_FromLong(g->turn_start_field));
    SET("endgame", PyBool_FromLong(g->endgame));
    SET("challenge", int_list(g->challenge, 4));
    SET("seek_type", PyLong_FromLong(g->seek_type));
    SET("winner", PyLong_FromLong(g->winner));
    PyObject *known = PyList_New(n);
    if (!known) {
        Py_DECREF(out);
        return NULL;
    }
    for (int o = 0; o < n; o++) {
        PyObject *rows = rows_list(&g->known[o][0][0], n, CW_NUM_TYPES);
        if (!rows) {
            Py_DECREF(known);
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(known, o, rows);
    }
    SET("known", known);
    SET("rng", rng_to_tuple(&g->rng));
    SET("view_seat", PyLong_FromLong(-1));
    return out;
}
#undef SET

/* export() -> the state as State.to_dict()'s fields (the generator as a state tuple). */
static PyObject *CwGame_export(CwGameObject *self, PyObject *unused) {
    (void)unused;
    return cw_export_dict(&self->game);
}

/* observe(seat, out): ``seat``'s observation into ``out`` (a writable float32 buffer of
 * CW_OBS_SIZE items). */
static PyObject *CwGame_observe(CwGameObject *self, PyObject *args) {
    PyObject *seat_obj, *out_obj;
    if (!PyArg_ParseTuple(args, "OO", &seat_obj, &out_obj)) return NULL;
    long seat;
    if (arg_int(seat_obj, 0, self->game.num_players - 1, "seat", &seat) < 0) return NULL;
    Py_buffer out;
    if (arg_float_out(out_obj, CW_OBS_SIZE, &out) < 0) return NULL;
    cw_observe(&self->game, (int)seat, (float *)out.buf);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

/* bot_action(kind, rng_state, threshold) -> (action, rng_state after): the native bot ``kind``
 * (1 random, 2 greedy, 3 heuristic) choosing for the seat to act with its own generator. */
static PyObject *CwGame_bot_action(CwGameObject *self, PyObject *args) {
    PyObject *kind_obj, *rng_obj;
    double threshold;
    if (!PyArg_ParseTuple(args, "OOd", &kind_obj, &rng_obj, &threshold)) return NULL;
    long kind;
    if (int_in(kind_obj, CW_BOT_RANDOM, CW_BOT_HEURISTIC, "bot kind (1 random, 2 greedy, "
               "3 heuristic)", &kind) < 0)
        return NULL;
    if (!(threshold == threshold)) {
        PyErr_SetString(PyExc_ValueError, "threshold: expected a number, got NaN");
        return NULL;
    }
    Rng rng;
    if (gsb_bot_rng(rng_obj, self->game.phase == CW_OVER, &rng) < 0) return NULL;
    int action = cw_bot_action(&self->game, (int)kind, threshold, &rng);
    return Py_BuildValue("(iN)", action, rng_to_tuple(&rng));
}

/* view(seat) -> ClockworkGame: ``seat``'s view (cw_view), without a generator. */
static PyObject *CwGame_view(CwGameObject *self, PyObject *args) {
    long seat;
    if (gsb_seat_arg(args, self->game.num_players, &seat) < 0) return NULL;
    CwGameObject *out = cw_alloc();
    if (out) cw_view(&self->game, (int)seat, &out->game);
    return (PyObject *)out;
}

/* determinize(seat, rng_state) -> (ClockworkGame, rng_state after): a world consistent with
 * ``seat``'s view (cw_determinize), drawn from the generator given. */
static PyObject *CwGame_determinize(CwGameObject *self, PyObject *args) {
    long seat;
    Rng rng;
    if (gsb_seat_rng_args(args, self->game.num_players, &seat, &rng,
                          "a determinization needs a generator") < 0)
        return NULL;
    CwGameObject *out = cw_alloc();
    if (!out) return NULL;
    cw_determinize(&self->game, (int)seat, &rng, &out->game);
    return Py_BuildValue("(NN)", (PyObject *)out, rng_to_tuple(&rng));
}

/* evaluate() -> each seat's value (evaluate.evaluate) of an unfinished game. */
static PyObject *CwGame_evaluate(CwGameObject *self, PyObject *unused) {
    (void)unused;
    double values[CW_MAX_PLAYERS];
    cw_evaluate_values(&self->game, values);
    return gsb_float_list(values, self->game.num_players);
}

/* rollout_action(rng_state) -> (action, rng_state after): rollout.rollout_action. */
static PyObject *CwGame_rollout_action(CwGameObject *self, PyObject *args) {
    Rng rng;
    if (gsb_rng_arg(args, &rng, "a rollout policy needs a generator") < 0) return NULL;
    if (self->game.phase == CW_OVER) {
        PyErr_SetString(PyExc_ValueError, "the game is over: no action to choose");
        return NULL;
    }
    int action = cw_rollout_action(&self->game, &rng);
    return Py_BuildValue("(iN)", action, rng_to_tuple(&rng));
}

/* search(seat, (sims, seconds, c, max_rollout, rollout, prior, bias, playout), rng_state)
 *   -> (action, simulations, nodes, rng_state after, ((action, visits, mean), ...))
 * The generic ISMCTS (gsearch.c) for ``seat``, who must be the seat to act, from this game as
 * the seat sees it (a view or the true state: only the seat's view is read); the GIL is
 * released while it runs. sims 0: no simulation budget; seconds 0: no time budget (one is set);
 * rollout -1: rollouts to the end; prior, playout 0: none, else a bot kind (1..3). */
static PyObject *CwGame_search(CwGameObject *self, PyObject *args) {
    GsbCall call;
    if (gsb_parse(args, 0, self->game.num_players, CW_BOT_HEURISTIC, &call) < 0 ||
        gsb_turn(&call, self->game.phase == CW_OVER, self->game.actor) < 0)
        return NULL;
    CwGame root = self->game; /* the object may change while the GIL is released */
    return gsb_run(&call, &GS_CLOCKWORK, &root, NULL, NULL,
                   "search: a simulated game has no free place left to lay a card (the data "
                   "file's limit)");
}

static PyObject *CwGame_get_actor(CwGameObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->game.actor);
}

static PyObject *CwGame_get_phase(CwGameObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->game.phase);
}

static PyObject *CwGame_get_num_players(CwGameObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->game.num_players);
}

static PyObject *CwGame_get_winner(CwGameObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->game.winner);
}

static PyMethodDef CwGame_methods[] = {
    {"clone", (PyCFunction)CwGame_clone, METH_NOARGS, "An independent copy."},
    {"legal_actions", (PyCFunction)CwGame_legal_actions, METH_NOARGS, "The legal actions, sorted."},
    {"apply", (PyCFunction)CwGame_apply, METH_VARARGS,
     "apply(action, dice=None) -> (step, turn, player, action, dice, drawn, turned, given, laid, "
     "winner)"},
    {"export", (PyCFunction)CwGame_export, METH_NOARGS, "The state as State.to_dict()'s fields."},
    {"observe", (PyCFunction)CwGame_observe, METH_VARARGS,
     "observe(seat, out): the seat's observation into a float32 buffer of CW_OBS_SIZE items."},
    {"view", (PyCFunction)CwGame_view, METH_VARARGS, "view(seat): the seat's view (no generator)."},
    {"determinize", (PyCFunction)CwGame_determinize, METH_VARARGS,
     "determinize(seat, rng_state) -> (world, rng_state after)."},
    {"evaluate", (PyCFunction)CwGame_evaluate, METH_NOARGS, "Each seat's value (evaluate.py)."},
    {"rollout_action", (PyCFunction)CwGame_rollout_action, METH_VARARGS,
     "rollout_action(rng_state) -> (action, rng_state after) (rollout.py)."},
    {"search", (PyCFunction)CwGame_search, METH_VARARGS,
     "search(seat, options, rng_state) -> (action, simulations, nodes, rng_state, root)."},
    {"bot_action", (PyCFunction)CwGame_bot_action, METH_VARARGS,
     "bot_action(kind, rng_state, threshold) -> (action, rng_state after)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef CwGame_getset[] = {
    {"current_player", (getter)CwGame_get_actor, NULL, "The seat to act.", NULL},
    {"phase", (getter)CwGame_get_phase, NULL, "The phase (0 roll .. 9 over).", NULL},
    {"num_players", (getter)CwGame_get_num_players, NULL, "The number of players.", NULL},
    {"winner", (getter)CwGame_get_winner, NULL, "The winning seat, or -1.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject CwGameType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "airships_env.native._core.ClockworkGame",
    .tp_basicsize = sizeof(CwGameObject),
    .tp_dealloc = (destructor)CwGame_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_methods = CwGame_methods,
    .tp_getset = CwGame_getset,
    .tp_doc = "One game of Escape from Clockwork City in the native core (cw_new, cw_import).",
};

/* cw_random_games(num_players, games, seed, options, counts, track) -> actions applied: random
 * legal play in the core alone (the engine benchmark), the GIL released. Game g deals from
 * PCG64(SeedSequence(seed, spawn_key=(g, 0))) and chooses uniform_below(number of legal actions)
 * from (g, 1), as Airships' random_games does; a game stops after CW_RANDOM_GAME_STEPS actions
 * (or when a data file of more than 58 cards leaves no free place, see cw_apply). */
#define CW_RANDOM_GAME_STEPS 1000000
static PyObject *py_cw_random_games(PyObject *module, PyObject *args) {
    PyObject *players_obj, *games_obj, *seed_obj, *options, *counts, *track;
    (void)module;
    if (!PyArg_ParseTuple(args, "OOOOOO", &players_obj, &games_obj, &seed_obj, &options, &counts,
                          &track))
        return NULL;
    long players, games, seed;
    if (int_in(players_obj, CW_MIN_PLAYERS, CW_MAX_PLAYERS, "num_players", &players) < 0 ||
        int_in(games_obj, 0, 1L << 30, "games", &games) < 0 ||
        int_in(seed_obj, 0, 0xFFFFFFFFL, "seed (a 32-bit word)", &seed) < 0)
        return NULL;
    CwConfig config;
    if (cw_parse_config(options, counts, track, (int)players, &config) < 0) return NULL;
    long long actions = 0;
    uint32_t entropy = (uint32_t)seed;
    Py_BEGIN_ALLOW_THREADS
    CwGame game;
    CwRecord record;
    int16_t legal[CW_NUM_ACTIONS];
    for (long g = 0; g < games; g++) {
        Rng deal, choices;
        uint32_t spawn[2] = {(uint32_t)g, 0};
        rng_seed_sequence(&deal, &entropy, 1, spawn, 2);
        spawn[1] = 1;
        rng_seed_sequence(&choices, &entropy, 1, spawn, 2);
        cw_new_game(&game, &config, (int)players, &deal);
        long steps = 0;
        while (game.phase != CW_OVER && steps < CW_RANDOM_GAME_STEPS) {
            int n = cw_legal_actions(&game, legal);
            int action = legal[uniform_below(&choices, (uint64_t)n)];
            if (cw_apply_legal(&game, action, NULL, &record) != CW_OK) break; /* no free place */
            steps++;
        }
        actions += steps;
    }
    Py_END_ALLOW_THREADS
    return PyLong_FromLongLong(actions);
}

/* numpy_permutation(values, rng_state) -> (values permuted, rng_state after): the shared
 * numpy_permute_i8 on small integers (-128..127, at most 256 of them), for the tests that hold it
 * to numpy's ``Generator.permutation``. */
static PyObject *py_numpy_permutation(PyObject *module, PyObject *args) {
    PyObject *values_obj, *rng_obj;
    (void)module;
    if (!PyArg_ParseTuple(args, "OO", &values_obj, &rng_obj)) return NULL;
    PyObject *fast = PySequence_Fast(values_obj, "values: expected a sequence of integers");
    if (!fast) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > 256) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "values: at most 256 items, got %zd", n);
        return NULL;
    }
    int8_t items[256];
    for (Py_ssize_t i = 0; i < n; i++) {
        long v;
        if (int_in(PySequence_Fast_GET_ITEM(fast, i), -128, 127, "values", &v) < 0) {
            Py_DECREF(fast);
            return NULL;
        }
        items[i] = (int8_t)v;
    }
    Py_DECREF(fast);
    Rng rng;
    if (rng_from_tuple(rng_obj, &rng) < 0) return NULL;
    if (!rng.present) {
        PyErr_SetString(PyExc_ValueError, "a permutation needs a generator");
        return NULL;
    }
    numpy_permute_i8(&rng, items, (int)n);
    return Py_BuildValue("(NN)", int_list(items, (int)n), rng_to_tuple(&rng));
}

static PyMethodDef clockwork_functions[] = {
    {"numpy_permutation", py_numpy_permutation, METH_VARARGS,
     "numpy_permutation(values, rng_state) -> (permuted, rng_state after)."},
    {"cw_random_games", py_cw_random_games, METH_VARARGS,
     "cw_random_games(num_players, games, seed, options, counts, track) -> actions applied"},
    {"cw_new", py_cw_new, METH_VARARGS,
     "cw_new(num_players, rng_state, options, counts, track) -> ClockworkGame"},
    {"cw_import", py_cw_import, METH_VARARGS,
     "cw_import(options, counts, track, state_dict) -> ClockworkGame"},
    {NULL, NULL, 0, NULL},
};

int clockwork_register(PyObject *module) {
    if (PyType_Ready(&CwGameType) < 0) return -1;
    Py_INCREF(&CwGameType);
    if (PyModule_AddObject(module, "ClockworkGame", (PyObject *)&CwGameType) < 0) return -1;
    if (PyModule_AddIntConstant(module, "CW_NUM_ACTIONS", CW_NUM_ACTIONS) < 0) return -1;
    if (PyModule_AddIntConstant(module, "CW_OBS_SIZE", CW_OBS_SIZE) < 0) return -1;
    if (clockwork_batch_register(module) < 0) return -1;
    return PyModule_AddFunctions(module, clockwork_functions);
}
