/* Nippon's bots (agents/bots/nippon.py: ``random``, ``greedy``, ``heuristic``) in C, making the
 * Python bots' decisions with the same draws from the bot's own generator: the same search (each
 * takeable kind and consolidation played out to the end of the main action on a determinized
 * copy, completing steps searched through), the same evaluation with the float operations in
 * Python's order (built with -ffp-contract=off), the same ties broken by uniform_below, and the
 * same plan carried from one decision to the next (NiBotMemory). The weights come from Python
 * (Weights, _GROWTH), their one owner.
 *
 * A bot reads only what the seat's view holds: the game's generator is never read; the search
 * plays on a copy whose generator is the determinization's (ni_determinize, nippon_view.c).
 */
#include <string.h>

#include "nippon.h"

#define EPS 1e-9

typedef struct {
    const NiBotWeights *w;
    Rng *rng;
    int p;
} Bot;

/* -- the evaluation (evaluate) ------------------------------------------------------------- */
static double turns_left(const NiGame *s, const NiBotWeights *w) {
    if (s->golden_turns >= -1) {
        int done = s->golden_turns > 0 ? s->golden_turns : 0;
        double left = 3.0 - (double)done / s->num_players;
        return left > 0.0 ? left : 0.0;
    }
    return (s->config.golden_from - s->marker) * w->turns_per_step + 3.0;
}

static void region_influence(const NiGame *s, int r, int *per, int *neutral) {
    const NiConfig *c = &s->config;
    for (int q = 0; q < s->num_players; q++) per[q] = s->trains_in[r][q] * c->train_influence;
    int rival = 0;
    for (int city = 2 * r; city <= 2 * r + 1; city++)
        for (int i = 0; i < NI_SPACES_PER_CITY; i++) {
            int owner = s->influence_owner[city][i];
            if (owner >= 0) per[owner] += s->influence_value[city][i];
            else rival += c->neutral[i];
        }
    *neutral = c->neutral_competes ? rival : 0;
}

static double place_vp(const NiGame *s, int p, int r, int j) {
    const NiConfig *c = &s->config;
    int per[NI_MAX_PLAYERS], neutral;
    region_influence(s, r, per, &neutral);
    int mine = per[p], place = -1;
    double vp = 0.0;
    if (mine > 0) {
        int above = neutral > mine, tied = neutral == mine;
        for (int q = 0; q < s->num_players; q++) {
            if (q == p) continue;
            above += per[q] > mine;
            tied += per[q] == mine;
        }
        long sum = 0;
        for (int k = above; k < above + tied + 1; k++) sum += k < c->majority_len[j] ? c->majority_vp[j][k] : 0;
        vp = (double)(sum / (tied + 1)); /* non-negative: floor division */
        place = above;
    }
    int ships = s->ships_in[r][p];
    if (ships) {
        int last = c->ship_vp_len - 1;
        int each = place < 0 ? c->ship_vp_no_place : c->ship_vp[place < last ? place : last];
        vp += ships * each;
    }
    return vp;
}

static double projected_majorities(const NiGame *s, int p, const NiBotWeights *w) {
    const NiConfig *c = &s->config;
    double total = 0.0, factor = 1.0;
    for (int j = 0; j < c->num_scorings; j++) {
        if (c->scoring_spaces[j] <= s->marker) continue;
        double sum = 0.0;
        for (int r = 0; r < NI_NUM_REGIONS; r++) sum += place_vp(s, p, r, j);
        total += factor * sum;
        factor *= w->later_phase;
    }
    return total;
}

static int best_pending_multiplier(const NiGame *s, int p) {
    const NiConfig *c = &s->config;
    int k = s->num_workers[p];
    if (!k) return 0;
    int level = c->worker_levels[k - 1], best = 0;
    for (int i = 0; i < s->num_rewards_left; i++) {
        int t = s->rewards_left[i];
        if (c->reward_level[t] <= level && c->reward_multiplier[t] > best) best = c->reward_multiplier[t];
    }
    if (!s->num_rewards_left && level >= 1) best = 2;
    return best;
}

