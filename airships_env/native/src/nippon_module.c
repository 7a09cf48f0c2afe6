/* The CPython binding of Nippon's native core (nippon.c), part of ``airships_env.native._core``;
 * airships_env/native/nippon.py is its Python face.
 *
 *   ni_new(num_players, rng_state, options, tables) -> NipponGame         (S1-S5)
 *   ni_import(options, tables, state_dict) -> NipponGame                  (a Python State)
 *   ni_random_games(num_players, games, seed, options, tables) -> actions applied
 *   NipponGame.legal_actions() / apply(action) / export() / clone()
 *   NipponGame.view(seat) / determinize(seat, rng_state) / search(...) / results() / values()
 *
 * ``options`` is (captured_tile removed, neutral_competes, majority_ties lower, marker_trigger
 * space_empties), four bools; ``tables`` is the components the Python loader validated, as
 * airships_env/native/nippon.py's ``tables`` packs them (costs, board, turn track, player board,
 * goods, factories, contracts, influence and regions, rewards, achievements). Every argument is
 * checked here again: a bad one is a Python exception, and the core is never handed anything out
 * of range. An illegal action raises the engines' IllegalActionError with the Python engine's
 * message and changes nothing.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include <math.h>

#include "args.h"
#include "binding.h"
#include "gsearch_binding.h"
#include "nippon_binding.h"

typedef struct {
    PyObject_HEAD
    NiGame game;
} NiGameObject;

static PyTypeObject NiGameType;

/* -- the rules' parameters ------------------------------------------------------------------- */
/* ``obj`` as a tuple of exactly ``n`` items (borrowed), or NULL with TypeError. */
static PyObject *tuple_of(PyObject *obj, Py_ssize_t n, const char *what) {
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != n) {
        PyErr_Format(PyExc_TypeError, "%s: expected a tuple of %zd items", what, n);
        return NULL;
    }
    return obj;
}

#define ITEM(t, i) PyTuple_GET_ITEM(t, i)

static int fail(const char *message) {
    PyErr_SetString(PyExc_ValueError, message);
    return -1;
}

/* An integer into an int8/int16 field. */
#define INT_FIELD(obj, low, high, what, field)                         \
    do {                                                               \
        long value_;                                                   \
        if (arg_int(obj, low, high, what, &value_) < 0) return -1;     \
        field = value_;                                                \
    } while (0)

/* Exactly ``n`` integers into an array field. */
#define INTS_FIELD(obj, n, low, high, what, field)                          \
    do {                                                                    \
        long values_[64];                                                   \
        if (arg_ints(obj, n, low, high, what, values_) < 0) return -1;      \
        for (int i_ = 0; i_ < (n); i_++) (field)[i_] = values_[i_];         \
    } while (0)

/* At most ``most`` integers into an array field; their number into ``count``. */
#define LIST_FIELD(obj, most, low, high, what, field, count)                        \
    do {                                                                            \
        long values_[64];                                                           \
        int n_ = arg_int_list(obj, most, low, high, what, values_);                 \
        if (n_ < 0) return -1;                                                      \
        for (int i_ = 0; i_ < n_; i_++) (field)[i_] = values_[i_];                  \
        count = n_;                                                                 \
    } while (0)

static int parse_options(PyObject *options, NiConfig *c) {
    if (!tuple_of(options, 4, "options (captured removed, neutral competes, ties lower, marker "
                              "on space empties)"))
        return -1;
    int flags[4];
    const char *names[4] = {"options[0] (captured_tile removed)", "options[1] (neutral_competes)",
                            "options[2] (majority_ties lower)",
                            "options[3] (marker_trigger space_empties)"};
    for (int i = 0; i < 4; i++)
        if (arg_bool(ITEM(options, i), names[i], &flags[i]) < 0) return -1;
    c->captured_removed = (uint8_t)flags[0];
    c->neutral_competes = (uint8_t)flags[1];
    c->ties_lower = (uint8_t)flags[2];
    c->marker_space_empties = (uint8_t)flags[3];
    return 0;
}

static int parse_costs(PyObject *t, NiConfig *c) {
    if (!tuple_of(t, 10, "costs")) return -1;
    INT_FIELD(ITEM(t, 0), 0, 50, "costs invest", c->invest_cost);
    INT_FIELD(ITEM(t, 1), 0, 50, "costs machine", c->machine_cost);
    INTS_FIELD(ITEM(t, 2), 3, 0, 50, "costs steps", c->step_costs);
    INT_FIELD(ITEM(t, 3), 0, 50, "costs piece", c->piece_cost);
    INT_FIELD(ITEM(t, 4), 0, 50, "costs colour", c->colour_cost);
    INT_FIELD(ITEM(t, 5), 0, 50, "costs unpaid_vp", c->unpaid_vp);
    INT_FIELD(ITEM(t, 6), 1, 10, "costs blueprints_per_bonus", c->blueprints_per_bonus);
    INT_FIELD(ITEM(t, 7), 1, 3, "costs max_units", c->max_units);
    INT_FIELD(ITEM(t, 8), 1, 12, "costs factory_capacity", c->factory_capacity);
    INTS_FIELD(ITEM(t, 9), 3, 0, 50, "costs reward_gift", c->gift_amounts);
    return 0;
}

static int parse_board(PyObject *t, NiConfig *c) {
    if (!tuple_of(t, 5, "board (action spaces, per_colour, per_space, rows, observation room)"))
        return -1;
    PyObject *fast = PySequence_Fast(ITEM(t, 0), "action spaces: expected a sequence");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n < 1 || n > NI_MAX_SPACES) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "action spaces: expected 1..%d spaces, got %zd",
                     NI_MAX_SPACES, n);
        return -1;
    }
    c->num_spaces = (int8_t)n;
    for (int k = 0; k < NI_NUM_KINDS; k++) c->space_of_kind[k] = -1;
    for (Py_ssize_t s = 0; s < n; s++) {
        long kinds[2];
        int count = arg_int_list(PySequence_Fast_GET_ITEM(fast, s), 2, 0, NI_NUM_KINDS - 1,
                                 "action space kinds", kinds);
        if (count < 0) {
            Py_DECREF(fast);
            return -1;
        }
        if (count < 1) {
            Py_DECREF(fast);
            return fail("action spaces: each space offers 1 or 2 action kinds");
        }
        for (int i = 0; i < count; i++) {
            if (c->space_of_kind[kinds[i]] >= 0) {
                Py_DECREF(fast);
                return fail("action spaces: an action kind is on two spaces");
            }
            c->space_of_kind[kinds[i]] = (int8_t)s;
        }
    }
    Py_DECREF(fast);
    for (int k = 0; k < NI_NUM_KINDS; k++)
        if (c->space_of_kind[k] < 0) return fail("action spaces: every action kind needs a space");
    INT_FIELD(ITEM(t, 1), 1, NI_MAX_PER_COLOUR, "per_colour", c->per_colour);
    INT_FIELD(ITEM(t, 2), 1, 6, "per_space", c->per_space);
    INTS_FIELD(ITEM(t, 3), 3, 0, NI_MAX_ROWS, "rows", c->rows);
    /* the observation's room: (spaces, (rows for 2, 3, 4 players)) */
    PyObject *room = ITEM(t, 4);
    if (!tuple_of(room, 2, "observation room (spaces, rows)")) return -1;
    INT_FIELD(ITEM(room, 0), 1, NI_MAX_SPACES, "observation spaces", c->obs_spaces);
    INTS_FIELD(ITEM(room, 1), 3, 0, NI_MAX_ROWS, "observation rows", c->obs_rows);
    return 0;
}

