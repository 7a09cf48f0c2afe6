"""Write the golden games under ``tests/golden/``: recorded games the test suite replays.

Each golden game is a game log (JSON lines: a header with the initial state, then one record per
action, as ``airships play`` writes) and ``<name>.final.json``, the final state's ``to_dict()``.
``tests/engine/test_golden.py`` (and the native core's differential tests) deal each game again
from its seed, replay its actions and require the identical records and final state, so any
change of the rules, the deal or the dice shows there.

The games are found by playing seeded games between bots (their choices, made with their own
generators, are part of the log) until each one shows what it must:

- ``2p_hindenburg``: 2 players, ended by the 4th Hindenburg phase (E1);
- ``3p_stacks``: 3 players, ended by the airship stacks (E1), the Hindenburg unfinished;
- ``4p_chip_extra_era``: 4 players, with a chip decision (T5), an extra turn (T8), the Change
  of Era revealed at the start of an extra turn, so mid-turn (T1), and an exchange giving the
  fixed die (T3).

When the rules change on purpose, regenerate them and review the diff:

    .venv/bin/python scripts/golden_games.py            # rewrites tests/golden/
    .venv/bin/python scripts/golden_games.py --check    # only says whether they still replay
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

# The repository root, so that `python scripts/NAME.py` finds `agents` and `airships_env`
# without an installed package (an installed one comes first).
sys.path.append(str(Path(__file__).resolve().parent.parent))

from agents.registry import make_agent
from airships_env.engine import (
    BUY_EXTRA_TURN,
    KEEP_CHIP,
    SPEND_CHIP,
    ActionRecord,
    GameLog,
    GameState,
    attempt_variant,
    is_attempt,
    new_game,
    read_log,
)
from airships_env.engine.actions import EXCHANGE_GIVING_FIXED
from airships_env.engine.model import EMPTY
from airships_env.policy import Decision

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden"


@dataclass(frozen=True)
class Wanted:
    """A golden game: its table and what its records must show."""

    name: str
    agents: tuple[str, ...]
    shows: Callable[[GameState, list[ActionRecord]], bool]


def _ended_by_hindenburg(state: GameState, records: list[ActionRecord]) -> bool:
    return EMPTY not in state.hindenburg


def _ended_by_stacks(state: GameState, records: list[ActionRecord]) -> bool:
    return EMPTY in state.hindenburg and all(len(stack) <= 1 for stack in state.stacks)


def _chip_extra_era(state: GameState, records: list[ActionRecord]) -> bool:
    actions = {record.action for record in records}
    return (
        bool(actions & {SPEND_CHIP, KEEP_CHIP})
        and any(r.action == BUY_EXTRA_TURN and r.era_changed for r in records)
        and any(
            is_attempt(r.action) and attempt_variant(r.action) == EXCHANGE_GIVING_FIXED
            for r in records
        )
    )


WANTED = (
    Wanted("2p_hindenburg", ("heuristic", "greedy"), _ended_by_hindenburg),
    Wanted("3p_stacks", ("heuristic", "greedy", "random"), _ended_by_stacks),
    Wanted("4p_chip_extra_era", ("heuristic", "greedy", "random", "heuristic"), _chip_extra_era),
)


def play(agents: tuple[str, ...], seed: int) -> tuple[GameLog, GameState]:
    """One seeded game between the agents (seat order), each with its own generator."""
    state = new_game(len(agents), seed=seed)
    log = GameLog.start(state, seed=seed, agents=list(agents))
    bots = [make_agent(spec) for spec in agents]
    for seat, bot in enumerate(bots):
        bot.reset(seat, len(agents), np.random.default_rng([seed, seat]))
    while not state.is_terminal():
        action = bots[state.current_player].act(Decision.from_state(state))
        log.records.append(state.apply_action(action))
    return log, state


def find(wanted: Wanted, first_seed: int = 0, tries: int = 2_000) -> tuple[GameLog, GameState]:
    """The first seeded game that shows what ``wanted`` asks for."""
    for seed in range(first_seed, first_seed + tries):
        log, state = play(wanted.agents, seed)
        if wanted.shows(state, log.records):
            return log, state
    raise SystemExit(f"{wanted.name}: no game among seeds {first_seed}..{first_seed + tries - 1}")


def write(folder: Path) -> None:
    """Find and write every golden game."""
    folder.mkdir(parents=True, exist_ok=True)
    for wanted in WANTED:
        log, state = find(wanted)
        log.write(folder / f"{wanted.name}.jsonl")
        final = json.dumps(state.to_dict(), indent=1, sort_keys=True)
        (folder / f"{wanted.name}.final.json").write_text(final + "\n", encoding="utf-8")
        print(f"{wanted.name}: seed {log.meta['seed']}, {len(log.records)} actions")


def check(folder: Path) -> int:
    """Replay every golden game; 0 if all give their recorded records and final state."""
    failed = 0
    for wanted in WANTED:
        log = read_log(folder / f"{wanted.name}.jsonl")
        final = json.loads((folder / f"{wanted.name}.final.json").read_text(encoding="utf-8"))
        try:
            state = log.replay()
            same = state.to_dict() == final
        except ValueError as exc:
            print(f"{wanted.name}: does not replay: {exc}")
            failed += 1
            continue
        print(f"{wanted.name}: {'replays' if same else 'replays to another final state'}")
        failed += not same
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    """Command line: write the golden games, or check them with --check."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only replay the stored games")
    parser.add_argument("--out", type=Path, default=GOLDEN, help="folder (default tests/golden)")
    args = parser.parse_args(argv)
    if args.check:
        return check(args.out)
    write(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
