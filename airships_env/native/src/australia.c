/* Australia's rules (docs/australia/RULES.md), a line-by-line translation of
 * airships_env/games/australia/engine/rules.py and setup.py; comments cite the rule ids. */
#include <stdio.h>
#include <string.h>

#include "australia.h"

static const char *const BACKS[AU_NUM_BACKS] = {"4+0", "3+1", "2+2", "1+3"};
static const char *const COLOURS[AU_NUM_COLOURS] = {"blue", "green", "orange",
                                                    "grey", "red",   "yellow"};
static const char *const PHASE_NAMES[AU_NUM_PHASES] = {
    "setup draw", "windmill", "action", "place", "draw", "take back", "move to", "over"};
static const int BACK_RANGERS[AU_NUM_BACKS] = {4, 3, 2, 1};
static const int BACK_DOLLARS[AU_NUM_BACKS] = {0, 1, 2, 3};

#define RECOLOUR_COST 3 /* D1 */
#define MOVE_COST 4     /* D2 */
#define NO_RANGER_VP 2  /* A2 (b) */
#define INITIATOR_VP 3  /* P3 */
#define MAX_TAKE_BACK 4 /* A5 */

/* The seats in play: num_players, bounded for the compiler's array checks (it is 2..5). */
static inline int seats(const AuGame *g) {
    int n = g->num_players;
    return n < AU_MAX_PLAYERS ? n : AU_MAX_PLAYERS;
}

const char *au_phase_name(int phase) {
    return phase >= 0 && phase < AU_NUM_PHASES ? PHASE_NAMES[phase] : "?";
}

void au_action_name(int a, char *out, int size) {
    if (a >= AU_A_FLY && a < AU_A_PLAY) snprintf(out, size, "fly region %d", a - AU_A_FLY);
    else if (a >= AU_A_PLAY && a < AU_A_PLACE) {
        int paying = a >= AU_A_PLAY_PAYING, card = a - (paying ? AU_A_PLAY_PAYING : AU_A_PLAY);
        snprintf(out, size, "play %s %s%s", BACKS[card / AU_NUM_COLOURS],
                 COLOURS[card % AU_NUM_COLOURS], paying ? " paying $3" : "");
    } else if (a >= AU_A_PLACE && a < AU_A_NO_RANGERS)
        snprintf(out, size, "place %d at location %d", (a - AU_A_PLACE) / AU_MAX_LOCATIONS + 1,
                 (a - AU_A_PLACE) % AU_MAX_LOCATIONS);
    else if (a == AU_A_NO_RANGERS) snprintf(out, size, "no rangers (2 VP)");
    else if (a >= AU_A_RANGER_TRACK && a < AU_A_STOP_PLACING)
        snprintf(out, size, "ranger track %d", a - AU_A_RANGER_TRACK + 1);
    else if (a == AU_A_STOP_PLACING) snprintf(out, size, "stop placing");
    else if (a >= AU_A_DRAW && a < AU_A_TAKE_BACK)
        snprintf(out, size, "draw %s", BACKS[a - AU_A_DRAW]);
    else if (a >= AU_A_TAKE_BACK && a < AU_A_DONE_TAKING)
        snprintf(out, size, "take back at location %d", a - AU_A_TAKE_BACK);
    else if (a == AU_A_DONE_TAKING) snprintf(out, size, "done taking back");
    else if (a >= AU_A_MOVE_FROM && a < AU_A_MOVE_TO)
        snprintf(out, size, "move ranger from location %d", a - AU_A_MOVE_FROM);
    else if (a >= AU_A_MOVE_TO && a < AU_A_END_TURN)
        snprintf(out, size, "move ranger to location %d", a - AU_A_MOVE_TO);
    else if (a == AU_A_END_TURN) snprintf(out, size, "end turn");
    else if (a >= AU_A_WINDMILL && a < AU_NUM_ACTIONS)
        snprintf(out, size, "windmill region %d", a - AU_A_WINDMILL);
    else snprintf(out, size, "?");
}

