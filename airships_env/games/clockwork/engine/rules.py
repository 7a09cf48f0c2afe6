"""The rules: setup, legal actions, applying an action, the outcome (docs/clockwork/RULES.md).

Functions over :class:`~.state.State`; comments cite rule ids. The engine never chooses for a
player: every choice is an action, and a step that leaves no choice (a forced gift, a lost turn,
a move with nowhere to go) happens inside the action that caused it and shows in its record.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from airships_env.games.clockwork.engine import actions as A
from airships_env.games.clockwork.engine.chance import (
    is_lucky,
    is_odd_or_double,
    roll_two,
)
from airships_env.games.clockwork.engine.data import (
    AS,
    CB_TYPES,
    FM_TYPES,
    FUEL,
    HAND_LIMIT,
    NUM_SCRAPYARDS,
    NUM_TYPES,
    POWER,
    SCRAP,
)
from airships_env.games.clockwork.engine.errors import IllegalActionError, LogError
from airships_env.games.clockwork.engine.model import (
    ACT,
    COUNTER,
    DEMAND,
    DISCARD,
    GIVE_BACK,
    MOVE,
    OVER,
    PLACE,
    RESPOND,
    ROLL,
)
from airships_env.games.clockwork.engine.records import ActionRecord
from airships_env.protocol import Outcome, ranks_from

if TYPE_CHECKING:  # the state's methods call these rules; the rules take a state
    from airships_env.games.clockwork.engine.state import State

FIELD_CAPACITY = 2  # M2
SHOWN_TYPES = frozenset(range(AS + 1))  # FM, CB and AS are named by showing a card (C1, R1)


class ViewError(ValueError):
    """A view (or a finished game) was asked to advance."""


# ---------------------------------------------------------------- what is legal


def _stop_allowed(state: State, field: int) -> bool:
    """M2: at most two pawns on a field, the Towers excepted."""
    return field == state.data.track.towers or state.pawns.count(field) < FIELD_CAPACITY


def _opponents_on(state: State, seat: int, field: int) -> list[int]:
    """The offsets 1..n-1 of the opponents standing on ``field``."""
    n = state.num_players
    return [k for k in range(1, n) if state.pawns[(seat + k) % n] == field]


def nameable_types(state: State, seat: int) -> list[int]:
    """The types ``seat`` may name (C1, R1): FM, CB, AS it holds; FUEL and POWER in play."""
    counts = state.data.counts[state.num_players]
    hand = state.hands[seat]
    named = [t for t in range(AS + 1) if hand[t] > 0]
    return named + [t for t in (FUEL, POWER) if counts[t] > 0]


def _seek_options(state: State, seat: int) -> list[int]:
    if all(card < 0 for card in state.places):
        return []
    return [A.seek(t) for t in nameable_types(state, seat)]


def _move_options(state: State) -> list[int]:
    """T2 after the roll: moves (M1), lucky jumps, stay and draw, stay and challenge."""
    seat = state.actor
    track = state.data.track
    position = state.pawns[seat]
    total = state.dice[0] + state.dice[1]
    exact = state.options.white_field_exact
    options: list[int] = []
    for direction in (1, -1):
        for steps in range(1, total + 1):
            field = (position + direction * steps) % track.length
            if (steps == total or (not exact and track.is_white(field))) and _stop_allowed(
                state, field
            ):
                options.append(A.move(direction, steps))
    if not is_lucky(state.dice):
        return sorted(options)
    if position != track.towers:
        options.append(A.JUMP_TOWERS)
    if state.endgame:  # F1: the Towers only
        return sorted(options)
    yard_here = track.scrapyard_at(position)
    if state.options.lucky_rolls == "anywhere" or yard_here >= 0:
        for k in range(NUM_SCRAPYARDS):
            field = track.scrapyards[k]
            if state.piles[k] and field != position and _stop_allowed(state, field):
                options.append(A.jump_scrapyard(k))
        if yard_here >= 0:
            if state.piles[yard_here]:
                options.append(A.DRAW)  # T2c
            options += [A.challenge(k) for k in _opponents_on(state, seat, position)]  # T2d
    return sorted(options)


def _act_options(state: State) -> tuple[list[int], bool]:
    """T3 / F1 / F2 where the pawn stands: the options and whether ``pass`` is allowed."""
    seat = state.actor
    track = state.data.track
    field = state.pawns[seat]
    if state.endgame:
        if field != track.towers:
            return [], False
        options: list[int] = []
        if state.turn_start_field == track.towers:  # F2
            if is_odd_or_double(state.dice):
                options += _seek_options(state, seat)
            if is_lucky(state.dice):
                options += [A.challenge(k) for k in _opponents_on(state, seat, field)]
        else:  # F1: arrived on the Towers
            options += _seek_options(state, seat)
        return options, True
    if field == track.towers:
        return _seek_options(state, seat), True
    challenges = [A.challenge(k) for k in _opponents_on(state, seat, field)]
    yard = track.scrapyard_at(field)
    if yard >= 0 and state.piles[yard]:
        return [A.DRAW, *challenges], False
    return challenges, True


def legal_actions(state: State) -> list[int]:
    """The legal action indices of the seat to act, sorted (a fresh list)."""
    phase = state.phase
    seat = state.actor
    if phase == ROLL:
        return [A.ROLL]
    if phase == MOVE:
        return _move_options(state)
    if phase == ACT:
        options, can_pass = _act_options(state)
        return sorted([*options, A.PASS] if can_pass else options)
    if phase in (DEMAND, COUNTER):
        demands = [A.demand(t) for t in nameable_types(state, seat)]
        return sorted([*demands, A.PASS] if phase == COUNTER else demands)
    if phase == RESPOND:
        return sorted([A.give(state.challenge[2]), A.give(SCRAP)])
    if phase in (GIVE_BACK, DISCARD):
        base = A.GIVE if phase == GIVE_BACK else A.DISCARD
        return [base + t for t in range(NUM_TYPES) if state.hands[seat][t] > 0]
    if phase == PLACE:
        return [A.turn_place(p) for p, card in enumerate(state.places) if card >= 0]
    return []


# ---------------------------------------------------------------- knowledge (K1, K2)


def _observers(state: State, owner: int, who: Iterable[int] | None) -> list[int]:
    seats = range(state.num_players) if who is None else who
    return [o for o in seats if o != owner]


def _seen_enter(state: State, owner: int, card: int, who: Iterable[int] | None = None) -> None:
    for o in _observers(state, owner, who):
        state.known[o][owner][card] += 1


def _seen_show(state: State, owner: int, card: int, who: Iterable[int] | None = None) -> None:
    for o in _observers(state, owner, who):
        state.known[o][owner][card] = max(state.known[o][owner][card], 1)


def _seen_leave(
    state: State, owner: int, card: int, who: Iterable[int] | None = None, count: int = 1
) -> None:
    for o in _observers(state, owner, who):
        state.known[o][owner][card] = max(0, state.known[o][owner][card] - count)


def _unseen_leave(state: State, owner: int, pair: tuple[int, int]) -> None:
    for o in range(state.num_players):
        if o in pair:
            continue
        row = state.known[o][owner]
        for t in range(NUM_TYPES):
            if row[t] > 0:
                row[t] -= 1


# ---------------------------------------------------------------- laying down and winning


def _lay_down(state: State, seat: int, laid: list[tuple[int, int]]) -> None:
    """W1: a complete FM or CB goes face up at once, at most one of each."""
    counts = state.data.counts[state.num_players]
    hand = state.hands[seat]
    for kinds, slot in ((FM_TYPES, state.laid_fm), (CB_TYPES, state.laid_cb)):
        if slot[seat] >= 0:
            continue
        for t in kinds:
            if counts[t] > 0 and hand[t] == counts[t]:
                hand[t] = 0
                slot[seat] = t
                _seen_leave(state, seat, t, count=counts[t])
                laid.append((seat, t))
                break


def has_won(state: State, seat: int) -> bool:
    """W2: FM and CB laid with a FUEL in hand, or every AS card and the POWER in hand."""
    hand = state.hands[seat]
    if state.laid_fm[seat] >= 0 and state.laid_cb[seat] >= 0 and hand[FUEL] > 0:
        return True
    counts = state.data.counts[state.num_players]
    return counts[AS] > 0 and hand[AS] == counts[AS] and counts[POWER] > 0 and hand[POWER] > 0


def _settle(state: State, acted: int, laid: list[tuple[int, int]]) -> bool:
    """W1 for every seat, then W2 (the seat that acted first, then seat order); True if won."""
    n = state.num_players
    for seat in range(n):
        _lay_down(state, seat, laid)
    for seat in [acted, *[s for s in range(n) if s != acted]]:
        if has_won(state, seat):
            state.winner = seat
            state.phase = OVER
            return True
    return False


# ---------------------------------------------------------------- applying an action


class _Effects:
    """What an action revealed or moved, collected for its record."""

    __slots__ = ("dice", "drawn", "given", "laid", "turned")

    def __init__(self) -> None:
        self.dice: tuple[int, int] | None = None
        self.drawn: int | None = None
        self.turned: int | None = None
        self.given: int | None = None
        self.laid: list[tuple[int, int]] = []


def apply_action(state: State, action: int, *, dice: tuple[int, int] | None = None) -> ActionRecord:
    """Apply a legal action for the seat to act and return its record (``dice``: force a roll)."""
    if state.view_seat >= 0:
        raise ViewError(f"a view of seat {state.view_seat} cannot advance; determinize it first")
    legal = legal_actions(state)
    if not isinstance(action, (int, np.integer)) or isinstance(action, bool) or action not in legal:
        why = "the game is over" if state.phase == OVER else "not among the legal actions"
        raise IllegalActionError(
            action, state.phase_name, legal, [A.ACTION_NAMES[a] for a in legal], why
        )
    return apply_legal_action(state, int(action), dice=dice)


def apply_legal_action(
    state: State, action: int, *, dice: tuple[int, int] | None = None
) -> ActionRecord:
    """``apply_action`` without the legality check, for a caller that took ``action`` (an int)
    from ``legal_actions`` of this state unchanged since (the generic environments)."""
    if state.view_seat >= 0:
        raise ViewError(f"a view of seat {state.view_seat} cannot advance; determinize it first")
    seat = state.actor
    turn = state.turn
    effects = _Effects()
    if action == A.ROLL:
        _roll(state, effects, dice)
    elif action == A.PASS:
        _end_turn(state)
    elif A.MOVE_CW <= action < A.JUMP_TOWERS:
        direction = 1 if action < A.MOVE_CCW else -1
        steps = action - (A.MOVE_CW if direction > 0 else A.MOVE_CCW) + 1
        _arrive(state, (state.pawns[seat] + direction * steps) % state.data.track.length)
    elif action == A.JUMP_TOWERS:
        _arrive(state, state.data.track.towers)
    elif A.JUMP_SCRAPYARD <= action < A.DRAW:
        _arrive(state, state.data.track.scrapyards[action - A.JUMP_SCRAPYARD])
    elif action == A.DRAW:
        _draw(state, effects)
    elif A.CHALLENGE <= action < A.DEMAND:
        opponent = (seat + action - A.CHALLENGE + 1) % state.num_players
        state.challenge = [seat, opponent, -1, 0]
        state.phase = DEMAND
    elif A.DEMAND <= action < A.SEEK:
        _demand(state, action - A.DEMAND, effects)
    elif A.SEEK <= action < A.GIVE:
        card = action - A.SEEK
        state.seek_type = card
        if card in SHOWN_TYPES:
            _seen_show(state, seat, card)  # R1: shown to all
        state.phase = PLACE
    elif A.GIVE <= action < A.DISCARD:
        card = action - A.GIVE
        if state.phase == RESPOND:
            _gift(state, card, effects)
        else:
            _give_back(state, card, effects)
    elif A.DISCARD <= action < A.TURN_PLACE:
        card = action - A.DISCARD
        state.hands[seat][card] -= 1
        _lay_face_down(state, card)  # H2
        _seen_leave(state, seat, card)
        _end_turn(state)
    else:
        _turn_place(state, action - A.TURN_PLACE, effects)
    state.step += 1
    return ActionRecord(
        step=state.step,
        turn=turn,
        player=seat,
        action=action,
        name=A.ACTION_NAMES[action],
        dice=effects.dice,
        drawn=effects.drawn,
        turned=effects.turned,
        given=effects.given,
        laid=tuple(effects.laid),
        winner=state.winner if state.winner >= 0 and state.phase == OVER else None,
    )


def _roll(state: State, effects: _Effects, forced: tuple[int, int] | None) -> None:
    """T1 (N3); F1/F2 decide what the roll allows."""
    if forced is not None:
        if len(forced) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in forced):
            raise ValueError(f"forced dice must be two faces 1..6, found {forced!r}")
        rolled = (int(forced[0]), int(forced[1]))
    else:
        if state.rng is None:
            raise ViewError("this state has no generator: force the dice or determinize it")
        rolled = roll_two(state.rng)
    effects.dice = rolled
    state.dice = [rolled[0], rolled[1]]
    state.endgame = all(not pile for pile in state.piles)
    towers = state.data.track.towers
    if state.endgame and state.pawns[state.actor] == towers:  # F2
        options, _ = _act_options(state)
        if options:
            state.phase = ACT
        else:
            _end_turn(state)  # an even roll (or nothing to do): the turn is lost
        return
    if _move_options(state):
        state.phase = MOVE
    else:
        _end_turn(state)  # T2: nowhere to go, the pawn stays


def _arrive(state: State, field: int) -> None:
    """The pawn stops on ``field`` (M1, T2b); T3 decides what follows."""
    state.pawns[state.actor] = field
    options, _ = _act_options(state)
    if options:
        state.phase = ACT
    else:
        _end_turn(state)


def _draw(state: State, effects: _Effects) -> None:
    """T3: the top card of the pile to the hand; W1, W2, then H1."""
    seat = state.actor
    yard = state.data.track.scrapyard_at(state.pawns[seat])
    card = state.piles[yard].pop()
    state.hands[seat][card] += 1
    effects.drawn = card
    _after_gain(state, seat, effects)


def _after_gain(state: State, seat: int, effects: _Effects) -> None:
    """A card reached the acting seat's hand on its turn: W1, W2, then H1 or the turn's end."""
    if _settle(state, seat, effects.laid):
        return
    if state.hand_size(seat) > HAND_LIMIT:
        state.phase = DISCARD
    else:
        _end_turn(state)


def _demand(state: State, card: int, effects: _Effects) -> None:
    """C1: the named type; C2 or C3 follows."""
    challenger, opponent, _, stage = state.challenge
    state.challenge[2] = card
    if card in SHOWN_TYPES:
        _seen_show(state, challenger, card, (opponent,))  # shown secretly (C4)
    if state.hands[opponent][card] > 0:
        if state.hands[opponent][SCRAP] > 0:
            state.phase = RESPOND
            state.actor = opponent
        else:
            _gift(state, card, effects)
    elif stage == 0:  # C3: the opponent may challenge back
        state.challenge = [opponent, challenger, -1, 1]
        state.phase = COUNTER
        state.actor = opponent
    else:
        _end_turn(state)


def _gift(state: State, card: int, effects: _Effects) -> None:
    """C2: the opponent gives ``card`` (the named type or a SCRAP) to the challenger."""
    receiver, giver = state.challenge[0], state.challenge[1]
    pair = (receiver, giver)
    state.hands[giver][card] -= 1
    effects.given = card
    if card == SCRAP and state.challenge[2] != SCRAP:
        _seen_leave(state, giver, SCRAP)  # set aside in view of all
        if state.options.scrap_to == "discards":
            _lay_face_down(state, SCRAP)
        else:
            state.removed_scrap += 1
        if not _settle(state, receiver, effects.laid):
            _end_turn(state)
        return
    state.hands[receiver][card] += 1
    _seen_leave(state, giver, card, (receiver,))
    _seen_enter(state, receiver, card, (giver,))
    _unseen_leave(state, giver, pair)
    if _settle(state, receiver, effects.laid):
        return
    if state.hand_size(receiver) > HAND_LIMIT:
        state.phase = GIVE_BACK
        state.actor = receiver
    else:
        _end_turn(state)


def _give_back(state: State, card: int, effects: _Effects) -> None:
    """C2: the challenger over the limit gives one card back to the opponent."""
    giver, receiver = state.challenge[0], state.challenge[1]
    state.hands[giver][card] -= 1
    state.hands[receiver][card] += 1
    effects.given = card
    _seen_leave(state, giver, card, (receiver,))
    _seen_enter(state, receiver, card, (giver,))
    _unseen_leave(state, giver, (giver, receiver))
    if not _settle(state, giver, effects.laid):
        _end_turn(state)


def _turn_place(state: State, place: int, effects: _Effects) -> None:
    """R1-R3: the named place is turned face up; the card goes to the hand."""
    seat = state.actor
    named = state.seek_type
    card = state.places[place]
    state.places[place] = -1
    effects.turned = card
    state.hands[seat][card] += 1
    _seen_enter(state, seat, card)
    if card != named and named in SHOWN_TYPES:  # R3: the shown card takes its place
        state.hands[seat][named] -= 1
        state.places[place] = named
        _seen_leave(state, seat, named)
        if not _settle(state, seat, effects.laid):
            _end_turn(state)
        return
    _after_gain(state, seat, effects)  # R2, or R3 with FUEL/POWER named


def _lay_face_down(state: State, card: int) -> None:
    """H2: the lowest free place."""
    state.places[state.places.index(-1)] = card


def _end_turn(state: State) -> None:
    """The turn ends: W3, else the next seat's turn begins."""
    state.challenge = [-1, -1, -1, -1]
    state.seek_type = -1
    if state.phase == OVER:
        return
    if state.turn >= state.options.max_turns * state.num_players:  # W3
        state.phase = OVER
        state.actor = state.current
        return
    state.current = (state.current + 1) % state.num_players
    state.actor = state.current
    state.phase = ROLL
    state.dice = [0, 0]
    state.turn += 1
    state.turn_start_field = state.pawns[state.current]


