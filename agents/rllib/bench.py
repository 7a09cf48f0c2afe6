"""Figures for the RLlib backend: env steps/s and training steps/s (prints, ``--json``).

python -m agents.rllib.bench env [--steps 50000]
    our MultiAgentEnv over the native batch vs RLlib's PettingZooEnv wrapper around the AEC
    env, random legal actions, every seat an agent (self-play; no bot inside the step)
python -m agents.rllib.bench train --runners 1 2 [--iterations 6]
    RLlib training env steps/s (after the first iteration, and end to end) with 1 and 2 env
    runners on a local cluster, the tiny model of configs/rllib_tiny.yaml, 2048-step batches
python -m agents.rllib.bench sb3 [--steps 20000]
    the SB3 trainer (configs/ppo_tiny.yaml: subproc with 2 envs, and native with 64 games) on
    the same model, batch and epochs, end to end
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np


def _random_steps(env: Any, steps: int, mask_of: Callable[[Any], np.ndarray], seed: int) -> float:
    """Env steps per second of random legal play for ``steps`` steps."""
    rng = np.random.default_rng(seed)
    observations, _ = env.reset(seed=seed)
    started = time.perf_counter()
    for _ in range(steps):
        ((agent, observation),) = observations.items()
        action = int(rng.choice(np.flatnonzero(mask_of(observation))))
        observations, _, terminateds, truncateds, _ = env.step({agent: action})
        if terminateds["__all__"] or truncateds["__all__"]:
            observations, _ = env.reset()
    return steps / (time.perf_counter() - started)


def bench_env(steps: int, num_players: int = 2, seed: int = 0) -> dict[str, float]:
    """Env steps/s: :class:`~agents.rllib.env.AirshipsMultiAgentEnv` and ``PettingZooEnv``."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    from agents.rllib.env import AirshipsMultiAgentEnv
    from airships_env import env as aec_env

    ours = AirshipsMultiAgentEnv(
        {"num_players": num_players, "league": {"self_play": 1.0, "snapshots": 0.0, "bots": {}}}
    )
    wrapped = PettingZooEnv(aec_env(num_players=num_players))
    return {
        "multi_agent_env_native_batch": _random_steps(
            ours, steps, lambda o: o["action_mask"], seed
        ),
        "pettingzoo_env_wrapper": _random_steps(wrapped, steps, lambda o: o["action_mask"], seed),
    }


def bench_train(runners: int, iterations: int, batch: int = 2048) -> dict[str, float]:
    """Training env steps/s with ``runners`` env runners (the first iteration left out)."""
    from agents.rllib.config import load_config
    from agents.rllib.train import train

    with tempfile.TemporaryDirectory() as directory:
        config = load_config("configs/rllib_tiny.yaml").replace(
            run={"output_dir": directory, "name": f"bench_{runners}"},
            total_timesteps=batch * iterations,
            tensorboard=False,
            cluster={
                "num_env_runners": runners,
                "envs_per_env_runner": 8,
                "local_cpus": 2,
                "learner_threads": 1,
            },
            ppo={"train_batch_size": batch, "minibatch_size": 256, "num_epochs": 2},
            league={"snapshot_every_iterations": 10_000, "self_play": 0.5, "snapshots": 0.0},
            evaluation={"every_iterations": 10_000, "at_end": False},
            checkpoint={"every_iterations": 10_000},
        )
        started = time.perf_counter()
        train(config, log=lambda _: None)
        wall = time.perf_counter() - started
        progress = Path(directory) / f"bench_{runners}" / "progress.jsonl"
        rows = [json.loads(line) for line in progress.read_text(encoding="utf-8").splitlines()]
    later = rows[1:] or rows
    steps = later[-1]["env_steps"] - (rows[0]["env_steps"] if len(rows) > 1 else 0)
    seconds = later[-1]["seconds"] - (rows[0]["seconds"] if len(rows) > 1 else 0)
    return {
        "runners": runners,
        "iterations": len(rows),
        "env_steps_per_second": steps / seconds if seconds > 0 else 0.0,
        "end_to_end_steps_per_second": later[-1]["env_steps"] / wall,
    }


def bench_sb3(vec_env: str, n_envs: int, steps: int, batch: int = 2048) -> dict[str, Any]:
    """The SB3 trainer on the same model and batch sizes: learner steps/s, end to end."""
    from agents.training.config import load_config
    from agents.training.train import train

    with tempfile.TemporaryDirectory() as directory:
        config = load_config("configs/ppo_tiny.yaml").replace(
            run={"output_dir": directory, "name": f"sb3_{vec_env}"},
            total_timesteps=steps,
            vec_env=vec_env,
            n_envs=n_envs,
            tensorboard=False,
            learn_threads=1,
            ppo={"n_steps": batch // n_envs, "batch_size": 256, "n_epochs": 2},
            league={"snapshot_every_steps": 10**9, "refresh_every_steps": 10**9},
            evaluation={"every_steps": 10**9},
            checkpoint={"every_steps": 10**9},
        )
        started = time.perf_counter()
        train(config, progress_bar=False)
        wall = time.perf_counter() - started
    return {"vec_env": vec_env, "n_envs": n_envs, "steps": steps, "steps_per_second": steps / wall}


def main(argv: list[str] | None = None) -> int:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("env", "train", "sb3"))
    parser.add_argument("--steps", type=int, default=50_000)
    parser.add_argument("--runners", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--iterations", type=int, default=6)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.what == "env":
        figures: Any = bench_env(args.steps)
    elif args.what == "train":
        figures = [bench_train(n, args.iterations) for n in args.runners]
    else:
        figures = [bench_sb3("subproc", 2, args.steps), bench_sb3("native", 64, args.steps)]
    print(json.dumps(figures) if args.json else json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
