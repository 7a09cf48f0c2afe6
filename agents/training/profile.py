"""``airships train --profile``: where a training run's wall time goes, against a free environment.

The same learner (the config's MaskablePPO settings, network and number of games) learns for
``steps`` environment steps twice in one process: once against the config's environment (the
league's bots in Airships' native core, or the Python environments of any registered game),
once against :class:`FreeVecEnv`, an environment with the same spaces (the config's game's
observation size and action table) that costs nothing. The ratio of the two throughputs is the
share of the learner's own speed that the real environment leaves; the split says where the
rest went (environment, opponents' policies outside the core, the learner's inference and
rollout buffer, the gradient updates). In Python environments the opponents' part is their
league seats' share of each environment's own step time
(:class:`~agents.training.league.LeagueClock`), applied to the wall time around the vector env.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv, VecMonitor

from agents.games import DEFAULT_GAME
from agents.hint import hint_bounds, one_hot
from agents.training.callbacks import (
    RunContext,
    Throughput,
    ThroughputCallback,
    TimedVecEnv,
    TorchThreadsCallback,
)
from agents.training.checkpoint import RunState
from agents.training.config import TrainConfig
from agents.training.league import League
from agents.workers import single_threaded_blas
from airships_env.game_aec import observation_bounds
from airships_env.registry import get_game

#: Decisions per episode of the free environment (a 2-player game takes about 40 per seat).
FREE_EPISODE = 40


class FreeVecEnv(VecEnv):
    """An environment that costs nothing: the spaces of the real one (``game``'s observation
    size and action table), precomputed sparse observations, about half the actions legal, an
    episode every :data:`FREE_EPISODE` steps with a reward of +1 or -1. ``hinted``: each
    observation ends with the one-hot of a legal action, as a hinted policy's does
    (:mod:`agents.hint`)."""

    render_mode = None

    def __init__(
        self,
        num_envs: int,
        num_players: int,
        seed: int = 0,
        game: str = DEFAULT_GAME,
        hinted: bool = False,
    ):
        rules = get_game(game)
        size = rules.observation_size(num_players)
        low, high = observation_bounds(rules, num_players)
        rng = np.random.default_rng(seed)
        pool = 256
        self._observations = (rng.random((pool, size)) < 0.2).astype(np.float32)
        self._masks = rng.random((pool, rules.num_actions)) < 0.5
        self._masks[:, 0] = True
        if hinted:
            hints = [rng.choice(np.flatnonzero(mask)) for mask in self._masks]
            self._observations = np.hstack([self._observations, one_hot(hints, rules.num_actions)])
            low, high = hint_bounds(low, high, rules.num_actions)
        observation_space = spaces.Box(low, high, dtype=np.float32)
        super().__init__(num_envs, observation_space, spaces.Discrete(rules.num_actions))
        self._steps = np.zeros(num_envs, dtype=np.int64)
        self._cursor = 0
        self._rng = rng

    def _rows(self) -> np.ndarray:
        rows = (self._cursor + np.arange(self.num_envs)) % len(self._observations)
        return rows

    def reset(self) -> Any:
        """Observations of fresh episodes."""
        self._steps[:] = 0
        return self._observations[self._rows()].copy()

    def step_async(self, actions: np.ndarray) -> None:
        """Nothing to do with the actions."""

    def step_wait(self) -> Any:
        """Advance every game one decision; every FREE_EPISODE-th ends with +1 or -1."""
        self._cursor += 1
        self._steps += 1
        dones = self._steps % FREE_EPISODE == 0
        rewards = np.where(dones, self._rng.choice([-1.0, 1.0], self.num_envs), 0.0)
        observations = self._observations[self._rows()].copy()
        infos: list[dict[str, Any]] = [
            {"terminal_observation": observations[i]} if dones[i] else {}
            for i in range(self.num_envs)
        ]
        return observations, rewards.astype(np.float32), dones, infos

    def action_masks(self) -> np.ndarray:
        """The legal actions of every game's current decision."""
        return self._masks[self._rows()]

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> Any:
        """``action_masks`` per game, as sb3-contrib asks for it."""
        selected = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in selected]
        result = getattr(self, method_name)(*args, **kwargs)
        return [result] * len(selected)

    def close(self) -> None:
        """Nothing to release."""

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """An attribute, once per selected game."""
        return [getattr(self, attr_name)] * len(list(self._get_indices(indices)))

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        """Set an attribute."""
        setattr(self, attr_name, value)

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        """Never wrapped."""
        return [False] * len(list(self._get_indices(indices)))

    def seed(self, seed: int | None = None) -> list[int | None]:
        """Seeded at construction."""
        return [None] * self.num_envs


