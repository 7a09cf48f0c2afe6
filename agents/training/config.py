"""Training configuration: a tree of dataclasses read from YAML and validated strictly.

Every key is checked before training starts. A bad file fails with one :class:`ConfigError`
naming the file, the key path and what was expected, for example::

    configs/ppo_2p.yaml: ppo.n_steps: expected a positive integer, got 'abc'
    configs/ppo_2p.yaml: ppo.n_step: unknown key (known: learning_rate, lr_schedule, n_steps, ...)

Keys left out take the defaults below. ``n_envs: null`` means one environment per core
(``os.cpu_count()``); ``evaluation.players: null`` means ``num_players``. Relative paths
(``run.output_dir``) are resolved against the current directory by the caller.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import os
import re
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ACTIVATIONS = ("tanh", "relu", "elu", "leaky_relu")
REWARDS = ("win", "score")
VEC_ENVS = ("subproc", "dummy")
LR_SCHEDULES = ("constant", "linear")
_RUN_NAME = re.compile(r"^[A-Za-z0-9_.-]+$")

#: Keys that may differ between the config a run was started with and the one it resumes with.
RESUMABLE_CHANGES = frozenset({"total_timesteps"})


class ConfigError(ValueError):
    """A config file that cannot be used: the message names the file, the key and the fix."""


Checker = Callable[[Any], Any]


class _Bad(Exception):
    """Raised by a checker with what was expected; turned into a ConfigError with the key."""

    def __init__(self, expected: str, value: Any):
        super().__init__(expected)
        self.expected = expected
        self.value = value


def _key(check: Checker, doc: str = "") -> dict[str, Any]:
    """Field metadata: the value checker and a short description of the key."""
    return {"check": check, "doc": doc}


def _int(minimum: int) -> Checker:
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            what = "a positive integer" if minimum == 1 else f"an integer >= {minimum}"
            raise _Bad(f"expected {what}", value)
        return value

    return check


def _float(low: float, high: float = math.inf, low_open: bool = False) -> Checker:
    def check(value: Any) -> float:
        number: float | None = None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = float(value)
        elif isinstance(value, str):
            # PyYAML reads 3e-4 (no dot) as a string; accept any numeric text for float keys.
            try:
                number = float(value)
            except ValueError:
                number = None
        bad_low = number is not None and (number <= low if low_open else number < low)
        if number is None or not math.isfinite(number) or bad_low or number > high:
            bracket = "(" if low_open else "["
            upper = "inf)" if high == math.inf else f"{high:g}]"
            raise _Bad(f"expected a number in {bracket}{low:g}, {upper}", value)
        return number

    return check


def _optional(check: Checker) -> Checker:
    def optional(value: Any) -> Any:
        if value is None:
            return None
        try:
            return check(value)
        except _Bad as bad:
            raise _Bad(f"{bad.expected} or null", value) from None

    return optional


def _choice(options: tuple[str, ...]) -> Checker:
    def check(value: Any) -> str:
        if value not in options:
            raise _Bad(f"expected one of {', '.join(options)}", value)
        return str(value)

    return check


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _Bad("expected true or false", value)
    return value


def _run_name(value: Any) -> str:
    if not isinstance(value, str) or not _RUN_NAME.match(value):
        raise _Bad("expected a name of letters, digits, '_', '-' or '.'", value)
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _Bad("expected a non-empty string", value)
    return value


def _layers(value: Any) -> list[int]:
    if (
        not isinstance(value, list)
        or not value
        or any(isinstance(v, bool) or not isinstance(v, int) or v < 1 for v in value)
    ):
        raise _Bad("expected a non-empty list of positive integers (layer widths)", value)
    return list(value)


def _agent_spec(value: Any) -> str:
    """An agent spec of agents.registry (``name[:key=value,...]``) naming a known agent."""
    from agents.registry import AGENTS, parse_spec

    if not isinstance(value, str):
        raise _Bad("expected an agent spec such as 'greedy' or 'mcts:sims=50'", value)
    try:
        name, _ = parse_spec(value)
    except ValueError as exc:
        raise _Bad(f"expected an agent spec ({exc})", value) from None
    if name not in AGENTS and "." not in name:
        raise _Bad(f"expected a known agent ({', '.join(AGENTS)}) or a dotted class path", value)
    return value.strip()


def _agent_specs(value: Any) -> list[str]:
    if not isinstance(value, list) or not value:
        raise _Bad("expected a non-empty list of agent specs", value)
    specs = [_agent_spec(v) for v in value]
    if len(set(specs)) != len(specs):
        raise _Bad("expected distinct agent specs", value)
    return specs


def _bot_weights(value: Any) -> dict[str, float]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _Bad("expected a mapping of agent spec to weight, e.g. {greedy: 0.5}", value)
    weights: dict[str, float] = {}
    for spec, weight in value.items():
        weights[_agent_spec(spec)] = _float(0.0)(weight)
    return weights


@dataclass
class RunConfig:
    """Where a run writes: ``<output_dir>/<name>/``."""

    name: str = field(default="ppo", metadata=_key(_run_name, "run directory name"))
    output_dir: str = field(default="runs", metadata=_key(_text, "parent of the run directory"))


@dataclass
class PolicyConfig:
    """The actor and critic MLPs (separate networks of the same widths)."""

    net_arch: list[int] = field(default_factory=lambda: [256, 256], metadata=_key(_layers))
    activation: str = field(default="tanh", metadata=_key(_choice(ACTIVATIONS)))


@dataclass
class PPOConfig:
    """MaskablePPO hyperparameters (see stable-baselines3's PPO for their meaning)."""

    learning_rate: float = field(default=3e-4, metadata=_key(_float(0.0, 1.0, low_open=True)))
    lr_schedule: str = field(default="constant", metadata=_key(_choice(LR_SCHEDULES)))
    n_steps: int = field(default=1024, metadata=_key(_int(1), "steps per env per rollout"))
    batch_size: int = field(default=512, metadata=_key(_int(2)))
    n_epochs: int = field(default=4, metadata=_key(_int(1)))
    gamma: float = field(default=0.995, metadata=_key(_float(0.0, 1.0)))
    gae_lambda: float = field(default=0.95, metadata=_key(_float(0.0, 1.0)))
    clip_range: float = field(default=0.2, metadata=_key(_float(0.0, 1.0, low_open=True)))
    ent_coef: float = field(default=0.01, metadata=_key(_float(0.0)))
    vf_coef: float = field(default=0.5, metadata=_key(_float(0.0)))
    max_grad_norm: float = field(default=0.5, metadata=_key(_float(0.0, low_open=True)))
    target_kl: float | None = field(
        default=None, metadata=_key(_optional(_float(0.0, low_open=True)))
    )


@dataclass
class LeagueConfig:
    """Who sits in the other seats: bots and frozen past learners, drawn per episode per seat."""

    bots: dict[str, float] = field(
        default_factory=lambda: {"random": 0.1, "greedy": 0.3, "heuristic": 0.3},
        metadata=_key(_bot_weights, "agent spec -> draw weight"),
    )
    self_play: float = field(default=0.3, metadata=_key(_float(0.0), "weight of the pool"))
    pool_size: int = field(default=10, metadata=_key(_int(1), "frozen snapshots kept"))
    snapshot_every_steps: int = field(default=100_000, metadata=_key(_int(1)))
    refresh_every_steps: int = field(default=100_000, metadata=_key(_int(1)))
    opponent_deterministic: bool = field(default=False, metadata=_key(_bool))


@dataclass
class EvaluationConfig:
    """Periodic arena evaluation of the learner during training."""

    every_steps: int = field(default=100_000, metadata=_key(_int(1)))
    games: int = field(default=200, metadata=_key(_int(1), "games per opponent"))
    opponents: list[str] = field(
        default_factory=lambda: ["greedy", "heuristic"], metadata=_key(_agent_specs)
    )
    players: int | None = field(default=None, metadata=_key(_optional(_int(2))))
    best_by: str = field(default="heuristic", metadata=_key(_agent_spec))
    paired: bool = field(default=True, metadata=_key(_bool))
    workers: int | None = field(
        default=None, metadata=_key(_optional(_int(1)), "arena processes; null = all cores")
    )
    deterministic: bool = field(default=True, metadata=_key(_bool))
    at_start: bool = field(default=False, metadata=_key(_bool, "also evaluate at step 0"))


@dataclass
class CheckpointConfig:
    """Resumable checkpoints (model + optimizer + league + state)."""

    every_steps: int = field(default=100_000, metadata=_key(_int(1)))
    keep_last: int = field(default=3, metadata=_key(_int(1)))


@dataclass
class PretrainConfig:
    """Behaviour cloning before PPO (see :mod:`agents.training.imitation`); off while
    ``teacher`` is null."""

    teacher: str | None = field(
        default=None,
        metadata=_key(_optional(_agent_spec), "agent spec playing every seat of the demos"),
    )
    games: int = field(default=2000, metadata=_key(_int(1), "teacher games to record"))
    epochs: int = field(default=10, metadata=_key(_int(1)))
    batch_size: int = field(default=512, metadata=_key(_int(1)))
    learning_rate: float = field(default=1e-3, metadata=_key(_float(0.0, 1.0, low_open=True)))
    value_coef: float = field(default=0.5, metadata=_key(_float(0.0), "weight of the critic"))
    validation: float = field(
        default=0.05, metadata=_key(_float(0.0, 0.5), "share of the games held out")
    )
    workers: int | None = field(
        default=None, metadata=_key(_optional(_int(1)), "game processes; null = all cores")
    )


@dataclass
class TrainConfig:
    """One training run, as read from a YAML file."""

    num_players: int = field(default=2, metadata=_key(_int(2)))
    seed: int = field(default=0, metadata=_key(_int(0)))
    total_timesteps: int = field(default=1_000_000, metadata=_key(_int(1)))
    n_envs: int | None = field(default=None, metadata=_key(_optional(_int(1))))
    vec_env: str = field(default="subproc", metadata=_key(_choice(VEC_ENVS)))
    reward: str = field(default="win", metadata=_key(_choice(REWARDS)))
    max_turns: int | None = field(
        default=300, metadata=_key(_optional(_int(1)), "truncate a training game after this")
    )
    log_interval: int = field(default=1, metadata=_key(_int(1), "rollouts between log dumps"))
    learn_threads: int = field(
        default=1, metadata=_key(_int(1), "torch threads for the gradient updates")
    )
    tensorboard: bool = field(default=True, metadata=_key(_bool))
    init_from: str | None = field(
        default=None,
        metadata=_key(_optional(_text), "model zip whose weights start a new run; null = none"),
    )
    run: RunConfig = field(default_factory=RunConfig)
    policy: PolicyConfig = field(default_factory=PolicyConfig)
    ppo: PPOConfig = field(default_factory=PPOConfig)
    league: LeagueConfig = field(default_factory=LeagueConfig)
    evaluation: EvaluationConfig = field(default_factory=EvaluationConfig)
    checkpoint: CheckpointConfig = field(default_factory=CheckpointConfig)
    pretrain: PretrainConfig = field(default_factory=PretrainConfig)
    #: The file this config was read from ("<dict>" when built in code); not a YAML key.
    source: str = field(default="<dict>", compare=False, metadata={"internal": True})

    def resolved_n_envs(self) -> int:
        """``n_envs``, or one environment per core when it is null."""
        return self.n_envs if self.n_envs is not None else max(1, os.cpu_count() or 1)

    def eval_players(self) -> int:
        """Seats in evaluation games (``evaluation.players`` or ``num_players``)."""
        return self.evaluation.players if self.evaluation.players is not None else self.num_players

    def run_dir(self) -> Path:
        """``<run.output_dir>/<run.name>`` (relative to the current directory if relative)."""
        return Path(self.run.output_dir) / self.run.name

    def to_dict(self) -> dict[str, Any]:
        """The YAML-able dict of every key (defaults filled in)."""
        data = dataclasses.asdict(self)
        data.pop("source")
        return data

    def fingerprint(self) -> str:
        """Hash of every key that must not change when a run is resumed."""
        data = {k: v for k, v in self.to_dict().items() if k not in RESUMABLE_CHANGES}
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def _build(cls: type, data: Any, where: str, source: str) -> Any:
    """Build dataclass ``cls`` from ``data``, checking every key (``where`` = key path)."""
    label = where or "top level"
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise ConfigError(f"{source}: {label}: expected a mapping of keys, got {data!r}")
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls) if not f.metadata.get("internal")}
    unknown = [str(k) for k in data if k not in fields]
    if unknown:
        path = f"{where}.{unknown[0]}" if where else unknown[0]
        raise ConfigError(f"{source}: {path}: unknown key (known at {label}: {', '.join(fields)})")
    values: dict[str, Any] = {}
    for name, spec in fields.items():
        path = f"{where}.{name}" if where else name
        if dataclasses.is_dataclass(hints[name]):
            values[name] = _build(hints[name], data.get(name), path, source)
        elif name in data:
            try:
                values[name] = spec.metadata["check"](data[name])
            except _Bad as bad:
                raise ConfigError(f"{source}: {path}: {bad.expected}, got {bad.value!r}") from None
    return cls(**values)


