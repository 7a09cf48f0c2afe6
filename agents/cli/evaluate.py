"""Play a trained policy against chosen agents through the arena and report how it does.

Examples::

    python scripts/evaluate.py --model agents/models/ppo_2p.zip --opponents heuristic \\
        --players 2 --games 1000 --json
    python scripts/evaluate.py --model runs/ppo_4p/best_model.zip --opponents heuristic \\
        --players 4 --games 400

The model (labelled ``ppo``) takes one seat; the opponents fill the others in order, the last
one repeated (``--opponents heuristic --players 4`` is ppo against three heuristic bots). Deals
are paired and seats rotated, so each deal is played from every seat. Prints the win rate with
its Wilson 95% interval, the mean margin and the per-seat results; with ``--json`` stdout is one
line, the arena's JSON object (``{"games": n, "agents": {"ppo": {"win_rate", "ci_low",
"ci_high", "mean_score"}, ...}}``), and the table goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from agents.arena import SEATINGS
from agents.cli.common import (
    add_game_argument,
    add_rules_argument,
    non_negative_int,
    parse_rules,
    report_errored_games,
)
from agents.games import model_game
from agents.registry import AgentUnavailableError, split_specs
from agents.stats import print_summary
from agents.training.evaluate import evaluate_model, model_players


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--model", type=Path, required=True, help="MaskablePPO .zip")
    add_game_argument(parser, default=None)
    add_rules_argument(parser)
    parser.add_argument(
        "--opponents",
        action="append",
        required=True,
        help="comma-separated agent specs filling the other seats in order, "
        "the last one repeated (may be repeated)",
    )
    parser.add_argument(
        "--players",
        type=int,
        default=None,
        help="players per game (default: the table size the model was trained for)",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=1000,
        help="games, rounded up to whole seat rotations (default 1000)",
    )
    parser.add_argument(
        "--seed", type=non_negative_int, default=0, help="run seed, a whole number >= 0 (default 0)"
    )
    parser.add_argument(
        "--unpaired",
        action="store_true",
        help="a fresh deal for every game instead of replaying each deal from every seat",
    )
    parser.add_argument(
        "--seating",
        choices=SEATINGS,
        default="cyclic",
        help="cyclic rotations (default) or all permutations of the seats",
    )
    parser.add_argument(
        "--stochastic",
        action="store_true",
        help="sample the policy's actions instead of taking the most likely",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="parallel processes (default: all cores; 1 = in this process)",
    )
    parser.add_argument(
        "--out", type=Path, default=None, help="JSON-lines results file; re-running with it resumes"
    )
    parser.add_argument(
        "--report",
        type=Path,
        default=None,
        help="also write every figure (per seat, pooled, errors) to this JSON",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the arena's JSON object, the only line on stdout (the table goes to stderr)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Evaluate from the command line; returns the exit status."""
    args = parse_args(argv)
    try:
        opponents = [spec for text in args.opponents for spec in split_specs(text)]
        if args.game is not None and args.model.is_file():
            trained = model_game(args.model)
            if trained != args.game:
                raise ValueError(f"--game {args.game}: {args.model} is a policy for {trained}")
        players = args.players if args.players is not None else model_players(args.model)
        evaluation = evaluate_model(
            args.model,
            opponents,
            players=players,
            games=args.games,
            seed=args.seed,
            paired=not args.unpaired,
            seating=args.seating,
            workers=args.workers,
            out=args.out,
            deterministic=not args.stochastic,
            progress=not args.no_progress and sys.stderr.isatty(),
            rules=parse_rules(args.rules),
        )
    except (ValueError, FileNotFoundError, AgentUnavailableError) as exc:
        print(f"evaluate: {exc}", file=sys.stderr)
        return 2
    summary = evaluation.summary
    shown = sys.stderr if args.json else sys.stdout  # with --json, stdout is the JSON line alone
    print_summary(summary, title=f"{args.model} ({players} players)", file=shown)
    figures = evaluation.headline()
    print(
        f"ppo: win rate {figures['win_rate']:.3f} (95% CI {figures['ci_low']:.3f}-"
        f"{figures['ci_high']:.3f}), mean margin {figures['mean_margin']:.2f} over "
        f"{figures['games']} games in {evaluation.seconds:.1f} s",
        file=shown,
    )
    if args.report is not None:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(json.dumps(summary.to_dict(), indent=2) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(evaluation.to_json(), separators=(",", ":")))
    return report_errored_games("evaluate", len(summary.errors), args.out)
