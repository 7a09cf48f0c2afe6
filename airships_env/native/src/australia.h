/* The native core of Australia: the rules of docs/australia/RULES.md in C11, bit-identical to the
 * Python reference (airships_env/games/australia/engine), which stays the readable reference and
 * the oracle (tests/native/test_australia_native.py).
 *
 * The state is a translation of the Python State: plain integers and fixed arrays, sized for the
 * largest game any valid data file allows (5 players, 24 regions, 64 locations, 20 cards of a
 * type, 40 rangers each, tracks of 40 areas), so that one game is one flat struct: a copy is a
 * memcpy, a batch is an array. The map and the components are not compiled in: the binding takes
 * the tables the Python loader validated (airships_env/games/australia/engine/data.py: region
 * colours, locations and the regions each borders, cards, tiles, rangers, the windmill and its
 * tracks), so an edited data file plays in C exactly as in Python; the derived tables (a region's
 * locations, its neighbours) are built here as data.py builds them.
 *
 * All chance is at setup (N2, N3: the tiles, then each back's cards), drawn from the game's own
 * PCG64 generator with the shared samplers (rng.h) in the order of the Python engine. Nothing here
 * allocates, and nothing reads or writes outside the struct: the binding (australia_module.c)
 * checks every argument that comes from Python.
 */
#ifndef AIRSHIPS_AUSTRALIA_H
#define AIRSHIPS_AUSTRALIA_H

#include <stdint.h>

#include "rng.h"

/* -- sizes fixed by the rules, the action table and the data validation (data.py) ---------- */
#define AU_MIN_PLAYERS 2
#define AU_MAX_PLAYERS 5
#define AU_NUM_COLOURS 6
#define AU_NUM_BACKS 4
#define AU_NUM_CARD_TYPES (AU_NUM_BACKS * AU_NUM_COLOURS)
#define AU_NUM_REGIONS 24
#define AU_MAX_LOCATIONS 64
#define AU_MAX_LOCATION_REGIONS 4 /* a camp borders 2-4 regions, a ship 2 */
#define AU_MAX_CARDS_PER_TYPE 20
#define AU_MAX_STACK (AU_NUM_COLOURS * AU_MAX_CARDS_PER_TYPE) /* the cards of one back */
#define AU_MAX_RANGERS 40
#define AU_MAX_TRACK 40
#define AU_NUM_TILE_VALUES 6
#define AU_MIN_TILE 4 /* tile values 4..9 */
#define AU_MAX_WINDMILL 100
#define AU_HAND_SIZE 2 /* S4 */
#define AU_MAX_PLACE 4
/* At most two projects per region in a game, each followed by a windmill scoring, and E2's. */
#define AU_MAX_SCORINGS (2 * 2 * AU_NUM_REGIONS + 1)

/* the action table (actions.py) */
#define AU_A_FLY 0
#define AU_A_PLAY (AU_A_FLY + AU_NUM_REGIONS)
#define AU_A_PLAY_PAYING (AU_A_PLAY + AU_NUM_CARD_TYPES)
#define AU_A_PLACE (AU_A_PLAY_PAYING + AU_NUM_CARD_TYPES)
#define AU_A_NO_RANGERS (AU_A_PLACE + AU_MAX_PLACE * AU_MAX_LOCATIONS)
#define AU_A_RANGER_TRACK (AU_A_NO_RANGERS + 1)
#define AU_A_STOP_PLACING (AU_A_RANGER_TRACK + AU_MAX_PLACE)
#define AU_A_DRAW (AU_A_STOP_PLACING + 1)
#define AU_A_TAKE_BACK (AU_A_DRAW + AU_NUM_BACKS)
#define AU_A_DONE_TAKING (AU_A_TAKE_BACK + AU_MAX_LOCATIONS)
#define AU_A_MOVE_FROM (AU_A_DONE_TAKING + 1)
#define AU_A_MOVE_TO (AU_A_MOVE_FROM + AU_MAX_LOCATIONS)
#define AU_A_END_TURN (AU_A_MOVE_TO + AU_MAX_LOCATIONS)
#define AU_A_WINDMILL (AU_A_END_TURN + 1)
#define AU_NUM_ACTIONS (AU_A_WINDMILL + AU_NUM_REGIONS)

