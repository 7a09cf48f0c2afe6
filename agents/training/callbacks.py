"""The callbacks of a training run: league refresh, arena evaluation, checkpoints, Ctrl-C, timing.

Everything periodic runs at the start of a rollout, never in the middle of one: the policy
has just been updated and ``num_timesteps`` counts exactly the steps it was trained on, so a
snapshot, an evaluation or a checkpoint taken there is a consistent state of the run. A period
of N steps fires on the first rollout start at or after each multiple of N. A stop (Ctrl-C,
SIGTERM) waits for the next rollout start too, and writes its checkpoint there.

The callbacks share one :class:`RunContext` (the run directory, the league, the state written
to ``state.json``) and report the seconds they spend, so that the throughput figures can tell
environment time from learning time from bookkeeping.
"""

from __future__ import annotations

import json
import math
import signal
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import VecEnv, VecEnvWrapper

from agents.training.checkpoint import RunState, save_checkpoint, save_model_atomic
from agents.training.config import TrainConfig
from agents.training.games import GameRecorder, segment_seed
from agents.training.league import League


@dataclass
class RunContext:
    """What the callbacks of one run share."""

    config: TrainConfig
    run_dir: Path
    league: League
    state: RunState
    overhead_seconds: float = 0.0  # time spent in snapshots, evaluations and checkpoints
    stop_requested: bool = False
    stop_saved: bool = False  # the stop's checkpoint is written: end at the next step
    steps_at_rollout_start: int = 0
    log: Callable[[str], None] = field(default=lambda text: print(text, file=sys.stderr))
    session_started: float = field(default_factory=time.perf_counter)
    # The run's wall time before this session (state.wall_seconds of the checkpoint it resumed
    # from, 0 for a new run), read when the session started: a step-0 checkpoint written by
    # pretraining in this session already counts time that session_started counts too.
    wall_before_session: float = 0.0
    games: GameRecorder | None = None  # the run's VecEnv and its games' record

    def elapsed(self) -> float:
        """Training wall time of the run so far: earlier sessions (up to their last
        checkpoint) and this one."""
        return self.wall_before_session + time.perf_counter() - self.session_started


class Every:
    """Fires once each time a step count passes a multiple of ``period``."""

    def __init__(self, period: int, start: int):
        self.period = period
        self.last = start // period

    def due(self, step: int) -> bool:
        """True (once) when ``step`` reached a new multiple of the period."""
        if step // self.period > self.last:
            self.last = step // self.period
            return True
        return False


# ---------------------------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------------------------
class TimedVecEnv(VecEnvWrapper):
    """Counts the wall time spent inside the environments (steps, resets, mask queries,
    including the pipe round trips of a SubprocVecEnv); ``opponent_seconds``, the part of it
    spent in the opponents' policies outside the core, where ``inner`` counts it: the
    ``external_seconds`` of :class:`~agents.training.native_league.NativeLeagueVecEnv`, or the
    ``opponent_share()`` of the Python environments' time
    (:class:`~agents.training.league.LeagueClock`)."""

    def __init__(self, venv: VecEnv, inner: Any = None):
        super().__init__(venv)
        self.env_seconds = 0.0
        self.inner = inner

    @property
    def opponent_seconds(self) -> float:
        """Seconds in opponents' policies outside the core (0 where not counted)."""
        share = getattr(self.inner, "opponent_share", None)
        if share is not None:
            return self.env_seconds * float(share())
        return float(getattr(self.inner, "external_seconds", 0.0))

    def reset(self) -> Any:
        """Reset every environment."""
        started = time.perf_counter()
        try:
            return self.venv.reset()
        finally:
            self.env_seconds += time.perf_counter() - started

    def step_async(self, actions: np.ndarray) -> None:
        """Send the actions."""
        started = time.perf_counter()
        self.venv.step_async(actions)
        self.env_seconds += time.perf_counter() - started

    def step_wait(self) -> Any:
        """Wait for the steps."""
        started = time.perf_counter()
        try:
            return self.venv.step_wait()
        finally:
            self.env_seconds += time.perf_counter() - started

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        """Call a method of the environments (MaskablePPO asks ``action_masks`` every step)."""
        started = time.perf_counter()
        try:
            return self.venv.env_method(method_name, *method_args, indices=indices, **method_kwargs)
        finally:
            self.env_seconds += time.perf_counter() - started


