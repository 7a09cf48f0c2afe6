"""Between the Python engine and the native core: card tables, generator states, game states and
records, converted both ways.

The native core keeps a game as one C struct; :func:`to_native` fills it from a
:class:`~airships_env.engine.GameState` and :func:`to_python` reads it back, so that every
engine function (and every test) can look at a native game, and a native game can start from any
Python state (a public view, a determinized world, a saved game). :func:`record_from_native`
turns the core's compact record of an action into the engine's
:class:`~airships_env.engine.ActionRecord`, field for field.
"""

from __future__ import annotations

from array import array
from functools import lru_cache
from typing import Any

import numpy as np

from airships_env.engine.actions import ACTION_NAMES
from airships_env.engine.cards import BONUS_COLOURS, CardSet
from airships_env.engine.model import (
    CHANGE_OF_ERA,
    CHANGE_OF_ERA_ID,
    EMPTY,
    PHASE_NAMES,
    PendingAttempt,
    PlayerState,
    RulesOptions,
)
from airships_env.engine.records import ActionRecord, ChipMove, ExchangeMade, Reveal
from airships_env.engine.state import GameState

MAX_BONUSES = 4  # Engine bonuses on one card (docs/airships/CARDS.md limits)
MAX_RECORD_BONUSES = 2 + MAX_BONUSES
DECK_MAX, LEFT_OUT, NUM_EXPANSIONS, NUM_AIRSHIPS = 43, 6, 48, 18
MAX_PLAYERS = 4

_RESULTS = (None, "success", "failure", "chip decision", "passed")
_PLACES = ("supply", "board", "hindenburg")
_REASONS = ("failure", "captain", "chip spent", "extra turn", "hindenburg mark")
_KIND_EXPANSION, _KIND_AIRSHIP, _KIND_PHASE = 1, 2, 3


# -- card tables and options -----------------------------------------------------------------
def pack_cards(cards: CardSet) -> array:
    """The card set as the core's int32 table (layout: airships_env/native/src/cards.c)."""
    words = array("i")
    words.extend(cards.entrepreneur_side_1)
    words.extend(cards.entrepreneur_side_2)
    for e in cards.expansions:
        words.extend((e.era, e.department, *e.cost, e.target, e.stars, *e.dice, e.chips))
        if e.fixed_die is None:
            words.extend((-1, 0))
        else:
            words.extend((e.fixed_die.colour, e.fixed_die.value))
        if len(e.engine_bonuses) > MAX_BONUSES:
            raise ValueError(f"{e.id}: the native core takes at most {MAX_BONUSES} engine bonuses")
        colours = [b.colour for b in e.engine_bonuses] + [0] * (MAX_BONUSES - len(e.engine_bonuses))
        amounts = [b.amount for b in e.engine_bonuses] + [0] * (MAX_BONUSES - len(e.engine_bonuses))
        words.append(len(e.engine_bonuses))
        words.extend(colours)
        words.extend(amounts)
        if e.exchange is None:
            words.extend((0, 0, 0, 0, 0, 0, 0))
        else:
            words.extend((1, *e.exchange.give, *e.exchange.get))
    for a in cards.airships:
        words.extend((a.tier, *a.cost, a.target, a.stars))
    for h in cards.hindenburg:
        words.extend((*h.cost, h.target, h.low, h.high))
    return words


def pack_options(options: RulesOptions) -> tuple[bool, bool, bool, bool, bool]:
    """The rules options in the core's order."""
    return (
        options.reveal_after_change_of_era,
        options.hindenburg_any_order,
        options.engine_bonus_needs_cost_colour,
        options.wooden_airship_with_opening_airship,
        options.stalemate_ends_game,
    )


# -- generators --------------------------------------------------------------------------------
RngState = tuple[int, int, int, int]


def rng_state(rng: np.random.Generator | None) -> RngState | None:
    """A numpy PCG64 generator's state as the core takes it (state, inc, has_uint32, uinteger)."""
    if rng is None:
        return None
    state = rng.bit_generator.state
    if state.get("bit_generator") != "PCG64":
        raise ValueError(
            f"the native core replays numpy's PCG64 only, got {state.get('bit_generator')}"
        )
    inner = state["state"]
    return (
        int(inner["state"]),
        int(inner["inc"]),
        int(state["has_uint32"]),
        int(state["uinteger"]),
    )


def generator_from(state: RngState | None) -> np.random.Generator | None:
    """A numpy generator in the given PCG64 state (None stays None)."""
    if state is None:
        return None
    bit_generator = np.random.PCG64()
    bit_generator.state = {
        "bit_generator": "PCG64",
        "state": {"state": state[0], "inc": state[1]},
        "has_uint32": state[2],
        "uinteger": state[3],
    }
    return np.random.Generator(bit_generator)


def seed_words(value: int) -> list[int]:
    """An integer's little-endian 32-bit words, as numpy's SeedSequence reads it (0 -> [0])."""
    if value < 0:
        raise ValueError(f"a seed must be >= 0, got {value}")
    words = []
    while True:
        words.append(value & 0xFFFFFFFF)
        value >>= 32
        if not value:
            return words


