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
#: Every game's rulebook (one line to change when a rulebook moves or a game is added).
RULEBOOKS = (ROOT / "docs" / "RULES.md",)
TESTS = ROOT / "tests"
RULE_LINE = re.compile(r"^- ([A-Z][0-9]+[a-z]?) ", re.MULTILINE)


def rule_ids(rulebook: Path) -> list[str]:
    """The rule ids written in a rulebook, in order."""
    return RULE_LINE.findall(rulebook.read_text(encoding="utf-8"))


def function_names() -> set[str]:
    """The name of every test function under tests/."""
    names = set()
    for path in TESTS.rglob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            is_function = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            if is_function and node.name.startswith("test_"):
                names.add(node.name)
    return names


def test_the_rulebooks_are_read() -> None:
    """The id pattern still finds the rules (so the check below cannot pass on nothing)."""
    for rulebook in RULEBOOKS:
        ids = rule_ids(rulebook)
        assert len(ids) >= 30, f"{rulebook}: only {ids} found; did the rule format change?"
        assert len(ids) == len(set(ids)), f"{rulebook}: an id is written twice"
        assert {"S1", "T1a", "T6", "E4", "X4", "C4"} <= set(ids)


def test_every_rule_id_has_a_test_named_after_it() -> None:
    words = {word for name in function_names() for word in name.split("_")}
    for rulebook in RULEBOOKS:
        missing = [rule for rule in rule_ids(rulebook) if rule not in words]
        assert not missing, (
            f"{rulebook.relative_to(ROOT)}: no test named after rule(s) {', '.join(missing)} "
            f"(write test_<id>_... that fails when the rule is broken)"
        )
