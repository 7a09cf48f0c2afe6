/* Australia's observation in C: the same float32 vector as
 * airships_env/games/australia/observation.py's encode_observation (the reference), piece by
 * piece in its layout. Every value is computed as Python computes it (integer counts, one double
 * division, the float32 store), so the bytes are equal; tests/native/test_australia_observation.py
 * holds them to it on the true state and the view, every seat, every step.
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

void au_observe(const AuGame *g, int seat, float *out) {
    const AuConfig *c = &g->config;
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
    /* the map: location kinds, rangers; region colours, water, tiles and the region sums */
    int location_total[AU_MAX_LOCATIONS];
    for (int loc = 0; loc < c->num_locations; loc++) {
        out[O_LOCATION_KIND + loc * 2 + c->location_ship[loc]] = 1.0f;
        int total = 0;
        for (int k = 0; k < n; k++) {
            int held = g->rangers[loc][rel[k]];
            total += held;
            if (held) out[O_LOCATION_RANGERS + loc * MAX_SEATS + k] = (float)(held / 4.0);
        }
        location_total[loc] = total;
    }
    for (int r = 0; r < AU_NUM_REGIONS; r++) {
        out[O_REGION_COLOUR + r * AU_NUM_COLOURS + c->region_colour[r]] = 1.0f;
        out[O_REGION_WATER + r] = (float)c->region_water[r];
        if (g->conservation[r]) out[O_REGION_CONSERVATION + r] = 1.0f;
        int value = g->tile_value[r];
        int column = !value ? 1 : g->tile_up[r] ? 2 + value - AU_MIN_TILE : 0; /* gone, down */
        out[O_REGION_TILE + r * TILE_COLUMNS + column] = 1.0f;
        int on_region = 0, own = 0, empty = 0, open = 0;
        for (int i = 0; i < c->region_num_locations[r]; i++) {
            int loc = c->region_locations[r][i], total = location_total[loc];
            on_region += total;
            own += g->rangers[loc][seat];
            empty += total == 0;
            open += total == g->rangers[loc][seat];
        }
        out[O_REGION_RANGERS + r] = (float)(on_region / 9.0);
        out[O_REGION_OWN + r] = (float)(own / 9.0);
        out[O_REGION_EMPTY + r] = (float)(empty / 5.0);
        out[O_REGION_OPEN + r] = (float)(open / 5.0);
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
    for (int k = 0; k < n; k++) {
        int other = rel[k];
        out[O_VP + k] = (float)(g->vp[other] / 100.0);
        out[O_DOLLARS + k] = (float)(g->dollars[other] / 20.0);
        out[O_SUPPLY + k] = (float)(g->supply[other] / 20.0);
        out[O_SEATED + k] = 1.0f;
        if (g->plane[other] >= 0) out[O_PLANES + k * AU_NUM_REGIONS + g->plane[other]] = 1.0f;
        int on_track = 0, first = -1;
        for (int i = 0; i < g->ranger_track_size; i++)
            if (g->ranger_track[i] == other) {
                if (first < 0) first = i;
                on_track++;
            }
        out[O_TRACKS + 2 + k] = (float)(on_track / 4.0);
        out[O_TRACKS + 2 + MAX_SEATS + k] =
            (float)((double)(on_track ? first : c->ranger_areas) / c->ranger_areas);
    }
    for (int b = 0; b < AU_NUM_BACKS; b++) out[O_STACKS + b] = (float)(g->stack_size[b] / 9.0);
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
