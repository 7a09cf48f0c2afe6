"""The rules: setup, legal actions, applying an action, the outcome (docs/australia/RULES.md).

Functions over :class:`~.state.State`; comments cite rule ids. The engine never chooses for a
player: every choice is an action. A step that leaves no choice (the end of a take-back after
the fourth ranger, a placement with nothing more to place, the end of a turn) happens inside the
action that caused it and shows in its record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from airships_env.games.australia.engine import actions as A
from airships_env.games.australia.engine.data import (
    BACK_DOLLARS,
    BACK_RANGERS,
    NUM_BACKS,
    NUM_CARD_TYPES,
    NUM_COLOURS,
    NUM_REGIONS,
    SHIP,
)
from airships_env.games.australia.engine.errors import IllegalActionError, LogError, ViewError
from airships_env.games.australia.engine.model import (
    ACTION,
    DRAW,
    MOVE_TO,
    OVER,
    PHASE_NAMES,
    PLACE,
    SETUP_DRAW,
    TAKE_BACK,
    WINDMILL,
)
from airships_env.games.australia.engine.records import ActionRecord, Scoring
from airships_env.protocol import Outcome, as_action_index, ranks_from

if TYPE_CHECKING:  # the state's methods call these rules; the rules take a state
    from airships_env.games.australia.engine.state import State

RECOLOUR_COST = 3  # D1
MOVE_COST = 4  # D2
NO_RANGER_VP = 2  # A2 (b)
INITIATOR_VP = 3  # P3
MAX_TAKE_BACK = 4  # A5
HAND_SIZE = 2  # S4


# ---------------------------------------------------------------- derived values


def region_rangers(state: State, region: int) -> int:
    """All players' rangers on the region's locations (P2)."""
    return sum(sum(state.rangers[loc]) for loc in state.data.region_locations[region])


def is_open_to(state: State, location: int, seat: int) -> bool:
    """A3/D2: the location is empty or holds only ``seat``'s rangers."""
    held = state.rangers[location]
    return sum(held) == held[seat]


def conservation_complete(state: State, region: int) -> bool:
    """P1: the tile is there and every location of the region holds a ranger."""
    return bool(state.conservation[region]) and all(
        sum(state.rangers[loc]) > 0 for loc in state.data.region_locations[region]
    )


def industrialization_complete(state: State, region: int) -> bool:
    """P2: the tile is face up and there, and the region holds exactly its value in rangers."""
    value = state.tile_value[region]
    return value > 0 and bool(state.tile_up[region]) and region_rangers(state, region) == value


def windmill_eligible(state: State, seat: int) -> bool:
    """W3: full game, the plane on the windmill's region or a neighbour, a free area."""
    if not state.options.full_game or state.windmill_region < 0:
        return False
    plane = state.plane[seat]
    if plane < 0:
        return False
    near = plane == state.windmill_region or plane in state.data.neighbours[state.windmill_region]
    return near and len(state.ranger_track) < state.data.ranger_areas


def _placement_locations(state: State, seat: int) -> list[int]:
    """A3: the locations the pending card may place on (D1 anywhere: the whole map)."""
    if state.pending_paid and state.options.recolour_anywhere:
        candidates: list[int] | tuple[int, ...] = range(state.data.num_locations)  # type: ignore[assignment]
    else:
        candidates = state.data.region_locations[state.plane[seat]]
    return [loc for loc in candidates if is_open_to(state, loc, seat)]


def _move_sources(state: State, seat: int) -> list[int]:
    """D2: locations with an own ranger that has somewhere else to go."""
    if state.dollars[seat] < MOVE_COST:
        return []
    own = [loc for loc in range(state.data.num_locations) if state.rangers[loc][seat] > 0]
    open_ = [loc for loc in range(state.data.num_locations) if is_open_to(state, loc, seat)]
    return [loc for loc in own if any(m != loc for m in open_)]


def _can_place_more(state: State, seat: int) -> bool:
    return (
        state.rangers_left > 0
        and state.supply[seat] > 0
        and bool(_placement_locations(state, seat))
    )


