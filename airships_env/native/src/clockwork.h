/* The native core of Escape from Clockwork City: the rules of docs/clockwork/RULES.md in C11,
 * bit-identical to the Python reference (airships_env/games/clockwork/engine), which stays the
 * readable reference and the oracle (tests/native/test_clockwork_native.py).
 *
 * The state is a translation of the Python State: plain integers and fixed arrays, sized for the
 * largest game any valid data file allows (4 players, 14 types of at most 8 cards, a track of at
 * most 200 fields), so that one game is one flat struct: a copy is a memcpy, a batch is an array,
 * and an observation writer, views and bots can be added beside these rules without changing it.
 * The data (card counts, track) are not compiled in: the binding takes the tables the Python
 * loader validated (airships_env/games/clockwork/engine/data.py), so an edited data file plays in
 * C exactly as in Python.
 *
 * Every chance draw goes through the game's own PCG64 generator with the shared samplers (rng.h),
 * in the order of the Python engine. Nothing here allocates, and nothing reads or writes outside
 * the struct: the binding (clockwork_module.c) checks every argument that comes from Python.
 */
#ifndef AIRSHIPS_CLOCKWORK_H
#define AIRSHIPS_CLOCKWORK_H

#include <stdint.h>

#include "rng.h"

/* -- sizes fixed by the rules, the action table and the data validation (data.py) ---------- */
#define CW_MIN_PLAYERS 2
#define CW_MAX_PLAYERS 4
#define CW_NUM_TYPES 14
#define CW_NUM_YARDS 6
#define CW_NUM_PLACES 58
#define CW_MAX_TYPE_COUNT 8
#define CW_MAX_DECK (CW_NUM_TYPES * CW_MAX_TYPE_COUNT)
#define CW_MIN_TRACK 26
#define CW_MAX_TRACK 200
#define CW_HAND_LIMIT 7
#define CW_FIELD_CAPACITY 2
#define CW_MACHINE_PARTS 4

/* card types (data.TYPE_IDS) */
enum { CW_AS = 10, CW_FUEL = 11, CW_POWER = 12, CW_SCRAP = 13 };
#define CW_NUM_FM 6
#define CW_FIRST_CB 6
#define CW_NUM_CB 4
#define CW_NUM_NAMEABLE 13 /* every type but SCRAP (C1, R1) */

/* the action table (actions.py) */
#define CW_MAX_MOVE 12
#define CW_A_ROLL 0
#define CW_A_PASS 1
#define CW_A_MOVE_CW 2
#define CW_A_MOVE_CCW (CW_A_MOVE_CW + CW_MAX_MOVE)
#define CW_A_JUMP_TOWERS (CW_A_MOVE_CCW + CW_MAX_MOVE)
#define CW_A_JUMP_YARD (CW_A_JUMP_TOWERS + 1)
#define CW_A_DRAW (CW_A_JUMP_YARD + CW_NUM_YARDS)
#define CW_A_CHALLENGE (CW_A_DRAW + 1)
#define CW_A_DEMAND (CW_A_CHALLENGE + 3)
#define CW_A_SEEK (CW_A_DEMAND + CW_NUM_NAMEABLE)
#define CW_A_GIVE (CW_A_SEEK + CW_NUM_NAMEABLE)
#define CW_A_DISCARD (CW_A_GIVE + CW_NUM_TYPES)
#define CW_A_TURN_PLACE (CW_A_DISCARD + CW_NUM_TYPES)
#define CW_NUM_ACTIONS (CW_A_TURN_PLACE + CW_NUM_PLACES)

/* phases (model.py) */
enum {
    CW_ROLL = 0,
    CW_MOVE,
    CW_ACT,
    CW_DEMAND,
    CW_RESPOND,
    CW_COUNTER,
    CW_GIVE_BACK,
    CW_DISCARD,
    CW_PLACE,
    CW_OVER,
    CW_NUM_PHASES
};

/* error codes of cw_apply (0 = fine); on any error the game is unchanged */
enum {
    CW_OK = 0,
    CW_ILLEGAL = 1,   /* not among the legal actions (or the game is over) */
    CW_BAD_DICE = 2,  /* forced dice that are not two faces 1..6 */
    CW_NO_RNG = 3,    /* a roll without a generator and without forced dice */
    CW_NO_PLACE = 4   /* a card to lay face down and all 58 places taken (a data file's limit) */
};

/* -- the rules' parameters: the data tables for the player count, and the rules options ---- */
typedef struct {
    int16_t length, towers, yards[CW_NUM_YARDS]; /* the track (data.Track) */
    int8_t counts[CW_NUM_TYPES];                 /* cards of each type for this player count */
    uint8_t white_field_exact;                   /* M1 */
    uint8_t lucky_anywhere;                      /* T2: lucky_rolls == "anywhere" */
    uint8_t scrap_to_discards;                   /* C2: scrap_to == "discards" */
    uint8_t discard_recall_none;                 /* V4 (views only; carried for them) */
    uint8_t first_player_roll;                   /* S3: first_player == "roll" */
    int64_t turn_limit;                          /* W3: max_turns * num_players */
    double turn_scale; /* max_turns * num_players as a double (the observation's ``turn``) */
    int8_t yard_at[CW_MAX_TRACK];                /* derived: the Scrapyard on a field, or -1 */
} CwConfig;

