"""Benchmarks: engine, environment and bot speed. Prints figures; asserts nothing.

    python scripts/bench.py                 # every section, ~3 s per measurement
    python scripts/bench.py --only engine --seconds 5
    python scripts/bench.py --json          # the last line is one JSON object

Sections:
- engine: random legal games played with the engine alone, one core: decisions per second and
  games per second for 2, 3 and 4 players.
- env: PettingZoo AEC steps per CPU second with observations and masks under random legal
  play, beside PettingZoo's connect_four_v3 measured the same way in alternating slices of the
  same run, and their ratio.
- bots: milliseconds per decision of each bundled bot, and arena games per second.

The machine is shared and noisy: compare figures from the same run, not across runs.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from airships_env.engine import new_game
from airships_env.engine.dice import uniform_below

SECTIONS = ("engine", "env", "bots")


def engine_rate(num_players: int, seconds: float, seed: int = 0) -> dict[str, float]:
    """Random legal games with the engine alone for about ``seconds``."""
    chooser = np.random.default_rng(seed + 10_000)
    games = decisions = 0
    started = time.perf_counter()
    while True:
        state = new_game(num_players, seed=seed + games)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[uniform_below(chooser, len(legal))])
            decisions += 1
        games += 1
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            break
    return {
        "decisions_per_s": decisions / elapsed,
        "games_per_s": games / elapsed,
        "decisions_per_game": decisions / games,
        "games": games,
    }


class _AECRunner:
    """Random legal play in one AEC env, resumable in slices (last() -> mask -> step)."""

    def __init__(self, make_env: Callable[[], Any], seed: int):
        self.environment = make_env()
        self.chooser = np.random.default_rng(seed)
        self.seed = seed
        self.episode = 0
        self.environment.reset(seed=seed)

    def run(self, seconds: float) -> tuple[int, float]:
        """Play for about ``seconds`` of CPU time; returns (steps, CPU seconds)."""
        environment = self.environment
        steps = 0
        started = time.process_time()
        while time.process_time() - started < seconds:
            if not environment.agents:
                self.episode += 1
                environment.reset(seed=self.seed + self.episode)
            observation, _reward, terminated, truncated, _info = environment.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"])
                action = int(legal[uniform_below(self.chooser, len(legal))])
            environment.step(action)
            steps += 1
        return steps, time.process_time() - started


def interleaved_rates(
    makers: dict[str, Callable[[], Any]], seconds: float, slice_seconds: float = 0.25
) -> dict[str, float]:
    """AEC steps per CPU second of several envs, measured in alternating slices.

    Alternating short slices exposes every env to the same machine load, and CPU time leaves
    out the time the process waits for a core: on a shared machine this is what makes the
    figures comparable within one run.
    """
    runners = {name: _AECRunner(make, seed=0) for name, make in makers.items()}
    totals = {name: [0, 0.0] for name in makers}
    rounds = max(1, round(seconds / slice_seconds))
    for _ in range(rounds):
        for name, runner in runners.items():
            steps, spent = runner.run(slice_seconds)
            totals[name][0] += steps
            totals[name][1] += spent
    return {name: steps / spent for name, (steps, spent) in totals.items()}


def env_section(seconds: float) -> dict[str, float]:
    """The Airships AEC env beside connect_four_v3, same method, same run."""
    from pettingzoo.classic import connect_four_v3

    from airships_env import env as airships_env

    rates = interleaved_rates(
        {"airships": lambda: airships_env(num_players=4), "connect_four": connect_four_v3.env},
        seconds,
    )
    return {
        "env_steps_per_s": rates["airships"],
        "connect_four_steps_per_s": rates["connect_four"],
        "env_to_connect_four_ratio": rates["airships"] / rates["connect_four"],
    }


def bot_decision_ms(spec: str, num_players: int, decisions: int, seed: int = 0) -> float:
    """Mean milliseconds per decision of one bot playing seat 0 against random players."""
    from agents.registry import make_agent
    from airships_env.policy import Decision, RandomPolicy

    bot = make_agent(spec)
    others = RandomPolicy()
    spent = 0.0
    made = 0
    game = 0
    while made < decisions:
        state = new_game(num_players, seed=seed + game)
        bot.reset(0, num_players, np.random.default_rng(seed + game))
        others.reset(1, num_players, np.random.default_rng(seed + game + 1))
        while not state.is_terminal() and made < decisions:
            decision = Decision.from_state(state)
            if state.current_player == 0:
                started = time.perf_counter()
                action = bot.act(decision)
                spent += time.perf_counter() - started
                made += 1
            else:
                action = others.act(decision)
            state.apply_action(action)
        game += 1
    return 1000.0 * spent / made


def bots_section(seconds: float) -> dict[str, Any]:
    """Time per decision of each bundled bot, and the arena's games per second."""
    from agents.arena import run_arena

    bots = {"random": 400, "greedy": 400, "heuristic": 400, "mcts": 20}
    result: dict[str, Any] = {
        "bot_ms_per_decision": {
            spec: bot_decision_ms(spec, 2, count) for spec, count in bots.items()
        }
    }
    for workers in (1, os.cpu_count() or 1):
        games = max(20, int(60 * seconds))
        started = time.perf_counter()
        run_arena(["random", "random"], num_players=2, games=games, workers=workers, progress=False)
        result[f"arena_games_per_s_{workers}_workers"] = games / (time.perf_counter() - started)
    return result