# -- states ------------------------------------------------------------------------------------
def _padded(values: list[int], size: int, fill: int = 0) -> list[int]:
    return values + [fill] * (size - len(values))


def state_words(state: GameState) -> list[int]:
    """The state as the core's flat words (layout: Game_export in module.c)."""
    words = [
        state.num_players,
        state.era,
        state.phase,
        state.current_player,
        state.wooden_airship,
        int(state.hindenburg_open),
        int(state.is_public_view),
        int(state.final_scores is not None),
        len(state.deck),
    ]
    words += _padded(list(state.deck), DECK_MAX)
    words += list(state.board)
    for stack in state.stacks:
        words += [len(stack), *_padded(list(stack), 3)]
    words += [len(state.left_out), *_padded(list(state.left_out), LEFT_OUT)]
    words += [len(state.removed), *_padded(list(state.removed), NUM_EXPANSIONS)]
    words += list(state.hindenburg)
    winners_mask = sum(1 << seat for seat in state.winners) if state.winners else 0
    words += [state.passed_mask, winners_mask]
    for seat in range(MAX_PLAYERS):
        if seat < state.num_players:
            p = state.players[seat]
            words += [*p.slots, len(p.airships), *_padded(list(p.airships), NUM_AIRSHIPS)]
            words += [p.chips_on_board, p.chips_supply]
        else:
            words += [EMPTY] * 6 + [0] * (1 + NUM_AIRSHIPS) + [0, 0]
    words += _pending_words(state.pending)
    words += [state.turn, state.step]
    words += _padded(list(state.final_scores or ()), MAX_PLAYERS)
    return words


def _pending_words(pending: PendingAttempt | None) -> list[int]:
    if pending is None:
        return [0] * (6 + 9 + 3 * 8 + 1 + 3 * MAX_RECORD_BONUSES)
    exchange = pending.exchange
    words = [1, pending.target, pending.variant, pending.needed, pending.dice_sum, pending.total]
    if exchange is None:
        words += [0, 0, 0, 0, -1, 0, 0, 0, 0]
    else:
        fixed = exchange.gave_fixed[0] if exchange.gave_fixed else (-1, 0)
        words += [1, *exchange.gave, *fixed, *exchange.received]
    for colour in range(3):
        rolled, kept = pending.rolled[colour], pending.kept[colour]
        words += [len(rolled), *_padded(list(rolled), 3), len(kept), *_padded(list(kept), 3)]
    words.append(len(pending.bonuses))
    for name, amount in _padded_bonuses(pending.bonuses):
        words += _bonus_words(name, amount)
    return words


def _padded_bonuses(bonuses: tuple[tuple[str, int], ...]) -> list[tuple[str, int]]:
    if len(bonuses) > MAX_RECORD_BONUSES:
        raise ValueError(f"at most {MAX_RECORD_BONUSES} bonuses in a roll, got {len(bonuses)}")
    return list(bonuses) + [("", 0)] * (MAX_RECORD_BONUSES - len(bonuses))


def _bonus_words(name: str, amount: int) -> list[int]:
    if not name:
        return [0, 0, 0]
    if name == "wooden airship":
        return [0, 0, amount]
    if name == "chip":
        return [2, 0, amount]
    colour = name.rsplit(" ", 1)[1]
    return [1, BONUS_COLOURS.index(colour), amount]


def _bonus_name(kind: int, colour: int, amount: int) -> tuple[str, int]:
    if kind == 0:
        return ("wooden airship", amount)
    if kind == 2:
        return ("chip", amount)
    return (f"engine +{amount} {BONUS_COLOURS[colour]}", amount)


def to_python(
    words: list[int], rng: RngState | None, cards: CardSet, options: RulesOptions
) -> GameState:
    """A :class:`GameState` from the core's exported words and generator state."""
    it = iter(words)

    def take(count: int) -> list[int]:
        return [next(it) for _ in range(count)]

    num_players, era, phase, current, wooden, hindenburg_open, is_view, over, deck_len = take(9)
    deck = take(DECK_MAX)[:deck_len]
    board = take(18)
    stacks = []
    for _ in range(4):
        height, *cards_in = take(4)
        stacks.append(cards_in[:height])
    n_left, *left = take(1 + LEFT_OUT)
    n_removed, *removed = take(1 + NUM_EXPANSIONS)
    hindenburg = take(4)
    passed_mask, winners_mask = take(2)
    players = []
    for seat in range(MAX_PLAYERS):
        slots = take(6)
        n_airships, *airships = take(1 + NUM_AIRSHIPS)
        chips_on_board, chips_supply = take(2)
        if seat < num_players:
            players.append(PlayerState(slots, airships[:n_airships], chips_on_board, chips_supply))
    pending_words = take(6 + 9 + 24 + 1 + 3 * MAX_RECORD_BONUSES)
    turn, step = take(2)
    scores = take(MAX_PLAYERS)[:num_players]
    return GameState(
        cards=cards,
        options=options,
        num_players=num_players,
        players=players,
        era=era,
        deck=deck,
        board=board,
        stacks=stacks,
        left_out=left[:n_left],
        removed=removed[:n_removed],
        hindenburg=hindenburg,
        hindenburg_open=bool(hindenburg_open),
        wooden_airship=wooden,
        current_player=current,
        phase=phase,
        pending=_pending(pending_words),
        turn=turn,
        step=step,
        passed_mask=passed_mask,
        final_scores=tuple(scores) if over else None,
        winners=tuple(s for s in range(num_players) if winners_mask >> s & 1) if over else None,
        rng=generator_from(rng),
        is_public_view=bool(is_view),
    )


