/* The greedy and heuristic bots of agents/bots/, making the same choice in the same state.
 *
 * Each function follows its Python original line by line, with the same floating-point
 * operations in the same order (sums left to right, as agents/bots/common.py's add_up; ties
 * resolved by the first best in the same order; max/min returning the first of equals), so the
 * differential tests can require identical decisions. Only public information is read (the
 * hidden deck order, the cards under the stack tops and the left-out airships never are). */
#include <math.h>
#include <string.h>

#include "core.h"

enum { KIND_EXPANSION = 0, KIND_AIRSHIP = 1, KIND_PHASE = 2 };

static int target_kind(int target) {
    if (target < FIRST_STACK_TARGET) return KIND_EXPANSION;
    return target < FIRST_PHASE_TARGET ? KIND_AIRSHIP : KIND_PHASE;
}

/* The card (or phase) index of a target that holds one. */
static int target_card(const Game *game, int target) {
    if (target < FIRST_STACK_TARGET) return game->board[target];
    if (target < FIRST_PHASE_TARGET) {
        int s = target - FIRST_STACK_TARGET;
        return game->stacks[s][game->stack_len[s] - 1];
    }
    return target - FIRST_PHASE_TARGET;
}

static double pymax(double a, double b) { return b > a ? b : a; } /* Python's max(a, b) */
static double pymin(double a, double b) { return b < a ? b : a; } /* Python's min(a, b) */

static double odds_value(uint32_t count, uint32_t denominator) {
    return (double)count / (double)denominator;
}

/* -- the company profile (agents/bots/common.py: profile) ---------------------------------- */
static const ProfileEntry *profile(ShapeCache *cache, const Cards *cards, int needs_colour,
                                   const int8_t *slots, int era) {
    Pool pool;
    pool_build(&pool, cards, era, slots); /* zeroed whole, padding included: comparable bytes */
    uint64_t words[(sizeof pool + 7) / 8] = {0};
    memcpy(words, &pool, sizeof pool);
    uint64_t hash = 0x9E3779B97F4A7C15ull ^ (uint64_t)(needs_colour ? 1 : 0);
    for (size_t i = 0; i < sizeof words / 8; i++) {
        hash ^= words[i];
        hash *= 0xBF58476D1CE4E5B9ull;
        hash ^= hash >> 31;
    }
    ProfileEntry *entry = &cache->profiles[hash >> (64 - PROFILE_CACHE_BITS)];
    if (entry->used && entry->needs_colour == (needs_colour ? 1 : 0) &&
        memcmp(&entry->pool, &pool, sizeof pool) == 0)
        return entry;
    for (int i = 0; i < NUM_AIRSHIPS + NUM_PHASES; i++) {
        int cls = i < NUM_AIRSHIPS ? cards->airship_class[i] : cards->phase_class[i - NUM_AIRSHIPS];
        const int8_t *cost = cards->class_cost[cls];
        int8_t offered[NUM_VARIANTS];
        pool_offers(&pool, cost, offered);
        int bonus = pool_engine_bonus(&pool, cost, needs_colour);
        double best = 0.0, best_chip = 0.0;
        for (int v = 0; v < NUM_VARIANTS; v++) {
            if (!offered[v]) continue;
            Odds odds = odds_for(cache, &pool.hands[v], cost, cards->class_needed[cls], bonus, 1);
            best = pymax(best, odds_value(odds.at_least, odds.denominator));
            best_chip = pymax(best_chip, odds_value(odds.with_chip, odds.denominator));
        }
        if (i < NUM_AIRSHIPS) {
            entry->airship[i] = best;
            entry->airship_chip[i] = best_chip;
        } else {
            entry->phase[i - NUM_AIRSHIPS] = best;
            entry->phase_chip[i - NUM_AIRSHIPS] = best_chip;
        }
    }
    entry->pool = pool;
    entry->needs_colour = (int8_t)(needs_colour ? 1 : 0);
    entry->used = 1;
    return entry;
}

/* The odds of an offered attempt for ``seat`` (0 if not offered). */
static int attempt_odds(const Game *game, const Cards *cards, const Options *options,
                        ShapeCache *cache, int action, int seat, double *success,
                        double *chip_decides, double *with_chip) {
    Odds odds;
    if (!game_attempt_odds(game, cards, options, cache, action, seat, &odds)) return 0;
    *success = odds_value(odds.at_least, odds.denominator);
    *chip_decides = odds_value(odds.chip_decides, odds.denominator);
    *with_chip = odds_value(odds.with_chip, odds.denominator);
    return 1;
}