static int parse_track(PyObject *t, NiConfig *c) {
    if (!tuple_of(t, 7, "turn track")) return -1;
    INT_FIELD(ITEM(t, 0), 3, 20, "track spaces", c->track_spaces);
    INT_FIELD(ITEM(t, 1), c->track_spaces - 4, c->track_spaces - 4, "golden_from (0-based)",
              c->golden_from);
    int n;
    LIST_FIELD(ITEM(t, 2), NI_MAX_SCORINGS, 1, c->track_spaces - 1, "scoring spaces (0-based)",
               c->scoring_spaces, n);
    c->num_scorings = (int8_t)n;
    if (n < 1 || c->scoring_spaces[n - 1] != c->track_spaces - 1)
        return fail("scoring spaces: expected increasing spaces ending with the last");
    for (int i = 1; i < n; i++)
        if (c->scoring_spaces[i] <= c->scoring_spaces[i - 1])
            return fail("scoring spaces: expected increasing spaces ending with the last");
    PyObject *fast = PySequence_Fast(ITEM(t, 3), "majority_vp: expected a sequence");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        Py_DECREF(fast);
        return fail("majority_vp: expected one VP list per scoring space");
    }
    for (int i = 0; i < n; i++) {
        long values[NI_MAX_PLACES_VP];
        int len = arg_int_list(PySequence_Fast_GET_ITEM(fast, i), NI_MAX_PLACES_VP, 0, 100,
                               "majority_vp", values);
        if (len < 1) {
            Py_DECREF(fast);
            return len < 0 ? -1 : fail("majority_vp: each phase needs at least one place");
        }
        c->majority_len[i] = (int8_t)len;
        for (int j = 0; j < len; j++) c->majority_vp[i][j] = (int16_t)values[j];
    }
    Py_DECREF(fast);
    LIST_FIELD(ITEM(t, 4), NI_MAX_PLACES_VP, 0, 50, "ship_vp", c->ship_vp, n);
    if (n < 1) return fail("ship_vp: expected 1..4 values");
    c->ship_vp_len = (int8_t)n;
    INT_FIELD(ITEM(t, 5), 0, 50, "ship_vp_no_place", c->ship_vp_no_place);
    INT_FIELD(ITEM(t, 6), 0, 10, "train_influence", c->train_influence);
    return 0;
}

static int parse_player_board(PyObject *t, NiConfig *c) {
    if (!tuple_of(t, 15, "player board")) return -1;
    int n;
    LIST_FIELD(ITEM(t, 4), NI_MAX_TRACK, 0, 200, "money_track", c->money_track, n);
    c->money_len = (int8_t)n;
    LIST_FIELD(ITEM(t, 5), NI_MAX_TRACK, 0, 50, "coal_track", c->coal_track, n);
    c->coal_len = (int8_t)n;
    if (c->money_len < 2 || c->coal_len < 2) return fail("money_track, coal_track: 2..40 values");
    INT_FIELD(ITEM(t, 7), 6, 30, "knowledge_max", c->knowledge_max);
    INT_FIELD(ITEM(t, 0), 0, c->money_len - 1, "start_money", c->start_money);
    INT_FIELD(ITEM(t, 1), 0, c->coal_len - 1, "start_coal", c->start_coal);
    INT_FIELD(ITEM(t, 2), 0, c->knowledge_max, "start_knowledge", c->start_knowledge);
    INT_FIELD(ITEM(t, 3), 0, 20, "start_blueprints", c->start_blueprints);
    LIST_FIELD(ITEM(t, 6), NI_MAX_STARS, 0, c->coal_len - 1, "coal_stars", c->coal_stars, n);
    c->coal_stars_len = (int8_t)n;
    LIST_FIELD(ITEM(t, 8), NI_MAX_STARS, 0, c->knowledge_max, "knowledge_stars",
               c->knowledge_stars, n);
    c->knowledge_stars_len = (int8_t)n;
    INT_FIELD(ITEM(t, 9), 1, NI_MAX_PIECES, "trains", c->trains);
    INT_FIELD(ITEM(t, 10), 1, NI_MAX_PIECES, "ships", c->ships);
    INTS_FIELD(ITEM(t, 11), c->trains, 0, 1, "train_stars", c->train_stars);
    INTS_FIELD(ITEM(t, 12), c->ships, 0, 1, "ship_stars", c->ship_stars);
    INTS_FIELD(ITEM(t, 13), NI_WORKER_SPACES, 0, 4, "worker_levels", c->worker_levels);
    INT_FIELD(ITEM(t, 14), 0, 100, "machinery_tiles", c->machinery_tiles);
    return 0;
}

static int parse_goods(PyObject *t, NiConfig *c) {
    if (!tuple_of(t, 2, "goods (levels, knowledge)")) return -1;
    INTS_FIELD(ITEM(t, 0), NI_NUM_GOODS, 1, 3, "goods levels", c->goods_levels);
    INTS_FIELD(ITEM(t, 1), 4, 0, c->knowledge_max, "goods knowledge", c->level_knowledge);
    return 0;
}

static int parse_factories(PyObject *t, NiConfig *c) {
    if (!tuple_of(t, NI_NUM_FACTORIES, "factories")) return -1;
    int made = 0;
    for (int i = 0; i < NI_NUM_FACTORIES; i++) {
        PyObject *f = tuple_of(ITEM(t, i), 4, "factory (good, coal, power, amount)");
        if (!f) return -1;
        INT_FIELD(ITEM(f, 0), 0, NI_NUM_GOODS - 1, "factory good", c->factory_good[i]);
        INT_FIELD(ITEM(f, 1), 0, 6, "factory coal", c->factory_coal[i]);
        INT_FIELD(ITEM(f, 2), 0, NI_NUM_POWERS - 1, "factory power", c->factory_power[i]);
        INT_FIELD(ITEM(f, 3), 0, 10, "factory amount", c->factory_amount[i]);
        made |= 1 << c->factory_good[i];
    }
    if (made != (1 << NI_NUM_GOODS) - 1) return fail("factories: a good no factory makes");
    return 0;
}

static int parse_contracts(PyObject *t, NiConfig *c) {
    if (!tuple_of(t, NI_NUM_CONTRACTS, "contracts")) return -1;
    for (int k = 0; k < NI_NUM_CONTRACTS; k++) {
        PyObject *item = tuple_of(ITEM(t, k), 4, "contract (demands, vp, bonus, amount)");
        if (!item) return -1;
        int n;
        LIST_FIELD(ITEM(item, 0), NI_MAX_DEMANDS, 1, 4, "contract demands",
                   c->contract_demands[k], n);
        if (n < 1) return fail("contract demands: expected 1..3 values");
        for (int i = 1; i < n; i++)
            if (c->contract_demands[k][i] > c->contract_demands[k][i - 1])
                return fail("contract demands: expected largest first");
        c->contract_len[k] = (int8_t)n;
        INT_FIELD(ITEM(item, 1), 0, 50, "contract vp", c->contract_vp[k]);
        /* "machine" is a factory power only: the Python engine fails on it anywhere else */
        INT_FIELD(ITEM(item, 2), 0, NI_MACHINE - 1, "contract bonus (not machine)",
                  c->contract_bonus[k]);
        INT_FIELD(ITEM(item, 3), 0, 10, "contract amount", c->contract_amount[k]);
    }
    return 0;
}

