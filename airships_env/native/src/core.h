/* The native core of airships-env: the rules of docs/airships/RULES.md in C99, bit-identical to the Python
 * engine (airships_env/engine), which stays the readable reference and the oracle.
 *
 * Conventions follow the Python engine: cards are indices into the card set, -1 is an empty
 * place, -2 the Change of Era card in the deck; the deck's last entry is its top; stacks list
 * their cards from the bottom up. Every chance draw goes through one PCG64 generator per game
 * with the engine's exact sampler (docs/airships/RULES.md "Chance"), so the same seed and the same actions
 * give the same game in both engines.
 *
 * Nothing here allocates inside a step, and nothing reads or writes outside the structs and
 * buffers it is given: the binding (module.c) validates every argument that comes from Python.
 */
#ifndef AIRSHIPS_CORE_H
#define AIRSHIPS_CORE_H

#include <stddef.h>
#include <stdint.h>

/* -- sizes fixed by the rules and the card-file validation -------------------------------- */
#define MAX_PLAYERS 4
#define MIN_PLAYERS 2
#define NUM_DEPARTMENTS 6
#define SLOTS_PER_ROW 3
#define BOARD_SLOTS 18
#define NUM_STACKS 4
#define STACK_HEIGHT 3
#define NUM_PHASES 4
#define NUM_TARGETS 26
#define FIRST_STACK_TARGET 18
#define FIRST_PHASE_TARGET 22
#define NUM_VARIANTS 3
#define NUM_ATTEMPTS 78
#define A_PASS 78
#define A_SPEND_CHIP 79
#define A_KEEP_CHIP 80
#define A_BUY_EXTRA_TURN 81
#define A_END_TURN 82
#define NUM_ACTIONS 83
#define NUM_EXPANSIONS 48
#define NUM_AIRSHIPS 18
#define AIRSHIPS_PER_TIER 6
#define LEFT_OUT 6
#define DECK_MAX 43
#define MAX_BONUSES 4      /* engine bonuses on one card (card-file limit) */
#define MAX_CLASSES 70     /* distinct (cost, target) among 48 + 18 + 4 targets */
#define MAX_ROLLED 3       /* dice of one colour rolled in one attempt (T4) */
#define MAX_FIXED_VALUE 20 /* card-file limit */
#define MAX_SUM 120        /* above any reachable dice sum */
#define CHIPS_PER_PLAYER 6
#define EXTRA_TURN_PRICE 3
#define EMPTY (-1)
#define CHANGE_OF_ERA (-2)

enum { NO_EXCHANGE = 0, EXCHANGE = 1, EXCHANGE_GIVING_FIXED = 2 };
enum { CHOOSE_TARGET = 0, CHIP_DECISION = 1, EXTRA_TURN = 2, GAME_OVER = 3 };
enum { WHITE = 0, RED = 1, BLACK = 2, ANY = 3 };

/* Error codes returned to the binding (0 = fine). */
enum {
    CORE_OK = 0,
    CORE_ILLEGAL = 1,     /* the action is not legal now */
    CORE_BAD_DICE = 2,    /* forced dice that do not fit the roll */
    CORE_NO_RNG = 3,      /* a roll without a generator */
    CORE_PUBLIC_VIEW = 4, /* a public view cannot advance */
    CORE_BAD_STATE = 5    /* an imported state that breaks an invariant */
};

/* -- random numbers: numpy's PCG64 and SeedSequence, the engine's sampler (rng.h) --------- */
#include "rng.h"

/* -- the card set ------------------------------------------------------------------------- */
typedef struct {
    int8_t era, department, cost[3], stars, dice[3], chips;
    int16_t target;
    int8_t fixed_colour, fixed_value; /* -1: no fixed die */
    int8_t n_bonuses, bonus_colour[MAX_BONUSES], bonus_amount[MAX_BONUSES];
    int8_t has_exchange, give[3], get[3];
} Expansion;

typedef struct {
    int8_t tier, cost[3], stars;
    int16_t target;
} Airship;

typedef struct {
    int8_t cost[3], low, high;
    int16_t target;
} Phase;