/* phases (model.py) */
enum {
    AU_SETUP_DRAW = 0,
    AU_WINDMILL,
    AU_ACTION,
    AU_PLACE,
    AU_DRAW,
    AU_TAKE_BACK,
    AU_MOVE_TO,
    AU_OVER,
    AU_NUM_PHASES
};

/* scoring kinds (records.KINDS) */
enum { AU_CONSERVATION = 0, AU_INDUSTRIALIZATION, AU_WINDMILL_SCORING };

/* error codes of au_apply (0 = fine); on any error the game is unchanged */
enum { AU_OK = 0, AU_ILLEGAL = 1 };

/* -- the rules' parameters: the data tables for the player count, and the rules options ---- */
typedef struct {
    /* the map (data.Region, data.Location) */
    int8_t region_colour[AU_NUM_REGIONS];
    int8_t region_water[AU_NUM_REGIONS]; /* 1: a water region (the observation's) */
    int8_t num_locations;
    int8_t location_ship[AU_MAX_LOCATIONS];                            /* 1: a ship (P3) */
    int8_t location_num_regions[AU_MAX_LOCATIONS];
    int8_t location_regions[AU_MAX_LOCATIONS][AU_MAX_LOCATION_REGIONS]; /* ascending */
    /* the components (data.AustraliaData) */
    int8_t cards[AU_NUM_BACKS][AU_NUM_COLOURS];
    int8_t tiles[AU_NUM_TILE_VALUES];          /* count per value 4..9 */
    int8_t windmill_tiles[AU_NUM_TILE_VALUES]; /* W2: tiles of this value show a windmill */
    int8_t rangers;                            /* each seat's, for this player count */
    int16_t windmill_start, windmill_max;
    int8_t tile_areas, ranger_areas;
    /* the rules options (model.RulesOptions) */
    uint8_t full_game, recolour_anywhere;
    int16_t stack_cards;
    int64_t max_rounds;
    double round_scale; /* max_rounds as the nearest double (the observation's ``round``) */
    /* derived as data.py derives them */
    int8_t region_num_locations[AU_NUM_REGIONS];
    int8_t region_locations[AU_NUM_REGIONS][AU_MAX_LOCATIONS]; /* ascending */
    uint8_t neighbour[AU_NUM_REGIONS][AU_NUM_REGIONS];        /* W1: shares a location */
} AuConfig;

/* -- one game ------------------------------------------------------------------------------ */
typedef struct {
    AuConfig config;
    Rng rng;
    int32_t step, turn, round;
    int32_t vp[AU_MAX_PLAYERS], dollars[AU_MAX_PLAYERS];
    int8_t num_players, phase, current, actions_left;
    int8_t supply[AU_MAX_PLAYERS], plane[AU_MAX_PLAYERS];
    int16_t hands[AU_MAX_PLAYERS][AU_NUM_CARD_TYPES];
    int16_t played[AU_NUM_CARD_TYPES];
    int16_t stack_size[AU_NUM_BACKS], aside_size[AU_NUM_BACKS];
    int8_t stacks[AU_NUM_BACKS][AU_MAX_STACK]; /* colours, bottom to top */
    int8_t set_aside[AU_NUM_BACKS][AU_MAX_STACK];
    int8_t rangers[AU_MAX_LOCATIONS][AU_MAX_PLAYERS];
    int8_t tile_value[AU_NUM_REGIONS], tile_up[AU_NUM_REGIONS], conservation[AU_NUM_REGIONS];
    int8_t windmill_track_size, ranger_track_size;
    int8_t windmill_track[AU_MAX_TRACK + 1]; /* W4 appends, W5 empties at tile_areas */
    int8_t ranger_track[AU_MAX_TRACK];       /* seats, top to bottom */
    int8_t pending_card, pending_paid, rangers_left, track_used, taken, move_from;
    int8_t setup_draws, end_triggered, windmill_region;
    int16_t windmill_value;
} AuGame;

/* One scoring (records.Scoring). */
typedef struct {
    int8_t kind, region, initiator; /* region -1 and initiator -1 for a windmill scoring */
    int16_t value;
    int32_t points[AU_MAX_PLAYERS];
} AuScoring;

