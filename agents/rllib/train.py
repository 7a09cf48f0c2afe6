"""Multi-agent PPO on RLlib's new API stack: every seat an agent, ``main`` learns, a league.

A run (``airships train --config configs/rllib_2p.yaml``) writes to ``<output_dir>/<name>/``::

    config.yaml                 the full config (defaults filled in)
    checkpoints/iter_000010/    RLlib's checkpoint (algorithm, modules incl. snapshots,
                                optimizer), league.json (written last: a checkpoint without it is
                                incomplete and ignored) and main.npz (the exported actor)
    policy.npz                  the latest exported actor (``rllib:path=...`` plays it)
    progress.jsonl              one line per iteration: steps, steps/s, returns, losses
    evaluations.jsonl           arena results of the exported actor against the opponents
    tb/                         TensorBoard (``tensorboard --logdir runs/rllib_2p/tb``)

The league: frozen copies of ``main`` are written into the snapshot slots ``snap0``.. in turn
every ``league.snapshot_every_iterations`` iterations, and the tables draw their opponents per
episode (:mod:`agents.rllib.env`). ``--resume`` restores the last complete checkpoint (the
config may change only ``total_timesteps`` and ``cluster``). Every registered game trains this
way (its env: :func:`agents.rllib.env.env_class`); ``league.json`` and the exported actors
record the game.
"""

from __future__ import annotations

import json
import math
import shutil
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from agents.rllib.algorithm import algorithm_config, league_weights
from agents.rllib.checkpoint import (
    CHECKPOINTS,
    LEAGUE_FILE,
    LeagueState,
    checkpoints,
    read_league,
)
from agents.rllib.checkpoint import read_checkpoint_module as read_checkpoint_module  # old path
from agents.rllib.config import RLlibConfig
from agents.rllib.env import MAIN, snapshot_id
from agents.rllib.errors import ResumeError


@dataclass
class TrainResult:
    """A finished (or interrupted) run."""

    run_dir: Path
    iterations: int
    env_steps: int
    seconds: float
    policy: Path | None
    evaluations: list[dict[str, Any]]
    node_ids: list[str]
    interrupted: bool = False


def _flatten(prefix: str, value: Any, out: dict[str, float]) -> None:
    if isinstance(value, Mapping):
        for key, inner in value.items():
            _flatten(f"{prefix}/{key}" if prefix else str(key), inner, out)
    elif (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and math.isfinite(float(value))
    ):
        out[prefix] = float(value)


def iteration_metrics(result: Mapping[str, Any]) -> dict[str, float]:
    """The numbers of an RLlib result worth logging: sampling and ``main``'s learning."""
    metrics: dict[str, float] = {}
    runners = result.get("env_runners", {})
    for key in (
        "num_env_steps_sampled_lifetime",
        "num_episodes_lifetime",
        "episode_len_mean",
        "episode_return_mean",
        "num_env_steps_sampled_lifetime_throughput",
    ):
        if key in runners:
            _flatten(f"env_runners/{key}", runners[key], metrics)
    _flatten("env_runners/module_return", runners.get("module_episode_returns_mean", {}), metrics)
    _flatten("learners/main", result.get("learners", {}).get(MAIN, {}), metrics)
    for key in ("time_this_iter_s", "time_total_s"):
        if key in result:
            metrics[key] = float(result[key])
    return metrics


class _Tensorboard:
    """TensorBoard scalars (torch's SummaryWriter), or nothing."""

    def __init__(self, directory: Path | None):
        self.writer = None
        if directory is not None:
            from torch.utils.tensorboard import SummaryWriter

            self.writer = SummaryWriter(str(directory))

    def log(self, metrics: Mapping[str, float], step: int) -> None:
        if self.writer is not None:
            for key, value in metrics.items():
                self.writer.add_scalar(key, value, step)
            self.writer.flush()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def _append_jsonl(path: Path, record: Mapping[str, Any]) -> None:
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(record, separators=(",", ":")) + "\n")


def _trim_jsonl(path: Path, iteration: int) -> None:
    """Drop lines written after ``iteration`` (a resumed run repeats them)."""
    if not path.is_file():
        return
    kept = [
        line
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip() and json.loads(line).get("iteration", 0) <= iteration
    ]
    path.write_text("".join(line + "\n" for line in kept), encoding="utf-8")