# ---------------------------------------------------------------- what is legal


def legal_actions(state: State) -> list[int]:
    """The legal action indices of the seat to act, sorted (a fresh list)."""
    phase = state.phase
    seat = state.current
    if phase in (SETUP_DRAW, DRAW):
        return [A.draw(b) for b in range(NUM_BACKS) if state.stacks[b]]
    if phase == WINDMILL:
        return [A.windmill(r) for r in range(NUM_REGIONS)]
    if phase == ACTION:
        return _action_options(state, seat)
    if phase == PLACE:
        return _place_options(state, seat)
    if phase == TAKE_BACK:
        plane = state.plane[seat]
        options = [
            A.take_back(loc)
            for loc in state.data.region_locations[plane]
            if state.rangers[loc][seat] > 0
        ]
        return [*options, A.DONE_TAKING]
    if phase == MOVE_TO:
        return [
            A.move_to(loc)
            for loc in range(state.data.num_locations)
            if loc != state.move_from and is_open_to(state, loc, seat)
        ]
    return []


def _action_options(state: State, seat: int) -> list[int]:
    moves = [A.move_from(loc) for loc in _move_sources(state, seat)]  # D2
    if state.actions_left == 0:  # T2: after the second action
        return [*moves, A.END_TURN]
    plane = state.plane[seat]
    options = [A.fly(r) for r in range(NUM_REGIONS) if r != plane]  # A1
    hand = state.hands[seat]
    anywhere = state.options.recolour_anywhere
    if plane >= 0 or anywhere:
        colour = state.data.regions[plane].colour if plane >= 0 else -1
        for card in range(NUM_CARD_TYPES):
            if hand[card] == 0:
                continue
            if plane >= 0 and card % NUM_COLOURS == colour:
                options.append(A.play(card))  # A2
            elif state.dollars[seat] >= RECOLOUR_COST:
                options.append(A.play(card, paying=True))  # D1
    if plane >= 0:
        options += [
            A.take_back(loc)
            for loc in state.data.region_locations[plane]
            if state.rangers[loc][seat] > 0
        ]  # A5
    return sorted(options + moves)


def _place_options(state: State, seat: int) -> list[int]:
    options: list[int] = []
    most = min(state.rangers_left, state.supply[seat])
    for loc in _placement_locations(state, seat):
        options += [A.place(n, loc) for n in range(1, most + 1)]  # A3
    if state.track_used:
        options.append(A.STOP_PLACING)  # W3
    else:
        options.append(A.NO_RANGERS)  # A2 (b)
        if windmill_eligible(state, seat):
            free = state.data.ranger_areas - len(state.ranger_track)
            options += [A.ranger_track(t) for t in range(1, min(most, free) + 1)]  # W3
    return sorted(options)


# ---------------------------------------------------------------- applying


class _Effects:
    """What an action revealed or scored, collected for its record."""

    __slots__ = ("drawn", "revealed", "scorings", "windmill_to")

    def __init__(self) -> None:
        self.drawn: int | None = None
        self.revealed: int | None = None
        self.windmill_to: int | None = None
        self.scorings: list[Scoring] = []


def apply_action(state: State, action: int) -> ActionRecord:
    """Apply a legal action for the seat to act and return its record."""
    if state.view_seat >= 0:
        raise ViewError(f"a view (of seat {state.view_seat}) cannot advance; determinize it")
    legal = legal_actions(state)
    index = as_action_index(action)
    if index is None or index not in legal:
        why = "not an action index" if index is None else "not legal now"
        if state.phase == OVER:
            why = "the game is over"
        raise IllegalActionError(
            action, PHASE_NAMES[state.phase], legal, [A.ACTION_NAMES[a] for a in legal], why
        )
    return apply_legal_action(state, index)


