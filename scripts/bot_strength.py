"""Measure one bot against another: win rate with a Wilson 95% interval, time per decision.

Plays N games with the engine directly (``new_game`` + ``Decision.from_state``). Bot A takes one
seat, bot B every other seat; A's seat rotates game by game, and (unless ``--unpaired``) the
same deal (game seed) is played once with A in each seat, so the deal's luck cancels out.
A shared win (E3) counts as 1/k of a win. At most 2 worker processes.

Examples::

    python scripts/bot_strength.py greedy random --games 200
    python scripts/bot_strength.py heuristic greedy --players 4 --games 200
    python scripts/bot_strength.py mcts heuristic:config=my_weights.yaml --games 100
    python scripts/bot_strength.py mcts:sims=400,steps=4000 heuristic --games 60 --json
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# The repository root, so that `python scripts/NAME.py` finds `agents` and `airships_env`
# without an installed package (an installed one comes first).
sys.path.append(str(Path(__file__).resolve().parent.parent))

from airships_env.engine import new_game
from airships_env.policy import Decision, Policy

BOTS: dict[str, str] = {
    "random": "airships_env.policy:RandomPolicy",
    "greedy": "agents.bots.greedy:GreedyAgent",
    "heuristic": "agents.bots.heuristic:HeuristicAgent",
    "mcts": "agents.bots.mcts:MCTSAgent",
    "ismcts": "agents.bots.ismcts:ISMCTSAgent",
}
MAX_WORKERS = 2


def parse_value(text: str) -> Any:
    """'3' -> 3, '0.5' -> 0.5, anything else stays a string."""
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """'mcts:sims=200,seconds=0.1' -> ('mcts', {'sims': 200, 'seconds': 0.1})."""
    name, _, rest = spec.partition(":")
    if name not in BOTS:
        raise SystemExit(f"unknown bot {name!r}; known: {', '.join(BOTS)}")
    options: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"bad option {item!r} in {spec!r} (expected key=value)")
        options[key] = parse_value(value)
    return name, options


def make_bot(spec: tuple[str, dict[str, Any]]) -> Policy:
    """A fresh bot from a parsed spec."""
    name, options = spec
    module, _, attribute = BOTS[name].partition(":")
    bot: Policy = getattr(import_module(module), attribute)(**options)
    return bot


@dataclass
class GameResult:
    """One game from bot A's point of view."""

    seat: int
    share: float  # A's share of the win: 1, 1/k, or 0
    a_score: int
    best_other: int
    turns: int
    # bot -> [wall seconds, decisions with a choice, CPU seconds]
    timing: dict[str, list[float]] = field(default_factory=dict)