def main(argv: list[str] | None = None) -> int:
    """Run the chosen sections and print their figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument(
        "--only",
        default=",".join(SECTIONS),
        help=f"comma-separated sections among {', '.join(SECTIONS)}",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON line at the end")
    args = parser.parse_args(argv)
    chosen = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = sorted(set(chosen) - set(SECTIONS))
    if unknown:
        parser.error(f"unknown section(s) {unknown}; choose among {', '.join(SECTIONS)}")

    figures: dict[str, Any] = {}
    if "engine" in chosen:
        print("engine, random legal play, one core")
        print(f"  {'players':>7}  {'decisions/s':>12}  {'games/s':>8}  {'decisions/game':>14}")
        for players in (2, 3, 4):
            rate = engine_rate(players, args.seconds)
            figures[f"engine_{players}p"] = rate
            print(
                f"  {players:>7}  {rate['decisions_per_s']:>12,.0f}  "
                f"{rate['games_per_s']:>8,.1f}  {rate['decisions_per_game']:>14,.1f}"
            )
        figures["decisions_per_s"] = figures["engine_4p"]["decisions_per_s"]
        figures["games_per_s"] = figures["engine_4p"]["games_per_s"]
    if "env" in chosen:
        env_figures = env_section(args.seconds)
        figures.update(env_figures)
        print(
            "environment, AEC steps per CPU second with observations and masks, random legal "
            "play, measured in alternating slices"
        )
        print(f"  airships_v1 (4 players)  {env_figures['env_steps_per_s']:>10,.0f}")
        print(f"  connect_four_v3          {env_figures['connect_four_steps_per_s']:>10,.0f}")
        print(f"  ratio                    {env_figures['env_to_connect_four_ratio']:>10.2f}")
    if "bots" in chosen:
        bot_figures = bots_section(args.seconds)
        figures.update(bot_figures)
        print("bots, milliseconds per decision (2 players, against random)")
        for spec, ms in bot_figures["bot_ms_per_decision"].items():
            print(f"  {spec:<10} {ms:>9.2f} ms")
        for key, value in bot_figures.items():
            if key.startswith("arena_games_per_s"):
                print(f"  {key.replace('_', ' ')}: {value:,.1f}")
    if args.json:
        print(json.dumps(figures, separators=(",", ":")))
    return 0