def apply_legal_action(state: State, action: int) -> ActionRecord:
    """``apply_action`` without the legality check, for a caller that took ``action`` (an int)
    from ``legal_actions`` of this state unchanged since (the generic environments)."""
    if state.view_seat >= 0:
        raise ViewError(f"a view (of seat {state.view_seat}) cannot advance; determinize it")
    seat = state.current
    turn = state.turn
    effects = _Effects()
    phase = state.phase
    if phase == SETUP_DRAW:
        _setup_draw(state, action - A.DRAW, effects)
    elif phase == WINDMILL:
        state.windmill_region = action - A.WINDMILL  # S6
        _begin_turn(state, 0)
    elif phase == ACTION:
        _act(state, action, effects)
    elif phase == PLACE:
        _place(state, action, effects)
    elif phase == DRAW:
        _draw_card(state, seat, action - A.DRAW, effects)
        _action_done(state, effects)
    elif phase == TAKE_BACK:
        if action == A.DONE_TAKING:
            _finish_take_back(state, effects)
        else:
            _take_one(state, action - A.TAKE_BACK, effects)
    elif phase == MOVE_TO:
        _move_to(state, action - A.MOVE_TO, effects)
    state.step += 1
    return ActionRecord(
        step=state.step,
        turn=turn,
        player=seat,
        action=action,
        name=A.ACTION_NAMES[action],
        drawn=effects.drawn,
        revealed=effects.revealed,
        windmill_to=effects.windmill_to,
        scorings=tuple(effects.scorings),
        game_over=state.phase == OVER,
    )


def _draw_card(state: State, seat: int, back: int, effects: _Effects) -> None:
    """The top card of ``back``'s stack to the hand (S4, A4)."""
    colour = state.stacks[back].pop()
    state.hands[seat][back * NUM_COLOURS + colour] += 1
    effects.drawn = colour


def _setup_draw(state: State, back: int, effects: _Effects) -> None:
    """S4: seats take one card each in turn until every hand holds two."""
    _draw_card(state, state.current, back, effects)
    state.setup_draws += 1
    if state.setup_draws < HAND_SIZE * state.num_players:
        state.current = state.setup_draws % state.num_players
    elif state.options.full_game:
        state.current = 0
        state.phase = WINDMILL  # S6
    else:
        _begin_turn(state, 0)


def _begin_turn(state: State, seat: int) -> None:
    """T1: ``seat`` starts a turn of two actions."""
    if seat == 0:
        state.round += 1
    state.turn += 1
    state.current = seat
    state.actions_left = 2
    state.phase = ACTION


def _act(state: State, action: int, effects: _Effects) -> None:
    seat = state.current
    if action == A.END_TURN:
        _end_turn(state, effects)
    elif A.FLY <= action < A.PLAY:
        _fly(state, seat, action - A.FLY, effects)
    elif A.PLAY <= action < A.PLACE:
        paying = action >= A.PLAY_PAYING
        card = action - (A.PLAY_PAYING if paying else A.PLAY)
        state.hands[seat][card] -= 1
        state.played[card] += 1
        back = card // NUM_COLOURS
        state.dollars[seat] += BACK_DOLLARS[back]  # A2
        if paying:
            state.dollars[seat] -= RECOLOUR_COST  # D1
        state.pending_card = card
        state.pending_paid = int(paying)
        state.rangers_left = BACK_RANGERS[back]
        state.track_used = 0
        state.phase = PLACE
    elif A.TAKE_BACK <= action < A.DONE_TAKING:
        state.taken = 0
        state.phase = TAKE_BACK
        _take_one(state, action - A.TAKE_BACK, effects)
    elif A.MOVE_FROM <= action < A.MOVE_TO:
        state.dollars[seat] -= MOVE_COST  # D2
        state.move_from = action - A.MOVE_FROM
        state.phase = MOVE_TO


def _fly(state: State, seat: int, region: int, effects: _Effects) -> None:
    """A1: the plane moves; a face-down tile turns up (W2 for a windmill tile); P5 via P4."""
    state.plane[seat] = region
    if state.tile_value[region] > 0 and not state.tile_up[region]:
        state.tile_up[region] = 1
        value = state.tile_value[region]
        effects.revealed = value
        if state.options.full_game and state.data.has_windmill(value):  # W2
            state.windmill_region = region
            state.windmill_value = min(state.windmill_value + 1, state.data.windmill_max)
            effects.windmill_to = region
    _check_projects(state, seat, effects, (region,))  # P5: only this region can change
    _action_done(state, effects)


