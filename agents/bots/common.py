"""Game knowledge shared by the bots, all of it asked of the engine.

Nothing here re-implements a rule: odds come from :func:`airships_env.engine.attempt_odds` and
the engine's derived tables (:mod:`airships_env.engine.derived`), scores from
:func:`airships_env.engine.scores`, what a success would end from
:func:`airships_env.engine.outcome_if_success`. Only public information is read: stack heights
and tops, boards, the card data.

Floating-point sums are written as explicit left-to-right loops (:func:`add_up`), never
``sum()`` (whose rounding changed in Python 3.12): the native core's bots compute the same
values in the same order and must make the same choices.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from airships_env.engine import (
    NUM_ATTEMPT_ACTIONS,
    GameState,
    attempt_odds,
    attempt_target,
    attempt_variant,
    scores,
    target_card,
)
from airships_env.engine.actions import FIRST_PHASE_TARGET, FIRST_STACK_TARGET
from airships_env.engine.cards import CardSet
from airships_env.engine.derived import tables_for
from airships_env.engine.state import EMPTY
from airships_env.engine.view import STACK_TIERS_FROM_BOTTOM

EXPANSION, AIRSHIP, PHASE = 0, 1, 2
MEMO_LIMIT = 200_000  # entries per memo before it is cleared (long runs stay bounded)


def add_up(values: Iterable[float]) -> float:
    """The sum of floats, added left to right (the order the native bots use)."""
    total = 0.0
    for value in values:
        total += value
    return total


@dataclass(frozen=True, slots=True)
class Option:
    """One attempt the acting player may declare, with the engine's exact odds."""

    action: int
    target: int
    variant: int
    kind: int  # EXPANSION, AIRSHIP or PHASE
    card: int  # expansion, airship or phase index
    success: float  # without a chip
    chip_decides: float
    success_with_chip: float


def target_kind(target: int) -> int:
    """EXPANSION, AIRSHIP or PHASE for a target number."""
    if target < FIRST_STACK_TARGET:
        return EXPANSION
    return AIRSHIP if target < FIRST_PHASE_TARGET else PHASE


def target_card_index(state: GameState, target: int) -> int:
    """The card (or phase) index of an eligible target (public: a board card or a stack top)."""
    info = target_card(state, target)
    assert info is not None, f"target {target} holds no card"
    return info[1]


def option_for(state: GameState, action: int, player: int) -> Option | None:
    """The :class:`Option` of an attempt action for ``player``, or None if not offered."""
    odds = attempt_odds(state, action, player)
    if odds is None:
        return None
    target = attempt_target(action)
    return Option(
        action,
        target,
        attempt_variant(action),
        target_kind(target),
        target_card_index(state, target),
        odds.success,
        odds.chip_decides,
        odds.success_with_chip,
    )


def attempt_options(
    state: GameState, player: int, legal: Sequence[int] | None = None
) -> list[Option]:
    """The player's offered attempts: the legal attempt actions, or every attempt if None.

    With ``legal=None`` the odds are for ``player`` on the current board whoever is to act (used
    to judge an extra turn, or an opponent's chances).
    """
    actions = range(NUM_ATTEMPT_ACTIONS) if legal is None else legal
    found = []
    for action in actions:
        if action < NUM_ATTEMPT_ACTIONS:
            option = option_for(state, action, player)
            if option is not None:
                found.append(option)
    return found


@dataclass(frozen=True, slots=True)
class Profile:
    """A company's odds on every airship and Hindenburg phase, best over the exchange variants.

    Measured without the wooden airship; ``*_chip`` with one chip on the board (T5).
    """

    airship: tuple[float, ...]
    airship_chip: tuple[float, ...]
    phase: tuple[float, ...]
    phase_chip: tuple[float, ...]


_PROFILES: dict[tuple[object, ...], Profile] = {}


