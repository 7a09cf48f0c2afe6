"""Expert-iteration configuration (``backend: az``), read from YAML through the project's config
validation (:mod:`airships_env.configfile`): a bad key names the file, the key path, what was
expected and what was found, e.g.::

    configs/az_2p.yaml: search.sims: expected an integer, found 'many'
    configs/az_2p.yaml: learn.rate: unknown key (known: batch_size, buffer_size, ...)

Keys left out take the defaults below. ``generations`` is the one key a resumed run may change.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field

from agents.az.search import FpuRule, LuckRule, WorldRule
from airships_env.configfile import (
    ConfigError,
    Count,
    Number,
    RunFile,
    RunName,
    Strict,
    config_backend,
    dump_run_file,
    fingerprint,
    read_mapping,
    validate_run_file,
)

EXAMPLE = "configs/az_2p.yaml"
#: Keys that may differ between the config a run was started with and the one it resumes with.
RESUMABLE_CHANGES = frozenset({"generations"})

Positive = Annotated[Count, Field(ge=1)]
NonNegative = Annotated[Count, Field(ge=0)]
Fraction = Annotated[Number, Field(ge=0.0, le=1.0)]


class RunSection(Strict):
    """Where a run writes: ``<output_dir>/<name>/``."""

    name: RunName = "az"
    output_dir: Annotated[str, Field(min_length=1)] = "runs"


#: The starts ``network.init`` names; any other value is a network file's path.
NETWORK_STARTS = ("ppo", "scratch")


def _network_init(value: str) -> str:
    if value not in NETWORK_STARTS and not Path(value).is_file():
        raise ValueError("ppo, scratch or the path of a network file (no file at that path)")
    return value


class NetworkSection(Strict):
    """The policy-value network and where it starts: ``ppo``, the bundled ppo_<n>p's trunk and
    policy head (a new value head); ``scratch``; or a network file written by an earlier run
    (e.g. ``agents/models/az_2p.pt``), whole, widths included (``hidden`` and ``value_hidden``
    apply to the other two)."""

    init: Annotated[str, AfterValidator(_network_init)] = "ppo"
    hidden: Annotated[list[Positive], Field(min_length=1)] = [256, 256]  # scratch only
    value_hidden: Positive = 256
    # Before the first generation, the value head alone (trunk and policy frozen) learns from
    # this many games of the network playing itself, in this many minibatch steps: a search can
    # then use its values. ``value_warmup_sims`` 1: one forward pass a move (root noise for
    # variety), the targets are the games' results; more: the network's search (the search
    # section's settings) with this many simulations plays, and the acting seat's target is
    # the search's root value (agents.az.train.value_targets), far less noisy than a result.
    value_warmup_games: NonNegative = 0
    value_warmup_steps: NonNegative = 0
    value_warmup_sims: Positive = 1


class SearchSection(Strict):
    """The self-play search (see :mod:`agents.az.search`)."""

    sims: Positive = 64
    batch: Positive = 8
    c_puct: Annotated[Number, Field(ge=0.0)] = 1.5
    dirichlet_alpha: Annotated[Number, Field(gt=0.0)] = 0.3
    dirichlet_fraction: Fraction = 0.25
    temperature_moves: NonNegative = 10  # a seat's first moves are sampled from the visits
    rollout_weight: Fraction = 0.0
    margin_weight: Annotated[Number, Field(ge=0.0, le=1.0)] = 0.2
    # native: the search in the core, the network evaluated there (agents.az.search.NativeSearch);
    # python: the readable tree, leaves of parallel games batched through torch
    engine: Literal["native", "python"] = "native"
    temperature: Annotated[Number, Field(gt=0.0, le=100.0)] = 1.0  # the prior's (native only)
    # an unvisited action's Q: its node's mean so far, or its first evaluation (agents.az.search)
    fpu: FpuRule = "mean"
    # which world a simulation plays: fresh determinizations, or paired (a root action's k-th
    # visit in the search's k-th world: common random numbers; agents.az.search)
    worlds: WorldRule = "fresh"
    # what a result keeps of the dice's luck: all of it, or subtract it (a control variate;
    # engine native only; agents.az.search)
    luck: LuckRule = "keep"


class LearnSection(Strict):
    """The network's training on the replay buffer."""

    learning_rate: Annotated[Number, Field(gt=0.0, le=1.0)] = 1e-3
    weight_decay: Annotated[Number, Field(ge=0.0)] = 1e-4
    batch_size: Positive = 256
    steps_per_generation: Positive = 200
    value_coef: Annotated[Number, Field(ge=0.0)] = 1.0
    buffer_size: Positive = 20_000


