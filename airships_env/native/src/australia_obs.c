/* Australia's observation in C: the same float32 vector as
 * airships_env/games/australia/observation.py's encode_observation (the reference), piece by
 * piece in its layout. Every value is computed as Python computes it (integer counts, one double
 * division or its exact quotient from a table below, the float32 store), so the bytes are
 * equal; tests/native/test_australia_observation.py holds them to it on the true state and the
 * view, every seat, every step.
 *
 * It reads only what the seat may see (V1-V3): its own hand, other hands by back, the public map
 * (rangers, face-up tiles, a face-down tile as a flag), the tracks and the counters. */
#include <string.h>

#include "australia.h"

#define MAX_SEATS 5
#define TILE_COLUMNS (2 + AU_NUM_TILE_VALUES)
/* the layout (observation_layout), each piece after the one before */
#define O_PHASE 0
#define O_MY_TURN (O_PHASE + AU_NUM_PHASES)
#define O_ACTIONS_LEFT (O_MY_TURN + 1)
#define O_ROUND (O_ACTIONS_LEFT + 3)
#define O_LAST_ROUND (O_ROUND + 1)
#define O_FULL_GAME (O_LAST_ROUND + 1)
#define O_LOCATION_RANGERS (O_FULL_GAME + 1)
#define O_LOCATION_KIND (O_LOCATION_RANGERS + AU_MAX_LOCATIONS * MAX_SEATS)
#define O_REGION_COLOUR (O_LOCATION_KIND + AU_MAX_LOCATIONS * 2)
#define O_REGION_WATER (O_REGION_COLOUR + AU_NUM_REGIONS * AU_NUM_COLOURS)
#define O_REGION_CONSERVATION (O_REGION_WATER + AU_NUM_REGIONS)
#define O_REGION_TILE (O_REGION_CONSERVATION + AU_NUM_REGIONS)
#define O_REGION_RANGERS (O_REGION_TILE + AU_NUM_REGIONS * TILE_COLUMNS)
#define O_REGION_OWN (O_REGION_RANGERS + AU_NUM_REGIONS)
#define O_REGION_EMPTY (O_REGION_OWN + AU_NUM_REGIONS)
#define O_REGION_OPEN (O_REGION_EMPTY + AU_NUM_REGIONS)
#define O_PLANES (O_REGION_OPEN + AU_NUM_REGIONS)
#define O_WINDMILL (O_PLANES + MAX_SEATS * AU_NUM_REGIONS)
#define O_HAND (O_WINDMILL + AU_NUM_REGIONS + 1)
#define O_BACKS (O_HAND + AU_NUM_CARD_TYPES)
#define O_VP (O_BACKS + (MAX_SEATS - 1) * AU_NUM_BACKS)
#define O_DOLLARS (O_VP + MAX_SEATS)
#define O_SUPPLY (O_DOLLARS + MAX_SEATS)
#define O_SEATED (O_SUPPLY + MAX_SEATS)
#define O_STACKS (O_SEATED + MAX_SEATS)
#define O_PLAYED (O_STACKS + AU_NUM_BACKS)
#define O_PENDING (O_PLAYED + AU_NUM_CARD_TYPES)
#define O_MOVE_FROM (O_PENDING + AU_NUM_CARD_TYPES + 4)
#define O_TRACKS (O_MOVE_FROM + AU_MAX_LOCATIONS)
#define O_END (O_TRACKS + 2 + 2 * MAX_SEATS)

_Static_assert(O_END == AU_OBS_SIZE, "AU_OBS_SIZE is the layout's size");

/* Exact float32 quotients k / 9.0 and k / 5.0, each ``(float)((double)k / d)`` folded by the
 * compiler with the IEEE rounding of the division at run time (FLT_EVAL_METHOD 0): the region
 * sums and the stacks read them instead of dividing. A count past NINTHS (only an extreme data
 * file makes one) divides. */
#define QUOTIENTS 256
#define NINTH(k) ((float)((k) / 9.0))
#define FIFTH(k) ((float)((k) / 5.0))
#define T4(f, k) f(k), f((k) + 1), f((k) + 2), f((k) + 3)
#define T16(f, k) T4(f, k), T4(f, (k) + 4), T4(f, (k) + 8), T4(f, (k) + 12)
#define T64(f, k) T16(f, k), T16(f, (k) + 16), T16(f, (k) + 32), T16(f, (k) + 48)
#define T256(f, k) T64(f, k), T64(f, (k) + 64), T64(f, (k) + 128), T64(f, (k) + 192)
static const float NINTHS[QUOTIENTS] = {T256(NINTH, 0)};
static const float FIFTHS[QUOTIENTS] = {T256(FIFTH, 0)};

