"""Train a MaskablePPO policy by self-play against an opponent league (config in YAML).

Examples::

    python scripts/train.py --config configs/ppo_2p.yaml
    python scripts/train.py --config configs/ppo_2p.yaml --resume
    python scripts/train.py --config configs/ppo_2p.yaml --resume --total-timesteps 8000000
    tensorboard --logdir runs/ppo_2p/tb
    python scripts/train.py --config my_nippon.yaml --game nippon

The run writes to ``<run.output_dir>/<run.name>/`` (``runs/ppo_2p``): checkpoints, the league
pool, evaluations, ``best_model.zip`` and TensorBoard logs. Ctrl-C stops at the next step and
saves a checkpoint; ``--resume`` continues from the last checkpoint. A bad config fails before
training starts, naming the file and the key.

A config with ``backend: az`` (``configs/az_2p.yaml``) runs expert iteration with the
network-guided search (:mod:`agents.az.train`); ``--generations`` raises its length on resume.

A config with ``backend: rllib`` (``configs/rllib_2p.yaml``), or ``--backend rllib``, trains
with RLlib on a Ray cluster instead (:mod:`agents.rllib.train`; the ``rllib`` extra):
``--address`` (or ``RAY_ADDRESS``) joins a running cluster, else a local one is started.

``--game NAME`` (or the config's ``game``) trains any registered game over the game protocol
(Python environments, that game's agents in the league; :mod:`agents.training.league`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from agents.cli.common import add_game_argument
from agents.training.checkpoint import ResumeError
from agents.training.config import ConfigError, check_batch, load_config
from agents.training.train import train


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--config", type=Path, required=True, help="YAML training config")
    add_game_argument(parser, default=None)
    parser.add_argument(
        "--resume", action="store_true", help="continue the run from its last checkpoint"
    )
    parser.add_argument(
        "--run-dir",
        type=Path,
        default=None,
        help="run directory (default: <run.output_dir>/<run.name>)",
    )
    parser.add_argument(
        "--total-timesteps",
        type=int,
        default=None,
        help="override total_timesteps (the one key --resume may change)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument(
        "--profile",
        type=int,
        nargs="?",
        const=20_000,
        default=None,
        metavar="STEPS",
        help="write nothing: learn STEPS steps (default 20000) against the config's environment "
        "and against a free one, and print where the time went",
    )
    parser.add_argument(
        "--json", action="store_true", help="with --profile: one JSON line on stdout"
    )
    parser.add_argument(
        "--backend",
        choices=("sb3", "rllib", "az"),
        default=None,
        help="sb3 (MaskablePPO, default), rllib (multi-agent PPO on a Ray cluster) or az "
        "(expert iteration with the network-guided search); default: the config's 'backend' key",
    )
    parser.add_argument(
        "--generations",
        type=int,
        default=None,
        help="az: override generations (the one key --resume may change)",
    )
    parser.add_argument(
        "--address",
        default=None,
        help="rllib: the Ray cluster to join (default: cluster.address, then RAY_ADDRESS, "
        "else a local cluster)",
    )
    return parser.parse_args(argv)


def _main_rllib(args: argparse.Namespace) -> int:
    """``--backend rllib``: the RLlib trainer (imported only here)."""
    from agents.rllib.config import ConfigError as RLlibConfigError
    from agents.rllib.config import load_config as load_rllib_config
    from agents.rllib.errors import ResumeError as RLlibResumeError

    try:
        config = load_rllib_config(args.config)
        if args.game is not None:
            config = config.replace(game=args.game)
        if args.total_timesteps is not None:
            if args.total_timesteps < 1:
                raise RLlibConfigError(
                    f"--total-timesteps: expected a positive integer, got {args.total_timesteps}"
                )
            config = config.replace(total_timesteps=args.total_timesteps)
        if args.profile is not None:
            raise RLlibConfigError("--profile: only the sb3 backend has it")
        from agents.rllib.train import train as train_rllib

        result = train_rllib(config, resume=args.resume, run_dir=args.run_dir, address=args.address)
    except (RLlibConfigError, RLlibResumeError) as exc:
        print(f"train: {exc}", file=sys.stderr)
        return 2
    print(
        f"{result.iterations} iterations, {result.env_steps} env steps in "
        f"{result.seconds:.1f} s; policy: {result.policy} (agent spec rllib:path={result.policy})"
    )
    return 130 if result.interrupted else 0


def _main_az(args: argparse.Namespace) -> int:
    """``backend: az``: expert iteration (imported only here)."""
    from agents.az.config import load_config as load_az_config

    try:
        if args.total_timesteps is not None or args.profile is not None:
            raise ConfigError("--total-timesteps and --profile: the az backend counts generations")
        if args.address is not None:
            raise ConfigError("--address: only the rllib backend runs on a Ray cluster")
        config = load_az_config(args.config)
        if args.generations is not None:
            if args.generations < 1:
                raise ConfigError(
                    f"--generations: expected a positive integer, got {args.generations}"
                )
            config = config.replace(generations=args.generations)
        from agents.az.train import train as train_az

        result = train_az(config, resume=args.resume, run_dir=args.run_dir)
    except (ConfigError, ResumeError) as exc:
        print(f"train: {exc}", file=sys.stderr)
        return 2
    print(
        f"{result.generations} generations ({result.accepted} networks kept) in "
        f"{result.seconds:.1f} s; best network: {result.best} (agent spec az:path={result.best})"
    )
    return 130 if result.interrupted else 0


def main(argv: list[str] | None = None) -> int:
    """Train from the command line; returns the exit status (130 after Ctrl-C)."""
    args = parse_args(argv)
    backend = args.backend
    if backend is None:
        from agents.az.config import is_az_config
        from agents.rllib.config import is_rllib_config

        if is_az_config(args.config):
            backend = "az"
        else:
            backend = "rllib" if is_rllib_config(args.config) else "sb3"
    if backend == "az":
        return _main_az(args)
    if args.generations is not None:
        print("train: --generations: only the az backend counts generations", file=sys.stderr)
        return 2
    if backend == "rllib":
        return _main_rllib(args)
    if args.address is not None:
        print("train: --address: only the rllib backend runs on a Ray cluster", file=sys.stderr)
        return 2
    try:
        config = load_config(args.config)
        if args.game is not None:
            config = config.replace(game=args.game)
        if args.total_timesteps is not None:
            if args.total_timesteps < 1:
                raise ConfigError(
                    f"--total-timesteps: expected a positive integer, got {args.total_timesteps}"
                )
            config = config.replace(total_timesteps=args.total_timesteps)
        check_batch(config, config.resolved_n_envs())
        if args.profile is not None:
            from agents.training.config import NATIVE_VEC_ENV_GAMES

            if config.game not in NATIVE_VEC_ENV_GAMES:
                raise ConfigError(f"--profile: only {', '.join(NATIVE_VEC_ENV_GAMES)} has it")
            if args.profile < 1:
                raise ConfigError(f"--profile: expected a positive step count, got {args.profile}")
            from agents.training.profile import profile

            profile(config, args.profile, as_json=args.json)
            return 0
        result = train(
            config,
            resume=args.resume,
            run_dir=args.run_dir,
            progress_bar=not args.no_progress and sys.stderr.isatty(),
        )
    except (ConfigError, ResumeError) as exc:
        print(f"train: {exc}", file=sys.stderr)
        return 2
    return 130 if result.interrupted else 0
