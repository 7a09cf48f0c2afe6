/* Dice pools, exchange variants and exact odds (docs/airships/RULES.md T2-T5), as
 * airships_env/engine/derived.py and airships_env/engine/dice.py compute them.
 *
 * A colour's kept sum has an exact distribution over the 6^n equally likely outcomes of its
 * rolled dice; these are tabulated once (odds_init_tables) for every colour, number rolled,
 * number kept and fixed value. An attempt's distribution is their convolution, memoised per
 * attempt shape in a ShapeCache that its user owns (no global mutable state).
 */
#include <string.h>

#include "core.h"

static const int8_t FACES[3][6] = {{1, 1, 2, 2, 3, 3}, {2, 3, 3, 4, 4, 5}, {4, 4, 6, 6, 8, 8}};

#define COLOUR_SUM_MAX 40 /* 8 + 8 + 20: the best 3 of 3 rolled dice and a fixed die */
/* colour_counts[colour][rolled][keep][fixed value (0 = none)][sum] */
static uint32_t colour_counts[3][MAX_ROLLED + 1][MAX_ROLLED + 1][MAX_FIXED_VALUE + 1][COLOUR_SUM_MAX + 1];

static int best_sum(int8_t *values, int n, int keep) {
    /* insertion sort, high first */
    for (int i = 1; i < n; i++) {
        int8_t v = values[i];
        int j = i - 1;
        while (j >= 0 && values[j] < v) {
            values[j + 1] = values[j];
            j--;
        }
        values[j + 1] = v;
    }
    int total = 0;
    for (int i = 0; i < keep && i < n; i++) total += values[i];
    return total;
}

void odds_init_tables(void) {
    static int done = 0;
    if (done) return;
    memset(colour_counts, 0, sizeof colour_counts);
    for (int colour = 0; colour < 3; colour++)
        for (int rolled = 0; rolled <= MAX_ROLLED; rolled++) {
            int outcomes = 1;
            for (int i = 0; i < rolled; i++) outcomes *= 6;
            for (int keep = 1; keep <= MAX_ROLLED; keep++)
                for (int fixed = 0; fixed <= MAX_FIXED_VALUE; fixed++)
                    for (int code = 0; code < outcomes; code++) {
                        int8_t values[MAX_ROLLED + 1];
                        int n = 0, rest = code;
                        for (int i = 0; i < rolled; i++) {
                            values[n++] = FACES[colour][rest % 6];
                            rest /= 6;
                        }
                        if (fixed) values[n++] = (int8_t)fixed;
                        colour_counts[colour][rolled][keep][fixed][best_sum(values, n, keep)]++;
                    }
        }
    done = 1;
}

/* -- pools -------------------------------------------------------------------------------- */
static void hand_set(Hand *hand, const int8_t *rollable, int fixed_colour, int fixed_value) {
    hand->valid = 1;
    for (int c = 0; c < 3; c++) {
        hand->rollable[c] = rollable[c];
        hand->available[c] = (int8_t)(rollable[c] + (c == fixed_colour ? 1 : 0));
    }
    hand->fixed_colour = (int8_t)fixed_colour;
    hand->fixed_value = (int8_t)(fixed_colour >= 0 ? fixed_value : 0);
    memset(&hand->exchange, 0, sizeof hand->exchange);
    hand->exchange.gave_fixed_colour = -1;
}

