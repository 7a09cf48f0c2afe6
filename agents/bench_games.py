"""Speed of any registered game through the game protocol, beside PettingZoo's Connect Four.

What ``airships bench --game NAME`` measures for a game other than Airships (Airships keeps its
own native-versus-Python sections in :mod:`agents.cli.bench`). Every figure is per CPU second of
this process (one core), random legal play unless said otherwise:

- engine: decisions per second of whole games through the protocol alone (``new_state``,
  ``legal_actions``, ``apply_action``), at every player count of the game; for a game with a
  native core (its rules offer ``native_random_games``) also whole random games in the core
  alone, in the same run (``native_decisions_per_s`` beside ``python_decisions_per_s``).
- env: steps per second of the game's PettingZoo AEC environment (the generic
  :class:`~airships_env.game_aec.GameAEC`) with an observation and a mask at every step
  (``last()``), on the Python backend, and of PettingZoo's ``connect_four_v3`` the same way in
  the same run: the reference of what a small Python board-game environment costs; for a game
  with the native backend the same env on it (``native_aec_env_steps_per_s``); with a native
  batch (``native_batch``) also the batch, every seat a Python seat (``native_env_steps_per_s``
  beside ``python_env_steps_per_s``).
- heuristic: decisions per second of the game's ``heuristic`` bot (else ``greedy``) playing every
  seat, its ``act`` only (the engine's time between decisions is not counted); with native bots
  (``native_bot_decisions``) also the native twin in whole games in the core
  (``native_heuristic_decisions_per_s`` beside ``python_heuristic_decisions_per_s``).
- vecenv: learner steps per second of :class:`~airships_env.game_vector.GameVecEnv` (the
  Stable-Baselines3 VecEnv that trains on any game) against the same bot, random legal learner
  actions; with a native VecEnv (``native_vec_env``) also it, 64 games
  (``native_vecenv_<N>p_steps_per_s``).

Figures from the same run compare; figures across runs on a shared machine do not.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from airships_env.registry import get_game

#: The sections a game other than Airships has, in the order they run.
GAME_SECTIONS = ("engine", "env", "heuristic", "vecenv")

#: The bots measured, in order of preference (a game has the first it offers).
BOT_PREFERENCE = ("heuristic", "greedy")


def timed(run: Callable[[], int], seconds: float) -> float:
    """Units per CPU second of ``run`` (which returns the units it did), repeated for
    ``seconds`` of CPU time (at least once)."""
    done = 0
    started = time.process_time()
    while True:
        done += run()
        spent = time.process_time() - started
        if spent >= seconds:
            return done / spent


def _choose(chooser: np.random.Generator, mask: np.ndarray) -> int:
    """A uniformly random legal action of a mask."""
    legal = np.flatnonzero(mask)
    return int(legal[chooser.integers(len(legal))])


def aec_steps_rate(make: Callable[[], Any], seconds: float, seed: int = 0) -> float:
    """Steps per CPU second of a PettingZoo AEC env made by ``make``: ``last()`` (observation
    and mask) then a random legal action (None for a finished agent), new games as needed."""
    environment = make()
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
                action = _choose(chooser, observation["action_mask"])
            environment.step(action)
        return 100

    return timed(slice_of_steps, seconds)


def game_env_rate(
    game: str, num_players: int, seconds: float, seed: int = 0, backend: str = "python"
) -> float:
    """AEC steps per CPU second of ``game``'s own PettingZoo environment (``game.env``) on
    ``backend``."""
    rules = get_game(game)
    return aec_steps_rate(
        lambda: rules.env(num_players=num_players, backend=backend), seconds, seed
    )


def connect_four_rate(seconds: float, seed: int = 0) -> float:
    """AEC steps per CPU second of PettingZoo's ``connect_four_v3``, the reference."""
    with warnings.catch_warnings():  # PettingZoo's own notice about its creation API
        warnings.simplefilter("ignore", DeprecationWarning)
        from pettingzoo.classic import connect_four_v3

    return aec_steps_rate(connect_four_v3.env, seconds, seed)