def measure(
    config: TrainConfig,
    steps: int,
    free: bool,
    log: Callable[[str], None],
) -> Throughput:
    """Learn ``steps`` steps with the config's learner against the real or the free
    environment; the throughput figures of that run."""
    from agents.training.games import segment_seed
    from agents.training.train import build_model, make_vec_env

    n_envs = config.resolved_n_envs()
    with tempfile.TemporaryDirectory(prefix="airships-profile-") as scratch:
        league = League(config.league, scratch)
        if free:
            free_env = FreeVecEnv(
                n_envs,
                config.num_players,
                config.seed,
                config.game,
                hinted=config.policy.hint is not None,
            )
            venv = TimedVecEnv(VecMonitor(free_env), inner=free_env)
        else:
            venv = make_vec_env(config, n_envs, league.mix(), segment_seed(config.seed, 0))
        try:
            model = build_model(config, venv, None)
            context = RunContext(config, Path(scratch), league, RunState(), log=log)
            throughput = ThroughputCallback(context, venv)
            threads = TorchThreadsCallback(config.resolved_learn_threads())
            with single_threaded_blas():  # as in training
                model.learn(steps, callback=[threads, throughput], progress_bar=False)
            return throughput.throughput()
        finally:
            venv.close()


def combined(parts: list[Throughput]) -> Throughput:
    """The figures of several measurements taken together (steps and seconds summed)."""
    return Throughput(
        **{
            field.name: sum(getattr(part, field.name) for part in parts)
            for field in dataclasses.fields(Throughput)
        }
    )


def profile(
    config: TrainConfig,
    steps: int,
    *,
    as_json: bool = False,
    rounds: int = 4,
    log: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Measure the real and the free environment in one process, ``steps`` steps each in
    ``rounds`` alternating rounds; print a table (stderr when ``as_json``, which prints one JSON
    line on stdout). Returns the figures."""
    log = log if log is not None else (lambda text: print(text, file=sys.stderr))
    # In rounds, alternating which goes first, so that a machine whose load drifts (other work,
    # a thermal limit) slows both measurements alike instead of the second one only.
    share = max(1, steps // rounds)
    parts: dict[bool, list[Throughput]] = {False: [], True: []}
    for index in range(rounds):
        for is_free in (False, True) if index % 2 == 0 else (True, False):
            parts[is_free].append(measure(config, share, free=is_free, log=log))
    real, free = combined(parts[False]), combined(parts[True])
    ratio = real.steps_per_second / free.steps_per_second
    result = {
        "game": config.game,
        "num_players": config.num_players,
        "n_envs": config.resolved_n_envs(),
        "vec_env": config.vec_env,
        "steps": real.steps,
        "rounds": rounds,
        "real": real.to_dict(),
        "free": free.to_dict(),
        "real_over_free": round(ratio, 4),
    }
    out = sys.stderr if as_json else sys.stdout
    rows = [("real environment", real), ("free environment", free)]
    print(
        f"{get_game(config.game).title}, {config.num_players} players, "
        f"{config.resolved_n_envs()} {config.vec_env} "
        f"environments, {real.steps} steps each in {rounds} alternating rounds, learner from "
        f"{config.source}",
        file=out,
    )
    header = (
        f"{'':18} {'steps/s':>8} {'env':>6} {'opponents':>10} {'inference':>10} "
        f"{'learning':>9} {'other':>6}"
    )
    print(header, file=out)
    for name, figures in rows:
        d = figures.to_dict()
        print(
            f"{name:18} {d['steps_per_second']:>8.0f} {100 * d['env_share']:>5.0f}% "
            f"{100 * d['opponent_share']:>9.0f}% {100 * d['inference_share']:>9.0f}% "
            f"{100 * d['learn_share']:>8.0f}% {100 * d['overhead_share']:>5.0f}%",
            file=out,
        )
    print(f"real / free throughput: {100 * ratio:.0f}%", file=out)
    if as_json:
        print(json.dumps(result))
    return result
