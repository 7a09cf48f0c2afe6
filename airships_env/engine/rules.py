"""The rules of Airships (RULES.md): setup, legal actions, applying an action, scoring.

Every function takes a :class:`GameState` and is the only place its rule is implemented; the
environment, the bots and the tools call these. Comments name the rule id they implement.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from airships_env.engine import dice as _dice
from airships_env.engine.actions import (
    ACTION_NAMES,
    BUY_EXTRA_TURN,
    END_TURN,
    FIRST_PHASE_TARGET,
    FIRST_STACK_TARGET,
    KEEP_CHIP,
    NUM_ACTIONS,
    NUM_ATTEMPT_ACTIONS,
    PASS,
    SLOTS_PER_ROW,
    SPEND_CHIP,
)
from airships_env.engine.cards import (
    AIRSHIP_TIERS,
    ANY,
    BONUS_COLOURS,
    DEPARTMENTS,
    CardSet,
    DiceCounts,
    EngineBonus,
    load_cards,
)
from airships_env.engine.dice import AttemptOdds, AttemptShape
from airships_env.engine.errors import IllegalActionError
from airships_env.engine.records import ActionRecord, ChipMove, Reveal
from airships_env.engine.state import (
    CHANGE_OF_ERA,
    CHANGE_OF_ERA_ID,
    CHIP_DECISION,
    CHOOSE_TARGET,
    EMPTY,
    EXTRA_TURN,
    EXTRA_TURN_PRICE,
    GAME_OVER,
    PHASE_NAMES,
    GameState,
    PendingAttempt,
    PlayerState,
    Pool,
    RulesOptions,
)

MIN_PLAYERS, MAX_PLAYERS = 2, 4
BOARD_EXPANSIONS_AT_SETUP = 6  # S4
START_PLAYER_CHIPS, OTHER_PLAYER_CHIPS = 3, 4  # S6


# ---------------------------------------------------------------------------------------------
# Setup
# ---------------------------------------------------------------------------------------------
def new_game(
    num_players: int = 4,
    seed: int | None = None,
    *,
    rng: np.random.Generator | None = None,
    cards: CardSet | str | None = None,
    options: RulesOptions | None = None,
) -> GameState:
    """Set up a game (S1-S6) and start the first turn (T1); all chance comes from ``rng``.

    Pass either ``rng`` or ``seed`` (``seed=None`` and no ``rng`` draws fresh OS entropy).
    """
    if isinstance(num_players, np.integer):
        num_players = int(num_players)
    if (
        isinstance(num_players, bool)
        or not isinstance(num_players, int)
        or not (MIN_PLAYERS <= num_players <= MAX_PLAYERS)
    ):  # S1
        raise ValueError(f"num_players must be {MIN_PLAYERS} to {MAX_PLAYERS}, got {num_players!r}")
    if rng is not None and seed is not None:
        raise ValueError("pass either seed or rng, not both")
    if rng is None:
        rng = np.random.default_rng(seed)
    card_set = cards if isinstance(cards, CardSet) else load_cards(cards)
    options = options if options is not None else RulesOptions()

    # S2: each tier shuffled; 4 stacks, tier 3 at the bottom, tier 1 on top; 6 left out unseen.
    stacks: list[list[int]] = [[] for _ in range(4)]
    left_out: list[int] = []
    for tier in reversed(AIRSHIP_TIERS):
        shuffled = _shuffled(rng, card_set.airships_of_tier(tier))
        for stack, card in zip(stacks, shuffled[:4], strict=True):
            stack.append(card)
        left_out.extend(shuffled[4:])
    # S3: top to bottom: Era 1 shuffled, the Change of Era card, Era 2 shuffled (top = last).
    deck = [*_shuffled(rng, card_set.expansions_of_era(2)), CHANGE_OF_ERA]
    deck += _shuffled(rng, card_set.expansions_of_era(1))
    # S5, S6: two white dice each (entrepreneur side I + starter); chips 3 / 4 on the board.
    players = [
        PlayerState(
            slots=[EMPTY] * len(DEPARTMENTS),
            airships=[],
            chips_on_board=START_PLAYER_CHIPS if seat == 0 else OTHER_PLAYER_CHIPS,
            chips_supply=6 - (START_PLAYER_CHIPS if seat == 0 else OTHER_PLAYER_CHIPS),
        )
        for seat in range(num_players)
    ]
    state = GameState(
        cards=card_set,
        options=options,
        num_players=num_players,
        players=players,
        era=1,
        deck=deck,
        board=[EMPTY] * (len(DEPARTMENTS) * SLOTS_PER_ROW),
        stacks=stacks,
        left_out=left_out,
        removed=[],
        hindenburg=[EMPTY] * len(card_set.hindenburg),
        hindenburg_open=False,
        wooden_airship=EMPTY,
        current_player=0,
        phase=CHOOSE_TARGET,
        pending=None,
        turn=0,
        step=0,
        passed_mask=0,
        final_scores=None,
        winners=None,
        rng=rng,
    )
    # S4: starters shuffled, one dealt to each player, the rest onto the board by P1; then
    # reveal from the deck until 6 expansions lie on the board.
    starters = _shuffled(rng, card_set.expansions_of_era(0))
    for seat, card in enumerate(starters[:num_players]):
        players[seat].slots[card_set.expansions[card].department] = card
    for card in starters[num_players:]:
        _place(state, card)
    reveals: list[Reveal] = []
    while state.deck and (len(state.board) - state.board.count(EMPTY) < BOARD_EXPANSIONS_AT_SETUP):
        _reveal(state, reveals)
    _start_turn(state, 0, [])
    return state


def _shuffled(rng: np.random.Generator, items: list[int]) -> list[int]:
    return [items[i] for i in rng.permutation(len(items)).tolist()]


# ---------------------------------------------------------------------------------------------
# The board
# ---------------------------------------------------------------------------------------------
def _place(state: GameState, card: int) -> Reveal:
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


def _reveal(state: GameState, reveals: list[Reveal]) -> bool:
    """T1: reveal the top card; returns True if it was the Change of Era card."""
    card = state.deck.pop()
    state.passed_mask = 0
    if card == CHANGE_OF_ERA:
        state.era = 2
        for player in state.players:
            player.pool = None  # every entrepreneur flips to side II at once
        reveals.append(Reveal(CHANGE_OF_ERA_ID, None, None))
        return True
    reveals.append(_place(state, card))
    return False


def _start_turn(state: GameState, player: int, reveals: list[Reveal]) -> bool:
    """Begin a (possibly extra) turn: T1; returns True if the era changed."""
    state.current_player = player
    state.turn += 1
    state.phase = CHOOSE_TARGET
    era_changed = False
    if state.deck:
        era_changed = _reveal(state, reveals)
        if era_changed and state.options.reveal_after_change_of_era and state.deck:
            _reveal(state, reveals)
    return era_changed


# ---------------------------------------------------------------------------------------------
# Dice pools and targets
# ---------------------------------------------------------------------------------------------
def player_pool(state: GameState, player: int) -> Pool:
    """The player's dice, fixed dice, Engine bonuses and exchange (cached until they change)."""
    ps = state.players[player]
    pool = ps.pool
    if pool is None:
        # Pools depend only on the slots and the era: memoised per card set, across games.
        key = (state.era, *ps.slots)
        memo = state.cards.memo
        pool = memo.get(key)  # type: ignore[assignment]
        if pool is None:
            pool = _build_pool(state.cards, ps.slots, state.era)
            memo[key] = pool
        ps.pool = pool
    return pool