def bot_name(game: str) -> str | None:
    """The game's bot the bench measures: ``heuristic``, else ``greedy``, else None."""
    offered = get_game(game).bots()
    return next((name for name in BOT_PREFERENCE if name in offered), None)


def bot_decisions_rate(
    game: str, spec: str, num_players: int, seconds: float, seed: int = 0
) -> float:
    """Decisions per CPU second of bot ``spec`` playing every seat of ``game`` (its ``act`` only:
    the decision, its view and the engine's moves are not counted)."""
    from agents.registry import make_agent
    from airships_env.policy import Decision

    rules = get_game(game)
    bots = [make_agent(spec, game=game) for _ in range(num_players)]
    spent = 0.0
    made = 0
    played = 0
    while spent < seconds or made == 0:
        state = rules.new_state(num_players, seed=seed + played)
        for seat, bot in enumerate(bots):
            bot.reset(seat, num_players, np.random.default_rng([seed, played, seat]))
        while not state.is_terminal():
            decision = Decision.for_game(rules, state)
            started = time.process_time()
            action = bots[decision.seat].act(decision)
            spent += time.process_time() - started
            made += 1
            state.apply_action(action)
        played += 1
    return made / spent if spent > 0 else float("inf")


def vecenv_rate(
    game: str,
    num_players: int,
    seconds: float,
    opponent: str | None,
    num_envs: int = 8,
    seed: int = 0,
) -> float:
    """Learner steps per CPU second of GameVecEnv (``num_envs`` games) against ``opponent`` (an
    agent spec; None: random), random legal learner actions."""
    from agents.registry import make_agent
    from airships_env.game_vector import GameVecEnv

    opponents = None if opponent is None else make_agent(opponent, game=game)
    venv = GameVecEnv(game, num_envs, seed=seed, num_players=num_players, opponents=opponents)
    venv.reset()
    chooser = np.random.default_rng(seed)

    def step() -> int:
        venv.step(choose_each(chooser, venv.action_masks()))
        return num_envs

    try:
        return timed(step, seconds)
    finally:
        venv.close()


def engine_rate(game: str, num_players: int, seconds: float, seed: int = 0) -> dict[str, float]:
    """Random legal whole games through the protocol: decisions and games per CPU second."""
    rules = get_game(game)
    chooser = np.random.default_rng(seed + 10_000)
    counts = {"games": 0, "decisions": 0}

    def one_game() -> int:
        state = rules.new_state(num_players, seed=seed + counts["games"])
        made = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(chooser.integers(len(legal)))])
            made += 1
        counts["games"] += 1
        counts["decisions"] += made
        return made

    rate = timed(one_game, seconds)
    return {"decisions_per_s": rate, "games_per_s": rate / (counts["decisions"] / counts["games"])}


def native_engine_rate(
    game: str, num_players: int, seconds: float, seed: int = 0
) -> dict[str, float] | None:
    """Random legal whole games in the game's native core alone (500 per call): decisions and
    games per CPU second; None when the game has no native core or it is not built."""
    from airships_env import native

    play = getattr(get_game(game), "native_random_games", None)
    if play is None or not native.available():
        return None
    counts = {"games": 0, "decisions": 0}

    def chunk() -> int:
        made = int(play(num_players, 500, seed + counts["games"]))
        counts["games"] += 500
        counts["decisions"] += made
        return made

    rate = timed(chunk, seconds)
    return {"decisions_per_s": rate, "games_per_s": rate / (counts["decisions"] / counts["games"])}


