/* The rules (docs/airships/RULES.md), line for line as airships_env/engine/{game,rules}.py apply them:
 * setup S1-S6, the board P1/P2, a turn T1-T9, the Hindenburg H1-H3a, the end E1-E4, and the
 * public view and determinization of airships_env/engine/view.py. */
#include <string.h>

#include "core.h"

#define BOARD_EXPANSIONS_AT_SETUP 6
#define START_PLAYER_CHIPS 3
#define OTHER_PLAYER_CHIPS 4

static void record_chip(Record *record, int player, int count, int source, int destination,
                        int reason) {
    if (!record || record->n_chips >= MAX_RECORD_CHIPS) return;
    ChipMove *move = &record->chips[record->n_chips++];
    move->player = (int8_t)player;
    move->count = (int8_t)count;
    move->source = (int8_t)source;
    move->destination = (int8_t)destination;
    move->reason = (int8_t)reason;
}

/* -- the board and the turn (P1, T1) -------------------------------------------------------- */
static RevealRec place(Game *game, const Cards *cards, int card) {
    int start = cards->expansions[card].department * SLOTS_PER_ROW;
    RevealRec reveal = {(int8_t)card, -1, -1};
    for (int slot = start; slot < start + SLOTS_PER_ROW; slot++)
        if (game->board[slot] == EMPTY) {
            game->board[slot] = (int8_t)card;
            reveal.slot = (int8_t)slot;
            return reveal;
        }
    int pushed = game->board[start];
    if (game->n_removed < NUM_EXPANSIONS) game->removed[game->n_removed++] = (int8_t)pushed;
    for (int slot = start; slot < start + SLOTS_PER_ROW - 1; slot++) game->board[slot] = game->board[slot + 1];
    game->board[start + SLOTS_PER_ROW - 1] = (int8_t)card;
    reveal.slot = (int8_t)(start + SLOTS_PER_ROW - 1);
    reveal.pushed_out = (int8_t)pushed;
    return reveal;
}

static int reveal(Game *game, const Cards *cards, Record *record) {
    int card = game->deck[--game->deck_len];
    game->passed_mask = 0;
    RevealRec shown = {CHANGE_OF_ERA, -1, -1};
    int era_changed = 0;
    if (card == CHANGE_OF_ERA) {
        game->era = 2;
        era_changed = 1;
    } else {
        shown = place(game, cards, card);
    }
    if (record && record->n_reveals < MAX_RECORD_REVEALS) record->reveals[record->n_reveals++] = shown;
    return era_changed;
}

static int start_turn(Game *game, const Cards *cards, const Options *options, int player,
                      Record *record) {
    game->current_player = (int8_t)player;
    game->turn += 1;
    game->phase = CHOOSE_TARGET;
    int era_changed = 0;
    if (game->deck_len) {
        era_changed = reveal(game, cards, record);
        if (era_changed && options->reveal_after_change_of_era && game->deck_len)
            reveal(game, cards, record);
    }
    return era_changed;
}

/* -- setup (S1-S6) ------------------------------------------------------------------------- */
void game_new(Game *game, const Cards *cards, const Options *options, int num_players,
              const Rng *rng) {
    memset(game, 0, sizeof *game);
    game->rng = *rng;
    game->num_players = (int8_t)num_players;
    game->era = 1;
    game->wooden_airship = EMPTY;
    game->phase = CHOOSE_TARGET;
    game->pending.active = 0;
    memset(game->board, EMPTY, sizeof game->board);
    memset(game->hindenburg, EMPTY, sizeof game->hindenburg);
    /* S2: tiers 3, 2, 1 shuffled; items 0-3 onto the stacks, the rest left out */
    for (int tier = 3; tier >= 1; tier--) {
        int8_t shuffled[AIRSHIPS_PER_TIER];
        memcpy(shuffled, cards->tier_cards[tier - 1], sizeof shuffled);
        shuffle_i8(&game->rng, shuffled, AIRSHIPS_PER_TIER);
        for (int s = 0; s < NUM_STACKS; s++) game->stacks[s][game->stack_len[s]++] = shuffled[s];
        for (int i = NUM_STACKS; i < AIRSHIPS_PER_TIER; i++) game->left_out[game->n_left_out++] = shuffled[i];
    }
    /* S3: Era 2 shuffled, the Change of Era card, Era 1 shuffled (the top is the last) */
    int8_t era_two[NUM_EXPANSIONS], era_one[NUM_EXPANSIONS];
    int n_two = cards->era_count[2], n_one = cards->era_count[1];
    memcpy(era_two, cards->era_cards[2], (size_t)n_two);
    shuffle_i8(&game->rng, era_two, n_two);
    for (int i = 0; i < n_two; i++) game->deck[game->deck_len++] = era_two[i];
    game->deck[game->deck_len++] = CHANGE_OF_ERA;
    memcpy(era_one, cards->era_cards[1], (size_t)n_one);
    shuffle_i8(&game->rng, era_one, n_one);
    for (int i = 0; i < n_one; i++) game->deck[game->deck_len++] = era_one[i];
    /* S5, S6 */
    for (int seat = 0; seat < num_players; seat++) {
        Player *p = &game->players[seat];
        memset(p->slots, EMPTY, sizeof p->slots);
        p->chips_on_board = seat == 0 ? START_PLAYER_CHIPS : OTHER_PLAYER_CHIPS;
        p->chips_supply = (int8_t)(CHIPS_PER_PLAYER - p->chips_on_board);
    }
    /* S4: starters shuffled, dealt in seat order, the rest by P1; reveal up to 6 on the board */
    int8_t starters[NUM_EXPANSIONS];
    int n_starters = cards->era_count[0];
    memcpy(starters, cards->era_cards[0], (size_t)n_starters);
    shuffle_i8(&game->rng, starters, n_starters);
    for (int seat = 0; seat < num_players && seat < n_starters; seat++)
        game->players[seat].slots[cards->expansions[starters[seat]].department] = starters[seat];
    for (int i = num_players; i < n_starters; i++) place(game, cards, starters[i]);
    for (;;) {
        int on_board = 0;
        for (int s = 0; s < BOARD_SLOTS; s++) on_board += game->board[s] != EMPTY;
        if (!game->deck_len || on_board >= BOARD_EXPANSIONS_AT_SETUP) break;
        reveal(game, cards, NULL);
    }
    start_turn(game, cards, options, 0, NULL); /* T1a */
}

