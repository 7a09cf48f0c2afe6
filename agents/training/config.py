"""Training configuration: pydantic models read from YAML (:mod:`airships_env.configfile`).

Every key is checked before training starts. A bad file fails with one :class:`ConfigError`
naming the file, the key path, what was expected and what was found, for example::

    configs/ppo_2p.yaml: ppo.n_steps: expected an integer, found 'abc'
    configs/ppo_2p.yaml: ppo.n_step: unknown key (known: learning_rate, lr_schedule, n_steps, ...)

An empty file is an error (not a default run). Keys left out take the defaults below; counts
accept ``1e6`` and ``1_000_000``. ``n_envs: null`` means 64 games for the native vector
environment and one environment per core otherwise; ``learn_threads: null`` means every core but
one (at least one: torch's threads spin against anything else on a full machine);
``device: auto`` takes a GPU (CUDA, then Apple's MPS) when torch sees one, else the CPU.
``evaluation.players: null`` means ``num_players``. Relative paths (``run.output_dir``,
``init_from``) are resolved against the current directory.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field

from agents.games import DEFAULT_GAME
from airships_env.configfile import (
    ConfigError,
    Count,
    Number,
    RunFile,
    RunName,
    Strict,
    dump_run_file,
    fingerprint,
    read_mapping,
    validate_run_file,
)

__all__ = [
    "AgentSpec",
    "CheckpointConfig",
    "ConfigError",
    "EvaluationConfig",
    "LeagueConfig",
    "PPOConfig",
    "PolicyConfig",
    "PretrainConfig",
    "RunConfig",
    "TrainConfig",
    "agent_spec",
    "check_agents",
    "check_batch",
    "config_differences",
    "config_from_dict",
    "dump_config",
    "load_config",
    "resolve_device",
]

Activation = Literal["tanh", "relu", "elu", "leaky_relu"]
Reward = Literal["win", "score"]
#: native: the game's batched VecEnv (N games in the core, one process: Airships, Clockwork
#: City, Australia, Nippon); subproc/dummy: Python envs.
VecEnvKind = Literal["native", "subproc", "dummy"]
EnvBackend = Literal["native", "python"]
Device = Literal["auto", "cpu", "cuda", "mps"]
LRSchedule = Literal["constant", "linear"]
NATIVE_DEFAULT_ENVS = 64
EXAMPLE = "configs/ppo_2p.yaml"

#: Keys that may differ between the config a run was started with and the one it resumes with.
RESUMABLE_CHANGES = frozenset({"total_timesteps"})

Positive = Annotated[Count, Field(ge=1)]
NonNegative = Annotated[Count, Field(ge=0)]
Fraction = Annotated[Number, Field(ge=0.0, le=1.0)]
Rate = Annotated[Number, Field(gt=0.0, le=1.0)]
Weight = Annotated[Number, Field(ge=0.0)]


def agent_spec(value: str) -> str:
    """An agent spec of agents.registry (``name[:key=value,...]``) naming a known agent: one of
    Airships' names here; another game's names are checked against that game's agents once the
    config's game is known (:func:`check_game_agents`)."""
    from agents.registry import AGENTS, parse_spec

    try:
        name, _ = parse_spec(value)
    except ValueError as exc:
        raise ValueError(f"an agent spec ({exc})") from None
    if name not in AGENTS and "." not in name and name not in _other_games_agents():
        raise ValueError(f"a known agent ({', '.join(AGENTS)}) or a dotted class path")
    return value.strip()


def _other_games_agents() -> set[str]:
    """The agent names of every registered game (checked per game by the cross-check)."""
    from agents.registry import agents_for
    from airships_env.registry import games

    return {name for game in games() if game != DEFAULT_GAME for name in agents_for(game)}


def _distinct(values: list[str]) -> list[str]:
    if len(set(values)) != len(values):
        raise ValueError("distinct agent specs")
    return values


def _bot_weights(value: dict[str, float]) -> dict[str, float]:
    return {agent_spec(spec): weight for spec, weight in value.items()}


def _text(value: str) -> str:
    if not value.strip():
        raise ValueError("a non-empty string")
    return value


#: A field holding an agent spec of some registered game (the config's game checked later).
AgentSpec = Annotated[str, AfterValidator(agent_spec)]
Text = Annotated[str, AfterValidator(_text)]


class RunConfig(Strict):
    """Where a run writes: ``<output_dir>/<name>/``."""

    name: RunName = "ppo"
    output_dir: Text = "runs"


class PolicyConfig(Strict):
    """The actor and critic MLPs (separate networks of the same widths)."""

    net_arch: Annotated[list[Positive], Field(min_length=1)] = [256, 256]
    activation: Activation = "tanh"
    # A bot's choice as an input (agents/hint.py): the observation ends with the one-hot of what
    # this bot of the game chooses, and the actor's logits add ``hint_weight`` (learned from
    # there) times it, so the policy starts as the bot. null: no hint.
    hint: Literal["greedy", "heuristic"] | None = None
    hint_weight: Annotated[Number, Field(ge=0.0)] = 10.0


