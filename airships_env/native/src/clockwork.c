/* Escape from Clockwork City's rules (docs/clockwork/RULES.md), a line-by-line translation of
 * airships_env/games/clockwork/engine/rules.py and setup.py; comments cite the rule ids. */
#include <stdio.h>
#include <string.h>

#include "clockwork.h"

static const char *const TYPE_IDS[CW_NUM_TYPES] = {"FM1", "FM2", "FM3", "FM4", "FM5",
                                                    "FM6", "CB1", "CB2", "CB3", "CB4",
                                                    "AS",  "FUEL", "POWER", "SCRAP"};
static const char *const PHASE_NAMES[CW_NUM_PHASES] = {
    "roll", "move", "act", "demand", "respond", "counter", "give back", "discard", "place", "over"};

/* The seats in play: num_players, bounded for the compiler's array checks (it is 2..4). */
static inline int seats(const CwGame *g) {
    int n = g->num_players;
    return n < CW_MAX_PLAYERS ? n : CW_MAX_PLAYERS;
}

#define SHOWN(t) ((t) >= 0 && (t) <= CW_AS) /* FM, CB, AS are named by showing a card (C1, R1) */

const char *cw_phase_name(int phase) {
    return phase >= 0 && phase < CW_NUM_PHASES ? PHASE_NAMES[phase] : "?";
}

void cw_action_name(int a, char *out, int size) {
    if (a == CW_A_ROLL) snprintf(out, size, "roll");
    else if (a == CW_A_PASS) snprintf(out, size, "pass");
    else if (a >= CW_A_MOVE_CW && a < CW_A_MOVE_CCW) snprintf(out, size, "move cw %d", a - CW_A_MOVE_CW + 1);
    else if (a >= CW_A_MOVE_CCW && a < CW_A_JUMP_TOWERS)
        snprintf(out, size, "move ccw %d", a - CW_A_MOVE_CCW + 1);
    else if (a == CW_A_JUMP_TOWERS) snprintf(out, size, "jump towers");
    else if (a >= CW_A_JUMP_YARD && a < CW_A_DRAW)
        snprintf(out, size, "jump scrapyard %d", a - CW_A_JUMP_YARD + 1);
    else if (a == CW_A_DRAW) snprintf(out, size, "draw");
    else if (a >= CW_A_CHALLENGE && a < CW_A_DEMAND)
        snprintf(out, size, "challenge +%d", a - CW_A_CHALLENGE + 1);
    else if (a >= CW_A_DEMAND && a < CW_A_SEEK) snprintf(out, size, "demand %s", TYPE_IDS[a - CW_A_DEMAND]);
    else if (a >= CW_A_SEEK && a < CW_A_GIVE) snprintf(out, size, "seek %s", TYPE_IDS[a - CW_A_SEEK]);
    else if (a >= CW_A_GIVE && a < CW_A_DISCARD) snprintf(out, size, "give %s", TYPE_IDS[a - CW_A_GIVE]);
    else if (a >= CW_A_DISCARD && a < CW_A_TURN_PLACE)
        snprintf(out, size, "discard %s", TYPE_IDS[a - CW_A_DISCARD]);
    else if (a >= CW_A_TURN_PLACE && a < CW_NUM_ACTIONS)
        snprintf(out, size, "turn place %d", a - CW_A_TURN_PLACE);
    else snprintf(out, size, "?");
}

void cw_config_finish(CwConfig *config) {
    memset(config->yard_at, -1, sizeof config->yard_at);
    for (int k = 0; k < CW_NUM_YARDS; k++) config->yard_at[config->yards[k]] = (int8_t)k;
}

/* -- chance (chance.py) --------------------------------------------------------------------- */
static void roll_two(Rng *rng, int8_t dice[2]) { /* N3: one draw below 36 */
    int value = (int)uniform_below(rng, 36);
    dice[0] = (int8_t)(1 + value % 6);
    dice[1] = (int8_t)(1 + value / 6);
}

static int is_lucky(const int8_t *dice) { /* T1 */
    int total = dice[0] + dice[1];
    return total == 7 || total == 11 || dice[0] == dice[1];
}

static int is_odd_or_double(const int8_t *dice) { /* F2 */
    return (dice[0] + dice[1]) % 2 == 1 || dice[0] == dice[1];
}

