"""Strength of the Australia bots: paired games, Wilson 95% intervals (a benchmark script).

    python scripts/australia_strength.py --games 200 --players 2 greedy random
    python scripts/australia_strength.py --games 200 --players 5 --full greedy random

Each seed is dealt once per seat of the first agent (seats rotated), so the deal's luck cancels.
The first agent plays one seat, the second agent all the others. A shared win counts as 1/k of
a win for each of the k winners. Printed: the first agent's wins, its win share, the share a seat
wins by chance (1/n), the Wilson 95% interval, the mean final scores.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.append(str(Path(__file__).resolve().parent.parent))

from airships_env.games.australia import GAME
from airships_env.policy import Decision, Policy, RandomPolicy


def make(name: str, rng: np.random.Generator) -> Policy:
    """An Australia agent by name: random, kind-random, greedy, heuristic."""
    from agents.bots.australia import GreedyBot, HeuristicBot, KindRandomBot

    table: dict[str, Any] = {
        "random": RandomPolicy,
        "kind-random": KindRandomBot,
        "greedy": GreedyBot,
        "heuristic": HeuristicBot,
    }
    if name not in table:
        raise SystemExit(f"unknown agent {name!r}; choose from {sorted(table)}")
    agent: Policy = table[name](rng=rng)
    return agent


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    half /= 1 + z * z / trials
    return max(0.0, centre - half), min(1.0, centre + half)


def play(seats: list[Policy], seed: int, full: bool) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """One game: the winners and the final scores."""
    state = GAME.new_state(len(seats), seed, options={"full_game": full})
    for seat, agent in enumerate(seats):
        agent.reset(seat, len(seats), np.random.default_rng([seed, seat]))
    while not state.is_terminal():
        decision = Decision.for_game(GAME, state)
        state.apply_action(seats[state.current_player].act(decision))
    outcome = state.outcome()
    assert outcome is not None
    return outcome.winners, outcome.scores


def main() -> None:
    """Parse the arguments, play, print the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("agent")
    parser.add_argument("opponent")
    parser.add_argument("--games", type=int, default=200, help="games (whole rotations)")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4, 5))
    parser.add_argument("--full", action="store_true", help="the full game (windmill)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    n = args.players
    hero = make(args.agent, np.random.default_rng(1))
    others = [make(args.opponent, np.random.default_rng(2 + k)) for k in range(n - 1)]
    wins = 0.0
    games = 0
    hero_scores: list[float] = []
    other_scores: list[float] = []
    start = time.perf_counter()
    seed = args.seed
    while games < args.games:
        for hero_seat in range(n):
            seats = list(others)
            seats.insert(hero_seat, hero)
            winners, scores = play(seats, seed, args.full)
            games += 1
            if hero_seat in winners:
                wins += 1 / len(winners)
            hero_scores.append(scores[hero_seat])
            other_scores += [s for k, s in enumerate(scores) if k != hero_seat]
        seed += 1
    low, high = wilson(wins, games)
    result = {
        "agent": args.agent,
        "opponent": args.opponent,
        "players": n,
        "full_game": args.full,
        "games": games,
        "wins": wins,
        "win_share": wins / games,
        "chance_share": 1 / n,
        "wilson95": [low, high],
        "mean_score": float(np.mean(hero_scores)),
        "opponent_mean_score": float(np.mean(other_scores)),
        "seconds": time.perf_counter() - start,
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{args.agent} vs {args.opponent} ({n} players, {'full' if args.full else 'simple'}"
            f" game, {games} paired games): {wins:g} wins, win share {wins / games:.3f} "
            f"[{low:.3f}, {high:.3f}] (chance {1 / n:.3f}), mean score "
            f"{result['mean_score']:.1f} vs {result['opponent_mean_score']:.1f}, "
            f"{result['seconds']:.0f} s"
        )


if __name__ == "__main__":
    main()