static int achievement_base(const NiGame *s, int p, int kind) {
    const NiConfig *c = &s->config;
    int total = 0;
    switch (kind) {
    case NI_ACH_CONTRACTS:
        for (int k = 0; k < NI_NUM_CONTRACTS; k++) total += s->contracts_done[p][k];
        return total;
    case NI_ACH_YEN: return s->yen[p];
    case NI_ACH_KNOWLEDGE_STARS:
        for (int k = 0; k < c->knowledge_stars_len; k++) total += s->knowledge[p] >= c->knowledge_stars[k];
        return total;
    case NI_ACH_COAL_STARS:
        for (int k = 0; k < c->coal_stars_len; k++) total += s->coal_pos[p] >= c->coal_stars[k];
        return total;
    case NI_ACH_SHIP_STARS:
        for (int k = 0; k < s->ships_placed[p] && k < c->ships; k++) total += c->ship_stars[k];
        return total;
    case NI_ACH_TRAIN_STARS:
        for (int k = 0; k < s->trains_placed[p] && k < c->trains; k++) total += c->train_stars[k];
        return total;
    case NI_ACH_FACTORIES:
        for (int g = 0; g < NI_NUM_GOODS; g++) total += s->factory_tile[p][g] >= 0;
        return total;
    case NI_ACH_MACHINES:
        for (int g = 0; g < NI_NUM_GOODS; g++) total += s->machine[p][g];
        return total;
    default: /* NI_ACH_INFLUENCE */
        for (int city = 0; city < NI_NUM_CITIES; city++)
            for (int i = 0; i < NI_SPACES_PER_CITY; i++) total += s->influence_owner[city][i] == p;
        return total;
    }
}

static double achievements(const NiGame *s, int p, double fade, const NiBotWeights *w) {
    const NiConfig *c = &s->config;
    double total = 0.0;
    for (int k = 0; k < NI_NUM_ACHIEVEMENTS; k++) {
        int mult = s->achievements[p][k] ? s->achievements[p][k] : c->achievement_printed[k];
        if (!mult) continue;
        int kind = c->achievement_kind[k];
        double base;
        if (kind == NI_ACH_YEN) base = (double)c->money_track[s->money_pos[p]];
        else base = achievement_base(s, p, kind) + w->growth[kind] * fade;
        total += base / c->achievement_per[k] * mult;
    }
    return total;
}

static void sort_desc(int *v, int n) {
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j] > v[j - 1]; j--) {
            int t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
}

static int contract_cubes(const NiGame *s, int p) {
    const NiConfig *c = &s->config;
    int held[NI_NUM_GOODS], total = 0;
    for (int g = 0; g < NI_NUM_GOODS; g++) held[g] = s->cubes[p][g];
    sort_desc(held, NI_NUM_GOODS);
    for (int k = 0; k < NI_NUM_CONTRACTS; k++) {
        if (s->contracts_done[p][k]) continue;
        int demands[NI_MAX_DEMANDS], n = c->contract_len[k], fits = n <= NI_NUM_GOODS, sum = 0;
        for (int i = 0; i < n; i++) demands[i] = c->contract_demands[k][i];
        sort_desc(demands, n);
        for (int i = 0; i < n; i++) {
            fits &= held[i] >= demands[i];
            sum += demands[i];
        }
        if (fits) total += sum;
    }
    return total < 8 ? total : 8;
}

double ni_evaluate(const NiGame *s, int p, const NiBotWeights *w) {
    const NiConfig *c = &s->config;
    if (s->game_over) return (double)s->vp[p];
    double value = (double)s->vp[p], fade = 1.0, consolidations = 1.0;
    if (w->planning) {
        double left = turns_left(s, w);
        double f = left / (c->golden_from * w->turns_per_step + 3.0) * 1.5;
        fade = f < 1.0 ? f : 1.0;
        consolidations = left / w->turns_per_consolidation;
    }
    double reserve = w->planning ? fade : 1.0;
    value += w->yen * (s->yen[p] < 30 ? s->yen[p] : 30) * reserve;
    value += w->coal * (s->coal[p] < 12 ? s->coal[p] : 12) * reserve;
    int money = c->money_track[s->money_pos[p]], coal_income = c->coal_track[s->coal_pos[p]];
    if (w->planning) value += consolidations * (w->money_step * money + w->coal_step * coal_income);
    else value += w->money_step * s->money_pos[p] + w->coal_step * s->coal_pos[p];
    double factories = 0.0, machines = 0.0, cubes = 0.0;
    for (int g = 0; g < NI_NUM_GOODS; g++) {
        if (s->factory_tile[p][g] >= 0) {
            factories += c->goods_levels[g];
            machines += s->machine[p][g];
        }
        cubes += s->cubes[p][g] * c->goods_levels[g];
    }
    value += fade * (w->factory * factories + w->machine * machines + w->cube * cubes);
    int top = c->level_knowledge[3];
    value += fade * w->knowledge * (s->knowledge[p] < top ? s->knowledge[p] : top);
    value += fade * w->blueprint * s->blueprints[p];
    int seen = 0, colours = 0;
    for (int k = 0; k < s->num_workers[p]; k++) {
        int bit = 1 << s->workers[p][k];
        colours += !(seen & bit);
        seen |= bit;
    }
    value -= w->colour * colours;
    if (w->planning) {
        int paid = money / c->colour_cost; /* non-negative; the binding refuses a cost of 0 */
        int unpaid = colours - paid > 0 ? colours - paid : 0;
        value -= unpaid * c->unpaid_vp;
        value += w->reward_level * best_pending_multiplier(s, p) * fade;
        if (w->contract_cube) value += fade * w->contract_cube * contract_cubes(s, p);
    } else {
        value += w->piece * (s->trains_placed[p] + s->ships_placed[p]);
        int own = 0;
        for (int city = 0; city < NI_NUM_CITIES; city++)
            for (int i = 0; i < NI_SPACES_PER_CITY; i++)
                if (s->influence_owner[city][i] == p) own += s->influence_value[city][i];
        value += w->influence * own;
    }
    if (w->achievements) value += w->achievements * achievements(s, p, fade, w);
    if (w->majority) value += w->majority * projected_majorities(s, p, w);
    return value;
}

