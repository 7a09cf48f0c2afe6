"""Shared helpers of the training tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(name="load_script")
def load_script_fixture() -> Callable[[str], ModuleType]:
    """Import ``scripts/<name>.py`` as a module (the scripts are not a package)."""
    return load_script