def choose_each(chooser: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """A uniformly random legal action of each row of ``masks`` (-1 for a row without one), as
    :func:`_choose` picks for one mask: the legal actions' indices, then one integer draw."""
    games, num_actions = masks.shape
    legal = np.flatnonzero(masks)  # ascending, so row by row
    edges = np.searchsorted(legal, np.arange(games + 1) * num_actions)
    starts, counts = edges[:-1], np.diff(edges)
    picks = starts + chooser.integers(np.maximum(counts, 1))
    chosen = np.full(games, -1, dtype=np.int32)
    rows = np.flatnonzero(counts)
    chosen[rows] = legal[picks[rows]] - rows * num_actions
    return chosen


def native_env_rate(game: str, num_players: int, seconds: float, games: int = 1024) -> float | None:
    """Steps per CPU second of the game's native batch (its rules offer ``native_batch``), every
    seat a Python seat (an observation and a mask at every step), random legal actions chosen
    with numpy as the Python environment's are (:func:`choose_each`: one draw per game, not
    one per action); None when the game has no native core or it is not built."""
    from airships_env import native

    make = getattr(get_game(game), "native_batch", None)
    if make is None or not native.available():
        return None
    batch = make(games, num_players, 1)
    batch.reset()
    chooser = np.random.default_rng(0)

    def step() -> int:
        batch.step(choose_each(chooser, batch.masks))
        return games

    return timed(step, seconds)


def native_bot_rate(game: str, bot: str, num_players: int, seconds: float) -> float | None:
    """Decisions per CPU second of the game's native ``bot`` playing whole games in the core
    (its rules offer ``native_bot_decisions``); None without a native core."""
    from airships_env import native

    play = getattr(get_game(game), "native_bot_decisions", None)
    if play is None or not native.available():
        return None
    played = [0]

    def chunk() -> int:
        made = int(play(bot, num_players, 100, played[0]))
        played[0] += 1
        return made

    return timed(chunk, seconds)


def native_vecenv_rate(
    game: str, num_players: int, seconds: float, opponent: str, num_envs: int = 64, seed: int = 0
) -> float | None:
    """Learner steps per CPU second of the game's native VecEnv (its rules name one with
    ``native_vec_env``) against ``opponent``, random legal learner actions; None without one."""
    import importlib

    from airships_env import native

    spec = getattr(get_game(game), "native_vec_env", None)
    if spec is None or not native.available():
        return None
    module_name, _, class_name = spec().partition(":")
    venv = getattr(importlib.import_module(module_name), class_name)(
        num_envs, num_players, opponent, seed=seed
    )
    venv.reset()
    chooser = np.random.default_rng(seed)

    def step() -> int:
        venv.step(choose_each(chooser, venv.action_masks()))
        return num_envs

    return timed(step, seconds)


def _line(label: str, value: float, unit: str, digits: int = 0) -> str:
    """One row of the table: a label, a right-aligned figure and its unit."""
    return f"  {label:<30} {value:>12,.{digits}f} {unit}"


def bench_game(
    game: str,
    seconds: float,
    sections: tuple[str, ...] = GAME_SECTIONS,
    num_players: int = 2,
    log: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Run the chosen sections for ``game``, print a table through ``log`` and return the
    figures (the keys of ``airships bench --json``; a section not run leaves its keys out, a
    figure that cannot be taken is None with the reason in ``notes``)."""
    rules = get_game(game)
    if num_players not in rules.player_counts:
        raise ValueError(
            f"{game}: --players must be one of {rules.player_counts}, got {num_players}"
        )
    unknown = sorted(set(sections) - set(GAME_SECTIONS))
    if unknown:
        raise ValueError(f"unknown section(s) {unknown}; choose among {', '.join(GAME_SECTIONS)}")
    figures: dict[str, Any] = {"game": game, "players": num_players, "notes": []}
    notes: list[str] = figures["notes"]
    bot = bot_name(game)
    log(f"{game}: Python, per CPU second of one core; {num_players} players unless said")
    if "engine" in sections:
        log("engine alone, random legal whole games through the protocol")
        for players in rules.player_counts:
            engine = engine_rate(game, players, seconds)
            figures[f"engine_{players}p"] = {"python": engine}
            row = _line(f"{players} players", engine["decisions_per_s"], "decisions/s")
            log(f"{row} {engine['games_per_s']:>10,.1f} games/s")
            fast = native_engine_rate(game, players, seconds)
            if fast is not None:
                figures[f"engine_{players}p"]["native"] = fast
                row = _line("  native core", fast["decisions_per_s"], "decisions/s")
                ratio = fast["decisions_per_s"] / engine["decisions_per_s"]
                log(f"{row} {fast['games_per_s']:>10,.1f} games/s {ratio:>8,.1f}x")
        headline = figures[f"engine_{num_players}p"]
        figures["python_decisions_per_s"] = headline["python"]["decisions_per_s"]
        if "native" in headline:
            figures["native_decisions_per_s"] = headline["native"]["decisions_per_s"]
    if "env" in sections:
        env_rate = game_env_rate(game, num_players, seconds)
        reference = connect_four_rate(seconds)
        figures["python_env_steps_per_s"] = env_rate
        figures["connect_four_env_steps_per_s"] = reference
        figures["env_over_connect_four"] = env_rate / reference
        log("AEC environment, observation and mask at every step (last()), random legal play")
        log(_line(f"{game}_v{rules.version}", env_rate, "steps/s"))
        log(_line("connect_four_v3 (PettingZoo)", reference, "steps/s"))
        log(_line("ratio", env_rate / reference, "x", digits=2))
        if "native" in rules.backends:
            native_aec = game_env_rate(game, num_players, seconds, backend="native")
            figures["native_aec_env_steps_per_s"] = native_aec
            log(_line(f"{game}_v{rules.version}, backend='native'", native_aec, "steps/s"))
            log(_line("native / Python backend", native_aec / env_rate, "x", digits=1))
        native_env = native_env_rate(game, num_players, seconds)
        if native_env is not None:
            figures["native_env_steps_per_s"] = native_env
            log(_line("native batch (1,024 games)", native_env, "steps/s"))
            log(_line("native / Python environment", native_env / env_rate, "x", digits=1))
        if "python_decisions_per_s" in figures:
            engine_over_env = figures["python_decisions_per_s"] / env_rate
            log(_line("engine alone / environment", engine_over_env, "x", digits=1))
    if "heuristic" in sections:
        figures["heuristic_bot"] = bot
        if bot is None:
            figures["python_heuristic_decisions_per_s"] = None
            notes.append(f"{game} has no heuristic or greedy bot: heuristic section skipped")
            log("bot: the game has no heuristic or greedy bot (skipped)")
        else:
            rate = bot_decisions_rate(game, bot, num_players, seconds)
            figures["python_heuristic_decisions_per_s"] = rate
            log(f"{bot} bot at every seat, its act only")
            log(_line(bot, rate, "decisions/s"))
            native_bot = native_bot_rate(game, bot, num_players, seconds)
            if native_bot is not None:
                figures["native_heuristic_decisions_per_s"] = native_bot
                log(_line(f"native {bot} (whole games)", native_bot, "decisions/s"))
                log(_line("native / Python", native_bot / rate, "x", digits=1))
    if "vecenv" in sections:
        opponent = bot if bot is not None else "random"
        rate = vecenv_rate(game, num_players, seconds, bot)
        figures["vecenv_opponents"] = opponent
        figures[f"python_vecenv_{num_players}p_steps_per_s"] = rate
        log(f"GameVecEnv (8 games), random legal learner against {opponent}")
        log(_line(f"{num_players} players", rate, "learner steps/s"))
        native_vec = native_vecenv_rate(game, num_players, seconds, opponent)
        if native_vec is not None:
            figures[f"native_vecenv_{num_players}p_steps_per_s"] = native_vec
            log(_line("native VecEnv (64 games)", native_vec, "learner steps/s"))
            log(_line("native / GameVecEnv", native_vec / rate, "x", digits=1))
    notes.append(
        f"learner vs free environment: not measured here; airships train --config FILE "
        f"--game {game} --profile measures the learner against {game}'s Python environments "
        f"and a free environment of its spaces"
    )
    log(f"training: {notes[-1]}")
    return figures
