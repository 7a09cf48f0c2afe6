"""Simulations per second of Nippon's native ISMCTS against the generic Python search at the
same settings, in the same run (a benchmark script: it prints figures, it asserts nothing).

    python scripts/nippon_search_speed.py --ms 100 --options rollout=10,prior=heuristic,bias=50

Both searches decide the same positions (decisions with a choice, taken from random games of
``--players``) with the same time budget; the figure is the simulations they ran over the time
spent. ``--options ''`` measures the defaults (uniform rollouts to the end of the game).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from agents.registry import make_agent
from airships_env.chance import uniform_below
from airships_env.games.nippon import GAME
from airships_env.games.nippon.engine import State, new_game
from airships_env.policy import Decision


def positions(players: int, games: int, every: int) -> list[State]:
    """Decisions with more than one legal action from random games."""
    found = []
    chooser = np.random.default_rng(0)
    for seed in range(games):
        state = new_game(players, seed)
        step = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            if len(legal) > 1 and step % every == 0:
                found.append(state.clone())
            state.apply_action(legal[uniform_below(chooser, len(legal))])
            step += 1
    return found


def rate(spec: str, states: list[State]) -> tuple[float, int, float]:
    """Simulations per second of the agent ``spec`` over ``states``; simulations, seconds."""
    agent = make_agent(spec, rng=np.random.default_rng(1), game=GAME)
    simulations, spent = 0, 0.0
    for state in states:
        seat = state.current_player
        agent.reset(seat, state.num_players, np.random.default_rng(1))
        decision = Decision(state.view(seat), seat, tuple(state.legal_actions()), game=GAME)
        start = time.perf_counter()
        agent.act(decision)
        spent += time.perf_counter() - start
        simulations += agent.last_simulations  # type: ignore[attr-defined]
    return simulations / spent, simulations, spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ms", type=float, default=100.0, help="time per decision")
    parser.add_argument("--options", default="rollout=10,prior=heuristic,bias=50,c=0.3")
    parser.add_argument("--players", type=int, default=2, choices=GAME.player_counts)
    parser.add_argument("--games", type=int, default=3, help="games to take positions from")
    args = parser.parse_args()
    states = positions(args.players, args.games, every=11)
    options = f",{args.options}" if args.options else ""
    print(
        f"{len(states)} positions, {args.players} players, ms={args.ms:g}, {args.options or 'defaults'}"
    )
    rates = {}
    for native in ("true", "false"):
        spec = f"ismcts:ms={args.ms:g}{options},native={native}"
        rates[native], simulations, spent = rate(spec, states)
        label = "native" if native == "true" else "python"
        print(f"{label}: {rates[native]:,.0f} simulations/s ({simulations} in {spent:.2f} s)")
    print(f"native / python: {rates['true'] / rates['false']:.1f}x")


if __name__ == "__main__":
    main()