/* What one applied action did (records.ActionRecord without the derived name). */
typedef struct {
    int32_t step, turn;
    int8_t player;
    int16_t action;
    int8_t drawn, revealed, windmill_to; /* -1: none */
    int8_t game_over;
    int16_t n_scorings;
    AuScoring scorings[AU_MAX_SCORINGS];
} AuRecord;

/* Fill the derived parts of a config; the tables must be in range (the binding checks). */
void au_config_finish(AuConfig *config);
/* S1-S3 (S4 and S6 are the first actions): the tiles and stacks dealt with ``rng``. */
void au_new_game(AuGame *game, const AuConfig *config, int num_players, const Rng *rng);
/* The legal actions, ascending, into ``out`` (room for AU_NUM_ACTIONS); returns their number. */
int au_legal_actions(const AuGame *game, int16_t *out);
/* Apply ``action``; AU_OK, or AU_ILLEGAL with the game unchanged. ``record`` may be NULL. */
int au_apply(AuGame *game, int action, AuRecord *record);
/* Apply an action known to be legal (taken from au_legal_actions); ``record`` may be NULL. */
void au_apply_legal(AuGame *game, int action, AuRecord *record);
/* au_legal_actions and au_apply_legal reading the rules' parameters from ``config``, which must
 * equal the game's own (``game->config``): a batch passes its one config, so that its thousand
 * games read one copy that stays in the cache instead of a copy each. */
int au_legal_actions_with(const AuGame *game, const AuConfig *config, int16_t *out);
void au_apply_legal_with(AuGame *game, const AuConfig *config, int action, AuRecord *record);
/* The readable name of an action (actions.ACTION_NAMES), into ``out`` (at least 40 bytes). */
void au_action_name(int action, char *out, int size);
/* The name of a phase (model.PHASE_NAMES). */
const char *au_phase_name(int phase);

/* -- the observation (observation.py), the bots (agents/bots/australia.py) ------------------ */
#define AU_OBS_SIZE 1280
/* Bot kinds (the controller codes of the batch, as Clockwork's). */
enum { AU_BOT_RANDOM = 1, AU_BOT_GREEDY = 2, AU_BOT_HEURISTIC = 3 };

/* ``seat``'s observation (observation.encode_observation) into ``out`` (AU_OBS_SIZE floats); it
 * reads only what the seat may see (V1-V3), so the true state gives the view's vector. */
void au_observe(const AuGame *game, int seat, float *out);
/* The same reading ``config``, which must equal ``game->config`` (see au_legal_actions_with). */
void au_observe_with(const AuGame *game, const AuConfig *config, int seat, float *out);
/* The bot ``kind``'s choice for the seat to act (australia_bots.c): the Python bot's decision,
 * drawing from ``rng`` (the bot's own generator) exactly when and what it draws. The game must
 * not be over. */
int au_bot_action(const AuGame *game, int kind, Rng *rng);

/* -- views and search (australia_view.c, australia_search.c) ------------------------------- */
/* ``seat``'s view (view.view): the hidden cards and tiles canonical, no generator; ``out`` may be
 * ``game``. */
void au_view(const AuGame *game, int seat, AuGame *out);
/* A world consistent with ``seat``'s view (view.determinize), drawn from ``rng`` exactly as the
 * engine draws; with ``with_generator`` the world's generator is seeded as the engine seeds it
 * (else it is absent: the world is never dealt again, all chance is at setup). */
void au_determinize(const AuGame *game, int seat, Rng *rng, AuGame *out, int with_generator);
/* E3's winners of a finished game, a bit per seat (the most VP + dollars, then the most dollars,
 * still tied a shared win); their number into ``n_winners``. */
unsigned au_winners(const AuGame *game, int *n_winners);
/* The Python game's search hooks: ``evaluate`` (AustraliaGame.evaluate: a softmax of VP + dollars
 * over 10) and ``rollout_action`` (actions.kind_uniform_choice), the same values and draws. */
void au_evaluate_values(const AuGame *game, double *out);
int au_rollout_action(const AuGame *game, Rng *rng);

#endif
