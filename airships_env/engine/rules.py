"""The rules of Airships (docs/airships/RULES.md): legal actions, applying an action, scoring.

Every function takes a :class:`~airships_env.engine.state.GameState` and is the only place its
rule is implemented; the environment, the bots and the tools call these. Setting up a game
(S1-S6) is :func:`airships_env.engine.game.new_game`. Derived values (dice pools, exchange
variants, eligibility, exact odds) come from :mod:`airships_env.engine.derived`. Comments name
the rule id they implement.

This module never imports the state module at run time (the state's methods call into it), so
the two do not form an import cycle.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from airships_env.engine import dice as _dice
from airships_env.engine.actions import (
    ACTION_NAMES,
    BUY_EXTRA_TURN,
    END_TURN,
    FIRST_PHASE_TARGET,
    FIRST_STACK_TARGET,
    KEEP_CHIP,
    NUM_ATTEMPT_ACTIONS,
    NUM_VARIANTS,
    PASS,
    SLOTS_PER_ROW,
    SPEND_CHIP,
    as_action_index,
    attempt_action,
    attempt_target,
    attempt_variant,
    is_attempt,
    not_an_action_reason,
)
from airships_env.engine.cards import BONUS_COLOURS, DiceCounts
from airships_env.engine.derived import Pool, engine_bonus_applies, tables_for
from airships_env.engine.dice import AttemptOdds
from airships_env.engine.errors import ActionSpaceError, IllegalActionError
from airships_env.engine.model import (
    CHANGE_OF_ERA,
    CHANGE_OF_ERA_ID,
    CHIP_DECISION,
    CHOOSE_TARGET,
    EMPTY,
    EXTRA_TURN,
    EXTRA_TURN_PRICE,
    GAME_OVER,
    PHASE_NAMES,
    PendingAttempt,
)
from airships_env.engine.records import ActionRecord, ChipMove, Reveal
from airships_env.protocol import Outcome, ranks_from

if TYPE_CHECKING:
    from airships_env.engine.state import GameState


# ---------------------------------------------------------------------------------------------
# The board and the turn (P1, T1)
# ---------------------------------------------------------------------------------------------
def place(state: GameState, card: int) -> Reveal:
    """P1: leftmost empty slot of the card's row; a full row drops its leftmost card."""
    cards = state.cards.expansions
    department = cards[card].department
    start = department * SLOTS_PER_ROW
    board = state.board
    for slot in range(start, start + SLOTS_PER_ROW):
        if board[slot] == EMPTY:
            board[slot] = card
            return Reveal(cards[card].id, slot, None)
    pushed = board[start]
    state.removed.append(pushed)
    for slot in range(start, start + SLOTS_PER_ROW - 1):
        board[slot] = board[slot + 1]
    board[start + SLOTS_PER_ROW - 1] = card
    return Reveal(cards[card].id, start + SLOTS_PER_ROW - 1, cards[pushed].id)


def reveal(state: GameState, reveals: list[Reveal]) -> bool:
    """T1: reveal the top card; returns True if it was the Change of Era card."""
    card = state.deck.pop()
    state.passed_mask = 0
    if card == CHANGE_OF_ERA:
        state.era = 2  # every entrepreneur flips to side II at once
        reveals.append(Reveal(CHANGE_OF_ERA_ID, None, None))
        return True
    reveals.append(place(state, card))
    return False


def start_turn(state: GameState, player: int, reveals: list[Reveal]) -> bool:
    """Begin a (possibly extra) turn with T1; returns True if the era changed."""
    state.current_player = player
    state.turn += 1
    state.phase = CHOOSE_TARGET
    era_changed = False
    if state.deck:
        era_changed = reveal(state, reveals)
        if era_changed and state.options.reveal_after_change_of_era and state.deck:
            reveal(state, reveals)
    return era_changed


