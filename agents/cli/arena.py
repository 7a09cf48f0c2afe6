"""Play seeded, seat-rotated games between agents and report win rates with Wilson intervals.

Examples::

    python scripts/arena.py --agents greedy,random --players 2 --games 400
    python scripts/arena.py --agents heuristic,greedy,greedy,greedy --players 4 --games 200 \\
        --paired --out results/h_vs_g.jsonl --json
    python scripts/arena.py --agents mcts:sims=400,seconds=1,greedy --games 40
    python scripts/arena.py --game australia --agents heuristic,greedy --games 200 \\
        --rules full_game=true

Agents: ``name[:key=value,...]`` (see ``agents.registry``); a comma-separated piece that reads
``key=value`` belongs to the agent before it. Give one agent per seat (repeat an agent to fill
seats); ``--players`` defaults to the number of agents. Copies get distinct names (``greedy#2``).
``--rules KEY=VALUE[,...]`` deals every game with those rules options (the game's own names and
values, checked before any game is played; the results file records them).
With ``--json`` stdout is one line, ``{"games": n, "agents": {name: {"win_rate",
"ci_low", "ci_high", "mean_score"}}}``, and the table goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from agents.arena import SEATINGS, round_up_games, run_arena
from agents.cli.common import (
    add_game_argument,
    add_ray_argument,
    add_rules_argument,
    non_negative_int,
    parse_rules,
    ray_executor,
    report_errored_games,
)
from agents.games import counts_text, rules_record
from agents.registry import AGENTS, AgentUnavailableError, split_specs
from agents.stats import print_summary, summarize
from airships_env.registry import get_game


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=f"Agent specs: name[:key=value,...]; in a comma-separated list, a piece that reads "
        f"key=value belongs to the agent before it (mcts:sims=400,seconds=1,greedy is two "
        f"agents). Known agents: {', '.join(AGENTS)}, or a dotted path package.module.Class.",
    )
    parser.add_argument(
        "--agents",
        action="append",
        required=True,
        help="comma-separated agent specs, one per seat (may be repeated)",
    )
    add_game_argument(parser)
    add_rules_argument(parser)
    parser.add_argument(
        "--players",
        type=int,
        default=None,
        help="players per game, one of the game's player counts (Airships: 2-4; default: the "
        "number of agents)",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=100,
        help="games to play, rounded up to whole seat rotations (default 100)",
    )
    parser.add_argument(
        "--paired", action="store_true", help="replay every deal under every seat rotation"
    )
    parser.add_argument(
        "--seating",
        choices=SEATINGS,
        default="cyclic",
        help="cyclic rotations (default) or all permutations of the seats",
    )
    parser.add_argument(
        "--seed", type=non_negative_int, default=0, help="run seed, a whole number >= 0 (default 0)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="parallel processes (default: all cores; 1 = in this process)",
    )
    add_ray_argument(parser)
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="JSON-lines results file; re-running with it resumes the run",
    )
    parser.add_argument(
        "--save-logs", action="store_true", help="store each game's full log in its results line"
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
        help="print the summary as one JSON object, the only line on stdout (the table goes to "
        "stderr)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run the arena from the command line; returns the exit status."""
    args = parse_args(argv)
    try:
        specs = [spec for text in args.agents for spec in split_specs(text)]
        rules = rules_record(args.game, parse_rules(args.rules))
    except ValueError as exc:
        print(f"arena: {exc}", file=sys.stderr)
        return 2
    players = args.players if args.players is not None else len(specs)
    if players != len(specs):
        print(
            f"arena: {len(specs)} agents for {players} seats; give one agent per seat "
            f"(repeat an agent to fill seats, e.g. heuristic,greedy,greedy,greedy)",
            file=sys.stderr,
        )
        return 2
    if args.games < 1:
        print("arena: --games must be at least 1", file=sys.stderr)
        return 2
    counts = get_game(args.game).player_counts
    if players not in counts:
        print(
            f"arena: {args.game} is played by {counts_text(counts)} players, got {players} "
            f"(give one agent per seat; repeat an agent to fill seats)",
            file=sys.stderr,
        )
        return 2
    games = round_up_games(args.games, players, args.seating)
    if games != args.games:
        print(f"arena: playing {games} games (whole seat rotations)", file=sys.stderr)
    try:
        run = run_arena(
            specs,
            args.games,
            seed=args.seed,
            paired=args.paired,
            seating=args.seating,
            workers=args.workers,
            out=args.out,
            save_logs=args.save_logs,
            progress=not args.no_progress,
            executor=ray_executor(args.ray),
            game=args.game,
            rules=rules,
        )
    except (ValueError, RuntimeError, AgentUnavailableError) as exc:
        print(f"arena: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(
            "arena: interrupted"
            + (f"; the finished games are in {args.out}: run again to resume" if args.out else ""),
            file=sys.stderr,
        )
        return 130
    summary = summarize(run.records, run.labels)
    shown = sys.stderr if args.json else sys.stdout  # with --json, stdout is the JSON line alone
    ruled = "".join(f", {key}={json.dumps(value)}" for key, value in rules.items())
    print_summary(summary, title=f"Arena, {players} players{ruled}", file=shown)
    rate = run.played / run.seconds if run.seconds > 0 else 0.0
    print(
        f"{run.played} games played now in {run.seconds:.1f} s ({rate:.3g} games/s), "
        f"{len(run.records)} in total" + (f"; results in {args.out}" if args.out else ""),
        file=shown,
    )
    if args.report is not None:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(json.dumps(summary.to_dict(), indent=2) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(summary.to_json(), separators=(",", ":")))
    return report_errored_games("arena", len(run.errors), args.out)