/* -- targets, legal actions ----------------------------------------------------------------- */
int game_phase_available(const Game *game, const Options *options, int phase) {
    if (!game->hindenburg_open || game->hindenburg[phase] != EMPTY) return 0;
    if (options->hindenburg_any_order) return 1;
    for (int j = 0; j < NUM_PHASES; j++)
        if (game->hindenburg[j] == EMPTY) return j == phase;
    return 0;
}

/* The target's odds class, or -1 when there is nothing to attempt there. */
int game_target_class(const Game *game, const Cards *cards, const Options *options, int target) {
    if (target < FIRST_STACK_TARGET) {
        int card = game->board[target];
        return card == EMPTY ? -1 : cards->expansion_class[card];
    }
    if (target < FIRST_PHASE_TARGET) {
        int s = target - FIRST_STACK_TARGET;
        return game->stack_len[s] ? cards->airship_class[game->stacks[s][game->stack_len[s] - 1]] : -1;
    }
    int phase = target - FIRST_PHASE_TARGET;
    return game_phase_available(game, options, phase) ? cards->phase_class[phase] : -1;
}

void game_target_classes(const Game *game, const Cards *cards, const Options *options,
                         int8_t classes[NUM_TARGETS]) {
    for (int t = 0; t < BOARD_SLOTS; t++) {
        int card = game->board[t];
        classes[t] = card == EMPTY ? -1 : cards->expansion_class[card];
    }
    for (int s = 0; s < NUM_STACKS; s++) {
        int height = game->stack_len[s];
        classes[FIRST_STACK_TARGET + s] = height ? cards->airship_class[game->stacks[s][height - 1]] : -1;
    }
    int first_open = -1;
    for (int j = 0; j < NUM_PHASES; j++)
        if (game->hindenburg[j] == EMPTY && first_open < 0) first_open = j;
    for (int j = 0; j < NUM_PHASES; j++) {
        int open = game->hindenburg_open && game->hindenburg[j] == EMPTY &&
                   (options->hindenburg_any_order || j == first_open);
        classes[FIRST_PHASE_TARGET + j] = open ? cards->phase_class[j] : -1;
    }
}

int game_legal_list(const Game *game, const Cards *cards, const Options *options, int8_t *out) {
    int n = 0;
    switch (game->phase) {
    case CHOOSE_TARGET: {
        Pool pool;
        pool_build(&pool, cards, game->era, game->players[game->current_player].slots);
        int8_t classes[NUM_TARGETS];
        game_target_classes(game, cards, options, classes);
        for (int target = 0; target < NUM_TARGETS; target++) {
            int cls = classes[target];
            if (cls < 0) continue;
            int8_t offered[NUM_VARIANTS];
            pool_offers(&pool, cards->class_cost[cls], offered);
            for (int v = 0; v < NUM_VARIANTS; v++)
                if (offered[v]) out[n++] = (int8_t)(NUM_VARIANTS * target + v);
        }
        if (!n) out[n++] = A_PASS; /* T2a */
        break;
    }
    case CHIP_DECISION:
        out[n++] = A_SPEND_CHIP;
        out[n++] = A_KEEP_CHIP;
        break;
    case EXTRA_TURN:
        out[n++] = A_BUY_EXTRA_TURN;
        out[n++] = A_END_TURN;
        break;
    default:
        break;
    }
    return n;
}