# ---------------------------------------------------------------------------------------------
# Dice pools, targets and odds (all derived values come from engine.derived)
# ---------------------------------------------------------------------------------------------
def player_pool(state: GameState, player: int) -> Pool:
    """The player's dice per exchange variant, Engine bonuses and exchange (T2-T5)."""
    return tables_for(state.cards).pool(state.era, state.players[player].slots)


def phase_available(state: GameState, phase: int) -> bool:
    """H1: the Hindenburg is open and the phase not completed (and next, if in order)."""
    if not state.hindenburg_open or state.hindenburg[phase] != EMPTY:
        return False
    return state.options.hindenburg_any_order or phase == state.hindenburg.index(EMPTY)


def target_card(state: GameState, target: int) -> tuple[str, int, DiceCounts, int] | None:
    """(card or phase id, card index, cost, target number) of a target, or None if empty."""
    cards = state.cards
    if target < FIRST_STACK_TARGET:
        card = state.board[target]
        if card == EMPTY:
            return None
        expansion = cards.expansions[card]
        return expansion.id, card, expansion.cost, expansion.target
    if target < FIRST_PHASE_TARGET:
        stack = state.stacks[target - FIRST_STACK_TARGET]
        if not stack:
            return None
        airship = cards.airships[stack[-1]]
        return airship.id, stack[-1], airship.cost, airship.target
    phase_index = target - FIRST_PHASE_TARGET
    if not phase_available(state, phase_index):
        return None
    phase = cards.hindenburg[phase_index]
    return phase.id, phase_index, phase.cost, phase.target


def target_classes(state: GameState) -> list[int | None]:
    """Per target, its odds class in the card set's tables (cost and target number), or None
    where there is nothing to attempt."""
    tables = tables_for(state.cards)
    expansion_class, airship_class = tables.expansion_class, tables.airship_class
    classes: list[int | None] = [
        None if card == EMPTY else expansion_class[card] for card in state.board
    ]
    classes += [airship_class[stack[-1]] if stack else None for stack in state.stacks]
    phase_class = tables.phase_class
    classes += [
        phase_class[phase] if phase_available(state, phase) else None
        for phase in range(len(state.hindenburg))
    ]
    return classes


def attempt_table(state: GameState, player: int | None = None) -> list[AttemptOdds | None]:
    """The exact odds of every attempt action (by index) for ``player`` (default: the player to
    act), None where the attempt is not offered. Uses public information only."""
    if player is None:
        player = state.current_player
    tables = tables_for(state.cards)
    pool = tables.pool(state.era, state.players[player].slots)
    wooden = state.wooden_airship == player
    has_chip = state.players[player].chips_on_board > 0
    needs_colour = state.options.engine_bonus_needs_cost_colour
    table: list[AttemptOdds | None] = []
    for target_class in target_classes(state):
        if target_class is None:
            table += (None,) * NUM_VARIANTS
        else:
            table += tables.odds(pool, target_class, wooden, has_chip, needs_colour)
    return table


def attempt_odds(state: GameState, action: int, player: int | None = None) -> AttemptOdds | None:
    """Exact odds of an attempt action for ``player`` (default: the player to act), None if the
    attempt is not offered (empty target, variant not open, or not eligible).

    Uses public information only: the player's dice and bonuses and the target's card.
    """
    if not is_attempt(action):
        raise ValueError(f"action {action} is not an attempt (0..{NUM_ATTEMPT_ACTIONS - 1})")
    if player is None:
        player = state.current_player
    target = attempt_target(action)
    info = target_card(state, target)
    if info is None:
        return None
    tables = tables_for(state.cards)
    if target < FIRST_STACK_TARGET:
        target_class = tables.expansion_class[info[1]]
    elif target < FIRST_PHASE_TARGET:
        target_class = tables.airship_class[info[1]]
    else:
        target_class = tables.phase_class[info[1]]
    pool = tables.pool(state.era, state.players[player].slots)
    return tables.odds(
        pool,
        target_class,
        state.wooden_airship == player,
        state.players[player].chips_on_board > 0,
        state.options.engine_bonus_needs_cost_colour,
    )[attempt_variant(action)]


