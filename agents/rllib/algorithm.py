"""The RLlib ``PPOConfig`` of an :class:`~agents.rllib.config.RLlibConfig` (new API stack)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agents.rllib.config import RLlibConfig
from agents.rllib.env import (
    MAIN,
    LeagueWeights,
    env_class,
    module_for_agent,
    snapshot_id,
)


@dataclass(frozen=True)
class TorchThreads:
    """An RLlib callback (``on_environment_created``) that sets the env runner's torch
    threads."""

    threads: int

    def __call__(self, **kwargs: Any) -> None:
        """Set the threads of the process it runs in."""
        import torch

        torch.set_num_threads(self.threads)


def league_weights(config: RLlibConfig, ready: int = 0) -> LeagueWeights:
    """The env's league for a config, with ``ready`` snapshot slots filled."""
    league = config.league
    return LeagueWeights(
        league.self_play, league.snapshots, tuple(league.bots.items()), min(ready, league.pool_size)
    )


def module_ids(config: RLlibConfig) -> list[str]:
    """``main`` and the snapshot slots."""
    return [MAIN, *(snapshot_id(k) for k in range(config.league.pool_size))]


def env_config(config: RLlibConfig, ready: int = 0) -> dict[str, Any]:
    """What every env runner's tables are built from."""
    return {
        "game": config.game,
        "num_players": config.num_players,
        "reward": config.reward,
        "seed": config.seed,
        "pool_size": config.league.pool_size,
        "league": league_weights(config, ready).to_mapping(),
    }


def algorithm_config(config: RLlibConfig) -> Any:
    """RLlib's ``PPOConfig``: every seat an agent, ``main`` trained, snapshots frozen."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from agents.rllib.module import MaskedPPOTorchRLModule

    cluster, ppo = config.cluster, config.ppo
    model = DefaultModelConfig(
        fcnet_hiddens=list(config.model.hidden),
        fcnet_activation=config.model.activation,
        head_fcnet_hiddens=[],
        vf_share_layers=False,
    )
    spec = RLModuleSpec(module_class=MaskedPPOTorchRLModule, model_config=model)
    ids = module_ids(config)
    learners = max(1, cluster.num_learners)
    return (
        PPOConfig()
        .environment(
            env_class(config.game),
            env_config=env_config(config),
            # its random-action probe ignores the action mask
            disable_env_checking=True,
        )
        .framework("torch")
        .env_runners(
            num_env_runners=cluster.num_env_runners,
            num_envs_per_env_runner=cluster.envs_per_env_runner,
            num_cpus_per_env_runner=cluster.num_cpus_per_env_runner,
            rollout_fragment_length="auto",
            batch_mode="truncate_episodes",
        )
        .learners(
            num_learners=cluster.num_learners,
            num_gpus_per_learner=cluster.num_gpus_per_learner,
            num_cpus_per_learner=cluster.num_cpus_per_learner,
        )
        .multi_agent(
            policies=set(ids),
            policy_mapping_fn=module_for_agent,
            policies_to_train=[MAIN],
        )
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=dict.fromkeys(ids, spec)))
        .training(
            lr=ppo.learning_rate,
            train_batch_size_per_learner=max(1, ppo.train_batch_size // learners),
            minibatch_size=ppo.minibatch_size,
            num_epochs=ppo.num_epochs,
            gamma=ppo.gamma,
            lambda_=ppo.lambda_,
            clip_param=ppo.clip_param,
            entropy_coeff=ppo.entropy_coeff,
            vf_loss_coeff=ppo.vf_loss_coeff,
            vf_clip_param=ppo.vf_clip_param,
            grad_clip=ppo.grad_clip,
            use_kl_loss=ppo.use_kl_loss,
        )
        .callbacks(on_environment_created=TorchThreads(cluster.env_runner_threads))
        .debugging(seed=config.seed, log_level="ERROR")
    )
