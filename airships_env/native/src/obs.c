/* The observation vector of airships_env/observation.py, written into a caller's buffer.
 *
 * Same layout, same arithmetic: every value is a double computed from integers, rounded to
 * float32 once, and the whole vector is clipped to its upper bound at the end. The differential
 * tests compare the two encoders bit for bit. */
#include <string.h>

#include "core.h"

#define E_SIZE 32
#define A_SIZE 9
#define POOL_PIECES 25
#define DYNAMIC_PIECES 26
#define COMPANY_SIZE (NUM_DEPARTMENTS * E_SIZE + POOL_PIECES + DYNAMIC_PIECES)
#define ODDS_SIZE (3 * NUM_ATTEMPTS)
#define PENDING_SIZE 46

static const double DECK_SCALE = 43.0, TURN_SCALE = 100.0, DICE_SCALE = 6.0, COST_SCALE = 3.0,
                    FACE_SCALE = 8.0, TARGET_SCALE = 25.0, STARS_SCALE = 6.0, BONUS_SCALE = 2.0,
                    CHIP_SCALE = 6.0, SCORE_SCALE = 50.0, STACK_HEIGHT_SCALE = 3.0,
                    PHASE_VALUE_SCALE = 12.0, TIE_BREAK_SCALE = 12.0, PENDING_BONUS_SCALE = 5.0,
                    PHASE_COUNT_SCALE = 4.0;
static const float OPEN_HIGH = 4.0f, DICE_HIGH = 2.0f, TURN_HIGH = 10.0f;

static int head_size(int n) { return 9 + 3 * n; }
static int board_start(int n) { return head_size(n) + NUM_EXPANSIONS; }
static int stacks_start(int n) { return board_start(n) + BOARD_SLOTS * E_SIZE; }
static int phases_start(int n) { return stacks_start(n) + NUM_STACKS * (1 + A_SIZE); }
static int companies_start(int n) { return phases_start(n) + NUM_PHASES * (8 + n); }
static int odds_start(int n) { return companies_start(n) + n * COMPANY_SIZE; }
static int pending_start(int n) { return odds_start(n) + ODDS_SIZE; }

int obs_size(int num_players) { return pending_start(num_players) + PENDING_SIZE; }

static void fill(float *out, int from, int count, float value) {
    for (int i = 0; i < count; i++) out[from + i] = value;
}

void obs_high(int n, float *out) {
    int at = 0;
    fill(out, at, 3, 1.0f); /* era, deck_size */
    out[2] = TURN_HIGH;
    at = 3;
    fill(out, at, 4 + n + (n + 1) + 1 + n + NUM_EXPANSIONS, 1.0f);
    at = board_start(n);
    fill(out, at, BOARD_SLOTS * E_SIZE + NUM_STACKS * (1 + A_SIZE) + NUM_PHASES * (8 + n), OPEN_HIGH);
    at = companies_start(n);
    for (int who = 0; who < n; who++) {
        fill(out, at, NUM_DEPARTMENTS * E_SIZE, OPEN_HIGH);
        at += NUM_DEPARTMENTS * E_SIZE;
        static const int sizes[8] = {3, 3, 3, 4, 3, 3, 3, 3};
        static const int dice_like[8] = {1, 1, 1, 0, 0, 0, 1, 1};
        for (int k = 0; k < 8; k++) {
            fill(out, at, sizes[k], dice_like[k] ? DICE_HIGH : OPEN_HIGH);
            at += sizes[k];
        }
        fill(out, at, 2, OPEN_HIGH); /* chips_on_board, supply */
        at += 2;
        fill(out, at, NUM_AIRSHIPS + 1, 1.0f); /* airships, hindenburg_phases */
        at += NUM_AIRSHIPS + 1;
        fill(out, at, 4, OPEN_HIGH); /* score, score_parts */
        at += 4;
        fill(out, at, 1, OPEN_HIGH); /* tie_break */
        at += 1;
    }
    fill(out, at, ODDS_SIZE, 1.0f);
    at += ODDS_SIZE;
    fill(out, at, 1 + NUM_TARGETS + NUM_VARIANTS, 1.0f);
    at += 1 + NUM_TARGETS + NUM_VARIANTS;
    fill(out, at, PENDING_SIZE - (1 + NUM_TARGETS + NUM_VARIANTS), OPEN_HIGH);
}