def _bonuses(
    state: GameState, player: int, pool: Pool, cost: DiceCounts
) -> tuple[tuple[str, int], ...]:
    """T5: the automatic bonuses (wooden airship, Engine), named for the record."""
    found: list[tuple[str, int]] = []
    if state.wooden_airship == player:
        found.append(("wooden airship", 1))
    needs_colour = state.options.engine_bonus_needs_cost_colour
    for bonus in pool.engine_bonuses:
        if engine_bonus_applies(bonus, cost, needs_colour):
            found.append((f"engine +{bonus.amount} {BONUS_COLOURS[bonus.colour]}", bonus.amount))
    return tuple(found)


# ---------------------------------------------------------------------------------------------
# Legal actions
# ---------------------------------------------------------------------------------------------
def legal_actions(state: GameState) -> list[int]:
    """The legal action indices in increasing order (a fresh list)."""
    cached = state.legal_cache
    if cached is None:
        cached = _compute_legal(state)
        state.legal_cache = cached
    return cached.copy()


def _compute_legal(state: GameState) -> list[int]:
    phase = state.phase
    if phase == CHOOSE_TARGET:
        return _attempt_actions(state) or [PASS]  # T2a
    if phase == CHIP_DECISION:
        return [SPEND_CHIP, KEEP_CHIP]
    if phase == EXTRA_TURN:
        return [BUY_EXTRA_TURN, END_TURN]
    return []


def _attempt_actions(state: GameState) -> list[int]:
    """T2, T3: every offered attempt (target and exchange variant) the player can pay for."""
    pool = player_pool(state, state.current_player)
    tables = tables_for(state.cards)
    class_cost = tables.class_cost
    actions: list[int] = []
    for target, target_class in enumerate(target_classes(state)):
        if target_class is None:
            continue
        for variant, offered in enumerate(pool.offers(class_cost[target_class][0])):
            if offered:
                actions.append(attempt_action(target, variant))
    return actions


def is_legal(state: GameState, action: int) -> bool:
    """Whether ``action`` is legal now."""
    if state.legal_cache is None:
        state.legal_cache = _compute_legal(state)
    return action in state.legal_cache


# ---------------------------------------------------------------------------------------------
# Applying an action
# ---------------------------------------------------------------------------------------------
class _Builder:
    """Collects what an action does; frozen into an ActionRecord at the end."""

    __slots__ = ("chips", "fields", "reveals")

    def __init__(self) -> None:
        self.fields: dict[str, object] = {}
        self.chips: list[ChipMove] = []
        self.reveals: list[Reveal] = []