def _build_pool(cards: CardSet, slots: Sequence[int], era: int) -> Pool:
    rollable = list(cards.entrepreneur_side_2 if era == 2 else cards.entrepreneur_side_1)
    fixed: list[tuple[int, int]] = []
    bonuses: list[EngineBonus] = []
    exchange = None
    for card_index in slots:
        if card_index == EMPTY:
            continue
        card = cards.expansions[card_index]
        for colour in range(3):
            rollable[colour] += card.dice[colour]
        if card.fixed_die is not None:
            fixed.append((card.fixed_die.colour, card.fixed_die.value))
        bonuses.extend(card.engine_bonuses)
        if card.exchange is not None:
            exchange = card.exchange
    fixed.sort(key=lambda die: (die[0], -die[1]))
    available = _available(rollable, fixed)
    rollable_x = fixed_x = available_x = None
    if exchange is not None and all(available[c] >= exchange.give[c] for c in range(3)):
        # T3: rollable dice of the given colour go before fixed dice [ruling]; of the fixed
        # dice, the lowest goes first.
        rollable_x_list = list(rollable)
        fixed_x_list = list(fixed)
        for colour in range(3):
            give = exchange.give[colour]
            from_rollable = min(give, rollable_x_list[colour])
            rollable_x_list[colour] += exchange.get[colour] - from_rollable
            for _ in range(give - from_rollable):
                lowest = max(i for i, die in enumerate(fixed_x_list) if die[0] == colour)
                del fixed_x_list[lowest]
        rollable_x = (rollable_x_list[0], rollable_x_list[1], rollable_x_list[2])
        fixed_x = tuple(fixed_x_list)
        available_x = _available(rollable_x, fixed_x_list)
    return Pool(
        rollable=(rollable[0], rollable[1], rollable[2]),
        fixed=tuple(fixed),
        available=available,
        engine_bonuses=tuple(bonuses),
        exchange=exchange,
        rollable_exchanged=rollable_x,
        fixed_exchanged=fixed_x,
        available_exchanged=available_x,
    )


