/* Escape from Clockwork City's bots in C: ``random`` (airships_env.policy.RandomPolicy),
 * ``greedy`` and ``heuristic`` (agents/bots/clockwork.py), a line-by-line translation making the
 * same decisions: the same values in the same floating-point operation order (the extension is
 * built with -ffp-contract=off), the same tie-breaks, and the same draws from the bot's own
 * generator (uniform_below, only where the Python bot draws).
 *
 * What a bot reads is what the seat's view holds (V1-V4): its own hand, the public table (pawns,
 * dice, pile sizes, laid machines, hand sizes, the challenge it is part of, the named seek type),
 * its own knowledge row ``known[seat]``, the place faces only under perfect recall, and the
 * hidden pool's counts (cw_hidden_pool: what a view shows as the canonical hidden cards). It never
 * reads another hand's cards, a pile's order or (under no recall) a place's face:
 * tests/native/test_clockwork_native.py checks that re-dealing those never changes a decision.
 */
#include <math.h>
#include <string.h>

#include "clockwork.h"

typedef struct {
    const CwGame *g;
    int seat, n, heuristic;
    double threshold;
    int8_t hand[CW_NUM_TYPES];     /* the seat's hand; keep_value lowers one type for a while */
    int8_t visible[CW_NUM_PLACES]; /* visible_places: the faces under perfect recall, else -1 */
    int pool[CW_NUM_TYPES];        /* the hidden pool (view._hidden_pool) */
    int pool_total;
} Bot;

static int hand_size(const CwGame *g, int seat) {
    int total = 0;
    for (int t = 0; t < CW_NUM_TYPES; t++) total += g->hands[seat][t];
    return total;
}

static double airship_weight(const Bot *b) {
    if (!b->heuristic) return 0.3;
    int visible_as = 0, visible_power = 0;
    for (int p = 0; p < CW_NUM_PLACES; p++) {
        visible_as += b->visible[p] == CW_AS;
        visible_power += b->visible[p] == CW_POWER;
    }
    int power = b->hand[CW_POWER] + visible_power, reach = b->hand[CW_AS] + visible_as;
    int machines = (b->g->laid_fm[b->seat] >= 0) + (b->g->laid_cb[b->seat] >= 0);
    if (reach >= 5 && (power || b->hand[CW_AS] >= 4) && machines < 2) return 1.6;
    if (reach >= 4) return 0.8;
    return 0.25;
}

/* needs(view, seat): the value of one more card of each type (the heuristic's discount too). */
static void needs(const Bot *b, double *value) {
    const CwGame *g = b->g;
    const int8_t *hand = b->hand, *counts = g->config.counts;
    int seat = b->seat;
    for (int t = 0; t < CW_NUM_TYPES; t++) value[t] = 0.0;
    for (int kind = 0; kind < 2; kind++) {
        int laid = kind == 0 ? g->laid_fm[seat] : g->laid_cb[seat];
        if (laid >= 0) continue;
        int first = kind == 0 ? 0 : CW_FIRST_CB, end = kind == 0 ? CW_NUM_FM : CW_FIRST_CB + CW_NUM_CB;
        int best = 0, any = 0;
        for (int t = first; t < end; t++)
            if (counts[t] > 0) {
                if (!any || hand[t] > best) best = hand[t];
                any = 1;
            }
        for (int t = first; t < end; t++) {
            if (counts[t] <= 0) continue;
            value[t] = 1.0 + hand[t] + (hand[t] == best && best > 0 ? 1.0 : 0.0);
            if (hand[t] == counts[t] - 1) value[t] += 3.0; /* completes the machine */
        }
    }
    int machines = (g->laid_fm[seat] >= 0) + (g->laid_cb[seat] >= 0);
    value[CW_FUEL] = hand[CW_FUEL] == 0 ? 1.5 + 2.5 * machines : 0.1;
    double weight = airship_weight(b);
    value[CW_AS] = counts[CW_AS] ? weight * (1.0 + 1.5 * hand[CW_AS]) : 0.0;
    value[CW_POWER] = hand[CW_POWER] == 0 && counts[CW_POWER] ? weight * (2.0 + hand[CW_AS]) : 0.0;
    value[CW_SCRAP] = hand[CW_SCRAP] == 0 ? 0.6 : 0.05;
    if (!b->heuristic) return;
    for (int other = 0; other < b->n; other++) { /* a machine's parts known in other hands */
        if (other == seat) continue;
        for (int t = 0; t < CW_FIRST_CB + CW_NUM_CB; t++) {
            int known = g->known[seat][other][t];
            if (known && value[t] > 0) value[t] *= pow(0.5, known);
        }
    }
}

