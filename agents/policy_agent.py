"""An agent that plays a trained Stable-Baselines3 policy (``MaskablePPO`` ``.zip``).

It reads only :attr:`Decision.observation` (the acting seat's observation vector) and
:attr:`Decision.action_mask`; the model is asked for an action with the mask, so it never
chooses an illegal one. Needs the ``train`` extra (torch, sb3-contrib).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from airships_env.engine import NUM_ACTIONS
from airships_env.policy import Decision


class PPOAgent:
    """Plays a saved ``sb3_contrib.MaskablePPO`` model with the legal-action mask."""

    def __init__(
        self,
        path: str,
        deterministic: bool = True,
        device: str = "cpu",
        torch_threads: int | None = 1,
        name: str = "ppo",
    ):
        model_path = Path(path)
        if not model_path.exists() and model_path.suffix != ".zip":
            model_path = model_path.with_suffix(".zip")  # SB3 appends .zip when saving
        if not model_path.exists():
            raise FileNotFoundError(f"PPO model {path!r} not found")
        if torch_threads is not None:
            import torch

            # Arena workers run one game each: more threads per process only contend.
            torch.set_num_threads(torch_threads)
        from sb3_contrib import MaskablePPO

        self.path = str(model_path)
        self.model: Any = MaskablePPO.load(self.path, device=device)
        self.deterministic = bool(deterministic)
        self.name = name
        self.seat = 0
        self.num_players = 0
        self.rng = np.random.default_rng(0)
        actions = getattr(self.model.action_space, "n", None)
        if actions is not None and int(actions) != NUM_ACTIONS:
            raise ValueError(
                f"PPO model {self.path}: its action space has {actions} actions, "
                f"the game has {NUM_ACTIONS}"
            )
        self.observation_size = int(np.prod(self.model.observation_space.shape or (0,)))

    def reset(self, seat: int, num_players: int, rng: np.random.Generator) -> None:
        """Remember the seat; a stochastic policy samples with torch's global generator, which
        is seeded from ``rng`` here (SB3 offers no per-call generator)."""
        self.seat = seat
        self.num_players = num_players
        self.rng = rng
        if not self.deterministic:
            import torch

            torch.manual_seed(int(rng.integers(2**63)))

    def act(self, decision: Decision) -> int:
        """The model's action for this observation, among the legal ones."""
        observation = decision.observation
        if observation.shape[0] != self.observation_size:
            raise ValueError(
                f"PPO model {self.path} expects observations of size {self.observation_size}, "
                f"but a {decision.view.num_players}-player game gives size "
                f"{observation.shape[0]}: the model was trained for another player count "
                f"(or an older observation layout)"
            )
        action, _state = self.model.predict(
            observation, action_masks=decision.action_mask, deterministic=self.deterministic
        )
        return int(action)