/* ========================================================================================== */
/* Greedy (agents/bots/greedy.py)                                                              */
/* ========================================================================================== */
static double greedy_mean_points(const Cards *cards, const ProfileEntry *company) {
    double airships = 0.0, phases = 0.0;
    for (int a = 0; a < NUM_AIRSHIPS; a++) airships += company->airship[a] * cards->airships[a].stars;
    for (int j = 0; j < NUM_PHASES; j++) phases += company->phase[j] * cards->phases[j].low;
    double total = airships;
    total += phases;
    return total / (double)(NUM_AIRSHIPS + NUM_PHASES);
}

/* agents/bots/common.py: phase_value */
static double phase_value(const Game *game, const Cards *cards, int player, int phase) {
    int done = 0;
    for (int j = 0; j < NUM_PHASES; j++) done += game->hindenburg[j] != EMPTY;
    if (done == NUM_PHASES - 1) {
        int gain = cards->phases[phase].high;
        for (int j = 0; j < NUM_PHASES; j++)
            if (game->hindenburg[j] == player) gain += cards->phases[j].high - cards->phases[j].low;
        return (double)gain;
    }
    return (double)cards->phases[phase].low;
}

static double greedy_card_value(const Game *game, const Cards *cards, const Options *options,
                                ShapeCache *cache, const GreedyConfig *config, int seat,
                                int target) {
    int kind = target_kind(target), card = target_card(game, target);
    if (kind == KIND_AIRSHIP) return (double)cards->airships[card].stars;
    if (kind != KIND_EXPANSION) return phase_value(game, cards, seat, card);
    const Expansion *e = &cards->expansions[card];
    const Player *me = &game->players[seat];
    int old = me->slots[e->department];
    int old_stars = old >= 0 ? cards->expansions[old].stars : 0;
    int needs = options->engine_bonus_needs_cost_colour;
    double before = greedy_mean_points(cards, profile(cache, cards, needs, me->slots, game->era));
    int8_t after_slots[NUM_DEPARTMENTS];
    memcpy(after_slots, me->slots, sizeof after_slots);
    after_slots[e->department] = (int8_t)card;
    double after = greedy_mean_points(cards, profile(cache, cards, needs, after_slots, game->era));
    int chips = e->chips < me->chips_supply ? e->chips : me->chips_supply;
    return (double)(e->stars - old_stars) + config->chip_value * chips +
           config->dice_weight * (after - before);
}

int bot_greedy(const Game *game, const Cards *cards, const Options *options, ShapeCache *cache,
               const GreedyConfig *config, const int8_t *legal, int n_legal) {
    if (n_legal == 1) return legal[0];
    int seat = game->current_player;
    int has_buy = 0, has_pass = 0;
    for (int i = 0; i < n_legal; i++) {
        if (legal[i] == A_SPEND_CHIP) return A_SPEND_CHIP;
        has_buy |= legal[i] == A_BUY_EXTRA_TURN;
        has_pass |= legal[i] == A_PASS;
    }
    double success, chip, with_chip;
    if (has_buy) {
        double best = 0.0;
        int first = 1;
        for (int action = 0; action < NUM_ATTEMPTS; action++) {
            if (!attempt_odds(game, cards, options, cache, action, seat, &success, &chip, &with_chip)) continue;
            double value = with_chip * greedy_card_value(game, cards, options, cache, config, seat,
                                                         action / NUM_VARIANTS);
            if (first || value > best) best = value;
            first = 0;
        }
        return best >= config->extra_turn_threshold ? A_BUY_EXTRA_TURN : A_END_TURN;
    }
    int best_action = -1;
    double best = 0.0;
    for (int i = 0; i < n_legal; i++) {
        int action = legal[i];
        if (action >= NUM_ATTEMPTS) continue;
        if (!attempt_odds(game, cards, options, cache, action, seat, &success, &chip, &with_chip)) continue;
        double value = with_chip * greedy_card_value(game, cards, options, cache, config, seat,
                                                     action / NUM_VARIANTS);
        if (best_action < 0 || value > best) {
            best_action = action;
            best = value;
        }
    }
    if (best_action >= 0) return best_action;
    return has_pass ? A_PASS : legal[0];
}

/* ========================================================================================== */
/* Heuristic (agents/bots/heuristic.py)                                                        */
/* ========================================================================================== */
typedef struct {
    int8_t card[NUM_AIRSHIPS];
    double weight[NUM_AIRSHIPS];
    int n;
} Future;

typedef struct {
    Future future;
    int8_t open_phases[NUM_PHASES];
    int n_open;
    double phase_share, turns_left;
    int phases_left, takes_left;
} Horizon;