class InfoMaskVecEnv(VecEnvWrapper):
    """Answers MaskablePPO's per-step ``env_method("action_masks")`` from the ``action_mask``
    the environments already put in every step's and reset's info, saving one round trip to
    each worker per step. For an environment whose game just ended (and was reset by the
    VecEnv), the mask comes from the reset's info. Wrap the raw Subproc/DummyVecEnv with it
    (it reads ``reset_infos``, which wrappers do not forward)."""

    def __init__(self, venv: VecEnv):
        super().__init__(venv)
        self.masks: list[np.ndarray | None] = [None] * venv.num_envs

    def _take(self, index: int, info: dict[str, Any]) -> None:
        mask = info.get("action_mask")
        self.masks[index] = None if mask is None else np.asarray(mask, dtype=bool)

    def reset(self) -> Any:
        """Reset every environment and keep the masks of the first decisions."""
        observations = self.venv.reset()
        for index, info in enumerate(self.venv.reset_infos):
            self._take(index, info)
        return observations

    def step_wait(self) -> Any:
        """Step, keeping each environment's next mask."""
        observations, rewards, dones, infos = self.venv.step_wait()
        for index, (done, info) in enumerate(zip(dones, infos, strict=True)):
            self._take(index, self.venv.reset_infos[index] if done else info)
        return observations, rewards, dones, infos

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        """``action_masks`` from the cache when every mask is known; the rest is forwarded."""
        if (
            method_name == "action_masks"
            and indices is None
            and not method_args
            and not method_kwargs
            and all(m is not None for m in self.masks)
        ):
            return list(self.masks)
        return self.venv.env_method(method_name, *method_args, indices=indices, **method_kwargs)


@dataclass
class Throughput:
    """Where the wall time of a training session went."""

    steps: int
    wall_seconds: float
    env_seconds: float
    rollout_seconds: float
    learn_seconds: float
    overhead_seconds: float
    opponent_seconds: float = 0.0  # part of env_seconds: opponents' policies outside the core

    @property
    def steps_per_second(self) -> float:
        """Environment steps per wall second, learning and bookkeeping included."""
        return self.steps / self.wall_seconds if self.wall_seconds > 0 else math.nan

    def share(self, seconds: float) -> float:
        """A part of the wall time as a fraction."""
        return seconds / self.wall_seconds if self.wall_seconds > 0 else math.nan

    def to_dict(self) -> dict[str, float]:
        """Figures for logs and reports."""
        return {
            "steps": self.steps,
            "wall_seconds": round(self.wall_seconds, 3),
            "steps_per_second": round(self.steps_per_second, 2),
            "env_share": round(self.share(self.env_seconds - self.opponent_seconds), 4),
            "opponent_share": round(self.share(self.opponent_seconds), 4),
            "inference_share": round(self.share(self.rollout_seconds - self.env_seconds), 4),
            "learn_share": round(self.share(self.learn_seconds), 4),
            "overhead_share": round(self.share(self.overhead_seconds), 4),
        }

    def text(self) -> str:
        """One line for the console."""
        figures = self.to_dict()
        return (
            f"{figures['steps']} steps in {figures['wall_seconds']:.1f} s: "
            f"{figures['steps_per_second']:.0f} steps/s; wall time: environment "
            f"{100 * figures['env_share']:.0f}%, opponents' policies "
            f"{100 * figures['opponent_share']:.0f}%, learner inference and buffer "
            f"{100 * figures['inference_share']:.0f}%, learning "
            f"{100 * figures['learn_share']:.0f}%, evaluation and checkpoints "
            f"{100 * figures['overhead_share']:.0f}%"
        )