static int parse_influence(PyObject *t, NiConfig *c) {
    if (!tuple_of(t, 6, "influence (tiles, table, neutral, spaces per region, region bonus, city "
                        "tiles)"))
        return -1;
    INTS_FIELD(ITEM(t, 0), NI_NUM_INFLUENCE_TILES, 1, NI_NUM_TILE_VALUES, "influence tiles",
               c->influence_tiles);
    PyObject *fast = PySequence_Fast(ITEM(t, 1), "influence table: expected 3 rows");
    if (!fast) return -1;
    int bad = PySequence_Fast_GET_SIZE(fast) != 3;
    if (bad) PyErr_SetString(PyExc_ValueError, "influence table: expected 3 rows");
    for (int r = 0; !bad && r < 3; r++) {
        long row[3];
        bad = arg_ints(PySequence_Fast_GET_ITEM(fast, r), 3, 1, NI_NUM_TILE_VALUES,
                       "influence table", row) < 0;
        for (int i = 0; !bad && i < 3; i++) c->influence_table[r][i] = (int8_t)row[i];
    }
    Py_DECREF(fast);
    if (bad) return -1;
    INTS_FIELD(ITEM(t, 2), NI_SPACES_PER_CITY, 0, 9, "neutral", c->neutral);
    INTS_FIELD(ITEM(t, 3), 3, 1, 12, "spaces per region", c->spaces_per_region);
    PyObject *bonus = tuple_of(ITEM(t, 4), NI_NUM_REGIONS, "region bonus");
    if (!bonus) return -1;
    for (int r = 0; r < NI_NUM_REGIONS; r++) {
        PyObject *b = tuple_of(ITEM(bonus, r), 2, "region bonus (kind, amount)");
        if (!b) return -1;
        INT_FIELD(ITEM(b, 0), 0, NI_MACHINE - 1, "region bonus kind (not machine)",
                  c->region_bonus_kind[r]);
        INT_FIELD(ITEM(b, 1), 0, 10, "region bonus amount", c->region_bonus_amount[r]);
    }
    PyObject *cities = tuple_of(ITEM(t, 5), NI_NUM_CITIES, "city tiles");
    if (!cities) return -1;
    for (int i = 0; i < NI_NUM_CITIES; i++) {
        INTS_FIELD(ITEM(cities, i), NI_SPACES_PER_CITY, 0, NI_NUM_GOODS - 1, "city tile goods",
                   c->city_tiles[i]);
        for (int a = 0; a < NI_SPACES_PER_CITY; a++)
            for (int b = a + 1; b < NI_SPACES_PER_CITY; b++)
                if (c->city_tiles[i][a] == c->city_tiles[i][b])
                    return fail("city tile goods: expected 4 distinct goods");
    }
    return 0;
}

static int parse_rewards(PyObject *t, NiConfig *c) {
    if (!PyTuple_Check(t)) {
        PyErr_SetString(PyExc_TypeError, "rewards: expected a tuple of reward tiles");
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(t);
    if (n < 1 || n > NI_MAX_REWARDS) {
        PyErr_Format(PyExc_ValueError, "rewards: expected a tuple of 1..%d reward tiles, got %zd",
                     NI_MAX_REWARDS, n);
        return -1;
    }
    c->num_rewards = (int16_t)n;
    int multiplier[5] = {0};
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *w = tuple_of(ITEM(t, i), 4, "reward (level, multiplier, gift, min_players)");
        if (!w) return -1;
        INT_FIELD(ITEM(w, 0), 1, 4, "reward level", c->reward_level[i]);
        INT_FIELD(ITEM(w, 1), 1, 9, "reward multiplier", c->reward_multiplier[i]);
        INT_FIELD(ITEM(w, 2), 0, 2, "reward gift", c->reward_gift[i]);
        INT_FIELD(ITEM(w, 3), 2, 4, "reward min_players", c->reward_min_players[i]);
        int level = c->reward_level[i];
        if (multiplier[level] && multiplier[level] != c->reward_multiplier[i])
            return fail("rewards: tiles of one level must share one multiplier");
        multiplier[level] = c->reward_multiplier[i];
    }
    return 0;
}

static int parse_achievements(PyObject *t, NiConfig *c) {
    if (!tuple_of(t, NI_NUM_ACHIEVEMENTS, "achievements")) return -1;
    int kinds = 0;
    for (int k = 0; k < NI_NUM_ACHIEVEMENTS; k++) {
        PyObject *a = tuple_of(ITEM(t, k), 3, "achievement (kind, per, printed)");
        if (!a) return -1;
        INT_FIELD(ITEM(a, 0), 0, NI_NUM_ACH_KINDS - 1, "achievement kind", c->achievement_kind[k]);
        INT_FIELD(ITEM(a, 1), 1, 50, "achievement per", c->achievement_per[k]);
        INT_FIELD(ITEM(a, 2), 0, 9, "achievement printed", c->achievement_printed[k]);
        if (kinds >> c->achievement_kind[k] & 1)
            return fail("achievements: each kind may appear only once");
        kinds |= 1 << c->achievement_kind[k];
    }
    return 0;
}

/* The rules' parameters (the checks of data.py and model.py, again). */
int ni_parse_config(PyObject *options, PyObject *tables, NiConfig *c) {
    memset(c, 0, sizeof *c);
    if (parse_options(options, c) < 0) return -1;
    if (!tuple_of(tables, 10, "tables (costs, board, turn track, player board, goods, factories, "
                              "contracts, influence, rewards, achievements)"))
        return -1;
    if (parse_costs(ITEM(tables, 0), c) < 0 || parse_board(ITEM(tables, 1), c) < 0 ||
        parse_track(ITEM(tables, 2), c) < 0 || parse_player_board(ITEM(tables, 3), c) < 0 ||
        parse_goods(ITEM(tables, 4), c) < 0 || parse_factories(ITEM(tables, 5), c) < 0 ||
        parse_contracts(ITEM(tables, 6), c) < 0 || parse_influence(ITEM(tables, 7), c) < 0 ||
        parse_rewards(ITEM(tables, 8), c) < 0 || parse_achievements(ITEM(tables, 9), c) < 0)
        return -1;
    if (c->per_colour * NI_NUM_COLOURS < c->per_space * c->num_spaces)
        return fail("per_colour: too few workers to fill the action spaces once");
    for (int i = 1; i < 4; i++)
        if (c->level_knowledge[i] < c->level_knowledge[i - 1])
            return fail("goods knowledge: must not fall with the level");
    ni_config_finish(c);
    return 0;
}

static NiGameObject *ni_alloc(void) {
    NiGameObject *self = PyObject_New(NiGameObject, &NiGameType);
    if (self) memset(&self->game, 0, sizeof self->game);
    return self;
}

/* ni_new(num_players, rng_state, options, tables) -> NipponGame */
static PyObject *py_ni_new(PyObject *module, PyObject *args) {
    PyObject *players_obj, *rng_obj, *options, *tables;
    (void)module;
    if (!PyArg_ParseTuple(args, "OOOO", &players_obj, &rng_obj, &options, &tables)) return NULL;
    long players;
    if (arg_int(players_obj, NI_MIN_PLAYERS, NI_MAX_PLAYERS, "num_players", &players) < 0)
        return NULL;
    NiConfig config;
    if (ni_parse_config(options, tables, &config) < 0) return NULL;
    Rng rng;
    if (rng_from_tuple(rng_obj, &rng) < 0) return NULL;
    if (!rng.present) {
        PyErr_SetString(PyExc_ValueError, "a new game needs a generator");
        return NULL;
    }
    NiGameObject *self = ni_alloc();
    if (!self) return NULL;
    ni_new_game(&self->game, &config, (int)players, &rng);
    return (PyObject *)self;
}

/* -- import: a Python State's to_dict() (the generator as a state tuple) -------------------- */
#define BIG (1L << 30)

#define GET(key, low, high, field)                                     \
    do {                                                               \
        PyObject *value_ = arg_item(d, key);                           \
        long out_;                                                     \
        if (!value_ || arg_int(value_, low, high, key, &out_) < 0)     \
            return -1;                                                 \
        g->field = out_;                                               \
    } while (0)

/* ``rows`` lists of exactly ``n`` integers in low..high; element (r, i) to out[r * stride + i]
 * (int8, int16 or int32 by ``width``). rows < 0: one flat list of n. */