int game_legal(const Game *game, const Cards *cards, const Options *options, uint8_t *mask) {
    int8_t legal[NUM_ACTIONS];
    int n = game_legal_list(game, cards, options, legal);
    memset(mask, 0, NUM_ACTIONS);
    for (int i = 0; i < n; i++) mask[legal[i]] = 1;
    return n;
}

/* -- scoring (E2, E3) --------------------------------------------------------------------- */
void game_score_parts(const Game *game, const Cards *cards, int player, int16_t parts[3]) {
    const Player *p = &game->players[player];
    int complete = 1;
    for (int j = 0; j < NUM_PHASES; j++) complete &= game->hindenburg[j] != EMPTY;
    parts[0] = parts[1] = parts[2] = 0;
    for (int d = 0; d < NUM_DEPARTMENTS; d++)
        if (p->slots[d] != EMPTY) parts[0] = (int16_t)(parts[0] + cards->expansions[p->slots[d]].stars);
    for (int a = 0; a < p->n_airships; a++) parts[1] = (int16_t)(parts[1] + cards->airships[p->airships[a]].stars);
    for (int j = 0; j < NUM_PHASES; j++)
        if (game->hindenburg[j] == player)
            parts[2] = (int16_t)(parts[2] + (complete ? cards->phases[j].high : cards->phases[j].low));
}

void game_scores(const Game *game, const Cards *cards, int16_t *scores) {
    for (int p = 0; p < game->num_players; p++) {
        int16_t parts[3];
        game_score_parts(game, cards, p, parts);
        scores[p] = (int16_t)(parts[0] + parts[1] + parts[2]);
    }
}

int game_airship_count(const Game *game, int player) {
    int count = game->players[player].n_airships;
    for (int j = 0; j < NUM_PHASES; j++) count += game->hindenburg[j] == player;
    return count;
}

static uint8_t winners_of(const Game *game, const int16_t *scores) {
    int best = scores[0];
    for (int p = 1; p < game->num_players; p++)
        if (scores[p] > best) best = scores[p];
    int most = -1;
    for (int p = 0; p < game->num_players; p++)
        if (scores[p] == best && game_airship_count(game, p) > most) most = game_airship_count(game, p);
    uint8_t mask = 0;
    for (int p = 0; p < game->num_players; p++)
        if (scores[p] == best && game_airship_count(game, p) == most) mask |= (uint8_t)(1u << p);
    return mask;
}

static int should_end(const Game *game, const Options *options) {
    int short_stacks = 1;
    for (int s = 0; s < NUM_STACKS; s++) short_stacks &= game->stack_len[s] <= 1;
    if (short_stacks) return 1;
    int complete = 1;
    for (int j = 0; j < NUM_PHASES; j++) complete &= game->hindenburg[j] != EMPTY;
    if (complete) return 1;
    return options->stalemate_ends_game && !game->deck_len &&
           game->passed_mask == (uint8_t)((1u << game->num_players) - 1u);
}

static void finish(Game *game, const Cards *cards) {
    game->phase = GAME_OVER;
    game->over = 1;
    game->pending.active = 0;
    game_scores(game, cards, game->final_scores);
    game->winners_mask = winners_of(game, game->final_scores);
}