/* -- what is legal -------------------------------------------------------------------------- */
static int stop_allowed(const CwGame *g, int field) { /* M2 */
    if (field == g->config.towers) return 1;
    int n = 0;
    for (int s = 0; s < g->num_players; s++) n += g->pawns[s] == field;
    return n < CW_FIELD_CAPACITY;
}

static int is_white(const CwConfig *c, int field) {
    return field == c->towers || c->yard_at[field] >= 0;
}

static int pile_empty_all(const CwGame *g) {
    for (int k = 0; k < CW_NUM_YARDS; k++)
        if (g->pile_size[k] > 0) return 0;
    return 1;
}

/* Mark the challenges of the opponents on ``field`` (offsets 1..n-1 after ``seat``). */
static int mark_opponents(const CwGame *g, int seat, int field, uint8_t *mask) {
    int n = g->num_players, any = 0;
    for (int k = 1; k < n; k++)
        if (g->pawns[(seat + k) % n] == field) {
            mask[CW_A_CHALLENGE + k - 1] = 1;
            any = 1;
        }
    return any;
}

/* C1, R1: FM, CB, AS the seat holds; FUEL and POWER when in play. Marks base + type. */
static int mark_nameable(const CwGame *g, int seat, int base, uint8_t *mask) {
    int any = 0;
    for (int t = 0; t <= CW_AS; t++)
        if (g->hands[seat][t] > 0) {
            mask[base + t] = 1;
            any = 1;
        }
    if (g->config.counts[CW_FUEL] > 0) mask[base + CW_FUEL] = any = 1;
    if (g->config.counts[CW_POWER] > 0) mask[base + CW_POWER] = any = 1;
    return any;
}

static int mark_seek(const CwGame *g, int seat, uint8_t *mask) {
    int any_place = 0;
    for (int p = 0; p < CW_NUM_PLACES; p++)
        if (g->places[p] >= 0) {
            any_place = 1;
            break;
        }
    return any_place ? mark_nameable(g, seat, CW_A_SEEK, mask) : 0;
}

/* T2 after the roll: moves (M1), lucky jumps, stay and draw, stay and challenge. */
static int move_options(const CwGame *g, uint8_t *mask) {
    const CwConfig *c = &g->config;
    int seat = g->actor, position = g->pawns[seat], total = g->dice[0] + g->dice[1], any = 0;
    for (int direction = 1; direction >= -1; direction -= 2)
        for (int steps = 1; steps <= total; steps++) {
            int field = ((position + direction * steps) % c->length + c->length) % c->length;
            if ((steps == total || (!c->white_field_exact && is_white(c, field))) &&
                stop_allowed(g, field)) {
                mask[(direction > 0 ? CW_A_MOVE_CW : CW_A_MOVE_CCW) + steps - 1] = 1;
                any = 1;
            }
        }
    if (!is_lucky(g->dice)) return any;
    if (position != c->towers) mask[CW_A_JUMP_TOWERS] = any = 1;
    if (g->endgame) return any; /* F1: the Towers only */
    int yard_here = c->yard_at[position];
    if (c->lucky_anywhere || yard_here >= 0) {
        for (int k = 0; k < CW_NUM_YARDS; k++) {
            int field = c->yards[k];
            if (g->pile_size[k] > 0 && field != position && stop_allowed(g, field))
                mask[CW_A_JUMP_YARD + k] = any = 1;
        }
        if (yard_here >= 0) {
            if (g->pile_size[yard_here] > 0) mask[CW_A_DRAW] = any = 1; /* T2c */
            any |= mark_opponents(g, seat, position, mask);              /* T2d */
        }
    }
    return any;
}

/* T3 / F1 / F2 where the pawn stands: marks the options, returns whether any; ``can_pass``. */
static int act_options(const CwGame *g, uint8_t *mask, int *can_pass) {
    const CwConfig *c = &g->config;
    int seat = g->actor, field = g->pawns[seat], any = 0;
    if (g->endgame) {
        if (field != c->towers) {
            *can_pass = 0;
            return 0;
        }
        if (g->turn_start_field == c->towers) { /* F2 */
            if (is_odd_or_double(g->dice)) any |= mark_seek(g, seat, mask);
            if (is_lucky(g->dice)) any |= mark_opponents(g, seat, field, mask);
        } else { /* F1: arrived on the Towers */
            any |= mark_seek(g, seat, mask);
        }
        *can_pass = 1;
        return any;
    }
    if (field == c->towers) {
        *can_pass = 1;
        return mark_seek(g, seat, mask);
    }
    any = mark_opponents(g, seat, field, mask);
    int yard = c->yard_at[field];
    if (yard >= 0 && g->pile_size[yard] > 0) {
        mask[CW_A_DRAW] = 1;
        *can_pass = 0;
        return 1;
    }
    *can_pass = 1;
    return any;
}