class ArenaSection(Strict):
    """The gate: the new network plays the current one; kept if its win share reaches ``gate``
    (more than 1/num_players: an equal network wins that share; 0.55 for 2, 0.3 for 4 players)."""

    deals: Positive = 12  # each deal is played once per seat of the new network (paired games)
    sims: Positive = 32
    gate: Fraction = 0.55
    # The fixed anchor: the native heuristic. ``anchor_deals`` > 0 plays the best network against
    # it every ``anchor_every`` generations (the strength curve, ``anchor/best``), and with
    # ``anchor_gate`` a new network that passes ``gate`` is kept only if it also scores at least
    # the best network's share against the anchor on the same deals (a gate of a few dozen games
    # against a moving opponent accepts noise; the anchor does not move).
    anchor_deals: NonNegative = 0
    anchor_every: Positive = 1
    anchor_gate: bool = False
    # The second curve: ``ismcts_deals`` > 0 plays the best network against the native ``ismcts``
    # (``ismcts_sims`` simulations a decision, a fixed budget: a loaded machine does not move
    # it) in every other seat every ``ismcts_every`` generations (``ismcts/best``; drawn with
    # ``plot_training.py --opponent ismcts``).
    ismcts_deals: NonNegative = 0
    ismcts_sims: Positive = 200
    ismcts_every: Positive = 5


class CheckpointSection(Strict):
    """Checkpoints kept (one per generation)."""

    keep_last: Positive = 3


class AZConfig(RunFile):
    """One expert-iteration run, as read from a YAML file."""

    backend: Literal["az"] = "az"
    num_players: Annotated[Count, Field(ge=2, le=4)] = 2
    seed: NonNegative = 0
    generations: Positive = 100
    games_per_generation: Positive = 32
    parallel_games: Positive = 16  # self-play games searched side by side (leaves batched)
    max_actions: Positive = 1000  # a self-play game is scored as it stands after this many
    threads: Positive = 1  # torch threads
    tensorboard: bool = True
    run: RunSection = RunSection()
    network: NetworkSection = NetworkSection()
    search: SearchSection = SearchSection()
    learn: LearnSection = LearnSection()
    arena: ArenaSection = ArenaSection()
    checkpoint: CheckpointSection = CheckpointSection()

    def run_dir(self) -> Path:
        """``<run.output_dir>/<run.name>``."""
        return Path(self.run.output_dir) / self.run.name

    def replace(self, **changes: Any) -> AZConfig:
        """A validated copy with top-level keys changed."""
        return config_from_dict({**self.to_dict(), **changes}, self.source)

    def fingerprint(self) -> str:
        """Hash of every key that must not change when a run is resumed."""
        return fingerprint({k: v for k, v in self.to_dict().items() if k not in RESUMABLE_CHANGES})


def config_from_dict(data: Any, source: str = "<dict>") -> AZConfig:
    """Validate a parsed YAML document; raise :class:`ConfigError` on the first problem."""
    config = validate_run_file(data, AZConfig, source)
    if config.arena.gate <= 1.0 / config.num_players:
        raise ConfigError(
            f"{source}: arena.gate: expected more than 1/num_players = "
            f"{1.0 / config.num_players:.3f} (an equal network wins that share), "
            f"found {config.arena.gate}"
        )
    if config.arena.anchor_gate and config.arena.anchor_deals == 0:
        raise ConfigError(
            f"{source}: arena.anchor_deals: expected at least 1 with arena.anchor_gate: true "
            f"(the gate plays the anchor on those deals), found 0"
        )
    if config.search.luck != "keep" and config.search.engine != "native":
        raise ConfigError(
            f"{source}: search.luck: {config.search.luck} is the core's search only "
            f"(search.engine: native), found search.engine: {config.search.engine}"
        )
    if config.learn.batch_size > config.learn.buffer_size:
        raise ConfigError(
            f"{source}: learn.batch_size: expected at most learn.buffer_size "
            f"({config.learn.buffer_size}), found {config.learn.batch_size}"
        )
    return config


def load_config(path: str | os.PathLike[str]) -> AZConfig:
    """Read and validate a YAML config file."""
    return config_from_dict(read_mapping(path, EXAMPLE), str(path))


def is_az_config(path: str | os.PathLike[str]) -> bool:
    """Whether the YAML file says ``backend: az`` (False for anything unreadable)."""
    return bool(config_backend(path) == "az")


def dump_config(config: AZConfig, path: str | os.PathLike[str]) -> None:
    """Write the full config as YAML, through a temporary file."""
    dump_run_file(config, path)
