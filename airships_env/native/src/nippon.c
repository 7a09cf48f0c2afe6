/* Nippon's rules in C (nippon.h): a line-by-line translation of
 * airships_env/games/nippon/engine/rules.py and setup.py; rule ids as there. */
#include "nippon.h"

#include <string.h>

static const char *const PHASE_NAMES[NI_NUM_PHASES] = {
    "turn",  "steps", "produce", "technology", "pieces",      "contract", "deliver", "space",
    "cubes", "tile",  "invest",  "reward",     "achievement", "finish",   "over"};

const char *ni_phase_name(int phase) {
    return phase >= 0 && phase < NI_NUM_PHASES ? PHASE_NAMES[phase] : "?";
}

void ni_config_finish(NiConfig *c) { (void)c; }

/* Python's floor division (the values here are never negative, but the rules say //). */
static int floor_div(int a, int b) {
    int q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
    return q;
}

static int min_int(int a, int b) { return a < b ? a : b; }

/* -- the bag (N2) --------------------------------------------------------------------------- */
static int bag_total(const NiGame *g) {
    int total = 0;
    for (int c = 0; c < NI_NUM_COLOURS; c++) total += g->bag[c];
    return total;
}

static int draw(NiGame *g, NiRecord *record) {
    int pick = (int)uniform_below(&g->rng, (uint64_t)bag_total(g));
    int colour = 0;
    while (pick >= g->bag[colour]) {
        pick -= g->bag[colour];
        colour++;
    }
    g->bag[colour]--;
    if (record && record->num_draws < NI_MAX_DRAWS) record->draws[record->num_draws++] = (int8_t)colour;
    return colour;
}

static int16_t *place_at(NiGame *g, int k) {
    return k < g->config.num_spaces ? g->spaces[k] : g->rows[k - g->config.num_spaces];
}

static int place_sum(const int16_t *place) {
    int total = 0;
    for (int c = 0; c < NI_NUM_COLOURS; c++) total += place[c];
    return total;
}

/* T4, N3: top up the spaces left to right, then the rows top to bottom; the rest is owed. */
static void fill_board(NiGame *g, NiRecord *record) {
    int cap = g->config.per_space;
    int places = g->config.num_spaces + g->num_rows;
    for (int k = 0; k < places; k++) {
        int16_t *place = place_at(g, k);
        int sum = place_sum(place);
        while (sum < cap && bag_total(g) > 0) {
            place[draw(g, record)]++;
            sum++;
        }
        g->owed[k] = (int16_t)(cap - sum);
    }
}

/* C5, T4: workers back in the bag go to the places left short, in the order of N3. */
static void pay_owed(NiGame *g, NiRecord *record) {
    int places = g->config.num_spaces + g->num_rows;
    for (int k = 0; k < places; k++) {
        int16_t *place = place_at(g, k);
        while (g->owed[k] > 0 && bag_total(g) > 0) {
            place[draw(g, record)]++;
            g->owed[k]--;
        }
    }
}

/* -- small queries --------------------------------------------------------------------------- */
static int missing_knowledge(const NiGame *g, int p, int good) {
    int need = g->config.level_knowledge[g->config.goods_levels[good]];
    return need > g->knowledge[p] ? need - g->knowledge[p] : 0;
}

static int can_invest_tile(const NiGame *g, int p, int tile) {
    const NiConfig *c = &g->config;
    int good = c->factory_good[tile];
    return g->factory_owner[tile] < 0 && g->factory_tile[p][good] < 0 &&
           g->blueprints[p] >= missing_knowledge(g, p, good) && g->yen[p] >= c->invest_cost;
}

/* A2: goods whose factory can take a +1 (needs a supply tile) or flip its +1. */
static int machine_target(const NiGame *g, int p, int good) {
    if (g->factory_tile[p][good] < 0) return 0;
    int m = g->machine[p][good];
    return m == 1 || (m == 0 && g->machinery_supply > 0);
}

static int any_machine_target(const NiGame *g, int p) {
    for (int good = 0; good < NI_NUM_GOODS; good++)
        if (machine_target(g, p, good)) return 1;
    return 0;
}

/* A2: a +1 into reserve only when no factory can be improved at all. */
static int can_reserve_machine(const NiGame *g, int p) {
    for (int good = 0; good < NI_NUM_GOODS; good++)
        if (g->factory_tile[p][good] >= 0 && g->machine[p][good] < 2) return 0;
    return g->machinery_supply > 0;
}

static int can_produce(const NiGame *g, int p, int good) {
    int t = g->factory_tile[p][good];
    return t >= 0 && g->coal[p] >= g->config.factory_coal[t];
}

static int region_free(const NiGame *g, int r) {
    int used = 0;
    for (int p = 0; p < g->num_players; p++) used += g->trains_in[r][p] + g->ships_in[r][p];
    return g->config.spaces_per_region[g->num_players - 2] - used;
}

static int can_piece(const NiGame *g, int p, int kind, int r) {
    const NiConfig *c = &g->config;
    int placed = kind == NI_K_TRAINS ? g->trains_placed[p] : g->ships_placed[p];
    int total = kind == NI_K_TRAINS ? c->trains : c->ships;
    return placed < total && g->yen[p] >= c->piece_cost && region_free(g, r) > 0;
}

/* A9: can the demands (largest first) be paid with distinct goods not in ``used``? The k-th
 * largest demand must be at most the k-th largest holding of the free goods. */