class PPOConfig(Strict):
    """MaskablePPO hyperparameters (see stable-baselines3's PPO for their meaning)."""

    learning_rate: Rate = 3e-4
    lr_schedule: LRSchedule = "constant"
    n_steps: Positive = 1024  # steps per env per rollout
    batch_size: Annotated[Count, Field(ge=2)] = 512
    n_epochs: Positive = 4
    gamma: Fraction = 0.995
    gae_lambda: Fraction = 0.95
    clip_range: Rate = 0.2
    ent_coef: Weight = 0.01
    vf_coef: Weight = 0.5
    max_grad_norm: Annotated[Number, Field(gt=0.0)] = 0.5
    target_kl: Annotated[Number, Field(gt=0.0)] | None = None


class LeagueConfig(Strict):
    """Who sits in the other seats: bots and frozen past learners, drawn per episode per seat."""

    bots: Annotated[dict[str, Weight], AfterValidator(_bot_weights)] = {
        "random": 0.1,
        "greedy": 0.3,
        "heuristic": 0.3,
    }
    self_play: Weight = 0.3  # weight of the snapshot pool
    pool_size: Positive = 10  # frozen snapshots kept
    snapshot_every_steps: Positive = 100_000
    refresh_every_steps: Positive = 100_000
    opponent_deterministic: bool = False


class EvaluationConfig(Strict):
    """Periodic arena evaluation of the learner during training."""

    every_steps: Positive = 100_000
    games: Positive = 200  # per opponent
    opponents: Annotated[list[AgentSpec], Field(min_length=1), AfterValidator(_distinct)] = [
        "greedy",
        "heuristic",
    ]
    players: Annotated[Count, Field(ge=1)] | None = None  # one of the game's player counts
    best_by: AgentSpec = "heuristic"
    paired: bool = True
    workers: Positive | None = None  # arena processes; null = all cores
    deterministic: bool = True
    at_start: bool = False  # also evaluate at step 0


class CheckpointConfig(Strict):
    """Resumable checkpoints (model + optimizer + league + state)."""

    every_steps: Positive = 100_000
    keep_last: Positive = 3


class PretrainConfig(Strict):
    """Behaviour cloning before PPO (see :mod:`agents.training.imitation`), for every game; off
    while ``teacher`` is null."""

    teacher: AgentSpec | None = None  # an agent of the config's game, in every seat
    games: Positive = 2000
    epochs: Positive = 10
    batch_size: Positive = 512
    learning_rate: Rate = 1e-3
    value_coef: Weight = 0.5
    validation: Annotated[Number, Field(ge=0.0, le=0.5)] = 0.05
    workers: Positive | None = None  # game processes; null = all cores
    # DAgger: rounds in which the clone plays one seat against the teacher, which labels its
    # decisions; the rows join the training rows and the clone is trained again on all of them
    dagger_rounds: NonNegative = 0
    dagger_games: Positive = 500  # games a round
    dagger_epochs: Positive | None = None  # epochs a round over all rows; null = epochs


class TrainConfig(RunFile):
    """One training run, as read from a YAML file."""

    game: Text = DEFAULT_GAME  # the game trained (a config without it: Airships)
    num_players: Annotated[Count, Field(ge=1)] = 2  # one of the game's player counts
    seed: NonNegative = 0
    total_timesteps: Positive = 1_000_000
    n_envs: Positive | None = None
    vec_env: VecEnvKind = "native"
    # subproc / dummy: the engine behind each Python environment (python = the reference engine
    # and the Python bots, as training ran before the native core)
    env_backend: EnvBackend = "native"
    device: Device = "auto"
    reward: Reward = "win"
    max_turns: Positive | None = 300  # truncate a training game after this many turns
    log_interval: Positive = 1  # rollouts between log dumps
    learn_threads: Positive | None = None  # torch threads; null = every core but one
    tensorboard: bool = True
    init_from: Text | None = None  # model zip whose weights start a new run
    run: RunConfig = RunConfig()
    policy: PolicyConfig = PolicyConfig()
    ppo: PPOConfig = PPOConfig()
    league: LeagueConfig = LeagueConfig()
    evaluation: EvaluationConfig = EvaluationConfig()
    checkpoint: CheckpointConfig = CheckpointConfig()
    pretrain: PretrainConfig = PretrainConfig()

    def resolved_n_envs(self) -> int:
        """``n_envs``, or its default: 64 native games, else one environment per core."""
        if self.n_envs is not None:
            return self.n_envs
        if self.vec_env == "native":
            return NATIVE_DEFAULT_ENVS
        return max(1, os.cpu_count() or 1)

    def resolved_learn_threads(self) -> int:
        """``learn_threads``, or every core but one (at least one). Measured on 2 busy cores:
        MaskablePPO ([32, 32] net) over the native games learned at 194 steps/s with 2 threads and
        6,969 with one; the rollouts always use one (:class:`TorchThreadsCallback`)."""
        return self.learn_threads or max(1, (os.cpu_count() or 1) - 1)

    def eval_players(self) -> int:
        """Seats in evaluation games (``evaluation.players`` or ``num_players``)."""
        return self.evaluation.players if self.evaluation.players is not None else self.num_players

    def run_dir(self) -> Path:
        """``<run.output_dir>/<run.name>`` (relative to the current directory if relative)."""
        return Path(self.run.output_dir) / self.run.name

    def replace(self, **changes: Any) -> TrainConfig:
        """A validated copy with keys changed; a section given as a dict changes only the keys
        it names (``config.replace(ppo={"n_epochs": 2})``), a model replaces the section."""
        data = self.to_dict()
        for key, value in changes.items():
            if isinstance(value, Strict):
                data[key] = value.model_dump()
            elif isinstance(value, Mapping) and isinstance(data.get(key), dict):
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


