/* The card table handed over by the Python loader (airships_env/engine/cards.py validates the
 * file; airships_env/native/__init__.py packs it into int32 words). The core checks every word
 * again, so that no table, however it was made, can make it read or write out of bounds. */
#include "core.h"

static int in_range(int32_t value, int32_t low, int32_t high) { return value >= low && value <= high; }

/* Returns 0, or 1 + the index of the first word out of range. */
int cards_unpack(Cards *cards, const int32_t *words, int n_words) {
    if (n_words != CARD_TABLE_WORDS) return 1;
    int at = 0;
#define TAKE(dest, low, high)                                   \
    do {                                                        \
        if (!in_range(words[at], (low), (high))) return at + 1; \
        (dest) = (int8_t)words[at++];                           \
    } while (0)
#define TAKE16(dest, low, high)                                 \
    do {                                                        \
        if (!in_range(words[at], (low), (high))) return at + 1; \
        (dest) = (int16_t)words[at++];                          \
    } while (0)
    for (int c = 0; c < 3; c++) TAKE(cards->side1[c], 0, 3);
    for (int c = 0; c < 3; c++) TAKE(cards->side2[c], 0, 3);
    for (int i = 0; i < NUM_EXPANSIONS; i++) {
        Expansion *e = &cards->expansions[i];
        int start = at;
        TAKE(e->era, 0, 2);
        TAKE(e->department, 0, NUM_DEPARTMENTS - 1);
        for (int c = 0; c < 3; c++) TAKE(e->cost[c], 0, 3);
        if (e->cost[0] + e->cost[1] + e->cost[2] == 0) return start + 3;
        TAKE16(e->target, 0, 99);
        TAKE(e->stars, 0, 99);
        for (int c = 0; c < 3; c++) TAKE(e->dice[c], 0, 3);
        TAKE(e->chips, 0, 3);
        TAKE(e->fixed_colour, -1, 2);
        TAKE(e->fixed_value, e->fixed_colour < 0 ? 0 : 1, e->fixed_colour < 0 ? 0 : MAX_FIXED_VALUE);
        TAKE(e->n_bonuses, 0, MAX_BONUSES);
        for (int b = 0; b < MAX_BONUSES; b++) TAKE(e->bonus_colour[b], 0, 3);
        for (int b = 0; b < MAX_BONUSES; b++) TAKE(e->bonus_amount[b], b < e->n_bonuses ? 1 : 0, b < e->n_bonuses ? 9 : 0);
        TAKE(e->has_exchange, 0, 1);
        for (int c = 0; c < 3; c++) TAKE(e->give[c], 0, 3);
        for (int c = 0; c < 3; c++) TAKE(e->get[c], 0, 3);
        /* One effect kind per department (the loader's rule): a company then holds at most one
         * fixed die, one card's Engine bonuses and one exchange. */
        if (e->fixed_colour >= 0 && e->department != 3) return start + 12;
        if (e->n_bonuses > 0 && e->department != 4) return start + 14;
        if (e->has_exchange && e->department != 5) return start + 23;
    }
    for (int i = 0; i < NUM_AIRSHIPS; i++) {
        Airship *a = &cards->airships[i];
        int start = at;
        TAKE(a->tier, 1, 3);
        for (int c = 0; c < 3; c++) TAKE(a->cost[c], 0, 3);
        if (a->cost[0] + a->cost[1] + a->cost[2] == 0) return start + 2;
        TAKE16(a->target, 0, 99);
        TAKE(a->stars, 0, 99);
    }
    for (int i = 0; i < NUM_PHASES; i++) {
        Phase *h = &cards->phases[i];
        int start = at;
        for (int c = 0; c < 3; c++) TAKE(h->cost[c], 0, 3);
        if (h->cost[0] + h->cost[1] + h->cost[2] == 0) return start + 1;
        TAKE16(h->target, 0, 99);
        TAKE(h->low, 0, 99);
        TAKE(h->high, 0, 99);
    }
#undef TAKE
#undef TAKE16
    /* Lists in file order; the counts the rules fix (6 starters, 18 + 24, 6 per tier). */
    static const int era_expected[3] = {6, 18, 24};
    for (int era = 0; era < 3; era++) cards->era_count[era] = 0;
    for (int i = 0; i < NUM_EXPANSIONS; i++) {
        int era = cards->expansions[i].era;
        if (cards->era_count[era] >= era_expected[era]) return 1 + CARD_WORDS_HEADER + i * CARD_WORDS_EXPANSION;
        cards->era_cards[era][cards->era_count[era]++] = (int8_t)i;
    }
    int tier_count[3] = {0, 0, 0};
    for (int i = 0; i < NUM_AIRSHIPS; i++) {
        int tier = cards->airships[i].tier - 1;
        if (tier_count[tier] >= AIRSHIPS_PER_TIER)
            return 1 + CARD_WORDS_HEADER + NUM_EXPANSIONS * CARD_WORDS_EXPANSION + i * CARD_WORDS_AIRSHIP;
        cards->tier_cards[tier][tier_count[tier]++] = (int8_t)i;
    }
    /* Odds classes: distinct (cost, target number), in the order expansions, airships, phases
     * (as airships_env/engine/derived.py numbers them). */
    cards->n_classes = 0;
#define CLASS_OF(cost, target, out)                                                              \
    do {                                                                                         \
        int found = -1;                                                                          \
        for (int k = 0; k < cards->n_classes; k++)                                               \
            if (cards->class_cost[k][0] == (cost)[0] && cards->class_cost[k][1] == (cost)[1] &&  \
                cards->class_cost[k][2] == (cost)[2] && cards->class_needed[k] == (target)) {    \
                found = k;                                                                       \
                break;                                                                           \
            }                                                                                    \
        if (found < 0) {                                                                         \
            found = cards->n_classes++;                                                          \
            for (int c = 0; c < 3; c++) cards->class_cost[found][c] = (cost)[c];                 \
            cards->class_needed[found] = (target);                                               \
        }                                                                                        \
        (out) = (int8_t)found;                                                                   \
    } while (0)
    for (int i = 0; i < NUM_EXPANSIONS; i++)
        CLASS_OF(cards->expansions[i].cost, cards->expansions[i].target, cards->expansion_class[i]);
    for (int i = 0; i < NUM_AIRSHIPS; i++)
        CLASS_OF(cards->airships[i].cost, cards->airships[i].target, cards->airship_class[i]);
    for (int i = 0; i < NUM_PHASES; i++)
        CLASS_OF(cards->phases[i].cost, cards->phases[i].target, cards->phase_class[i]);
#undef CLASS_OF
    obs_card_features(cards);
    return 0;
}
