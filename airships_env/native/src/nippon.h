/* The native core of Nippon: the rules of docs/nippon/RULES.md in C11, bit-identical to the
 * Python reference (airships_env/games/nippon/engine), which stays the readable reference and the
 * oracle (tests/native/test_nippon_native.py).
 *
 * The state is a translation of the Python State: plain integers and fixed arrays, sized for the
 * largest game any valid data file allows (9 action spaces, 12 worker rows, 40 workers of a
 * colour, tracks of 40 spaces, 20 turn-track spaces with 6 scorings), so that one game is one flat
 * struct: a copy is a memcpy, a batch is an array. The components are not compiled in: the
 * binding takes the tables the Python loader validated (airships_env/games/nippon/engine/data.py:
 * costs, the action board, workers and bag, factories, contracts, influence tiles and table,
 * regions, city tiles, tracks, rewards, achievements, scoring tables), so an edited data file
 * plays in C exactly as in Python.
 *
 * Chance is the worker bag (N1-N3: the city tiles and the first player at setup, then every
 * worker drawn to fill the board, during play too), drawn from the game's own PCG64 generator
 * with the shared samplers (rng.h) in the order of the Python engine; every action's draws are in
 * its record. Nothing here allocates, and nothing reads or writes outside the struct: the binding
 * (nippon_module.c) checks every argument that comes from Python. A seat's view is the game
 * without its generator (nippon_view.c), and nippon_search.c makes Nippon a game of the generic
 * search (gsearch.h).
 */
#ifndef AIRSHIPS_NIPPON_H
#define AIRSHIPS_NIPPON_H

#include <stdint.h>

#include "gsearch.h"
#include "rng.h"

/* -- sizes fixed by the rules, the action table and the data validation (data.py) ---------- */
#define NI_MIN_PLAYERS 2
#define NI_MAX_PLAYERS 4
#define NI_NUM_KINDS 9
#define NI_NUM_GOODS 6
#define NI_NUM_COLOURS 6
#define NI_NUM_REGIONS 4
#define NI_NUM_CITIES 8
#define NI_SPACES_PER_CITY 4
#define NI_NUM_CONTRACTS 8
#define NI_NUM_ACHIEVEMENTS 9
#define NI_NUM_FACTORIES 24
#define NI_NUM_TILE_VALUES 6
#define NI_NUM_INFLUENCE_TILES 10
#define NI_WORKER_SPACES 6
#define NI_MAX_SPACES 9
#define NI_MAX_ROWS 12
#define NI_MAX_PLACES (NI_MAX_SPACES + NI_MAX_ROWS)
#define NI_MAX_PER_COLOUR 40
/* one action draws at most the whole bag and the workers a consolidation puts back */
#define NI_MAX_DRAWS (NI_NUM_COLOURS * NI_MAX_PER_COLOUR + NI_WORKER_SPACES)
#define NI_MAX_TRACK 40
#define NI_MAX_STARS 64
#define NI_MAX_PIECES 8
#define NI_MAX_SCORINGS 6
#define NI_MAX_PLACES_VP 4
#define NI_MAX_DEMANDS 3
/* data.py takes any number of reward tiles; the core takes this many (the binding says so) */
#define NI_MAX_REWARDS 255

/* power / bonus kinds (data.POWER_KINDS), gift kinds (data.GIFT_KINDS: 4, 5, 6 of these) */
enum {
    NI_NONE = 0,
    NI_COAL_TRACK,
    NI_MONEY_TRACK,
    NI_KNOWLEDGE_TRACK,
    NI_BLUEPRINTS,
    NI_COAL,
    NI_YEN,
    NI_VP,
    NI_MACHINE,
    NI_NUM_POWERS
};

/* achievement kinds (data.ACHIEVEMENT_KINDS) */
enum {
    NI_ACH_CONTRACTS = 0,
    NI_ACH_YEN,
    NI_ACH_KNOWLEDGE_STARS,
    NI_ACH_SHIP_STARS,
    NI_ACH_TRAIN_STARS,
    NI_ACH_FACTORIES,
    NI_ACH_MACHINES,
    NI_ACH_INFLUENCE,
    NI_ACH_COAL_STARS,
    NI_NUM_ACH_KINDS
};

/* action kinds (actions.K_*) */
enum {
    NI_K_INVEST = 0,
    NI_K_TECHNOLOGY,
    NI_K_PRODUCE,
    NI_K_KNOWLEDGE,
    NI_K_MINE,
    NI_K_TRAINS,
    NI_K_SHIPS,
    NI_K_EXPORT,
    NI_K_MARKET
};

