"""Shared helpers of the training tests."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def load_script() -> Callable[[str], ModuleType]:
    """Import ``scripts/<name>.py`` as a module (the scripts are not a package)."""

    def load(name: str) -> ModuleType:
        spec = importlib.util.spec_from_file_location(
            f"script_{name}", ROOT / "scripts" / f"{name}.py"
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    return load
