"""Several single-agent games of any registered game as one Stable-Baselines3 ``VecEnv``.

:class:`GameVecEnv` is a ``DummyVecEnv`` of :class:`~airships_env.game_single_agent.
GameSingleAgentEnv` with ``action_masks()`` (sb3-contrib's MaskablePPO asks for it). Airships
keeps its batched native one (:class:`airships_env.vector.AirshipsVecEnv`). Needs the ``train``
extra (stable-baselines3).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np

try:
    from stable_baselines3.common.vec_env import DummyVecEnv
except ImportError as error:  # pragma: no cover - the train extra is not installed
    raise ImportError(
        "airships_env.game_vector needs stable-baselines3: pip install -e '.[train]'"
    ) from error

from airships_env.game_single_agent import GameSingleAgentEnv
from airships_env.protocol import Game

__all__ = ["GameVecEnv"]


class GameVecEnv(DummyVecEnv):
    """``num_envs`` GameSingleAgentEnvs as one VecEnv; ``kwargs`` go to each env, and env
    ``i`` is seeded ``seed + i`` at the first reset when ``seed`` is given. Each env gets its
    own copy of ``opponents``: a bot keeps its seat and generator for one game at a time."""

    def __init__(self, game: Game | str, num_envs: int, seed: int | None = None, **kwargs: Any):
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")

        def factory() -> gymnasium.Env:
            if "opponents" not in kwargs:
                return GameSingleAgentEnv(game, **kwargs)
            own = copy.deepcopy(kwargs["opponents"])  # one env's game must not reseat another's
            return GameSingleAgentEnv(game, **{**kwargs, "opponents": own})

        factories: list[Callable[[], gymnasium.Env]] = [factory] * num_envs
        super().__init__(factories)
        if seed is not None:
            self.seed(seed)

    def action_masks(self) -> np.ndarray:
        """The learners' legal actions, one boolean row per env."""
        envs: list[GameSingleAgentEnv] = self.envs  # type: ignore[assignment]
        return np.stack([env.action_masks() for env in envs])
