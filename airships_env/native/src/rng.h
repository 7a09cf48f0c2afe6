/* Random numbers shared by every game's core: numpy's PCG64 and SeedSequence, and the samplers of
 * airships_env/chance.py (``uniform_below``: rejection on the raw 64-bit output; ``shuffle``:
 * Fisher-Yates from the last position down), so that a game seeded in C draws what
 * ``np.random.default_rng(seed)`` gives the Python engines (rng.c).
 */
#ifndef AIRSHIPS_RNG_H
#define AIRSHIPS_RNG_H

#include <stdint.h>

typedef struct {
    uint64_t state_hi, state_lo, inc_hi, inc_lo;
    int32_t has_uint32; /* carried unchanged for an exact round trip with numpy's state dict */
    uint32_t uinteger;
    int32_t present;    /* 0: no generator (a public view, or a state made without one) */
} Rng;

uint64_t rng_next64(Rng *rng);
void rng_seed_sequence(Rng *rng, const uint32_t *entropy, int n_entropy, const uint32_t *spawn,
                       int n_spawn);
uint64_t uniform_below(Rng *rng, uint64_t bound);
void shuffle_i8(Rng *rng, int8_t *items, int n);
/* numpy's ``Generator.permutation`` of a 1-d array (its ``shuffle``: Fisher-Yates from the last
 * position down, each index by ``random_interval``: a masked 32-bit draw, rejected above the bound,
 * through PCG64's buffered 32-bit output), in place: the order numpy gives, bit for bit. */
void numpy_permute_i8(Rng *rng, int8_t *items, int n);

#endif
