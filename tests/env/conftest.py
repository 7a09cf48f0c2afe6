"""The environment tests run against both backends (the Python engine and the native core):
every environment made without an explicit ``backend`` takes the parametrized one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from airships_env import aec, native

BACKENDS = ["python", "native"] if native.available() else ["python"]


@pytest.fixture(autouse=True, params=BACKENDS)
def env_backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The backend environments default to in this test."""
    monkeypatch.setattr(aec, "default_backend", lambda: request.param)
    yield request.param
