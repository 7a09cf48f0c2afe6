"""Benchmarks: the native core beside the Python engine, measured in the same run. Prints
figures; asserts nothing.

    airships bench                          # every section, ~3 s per measurement
    airships bench --only engine,heuristic --seconds 5
    airships bench --json                   # the last line is one JSON object

Sections (each pair measured in the same run, one core, CPU time of this process):
- engine: random legal games with the engine alone, decisions and games per second, 2-4
  players: the native core (``random_games``) beside the Python engine.
- env: environment steps per second with an observation and a mask at every step, random legal
  play, 4 players: the native batch (1,024 games per call, every seat a Python seat) beside the
  Python PettingZoo AEC environment; the native AEC environment for reference.
- heuristic: decisions per second of the heuristic bot in 4-player heuristic games: the native
  twin (whole games in the core) beside the Python bot (its ``act`` only).
- vecenv: learner steps per second against heuristic opponents, 2 and 4 players:
  :class:`~airships_env.vector.AirshipsVecEnv` (64 games) beside the Python single-agent
  wrapper, random legal learner actions.
- bots: milliseconds per decision of each bot (Python), and the arena's games per second.

Another game (``airships bench --game clockwork [--players N] [--json]``) has the sections of
:mod:`agents.bench_games`: engine (every player count; with a native core (Clockwork's, Australia's), whole
random games in the core beside the Python engine: ``native_decisions_per_s`` /
``python_decisions_per_s``), env (its AEC env beside PettingZoo's
``connect_four_v3`` in the same run: ``python_env_steps_per_s`` / ``connect_four_env_steps_per_s``;
with a native batch also ``native_env_steps_per_s``), heuristic (its heuristic, else greedy, bot:
``python_heuristic_decisions_per_s``; with native bots ``native_heuristic_decisions_per_s``) and
vecenv (``python_vecenv_<N>p_steps_per_s``; with a native VecEnv
``native_vecenv_<N>p_steps_per_s``).

The machine is shared and noisy: compare figures from the same run, not across runs. With
``--json`` the last line holds every figure, among them the pairs ``native_decisions_per_s`` /
``python_decisions_per_s``, ``native_env_steps_per_s`` / ``python_env_steps_per_s`` and
``native_heuristic_decisions_per_s`` / ``python_heuristic_decisions_per_s``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from agents.bench_games import GAME_SECTIONS, bench_game, choose_each, engine_rate, timed
from agents.cli.common import add_game_argument
from airships_env.engine import new_game
from airships_env.engine.dice import uniform_below
from airships_env.registry import get_game

SECTIONS = ("engine", "env", "heuristic", "vecenv", "bots")


def _timed(run: Callable[[], int], seconds: float) -> float:
    """Units per CPU second of ``run`` (which returns the units it did), repeated for ``seconds``."""
    return timed(run, seconds)


# -- engine ----------------------------------------------------------------------------------
def python_engine_rate(
    num_players: int, seconds: float, seed: int = 0, game: str = "airships"
) -> dict[str, float]:
    """Random legal games with the game's Python engine for about ``seconds`` of CPU time."""
    return engine_rate(game, num_players, seconds, seed)


def native_engine_rate(num_players: int, seconds: float, seed: int = 0) -> dict[str, float]:
    """Random legal games with the native core alone for about ``seconds`` of CPU time."""
    from airships_env.engine import RulesOptions, load_cards
    from airships_env.native import core_for, require

    core = core_for(load_cards(None), RulesOptions())
    module = require()
    counts = {"games": 0, "decisions": 0}

    def chunk() -> int:
        made = int(module.random_games(core, num_players, 500, seed + counts["games"]))
        counts["games"] += 500
        counts["decisions"] += made
        return made

    rate = _timed(chunk, seconds)
    return {"decisions_per_s": rate, "games_per_s": rate / (counts["decisions"] / counts["games"])}


# -- environments --------------------------------------------------------------------------------
def aec_rate(backend: str, num_players: int, seconds: float, seed: int = 0) -> float:
    """PettingZoo AEC steps per CPU second with observation and mask, random legal play."""
    from airships_env import env as airships_env

    environment = airships_env(num_players=num_players, backend=backend)
    chooser = np.random.default_rng(seed)
    episode = [seed]
    environment.reset(seed=seed)

    def slice_of_steps() -> int:
        for _ in range(100):
            if not environment.agents:
                episode[0] += 1
                environment.reset(seed=episode[0])
            observation, _reward, terminated, truncated, _info = environment.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"])
                action = int(legal[uniform_below(chooser, len(legal))])
            environment.step(action)
        return 100

    return _timed(slice_of_steps, seconds)