static int assignable(const int8_t *demands, int n, const int16_t *cubes, int used) {
    if (n == 0) return 1;
    int have[NI_NUM_GOODS], m = 0;
    for (int good = 0; good < NI_NUM_GOODS; good++)
        if (!(used >> good & 1)) have[m++] = cubes[good];
    if (m < n) return 0;
    for (int i = 1; i < m; i++) /* descending insertion sort */
        for (int j = i; j > 0 && have[j] > have[j - 1]; j--) {
            int swap = have[j];
            have[j] = have[j - 1];
            have[j - 1] = swap;
        }
    for (int i = 0; i < n; i++)
        if (have[i] < demands[i]) return 0;
    return 1;
}

static int can_contract(const NiGame *g, int p, int k) {
    const NiConfig *c = &g->config;
    return !g->contracts_done[p][k] &&
           assignable(c->contract_demands[k], c->contract_len[k], g->cubes[p], 0);
}

static int max_tile(const NiGame *g, int good, int cubes) {
    return g->config.influence_table[g->config.goods_levels[good] - 1][cubes - 1];
}

static int city_player_tiles(const NiGame *g, int city) {
    int n = 0;
    for (int i = 0; i < NI_SPACES_PER_CITY; i++) n += g->influence_owner[city][i] >= 0;
    return n;
}

static int tile_fits(const NiGame *g, int p, int limit, int beaten) {
    for (int v = beaten + 1; v <= limit; v++)
        if (g->tiles_supply[p][v - 1] > 0) return 1;
    return 0;
}

/* A10: a space whose good p makes with a cube, beatable, in the action's region. */
static int can_space(const NiGame *g, int p, int sp) {
    int city = sp / NI_SPACES_PER_CITY, i = sp % NI_SPACES_PER_CITY;
    if (g->pend_region >= 0 && city / 2 != g->pend_region) return 0;
    int good = g->city_goods[city][i];
    if (g->factory_tile[p][good] < 0 || g->cubes[p][good] == 0) return 0;
    int owner = g->influence_owner[city][i];
    if (owner == p) return 0;
    if (owner < 0 && city_player_tiles(g, city) >= g->num_players) return 0;
    int limit = max_tile(g, good, min_int(3, g->cubes[p][good]));
    return tile_fits(g, p, limit, g->influence_value[city][i]);
}

static int any_cubes(const NiGame *g, int p) {
    for (int good = 0; good < NI_NUM_GOODS; good++)
        if (g->cubes[p][good]) return 1;
    return 0;
}

/* T2: can action ``kind`` be performed at least once by ``p``? */
static int can_kind(const NiGame *g, int p, int kind) {
    const NiConfig *c = &g->config;
    switch (kind) {
    case NI_K_INVEST:
        if (g->yen[p] < c->invest_cost) return 0;
        for (int t = 0; t < NI_NUM_FACTORIES; t++)
            if (can_invest_tile(g, p, t)) return 1;
        return 0;
    case NI_K_TECHNOLOGY:
        return g->yen[p] >= c->machine_cost &&
               (any_machine_target(g, p) || can_reserve_machine(g, p));
    case NI_K_PRODUCE:
        for (int good = 0; good < NI_NUM_GOODS; good++)
            if (can_produce(g, p, good)) return 1;
        return 0;
    case NI_K_KNOWLEDGE:
        return g->yen[p] >= c->step_costs[0] && g->knowledge[p] < c->knowledge_max;
    case NI_K_MINE:
        return g->yen[p] >= c->step_costs[0] && g->coal_pos[p] < c->coal_len - 1;
    case NI_K_TRAINS:
    case NI_K_SHIPS:
        for (int r = 0; r < NI_NUM_REGIONS; r++)
            if (can_piece(g, p, kind, r)) return 1;
        return 0;
    case NI_K_EXPORT:
        if (!any_cubes(g, p)) return 0;
        for (int k = 0; k < NI_NUM_CONTRACTS; k++)
            if (can_contract(g, p, k)) return 1;
        return 0;
    default: /* NI_K_MARKET */
        if (!any_cubes(g, p)) return 0;
        for (int sp = 0; sp < NI_NUM_CITIES * NI_SPACES_PER_CITY; sp++)
            if (can_space(g, p, sp)) return 1;
        return 0;
    }
}

/* T3: the blueprint bonuses ``p`` may take now, into out (ascending); their number. */
static int bonus_legal(const NiGame *g, int p, int16_t *out) {
    const NiConfig *c = &g->config;
    if (g->blueprints[p] < c->blueprints_per_bonus) return 0;
    int n = 0;
    if (g->coal_pos[p] < c->coal_len - 1) out[n++] = NI_A_BONUS;
    if (g->knowledge[p] < c->knowledge_max) out[n++] = NI_A_BONUS + 1;
    if (g->money_pos[p] < c->money_len - 1) out[n++] = NI_A_BONUS + 2;
    return n;
}

static int any_bonus(const NiGame *g, int p) {
    int16_t out[3];
    return bonus_legal(g, p, out) > 0;
}

static void advance(NiGame *g, int p, int track, int n) {
    const NiConfig *c = &g->config;
    if (track == NI_COAL_TRACK)
        g->coal_pos[p] = (int8_t)min_int(c->coal_len - 1, g->coal_pos[p] + n);
    else if (track == NI_MONEY_TRACK)
        g->money_pos[p] = (int8_t)min_int(c->money_len - 1, g->money_pos[p] + n);
    else
        g->knowledge[p] = (int8_t)min_int(c->knowledge_max, g->knowledge[p] + n);
}

