/* Airships as a game of the generic information-set MCTS (gsearch.h): its rules, public view,
 * determinization and bots (rules.c, bots.c) behind the GsGame functions.
 *
 * Why one tree for every seat is sound here: in Airships nobody holds private information (V2:
 * the deck order, the cards under the stack tops and the left-out airships are hidden from every
 * player), so every seat's information set is the same public view, and a determinization is a
 * sample of the chance still to come. The search's root is that public view; every
 * determinization re-deals its hidden cards from the search's generator, and its dice come from a
 * generator seeded from it (game_determinize). With keyed dice (the context's ``keyed_dice``, set
 * for the network search's paired worlds) each turn's dice come from a generator keyed by the
 * world, the seat to act and that seat's turns since the determinization (key_dice).
 *
 * What the game gives the search: ``rank``, the heuristic bot's values ordering the legal
 * actions, one per target (between the exchange variants of one target only the odds differ, and
 * the heuristic already weighs them); bots 1..3 (random, greedy, heuristic: BOT_*) for the
 * rollouts; a result per seat of its share of the win plus ``margin_weight * tanh(margin / 10)``,
 * the margin over the best other seat; a horizon: a world stops after SEARCH_MAX_ACTIONS
 * actions since its determinization and is judged by the scores so far; and, with the context's
 * ``track_luck`` (the network search's ``luck``), each seat's luck in its rolls (add_luck,
 * as_luck).
 */
#include <math.h>
#include <string.h>

#include "core.h"
#include "gsearch.h"

static int as_current(const void *s) { return ((const SearchWorld *)s)->game.current_player; }
static int as_players(const void *s) { return ((const SearchWorld *)s)->game.num_players; }

static int as_terminal(const void *s) {
    const SearchWorld *w = s;
    return w->game.phase == GAME_OVER || w->steps >= SEARCH_MAX_ACTIONS;
}

/* The legal actions as the core lists them (ascending). */
static int legal_list(const SearchWorld *w, int8_t *out) {
    return game_legal_list(&w->game, w->context->cards, w->context->options, out);
}

static int as_legal(const void *s, int16_t *out) {
    int8_t legal[NUM_ACTIONS];
    int n = legal_list(s, legal);
    for (int i = 0; i < n; i++) out[i] = legal[i];
    return n;
}

/* Keyed dice: the world's generator for the seat to act's current turn, a PCG64 state drawn by
 * splitmix64 from the world's dice seed, the seat and the seat's turns so far. The dice keep
 * their distribution; what changes is that two worlds from one determinization roll the same
 * faces in a seat's k-th turn whatever happened before it (a draw more or less in one of them
 * does not shift every later roll to the other seat). */
static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void key_dice(SearchWorld *w) {
    int seat = w->game.current_player;
    uint64_t x = w->dice_seed ^ ((uint64_t)(seat + 1) << 48) ^ (uint64_t)w->turns_of[seat];
    Rng *rng = &w->game.rng;
    rng->state_hi = splitmix64(&x);
    rng->state_lo = splitmix64(&x);
    rng->inc_hi = splitmix64(&x);
    rng->inc_lo = splitmix64(&x) | 1u;
    rng->has_uint32 = 0;
    rng->uinteger = 0;
    rng->present = 1;
    w->keyed_turn = w->game.turn;
}

/* Tracked luck: what ``seat``'s roll in the attempt of ``record`` (odds ``odds``, taken before
 * the roll) added to its luck terms: (reached - odds) and (one short - odds of one short), plain
 * and weighted by the target's face value (an airship's stars, a phase's low value, an
 * expansion's stars and one for what it adds). Each has mean zero given the state before the
 * roll, whatever anyone chooses: a control variate for the search's results. */
static void add_luck(SearchWorld *w, int seat, const Odds *odds, const Record *record) {
    const Cards *cards = w->context->cards;
    double points = record->target_kind == ACQUIRED_AIRSHIP ? cards->airships[record->target_card].stars
                    : record->target_kind == ACQUIRED_PHASE ? cards->phases[record->target_card].low
                                                            : cards->expansions[record->target_card].stars + 1.0;
    double denominator = (double)odds->denominator;
    double reached = (record->total >= record->needed) - odds->at_least / denominator;
    double one_short = (record->total == record->needed - 1) - odds->chip_decides / denominator;
    double *luck = w->luck[seat];
    luck[0] += reached;
    luck[1] += one_short;
    luck[2] += points * reached;
    luck[3] += points * one_short;
}

static int as_apply(void *s, int action) {
    SearchWorld *w = s;
    const SearchContext *c = w->context;
    Record record;
    Odds odds;
    int seat = w->game.current_player;
    int rolls = c->track_luck &&
                game_attempt_odds(&w->game, c->cards, c->options, c->cache, action, seat, &odds);
    w->steps++;
    int code = game_apply(&w->game, c->cards, c->options, action, NULL, NULL, &record);
    if (code == 0 && rolls && record.has_attempt) add_luck(w, seat, &odds, &record);
    if (code == 0 && w->context->keyed_dice && w->game.turn != w->keyed_turn &&
        w->game.phase != GAME_OVER) { /* a new turn: its seat's next key */
        w->turns_of[w->game.current_player] += 1;
        key_dice(w);
    }
    return code;
}

