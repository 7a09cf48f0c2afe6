"""The native core's tests run only where the extension is built (``make venv`` builds it)."""

from __future__ import annotations

import pytest

from airships_env import native

if not native.available():  # pragma: no cover - the extension is part of every install
    pytest.skip(
        "the native core is not built (run `make venv` or `pip install -e .`)",
        allow_module_level=True,
    )
