/* The CPython binding of Australia's native core (australia.c), part of
 * ``airships_env.native._core``; airships_env/native/australia.py is its Python face.
 *
 *   au_new(num_players, rng_state, options, map, components) -> AustraliaGame   (S1-S3)
 *   au_import(options, map, components, state_dict) -> AustraliaGame            (a Python State)
 *   au_random_games(num_players, games, seed, options, map, components) -> actions applied
 *   AustraliaGame.legal_actions() / apply(action) / export() / clone() / observe(seat, out)
 *   AustraliaGame.bot_action(kind, rng) / view(seat) / determinize(seat, rng) / evaluate()
 *   AustraliaGame.rollout_action(rng) / search(seat, options, rng)   (australia_search.c)
 *
 * ``options`` is (full_game, recolour_anywhere, stack_cards, max_rounds); ``map`` is
 * (24 region colours, ((kind, (regions...)), ...) one per location); ``components`` is
 * (cards [back][colour], tile counts per value 4..9, windmill flags per value, rangers of this
 * player count, windmill start, windmill max, tile areas, ranger areas), as the Python loader
 * validated them. Every argument is checked here again: a bad one is a Python exception, and the
 * core is never handed anything out of range. An illegal action raises the engines'
 * IllegalActionError with the Python engine's message and changes nothing.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <string.h>

#include "args.h"
#include "australia.h"
#include "australia_binding.h"
#include "binding.h"
#include "gsearch.h"
#include "gsearch_binding.h"

typedef struct {
    PyObject_HEAD
    AuGame game;
} AuGameObject;

static PyTypeObject AuGameType;

static const char *const KIND_NAMES[3] = {"conservation", "industrialization", "windmill"};

/* -- the rules' parameters ------------------------------------------------------------------- */
static int parse_options(PyObject *options, AuConfig *c, PyObject **stack_cards_obj) {
    if (!PyTuple_Check(options) || PyTuple_GET_SIZE(options) != 4) {
        PyErr_SetString(PyExc_TypeError,
                        "options must be a tuple (full_game, recolour_anywhere, stack_cards, "
                        "max_rounds)");
        return -1;
    }
    int full, anywhere;
    if (arg_bool(PyTuple_GET_ITEM(options, 0), "options[0] (full_game)", &full) < 0 ||
        arg_bool(PyTuple_GET_ITEM(options, 1), "options[1] (recolour_anywhere)", &anywhere) < 0)
        return -1;
    c->full_game = (uint8_t)full;
    c->recolour_anywhere = (uint8_t)anywhere;
    long long stack_cards, max_rounds;
    *stack_cards_obj = PyTuple_GET_ITEM(options, 2);
    /* more cards than any back can hold is refused at setup (au_new), as new_game does */
    if (arg_positive_capped(*stack_cards_obj, 3, AU_MAX_STACK + 1, "stack_cards", &stack_cards) < 0)
        return -1;
    c->stack_cards = (int16_t)stack_cards;
    /* a limit beyond 2^40 rounds is never reached: the same game as the exact limit */
    if (arg_positive_capped(PyTuple_GET_ITEM(options, 3), 1, 1LL << 40, "max_rounds",
                            &max_rounds) < 0)
        return -1;
    c->max_rounds = max_rounds;
    /* the observation's round / max_rounds: Python divides the exact integers; the limit as the
     * nearest double gives the same quotient (exactly so below 2^53) */
    c->round_scale = PyLong_AsDouble(PyTuple_GET_ITEM(options, 3));
    if (c->round_scale == -1.0 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
        PyErr_Clear();
        c->round_scale = HUGE_VAL; /* beyond any double: the quotient is 0, as in Python */
    }
    return 0;
}

static int parse_map(PyObject *map, AuConfig *c) {
    if (!PyTuple_Check(map) || PyTuple_GET_SIZE(map) != 3) {
        PyErr_SetString(PyExc_TypeError,
                        "map must be a tuple (region colours, locations, water regions)");
        return -1;
    }
    long colours[AU_NUM_REGIONS], water[AU_NUM_REGIONS];
    if (arg_ints(PyTuple_GET_ITEM(map, 0), AU_NUM_REGIONS, 0, AU_NUM_COLOURS - 1,
                 "map region colours", colours) < 0 ||
        arg_ints(PyTuple_GET_ITEM(map, 2), AU_NUM_REGIONS, 0, 1, "map water regions", water) < 0)
        return -1;
    for (int r = 0; r < AU_NUM_REGIONS; r++) {
        c->region_colour[r] = (int8_t)colours[r];
        c->region_water[r] = (int8_t)water[r];
    }
    PyObject *fast =
        PySequence_Fast(PyTuple_GET_ITEM(map, 1), "map locations: expected a sequence");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n < 1 || n > AU_MAX_LOCATIONS) {
        PyErr_Format(PyExc_ValueError, "map locations: expected 1..%d locations, got %zd",
                     AU_MAX_LOCATIONS, n);
        Py_DECREF(fast);
        return -1;
    }
    c->num_locations = (int8_t)n;
    for (Py_ssize_t loc = 0; loc < n; loc++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, loc);
        long kind, regions[AU_MAX_LOCATION_REGIONS];
        int count = -1;
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 2) {
            PyErr_Format(PyExc_TypeError, "map location %zd: expected a tuple (kind, regions)",
                         loc);
        } else if (arg_int(PyTuple_GET_ITEM(item, 0), 0, 1, "map location kind (0 camp, 1 ship)",
                           &kind) == 0) {
            count = arg_int_list(PyTuple_GET_ITEM(item, 1), AU_MAX_LOCATION_REGIONS, 0,
                                 AU_NUM_REGIONS - 1, "map location regions", regions);
        }
        if (count < 0) {
            Py_DECREF(fast);
            return -1;
        }
        int ascending = count >= 2;
        for (int i = 1; i < count; i++) ascending &= regions[i] > regions[i - 1];
        if (!ascending) {
            PyErr_Format(PyExc_ValueError,
                         "map location %zd: expected 2..4 distinct regions in ascending order",
                         loc);
            Py_DECREF(fast);
            return -1;
        }
        c->location_ship[loc] = (int8_t)kind;
        c->location_num_regions[loc] = (int8_t)count;
        for (int i = 0; i < count; i++) c->location_regions[loc][i] = (int8_t)regions[i];
    }
    Py_DECREF(fast);
    return 0;
}