/* Every seat's result; a world the horizon stopped is judged by the scores so far. */
static void as_results(const void *s, double *out) {
    const SearchWorld *w = s;
    const Game *game = &w->game;
    int16_t scores[MAX_PLAYERS];
    uint8_t winners = 0;
    int n = game->num_players;
    if (game->phase == GAME_OVER) {
        memcpy(scores, game->final_scores, sizeof scores);
        winners = game->winners_mask;
    } else {
        game_scores(game, w->context->cards, scores);
        int best = -32768;
        for (int p = 0; p < n; p++) best = scores[p] > best ? scores[p] : best;
        for (int p = 0; p < n; p++)
            if (scores[p] == best) winners |= (uint8_t)(1u << p);
    }
    int n_winners = 0;
    for (int p = 0; p < n; p++) n_winners += winners >> p & 1u;
    for (int p = 0; p < n; p++) {
        int best_other = -32768;
        for (int q = 0; q < n; q++)
            if (q != p && scores[q] > best_other) best_other = scores[q];
        double win = (winners >> p & 1u) ? 1.0 / n_winners : 0.0;
        out[p] = win + w->context->margin_weight * tanh((scores[p] - best_other) / 10.0);
    }
}

/* Every seat sees the same public view: ``seat`` does not matter. */
static void as_determinize(const void *root, int seat, Rng *rng, void *out) {
    const SearchWorld *r = root;
    SearchWorld *w = out;
    game_determinize(&w->game, &r->game, r->context->cards, rng);
    w->steps = 0;
    w->context = r->context;
    if (r->context->track_luck) memset(w->luck, 0, sizeof w->luck);
    if (r->context->keyed_dice) {
        w->dice_seed = rng_next64(rng);
        memset(w->turns_of, 0, sizeof w->turns_of);
        key_dice(w);
    }
}

/* Bot ``bot`` (BOT_RANDOM, BOT_GREEDY, BOT_HEURISTIC) for the seat to act; a forced action is
 * taken without asking (so a random bot draws only for a choice). */
static int as_bot(const void *s, int bot, Rng *rng) {
    const SearchWorld *w = s;
    const SearchContext *c = w->context;
    int8_t legal[NUM_ACTIONS];
    int n = legal_list(w, legal);
    if (n == 1) return legal[0];
    switch (bot) {
    case BOT_RANDOM:
        return legal[uniform_below(rng, (uint64_t)n)];
    case BOT_GREEDY:
        return bot_greedy(&w->game, c->cards, c->options, c->cache, &c->greedy, legal, n);
    default:
        return bot_heuristic(&w->game, c->cards, c->options, c->cache, &c->heuristic, legal, n);
    }
}

/* The legal actions ranked by the heuristic's values, best first (ties: action order), one per
 * target (the best of its exchange variants). */
static int as_rank(const void *s, const int16_t *legal16, int n_legal, int16_t *out) {
    const SearchWorld *w = s;
    const SearchContext *c = w->context;
    int8_t legal[NUM_ACTIONS] = {0};
    for (int i = 0; i < n_legal; i++) legal[i] = (int8_t)legal16[i];
    double values[NUM_ACTIONS];
    bot_heuristic_values(&w->game, c->cards, c->options, c->cache, &c->heuristic, legal, n_legal,
                         values);
    int best_of_target[NUM_TARGETS];
    for (int t = 0; t < NUM_TARGETS; t++) best_of_target[t] = -1;
    int keep[NUM_ACTIONS], n = 0;
    for (int i = 0; i < n_legal; i++) {
        if (legal[i] < NUM_ATTEMPTS) {
            int t = legal[i] / NUM_VARIANTS;
            int at = best_of_target[t];
            if (at >= 0) {
                if (values[i] > values[keep[at]]) keep[at] = i;
                continue;
            }
            best_of_target[t] = n;
        }
        keep[n++] = i;
    }
    for (int i = 1; i < n; i++) { /* insertion sort, descending by value, stable */
        int v = keep[i], j = i - 1;
        while (j >= 0 && values[keep[j]] < values[v]) {
            keep[j + 1] = keep[j];
            j--;
        }
        keep[j + 1] = v;
    }
    for (int i = 0; i < n; i++) out[i] = legal[keep[i]];
    return n;
}

static int as_observation_size(const void *s) {
    return obs_size(((const SearchWorld *)s)->game.num_players);
}

/* ``seat``'s observation of the world (the env's, obs.c): what the network of ``net`` reads. */
static void as_observe(const void *s, int seat, float *out) {
    const SearchWorld *w = s;
    obs_encode(&w->game, w->context->cards, w->context->options, w->context->cache, seat, out);
}

void search_world(SearchWorld *world, const Game *game, SearchContext *context) {
    game_public_view(&world->game, game, context->cards);
    world->steps = 0;
    world->context = context;
    world->dice_seed = 0;
    world->keyed_turn = game->turn;
    memset(world->turns_of, 0, sizeof world->turns_of);
    memset(world->luck, 0, sizeof world->luck);
}

/* Each seat's luck terms less the mean of the other seats' (a seat's luck is the others' bad
 * luck), seat by seat. */
static void as_luck(const void *s, double *out) {
    const SearchWorld *w = s;
    int n = w->game.num_players;
    for (int p = 0; p < n; p++)
        for (int k = 0; k < SEARCH_LUCK_TERMS; k++) {
            double others = 0.0;
            for (int q = 0; q < n; q++)
                if (q != p) others += w->luck[q][k];
            out[p * SEARCH_LUCK_TERMS + k] = w->luck[p][k] - others / (n - 1);
        }
}

const GsGame GS_AIRSHIPS = {
    .state_size = sizeof(SearchWorld),
    .max_actions = NUM_ACTIONS,
    .current_player = as_current,
    .num_players = as_players,
    .is_terminal = as_terminal,
    .legal_actions = as_legal,
    .apply = as_apply,
    .results = as_results,
    .determinize = as_determinize,
    .bot_action = as_bot,
    .rank = as_rank,
    .observation_size = as_observation_size,
    .observe = as_observe,
    .luck_terms = SEARCH_LUCK_TERMS,
    .luck = as_luck,
};
