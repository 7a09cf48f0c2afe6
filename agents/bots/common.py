"""Game knowledge shared by the bots, all of it asked of the engine.

Nothing here re-implements a rule: odds come from :func:`airships_env.engine.attempt_odds`, scores
from :func:`airships_env.engine.scores`, dice pools from :func:`airships_env.engine.player_pool`.
To ask "what would my odds on that card be with that company", a :class:`Probe` puts the card on
a scratch copy of the public view (an airship on a stack top, a Hindenburg phase left open) and
asks the engine. Only public information is read: stack heights and tops, boards, the cards data.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from airships_env.engine import (
    NUM_ATTEMPT_ACTIONS,
    NUM_TARGETS,
    SPEND_CHIP,
    GameState,
    attempt_odds,
    player_pool,
    scores,
)
from airships_env.engine.actions import FIRST_PHASE_TARGET, FIRST_STACK_TARGET
from airships_env.engine.dice import FACES
from airships_env.engine.rules import attempt_shape, target_card
from airships_env.engine.state import EMPTY, PlayerState
from airships_env.engine.view import STACK_TIERS_FROM_BOTTOM as STACK_TIERS_FROM_BOTTOM  # S2

EXPANSION, AIRSHIP, PHASE = 0, 1, 2


@dataclass(frozen=True, slots=True)
class Option:
    """One attempt the acting player may declare, with the engine's exact odds."""

    action: int
    target: int
    exchange: bool
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
    """The :class:`Option` of an attempt action for ``player``, or None if not eligible."""
    target, exchange = action >> 1, bool(action & 1)
    odds = attempt_odds(state, target, exchange, player)
    if odds is None:
        return None
    return Option(
        action,
        target,
        exchange,
        target_kind(target),
        target_card_index(state, target),
        odds.success,
        odds.chip_decides,
        odds.success_with_chip,
    )


def attempt_options(
    state: GameState, player: int, legal: Sequence[int] | None = None
) -> list[Option]:
    """The player's eligible attempts: the legal attempt actions, or every target if None.

    With ``legal=None`` the odds are for ``player`` on the current board whoever is to act (used
    to judge an extra turn, or an opponent's chances).
    """
    actions = range(2 * NUM_TARGETS) if legal is None else legal
    found = []
    for action in actions:
        if action < NUM_ATTEMPT_ACTIONS:
            option = option_for(state, action, player)
            if option is not None:
                found.append(option)
    return found


_ODDS: dict[tuple[object, ...], tuple[object, tuple[float, float, float] | None]] = {}


def cached_odds(state: GameState, player: int, action: int) -> tuple[float, float, float] | None:
    """(success, chip_decides, success_with_chip) of an attempt action for ``player``, or None if
    not eligible: :func:`attempt_odds` memoised on what it depends on (pool, cost, target,
    wooden airship, chip on the board)."""
    target = action >> 1
    info = target_card(state, target)
    if info is None:
        return None
    pool = player_pool(state, player)
    key = (
        id(pool),
        info[2],
        info[3],
        action & 1,
        state.wooden_airship == player,
        state.players[player].chips_on_board > 0,
    )
    found = _ODDS.get(key)
    if found is not None and found[0] is pool:  # the pool is kept so that its id is not reused
        return found[1]
    odds = attempt_odds(state, target, bool(action & 1), player)
    triple = None if odds is None else (odds.success, odds.chip_decides, odds.success_with_chip)
    if len(_ODDS) >= MEMO_LIMIT:
        _ODDS.clear()
    _ODDS[key] = (pool, triple)
    return triple


@dataclass(frozen=True, slots=True)
class Profile:
    """A company's odds on every airship and Hindenburg phase, best of with/without exchange.

    Measured without the wooden airship; ``*_chip`` with one chip on the board (T5).
    """

    airship: tuple[float, ...]
    airship_chip: tuple[float, ...]
    phase: tuple[float, ...]
    phase_chip: tuple[float, ...]


_PROFILES: dict[tuple[object, ...], Profile] = {}
_PROFILES_BY_SLOTS: dict[tuple[object, ...], Profile] = {}
_PROBES: dict[int, Probe] = {}
MEMO_LIMIT = 200_000  # entries per memo before it is cleared (long runs stay bounded)