static const int BONUS_TRACK[3] = {NI_COAL_TRACK, NI_KNOWLEDGE_TRACK, NI_MONEY_TRACK};

static int step_actions(const NiGame *g, int p, int16_t *out);

/* Whether the action in progress still has a step after blueprint bonus ``bonus``. */
static int bonus_keeps_steps(const NiGame *g, int p, int bonus) {
    NiGame trial = *g;
    int16_t out[NI_NUM_ACTIONS];
    trial.blueprints[p] -= g->config.blueprints_per_bonus;
    advance(&trial, p, BONUS_TRACK[bonus - NI_A_BONUS], 1);
    return step_actions(&trial, p, out) > 0;
}

static int reward_level(const NiGame *g, int p) {
    int k = g->num_workers[p];
    return k ? g->config.worker_levels[k - 1] : 0;
}

/* C3: the reward classes (level-1) * 3 + gift on display at ``level`` or lower, as a bit set. */
static int reward_classes(const NiGame *g, int level) {
    int classes = 0;
    for (int i = 0; i < g->num_rewards_left; i++) {
        int t = g->rewards_left[i];
        if (g->config.reward_level[t] <= level)
            classes |= 1 << ((g->config.reward_level[t] - 1) * 3 + g->config.reward_gift[t]);
    }
    return classes;
}

/* -- legal actions ------------------------------------------------------------------------- */
static int step_actions(const NiGame *g, int p, int16_t *out) {
    const NiConfig *c = &g->config;
    int n = 0;
    switch (g->phase) {
    case NI_STEPS: {
        int knowledge = g->pend_kind == NI_K_KNOWLEDGE;
        int pos = knowledge ? g->knowledge[p] : g->coal_pos[p];
        int end = knowledge ? c->knowledge_max : c->coal_len - 1;
        for (int k = 1; k <= 3; k++)
            if (g->yen[p] >= c->step_costs[k - 1] && pos + k <= end) out[n++] = NI_A_AMOUNT + k - 1;
        return n;
    }
    case NI_INVEST:
        for (int t = 0; t < NI_NUM_FACTORIES; t++)
            if (can_invest_tile(g, p, t)) out[n++] = NI_A_INVEST + t;
        return n;
    case NI_PRODUCE:
        for (int good = 0; good < NI_NUM_GOODS; good++)
            if (!(g->pend_mask >> good & 1) && can_produce(g, p, good)) out[n++] = NI_A_PRODUCE + good;
        return n;
    case NI_TECHNOLOGY:
        if (g->yen[p] < c->machine_cost) return 0;
        for (int good = 0; good < NI_NUM_GOODS; good++)
            if (machine_target(g, p, good)) out[n++] = NI_A_MACHINE + good;
        if (can_reserve_machine(g, p)) out[n++] = NI_A_MACHINE_RESERVE;
        return n;
    case NI_PIECES:
        for (int r = 0; r < NI_NUM_REGIONS; r++)
            if (!(g->pend_mask >> r & 1) && can_piece(g, p, g->pend_kind, r)) out[n++] = NI_A_REGION + r;
        return n;
    case NI_CONTRACT:
        for (int k = 0; k < NI_NUM_CONTRACTS; k++)
            if (can_contract(g, p, k)) out[n++] = NI_A_CONTRACT + k;
        return n;
    case NI_DELIVER: {
        int k = g->pend_contract;
        int need = c->contract_demands[k][g->pend_demand];
        const int8_t *rest = c->contract_demands[k] + g->pend_demand + 1;
        int rest_n = c->contract_len[k] - g->pend_demand - 1;
        for (int good = 0; good < NI_NUM_GOODS; good++)
            if (!(g->pend_goods >> good & 1) && g->cubes[p][good] >= need &&
                assignable(rest, rest_n, g->cubes[p], g->pend_goods | 1 << good))
                out[n++] = NI_A_DELIVER + good;
        return n;
    }
    case NI_SPACE:
        for (int sp = 0; sp < NI_NUM_CITIES * NI_SPACES_PER_CITY; sp++)
            if (can_space(g, p, sp)) out[n++] = NI_A_SPACE + sp;
        return n;
    case NI_CUBES: {
        int city = g->pend_space / NI_SPACES_PER_CITY, i = g->pend_space % NI_SPACES_PER_CITY;
        int good = g->city_goods[city][i];
        int beaten = g->influence_value[city][i];
        for (int k = 1; k <= 3; k++)
            if (g->cubes[p][good] >= k && tile_fits(g, p, max_tile(g, good, k), beaten))
                out[n++] = NI_A_AMOUNT + k - 1;
        return n;
    }
    case NI_TILE: {
        int city = g->pend_space / NI_SPACES_PER_CITY, i = g->pend_space % NI_SPACES_PER_CITY;
        int good = g->city_goods[city][i];
        int limit = max_tile(g, good, g->pend_cubes);
        for (int v = g->influence_value[city][i] + 1; v <= limit; v++)
            if (g->tiles_supply[p][v - 1] > 0) out[n++] = NI_A_TILE + v - 1;
        return n;
    }
    default:
        return 0;
    }
}

static int has_step(const NiGame *g, int p) {
    int16_t out[NI_NUM_ACTIONS];
    return step_actions(g, p, out) > 0;
}