def _cross_check(config: TrainConfig, source: str) -> None:
    """Checks that involve several keys."""
    league, evaluation = config.league, config.evaluation
    if sum(league.bots.values()) + league.self_play <= 0:
        raise ConfigError(
            f"{source}: league: expected a positive total weight over league.bots and "
            f"league.self_play, got bots={league.bots!r}, self_play={league.self_play!r}"
        )
    if sum(league.bots.values()) <= 0:
        # Before the first snapshot the pool is empty: somebody must fill the other seats.
        raise ConfigError(
            f"{source}: league.bots: expected at least one bot with a positive weight "
            f"(the snapshot pool is empty until the first snapshot), got {league.bots!r}"
        )
    if evaluation.best_by not in evaluation.opponents:
        raise ConfigError(
            f"{source}: evaluation.best_by: expected one of evaluation.opponents "
            f"({', '.join(evaluation.opponents)}), got {evaluation.best_by!r}"
        )
    if evaluation.players is not None and evaluation.players != config.num_players:
        raise ConfigError(
            f"{source}: evaluation.players: expected null or num_players "
            f"({config.num_players}): a policy plays the table size it was trained for, "
            f"got {evaluation.players!r}"
        )
    if config.init_from is not None:
        if config.pretrain.teacher is not None:
            raise ConfigError(
                f"{source}: init_from: expected null when pretrain.teacher is set (a run starts "
                f"from a model or from a clone of a teacher, not both), got {config.init_from!r}"
            )
        if not Path(config.init_from).is_file():
            raise ConfigError(
                f"{source}: init_from: expected the path of a model zip, got "
                f"{config.init_from!r} (no such file, relative to {os.getcwd()})"
            )
    if config.num_players > 4:
        raise ConfigError(f"{source}: num_players: expected 2, 3 or 4, got {config.num_players!r}")
    if config.n_envs is not None:
        check_batch(config, config.n_envs)