def apply_action(
    state: GameState, action: int, dice: Sequence[Sequence[int]] | None = None
) -> ActionRecord:
    """Apply a legal action and return its record.

    ``dice`` forces the faces of an attempt's roll, per colour (white, red, black), instead of
    rolling with the state's generator: replays and hand-built tests use it.
    Raises :class:`IllegalActionError` for an action that is not legal now, and ValueError on a
    public view (its hidden cards are placeholders: :func:`~airships_env.engine.determinize`
    gives a playable copy).
    """
    if state.is_public_view:
        raise ValueError(
            "a public view cannot advance the game (its hidden cards are placeholders); "
            "determinize(view, rng) gives a playable copy"
        )
    index = as_action_index(action)
    if index is None or not is_legal(state, index):
        _refuse(state, action)
    assert index is not None
    action = index
    player = state.current_player
    phase = state.phase
    turn = state.turn
    build = _Builder()
    if is_attempt(action):
        _attempt(state, player, attempt_target(action), attempt_variant(action), dice, build)
    elif action == PASS:  # T2a: no roll, no chip
        build.fields["result"] = "passed"
        if not state.deck:
            state.passed_mask |= 1 << player
        _end_turn(state, player, build)
    elif action == SPEND_CHIP:  # T5: the chip goes back to the supply
        pending = state.pending
        assert pending is not None
        ps = state.players[player]
        ps.chips_on_board -= 1
        ps.chips_supply += 1
        build.chips.append(ChipMove(player, 1, "board", "supply", "chip spent"))
        _copy_pending(state, build, pending, chip=True)
        state.pending = None
        _succeed(state, player, pending.target, build)
        _end_turn(state, player, build)
    elif action == KEEP_CHIP:
        pending = state.pending
        assert pending is not None
        _copy_pending(state, build, pending, chip=False)
        state.pending = None
        _fail(state, player, build)
        _end_turn(state, player, build)
    elif action == BUY_EXTRA_TURN:  # T8: the chips go back to the supply
        ps = state.players[player]
        ps.chips_on_board -= EXTRA_TURN_PRICE
        ps.chips_supply += EXTRA_TURN_PRICE
        build.chips.append(ChipMove(player, EXTRA_TURN_PRICE, "board", "supply", "extra turn"))
        build.fields["era_changed"] = start_turn(state, player, build.reveals)
    else:  # END_TURN, T9
        build.fields["era_changed"] = start_turn(
            state, (player + 1) % state.num_players, build.reveals
        )
    step = state.step
    state.step = step + 1
    state.legal_cache = None
    return ActionRecord(
        step=step,
        turn=turn,
        player=player,
        action=action,
        name=ACTION_NAMES[action],
        phase=PHASE_NAMES[phase],
        chips=tuple(build.chips),
        reveals=tuple(build.reveals),
        wooden_airship=state.wooden_airship,
        next_player=state.current_player,
        game_over=state.phase == GAME_OVER,
        scores=state.final_scores,
        winners=state.winners,
        **build.fields,  # type: ignore[arg-type]
    )


def _refuse(state: GameState, action: object) -> None:
    legal = legal_actions(state)
    names = [ACTION_NAMES[a] for a in legal]
    phase = PHASE_NAMES[state.phase]
    index = as_action_index(action)
    shown = action if index is None else index
    if (not_an_action := not_an_action_reason(action)) is not None:
        raise ActionSpaceError(shown, phase, legal, names, not_an_action)
    assert index is not None
    if state.phase == GAME_OVER:
        why = "the game is over"
    else:
        why = f"'{ACTION_NAMES[index]}' is not allowed now"
    raise IllegalActionError(shown, phase, legal, names, why)


def _attempt(
    state: GameState,
    player: int,
    target: int,
    variant: int,
    forced: Sequence[Sequence[int]] | None,
    build: _Builder,
) -> None:
    """T2-T7: declare, exchange, roll, add bonuses, then succeed, fail or ask about a chip."""
    info = target_card(state, target)
    assert info is not None
    card_id, _card, cost, needed = info
    pool = player_pool(state, player)
    hand = pool.hands[variant]
    assert hand is not None
    shape = pool.shape(variant, cost)
    rolled_counts = [0, 0, 0]
    for colour, count, _keep, _fixed in shape:
        rolled_counts[colour] = count
    if forced is None:
        if state.rng is None:
            raise ValueError("this state has no random generator: pass the dice")
        rolled = _dice.roll(state.rng, rolled_counts)  # T4: one roll
    else:
        problem = _dice.check_forced_roll(rolled_counts, forced)
        if problem is not None:
            raise ValueError(
                f"forced dice for '{ACTION_NAMES[attempt_action(target, variant)]}': {problem}"
            )
        rolled = tuple(tuple(int(v) for v in values) for values in forced)
    state.passed_mask = 0  # E4: an attempt resets the passes (only once the roll is valid)
    kept_lists: list[tuple[int, ...]] = [(), (), ()]
    dice_sum = 0
    for colour, _rolled, keep, fixed in shape:
        best = sorted(rolled[colour] + fixed, reverse=True)[:keep]
        kept_lists[colour] = tuple(best)
        dice_sum += sum(best)
    kept = (kept_lists[0], kept_lists[1], kept_lists[2])
    bonuses = _bonuses(state, player, pool, cost)  # T5
    total = dice_sum + sum(amount for _name, amount in bonuses)
    fields = build.fields
    fields.update(
        target=card_id,
        exchange=hand.exchange,
        rolled=rolled,
        kept=kept,
        dice_sum=dice_sum,
        bonuses=bonuses,
        total=total,
        needed=needed,
    )
    if total >= needed:
        _succeed(state, player, target, build)
        _end_turn(state, player, build)
    elif total == needed - 1 and state.players[player].chips_on_board > 0:
        state.pending = PendingAttempt(
            target, variant, hand.exchange, needed, rolled, kept, dice_sum, bonuses, total
        )
        state.phase = CHIP_DECISION
        fields["result"] = "chip decision"
    else:
        _fail(state, player, build)
        _end_turn(state, player, build)


