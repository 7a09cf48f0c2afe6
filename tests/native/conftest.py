"""The native core's tests run only where the extension is built (``make venv`` builds it)."""

from __future__ import annotations

import pytest

from airships_env import native
from airships_env.games.clockwork.engine import ClockworkData, parse_data
from airships_env.games.clockwork.engine import data as cw_data
from airships_env.games.clockwork.engine.data import default_data_path

if not native.available():  # pragma: no cover - the extension is part of every install
    pytest.skip(
        "the native core is not built (run `make venv` or `pip install -e .`)",
        allow_module_level=True,
    )


@pytest.fixture(scope="session")
def edited_data() -> ClockworkData:
    """A data file unlike the default: another track and other card counts for every player
    count (FM4 in the 2-player game, no POWER in the 3-player game, more AS and FUEL, and in the
    4-player game no FM6 or CB4, which keeps its 55 cards within the 58 places)."""
    doc = cw_data.tomllib.loads(default_data_path().read_text(encoding="utf-8"))
    counts = {card["id"]: card["count"] for card in doc["card"]}
    counts["FM4"]["p2"] = 4
    counts["CB4"]["p3"] = 4
    counts["POWER"]["p3"] = 0
    counts["AS"].update(p2=4, p4=8)
    counts["FUEL"].update(p2=2, p4=8)
    counts["SCRAP"]["p2"] = 8
    counts["FM6"]["p4"] = counts["CB4"]["p4"] = 0
    doc["track"].update(length=31, towers=17, scrapyards=[3, 30, 9, 12, 20, 25])
    return parse_data(doc, source="edited.toml")
