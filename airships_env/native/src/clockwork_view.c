/* What one seat may see, and determinization for search: airships_env/games/clockwork/engine/
 * view.py in C, bit-identical (tests/native/test_clockwork_view.py holds them to it at every step
 * of random games).
 *
 * A view is a copy of the game in which every card the seat cannot see is replaced by a canonical
 * arrangement that depends only on what it can see: the hidden cards sorted by type and dealt in a
 * fixed order (opponents in seat order, each first given what the seat knows it holds, then the
 * piles 1..6 bottom to top, then the occupied places when discard_recall is "none"); the other
 * seats' knowledge zeroed, the type named in a challenge between two others -1, no generator.
 * A determinization deals the same hidden cards in numpy's ``Generator.permutation`` order.
 */
#include <string.h>

#include "clockwork.h"

/* view._deal: ``cards`` (in order) into the hidden slots of ``g`` as ``seat`` sees them. */
static void deal(CwGame *g, int seat, const int8_t *cards) {
    int position = 0, n = g->num_players;
    for (int other = 0; other < n; other++) {
        if (other == seat) continue;
        int size = 0, known = 0;
        for (int t = 0; t < CW_NUM_TYPES; t++) {
            size += g->hands[other][t];
            known += g->known[seat][other][t];
        }
        for (int t = 0; t < CW_NUM_TYPES; t++) g->hands[other][t] = g->known[seat][other][t];
        for (int k = 0; k < size - known; k++) g->hands[other][cards[position++]] += 1;
    }
    for (int k = 0; k < CW_NUM_YARDS; k++)
        for (int i = 0; i < g->pile_size[k]; i++) g->piles[k][i] = cards[position++];
    if (g->config.discard_recall_none)
        for (int p = 0; p < CW_NUM_PLACES; p++)
            if (g->places[p] >= 0) g->places[p] = cards[position++];
}

/* The hidden cards of ``seat``, sorted by type, into ``cards``; their number. */
static int hidden_sorted(const CwGame *g, int seat, int8_t *cards) {
    int pool[CW_NUM_TYPES], count = 0;
    cw_hidden_pool(g, seat, pool);
    for (int t = 0; t < CW_NUM_TYPES; t++)
        for (int k = 0; k < pool[t]; k++) cards[count++] = (int8_t)t;
    return count;
}

/* The canonical view without the deal: no generator, the others' knowledge gone, C4. */
static void blank(const CwGame *g, int seat, CwGame *out) {
    *out = *g;
    memset(&out->rng, 0, sizeof out->rng);
    for (int other = 0; other < CW_MAX_PLAYERS; other++)
        if (other != seat) memset(out->known[other], 0, sizeof out->known[other]);
    if (out->challenge[0] >= 0 && seat != out->challenge[0] && seat != out->challenge[1])
        out->challenge[2] = -1; /* C4 */
}

void cw_view(const CwGame *g, int seat, CwGame *out) {
    int8_t cards[CW_MAX_DECK + CW_NUM_PLACES];
    hidden_sorted(g, seat, cards);
    CwGame copy = *g; /* ``out`` may be ``g`` */
    blank(&copy, seat, out);
    deal(out, seat, cards);
}

/* view._guess_named: in a challenge between two others, a type the challenger could have named
 * and the opponent holds (else any type but SCRAP the opponent holds). */
static void guess_named(CwGame *g, Rng *rng) {
    int challenger = g->challenge[0], opponent = g->challenge[1];
    int candidates[CW_NUM_TYPES], n = 0, held[CW_NUM_TYPES], n_held = 0;
    for (int t = 0; t < CW_SCRAP; t++)
        if (g->hands[opponent][t] > 0) held[n_held++] = t;
    for (int t = 0; t < CW_NUM_TYPES; t++) {
        int nameable = (t <= CW_AS && g->hands[challenger][t] > 0) ||
                       ((t == CW_FUEL || t == CW_POWER) && g->config.counts[t] > 0);
        if (nameable && t != CW_SCRAP && g->hands[opponent][t] > 0) candidates[n++] = t;
    }
    if (n == 0) {
        memcpy(candidates, held, sizeof held);
        n = n_held;
    }
    if (n == 0) return;
    g->challenge[2] = (int8_t)candidates[uniform_below(rng, (uint64_t)n)];
}

void cw_determinize(const CwGame *g, int seat, Rng *rng, CwGame *out) {
    int8_t cards[CW_MAX_DECK + CW_NUM_PLACES];
    int count = hidden_sorted(g, seat, cards);
    CwGame copy = *g;
    blank(&copy, seat, out);
    numpy_permute_i8(rng, cards, count);
    deal(out, seat, cards);
    if (out->phase == CW_RESPOND && out->challenge[2] < 0) guess_named(out, rng);
    uint64_t seed = rng_next64(rng); /* the world's generator: PCG64(random_raw()) */
    uint32_t words[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    rng_seed_sequence(&out->rng, words, words[1] ? 2 : 1, NULL, 0);
}