void au_config_finish(AuConfig *c) { /* data.parse_data: region_locations, neighbours */
    memset(c->region_num_locations, 0, sizeof c->region_num_locations);
    memset(c->neighbour, 0, sizeof c->neighbour);
    for (int loc = 0; loc < c->num_locations; loc++)
        for (int i = 0; i < c->location_num_regions[loc]; i++) {
            int r = c->location_regions[loc][i];
            c->region_locations[r][c->region_num_locations[r]++] = (int8_t)loc;
            for (int j = 0; j < c->location_num_regions[loc]; j++)
                if (j != i) c->neighbour[r][c->location_regions[loc][j]] = 1;
        }
}

/* -- derived values ------------------------------------------------------------------------ */
static int location_total(const AuGame *g, int loc) {
    int total = 0;
    for (int s = 0; s < seats(g); s++) total += g->rangers[loc][s];
    return total;
}

static int is_open_to(const AuGame *g, int loc, int seat) { /* A3/D2 */
    for (int s = 0; s < seats(g); s++)
        if (s != seat && g->rangers[loc][s] > 0) return 0;
    return 1;
}

static int region_rangers(const AuConfig *c, const AuGame *g, int region) { /* P2 */
    int total = 0;
    for (int i = 0; i < c->region_num_locations[region]; i++)
        total += location_total(g, c->region_locations[region][i]);
    return total;
}

static int conservation_complete(const AuConfig *c, const AuGame *g, int region) { /* P1 */
    if (!g->conservation[region]) return 0;
    for (int i = 0; i < c->region_num_locations[region]; i++)
        if (location_total(g, c->region_locations[region][i]) == 0) return 0;
    return 1;
}

static int industrialization_complete(const AuConfig *c, const AuGame *g, int region) { /* P2 */
    int value = g->tile_value[region];
    return value > 0 && g->tile_up[region] && region_rangers(c, g, region) == value;
}

static int windmill_eligible(const AuConfig *c, const AuGame *g, int seat) { /* W3 */
    if (!c->full_game || g->windmill_region < 0) return 0;
    int plane = g->plane[seat];
    if (plane < 0) return 0;
    int near = plane == g->windmill_region || c->neighbour[g->windmill_region][plane];
    return near && g->ranger_track_size < c->ranger_areas;
}

static int any_stack(const AuGame *g) {
    for (int b = 0; b < AU_NUM_BACKS; b++)
        if (g->stack_size[b] > 0) return 1;
    return 0;
}

static int own_in_plane_region(const AuConfig *c, const AuGame *g, int seat) {
    int plane = g->plane[seat];
    for (int i = 0; i < c->region_num_locations[plane]; i++)
        if (g->rangers[c->region_locations[plane][i]][seat] > 0) return 1;
    return 0;
}

/* A3: the locations the pending card may place on, ascending, into ``out`` (may be NULL: only
 * counted); returns their number. */
static int placement_locations(const AuConfig *c, const AuGame *g, int seat, int8_t *out) {
    int n = 0;
    if (g->pending_paid && c->recolour_anywhere) { /* D1 anywhere: the whole map */
        for (int loc = 0; loc < c->num_locations; loc++)
            if (is_open_to(g, loc, seat)) {
                if (out) out[n] = (int8_t)loc;
                n++;
            }
    } else {
        int plane = g->plane[seat];
        for (int i = 0; i < c->region_num_locations[plane]; i++) {
            int loc = c->region_locations[plane][i];
            if (is_open_to(g, loc, seat)) {
                if (out) out[n] = (int8_t)loc;
                n++;
            }
        }
    }
    return n;
}

/* D2: the locations with an own ranger that has somewhere else to go, as move actions appended
 * to ``out`` (may be NULL: only counted); returns their number. */
static int move_sources(const AuConfig *c, const AuGame *g, int seat, int16_t *out) {
    if (g->dollars[seat] < MOVE_COST) return 0;
    int open_count = 0, first_open = -1;
    for (int loc = 0; loc < c->num_locations && open_count < 2; loc++)
        if (is_open_to(g, loc, seat)) {
            if (open_count++ == 0) first_open = loc;
        }
    int n = 0;
    for (int loc = 0; loc < c->num_locations; loc++)
        if (g->rangers[loc][seat] > 0 &&
            (open_count >= 2 || (open_count == 1 && first_open != loc))) {
            if (!out) return 1; /* whether any */
            out[n++] = (int16_t)(AU_A_MOVE_FROM + loc);
        }
    return n;
}