class Probe:
    """Asks the engine for a hypothetical company's odds on any card, on a scratch state."""

    __slots__ = ("scratch",)

    @classmethod
    def for_state(cls, state: GameState) -> Probe:
        """The shared probe for this state's card set and rules options."""
        probe = _PROBES.get(id(state.cards))
        if probe is None or probe.scratch.cards is not state.cards:
            probe = _PROBES[id(state.cards)] = cls(state)
        elif probe.scratch.options is not state.options:
            if probe.scratch.options == state.options:
                probe.scratch.options = state.options  # equal: the next look-up is by identity
            else:
                probe = _PROBES[id(state.cards)] = cls(state)
        return probe

    def __init__(self, state: GameState):
        scratch = state.clone(rng=None)
        scratch.rng = None
        scratch.wooden_airship = EMPTY
        scratch.hindenburg_open = True
        scratch.hindenburg = [EMPTY] * len(state.cards.hindenburg)
        for player in scratch.players:
            player.chips_on_board = 0
        self.scratch = scratch

    def profile(self, slots: Sequence[int], era: int) -> Profile:
        """Odds of a company with these department slots in this era (memoised per dice pool:
        many companies share one pool)."""
        scratch = self.scratch
        cards = scratch.cards
        slots_key = (cards.digest, scratch.options, era, *slots)
        found = _PROFILES_BY_SLOTS.get(slots_key)
        if found is not None:
            return found
        if len(_PROFILES_BY_SLOTS) >= MEMO_LIMIT:
            _PROFILES_BY_SLOTS.clear()
        scratch.era = era
        company = scratch.players[0]
        company.slots = list(slots)
        company.pool = None
        pool = player_pool(scratch, 0)
        key = (
            cards.digest,
            scratch.options,
            pool.rollable,
            pool.fixed,
            pool.engine_bonuses,
            pool.exchange,
        )
        found = _PROFILES.get(key)
        if found is not None:
            _PROFILES_BY_SLOTS[slots_key] = found
            return found
        stack = scratch.stacks[0]
        airship, airship_chip = [], []
        saved_stack = list(stack)
        for index in range(len(cards.airships)):
            stack[:] = [index]
            plain, chip = self._best(FIRST_STACK_TARGET, company)
            airship.append(plain)
            airship_chip.append(chip)
        stack[:] = saved_stack
        phase, phase_chip = [], []
        for index in range(len(cards.hindenburg)):
            plain, chip = self._best(FIRST_PHASE_TARGET + index, company)
            phase.append(plain)
            phase_chip.append(chip)
        found = Profile(tuple(airship), tuple(airship_chip), tuple(phase), tuple(phase_chip))
        _PROFILES[key] = _PROFILES_BY_SLOTS[slots_key] = found
        return found

    def _best(self, target: int, company: PlayerState) -> tuple[float, float]:
        best = best_chip = 0.0
        company.chips_on_board = 1  # one call gives the odds without and with a chip (T5)
        for exchange in (False, True):
            odds = attempt_odds(self.scratch, target, exchange, 0)
            if odds is not None:
                best = max(best, odds.success)
                best_chip = max(best_chip, odds.success_with_chip)
        company.chips_on_board = 0
        return best, best_chip


def after_success(state: GameState, action: int) -> GameState | None:
    """The state right after the acting player's attempt ``action`` succeeds, or None if it
    cannot succeed. The engine applies it on a copy with the best faces (and a chip if needed).

    On a public view, whatever the engine reveals next comes from the canonical (sorted) deck: it
    means nothing, so only the acting player's gains and the end of the game should be read.
    """
    info = target_card(state, action >> 1)
    if info is None:
        return None
    pool = player_pool(state, state.current_player)
    shape = attempt_shape(pool, info[2], bool(action & 1))
    best_faces: list[tuple[int, ...]] = [(), (), ()]
    for colour, rolled, _keep, _fixed in shape:
        best_faces[colour] = (max(FACES[colour]),) * rolled
    after = state.clone(rng=None)
    record = after.apply_action(action, dice=(best_faces[0], best_faces[1], best_faces[2]))
    if record.result == "chip decision":
        after.apply_action(SPEND_CHIP)
    elif record.result != "success":
        return None
    return after


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