/* -- the search (_NipponBot) --------------------------------------------------------------- */
static int in_action(int phase) { return phase >= NI_STEPS && phase <= NI_ACHIEVEMENT; }

static int completing(int phase) {
    return phase == NI_DELIVER || phase == NI_CUBES || phase == NI_TILE || phase == NI_REWARD ||
           phase == NI_ACHIEVEMENT;
}

static int is_bonus(int a) { return a >= NI_A_BONUS && a < NI_A_STOP; }

/* _candidates: the legal actions but the bonuses; one tile value (the strongest) per space. */
static int candidates(const NiGame *s, int16_t *out) {
    int16_t legal[NI_NUM_ACTIONS];
    int n = ni_legal_actions(s, legal), m = 0;
    for (int i = 0; i < n; i++)
        if (!is_bonus(legal[i])) out[m++] = legal[i];
    if (s->phase == NI_TILE && m) {
        out[0] = out[m - 1];
        return 1;
    }
    if (m) return m;
    memcpy(out, legal, sizeof(int16_t) * (size_t)n);
    return n;
}

/* _pick: the best of ``n`` (value, action) pairs, ties within EPS broken by the generator. */
static int pick(Bot *b, const double *values, const int16_t *actions, int n, double *value) {
    double best = values[0];
    for (int i = 1; i < n; i++)
        if (values[i] > best) best = values[i];
    int tied[NI_NUM_ACTIONS], t = 0;
    for (int i = 0; i < n; i++)
        if (values[i] >= best - EPS) tied[t++] = i;
    int k = t == 1 ? tied[0] : tied[uniform_below(b->rng, (uint64_t)t)];
    if (value) *value = values[k];
    return actions[k];
}

static double settle(Bot *b, const NiGame *s) {
    if (s->current == b->p && !s->game_over && completing(s->phase)) {
        int16_t cands[NI_NUM_ACTIONS];
        int n = candidates(s, cands);
        double best = -1e18;
        for (int i = 0; i < n; i++) {
            NiGame child = *s;
            ni_apply_legal(&child, cands[i], NULL);
            double v = settle(b, &child);
            if (v > best) best = v;
        }
        return best;
    }
    return ni_evaluate(s, b->p, b->w);
}

static int best_step(Bot *b, const NiGame *s) {
    int16_t cands[NI_NUM_ACTIONS];
    double values[NI_NUM_ACTIONS];
    int n = candidates(s, cands);
    for (int i = 0; i < n; i++) {
        NiGame child = *s;
        ni_apply_legal(&child, cands[i], NULL);
        values[i] = settle(b, &child);
    }
    return pick(b, values, cands, n, NULL);
}

/* _play_out: finish the main action on ``s`` (changed), the steps appended to the plan. */
static double play_out(Bot *b, NiGame *s, int16_t *plan, int *len) {
    while (s->current == b->p && !s->game_over && in_action(s->phase)) {
        int a = best_step(b, s);
        if (*len < NI_BOT_PLAN) plan[(*len)++] = (int16_t)a;
        ni_apply_legal(s, a, NULL);
    }
    return ni_evaluate(s, b->p, b->w);
}

