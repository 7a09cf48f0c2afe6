"""Every rule id of every game's rulebook has a test named after it (``test_T6_...``).

A rule is written ``- T6 ...`` at the start of a line of its RULES.md; a test checks it when a
test function's name holds the id as one of its ``_``-separated words (``test_T6_...``,
``test_T3_X4_...``), so ``T1`` is not found in ``test_T1a_...``. A new rule without a test fails
here. The tests themselves must fail when their rule is broken at its boundary: the mutation run
(``scripts/mutation_run.py``) checks that.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
#: Every game's rulebook, ``docs/<game>/RULES.md``, and the test folders that hold its rule
#: tests: Airships' are spread over the engine, native and option tests; a newer game keeps its
#: tests in ``tests/<game>/`` (the default), so ids shared by two games (S1) are checked per game.
RULEBOOKS = tuple(sorted((ROOT / "docs").glob("*/RULES.md")))
TEST_FOLDERS = {"airships": ("engine", "native", "env")}
RULE_LINE = re.compile(r"^- ([A-Z][0-9]+[a-z]?) ", re.MULTILINE)


def rule_ids(rulebook: Path) -> list[str]:
    """The rule ids written in a rulebook, in order."""
    return RULE_LINE.findall(rulebook.read_text(encoding="utf-8"))


def game_of(rulebook: Path) -> str:
    """The game a rulebook belongs to: the name of its folder under docs/."""
    return rulebook.parent.name


def function_names(game: str) -> set[str]:
    """The name of every test function in the game's test folders."""
    names = set()
    folders = TEST_FOLDERS.get(game, (game,))
    paths = [path for folder in folders for path in (TESTS / folder).rglob("test_*.py")]
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            is_function = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            if is_function and node.name.startswith("test_"):
                names.add(node.name)
    return names


def test_the_rulebooks_are_read() -> None:
    """The id pattern still finds the rules (so the check below cannot pass on nothing)."""
    assert "airships" in {game_of(rulebook) for rulebook in RULEBOOKS}
    for rulebook in RULEBOOKS:
        ids = rule_ids(rulebook)
        assert len(ids) >= 20, f"{rulebook}: only {ids} found; did the rule format change?"
        assert len(ids) == len(set(ids)), f"{rulebook}: an id is written twice"
        if game_of(rulebook) == "airships":
            assert {"S1", "T1a", "T6", "E4", "X4", "C4"} <= set(ids)


def test_every_rule_id_has_a_test_named_after_it() -> None:
    for rulebook in RULEBOOKS:
        words = {word for name in function_names(game_of(rulebook)) for word in name.split("_")}
        missing = [rule for rule in rule_ids(rulebook) if rule not in words]
        assert not missing, (
            f"{rulebook.relative_to(ROOT)}: no test named after rule(s) {', '.join(missing)} "
            f"(write test_<id>_... that fails when the rule is broken)"
        )