def _pending(words: list[int]) -> PendingAttempt | None:
    if not words[0]:
        return None
    target, variant, needed, dice_sum, total = words[1:6]
    has_exchange, gave, fixed_colour, fixed_value = words[6], words[7:10], words[10], words[11]
    received = words[12:15]
    exchange = None
    if has_exchange:
        exchange = ExchangeMade(
            (gave[0], gave[1], gave[2]),
            ((fixed_colour, fixed_value),) if fixed_colour >= 0 else (),
            (received[0], received[1], received[2]),
        )
    rolled: list[tuple[int, ...]] = []
    kept: list[tuple[int, ...]] = []
    at = 15
    for _colour in range(3):
        n_rolled, *r = words[at : at + 4]
        n_kept, *k = words[at + 4 : at + 8]
        rolled.append(tuple(r[:n_rolled]))
        kept.append(tuple(k[:n_kept]))
        at += 8
    n_bonuses = words[at]
    bonuses = tuple(_bonus_name(*words[at + 1 + 3 * b : at + 4 + 3 * b]) for b in range(n_bonuses))
    return PendingAttempt(
        target=target,
        variant=variant,
        exchange=exchange,
        needed=needed,
        rolled=(rolled[0], rolled[1], rolled[2]),
        kept=(kept[0], kept[1], kept[2]),
        dice_sum=dice_sum,
        bonuses=bonuses,
        total=total,
    )


# -- records ------------------------------------------------------------------------------------
@lru_cache(maxsize=8)
def _ids(cards: CardSet) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    return (
        tuple(e.id for e in cards.expansions),
        tuple(a.id for a in cards.airships),
        tuple(h.id for h in cards.hindenburg),
    )


def record_from_native(raw: tuple[Any, ...], cards: CardSet) -> ActionRecord:
    """The :class:`ActionRecord` of a compact record from the core (``Game.apply``)."""
    (
        step,
        turn,
        player,
        action,
        phase,
        attempt,
        result,
        acquired_kind,
        acquired,
        discarded,
        chips,
        reveals,
        era_changed,
        hindenburg_opened,
        wooden_airship,
        next_player,
        game_over,
        winners_mask,
        scores,
    ) = raw
    expansion_ids, airship_ids, phase_ids = _ids(cards)
    by_kind = {_KIND_EXPANSION: expansion_ids, _KIND_AIRSHIP: airship_ids, _KIND_PHASE: phase_ids}
    fields: dict[str, Any] = {}
    if attempt is not None:
        kind, card, exchange, rolled, kept, dice_sum, total, needed, bonuses = attempt
        if exchange is not None:
            gave, received, (fixed_colour, fixed_value) = exchange
            exchange = ExchangeMade(
                gave, ((fixed_colour, fixed_value),) if fixed_colour >= 0 else (), received
            )
        fields.update(
            target=by_kind[kind][card],
            exchange=exchange,
            rolled=rolled,
            kept=kept,
            dice_sum=dice_sum,
            bonuses=tuple(_bonus_name(*b) for b in bonuses),
            total=total,
            needed=needed,
        )
    if result:
        fields["result"] = _RESULTS[result]
    if acquired_kind:
        fields["acquired"] = by_kind[acquired_kind][acquired]
    if discarded >= 0:
        fields["discarded"] = expansion_ids[discarded]
    if era_changed:
        fields["era_changed"] = True
    if hindenburg_opened:
        fields["hindenburg_opened"] = True
    return ActionRecord(
        step=step,
        turn=turn,
        player=player,
        action=action,
        name=ACTION_NAMES[action],
        phase=PHASE_NAMES[phase],
        chips=tuple(
            ChipMove(p, count, _PLACES[source], _PLACES[destination], _REASONS[reason])
            for p, count, source, destination, reason in chips
        ),
        reveals=tuple(
            Reveal(
                CHANGE_OF_ERA_ID if card == CHANGE_OF_ERA else expansion_ids[card],
                None if slot < 0 else slot,
                None if pushed < 0 else expansion_ids[pushed],
            )
            for card, slot, pushed in reveals
        ),
        wooden_airship=wooden_airship,
        next_player=next_player,
        game_over=bool(game_over),
        scores=scores,
        winners=tuple(s for s in range(len(scores)) if winners_mask >> s & 1)
        if game_over
        else None,
        **fields,
    )