class Trainer:
    """One run: builds the algorithm on the connected cluster and drives its iterations."""

    def __init__(self, config: RLlibConfig, run_dir: Path, resume: bool):
        self.config = config
        self.run_dir = run_dir
        self.league = LeagueState(
            fingerprint=config.fingerprint(),
            activation=config.model.activation,
            num_players=config.num_players,
            game=config.game,
        )
        start_from: Path | None = None
        if resume:
            found = checkpoints(run_dir)
            if not found:
                raise ResumeError(f"{run_dir}: no complete checkpoint to resume from")
            start_from = found[-1]
            saved = read_league(start_from)
            if saved.fingerprint != self.league.fingerprint:
                raise ResumeError(
                    f"{run_dir}: the config differs from the run's (only total_timesteps and "
                    f"cluster may change on resume); see {run_dir / 'config.yaml'}"
                )
            self.league = saved
        elif checkpoints(run_dir):
            raise ResumeError(
                f"{run_dir} already holds a run: pass --resume to continue it, or choose "
                f"another run.name / --run-dir"
            )
        run_dir.mkdir(parents=True, exist_ok=True)
        if start_from is None:  # rows of an earlier start that never reached a checkpoint
            for name in ("progress.jsonl", "evaluations.jsonl"):
                (run_dir / name).unlink(missing_ok=True)
        (run_dir / "config.yaml").write_text(
            yaml.safe_dump(config.to_dict(), sort_keys=False), encoding="utf-8"
        )
        threads = config.cluster.learner_threads
        if threads is not None and config.cluster.num_learners == 0:
            import torch

            torch.set_num_threads(threads)  # the learner is this process
        self.algo = algorithm_config(config).build_algo()
        if threads is not None and config.cluster.num_learners > 0:
            self.algo.learner_group.foreach_learner(lambda _: _torch_threads(threads))
        if start_from is not None:
            self.algo.restore_from_path(start_from)
            for name in ("progress.jsonl", "evaluations.jsonl"):
                _trim_jsonl(run_dir / name, self.league.iteration)
        self.push_league()

    # ------------------------------------------------------------------ the league
    def push_league(self) -> None:
        """Tell every table of every env runner the league (snapshots filled so far)."""
        weights = league_weights(self.config, self.league.ready)

        def update(runner: Any) -> int:
            env = getattr(runner, "env", None)
            tables = getattr(env, "envs", None) or []
            for table in tables:
                table.unwrapped.set_league(weights)
            return len(tables)

        self.algo.env_runner_group.foreach_env_runner(update)

    def snapshot(self) -> str:
        """Copy ``main``'s weights into the next snapshot slot (learner and env runners)."""
        slot = snapshot_id(self.league.next_slot)
        weights = self.algo.learner_group.get_weights(module_ids=[MAIN])[MAIN]
        self.algo.learner_group.set_weights({slot: weights})
        self.algo.env_runner_group.sync_weights(
            from_worker_or_learner_group=self.algo.learner_group,
            policies=[slot],
            inference_only=True,
        )
        if self.league.next_slot < len(self.league.snapshots):
            self.league.snapshots[self.league.next_slot] = self.league.iteration
        else:
            self.league.snapshots.append(self.league.iteration)
        self.league.ready = min(self.league.ready + 1, self.config.league.pool_size)
        self.league.next_slot = (self.league.next_slot + 1) % self.config.league.pool_size
        self.push_league()
        return slot

    # ------------------------------------------------------------------ outputs
    def main_state(self) -> dict[str, Any]:
        """``main``'s weights (numpy arrays by parameter name)."""
        return dict(self.algo.learner_group.get_weights(module_ids=[MAIN])[MAIN])

    def export(self, path: Path) -> Path:
        """Write ``main``'s actor to ``path`` (``.npz``)."""
        from agents.rllib.export import export_actor

        return export_actor(
            self.main_state(),
            path,
            activation=self.config.model.activation,
            num_players=self.config.num_players,
            metadata={"iteration": self.league.iteration, "env_steps": self.league.env_steps},
            game=self.config.game,
        )

    def save(self) -> Path:
        """A checkpoint of the algorithm, the exported actor and the league; old ones pruned."""
        target = self.run_dir / CHECKPOINTS / f"iter_{self.league.iteration:06d}"
        if target.exists():
            shutil.rmtree(target)
        self.algo.save_to_path(target)
        self.export(target / "main.npz")
        (target / LEAGUE_FILE).write_text(json.dumps(self.league.to_dict()), encoding="utf-8")
        for old in checkpoints(self.run_dir)[: -self.config.checkpoint.keep_last]:
            shutil.rmtree(old, ignore_errors=True)
        return target

    def evaluate(self, policy: Path) -> list[dict[str, Any]]:
        """Arena games of the exported actor against each evaluation opponent."""
        from agents.training.evaluate import evaluate_model

        rows = []
        evaluation = self.config.evaluation
        for opponent in evaluation.opponents:
            result = evaluate_model(
                policy,
                [opponent],
                players=self.config.num_players,
                games=evaluation.games,
                seed=self.config.seed,
                paired=evaluation.paired,
                workers=evaluation.workers,
                agent="rllib",
                game=self.config.game,
            )
            rows.append(
                {
                    "iteration": self.league.iteration,
                    "env_steps": self.league.env_steps,
                    "opponent": opponent,
                    **result.headline(),
                    "seconds": round(result.seconds, 3),
                }
            )
        return rows

    def env_runner_nodes(self) -> list[str]:
        """The node id of every remote env runner (the driver's if there are none)."""
        from agents.rllib.cluster import node_id

        group = self.algo.env_runner_group
        if group.num_remote_env_runners() == 0:
            return [node_id()]
        return list(group.foreach_env_runner(lambda _: node_id(), local_env_runner=False))

    def stop(self) -> None:
        """Release the env runners and learners."""
        self.algo.stop()