static void legal_mask(const CwGame *g, uint8_t *mask) {
    memset(mask, 0, CW_NUM_ACTIONS);
    int seat = g->actor, can_pass;
    switch (g->phase) {
    case CW_ROLL: mask[CW_A_ROLL] = 1; break;
    case CW_MOVE: move_options(g, mask); break;
    case CW_ACT:
        act_options(g, mask, &can_pass);
        if (can_pass) mask[CW_A_PASS] = 1;
        break;
    case CW_DEMAND:
    case CW_COUNTER:
        mark_nameable(g, seat, CW_A_DEMAND, mask);
        if (g->phase == CW_COUNTER) mask[CW_A_PASS] = 1;
        break;
    case CW_RESPOND:
        mask[CW_A_GIVE + g->challenge[2]] = 1;
        mask[CW_A_GIVE + CW_SCRAP] = 1;
        break;
    case CW_GIVE_BACK:
    case CW_DISCARD: {
        int base = g->phase == CW_GIVE_BACK ? CW_A_GIVE : CW_A_DISCARD;
        for (int t = 0; t < CW_NUM_TYPES; t++)
            if (g->hands[seat][t] > 0) mask[base + t] = 1;
        break;
    }
    case CW_PLACE:
        for (int p = 0; p < CW_NUM_PLACES; p++)
            if (g->places[p] >= 0) mask[CW_A_TURN_PLACE + p] = 1;
        break;
    default: break;
    }
}

int cw_legal_actions(const CwGame *g, int16_t *out) {
    uint8_t mask[CW_NUM_ACTIONS];
    legal_mask(g, mask);
    int n = 0;
    for (int a = 0; a < CW_NUM_ACTIONS; a++)
        if (mask[a]) out[n++] = (int16_t)a;
    return n;
}

/* -- knowledge (K1, K2); ``only`` is the one observer, or -1 for every seat ------------------ */
static void seen_enter(CwGame *g, int owner, int card, int only) {
    for (int o = 0; o < seats(g); o++)
        if (o != owner && (only < 0 || o == only)) g->known[o][owner][card] += 1;
}

static void seen_show(CwGame *g, int owner, int card, int only) {
    for (int o = 0; o < seats(g); o++)
        if (o != owner && (only < 0 || o == only) && g->known[o][owner][card] < 1)
            g->known[o][owner][card] = 1;
}

static void seen_leave(CwGame *g, int owner, int card, int only, int count) {
    for (int o = 0; o < seats(g); o++)
        if (o != owner && (only < 0 || o == only)) {
            int value = g->known[o][owner][card] - count;
            g->known[o][owner][card] = (int8_t)(value > 0 ? value : 0);
        }
}

static void unseen_leave(CwGame *g, int owner, int a, int b) {
    for (int o = 0; o < seats(g); o++) {
        if (o == a || o == b) continue;
        for (int t = 0; t < CW_NUM_TYPES; t++)
            if (g->known[o][owner][t] > 0) g->known[o][owner][t] -= 1;
    }
}

/* -- laying down and winning (W1, W2) -------------------------------------------------------- */
static void lay_down(CwGame *g, int seat, CwRecord *r) {
    const int8_t *counts = g->config.counts;
    int8_t *hand = g->hands[seat];
    for (int kind = 0; kind < 2; kind++) {
        int8_t *slot = kind == 0 ? g->laid_fm : g->laid_cb;
        int first = kind == 0 ? 0 : CW_FIRST_CB, n = kind == 0 ? CW_NUM_FM : CW_NUM_CB;
        if (slot[seat] >= 0) continue;
        for (int t = first; t < first + n; t++)
            if (counts[t] > 0 && hand[t] == counts[t]) {
                hand[t] = 0;
                slot[seat] = (int8_t)t;
                seen_leave(g, seat, t, -1, counts[t]);
                if (r) {
                    r->laid[r->n_laid][0] = (int8_t)seat;
                    r->laid[r->n_laid][1] = (int8_t)t;
                    r->n_laid++;
                }
                break;
            }
    }
}