typedef struct {
    const Game *game;
    int seat;
    Horizon horizon;
    double points_per_turn, chip_value, fail_gain, race;
    int has_chip;
} Context;

typedef struct {
    const Game *game;
    const Cards *cards;
    const Options *options;
    ShapeCache *cache;
    const HeuristicConfig *config;
} Heuristic;

static double phase_points(const Heuristic *h, int phase) {
    const Phase *p = &h->cards->phases[phase];
    return p->low + h->config->phase_complete_odds * (double)(p->high - p->low);
}

/* agents/bots/common.py: outlook, then HeuristicCore._horizon */
static void horizon_of(const Heuristic *h, Horizon *out) {
    const Game *game = h->game;
    const Cards *cards = h->cards;
    const HeuristicConfig *c = h->config;
    static const int TIERS_FROM_BOTTOM[STACK_HEIGHT] = {3, 2, 1};
    int hidden_per_tier[4] = {0, 0, 0, 0};
    int takes_left = 0;
    for (int s = 0; s < NUM_STACKS; s++) {
        for (int position = 0; position + 1 < game->stack_len[s]; position++)
            hidden_per_tier[TIERS_FROM_BOTTOM[position]]++;
        if (game->stack_len[s] > 1) takes_left += game->stack_len[s] - 1;
    }
    int8_t seen[NUM_AIRSHIPS];
    memset(seen, 0, sizeof seen);
    Future *future = &out->future;
    future->n = 0;
    for (int s = 0; s < NUM_STACKS; s++)
        if (game->stack_len[s]) {
            int top = game->stacks[s][game->stack_len[s] - 1];
            seen[top] = 1;
            future->card[future->n] = (int8_t)top;
            future->weight[future->n++] = 1.0;
        }
    int taken = 0;
    for (int p = 0; p < game->num_players; p++) {
        taken += game->players[p].n_airships;
        for (int a = 0; a < game->players[p].n_airships; a++) seen[game->players[p].airships[a]] = 1;
    }
    for (int tier = 1; tier <= 3; tier++) {
        int unseen[NUM_AIRSHIPS], n_unseen = 0;
        for (int a = 0; a < NUM_AIRSHIPS; a++)
            if (!seen[a] && cards->airships[a].tier == tier) unseen[n_unseen++] = a;
        if (hidden_per_tier[tier] && n_unseen) {
            double share = (double)hidden_per_tier[tier] / (double)n_unseen;
            for (int i = 0; i < n_unseen && future->n < NUM_AIRSHIPS; i++) {
                future->card[future->n] = (int8_t)unseen[i];
                future->weight[future->n++] = share;
            }
        }
    }
    int phases_done = 0;
    for (int j = 0; j < NUM_PHASES; j++) phases_done += game->hindenburg[j] != EMPTY;
    int n = game->num_players;
    double base = c->turns_base[n - 2], per_airship = c->turns_per_airship[n - 2];
    out->turns_left = pymax(c->turns_min, base - per_airship * taken - c->turns_per_phase * phases_done);
    double airship_left = 0.0, total_weight = 0.0;
    for (int i = 0; i < future->n; i++) airship_left += cards->airships[future->card[i]].stars * future->weight[i];
    for (int i = 0; i < future->n; i++) total_weight += future->weight[i];
    if (total_weight > 0) airship_left *= pymin(1.0, takes_left / total_weight);
    out->n_open = 0;
    double phases_left = 0.0;
    for (int j = 0; j < NUM_PHASES; j++)
        if (game->hindenburg[j] < 0) {
            out->open_phases[out->n_open++] = (int8_t)j;
            phases_left += phase_points(h, j);
        }
    double both = airship_left + phases_left;
    out->phase_share = both != 0.0 ? phases_left / both : 0.0;
    out->phases_left = NUM_PHASES - phases_done;
    out->takes_left = takes_left;
}

typedef struct {
    double value, weight;
} Pair;

static void sort_pairs_descending(Pair *pairs, int n) {
    for (int i = 1; i < n; i++) {
        Pair v = pairs[i];
        int j = i - 1;
        while (j >= 0 && (pairs[j].value < v.value || (pairs[j].value == v.value && pairs[j].weight < v.weight))) {
            pairs[j + 1] = pairs[j];
            j--;
        }
        pairs[j + 1] = v;
    }
}

static double top_mean(const Pair *pairs, int n, double amount) {
    double total = 0.0, taken = 0.0;
    for (int i = 0; i < n; i++) {
        double use = pymin(pairs[i].weight, amount - taken);
        if (use <= 0) break;
        total += pairs[i].value * use;
        taken += use;
    }
    return taken > 0 ? total / taken : 0.0;
}