static int can_place_more(const AuConfig *c, const AuGame *g, int seat) {
    return g->rangers_left > 0 && g->supply[seat] > 0 && placement_locations(c, g, seat, NULL) > 0;
}

/* -- what is legal: each phase writes its actions in ascending order (the table's order) ---- */
static int action_options(const AuConfig *c, const AuGame *g, int seat, int16_t *out) {
    int n = 0;
    if (g->actions_left == 0) { /* T2: after the second action, D2 moves or the end */
        n = move_sources(c, g, seat, out);
        out[n++] = AU_A_END_TURN;
        return n;
    }
    int plane = g->plane[seat];
    for (int r = 0; r < AU_NUM_REGIONS; r++)
        if (r != plane) out[n++] = (int16_t)(AU_A_FLY + r); /* A1 */
    if (plane >= 0 || c->recolour_anywhere) {
        int colour = plane >= 0 ? c->region_colour[plane] : -1, paying = 0;
        int16_t paid[AU_NUM_CARD_TYPES];
        for (int card = 0; card < AU_NUM_CARD_TYPES; card++) {
            if (g->hands[seat][card] == 0) continue;
            if (plane >= 0 && card % AU_NUM_COLOURS == colour)
                out[n++] = (int16_t)(AU_A_PLAY + card); /* A2 */
            else if (g->dollars[seat] >= RECOLOUR_COST)
                paid[paying++] = (int16_t)(AU_A_PLAY_PAYING + card); /* D1 */
        }
        for (int i = 0; i < paying; i++) out[n++] = paid[i];
    }
    if (plane >= 0) /* A5 */
        for (int i = 0; i < c->region_num_locations[plane]; i++) {
            int loc = c->region_locations[plane][i];
            if (g->rangers[loc][seat] > 0) out[n++] = (int16_t)(AU_A_TAKE_BACK + loc);
        }
    return n + move_sources(c, g, seat, out + n); /* D2 */
}

static int place_options(const AuConfig *c, const AuGame *g, int seat, int16_t *out) {
    int most = g->rangers_left < g->supply[seat] ? g->rangers_left : g->supply[seat], n = 0;
    int8_t open[AU_MAX_LOCATIONS];
    int count = placement_locations(c, g, seat, open);
    for (int k = 1; k <= most; k++) /* A3 */
        for (int i = 0; i < count; i++)
            out[n++] = (int16_t)(AU_A_PLACE + (k - 1) * AU_MAX_LOCATIONS + open[i]);
    if (g->track_used) {
        out[n++] = AU_A_STOP_PLACING; /* W3 */
    } else {
        out[n++] = AU_A_NO_RANGERS; /* A2 (b) */
        if (windmill_eligible(c, g, seat)) {
            int free = c->ranger_areas - g->ranger_track_size;
            int top = most < free ? most : free;
            for (int t = 1; t <= top; t++) out[n++] = (int16_t)(AU_A_RANGER_TRACK + t - 1); /* W3 */
        }
    }
    return n;
}

int au_legal_actions(const AuGame *g, int16_t *out) {
    return au_legal_actions_with(g, &g->config, out);
}

int au_legal_actions_with(const AuGame *g, const AuConfig *c, int16_t *out) {
    int seat = g->current, n = 0;
    switch (g->phase) {
    case AU_SETUP_DRAW:
    case AU_DRAW:
        for (int b = 0; b < AU_NUM_BACKS; b++)
            if (g->stack_size[b] > 0) out[n++] = (int16_t)(AU_A_DRAW + b);
        return n;
    case AU_WINDMILL:
        for (int r = 0; r < AU_NUM_REGIONS; r++) out[n++] = (int16_t)(AU_A_WINDMILL + r);
        return n;
    case AU_ACTION: return action_options(c, g, seat, out);
    case AU_PLACE: return place_options(c, g, seat, out);
    case AU_TAKE_BACK: {
        int plane = g->plane[seat];
        for (int i = 0; i < c->region_num_locations[plane]; i++) {
            int loc = c->region_locations[plane][i];
            if (g->rangers[loc][seat] > 0) out[n++] = (int16_t)(AU_A_TAKE_BACK + loc);
        }
        out[n++] = AU_A_DONE_TAKING;
        return n;
    }
    case AU_MOVE_TO:
        for (int loc = 0; loc < c->num_locations; loc++)
            if (loc != g->move_from && is_open_to(g, loc, seat))
                out[n++] = (int16_t)(AU_A_MOVE_TO + loc);
        return n;
    default: return 0;
    }
}