/* the action table (actions.py) */
#define NI_A_TAKE 0
#define NI_A_CONSOLIDATE (NI_A_TAKE + NI_NUM_KINDS * NI_NUM_COLOURS)
#define NI_A_BONUS (NI_A_CONSOLIDATE + 1)
#define NI_A_STOP (NI_A_BONUS + 3)
#define NI_A_AMOUNT (NI_A_STOP + 1)
#define NI_A_PRODUCE (NI_A_AMOUNT + 3)
#define NI_A_MACHINE (NI_A_PRODUCE + NI_NUM_GOODS)
#define NI_A_MACHINE_RESERVE (NI_A_MACHINE + NI_NUM_GOODS)
#define NI_A_REGION (NI_A_MACHINE_RESERVE + 1)
#define NI_A_CONTRACT (NI_A_REGION + NI_NUM_REGIONS)
#define NI_A_DELIVER (NI_A_CONTRACT + NI_NUM_CONTRACTS)
#define NI_A_SPACE (NI_A_DELIVER + NI_NUM_GOODS)
#define NI_A_TILE (NI_A_SPACE + NI_NUM_CITIES * NI_SPACES_PER_CITY)
#define NI_A_INVEST (NI_A_TILE + NI_NUM_TILE_VALUES)
#define NI_A_REWARD (NI_A_INVEST + NI_NUM_FACTORIES)
#define NI_A_ACHIEVEMENT (NI_A_REWARD + 4 * 3)
#define NI_NUM_ACTIONS (NI_A_ACHIEVEMENT + NI_NUM_ACHIEVEMENTS)

/* phases (model.Phase) */
enum {
    NI_TURN = 0,
    NI_STEPS,
    NI_PRODUCE,
    NI_TECHNOLOGY,
    NI_PIECES,
    NI_CONTRACT,
    NI_DELIVER,
    NI_SPACE,
    NI_CUBES,
    NI_TILE,
    NI_INVEST,
    NI_REWARD,
    NI_ACHIEVEMENT,
    NI_FINISH,
    NI_OVER,
    NI_NUM_PHASES
};

/* error codes of ni_apply (0 = fine); on any error the game is unchanged */
enum { NI_OK = 0, NI_ILLEGAL = 1 };

/* -- the rules' parameters: the validated components and the rules options ------------------ */
typedef struct {
    /* costs */
    int16_t invest_cost, machine_cost, step_costs[3], piece_cost, colour_cost, unpaid_vp;
    int16_t blueprints_per_bonus, max_units, factory_capacity, gift_amounts[3];
    /* the action board and the workers */
    int8_t num_spaces;
    int8_t space_of_kind[NI_NUM_KINDS]; /* derived: the space offering each kind */
    int8_t per_colour, per_space, rows[3];
    /* the observation's room for them (observation.layout_capacity): spaces, rows for 2..4 */
    int8_t obs_spaces, obs_rows[3];
    /* the turn track */
    int8_t track_spaces, golden_from, num_scorings, scoring_spaces[NI_MAX_SCORINGS];
    int8_t majority_len[NI_MAX_SCORINGS];
    int16_t majority_vp[NI_MAX_SCORINGS][NI_MAX_PLACES_VP];
    int8_t ship_vp_len;
    int16_t ship_vp[NI_MAX_PLACES_VP], ship_vp_no_place, train_influence;
    /* the player board */
    int8_t start_money, start_coal, start_knowledge, start_blueprints;
    int8_t money_len, coal_len, coal_stars_len, knowledge_stars_len;
    int16_t money_track[NI_MAX_TRACK], coal_track[NI_MAX_TRACK];
    int8_t coal_stars[NI_MAX_STARS], knowledge_stars[NI_MAX_STARS];
    int8_t knowledge_max, trains, ships;
    int8_t train_stars[NI_MAX_PIECES], ship_stars[NI_MAX_PIECES];
    int8_t worker_levels[NI_WORKER_SPACES];
    int16_t machinery_tiles;
    int8_t goods_levels[NI_NUM_GOODS], level_knowledge[4];
    /* factories, contracts */
    int8_t factory_good[NI_NUM_FACTORIES], factory_coal[NI_NUM_FACTORIES];
    int8_t factory_power[NI_NUM_FACTORIES], factory_amount[NI_NUM_FACTORIES];
    int8_t contract_len[NI_NUM_CONTRACTS], contract_demands[NI_NUM_CONTRACTS][NI_MAX_DEMANDS];
    int8_t contract_vp[NI_NUM_CONTRACTS], contract_bonus[NI_NUM_CONTRACTS];
    int8_t contract_amount[NI_NUM_CONTRACTS];
    /* influence and the board */
    int8_t influence_tiles[NI_NUM_INFLUENCE_TILES], influence_table[3][3];
    int8_t neutral[NI_SPACES_PER_CITY], spaces_per_region[3];
    int8_t region_bonus_kind[NI_NUM_REGIONS], region_bonus_amount[NI_NUM_REGIONS];
    int8_t city_tiles[NI_NUM_CITIES][NI_SPACES_PER_CITY];
    /* rewards, achievements */
    int16_t num_rewards;
    int8_t reward_level[NI_MAX_REWARDS], reward_multiplier[NI_MAX_REWARDS];
    int8_t reward_gift[NI_MAX_REWARDS], reward_min_players[NI_MAX_REWARDS];
    int8_t achievement_kind[NI_NUM_ACHIEVEMENTS], achievement_per[NI_NUM_ACHIEVEMENTS];
    int8_t achievement_printed[NI_NUM_ACHIEVEMENTS];
    /* the rules options (model.RulesOptions) */
    uint8_t captured_removed, neutral_competes, ties_lower, marker_space_empties;
} NiConfig;