static double points_per_attempt(const Heuristic *h, const ProfileEntry *company, const Horizon *horizon) {
    Pair airships[NUM_AIRSHIPS], phases[NUM_PHASES];
    for (int i = 0; i < horizon->future.n; i++) {
        int a = horizon->future.card[i];
        airships[i].value = company->airship_chip[a] * h->cards->airships[a].stars;
        airships[i].weight = horizon->future.weight[i];
    }
    for (int i = 0; i < horizon->n_open; i++) {
        int j = horizon->open_phases[i];
        phases[i].value = company->phase_chip[j] * phase_points(h, j);
        phases[i].weight = 1.0;
    }
    sort_pairs_descending(airships, horizon->future.n);
    sort_pairs_descending(phases, horizon->n_open);
    double share = horizon->phase_share;
    return (1 - share) * top_mean(airships, horizon->future.n, h->config->airship_choice) +
           share * top_mean(phases, horizon->n_open, h->config->phase_choice);
}

static const ProfileEntry *company_profile(const Heuristic *h, const int8_t *slots) {
    return profile(h->cache, h->cards, h->options->engine_bonus_needs_cost_colour, slots, h->config->value_era);
}

static int margin(const Heuristic *h, int player) {
    int16_t scores[MAX_PLAYERS];
    game_scores(h->game, h->cards, scores);
    int best_other = -100000;
    for (int p = 0; p < h->game->num_players; p++)
        if (p != player && scores[p] > best_other) best_other = scores[p];
    return scores[player] - best_other;
}

static void context_of(const Heuristic *h, int seat, Context *ctx) {
    const HeuristicConfig *c = h->config;
    ctx->game = h->game;
    ctx->seat = seat;
    horizon_of(h, &ctx->horizon);
    const Player *me = &h->game->players[seat];
    ctx->points_per_turn = points_per_attempt(h, company_profile(h, me->slots), &ctx->horizon);
    ctx->chip_value = pymax(c->chip_value_min, c->chip_turn_fraction * ctx->points_per_turn);
    ctx->fail_gain = me->chips_supply > 0 ? ctx->chip_value : 0.0;
    ctx->race = 0.0;
    if (c->race_weight != 0.0) ctx->race = c->race_weight * tanh(margin(h, seat) / c->race_scale);
    ctx->has_chip = me->chips_on_board > 0;
}

static double end_value(const Heuristic *h, uint8_t winners_mask, int seat) {
    if (winners_mask >> seat & 1u) {
        int count = 0;
        for (int p = 0; p < h->game->num_players; p++) count += winners_mask >> p & 1u;
        return h->config->win_value / count;
    }
    return -h->config->win_value;
}

static double dice_gain(const Heuristic *h, const Context *ctx, int department, int card) {
    int8_t changed[NUM_DEPARTMENTS];
    memcpy(changed, h->game->players[ctx->seat].slots, sizeof changed);
    changed[department] = (int8_t)card; /* T6 */
    double gain = points_per_attempt(h, company_profile(h, changed), &ctx->horizon);
    gain -= ctx->points_per_turn;
    return gain;
}

static double card_value(const Heuristic *h, const Context *ctx, int target) {
    const Game *game = h->game;
    const Cards *cards = h->cards;
    const HeuristicConfig *c = h->config;
    int seat = ctx->seat, kind = target_kind(target), card = target_card(game, target);
    if (kind == KIND_AIRSHIP) {
        double value = (double)cards->airships[card].stars;
        if (!game->hindenburg_open && game->wooden_airship != seat) value += c->wooden_airship_value;
        return value;
    }
    if (kind == KIND_PHASE) {
        double value = phase_points(h, card);
        if (game->wooden_airship != seat) value += c->wooden_airship_value;
        return value;
    }
    const Expansion *e = &cards->expansions[card];
    const Player *me = &game->players[seat];
    int old = me->slots[e->department];
    int stars = e->stars - (old >= 0 ? cards->expansions[old].stars : 0);
    int chips = e->chips < me->chips_supply ? e->chips : me->chips_supply;
    double gain = dice_gain(h, ctx, e->department, card);
    return stars + chips * ctx->chip_value + c->dice_weight * ctx->horizon.turns_left * gain;
}

static double race_value(const Context *ctx, int target) {
    return target_kind(target) == KIND_EXPANSION ? 0.0 : ctx->race;
}

static int may_end(const Context *ctx, int target) {
    int kind = target_kind(target);
    if (kind == KIND_PHASE) return ctx->horizon.phases_left <= 1;
    return kind == KIND_AIRSHIP && ctx->horizon.takes_left <= 1;
}

