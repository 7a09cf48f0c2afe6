"""Simulations per second of a game's native ISMCTS (Clockwork City's or Australia's) against the
generic Python search at the same settings, in the same run (a benchmark script: it prints
figures, it asserts nothing).

    python scripts/clockwork_search_speed.py --ms 200 --options rollout=10,prior=heuristic,bias=5
    python scripts/clockwork_search_speed.py --game australia --ms 200 --options rollout=10

Both searches decide the same positions (decisions with a choice, taken from 2-player games
played at random: uniformly for Clockwork, by the game's rollout policy for Australia, whose
uniform play mostly flies) with the same time budget; the figure is the simulations they ran
over the time spent.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from agents.registry import make_agent
from airships_env.chance import uniform_below
from airships_env.policy import Decision
from airships_env.registry import get_game

#: How the positions' games are played: uniformly, or by the game's rollout policy.
PLAY = {"clockwork": "uniform", "australia": "rollout"}


def positions(game: Any, games: int, every: int) -> list[Any]:
    """Decisions with more than one legal action from random games."""
    found = []
    chooser = np.random.default_rng(0)
    for seed in range(games):
        state = game.new_state(2, seed)
        for step in range(200):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            if len(legal) > 1 and step % every == 0:
                found.append(state.clone())
            if PLAY[game.name] == "rollout":
                state.apply_action(game.rollout_action(state, chooser))
            else:
                state.apply_action(legal[uniform_below(chooser, len(legal))])
    return found


def rate(game: Any, spec: str, states: list[Any]) -> tuple[float, int, float]:
    """Simulations per second of the agent ``spec`` over ``states``; simulations, seconds."""
    agent = make_agent(spec, rng=np.random.default_rng(1), game=game)
    agent.reset(0, 2, np.random.default_rng(1))
    simulations, spent = 0, 0.0
    for state in states:
        seat = state.current_player
        decision = Decision(state.view(seat), seat, tuple(state.legal_actions()), game=game)
        start = time.perf_counter()
        agent.act(decision)
        spent += time.perf_counter() - start
        simulations += agent.last_simulations  # type: ignore[attr-defined]
    return simulations / spent, simulations, spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="clockwork", choices=sorted(PLAY))
    parser.add_argument("--ms", type=float, default=200.0, help="time per decision")
    parser.add_argument("--options", default="rollout=10,prior=heuristic,bias=5")
    parser.add_argument("--games", type=int, default=6, help="games to take positions from")
    args = parser.parse_args()
    game = get_game(args.game)
    states = positions(game, args.games, every=15)
    print(f"{game.name}: {len(states)} positions, ms={args.ms:g}, {args.options}")
    rates = {}
    for native in ("true", "false"):
        spec = f"ismcts:ms={args.ms:g},{args.options},native={native}"
        rates[native], simulations, spent = rate(game, spec, states)
        label = "native" if native == "true" else "python"
        print(f"{label}: {rates[native]:,.0f} simulations/s ({simulations} in {spent:.2f} s)")
    print(f"native / python: {rates['true'] / rates['false']:.1f}x")


if __name__ == "__main__":
    main()