static void expansion_features(const Expansion *e, float *f) {
    memset(f, 0, E_SIZE * sizeof(float));
    f[0] = 1.0f;
    f[1 + e->department] = 1.0f;
    f[7 + e->era] = 1.0f;
    for (int c = 0; c < 3; c++) {
        f[10 + c] = (float)(e->cost[c] / COST_SCALE);
        f[15 + c] = (float)(e->dice[c] / COST_SCALE);
    }
    f[13] = (float)(e->target / TARGET_SCALE);
    f[14] = (float)(e->stars / STARS_SCALE);
    f[18] = (float)(e->chips / COST_SCALE);
    if (e->fixed_colour >= 0) f[19 + e->fixed_colour] = (float)(e->fixed_value / FACE_SCALE);
    int bonus[4] = {0, 0, 0, 0};
    for (int b = 0; b < e->n_bonuses; b++) bonus[e->bonus_colour[b]] += e->bonus_amount[b];
    for (int c = 0; c < 4; c++) f[22 + c] = (float)(bonus[c] / BONUS_SCALE);
    if (e->has_exchange)
        for (int c = 0; c < 3; c++) {
            f[26 + c] = (float)(e->give[c] / COST_SCALE);
            f[29 + c] = (float)(e->get[c] / COST_SCALE);
        }
}

static void airship_features(const Airship *a, float *f) {
    memset(f, 0, A_SIZE * sizeof(float));
    f[0] = 1.0f;
    f[1 + a->tier - 1] = 1.0f;
    for (int c = 0; c < 3; c++) f[4 + c] = (float)(a->cost[c] / COST_SCALE);
    f[7] = (float)(a->target / TARGET_SCALE);
    f[8] = (float)(a->stars / STARS_SCALE);
}

/* Card features are clipped to the open bound once, here (the vector's bound for every card
 * block), so that encoding need not clip them again. */
static void clip_row(float *row, int count) {
    for (int i = 0; i < count; i++)
        if (row[i] > OPEN_HIGH) row[i] = OPEN_HIGH;
}

void obs_card_features(Cards *cards) {
    for (int i = 0; i < NUM_EXPANSIONS; i++) {
        expansion_features(&cards->expansions[i], cards->expansion_features[i]);
        clip_row(cards->expansion_features[i], E_SIZE);
    }
    memset(cards->expansion_features[NUM_EXPANSIONS], 0, sizeof cards->expansion_features[0]);
    for (int i = 0; i < NUM_AIRSHIPS; i++) {
        airship_features(&cards->airships[i], cards->airship_features[i]);
        clip_row(cards->airship_features[i], A_SIZE);
    }
    memset(cards->airship_features[NUM_AIRSHIPS], 0, sizeof cards->airship_features[0]);
    for (int j = 0; j < NUM_PHASES; j++) {
        const Phase *h = &cards->phases[j];
        for (int c = 0; c < 3; c++) cards->phase_features[j][c] = (float)(h->cost[c] / COST_SCALE);
        cards->phase_features[j][3] = (float)(h->target / TARGET_SCALE);
        cards->phase_features[j][4] = (float)(h->low / PHASE_VALUE_SCALE);
        cards->phase_features[j][5] = (float)(h->high / PHASE_VALUE_SCALE);
        clip_row(cards->phase_features[j], 6);
    }
}

/* A card's features (or zeros for EMPTY): one row copied from the tables. */
static void put_expansion(const Cards *cards, int card, float *out) {
    memcpy(out, cards->expansion_features[card == EMPTY ? NUM_EXPANSIONS : card], E_SIZE * sizeof(float));
}

static void clip(float *out, const float *high, int from, int count) {
    for (int i = from; i < from + count; i++) {
        float value = out[i], bound = high[i];
        out[i] = value > bound ? bound : value;
    }
}

static int rel(int player, int seat, int n) { return ((player - seat) % n + n) % n; }