def _available(rollable: Sequence[int], fixed: Sequence[tuple[int, int]]) -> DiceCounts:
    counts = [rollable[0], rollable[1], rollable[2]]
    for colour, _value in fixed:
        counts[colour] += 1
    return (counts[0], counts[1], counts[2])


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
    if not state.hindenburg_open or state.hindenburg[phase_index] != EMPTY:
        return None
    if not state.options.hindenburg_any_order and phase_index != state.hindenburg.index(EMPTY):
        return None
    phase = cards.hindenburg[phase_index]
    return phase.id, phase_index, phase.cost, phase.target


def attempt_shape(pool: Pool, cost: DiceCounts, exchange: bool) -> AttemptShape:
    """The dice an attempt rolls and keeps, per colour in the cost (T4)."""
    key = (cost, exchange)
    shape = pool.shapes.get(key)
    if shape is None:
        if exchange:
            assert pool.rollable_exchanged is not None and pool.fixed_exchanged is not None
            rollable, fixed = pool.rollable_exchanged, pool.fixed_exchanged
        else:
            rollable, fixed = pool.rollable, pool.fixed
        shape = tuple(
            (
                colour,
                min(rollable[colour], _dice.MAX_ROLLED_PER_COLOUR),
                cost[colour],
                tuple(sorted((v for c, v in fixed if c == colour), reverse=True)),
            )
            for colour in range(3)
            if cost[colour]
        )
        pool.shapes[key] = shape
    return shape


def _engine_bonus_applies(bonus: EngineBonus, cost: DiceCounts, needs_colour: bool) -> bool:
    """T5: grey always; a colour when the cost asks for it [ruling] (or always, by option)."""
    return bonus.colour == ANY or not needs_colour or cost[bonus.colour] > 0