static inline float ninth(int k) { return k >= 0 && k < QUOTIENTS ? NINTHS[k] : NINTH(k); }

/* A location's counts for the region sums, four 16-bit lanes of one word: all its rangers, the
 * seat's own, 1 if it is empty, 1 if it is open to the seat (empty or only the seat's own). A
 * region's four sums are the sum of its locations' words. Every region starts as if all its
 * locations were empty (EMPTY_LOCATION times their number) and each location with a ranger adds
 * its difference from an empty one to the regions it borders: integer arithmetic modulo 2^64,
 * exact whatever the borrows between lanes on the way, since no final lane overflows: a location
 * holds at most 5 x AU_MAX_RANGERS = 200 rangers and a region has at most AU_MAX_LOCATIONS
 * locations, 200 x 64 < 65536. */
#define PACK(total, own, empty, open)                                                        \
    ((uint64_t)(total) | (uint64_t)(own) << 16 | (uint64_t)(empty) << 32 |                    \
     (uint64_t)(open) << 48)
#define EMPTY_LOCATION PACK(0, 0, 1, 1)
#define LANE(word, k) ((int)((word) >> (16 * (k)) & 0xFFFFu))
_Static_assert(AU_MAX_PLAYERS * AU_MAX_RANGERS * AU_MAX_LOCATIONS < 65536, "a lane holds a sum");
_Static_assert(AU_MAX_LOCATIONS < QUOTIENTS, "a region's empty and open counts are in FIFTHS");

void au_observe(const AuGame *g, int seat, float *out) {
    au_observe_with(g, &g->config, seat, out);
}

/* The vector is cleared in one pass, then only what is not zero is written: one ``memset`` of
 * the whole vector writes whole cache lines, cheaper than writing every float in turn (a batch
 * writes 5 KB per game and step). */
