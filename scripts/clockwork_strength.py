"""Strength of the Clockwork City bots: paired games, Wilson 95% intervals (a benchmark script).

    python scripts/clockwork_strength.py --games 200 --players 2 greedy random
    python scripts/clockwork_strength.py --games 200 --players 3 heuristic greedy

Each pair of games deals the same seed twice with the agents' seats rotated, so the deal's luck
cancels. The first agent plays one seat, the second agent all the others. Printed: the first
agent's wins, draws (the W3 turn limit), its win share, the share a seat would win by chance
(1/n), and the Wilson 95% interval of the win share.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from typing import Any

import numpy as np

from airships_env.games.clockwork import GAME
from airships_env.policy import Decision, Policy, RandomPolicy


def make(name: str, rng: np.random.Generator) -> Policy:
    """A Clockwork agent by name: random, greedy, heuristic[:THRESHOLD], cheater, ismcts:SIMS,
    mcts:SIMS."""
    from agents.bots.clockwork import GreedyBot, HeuristicBot

    if name.split(":")[0] in ("ismcts", "mcts"):
        from agents.bots.generic_ismcts import GenericISMCTSAgent, GenericMCTSAgent

        kind, _, sims = name.partition(":")
        search = GenericISMCTSAgent if kind == "ismcts" else GenericMCTSAgent
        return search(sims=int(sims or 200), seed=int(rng.integers(2**31)))

    table: dict[str, Any] = {
        "random": RandomPolicy,
        "greedy": GreedyBot,
        "heuristic": HeuristicBot,
        "cheater": Cheater,
    }
    name, _, option = name.partition(":")
    if name not in table:
        raise SystemExit(f"unknown agent {name!r}; choose from {sorted(table)}")
    if option:  # heuristic:0.4 = the heuristic's challenge threshold
        agent: Policy = table[name](rng=rng, threshold=float(option))
        return agent
    agent = table[name](rng=rng)
    return agent  # "cheater": the perfect-information ceiling (script only, never a bot)


class Cheater:
    """The ceiling: the heuristic given every other hand (its knowledge row is the truth)."""

    name = "cheater"

    def __init__(self, rng: np.random.Generator):
        from agents.bots.clockwork import HeuristicBot

        self.bot = HeuristicBot(rng=rng)

    def reset(self, seat: int, num_players: int, rng: np.random.Generator) -> None:
        """Pass the seat on."""
        self.bot.reset(seat, num_players, rng)

    def act_on(self, state: Any) -> int:
        """Decide on the true state: the seat's knowledge of every hand is exact."""
        seat = state.current_player
        seen = state.clone()
        seen.known[seat] = [list(hand) for hand in state.hands]
        seen.rng = None
        return self.bot.act(Decision(seen, seat, tuple(state.legal_actions()), game=GAME))

    def act(self, decision: Decision) -> int:
        """Only :meth:`act_on` is used (the script hands it the true state)."""
        raise RuntimeError("the cheater needs the true state")


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = (
        z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    )
    return max(0.0, centre - half), min(1.0, centre + half)


def play(seats: list[Policy], seed: int) -> int:
    """One game; the winning seat or -1."""
    state = GAME.new_state(len(seats), seed)
    for seat, agent in enumerate(seats):
        agent.reset(seat, len(seats), np.random.default_rng([seed, seat]))
    while not state.is_terminal():
        agent = seats[state.current_player]
        if isinstance(agent, Cheater):
            state.apply_action(agent.act_on(state))
            continue
        decision = Decision.for_game(GAME, state)
        state.apply_action(agent.act(decision))
    return int(state.winner)


def main() -> None:
    """Parse the arguments, play, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("agent")
    parser.add_argument("opponent")
    parser.add_argument("--games", type=int, default=200, help="games (rounded to whole rotations)")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    n = args.players
    hero = make(args.agent, np.random.default_rng(1))
    others = [make(args.opponent, np.random.default_rng(2 + k)) for k in range(n - 1)]
    wins = draws = games = 0
    start = time.perf_counter()
    seed = args.seed
    while games < args.games:
        for hero_seat in range(n):
            seats = list(others)
            seats.insert(hero_seat, hero)
            winner = play(seats, seed)
            games += 1
            wins += winner == hero_seat
            draws += winner < 0
        seed += 1
    low, high = wilson(wins, games)
    result = {
        "agent": args.agent,
        "opponent": args.opponent,
        "players": n,
        "games": games,
        "wins": wins,
        "draws": draws,
        "win_share": wins / games,
        "chance_share": 1 / n,
        "wilson95": [low, high],
        "seconds": time.perf_counter() - start,
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{args.agent} vs {args.opponent} ({n} players, {games} paired games): "
            f"{wins} wins, {draws} draws, win share {wins / games:.3f} "
            f"[{low:.3f}, {high:.3f}] (chance {1 / n:.3f}), {result['seconds']:.0f} s"
        )


if __name__ == "__main__":
    main()