def engine_bonus(state: GameState, pool: Pool, cost: DiceCounts) -> int:
    """T5: the Engine bonuses that apply to an attempt with this cost."""
    needs_colour = state.options.engine_bonus_needs_cost_colour
    # The pool is shared by every game on this card set: the key holds the ruling too.
    key = (cost, needs_colour)
    total = pool.engine_bonus_by_cost.get(key)
    if total is None:
        total = sum(
            bonus.amount
            for bonus in pool.engine_bonuses
            if _engine_bonus_applies(bonus, cost, needs_colour)
        )
        pool.engine_bonus_by_cost[key] = total
    return total


def _bonuses(
    state: GameState, player: int, pool: Pool, cost: DiceCounts
) -> tuple[tuple[str, int], ...]:
    """T5: the automatic bonuses (wooden airship, Engine), named for the record."""
    found: list[tuple[str, int]] = []
    if state.wooden_airship == player:
        found.append(("wooden airship", 1))
    needs_colour = state.options.engine_bonus_needs_cost_colour
    for bonus in pool.engine_bonuses:
        if _engine_bonus_applies(bonus, cost, needs_colour):
            found.append((f"engine +{bonus.amount} {BONUS_COLOURS[bonus.colour]}", bonus.amount))
    return tuple(found)


def attempt_odds(
    state: GameState, target: int, exchange: bool, player: int | None = None
) -> AttemptOdds | None:
    """Exact odds of an attempt for ``player`` (default: the player to act), None if ineligible.

    Uses public information only: the player's dice and bonuses and the target's card.
    """
    if player is None:
        player = state.current_player
    info = target_card(state, target)
    if info is None:
        return None
    _card_id, _card, cost, needed = info
    pool = player_pool(state, player)
    if not _eligible(pool, cost, exchange):
        return None
    bonus = engine_bonus(state, pool, cost) + (1 if state.wooden_airship == player else 0)
    has_chip = state.players[player].chips_on_board > 0
    return _dice.attempt_odds(attempt_shape(pool, cost, exchange), needed, bonus, has_chip)


def _eligible(pool: Pool, cost: DiceCounts, exchange: bool) -> bool:
    """T2: the player holds at least the cost's dice (after the exchange if it makes one)."""
    available = pool.available_exchanged if exchange else pool.available
    return (
        available is not None
        and cost[0] <= available[0]
        and cost[1] <= available[1]
        and cost[2] <= available[2]
    )


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


def _costs(cards: CardSet) -> tuple[tuple[DiceCounts, ...], tuple[DiceCounts, ...]]:
    """The costs of the expansions and of the airships, by index (memoised on the card set)."""
    costs = cards.memo.get("costs")
    if costs is None:
        costs = (tuple(e.cost for e in cards.expansions), tuple(a.cost for a in cards.airships))
        cards.memo["costs"] = costs
    return costs  # type: ignore[return-value]