/* -- one game ------------------------------------------------------------------------------ */
typedef struct {
    NiConfig config;
    Rng rng;
    int32_t turn_count, golden_turns, machinery_supply;
    int8_t num_players, current, first_player, phase, marker, game_over;
    /* the action in progress */
    int8_t pend_kind, pend_units, pend_mask, pend_region, pend_contract, pend_demand, pend_goods;
    int8_t pend_space, pend_cubes, pend_multiplier;
    /* the board */
    int8_t num_rows;
    int16_t spaces[NI_MAX_SPACES][NI_NUM_COLOURS], rows[NI_MAX_ROWS][NI_NUM_COLOURS];
    int16_t owed[NI_MAX_PLACES], bag[NI_NUM_COLOURS];
    int8_t factory_owner[NI_NUM_FACTORIES];
    int8_t city_tile[NI_NUM_CITIES], city_turn[NI_NUM_CITIES];
    int8_t city_goods[NI_NUM_CITIES][NI_SPACES_PER_CITY];
    int8_t influence_owner[NI_NUM_CITIES][NI_SPACES_PER_CITY];
    int8_t influence_value[NI_NUM_CITIES][NI_SPACES_PER_CITY];
    int8_t trains_in[NI_NUM_REGIONS][NI_MAX_PLAYERS], ships_in[NI_NUM_REGIONS][NI_MAX_PLAYERS];
    int16_t num_rewards_left;
    uint8_t rewards_left[NI_MAX_REWARDS];
    int32_t scored[NI_MAX_SCORINGS][NI_MAX_PLAYERS];
    /* the players */
    int32_t yen[NI_MAX_PLAYERS], coal[NI_MAX_PLAYERS], blueprints[NI_MAX_PLAYERS];
    int32_t vp[NI_MAX_PLAYERS], last_turn[NI_MAX_PLAYERS];
    int8_t money_pos[NI_MAX_PLAYERS], coal_pos[NI_MAX_PLAYERS], knowledge[NI_MAX_PLAYERS];
    int8_t num_workers[NI_MAX_PLAYERS], workers[NI_MAX_PLAYERS][NI_WORKER_SPACES];
    int8_t factory_tile[NI_MAX_PLAYERS][NI_NUM_GOODS], machine[NI_MAX_PLAYERS][NI_NUM_GOODS];
    int16_t cubes[NI_MAX_PLAYERS][NI_NUM_GOODS];
    int16_t machine_reserve[NI_MAX_PLAYERS];
    int8_t trains_placed[NI_MAX_PLAYERS], ships_placed[NI_MAX_PLAYERS];
    int8_t contracts_done[NI_MAX_PLAYERS][NI_NUM_CONTRACTS];
    int8_t tiles_supply[NI_MAX_PLAYERS][NI_NUM_TILE_VALUES], tiles_removed[NI_MAX_PLAYERS];
    int8_t achievements[NI_MAX_PLAYERS][NI_NUM_ACHIEVEMENTS];
} NiGame;

/* What one applied action did (records.ActionRecord): the seat and the colours drawn. */
typedef struct {
    int16_t action;
    int8_t seat;
    int16_t num_draws;
    int8_t draws[NI_MAX_DRAWS];
} NiRecord;

/* Fill the derived parts of a config; the tables must be in range (the binding checks). */
void ni_config_finish(NiConfig *config);
/* S1-S5: city tiles, first player, the boards and the workers drawn with ``rng``. */
void ni_new_game(NiGame *game, const NiConfig *config, int num_players, const Rng *rng);
/* The legal actions, ascending, into ``out`` (room for NI_NUM_ACTIONS); returns their number. */
int ni_legal_actions(const NiGame *game, int16_t *out);
/* Apply ``action``; NI_OK, or NI_ILLEGAL with the game unchanged. ``record`` may be NULL. */
int ni_apply(NiGame *game, int action, NiRecord *record);
/* Apply an action known to be legal (taken from ni_legal_actions); ``record`` may be NULL. */
void ni_apply_legal(NiGame *game, int action, NiRecord *record);
/* The name of a phase (model.Phase.NAMES). */
const char *ni_phase_name(int phase);