void au_observe_with(const AuGame *g, const AuConfig *c, int seat, float *out) {
    int n = g->num_players < AU_MAX_PLAYERS ? g->num_players : AU_MAX_PLAYERS;
    int rel[MAX_SEATS]; /* relative seat k -> absolute seat */
    for (int k = 0; k < n; k++) rel[k] = (seat + k) % n;
    memset(out, 0, sizeof(float) * AU_OBS_SIZE);
    out[O_PHASE + g->phase] = 1.0f;
    if (g->current == seat) out[O_MY_TURN] = 1.0f;
    if (g->phase == AU_ACTION || g->actions_left)
        out[O_ACTIONS_LEFT + (g->actions_left < 2 ? g->actions_left : 2)] = 1.0f;
    out[O_ROUND] = (float)((double)g->round / c->round_scale);
    if (g->end_triggered) out[O_LAST_ROUND] = 1.0f;
    if (c->full_game) out[O_FULL_GAME] = 1.0f;
    /* the map: location kinds and rangers, each occupied location's part of the region sums */
    uint64_t sums[AU_NUM_REGIONS];
    for (int r = 0; r < AU_NUM_REGIONS; r++)
        sums[r] = (uint64_t)c->region_num_locations[r] * EMPTY_LOCATION;
    for (int loc = 0; loc < c->num_locations; loc++) {
        out[O_LOCATION_KIND + loc * 2 + c->location_ship[loc]] = 1.0f;
        const int8_t *held = g->rangers[loc];
        int total = 0, any = 0;
        for (int s = 0; s < n; s++) {
            total += held[s];
            any |= held[s];
        }
        if (!any) continue; /* empty: zeros, and already counted in its regions' sums */
        float *row = out + O_LOCATION_RANGERS + loc * MAX_SEATS;
        for (int k = 0; k < n; k++)
            if (held[rel[k]]) row[k] = (float)(held[rel[k]] / 4.0);
        int own = held[seat];
        uint64_t change = PACK(total, own, total == 0, total == own) - EMPTY_LOCATION;
        for (int i = 0; i < c->location_num_regions[loc]; i++)
            sums[c->location_regions[loc][i]] += change;
    }
    /* the regions: colour, water, conservation, tile and the sums */
    for (int r = 0; r < AU_NUM_REGIONS; r++) {
        out[O_REGION_COLOUR + r * AU_NUM_COLOURS + c->region_colour[r]] = 1.0f;
        out[O_REGION_WATER + r] = (float)c->region_water[r];
        if (g->conservation[r]) out[O_REGION_CONSERVATION + r] = 1.0f;
        int value = g->tile_value[r];
        int column = !value ? 1 : g->tile_up[r] ? 2 + value - AU_MIN_TILE : 0; /* gone, down */
        out[O_REGION_TILE + r * TILE_COLUMNS + column] = 1.0f;
        out[O_REGION_RANGERS + r] = ninth(LANE(sums[r], 0));
        out[O_REGION_OWN + r] = ninth(LANE(sums[r], 1));
        out[O_REGION_EMPTY + r] = FIFTHS[LANE(sums[r], 2)];
        out[O_REGION_OPEN + r] = FIFTHS[LANE(sums[r], 3)];
    }
    /* the seats: hand .. played, planes, the ranger track */
    for (int t = 0; t < AU_NUM_CARD_TYPES; t++) out[O_HAND + t] = (float)g->hands[seat][t];
    for (int k = 1; k < n; k++)
        for (int b = 0; b < AU_NUM_BACKS; b++) {
            int held = 0;
            for (int colour = 0; colour < AU_NUM_COLOURS; colour++)
                held += g->hands[rel[k]][b * AU_NUM_COLOURS + colour];
            out[O_BACKS + (k - 1) * AU_NUM_BACKS + b] = (float)held;
        }
    /* the ranger track in one pass: each seat's rangers on it and its topmost area */
    int on_track[AU_MAX_PLAYERS] = {0}, first[AU_MAX_PLAYERS];
    for (int s = 0; s < n; s++) first[s] = -1;
    for (int i = 0; i < g->ranger_track_size; i++) {
        int s = g->ranger_track[i];
        if (s < 0 || s >= n) continue; /* never: the track holds seats */
        if (first[s] < 0) first[s] = i;
        on_track[s]++;
    }
    for (int k = 0; k < n; k++) {
        int other = rel[k];
        out[O_VP + k] = (float)(g->vp[other] / 100.0);
        out[O_DOLLARS + k] = (float)(g->dollars[other] / 20.0);
        out[O_SUPPLY + k] = (float)(g->supply[other] / 20.0);
        out[O_SEATED + k] = 1.0f;
        if (g->plane[other] >= 0) out[O_PLANES + k * AU_NUM_REGIONS + g->plane[other]] = 1.0f;
        out[O_TRACKS + 2 + k] = (float)(on_track[other] / 4.0);
        out[O_TRACKS + 2 + MAX_SEATS + k] = (float)(
            (double)(on_track[other] ? first[other] : c->ranger_areas) / c->ranger_areas);
    }
    for (int b = 0; b < AU_NUM_BACKS; b++) out[O_STACKS + b] = ninth(g->stack_size[b]);
    for (int t = 0; t < AU_NUM_CARD_TYPES; t++) out[O_PLAYED + t] = (float)(g->played[t] / 4.0);
    if (g->windmill_region >= 0) out[O_WINDMILL + g->windmill_region] = 1.0f;
    out[O_WINDMILL + AU_NUM_REGIONS] = (float)(g->windmill_value / 12.0);
    if (g->pending_card >= 0) out[O_PENDING + g->pending_card] = 1.0f;
    out[O_PENDING + AU_NUM_CARD_TYPES] = (float)(g->rangers_left / 4.0);
    out[O_PENDING + AU_NUM_CARD_TYPES + 1] = (float)g->pending_paid;
    out[O_PENDING + AU_NUM_CARD_TYPES + 2] = (float)g->track_used;
    out[O_PENDING + AU_NUM_CARD_TYPES + 3] = (float)(g->taken / 4.0);
    if (g->move_from >= 0) out[O_MOVE_FROM + g->move_from] = 1.0f;
    out[O_TRACKS] = (float)((double)g->windmill_track_size / c->tile_areas);
    out[O_TRACKS + 1] =
        (float)((double)(c->ranger_areas - g->ranger_track_size) / c->ranger_areas);
}
