/* Escape from Clockwork City's observation of one seat, a translation of
 * airships_env/games/clockwork/observation.py (the layout is in its docstring), bit-identical to
 * it: every value is computed as Python computes it (integer arithmetic, one double division,
 * then the float32 store), and tests/native/test_clockwork_native.py holds it to that.
 *
 * It reads only what the seat may see (V1-V4): its own hand, the public table (pawns, dice, pile
 * sizes, laid machines, hand sizes, the place faces as far as the recall option lets it know
 * them), its own knowledge row, and the hidden pool, whose counts a view shows as well.
 */
#include <string.h>

#include "clockwork.h"

enum { MAX_SEATS = CW_MAX_PLAYERS };

void cw_hidden_pool(const CwGame *g, int seat, int *pool) {
    memset(pool, 0, sizeof(int) * CW_NUM_TYPES);
    int n = g->num_players < CW_MAX_PLAYERS ? g->num_players : CW_MAX_PLAYERS;
    for (int other = 0; other < n; other++) {
        if (other == seat) continue;
        for (int t = 0; t < CW_NUM_TYPES; t++) pool[t] += g->hands[other][t] - g->known[seat][other][t];
    }
    for (int k = 0; k < CW_NUM_YARDS; k++)
        for (int i = 0; i < g->pile_size[k]; i++) pool[g->piles[k][i]] += 1;
    if (g->config.discard_recall_none)
        for (int p = 0; p < CW_NUM_PLACES; p++)
            if (g->places[p] >= 0) pool[g->places[p]] += 1;
}

static int is_lucky(const int8_t *dice) { /* T1 */
    int total = dice[0] + dice[1];
    return total == 7 || total == 11 || dice[0] == dice[1];
}

static int mod(int a, int m) { return (a % m + m) % m; }

void cw_observe(const CwGame *g, int seat, float *out) {
    const CwConfig *c = &g->config;
    int n = g->num_players < CW_MAX_PLAYERS ? g->num_players : CW_MAX_PLAYERS;
    int seats[MAX_SEATS];
    for (int k = 0; k < n; k++) seats[k] = (seat + k) % n;
    memset(out, 0, sizeof(float) * CW_OBS_SIZE);
    float *o = out;
    o[g->phase] = 1.0f; /* phase */
    o += CW_NUM_PHASES;
    o[0] = g->current == seat ? 1.0f : 0.0f; /* my_turn */
    o += 1;
    if (g->dice[0]) { /* dice */
        o[g->dice[0] - 1] = 1.0f;
        o[6 + g->dice[1] - 1] = 1.0f;
    }
    o += 12;
    o[0] = g->dice[0] > 0 && is_lucky(g->dice) ? 1.0f : 0.0f; /* lucky */
    o += 1;
    o[0] = g->endgame ? 1.0f : 0.0f;
    o += 1;
    o[0] = (float)((double)g->turn / c->turn_scale); /* turn */
    o += 1;
    for (int t = 0; t < CW_NUM_TYPES; t++) o[t] = (float)g->hands[seat][t] / 8.0f; /* hand */
    o += CW_NUM_TYPES;
    for (int t = 0; t < CW_NUM_TYPES; t++) o[t] = (float)c->counts[t] / 8.0f; /* in_play */
    o += CW_NUM_TYPES;
    int pool[CW_NUM_TYPES];
    cw_hidden_pool(g, seat, pool);
    for (int t = 0; t < CW_NUM_TYPES; t++) o[t] = (float)pool[t] / 8.0f; /* unseen */
    o += CW_NUM_TYPES;
    float *sizes = o, *laid = o + MAX_SEATS;
    for (int k = 0; k < n; k++) {
        int other = seats[k], size = 0;
        for (int t = 0; t < CW_NUM_TYPES; t++) size += g->hands[other][t];
        sizes[k] = (float)(size / 8.0);
        laid[2 * k] = g->laid_fm[other] >= 0 ? 1.0f : 0.0f;
        laid[2 * k + 1] = g->laid_cb[other] >= 0 ? 1.0f : 0.0f;
    }
    o += MAX_SEATS + 2 * MAX_SEATS;
    for (int k = 1; k < n; k++) /* known (V2) */
        for (int t = 0; t < CW_NUM_TYPES; t++)
            o[(k - 1) * CW_NUM_TYPES + t] = (float)(g->known[seat][seats[k]][t] / 4.0);
    o += (MAX_SEATS - 1) * CW_NUM_TYPES;
    float *white = o, *towers = o + MAX_SEATS * (CW_NUM_YARDS + 2);
    for (int k = 0; k < n; k++) {
        int field = g->pawns[seats[k]], base = k * (CW_NUM_YARDS + 2);
        if (field == c->towers) white[base] = 1.0f;
        else if (c->yard_at[field] >= 0) white[base + 1 + c->yard_at[field]] = 1.0f;
        else white[base + CW_NUM_YARDS + 1] = 1.0f;
        towers[2 * k] = (float)((double)mod(c->towers - field, c->length) / c->length);
        towers[2 * k + 1] = (float)((double)mod(field - c->towers, c->length) / c->length);
    }
    o += MAX_SEATS * (CW_NUM_YARDS + 2) + 2 * MAX_SEATS;
    int position = g->pawns[seat];
    for (int d = 0; d < 2; d++) { /* ahead: clockwise, then counter-clockwise */
        int direction = d == 0 ? 1 : -1;
        for (int steps = 1; steps <= CW_MAX_MOVE; steps++) {
            int field = mod(position + direction * steps, c->length), pawns_on = 0, opponent = 0;
            for (int k = 0; k < n; k++) {
                pawns_on += g->pawns[seats[k]] == field;
                opponent |= k > 0 && g->pawns[seats[k]] == field;
            }
            float *row = o + 3 * (d * CW_MAX_MOVE + steps - 1);
            row[0] = field == c->towers || c->yard_at[field] >= 0 ? 1.0f : 0.0f;
            row[1] = field != c->towers && pawns_on >= 2 ? 1.0f : 0.0f;
            row[2] = opponent ? 1.0f : 0.0f;
        }
    }
    o += 2 * CW_MAX_MOVE * 3;
    for (int k = 0; k < CW_NUM_YARDS; k++) o[k] = (float)(g->pile_size[k] / 10.0); /* piles */
    o += CW_NUM_YARDS;
    o[0] = (float)(g->removed_scrap / 6.0);
    o += 1;
    for (int p = 0; p < CW_NUM_PLACES; p++) /* places: the face, or "occupied, unknown" (V4) */
        if (g->places[p] >= 0)
            o[p * (CW_NUM_TYPES + 1) + (c->discard_recall_none ? CW_NUM_TYPES : g->places[p])] = 1.0f;
    o += CW_NUM_PLACES * (CW_NUM_TYPES + 1);
    int challenger = g->challenge[0], opponent = g->challenge[1], named = g->challenge[2];
    if (challenger >= 0) { /* the named type only to the two seats of the challenge (C4) */
        o[0] = challenger == seat ? 1.0f : 0.0f;
        o[1] = opponent == seat ? 1.0f : 0.0f;
        o[2] = g->challenge[3] == 1 ? 1.0f : 0.0f;
        if (named >= 0 && (seat == challenger || seat == opponent)) o[3 + named] = 1.0f;
    }
    o += 3 + CW_NUM_TYPES;
    if (g->seek_type >= 0) o[g->seek_type] = 1.0f;
    o += CW_NUM_TYPES;
}
