/* What one seat may see, and determinization for search: airships_env/games/australia/engine/
 * view.py in C, bit-identical (tests/native/test_australia_view.py holds them to it at every step
 * of random games).
 *
 * A view is a copy of the game in which what the seat cannot see is replaced by a canonical
 * arrangement that depends only on what it can see: per back, the hidden colours (the other
 * hands' cards of that back, the stack, the set-aside cards) sorted and dealt to the other hands
 * in seat order, then the stack bottom to top, then the set-aside cards; the values of the
 * face-down tiles sorted and dealt to the face-down regions in region order; no generator.
 * A determinization deals the same hidden cards and tiles shuffled with the shared ``shuffle``
 * (chance.shuffle: per back, then the tiles), then draws the seed of the world's generator
 * (numpy's ``integers(0, 2**63)``: Lemire's method never rejects for this range, so it is one raw
 * draw shifted right by one) and seeds it as ``PCG64(seed)`` does.
 */
#include <string.h>

#include "australia.h"

/* view._hidden_cards: the colours of ``back`` that ``seat`` cannot see, sorted; their number. */
static int hidden_cards(const AuGame *g, int seat, int back, int8_t *cards) {
    int counts[AU_NUM_COLOURS] = {0};
    for (int other = 0; other < g->num_players; other++)
        if (other != seat)
            for (int colour = 0; colour < AU_NUM_COLOURS; colour++)
                counts[colour] += g->hands[other][back * AU_NUM_COLOURS + colour];
    for (int i = 0; i < g->stack_size[back]; i++) counts[g->stacks[back][i]]++;
    for (int i = 0; i < g->aside_size[back]; i++) counts[g->set_aside[back][i]]++;
    int size = 0;
    for (int colour = 0; colour < AU_NUM_COLOURS; colour++)
        for (int k = 0; k < counts[colour]; k++) cards[size++] = (int8_t)colour;
    return size;
}

/* view._hidden_tiles: the values of the face-down tiles, sorted; their number. */
static int hidden_tiles(const AuGame *g, int8_t *tiles) {
    int size = 0;
    for (int value = AU_MIN_TILE; value < AU_MIN_TILE + AU_NUM_TILE_VALUES; value++)
        for (int r = 0; r < AU_NUM_REGIONS; r++)
            if (g->tile_value[r] == value && !g->tile_up[r]) tiles[size++] = (int8_t)value;
    return size;
}

/* view._deal: the cards of each back (in order) to the other hands in seat order, the stack
 * bottom to top, the set-aside cards; the tiles (in order) to the face-down regions. */
static void deal(AuGame *g, int seat, int8_t cards[][AU_MAX_STACK],
                 const int8_t *tiles) {
    for (int b = 0; b < AU_NUM_BACKS; b++) {
        int position = 0;
        for (int other = 0; other < g->num_players; other++) {
            if (other == seat) continue;
            int16_t *hand = g->hands[other] + b * AU_NUM_COLOURS;
            int held = 0;
            for (int colour = 0; colour < AU_NUM_COLOURS; colour++) {
                held += hand[colour];
                hand[colour] = 0;
            }
            for (int k = 0; k < held; k++) hand[cards[b][position++]]++;
        }
        for (int i = 0; i < g->stack_size[b]; i++) g->stacks[b][i] = cards[b][position++];
        for (int i = 0; i < g->aside_size[b]; i++) g->set_aside[b][i] = cards[b][position++];
    }
    int position = 0;
    for (int r = 0; r < AU_NUM_REGIONS; r++)
        if (g->tile_value[r] && !g->tile_up[r]) g->tile_value[r] = tiles[position++];
}

/* The hidden cards of every back (sorted) and the hidden tiles (sorted); the tiles' number. */
static int hidden(const AuGame *g, int seat, int8_t cards[][AU_MAX_STACK], int *sizes,
                  int8_t *tiles) {
    for (int b = 0; b < AU_NUM_BACKS; b++) sizes[b] = hidden_cards(g, seat, b, cards[b]);
    return hidden_tiles(g, tiles);
}

void au_view(const AuGame *g, int seat, AuGame *out) {
    int8_t cards[AU_NUM_BACKS][AU_MAX_STACK], tiles[AU_NUM_REGIONS];
    int sizes[AU_NUM_BACKS];
    hidden(g, seat, cards, sizes, tiles);
    *out = *g; /* ``out`` may be ``g``: the hidden parts were read first */
    memset(&out->rng, 0, sizeof out->rng);
    deal(out, seat, cards, tiles);
}

void au_determinize(const AuGame *g, int seat, Rng *rng, AuGame *out, int with_generator) {
    int8_t cards[AU_NUM_BACKS][AU_MAX_STACK], tiles[AU_NUM_REGIONS];
    int sizes[AU_NUM_BACKS];
    int n_tiles = hidden(g, seat, cards, sizes, tiles);
    for (int b = 0; b < AU_NUM_BACKS; b++) shuffle_i8(rng, cards[b], sizes[b]);
    shuffle_i8(rng, tiles, n_tiles);
    *out = *g;
    memset(&out->rng, 0, sizeof out->rng);
    deal(out, seat, cards, tiles);
    uint64_t seed = rng_next64(rng) >> 1; /* integers(0, 2**63) */
    if (with_generator) {
        uint32_t words[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
        rng_seed_sequence(&out->rng, words, words[1] ? 2 : 1, NULL, 0);
    }
}
