"""The mutation run (``scripts/mutation_run.py``) stays runnable: it is slow and not part of the
test run, so this checks only that its mutations still point at lines of today's source."""

from __future__ import annotations

import re
from pathlib import Path

from tests.scripts import load_script

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "airships" / "RULES.md"


def test_every_mutation_changes_one_line_that_is_in_the_source() -> None:
    script = load_script("mutation_run")
    mutations = script.MUTATIONS
    assert len({m.name for m in mutations}) == len(mutations)
    rule_ids = set(re.findall(r"^- ([A-Z][0-9]+[a-z]?) ", RULES.read_text(encoding="utf-8"), re.M))
    for mutation in mutations:
        assert "\n" not in mutation.old and "\n" not in mutation.new, mutation.name
        assert mutation.new != mutation.old, mutation.name
        assert mutation.rule == "-" or mutation.rule in rule_ids, mutation.name
        assert script.target_line(mutation) > 0  # raises when the line is gone or repeated
    # both engines are mutated
    assert any(m.path.endswith(".c") for m in mutations)
    assert any(m.path.endswith("engine/rules.py") for m in mutations)


def test_a_line_that_moved_on_is_named() -> None:
    script = load_script("mutation_run")
    stale = script.Mutation("x", "T6", "airships_env/engine/rules.py", "no such line", "", ())
    try:
        script.target_line(stale)
    except ValueError as error:
        assert "mutation x" in str(error) and "0 times" in str(error)
    else:
        raise AssertionError("a missing line was not reported")