/* -- one game ------------------------------------------------------------------------------ */
typedef struct {
    CwConfig config;
    Rng rng;
    int32_t turn; /* turns begun, from 1 */
    int32_t step; /* actions applied */
    int16_t removed_scrap;
    int16_t pawns[CW_MAX_PLAYERS];
    int16_t turn_start_field;
    int8_t num_players, start_player, current, actor, phase;
    int8_t dice[2];
    int8_t endgame;
    int8_t challenge[4]; /* challenger, opponent, named type, stage; -1 when none */
    int8_t seek_type, winner;
    int8_t hands[CW_MAX_PLAYERS][CW_NUM_TYPES];
    int8_t laid_fm[CW_MAX_PLAYERS], laid_cb[CW_MAX_PLAYERS];
    int8_t pile_size[CW_NUM_YARDS];
    int8_t piles[CW_NUM_YARDS][CW_MAX_DECK]; /* bottom to top */
    int8_t places[CW_NUM_PLACES];
    int8_t known[CW_MAX_PLAYERS][CW_MAX_PLAYERS][CW_NUM_TYPES]; /* observer, owner, type */
} CwGame;

/* What one applied action did (records.ActionRecord without the derived step/turn/name). */
typedef struct {
    int32_t step, turn;
    int8_t player;
    int16_t action;
    int8_t dice[2]; /* 0, 0: no roll */
    int8_t drawn, turned, given; /* -1: none */
    int8_t n_laid;
    int8_t laid[2 * CW_MAX_PLAYERS][2]; /* (seat, type) */
    int8_t winner; /* -1: none */
} CwRecord;

/* -- the observation (observation.py), the bots (agents/bots/clockwork.py) ----------------- */
#define CW_OBS_SIZE 1142
/* Bot kinds (the controller codes of the batch). */
enum { CW_BOT_RANDOM = 1, CW_BOT_GREEDY = 2, CW_BOT_HEURISTIC = 3 };

/* Fill the derived parts of a config (yard_at); the fields must be in range (the binding checks). */
void cw_config_finish(CwConfig *config);
/* S1-S4: deal and choose the first player with ``rng``; the config must be finished. */
void cw_new_game(CwGame *game, const CwConfig *config, int num_players, const Rng *rng);
/* The legal actions, ascending, into ``out`` (room for CW_NUM_ACTIONS); returns their number. */
int cw_legal_actions(const CwGame *game, int16_t *out);
/* Apply ``action`` (forced dice: two faces, or NULL to roll); CW_OK or an error, game unchanged. */
int cw_apply(CwGame *game, int action, const int8_t *forced_dice, CwRecord *record);
/* Apply an action known to be legal (and, if a roll, with a generator or good forced dice): for
 * loops that take their actions from cw_legal_actions (a batch, a search, a bot game). CW_OK, or
 * CW_NO_PLACE with the game unchanged. */
int cw_apply_legal(CwGame *game, int action, const int8_t *forced_dice, CwRecord *record);
/* The readable name of an action (actions.ACTION_NAMES), into ``out`` (at least 24 bytes). */
void cw_action_name(int action, char *out, int size);
/* The name of a phase (model.PHASE_NAMES). */
const char *cw_phase_name(int phase);
/* ``seat``'s observation (observation.encode_observation) into ``out`` (CW_OBS_SIZE floats);
 * it reads only what the seat may see (V1-V4), so the true state gives the view's vector. */
void cw_observe(const CwGame *game, int seat, float *out);
/* The hidden pool of ``seat`` (view._hidden_pool): counts by type of the cards it cannot place. */
void cw_hidden_pool(const CwGame *game, int seat, int *pool);
/* ``seat``'s view (view.view) into ``out`` (which may be ``game``): hidden cards canonical, the
 * other seats' knowledge zeroed, C4's named type hidden, no generator (clockwork_view.c). */
void cw_view(const CwGame *game, int seat, CwGame *out);
/* A world consistent with ``seat``'s view of ``game`` (view.determinize of that view): the hidden
 * cards dealt in numpy's permutation order from ``rng``, a fresh generator PCG64(rng's next raw
 * draw). ``game`` may be the true state or the view (the same world either way). */
void cw_determinize(const CwGame *game, int seat, Rng *rng, CwGame *out);
/* The search hooks of the Python game (clockwork_search.c): evaluate.evaluate (each seat's
 * value, ``num_players`` doubles) and rollout.rollout_action (drawing from ``rng``). */
void cw_evaluate_values(const CwGame *game, double *out);
int cw_rollout_action(const CwGame *game, Rng *rng);
/* The bot ``kind``'s choice for the seat to act (clockwork_bots.c): the Python bot's decision,
 * drawing from ``rng`` (the bot's own generator) exactly when and what it draws; ``threshold`` is
 * the heuristic's. The game must not be over. */
int cw_bot_action(const CwGame *game, int kind, double threshold, Rng *rng);

#endif