/* Merge two ascending lists into out (the bonus actions 55..57 sit between others). */
static int merge(const int16_t *a, int na, const int16_t *b, int nb, int16_t *out) {
    int i = 0, j = 0, n = 0;
    while (i < na || j < nb) {
        if (j >= nb || (i < na && a[i] < b[j])) out[n++] = a[i++];
        else out[n++] = b[j++];
    }
    return n;
}

int ni_legal_actions(const NiGame *g, int16_t *out) {
    if (g->game_over) return 0;
    const NiConfig *c = &g->config;
    int p = g->current, ph = g->phase;
    int16_t bonus[4]; /* the bonuses and stop */
    int nb = (ph != NI_REWARD && ph != NI_ACHIEVEMENT) ? bonus_legal(g, p, bonus) : 0;
    int n = 0;
    if (ph == NI_TURN) {
        /* takes (0..53), consolidate (54), bonuses (55..57): already ascending */
        if (g->num_workers[p] < NI_WORKER_SPACES) {
            for (int kind = 0; kind < NI_NUM_KINDS; kind++) {
                const int16_t *space = g->spaces[c->space_of_kind[kind]];
                if (place_sum(space) && can_kind(g, p, kind))
                    for (int colour = 0; colour < NI_NUM_COLOURS; colour++)
                        if (space[colour]) out[n++] = (int16_t)(NI_A_TAKE + kind * NI_NUM_COLOURS + colour);
            }
        }
        if (g->num_workers[p] || n == 0) out[n++] = NI_A_CONSOLIDATE;
        for (int i = 0; i < nb; i++) out[n++] = bonus[i];
        return n;
    }
    if (ph == NI_FINISH) {
        for (int i = 0; i < nb; i++) out[n++] = bonus[i];
        out[n++] = NI_A_STOP;
        return n;
    }
    if (ph == NI_REWARD) {
        int classes = reward_classes(g, reward_level(g, p));
        for (int k = 0; k < 12; k++)
            if (classes >> k & 1) out[n++] = (int16_t)(NI_A_REWARD + k);
        return n;
    }
    if (ph == NI_ACHIEVEMENT) {
        for (int k = 0; k < NI_NUM_ACHIEVEMENTS; k++)
            if (g->achievements[p][k] == 0) out[n++] = (int16_t)(NI_A_ACHIEVEMENT + k);
        return n;
    }
    if (g->pend_units == 0) { /* T3: a bonus may not leave the action without a step */
        int kept = 0;
        for (int i = 0; i < nb; i++)
            if (bonus_keeps_steps(g, p, bonus[i])) bonus[kept++] = bonus[i];
        nb = kept;
    }
    int16_t steps[NI_NUM_ACTIONS];
    int ns = step_actions(g, p, steps);
    if (g->pend_units > 0 && (ph == NI_PRODUCE || ph == NI_TECHNOLOGY || ph == NI_PIECES ||
                              ph == NI_CONTRACT || ph == NI_SPACE))
        bonus[nb++] = NI_A_STOP; /* 58 > every bonus: still ascending */
    return merge(steps, ns, bonus, nb, out);
}

/* -- apply ----------------------------------------------------------------------------------- */
static void score_phase(NiGame *g, int phase);
static void final_scoring(NiGame *g);

static int scoring_index(const NiConfig *c, int marker) {
    for (int i = 0; i < c->num_scorings; i++)
        if (c->scoring_spaces[i] == marker) return i;
    return -1;
}

/* K3, F1, E1: one step; a scoring space scores; the first golden space starts the end. */
static void move_marker(NiGame *g) {
    const NiConfig *c = &g->config;
    g->marker++;
    int scoring = scoring_index(c, g->marker);
    if (scoring >= 0) score_phase(g, scoring);
    if (g->marker == c->golden_from && g->golden_turns == -2) g->golden_turns = -1;
}

/* T4: an emptied action space takes the topmost row; no row left: the marker moves. */
static void refill_space(NiGame *g, int space, NiRecord *record) {
    const NiConfig *c = &g->config;
    if (place_sum(g->spaces[space])) return;
    int first_row = c->num_spaces;
    for (int k = 0; k < g->num_rows; k++) {
        if (!place_sum(g->rows[k])) continue;
        memcpy(g->spaces[space], g->rows[k], sizeof g->rows[k]);
        memset(g->rows[k], 0, sizeof g->rows[k]);
        g->owed[space] = g->owed[first_row + k];
        g->owed[first_row + k] = 0;
        int column_left = 0;
        for (int r = 0; r < g->num_rows; r++) column_left += place_sum(g->rows[r]) + g->owed[first_row + r];
        if (!c->marker_space_empties && column_left == 0) break; /* T4a: the column emptied */
        return;
    }
    if (g->marker < c->golden_from) move_marker(g);
    fill_board(g, record);
}

static const int8_t KIND_PHASE[NI_NUM_KINDS] = {NI_INVEST, NI_TECHNOLOGY, NI_PRODUCE,
                                                NI_STEPS,  NI_STEPS,      NI_PIECES,
                                                NI_PIECES, NI_CONTRACT,   NI_SPACE};

static void start_action(NiGame *g, int kind) {
    g->pend_kind = (int8_t)kind;
    g->pend_units = g->pend_mask = 0;
    g->pend_region = g->pend_contract = g->pend_space = -1;
    g->pend_demand = g->pend_goods = g->pend_cubes = 0;
    g->phase = KIND_PHASE[kind];
}

