"""Simulations per second of Clockwork's native ISMCTS against the generic Python search at the
same settings, in the same run (a benchmark script: it prints figures, it asserts nothing).

    python scripts/clockwork_search_speed.py --ms 200 --options rollout=10,prior=heuristic,bias=5

Both searches decide the same positions (decisions with a choice, taken from random 2-player
games) with the same time budget; the figure is the simulations they ran over the time spent.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from agents.registry import make_agent
from airships_env.chance import uniform_below
from airships_env.games.clockwork import GAME
from airships_env.games.clockwork.engine import State, new_game
from airships_env.policy import Decision


def positions(games: int, every: int) -> list[State]:
    """Decisions with more than one legal action from random games."""
    found = []
    chooser = np.random.default_rng(0)
    for seed in range(games):
        state = new_game(2, seed)
        for step in range(200):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            if len(legal) > 1 and step % every == 0:
                found.append(state.clone())
            state.apply_action(legal[uniform_below(chooser, len(legal))])
    return found


def rate(spec: str, states: list[State]) -> tuple[float, int, float]:
    """Simulations per second of the agent ``spec`` over ``states``; simulations, seconds."""
    agent = make_agent(spec, rng=np.random.default_rng(1), game=GAME)
    agent.reset(0, 2, np.random.default_rng(1))
    simulations, spent = 0, 0.0
    for state in states:
        seat = state.current_player
        decision = Decision(state.view(seat), seat, tuple(state.legal_actions()), game=GAME)
        start = time.perf_counter()
        agent.act(decision)
        spent += time.perf_counter() - start
        simulations += agent.last_simulations  # type: ignore[attr-defined]
    return simulations / spent, simulations, spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ms", type=float, default=200.0, help="time per decision")
    parser.add_argument("--options", default="rollout=10,prior=heuristic,bias=5")
    parser.add_argument("--games", type=int, default=6, help="games to take positions from")
    args = parser.parse_args()
    states = positions(args.games, every=15)
    print(f"{len(states)} positions, ms={args.ms:g}, {args.options}")
    rates = {}
    for native in ("true", "false"):
        spec = f"ismcts:ms={args.ms:g},{args.options},native={native}"
        rates[native], simulations, spent = rate(spec, states)
        label = "native" if native == "true" else "python"
        print(f"{label}: {rates[native]:,.0f} simulations/s ({simulations} in {spent:.2f} s)")
    print(f"native / python: {rates['true'] / rates['false']:.1f}x")


if __name__ == "__main__":
    main()