/* -- applying an action -------------------------------------------------------------------- */
static void succeed(Game *game, const Cards *cards, const Options *options, int player, int target,
                    Record *record) {
    Player *p = &game->players[player];
    if (record) record->result = RESULT_SUCCESS;
    if (target < FIRST_STACK_TARGET) {
        int card = game->board[target];
        game->board[target] = EMPTY; /* P2 */
        const Expansion *e = &cards->expansions[card];
        int old = p->slots[e->department];
        if (old != EMPTY && game->n_removed < NUM_EXPANSIONS) game->removed[game->n_removed++] = (int8_t)old;
        if (record) record->discarded = (int8_t)old;
        p->slots[e->department] = (int8_t)card;
        if (record) {
            record->acquired_kind = ACQUIRED_EXPANSION;
            record->acquired = (int8_t)card;
        }
        if (e->chips) { /* a Captain's chips, as many as the supply holds */
            int moved = e->chips < p->chips_supply ? e->chips : p->chips_supply;
            if (moved) {
                p->chips_supply = (int8_t)(p->chips_supply - moved);
                p->chips_on_board = (int8_t)(p->chips_on_board + moved);
                record_chip(record, player, moved, PLACE_SUPPLY, PLACE_BOARD, REASON_CAPTAIN);
            }
        }
    } else if (target < FIRST_PHASE_TARGET) {
        int s = target - FIRST_STACK_TARGET;
        int card = game->stacks[s][--game->stack_len[s]];
        if (p->n_airships < NUM_AIRSHIPS) p->airships[p->n_airships++] = (int8_t)card;
        if (record) {
            record->acquired_kind = ACQUIRED_AIRSHIP;
            record->acquired = (int8_t)card;
        }
        int opens = !game->hindenburg_open && !game->stack_len[s]; /* H1 */
        if (opens && !options->wooden_airship_with_opening_airship) game->hindenburg_open = 1;
        if (!game->hindenburg_open) game->wooden_airship = (int8_t)player; /* H3 */
        if (opens) {
            game->hindenburg_open = 1;
            if (record) record->hindenburg_opened = 1;
        }
    } else {
        int phase = target - FIRST_PHASE_TARGET;
        game->hindenburg[phase] = (int8_t)player;
        int source = p->chips_supply > 0 ? PLACE_SUPPLY : PLACE_BOARD;
        if (source == PLACE_SUPPLY)
            p->chips_supply--;
        else
            p->chips_on_board--;
        record_chip(record, player, 1, source, PLACE_HINDENBURG, REASON_MARK);
        game->wooden_airship = (int8_t)player;
        if (record) {
            record->acquired_kind = ACQUIRED_PHASE;
            record->acquired = (int8_t)phase;
        }
    }
}

static void fail(Game *game, int player, Record *record) {
    Player *p = &game->players[player];
    if (record) record->result = RESULT_FAILURE;
    if (p->chips_supply > 0) {
        p->chips_supply--;
        p->chips_on_board++;
        record_chip(record, player, 1, PLACE_SUPPLY, PLACE_BOARD, REASON_FAILURE);
    }
}

static void end_turn(Game *game, const Cards *cards, const Options *options, int player,
                     Record *record) {
    if (should_end(game, options)) {
        finish(game, cards);
        return;
    }
    if (game->players[player].chips_on_board >= EXTRA_TURN_PRICE) {
        game->phase = EXTRA_TURN;
        return;
    }
    int changed = start_turn(game, cards, options, (player + 1) % game->num_players, record);
    if (record) record->era_changed = (int8_t)changed;
}

static void target_of(const Game *game, const Cards *cards, int target, int8_t *kind, int8_t *card,
                      const int8_t **cost, int *needed) {
    if (target < FIRST_STACK_TARGET) {
        *kind = ACQUIRED_EXPANSION;
        *card = game->board[target];
        *cost = cards->expansions[*card].cost;
        *needed = cards->expansions[*card].target;
    } else if (target < FIRST_PHASE_TARGET) {
        int s = target - FIRST_STACK_TARGET;
        *kind = ACQUIRED_AIRSHIP;
        *card = game->stacks[s][game->stack_len[s] - 1];
        *cost = cards->airships[*card].cost;
        *needed = cards->airships[*card].target;
    } else {
        *kind = ACQUIRED_PHASE;
        *card = (int8_t)(target - FIRST_PHASE_TARGET);
        *cost = cards->phases[*card].cost;
        *needed = cards->phases[*card].target;
    }
}

static void copy_roll_to_record(Record *record, const Pending *roll) {
    record->has_attempt = 1;
    record->exchange = roll->exchange;
    for (int c = 0; c < 3; c++) {
        record->n_rolled[c] = roll->n_rolled[c];
        record->n_kept[c] = roll->n_kept[c];
        for (int i = 0; i < MAX_ROLLED; i++) {
            record->rolled[c][i] = roll->rolled[c][i];
            record->kept[c][i] = roll->kept[c][i];
        }
    }
    record->dice_sum = roll->dice_sum;
    record->total = roll->total;
    record->needed = roll->needed;
    record->n_bonuses = roll->n_bonuses;
    for (int b = 0; b < roll->n_bonuses; b++) record->bonuses[b] = roll->bonuses[b];
}