def resolve_device(device: str) -> str:
    """The torch device of a config's ``device``: ``auto`` is CUDA, then MPS, then the CPU."""
    if device != "auto":
        return device
    import torch

    if torch.cuda.is_available():
        return "cuda"
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        return "mps"
    return "cpu"


#: The games with a native vector environment (``vec_env: native``); every registered game
#: trains in Python environments (``vec_env: subproc`` or ``dummy``), with imitation
#: (``pretrain``), ``--profile`` and the RLlib backend.
NATIVE_VEC_ENV_GAMES = ("airships", "australia", "clockwork", "nippon")


def check_game(game: str, counts: dict[str, int | None], source: str) -> None:
    """The config's game is registered, and every player count in ``counts`` (key path ->
    count) is one of the game's; errors name the file and the key."""
    from agents.games import counts_text
    from airships_env.registry import games, get_game

    if game not in games():
        raise ConfigError(
            f"{source}: game: expected one of the registered games ({', '.join(games())}), "
            f"found {game!r}"
        )
    player_counts = get_game(game).player_counts
    for key, players in counts.items():
        if players is not None and players not in player_counts:
            raise ConfigError(
                f"{source}: {key}: expected {counts_text(player_counts)} (the player counts of "
                f"{game}), found {players}"
            )


def _cross_check(config: TrainConfig, source: str) -> None:
    """Checks that involve several keys."""
    check_game(
        config.game,
        {"num_players": config.num_players, "evaluation.players": config.evaluation.players},
        source,
    )
    league, evaluation = config.league, config.evaluation
    check_game_agents(config, source)
    if sum(league.bots.values()) <= 0:
        # Before the first snapshot the pool is empty: somebody must fill the other seats.
        raise ConfigError(
            f"{source}: league.bots: expected at least one bot with a positive weight "
            f"(the snapshot pool is empty until the first snapshot), found {league.bots!r}"
        )
    if evaluation.best_by not in evaluation.opponents:
        raise ConfigError(
            f"{source}: evaluation.best_by: expected one of evaluation.opponents "
            f"({', '.join(evaluation.opponents)}), found {evaluation.best_by!r}"
        )
    if evaluation.players is not None and evaluation.players != config.num_players:
        raise ConfigError(
            f"{source}: evaluation.players: expected null or num_players "
            f"({config.num_players}): a policy plays the table size it was trained for, "
            f"found {evaluation.players!r}"
        )
    if config.init_from is not None:
        if config.pretrain.teacher is not None:
            raise ConfigError(
                f"{source}: init_from: expected null when pretrain.teacher is set (a run starts "
                f"from a model or from a clone of a teacher, not both), found {config.init_from!r}"
            )
        if not Path(config.init_from).is_file():
            raise ConfigError(
                f"{source}: init_from: expected the path of a model zip, found "
                f"{config.init_from!r} (no such file, relative to {os.getcwd()})"
            )
    if config.vec_env == "native" and config.env_backend != "native":
        raise ConfigError(
            f"{source}: env_backend: expected 'native' with vec_env: native (the games are in the "
            f"core), found {config.env_backend!r}"
        )
    if config.vec_env == "native":
        for spec in league.bots:
            problem = native_league_problem(spec)
            if problem:
                raise ConfigError(f"{source}: league.bots: {spec!r}: {problem}")
    if config.policy.hint is not None:
        _check_hint(config, source)
    if config.n_envs is not None:
        check_batch(config, config.n_envs)