def native_batch_rate(num_players: int, seconds: float, games: int = 1024) -> float:
    """Steps per CPU second of the native batch, every seat a Python seat (an observation and a
    mask at every step), random legal actions chosen with numpy as the Python environment's are
    (:func:`agents.bench_games.choose_each`: one draw per game)."""
    from airships_env.native.batch import NativeBatch

    batch = NativeBatch(games, num_players, seed=1, opponents=0)
    batch.reset()
    chooser = np.random.default_rng(0)

    def step() -> int:
        batch.step(choose_each(chooser, batch.masks))
        return games

    return _timed(step, seconds)


# -- the heuristic --------------------------------------------------------------------------------
def python_heuristic_rate(seconds: float, num_players: int = 4) -> float:
    """Decisions per CPU second of the Python heuristic (its act only) in heuristic games."""
    from agents.bots import HeuristicAgent
    from airships_env.policy import Decision

    bot = HeuristicAgent()
    game = [0]
    spent = [0.0]
    made = [0]
    deadline = time.process_time() + seconds
    while time.process_time() < deadline:
        state = new_game(num_players, seed=game[0])
        while not state.is_terminal():
            bot.reset(state.current_player, num_players, np.random.default_rng(0))
            decision = Decision.from_state(state)
            started = time.process_time()
            action = bot.act(decision)
            spent[0] += time.process_time() - started
            made[0] += 1
            state.apply_action(action)
        game[0] += 1
    return made[0] / spent[0]


def native_heuristic_rate(seconds: float, num_players: int = 4) -> float:
    """Decisions per CPU second of the native heuristic playing whole games in the core."""
    from airships_env.native.batch import play_bot_games

    games = [
        (np.random.default_rng(g), [None] * num_players, ["heuristic"] * num_players)
        for g in range(200)
    ]

    def chunk() -> int:
        return sum(r["steps"] for r in play_bot_games(num_players, games))

    return _timed(chunk, seconds)


# -- learner steps against heuristic opponents ---------------------------------------------------
def vecenv_rate(num_players: int, seconds: float, num_envs: int = 64) -> float:
    """Learner steps per CPU second of AirshipsVecEnv against heuristic opponents."""
    from airships_env.vector import AirshipsVecEnv

    env = AirshipsVecEnv(num_envs, num_players, "heuristic", seed=2)
    env.reset()
    chooser = np.random.default_rng(0)

    def step() -> int:
        env.step(choose_each(chooser, env.action_masks()))
        return num_envs

    return _timed(step, seconds)


def single_agent_rate(num_players: int, seconds: float) -> float:
    """Learner steps per CPU second of the Python single-agent wrapper (Python engine, Python
    heuristic opponents)."""
    from agents.bots import HeuristicAgent
    from airships_env.single_agent import AirshipsSingleAgentEnv

    env = AirshipsSingleAgentEnv(num_players, opponents=HeuristicAgent(), backend="python")
    chooser = np.random.default_rng(0)
    env.reset(seed=3)

    def step() -> int:
        for _ in range(20):
            legal = np.flatnonzero(env.action_masks())
            _obs, _reward, terminated, truncated, _info = env.step(
                int(legal[uniform_below(chooser, len(legal))])
            )
            if terminated or truncated:
                env.reset()
        return 20

    return _timed(step, seconds)


# -- bots -------------------------------------------------------------------------------------------
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


# -- the command ----------------------------------------------------------------------------------
def _ratio(native: float, python: float) -> str:
    return f"{native / python:>8.1f}x" if python else "       -"


def _row(label: str, native: float, python: float) -> None:
    print(f"  {label:<28} {native:>14,.0f} {python:>14,.0f} {_ratio(native, python)}")