static int attempt(Game *game, const Cards *cards, const Options *options, int player, int target,
                   int variant, const int8_t *forced_counts, const int8_t *forced_faces,
                   Record *record) {
    int8_t kind, card;
    const int8_t *cost;
    int needed;
    target_of(game, cards, target, &kind, &card, &cost, &needed);
    Pool pool;
    pool_build(&pool, cards, game->era, game->players[player].slots);
    const Hand *hand = &pool.hands[variant];
    int8_t rolled_counts[3];
    for (int c = 0; c < 3; c++)
        rolled_counts[c] = (int8_t)(cost[c] ? (hand->rollable[c] < MAX_ROLLED ? hand->rollable[c] : MAX_ROLLED) : 0);
    Pending roll;
    memset(&roll, 0, sizeof roll);
    if (forced_counts == NULL) {
        if (!game->rng.present) return CORE_NO_RNG;
        uint64_t bound = 1, powers[3];
        for (int c = 0; c < 3; c++) {
            powers[c] = 1;
            for (int i = 0; i < rolled_counts[c]; i++) powers[c] *= 6u;
            bound *= powers[c];
        }
        uint64_t code = uniform_below(&game->rng, bound); /* T4: one roll */
        for (int c = 0; c < 3; c++) {
            uint64_t part = code % powers[c];
            code /= powers[c];
            roll.n_rolled[c] = rolled_counts[c];
            for (int i = 0; i < rolled_counts[c]; i++) {
                static const int8_t FACES[3][6] = {{1, 1, 2, 2, 3, 3}, {2, 3, 3, 4, 4, 5}, {4, 4, 6, 6, 8, 8}};
                roll.rolled[c][i] = FACES[c][part % 6u];
                part /= 6u;
            }
        }
    } else {
        static const int8_t FACES[3][6] = {{1, 1, 2, 2, 3, 3}, {2, 3, 3, 4, 4, 5}, {4, 4, 6, 6, 8, 8}};
        for (int c = 0; c < 3; c++) {
            if (forced_counts[c] != rolled_counts[c]) return CORE_BAD_DICE;
            roll.n_rolled[c] = rolled_counts[c];
            for (int i = 0; i < rolled_counts[c]; i++) {
                int8_t face = forced_faces[c * MAX_ROLLED + i];
                int ok = 0;
                for (int f = 0; f < 6; f++) ok |= FACES[c][f] == face;
                if (!ok) return CORE_BAD_DICE;
                roll.rolled[c][i] = face;
            }
        }
    }
    game->passed_mask = 0; /* E4 */
    roll.dice_sum = 0;
    for (int c = 0; c < 3; c++) {
        if (!cost[c]) continue;
        int8_t values[MAX_ROLLED + 1];
        int n = 0;
        for (int i = 0; i < roll.n_rolled[c]; i++) values[n++] = roll.rolled[c][i];
        if (hand->fixed_colour == c) values[n++] = hand->fixed_value;
        for (int i = 1; i < n; i++) { /* sorted high first, stable like Python's sorted */
            int8_t v = values[i];
            int j = i - 1;
            while (j >= 0 && values[j] < v) {
                values[j + 1] = values[j];
                j--;
            }
            values[j + 1] = v;
        }
        int keep = cost[c] < n ? cost[c] : n;
        roll.n_kept[c] = (int8_t)keep;
        for (int i = 0; i < keep; i++) {
            roll.kept[c][i] = values[i];
            roll.dice_sum = (int16_t)(roll.dice_sum + values[i]);
        }
    }
    /* T5: the automatic bonuses, named in the record */
    int total = roll.dice_sum;
    if (game->wooden_airship == player) {
        roll.bonuses[roll.n_bonuses++] = (Bonus){BONUS_WOODEN, 0, 1};
        total += 1;
    }
    for (int b = 0; b < pool.n_bonuses; b++) {
        int colour = pool.bonus_colour[b];
        if (colour == ANY || !options->engine_bonus_needs_cost_colour || cost[colour] > 0) {
            roll.bonuses[roll.n_bonuses++] = (Bonus){BONUS_ENGINE, (int8_t)colour, pool.bonus_amount[b]};
            total += pool.bonus_amount[b];
        }
    }
    roll.total = (int16_t)total;
    roll.needed = (int16_t)needed;
    roll.exchange = hand->exchange;
    roll.target = (int8_t)target;
    roll.variant = (int8_t)variant;
    if (record) {
        record->target_kind = kind;
        record->target_card = card;
        copy_roll_to_record(record, &roll);
    }
    if (total >= needed) {
        succeed(game, cards, options, player, target, record);
        end_turn(game, cards, options, player, record);
    } else if (total == needed - 1 && game->players[player].chips_on_board > 0) {
        roll.active = 1;
        game->pending = roll;
        game->phase = CHIP_DECISION;
        if (record) record->result = RESULT_CHIP_DECISION;
    } else {
        fail(game, player, record);
        end_turn(game, cards, options, player, record);
    }
    return CORE_OK;
}

int game_apply(Game *game, const Cards *cards, const Options *options, int action,
               const int8_t *forced_counts, const int8_t *forced_faces, Record *record) {
    if (game->is_public_view) return CORE_PUBLIC_VIEW;
    if (action < 0 || action >= NUM_ACTIONS) return CORE_ILLEGAL;
    int8_t legal[NUM_ACTIONS];
    int n = game_legal_list(game, cards, options, legal), ok = 0;
    for (int i = 0; i < n; i++) ok |= legal[i] == action;
    if (!ok) return CORE_ILLEGAL;
    return game_apply_legal(game, cards, options, action, forced_counts, forced_faces, record);
}