static int has_won(const CwGame *g, int seat) {
    const int8_t *hand = g->hands[seat], *counts = g->config.counts;
    if (g->laid_fm[seat] >= 0 && g->laid_cb[seat] >= 0 && hand[CW_FUEL] > 0) return 1;
    return counts[CW_AS] > 0 && hand[CW_AS] == counts[CW_AS] && counts[CW_POWER] > 0 &&
           hand[CW_POWER] > 0;
}

/* W1 for every seat, then W2 (the seat that acted first, then seat order); 1 if won. */
static int settle(CwGame *g, int acted, CwRecord *r) {
    int n = seats(g);
    for (int s = 0; s < n; s++) lay_down(g, s, r);
    for (int i = -1; i < n; i++) {
        int s = i < 0 ? acted : i;
        if (i >= 0 && s == acted) continue;
        if (has_won(g, s)) {
            g->winner = (int8_t)s;
            g->phase = CW_OVER;
            return 1;
        }
    }
    return 0;
}

static int hand_size(const CwGame *g, int seat) {
    int total = 0;
    for (int t = 0; t < CW_NUM_TYPES; t++) total += g->hands[seat][t];
    return total;
}

static int free_place(const CwGame *g) {
    for (int p = 0; p < CW_NUM_PLACES; p++)
        if (g->places[p] < 0) return p;
    return -1;
}

/* -- applying an action ---------------------------------------------------------------------- */
static void end_turn(CwGame *g) { /* the turn ends: W3, else the next seat's turn begins */
    memset(g->challenge, -1, sizeof g->challenge);
    g->seek_type = -1;
    if (g->phase == CW_OVER) return;
    if (g->turn >= g->config.turn_limit) { /* W3 */
        g->phase = CW_OVER;
        g->actor = g->current;
        return;
    }
    g->current = (int8_t)((g->current + 1) % g->num_players);
    g->actor = g->current;
    g->phase = CW_ROLL;
    g->dice[0] = g->dice[1] = 0;
    g->turn += 1;
    g->turn_start_field = g->pawns[g->current];
}

static void roll(CwGame *g, const int8_t *forced, CwRecord *r) { /* T1 (N3); F1/F2 */
    if (forced) {
        g->dice[0] = forced[0];
        g->dice[1] = forced[1];
    } else {
        roll_two(&g->rng, g->dice);
    }
    r->dice[0] = g->dice[0];
    r->dice[1] = g->dice[1];
    g->endgame = (int8_t)pile_empty_all(g);
    uint8_t mask[CW_NUM_ACTIONS];
    memset(mask, 0, sizeof mask);
    if (g->endgame && g->pawns[g->actor] == g->config.towers) { /* F2 */
        int can_pass;
        if (act_options(g, mask, &can_pass)) g->phase = CW_ACT;
        else end_turn(g); /* an even roll (or nothing to do): the turn is lost */
        return;
    }
    if (move_options(g, mask)) g->phase = CW_MOVE;
    else end_turn(g); /* T2: nowhere to go, the pawn stays */
}

static void arrive(CwGame *g, int field) { /* M1, T2b; T3 decides what follows */
    g->pawns[g->actor] = (int16_t)field;
    uint8_t mask[CW_NUM_ACTIONS];
    memset(mask, 0, sizeof mask);
    int can_pass;
    if (act_options(g, mask, &can_pass)) g->phase = CW_ACT;
    else end_turn(g);
}

static void after_gain(CwGame *g, int seat, CwRecord *r) { /* W1, W2, then H1 or the end */
    if (settle(g, seat, r)) return;
    if (hand_size(g, seat) > CW_HAND_LIMIT) g->phase = CW_DISCARD;
    else end_turn(g);
}

static void draw(CwGame *g, CwRecord *r) { /* T3 */
    int seat = g->actor, yard = g->config.yard_at[g->pawns[seat]];
    int card = g->piles[yard][--g->pile_size[yard]];
    g->hands[seat][card] += 1;
    r->drawn = (int8_t)card;
    after_gain(g, seat, r);
}