def _check_hint(config: TrainConfig, source: str) -> None:
    """A hinted policy trains in the native core, with bots (not snapshots) in the other seats,
    on a game whose bots decide from the decision alone."""
    from agents.hint import check_hint, native_hints

    try:
        check_hint(config.policy.hint, config.game)
        native_hints(config.game)
    except ValueError as exc:
        raise ConfigError(f"{source}: policy.{exc}") from None
    if config.vec_env != "native":
        raise ConfigError(
            f"{source}: vec_env: expected 'native' with policy.hint (the hints come from the "
            f"core's bots), found {config.vec_env!r}"
        )
    if config.league.self_play > 0:
        raise ConfigError(
            f"{source}: league.self_play: expected 0 with policy.hint (a snapshot in another "
            f"seat would need its own hints), found {config.league.self_play}"
        )


def check_game_agents(config: TrainConfig, source: str) -> None:
    """The agents a config names (league bots, evaluation opponents, the teacher) are the
    game's, and a game without a native core trains in Python environments; errors name the
    file, the key and the game's agents."""
    game = config.game
    if config.vec_env == "native" and game not in NATIVE_VEC_ENV_GAMES:
        raise ConfigError(
            f"{source}: vec_env: expected subproc or dummy for {game} (the native vector "
            f"environment is {', '.join(NATIVE_VEC_ENV_GAMES)}'s), found 'native'"
        )
    check_agents(
        game,
        [
            *(("league.bots", spec) for spec in config.league.bots),
            *(("evaluation.opponents", spec) for spec in config.evaluation.opponents),
            *((("pretrain.teacher", config.pretrain.teacher),) if config.pretrain.teacher else ()),
        ],
        source,
    )


def check_agents(game: str, keyed: Iterable[tuple[str, str]], source: str) -> None:
    """Every ``(key path, agent spec)`` names an agent of ``game`` (or a dotted class path);
    the error names the file, the key and the game's agents (the training configs of both
    backends check their agents here)."""
    from agents.registry import agents_for, parse_spec

    known = agents_for(game)
    for key, spec in keyed:
        name, _ = parse_spec(spec, game)
        if name not in known and "." not in name:
            raise ConfigError(
                f"{source}: {key}: expected a known agent of {game} ({', '.join(known)}) or a "
                f"dotted class path, found {spec!r}"
            )


def native_league_problem(spec: str) -> str | None:
    """Why a league bot cannot sit at a native training table (None when it can): the core plays
    random, greedy and heuristic itself, and ``ppo`` runs as a batched external policy."""
    from agents.registry import parse_spec
    from airships_env.native.batch import BOTS

    name, _ = parse_spec(spec)
    if name in BOTS or name == "ppo":
        return None
    return (
        f"the native vector environment plays {', '.join(BOTS)} in the core and ppo as a "
        f"batched policy; use vec_env: subproc for {name}"
    )


def check_batch(config: TrainConfig, n_envs: int) -> None:
    """The PPO batch must fit in one rollout (``n_steps * n_envs`` samples)."""
    rollout = config.ppo.n_steps * n_envs
    if config.ppo.batch_size > rollout:
        raise ConfigError(
            f"{config.source}: ppo.batch_size: expected at most ppo.n_steps * n_envs "
            f"= {config.ppo.n_steps} * {n_envs} = {rollout}, found {config.ppo.batch_size}"
        )


def config_from_dict(data: Any, source: str = "<dict>") -> TrainConfig:
    """Validate a parsed YAML document; raise :class:`ConfigError` on the first problem."""
    config = validate_run_file(data, TrainConfig, source)
    _cross_check(config, source)
    return config


def load_config(path: str | os.PathLike[str]) -> TrainConfig:
    """Read and validate a YAML config file (an empty file is an error)."""
    return config_from_dict(read_mapping(path, EXAMPLE), str(path))


def config_differences(
    old: Mapping[str, Any], new: Mapping[str, Any], prefix: str = ""
) -> list[str]:
    """Key paths whose values differ between two config dicts, ``key: old -> new``."""
    lines: list[str] = []
    if not prefix:  # a run from before there were several games trained Airships
        old, new = {"game": DEFAULT_GAME, **old}, {"game": DEFAULT_GAME, **new}
    for key in sorted(set(old) | set(new)):
        path = f"{prefix}{key}"
        a, b = old.get(key, "<missing>"), new.get(key, "<missing>")
        if isinstance(a, Mapping) and isinstance(b, Mapping) and key != "bots":
            lines.extend(config_differences(a, b, path + "."))
        elif a != b:
            lines.append(f"{path}: {a!r} -> {b!r}")
    return lines


def dump_config(config: TrainConfig, path: str | os.PathLike[str]) -> None:
    """Write the full config (defaults filled in) as YAML, through a temporary file."""
    dump_run_file(config, path)