/* game_apply for an action known to be legal (a choice among game_legal_list's): no check. */
int game_apply_legal(Game *game, const Cards *cards, const Options *options, int action,
                     const int8_t *forced_counts, const int8_t *forced_faces, Record *record) {
    int player = game->current_player;
    if (record) {
        memset(record, 0, sizeof *record);
        record->step = game->step;
        record->turn = game->turn;
        record->player = (int8_t)player;
        record->action = (int8_t)action;
        record->phase = game->phase;
        record->discarded = -1;
        record->acquired = -1;
        for (int c = 0; c < 3; c++) record->exchange.gave_fixed_colour = -1;
    }
    if (action < NUM_ATTEMPTS) {
        /* a failed roll leaves everything as it was: check before anything changes */
        Game saved = *game;
        int code = attempt(game, cards, options, player, action / NUM_VARIANTS, action % NUM_VARIANTS,
                           forced_counts, forced_faces, record);
        if (code != CORE_OK) {
            *game = saved;
            return code;
        }
    } else if (action == A_PASS) { /* T2a */
        if (record) record->result = RESULT_PASSED;
        if (!game->deck_len) game->passed_mask |= (uint8_t)(1u << player);
        end_turn(game, cards, options, player, record);
    } else if (action == A_SPEND_CHIP || action == A_KEEP_CHIP) {
        Pending pending = game->pending;
        Player *p = &game->players[player];
        if (action == A_SPEND_CHIP) { /* T5: the chip goes back to the supply */
            p->chips_on_board--;
            p->chips_supply++;
            record_chip(record, player, 1, PLACE_BOARD, PLACE_SUPPLY, REASON_CHIP_SPENT);
        }
        if (record) {
            int8_t kind, card;
            const int8_t *cost;
            int needed;
            target_of(game, cards, pending.target, &kind, &card, &cost, &needed);
            record->target_kind = kind;
            record->target_card = card;
            copy_roll_to_record(record, &pending);
            if (action == A_SPEND_CHIP) {
                record->bonuses[record->n_bonuses++] = (Bonus){BONUS_CHIP, 0, 1};
                record->total = (int16_t)(record->total + 1);
            }
        }
        game->pending.active = 0;
        if (action == A_SPEND_CHIP)
            succeed(game, cards, options, player, pending.target, record);
        else
            fail(game, player, record);
        end_turn(game, cards, options, player, record);
    } else if (action == A_BUY_EXTRA_TURN) { /* T8: the chips go back to the supply */
        Player *p = &game->players[player];
        p->chips_on_board = (int8_t)(p->chips_on_board - EXTRA_TURN_PRICE);
        p->chips_supply = (int8_t)(p->chips_supply + EXTRA_TURN_PRICE);
        record_chip(record, player, EXTRA_TURN_PRICE, PLACE_BOARD, PLACE_SUPPLY, REASON_EXTRA_TURN);
        int changed = start_turn(game, cards, options, player, record);
        if (record) record->era_changed = (int8_t)changed;
    } else { /* A_END_TURN, T9 */
        int changed = start_turn(game, cards, options, (player + 1) % game->num_players, record);
        if (record) record->era_changed = (int8_t)changed;
    }
    game->step++;
    if (record) {
        record->wooden_airship = game->wooden_airship;
        record->next_player = game->current_player;
        record->game_over = game->phase == GAME_OVER;
        if (record->game_over) {
            record->winners_mask = game->winners_mask;
            for (int q = 0; q < game->num_players; q++) record->scores[q] = game->final_scores[q];
        }
    }
    return CORE_OK;
}

/* -- odds and what a success would end ------------------------------------------------------ */
int game_attempt_odds(const Game *game, const Cards *cards, const Options *options,
                      ShapeCache *cache, int action, int player, Odds *odds) {
    if (action < 0 || action >= NUM_ATTEMPTS) return 0;
    int target = action / NUM_VARIANTS, variant = action % NUM_VARIANTS;
    int cls = game_target_class(game, cards, options, target);
    if (cls < 0) return 0;
    Pool pool;
    pool_build(&pool, cards, game->era, game->players[player].slots);
    int8_t offered[NUM_VARIANTS];
    const int8_t *cost = cards->class_cost[cls];
    pool_offers(&pool, cost, offered);
    if (!offered[variant]) return 0;
    int bonus = pool_engine_bonus(&pool, cost, options->engine_bonus_needs_cost_colour) +
                (game->wooden_airship == player ? 1 : 0);
    *odds = odds_for(cache, &pool.hands[variant], cost, cards->class_needed[cls], bonus,
                     game->players[player].chips_on_board > 0);
    return 1;
}