def _place(state: State, action: int, effects: _Effects) -> None:
    seat = state.current
    if A.PLACE <= action < A.NO_RANGERS:
        offset = action - A.PLACE
        count, location = offset // A.MAX_LOCATIONS + 1, offset % A.MAX_LOCATIONS
        state.rangers[location][seat] += count  # A3
        state.supply[seat] -= count
        state.rangers_left -= count
        _finish_play(state, effects, state.data.locations[location].regions)
    elif action == A.NO_RANGERS:
        state.vp[seat] += NO_RANGER_VP  # A2 (b)
        _finish_play(state, effects)
    elif action == A.STOP_PLACING:
        _finish_play(state, effects)
    else:  # W3: the topmost empty areas, one ranger each
        count = action - A.RANGER_TRACK + 1
        state.ranger_track.extend([seat] * count)
        state.supply[seat] -= count
        state.rangers_left -= count
        state.track_used = 1
        if not _can_place_more(state, seat):
            _finish_play(state, effects)


def _finish_play(state: State, effects: _Effects, touched: tuple[int, ...] = ()) -> None:
    """A2 done: projects (P4) of the regions the placement ``touched``, then the draw (A4)
    if a stack has a card."""
    seat = state.current
    state.pending_card = -1
    state.pending_paid = 0
    state.rangers_left = 0
    state.track_used = 0
    _check_projects(state, seat, effects, touched)
    if any(state.stacks):
        state.phase = DRAW
    else:
        _action_done(state, effects)


def _take_one(state: State, location: int, effects: _Effects) -> None:
    """A5: one ranger home; the take-back ends after the fourth or when none is left."""
    seat = state.current
    state.rangers[location][seat] -= 1
    state.supply[seat] += 1
    state.taken += 1
    left = any(
        state.rangers[loc][seat] > 0 for loc in state.data.region_locations[state.plane[seat]]
    )
    if state.taken >= MAX_TAKE_BACK or not left:
        _finish_take_back(state, effects)


def _finish_take_back(state: State, effects: _Effects) -> None:
    state.taken = 0
    plane = state.plane[state.current]
    touched = {
        r for loc in state.data.region_locations[plane] for r in state.data.locations[loc].regions
    }
    _check_projects(state, state.current, effects, tuple(touched))
    _action_done(state, effects)


def _move_to(state: State, location: int, effects: _Effects) -> None:
    """D2: the lifted ranger lands; projects checked; the turn goes on where it was."""
    seat = state.current
    state.rangers[state.move_from][seat] -= 1
    state.rangers[location][seat] += 1
    locations = state.data.locations
    touched = set(locations[state.move_from].regions) | set(locations[location].regions)
    state.move_from = -1
    _check_projects(state, seat, effects, tuple(touched))
    state.phase = ACTION
    if state.actions_left == 0 and not _move_sources(state, seat):
        _end_turn(state, effects)


def _action_done(state: State, effects: _Effects) -> None:
    """T1/T2: one action fewer; E1's trigger; the turn ends when nothing is left to do."""
    state.actions_left -= 1
    if not any(state.stacks) and any(state.hand_size(s) == 0 for s in range(state.num_players)):
        state.end_triggered = 1  # E1
    state.phase = ACTION
    if state.actions_left <= 0:
        state.actions_left = 0
        if not _move_sources(state, state.current):
            _end_turn(state, effects)


def _end_turn(state: State, effects: _Effects) -> None:
    """T3 / E1 / E4: the next seat plays, or the game ends after the round's last seat."""
    last = state.current == state.num_players - 1
    if last and (state.end_triggered or state.round >= state.options.max_rounds):
        if state.options.full_game:
            _windmill_scoring(state, effects)  # E2
        state.phase = OVER
        return
    _begin_turn(state, (state.current + 1) % state.num_players)