static void company(const Game *game, const Cards *cards, const Pool *pool_in, int player, float *out) {
    const Player *p = &game->players[player];
    int at = 0;
    for (int d = 0; d < NUM_DEPARTMENTS; d++) {
        put_expansion(cards, p->slots[d], out + at);
        at += E_SIZE;
    }
    const Pool *pool = pool_in;
    const Hand *plain = &pool->hands[NO_EXCHANGE];
    const Hand *rollable_only = &pool->hands[EXCHANGE];
    const Hand *giving_fixed = &pool->hands[EXCHANGE_GIVING_FIXED];
    int fixed[3] = {0, 0, 0};
    if (plain->fixed_colour >= 0) fixed[plain->fixed_colour] += plain->fixed_value;
    int bonus[4] = {0, 0, 0, 0};
    for (int b = 0; b < pool->n_bonuses; b++) bonus[pool->bonus_colour[b]] += pool->bonus_amount[b];
    for (int c = 0; c < 3; c++) out[at + c] = (float)(plain->rollable[c] / DICE_SCALE);
    at += 3;
    for (int c = 0; c < 3; c++) out[at + c] = (float)(fixed[c] / FACE_SCALE);
    at += 3;
    for (int c = 0; c < 3; c++) out[at + c] = (float)(plain->available[c] / DICE_SCALE);
    at += 3;
    for (int c = 0; c < 4; c++) out[at + c] = (float)(bonus[c] / BONUS_SCALE);
    at += 4;
    for (int c = 0; c < 3; c++) out[at + c] = (float)(pool->give[c] / COST_SCALE);
    at += 3;
    for (int c = 0; c < 3; c++) out[at + c] = (float)(pool->get[c] / COST_SCALE);
    at += 3;
    for (int c = 0; c < 3; c++)
        out[at + c] = rollable_only->valid ? (float)(rollable_only->available[c] / DICE_SCALE) : 0.0f;
    at += 3;
    for (int c = 0; c < 3; c++)
        out[at + c] = giving_fixed->valid ? (float)(giving_fixed->available[c] / DICE_SCALE) : 0.0f;
    at += 3;
    out[at++] = (float)(p->chips_on_board / CHIP_SCALE);
    out[at++] = (float)(p->chips_supply / CHIP_SCALE);
    memset(out + at, 0, NUM_AIRSHIPS * sizeof(float));
    for (int a = 0; a < p->n_airships; a++) out[at + p->airships[a]] = 1.0f;
    at += NUM_AIRSHIPS;
    int phases = 0;
    for (int j = 0; j < NUM_PHASES; j++) phases += game->hindenburg[j] == player;
    int16_t parts[3];
    game_score_parts(game, cards, player, parts);
    out[at++] = (float)(phases / PHASE_COUNT_SCALE);
    out[at++] = (float)((parts[0] + parts[1] + parts[2]) / SCORE_SCALE);
    out[at++] = (float)(parts[0] / SCORE_SCALE);
    out[at++] = (float)(parts[1] / SCORE_SCALE);
    out[at++] = (float)(parts[2] / SCORE_SCALE);
    out[at++] = (float)((p->n_airships + phases) / TIE_BREAK_SCALE);
}

const float *obs_high_table(int num_players);