static int parse_components(PyObject *components, int num_players, AuConfig *c) {
    if (!PyTuple_Check(components) || PyTuple_GET_SIZE(components) != 8) {
        PyErr_SetString(PyExc_TypeError,
                        "components must be a tuple (cards, tiles, windmill tiles, rangers, "
                        "windmill start, windmill max, tile areas, ranger areas)");
        return -1;
    }
    PyObject *fast = PySequence_Fast(PyTuple_GET_ITEM(components, 0), "cards: expected 4 rows");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != AU_NUM_BACKS) {
        PyErr_SetString(PyExc_ValueError, "cards: expected 4 rows (one per back)");
        Py_DECREF(fast);
        return -1;
    }
    for (int b = 0; b < AU_NUM_BACKS; b++) {
        long counts[AU_NUM_COLOURS], total = 0;
        if (arg_ints(PySequence_Fast_GET_ITEM(fast, b), AU_NUM_COLOURS, 0, AU_MAX_CARDS_PER_TYPE,
                     "cards", counts) < 0) {
            Py_DECREF(fast);
            return -1;
        }
        for (int k = 0; k < AU_NUM_COLOURS; k++) {
            c->cards[b][k] = (int8_t)counts[k];
            total += counts[k];
        }
        if (total < 3) {
            PyErr_Format(PyExc_ValueError, "cards[%d]: a stack needs at least 3 cards", b);
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    long tiles[AU_NUM_TILE_VALUES], total = 0;
    if (arg_ints(PyTuple_GET_ITEM(components, 1), AU_NUM_TILE_VALUES, 0, AU_NUM_REGIONS, "tiles",
                 tiles) < 0)
        return -1;
    for (int v = 0; v < AU_NUM_TILE_VALUES; v++) {
        c->tiles[v] = (int8_t)tiles[v];
        total += tiles[v];
    }
    if (total != AU_NUM_REGIONS) {
        PyErr_Format(PyExc_ValueError, "tiles: one tile per region, expected 24 in all, got %ld",
                     total);
        return -1;
    }
    fast = PySequence_Fast(PyTuple_GET_ITEM(components, 2), "windmill tiles: expected 6 bools");
    if (!fast) return -1;
    int bad = PySequence_Fast_GET_SIZE(fast) != AU_NUM_TILE_VALUES;
    if (bad) PyErr_SetString(PyExc_ValueError, "windmill tiles: expected 6 bools");
    for (int v = 0; !bad && v < AU_NUM_TILE_VALUES; v++) {
        int flag;
        bad = arg_bool(PySequence_Fast_GET_ITEM(fast, v), "windmill tiles", &flag) < 0;
        c->windmill_tiles[v] = (int8_t)flag;
    }
    Py_DECREF(fast);
    if (bad) return -1;
    long rangers, start, top, tile_areas, ranger_areas;
    PyObject *item[8];
    for (int i = 0; i < 8; i++) item[i] = PyTuple_GET_ITEM(components, i);
    if (arg_int(item[3], 1, AU_MAX_RANGERS, "rangers", &rangers) < 0 ||
        arg_int(item[4], 0, AU_MAX_WINDMILL, "windmill start", &start) < 0 ||
        arg_int(item[5], start, AU_MAX_WINDMILL, "windmill max", &top) < 0 ||
        arg_int(item[6], 1, AU_MAX_TRACK, "tile areas", &tile_areas) < 0 ||
        arg_int(item[7], 1, AU_MAX_TRACK, "ranger areas", &ranger_areas) < 0)
        return -1;
    (void)num_players;
    c->rangers = (int8_t)rangers;
    c->windmill_start = (int16_t)start;
    c->windmill_max = (int16_t)top;
    c->tile_areas = (int8_t)tile_areas;
    c->ranger_areas = (int8_t)ranger_areas;
    return 0;
}

/* The rules' parameters for ``num_players`` (the checks of data.py and model.py, again). */
int au_parse_config(PyObject *options, PyObject *map, PyObject *components, int num_players,
                    AuConfig *c, PyObject **stack_cards_obj) {
    memset(c, 0, sizeof *c);
    if (parse_options(options, c, stack_cards_obj) < 0 || parse_map(map, c) < 0 ||
        parse_components(components, num_players, c) < 0)
        return -1;
    au_config_finish(c);
    for (int r = 0; r < AU_NUM_REGIONS; r++) {
        if (c->region_num_locations[r] == 0) {
            PyErr_Format(PyExc_ValueError, "map: no location borders region %d", r);
            return -1;
        }
        int cards = 0;
        for (int b = 0; b < AU_NUM_BACKS; b++) cards += c->cards[b][c->region_colour[r]];
        if (cards == 0) {
            PyErr_Format(PyExc_ValueError, "cards: no card of the colour of region %d", r);
            return -1;
        }
    }
    return 0;
}

/* new_game's check: every stack is cut from its back's cards. */
int au_check_stack_cards(const AuConfig *c, PyObject *stack_cards_obj) {
    int smallest = AU_MAX_STACK;
    for (int b = 0; b < AU_NUM_BACKS; b++) {
        int total = 0;
        for (int k = 0; k < AU_NUM_COLOURS; k++) total += c->cards[b][k];
        if (total < smallest) smallest = total;
    }
    if (c->stack_cards > smallest) {
        PyErr_Format(PyExc_ValueError,
                     "RulesOptions.stack_cards: %R cards per stack, but the smallest back has %d "
                     "cards",
                     stack_cards_obj, smallest);
        return -1;
    }
    return 0;
}

static AuGameObject *au_alloc(void) {
    AuGameObject *self = PyObject_New(AuGameObject, &AuGameType);
    if (self) memset(&self->game, 0, sizeof self->game);
    return self;
}

/* au_new(num_players, rng_state, options, map, components) -> AustraliaGame */
static PyObject *py_au_new(PyObject *module, PyObject *args) {
    PyObject *players_obj, *rng_obj, *options, *map, *components, *stack_cards_obj;
    (void)module;
    if (!PyArg_ParseTuple(args, "OOOOO", &players_obj, &rng_obj, &options, &map, &components))
        return NULL;
    long players;
    if (arg_int(players_obj, AU_MIN_PLAYERS, AU_MAX_PLAYERS, "num_players", &players) < 0)
        return NULL;
    AuConfig config;
    if (au_parse_config(options, map, components, (int)players, &config, &stack_cards_obj) < 0 ||
        au_check_stack_cards(&config, stack_cards_obj) < 0)
        return NULL;
    Rng rng;
    if (rng_from_tuple(rng_obj, &rng) < 0) return NULL;
    if (!rng.present) {
        PyErr_SetString(PyExc_ValueError, "a new game needs a generator");
        return NULL;
    }
    AuGameObject *self = au_alloc();
    if (!self) return NULL;
    au_new_game(&self->game, &config, (int)players, &rng);
    return (PyObject *)self;
}

/* -- import: a Python State's to_dict() (the generator as a state tuple) -------------------- */
static int get_int(PyObject *dict, const char *key, long low, long high, long *out) {
    PyObject *value = arg_item(dict, key);
    return value ? arg_int(value, low, high, key, out) : -1;
}

#define GET(key, low, high, field)                                    \
    do {                                                              \
        long value_;                                                  \
        if (get_int(d, key, low, high, &value_) < 0) return -1;       \
        g->field = value_;                                            \
    } while (0)

/* A list of exactly ``n`` integers in low..high into ``out`` (element size ``width`` bytes,
 * room for ``room`` elements: n is never more, the bound is for the compiler). */
static int get_list(PyObject *d, const char *key, int n, long low, long high, void *out, int width,
                    int room) {
    PyObject *value = arg_item(d, key);
    long values[AU_MAX_LOCATIONS];
    if (!value || arg_ints(value, n, low, high, key, values) < 0) return -1;
    for (int i = 0; i < n && i < room; i++) {
        if (width == 1) ((int8_t *)out)[i] = (int8_t)values[i];
        else if (width == 2) ((int16_t *)out)[i] = (int16_t)values[i];
        else ((int32_t *)out)[i] = (int32_t)values[i];
    }
    return 0;
}

/* A list of ``rows`` rows: row r's integers go to out + r * stride (int8 or int16). */
static int get_rows(PyObject *d, const char *key, int rows, int n, long low, long high, void *out,
                    int width, int stride) {
    PyObject *value = arg_item(d, key);
    if (!value) return -1;
    PyObject *fast = PySequence_Fast(value, "expected a list of rows");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != rows) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d rows, got %zd", key, rows,
                     PySequence_Fast_GET_SIZE(fast));
        Py_DECREF(fast);
        return -1;
    }
    long values[AU_NUM_CARD_TYPES];
    for (int r = 0; r < rows; r++) {
        if (arg_ints(PySequence_Fast_GET_ITEM(fast, r), n, low, high, key, values) < 0) {
            Py_DECREF(fast);
            return -1;
        }
        for (int i = 0; i < n; i++) {
            if (width == 1) ((int8_t *)out)[r * stride + i] = (int8_t)values[i];
            else ((int16_t *)out)[r * stride + i] = (int16_t)values[i];
        }
    }
    Py_DECREF(fast);
    return 0;
}