def train(
    config: RLlibConfig,
    *,
    resume: bool = False,
    run_dir: Path | None = None,
    address: str | None = None,
    log: Callable[[str], None] | None = None,
) -> TrainResult:
    """Train until ``total_timesteps`` env steps were sampled (see the module docstring).

    ``address`` overrides ``cluster.address``. Ctrl-C saves a checkpoint and returns.
    """
    from agents.rllib.cluster import connected

    say = log if log is not None else (lambda text: print(text, file=sys.stderr))
    directory = Path(run_dir) if run_dir is not None else config.run_dir()
    cluster = config.cluster
    evaluations: list[dict[str, Any]] = []
    policy: Path | None = None
    interrupted = False
    with connected(address or cluster.address, num_cpus=cluster.local_cpus):
        trainer = Trainer(config, directory, resume)
        board = _Tensorboard(directory / "tb" if config.tensorboard else None)
        nodes = trainer.env_runner_nodes()
        league = trainer.league
        started = time.perf_counter() - league.seconds
        say(
            f"rllib: {directory}: {len(nodes)} env runner(s) on {len(set(nodes))} node(s), "
            f"from iteration {league.iteration} ({league.env_steps} env steps)"
        )
        try:
            while league.env_steps < config.total_timesteps:
                tick = time.perf_counter()
                result = trainer.algo.train()
                league.iteration += 1
                metrics = iteration_metrics(result)
                league.env_steps = int(
                    metrics.get("env_runners/num_env_steps_sampled_lifetime", league.env_steps)
                )
                league.seconds = time.perf_counter() - started
                metrics["env_steps_per_second"] = _rate(result, time.perf_counter() - tick)
                board.log(metrics, league.env_steps)
                _append_jsonl(
                    directory / "progress.jsonl",
                    {
                        "iteration": league.iteration,
                        "env_steps": league.env_steps,
                        "seconds": round(league.seconds, 3),
                        **{k: round(v, 6) for k, v in metrics.items()},
                    },
                )
                say(
                    f"rllib: iteration {league.iteration}: {league.env_steps} env steps, "
                    f"{metrics['env_steps_per_second']:.0f} steps/s"
                )
                if league.iteration % config.league.snapshot_every_iterations == 0:
                    trainer.snapshot()
                done = league.env_steps >= config.total_timesteps
                if league.iteration % config.evaluation.every_iterations == 0 or (
                    done and config.evaluation.at_end
                ):
                    policy = trainer.export(directory / "policy.npz")
                    rows = trainer.evaluate(policy)
                    for row in rows:
                        _append_jsonl(directory / "evaluations.jsonl", row)
                        board.log(
                            {f"eval/{row['opponent']}/win_rate": float(row["win_rate"] or 0.0)},
                            league.env_steps,
                        )
                        say(
                            f"rllib: vs {row['opponent']}: win rate {row['win_rate']:.3f} "
                            f"[{row['ci_low']:.3f}, {row['ci_high']:.3f}] in {row['games']} games"
                        )
                    evaluations.extend(rows)
                if league.iteration % config.checkpoint.every_iterations == 0 or done:
                    trainer.save()
        except KeyboardInterrupt:
            interrupted = True
            trainer.save()
            policy = trainer.export(directory / "policy.npz")
        else:
            policy = trainer.export(directory / "policy.npz")
        finally:
            board.close()
            trainer.stop()
    return TrainResult(
        directory,
        league.iteration,
        league.env_steps,
        league.seconds,
        policy,
        evaluations,
        nodes,
        interrupted,
    )


def _torch_threads(threads: int) -> None:
    import torch

    torch.set_num_threads(threads)


def _rate(result: Mapping[str, Any], seconds: float) -> float:
    """Env steps sampled in this iteration per second of it."""
    sampled = result.get("env_runners", {}).get("num_env_steps_sampled", 0.0)
    return float(sampled) / seconds if seconds > 0 else 0.0
