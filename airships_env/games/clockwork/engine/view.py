"""What one seat may see (V1-V4) and determinization for search.

A view is a copy of the state in which every card the seat cannot see is replaced by a canonical
arrangement that depends only on what it can see: the hidden cards (opponents' hands beyond the
seat's knowledge, the piles, and the face-down places when ``discard_recall = "none"``) are sorted
by type and dealt in a fixed order (opponents in seat order, each first given what the seat knows
it holds, then the piles 1..6 bottom to top, then the occupied places). Other seats' knowledge
rows are zeroed, the type named in a challenge between two others is -1, and the generator is
gone. ``determinize`` deals the same hidden cards at random instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from airships_env.games.clockwork.engine.chance import uniform_below
from airships_env.games.clockwork.engine.data import NUM_TYPES, SCRAP
from airships_env.games.clockwork.engine.model import RESPOND

if TYPE_CHECKING:  # the state's methods call the view; the view takes a state
    from airships_env.games.clockwork.engine.state import State


_TYPES = np.arange(NUM_TYPES)


def _hidden_pool(state: State, seat: int) -> list[int]:
    """Counts by type of the cards ``seat`` cannot place, its knowledge of hands excluded."""
    pool = [0] * NUM_TYPES
    for other in range(state.num_players):
        if other == seat:
            continue
        for t in range(NUM_TYPES):
            pool[t] += state.hands[other][t] - state.known[seat][other][t]
    for pile in state.piles:
        for card in pile:
            pool[card] += 1
    if state.options.discard_recall == "none":
        for card in state.places:
            if card >= 0:
                pool[card] += 1
    return pool


def _deal(state: State, seat: int, cards: list[int]) -> None:
    """Put ``cards`` (in order) into the hidden slots, knowledge first, in the fixed order."""
    position = 0
    known = state.known[seat]
    for other in range(state.num_players):
        if other == seat:
            continue
        size = state.hand_size(other)
        hand = list(known[other])
        for _ in range(size - sum(hand)):
            hand[cards[position]] += 1
            position += 1
        state.hands[other] = hand
    for pile in state.piles:
        for i in range(len(pile)):
            pile[i] = cards[position]
            position += 1
    if state.options.discard_recall == "none":
        for p, card in enumerate(state.places):
            if card >= 0:
                state.places[p] = cards[position]
                position += 1
    assert position == len(cards)


def _expand(pool: list[int]) -> list[int]:
    return [t for t in range(NUM_TYPES) for _ in range(pool[t])]


def view(state: State, seat: int) -> State:
    """``seat``'s view: hidden cards canonical, other seats' knowledge zeroed, no generator."""
    if not 0 <= seat < state.num_players:
        raise ValueError(f"seat {seat!r} outside 0..{state.num_players - 1}")
    if state.view_seat >= 0 and state.view_seat != seat:
        raise ValueError(f"a view of seat {state.view_seat} cannot give seat {seat}'s view")
    seen = state.copy_without_generator()
    seen.view_seat = seat
    _deal(seen, seat, _expand(_hidden_pool(state, seat)))
    for other in range(state.num_players):
        if other != seat:
            seen.known[other] = [[0] * NUM_TYPES for _ in range(state.num_players)]
    if seen.challenge[0] >= 0 and seat not in seen.challenge[:2]:
        seen.challenge[2] = -1  # C4
    return seen


def determinize(state: State, rng: np.random.Generator) -> State:
    """A playable state consistent with the view (of ``state.view_seat``, else of the seat to
    act): the hidden cards re-dealt at random from ``rng``; a fresh generator from ``rng``."""
    seen = state if state.view_seat >= 0 else view(state, state.actor)
    seat = seen.view_seat
    dealt = seen.copy_without_generator()
    pool = _hidden_pool(seen, seat)
    cards: list[int] = rng.permutation(np.repeat(_TYPES, pool)).tolist()
    _deal(dealt, seat, cards)
    if dealt.phase == RESPOND and dealt.challenge[2] < 0:
        _guess_named(dealt, rng)  # the only phase whose rules read the named type
    dealt.view_seat = -1
    dealt.rng = np.random.Generator(np.random.PCG64(int(rng.bit_generator.random_raw())))
    return dealt


def _guess_named(state: State, rng: np.random.Generator) -> None:
    """A challenge between two others, the opponent choosing its answer: a type the challenger
    could have named and the opponent holds."""
    from airships_env.games.clockwork.engine.rules import nameable_types

    challenger, opponent = state.challenge[0], state.challenge[1]
    candidates = nameable_types(state, challenger)
    held = [t for t in range(SCRAP) if state.hands[opponent][t] > 0]
    candidates = [t for t in candidates if t in held] or held
    if not candidates:
        return
    state.challenge[2] = candidates[uniform_below(rng, len(candidates))]