static void gift(CwGame *g, int card, CwRecord *r) { /* C2: the named type or a SCRAP */
    int receiver = g->challenge[0], giver = g->challenge[1];
    g->hands[giver][card] -= 1;
    r->given = (int8_t)card;
    if (card == CW_SCRAP && g->challenge[2] != CW_SCRAP) {
        seen_leave(g, giver, CW_SCRAP, -1, 1); /* set aside in view of all */
        if (g->config.scrap_to_discards) g->places[free_place(g)] = CW_SCRAP;
        else g->removed_scrap += 1;
        if (!settle(g, receiver, r)) end_turn(g);
        return;
    }
    g->hands[receiver][card] += 1;
    seen_leave(g, giver, card, receiver, 1);
    seen_enter(g, receiver, card, giver);
    unseen_leave(g, giver, receiver, giver);
    if (settle(g, receiver, r)) return;
    if (hand_size(g, receiver) > CW_HAND_LIMIT) {
        g->phase = CW_GIVE_BACK;
        g->actor = (int8_t)receiver;
    } else {
        end_turn(g);
    }
}

static void demand(CwGame *g, int card, CwRecord *r) { /* C1; C2 or C3 follows */
    int challenger = g->challenge[0], opponent = g->challenge[1], stage = g->challenge[3];
    g->challenge[2] = (int8_t)card;
    if (SHOWN(card)) seen_show(g, challenger, card, opponent); /* shown secretly (C4) */
    if (g->hands[opponent][card] > 0) {
        if (g->hands[opponent][CW_SCRAP] > 0) {
            g->phase = CW_RESPOND;
            g->actor = (int8_t)opponent;
        } else {
            gift(g, card, r);
        }
    } else if (stage == 0) { /* C3: the opponent may challenge back */
        g->challenge[0] = (int8_t)opponent;
        g->challenge[1] = (int8_t)challenger;
        g->challenge[2] = -1;
        g->challenge[3] = 1;
        g->phase = CW_COUNTER;
        g->actor = (int8_t)opponent;
    } else {
        end_turn(g);
    }
}

static void give_back(CwGame *g, int card, CwRecord *r) { /* C2: over the limit, one back */
    int giver = g->challenge[0], receiver = g->challenge[1];
    g->hands[giver][card] -= 1;
    g->hands[receiver][card] += 1;
    r->given = (int8_t)card;
    seen_leave(g, giver, card, receiver, 1);
    seen_enter(g, receiver, card, giver);
    unseen_leave(g, giver, giver, receiver);
    if (!settle(g, giver, r)) end_turn(g);
}

static void turn_place(CwGame *g, int place, CwRecord *r) { /* R1-R3 */
    int seat = g->actor, named = g->seek_type, card = g->places[place];
    g->places[place] = -1;
    r->turned = (int8_t)card;
    g->hands[seat][card] += 1;
    seen_enter(g, seat, card, -1);
    if (card != named && SHOWN(named)) { /* R3: the shown card takes its place */
        g->hands[seat][named] -= 1;
        g->places[place] = (int8_t)named;
        seen_leave(g, seat, named, -1, 1);
        if (!settle(g, seat, r)) end_turn(g);
        return;
    }
    after_gain(g, seat, r); /* R2, or R3 with FUEL/POWER named */
}

int cw_apply(CwGame *g, int action, const int8_t *forced, CwRecord *r) {
    uint8_t mask[CW_NUM_ACTIONS];
    if (action < 0 || action >= CW_NUM_ACTIONS) return CW_ILLEGAL;
    legal_mask(g, mask);
    if (!mask[action]) return CW_ILLEGAL;
    if (action == CW_A_ROLL) {
        if (forced && (forced[0] < 1 || forced[0] > 6 || forced[1] < 1 || forced[1] > 6))
            return CW_BAD_DICE;
        if (!forced && !g->rng.present) return CW_NO_RNG;
    }
    return cw_apply_legal(g, action, forced, r);
}