static int get_rows(PyObject *d, const char *key, int rows, int n, long low, long high, void *out,
                    int width, int stride) {
    PyObject *value = arg_item(d, key);
    if (!value) return -1;
    int flat = rows < 0;
    PyObject *fast = NULL;
    if (!flat) {
        fast = PySequence_Fast(value, "expected a list of rows");
        if (!fast) return -1;
        if (PySequence_Fast_GET_SIZE(fast) != rows) {
            PyErr_Format(PyExc_ValueError, "%s: expected %d rows, got %zd", key, rows,
                         PySequence_Fast_GET_SIZE(fast));
            Py_DECREF(fast);
            return -1;
        }
    }
    long values[64];
    for (int r = 0; r < (flat ? 1 : rows); r++) {
        PyObject *row = flat ? value : PySequence_Fast_GET_ITEM(fast, r);
        if (arg_ints(row, n, low, high, key, values) < 0) {
            Py_XDECREF(fast);
            return -1;
        }
        for (int i = 0; i < n; i++) {
            size_t at = (size_t)r * stride + i;
            if (width == 1) ((int8_t *)out)[at] = (int8_t)values[i];
            else if (width == 2) ((int16_t *)out)[at] = (int16_t)values[i];
            else ((int32_t *)out)[at] = (int32_t)values[i];
        }
    }
    Py_XDECREF(fast);
    return 0;
}

static int bad_state(const char *message) {
    PyErr_SetString(PyExc_ValueError, message);
    return -1;
}

static int import_state(NiGame *g, PyObject *d) {
    const NiConfig *c = &g->config;
    int n = g->num_players;
    PyObject *view = arg_item(d, "is_view");
    if (!view) return -1;
    int is_view = PyObject_IsTrue(view);
    if (is_view < 0) return -1;
    GET("current", 0, n - 1, current);
    GET("first_player", 0, n - 1, first_player);
    GET("phase", 0, NI_NUM_PHASES - 1, phase);
    GET("turn_count", 0, BIG, turn_count);
    GET("marker", 0, c->track_spaces - 1, marker);
    GET("golden_turns", -2, BIG, golden_turns);
    GET("game_over", 0, 1, game_over);
    GET("machinery_supply", 0, BIG, machinery_supply);
    GET("pend_kind", -1, NI_NUM_KINDS - 1, pend_kind);
    GET("pend_units", 0, 3, pend_units);
    GET("pend_mask", 0, 63, pend_mask);
    GET("pend_region", -1, NI_NUM_REGIONS - 1, pend_region);
    GET("pend_contract", -1, NI_NUM_CONTRACTS - 1, pend_contract);
    GET("pend_demand", 0, NI_MAX_DEMANDS, pend_demand); /* 3 once a contract of 3 is paid */
    GET("pend_goods", 0, 63, pend_goods);
    GET("pend_space", -1, NI_NUM_CITIES * NI_SPACES_PER_CITY - 1, pend_space);
    GET("pend_cubes", 0, 3, pend_cubes);
    GET("pend_multiplier", 0, 9, pend_multiplier);
    if (get_rows(d, "spaces", c->num_spaces, NI_NUM_COLOURS, 0, NI_MAX_DRAWS, g->spaces, 2,
                 NI_NUM_COLOURS) < 0 ||
        get_rows(d, "rows", g->num_rows, NI_NUM_COLOURS, 0, NI_MAX_DRAWS, g->rows, 2,
                 NI_NUM_COLOURS) < 0 ||
        get_rows(d, "owed", -1, c->num_spaces + g->num_rows, 0, c->per_space, g->owed, 2, 0) < 0 ||
        get_rows(d, "bag", -1, NI_NUM_COLOURS, 0, NI_MAX_DRAWS, g->bag, 2, 0) < 0 ||
        get_rows(d, "factory_owner", -1, NI_NUM_FACTORIES, -1, n - 1, g->factory_owner, 1, 0) < 0 ||
        get_rows(d, "city_tile", -1, NI_NUM_CITIES, 0, NI_NUM_CITIES - 1, g->city_tile, 1, 0) < 0 ||
        get_rows(d, "city_turn", -1, NI_NUM_CITIES, 0, 3, g->city_turn, 1, 0) < 0 ||
        get_rows(d, "city_goods", NI_NUM_CITIES, NI_SPACES_PER_CITY, 0, NI_NUM_GOODS - 1,
                 g->city_goods, 1, NI_SPACES_PER_CITY) < 0 ||
        get_rows(d, "influence_owner", NI_NUM_CITIES, NI_SPACES_PER_CITY, -1, n - 1,
                 g->influence_owner, 1, NI_SPACES_PER_CITY) < 0 ||
        get_rows(d, "influence_value", NI_NUM_CITIES, NI_SPACES_PER_CITY, 0, NI_NUM_TILE_VALUES,
                 g->influence_value, 1, NI_SPACES_PER_CITY) < 0 ||
        get_rows(d, "trains_in", NI_NUM_REGIONS, n, 0, NI_MAX_PIECES, g->trains_in, 1,
                 NI_MAX_PLAYERS) < 0 ||
        get_rows(d, "ships_in", NI_NUM_REGIONS, n, 0, NI_MAX_PIECES, g->ships_in, 1,
                 NI_MAX_PLAYERS) < 0 ||
        get_rows(d, "scored", c->num_scorings, n, -BIG, BIG, g->scored, 4, NI_MAX_PLAYERS) < 0 ||
        get_rows(d, "yen", -1, n, 0, BIG, g->yen, 4, 0) < 0 ||
        get_rows(d, "coal", -1, n, 0, BIG, g->coal, 4, 0) < 0 ||
        get_rows(d, "blueprints", -1, n, 0, BIG, g->blueprints, 4, 0) < 0 ||
        get_rows(d, "vp", -1, n, -BIG, BIG, g->vp, 4, 0) < 0 ||
        get_rows(d, "money_pos", -1, n, 0, c->money_len - 1, g->money_pos, 1, 0) < 0 ||
        get_rows(d, "coal_pos", -1, n, 0, c->coal_len - 1, g->coal_pos, 1, 0) < 0 ||
        get_rows(d, "knowledge", -1, n, 0, c->knowledge_max, g->knowledge, 1, 0) < 0 ||
        get_rows(d, "factory_tile", n, NI_NUM_GOODS, -1, NI_NUM_FACTORIES - 1, g->factory_tile, 1,
                 NI_NUM_GOODS) < 0 ||
        get_rows(d, "machine", n, NI_NUM_GOODS, 0, 2, g->machine, 1, NI_NUM_GOODS) < 0 ||
        get_rows(d, "cubes", n, NI_NUM_GOODS, 0, 1 << 14, g->cubes, 2, NI_NUM_GOODS) < 0 ||
        get_rows(d, "machine_reserve", -1, n, 0, 1 << 14, g->machine_reserve, 2, 0) < 0 ||
        get_rows(d, "trains_placed", -1, n, 0, c->trains, g->trains_placed, 1, 0) < 0 ||
        get_rows(d, "ships_placed", -1, n, 0, c->ships, g->ships_placed, 1, 0) < 0 ||
        get_rows(d, "contracts_done", n, NI_NUM_CONTRACTS, 0, 1, g->contracts_done, 1,
                 NI_NUM_CONTRACTS) < 0 ||
        get_rows(d, "tiles_supply", n, NI_NUM_TILE_VALUES, 0, 100, g->tiles_supply, 1,
                 NI_NUM_TILE_VALUES) < 0 ||
        get_rows(d, "tiles_removed", -1, n, 0, 100, g->tiles_removed, 1, 0) < 0 ||
        get_rows(d, "achievements", n, NI_NUM_ACHIEVEMENTS, 0, 9, g->achievements, 1,
                 NI_NUM_ACHIEVEMENTS) < 0 ||
        get_rows(d, "last_turn", -1, n, -1, BIG, g->last_turn, 4, 0) < 0)
        return -1;
    /* the workers: a list of at most 6 colours per seat */
    PyObject *workers = arg_item(d, "workers");
    if (!workers) return -1;
    PyObject *fast = PySequence_Fast(workers, "workers: expected a list per seat");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        Py_DECREF(fast);
        return bad_state("workers: expected one list per seat");
    }
    for (int p = 0; p < n; p++) {
        long colours[NI_WORKER_SPACES];
        int k = arg_int_list(PySequence_Fast_GET_ITEM(fast, p), NI_WORKER_SPACES, 0,
                             NI_NUM_COLOURS - 1, "workers", colours);
        if (k < 0) {
            Py_DECREF(fast);
            return -1;
        }
        g->num_workers[p] = (int8_t)k;
        for (int i = 0; i < k; i++) g->workers[p][i] = (int8_t)colours[i];
    }
    Py_DECREF(fast);
    /* the reward tiles on display: distinct indices of the components' tiles */
    PyObject *rewards = arg_item(d, "rewards_left");
    if (!rewards) return -1;
    long left[NI_MAX_REWARDS];
    int k = arg_int_list(rewards, c->num_rewards, 0, c->num_rewards - 1, "rewards_left", left);
    if (k < 0) return -1;
    g->num_rewards_left = (int16_t)k;
    for (int i = 0; i < k; i++) g->rewards_left[i] = (uint8_t)left[i];
    /* what the phase indexes must be there */
    if ((g->phase == NI_CUBES || g->phase == NI_TILE) && g->pend_space < 0)
        return bad_state("pend_space: phases 'cubes' and 'tile' need the chosen space");
    if (g->phase == NI_TILE && g->pend_cubes < 1)
        return bad_state("pend_cubes: phase 'tile' needs 1..3 cubes");
    if (g->phase == NI_DELIVER &&
        (g->pend_contract < 0 || g->pend_demand >= c->contract_len[g->pend_contract]))
        return bad_state("pend_contract: phase 'deliver' needs a contract and its next demand");
    for (int city = 0; city < NI_NUM_CITIES; city++)
        for (int i = 0; i < NI_SPACES_PER_CITY; i++)
            if ((g->influence_owner[city][i] >= 0) != (g->influence_value[city][i] > 0))
                return bad_state("influence_value: a tile of value 1..6 exactly where an owner is");
    int in_bag = 0;
    for (int colour = 0; colour < NI_NUM_COLOURS; colour++) in_bag += g->bag[colour];
    if (in_bag > NI_NUM_COLOURS * NI_MAX_PER_COLOUR)
        return bad_state("bag: more workers than the largest bag holds");
    PyObject *rng = arg_item(d, "rng");
    if (!rng || rng_from_tuple(rng, &g->rng) < 0) return -1;
    if (is_view && g->rng.present) return bad_state("rng: a view has no generator");
    if (!is_view && !g->rng.present)
        return bad_state("rng: the bag draws during play: a generator is needed");
    return 0;
}
#undef GET

