"""RLlib training configuration: pydantic models read from YAML (:mod:`airships_env.configfile`).

``game`` (none: Airships) is any registered game: Airships' league bots are those its native
core plays (random, greedy, heuristic); another game's are any agent specs of that game, and
the evaluation opponents are agents of the game too (an error names the file, the key and the
game's agents: :func:`~agents.training.config.check_agents`).

The file is recognised by its ``backend: rllib`` key (``airships train --config FILE`` picks the
RLlib trainer for it, as ``--backend rllib`` does). Every key is checked before Ray starts; a bad
file fails with one :class:`ConfigError` naming the file, the key path, what was expected and
what was found::

    configs/rllib_2p.yaml: cluster.num_env_runners: expected an integer >= 0, found -1
    configs/rllib_2p.yaml: ppo.minibatch_size: expected at most ppo.train_batch_size (4096), ...

Where the work runs (the ``cluster`` section): ``num_env_runners`` sampling actors, each
``num_cpus_per_env_runner`` CPUs and ``envs_per_env_runner`` game tables (one batched forward
for all of them); ``num_learners`` learner actors (0: learn in the driver process), each with
``num_gpus_per_learner`` GPUs (0: CPU); ``env_runner_threads`` and ``learner_threads`` are their
torch threads; ``address`` joins a running cluster (null: the
``RAY_ADDRESS`` variable, else a local cluster of ``local_cpus`` CPUs is started and stopped).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field

from agents.games import DEFAULT_GAME
from agents.training.config import AgentSpec, agent_spec, check_agents, check_game
from airships_env.configfile import (
    ConfigError,
    Count,
    Number,
    RunFile,
    Strict,
    config_backend,
    fingerprint,
    read_mapping,
    validate_run_file,
)

__all__ = [
    "CheckpointConfig",
    "ClusterConfig",
    "ConfigError",
    "EvaluationConfig",
    "LeagueConfig",
    "ModelConfig",
    "PPOConfig",
    "RLlibConfig",
    "config_from_dict",
    "is_rllib_config",
    "load_config",
]

EXAMPLE = "configs/rllib_2p.yaml"
NATIVE_BOTS = ("random", "greedy", "heuristic")
#: Keys that may differ between the config a run was started with and the one it resumes with.
RESUMABLE_CHANGES = frozenset({"total_timesteps", "cluster"})

Positive = Annotated[Count, Field(ge=1)]
NonNegative = Annotated[Count, Field(ge=0)]
Fraction = Annotated[Number, Field(ge=0.0, le=1.0)]
Rate = Annotated[Number, Field(gt=0.0, le=1.0)]
Weight = Annotated[Number, Field(ge=0.0)]


def _bot_specs(value: dict[str, float]) -> dict[str, float]:
    return {agent_spec(spec): weight for spec, weight in value.items()}


class RunConfig(Strict):
    """Where a run writes: ``<output_dir>/<name>/``."""

    name: Annotated[str, Field(pattern=r"^[A-Za-z0-9_.-]+$")] = "rllib"
    output_dir: Annotated[str, Field(min_length=1)] = "runs"


class ClusterConfig(Strict):
    """Where the work runs (see the module docstring); may change on resume."""

    address: Annotated[str, Field(min_length=1)] | None = None
    local_cpus: Positive | None = None
    num_env_runners: NonNegative = 2
    envs_per_env_runner: Positive = 16
    num_cpus_per_env_runner: Annotated[Number, Field(gt=0.0)] = 1.0
    num_learners: NonNegative = 0
    num_gpus_per_learner: Annotated[Number, Field(ge=0.0)] = 0.0
    num_cpus_per_learner: Annotated[Number, Field(gt=0.0)] = 1.0
    # torch threads: each env runner's forward passes are tiny (1 is fastest, and more threads
    # thrash on a busy machine); the learners' (null: torch's default, every core)
    env_runner_threads: Positive = 1
    learner_threads: Positive | None = None


class ModelConfig(Strict):
    """The actor and critic MLPs (separate networks of the same widths)."""

    hidden: Annotated[list[Positive], Field(min_length=1)] = [256, 256]
    activation: Literal["tanh", "relu"] = "tanh"


class PPOConfig(Strict):
    """RLlib PPO hyperparameters (names as in ``PPOConfig.training``)."""

    learning_rate: Rate = 3e-4
    train_batch_size: Positive = 8192  # env steps per iteration, all runners together
    minibatch_size: Positive = 512
    num_epochs: Positive = 4
    gamma: Fraction = 0.995
    lambda_: Fraction = 0.95
    clip_param: Rate = 0.2
    entropy_coeff: Weight = 0.01
    vf_loss_coeff: Weight = 0.5
    vf_clip_param: Annotated[Number, Field(gt=0.0)] = 10.0
    grad_clip: Annotated[Number, Field(gt=0.0)] = 0.5
    use_kl_loss: bool = False


class LeagueConfig(Strict):
    """Who sits in the other seats, drawn per episode per seat: ``main`` again (self-play),
    a frozen past copy of it, or a bot: for Airships one its core plays (random, greedy,
    heuristic), for another game any agent spec of that game, played in Python."""

    self_play: Weight = 0.3
    snapshots: Weight = 0.3  # weight of the snapshot pool (once one is filled)
    bots: Annotated[dict[str, Weight], AfterValidator(_bot_specs)] = {
        "random": 0.1,
        "greedy": 0.3,
        "heuristic": 0.3,
    }
    pool_size: Positive = 5  # snapshot slots (frozen modules snap0..)
    snapshot_every_iterations: Positive = 10


class EvaluationConfig(Strict):
    """Arena games of the exported policy against agents, during and after training."""

    every_iterations: Positive = 10
    games: Positive = 100  # per opponent (whole seat rotations)
    opponents: Annotated[list[AgentSpec], Field(min_length=1)] = [
        "random",
        "greedy",
    ]
    paired: bool = True
    workers: Positive | None = 1  # arena processes (null: all cores)
    at_end: bool = True


class CheckpointConfig(Strict):
    """RLlib checkpoints (algorithm, modules, optimizer, league): every so many iterations."""

    every_iterations: Positive = 10
    keep_last: Positive = 3


class RLlibConfig(RunFile):
    """One RLlib training run, as read from a YAML file."""

    backend: Literal["rllib"] = "rllib"
    game: Annotated[str, Field(min_length=1)] = DEFAULT_GAME  # none: Airships
    num_players: Annotated[Count, Field(ge=1)] = 2  # one of the game's player counts
    seed: NonNegative = 0
    total_timesteps: Positive = 1_000_000  # env steps sampled (every seat's decisions)
    reward: Literal["win", "score"] = "win"
    tensorboard: bool = True
    run: RunConfig = RunConfig()
    cluster: ClusterConfig = ClusterConfig()
    model: ModelConfig = ModelConfig()
    ppo: PPOConfig = PPOConfig()
    league: LeagueConfig = LeagueConfig()
    evaluation: EvaluationConfig = EvaluationConfig()
    checkpoint: CheckpointConfig = CheckpointConfig()

    def run_dir(self) -> Path:
        """``<run.output_dir>/<run.name>``."""
        return Path(self.run.output_dir) / self.run.name

    def replace(self, **changes: Any) -> RLlibConfig:
        """A validated copy; a section given as a dict changes only the keys it names."""
        data = self.to_dict()
        for key, value in changes.items():
            if isinstance(value, dict) and isinstance(data.get(key), dict):
                data[key] = {**data[key], **value}
            else:
                data[key] = value
        return config_from_dict(data, self.source)

    def fingerprint(self) -> str:
        """Hash of every key that must not change when a run is resumed."""
        data = {k: v for k, v in self.to_dict().items() if k not in RESUMABLE_CHANGES}
        if data.get("game") == DEFAULT_GAME:  # so runs from before the key resume
            del data["game"]
        return fingerprint(data)


def _cross_check(config: RLlibConfig, source: str) -> None:
    check_game(config.game, {"num_players": config.num_players}, source)
    ppo, league = config.ppo, config.league
    if config.game == DEFAULT_GAME:
        for name in league.bots:
            if name not in NATIVE_BOTS:
                raise ConfigError(
                    f"{source}: league.bots: expected bots the core plays "
                    f"({', '.join(NATIVE_BOTS)}), found {name!r}"
                )
    check_agents(
        config.game,
        [
            *(("league.bots", spec) for spec in league.bots),
            *(("evaluation.opponents", spec) for spec in config.evaluation.opponents),
        ],
        source,
    )
    if ppo.minibatch_size > ppo.train_batch_size:
        raise ConfigError(
            f"{source}: ppo.minibatch_size: expected at most ppo.train_batch_size "
            f"({ppo.train_batch_size}), found {ppo.minibatch_size}"
        )
    if league.self_play + sum(league.bots.values()) <= 0:
        raise ConfigError(
            f"{source}: league: expected a positive weight for self_play or a bot (the "
            f"snapshot pool is empty until the first snapshot), found self_play "
            f"{league.self_play} and bots {league.bots!r}"
        )


def config_from_dict(data: Any, source: str = "<dict>") -> RLlibConfig:
    """Validate a parsed YAML document; raise :class:`ConfigError` on the first problem."""
    config = validate_run_file(data, RLlibConfig, source)
    _cross_check(config, source)
    return config


def load_config(path: str | os.PathLike[str]) -> RLlibConfig:
    """Read and validate an RLlib YAML config (an empty file is an error)."""
    return config_from_dict(read_mapping(path, EXAMPLE), str(path))


def is_rllib_config(path: str | os.PathLike[str]) -> bool:
    """Whether the YAML file says ``backend: rllib`` (False for anything unreadable)."""
    return bool(config_backend(path) == "rllib")