int game_outcome_if_success(const Game *game, const Cards *cards, const Options *options,
                            int action, int16_t *scores, uint8_t *winners_mask) {
    int target = action == A_SPEND_CHIP ? game->pending.target : action / NUM_VARIANTS;
    Game after = *game;
    succeed(&after, cards, options, game->current_player, target, NULL);
    if (!should_end(&after, options)) return 0;
    finish(&after, cards);
    for (int p = 0; p < game->num_players; p++) scores[p] = after.final_scores[p];
    *winners_mask = after.winners_mask;
    return 1;
}

/* -- public view and determinization (airships_env/engine/view.py) ------------------------ */
static const int STACK_TIERS_FROM_BOTTOM[STACK_HEIGHT] = {3, 2, 1};

typedef struct {
    int8_t era_one[NUM_EXPANSIONS], era_two[NUM_EXPANSIONS];
    int n_one, n_two;
    int8_t unseen[3][NUM_AIRSHIPS]; /* by tier - 1 */
    int n_unseen[3];
} Hidden;

static void sort_i8(int8_t *items, int n, int descending) {
    for (int i = 1; i < n; i++) {
        int8_t v = items[i];
        int j = i - 1;
        while (j >= 0 && (descending ? items[j] < v : items[j] > v)) {
            items[j + 1] = items[j];
            j--;
        }
        items[j + 1] = v;
    }
}

static void hidden_groups(const Game *game, const Cards *cards, Hidden *hidden) {
    hidden->n_one = hidden->n_two = 0;
    for (int i = 0; i < game->deck_len; i++) {
        int card = game->deck[i];
        if (card == CHANGE_OF_ERA) continue;
        if (cards->expansions[card].era == 1)
            hidden->era_one[hidden->n_one++] = (int8_t)card;
        else
            hidden->era_two[hidden->n_two++] = (int8_t)card;
    }
    for (int t = 0; t < 3; t++) hidden->n_unseen[t] = 0;
    for (int s = 0; s < NUM_STACKS; s++)
        for (int i = 0; i + 1 < game->stack_len[s]; i++) {
            int card = game->stacks[s][i], t = cards->airships[card].tier - 1;
            hidden->unseen[t][hidden->n_unseen[t]++] = (int8_t)card;
        }
    for (int i = 0; i < game->n_left_out; i++) {
        int card = game->left_out[i], t = cards->airships[card].tier - 1;
        hidden->unseen[t][hidden->n_unseen[t]++] = (int8_t)card;
    }
}

/* Deal the given hidden cards back (each unseen list is used from its end, as list.pop()). */
static void deal_hidden(Game *game, Hidden *hidden) {
    int has_change = 0;
    for (int i = 0; i < game->deck_len; i++) has_change |= game->deck[i] == CHANGE_OF_ERA;
    int n = 0;
    for (int i = 0; i < hidden->n_two; i++) game->deck[n++] = hidden->era_two[i];
    if (has_change) game->deck[n++] = CHANGE_OF_ERA;
    for (int i = 0; i < hidden->n_one; i++) game->deck[n++] = hidden->era_one[i];
    game->deck_len = (int8_t)n;
    for (int s = 0; s < NUM_STACKS; s++)
        for (int position = 0; position + 1 < game->stack_len[s]; position++) {
            int t = STACK_TIERS_FROM_BOTTOM[position] - 1;
            game->stacks[s][position] = hidden->unseen[t][--hidden->n_unseen[t]];
        }
    game->n_left_out = 0;
    for (int t = 2; t >= 0; t--)
        for (int i = 0; i < hidden->n_unseen[t]; i++) game->left_out[game->n_left_out++] = hidden->unseen[t][i];
}

void game_public_view(Game *view, const Game *game, const Cards *cards) {
    Hidden hidden;
    hidden_groups(game, cards, &hidden);
    *view = *game;
    memset(&view->rng, 0, sizeof view->rng);
    sort_i8(hidden.era_one, hidden.n_one, 0);
    sort_i8(hidden.era_two, hidden.n_two, 0);
    for (int t = 0; t < 3; t++) sort_i8(hidden.unseen[t], hidden.n_unseen[t], 1);
    deal_hidden(view, &hidden);
    view->is_public_view = 1;
}

