/* What one seat may see, and determinization for search: State.view and State.determinize of
 * airships_env/games/nippon/engine/state.py in C, bit-identical (tests/native/
 * test_nippon_view.py holds them to it at every step of random games).
 *
 * Nippon hides one thing: the future order of the worker bag, that is the game's generator. The
 * bag's contents, every board, supply and plan are open (V1), so a view is the game without its
 * generator (rng.present 0: the binding refuses to play on it) and every seat's view is the same.
 * A determinization is the game with a fresh generator drawn from the search's: numpy's
 * ``Generator(PCG64(int(rng.integers(0, 2**63 - 1))))``, replayed exactly.
 */
#include <string.h>

#include "nippon.h"

/* numpy's Generator.integers(0, high) for int64: bounded_lemire_uint64 on rng = high - 1 (one
 * 64-bit draw, rejected only when the low word falls under (2**64 - high) % high). */
static uint64_t integers_below(Rng *rng, uint64_t high) {
    uint64_t range = high - 1, excl = range + 1;
    __uint128_t m = (__uint128_t)rng_next64(rng) * excl;
    uint64_t leftover = (uint64_t)m;
    if (leftover < excl) {
        uint64_t threshold = (UINT64_MAX - range) % excl;
        while (leftover < threshold) {
            m = (__uint128_t)rng_next64(rng) * excl;
            leftover = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

void ni_view(const NiGame *g, int seat, NiGame *out) {
    (void)seat; /* every seat sees the same: only the generator is hidden */
    *out = *g;
    memset(&out->rng, 0, sizeof out->rng);
}

void ni_determinize(const NiGame *g, int seat, Rng *rng, NiGame *out) {
    (void)seat;
    uint64_t seed = integers_below(rng, ((uint64_t)1 << 63) - 1);
    uint32_t words[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    *out = *g;
    rng_seed_sequence(&out->rng, words, words[1] ? 2 : 1, NULL, 0);
}