/* The turn passes clockwise; golden rounds step the marker and end the game (E1). */
static void end_turn(NiGame *g, int p) {
    const NiConfig *c = &g->config;
    g->last_turn[p] = g->turn_count;
    g->turn_count++;
    g->phase = NI_TURN;
    g->current = (int8_t)((p + 1) % g->num_players);
    if (g->golden_turns >= -1) {
        g->golden_turns++;
        if (g->golden_turns > 0 && g->golden_turns % g->num_players == 0) {
            g->marker++;
            int scoring = scoring_index(c, g->marker);
            if (scoring >= 0) score_phase(g, scoring);
            if (g->marker >= c->track_spaces - 1) {
                final_scoring(g); /* E2, E3 */
                g->game_over = 1;
                g->phase = NI_OVER;
            }
        }
    }
}

/* T3: after the main action, a player with bonuses available may take them or stop. */
static void end_main_action(NiGame *g, int p) {
    g->pend_kind = -1;
    g->pend_units = g->pend_mask = 0;
    g->pend_region = g->pend_contract = g->pend_space = -1;
    g->pend_demand = g->pend_goods = g->pend_cubes = 0;
    if (any_bonus(g, p)) g->phase = NI_FINISH;
    else end_turn(g, p);
}

/* One of the 1..3 units done: stop by itself at the limit or when no unit is possible. */
static void unit_done(NiGame *g, int p, int mask_bits) {
    g->pend_units++;
    g->pend_mask |= (int8_t)mask_bits;
    if (g->pend_units >= g->config.max_units || !has_step(g, p)) end_main_action(g, p);
}

/* A factory power, a contract bonus, a region bonus or a reward gift ("machine" never comes
 * here: the binding refuses it outside factories, where the Python engine fails). */
static void gain(NiGame *g, int p, int kind, int amount) {
    switch (kind) {
    case NI_COAL_TRACK:
    case NI_MONEY_TRACK:
    case NI_KNOWLEDGE_TRACK:
        advance(g, p, kind, amount);
        break;
    case NI_BLUEPRINTS:
        g->blueprints[p] += amount;
        break;
    case NI_COAL:
        g->coal[p] += amount;
        break;
    case NI_YEN:
        g->yen[p] += amount;
        break;
    case NI_VP:
        g->vp[p] += amount;
        break;
    default:
        break;
    }
}

/* A2: a +1 on a factory without machine (from the supply) or flip its +1 to +2. */
static void improve_machine(NiGame *g, int p, int good) {
    if (g->machine[p][good] == 0) {
        if (g->machinery_supply <= 0) return;
        g->machinery_supply--;
    }
    g->machine[p][good] = (int8_t)min_int(2, g->machine[p][good] + 1);
}

/* A1: pay, blueprints for missing knowledge, the power, then the reserve machines. */
static void invest(NiGame *g, int p, int tile) {
    const NiConfig *c = &g->config;
    int good = c->factory_good[tile];
    g->yen[p] -= c->invest_cost;
    g->blueprints[p] -= missing_knowledge(g, p, good);
    g->factory_owner[tile] = (int8_t)p;
    g->factory_tile[p][good] = (int8_t)tile;
    int held = g->machine_reserve[p];
    if (held >= 2) {
        g->machine[p][good] = 2;
        g->machine_reserve[p] -= 2;
        g->machinery_supply++;
    } else if (held == 1) {
        g->machine[p][good] = 1;
        g->machine_reserve[p] = 0;
    }
    if (c->factory_power[tile] == NI_MACHINE) {
        for (int i = 0; i < c->factory_amount[tile]; i++)
            if (g->machine[p][good] < 2) improve_machine(g, p, good);
    } else {
        gain(g, p, c->factory_power[tile], c->factory_amount[tile]);
    }
}

/* A10: the tile on the chosen space, beating a lower tile; the region bonus. */
static void place_tile(NiGame *g, int p, int value) {
    const NiConfig *c = &g->config;
    int city = g->pend_space / NI_SPACES_PER_CITY, i = g->pend_space % NI_SPACES_PER_CITY;
    int owner = g->influence_owner[city][i];
    if (owner >= 0) { /* A10a */
        if (!c->captured_removed) g->tiles_supply[owner][g->influence_value[city][i] - 1]++;
        else g->tiles_removed[owner]++;
    }
    g->tiles_supply[p][value - 1]--;
    g->influence_owner[city][i] = (int8_t)p;
    g->influence_value[city][i] = (int8_t)value;
    gain(g, p, c->region_bonus_kind[city / 2], c->region_bonus_amount[city / 2]);
    g->pend_space = -1;
    g->pend_cubes = 0;
}

/* C5, E3: 3 per distinct colour, 2 VP lost per colour not paid; workers to the bag. */
static void pay_workers(NiGame *g, int p) {
    const NiConfig *c = &g->config;
    int seen = 0, colours = 0;
    for (int i = 0; i < g->num_workers[p]; i++) {
        int colour = g->workers[p][i];
        if (!(seen >> colour & 1)) colours++;
        seen |= 1 << colour;
    }
    int paid = c->colour_cost ? min_int(colours, floor_div(g->yen[p], c->colour_cost)) : colours;
    g->yen[p] -= paid * c->colour_cost;
    g->vp[p] -= (colours - paid) * c->unpaid_vp;
    for (int i = 0; i < g->num_workers[p]; i++) g->bag[g->workers[p][i]]++;
    g->num_workers[p] = 0;
}