void obs_encode(const Game *game, const Cards *cards, const Options *options, ShapeCache *cache,
                int seat, float *out) {
    int n = game->num_players;
    int size = obs_size(n);
    /* zeros where values are written only when present: the head and removed cards, the
     * Hindenburg, the odds and the pending roll; the card blocks are written whole */
    memset(out, 0, (size_t)board_start(n) * sizeof(float));
    memset(out + phases_start(n), 0, (size_t)(companies_start(n) - phases_start(n)) * sizeof(float));
    memset(out + odds_start(n), 0, (size_t)(size - odds_start(n)) * sizeof(float));
    out[0] = (float)(game->era - 1);
    out[1] = (float)(game->deck_len / DECK_SCALE);
    out[2] = (float)(game->turn / TURN_SCALE);
    int at = 3;
    out[at + game->phase] = 1.0f;
    at += 4;
    out[at + rel(game->current_player, seat, n)] = 1.0f;
    at += n;
    out[at + (game->wooden_airship != EMPTY ? rel(game->wooden_airship, seat, n) : n)] = 1.0f;
    at += n + 1;
    out[at] = game->hindenburg_open ? 1.0f : 0.0f;
    at += 1;
    for (int p = 0; p < n; p++)
        if (game->passed_mask >> p & 1u) out[at + rel(p, seat, n)] = 1.0f;
    at += n;
    for (int i = 0; i < game->n_removed; i++) out[at + game->removed[i]] = 1.0f;
    at = board_start(n);
    for (int s = 0; s < BOARD_SLOTS; s++) {
        put_expansion(cards, game->board[s], out + at);
        at += E_SIZE;
    }
    for (int s = 0; s < NUM_STACKS; s++) {
        int height = game->stack_len[s];
        out[at] = (float)(height / STACK_HEIGHT_SCALE);
        int top = height ? game->stacks[s][height - 1] : NUM_AIRSHIPS;
        memcpy(out + at + 1, cards->airship_features[top], A_SIZE * sizeof(float));
        at += 1 + A_SIZE;
    }
    for (int j = 0; j < NUM_PHASES; j++) {
        int holder = game->hindenburg[j];
        if (holder != EMPTY) {
            out[at + 1] = 1.0f;
            out[at + 2 + rel(holder, seat, n)] = 1.0f;
        } else if (game_phase_available(game, options, j)) {
            out[at] = 1.0f;
        }
        memcpy(out + at + 2 + n, cards->phase_features[j], 6 * sizeof(float));
        at += 8 + n;
    }
    Pool pools[MAX_PLAYERS];
    for (int r = 0; r < n; r++) {
        int player = (seat + r) % n;
        pool_build(&pools[r], cards, game->era, game->players[player].slots);
        company(game, cards, &pools[r], player, out + companies_start(n) + r * COMPANY_SIZE);
    }
    /* odds of every attempt for the observing seat, on its own dice (whoever is to act) */
    at = odds_start(n);
    {
        const Pool *pool = &pools[0];
        int wooden = game->wooden_airship == seat;
        int has_chip = game->players[seat].chips_on_board > 0;
        int8_t classes[NUM_TARGETS];
        game_target_classes(game, cards, options, classes);
        for (int target = 0; target < NUM_TARGETS; target++) {
            int cls = classes[target];
            if (cls < 0) continue;
            const int8_t *cost = cards->class_cost[cls];
            int8_t offered[NUM_VARIANTS];
            pool_offers(pool, cost, offered);
            int bonus = pool_engine_bonus(pool, cost, options->engine_bonus_needs_cost_colour) + wooden;
            for (int v = 0; v < NUM_VARIANTS; v++) {
                if (!offered[v]) continue;
                Odds odds = odds_for(cache, &pool->hands[v], cost, cards->class_needed[cls], bonus, has_chip);
                int row = at + 3 * (NUM_VARIANTS * target + v);
                out[row] = 1.0f;
                out[row + 1] = (float)((double)odds.at_least / (double)odds.denominator);
                out[row + 2] = (float)((double)odds.chip_decides / (double)odds.denominator);
            }
        }
    }
    const Pending *pd = &game->pending;
    if (game->phase == CHIP_DECISION && pd->active) {
        at = pending_start(n);
        out[at++] = 1.0f;
        out[at + pd->target] = 1.0f;
        at += NUM_TARGETS;
        out[at + pd->variant] = 1.0f;
        at += NUM_VARIANTS;
        for (int c = 0; c < 3; c++) {
            int8_t faces[MAX_ROLLED];
            int k = pd->n_rolled[c];
            for (int i = 0; i < k; i++) faces[i] = pd->rolled[c][i];
            for (int i = 1; i < k; i++) {
                int8_t v = faces[i];
                int j = i - 1;
                while (j >= 0 && faces[j] < v) {
                    faces[j + 1] = faces[j];
                    j--;
                }
                faces[j + 1] = v;
            }
            for (int i = 0; i < k; i++) out[at + MAX_ROLLED * c + i] = (float)(faces[i] / FACE_SCALE);
            int kept = 0;
            for (int i = 0; i < pd->n_kept[c]; i++) kept += pd->kept[c][i];
            out[at + 3 * MAX_ROLLED + c] = (float)(kept / TARGET_SCALE);
        }
        at += 3 * MAX_ROLLED + 3;
        out[at] = (float)(pd->dice_sum / TARGET_SCALE);
        out[at + 1] = (float)((pd->total - pd->dice_sum) / PENDING_BONUS_SCALE);
        out[at + 2] = (float)(pd->total / TARGET_SCALE);
        out[at + 3] = (float)(pd->needed / TARGET_SCALE);
    }
    /* The vector's bounds (airships_env/observation.py clips everything; only these values
     * can pass their bound: the turn, a company's dice, bonuses and scores, the pending sums;
     * the card blocks were clipped in their tables). */
    const float *high = obs_high_table(n);
    clip(out, high, 2, 1);
    for (int r = 0; r < n; r++) {
        int start = companies_start(n) + r * COMPANY_SIZE + NUM_DEPARTMENTS * E_SIZE;
        clip(out, high, start, POOL_PIECES + DYNAMIC_PIECES);
    }
    clip(out, high, pending_start(n), PENDING_SIZE);
}

/* The upper bounds by player count, computed once (odds_init_tables runs it at import). */
static float high_tables[MAX_PLAYERS + 1][985 + 250 * MAX_PLAYERS];

void obs_init_tables(void) {
    for (int n = MIN_PLAYERS; n <= MAX_PLAYERS; n++) obs_high(n, high_tables[n]);
}

const float *obs_high_table(int num_players) { return high_tables[num_players]; }