static double success_value(const Heuristic *h, const Context *ctx, int action, int exact) {
    int target = action / NUM_VARIANTS;
    if (exact && may_end(ctx, target)) {
        int16_t scores[MAX_PLAYERS];
        uint8_t winners;
        if (game_outcome_if_success(h->game, h->cards, h->options, action, scores, &winners))
            return end_value(h, winners, ctx->seat);
    }
    return card_value(h, ctx, target) + race_value(ctx, target);
}

static double expected(const Context *ctx, double value, double success, double chip_decides) {
    double fail_gain = ctx->fail_gain;
    double chip_branch = ctx->has_chip ? pymax(value - ctx->chip_value, fail_gain) : fail_gain;
    return success * value + chip_decides * chip_branch + (1.0 - success - chip_decides) * fail_gain;
}

/* The heuristic's value of every legal action (values[i] for legal[i]; -INFINITY for an attempt
 * it cannot make); its choice is the first best of them (bot_heuristic). The search uses these
 * values to order and widen its candidates. */
void bot_heuristic_values(const Game *game, const Cards *cards, const Options *options,
                          ShapeCache *cache, const HeuristicConfig *config, const int8_t *legal,
                          int n_legal, double *values) {
    Heuristic h = {game, cards, options, cache, config};
    int seat = game->current_player;
    Context ctx;
    double success, chip, with_chip;
    for (int i = 0; i < n_legal; i++) values[i] = -INFINITY;
    for (int i = 0; i < n_legal; i++) {
        if (legal[i] == A_SPEND_CHIP || legal[i] == A_KEEP_CHIP) { /* chip_values: (spend, keep) */
            context_of(&h, seat, &ctx);
            int16_t scores[MAX_PLAYERS];
            uint8_t winners;
            double value;
            if (game_outcome_if_success(game, cards, options, A_SPEND_CHIP, scores, &winners))
                value = end_value(&h, winners, seat);
            else
                value = card_value(&h, &ctx, game->pending.target) + race_value(&ctx, game->pending.target);
            double spend = value - ctx.chip_value, keep = ctx.fail_gain;
            for (int k = 0; k < n_legal; k++)
                values[k] = legal[k] == A_SPEND_CHIP ? spend : legal[k] == A_KEEP_CHIP ? keep : -INFINITY;
            return;
        }
        if (legal[i] == A_BUY_EXTRA_TURN || legal[i] == A_END_TURN) { /* best_attempt_value */
            context_of(&h, seat, &ctx);
            double best = -INFINITY;
            for (int action = 0; action < NUM_ATTEMPTS; action++) {
                if (!attempt_odds(game, cards, options, cache, action, seat, &success, &chip, &with_chip)) continue;
                double value = success_value(&h, &ctx, action, 0);
                best = pymax(best, expected(&ctx, value, success, chip));
            }
            if (!(best > -INFINITY)) best = 0.0;
            for (int k = 0; k < n_legal; k++)
                values[k] = legal[k] == A_BUY_EXTRA_TURN ? best
                            : legal[k] == A_END_TURN    ? config->extra_turn_min_value
                                                        : -INFINITY;
            return;
        }
    }
    context_of(&h, seat, &ctx);
    double target_values[NUM_TARGETS];
    int8_t known[NUM_TARGETS];
    memset(known, 0, sizeof known);
    for (int i = 0; i < n_legal; i++) {
        int action = legal[i];
        if (action >= NUM_ATTEMPTS) {
            values[i] = action == A_PASS ? 0.0 : -INFINITY;
        } else {
            int target = action / NUM_VARIANTS;
            if (!known[target]) {
                target_values[target] = success_value(&h, &ctx, action, 1);
                known[target] = 1;
            }
            if (!attempt_odds(game, cards, options, cache, action, seat, &success, &chip, &with_chip)) continue;
            values[i] = expected(&ctx, target_values[target], success, chip);
        }
    }
}

/* The first best of the values, as the Python bot (ties: spend the chip, buy the extra turn, the
 * first attempt in action order). */
int bot_heuristic(const Game *game, const Cards *cards, const Options *options,
                  ShapeCache *cache, const HeuristicConfig *config, const int8_t *legal,
                  int n_legal) {
    if (n_legal == 1) return legal[0];
    double values[NUM_ACTIONS];
    bot_heuristic_values(game, cards, options, cache, config, legal, n_legal, values);
    int best_action = legal[0];
    double best_value = -INFINITY;
    for (int i = 0; i < n_legal; i++)
        if (values[i] > best_value) {
            best_action = legal[i];
            best_value = values[i];
        }
    return best_action;
}
