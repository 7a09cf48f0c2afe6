"""Environment speed of two checkouts of this repository, interleaved in one run.

For each game: AEC env steps per CPU second (``agents.bench_games.game_env_rate``, what
``airships bench --game NAME --only env`` measures: an observation and a mask at every step,
random legal play) and PettingZoo's ``connect_four_v3`` the same way, in one fresh process per
measurement, with the checkout's own code (its directory is the working directory and
``PYTHONPATH``). The two checkouts alternate round by round, so a busy machine slows both
alike; the table gives medians over the rounds. Figures only, no assertions::

    git worktree add /tmp/before <commit>      # the code to compare against
    python scripts/env_speed_compare.py --before /tmp/before [--after .] \\
        [--games clockwork,australia,nippon] [--rounds 5] [--seconds 2] [--players 2] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

#: What one measurement runs in the checkout's own interpreter process.
MEASURE = """
import json, sys
import airships_env
if not airships_env.__file__.startswith(sys.argv[4]):
    raise SystemExit(f"imported {airships_env.__file__}, not the checkout {sys.argv[4]}")
from agents.bench_games import connect_four_rate, game_env_rate
game, seconds, players = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
print(json.dumps({"env": game_env_rate(game, players, seconds), "c4": connect_four_rate(seconds)}))
"""


def measure(tree: Path, game: str, seconds: float, players: int) -> dict[str, float]:
    """One measurement of ``game`` and connect_four_v3 with the code of ``tree``."""
    result = subprocess.run(
        [sys.executable, "-c", MEASURE, game, str(seconds), str(players), str(tree)],
        cwd=tree,
        env=dict(os.environ, PYTHONPATH=str(tree)),
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise SystemExit(f"{tree}: {game}: {result.stderr[-2000:]}")
    figures: dict[str, float] = json.loads(result.stdout.strip().splitlines()[-1])
    return figures


def compare(
    trees: dict[str, Path], games: list[str], rounds: int, seconds: float, players: int
) -> dict[str, Any]:
    """Medians per game and checkout: env steps/s, connect_four steps/s, their ratio."""
    runs: dict[tuple[str, str], list[dict[str, float]]] = {
        (game, label): [] for game in games for label in trees
    }
    labels = list(trees)
    for index in range(rounds):
        order = labels if index % 2 == 0 else labels[::-1]
        for game in games:
            for label in order:
                runs[(game, label)].append(measure(trees[label], game, seconds, players))
    table: dict[str, Any] = {}
    for game in games:
        row: dict[str, Any] = {}
        for label in labels:
            done = runs[(game, label)]
            row[label] = {
                "env_steps_per_s": statistics.median(r["env"] for r in done),
                "connect_four_steps_per_s": statistics.median(r["c4"] for r in done),
                "env_over_connect_four": statistics.median(r["env"] / r["c4"] for r in done),
            }
        table[game] = row
    return table


def main() -> int:
    """Parse the arguments, measure, print the table (and the JSON line with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the checkout compared against")
    parser.add_argument("--after", type=Path, default=ROOT, help="default: this checkout")
    parser.add_argument("--games", default="clockwork,australia,nippon")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per measurement")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="also print one JSON line")
    args = parser.parse_args()
    trees = {"before": args.before.resolve(), "after": args.after.resolve()}
    games = [game for game in args.games.split(",") if game]
    table = compare(trees, games, args.rounds, args.seconds, args.players)
    print(
        f"{args.players} players, medians of {args.rounds} interleaved rounds of "
        f"{args.seconds:g} CPU s"
    )
    print(f"{'game':<10} {'before':>10} {'/ c4':>6} {'after':>10} {'/ c4':>6} {'c4':>10} {'x':>6}")
    for game, row in table.items():
        before, after = row["before"], row["after"]
        reference = statistics.median(
            [before["connect_four_steps_per_s"], after["connect_four_steps_per_s"]]
        )
        print(
            f"{game:<10} {before['env_steps_per_s']:>10,.0f} "
            f"{before['env_over_connect_four']:>6.2f} {after['env_steps_per_s']:>10,.0f} "
            f"{after['env_over_connect_four']:>6.2f} {reference:>10,.0f} "
            f"{after['env_steps_per_s'] / before['env_steps_per_s']:>6.2f}"
        )
    if args.json:
        print(json.dumps({"players": args.players, "rounds": args.rounds, "games": table}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