def play_game(job: tuple[int, int, int, int, tuple[Any, Any]]) -> GameResult:
    """Play one game: A at ``seat``, B elsewhere; the deal comes from ``deal_seed``."""
    deal_seed, seat, num_players, game_index, (spec_a, spec_b) = job
    bots = [make_bot(spec_a if p == seat else spec_b) for p in range(num_players)]
    labels = ["A" if p == seat else "B" for p in range(num_players)]
    # The bots' generators are their own: derived from the game index, never the game's.
    seeds = np.random.SeedSequence([deal_seed, game_index, 7]).spawn(num_players)
    for p, bot in enumerate(bots):
        bot.reset(p, num_players, np.random.default_rng(seeds[p]))
    state = new_game(num_players=num_players, seed=deal_seed)
    timing = {"A": [0.0, 0.0, 0.0], "B": [0.0, 0.0, 0.0]}
    while not state.is_terminal():
        player = state.current_player
        decision = Decision.from_state(state)
        start, start_cpu = time.perf_counter(), time.process_time()
        action = bots[player].act(decision)
        elapsed, elapsed_cpu = time.perf_counter() - start, time.process_time() - start_cpu
        if len(decision.legal_actions) > 1:
            timing[labels[player]][0] += elapsed
            timing[labels[player]][1] += 1
            timing[labels[player]][2] += elapsed_cpu
        state.apply_action(action)
    assert state.winners is not None and state.final_scores is not None
    share = 1.0 / len(state.winners) if seat in state.winners else 0.0
    others = [s for p, s in enumerate(state.final_scores) if p != seat]
    return GameResult(seat, share, state.final_scores[seat], max(others), state.turn, timing)


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% by default)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def run(
    spec_a: str, spec_b: str, num_players: int, games: int, seed: int, workers: int, paired: bool
) -> dict[str, Any]:
    """Play the match and return its summary."""
    parsed = (parse_spec(spec_a), parse_spec(spec_b))
    jobs = []
    for index in range(games):
        deal_seed = seed + (index // num_players if paired else index)
        jobs.append((deal_seed, index % num_players, num_players, index, parsed))
    workers = max(1, min(workers, MAX_WORKERS))
    started = time.perf_counter()
    if workers == 1:
        results = [play_game(job) for job in jobs]
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(play_game, jobs, chunksize=1))
    wall = time.perf_counter() - started
    wins = sum(r.share for r in results)
    low, high = wilson(wins, len(results))
    by_seat = {}
    for s in range(num_players):
        seat_results = [r for r in results if r.seat == s]
        by_seat[s] = sum(r.share for r in seat_results) / max(1, len(seat_results))
    per_decision, cpu_per_decision = {}, {}
    for label in ("A", "B"):
        seconds = sum(r.timing[label][0] for r in results)
        count = sum(r.timing[label][1] for r in results)
        cpu = sum(r.timing[label][2] for r in results)
        per_decision[label] = seconds / count if count else 0.0
        cpu_per_decision[label] = cpu / count if count else 0.0
    return {
        "a": spec_a,
        "b": spec_b,
        "players": num_players,
        "games": len(results),
        "paired": paired,
        "seed": seed,
        "a_wins": wins,
        "a_win_rate": wins / len(results),
        "wilson95": [low, high],
        "a_win_rate_by_seat": by_seat,
        "fair_share": 1.0 / num_players,
        "mean_a_score": float(np.mean([r.a_score for r in results])),
        "mean_best_other_score": float(np.mean([r.best_other for r in results])),
        "mean_turns": float(np.mean([r.turns for r in results])),
        "seconds_per_decision": per_decision,
        "cpu_seconds_per_decision": cpu_per_decision,
        "wall_seconds": wall,
    }


def main(argv: list[str] | None = None) -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="bot A, e.g. greedy, heuristic, mcts:sims=200")
    parser.add_argument("b", help="bot B (fills every other seat)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2, help="at most 2")
    parser.add_argument("--unpaired", action="store_true", help="a fresh deal for every game")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args(argv)
    summary = run(
        args.a, args.b, args.players, args.games, args.seed, args.workers, not args.unpaired
    )
    if args.json:
        print(json.dumps(summary, indent=2))
        return
    low, high = summary["wilson95"]
    print(
        f"{summary['a']} vs {summary['b']} ({summary['players']} players, "
        f"{summary['games']} games, {'paired deals' if summary['paired'] else 'fresh deals'})"
    )
    print(
        f"  A win rate {summary['a_win_rate']:.3f}  Wilson 95% [{low:.3f}, {high:.3f}]  "
        f"(fair share {summary['fair_share']:.2f})"
    )
    seats = "  ".join(f"seat {s}: {v:.2f}" for s, v in summary["a_win_rate_by_seat"].items())
    print(f"  A win rate by seat: {seats}")
    print(
        f"  mean score A {summary['mean_a_score']:.1f}, best other "
        f"{summary['mean_best_other_score']:.1f}; mean turns {summary['mean_turns']:.1f}"
    )
    spd, cpu = summary["seconds_per_decision"], summary["cpu_seconds_per_decision"]
    print(
        f"  time per decision with a choice: A {spd['A'] * 1e3:.2f} ms "
        f"(CPU {cpu['A'] * 1e3:.2f} ms), B {spd['B'] * 1e3:.2f} ms "
        f"(CPU {cpu['B'] * 1e3:.2f} ms); wall {summary['wall_seconds']:.0f} s"
    )


if __name__ == "__main__":
    main()