def check_batch(config: TrainConfig, n_envs: int) -> None:
    """The PPO batch must fit in one rollout (``n_steps * n_envs`` samples)."""
    rollout = config.ppo.n_steps * n_envs
    if config.ppo.batch_size > rollout:
        raise ConfigError(
            f"{config.source}: ppo.batch_size: expected at most ppo.n_steps * n_envs "
            f"= {config.ppo.n_steps} * {n_envs} = {rollout}, got {config.ppo.batch_size}"
        )


def config_from_dict(data: Any, source: str = "<dict>") -> TrainConfig:
    """Validate a parsed YAML document; raise :class:`ConfigError` on the first problem."""
    config = _build(TrainConfig, data, "", source)
    config.source = source
    _cross_check(config, source)
    return config


def load_config(path: str | os.PathLike[str]) -> TrainConfig:
    """Read and validate a YAML config file."""
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{source}: cannot read the config file ({exc.strerror})") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{source}: not valid YAML: {exc}") from None
    return config_from_dict(data, source)


def config_differences(
    old: Mapping[str, Any], new: Mapping[str, Any], prefix: str = ""
) -> list[str]:
    """Key paths whose values differ between two config dicts, ``key: old -> new``."""
    lines: list[str] = []
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
    path = Path(path)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(yaml.safe_dump(config.to_dict(), sort_keys=False), encoding="utf-8")
    os.replace(temporary, path)
