"""Hand-built Clockwork states for the rule tests."""

from __future__ import annotations

from typing import Any

from airships_env.games.clockwork.engine import RulesOptions, State, action_from_name, new_game
from airships_env.games.clockwork.engine.data import NUM_TYPES, TYPE_IDS
from airships_env.games.clockwork.engine.records import ActionRecord

T = {name: index for index, name in enumerate(TYPE_IDS)}


def cards(*ids: str) -> list[int]:
    """Counts by type of the named cards ('FM1', 'FM1', 'SCRAP')."""
    counts = [0] * NUM_TYPES
    for card_id in ids:
        counts[T[card_id]] += 1
    return counts


def table(
    num_players: int = 2,
    hands: list[list[int]] | None = None,
    pawns: list[int] | None = None,
    piles: list[list[int]] | None = None,
    places: dict[int, str] | None = None,
    **options: Any,
) -> State:
    """A game of ``num_players`` with seat 0 to roll, then the given parts replaced."""
    state = new_game(num_players, 0, options=RulesOptions(first_player="seat0", **options))
    if hands is not None:
        state.hands = [list(h) for h in hands]
    if pawns is not None:
        state.pawns = list(pawns)
        state.turn_start_field = state.pawns[0]
    if piles is not None:
        state.piles = [list(p) for p in piles]
    if places is not None:
        state.places = [-1] * len(state.places)
        for p, card_id in places.items():
            state.places[p] = T[card_id]
    return state


def act(state: State, name: str, dice: tuple[int, int] | None = None) -> ActionRecord:
    """Apply the action called ``name``."""
    record: ActionRecord = state.apply_action(action_from_name(name), dice=dice)
    return record


def names(state: State) -> list[str]:
    """The legal actions' names."""
    from airships_env.games.clockwork.engine import ACTION_NAMES

    return [ACTION_NAMES[a] for a in state.legal_actions()]


def piles_with(top: str = "FM1", size: int = 3) -> list[list[int]]:
    """Six piles of ``size`` cards with ``top`` on top of each."""
    return [[T["SCRAP"]] * (size - 1) + [T[top]] for _ in range(6)]
