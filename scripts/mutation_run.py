"""Break one rule at a time in each engine and see whether the tests named after it notice.

Each mutation is a one-line change at a rule's boundary, in the Python engine
(``airships_env/engine/``), the C core (``airships_env/native/src/``) or the training league.
For each one the script copies the working tree into a temporary directory, changes that line
there (the tree itself is never touched), rebuilds the C core in the copy when the line is C,
runs the tests that should catch it (the rule tests named after the rule, not the golden games,
which catch much by luck and are regenerated when rules change on purpose; one mutation runs
the random-game invariants, which count E2 themselves), puts the line back and prints a table:
mutation -> killed (a test failed) or survived.

A baseline run of every test selection on the unchanged copy comes first: a selection that
fails without a mutation would make "killed" meaningless, so the script stops there.

    .venv/bin/python scripts/mutation_run.py                 # every mutation, a table
    .venv/bin/python scripts/mutation_run.py --json          # the same as JSON
    .venv/bin/python scripts/mutation_run.py --only T6-py E1-c
    .venv/bin/python scripts/mutation_run.py --list          # the mutations, nothing run

It takes a few minutes (each C mutation rebuilds the core); it is not part of the test run.
``tests/test_mutation_run.py`` only checks that every mutation's line is still in the source.
Exit status: 0 when every mutation was killed, 1 when one survived, 2 when the baseline failed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PY_RULES = "airships_env/engine/rules.py"
C_RULES = "airships_env/native/src/rules.c"
# The tests that must catch a mutation: the rule tests of one engine (-x: the first failure is
# enough). The [python] ids ask the Python engine, the [native] ids the core (conftest.py).
PY_RULE_TESTS = ("tests/engine/test_rules.py", "tests/engine/test_options.py", "-k", "python")
C_RULE_TESTS = ("tests/engine/test_rules.py", "tests/engine/test_options.py", "-k", "native")
NATIVE_EXTENSION = "airships_env/native/_core*.so"


@dataclass(frozen=True)
class Mutation:
    """One line of one file replaced by another."""

    name: str
    rule: str
    path: str  # relative to the repository root
    old: str  # the whole line as it stands (it must occur exactly once in the file)
    new: str  # the line that replaces it
    tests: tuple[str, ...]  # pytest arguments
    #: Also run the tests named after ``rule`` alone (``test_<rule>_...``), to see that they
    #: are the ones holding the rule; False where the rule's tests are not the ones run.
    named: bool = True

    @property
    def is_c(self) -> bool:
        """Whether the core must be rebuilt."""
        return self.path.endswith((".c", ".h"))


MUTATIONS: tuple[Mutation, ...] = (
    # -- the Python engine ------------------------------------------------------------------
    Mutation(
        "T6-py",
        "T6",
        PY_RULES,
        '        source = "supply" if ps.chips_supply > 0 else "board"',
        '        source = "supply" if ps.chips_supply > 1 else "board"',
        PY_RULE_TESTS,
    ),
    Mutation(
        "T7-py",
        "T7",
        PY_RULES,
        "    if ps.chips_supply > 0:",
        "    if ps.chips_supply > 1:",
        PY_RULE_TESTS,
    ),
    Mutation(
        "E1-py",
        "E1",
        PY_RULES,
        "    if EMPTY not in state.hindenburg:",
        "    if state.hindenburg.count(EMPTY) <= 1:",
        PY_RULE_TESTS,
    ),
    Mutation(
        "E2-py",
        "E2",
        PY_RULES,
        "            (phase.high if complete else phase.low)",
        "            (phase.low if complete else phase.high)",
        PY_RULE_TESTS,
    ),
    Mutation(
        "E2-py-invariants",
        "E2",
        PY_RULES,
        "            (phase.high if complete else phase.low)",
        "            (phase.low if complete else phase.high)",
        ("tests/engine/test_invariants.py", "-k", "python and random_games"),
        named=False,
    ),
    Mutation(
        "P2-py",
        "P2",
        PY_RULES,
        "        state.board[target] = EMPTY  # P2: the other cards of the row do not slide",
        "        state.board[target - target % 3 : target - target % 3 + 3] = "
        "[c for c in state.board[target - target % 3 : target - target % 3 + 3] if c != card]"
        " + [EMPTY]",
        PY_RULE_TESTS,
    ),
    Mutation(
        "T5-py",
        "T5",
        PY_RULES,
        "    total = dice_sum + sum(amount for _name, amount in bonuses)",
        "    total = dice_sum + max((amount for _name, amount in bonuses), default=0)",
        PY_RULE_TESTS,
    ),
    Mutation(
        "T8a-py",
        "T8a",
        PY_RULES,
        "    if state.players[player].chips_on_board >= EXTRA_TURN_PRICE:",
        "    if state.players[player].chips_on_board > EXTRA_TURN_PRICE:",
        PY_RULE_TESTS,
    ),
    Mutation(
        "H3a-py",
        "H3a",
        PY_RULES,
        "        if opens and not state.options.wooden_airship_with_opening_airship:",
        "        if opens:",
        PY_RULE_TESTS,
    ),
    Mutation(
        "T1a-py",
        "T1a",
        "airships_env/engine/game.py",
        "    start_turn(state, 0, [])  # T1a: the first turn begins with a reveal",
        "    state.turn, state.phase = 1, CHOOSE_TARGET",
        PY_RULE_TESTS,
    ),
    Mutation(
        "D1-py",
        "D1",
        "airships_env/engine/cards.py",
        "MAX_COST_PER_COLOUR = 3  # at most 3 dice of a colour are rolled (T4)",
        "MAX_COST_PER_COLOUR = 4",
        ("tests/engine/test_cards.py",),
    ),
    Mutation(
        "C1-py",
        "C1",
        "airships_env/chance.py",
        "    limit = ((_MASK64 + 1) // bound) * bound",
        "    limit = _MASK64 + 1",
        PY_RULE_TESTS,
    ),
    Mutation(
        "C3-py",
        "C3",
        "airships_env/engine/dice.py",
        "    code, white_code = divmod(code, _POWERS[white])",
        "    white_code, code = divmod(code, _POWERS[red + black])",
        PY_RULE_TESTS,
    ),
    Mutation(
        "league-draws-py",
        "-",
        "agents/training/native_league.py",
        "        self._draws = [np.random.default_rng([seed, slot, 0x1EA6]) for slot in "
        "range(self.num_envs)]",
        "        self._draws = [np.random.default_rng([seed, 0x1EA6])] * self.num_envs",
        ("tests/train/test_native_training.py", "-k", "timing"),
    ),
    # -- the C core ---------------------------------------------------------------------------
    Mutation(
        "T6-c",
        "T6",
        C_RULES,
        "        int source = p->chips_supply > 0 ? PLACE_SUPPLY : PLACE_BOARD;",
        "        int source = p->chips_supply > 1 ? PLACE_SUPPLY : PLACE_BOARD;",
        C_RULE_TESTS,
    ),
    Mutation(
        "T7-c",
        "T7",
        C_RULES,
        "    if (p->chips_supply > 0) {",
        "    if (p->chips_supply > 1) {",
        C_RULE_TESTS,
    ),
    Mutation(
        "E1-c",
        "E1",
        C_RULES,
        "    if (complete) return 1;",
        "    { int open = 0; for (int j = 0; j < NUM_PHASES; j++) open += game->hindenburg[j] =="
        " EMPTY; if (open <= 1) return 1; }",
        C_RULE_TESTS,
    ),
    Mutation(
        "E2-c",
        "E2",
        C_RULES,
        "            parts[2] = (int16_t)(parts[2] + (complete ? cards->phases[j].high : "
        "cards->phases[j].low));",
        "            parts[2] = (int16_t)(parts[2] + (complete ? cards->phases[j].low : "
        "cards->phases[j].high));",
        C_RULE_TESTS,
    ),
    Mutation(
        "P2-c",
        "P2",
        C_RULES,
        "        game->board[target] = EMPTY; /* P2 */",
        "        for (int k = target; k % 3 != 2; k++) game->board[k] = game->board[k + 1];"
        " game->board[target - target % 3 + 2] = EMPTY;",
        C_RULE_TESTS,
    ),
    Mutation(
        "T5-c",
        "T5",
        C_RULES,
        "            total += pool.bonus_amount[b];",
        "            total = roll.dice_sum + pool.bonus_amount[b];",
        C_RULE_TESTS,
    ),
    Mutation(
        "T8a-c",
        "T8a",
        C_RULES,
        "    if (game->players[player].chips_on_board >= EXTRA_TURN_PRICE) {",
        "    if (game->players[player].chips_on_board > EXTRA_TURN_PRICE) {",
        C_RULE_TESTS,
    ),
    Mutation(
        "H3a-c",
        "H3a",
        C_RULES,
        "        if (opens && !options->wooden_airship_with_opening_airship) "
        "game->hindenburg_open = 1;",
        "        if (opens) game->hindenburg_open = 1;",
        C_RULE_TESTS,
    ),
    Mutation(
        "T1a-c",
        "T1a",
        C_RULES,
        "    start_turn(game, cards, options, 0, NULL); /* T1a */",
        "    game->turn = 1; game->phase = CHOOSE_TARGET;",
        C_RULE_TESTS,
    ),
    Mutation(
        "C3-c",
        "C3",
        C_RULES,
        "                roll.rolled[c][i] = FACES[c][part % 6u];",
        "                roll.rolled[c][i] = FACES[c][5u - part % 6u];",
        C_RULE_TESTS,
    ),
    Mutation(
        "C1-c",
        "C1",
        "airships_env/native/src/rng.c",
        "    uint64_t limit = (UINT64_MAX / bound) * bound;",
        "    uint64_t limit = UINT64_MAX;",
        ("tests/native/test_random.py",),
    ),
    Mutation(
        "gil-c",
        "-",
        "airships_env/native/src/module.c",
        "    code = gs_search(&GS_AIRSHIPS, &copy->root, copy->root.game.current_player, options, "
        "&rng, result);",
        "    Py_BLOCK_THREADS code = gs_search(&GS_AIRSHIPS, &copy->root, "
        "copy->root.game.current_player, options, &rng, result); Py_UNBLOCK_THREADS",
        ("tests/native/test_search.py", "-k", "gil"),
    ),
)


def target_line(mutation: Mutation, root: Path = ROOT) -> int:
    """The 1-based number of the mutation's line in its file; ValueError if it is not there
    exactly once (the source moved on: update the mutation)."""
    lines = (root / mutation.path).read_text(encoding="utf-8").split("\n")
    found = [number for number, line in enumerate(lines, start=1) if line == mutation.old]
    if len(found) != 1:
        raise ValueError(
            f"mutation {mutation.name}: {mutation.path} holds the line {mutation.old!r} "
            f"{len(found)} times (expected once)"
        )
    return found[0]


def copy_tree(destination: Path) -> None:
    """The working tree without git data, caches and build outputs (the built core included)."""
    shutil.copytree(
        ROOT,
        destination,
        ignore=shutil.ignore_patterns(
            ".git",
            ".venv",
            "__pycache__",
            ".pytest_cache",
            ".mypy_cache",
            ".ruff_cache",
            "build",
            "node_modules",
            "*.egg-info",
            "runs",
        ),
    )


def build_core(tree: Path) -> None:
    """Rebuild the C core in ``tree``; raises CalledProcessError with the compiler's output."""
    subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace", "-q"],
        cwd=tree,
        check=True,
        capture_output=True,
        text=True,
    )