/* Four piles of colours (stacks, set_aside): at most a back's cards each. */
static int get_piles(PyObject *d, const char *key, int8_t piles[][AU_MAX_STACK], int16_t *sizes) {
    PyObject *value = arg_item(d, key);
    if (!value) return -1;
    PyObject *fast = PySequence_Fast(value, "expected a list of 4 lists");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != AU_NUM_BACKS) {
        PyErr_Format(PyExc_ValueError, "%s: expected 4 lists (one per back)", key);
        Py_DECREF(fast);
        return -1;
    }
    for (int b = 0; b < AU_NUM_BACKS; b++) {
        long colours[AU_MAX_STACK];
        int n = arg_int_list(PySequence_Fast_GET_ITEM(fast, b), AU_MAX_STACK, 0, AU_NUM_COLOURS - 1,
                             key, colours);
        if (n < 0) {
            Py_DECREF(fast);
            return -1;
        }
        for (int i = 0; i < n; i++) piles[b][i] = (int8_t)colours[i];
        sizes[b] = (int16_t)n;
    }
    Py_DECREF(fast);
    return 0;
}

static int bad_state(const char *message) {
    PyErr_SetString(PyExc_ValueError, message);
    return -1;
}

static int import_state(AuGame *g, PyObject *d) {
    const AuConfig *c = &g->config;
    int n = g->num_players;
    const long big = 1L << 30;
    PyObject *view_seat = arg_item(d, "view_seat");
    long v;
    if (!view_seat || arg_int(view_seat, -1, -1, "view_seat (a view cannot be played)", &v) < 0)
        return -1;
    GET("phase", 0, AU_OVER, phase);
    GET("current", 0, n - 1, current);
    GET("actions_left", 0, 2, actions_left);
    GET("step", 0, big, step);
    GET("turn", 0, big, turn);
    GET("round", 0, big, round);
    GET("pending_card", -1, AU_NUM_CARD_TYPES - 1, pending_card);
    GET("pending_paid", 0, 1, pending_paid);
    GET("rangers_left", 0, AU_MAX_PLACE, rangers_left);
    GET("track_used", 0, 1, track_used);
    GET("taken", 0, 3, taken);
    GET("move_from", -1, c->num_locations - 1, move_from);
    GET("setup_draws", 0, AU_HAND_SIZE * n, setup_draws);
    GET("end_triggered", 0, 1, end_triggered);
    GET("windmill_region", -1, AU_NUM_REGIONS - 1, windmill_region);
    GET("windmill_value", 0, AU_MAX_WINDMILL, windmill_value);
    if (get_list(d, "supply", n, 0, AU_MAX_RANGERS, g->supply, 1, AU_MAX_PLAYERS) < 0 ||
        get_list(d, "vp", n, -big, big, g->vp, 4, AU_MAX_PLAYERS) < 0 ||
        get_list(d, "dollars", n, -big, big, g->dollars, 4, AU_MAX_PLAYERS) < 0 ||
        get_list(d, "plane", n, -1, AU_NUM_REGIONS - 1, g->plane, 1, AU_MAX_PLAYERS) < 0 ||
        get_rows(d, "hands", n, AU_NUM_CARD_TYPES, 0, 1000, g->hands, 2, AU_NUM_CARD_TYPES) < 0 ||
        get_piles(d, "stacks", g->stacks, g->stack_size) < 0 ||
        get_piles(d, "set_aside", g->set_aside, g->aside_size) < 0 ||
        get_list(d, "played", AU_NUM_CARD_TYPES, 0, 1000, g->played, 2, AU_NUM_CARD_TYPES) < 0 ||
        get_rows(d, "rangers", c->num_locations, n, 0, AU_MAX_RANGERS, g->rangers, 1,
                 AU_MAX_PLAYERS) < 0 ||
        get_list(d, "tile_value", AU_NUM_REGIONS, 0, AU_MIN_TILE + AU_NUM_TILE_VALUES - 1,
                 g->tile_value, 1, AU_NUM_REGIONS) < 0 ||
        get_list(d, "tile_up", AU_NUM_REGIONS, 0, 1, g->tile_up, 1, AU_NUM_REGIONS) < 0 ||
        get_list(d, "conservation", AU_NUM_REGIONS, 0, 1, g->conservation, 1, AU_NUM_REGIONS) < 0)
        return -1;
    for (int r = 0; r < AU_NUM_REGIONS; r++)
        if (g->tile_value[r] > 0 && g->tile_value[r] < AU_MIN_TILE)
            return bad_state("tile_value: expected 0 (gone) or a value 4..9");
    long track[AU_MAX_TRACK];
    PyObject *value = arg_item(d, "windmill_track");
    int size = value ? arg_int_list(value, AU_MAX_TRACK, 0, AU_MIN_TILE + AU_NUM_TILE_VALUES - 1,
                                    "windmill_track", track)
                     : -1;
    if (size < 0) return -1;
    for (int i = 0; i < size; i++) g->windmill_track[i] = (int8_t)track[i];
    g->windmill_track_size = (int8_t)size;
    value = arg_item(d, "ranger_track");
    size = value ? arg_int_list(value, AU_MAX_TRACK, 0, n - 1, "ranger_track", track) : -1;
    if (size < 0) return -1;
    for (int i = 0; i < size; i++) g->ranger_track[i] = (int8_t)track[i];
    g->ranger_track_size = (int8_t)size;
    /* each seat's rangers (supply, map, ranger track) stay within what a seat can own, so no
     * count can grow past its type */
    for (int s = 0; s < n; s++) {
        int total = g->supply[s];
        for (int loc = 0; loc < c->num_locations; loc++) total += g->rangers[loc][s];
        for (int i = 0; i < g->ranger_track_size; i++) total += g->ranger_track[i] == s;
        if (total > AU_MAX_RANGERS)
            return bad_state("rangers: a seat owns more than 40 rangers (supply, map, track)");
    }
    /* what the phase indexes must be there (a Python state from play always has it) */
    int plane = g->plane[g->current];
    if (g->phase == AU_MOVE_TO && g->move_from < 0)
        return bad_state("move_from: phase 'move to' needs the lifted ranger's location");
    if (g->phase == AU_TAKE_BACK && plane < 0)
        return bad_state("plane: phase 'take back' needs the plane on a region");
    if (g->phase == AU_PLACE && plane < 0 && !(g->pending_paid && c->recolour_anywhere))
        return bad_state("plane: phase 'place' needs the plane on a region");
    PyObject *rng = arg_item(d, "rng");
    return rng ? rng_from_tuple(rng, &g->rng) : -1;
}
#undef GET

