"""What one seat may see (V1-V4) and determinization for search (V5).

A view is a copy of the state in which what the seat cannot see is replaced by a canonical
arrangement that depends only on what it can see: per back, the hidden colours (the other
hands' cards of that back, the stack, the set-aside cards) sorted and dealt in a fixed order
(other hands in seat order, then the stack bottom to top, then the set-aside cards); the values
of the face-down tiles sorted and dealt to the face-down regions in region order. The generator
is gone. ``determinize`` deals the same hidden cards and tiles at random instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from airships_env.games.australia.engine.chance import shuffle
from airships_env.games.australia.engine.data import NUM_BACKS, NUM_COLOURS, NUM_REGIONS

if TYPE_CHECKING:  # the state's methods call the view; the view takes a state
    from airships_env.games.australia.engine.state import State


def _hidden_cards(state: State, seat: int, back: int) -> list[int]:
    """The colours of ``back`` that ``seat`` cannot see, sorted."""
    pool: list[int] = []
    for other in range(state.num_players):
        if other != seat:
            for colour in range(NUM_COLOURS):
                pool += [colour] * state.hands[other][back * NUM_COLOURS + colour]
    return sorted(pool + state.stacks[back] + state.set_aside[back])


def _hidden_tiles(state: State) -> list[int]:
    """The values of the face-down tiles, sorted."""
    return sorted(v for v, up in zip(state.tile_value, state.tile_up, strict=True) if v and not up)


def _deal(state: State, seat: int, cards: list[list[int]], tiles: list[int]) -> None:
    """Put the hidden cards (per back, in order) and tiles into the hidden slots."""
    for back in range(NUM_BACKS):
        position = 0
        colours = cards[back]
        for other in range(state.num_players):
            if other == seat:
                continue
            held = sum(state.hands[other][back * NUM_COLOURS + c] for c in range(NUM_COLOURS))
            for c in range(NUM_COLOURS):
                state.hands[other][back * NUM_COLOURS + c] = 0
            for _ in range(held):
                state.hands[other][back * NUM_COLOURS + colours[position]] += 1
                position += 1
        for pile in (state.stacks[back], state.set_aside[back]):
            for i in range(len(pile)):
                pile[i] = colours[position]
                position += 1
        assert position == len(colours)
    _deal_tiles(state, tiles)


def _deal_tiles(state: State, tiles: list[int]) -> None:
    """Put the face-down tiles' values (in order) on the face-down regions in region order."""
    position = 0
    for region in range(NUM_REGIONS):
        if state.tile_value[region] and not state.tile_up[region]:  # face down
            state.tile_value[region] = tiles[position]
            position += 1
    assert position == len(tiles)


def _deal_sorted_cards(state: State, seat: int) -> None:
    """In place, what ``_deal`` does with the sorted hidden cards (``_hidden_cards``), counted by
    colour instead of listed: per back, the colours in ascending order go to the other hands in
    seat order, then to the stack bottom to top, then to the set-aside cards."""
    n = state.num_players
    for back in range(NUM_BACKS):
        base = back * NUM_COLOURS
        counts = [0] * NUM_COLOURS
        held = [0] * n
        for other in range(n):
            if other != seat:
                hand = state.hands[other]
                for c in range(NUM_COLOURS):
                    counts[c] += hand[base + c]
                    held[other] += hand[base + c]
                    hand[base + c] = 0
        stack, aside = state.stacks[back], state.set_aside[back]
        for c in stack:
            counts[c] += 1
        for c in aside:
            counts[c] += 1
        colour = 0
        for other in range(n):
            need = held[other]
            hand = state.hands[other]
            while need:
                while not counts[colour]:
                    colour += 1
                take = min(need, counts[colour])
                hand[base + colour] += take
                counts[colour] -= take
                need -= take
        for pile in (stack, aside):
            for i in range(len(pile)):
                while not counts[colour]:
                    colour += 1
                pile[i] = colour
                counts[colour] -= 1


def view(state: State, seat: int) -> State:
    """``seat``'s view: hidden cards and tiles canonical, no generator (V4)."""
    if isinstance(seat, bool) or not isinstance(seat, int | np.integer):
        raise TypeError(f"a seat is an integer, got {type(seat).__name__}")
    if not 0 <= seat < state.num_players:
        raise ValueError(f"seat {seat!r} outside 0..{state.num_players - 1}")
    seat = int(seat)
    if state.view_seat >= 0 and state.view_seat != seat:
        raise ValueError(f"a view of seat {state.view_seat} cannot give seat {seat}'s view")
    seen = state._clone_with(None)  # the generator is not part of a view: never copied
    seen.view_seat = seat
    _deal_sorted_cards(seen, seat)  # the hidden cards sorted and dealt in the fixed order
    _deal_tiles(seen, _hidden_tiles(state))
    return seen


def determinize(state: State, rng: np.random.Generator) -> State:
    """A playable state consistent with the view (of ``state.view_seat``, else of the seat to
    act): hidden cards and tiles re-dealt at random from ``rng``; a fresh generator (V5)."""
    seen = state if state.view_seat >= 0 else view(state, state.current)
    seat = seen.view_seat
    dealt = seen.clone()
    cards = [shuffle(rng, _hidden_cards(seen, seat, b)) for b in range(NUM_BACKS)]
    _deal(dealt, seat, cards, shuffle(rng, _hidden_tiles(seen)))
    dealt.view_seat = -1
    dealt.rng = np.random.Generator(np.random.PCG64(int(rng.integers(0, 2**63))))
    return dealt