class ThroughputCallback(BaseCallback):
    """Splits wall time into rollout collection (environment + inference), learning and the
    other callbacks' bookkeeping; logs it under ``time/``. Put it last in the callback list."""

    def __init__(self, context: RunContext, timed_env: TimedVecEnv):
        super().__init__()
        self.context = context
        self.timed_env = timed_env
        self.started = 0.0
        self.start_steps = 0
        self.env_at_start = 0.0
        self.opponents_at_start = 0.0
        self.overhead_at_start = 0.0
        self.rollout_seconds = 0.0
        self.rollout_started: float | None = None
        self.rollout_ended: float | None = None
        self.overhead_at_rollout_end = 0.0
        self.learn_seconds = 0.0
        self.ended: float | None = None
        self.overhead_at_end: float | None = None

    def _on_training_start(self) -> None:
        self.started = time.perf_counter()
        self.start_steps = self.model.num_timesteps
        self.env_at_start = self.timed_env.env_seconds
        self.opponents_at_start = self.timed_env.opponent_seconds
        self.overhead_at_start = self.context.overhead_seconds

    def _on_rollout_start(self) -> None:
        now = time.perf_counter()
        if self.rollout_ended is not None:
            overhead = self.context.overhead_seconds - self.overhead_at_rollout_end
            self.learn_seconds += max(0.0, now - self.rollout_ended - overhead)
        self.rollout_started = now

    def _on_step(self) -> bool:
        return True

    def _on_rollout_end(self) -> None:
        now = time.perf_counter()
        if self.rollout_started is not None:
            self.rollout_seconds += now - self.rollout_started
        self.rollout_ended = now
        self.overhead_at_rollout_end = self.context.overhead_seconds
        figures = self.throughput(now).to_dict()
        self.logger.record("time/steps_per_second", figures["steps_per_second"])
        self.logger.record("time/env_share", figures["env_share"])
        self.logger.record("time/opponent_share", figures["opponent_share"])
        self.logger.record("time/inference_share", figures["inference_share"])
        self.logger.record("time/learn_share", figures["learn_share"])
        self.logger.record("time/overhead_share", figures["overhead_share"])

    def _on_training_end(self) -> None:
        now = time.perf_counter()
        if self.rollout_ended is not None and (self.rollout_started or 0) < self.rollout_ended:
            overhead = self.context.overhead_seconds - self.overhead_at_rollout_end
            self.learn_seconds += max(0.0, now - self.rollout_ended - overhead)
        elif self.rollout_started is not None:  # stopped in the middle of a rollout
            self.rollout_seconds += now - self.rollout_started
        self.ended = now
        self.overhead_at_end = self.context.overhead_seconds

    def throughput(self, now: float | None = None) -> Throughput:
        """The figures so far (or at the end of training)."""
        end = now if now is not None else (self.ended or time.perf_counter())
        overhead = self.context.overhead_seconds
        if now is None and self.overhead_at_end is not None:
            overhead = self.overhead_at_end
        return Throughput(
            steps=self.model.num_timesteps - self.start_steps,
            wall_seconds=end - self.started,
            env_seconds=self.timed_env.env_seconds - self.env_at_start,
            rollout_seconds=self.rollout_seconds,
            learn_seconds=self.learn_seconds,
            overhead_seconds=overhead - self.overhead_at_start,
            opponent_seconds=self.timed_env.opponent_seconds - self.opponents_at_start,
        )