/* au_import(options, map, components, state) -> AustraliaGame; ``state`` a State.to_dict() with
 * its "rng" as a generator state tuple or None (no chance after the setup: it plays without). */
static PyObject *py_au_import(PyObject *module, PyObject *args) {
    PyObject *options, *map, *components, *state, *stack_cards_obj;
    (void)module;
    if (!PyArg_ParseTuple(args, "OOOO!", &options, &map, &components, &PyDict_Type, &state))
        return NULL;
    long players;
    PyObject *players_obj = arg_item(state, "num_players");
    if (!players_obj ||
        arg_int(players_obj, AU_MIN_PLAYERS, AU_MAX_PLAYERS, "num_players", &players) < 0)
        return NULL;
    AuGameObject *self = au_alloc();
    if (!self) return NULL;
    self->game.num_players = (int8_t)players;
    if (au_parse_config(options, map, components, (int)players, &self->game.config,
                     &stack_cards_obj) < 0 ||
        import_state(&self->game, state) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

/* -- the game object ------------------------------------------------------------------------- */
static void AuGame_dealloc(AuGameObject *self) { PyObject_Free(self); }

static PyObject *AuGame_clone(AuGameObject *self, PyObject *unused) {
    (void)unused;
    AuGameObject *copy = au_alloc();
    if (copy) copy->game = self->game;
    return (PyObject *)copy;
}

static PyObject *legal_list(const AuGame *g) {
    int16_t legal[AU_NUM_ACTIONS];
    return arg_action_list(legal, au_legal_actions(g, legal));
}

static PyObject *AuGame_legal_actions(AuGameObject *self, PyObject *unused) {
    (void)unused;
    return legal_list(&self->game);
}

/* IllegalActionError(action, phase name, legal, names, why), as the Python engine raises it. */
static PyObject *illegal(AuGameObject *self, PyObject *action) {
    const AuGame *g = &self->game;
    PyObject *legal = legal_list(g);
    PyObject *names = legal ? arg_action_names(legal, au_action_name) : NULL;
    const char *why = g->phase == AU_OVER ? "the game is over" : "not legal now";
    return arg_raise_illegal(action, au_phase_name(g->phase), legal, names, why);
}

/* The record as (step, turn, player, action, drawn, revealed, windmill_to, scorings, game_over),
 * None for each absent value; a scoring as (kind, region, value, initiator, points). */
static PyObject *record_tuple(const AuRecord *r, int num_players) {
    PyObject *scorings = PyTuple_New(r->n_scorings);
    if (!scorings) return NULL;
    for (int i = 0; i < r->n_scorings; i++) {
        const AuScoring *s = &r->scorings[i];
        PyObject *points = PyTuple_New(num_players);
        if (!points) {
            Py_DECREF(scorings);
            return NULL;
        }
        for (int p = 0; p < num_players; p++) {
            PyObject *item = PyLong_FromLong(s->points[p]);
            if (!item) {
                Py_DECREF(points);
                Py_DECREF(scorings);
                return NULL;
            }
            PyTuple_SET_ITEM(points, p, item);
        }
        PyObject *scoring = Py_BuildValue("(siiiN)", KIND_NAMES[s->kind], s->region, s->value,
                                          s->initiator, points);
        if (!scoring) {
            Py_DECREF(scorings);
            return NULL;
        }
        PyTuple_SET_ITEM(scorings, i, scoring);
    }
#define OPT(x) ((x) >= 0 ? PyLong_FromLong(x) : Py_NewRef(Py_None))
    return Py_BuildValue("(iiiiNNNNN)", r->step, r->turn, r->player, r->action, OPT(r->drawn),
                         OPT(r->revealed), OPT(r->windmill_to), scorings,
                         PyBool_FromLong(r->game_over));
#undef OPT
}

/* apply(action) -> record tuple */
static PyObject *AuGame_apply(AuGameObject *self, PyObject *action_obj) {
    if (!PyLong_Check(action_obj) || PyBool_Check(action_obj)) {
        PyErr_Format(PyExc_TypeError, "action: expected an integer, got %.100s",
                     Py_TYPE(action_obj)->tp_name);
        return NULL;
    }
    int overflow;
    long action = PyLong_AsLongAndOverflow(action_obj, &overflow);
    if (action == -1 && PyErr_Occurred()) return NULL;
    if (overflow || action < 0 || action >= AU_NUM_ACTIONS) return illegal(self, action_obj);
    AuRecord record;
    if (au_apply(&self->game, (int)action, &record) != AU_OK) return illegal(self, action_obj);
    return record_tuple(&record, self->game.num_players);
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

/* A list of ``n`` integers read ``width`` bytes apart (int8, int16 or int32). */
static PyObject *int_list(const void *values, int n, int width) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        long value = width == 1   ? ((const int8_t *)values)[i]
                     : width == 2 ? ((const int16_t *)values)[i]
                                  : ((const int32_t *)values)[i];
        PyObject *item = PyLong_FromLong(value);
        if (!item) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

/* ``rows`` lists of ``n`` integers, row r at values + r * stride elements. */
static PyObject *rows_list(const void *values, int rows, int n, int width, int stride) {
    PyObject *list = PyList_New(rows);
    if (!list) return NULL;
    for (int r = 0; r < rows; r++) {
        PyObject *row = int_list((const char *)values + (size_t)r * stride * width, n, width);
        if (!row) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, r, row);
    }
    return list;
}

static PyObject *piles_list(const int8_t piles[][AU_MAX_STACK], const int16_t *sizes) {
    PyObject *list = PyList_New(AU_NUM_BACKS);
    if (!list) return NULL;
    for (int b = 0; b < AU_NUM_BACKS; b++) {
        PyObject *pile = int_list(piles[b], sizes[b], 1);
        if (!pile) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, b, pile);
    }
    return list;
}

/* export() -> the state as State.to_dict()'s fields (the generator as a state tuple). */
PyObject *au_export_dict(const AuGame *g) {
    int n = g->num_players;
    PyObject *out = PyDict_New();
    if (!out) return NULL;
    SET("num_players", PyLong_FromLong(n));
    SET("phase", PyLong_FromLong(g->phase));
    SET("current", PyLong_FromLong(g->current));
    SET("actions_left", PyLong_FromLong(g->actions_left));
    SET("step", PyLong_FromLong(g->step));
    SET("turn", PyLong_FromLong(g->turn));
    SET("round", PyLong_FromLong(g->round));
    SET("pending_card", PyLong_FromLong(g->pending_card));
    SET("pending_paid", PyLong_FromLong(g->pending_paid));
    SET("rangers_left", PyLong_FromLong(g->rangers_left));
    SET("track_used", PyLong_FromLong(g->track_used));
    SET("taken", PyLong_FromLong(g->taken));
    SET("move_from", PyLong_FromLong(g->move_from));
    SET("setup_draws", PyLong_FromLong(g->setup_draws));
    SET("end_triggered", PyLong_FromLong(g->end_triggered));
    SET("windmill_region", PyLong_FromLong(g->windmill_region));
    SET("windmill_value", PyLong_FromLong(g->windmill_value));
    SET("view_seat", PyLong_FromLong(-1));
    SET("supply", int_list(g->supply, n, 1));
    SET("vp", int_list(g->vp, n, 4));
    SET("dollars", int_list(g->dollars, n, 4));
    SET("plane", int_list(g->plane, n, 1));
    SET("hands", rows_list(g->hands, n, AU_NUM_CARD_TYPES, 2, AU_NUM_CARD_TYPES));
    SET("stacks", piles_list(g->stacks, g->stack_size));
    SET("set_aside", piles_list(g->set_aside, g->aside_size));
    SET("played", int_list(g->played, AU_NUM_CARD_TYPES, 2));
    SET("rangers", rows_list(g->rangers, g->config.num_locations, n, 1, AU_MAX_PLAYERS));
    SET("tile_value", int_list(g->tile_value, AU_NUM_REGIONS, 1));
    SET("tile_up", int_list(g->tile_up, AU_NUM_REGIONS, 1));
    SET("conservation", int_list(g->conservation, AU_NUM_REGIONS, 1));
    SET("windmill_track", int_list(g->windmill_track, g->windmill_track_size, 1));
    SET("ranger_track", int_list(g->ranger_track, g->ranger_track_size, 1));
    SET("rng", rng_to_tuple(&g->rng));
    return out;
}
#undef SET

static PyObject *AuGame_export(AuGameObject *self, PyObject *unused) {
    (void)unused;
    return au_export_dict(&self->game);
}

/* observe(seat, out): ``seat``'s observation into ``out`` (a writable float32 buffer of
 * AU_OBS_SIZE items). */
static PyObject *AuGame_observe(AuGameObject *self, PyObject *args) {
    PyObject *seat_obj, *out_obj;
    if (!PyArg_ParseTuple(args, "OO", &seat_obj, &out_obj)) return NULL;
    long seat;
    if (arg_int(seat_obj, 0, self->game.num_players - 1, "seat", &seat) < 0) return NULL;
    Py_buffer out;
    if (arg_float_out(out_obj, AU_OBS_SIZE, &out) < 0) return NULL;
    au_observe(&self->game, (int)seat, (float *)out.buf);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

/* bot_action(kind, rng_state) -> (action, rng_state after): the native bot ``kind`` (1 random,
 * 2 greedy, 3 heuristic) choosing for the seat to act with its own generator. */
static PyObject *AuGame_bot_action(AuGameObject *self, PyObject *args) {
    PyObject *kind_obj, *rng_obj;
    if (!PyArg_ParseTuple(args, "OO", &kind_obj, &rng_obj)) return NULL;
    long kind;
    if (arg_int(kind_obj, AU_BOT_RANDOM, AU_BOT_HEURISTIC,
                "bot kind (1 random, 2 greedy, 3 heuristic)", &kind) < 0)
        return NULL;
    Rng rng;
    if (gsb_bot_rng(rng_obj, self->game.phase == AU_OVER, &rng) < 0) return NULL;
    int action = au_bot_action(&self->game, (int)kind, &rng);
    return Py_BuildValue("(iN)", action, rng_to_tuple(&rng));
}

/* view(seat) -> AustraliaGame: ``seat``'s view (au_view), without a generator. */
static PyObject *AuGame_view(AuGameObject *self, PyObject *args) {
    long seat;
    if (gsb_seat_arg(args, self->game.num_players, &seat) < 0) return NULL;
    AuGameObject *out = au_alloc();
    if (out) au_view(&self->game, (int)seat, &out->game);
    return (PyObject *)out;
}

/* determinize(seat, rng_state) -> (AustraliaGame, rng_state after): a world consistent with
 * ``seat``'s view (au_determinize, its generator seeded as the engine's), drawn from the generator
 * given. */
static PyObject *AuGame_determinize(AuGameObject *self, PyObject *args) {
    long seat;
    Rng rng;
    if (gsb_seat_rng_args(args, self->game.num_players, &seat, &rng,
                          "a determinization needs a generator") < 0)
        return NULL;
    AuGameObject *out = au_alloc();
    if (!out) return NULL;
    au_determinize(&self->game, (int)seat, &rng, &out->game, 1);
    return Py_BuildValue("(NN)", (PyObject *)out, rng_to_tuple(&rng));
}

/* evaluate() -> each seat's value (AustraliaGame.evaluate) of the game. */
static PyObject *AuGame_evaluate(AuGameObject *self, PyObject *unused) {
    (void)unused;
    double values[AU_MAX_PLAYERS];
    au_evaluate_values(&self->game, values);
    return gsb_float_list(values, self->game.num_players);
}

/* rollout_action(rng_state) -> (action, rng_state after): AustraliaGame.rollout_action. */
static PyObject *AuGame_rollout_action(AuGameObject *self, PyObject *args) {
    Rng rng;
    if (gsb_rng_arg(args, &rng, "a rollout policy needs a generator") < 0) return NULL;
    if (self->game.phase == AU_OVER) {
        PyErr_SetString(PyExc_ValueError, "the game is over: no action to choose");
        return NULL;
    }
    int action = au_rollout_action(&self->game, &rng);
    return Py_BuildValue("(iN)", action, rng_to_tuple(&rng));
}

/* search(seat, (sims, seconds, c, max_rollout, rollout, prior, bias, playout), rng_state)
 *   -> (action, simulations, nodes, rng_state after, ((action, visits, mean), ...))
 * The generic ISMCTS (gsearch.c) for ``seat``, who must be the seat to act, from this game as
 * the seat sees it (a view or the true state: only the seat's view is read); the GIL is
 * released while it runs. sims 0: no simulation budget; seconds 0: no time budget (one is set);
 * rollout -1: rollouts to the end; prior, playout 0: none, else a bot kind (1..3). */
static PyObject *AuGame_search(AuGameObject *self, PyObject *args) {
    GsbCall call;
    if (gsb_parse(args, 0, self->game.num_players, AU_BOT_HEURISTIC, &call) < 0 ||
        gsb_turn(&call, self->game.phase == AU_OVER, self->game.current) < 0)
        return NULL;
    AuGame root = self->game; /* the object may change while the GIL is released */
    return gsb_run(&call, &GS_AUSTRALIA, &root, NULL, NULL, NULL);
}

static PyObject *AuGame_get_current(AuGameObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->game.current);
}

static PyObject *AuGame_get_phase(AuGameObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->game.phase);
}