def _copy_pending(state: GameState, build: _Builder, pending: PendingAttempt, chip: bool) -> None:
    """The chip decision's record repeats the roll it decides."""
    info = target_card(state, pending.target)
    assert info is not None
    build.fields.update(
        target=info[0],
        exchange=pending.exchange,
        rolled=pending.rolled,
        kept=pending.kept,
        dice_sum=pending.dice_sum,
        needed=pending.needed,
        bonuses=pending.bonuses + ((("chip", 1),) if chip else ()),
        total=pending.total + (1 if chip else 0),
    )


def _succeed(state: GameState, player: int, target: int, build: _Builder) -> None:
    """T6: the card or phase goes to the player."""
    cards = state.cards
    ps = state.players[player]
    fields = build.fields
    fields["result"] = "success"
    if target < FIRST_STACK_TARGET:
        card = state.board[target]
        state.board[target] = EMPTY  # P2: the other cards of the row do not slide
        expansion = cards.expansions[card]
        old = ps.slots[expansion.department]
        if old != EMPTY:
            state.removed.append(old)
            fields["discarded"] = cards.expansions[old].id
        ps.slots[expansion.department] = card
        fields["acquired"] = fields["target"] = expansion.id
        if expansion.chips:  # a Captain's chips, as many as the supply holds
            moved = min(expansion.chips, ps.chips_supply)
            if moved:
                ps.chips_supply -= moved
                ps.chips_on_board += moved
                build.chips.append(ChipMove(player, moved, "supply", "board", "captain"))
    elif target < FIRST_PHASE_TARGET:
        stack = state.stacks[target - FIRST_STACK_TARGET]
        card = stack.pop()
        ps.airships.append(card)
        fields["acquired"] = fields["target"] = cards.airships[card].id
        opens = not state.hindenburg_open and not stack  # H1
        if opens and not state.options.wooden_airship_with_opening_airship:
            state.hindenburg_open = True
        if not state.hindenburg_open:  # H3
            state.wooden_airship = player
        if opens:
            state.hindenburg_open = True
            fields["hindenburg_opened"] = True
    else:
        phase_index = target - FIRST_PHASE_TARGET
        state.hindenburg[phase_index] = player
        source = "supply" if ps.chips_supply > 0 else "board"
        if source == "supply":
            ps.chips_supply -= 1
        else:
            ps.chips_on_board -= 1
        build.chips.append(ChipMove(player, 1, source, "hindenburg", "hindenburg mark"))
        state.wooden_airship = player
        fields["acquired"] = fields["target"] = cards.hindenburg[phase_index].id


def _fail(state: GameState, player: int, build: _Builder) -> None:
    """T7: one chip from the supply onto the board, if the supply has one."""
    build.fields["result"] = "failure"
    ps = state.players[player]
    if ps.chips_supply > 0:
        ps.chips_supply -= 1
        ps.chips_on_board += 1
        build.chips.append(ChipMove(player, 1, "supply", "board", "failure"))


def _end_turn(state: GameState, player: int, build: _Builder) -> None:
    """T8/E1: end the game, offer an extra turn, or pass to the next seat (T9)."""
    if game_should_end(state):
        _finish(state)
        return
    if state.players[player].chips_on_board >= EXTRA_TURN_PRICE:
        state.phase = EXTRA_TURN
        return
    build.fields["era_changed"] = start_turn(state, (player + 1) % state.num_players, build.reveals)