def _bench_other_game(
    game: str, seconds: float, sections: tuple[str, ...], players: int | None, as_json: bool
) -> int:
    """The sections of a game other than Airships (:mod:`agents.bench_games`)."""
    out = sys.stderr if as_json else sys.stdout
    figures = bench_game(
        game,
        seconds,
        sections,
        num_players=2 if players is None else players,
        log=lambda text: print(text, file=out),
    )
    if as_json:
        print(json.dumps(figures, separators=(",", ":")))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the chosen sections and print their figures."""
    from airships_env import native

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per measurement")
    parser.add_argument(
        "--only",
        default=None,
        help=f"comma-separated sections: Airships' {', '.join(SECTIONS)} (default all); another "
        f"game's {', '.join(GAME_SECTIONS)} (default all)",
    )
    parser.add_argument(
        "--players",
        type=int,
        default=None,
        help="another game than Airships: the player count of its env, bot and vecenv figures "
        "(default 2; the engine section measures every count)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print one JSON line at the end (the tables go to stderr)",
    )
    add_game_argument(parser)
    args = parser.parse_args(argv)
    known = SECTIONS if args.game == "airships" else GAME_SECTIONS
    only = ",".join(known) if args.only is None else args.only
    chosen = [s.strip() for s in only.split(",") if s.strip()]
    unknown = sorted(set(chosen) - set(known))
    if unknown:
        parser.error(f"unknown section(s) {unknown}; {args.game} has {', '.join(known)}")
    if args.game != "airships":
        counts = get_game(args.game).player_counts
        if args.players is not None and args.players not in counts:
            parser.error(
                f"--players: {args.game} is played by {', '.join(map(str, counts))}, "
                f"got {args.players}"
            )
        sections = tuple(s for s in GAME_SECTIONS if s in chosen)
        return _bench_other_game(args.game, args.seconds, sections, args.players, args.json)
    if args.players is not None:
        parser.error("--players: Airships' sections choose their own player counts")
    needs_native = set(chosen) & {"engine", "env", "heuristic", "vecenv"}
    if needs_native and not native.available():
        parser.error("the native core is not built (pip install -e . builds it)")
    out = sys.stderr if args.json else sys.stdout
    stdout, sys.stdout = sys.stdout, out
    figures: dict[str, Any] = {}
    seconds = args.seconds
    try:
        header = f"  {'':<28} {'native':>14} {'python':>14} {'ratio':>9}"
        if "engine" in chosen:
            print("engine alone, random legal play, decisions per second (one core)")
            print(header)
            for players in get_game("airships").player_counts:
                fast = native_engine_rate(players, seconds)
                slow = python_engine_rate(players, seconds)
                figures[f"engine_{players}p"] = {"native": fast, "python": slow}
                _row(f"{players} players", fast["decisions_per_s"], slow["decisions_per_s"])
                _row("  games/s", fast["games_per_s"], slow["games_per_s"])
            figures["native_decisions_per_s"] = figures["engine_4p"]["native"]["decisions_per_s"]
            figures["python_decisions_per_s"] = figures["engine_4p"]["python"]["decisions_per_s"]
        if "env" in chosen:
            print("environment steps per second, observation and mask each step, 4 players")
            print(header)
            fast_env = native_batch_rate(4, seconds)
            slow_env = aec_rate("python", 4, seconds)
            native_aec = aec_rate("native", 4, seconds)
            figures.update(
                native_env_steps_per_s=fast_env,
                python_env_steps_per_s=slow_env,
                native_aec_env_steps_per_s=native_aec,
            )
            _row("batch (1,024 games) vs AEC", fast_env, slow_env)
            _row("AEC env, native backend", native_aec, slow_env)
        if "heuristic" in chosen:
            print("heuristic bot, decisions per second, 4-player heuristic games")
            print(header)
            fast_h = native_heuristic_rate(seconds)
            slow_h = python_heuristic_rate(seconds)
            figures.update(
                native_heuristic_decisions_per_s=fast_h, python_heuristic_decisions_per_s=slow_h
            )
            _row("heuristic", fast_h, slow_h)
        if "vecenv" in chosen:
            print("learner steps per second against heuristic opponents")
            print(f"  {'':<28} {'AirshipsVecEnv':>14} {'single-agent':>14} {'ratio':>9}")
            for players in (2, 4):
                fast_v = vecenv_rate(players, seconds)
                slow_v = single_agent_rate(players, seconds)
                figures[f"native_vecenv_{players}p_steps_per_s"] = fast_v
                figures[f"python_single_agent_{players}p_steps_per_s"] = slow_v
                _row(f"{players} players", fast_v, slow_v)
        if "bots" in chosen:
            from agents.arena import run_arena

            bots = {"random": 400, "greedy": 400, "heuristic": 400, "mcts": 20}
            milliseconds = {spec: bot_decision_ms(spec, 2, count) for spec, count in bots.items()}
            figures["bot_ms_per_decision"] = milliseconds
            print("bots (Python), milliseconds per decision, 2 players against random")
            for spec, ms in milliseconds.items():
                print(f"  {spec:<10} {ms:>9.2f} ms")
            for specs in (["heuristic", "greedy"], ["heuristic", "mcts:sims=20"]):
                games = 40
                started = time.perf_counter()
                run_arena(specs, num_players=2, games=games, workers=1, progress=False)
                rate = games / (time.perf_counter() - started)
                key = "arena_games_per_s_" + "_".join(s.split(":")[0] for s in specs)
                figures[key] = rate
                where = "native core" if "mcts" not in specs[1] else "Python"
                print(f"  arena {' vs '.join(specs)} ({where}): {rate:,.1f} games/s")
    finally:
        sys.stdout = stdout
    if args.json:
        print(json.dumps(figures, separators=(",", ":")))
    return 0