int cw_apply_legal(CwGame *g, int action, const int8_t *forced, CwRecord *r) {
    /* H2 needs a free place: checked before anything changes (58 places hold any default deal) */
    int lays = (action >= CW_A_DISCARD && action < CW_A_TURN_PLACE) ||
               (g->phase == CW_RESPOND && action == CW_A_GIVE + CW_SCRAP &&
                g->challenge[2] != CW_SCRAP && g->config.scrap_to_discards);
    if (lays && free_place(g) < 0) return CW_NO_PLACE;
    int seat = g->actor;
    memset(r, 0, sizeof *r);
    r->turn = g->turn;
    r->player = (int8_t)seat;
    r->action = (int16_t)action;
    r->drawn = r->turned = r->given = -1;
    if (action == CW_A_ROLL) {
        roll(g, forced, r);
    } else if (action == CW_A_PASS) {
        end_turn(g);
    } else if (action < CW_A_JUMP_TOWERS) {
        int direction = action < CW_A_MOVE_CCW ? 1 : -1;
        int steps = action - (direction > 0 ? CW_A_MOVE_CW : CW_A_MOVE_CCW) + 1;
        int length = g->config.length;
        arrive(g, ((g->pawns[seat] + direction * steps) % length + length) % length);
    } else if (action == CW_A_JUMP_TOWERS) {
        arrive(g, g->config.towers);
    } else if (action < CW_A_DRAW) {
        arrive(g, g->config.yards[action - CW_A_JUMP_YARD]);
    } else if (action == CW_A_DRAW) {
        draw(g, r);
    } else if (action < CW_A_DEMAND) {
        g->challenge[0] = (int8_t)seat;
        g->challenge[1] = (int8_t)((seat + action - CW_A_CHALLENGE + 1) % g->num_players);
        g->challenge[2] = -1;
        g->challenge[3] = 0;
        g->phase = CW_DEMAND;
    } else if (action < CW_A_SEEK) {
        demand(g, action - CW_A_DEMAND, r);
    } else if (action < CW_A_GIVE) {
        int card = action - CW_A_SEEK;
        g->seek_type = (int8_t)card;
        if (SHOWN(card)) seen_show(g, seat, card, -1); /* R1: shown to all */
        g->phase = CW_PLACE;
    } else if (action < CW_A_DISCARD) {
        if (g->phase == CW_RESPOND) gift(g, action - CW_A_GIVE, r);
        else give_back(g, action - CW_A_GIVE, r);
    } else if (action < CW_A_TURN_PLACE) {
        int card = action - CW_A_DISCARD;
        g->hands[seat][card] -= 1;
        g->places[free_place(g)] = (int8_t)card; /* H2: the lowest free place */
        seen_leave(g, seat, card, -1, 1);
        end_turn(g);
    } else {
        turn_place(g, action - CW_A_TURN_PLACE, r);
    }
    g->step += 1;
    r->step = g->step;
    r->winner = g->winner >= 0 && g->phase == CW_OVER ? g->winner : -1;
    return CW_OK;
}

/* -- setup (setup.py) ------------------------------------------------------------------------ */
void cw_new_game(CwGame *g, const CwConfig *config, int num_players, const Rng *rng) {
    memset(g, 0, sizeof *g);
    g->config = *config;
    g->rng = *rng;
    g->num_players = (int8_t)num_players;
    int8_t deck[CW_MAX_DECK];
    int size = 0;
    for (int t = 0; t < CW_NUM_TYPES; t++) /* S1, type order */
        for (int i = 0; i < config->counts[t]; i++) deck[size++] = (int8_t)t;
    shuffle_i8(&g->rng, deck, size); /* S2, N2 */
    for (int s = 0; s < num_players; s++)
        for (int i = CW_HAND_LIMIT * s; i < CW_HAND_LIMIT * (s + 1); i++) g->hands[s][deck[i]] += 1;
    for (int j = 0; j < size - CW_HAND_LIMIT * num_players; j++) {
        int k = j % CW_NUM_YARDS;
        g->piles[k][g->pile_size[k]++] = deck[CW_HAND_LIMIT * num_players + j];
    }
    int start = 0;
    if (config->first_player_roll) { /* S3, N3: roll-off, ties roll again */
        int contenders[CW_MAX_PLAYERS] = {0, 1, 2, 3}, n = num_players;
        for (int s = 0; s < n; s++) contenders[s] = s;
        while (n > 1) {
            int sums[CW_MAX_PLAYERS], best = 0, kept = 0;
            for (int i = 0; i < n; i++) {
                int8_t dice[2];
                roll_two(&g->rng, dice);
                sums[i] = dice[0] + dice[1];
                if (sums[i] > best) best = sums[i];
            }
            for (int i = 0; i < n; i++)
                if (sums[i] == best) contenders[kept++] = contenders[i];
            n = kept;
        }
        start = contenders[0];
    }
    for (int s = 0; s < num_players; s++) {
        g->laid_fm[s] = g->laid_cb[s] = -1;
        g->pawns[s] = config->towers;
    }
    memset(g->places, -1, sizeof g->places);
    g->start_player = g->current = g->actor = (int8_t)start;
    g->phase = CW_ROLL;
    g->turn = 1;
    g->turn_start_field = config->towers;
    memset(g->challenge, -1, sizeof g->challenge);
    g->seek_type = -1;
    g->winner = -1;
    settle(g, start, NULL); /* S4: a dealt machine is laid at once */
}
