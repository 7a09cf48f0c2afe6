/* Australia's bots in C: ``random`` (airships_env.policy.RandomPolicy), ``greedy`` and
 * ``heuristic`` (agents/bots/australia.py), a line-by-line translation making the same decisions:
 * the same values in the same floating-point operation order (the extension is built with
 * -ffp-contract=off), the same tie-breaks, and the same draws from the bot's own generator.
 *
 * Greedy and heuristic look one action ahead on a re-deal of what the seat's view hides
 * (view.determinize, au_determinize of australia_view.c, the world's generator left unseeded: all
 * chance is at setup, so the look-ahead never draws from it). The hidden parts enter
 * only as sorted multisets, which the view holds too, so the decision depends on the view alone:
 * tests/native/test_australia_bots.py re-deals them at each decision and the choice never
 * changes. */
#include <string.h>

#include "australia.h"

#define TIE 1e-9

static int wealth(const AuGame *g, int seat) { return g->vp[seat] + g->dollars[seat]; } /* E3 */

static int is_open_to(const AuGame *g, int loc, int seat) { /* rules.is_open_to */
    for (int s = 0; s < g->num_players; s++)
        if (s != seat && g->rangers[loc][s] > 0) return 0;
    return 1;
}

static int inner(const AuGame *g, int seat) { /* _INNER: the same seat's action goes on */
    return (g->phase == AU_PLACE || g->phase == AU_TAKE_BACK || g->phase == AU_MOVE_TO) &&
           g->current == seat;
}

/* A card of the seat's hand fits ``region`` and a location there is open to it. */
static int fits_and_open(const AuGame *g, int seat, int region) {
    const AuConfig *c = &g->config;
    int colour = c->region_colour[region], fits = 0, open = 0;
    for (int b = 0; b < AU_NUM_BACKS; b++) fits |= g->hands[seat][b * AU_NUM_COLOURS + colour] > 0;
    for (int i = 0; i < c->region_num_locations[region]; i++)
        open |= is_open_to(g, c->region_locations[region][i], seat);
    return fits && open;
}

/* -- greedy ---------------------------------------------------------------------------------- */
static double greedy_value(const AuGame *world, int seat, int action, int depth) {
    AuGame after = *world;
    au_apply_legal(&after, action, NULL);
    double gained = (double)(wealth(&after, seat) - wealth(world, seat));
    if (depth > 1 && inner(&after, seat)) {
        int16_t legal[AU_NUM_ACTIONS];
        int n_legal = au_legal_actions(&after, legal);
        double best = 0.0;
        for (int k = 0; k < n_legal; k++) {
            double value = greedy_value(&after, seat, legal[k], depth - 1);
            if (k == 0 || value > best) best = value;
        }
        gained += best;
    }
    return gained;
}

static double greedy_bonus(const AuGame *view, int seat, int action) {
    if (action >= AU_A_FLY && action < AU_A_PLAY)
        return fits_and_open(view, seat, action - AU_A_FLY) ? 0.5 : 0.0;
    if (action >= AU_A_TAKE_BACK && action < AU_A_DONE_TAKING && view->supply[seat] > 0)
        return -0.5; /* take back only when out of rangers */
    return 0.0;
}

/* -- heuristic ------------------------------------------------------------------------------- */
static double position(const AuGame *g, int seat) {
    const AuConfig *c = &g->config;
    int n = g->num_players, others = 0;
    for (int s = 0; s < n; s++)
        if (s != seat) others += wealth(g, s);
    double value = (double)wealth(g, seat) - (double)others / (double)(n - 1);
    int on_track = 0;
    for (int i = 0; i < g->ranger_track_size; i++) on_track += g->ranger_track[i] == seat;
    value += 0.2 * g->supply[seat] + 0.3 * on_track;
    for (int region = 0; region < AU_NUM_REGIONS; region++) {
        int count = 0, mine = 0, empty = 0;
        for (int i = 0; i < c->region_num_locations[region]; i++) {
            int loc = c->region_locations[region][i], total = 0;
            for (int s = 0; s < n; s++) total += g->rangers[loc][s];
            count += total;
            mine += g->rangers[loc][seat] * (c->location_ship[loc] ? 2 : 1);
            empty += total == 0;
        }
        int tile = g->tile_value[region];
        int open_projects =
            g->conservation[region] + (tile && (!g->tile_up[region] || count <= tile) ? 1 : 0);
        if (!open_projects) continue;
        value += 0.4 * mine * open_projects;
        if (g->conservation[region] && empty == 1) value -= 1.0;
        if (tile && g->tile_up[region] && 1 <= tile - count && tile - count <= 2) value -= 0.6;
    }
    if (g->phase != AU_OVER && g->current == seat && g->actions_left > 0) {
        double chance = g->plane[seat] >= 0 && fits_and_open(g, seat, g->plane[seat]) &&
                                g->supply[seat] > 0
                            ? 1.0
                            : 0.0;
        value += 0.5 * chance;
    }
    return value;
}

static double judge(const AuGame *world, int seat, int action, int depth) {
    AuGame after = *world;
    au_apply_legal(&after, action, NULL);
    if (depth > 1 && inner(&after, seat)) {
        int16_t legal[AU_NUM_ACTIONS];
        int n_legal = au_legal_actions(&after, legal);
        double best = 0.0;
        for (int k = 0; k < n_legal; k++) {
            double value = judge(&after, seat, legal[k], depth - 1);
            if (k == 0 || value > best) best = value;
        }
        return best;
    }
    return position(&after, seat);
}

/* -- the decision ---------------------------------------------------------------------------- */
int au_bot_action(const AuGame *g, int kind, Rng *rng) {
    int16_t legal[AU_NUM_ACTIONS];
    int n_legal = au_legal_actions(g, legal);
    if (kind == AU_BOT_RANDOM) return legal[uniform_below(rng, (uint64_t)n_legal)];
    if (n_legal == 1) return legal[0];
    int seat = g->current;
    if (g->phase == AU_SETUP_DRAW || g->phase == AU_DRAW) { /* choose_stack */
        int wanted = AU_A_DRAW + (g->supply[seat] >= 6 ? 0 : AU_NUM_BACKS - 1);
        for (int k = 0; k < n_legal; k++)
            if (legal[k] == wanted) return wanted;
        return legal[uniform_below(rng, (uint64_t)n_legal)];
    }
    AuGame world;
    au_determinize(g, seat, rng, &world, 0); /* view.determinize with the bot's generator */
    double values[AU_NUM_ACTIONS], best = 0.0;
    for (int k = 0; k < n_legal; k++) {
        values[k] = kind == AU_BOT_GREEDY
                        ? greedy_value(&world, seat, legal[k], 2) + greedy_bonus(g, seat, legal[k])
                        : judge(&world, seat, legal[k], 2);
        if (k == 0 || values[k] > best) best = values[k];
    }
    int16_t choices[AU_NUM_ACTIONS];
    int n_choices = 0;
    for (int k = 0; k < n_legal; k++)
        if (values[k] >= best - TIE) choices[n_choices++] = legal[k];
    return choices[uniform_below(rng, (uint64_t)n_choices)];
}
