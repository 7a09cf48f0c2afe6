"""PPO's default torch RLModule with the legal-action mask applied to its logits.

Adapted from RLlib's ``ActionMaskingTorchRLModule`` example: the environment's observation is
a dict ``{"observations", "action_mask"}``; the networks see ``observations`` only, and illegal
actions get a logit of ``FLOAT_MIN`` in every forward pass (exploration, inference, training),
so they are never sampled and carry no probability in the loss. The actor and the critic are
separate MLPs (``vf_share_layers=False``), so :mod:`agents.rllib.export` can lift the actor
alone into numpy.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.utils.torch_utils import FLOAT_MIN

OBS_KEY = "observations"
MASK_KEY = "action_mask"


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """PPO's MLP actor-critic over ``observations``, its logits masked by ``action_mask``."""

    def __init__(self, *, observation_space: gymnasium.Space | None = None, **kwargs: Any):
        if not isinstance(observation_space, gymnasium.spaces.Dict) or set(
            observation_space.spaces
        ) != {OBS_KEY, MASK_KEY}:
            raise ValueError(
                f"MaskedPPOTorchRLModule needs a Dict observation space with keys "
                f"{OBS_KEY!r} and {MASK_KEY!r}, got {observation_space}"
            )
        self.observation_space_with_mask = observation_space
        super().__init__(observation_space=observation_space[OBS_KEY], **kwargs)

    def setup(self) -> None:
        """Build the networks for the vector alone, then expose the dict space."""
        super().setup()
        self.observation_space = self.observation_space_with_mask

    @staticmethod
    def _split(batch: dict[str, Any]) -> tuple[torch.Tensor, dict[str, Any]]:
        obs = batch[Columns.OBS]
        if not isinstance(obs, dict):
            raise ValueError(f"expected the observation dict {{{OBS_KEY!r}, {MASK_KEY!r}}}")
        batch = dict(batch)
        batch[Columns.OBS] = obs[OBS_KEY]
        return obs[MASK_KEY], batch

    @staticmethod
    def _mask(outs: dict[str, Any], mask: torch.Tensor) -> dict[str, Any]:
        outs[Columns.ACTION_DIST_INPUTS] = outs[Columns.ACTION_DIST_INPUTS] + torch.clamp(
            torch.log(mask), min=FLOAT_MIN
        )
        return outs

    def _forward_inference(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, batch = self._split(batch)
        return self._mask(super()._forward_inference(batch, **kwargs), mask)

    def _forward_exploration(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, batch = self._split(batch)
        return self._mask(super()._forward_exploration(batch, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, batch = self._split(batch)
        return self._mask(super()._forward_train(batch, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any | None = None) -> torch.Tensor:
        """The critic's values (of ``observations``; the mask plays no part)."""
        if isinstance(batch[Columns.OBS], dict):
            _, batch = self._split(batch)
        return super().compute_values(batch, embeddings)