typedef struct {
    int8_t side1[3], side2[3];
    Expansion expansions[NUM_EXPANSIONS];
    Airship airships[NUM_AIRSHIPS];
    Phase phases[NUM_PHASES];
    /* derived once: lists in file order, odds classes */
    int8_t era_cards[3][NUM_EXPANSIONS];
    int8_t era_count[3];
    int8_t tier_cards[3][AIRSHIPS_PER_TIER];
    int8_t expansion_class[NUM_EXPANSIONS], airship_class[NUM_AIRSHIPS], phase_class[NUM_PHASES];
    int8_t n_classes;
    int8_t class_cost[MAX_CLASSES][3];
    int16_t class_needed[MAX_CLASSES];
    /* observation features of every card, computed once (obs.c); the last row of each is the
     * all-zero "no card" */
    float expansion_features[NUM_EXPANSIONS + 1][32];
    float airship_features[NUM_AIRSHIPS + 1][9];
    float phase_features[NUM_PHASES][6];
} Cards;

void obs_card_features(Cards *cards);

/* Packed card table from Python (int32 words); returns 0 or the index of the bad word + 1. */
#define CARD_WORDS_HEADER 6
#define CARD_WORDS_EXPANSION 29
#define CARD_WORDS_AIRSHIP 6
#define CARD_WORDS_PHASE 6
#define CARD_TABLE_WORDS                                                                        \
    (CARD_WORDS_HEADER + NUM_EXPANSIONS * CARD_WORDS_EXPANSION + NUM_AIRSHIPS * CARD_WORDS_AIRSHIP \
     + NUM_PHASES * CARD_WORDS_PHASE)
int cards_unpack(Cards *cards, const int32_t *words, int n_words);

typedef struct {
    uint8_t reveal_after_change_of_era;
    uint8_t hindenburg_any_order;
    uint8_t engine_bonus_needs_cost_colour;
    uint8_t wooden_airship_with_opening_airship;
    uint8_t stalemate_ends_game;
} Options;

/* -- the game state ----------------------------------------------------------------------- */
typedef struct {
    int8_t has;                 /* an exchange was made */
    int8_t gave[3];             /* rollable dice given, per colour */
    int8_t gave_fixed_colour;   /* -1: the fixed die was kept */
    int8_t gave_fixed_value;
    int8_t received[3];
} ExchangeMade;

enum { BONUS_WOODEN = 0, BONUS_ENGINE = 1, BONUS_CHIP = 2 };
typedef struct {
    int8_t kind, colour, amount;
} Bonus;
#define MAX_RECORD_BONUSES (2 + MAX_BONUSES)

typedef struct {
    int8_t active, target, variant;
    int16_t needed, dice_sum, total;
    ExchangeMade exchange;
    int8_t n_rolled[3], rolled[3][MAX_ROLLED];
    int8_t n_kept[3], kept[3][MAX_ROLLED];
    int8_t n_bonuses;
    Bonus bonuses[MAX_RECORD_BONUSES];
} Pending;

typedef struct {
    int8_t slots[NUM_DEPARTMENTS];
    int8_t airships[NUM_AIRSHIPS];
    int8_t n_airships;
    int8_t chips_on_board, chips_supply;
} Player;

typedef struct {
    Rng rng;
    int8_t num_players, era, phase, current_player, wooden_airship, hindenburg_open;
    int8_t is_public_view, over;
    int8_t deck[DECK_MAX], deck_len;
    int8_t board[BOARD_SLOTS];
    int8_t stacks[NUM_STACKS][STACK_HEIGHT], stack_len[NUM_STACKS];
    int8_t left_out[LEFT_OUT], n_left_out;
    int8_t removed[NUM_EXPANSIONS], n_removed;
    int8_t hindenburg[NUM_PHASES];
    uint8_t passed_mask, winners_mask;
    Player players[MAX_PLAYERS];
    Pending pending;
    int32_t turn, step;
    int16_t final_scores[MAX_PLAYERS];
} Game;

/* -- what an action did: the compact record (the binding builds the Python ActionRecord) ---- */
enum { RESULT_NONE = 0, RESULT_SUCCESS, RESULT_FAILURE, RESULT_CHIP_DECISION, RESULT_PASSED };
enum { ACQUIRED_NONE = 0, ACQUIRED_EXPANSION, ACQUIRED_AIRSHIP, ACQUIRED_PHASE };
enum { PLACE_SUPPLY = 0, PLACE_BOARD, PLACE_HINDENBURG };
enum { REASON_FAILURE = 0, REASON_CAPTAIN, REASON_CHIP_SPENT, REASON_EXTRA_TURN, REASON_MARK };
typedef struct {
    int8_t player, count, source, destination, reason;
} ChipMove;
typedef struct {
    int8_t card, slot, pushed_out; /* card: expansion index or CHANGE_OF_ERA; slot -1: none */
} RevealRec;
#define MAX_RECORD_CHIPS 4
#define MAX_RECORD_REVEALS 4