/* -- projects and the windmill -------------------------------------------------------------- */
/* Add a scoring to the record (a game stepped without a record keeps none). */
static void add_scoring(AuRecord *r, int kind, int region, int value, int initiator, int n,
                        const int *points) {
    if (!r || r->n_scorings >= AU_MAX_SCORINGS) return; /* the bound holds: see australia.h */
    AuScoring *scoring = &r->scorings[r->n_scorings++];
    scoring->kind = (int8_t)kind;
    scoring->region = (int8_t)region;
    scoring->value = (int16_t)value;
    scoring->initiator = (int8_t)initiator;
    for (int s = 0; s < n; s++) scoring->points[s] = points[s];
}

static void windmill_scoring(AuGame *g, AuRecord *r) { /* W5, W6 */
    int n = seats(g), counts[AU_MAX_PLAYERS] = {0}, first[AU_MAX_PLAYERS];
    int points[AU_MAX_PLAYERS] = {0};
    for (int s = 0; s < n; s++) first[s] = AU_MAX_TRACK;
    for (int i = 0; i < g->ranger_track_size; i++) {
        int s = g->ranger_track[i];
        counts[s] += 1;
        if (first[s] > i) first[s] = i;
    }
    int prize = g->windmill_value, used[AU_MAX_PLAYERS] = {0};
    for (int place = 0; place < 3; place++) { /* most rangers first, ties to the higher ranger */
        int best = -1;
        for (int s = 0; s < n; s++) {
            if (used[s] || counts[s] == 0) continue;
            if (best < 0 || counts[s] > counts[best] ||
                (counts[s] == counts[best] && first[s] < first[best]))
                best = s;
        }
        if (best < 0) break;
        used[best] = 1;
        points[best] = prize;
        prize /= 2;
    }
    for (int s = 0; s < n; s++) g->vp[s] += points[s];
    add_scoring(r, AU_WINDMILL_SCORING, -1, g->windmill_value, -1, n, points);
    g->windmill_track_size = 0;
    int half = g->ranger_track_size / 2;
    for (int i = 0; i < half; i++) g->supply[g->ranger_track[i]] += 1;
    memmove(g->ranger_track, g->ranger_track + half, (size_t)(g->ranger_track_size - half));
    g->ranger_track_size = (int8_t)(g->ranger_track_size - half);
}

static void score_project(const AuConfig *c, AuGame *g, int region, int kind, int value,
                          int initiator, AuRecord *r) {
    /* P3: 3 VP to the initiator, 1 per ranger (2 on a ship) */
    int n = seats(g), points[AU_MAX_PLAYERS] = {0};
    points[initiator] += INITIATOR_VP;
    for (int i = 0; i < c->region_num_locations[region]; i++) {
        int loc = c->region_locations[region][i], weight = c->location_ship[loc] ? 2 : 1;
        for (int s = 0; s < n; s++) points[s] += weight * g->rangers[loc][s];
    }
    for (int s = 0; s < n; s++) g->vp[s] += points[s];
    add_scoring(r, kind, region, value, initiator, n, points);
    if (c->full_game) {
        g->windmill_track[g->windmill_track_size++] = (int8_t)value; /* W4 */
        if (g->windmill_track_size >= c->tile_areas) windmill_scoring(g, r); /* W5 */
    }
}

/* P4 over the regions an action touched (bit r of ``touched`` for region r): the initiator's
 * plane region first, then region order; conservation before industrialization. */
static void check_projects(const AuConfig *c, AuGame *g, int initiator, uint32_t touched,
                           AuRecord *r) {
    int plane = g->plane[initiator];
    uint32_t rest = touched;
    if (plane >= 0 && (touched >> plane & 1u)) rest &= ~(1u << plane);
    else plane = -1;
    for (int k = -1; k < AU_NUM_REGIONS; k++) {
        int region;
        if (k < 0) {
            if (plane < 0) continue;
            region = plane;
        } else {
            if (!rest) break;
            region = __builtin_ctz(rest);
            rest &= rest - 1;
        }
        if (conservation_complete(c, g, region)) {
            g->conservation[region] = 0;
            score_project(c, g, region, AU_CONSERVATION, 0, initiator, r);
        }
        if (industrialization_complete(c, g, region)) {
            int value = g->tile_value[region];
            g->tile_value[region] = 0;
            score_project(c, g, region, AU_INDUSTRIALIZATION, value, initiator, r);
        }
    }
}

