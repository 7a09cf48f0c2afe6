"""docs/airships/ACTIONS.md and OBSERVATION.md against the code that owns them (the action table
of ``airships_env.engine.actions``, the layout of ``airships_env.observation``)."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import pytest

from airships_env.engine.actions import ACTION_NAMES, NUM_ACTIONS
from airships_env.observation import observation_high, observation_layout, observation_size
from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "airships"


def generator() -> ModuleType:
    """scripts/docs_tables.py, the pages' generator."""
    return load_script("docs_tables")


@pytest.mark.parametrize("page", ["ACTIONS.md", "OBSERVATION.md"])
def test_the_generated_pages_are_current(page: str) -> None:
    expected = generator().PAGES[page]()
    assert (DOCS / page).read_text(encoding="utf-8") == expected, (
        f"docs/airships/{page} is out of date: run python scripts/docs_tables.py"
    )


def table_rows(text: str, header_start: str) -> list[list[str]]:
    """The cells of the Markdown table whose header row starts with ``header_start``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header_start))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip())[1:-1]])
    return rows


def test_the_action_page_lists_every_action_with_its_name() -> None:
    rows = table_rows((DOCS / "ACTIONS.md").read_text(encoding="utf-8"), "| index | name |")
    assert [int(row[0]) for row in rows] == list(range(NUM_ACTIONS))
    assert [row[1] for row in rows] == list(ACTION_NAMES)


def test_the_observation_page_gives_every_piece_where_the_code_puts_it() -> None:
    text = (DOCS / "OBSERVATION.md").read_text(encoding="utf-8")
    for n in (2, 3, 4):
        assert f"{n} players {observation_size(n)}" in text
    rows = table_rows(text, "| piece | size (")
    layouts = {n: observation_layout(n) for n in (2, 3, 4)}
    assert [row[0].strip("`") for row in rows] == list(layouts[4])
    for name, sizes, starts, high in rows:
        name = name.strip("`")
        for k, n in enumerate((2, 3, 4)):
            size, start = sizes.split(" / ")[k], starts.split(" / ")[k]
            if name not in layouts[n]:
                assert size == start == "-", (name, n)
                continue
            piece = layouts[n][name]
            assert int(size) == len(range(observation_size(n))[piece]), (name, n)
            assert int(start.split()[0]) == piece.start, (name, n)
        assert float(high) == float(observation_high(4)[layouts[4][name].start]), name
    described = set(re.findall(r"^\| `([^`]+)` \| [^|]+ \| [^|]", text, re.M))
    assert "<who>.available_dice_exchanged_fixed" in described and "odds.chip_decides" in described
