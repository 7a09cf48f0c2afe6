"""Training a hinted policy (:mod:`agents.hint`): its stable-baselines3 policy and its VecEnv.

:class:`HintedPolicy` is sb3-contrib's masked MLP actor-critic whose observation ends with the
one-hot of the hint bot's choice: the actor's logits get ``beta`` times that one-hot
(``beta`` is learned, from ``hint_weight``), and both networks read the hint as an input.
:class:`HintVecEnv` appends that one-hot to the observations of a native training VecEnv (the
league's, in the core), made by the core's twin of the bot (the Python bot's decisions) with a
generator of its own, seeded by ``seed()`` from the games' seed: a replayed segment of a resumed
run gets the same hints.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.vec_env import VecEnv, VecEnvWrapper

from agents.hint import check_hint, hint_bounds, native_hints, one_hot
from airships_env.registry import get_game

#: The tag of the hints' generator stream (apart from the games' own streams).
HINT_STREAM = 0x41E7


class HintedPolicy(MaskableActorCriticPolicy):
    """A masked actor-critic whose logits add ``beta`` times the hint's one-hot (the last
    ``action_space.n`` entries of the observation). ``hint`` names the bot (kept in the saved
    model's ``policy_kwargs``, which :class:`agents.policy_agent.ActorNet` reads)."""

    def __init__(
        self, *args: Any, hint: str = "heuristic", hint_weight: float = 10.0, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.hint = str(hint)
        self.hint_weight = float(hint_weight)
        self.beta = torch.nn.Parameter(torch.tensor(self.hint_weight))
        self._hints: torch.Tensor | None = None
        # The optimizer built by the base class does not hold beta yet.
        make: Any = self.optimizer_class
        self.optimizer = make(
            self.parameters(), lr=self.optimizer.param_groups[0]["lr"], **self.optimizer_kwargs
        )

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        data.update(hint=self.hint, hint_weight=self.hint_weight)
        return data

    def _keep_hints(self, obs: Any) -> None:
        """The hint columns of this forward pass's observations, for its logits."""
        self._hints = obs[..., -int(self.action_space.n) :].float()  # type: ignore[attr-defined]

    def extract_features(self, obs: Any, features_extractor: Any = None) -> Any:
        """The features (``forward`` and ``evaluate_actions`` come here first)."""
        self._keep_hints(obs)
        if features_extractor is None:
            return super().extract_features(obs)
        return super().extract_features(obs, features_extractor)

    def get_distribution(self, obs: Any, action_masks: Any = None) -> Any:
        """The action distribution (the base class reaches its features past
        ``extract_features``)."""
        self._keep_hints(obs)
        return super().get_distribution(obs, action_masks)

    def _get_action_dist_from_latent(self, latent_pi: torch.Tensor) -> Any:
        hints, self._hints = self._hints, None  # each pass brings its own: never a stale one
        assert hints is not None, "every pass keeps its hints before it makes a distribution"
        logits = self.action_net(latent_pi) + self.beta * hints
        return self.action_dist.proba_distribution(action_logits=logits)


class HintVecEnv(VecEnvWrapper):
    """A native training VecEnv (its games in ``venv.batch``) whose observations end with the
    one-hot of ``bot``'s choice for each game's waiting decision (zeros for a terminal
    observation: nothing is decided there)."""

    def __init__(self, venv: VecEnv, game: str, bot: str):
        self.bot = check_hint(bot, game)
        self.table = native_hints(game)
        self.num_actions = int(get_game(game).num_actions)
        inner = venv.observation_space
        assert isinstance(inner, spaces.Box)
        low, high = hint_bounds(inner.low, inner.high, self.num_actions)
        super().__init__(venv, observation_space=spaces.Box(low, high, dtype=np.float32))
        self.rng = np.random.default_rng(np.random.SeedSequence([0, HINT_STREAM]))
        self._games = self._batch()

    def _batch(self) -> Any:
        env: Any = self.venv
        while not hasattr(env, "batch"):
            env = env.venv
        return env

    def seed(self, seed: int | None = None) -> Any:
        """Seed the games and, from the same seed, the hints."""
        self.rng = np.random.default_rng(np.random.SeedSequence([int(seed or 0), HINT_STREAM]))
        return self.venv.seed(seed)

    def hints(self) -> np.ndarray:
        """The bot's choice in every game (each waits on its learner)."""
        batch = self._games.batch
        return np.array(
            [
                self.table.decide(
                    self.table.from_state(batch.game_state(i)), self.rng, self.bot, None, None
                )[0]
                for i in range(self.num_envs)
            ],
            dtype=np.int64,
        )

    def _with_hints(self, observations: Any) -> np.ndarray:
        return np.concatenate([observations, one_hot(self.hints(), self.num_actions)], axis=1)

    def reset(self) -> np.ndarray:
        return self._with_hints(self.venv.reset())

    def step_wait(self) -> Any:
        observations, rewards, dones, infos = self.venv.step_wait()
        for info in infos:
            final = info.get("terminal_observation")
            if final is not None:
                info["terminal_observation"] = np.concatenate(
                    [final, np.zeros(self.num_actions, np.float32)]
                )
        return self._with_hints(observations), rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions in every game (sb3-contrib asks for them)."""
        return self.venv.action_masks()  # type: ignore[attr-defined]
