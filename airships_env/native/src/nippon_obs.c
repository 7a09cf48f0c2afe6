/* Nippon's observation of one seat, a translation of airships_env/games/nippon/observation.py
 * (the layout is in its docstring), bit-identical to its output: every value is an integer over a
 * fixed divisor, computed as Python computes it (one double division, then the float32 store),
 * the ones written last, as the encoder writes them. tests/native/test_nippon_observation.py holds
 * it to that.
 *
 * As the encoder's plan, every piece starts where the layout names it: the action spaces and
 * worker rows pieces (and the owed piece, the spaces' then the rows') are sized by the layout's
 * room for them (config.obs_spaces and obs_rows, observation.layout_capacity, passed in with the
 * tables), a data file with fewer leaves the rest 0, and one with more is refused (ni_obs_fits;
 * the bindings check). Nothing here reads the generator: the bag's order never reaches an
 * observation, only its counts, which a view shows as well.
 */
#include <string.h>

#include "nippon.h"

enum { PLAYER_SIZE = 86, CITIES_SIZE = NI_NUM_CITIES * NI_SPACES_PER_CITY * 12 };

/* The layout's room for action spaces and worker rows at this table. */
static int room_spaces(const NiGame *g) { return g->config.obs_spaces; }
static int room_rows(const NiGame *g) { return g->config.obs_rows[g->num_players - 2]; }

/* Where the pieces after phase, pending, track and rewards (119 values) start. */
enum { ACTION_SPACES_AT = 119 };
static int rows_at(const NiGame *g) { return ACTION_SPACES_AT + room_spaces(g) * NI_NUM_COLOURS; }
static int owed_at(const NiGame *g) { return rows_at(g) + NI_NUM_COLOURS * room_rows(g); }
static int bag_at(const NiGame *g) { return owed_at(g) + room_spaces(g) + room_rows(g); }
static int cities_at(const NiGame *g) { return bag_at(g) + NI_NUM_COLOURS + NI_NUM_FACTORIES + 1; }

int ni_obs_size(const NiGame *g) {
    return cities_at(g) + CITIES_SIZE + 4 * 2 * g->num_players + g->num_players * PLAYER_SIZE;
}

int ni_obs_fits(const NiGame *g) {
    return g->config.num_spaces <= room_spaces(g) && g->num_rows <= room_rows(g);
}

static void put(float *out, int at, long value, double divisor) {
    out[at] = (float)((double)value / divisor);
}

