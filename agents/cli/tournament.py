"""Run a rated tournament from a YAML config: leaderboard, head-to-head matrix and plots.

Example::

    python scripts/tournament.py configs/tournament.yaml --workers 2
    python scripts/tournament.py configs/tournament.yaml --games 40 --out results/t40

Re-running with the same output directory resumes the run (only missing games are played);
``--restart`` starts over. See ``agents/tournament.py`` for the formats and the ratings.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from agents.cli.common import add_game_argument, add_ray_argument, non_negative_int, positive_int
from agents.registry import AgentUnavailableError
from agents.tournament import load_config, print_report, run_tournament

#: The repository's configs/tournament.yaml (agents/cli/ -> the repository root).
DEFAULT_CONFIG = Path(__file__).resolve().parents[2] / "configs" / "tournament.yaml"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "config",
        nargs="?",
        type=Path,
        default=DEFAULT_CONFIG,
        help="tournament YAML (default: the repository's configs/tournament.yaml)",
    )
    add_game_argument(parser, default=None)
    parser.add_argument(
        "--games", type=positive_int, default=None, help="override the config's games (>= 1)"
    )
    parser.add_argument(
        "--seed", type=non_negative_int, default=None, help="override the config's seed (>= 0)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="parallel processes (default: the config's, else all cores)",
    )
    add_ray_argument(parser)
    parser.add_argument(
        "--out",
        "--output",
        dest="out",
        type=Path,
        default=None,
        help="output directory (default: the config's); --output is an alias",
    )
    parser.add_argument(
        "--restart", action="store_true", help="discard earlier results in the output directory"
    )
    parser.add_argument("--no-plots", action="store_true", help="do not write the PNG plots")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the leaderboard as one JSON object, the only line on stdout (the report "
        "goes to stderr)",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run the tournament from the command line; returns the exit status."""
    args = parse_args(argv)
    try:
        config = load_config(args.config)
        overrides = {
            k: v
            for k, v in (
                ("game", args.game),
                ("games", args.games),
                ("seed", args.seed),
                ("ray", args.ray),
            )
            if v is not None
        }
        if overrides:  # re-validated, so that an override gets the same checks as the file
            config = config.replace(**overrides)
        result = run_tournament(
            config,
            workers=args.workers,
            output=args.out,
            progress=not args.no_progress,
            restart=args.restart,
            plots=not args.no_plots,
        )
    except (ValueError, RuntimeError, AgentUnavailableError) as exc:
        print(f"tournament: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(
            "tournament: interrupted" + "; the finished games are saved: run again to resume",
            file=sys.stderr,
        )
        return 130
    print_report(result, file=sys.stderr if args.json else sys.stdout)
    if args.json:
        print(json.dumps(result.to_dict(), separators=(",", ":")))
    return 0