/* C5: workers back to the bag, pay per colour, then the board fills from the bag. */
static void finish_consolidation(NiGame *g, int p, NiRecord *record) {
    pay_workers(g, p);
    pay_owed(g, record);
    end_main_action(g, p);
}

/* C4: the player chooses an empty achievement space; none empty: the multiplier is lost. */
static void place_multiplier(NiGame *g, int p, int multiplier, NiRecord *record) {
    for (int k = 0; k < NI_NUM_ACHIEVEMENTS; k++)
        if (g->achievements[p][k] == 0) {
            g->pend_multiplier = (int8_t)multiplier;
            g->phase = NI_ACHIEVEMENT;
            return;
        }
    finish_consolidation(g, p, record);
}

/* C1, C2, then C3 (a choice when tiles qualify) or straight on to C5. */
static void consolidate(NiGame *g, int p, NiRecord *record) {
    const NiConfig *c = &g->config;
    g->yen[p] = c->money_track[g->money_pos[p]];
    g->coal[p] = c->coal_track[g->coal_pos[p]];
    int level = reward_level(g, p);
    if (reward_classes(g, level)) {
        g->phase = NI_REWARD;
        return;
    }
    if (g->num_rewards_left == 0 && level >= 1) {
        place_multiplier(g, p, 2, record);
        return;
    }
    finish_consolidation(g, p, record);
}

static const int GIFT_POWER[3] = {NI_BLUEPRINTS, NI_COAL, NI_YEN};

static void take_reward(NiGame *g, int p, int cls, NiRecord *record) {
    const NiConfig *c = &g->config;
    int level = cls / 3, gift = cls % 3;
    int at = 0;
    while (c->reward_level[g->rewards_left[at]] != level + 1 ||
           c->reward_gift[g->rewards_left[at]] != gift)
        at++;
    int tile = g->rewards_left[at];
    memmove(g->rewards_left + at, g->rewards_left + at + 1, (size_t)(g->num_rewards_left - at - 1));
    g->num_rewards_left--;
    gain(g, p, GIFT_POWER[gift], c->gift_amounts[gift]);
    place_multiplier(g, p, c->reward_multiplier[tile], record);
}

static void apply_legal(NiGame *g, int a, NiRecord *record) {
    const NiConfig *c = &g->config;
    int p = g->current;
    if (record) {
        record->action = (int16_t)a;
        record->seat = (int8_t)p;
        record->num_draws = 0;
    }
    if (a >= NI_A_BONUS && a < NI_A_STOP) { /* T3 */
        g->blueprints[p] -= c->blueprints_per_bonus;
        advance(g, p, BONUS_TRACK[a - NI_A_BONUS], 1);
        if (g->phase == NI_FINISH && !any_bonus(g, p)) end_turn(g, p);
        return;
    }
    if (a < NI_A_CONSOLIDATE) { /* T2 */
        int kind = a / NI_NUM_COLOURS, colour = a % NI_NUM_COLOURS;
        int space = c->space_of_kind[kind];
        g->spaces[space][colour]--;
        g->workers[p][g->num_workers[p]++] = (int8_t)colour;
        refill_space(g, space, record);
        start_action(g, kind);
        return;
    }
    if (a == NI_A_CONSOLIDATE) {
        consolidate(g, p, record);
        return;
    }
    if (a == NI_A_STOP) {
        if (g->phase != NI_FINISH) end_main_action(g, p);
        else end_turn(g, p);
        return;
    }
    switch (g->phase) {
    case NI_STEPS: { /* A4, A5 */
        int n = a - NI_A_AMOUNT + 1;
        g->yen[p] -= c->step_costs[n - 1];
        advance(g, p, g->pend_kind == NI_K_KNOWLEDGE ? NI_KNOWLEDGE_TRACK : NI_COAL_TRACK, n);
        end_main_action(g, p);
        break;
    }
    case NI_INVEST: /* A1 */
        invest(g, p, a - NI_A_INVEST);
        end_main_action(g, p);
        break;
    case NI_PRODUCE: { /* A3 */
        int good = a - NI_A_PRODUCE;
        g->coal[p] -= c->factory_coal[g->factory_tile[p][good]];
        int made = 1 + g->machine[p][good];
        g->cubes[p][good] = (int16_t)min_int(c->factory_capacity, g->cubes[p][good] + made);
        unit_done(g, p, 1 << good);
        break;
    }
    case NI_TECHNOLOGY: /* A2 */
        g->yen[p] -= c->machine_cost;
        if (a == NI_A_MACHINE_RESERVE) {
            g->machinery_supply--;
            g->machine_reserve[p]++;
        } else {
            improve_machine(g, p, a - NI_A_MACHINE);
        }
        unit_done(g, p, 0);
        break;
    case NI_PIECES: { /* A6, A7, A8 */
        int r = a - NI_A_REGION;
        g->yen[p] -= c->piece_cost;
        if (g->pend_kind == NI_K_TRAINS) {
            g->trains_placed[p]++;
            g->trains_in[r][p]++;
        } else {
            g->ships_placed[p]++;
            g->ships_in[r][p]++;
        }
        advance(g, p, NI_MONEY_TRACK, 1);
        unit_done(g, p, 1 << r);
        break;
    }
    case NI_CONTRACT: /* A9 */
        g->pend_contract = (int8_t)(a - NI_A_CONTRACT);
        g->pend_demand = 0;
        g->pend_goods = 0;
        g->phase = NI_DELIVER;
        break;
    case NI_DELIVER: {
        int good = a - NI_A_DELIVER, k = g->pend_contract;
        g->cubes[p][good] -= c->contract_demands[k][g->pend_demand];
        g->pend_goods |= (int8_t)(1 << good);
        g->pend_demand++;
        if (g->pend_demand == c->contract_len[k]) {
            g->contracts_done[p][k] = 1;
            g->vp[p] += c->contract_vp[k];
            gain(g, p, c->contract_bonus[k], c->contract_amount[k]);
            g->phase = NI_CONTRACT;
            g->pend_contract = -1;
            unit_done(g, p, 0);
        }
        break;
    }
    case NI_SPACE: /* A10 */
        g->pend_space = (int8_t)(a - NI_A_SPACE);
        g->pend_region = (int8_t)(g->pend_space / NI_SPACES_PER_CITY / 2);
        g->phase = NI_CUBES;
        break;
    case NI_CUBES: {
        int city = g->pend_space / NI_SPACES_PER_CITY, i = g->pend_space % NI_SPACES_PER_CITY;
        g->pend_cubes = (int8_t)(a - NI_A_AMOUNT + 1);
        g->cubes[p][g->city_goods[city][i]] -= g->pend_cubes;
        g->phase = NI_TILE;
        break;
    }
    case NI_TILE:
        place_tile(g, p, a - NI_A_TILE + 1);
        g->phase = NI_SPACE;
        unit_done(g, p, 0);
        break;
    case NI_REWARD: /* C3 */
        take_reward(g, p, a - NI_A_REWARD, record);
        break;
    case NI_ACHIEVEMENT: /* C4 */
        g->achievements[p][a - NI_A_ACHIEVEMENT] = g->pend_multiplier;
        g->pend_multiplier = 0;
        finish_consolidation(g, p, record);
        break;
    default:
        break;
    }
}