void game_determinize(Game *sample, const Game *game, const Cards *cards, Rng *rng) {
    Hidden hidden;
    hidden_groups(game, cards, &hidden);
    sort_i8(hidden.era_one, hidden.n_one, 0);
    sort_i8(hidden.era_two, hidden.n_two, 0);
    for (int t = 0; t < 3; t++) sort_i8(hidden.unseen[t], hidden.n_unseen[t], 0);
    uint64_t seed = rng_next64(rng) >> 1;
    *sample = *game;
    uint32_t words[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    rng_seed_sequence(&sample->rng, words, words[1] ? 2 : 1, NULL, 0);
    shuffle_i8(rng, hidden.era_one, hidden.n_one);
    shuffle_i8(rng, hidden.era_two, hidden.n_two);
    for (int t = 0; t < 3; t++) shuffle_i8(rng, hidden.unseen[t], hidden.n_unseen[t]);
    deal_hidden(sample, &hidden);
    sample->is_public_view = 0;
}

/* -- imported states ------------------------------------------------------------------------ */
int game_check(const Game *game, const Cards *cards) {
    (void)cards;
    if (game->num_players < MIN_PLAYERS || game->num_players > MAX_PLAYERS) return 1;
    if (game->era < 1 || game->era > 2) return 2;
    if (game->phase < CHOOSE_TARGET || game->phase > GAME_OVER) return 3;
    if (game->current_player < 0 || game->current_player >= game->num_players) return 4;
    if (game->wooden_airship < EMPTY || game->wooden_airship >= game->num_players) return 5;
    if (game->deck_len < 0 || game->deck_len > DECK_MAX) return 6;
    for (int i = 0; i < game->deck_len; i++)
        if (game->deck[i] != CHANGE_OF_ERA && (game->deck[i] < 0 || game->deck[i] >= NUM_EXPANSIONS)) return 7;
    for (int i = 0; i < BOARD_SLOTS; i++)
        if (game->board[i] < EMPTY || game->board[i] >= NUM_EXPANSIONS) return 8;
        else if (game->board[i] != EMPTY && cards->expansions[game->board[i]].department != i / SLOTS_PER_ROW) return 8;
    for (int s = 0; s < NUM_STACKS; s++) {
        if (game->stack_len[s] < 0 || game->stack_len[s] > STACK_HEIGHT) return 9;
        for (int i = 0; i < game->stack_len[s]; i++)
            if (game->stacks[s][i] < 0 || game->stacks[s][i] >= NUM_AIRSHIPS) return 9;
    }
    if (game->n_left_out < 0 || game->n_left_out > LEFT_OUT) return 10;
    for (int i = 0; i < game->n_left_out; i++)
        if (game->left_out[i] < 0 || game->left_out[i] >= NUM_AIRSHIPS) return 10;
    if (game->n_removed < 0 || game->n_removed > NUM_EXPANSIONS) return 11;
    for (int i = 0; i < game->n_removed; i++)
        if (game->removed[i] < 0 || game->removed[i] >= NUM_EXPANSIONS) return 11;
    for (int j = 0; j < NUM_PHASES; j++)
        if (game->hindenburg[j] < EMPTY || game->hindenburg[j] >= game->num_players) return 12;
    for (int p = 0; p < game->num_players; p++) {
        const Player *pl = &game->players[p];
        for (int d = 0; d < NUM_DEPARTMENTS; d++) {
            int card = pl->slots[d];
            if (card < EMPTY || card >= NUM_EXPANSIONS) return 13;
            if (card != EMPTY && cards->expansions[card].department != d) return 13;
        }
        if (pl->n_airships < 0 || pl->n_airships > NUM_AIRSHIPS) return 14;
        for (int a = 0; a < pl->n_airships; a++)
            if (pl->airships[a] < 0 || pl->airships[a] >= NUM_AIRSHIPS) return 14;
        if (pl->chips_on_board < 0 || pl->chips_supply < 0 ||
            pl->chips_on_board + pl->chips_supply > CHIPS_PER_PLAYER)
            return 15;
    }
    if (game->phase == CHIP_DECISION) {
        const Pending *pd = &game->pending;
        if (!pd->active || pd->target < 0 || pd->target >= NUM_TARGETS) return 16;
        if (pd->variant < 0 || pd->variant >= NUM_VARIANTS) return 16;
        if (pd->n_bonuses < 0 || pd->n_bonuses > MAX_RECORD_BONUSES - 1) return 16;
        for (int c = 0; c < 3; c++)
            if (pd->n_rolled[c] < 0 || pd->n_rolled[c] > MAX_ROLLED || pd->n_kept[c] < 0 ||
                pd->n_kept[c] > MAX_ROLLED)
                return 16;
        /* the pending target must still hold its card */
        if (pd->target < FIRST_STACK_TARGET && game->board[pd->target] == EMPTY) return 16;
        if (pd->target >= FIRST_STACK_TARGET && pd->target < FIRST_PHASE_TARGET &&
            !game->stack_len[pd->target - FIRST_STACK_TARGET])
            return 16;
        if (pd->target >= FIRST_PHASE_TARGET && game->hindenburg[pd->target - FIRST_PHASE_TARGET] != EMPTY) return 16;
    } else if (game->pending.active) {
        return 16;
    }
    if (game->phase == EXTRA_TURN && game->players[game->current_player].chips_on_board < EXTRA_TURN_PRICE) return 17;
    return 0;
}