static double keep_value(Bot *b, int card) { /* what losing one ``card`` costs the seat */
    double value[CW_NUM_TYPES];
    b->hand[card] -= 1;
    needs(b, value);
    b->hand[card] += 1;
    return value[card];
}

static int can_name(const Bot *b, int card) { /* R1/C1 */
    return card == CW_FUEL || card == CW_POWER || b->hand[card] > 0;
}

/* The best visible discard: its value (0 if none is worth a trip), its type into ``card``. */
static double wanted_discard(const Bot *b, int *card) {
    double value[CW_NUM_TYPES], best = 0.0;
    needs(b, value);
    *card = -1;
    for (int p = 0; p < CW_NUM_PLACES; p++) {
        int face = b->visible[p];
        if (face >= 0 && face != CW_SCRAP && value[face] > best) {
            best = value[face];
            *card = face;
        }
    }
    return best;
}

static double holds_probability(const Bot *b, int other, int card) {
    const CwGame *g = b->g;
    if (g->known[b->seat][other][card] > 0) return 1.0;
    int known = 0;
    for (int t = 0; t < CW_NUM_TYPES; t++) known += g->known[b->seat][other][t];
    int total = b->pool_total, unknown = hand_size(g, other) - known;
    if (total <= 0 || unknown <= 0 || b->pool[card] <= 0) return 0.0;
    double miss = 1.0;
    for (int i = 0; i < unknown; i++) { /* hypergeometric: no card of the type among ``unknown`` */
        double x = (double)(total - b->pool[card] - i) / (double)(total - i);
        miss *= x > 0.0 ? x : 0.0;
    }
    return 1.0 - miss;
}

/* (value, type) of the best demand against ``other``; the type into ``card`` (-1: none). */
static double challenge_value(Bot *b, int other, int *card) {
    double value[CW_NUM_TYPES], best = 0.0;
    needs(b, value);
    *card = -1;
    if (!b->heuristic) { /* greedy: only what the seat knows */
        const int8_t *known = b->g->known[b->seat][other];
        for (int c = 0; c < CW_SCRAP; c++)
            if (known[c] > 0 && can_name(b, c) && value[c] > best) {
                best = value[c];
                *card = c;
            }
        return best;
    }
    double scrap = holds_probability(b, other, CW_SCRAP), risk = 0.0;
    int any = 0;
    for (int t = 0; t < CW_SCRAP; t++) {
        if (!b->hand[t]) continue;
        double v = keep_value(b, t);
        if (!any || v > risk) risk = v;
        any = 1;
    }
    for (int c = 0; c < CW_SCRAP; c++) {
        if (!can_name(b, c)) continue;
        double p = holds_probability(b, other, c);
        if (p < b->threshold) continue;
        double expected = p * (1.0 - 0.7 * scrap) * value[c] - (1.0 - p) * 0.3 * risk;
        if (expected > best) {
            best = expected;
            *card = c;
        }
    }
    return best;
}

static double feeding(const Bot *b, int card) { /* a public discard's help to the others */
    const CwGame *g = b->g;
    double worst = 0.0;
    for (int other = 0; other < b->n; other++) {
        if (other == b->seat) continue;
        int machines = (g->laid_fm[other] >= 0) + (g->laid_cb[other] >= 0);
        const int8_t *known = g->known[b->seat][other];
        double x;
        if (card == CW_FUEL) x = 1.5 * machines;
        else if (known[card] && ((card < CW_NUM_FM && g->laid_fm[other] < 0) ||
                                 (card >= CW_FIRST_CB && card < CW_FIRST_CB + CW_NUM_CB &&
                                  g->laid_cb[other] < 0)))
            x = 1.0 + known[card];
        else if ((card == CW_AS || card == CW_POWER) && known[CW_AS] >= 3)
            x = 1.0 + known[CW_AS] / 2.0;
        else continue;
        if (x > worst) worst = x;
    }
    return worst;
}