def _attempt_actions(state: GameState) -> list[int]:
    pool = player_pool(state, state.current_player)
    plain = pool.available
    exchanged = pool.available_exchanged
    a0, a1, a2 = plain
    b0, b1, b2 = exchanged if exchanged is not None else (-1, -1, -1)
    actions: list[int] = []
    append = actions.append
    expansion_costs, airship_costs = _costs(state.cards)
    target = -1
    for card in state.board:
        target += 1
        if card != EMPTY:
            c0, c1, c2 = expansion_costs[card]
            if c0 <= a0 and c1 <= a1 and c2 <= a2:
                append(2 * target)
            if c0 <= b0 and c1 <= b1 and c2 <= b2:
                append(2 * target + 1)
    for index, stack in enumerate(state.stacks):
        if stack:
            c0, c1, c2 = airship_costs[stack[-1]]
            target = FIRST_STACK_TARGET + index
            if c0 <= a0 and c1 <= a1 and c2 <= a2:
                append(2 * target)
            if c0 <= b0 and c1 <= b1 and c2 <= b2:
                append(2 * target + 1)
    if state.hindenburg_open:  # H1
        phases = state.cards.hindenburg
        any_order = state.options.hindenburg_any_order
        for index, holder in enumerate(state.hindenburg):
            if holder != EMPTY:
                continue
            c0, c1, c2 = phases[index].cost
            target = FIRST_PHASE_TARGET + index
            if c0 <= a0 and c1 <= a1 and c2 <= a2:
                append(2 * target)
            if c0 <= b0 and c1 <= b1 and c2 <= b2:
                append(2 * target + 1)
            if not any_order:
                break
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
    Raises :class:`IllegalActionError` for an action that is not legal now.
    """
    if isinstance(action, (np.integer,)):
        action = int(action)
    if not isinstance(action, int) or isinstance(action, bool) or not is_legal(state, action):
        _refuse(state, action)
    player = state.current_player
    phase = state.phase
    turn = state.turn
    build = _Builder()
    if action < NUM_ATTEMPT_ACTIONS:
        _attempt(state, player, action >> 1, bool(action & 1), dice, build)
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
    elif action == BUY_EXTRA_TURN:  # T8
        ps = state.players[player]
        ps.chips_on_board -= EXTRA_TURN_PRICE
        ps.chips_supply += EXTRA_TURN_PRICE
        build.chips.append(ChipMove(player, EXTRA_TURN_PRICE, "board", "supply", "extra turn"))
        build.fields["era_changed"] = _start_turn(state, player, build.reveals)
    else:  # END_TURN, T9
        build.fields["era_changed"] = _start_turn(
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
    if state.phase == GAME_OVER:
        why = "the game is over"
    elif isinstance(action, bool) or not isinstance(action, int):
        why = f"an action is an integer index, got {type(action).__name__}"
    elif not 0 <= action < NUM_ACTIONS:
        why = f"no action has index {action} (0..{NUM_ACTIONS - 1})"
    else:
        why = f"'{ACTION_NAMES[action]}' is not allowed now"
    raise IllegalActionError(
        action, PHASE_NAMES[state.phase], legal, [ACTION_NAMES[a] for a in legal], why
    )


def _attempt(
    state: GameState,
    player: int,
    target: int,
    exchange: bool,
    forced: Sequence[Sequence[int]] | None,
    build: _Builder,
) -> None:
    """T2-T7: declare, exchange, roll, add bonuses, then succeed, fail or ask about a chip."""
    info = target_card(state, target)
    assert info is not None
    card_id, _card, cost, needed = info
    pool = player_pool(state, player)
    shape = attempt_shape(pool, cost, exchange)
    rolled_counts = [0, 0, 0]
    for colour, count, _keep, _fixed in shape:
        rolled_counts[colour] = count
    if forced is None:
        if state.rng is None:
            raise ValueError(
                "this state has no random generator (a public view): "
                "determinize it or pass the dice"
            )
        rolled = _dice.roll(state.rng, rolled_counts)  # T4: one roll
    else:
        problem = _dice.check_forced_roll(rolled_counts, forced)
        if problem is not None:
            raise ValueError(f"forced dice for '{ACTION_NAMES[2 * target + exchange]}': {problem}")
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
        exchange=exchange,
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
            target, exchange, needed, rolled, kept, dice_sum, bonuses, total
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
        state.board[target] = EMPTY
        expansion = cards.expansions[card]
        old = ps.slots[expansion.department]
        if old != EMPTY:
            state.removed.append(old)
            fields["discarded"] = cards.expansions[old].id
        ps.slots[expansion.department] = card
        ps.pool = None
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
    build.fields["era_changed"] = _start_turn(
        state, (player + 1) % state.num_players, build.reveals
    )


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


def returns(state: GameState) -> list[float]:
    """OpenSpiel-style returns: 1 shared equally by the winners, 0 for the others."""
    if state.winners is None:
        return [0.0] * state.num_players
    share = 1.0 / len(state.winners)
    return [share if p in state.winners else 0.0 for p in range(state.num_players)]
