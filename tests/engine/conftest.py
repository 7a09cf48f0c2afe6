"""The rules tests run against both engines: the Python reference and the native core.

With the ``native`` parameter of :func:`engine_backend`, the core answers the rules:

- ``GameState.apply_action`` and ``GameState.legal_actions``: the state is copied into the core,
  the action applied there, and the result copied back into the same Python object, so that every
  test that builds a state by hand and checks what an action did checks the core too;
- the replay of a game log (``GameLog.replay`` applies every record through the core);
- in the test's module: ``new_game`` (the core deals), ``attempt_odds``, ``scores`` and
  ``public_view`` (the core computes them from the same state). ``helpers.hand_built`` keeps the
  Python deal: it empties the deal, so a test that only builds a state has not asked the core.

A ``native`` variant that never reaches the core would only repeat the Python run under another
name, so it fails; a test that has nothing to ask the core (a file's content, an option's
default, a Python-only helper) carries ``@pytest.mark.python_only`` and has no ``native`` id.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields
from typing import Any

import numpy as np
import pytest

from airships_env import native
from airships_env.engine import log as engine_log
from airships_env.engine.cards import CardSet
from airships_env.engine.dice import AttemptOdds
from airships_env.engine.model import RulesOptions
from airships_env.engine.records import ActionRecord
from airships_env.engine.state import GameState

BACKENDS = ["python", "native"] if native.available() else ["python"]

#: How many times the running test reached the core (reset before each native test).
_core_calls = [0]


def _reached_core() -> None:
    _core_calls[0] += 1


def _native_apply(
    self: GameState, action: int, dice: tuple[tuple[int, ...], ...] | None = None
) -> ActionRecord:
    _reached_core()
    game = native.NativeGame.from_state(self)
    try:
        return game.apply_action(action, dice)
    finally:
        after = game.to_state()
        for field in fields(GameState):
            if field.name not in ("cards", "options", "legal_cache"):
                setattr(self, field.name, getattr(after, field.name))
        self.legal_cache = None


def _native_apply_function(
    state: GameState, action: int, dice: tuple[tuple[int, ...], ...] | None = None
) -> ActionRecord:
    return _native_apply(state, action, dice)


def _native_legal(self: GameState) -> list[int]:
    _reached_core()
    return native.NativeGame.from_state(self).legal_actions()


def _native_new_game(
    num_players: int = 4,
    seed: int | None = None,
    *,
    rng: np.random.Generator | None = None,
    cards: CardSet | str | None = None,
    options: RulesOptions | None = None,
) -> GameState:
    game = native.NativeGame.new(num_players, seed, rng=rng, cards=cards, options=options)
    _reached_core()  # after: a refused player count or seed never reaches the core
    return game.to_state()


def _native_attempt_odds(
    state: GameState, action: int, player: int | None = None
) -> AttemptOdds | None:
    _reached_core()
    return native.NativeGame.from_state(state).attempt_odds(action, player)


def _native_scores(state: GameState) -> list[int]:
    _reached_core()
    return native.NativeGame.from_state(state).scores()


def _native_public_view(state: GameState) -> GameState:
    _reached_core()
    return native.NativeGame.from_state(state).public_view().to_state()


#: Functions a test module may have imported, and their native twins.
_NATIVE_FUNCTIONS: dict[str, Any] = {
    "new_game": _native_new_game,
    "attempt_odds": _native_attempt_odds,
    "scores": _native_scores,
    "public_view": _native_public_view,
}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Both backends for every test using ``engine_backend``, Python alone for python_only."""
    if "engine_backend" in metafunc.fixturenames:
        only_python = metafunc.definition.get_closest_marker("python_only") is not None
        backends = ["python"] if only_python else BACKENDS
        metafunc.parametrize("engine_backend", backends, indirect=True)


@pytest.fixture
def engine_backend(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """Run the test with the Python engine, then with the native core answering the rules."""
    backend: str = request.param
    if backend == "native":
        monkeypatch.setattr(GameState, "apply_action", _native_apply)
        monkeypatch.setattr(GameState, "legal_actions", _native_legal)
        monkeypatch.setattr(engine_log, "apply_action", _native_apply_function)
        for name, function in _NATIVE_FUNCTIONS.items():
            if hasattr(request.module, name):
                monkeypatch.setattr(request.module, name, function)
        _core_calls[0] = 0
    yield backend
    if backend == "native" and _core_calls[0] == 0:
        pytest.fail(
            f"{request.node.nodeid} never reached the native core: its native id repeats the "
            f"Python run; make it ask the core or mark it python_only"
        )