typedef struct {
    int32_t step, turn;
    int8_t player, action, phase;
    int8_t has_attempt;     /* target .. needed are set (an attempt or a chip decision) */
    int8_t target_kind;     /* ACQUIRED_EXPANSION / _AIRSHIP / _PHASE: which table target_card is in */
    int8_t target_card;
    ExchangeMade exchange;
    int8_t n_rolled[3], rolled[3][MAX_ROLLED];
    int8_t n_kept[3], kept[3][MAX_ROLLED];
    int16_t dice_sum, total, needed;
    int8_t n_bonuses;
    Bonus bonuses[MAX_RECORD_BONUSES];
    int8_t result;
    int8_t acquired_kind, acquired;
    int8_t discarded;       /* -1: none */
    int8_t n_chips;
    ChipMove chips[MAX_RECORD_CHIPS];
    int8_t n_reveals;
    RevealRec reveals[MAX_RECORD_REVEALS];
    int8_t era_changed, hindenburg_opened, wooden_airship, next_player, game_over;
    uint8_t winners_mask;
    int16_t scores[MAX_PLAYERS];
} Record;

/* -- dice pools and exact odds (derived values; pure functions of cards, slots, era) -------- */
typedef struct {
    int8_t valid;
    int8_t rollable[3];
    int8_t fixed_colour, fixed_value; /* -1: none */
    int8_t available[3];
    ExchangeMade exchange;
} Hand;

typedef struct {
    Hand hands[NUM_VARIANTS];
    int8_t n_bonuses, bonus_colour[MAX_BONUSES], bonus_amount[MAX_BONUSES];
    int8_t has_exchange, give[3], get[3];
} Pool;

void pool_build(Pool *pool, const Cards *cards, int era, const int8_t *slots);
void pool_offers(const Pool *pool, const int8_t *cost, int8_t offered[NUM_VARIANTS]);
int pool_engine_bonus(const Pool *pool, const int8_t *cost, int needs_colour);

typedef struct {
    uint32_t at_least, chip_decides, with_chip, denominator;
} Odds;

/* Tail counts of attempt shapes, memoised (a direct-mapped cache owned by its user). */
#define SHAPE_CACHE_BITS 10
typedef struct {
    uint32_t key;   /* shape code + 1; 0 = empty */
    uint32_t denominator;
    int16_t min_sum, max_sum;
    uint32_t tail[MAX_SUM + 2]; /* tail[s]: outcomes whose dice sum is >= s */
} ShapeEntry;
/* A company's best odds on every airship and phase (the bots' Profile), memoised by the value of
 * its dice pool (many different companies have the same dice). */
#define PROFILE_CACHE_BITS 12
typedef struct {
    int8_t used, needs_colour;
    Pool pool; /* the key: compared whole */
    double airship[NUM_AIRSHIPS], airship_chip[NUM_AIRSHIPS];
    double phase[NUM_PHASES], phase_chip[NUM_PHASES];
} ProfileEntry;
typedef struct {
    ShapeEntry entries[1 << SHAPE_CACHE_BITS];
    ProfileEntry profiles[1 << PROFILE_CACHE_BITS];
} ShapeCache;

void odds_init_tables(void);
/* The odds of an attempt of ``hand`` on ``cost``/``needed`` with automatic ``bonus`` (T4, T5). */
Odds odds_for(ShapeCache *cache, const Hand *hand, const int8_t *cost, int needed, int bonus,
              int has_chip);

/* -- the rules ---------------------------------------------------------------------------- */
void game_new(Game *game, const Cards *cards, const Options *options, int num_players,
              const Rng *rng);
int game_legal(const Game *game, const Cards *cards, const Options *options, uint8_t *mask);
int game_legal_list(const Game *game, const Cards *cards, const Options *options, int8_t *out);
/* Apply an action; forced: 3 colours x 3 faces (with counts) or NULL to roll. */
int game_apply(Game *game, const Cards *cards, const Options *options, int action,
               const int8_t *forced_counts, const int8_t *forced_faces, Record *record);
int game_apply_legal(Game *game, const Cards *cards, const Options *options, int action,
                     const int8_t *forced_counts, const int8_t *forced_faces, Record *record);
int game_target_class(const Game *game, const Cards *cards, const Options *options, int target);
void game_target_classes(const Game *game, const Cards *cards, const Options *options,
                         int8_t classes[NUM_TARGETS]);
int game_phase_available(const Game *game, const Options *options, int phase);
void game_scores(const Game *game, const Cards *cards, int16_t *scores);
void game_score_parts(const Game *game, const Cards *cards, int player, int16_t parts[3]);
int game_airship_count(const Game *game, int player);
/* The odds of attempt ``action`` for ``player``; returns 0 if not offered. */
int game_attempt_odds(const Game *game, const Cards *cards, const Options *options,
                      ShapeCache *cache, int action, int player, Odds *odds);