void ni_apply_legal(NiGame *g, int action, NiRecord *record) { apply_legal(g, action, record); }

int ni_apply(NiGame *g, int action, NiRecord *record) {
    int16_t legal[NI_NUM_ACTIONS];
    int n = ni_legal_actions(g, legal);
    for (int i = 0; i < n; i++)
        if (legal[i] == action) {
            apply_legal(g, action, record);
            return NI_OK;
        }
    return NI_ILLEGAL;
}

/* -- scoring --------------------------------------------------------------------------------- */
/* F2: each seat's influence in region ``r``; returns the neutral rival's. */
static int region_influence(const NiGame *g, int r, int *per) {
    const NiConfig *c = &g->config;
    int neutral = 0;
    for (int p = 0; p < g->num_players; p++) per[p] = g->trains_in[r][p] * c->train_influence;
    for (int city = 2 * r; city <= 2 * r + 1; city++)
        for (int i = 0; i < NI_SPACES_PER_CITY; i++) {
            int owner = g->influence_owner[city][i];
            if (owner >= 0) per[owner] += g->influence_value[city][i];
            else neutral += c->neutral[i];
        }
    return c->neutral_competes ? neutral : 0;
}

/* F1-F4: majorities and ships in every region. */
static void score_phase(NiGame *g, int phase) {
    const NiConfig *c = &g->config;
    int len = c->majority_len[phase];
    const int16_t *table = c->majority_vp[phase];
    for (int r = 0; r < NI_NUM_REGIONS; r++) {
        int per[NI_MAX_PLAYERS];
        int neutral = region_influence(g, r, per);
        int value[NI_MAX_PLAYERS + 1], who[NI_MAX_PLAYERS + 1], m = 0;
        for (int p = 0; p < g->num_players; p++)
            if (per[p] > 0) {
                value[m] = per[p];
                who[m++] = p;
            }
        if (neutral > 0) {
            value[m] = neutral;
            who[m++] = -1;
        }
        for (int i = 1; i < m; i++) /* stable, by value descending */
            for (int j = i; j > 0 && value[j] > value[j - 1]; j--) {
                int sv = value[j], sw = who[j];
                value[j] = value[j - 1];
                who[j] = who[j - 1];
                value[j - 1] = sv;
                who[j - 1] = sw;
            }
        int place[NI_MAX_PLAYERS];
        for (int p = 0; p < g->num_players; p++) place[p] = -1;
        int k = 0;
        while (k < m) {
            int members = 0;
            for (int e = 0; e < m; e++) members += value[e] == value[k];
            int sum = 0, last = 0;
            for (int j = k; j < k + members; j++) {
                last = j < len ? table[j] : 0;
                sum += last;
            }
            int share = c->ties_lower ? last : floor_div(sum, members);
            for (int e = 0; e < m; e++)
                if (value[e] == value[k] && who[e] >= 0) {
                    place[who[e]] = k;
                    g->vp[who[e]] += share;
                    g->scored[phase][who[e]] += share;
                }
            k += members;
        }
        for (int p = 0; p < g->num_players; p++) { /* F4 */
            int ships = g->ships_in[r][p];
            if (!ships) continue;
            int each = place[p] < 0 ? c->ship_vp_no_place
                                    : c->ship_vp[min_int(place[p], c->ship_vp_len - 1)];
            g->vp[p] += ships * each;
            g->scored[phase][p] += ships * each;
        }
    }
}