/* -- views and determinization (nippon_view.c, State.view / State.determinize) -------------- */
/* ``seat``'s view into ``out`` (may be ``g``): the game without its generator (rng.present 0),
 * the bag's future order being all that is hidden; never to be played on. */
void ni_view(const NiGame *game, int seat, NiGame *out);
/* A world consistent with ``seat``'s view of ``game`` (a view or the true game) into ``out``:
 * the game with a generator seeded from ``rng`` as State.determinize seeds it. */
void ni_determinize(const NiGame *game, int seat, Rng *rng, NiGame *out);
/* E4 (rules.outcome): each seat's result of a finished game, 1/k for the k seats with the most
 * VP, ties going to the latest last turn, 0 for the others (nippon_search.c). */
void ni_results(const NiGame *game, double *out);
/* The generic search's evaluation of an unfinished game (NipponGame.evaluate: a softmax of the
 * VP over a fifth of the score scale) into ``out`` (nippon_search.c). */
void ni_search_values(const NiGame *game, double *out);

/* -- the observation (nippon_obs.c, observation.py) ----------------------------------------- */
/* The length of a seat's observation: the layout's, sized by config.obs_spaces and obs_rows. */
int ni_obs_size(const NiGame *game);
/* Whether the game's action spaces and worker rows fit the layout's pieces (fewer leave the rest
 * 0); ni_observe must not be called when they do not (the bindings refuse). */
int ni_obs_fits(const NiGame *game);
/* ``seat``'s observation (observation.encode_observation) into ``out`` (ni_obs_size floats);
 * the seat must be in range and the game must fit (the binding checks). */
void ni_observe(const NiGame *game, int seat, float *out);

/* -- the bots (nippon_bots.c, agents/bots/nippon.py) ---------------------------------------- */
enum { NI_BOT_RANDOM = 1, NI_BOT_GREEDY = 2, NI_BOT_HEURISTIC = 3 };
#define NI_BOT_PLAN 256

/* The evaluation's weights (airships_env/games/nippon/weights.py's Weights, in its order, then
 * the heuristic's growth per achievement kind, in ACHIEVEMENT_KINDS order). */
typedef struct {
    double yen, coal, money_step, coal_step, knowledge, blueprint, factory, machine, cube, piece;
    double influence, colour, achievements;
    int planning;
    double majority, later_phase, reward_level, turns_per_step, turns_per_consolidation;
    double contract_cube, growth[NI_NUM_ACH_KINDS];
} NiBotWeights;

/* What a bot carries from one decision to the next: the rest of its turn's plan and its key. */
typedef struct {
    int16_t plan[NI_BOT_PLAN];
    int len;
    int32_t key_turn;
    int8_t key_seat;
} NiBotMemory;

/* The position's worth to seat ``p`` (agents.bots.nippon.evaluate); colour_cost must not be 0
 * when ``planning`` (the binding checks). */
double ni_evaluate(const NiGame *game, int p, const NiBotWeights *weights);
/* The bot ``kind``'s choice for the seat to act (the game not over), drawing from ``rng`` and
 * updating ``memory`` as the Python bot does; ``weights`` unused by the random bot. */
int ni_bot_action(const NiGame *game, int kind, const NiBotWeights *weights, Rng *rng,
                  NiBotMemory *memory);


/* -- the generic search (nippon_search.c, GS_NIPPON in gsearch.h) --------------------------- */
/* What the bots of one simulated world remember: each bot's plan, and its last choice (a plan is
 * dropped when any other action is applied). */
typedef struct {
    NiBotMemory bot[NI_BOT_HEURISTIC + 1];
    int16_t expected[NI_BOT_HEURISTIC + 1];
} NiSearchMemory;

/* A state of GS_NIPPON: the game, the bots' weights (by bot code) and the world's bot memory. */
typedef struct {
    NiGame game;
    const NiBotWeights *weights;
    NiSearchMemory *memory;
} NiSearchState;

/* The generic ISMCTS (gs_search) for ``seat``, the seat to act in ``root`` (a view or the true
 * game: only its view is read), the bots playing with ``weights`` (indexed by bot code); a GS_*
 * status. Needs no Python: the binding may release the GIL around it. */
int ni_search(const NiGame *root, int seat, const GsOptions *options,
              const NiBotWeights weights[NI_BOT_HEURISTIC + 1], Rng *rng, GsResult *result);

#endif