# ---------------------------------------------------------------- outcome and replay


def progress(state: State, seat: int) -> int:
    """Machines laid (0..2): the key that orders the seats behind the winner."""
    return int(state.laid_fm[seat] >= 0) + int(state.laid_cb[seat] >= 0)


def outcome(state: State) -> Outcome | None:
    """W2/W3: the winner scores 1, everyone else 0; a draw has no winner."""
    if state.phase != OVER:
        return None
    n = state.num_players
    winners = (state.winner,) if state.winner >= 0 else ()
    scores = tuple(1.0 if seat in winners else 0.0 for seat in range(n))
    keys = [progress(state, seat) for seat in range(n)]
    return Outcome(scores=scores, winners=winners, ranks=ranks_from(winners, keys))


def replay_action(state: State, record: ActionRecord) -> ActionRecord:
    """Apply ``record``'s action; a LogError if the result differs. A state with a generator
    rolls from it (so a replayed game continues exactly like the original, N4); one without
    takes the recorded dice."""
    forced = record.dice if state.rng is None else None
    try:
        again = apply_action(state, record.action, dice=forced)
    except (IllegalActionError, ValueError) as exc:
        raise LogError(
            f"record of step {record.step} ({record.name}) does not replay: {exc}"
        ) from exc
    if again != record:
        raise LogError(
            f"record of step {record.step} does not match its replay: {record} != {again}"
        )
    return again