/* The action among the legal ones in [base, base + 14) losing the least (ties: the lowest). */
static int cheapest(Bot *b, const int16_t *legal, int n_legal, int base) {
    int best_action = -1;
    double best = 0.0;
    for (int i = 0; i < n_legal; i++) {
        int a = legal[i];
        if (a < base || a >= base + CW_NUM_TYPES) continue;
        double key = keep_value(b, a - base);
        if (b->heuristic && base == CW_A_DISCARD) key = key + 0.5 * feeding(b, a - base);
        if (best_action < 0 || key < best) {
            best = key;
            best_action = a;
        }
    }
    return best_action;
}

static int ring_distance(int length, int a, int c) {
    int d = ((a - c) % length + length) % length;
    return d < length - d ? d : length - d;
}

static int distance_to_target(const Bot *b, int field) {
    const CwGame *g = b->g;
    const CwConfig *c = &g->config;
    int best = -1;
    if (!g->endgame)
        for (int k = 0; k < CW_NUM_YARDS; k++)
            if (g->pile_size[k] > 0) {
                int d = ring_distance(c->length, field, c->yards[k]);
                if (best < 0 || d < best) best = d;
            }
    return best >= 0 ? best : ring_distance(c->length, field, c->towers);
}

static double challenge_bonus(Bot *b, int field) {
    double best = 0.0;
    for (int offset = 1; offset < b->n; offset++) {
        int other = (b->seat + offset) % b->n, card;
        if (b->g->pawns[other] != field) continue;
        double v = challenge_value(b, other, &card);
        if (v > best) best = v;
    }
    return best;
}

static double towers_value(Bot *b) {
    int card;
    double value = wanted_discard(b, &card);
    if (card < 0 || !can_name(b, card)) return b->g->endgame ? 5.0 : -0.5;
    return value + (b->g->endgame ? 5.0 : 0.0);
}

static double field_value(Bot *b, int field) {
    const CwGame *g = b->g;
    int yard = g->config.yard_at[field];
    if (yard >= 0 && g->pile_size[yard] > 0) return 3.0 + challenge_bonus(b, field);
    if (field == g->config.towers) return towers_value(b);
    return challenge_bonus(b, field) - distance_to_target(b, field) / 10.0;
}

static int destination(const CwGame *g, int action) {
    const CwConfig *c = &g->config;
    int position = g->pawns[g->actor];
    if (action >= CW_A_MOVE_CW && action < CW_A_MOVE_CCW)
        return (position + action - CW_A_MOVE_CW + 1) % c->length;
    if (action >= CW_A_MOVE_CCW && action < CW_A_JUMP_TOWERS)
        return ((position - (action - CW_A_MOVE_CCW + 1)) % c->length + c->length) % c->length;
    if (action == CW_A_JUMP_TOWERS) return c->towers;
    return c->yards[action - CW_A_JUMP_YARD];
}

static int opponent_of(const Bot *b, int action) { /* a challenge action's opponent */
    return (b->seat + action - CW_A_CHALLENGE + 1) % b->n;
}

static int has(const int16_t *legal, int n_legal, int action) {
    for (int i = 0; i < n_legal; i++)
        if (legal[i] == action) return 1;
    return 0;
}

static int choose_move(Bot *b, const int16_t *legal, int n_legal) {
    int best_action = -1;
    double best = 0.0;
    for (int i = 0; i < n_legal; i++) { /* ascending: ties keep the lowest action */
        int a = legal[i], card;
        double value;
        if (a == CW_A_DRAW) {
            value = 3.2;
        } else if (a >= CW_A_CHALLENGE && a < CW_A_DEMAND) {
            value = 3.0 + challenge_value(b, opponent_of(b, a), &card);
            if (card < 0) value = -10.0;
        } else {
            value = field_value(b, destination(b->g, a));
        }
        if (best_action < 0 || value > best) {
            best = value;
            best_action = a;
        }
    }
    return best_action;
}

