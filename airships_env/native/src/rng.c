/* Random numbers exactly as the Python engine draws them (docs/airships/RULES.md "Chance").
 *
 * numpy's PCG64 (XSL-RR 128/64, state stepped before the output) and numpy's SeedSequence
 * (the hash mixing that turns a seed and a spawn key into generator state), reimplemented so
 * that a game seeded in C deals and rolls what ``np.random.default_rng(seed)`` gives in Python;
 * the tests compare both streams. On top: the engine's exact uniform sampler (rejection on the
 * raw 64-bit output) and its Fisher-Yates shuffle.
 */
#include "rng.h"

typedef unsigned __int128 u128;

static const u128 PCG_MULTIPLIER =
    ((u128)2549297995355413924ULL << 64) | (u128)4865540595714422341ULL;

static inline u128 rng_state(const Rng *rng) { return ((u128)rng->state_hi << 64) | rng->state_lo; }
static inline u128 rng_inc(const Rng *rng) { return ((u128)rng->inc_hi << 64) | rng->inc_lo; }

uint64_t rng_next64(Rng *rng) {
    u128 state = rng_state(rng) * PCG_MULTIPLIER + rng_inc(rng);
    rng->state_hi = (uint64_t)(state >> 64);
    rng->state_lo = (uint64_t)state;
    uint64_t x = rng->state_hi ^ rng->state_lo;
    unsigned rot = (unsigned)(state >> 122);
    return (x >> rot) | (x << ((64u - rot) & 63u));
}

/* -- numpy.random.SeedSequence ------------------------------------------------------------ */
#define INIT_A 0x43b0d7e5u
#define MULT_A 0x931e8875u
#define INIT_B 0x8b51f9ddu
#define MULT_B 0x58f38dedu
#define MIX_MULT_L 0xca01f9ddu
#define MIX_MULT_R 0x4973f715u
#define XSHIFT 16
#define POOL_SIZE 4

static uint32_t hashmix(uint32_t value, uint32_t *hash_const) {
    value ^= *hash_const;
    *hash_const *= MULT_A;
    value *= *hash_const;
    value ^= value >> XSHIFT;
    return value;
}

static uint32_t mix(uint32_t x, uint32_t y) {
    uint32_t result = MIX_MULT_L * x - MIX_MULT_R * y;
    result ^= result >> XSHIFT;
    return result;
}

/* Seed ``rng`` as ``PCG64(SeedSequence(entropy, spawn_key=spawn))``: the entropy and each spawn
 * key element given as little-endian 32-bit words (an integer's words, low first). */
void rng_seed_sequence(Rng *rng, const uint32_t *entropy, int n_entropy, const uint32_t *spawn,
                       int n_spawn) {
    /* The assembled entropy: the run entropy padded to the pool size when a spawn key follows. */
    uint32_t assembled[64];
    int n = 0;
    for (int i = 0; i < n_entropy && n < 56; i++) assembled[n++] = entropy[i];
    if (n_spawn > 0)
        while (n < POOL_SIZE) assembled[n++] = 0;
    for (int i = 0; i < n_spawn && n < 64; i++) assembled[n++] = spawn[i];

    uint32_t pool[POOL_SIZE];
    uint32_t hash_const = INIT_A;
    for (int i = 0; i < POOL_SIZE; i++) pool[i] = hashmix(i < n ? assembled[i] : 0u, &hash_const);
    for (int src = 0; src < POOL_SIZE; src++)
        for (int dst = 0; dst < POOL_SIZE; dst++)
            if (src != dst) pool[dst] = mix(pool[dst], hashmix(pool[src], &hash_const));
    for (int src = POOL_SIZE; src < n; src++)
        for (int dst = 0; dst < POOL_SIZE; dst++)
            pool[dst] = mix(pool[dst], hashmix(assembled[src], &hash_const));

    /* generate_state(4, uint64): 8 words, paired little-endian */
    uint32_t words[8];
    uint32_t hash_b = INIT_B;
    for (int i = 0; i < 8; i++) {
        uint32_t value = pool[i % POOL_SIZE];
        value ^= hash_b;
        hash_b *= MULT_B;
        value *= hash_b;
        value ^= value >> XSHIFT;
        words[i] = value;
    }
    uint64_t seed[4];
    for (int i = 0; i < 4; i++) seed[i] = (uint64_t)words[2 * i] | ((uint64_t)words[2 * i + 1] << 32);
    /* pcg64_set_seed: initstate = seed[0..1], initseq = seed[2..3] */
    u128 initstate = ((u128)seed[0] << 64) | seed[1];
    u128 initseq = ((u128)seed[2] << 64) | seed[3];
    u128 inc = (initseq << 1u) | 1u;
    u128 state = 0;
    state = state * PCG_MULTIPLIER + inc;
    state += initstate;
    state = state * PCG_MULTIPLIER + inc;
    rng->state_hi = (uint64_t)(state >> 64);
    rng->state_lo = (uint64_t)state;
    rng->inc_hi = (uint64_t)(inc >> 64);
    rng->inc_lo = (uint64_t)inc;
    rng->has_uint32 = 0;
    rng->uinteger = 0;
    rng->present = 1;
}

/* -- the engine's sampler ------------------------------------------------------------------ */
/* An exactly uniform integer in [0, bound): rejection on the raw output (dice.uniform_below). */
uint64_t uniform_below(Rng *rng, uint64_t bound) {
    if (bound <= 1) return 0;
    if ((bound & (bound - 1)) == 0) return rng_next64(rng) & (bound - 1); /* 2^64 % bound == 0 */
    uint64_t limit = (UINT64_MAX / bound) * bound;
    uint64_t value = rng_next64(rng);
    while (value >= limit) value = rng_next64(rng);
    return value % bound;
}

/* Fisher-Yates from the last position down (dice.shuffle). */
void shuffle_i8(Rng *rng, int8_t *items, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)uniform_below(rng, (uint64_t)(i + 1));
        int8_t swap = items[i];
        items[i] = items[j];
        items[j] = swap;
    }
}

/* PCG64's 32-bit output: the low half of a 64-bit draw, its high half kept for the next call. */
static uint32_t next32(Rng *rng) {
    if (rng->has_uint32) {
        rng->has_uint32 = 0;
        return rng->uinteger;
    }
    uint64_t next = rng_next64(rng);
    rng->has_uint32 = 1;
    rng->uinteger = (uint32_t)(next >> 32);
    return (uint32_t)next;
}

/* numpy's random_interval(max): a value in [0, max] (the arrays here are far below 2^32). */
static uint32_t random_interval(Rng *rng, uint32_t max) {
    if (max == 0) return 0;
    uint32_t mask = max, value;
    mask |= mask >> 1;
    mask |= mask >> 2;
    mask |= mask >> 4;
    mask |= mask >> 8;
    mask |= mask >> 16;
    while ((value = (next32(rng) & mask)) > max) {
    }
    return value;
}

void numpy_permute_i8(Rng *rng, int8_t *items, int n) {
    for (int i = n - 1; i >= 1; i--) {
        int j = (int)random_interval(rng, (uint32_t)i);
        int8_t swap = items[i];
        items[i] = items[j];
        items[j] = swap;
    }
}
