"""The rules tests run against both engines: the Python reference and the native core.

With the ``native`` parameter of :func:`engine_backend`, ``GameState.apply_action`` and
``GameState.legal_actions`` are answered by the native core: the state is copied into the core,
the action applied there, and the result copied back into the same Python object, so that every
test that builds a state by hand and checks what an action did checks the core too.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields

import pytest

from airships_env import native
from airships_env.engine.state import GameState

BACKENDS = ["python", "native"] if native.available() else ["python"]


def _native_apply(self: GameState, action: int, dice: tuple[tuple[int, ...], ...] | None = None):  # type: ignore[no-untyped-def]
    game = native.NativeGame.from_state(self)
    try:
        return game.apply_action(action, dice)
    finally:
        after = game.to_state()
        for field in fields(GameState):
            if field.name not in ("cards", "options", "legal_cache"):
                setattr(self, field.name, getattr(after, field.name))
        self.legal_cache = None


def _native_legal(self: GameState) -> list[int]:
    return native.NativeGame.from_state(self).legal_actions()


@pytest.fixture(params=BACKENDS)
def engine_backend(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """Run the test with the Python engine, then with the native core answering the rules."""
    if request.param == "native":
        monkeypatch.setattr(GameState, "apply_action", _native_apply)
        monkeypatch.setattr(GameState, "legal_actions", _native_legal)
    yield request.param