static int choose_bonus(Bot *b, const NiGame *s, const int16_t *legal, int n) {
    double values[NI_NUM_ACTIONS];
    int16_t actions[NI_NUM_ACTIONS];
    int m = 0;
    values[m] = ni_evaluate(s, b->p, b->w) + EPS;
    actions[m++] = NI_A_STOP;
    for (int i = 0; i < n; i++)
        if (is_bonus(legal[i])) {
            NiGame child = *s;
            ni_apply_legal(&child, legal[i], NULL);
            values[m] = ni_evaluate(&child, b->p, b->w);
            actions[m++] = legal[i];
        }
    return pick(b, values, actions, m, NULL);
}

static int take_colour(Bot *b, const NiGame *s, int kind) {
    const int16_t *space = s->spaces[s->config.space_of_kind[kind]];
    int colours[NI_NUM_COLOURS], owned[NI_NUM_COLOURS], nc = 0, no = 0;
    for (int colour = 0; colour < NI_NUM_COLOURS; colour++) {
        if (!space[colour]) continue;
        colours[nc++] = colour;
        for (int k = 0; k < s->num_workers[b->p]; k++)
            if (s->workers[b->p][k] == colour) {
                owned[no++] = colour;
                break;
            }
    }
    const int *pool = no ? owned : colours;
    int n = no ? no : nc;
    return n == 1 ? pool[0] : pool[uniform_below(b->rng, (uint64_t)n)];
}

static int choose_turn(Bot *b, const NiGame *s, const int16_t *legal, int n, NiBotMemory *m) {
    int16_t firsts[NI_NUM_KINDS + 1];
    int options = 0, last_kind = -1;
    for (int i = 0; i < n; i++) { /* legal is ascending: the kinds come sorted */
        if (legal[i] >= NI_A_CONSOLIDATE) continue;
        int kind = (legal[i] - NI_A_TAKE) / NI_NUM_COLOURS;
        if (kind == last_kind) continue;
        last_kind = kind;
        firsts[options++] = (int16_t)(NI_A_TAKE + kind * NI_NUM_COLOURS + take_colour(b, s, kind));
    }
    for (int i = 0; i < n; i++)
        if (legal[i] == NI_A_CONSOLIDATE) firsts[options++] = NI_A_CONSOLIDATE;
    int16_t plans[NI_NUM_KINDS + 1][NI_BOT_PLAN];
    int lens[NI_NUM_KINDS + 1];
    double values[NI_NUM_KINDS + 1];
    for (int i = 0; i < options; i++) {
        NiGame work = *s;
        ni_apply_legal(&work, firsts[i], NULL);
        lens[i] = 0;
        values[i] = play_out(b, &work, plans[i], &lens[i]);
    }
    int best = pick(b, values, firsts, options, NULL);
    for (int i = 0; i < options; i++)
        if (firsts[i] == best) {
            memcpy(m->plan, plans[i], sizeof(int16_t) * (size_t)lens[i]);
            m->len = lens[i];
            break;
        }
    return best;
}

int ni_bot_action(const NiGame *g, int kind, const NiBotWeights *w, Rng *rng, NiBotMemory *m) {
    int16_t legal[NI_NUM_ACTIONS];
    int n = ni_legal_actions(g, legal);
    if (kind == NI_BOT_RANDOM) return legal[uniform_below(rng, (uint64_t)n)];
    if (n == 1) return legal[0];
    int p = g->current;
    if (m->len && m->key_turn == g->turn_count && m->key_seat == p) {
        int first = m->plan[0];
        for (int i = 0; i < n; i++)
            if (legal[i] == first) {
                memmove(m->plan, m->plan + 1, sizeof(int16_t) * (size_t)(m->len - 1));
                m->len--;
                return first;
            }
    }
    m->len = 0;
    NiGame s;
    ni_determinize(g, p, rng, &s);
    Bot b = {w, rng, p};
    if (s.phase == NI_TURN) {
        int a = choose_turn(&b, &s, legal, n, m);
        m->key_turn = g->turn_count;
        m->key_seat = (int8_t)p;
        return a;
    }
    if (s.phase == NI_FINISH) return choose_bonus(&b, &s, legal, n);
    int16_t plan[NI_BOT_PLAN];
    int len = 0;
    NiGame work = s;
    play_out(&b, &work, plan, &len);
    if (len == 0) return legal[0]; /* unreachable: the seat to act is in its main action */
    memcpy(m->plan, plan + 1, sizeof(int16_t) * (size_t)(len - 1));
    m->len = len - 1;
    m->key_turn = g->turn_count;
    m->key_seat = (int8_t)p;
    return plan[0];
}