def game_should_end(state: GameState) -> bool:
    """E1 (and the E4 stalemate ruling): checked after every turn."""
    stacks = state.stacks
    if len(stacks[0]) <= 1 and len(stacks[1]) <= 1 and len(stacks[2]) <= 1 and len(stacks[3]) <= 1:
        return True
    if EMPTY not in state.hindenburg:
        return True
    return (
        state.options.stalemate_ends_game
        and not state.deck
        and state.passed_mask == (1 << state.num_players) - 1
    )


def _finish(state: GameState) -> None:
    state.phase = GAME_OVER
    state.pending = None
    state.final_scores = tuple(scores(state))
    state.winners = tuple(winners(state))


def outcome_if_success(
    state: GameState, action: int
) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """If the acting player's attempt ``action`` (or the pending attempt, for ``SPEND_CHIP``)
    succeeds: the final scores and winners when that ends the game (E1), None when the game goes
    on. Works on a public view: nothing hidden is read and no card is revealed."""
    if action == SPEND_CHIP:
        assert state.pending is not None, "no pending attempt"
        target = state.pending.target
    else:
        target = attempt_target(action)
    assert target_card(state, target) is not None, f"target {target} holds nothing"
    after = state.clone(with_rng=False)
    after.is_public_view = False
    _succeed(after, state.current_player, target, _Builder())
    if not game_should_end(after):
        return None
    _finish(after)
    assert after.final_scores is not None and after.winners is not None
    return after.final_scores, after.winners


# ---------------------------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------------------------
def score_parts(state: GameState, player: int) -> dict[str, int]:
    """E2: a player's score by source: expansion stars, airships, Hindenburg phases."""
    cards = state.cards
    ps = state.players[player]
    complete = all(holder != EMPTY for holder in state.hindenburg)
    return {
        "expansions": sum(cards.expansions[c].stars for c in ps.slots if c != EMPTY),
        "airships": sum(cards.airships[a].stars for a in ps.airships),
        "hindenburg": sum(
            (phase.high if complete else phase.low)
            for phase, holder in zip(cards.hindenburg, state.hindenburg, strict=True)
            if holder == player
        ),
    }


def scores(state: GameState) -> list[int]:
    """E2: every player's current score."""
    return [sum(score_parts(state, p).values()) for p in range(state.num_players)]


def airship_count(state: GameState, player: int) -> int:
    """E3's tie-break: airships plus completed Hindenburg phases."""
    return len(state.players[player].airships) + state.hindenburg.count(player)


def winners(state: GameState) -> list[int]:
    """E3: highest score; then most airships (phases count as airships); then a shared win."""
    current = scores(state)
    best = max(current)
    leaders = [p for p in range(state.num_players) if current[p] == best]
    most = max(airship_count(state, p) for p in leaders)
    return [p for p in leaders if airship_count(state, p) == most]


def ranks(state: GameState) -> list[int]:
    """Each seat's place in a finished game: 1 for the winners (E3), then the others by score,
    then airships (E3's tie-break); equal places share a rank (1, 2, 2, 4)."""
    if state.final_scores is None or state.winners is None:
        raise ValueError("the game is not over: no places yet")
    keys = [(state.final_scores[p], airship_count(state, p)) for p in range(state.num_players)]
    return list(ranks_from(state.winners, keys))


def outcome(state: GameState) -> Outcome | None:
    """The protocol's outcome of a finished game (scores, E3 winners, places); None before."""
    if state.final_scores is None or state.winners is None:
        return None
    return Outcome(
        scores=tuple(float(score) for score in state.final_scores),
        winners=tuple(state.winners),
        ranks=tuple(ranks(state)),
    )


def returns(state: GameState) -> list[float]:
    """OpenSpiel-style returns: 1 shared equally by the winners, 0 for the others."""
    if state.winners is None:
        return [0.0] * state.num_players
    share = 1.0 / len(state.winners)
    return [share if p in state.winners else 0.0 for p in range(state.num_players)]