# ---------------------------------------------------------------------------------------------
# Stopping cleanly on Ctrl-C
# ---------------------------------------------------------------------------------------------
@contextmanager
def stop_on_interrupt(context: RunContext) -> Iterator[None]:
    """While active, the first Ctrl-C (SIGINT) or SIGTERM asks the run to stop at the next
    rollout start (the current rollout and its update finish, then a checkpoint is saved); a
    second Ctrl-C interrupts at once."""

    def request_stop(signum: int, frame: FrameType | None) -> None:
        if context.stop_requested and signum == signal.SIGINT:
            raise KeyboardInterrupt
        context.stop_requested = True
        context.log(
            "stopping: finishing the current rollout and its update, then saving a checkpoint "
            "(Ctrl-C again to abort without saving)"
        )

    previous = {sig: signal.signal(sig, request_stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


class TorchThreadsCallback(BaseCallback):
    """One torch thread while collecting rollouts, ``learn_threads`` while learning.

    During a rollout the environment workers need every core; a multi-threaded torch in the
    main process then spins against them (measured on 2 loaded cores: a single forward pass
    took 128 ms with 2 threads, 8 ms with 1)."""

    def __init__(self, learn_threads: int):
        super().__init__()
        self.learn_threads = learn_threads

    def _set(self, threads: int) -> None:
        import torch

        if torch.get_num_threads() != threads:
            torch.set_num_threads(threads)

    def _on_training_start(self) -> None:
        self._set(1)

    def _on_rollout_start(self) -> None:
        self._set(1)

    def _on_rollout_end(self) -> None:
        self._set(self.learn_threads)

    def _on_step(self) -> bool:
        return True


class StopCallback(BaseCallback):
    """Ends training at the first step after the stop's checkpoint was written (at a rollout
    start, by :class:`RunCheckpointCallback`); remembers the step count at each rollout start
    (the count the policy was trained on)."""

    def __init__(self, context: RunContext):
        super().__init__()
        self.context = context

    def _on_rollout_start(self) -> None:
        self.context.steps_at_rollout_start = self.model.num_timesteps

    def _on_step(self) -> bool:
        return not self.context.stop_saved


# ---------------------------------------------------------------------------------------------
# The league
# ---------------------------------------------------------------------------------------------
class LeagueCallback(BaseCallback):
    """Freezes the learner into the pool every ``snapshot_every_steps``, sends the pool to the
    environments every ``refresh_every_steps``, and logs the learner's win rate by opponent
    (from the ``league`` entry the environments put in the info of a finished game)."""

    def __init__(self, context: RunContext, start_step: int):
        super().__init__()
        self.context = context
        league = context.config.league
        self.snapshot_every = Every(league.snapshot_every_steps, start_step)
        self.refresh_every = Every(league.refresh_every_steps, start_step)
        self.results: dict[str, list[float]] = defaultdict(list)

    def _on_rollout_start(self) -> None:
        started = time.perf_counter()
        step = self.model.num_timesteps
        if self.snapshot_every.due(step):
            path = self.context.league.snapshot_dir / f"snapshot_{step}.zip"
            config = self.context.config
            save_model_atomic(
                self.model, path, weights_only=True, game=config.game, players=config.num_players
            )
            self.context.league.add_snapshot(step, path)
        if self.refresh_every.due(step):
            self.push()
        self.context.overhead_seconds += time.perf_counter() - started

    def push(self) -> None:
        """Send the current league mix to every environment."""
        mix = self.context.league.mix()
        self.training_env.env_method("set_league", mix)
        self.logger.record("league/pool_size", len(self.context.league.snapshots))

    def _on_step(self) -> bool:
        for info in self.locals.get("infos", ()):
            result = info.get("league")
            if result is not None:
                self.results["all"].append(result["win"])
                for label in set(result["opponents"]):
                    kind = label.split(":")[0]
                    self.results[kind].append(result["win"])
        return True

    def _on_rollout_end(self) -> None:
        for kind, wins in self.results.items():
            if wins:
                self.logger.record(f"league/win_rate_vs_{kind}", float(np.mean(wins)))
                self.logger.record(f"league/games_vs_{kind}", len(wins))
        self.results.clear()


# ---------------------------------------------------------------------------------------------
# Evaluation
# ---------------------------------------------------------------------------------------------
class ArenaEvalCallback(BaseCallback):
    """Every ``evaluation.every_steps``: the current policy plays ``evaluation.games`` arena
    games against each opponent; the win rate, its Wilson interval and the mean margin go to
    TensorBoard and ``eval/evaluations.jsonl``; ``best_model.zip`` keeps the best policy by win
    rate against ``evaluation.best_by``."""

    def __init__(self, context: RunContext, start_step: int):
        super().__init__()
        self.context = context
        self.every = Every(context.config.evaluation.every_steps, start_step)
        self.last_step: int | None = None

    def _on_training_start(self) -> None:
        if self.context.config.evaluation.at_start and self.model.num_timesteps == 0:
            self.evaluate()

    def _on_rollout_start(self) -> None:
        if self.every.due(self.model.num_timesteps):
            self.evaluate()

    def evaluate(self, final: bool = False) -> dict[str, dict[str, Any]]:
        """Evaluate the current policy now; returns the figures by opponent. ``final``: the
        evaluation at the end of training, off the period (its rows say ``"final": true``: an
        uninterrupted longer run has no such row)."""
        from agents.training.evaluate import evaluate_model

        started = time.perf_counter()
        config, context = self.context.config, self.context
        settings = config.evaluation
        step = self.model.num_timesteps
        self.last_step = step
        current = save_model_atomic(
            self.model,
            context.run_dir / "eval" / "current.zip",
            weights_only=True,
            game=config.game,
            players=config.num_players,
        )
        results: dict[str, dict[str, Any]] = {}
        for opponent in settings.opponents:
            evaluation = evaluate_model(
                current,
                [opponent],
                players=config.eval_players(),
                games=settings.games,
                seed=config.seed,
                paired=settings.paired,
                workers=settings.workers,
                deterministic=settings.deterministic,
                agent="ppo",
            )
            figures = evaluation.headline()
            results[opponent] = figures
            name = opponent.replace(":", "_").replace(",", "_").replace("=", "")
            for key in ("win_rate", "ci_low", "ci_high", "mean_margin"):
                self.logger.record(f"eval/{name}/{key}", figures[key])
            line = {
                "step": step,
                "opponent": opponent,
                "wall_seconds": round(context.elapsed() - (time.perf_counter() - started), 2),
                "seconds": round(evaluation.seconds, 2),
                **figures,
            }
            if final:
                line["final"] = True
            with open(context.run_dir / "eval" / "evaluations.jsonl", "a", encoding="utf-8") as f:
                f.write(json.dumps(line) + "\n")
            context.log(
                f"eval at step {step} vs {opponent}: win rate {figures['win_rate']:.3f} "
                f"[{figures['ci_low']:.3f}, {figures['ci_high']:.3f}], mean margin "
                f"{figures['mean_margin']:.2f} ({figures['games']} games)"
            )
        best = results[settings.best_by]["win_rate"]
        state = context.state
        if best is not None and (state.best_win_rate is None or best > state.best_win_rate):
            state.best_win_rate = float(best)
            state.best_step = step
            save_model_atomic(
                self.model,
                context.run_dir / "best_model.zip",
                weights_only=True,
                game=config.game,
                players=config.num_players,
            )
            context.log(f"new best model at step {step}: win rate {best:.3f} vs {settings.best_by}")
        self.logger.record("eval/best_win_rate", state.best_win_rate)
        self.logger.dump(step)
        context.overhead_seconds += time.perf_counter() - started
        return results

    def _on_step(self) -> bool:
        return True


# ---------------------------------------------------------------------------------------------
# Checkpoints
# ---------------------------------------------------------------------------------------------
class RunCheckpointCallback(BaseCallback):
    """Every ``checkpoint.every_steps``: new training games (see :mod:`agents.training.games`)
    and a resumable checkpoint (model and optimizer, league pool, the games' record, step
    count, best evaluation, random states); at a requested stop, a checkpoint, then the end of
    training. Put it after the league and evaluation callbacks so the checkpoint includes what
    they did at the same step."""

    def __init__(self, context: RunContext, start_step: int):
        super().__init__()
        self.context = context
        self.every = Every(context.config.checkpoint.every_steps, start_step)

    def _on_rollout_start(self) -> None:
        due = self.every.due(self.model.num_timesteps)
        if due:
            self.deal()
        if due or self.context.stop_requested:
            self.save(interrupted=self.context.stop_requested)
            self.context.stop_saved = self.context.stop_requested

    def deal(self) -> None:
        """New games from the seed of this step; the model continues from their first
        observations (the last rollout already bootstrapped the games it leaves)."""
        games = self.context.games
        if games is None:
            return
        step = int(self.model.num_timesteps)
        games.begin(segment_seed(self.context.config.seed, step), step)
        self.model._last_obs = games.reset()
        self.model._last_episode_starts = np.ones(games.num_envs, dtype=bool)

    def finish(self) -> Path:
        """The checkpoint at the end of training (after the last update): what a rollout start
        at this step would have done, new games included when the period is due."""
        if self.every.due(self.model.num_timesteps):
            self.deal()
        return self.save()

    def save(self, interrupted: bool = False) -> Path:
        """Write a checkpoint now."""
        started = time.perf_counter()
        self.context.state.interrupted = interrupted
        self.context.state.wall_seconds = round(self.context.elapsed(), 3)
        games = self.context.games
        path = save_checkpoint(
            self.model,
            self.context.league,
            self.context.run_dir,
            self.context.state,
            self.context.config.checkpoint.keep_last,
            games=games.segment if games is not None else None,
            game=self.context.config.game,
            players=self.context.config.num_players,
        )
        self.context.overhead_seconds += time.perf_counter() - started
        return path

    def _on_step(self) -> bool:
        return True
