"""The conformance suite's cases: every registered game, every backend it has (the ones built
here), every player count. Registering a game adds it to every test of this folder, with no new
test code."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from airships_env.protocol import Game
from airships_env.registry import games, get_game
from tests.conformance.toy_game import GAME as TOY_GAME


@dataclass(frozen=True)
class Case:
    """One game on one backend."""

    game: Game
    backend: str

    @property
    def id(self) -> str:
        """The pytest id: ``airships-native``."""
        return f"{self.game.name}-{self.backend}"


def _backend_available(game: Game, backend: str) -> bool:
    try:
        game.new_state(min(game.player_counts), seed=0, backend=backend)
    except ImportError:  # an optional native core that is not built here
        return False
    return True


#: Games the suite covers besides the registered ones: Hidden Tricks (tests/conformance/
#: toy_game.py), a tiny game with private hands that holds the generic layers to private
#: information (Airships hides nothing from one seat only). Not registered: no tool lists it.
EXTRA_GAMES: list[Game] = [TOY_GAME]


def _cases() -> list[Case]:
    cases = []
    for game in [get_game(name) for name in games()] + EXTRA_GAMES:
        cases += [Case(game, b) for b in game.backends if _backend_available(game, b)]
    return cases


CASES = _cases()
#: One case per game (the Python reference): for tests that do not depend on the backend.
GAME_CASES = [case for case in CASES if case.backend == "python"]
#: Every case at every player count.
TABLES = [(case, n) for case in CASES for n in case.game.player_counts]


def table_id(table: tuple[Case, int]) -> str:
    """The pytest id of a case at a table size: ``airships-python-3p``."""
    return f"{table[0].id}-{table[1]}p"


def random_states(
    case: Case, num_players: int, seed: int, max_actions: int = 100_000
) -> Iterator[Any]:
    """The states of one game played uniformly at random to its end (the same object, advanced:
    copy what you keep)."""
    state = case.game.new_state(num_players, seed=seed, backend=case.backend)
    rng = np.random.default_rng(seed + 1_000)
    yield state
    for _ in range(max_actions):
        if state.is_terminal():
            return
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
        yield state
    raise AssertionError(f"{case.id}: no end after {max_actions} random actions")


@pytest.fixture(params=CASES, ids=[c.id for c in CASES])
def case(request: pytest.FixtureRequest) -> Case:
    """Every game on every backend."""
    return request.param  # type: ignore[no-any-return]


@pytest.fixture(params=GAME_CASES, ids=[c.game.name for c in GAME_CASES])
def game_case(request: pytest.FixtureRequest) -> Case:
    """Every game on its reference backend."""
    return request.param  # type: ignore[no-any-return]


@pytest.fixture(params=TABLES, ids=[table_id(t) for t in TABLES])
def table(request: pytest.FixtureRequest) -> tuple[Case, int]:
    """Every game on every backend at every player count."""
    return request.param  # type: ignore[no-any-return]