def profile(cards: CardSet, needs_colour: bool, slots: Sequence[int], era: int) -> Profile:
    """The :class:`Profile` of a company with these department slots in this era, from the
    engine's odds; ``needs_colour`` is ``RulesOptions.engine_bonus_needs_cost_colour``."""
    key = (cards.digest, needs_colour, era, *slots)
    found = _PROFILES.get(key)
    if found is not None:
        return found
    if len(_PROFILES) >= MEMO_LIMIT:
        _PROFILES.clear()
    tables = tables_for(cards)
    pool = tables.pool(era, slots)
    # Many companies have the same dice: the profile depends only on the pool's value.
    value_key = (cards.digest, needs_colour, pool.hands, pool.engine_bonuses)
    found = _PROFILES.get(value_key)
    if found is not None:
        _PROFILES[key] = found
        return found
    airship, airship_chip = [], []
    for target_class in tables.airship_class:
        plain, chip = tables.best_odds(pool, target_class, needs_colour)
        airship.append(plain)
        airship_chip.append(chip)
    phase, phase_chip = [], []
    for target_class in tables.phase_class:
        plain, chip = tables.best_odds(pool, target_class, needs_colour)
        phase.append(plain)
        phase_chip.append(chip)
    found = _PROFILES[key] = _PROFILES[value_key] = Profile(
        tuple(airship), tuple(airship_chip), tuple(phase), tuple(phase_chip)
    )
    return found


def slots_after(state: GameState, player: int, expansion: int) -> tuple[int, ...]:
    """The player's department slots if it acquired ``expansion`` (T6: it takes its row's slot)."""
    slots = list(state.players[player].slots)
    slots[state.cards.expansions[expansion].department] = expansion
    return tuple(slots)


@dataclass(frozen=True, slots=True)
class Outlook:
    """Public facts about what is left of the game."""

    stack_heights: tuple[int, ...]
    takes_left: int  # airships that can still be taken before E1's stack condition ends it
    phases_left: int
    phases_done: int
    future_airships: tuple[tuple[int, float], ...]  # (airship, expected count still to come)


def unseen_airships(state: GameState) -> dict[int, list[int]]:
    """Per tier, the airships nobody has seen: not on a stack top, not in a pile (public)."""
    seen = {stack[-1] for stack in state.stacks if stack}
    for player in state.players:
        seen.update(player.airships)
    unseen: dict[int, list[int]] = {1: [], 2: [], 3: []}
    for airship in state.cards.airships:
        if airship.index not in seen:
            unseen[airship.tier].append(airship.index)
    return unseen


def outlook(state: GameState) -> Outlook:
    """What is left: stack heights, airships to take, phases, and the airships still to come."""
    heights = tuple(len(stack) for stack in state.stacks)
    hidden_per_tier = {1: 0, 2: 0, 3: 0}
    for height in heights:
        for position in range(height - 1):
            hidden_per_tier[STACK_TIERS_FROM_BOTTOM[position]] += 1
    unseen = unseen_airships(state)
    future: list[tuple[int, float]] = [(stack[-1], 1.0) for stack in state.stacks if stack]
    for tier, cards in unseen.items():
        if hidden_per_tier[tier] and cards:
            share = hidden_per_tier[tier] / len(cards)
            future.extend((card, share) for card in cards)
    phases_done = sum(1 for holder in state.hindenburg if holder != EMPTY)
    return Outlook(
        stack_heights=heights,
        takes_left=sum(max(0, h - 1) for h in heights),
        phases_left=len(state.hindenburg) - phases_done,
        phases_done=phases_done,
        future_airships=tuple(future),
    )


def horizon_key(state: GameState) -> tuple[object, ...]:
    """Everything :func:`outlook` depends on: stack heights and tops, the airship piles, the
    Hindenburg (so that what is derived from the outlook can be memoised)."""
    return (
        tuple(len(stack) for stack in state.stacks),
        tuple(stack[-1] if stack else EMPTY for stack in state.stacks),
        tuple(sorted(a for player in state.players for a in player.airships)),
        tuple(state.hindenburg),
        state.num_players,
    )


def phase_value(state: GameState, player: int, phase: int) -> float:
    """Points a phase brings now: its low value, or, if it completes the Hindenburg, every
    phase of the player switching to its high value (E2)."""
    phases = state.cards.hindenburg
    done = [holder for holder in state.hindenburg if holder != EMPTY]
    if len(done) == len(phases) - 1:
        gain = phases[phase].high
        gain += sum(
            phases[j].high - phases[j].low
            for j, holder in enumerate(state.hindenburg)
            if holder == player
        )
        return float(gain)
    return float(phases[phase].low)


def margin(state: GameState, player: int) -> int:
    """The player's score minus the best other score (E2), now."""
    current = scores(state)
    others = [s for p, s in enumerate(current) if p != player]
    return current[player] - max(others)