static uint32_t location_touches(const AuConfig *c, int loc) { /* the regions it borders */
    uint32_t touched = 0;
    for (int i = 0; i < c->location_num_regions[loc]; i++)
        touched |= 1u << c->location_regions[loc][i];
    return touched;
}

/* -- turns ---------------------------------------------------------------------------------- */
static void begin_turn(AuGame *g, int seat) { /* T1 */
    if (seat == 0) g->round += 1;
    g->turn += 1;
    g->current = (int8_t)seat;
    g->actions_left = 2;
    g->phase = AU_ACTION;
}

static void end_turn(const AuConfig *c, AuGame *g, AuRecord *r) { /* T3 / E1 / E4 */
    int last = g->current == g->num_players - 1;
    if (last && (g->end_triggered || g->round >= c->max_rounds)) {
        if (c->full_game) windmill_scoring(g, r); /* E2 */
        g->phase = AU_OVER;
        return;
    }
    begin_turn(g, (g->current + 1) % g->num_players);
}

static void action_done(const AuConfig *c, AuGame *g, AuRecord *r) { /* T1/T2, E1 */
    g->actions_left -= 1;
    if (!any_stack(g))
        for (int s = 0; s < seats(g); s++) {
            int held = 0;
            for (int t = 0; t < AU_NUM_CARD_TYPES; t++) held += g->hands[s][t];
            if (held == 0) {
                g->end_triggered = 1;
                break;
            }
        }
    g->phase = AU_ACTION;
    if (g->actions_left <= 0) {
        g->actions_left = 0;
        if (!move_sources(c, g, g->current, NULL)) end_turn(c, g, r);
    }
}

/* -- applying an action ---------------------------------------------------------------------- */
static void draw_card(AuGame *g, int seat, int back, AuRecord *r) { /* S4, A4 */
    int colour = g->stacks[back][--g->stack_size[back]];
    g->hands[seat][back * AU_NUM_COLOURS + colour] += 1;
    if (r) r->drawn = (int8_t)colour;
}

static void setup_draw(const AuConfig *c, AuGame *g, int back, AuRecord *r) { /* S4 */
    draw_card(g, g->current, back, r);
    g->setup_draws += 1;
    if (g->setup_draws < AU_HAND_SIZE * g->num_players) {
        g->current = (int8_t)(g->setup_draws % g->num_players);
    } else if (c->full_game) {
        g->current = 0;
        g->phase = AU_WINDMILL; /* S6 */
    } else {
        begin_turn(g, 0);
    }
}

/* A1, W2; P5 via P4 */
static void fly(const AuConfig *c, AuGame *g, int seat, int region, AuRecord *r) {
    g->plane[seat] = (int8_t)region;
    if (g->tile_value[region] > 0 && !g->tile_up[region]) {
        g->tile_up[region] = 1;
        int value = g->tile_value[region];
        if (r) r->revealed = (int8_t)value;
        if (c->full_game && c->windmill_tiles[value - AU_MIN_TILE]) { /* W2 */
            g->windmill_region = (int8_t)region;
            int next = g->windmill_value + 1;
            g->windmill_value = (int16_t)(next < c->windmill_max ? next : c->windmill_max);
            if (r) r->windmill_to = (int8_t)region;
        }
    }
    check_projects(c, g, seat, 1u << region, r); /* P5: only this region can change */
    action_done(c, g, r);
}

/* A2 done, A4 */
static void finish_play(const AuConfig *c, AuGame *g, uint32_t touched, AuRecord *r) {
    g->pending_card = -1;
    g->pending_paid = 0;
    g->rangers_left = 0;
    g->track_used = 0;
    check_projects(c, g, g->current, touched, r);
    if (any_stack(g)) g->phase = AU_DRAW;
    else action_done(c, g, r);
}