static int choose_act(Bot *b, const int16_t *legal, int n_legal, Rng *rng) {
    int card;
    wanted_discard(b, &card);
    if (card >= 0 && has(legal, n_legal, CW_A_SEEK + card)) return CW_A_SEEK + card;
    int best_challenge = -1;
    double best_value = 0.0;
    for (int i = 0; i < n_legal; i++) {
        int a = legal[i], target;
        if (a < CW_A_CHALLENGE || a >= CW_A_DEMAND) continue;
        double worth = challenge_value(b, opponent_of(b, a), &target);
        if (target >= 0 && worth > best_value) {
            best_challenge = a;
            best_value = worth;
        }
    }
    if (has(legal, n_legal, CW_A_DRAW)) return best_value > 4.0 ? best_challenge : CW_A_DRAW;
    if (best_challenge >= 0) return best_challenge;
    if (has(legal, n_legal, CW_A_PASS)) return CW_A_PASS;
    return legal[uniform_below(rng, (uint64_t)n_legal)];
}

static int choose_demand(Bot *b, const int16_t *legal, int n_legal) {
    int card;
    challenge_value(b, b->g->challenge[1], &card);
    if (card >= 0 && has(legal, n_legal, CW_A_DEMAND + card)) return CW_A_DEMAND + card;
    if (has(legal, n_legal, CW_A_PASS)) return CW_A_PASS;
    double value[CW_NUM_TYPES], best = 0.0;
    needs(b, value);
    int best_action = -1;
    for (int i = 0; i < n_legal; i++) {
        int a = legal[i];
        if (a < CW_A_DEMAND || a >= CW_A_SEEK) continue;
        if (best_action < 0 || value[a - CW_A_DEMAND] > best) {
            best = value[a - CW_A_DEMAND];
            best_action = a;
        }
    }
    return best_action;
}

static int choose_place(const Bot *b, const int16_t *legal, int n_legal, Rng *rng) {
    for (int i = 0; i < n_legal; i++)
        if (b->visible[legal[i] - CW_A_TURN_PLACE] == b->g->seek_type) return legal[i];
    return legal[uniform_below(rng, (uint64_t)n_legal)];
}

int cw_bot_action(const CwGame *g, int kind, double threshold, Rng *rng) {
    int16_t legal[CW_NUM_ACTIONS];
    int n_legal = cw_legal_actions(g, legal);
    if (n_legal <= 0) return -1;
    if (kind == CW_BOT_RANDOM) return legal[uniform_below(rng, (uint64_t)n_legal)];
    if (n_legal == 1) return legal[0];
    Bot b;
    b.g = g;
    b.seat = g->actor;
    b.n = g->num_players < CW_MAX_PLAYERS ? g->num_players : CW_MAX_PLAYERS;
    b.heuristic = kind == CW_BOT_HEURISTIC;
    b.threshold = threshold;
    memcpy(b.hand, g->hands[b.seat], sizeof b.hand);
    for (int p = 0; p < CW_NUM_PLACES; p++)
        b.visible[p] = g->config.discard_recall_none ? -1 : g->places[p];
    cw_hidden_pool(g, b.seat, b.pool);
    b.pool_total = 0;
    for (int t = 0; t < CW_NUM_TYPES; t++) b.pool_total += b.pool[t];
    switch (g->phase) {
    case CW_MOVE: return choose_move(&b, legal, n_legal);
    case CW_ACT: return choose_act(&b, legal, n_legal, rng);
    case CW_DEMAND:
    case CW_COUNTER: return choose_demand(&b, legal, n_legal);
    case CW_RESPOND: return CW_A_GIVE + CW_SCRAP; /* keep the real card */
    case CW_GIVE_BACK: return cheapest(&b, legal, n_legal, CW_A_GIVE);
    case CW_DISCARD: return cheapest(&b, legal, n_legal, CW_A_DISCARD);
    case CW_PLACE: return choose_place(&b, legal, n_legal, rng);
    default: return legal[uniform_below(rng, (uint64_t)n_legal)];
    }
}