static PyObject *AuGame_get_num_players(AuGameObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->game.num_players);
}

static PyMethodDef AuGame_methods[] = {
    {"clone", (PyCFunction)AuGame_clone, METH_NOARGS, "An independent copy."},
    {"legal_actions", (PyCFunction)AuGame_legal_actions, METH_NOARGS, "The legal actions, sorted."},
    {"apply", (PyCFunction)AuGame_apply, METH_O,
     "apply(action) -> (step, turn, player, action, drawn, revealed, windmill_to, scorings, "
     "game_over)"},
    {"export", (PyCFunction)AuGame_export, METH_NOARGS, "The state as State.to_dict()'s fields."},
    {"observe", (PyCFunction)AuGame_observe, METH_VARARGS,
     "observe(seat, out): the seat's observation into a float32 buffer of AU_OBS_SIZE items."},
    {"bot_action", (PyCFunction)AuGame_bot_action, METH_VARARGS,
     "bot_action(kind, rng_state) -> (action, rng_state after)."},
    {"view", (PyCFunction)AuGame_view, METH_VARARGS, "view(seat): the seat's view (no generator)."},
    {"determinize", (PyCFunction)AuGame_determinize, METH_VARARGS,
     "determinize(seat, rng_state) -> (world, rng_state after)."},
    {"evaluate", (PyCFunction)AuGame_evaluate, METH_NOARGS, "Each seat's value (Game.evaluate)."},
    {"rollout_action", (PyCFunction)AuGame_rollout_action, METH_VARARGS,
     "rollout_action(rng_state) -> (action, rng_state after) (Game.rollout_action)."},
    {"search", (PyCFunction)AuGame_search, METH_VARARGS,
     "search(seat, options, rng_state) -> (action, simulations, nodes, rng_state, root)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef AuGame_getset[] = {
    {"current_player", (getter)AuGame_get_current, NULL, "The seat to act.", NULL},
    {"phase", (getter)AuGame_get_phase, NULL, "The phase (0 setup draw .. 7 over).", NULL},
    {"num_players", (getter)AuGame_get_num_players, NULL, "The number of players.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject AuGameType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "airships_env.native._core.AustraliaGame",
    .tp_basicsize = sizeof(AuGameObject),
    .tp_dealloc = (destructor)AuGame_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_methods = AuGame_methods,
    .tp_getset = AuGame_getset,
    .tp_doc = "One game of Australia in the native core (au_new, au_import).",
};

/* au_random_games(num_players, games, seed, options, map, components) -> actions applied: random
 * legal play in the core alone (the engine benchmark), the GIL released. Game g deals from
 * PCG64(SeedSequence(seed, spawn_key=(g, 0))) and chooses uniform_below(number of legal actions)
 * from (g, 1), as Airships' random_games does; a game stops after AU_RANDOM_GAME_STEPS actions. */
#define AU_RANDOM_GAME_STEPS 10000000L
static PyObject *py_au_random_games(PyObject *module, PyObject *args) {
    PyObject *players_obj, *games_obj, *seed_obj, *options, *map, *components, *stack_cards_obj;
    (void)module;
    if (!PyArg_ParseTuple(args, "OOOOOO", &players_obj, &games_obj, &seed_obj, &options, &map,
                          &components))
        return NULL;
    long players, games, seed;
    if (arg_int(players_obj, AU_MIN_PLAYERS, AU_MAX_PLAYERS, "num_players", &players) < 0 ||
        arg_int(games_obj, 0, 1L << 30, "games", &games) < 0 ||
        arg_int(seed_obj, 0, 0xFFFFFFFFL, "seed (a 32-bit word)", &seed) < 0)
        return NULL;
    AuConfig config;
    if (au_parse_config(options, map, components, (int)players, &config, &stack_cards_obj) < 0 ||
        au_check_stack_cards(&config, stack_cards_obj) < 0)
        return NULL;
    long long actions = 0;
    uint32_t entropy = (uint32_t)seed;
    Py_BEGIN_ALLOW_THREADS
    AuGame game;
    int16_t legal[AU_NUM_ACTIONS];
    for (long g = 0; g < games; g++) {
        Rng deal, choices;
        uint32_t spawn[2] = {(uint32_t)g, 0};
        rng_seed_sequence(&deal, &entropy, 1, spawn, 2);
        spawn[1] = 1;
        rng_seed_sequence(&choices, &entropy, 1, spawn, 2);
        au_new_game(&game, &config, (int)players, &deal);
        long steps = 0;
        while (game.phase != AU_OVER && steps < AU_RANDOM_GAME_STEPS) {
            int n = au_legal_actions(&game, legal);
            au_apply_legal(&game, legal[uniform_below(&choices, (uint64_t)n)], NULL);
            steps++;
        }
        actions += steps;
    }
    Py_END_ALLOW_THREADS
    return PyLong_FromLongLong(actions);
}

static PyMethodDef australia_functions[] = {
    {"au_random_games", py_au_random_games, METH_VARARGS,
     "au_random_games(num_players, games, seed, options, map, components) -> actions applied"},
    {"au_new", py_au_new, METH_VARARGS,
     "au_new(num_players, rng_state, options, map, components) -> AustraliaGame"},
    {"au_import", py_au_import, METH_VARARGS,
     "au_import(options, map, components, state_dict) -> AustraliaGame"},
    {NULL, NULL, 0, NULL},
};

int australia_register(PyObject *module) {
    if (PyType_Ready(&AuGameType) < 0) return -1;
    Py_INCREF(&AuGameType);
    if (PyModule_AddObject(module, "AustraliaGame", (PyObject *)&AuGameType) < 0) return -1;
    if (PyModule_AddIntConstant(module, "AU_NUM_ACTIONS", AU_NUM_ACTIONS) < 0) return -1;
    if (PyModule_AddIntConstant(module, "AU_OBS_SIZE", AU_OBS_SIZE) < 0) return -1;
    if (australia_batch_register(module) < 0) return -1;
    return PyModule_AddFunctions(module, australia_functions);
}
