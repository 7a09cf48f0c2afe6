"""Write the Australia golden games under ``tests/australia/golden/``: recorded games the tests
replay (``tests/australia/test_golden.py``).

One game per table size (2-5 players) and variant (the simple and the full game). Each is a JSON
lines log, a header (``num_players``, ``seed``, ``options``) then one record per action, and
``<name>.final.json``, the final state's ``to_dict()``. The test deals each game again from its
seed, replays its actions and requires the identical records and final state, so any change of
the rules, the deal or the data shows there.

The games are played by ``greedy`` in seat 0 against kind-uniform random seats (their choices
are part of the log), trying seeds until the game shows what it must: every game ends by E1
with at least one conservation and one industrialization scoring; a full game also has a
windmill scoring before the end, a windmill move (W2) and rangers sent to the ranger track (W3).

When the rules change on purpose, regenerate them and review the diff:

    python scripts/australia_golden.py            # rewrites tests/australia/golden/
    python scripts/australia_golden.py --check    # only says whether they still replay
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.append(str(Path(__file__).resolve().parent.parent))

from agents.bots.australia import GreedyBot
from airships_env.games.australia.engine import (
    ActionRecord,
    RulesOptions,
    new_game,
    replay_action,
)
from airships_env.games.australia.engine.actions import kind_uniform_choice
from airships_env.games.australia.engine.state import State
from airships_env.policy import Decision

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "australia" / "golden"


def play(num_players: int, full: bool, seed: int) -> tuple[State, list[ActionRecord]]:
    """One game: greedy in seat 0, kind-uniform random seats after it."""
    from airships_env.games.australia import GAME

    state = new_game(num_players, seed, options=RulesOptions(full_game=full))
    bot = GreedyBot()
    bot.reset(0, num_players, np.random.default_rng([seed, 0]))
    others = np.random.default_rng([seed, 1])
    records = []
    while not state.is_terminal():
        legal = state.legal_actions()
        if state.current_player == 0:
            action = bot.act(Decision.for_game(GAME, state))
        else:
            action = kind_uniform_choice(legal, lambda k: int(others.integers(k)))
        records.append(state.apply_action(action))
    return state, records


def shows_enough(state: State, records: list[ActionRecord], full: bool) -> bool:
    """Whether a game shows what a golden game must (see the module docstring)."""
    kinds = [s.kind for r in records for s in r.scorings]
    if not state.end_triggered or "conservation" not in kinds or "industrialization" not in kinds:
        return False
    if not full:
        return True
    before_end = [s.kind for r in records[:-1] for s in r.scorings]
    moved = any(r.windmill_to is not None for r in records)
    tracked = any(r.name.startswith("ranger track") for r in records)
    return "windmill" in before_end and moved and tracked


def name_of(num_players: int, full: bool) -> str:
    """The golden game's file stem: ``3p_full``."""
    return f"{num_players}p_{'full' if full else 'simple'}"


def header_of(path: Path) -> dict[str, Any]:
    """The header line of a golden log."""
    with path.open() as handle:
        header: dict[str, Any] = json.loads(handle.readline())
    return header


def write(num_players: int, full: bool) -> None:
    """Find a game that shows enough and write it."""
    for seed in range(500):
        state, records = play(num_players, full, seed)
        if shows_enough(state, records, full):
            break
    else:
        raise SystemExit(f"no seed below 500 shows enough for {name_of(num_players, full)}")
    GOLDEN.mkdir(parents=True, exist_ok=True)
    header = {"num_players": num_players, "seed": seed, "options": state.options.to_dict()}
    lines = [json.dumps(header)] + [json.dumps(r.to_dict()) for r in records]
    stem = name_of(num_players, full)
    (GOLDEN / f"{stem}.jsonl").write_text("\n".join(lines) + "\n")
    (GOLDEN / f"{stem}.final.json").write_text(json.dumps(state.to_dict(), sort_keys=True) + "\n")
    print(f"{stem}: seed {seed}, {len(records)} actions, final scores {state.outcome()}")


def check(path: Path) -> State:
    """Replay a golden log; a LogError if any record differs."""
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    state = new_game(
        header["num_players"],
        header["seed"],
        options=RulesOptions.from_dict(header["options"]),
    )
    for line in lines[1:]:
        replay_action(state, ActionRecord.from_dict(json.loads(line)))
    return state


def main() -> None:
    """Write (or check) every golden game."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only replay the existing files")
    args = parser.parse_args()
    for num_players in (2, 3, 4, 5):
        for full in (False, True):
            if args.check:
                stem = name_of(num_players, full)
                state = check(GOLDEN / f"{stem}.jsonl")
                final = json.loads((GOLDEN / f"{stem}.final.json").read_text())
                print(f"{stem}: {'ok' if state.to_dict() == final else 'DIFFERS'}")
            else:
                write(num_players, full)


if __name__ == "__main__":
    main()