void pool_build(Pool *pool, const Cards *cards, int era, const int8_t *slots) {
    memset(pool, 0, sizeof *pool); /* every byte defined: pools are compared whole (bots.c) */
    const int8_t *side = era == 2 ? cards->side2 : cards->side1;
    int8_t rollable[3] = {side[0], side[1], side[2]};
    int fixed_colour = -1, fixed_value = 0;
    pool->n_bonuses = 0;
    pool->has_exchange = 0;
    for (int c = 0; c < 3; c++) pool->give[c] = pool->get[c] = 0;
    for (int d = 0; d < NUM_DEPARTMENTS; d++) {
        int card = slots[d];
        if (card == EMPTY) continue;
        const Expansion *e = &cards->expansions[card];
        for (int c = 0; c < 3; c++) rollable[c] = (int8_t)(rollable[c] + e->dice[c]);
        if (e->fixed_colour >= 0) {
            fixed_colour = e->fixed_colour;
            fixed_value = e->fixed_value;
        }
        for (int b = 0; b < e->n_bonuses && pool->n_bonuses < MAX_BONUSES; b++) {
            pool->bonus_colour[pool->n_bonuses] = e->bonus_colour[b];
            pool->bonus_amount[pool->n_bonuses] = e->bonus_amount[b];
            pool->n_bonuses++;
        }
        if (e->has_exchange) {
            pool->has_exchange = 1;
            for (int c = 0; c < 3; c++) {
                pool->give[c] = e->give[c];
                pool->get[c] = e->get[c];
            }
        }
    }
    hand_set(&pool->hands[NO_EXCHANGE], rollable, fixed_colour, fixed_value);
    pool->hands[EXCHANGE].valid = 0;
    pool->hands[EXCHANGE_GIVING_FIXED].valid = 0;
    if (!pool->has_exchange) return;
    const int8_t *give = pool->give, *get = pool->get;
    /* T3, variant 1: only rollable dice go */
    if (rollable[0] >= give[0] && rollable[1] >= give[1] && rollable[2] >= give[2]) {
        int8_t after[3];
        for (int c = 0; c < 3; c++) after[c] = (int8_t)(rollable[c] - give[c] + get[c]);
        Hand *hand = &pool->hands[EXCHANGE];
        hand_set(hand, after, fixed_colour, fixed_value);
        hand->exchange.has = 1;
        for (int c = 0; c < 3; c++) {
            hand->exchange.gave[c] = give[c];
            hand->exchange.received[c] = get[c];
        }
    }
    /* T3, variant 2: the fixed die goes, rollable dice make up the count */
    if (fixed_colour >= 0 && give[fixed_colour] >= 1) {
        int8_t from[3];
        int ok = 1;
        for (int c = 0; c < 3; c++) {
            from[c] = (int8_t)(give[c] - (c == fixed_colour ? 1 : 0));
            if (rollable[c] < from[c]) ok = 0;
        }
        if (ok) {
            int8_t after[3];
            for (int c = 0; c < 3; c++) after[c] = (int8_t)(rollable[c] - from[c] + get[c]);
            Hand *hand = &pool->hands[EXCHANGE_GIVING_FIXED];
            hand_set(hand, after, -1, 0);
            hand->exchange.has = 1;
            for (int c = 0; c < 3; c++) {
                hand->exchange.gave[c] = from[c];
                hand->exchange.received[c] = get[c];
            }
            hand->exchange.gave_fixed_colour = (int8_t)fixed_colour;
            hand->exchange.gave_fixed_value = (int8_t)fixed_value;
        }
    }
}

static int can_pay(const Hand *hand, const int8_t *cost) {
    return hand->valid && cost[0] <= hand->available[0] && cost[1] <= hand->available[1] &&
           cost[2] <= hand->available[2];
}

void pool_offers(const Pool *pool, const int8_t *cost, int8_t offered[NUM_VARIANTS]) {
    const Hand *rollable_only = &pool->hands[EXCHANGE];
    const Hand *giving_fixed = &pool->hands[EXCHANGE_GIVING_FIXED];
    offered[NO_EXCHANGE] = (int8_t)can_pay(&pool->hands[NO_EXCHANGE], cost);
    offered[EXCHANGE] = (int8_t)can_pay(rollable_only, cost);
    int fixed = can_pay(giving_fixed, cost);
    if (fixed && rollable_only->valid) fixed = cost[giving_fixed->exchange.gave_fixed_colour] > 0;
    offered[EXCHANGE_GIVING_FIXED] = (int8_t)fixed;
}