/* ni_import(options, tables, state) -> NipponGame; ``state`` a State.to_dict() with its "rng"
 * as a generator state tuple, or a view's (is_view true, rng None: to search from, never to play
 * on). */
static PyObject *py_ni_import(PyObject *module, PyObject *args) {
    PyObject *options, *tables, *state;
    (void)module;
    if (!PyArg_ParseTuple(args, "OOO!", &options, &tables, &PyDict_Type, &state)) return NULL;
    long players;
    PyObject *players_obj = arg_item(state, "num_players");
    if (!players_obj ||
        arg_int(players_obj, NI_MIN_PLAYERS, NI_MAX_PLAYERS, "num_players", &players) < 0)
        return NULL;
    NiGameObject *self = ni_alloc();
    if (!self) return NULL;
    self->game.num_players = (int8_t)players;
    if (ni_parse_config(options, tables, &self->game.config) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    self->game.num_rows = self->game.config.rows[players - 2];
    if (import_state(&self->game, state) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

/* -- the game object ------------------------------------------------------------------------- */
static void NiGame_dealloc(NiGameObject *self) { PyObject_Free(self); }

static PyObject *NiGame_clone(NiGameObject *self, PyObject *unused) {
    (void)unused;
    NiGameObject *copy = ni_alloc();
    if (copy) copy->game = self->game;
    return (PyObject *)copy;
}

static PyObject *int_list(const void *values, int n, int width) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        long value = width == 1   ? ((const int8_t *)values)[i]
                     : width == 2 ? ((const int16_t *)values)[i]
                     : width == 4 ? ((const int32_t *)values)[i]
                                  : ((const uint8_t *)values)[i];
        PyObject *item = PyLong_FromLong(value);
        if (!item) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

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

static PyObject *legal_list(const NiGame *g) {
    int16_t legal[NI_NUM_ACTIONS];
    return arg_action_list(legal, ni_legal_actions(g, legal));
}

static PyObject *NiGame_legal_actions(NiGameObject *self, PyObject *unused) {
    (void)unused;
    return legal_list(&self->game);
}

/* IllegalActionError(action, phase name, legal, names, why), as the Python engine raises it;
 * the names from the engine's action table (one owner of the names). */
static PyObject *illegal(NiGameObject *self, PyObject *action, long index, int in_range) {
    const NiGame *g = &self->game;
    PyObject *legal = legal_list(g);
    PyObject *module = legal ? PyImport_ImportModule("airships_env.games.nippon.engine.actions")
                             : NULL;
    PyObject *table = module ? PyObject_GetAttrString(module, "ACTION_NAMES") : NULL;
    Py_XDECREF(module);
    PyObject *names = table ? PyList_New(PyList_GET_SIZE(legal)) : NULL;
    for (Py_ssize_t i = 0; names && i < PyList_GET_SIZE(legal); i++) {
        PyObject *name = PySequence_GetItem(table, PyLong_AsLong(PyList_GET_ITEM(legal, i)));
        if (!name) {
            Py_CLEAR(names);
            break;
        }
        PyList_SET_ITEM(names, i, name);
    }
    char why[128] = "not legal now";
    if (g->game_over) snprintf(why, sizeof why, "the game is over");
    else if (!in_range) snprintf(why, sizeof why, "outside 0..%d", NI_NUM_ACTIONS - 1);
    else if (names) {
        PyObject *name = PySequence_GetItem(table, index);
        const char *text = name ? PyUnicode_AsUTF8(name) : NULL;
        if (text) snprintf(why, sizeof why, "'%s' is not legal now", text);
        Py_XDECREF(name);
        if (!text) Py_CLEAR(names);
    }
    Py_XDECREF(table);
    return arg_raise_illegal(action, ni_phase_name(g->phase), legal, names, why);
}

/* apply(action) -> (action, seat, draws) */
static PyObject *NiGame_apply(NiGameObject *self, PyObject *action_obj) {
    if (!PyLong_Check(action_obj) || PyBool_Check(action_obj)) {
        PyErr_Format(PyExc_TypeError, "action: expected an integer, got %.100s",
                     Py_TYPE(action_obj)->tp_name);
        return NULL;
    }
    int overflow;
    long action = PyLong_AsLongAndOverflow(action_obj, &overflow);
    if (action == -1 && PyErr_Occurred()) return NULL;
    if (overflow || action < 0 || action >= NI_NUM_ACTIONS)
        return illegal(self, action_obj, 0, 0);
    if (!self->game.rng.present) { /* a view: the bag's order is not there to draw from */
        PyObject *args = Py_BuildValue("(s)", "a view cannot advance: determinize it first");
        arg_raise_typed("airships_env.games.nippon.engine.errors", "ViewError", args,
                        "a view cannot advance: determinize it first");
        Py_XDECREF(args);
        return NULL;
    }
    NiRecord record;
    if (ni_apply(&self->game, (int)action, &record) != NI_OK)
        return illegal(self, action_obj, action, 1);
    PyObject *draws = PyTuple_New(record.num_draws);
    if (!draws) return NULL;
    for (int i = 0; i < record.num_draws; i++) {
        PyObject *item = PyLong_FromLong(record.draws[i]);
        if (!item) {
            Py_DECREF(draws);
            return NULL;
        }
        PyTuple_SET_ITEM(draws, i, item);
    }
    return Py_BuildValue("(iiN)", record.action, record.seat, draws);
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

PyObject *ni_export_dict(const NiGame *g) {
    const NiConfig *c = &g->config;
    int n = g->num_players;
    PyObject *out = PyDict_New();
    if (!out) return NULL;
    SET("num_players", PyLong_FromLong(n));
    SET("current", PyLong_FromLong(g->current));
    SET("first_player", PyLong_FromLong(g->first_player));
    SET("phase", PyLong_FromLong(g->phase));
    SET("turn_count", PyLong_FromLong(g->turn_count));
    SET("marker", PyLong_FromLong(g->marker));
    SET("golden_turns", PyLong_FromLong(g->golden_turns));
    SET("game_over", PyLong_FromLong(g->game_over));
    SET("machinery_supply", PyLong_FromLong(g->machinery_supply));
    SET("pend_kind", PyLong_FromLong(g->pend_kind));
    SET("pend_units", PyLong_FromLong(g->pend_units));
    SET("pend_mask", PyLong_FromLong(g->pend_mask));
    SET("pend_region", PyLong_FromLong(g->pend_region));
    SET("pend_contract", PyLong_FromLong(g->pend_contract));
    SET("pend_demand", PyLong_FromLong(g->pend_demand));
    SET("pend_goods", PyLong_FromLong(g->pend_goods));
    SET("pend_space", PyLong_FromLong(g->pend_space));
    SET("pend_cubes", PyLong_FromLong(g->pend_cubes));
    SET("pend_multiplier", PyLong_FromLong(g->pend_multiplier));
    SET("spaces", rows_list(g->spaces, c->num_spaces, NI_NUM_COLOURS, 2, NI_NUM_COLOURS));
    SET("rows", rows_list(g->rows, g->num_rows, NI_NUM_COLOURS, 2, NI_NUM_COLOURS));
    SET("owed", int_list(g->owed, c->num_spaces + g->num_rows, 2));
    SET("bag", int_list(g->bag, NI_NUM_COLOURS, 2));
    SET("factory_owner", int_list(g->factory_owner, NI_NUM_FACTORIES, 1));
    SET("city_tile", int_list(g->city_tile, NI_NUM_CITIES, 1));
    SET("city_turn", int_list(g->city_turn, NI_NUM_CITIES, 1));
    SET("city_goods", rows_list(g->city_goods, NI_NUM_CITIES, NI_SPACES_PER_CITY, 1,
                                NI_SPACES_PER_CITY));
    SET("influence_owner", rows_list(g->influence_owner, NI_NUM_CITIES, NI_SPACES_PER_CITY, 1,
                                     NI_SPACES_PER_CITY));
    SET("influence_value", rows_list(g->influence_value, NI_NUM_CITIES, NI_SPACES_PER_CITY, 1,
                                     NI_SPACES_PER_CITY));
    SET("trains_in", rows_list(g->trains_in, NI_NUM_REGIONS, n, 1, NI_MAX_PLAYERS));
    SET("ships_in", rows_list(g->ships_in, NI_NUM_REGIONS, n, 1, NI_MAX_PLAYERS));
    SET("rewards_left", int_list(g->rewards_left, g->num_rewards_left, 0));
    SET("scored", rows_list(g->scored, c->num_scorings, n, 4, NI_MAX_PLAYERS));
    SET("yen", int_list(g->yen, n, 4));
    SET("coal", int_list(g->coal, n, 4));
    SET("blueprints", int_list(g->blueprints, n, 4));
    SET("vp", int_list(g->vp, n, 4));
    SET("money_pos", int_list(g->money_pos, n, 1));
    SET("coal_pos", int_list(g->coal_pos, n, 1));
    SET("knowledge", int_list(g->knowledge, n, 1));
    PyObject *workers = PyList_New(n);
    for (int p = 0; workers && p < n; p++) {
        PyObject *row = int_list(g->workers[p], g->num_workers[p], 1);
        if (!row) Py_CLEAR(workers);
        else PyList_SET_ITEM(workers, p, row);
    }
    SET("workers", workers);
    SET("factory_tile", rows_list(g->factory_tile, n, NI_NUM_GOODS, 1, NI_NUM_GOODS));
    SET("machine", rows_list(g->machine, n, NI_NUM_GOODS, 1, NI_NUM_GOODS));
    SET("cubes", rows_list(g->cubes, n, NI_NUM_GOODS, 2, NI_NUM_GOODS));
    SET("machine_reserve", int_list(g->machine_reserve, n, 2));
    SET("trains_placed", int_list(g->trains_placed, n, 1));
    SET("ships_placed", int_list(g->ships_placed, n, 1));
    SET("contracts_done", rows_list(g->contracts_done, n, NI_NUM_CONTRACTS, 1, NI_NUM_CONTRACTS));
    SET("tiles_supply", rows_list(g->tiles_supply, n, NI_NUM_TILE_VALUES, 1, NI_NUM_TILE_VALUES));
    SET("tiles_removed", int_list(g->tiles_removed, n, 1));
    SET("achievements",
        rows_list(g->achievements, n, NI_NUM_ACHIEVEMENTS, 1, NI_NUM_ACHIEVEMENTS));
    SET("last_turn", int_list(g->last_turn, n, 4));
    SET("rng", rng_to_tuple(&g->rng));
    SET("is_view", PyBool_FromLong(!g->rng.present));
    return out;
}
#undef SET

/* export() -> the state as State.to_dict()'s fields (the generator as a state tuple). */
static PyObject *NiGame_export(NiGameObject *self, PyObject *unused) {
    (void)unused;
    return ni_export_dict(&self->game);
}

/* observe(seat, out): ``seat``'s observation into ``out``, a writable C-contiguous float32
 * buffer of exactly obs_size items (the layout's); a game whose data file has more action spaces
 * or worker rows than the layout holds is refused. */
static PyObject *NiGame_observe(NiGameObject *self, PyObject *args) {
    PyObject *seat_obj, *out_obj;
    if (!PyArg_ParseTuple(args, "OO", &seat_obj, &out_obj)) return NULL;
    long seat;
    if (arg_int(seat_obj, 0, self->game.num_players - 1, "seat", &seat) < 0) return NULL;
    Py_buffer out;
    if (!ni_obs_fits(&self->game)) {
        PyErr_Format(PyExc_ValueError,
                     "%d action spaces and %d worker rows do not fit the observation's pieces "
                     "(%d and %d)",
                     self->game.config.num_spaces, self->game.num_rows, self->game.config.obs_spaces,
                     self->game.config.obs_rows[self->game.num_players - 2]);
        return NULL;
    }
    if (arg_float_out(out_obj, ni_obs_size(&self->game), &out) < 0) return NULL;
    ni_observe(&self->game, (int)seat, (float *)out.buf);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

/* The weights tuple (NiBotWeights' fields in order, growth last): 29 finite floats. */
int ni_parse_weights(PyObject *obj, NiBotWeights *w) {
    enum { N = 29 };
    PyObject *t = tuple_of(obj, N, "weights");
    if (!t) return -1;
    double v[N];
    for (int i = 0; i < N; i++) {
        v[i] = PyFloat_AsDouble(PyTuple_GET_ITEM(t, i));
        if (v[i] == -1.0 && PyErr_Occurred()) return -1;
        if (!(v[i] - v[i] == 0.0)) {
            PyErr_Format(PyExc_ValueError, "weights: item %d is not a finite number", i);
            return -1;
        }
    }
    double *fields[] = {&w->yen, &w->coal, &w->money_step, &w->coal_step, &w->knowledge,
                        &w->blueprint, &w->factory, &w->machine, &w->cube, &w->piece,
                        &w->influence, &w->colour, &w->achievements};
    for (int i = 0; i < 13; i++) *fields[i] = v[i];
    w->planning = v[13] != 0.0;
    double *rest[] = {&w->majority, &w->later_phase, &w->reward_level, &w->turns_per_step,
                      &w->turns_per_consolidation, &w->contract_cube};
    for (int i = 0; i < 6; i++) *rest[i] = v[14 + i];
    for (int i = 0; i < NI_NUM_ACH_KINDS; i++) w->growth[i] = v[20 + i];
    return 0;
}

/* bot_action(kind, rng_state, weights, memory) -> (action, rng_state after, memory after): the
 * native bot ``kind`` (1 random, 2 greedy, 3 heuristic) choosing for the seat to act with its own
 * generator; ``memory`` is (plan, key_turn, key_seat), the Python bot's _plan and _plan_key. */
static PyObject *NiGame_bot_action(NiGameObject *self, PyObject *args) {
    PyObject *kind_obj, *rng_obj, *weights_obj, *memory_obj;
    if (!PyArg_ParseTuple(args, "OOOO", &kind_obj, &rng_obj, &weights_obj, &memory_obj))
        return NULL;
    long kind;
    if (arg_int(kind_obj, NI_BOT_RANDOM, NI_BOT_HEURISTIC,
                "bot kind (1 random, 2 greedy, 3 heuristic)", &kind) < 0)
        return NULL;
    NiBotWeights weights;
    if (ni_parse_weights(weights_obj, &weights) < 0) return NULL;
    PyObject *memory = tuple_of(memory_obj, 3, "memory (plan, key_turn, key_seat)");
    if (!memory) return NULL;
    NiBotMemory m;
    long plan[NI_BOT_PLAN];
    int len = arg_int_list(PyTuple_GET_ITEM(memory, 0), NI_BOT_PLAN, 0, NI_NUM_ACTIONS - 1,
                           "memory: plan", plan);
    if (len < 0) return NULL;
    long key_turn, key_seat;
    if (arg_int(PyTuple_GET_ITEM(memory, 1), -1, INT32_MAX, "memory: key_turn", &key_turn) < 0 ||
        arg_int(PyTuple_GET_ITEM(memory, 2), -1, NI_MAX_PLAYERS - 1, "memory: key_seat",
                &key_seat) < 0)
        return NULL;
    for (int i = 0; i < len; i++) m.plan[i] = (int16_t)plan[i];
    m.len = len;
    m.key_turn = (int32_t)key_turn;
    m.key_seat = (int8_t)key_seat;
    Rng rng;
    if (gsb_bot_rng(rng_obj, self->game.game_over, &rng) < 0) return NULL;
    if (kind != NI_BOT_RANDOM && weights.planning && self->game.config.colour_cost == 0) {
        PyErr_SetString(PyExc_ValueError, "a planning evaluation divides by the colour cost: 0");
        return NULL;
    }
    int action = ni_bot_action(&self->game, (int)kind, &weights, &rng, &m);
    PyObject *rest = int_list(m.plan, m.len, 2);
    if (!rest) return NULL;
    return Py_BuildValue("(iN(Nil))", action, rng_to_tuple(&rng), rest, (long)m.key_turn,
                         (long)m.key_seat);
}

/* evaluate(seat, weights) -> the position's worth to ``seat`` (agents.bots.nippon.evaluate). */
static PyObject *NiGame_evaluate(NiGameObject *self, PyObject *args) {
    PyObject *seat_obj, *weights_obj;
    if (!PyArg_ParseTuple(args, "OO", &seat_obj, &weights_obj)) return NULL;
    long seat;
    if (arg_int(seat_obj, 0, self->game.num_players - 1, "seat", &seat) < 0) return NULL;
    NiBotWeights weights;
    if (ni_parse_weights(weights_obj, &weights) < 0) return NULL;
    if (weights.planning && self->game.config.colour_cost == 0) {
        PyErr_SetString(PyExc_ValueError, "a planning evaluation divides by the colour cost: 0");
        return NULL;
    }
    return PyFloat_FromDouble(ni_evaluate(&self->game, (int)seat, &weights));
}

/* view(seat) -> NipponGame: ``seat``'s view (ni_view, State.view), without a generator. */
static PyObject *NiGame_view(NiGameObject *self, PyObject *args) {
    long seat;
    if (gsb_seat_arg(args, self->game.num_players, &seat) < 0) return NULL;
    NiGameObject *out = ni_alloc();
    if (out) ni_view(&self->game, (int)seat, &out->game);
    return (PyObject *)out;
}

/* determinize(seat, rng_state) -> (NipponGame, rng_state after): a world consistent with
 * ``seat``'s view (ni_determinize, State.determinize), drawn from the generator given. */
static PyObject *NiGame_determinize(NiGameObject *self, PyObject *args) {
    long seat;
    Rng rng;
    if (gsb_seat_rng_args(args, self->game.num_players, &seat, &rng,
                          "a determinization needs a generator") < 0)
        return NULL;
    NiGameObject *out = ni_alloc();
    if (!out) return NULL;
    ni_determinize(&self->game, (int)seat, &rng, &out->game);
    return Py_BuildValue("(NN)", (PyObject *)out, rng_to_tuple(&rng));
}

/* results() -> each seat's result of the finished game (ni_results: E4's winners share 1). */
static PyObject *NiGame_results(NiGameObject *self, PyObject *unused) {
    (void)unused;
    if (!self->game.game_over) {
        PyErr_SetString(PyExc_ValueError, "results: the game is not over");
        return NULL;
    }
    double values[NI_MAX_PLAYERS];
    ni_results(&self->game, values);
    return gsb_float_list(values, self->game.num_players);
}

/* values() -> each seat's value for the search (ni_search_values, NipponGame.evaluate). */
static PyObject *NiGame_values(NiGameObject *self, PyObject *unused) {
    (void)unused;
    double values[NI_MAX_PLAYERS];
    ni_search_values(&self->game, values);
    return gsb_float_list(values, self->game.num_players);
}

/* search(seat, (sims, seconds, c, max_rollout, rollout, prior, bias, playout), rng_state,
 *        (weights of bot 1, bot 2, bot 3))
 *   -> (action, simulations, nodes, rng_state after, ((action, visits, mean), ...))
 * The generic ISMCTS (gsearch.c, ni_search) for ``seat``, who must be the seat to act, from
 * this game as the seat sees it (a view or the true state: only the seat's view is read); the
 * GIL is released while it runs. sims 0: no simulation budget; seconds 0: no time budget (one is
 * set); rollout -1: rollouts to the end; prior, playout 0: none, else a bot kind (1..3), playing
 * with its weights (parse_weights' tuples, by bot code). */
static int run_ni_search(const void *root, int seat, const GsOptions *options, const void *data,
                         Rng *rng, GsResult *result) {
    return ni_search(root, seat, options, data, rng, result);
}

static PyObject *NiGame_search(NiGameObject *self, PyObject *args) {
    GsbCall call;
    if (gsb_parse(args, 1, self->game.num_players, NI_BOT_HEURISTIC, &call) < 0) return NULL;
    PyObject *weights_tuple = tuple_of(call.extra, NI_BOT_HEURISTIC,
                                       "search: weights (one tuple per bot 1..3)");
    if (!weights_tuple) return NULL;
    NiBotWeights weights[NI_BOT_HEURISTIC + 1];
    memset(weights, 0, sizeof weights);
    for (int bot = 1; bot <= NI_BOT_HEURISTIC; bot++)
        if (ni_parse_weights(PyTuple_GET_ITEM(weights_tuple, bot - 1), &weights[bot]) < 0)
            return NULL;
    for (int bot = NI_BOT_GREEDY; bot <= NI_BOT_HEURISTIC; bot++)
        if ((call.options.prior == bot || call.options.playout == bot) && weights[bot].planning &&
            self->game.config.colour_cost == 0) {
            PyErr_SetString(PyExc_ValueError,
                            "search: a planning evaluation divides by the colour cost: 0");
            return NULL;
        }
    if (gsb_turn(&call, self->game.game_over, self->game.current) < 0) return NULL;
    NiGame root = self->game; /* the object may change while the GIL is released */
    return gsb_run(&call, &GS_NIPPON, &root, run_ni_search, weights, NULL);
}

static PyObject *NiGame_get_obs_size(NiGameObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(ni_obs_size(&self->game));
}

static PyObject *NiGame_get_current(NiGameObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->game.current);
}

static PyObject *NiGame_get_phase(NiGameObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->game.phase);
}

static PyObject *NiGame_get_num_players(NiGameObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->game.num_players);
}

static PyObject *NiGame_get_game_over(NiGameObject *self, void *closure) {
    (void)closure;
    return PyBool_FromLong(self->game.game_over);
}

static PyMethodDef NiGame_methods[] = {
    {"clone", (PyCFunction)NiGame_clone, METH_NOARGS, "An independent copy."},
    {"legal_actions", (PyCFunction)NiGame_legal_actions, METH_NOARGS, "The legal actions, sorted."},
    {"apply", (PyCFunction)NiGame_apply, METH_O, "apply(action) -> (action, seat, draws)"},
    {"export", (PyCFunction)NiGame_export, METH_NOARGS, "The state as State.to_dict()'s fields."},
    {"observe", (PyCFunction)NiGame_observe, METH_VARARGS,
     "observe(seat, out): the seat's observation into a float32 buffer of obs_size items."},
    {"bot_action", (PyCFunction)NiGame_bot_action, METH_VARARGS,
     "bot_action(kind, rng_state, weights, memory) -> (action, rng_state, memory)."},
    {"evaluate", (PyCFunction)NiGame_evaluate, METH_VARARGS,
     "evaluate(seat, weights) -> the position's worth to the seat."},
    {"view", (PyCFunction)NiGame_view, METH_VARARGS,
     "view(seat) -> the seat's view (no generator)."},
    {"determinize", (PyCFunction)NiGame_determinize, METH_VARARGS,
     "determinize(seat, rng_state) -> (world, rng_state after)."},
    {"results", (PyCFunction)NiGame_results, METH_NOARGS,
     "results() -> each seat's result of the finished game (winners share 1)."},
    {"values", (PyCFunction)NiGame_values, METH_NOARGS,
     "values() -> each seat's value for the search (NipponGame.evaluate)."},
    {"search", (PyCFunction)NiGame_search, METH_VARARGS,
     "search(seat, options, rng_state, weights) -> (action, sims, nodes, rng_state, root)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef NiGame_getset[] = {
    {"current_player", (getter)NiGame_get_current, NULL, "The seat to act.", NULL},
    {"phase", (getter)NiGame_get_phase, NULL, "The phase (0 turn .. 14 over).", NULL},
    {"num_players", (getter)NiGame_get_num_players, NULL, "The number of players.", NULL},
    {"game_over", (getter)NiGame_get_game_over, NULL, "True once the game is over.", NULL},
    {"obs_size", (getter)NiGame_get_obs_size, NULL, "The length of a seat's observation.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject NiGameType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "airships_env.native._core.NipponGame",
    .tp_basicsize = sizeof(NiGameObject),
    .tp_dealloc = (destructor)NiGame_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_methods = NiGame_methods,
    .tp_getset = NiGame_getset,
    .tp_doc = "One game of Nippon in the native core (ni_new, ni_import).",
};

/* ni_random_games(num_players, games, seed, options, tables) -> actions applied: random legal
 * play in the core alone (the engine benchmark), the GIL released. Game g deals (and draws its
 * bag) from PCG64(SeedSequence(seed, spawn_key=(g, 0))) and chooses uniform_below(number of legal
 * actions) from (g, 1), as Airships' random_games does; a game stops after NI_RANDOM_GAME_STEPS
 * actions. */
#define NI_RANDOM_GAME_STEPS 10000000L
static PyObject *py_ni_random_games(PyObject *module, PyObject *args) {
    PyObject *players_obj, *games_obj, *seed_obj, *options, *tables;
    (void)module;
    if (!PyArg_ParseTuple(args, "OOOOO", &players_obj, &games_obj, &seed_obj, &options, &tables))
        return NULL;
    long players, games, seed;
    if (arg_int(players_obj, NI_MIN_PLAYERS, NI_MAX_PLAYERS, "num_players", &players) < 0 ||
        arg_int(games_obj, 0, 1L << 30, "games", &games) < 0 ||
        arg_int(seed_obj, 0, 0xFFFFFFFFL, "seed (a 32-bit word)", &seed) < 0)
        return NULL;
    NiConfig config;
    if (ni_parse_config(options, tables, &config) < 0) return NULL;
    long long actions = 0;
    uint32_t entropy = (uint32_t)seed;
    NiGame *game = PyMem_Malloc(sizeof *game);
    if (!game) return PyErr_NoMemory();
    Py_BEGIN_ALLOW_THREADS
    int16_t legal[NI_NUM_ACTIONS];
    for (long g = 0; g < games; g++) {
        Rng deal, choices;
        uint32_t spawn[2] = {(uint32_t)g, 0};
        rng_seed_sequence(&deal, &entropy, 1, spawn, 2);
        spawn[1] = 1;
        rng_seed_sequence(&choices, &entropy, 1, spawn, 2);
        ni_new_game(game, &config, (int)players, &deal);
        long steps = 0;
        while (!game->game_over && steps < NI_RANDOM_GAME_STEPS) {
            int n = ni_legal_actions(game, legal);
            ni_apply_legal(game, legal[uniform_below(&choices, (uint64_t)n)], NULL);
            steps++;
        }
        actions += steps;
    }
    Py_END_ALLOW_THREADS
    PyMem_Free(game);
    return PyLong_FromLongLong(actions);
}

static PyMethodDef nippon_functions[] = {
    {"ni_random_games", py_ni_random_games, METH_VARARGS,
     "ni_random_games(num_players, games, seed, options, tables) -> actions applied"},
    {"ni_new", py_ni_new, METH_VARARGS,
     "ni_new(num_players, rng_state, options, tables) -> NipponGame"},
    {"ni_import", py_ni_import, METH_VARARGS, "ni_import(options, tables, state_dict) -> NipponGame"},
    {NULL, NULL, 0, NULL},
};

int nippon_register(PyObject *module) {
    if (PyType_Ready(&NiGameType) < 0) return -1;
    Py_INCREF(&NiGameType);
    if (PyModule_AddObject(module, "NipponGame", (PyObject *)&NiGameType) < 0) return -1;
    if (PyModule_AddIntConstant(module, "NI_NUM_ACTIONS", NI_NUM_ACTIONS) < 0) return -1;
    if (nippon_batch_register(module) < 0) return -1;
    return PyModule_AddFunctions(module, nippon_functions);
}