static void finish_take_back(const AuConfig *c, AuGame *g, AuRecord *r) {
    g->taken = 0;
    int plane = g->plane[g->current];
    uint32_t touched = 0;
    for (int i = 0; i < c->region_num_locations[plane]; i++)
        touched |= location_touches(c, c->region_locations[plane][i]);
    check_projects(c, g, g->current, touched, r);
    action_done(c, g, r);
}

static void take_one(const AuConfig *c, AuGame *g, int loc, AuRecord *r) { /* A5 */
    int seat = g->current;
    g->rangers[loc][seat] -= 1;
    g->supply[seat] += 1;
    g->taken += 1;
    if (g->taken >= MAX_TAKE_BACK || !own_in_plane_region(c, g, seat)) finish_take_back(c, g, r);
}

static void act(const AuConfig *c, AuGame *g, int action, AuRecord *r) {
    int seat = g->current;
    if (action == AU_A_END_TURN) {
        end_turn(c, g, r);
    } else if (action < AU_A_PLAY) {
        fly(c, g, seat, action - AU_A_FLY, r);
    } else if (action < AU_A_PLACE) {
        int paying = action >= AU_A_PLAY_PAYING;
        int card = action - (paying ? AU_A_PLAY_PAYING : AU_A_PLAY), back = card / AU_NUM_COLOURS;
        g->hands[seat][card] -= 1;
        g->played[card] += 1;
        g->dollars[seat] += BACK_DOLLARS[back]; /* A2 */
        if (paying) g->dollars[seat] -= RECOLOUR_COST; /* D1 */
        g->pending_card = (int8_t)card;
        g->pending_paid = (int8_t)paying;
        g->rangers_left = (int8_t)BACK_RANGERS[back];
        g->track_used = 0;
        g->phase = AU_PLACE;
    } else if (action >= AU_A_TAKE_BACK && action < AU_A_DONE_TAKING) {
        g->taken = 0;
        g->phase = AU_TAKE_BACK;
        take_one(c, g, action - AU_A_TAKE_BACK, r);
    } else if (action >= AU_A_MOVE_FROM && action < AU_A_MOVE_TO) {
        g->dollars[seat] -= MOVE_COST; /* D2 */
        g->move_from = (int8_t)(action - AU_A_MOVE_FROM);
        g->phase = AU_MOVE_TO;
    }
}

static void place(const AuConfig *c, AuGame *g, int action, AuRecord *r) {
    int seat = g->current;
    uint32_t touched = 0;
    if (action >= AU_A_PLACE && action < AU_A_NO_RANGERS) { /* A3 */
        int offset = action - AU_A_PLACE;
        int count = offset / AU_MAX_LOCATIONS + 1, loc = offset % AU_MAX_LOCATIONS;
        g->rangers[loc][seat] += (int8_t)count;
        g->supply[seat] -= (int8_t)count;
        g->rangers_left -= (int8_t)count;
        touched = location_touches(c, loc);
        finish_play(c, g, touched, r);
    } else if (action == AU_A_NO_RANGERS) {
        g->vp[seat] += NO_RANGER_VP; /* A2 (b) */
        finish_play(c, g, touched, r);
    } else if (action == AU_A_STOP_PLACING) {
        finish_play(c, g, touched, r);
    } else { /* W3: the topmost empty areas, one ranger each */
        int count = action - AU_A_RANGER_TRACK + 1;
        for (int i = 0; i < count; i++) g->ranger_track[g->ranger_track_size++] = (int8_t)seat;
        g->supply[seat] -= (int8_t)count;
        g->rangers_left -= (int8_t)count;
        g->track_used = 1;
        if (!can_place_more(c, g, seat)) finish_play(c, g, touched, r);
    }
}

static void move_to(const AuConfig *c, AuGame *g, int loc, AuRecord *r) { /* D2 */
    int seat = g->current;
    g->rangers[g->move_from][seat] -= 1;
    g->rangers[loc][seat] += 1;
    uint32_t touched =
        location_touches(c, g->move_from) | location_touches(c, loc);
    g->move_from = -1;
    check_projects(c, g, seat, touched, r);
    g->phase = AU_ACTION;
    if (g->actions_left == 0 && !move_sources(c, g, seat, NULL)) end_turn(c, g, r);
}

int au_apply(AuGame *g, int action, AuRecord *r) {
    int16_t legal[AU_NUM_ACTIONS];
    int n = au_legal_actions(g, legal), found = 0;
    for (int i = 0; i < n && !found; i++) found = legal[i] == action;
    if (!found) return AU_ILLEGAL;
    au_apply_legal(g, action, r);
    return AU_OK;
}