/* If the acting player's attempt ``action`` (or the pending one for A_SPEND_CHIP) succeeds:
 * 1 and the final scores and winners when that ends the game, 0 when it goes on (E1). */
int game_outcome_if_success(const Game *game, const Cards *cards, const Options *options,
                            int action, int16_t *scores, uint8_t *winners_mask);
/* Public view (canonical hidden cards, no generator) and determinization (docs/airships/RULES.md). */
void game_public_view(Game *view, const Game *game, const Cards *cards);
void game_determinize(Game *sample, const Game *game, const Cards *cards, Rng *rng);
/* Check the invariants of an imported state; 0 if it is sound. */
int game_check(const Game *game, const Cards *cards);

/* -- observations ------------------------------------------------------------------------- */
int obs_size(int num_players); /* 985 + 250 * num_players */
void obs_high(int num_players, float *out);
void obs_init_tables(void);
const float *obs_high_table(int num_players);
void obs_encode(const Game *game, const Cards *cards, const Options *options, ShapeCache *cache,
                int seat, float *out);

/* -- bots --------------------------------------------------------------------------------- */
enum { BOT_RANDOM = 1, BOT_GREEDY = 2, BOT_HEURISTIC = 3 };

typedef struct {
    double dice_weight, chip_value, extra_turn_threshold;
} GreedyConfig;

typedef struct {
    double turns_base[3], turns_per_airship[3]; /* by player count 2, 3, 4 */
    double turns_per_phase, turns_min, dice_weight;
    int32_t value_era;
    double airship_choice, phase_choice, phase_complete_odds, chip_turn_fraction, chip_value_min;
    double wooden_airship_value, extra_turn_min_value, win_value, race_weight, race_scale;
} HeuristicConfig;

int bot_greedy(const Game *game, const Cards *cards, const Options *options, ShapeCache *cache,
               const GreedyConfig *config, const int8_t *legal, int n_legal);
int bot_heuristic(const Game *game, const Cards *cards, const Options *options,
                  ShapeCache *cache, const HeuristicConfig *config, const int8_t *legal,
                  int n_legal);
/* The heuristic's value of each legal action (values[i] for legal[i]); bot_heuristic takes the
 * first best. */
void bot_heuristic_values(const Game *game, const Cards *cards, const Options *options,
                          ShapeCache *cache, const HeuristicConfig *config, const int8_t *legal,
                          int n_legal, double *values);

/* -- the search: Airships as a game of the generic ISMCTS (airships_search.c, gsearch.h) ----- */
#define SEARCH_MAX_ACTIONS 1000 /* a simulation stops here (random games can stall) */

/* What every simulated world of one search shares: the rules, the bots' settings and cache, and
 * the weight of the score margin in a result. */
typedef struct {
    const Cards *cards;
    const Options *options;
    ShapeCache *cache;
    GreedyConfig greedy;
    HeuristicConfig heuristic;
    double margin_weight; /* a result: win share + margin_weight * tanh(margin / 10) */
    /* 1: a world's dice are keyed by turn (airships_search.c): each turn's rolls come from a
     * generator seeded by the world's dice seed, the seat and the seat's turns so far, so that
     * worlds played on after different actions roll alike (paired worlds, gsearch.h) */
    int32_t keyed_dice;
    /* 1: a world keeps each seat's luck (airships_search.c: as_luck), the network search's
     * control variate (gsearch.h's ``luck``) */
    int32_t track_luck;
} SearchContext;

/* A seat's luck terms (as_luck): over its rolls since the determinization, the sums of (the roll
 * reached the target - its odds) and of (one short - the odds of one short), plain and weighted
 * by the target's points. */
#define SEARCH_LUCK_TERMS 4

/* A state of the search: a game, the actions applied since its determinization, its context;
 * with keyed dice, the world's dice seed, the turn its generator was keyed for and each seat's
 * turns since the determinization; with tracked luck, each seat's luck terms. */
typedef struct {
    Game game;
    int32_t steps;
    SearchContext *context;
    uint64_t dice_seed;
    int32_t keyed_turn;
    int32_t turns_of[MAX_PLAYERS];
    double luck[MAX_PLAYERS][SEARCH_LUCK_TERMS];
} SearchWorld;

/* The search's root: ``game``'s public view (V1) in ``context``. */
void search_world(SearchWorld *world, const Game *game, SearchContext *context);

#endif
