"""Balance of the Australia map and cards by simulation (a benchmark script, no assertion).

    python scripts/australia_balance.py --games 200 --agent greedy
    python scripts/australia_balance.py --games 500 --agent kind-random --full

Every seat is played by the same agent (``greedy``, ``kind-random``: each kind of action
equally likely first, or ``random``: uniform). Printed per player count: the win share of each
seat (shared wins split), the mean final score, the mean rounds, the share of games ended by
E1 (the rest by E4's round limit), how often each region's projects were completed, and the
mean number of windmill scorings in the full game.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.append(str(Path(__file__).resolve().parent.parent))

from agents.bots.australia import GreedyBot
from airships_env.games.australia import GAME
from airships_env.games.australia.engine.actions import kind_uniform_choice
from airships_env.policy import Decision


def play(num_players: int, seed: int, agent: str, full: bool) -> dict[str, Any]:
    """One game among equal agents; what the balance figures need."""
    state = GAME.new_state(num_players, seed, options={"full_game": full})
    rng = np.random.default_rng([seed, 99])
    bots = []
    for seat in range(num_players):
        bot = GreedyBot()
        bot.reset(seat, num_players, np.random.default_rng([seed, seat]))
        bots.append(bot)
    completed: list[tuple[str, int]] = []
    windmills = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        if agent == "greedy":
            action = bots[state.current_player].act(Decision.for_game(GAME, state))
        elif agent == "kind-random":
            action = kind_uniform_choice(legal, lambda k: int(rng.integers(k)))
        else:
            action = legal[int(rng.integers(len(legal)))]
        record = state.apply_action(action)
        for scoring in record.scorings:
            if scoring.kind == "windmill":
                windmills += 1
            else:
                completed.append((scoring.kind, scoring.region))
    outcome = state.outcome()
    assert outcome is not None
    return {
        "winners": outcome.winners,
        "scores": outcome.scores,
        "rounds": state.round,
        "by_e1": bool(state.end_triggered),
        "completed": completed,
        "windmills": windmills,
    }


def main() -> None:
    """Play and print the figures per player count."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--agent", default="greedy", choices=("greedy", "kind-random", "random"))
    parser.add_argument("--full", action="store_true")
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4, 5])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = []
    for n in args.players:
        start = time.perf_counter()
        games = [play(n, seed, args.agent, args.full) for seed in range(args.games)]
        wins = [0.0] * n
        for game in games:
            for seat in game["winners"]:
                wins[seat] += 1 / len(game["winners"])
        regions = [0] * 24
        for game in games:
            for _, region in game["completed"]:
                regions[region] += 1
        result = {
            "players": n,
            "agent": args.agent,
            "full_game": args.full,
            "games": args.games,
            "seat_win_share": [w / args.games for w in wins],
            "mean_score": float(np.mean([s for g in games for s in g["scores"]])),
            "mean_rounds": float(np.mean([g["rounds"] for g in games])),
            "ended_by_e1": sum(g["by_e1"] for g in games) / args.games,
            "projects_per_game": sum(regions) / args.games,
            "least_completed_region": int(np.argmin(regions)),
            "region_completions": regions,
            "windmill_scorings_per_game": sum(g["windmills"] for g in games) / args.games,
            "seconds": time.perf_counter() - start,
        }
        results.append(result)
        if not args.json:
            shares = " ".join(f"{s:.2f}" for s in result["seat_win_share"])
            print(
                f"{n} players ({args.agent}, {'full' if args.full else 'simple'}): seat win "
                f"shares {shares}; mean score {result['mean_score']:.1f}; rounds "
                f"{result['mean_rounds']:.1f}; by E1 {result['ended_by_e1']:.2f}; projects "
                f"{result['projects_per_game']:.1f}/game, per region min {min(regions)} max "
                f"{max(regions)}; windmill scorings {result['windmill_scorings_per_game']:.1f}"
                f"/game; {result['seconds']:.0f} s"
            )
    if args.json:
        print(json.dumps(results))


if __name__ == "__main__":
    main()