def named_tests(mutation: Mutation) -> tuple[str, ...] | None:
    """The mutation's test selection narrowed to the tests named after its rule, or None."""
    if mutation.rule == "-" or not mutation.named:
        return None
    tests = list(mutation.tests)
    if "-k" in tests:
        at = tests.index("-k") + 1
        tests[at] = f"_{mutation.rule}_ and ({tests[at]})"
    else:
        tests += ["-k", f"_{mutation.rule}_"]
    return tuple(tests)


NO_TESTS = 5  # pytest's exit status when the selection holds no test


def run_tests(tree: Path, tests: tuple[str, ...], timeout: int) -> tuple[bool, str]:
    """Run pytest in ``tree``: (passed, the first failing test or the error's last line); a
    selection without a test counts as passed ("no test" then tells why)."""
    command = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider"]
    command += ["-m", "not slow", *tests]
    try:
        done = subprocess.run(
            command,
            cwd=tree,
            env={**os.environ, "PYTHONPATH": str(tree)},
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return False, f"timed out after {timeout} s"
    if done.returncode == 0:
        return True, ""
    if done.returncode == NO_TESTS:
        return True, "no test"
    output = done.stdout + done.stderr
    failed = re.findall(r"^(?:FAILED|ERROR) (\S+)", output, re.MULTILINE)
    if failed:
        return False, failed[0]
    tail = [line for line in output.splitlines() if line.strip()]
    return False, tail[-1] if tail else f"pytest exit status {done.returncode}"


@dataclass
class Outcome:
    """What one mutation did."""

    name: str
    rule: str
    where: str
    result: str  # "killed" | "survived" | "did not build"
    by: str
    #: The tests named after the rule, run alone: "killed", "survived", "no test" or "-".
    named: str
    seconds: float


def run_one(tree: Path, mutation: Mutation, timeout: int) -> Outcome:
    """Apply one mutation in ``tree``, run its tests, restore the file (and the built core)."""
    started = time.perf_counter()
    line = target_line(mutation, tree)
    source = tree / mutation.path
    original = source.read_text(encoding="utf-8")
    extensions = {path: path.read_bytes() for path in tree.glob(NATIVE_EXTENSION)}
    lines = original.split("\n")
    lines[line - 1] = mutation.new
    where = f"{mutation.path}:{line}"
    try:
        source.write_text("\n".join(lines), encoding="utf-8")
        if mutation.is_c:
            try:
                build_core(tree)
            except subprocess.CalledProcessError as error:
                last = (error.stderr or error.stdout or "").strip().splitlines()[-1:]
                return Outcome(
                    mutation.name,
                    mutation.rule,
                    where,
                    "did not build",
                    last[0] if last else "",
                    "-",
                    time.perf_counter() - started,
                )
        passed, by = run_tests(tree, mutation.tests, timeout)
        named = "-"
        narrowed = named_tests(mutation)
        if narrowed is not None:
            named_passed, named_by = run_tests(tree, narrowed, timeout)
            named = named_by if named_by == "no test" else "survived" if named_passed else "killed"
    finally:
        source.write_text(original, encoding="utf-8")
        for path, data in extensions.items():
            path.write_bytes(data)
    result = "survived" if passed else "killed"
    seconds = time.perf_counter() - started
    return Outcome(mutation.name, mutation.rule, where, result, by, named, seconds)


def table(outcomes: list[Outcome]) -> str:
    """The outcomes as a plain-text table."""
    header = ("mutation", "rule", "line", "result", "named", "first failing test")
    rows = [header] + [(o.name, o.rule, o.where, o.result, o.named, o.by) for o in outcomes]
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    text = [
        "  ".join(cell.ljust(width) for cell, width in zip(row[:5], widths, strict=True))
        + "  "
        + row[5]
        for row in rows
    ]
    killed = sum(o.result == "killed" for o in outcomes)
    by_name = sum(o.named == "killed" for o in outcomes)
    text.append(
        f"{killed} of {len(outcomes)} mutations killed; the tests named after the rule alone "
        f"killed {by_name} of {sum(o.named != '-' for o in outcomes)}"
    )
    text.append(
        "named: the tests named after the mutation's rule (test_<rule>_...), run alone on it"
    )
    return "\n".join(text)


def main(argv: list[str] | None = None) -> int:
    """Run the mutations and print the table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--json", action="store_true", help="print the outcomes as JSON")
    parser.add_argument("--list", action="store_true", help="list the mutations and stop")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="run only these mutations")
    parser.add_argument("--timeout", type=int, default=600, help="seconds per test run")
    args = parser.parse_args(argv)
    chosen = list(MUTATIONS)
    if args.only:
        unknown = sorted(set(args.only) - {m.name for m in MUTATIONS})
        if unknown:
            parser.error(f"no mutation named {', '.join(unknown)} (see --list)")
        chosen = [m for m in MUTATIONS if m.name in args.only]
    if args.list:
        for mutation in chosen:
            print(f"{mutation.name:16} {mutation.rule:4} {mutation.path}:{target_line(mutation)}")
        return 0
    for mutation in chosen:
        target_line(mutation)  # every line is there before anything runs
    with tempfile.TemporaryDirectory(prefix="airships-mutation-") as directory:
        tree = Path(directory) / "tree"
        copy_tree(tree)
        build_core(tree)  # the copy's core from the copy's sources, not a stale one
        for tests in dict.fromkeys(m.tests for m in chosen):
            passed, by = run_tests(tree, tests, args.timeout)
            if not passed:
                print(f"baseline failed: {' '.join(tests)}: {by}", file=sys.stderr)
                return 2
        outcomes = []
        for mutation in chosen:
            outcome = run_one(tree, mutation, args.timeout)
            outcomes.append(outcome)
            if not args.json:
                print(f"{outcome.name}: {outcome.result} ({outcome.seconds:.0f} s)", flush=True)
    if args.json:
        print(json.dumps([asdict(o) for o in outcomes], indent=2))
    else:
        print(table(outcomes))
    return 0 if all(o.result == "killed" for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
