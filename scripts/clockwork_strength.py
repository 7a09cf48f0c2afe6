"""Strength of the Clockwork City bots: paired games, Wilson 95% intervals (a benchmark script).

    python scripts/clockwork_strength.py --games 200 --players 2 greedy random
    python scripts/clockwork_strength.py --games 200 --players 3 heuristic greedy
    python scripts/clockwork_strength.py --games 100 \
        ismcts:ms=100,rollout=10,prior=heuristic,bias=5 heuristic

An agent is any spec of Clockwork's agents (as the arena takes them: ``heuristic:threshold=0.4``,
``ismcts:...``, ``ppo:path=...``), or ``cheater``, the perfect-information ceiling this script
alone plays (the heuristic told every hand; never a bot).

Each pair of games deals the same seed twice with the agents' seats rotated, so the deal's luck
cancels. The first agent plays one seat, the second agent all the others. Printed: the first
agent's wins, draws (the W3 turn limit), its win share, the share a seat would win by chance
(1/n), and the Wilson 95% interval of the win share.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np

from agents.registry import make_agent
from agents.stats import wilson_interval
from airships_env.games.clockwork import GAME
from airships_env.policy import Decision, Policy


def make(spec: str, rng: np.random.Generator) -> Policy | Cheater:
    """A Clockwork agent from its spec (the registry's), or the script's ``cheater``."""
    if spec == "cheater":
        return Cheater(rng)
    try:
        return make_agent(spec, rng=rng, game=GAME)
    except ValueError as error:
        raise SystemExit(str(error)) from None


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


def play(seats: list[Policy | Cheater], seed: int) -> int:
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
    low, high = wilson_interval(wins, games)
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