int pool_engine_bonus(const Pool *pool, const int8_t *cost, int needs_colour) {
    int total = 0;
    for (int b = 0; b < pool->n_bonuses; b++) {
        int colour = pool->bonus_colour[b];
        if (colour == ANY || !needs_colour || cost[colour] > 0) total += pool->bonus_amount[b];
    }
    return total;
}

/* -- attempt shapes and their tail counts ---------------------------------------------------- */
static uint32_t shape_code(const Hand *hand, const int8_t *cost) {
    uint32_t code = 0;
    for (int c = 0; c < 3; c++) {
        if (!cost[c]) continue;
        uint32_t rolled = (uint32_t)(hand->rollable[c] < MAX_ROLLED ? hand->rollable[c] : MAX_ROLLED);
        uint32_t fixed = hand->fixed_colour == c ? (uint32_t)hand->fixed_value : 0u;
        code |= (rolled | ((uint32_t)cost[c] << 2) | (fixed << 4)) << (9 * c);
    }
    return code;
}

static const ShapeEntry *shape_entry(ShapeCache *cache, uint32_t code) {
    uint32_t index = (uint32_t)((code + 1u) * 2654435761u) >> (32 - SHAPE_CACHE_BITS);
    ShapeEntry *entry = &cache->entries[index];
    if (entry->key == code + 1u) return entry;
    /* the convolution of the colours in the cost, in colour order */
    uint32_t counts[MAX_SUM + 1];
    memset(counts, 0, sizeof counts);
    counts[0] = 1;
    int low = 0, high = 0;
    uint32_t denominator = 1;
    for (int c = 0; c < 3; c++) {
        uint32_t part = (code >> (9 * c)) & 511u;
        int keep = (int)((part >> 2) & 3u);
        if (!keep) continue;
        int rolled = (int)(part & 3u), fixed = (int)(part >> 4);
        const uint32_t *colour = colour_counts[c][rolled][keep][fixed];
        uint32_t merged[MAX_SUM + 1];
        memset(merged, 0, sizeof merged);
        int new_low = MAX_SUM, new_high = 0;
        for (int s = low; s <= high; s++) {
            if (!counts[s]) continue;
            for (int v = 0; v <= COLOUR_SUM_MAX; v++) {
                if (!colour[v]) continue;
                merged[s + v] += counts[s] * colour[v];
                if (s + v < new_low) new_low = s + v;
                if (s + v > new_high) new_high = s + v;
            }
        }
        memcpy(counts, merged, sizeof counts);
        low = new_low;
        high = new_high;
        for (int i = 0; i < rolled; i++) denominator *= 6u;
    }
    entry->key = code + 1u;
    entry->denominator = denominator;
    entry->min_sum = (int16_t)low;
    entry->max_sum = (int16_t)high;
    uint32_t running = 0;
    entry->tail[MAX_SUM + 1] = 0;
    for (int s = MAX_SUM; s >= 0; s--) {
        running += counts[s];
        entry->tail[s] = running;
    }
    return entry;
}

static uint32_t count_at_least(const ShapeEntry *entry, int needed) {
    if (needed <= 0) return entry->denominator;
    if (needed > MAX_SUM) return 0;
    return entry->tail[needed];
}

Odds odds_for(ShapeCache *cache, const Hand *hand, const int8_t *cost, int needed, int bonus,
              int has_chip) {
    const ShapeEntry *entry = shape_entry(cache, shape_code(hand, cost));
    int short_of = needed - bonus;
    Odds odds;
    odds.denominator = entry->denominator;
    odds.at_least = count_at_least(entry, short_of);
    uint32_t one_short = count_at_least(entry, short_of - 1);
    odds.chip_decides = one_short - odds.at_least;
    odds.with_chip = has_chip ? one_short : odds.at_least;
    return odds;
}