# ---------------------------------------------------------------- projects and the windmill


def _check_projects(
    state: State, initiator: int, effects: _Effects, touched: tuple[int, ...]
) -> None:
    """P4 over the regions an action ``touched`` (no other region can have changed: every
    region is checked after every change): the plane's region first, then region order;
    conservation before industrialization."""
    plane = state.plane[initiator]
    order = sorted(touched)
    if plane in touched:
        order.remove(plane)
        order.insert(0, plane)
    for region in order:
        if conservation_complete(state, region):
            state.conservation[region] = 0
            _score_project(state, region, "conservation", 0, initiator, effects)
        if industrialization_complete(state, region):
            value = state.tile_value[region]
            state.tile_value[region] = 0
            _score_project(state, region, "industrialization", value, initiator, effects)


def _score_project(
    state: State, region: int, kind: str, value: int, initiator: int, effects: _Effects
) -> None:
    """P3: 3 VP to the initiator, 1 per ranger (2 on a ship) to everyone; W4, W5."""
    points = [0] * state.num_players
    points[initiator] += INITIATOR_VP
    for loc in state.data.region_locations[region]:
        weight = 2 if state.data.locations[loc].kind == SHIP else 1
        for seat, count in enumerate(state.rangers[loc]):
            points[seat] += weight * count
    for seat in range(state.num_players):
        state.vp[seat] += points[seat]
    effects.scorings.append(Scoring(kind, region, value, initiator, tuple(points)))
    if state.options.full_game:
        state.windmill_track.append(value)  # W4
        if len(state.windmill_track) >= state.data.tile_areas:
            _windmill_scoring(state, effects)  # W5


def windmill_ranking(state: State) -> list[int]:
    """W5/W6: seats with rangers on the ranger track, most first, ties to the higher ranger."""
    seats = [s for s in range(state.num_players) if s in state.ranger_track]
    return sorted(seats, key=lambda s: (-state.ranger_track.count(s), state.ranger_track.index(s)))


def _windmill_scoring(state: State, effects: _Effects) -> None:
    """W5: V, V//2, V//2//2 to the first three; tiles leave; the top half of rangers go home."""
    points = [0] * state.num_players
    prize = state.windmill_value
    for seat in windmill_ranking(state)[:3]:
        points[seat] = prize
        prize //= 2
    for seat in range(state.num_players):
        state.vp[seat] += points[seat]
    effects.scorings.append(Scoring("windmill", -1, state.windmill_value, -1, tuple(points)))
    state.windmill_track = []
    half = len(state.ranger_track) // 2
    for seat in state.ranger_track[:half]:
        state.supply[seat] += 1
    state.ranger_track = state.ranger_track[half:]


# ---------------------------------------------------------------- the end


def outcome(state: State) -> Outcome | None:
    """E3: VP + dollars; a tie goes to the most dollars; still tied, a shared win."""
    if state.phase != OVER:
        return None
    n = state.num_players
    totals = [state.vp[s] + state.dollars[s] for s in range(n)]
    best = max(totals)
    tied = [s for s in range(n) if totals[s] == best]
    richest = max(state.dollars[s] for s in tied)
    winners = tuple(s for s in tied if state.dollars[s] == richest)
    keys = [(totals[s], state.dollars[s]) for s in range(n)]
    return Outcome(
        scores=tuple(float(t) for t in totals), winners=winners, ranks=ranks_from(winners, keys)
    )


def replay_action(state: State, record: ActionRecord) -> ActionRecord:
    """Apply ``record``'s action; a LogError if the result differs from the record."""
    try:
        again = apply_action(state, record.action)
    except (IllegalActionError, ValueError, ViewError) as exc:
        raise LogError(
            f"record of step {record.step} ({record.name}) does not replay: {exc}"
        ) from exc
    if again != record:
        raise LogError(
            f"record of step {record.step} does not match its replay: {record} != {again}"
        )
    return again