void ni_observe(const NiGame *g, int seat, float *out) {
    const NiConfig *c = &g->config;
    int n = g->num_players, spaces = c->num_spaces, rows = g->num_rows;
    int seats[NI_MAX_PLAYERS];
    for (int k = 0; k < n; k++) seats[k] = (seat + k) % n;
    memset(out, 0, sizeof(float) * (size_t)ni_obs_size(g));
    /* the integers over their divisors (observation._Plan's order) */
    put(out, 25, g->pend_units, 3);
    put(out, 46, g->pend_demand, 3);
    put(out, 86, g->pend_cubes, 3);
    put(out, 87, g->pend_multiplier, 5);
    put(out, 104, g->golden_turns > 0 ? g->golden_turns : 0, 12);
    put(out, 105, g->turn_count, 150);
    put(out, 106, g->num_rewards_left, 16);
    int rewards[12] = {0};
    for (int i = 0; i < g->num_rewards_left; i++) {
        int t = g->rewards_left[i];
        int slot = (c->reward_level[t] - 1) * 3 + c->reward_gift[t];
        if (slot >= 0 && slot < 12) rewards[slot] += 1;
    }
    for (int k = 0; k < 12; k++) put(out, 107 + k, rewards[k], 4);
    int at = ACTION_SPACES_AT;
    for (int s = 0; s < spaces; s++)
        for (int colour = 0; colour < NI_NUM_COLOURS; colour++) put(out, at++, g->spaces[s][colour], 3);
    at = rows_at(g);
    for (int r = 0; r < rows; r++)
        for (int colour = 0; colour < NI_NUM_COLOURS; colour++) put(out, at++, g->rows[r][colour], 3);
    int owed = owed_at(g); /* the spaces', then the rows' after the layout's room for spaces */
    for (int s = 0; s < spaces; s++) put(out, owed + s, g->owed[s], 3);
    for (int r = 0; r < rows; r++) put(out, owed + room_spaces(g) + r, g->owed[spaces + r], 3);
    at = bag_at(g);
    for (int colour = 0; colour < NI_NUM_COLOURS; colour++) put(out, at++, g->bag[colour], 7);
    int factories_open = at;
    at += NI_NUM_FACTORIES;
    put(out, at++, g->machinery_supply, 24);
    /* cities, and each region's influence per seat from its cities' tiles (F2) */
    int from_cities[NI_NUM_REGIONS][NI_MAX_PLAYERS];
    memset(from_cities, 0, sizeof from_cities);
    float *cell = out + at;
    for (int city = 0; city < NI_NUM_CITIES; city++)
        for (int i = 0; i < NI_SPACES_PER_CITY; i++, cell += 12) {
            int owner = g->influence_owner[city][i], good = g->city_goods[city][i];
            int value = g->influence_value[city][i], owner_class = 2;
            if (owner >= 0) {
                if (owner < NI_MAX_PLAYERS) from_cities[city / 2][owner] += value;
                owner_class = owner == seat ? 0 : 1;
            }
            if (good >= 0 && good < 6) cell[good] = 1.0f;
            cell[6] = (float)((double)value / 6);
            cell[7] = (float)((double)c->neutral[i] / 3);
            cell[8 + owner_class] = 1.0f;
        }
    at += CITIES_SIZE;
    for (int r = 0; r < NI_NUM_REGIONS; r++)
        for (int k = 0; k < n; k++) put(out, at++, g->trains_in[r][seats[k]], 4);
    for (int r = 0; r < NI_NUM_REGIONS; r++)
        for (int k = 0; k < n; k++) put(out, at++, g->ships_in[r][seats[k]], 4);
    int players = at;
    static const double divisors[7] = {30, 10, 10, 100, 12, 12, 10};
    for (int k = 0; k < n; k++) {
        int p = seats[k];
        float *o = out + players + k * PLAYER_SIZE;
        long firsts[7] = {g->yen[p], g->coal[p], g->blueprints[p], g->vp[p],
                          g->money_pos[p], g->coal_pos[p], g->knowledge[p]};
        for (int j = 0; j < 7; j++) o[j] = (float)((double)firsts[j] / divisors[j]);
        int level = g->num_workers[p];
        for (int colour = 0; colour < NI_NUM_COLOURS; colour++) {
            int count = 0;
            for (int w = 0; w < level; w++) count += g->workers[p][w] == colour;
            o[7 + colour] = (float)((double)count / 6);
        }
        o[13] = (float)((double)level / 6);
        for (int good = 0; good < NI_NUM_GOODS; good++) {
            int tile = g->factory_tile[p][good];
            int coal = tile >= 0 && tile < NI_NUM_FACTORIES ? c->factory_coal[tile] : 0;
            o[20 + good] = (float)((double)coal / 3);
            o[26 + good] = (float)((double)g->machine[p][good] / 2);
            o[32 + good] = (float)((double)g->cubes[p][good] / 4);
        }
        o[38] = (float)((double)g->machine_reserve[p] / 3);
        o[39] = (float)((double)g->trains_placed[p] / 4);
        o[40] = (float)((double)g->ships_placed[p] / 4);
        for (int j = 0; j < NI_NUM_CONTRACTS; j++) o[41 + j] = (float)g->contracts_done[p][j];
        for (int j = 0; j < NI_NUM_TILE_VALUES; j++)
            o[49 + j] = (float)((double)g->tiles_supply[p][j] / 2);
        o[55] = (float)((double)g->tiles_removed[p] / 10);
        for (int j = 0; j < NI_NUM_ACHIEVEMENTS; j++)
            o[56 + j] = (float)((double)g->achievements[p][j] / 5);
        o[65] = (float)((double)(level ? c->worker_levels[level - 1] : 0) / 4);
        for (int r = 0; r < NI_NUM_REGIONS; r++) {
            long influence = from_cities[r][p] + (long)g->trains_in[r][p] * c->train_influence;
            o[66 + r] = (float)((double)influence / 20);
        }
        long ship_vp = 0;
        for (int j = 0; j < c->num_scorings; j++) ship_vp += g->scored[j][p];
        o[70] = (float)((double)ship_vp / 50);
    }
    /* the ones */
    if (g->phase >= 0 && g->phase < 15) out[g->phase] = 1.0f;
    int kind = g->pend_kind >= 0 ? g->pend_kind : 9;
    if (kind < 10) out[15 + kind] = 1.0f;
    for (int bit = 0; bit < 6; bit++) {
        if (g->pend_mask >> bit & 1) out[26 + bit] = 1.0f;
        if (g->pend_goods >> bit & 1) out[47 + bit] = 1.0f;
    }
    int region = g->pend_region >= 0 ? g->pend_region : 4;
    if (region < 5) out[32 + region] = 1.0f;
    int contract = g->pend_contract >= 0 ? g->pend_contract : 8;
    if (contract < 9) out[37 + contract] = 1.0f;
    int space = g->pend_space >= 0 ? g->pend_space : 32;
    if (space < 33) out[53 + space] = 1.0f;
    if (g->current == seat) out[88] = 1.0f;
    if (g->first_player == seat) out[89] = 1.0f;
    int marker = g->marker < 7 ? g->marker : 7;
    if (marker >= 0) out[95 + marker] = 1.0f;
    if (g->golden_turns >= -1) out[103] = 1.0f;
    for (int t = 0; t < NI_NUM_FACTORIES; t++)
        if (g->factory_owner[t] < 0) out[factories_open + t] = 1.0f;
    for (int k = 0; k < n; k++)
        for (int good = 0; good < NI_NUM_GOODS; good++)
            if (g->factory_tile[seats[k]][good] >= 0) out[players + k * PLAYER_SIZE + 14 + good] = 1.0f;
}
