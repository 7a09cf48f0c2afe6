"""Hand-built Australia states for the rule tests."""

from __future__ import annotations

from typing import Any

import numpy as np

from airships_env.games.australia.engine import (
    ACTION_NAMES,
    ActionRecord,
    RulesOptions,
    State,
    action_from_name,
    default_data,
    new_game,
)
from airships_env.games.australia.engine.actions import kind_uniform_choice
from airships_env.games.australia.engine.data import BACKS, COLOURS, NUM_COLOURS
from airships_env.games.australia.engine.state import ACTION

DATA = default_data()
REGION = {region.id: r for r, region in enumerate(DATA.regions)}
LOCATION = {loc.id: i for i, loc in enumerate(DATA.locations)}


def card(back: str, colour: str) -> int:
    """The card type of a back ('3+1') and a colour ('red')."""
    return BACKS.index(back) * NUM_COLOURS + COLOURS.index(colour)


def hand(*cards: tuple[str, str]) -> list[int]:
    """Counts by card type of the given (back, colour) cards."""
    counts = [0] * (4 * NUM_COLOURS)
    for back, colour in cards:
        counts[card(back, colour)] += 1
    return counts


def table(num_players: int = 2, *, seed: int = 0, **options: Any) -> State:
    """A game past its setup (every seat drew from the first non-empty stack; the full game's
    windmill on region 0), seat 0 to act with two actions; the map empty and all tiles down."""
    state = new_game(num_players, seed, options=RulesOptions(**options))
    while state.phase != ACTION:
        state.apply_action(state.legal_actions()[0])
    return state


def act(state: State, name: str) -> ActionRecord:
    """Apply the action called ``name``."""
    record: ActionRecord = state.apply_action(action_from_name(name))
    return record


def names(state: State) -> list[str]:
    """The legal actions' names."""
    return [ACTION_NAMES[a] for a in state.legal_actions()]


def put(state: State, location: str, seat: int, count: int) -> None:
    """Put ``count`` of ``seat``'s rangers from its supply on ``location``."""
    state.rangers[LOCATION[location]][seat] += count
    state.supply[seat] -= count


def face_up(state: State, region: str, value: int) -> None:
    """Lay a face-up tile of ``value`` on ``region``."""
    state.tile_value[REGION[region]] = value
    state.tile_up[REGION[region]] = 1


def random_kind_action(legal: list[int], rng: np.random.Generator) -> int:
    """A random action, the kind ('fly', 'play', 'place', ...) uniform first: random games
    that play their cards and end by E1."""
    return kind_uniform_choice(legal, lambda k: int(rng.integers(k)))
