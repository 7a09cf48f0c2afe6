"""Speed of the native search bot (``ismcts``) against the Python search bot (``mcts``).

Both search the same decisions: mid-game states of seeded heuristic games (2, 3 and 4 players)
whose player to act has a choice. Prints simulations per second, simulated actions per second and
milliseconds per decision for each; ``--json`` adds one JSON line at the end. Figures only, no
assertions (the machine may be busy: run it with ``nice`` beside other work, and compare figures
from one run only)::

    python scripts/ismcts_speed.py [--decisions 12] [--sims 300] [--ms 100] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from agents.bots.ismcts import ISMCTSAgent
from agents.bots.mcts import MCTSAgent
from airships_env.bot_config import HeuristicConfig
from airships_env.engine import GameState
from airships_env.native import NativeGame
from airships_env.policy import Decision


class CountingMCTS(MCTSAgent):
    """The Python search bot, counting the actions its rollouts play."""

    actions = 0

    def _simulate(
        self, decision: Decision, action: int, world_rng: np.random.Generator
    ) -> tuple[float, int]:
        result, steps = super()._simulate(decision, action, world_rng)
        self.actions += steps
        return result, steps


def decisions(count: int) -> list[GameState]:
    """``count`` states with a choice, spread over 2-4 players and the game's course."""
    heuristic = HeuristicConfig.load().native()
    states: list[GameState] = []
    seed = 0
    while len(states) < count:
        players = 2 + seed % 3
        game = NativeGame.new(players, seed=1000 + seed)
        stop = 8 + (seed * 7) % 40
        step = 0
        while not game.is_terminal():
            legal = game.legal_actions()
            if step >= stop and len(legal) > 1:
                states.append(game.to_state())
                break
            game.apply_action(game.bot_action(3, heuristic, legal))
            step += 1
        seed += 1
    return states


def measure_ismcts(states: list[GameState], **options: Any) -> dict[str, float]:
    """Search every state once; totals per second and per decision."""
    bot = ISMCTSAgent(seed=0, **options)
    sims = actions = 0
    started = time.perf_counter()
    for state in states:
        bot.act(Decision.from_state(state))
        assert bot.last_stats is not None
        sims += bot.last_stats.simulations
        actions += bot.last_stats.actions
    seconds = time.perf_counter() - started
    return {
        "simulations_per_s": sims / seconds,
        "actions_per_s": actions / seconds,
        "ms_per_decision": 1000 * seconds / len(states),
        "simulations_per_decision": sims / len(states),
    }


def measure_mcts(states: list[GameState], sims: int) -> dict[str, float]:
    """The Python bot searching every decision (``search_turns=0``) with ``sims`` rollouts."""
    bot = CountingMCTS(sims=sims, steps=10**9, search_turns=0.0)
    bot.reset(0, 2, np.random.default_rng(0))
    rollouts = 0
    started = time.perf_counter()
    for state in states:
        bot.act(Decision.from_state(state))
        rollouts += sum(count for count, _mean in bot.last_stats.values())
    seconds = time.perf_counter() - started
    return {
        "simulations_per_s": rollouts / seconds,
        "actions_per_s": bot.actions / seconds,
        "ms_per_decision": 1000 * seconds / len(states),
        "simulations_per_decision": rollouts / len(states),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the comparison and print it."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=12, help="decisions searched (12)")
    parser.add_argument("--sims", type=int, default=300, help="ismcts simulation budget (300)")
    parser.add_argument("--ms", type=float, default=100.0, help="ismcts time budget (100)")
    parser.add_argument("--mcts-sims", type=int, default=100, help="mcts rollouts (100)")
    parser.add_argument("--json", action="store_true", help="one JSON line at the end")
    args = parser.parse_args(argv)
    states = decisions(args.decisions)
    rows = {
        f"ismcts:sims={args.sims}": measure_ismcts(states, sims=args.sims),
        f"ismcts:ms={args.ms:g}": measure_ismcts(states, ms=args.ms),
        f"ismcts:ms={args.ms:g},rollout=greedy": measure_ismcts(
            states, ms=args.ms, rollout="greedy"
        ),
        f"ismcts:ms={args.ms:g},rollout=random": measure_ismcts(
            states, ms=args.ms, rollout="random"
        ),
        f"mcts:sims={args.mcts_sims} (Python)": measure_mcts(states, args.mcts_sims),
    }
    print(f"{len(states)} decisions (2-4 players, mid-game), searched once by each bot")
    print(f"{'bot':<36} {'sims/s':>10} {'actions/s':>11} {'ms/decision':>12} {'sims/decision':>14}")
    for name, row in rows.items():
        print(
            f"{name:<36} {row['simulations_per_s']:>10,.0f} {row['actions_per_s']:>11,.0f} "
            f"{row['ms_per_decision']:>12.1f} {row['simulations_per_decision']:>14.1f}"
        )
    python = rows[f"mcts:sims={args.mcts_sims} (Python)"]
    native = rows[f"ismcts:sims={args.sims}"]
    print(
        f"native / Python: {native['simulations_per_s'] / python['simulations_per_s']:.0f}x "
        f"simulations/s, {native['actions_per_s'] / python['actions_per_s']:.0f}x actions/s"
    )
    if args.json:
        print(json.dumps({"decisions": len(states), "bots": rows}, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