/* E3: the value an achievement space counts (before dividing by its ``per``). */
static int achievement_base(const NiGame *g, int p, int kind) {
    const NiConfig *c = &g->config;
    int n = 0;
    switch (kind) {
    case NI_ACH_CONTRACTS:
        for (int k = 0; k < NI_NUM_CONTRACTS; k++) n += g->contracts_done[p][k];
        return n;
    case NI_ACH_YEN:
        return g->yen[p];
    case NI_ACH_KNOWLEDGE_STARS:
        for (int i = 0; i < c->knowledge_stars_len; i++) n += g->knowledge[p] >= c->knowledge_stars[i];
        return n;
    case NI_ACH_COAL_STARS:
        for (int i = 0; i < c->coal_stars_len; i++) n += g->coal_pos[p] >= c->coal_stars[i];
        return n;
    case NI_ACH_SHIP_STARS:
        for (int i = 0; i < g->ships_placed[p] && i < c->ships; i++) n += c->ship_stars[i];
        return n;
    case NI_ACH_TRAIN_STARS:
        for (int i = 0; i < g->trains_placed[p] && i < c->trains; i++) n += c->train_stars[i];
        return n;
    case NI_ACH_FACTORIES:
        for (int good = 0; good < NI_NUM_GOODS; good++) n += g->factory_tile[p][good] >= 0;
        return n;
    case NI_ACH_MACHINES:
        for (int good = 0; good < NI_NUM_GOODS; good++) n += g->machine[p][good];
        return n;
    default: /* NI_ACH_INFLUENCE */
        for (int city = 0; city < NI_NUM_CITIES; city++)
            for (int i = 0; i < NI_SPACES_PER_CITY; i++) n += g->influence_owner[city][i] == p;
        return n;
    }
}

/* E3: final income, pay the workers on the board, then the achievements. */
static void final_scoring(NiGame *g) {
    const NiConfig *c = &g->config;
    for (int p = 0; p < g->num_players; p++) {
        g->yen[p] = c->money_track[g->money_pos[p]];
        pay_workers(g, p);
    }
    for (int p = 0; p < g->num_players; p++) {
        int total = 0;
        for (int k = 0; k < NI_NUM_ACHIEVEMENTS; k++) {
            int mult = g->achievements[p][k] ? g->achievements[p][k] : c->achievement_printed[k];
            total += floor_div(achievement_base(g, p, c->achievement_kind[k]),
                               c->achievement_per[k]) * mult;
        }
        g->vp[p] += total;
    }
}

/* -- setup (S1-S5) --------------------------------------------------------------------------- */
void ni_new_game(NiGame *g, const NiConfig *c, int num_players, const Rng *rng) {
    memset(g, 0, sizeof *g);
    g->config = *c;
    g->rng = *rng;
    g->num_players = (int8_t)num_players;
    g->golden_turns = -2;
    g->pend_kind = g->pend_region = g->pend_contract = g->pend_space = -1;
    int8_t pool[NI_NUM_CITIES];
    int left = NI_NUM_CITIES;
    for (int i = 0; i < NI_NUM_CITIES; i++) pool[i] = (int8_t)i;
    for (int city = 0; city < NI_NUM_CITIES; city++) { /* N1 / S2 */
        int at = (int)uniform_below(&g->rng, (uint64_t)left);
        g->city_tile[city] = pool[at];
        memmove(pool + at, pool + at + 1, (size_t)(left - at - 1));
        left--;
    }
    for (int city = 0; city < NI_NUM_CITIES; city++)
        g->city_turn[city] = (int8_t)uniform_below(&g->rng, NI_SPACES_PER_CITY);
    for (int city = 0; city < NI_NUM_CITIES; city++)
        for (int i = 0; i < NI_SPACES_PER_CITY; i++)
            g->city_goods[city][i] =
                c->city_tiles[g->city_tile[city]][(i + g->city_turn[city]) % NI_SPACES_PER_CITY];
    g->first_player = g->current = (int8_t)uniform_below(&g->rng, (uint64_t)num_players); /* S1 */
    for (int city = 0; city < NI_NUM_CITIES; city++)
        for (int i = 0; i < NI_SPACES_PER_CITY; i++) g->influence_owner[city][i] = -1;
    for (int t = 0; t < NI_NUM_FACTORIES; t++) g->factory_owner[t] = -1;
    for (int t = 0; t < c->num_rewards; t++)
        if (c->reward_min_players[t] <= num_players) g->rewards_left[g->num_rewards_left++] = (uint8_t)t;
    g->machinery_supply = c->machinery_tiles;
    for (int p = 0; p < num_players; p++) { /* S3 */
        g->money_pos[p] = c->start_money;
        g->coal_pos[p] = c->start_coal;
        g->knowledge[p] = c->start_knowledge;
        g->yen[p] = c->money_track[c->start_money];
        g->coal[p] = c->coal_track[c->start_coal];
        g->blueprints[p] = c->start_blueprints;
        g->last_turn[p] = -1;
        for (int good = 0; good < NI_NUM_GOODS; good++) g->factory_tile[p][good] = -1;
        for (int t = 0; t < NI_NUM_INFLUENCE_TILES; t++) g->tiles_supply[p][c->influence_tiles[t] - 1]++;
    }
    for (int colour = 0; colour < NI_NUM_COLOURS; colour++) g->bag[colour] = c->per_colour; /* S4 */
    g->num_rows = c->rows[num_players - 2];
    fill_board(g, NULL);
}