void au_apply_legal(AuGame *g, int action, AuRecord *r) {
    au_apply_legal_with(g, &g->config, action, r);
}

void au_apply_legal_with(AuGame *g, const AuConfig *c, int action, AuRecord *r) {
    int seat = g->current;
    if (r) {
        r->turn = g->turn;
        r->player = (int8_t)seat;
        r->action = (int16_t)action;
        r->drawn = r->revealed = r->windmill_to = -1;
        r->n_scorings = 0;
    }
    switch (g->phase) {
    case AU_SETUP_DRAW: setup_draw(c, g, action - AU_A_DRAW, r); break;
    case AU_WINDMILL:
        g->windmill_region = (int8_t)(action - AU_A_WINDMILL); /* S6 */
        begin_turn(g, 0);
        break;
    case AU_ACTION: act(c, g, action, r); break;
    case AU_PLACE: place(c, g, action, r); break;
    case AU_DRAW:
        draw_card(g, seat, action - AU_A_DRAW, r);
        action_done(c, g, r);
        break;
    case AU_TAKE_BACK:
        if (action == AU_A_DONE_TAKING) finish_take_back(c, g, r);
        else take_one(c, g, action - AU_A_TAKE_BACK, r);
        break;
    case AU_MOVE_TO: move_to(c, g, action - AU_A_MOVE_TO, r); break;
    default: break;
    }
    g->step += 1;
    if (r) {
        r->step = g->step;
        r->game_over = g->phase == AU_OVER;
    }
}

/* -- setup (setup.py) ------------------------------------------------------------------------ */
void au_new_game(AuGame *g, const AuConfig *config, int num_players, const Rng *rng) {
    memset(g, 0, sizeof *g);
    g->config = *config;
    g->rng = *rng;
    g->num_players = (int8_t)num_players;
    int8_t tiles[AU_NUM_REGIONS];
    int size = 0;
    for (int v = 0; v < AU_NUM_TILE_VALUES; v++) /* data.tile_list: value order */
        for (int i = 0; i < config->tiles[v]; i++) tiles[size++] = (int8_t)(AU_MIN_TILE + v);
    shuffle_i8(&g->rng, tiles, size); /* N2 */
    for (int back = 0; back < AU_NUM_BACKS; back++) { /* N3 */
        int8_t cards[AU_MAX_STACK];
        int count = 0;
        for (int c = 0; c < AU_NUM_COLOURS; c++)
            for (int i = 0; i < config->cards[back][c]; i++) cards[count++] = (int8_t)c;
        shuffle_i8(&g->rng, cards, count);
        int cut = count - config->stack_cards;
        memcpy(g->set_aside[back], cards, (size_t)cut);
        memcpy(g->stacks[back], cards + cut, (size_t)config->stack_cards);
        g->aside_size[back] = (int16_t)cut;
        g->stack_size[back] = config->stack_cards;
    }
    g->phase = AU_SETUP_DRAW;
    for (int s = 0; s < num_players; s++) {
        g->supply[s] = config->rangers;
        g->plane[s] = -1;
    }
    memcpy(g->tile_value, tiles, sizeof g->tile_value);
    memset(g->conservation, 1, sizeof g->conservation);
    g->pending_card = -1;
    g->move_from = -1;
    g->windmill_region = -1;
    g->windmill_value = config->full_game ? config->windmill_start : 0;
}

unsigned au_winners(const AuGame *g, int *n_winners) { /* rules.outcome: E3 */
    int totals[AU_MAX_PLAYERS], best = 0, richest = 0, n = g->num_players;
    for (int p = 0; p < n; p++) {
        totals[p] = g->vp[p] + g->dollars[p];
        if (p == 0 || totals[p] > best) best = totals[p];
    }
    for (int p = 0; p < n; p++)
        if (totals[p] == best && g->dollars[p] > richest) richest = g->dollars[p];
    unsigned winners = 0;
    *n_winners = 0;
    for (int p = 0; p < n; p++)
        if (totals[p] == best && g->dollars[p] == richest) {
            winners |= 1u << p;
            (*n_winners)++;
        }
    return winners;
}
