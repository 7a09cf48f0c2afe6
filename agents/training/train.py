"""Train a MaskablePPO policy for any registered game by self-play against an opponent league.

``train(config)`` runs one training session in ``<run.output_dir>/<run.name>/`` (layout in
:mod:`agents.training.checkpoint`); ``train(config, resume=True)`` continues the run from its
last checkpoint: model, optimizer, step count, league pool, best evaluation and the main
process's random states come back, and the training games are dealt again and replayed to
where they stood (:mod:`agents.training.games`), so that the resumed run continues as the
uninterrupted one would have.

The learner plays a random seat of an ``AirshipsSingleAgentEnv`` (another game: a
:class:`~airships_env.game_single_agent.GameSingleAgentEnv` of ``config.game``, in Python
environments, ``vec_env: subproc`` or ``dummy``); the other seats are
:class:`~agents.training.league.LeagueSeat` agents that draw a bot or a frozen snapshot of the
learner at every game (see :mod:`agents.training.league`).
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from agents.arena import default_workers
from agents.training.callbacks import (
    ArenaEvalCallback,
    InfoMaskVecEnv,
    LeagueCallback,
    RunCheckpointCallback,
    RunContext,
    StopCallback,
    Throughput,
    ThroughputCallback,
    TimedVecEnv,
    TorchThreadsCallback,
    stop_on_interrupt,
)
from agents.training.checkpoint import (
    CONFIG_FILE,
    ResumeError,
    RunState,
    read_state,
    restore_rng,
    save_checkpoint,
    save_model_atomic,
    trim_evaluations,
)
from agents.training.config import (
    ConfigError,
    TrainConfig,
    check_batch,
    config_differences,
    config_from_dict,
    dump_config,
    resolve_device,
)
from agents.training.games import GameRecorder, GamesFileError, Segment, load_games, segment_seed
from agents.training.imitation import (
    CloneReport,
    Demonstrations,
    clone_policy,
    collect_demonstrations,
)
from agents.training.league import (
    League,
    LeagueClock,
    LeagueEnvFactory,
    LeagueMix,
    write_json_atomic,
)
from agents.workers import single_threaded_blas, single_threaded_workers

TB_LOG_NAME = "ppo"
PRETRAIN_DIR = "pretrain"


@dataclass
class TrainResult:
    """What a training session did."""

    run_dir: Path
    num_timesteps: int
    checkpoint: Path | None
    final_model: Path | None
    interrupted: bool
    throughput: Throughput | None
    best_win_rate: float | None
    best_step: int | None


def activation_class(name: str) -> type:
    """The torch activation module of a config name."""
    import torch.nn as nn

    return {"tanh": nn.Tanh, "relu": nn.ReLU, "elu": nn.ELU, "leaky_relu": nn.LeakyReLU}[name]


def env_factory(config: TrainConfig, mix: LeagueMix) -> LeagueEnvFactory:
    """A picklable function building one training environment (called in each worker)."""
    return LeagueEnvFactory(
        config.num_players,
        mix,
        reward=config.reward,
        max_turns=config.max_turns,
        deterministic_snapshots=config.league.opponent_deterministic,
        worker=config.vec_env == "subproc",
        backend=config.env_backend,
        game=config.game,
    )


def make_vec_env(config: TrainConfig, n_envs: int, mix: LeagueMix, seed: int) -> TimedVecEnv:
    """``n_envs`` league games, monitored and timed: in the native core (``vec_env: native``,
    one process), or Python environments in a SubprocVecEnv (or DummyVecEnv) with masks read
    from the infos. ``seed`` seeds the games."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    if config.vec_env == "native":
        from agents.training.native_league import native_league_vec_env

        native = native_league_vec_env(
            config.game,
            n_envs,
            config.num_players,
            mix,
            seed=seed,
            reward=config.reward,
            max_turns=config.max_turns,
            deterministic_snapshots=config.league.opponent_deterministic,
        )
        if config.policy.hint is not None:
            from agents.training.hint import HintVecEnv

            return TimedVecEnv(
                VecMonitor(HintVecEnv(native, config.game, config.policy.hint)), inner=native
            )
        return TimedVecEnv(VecMonitor(native), inner=native)
    factories: list[Callable[[], Any]] = [env_factory(config, mix) for _ in range(n_envs)]
    if config.vec_env == "subproc":
        with single_threaded_workers():
            venv: Any = SubprocVecEnv(factories)
    else:
        venv = DummyVecEnv(factories)
    return TimedVecEnv(VecMonitor(InfoMaskVecEnv(venv)), inner=LeagueClock(venv))


def build_model(config: TrainConfig, venv: Any, tensorboard_log: str | None) -> Any:
    """A new MaskablePPO for the config."""
    import torch
    from stable_baselines3.common.utils import LinearSchedule

    ppo = config.ppo
    learning_rate: Any = ppo.learning_rate
    if ppo.lr_schedule == "linear":
        learning_rate = LinearSchedule(ppo.learning_rate, 0.0, 1.0)
    # The initial weights (orthogonal, through a QR decomposition) depend on torch's thread
    # count: built with learn_threads, a run's first weights do not depend on what ran before
    # in the process (the first run of a process started with every core, later ones with the
    # count the previous run left).
    threads = torch.get_num_threads()
    torch.set_num_threads(config.resolved_learn_threads())
    try:
        return _new_maskable_ppo(config, venv, tensorboard_log, learning_rate)
    finally:
        torch.set_num_threads(threads)


def _new_maskable_ppo(
    config: TrainConfig, venv: Any, tensorboard_log: str | None, learning_rate: Any
) -> Any:
    from sb3_contrib import MaskablePPO

    ppo = config.ppo
    hint: dict[str, Any] = {}
    policy: Any = "MlpPolicy"
    if config.policy.hint is not None:
        from agents.training.hint import HintedPolicy

        policy = HintedPolicy
        hint = {"hint": config.policy.hint, "hint_weight": config.policy.hint_weight}
    return MaskablePPO(
        policy,
        venv,
        learning_rate=learning_rate,
        n_steps=ppo.n_steps,
        batch_size=ppo.batch_size,
        n_epochs=ppo.n_epochs,
        gamma=ppo.gamma,
        gae_lambda=ppo.gae_lambda,
        clip_range=ppo.clip_range,
        ent_coef=ppo.ent_coef,
        vf_coef=ppo.vf_coef,
        max_grad_norm=ppo.max_grad_norm,
        target_kl=ppo.target_kl,
        policy_kwargs={
            "net_arch": list(config.policy.net_arch),
            "activation_fn": activation_class(config.policy.activation),
            **hint,
        },
        tensorboard_log=tensorboard_log,
        seed=config.seed,
        device=resolve_device(config.device),
        verbose=0,
    )


def load_initial_weights(model: Any, config: TrainConfig) -> None:
    """Start a new run from the policy weights of ``config.init_from`` (optimizer, step count
    and league start afresh)."""
    from sb3_contrib import MaskablePPO

    from agents.games import model_game

    assert config.init_from is not None
    where = f"{config.source}: init_from: {config.init_from}"
    trained = model_game(config.init_from)
    if trained != config.game:
        raise ConfigError(f"{where}: expected a model of {config.game}, got one of {trained}")
    initial = MaskablePPO.load(config.init_from, device="cpu")
    if initial.observation_space.shape != model.observation_space.shape:
        raise ConfigError(
            f"{where}: expected a model with observations of shape "
            f"{model.observation_space.shape} ({config.num_players} players), got "
            f"{initial.observation_space.shape}"
        )
    try:
        model.policy.load_state_dict(initial.policy.state_dict())
    except RuntimeError as exc:
        raise ConfigError(
            f"{where}: expected a model with policy.net_arch {config.policy.net_arch}; "
            f"its weights do not fit ({str(exc).splitlines()[0]})"
        ) from None


def pretrain(
    model: Any,
    config: TrainConfig,
    run_dir: Path,
    league: League,
    state: RunState,
    log: Callable[[str], None],
    progress: bool,
    started: float,
    games: Segment,
) -> CloneReport:
    """Clone ``config.pretrain.teacher`` into the new model (actor and critic), then write a
    step-0 checkpoint so that ``--resume`` never repeats it. The demonstrations are kept in
    ``<run>/pretrain/`` and reused if the run is restarted before that checkpoint."""
    settings = config.pretrain
    assert settings.teacher is not None
    demos_path = run_dir / PRETRAIN_DIR / "demonstrations.npz"
    if demos_path.is_file():
        demos = Demonstrations.load(demos_path)
        log(f"pretraining: {len(demos)} teacher decisions read from {demos_path}")
    else:
        log(f"pretraining: recording {settings.games} games of {settings.teacher} in every seat")
        demos = teacher_games(config, settings.games, progress)
        demos.save(demos_path)
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(config.resolved_learn_threads())  # as the PPO updates will
    clone = partial(
        clone_policy,
        model.policy,
        demos,
        batch_size=settings.batch_size,
        learning_rate=settings.learning_rate,
        value_coef=settings.value_coef,
        validation=settings.validation,
        seed=config.seed,
        log=log,
    )
    rounds: list[dict[str, float]] = []
    try:
        report = clone(epochs=settings.epochs)
        extra: list[Demonstrations] = []
        for number in range(1, settings.dagger_rounds + 1):
            log(f"pretraining: {report.text()}")
            played = dagger_round(model, config, run_dir, number, progress)
            extra.append(played)
            rounds.append(
                {
                    "round": number,
                    "games": played.student_games,
                    "student_win_share": round(played.student_win_share, 4),
                    "agreement": round(played.student_agreement, 4),
                    "rows": len(played),
                }
            )
            log(
                f"pretraining: DAgger round {number}/{settings.dagger_rounds}: the clone won "
                f"{played.student_win_share:.3f} of {played.student_games} games against "
                f"{settings.teacher} and chose the teacher's action in "
                f"{played.student_agreement:.3f} of its decisions; training on "
                f"{len(demos) + sum(len(e) for e in extra)} rows"
            )
            report = clone(
                epochs=settings.dagger_epochs or settings.epochs,
                extra=Demonstrations.concat(extra),
            )
    finally:
        torch.set_num_threads(threads)
    write_json_atomic(run_dir / PRETRAIN_DIR / "report.json", {**asdict(report), "dagger": rounds})
    log(f"pretraining: {report.text()}")
    state.wall_seconds = round(time.perf_counter() - started, 3)
    save_checkpoint(
        model,
        league,
        run_dir,
        state,
        config.checkpoint.keep_last,
        games=games,
        game=config.game,
        players=config.num_players,
    )
    return report


#: The tag of the teacher's games' seed stream (:func:`pretrain_seed`).
PRETRAIN_STREAM = 0x7EAC4E


def pretrain_seed(seed: int) -> int:
    """The seed of a run's teacher (and DAgger) games: a stream apart from ``seed`` itself,
    whose deals the run's evaluations play (``deal_seed(seed, g)``), so that a clone is never
    measured on the deals it was trained on."""
    return int(np.random.SeedSequence([seed, PRETRAIN_STREAM]).generate_state(1)[0])


def teacher_games(
    config: TrainConfig, games: int, progress: bool, **student: Any
) -> Demonstrations:
    """``games`` games of the config's teacher recorded as its learner sees them (with a
    ``student`` and a ``first_game``: a DAgger round's), dealt from :func:`pretrain_seed`."""
    settings = config.pretrain
    assert settings.teacher is not None
    return collect_demonstrations(
        settings.teacher,
        config.num_players,
        games,
        pretrain_seed(config.seed),
        reward=config.reward,
        gamma=config.ppo.gamma,
        max_turns=config.max_turns,
        workers=settings.workers if settings.workers is not None else default_workers(),
        progress=progress,
        game=config.game,
        hint=config.policy.hint,
        **student,
    )


def dagger_round(
    model: Any, config: TrainConfig, run_dir: Path, number: int, progress: bool
) -> Demonstrations:
    """DAgger round ``number``: the clone as it stands (saved as ``student_<n>.zip``) plays one
    seat of ``dagger_games`` new games against the teacher, which labels every decision. Its
    rows are kept as ``dagger_<n>.npz`` and reused if the run is restarted before step 0."""
    settings = config.pretrain
    assert settings.teacher is not None
    path = run_dir / PRETRAIN_DIR / f"dagger_{number}.npz"
    if path.is_file():
        return Demonstrations.load(path)
    student = save_model_atomic(
        model,
        run_dir / PRETRAIN_DIR / f"student_{number}.zip",
        weights_only=True,
        game=config.game,
        players=config.num_players,
    )
    played = teacher_games(
        config,
        settings.dagger_games,
        progress,
        student=str(student),
        first_game=settings.games + (number - 1) * settings.dagger_games,
    )
    played.save(path)
    return played


def prepare_run_dir(config: TrainConfig, run_dir: Path, resume: bool) -> RunState:
    """Check the run directory for a fresh start or a resume; returns the state to continue."""
    state = read_state(run_dir)
    if not resume:
        if state is not None or (run_dir / CONFIG_FILE).exists():
            raise ResumeError(
                f"{run_dir} already holds a run; continue it with --resume, or choose another "
                f"run.name (or delete the directory) to start afresh"
            )
        run_dir.mkdir(parents=True, exist_ok=True)
        dump_config(config, run_dir / CONFIG_FILE)
        return RunState(config_fingerprint=config.fingerprint())
    if (state is None or state.checkpoint is None) and not (run_dir / CONFIG_FILE).is_file():
        raise ResumeError(f"{run_dir} has no checkpoint to resume from (no {run_dir}/state.json)")
    import yaml

    saved = config_from_dict(
        yaml.safe_load((run_dir / CONFIG_FILE).read_text(encoding="utf-8")),
        str(run_dir / CONFIG_FILE),
    )
    if saved.fingerprint() != config.fingerprint():
        differences = [
            line
            for line in config_differences(saved.to_dict(), config.to_dict())
            if not line.startswith("total_timesteps:")
        ]
        raise ResumeError(
            f"{config.source} differs from the config {run_dir} was started with "
            f"({run_dir / CONFIG_FILE}); only total_timesteps may change on --resume. "
            f"Differences: " + "; ".join(differences)
        )
    if state is None or state.checkpoint is None:
        # Stopped before its first checkpoint (during pretraining): start again from step 0;
        # the teacher's recorded games in <run>/pretrain/ are reused.
        dump_config(config, run_dir / CONFIG_FILE)
        return RunState(config_fingerprint=config.fingerprint())
    if not (run_dir / state.checkpoint).is_file():
        raise ResumeError(f"{run_dir / state.checkpoint}, the last checkpoint, is missing")
    if saved.total_timesteps != config.total_timesteps:
        dump_config(config, run_dir / CONFIG_FILE)
    trim_evaluations(run_dir, state.num_timesteps)
    state.sessions += 1
    return state


def read_games(run_dir: Path, state: RunState, n_envs: int) -> Segment | None:
    """The games' record of the checkpoint (None for a checkpoint written before records)."""
    if state.games is None:
        return None
    try:
        return load_games(run_dir / state.games, run_dir, n_envs)
    except GamesFileError as error:
        raise ResumeError(f"cannot resume from {run_dir}: {error}") from None


def restore_games(
    model: Any,
    games: GameRecorder,
    saved: Segment | None,
    config: TrainConfig,
    step: int,
    log: Callable[[str], None],
) -> None:
    """Deal the checkpoint's games again and replay their record, and check that they reach
    the observations the model saved; a checkpoint without a record gets new games."""
    if saved is None:
        log(
            "this checkpoint has no record of its games (written by an older version): "
            "new games are dealt, so the run will not continue exactly as it would have"
        )
        games.begin(segment_seed(config.seed, step), step)
        model._last_obs = games.reset()
        model._last_episode_starts = np.ones(games.num_envs, dtype=bool)
        return
    started = time.perf_counter()
    try:
        observations = games.replay(saved)
    except (ValueError, RuntimeError, EOFError, BrokenPipeError) as error:
        # an illegal action (IllegalActionError is a ValueError), or a worker that failed on it
        raise ResumeError(
            f"the games' record of the checkpoint at step {step} does not replay: "
            f"{str(error).splitlines()[0] if str(error) else type(error).__name__}"
        ) from None
    if saved.actions:
        log(
            f"replayed the {len(saved.actions) * games.num_envs} steps played since the games "
            f"were dealt at step {saved.step} in {time.perf_counter() - started:.1f} s"
        )
    expected = model._last_obs
    if expected is not None and not np.array_equal(np.asarray(expected), observations):
        raise ResumeError(
            f"the replayed games do not reach the observations saved with the checkpoint "
            f"(step {step}): the environments are not deterministic, or the record or the "
            f"checkpoint was changed"
        )
    if expected is None or model._last_episode_starts is None:
        model._last_episode_starts = np.ones(games.num_envs, dtype=bool)
    model._last_obs = observations


def train(
    config: TrainConfig,
    *,
    resume: bool = False,
    run_dir: str | os.PathLike[str] | None = None,
    progress_bar: bool = True,
    log: Callable[[str], None] | None = None,
    callbacks: list[Any] | None = None,
) -> TrainResult:
    """Run (or resume) a training session until ``total_timesteps`` or a stop request;
    ``callbacks`` are extra stable-baselines3 callbacks (run before the run's own)."""
    from sb3_contrib import MaskablePPO

    session_started = time.perf_counter()  # the run's wall time counts pretraining too
    log = log if log is not None else (lambda text: print(text, file=sys.stderr))
    directory = Path(run_dir) if run_dir is not None else config.run_dir()
    n_envs = config.resolved_n_envs()
    check_batch(config, n_envs)
    state = prepare_run_dir(config, directory, resume)
    resume = state.checkpoint is not None  # a run stopped before its first one starts again
    wall_before_session = state.wall_seconds if resume else 0.0
    league = League(config.league, directory)
    if resume:
        assert state.league is not None
        league.load(directory / state.league)
    tensorboard_log = str(directory / "tb") if config.tensorboard else None
    saved_games = read_games(directory, state, n_envs) if resume else None
    mix = saved_games.mix if saved_games is not None else league.mix()
    venv = make_vec_env(config, n_envs, mix, segment_seed(config.seed, 0))
    games = GameRecorder(venv, mix)
    try:
        if resume:
            assert state.checkpoint is not None
            model = MaskablePPO.load(
                directory / state.checkpoint,
                env=games,
                device=resolve_device(config.device),
                tensorboard_log=tensorboard_log,
                force_reset=False,  # the replayed games continue from the saved observations
            )
        else:
            model = build_model(config, games, tensorboard_log)
            if config.init_from is not None:
                load_initial_weights(model, config)
            games.begin(segment_seed(config.seed, 0), 0)  # dealt by the first reset
            if config.pretrain.teacher is not None:
                pretrain(
                    model,
                    config,
                    directory,
                    league,
                    state,
                    log,
                    progress_bar,
                    session_started,
                    games.segment,
                )
        start_step = int(model.num_timesteps)
        context = RunContext(
            config,
            directory,
            league,
            state,
            log=log,
            session_started=session_started,
            wall_before_session=wall_before_session,
            games=games,
        )
        context.steps_at_rollout_start = start_step
        checkpoints = RunCheckpointCallback(context, start_step)
        league_callback = LeagueCallback(context, start_step)
        evaluations = ArenaEvalCallback(context, start_step)
        throughput = ThroughputCallback(context, venv)
        run_callbacks = [
            *(callbacks or []),
            TorchThreadsCallback(config.resolved_learn_threads()),
            StopCallback(context),
            league_callback,
            evaluations,
            checkpoints,
            throughput,
        ]
        remaining = config.total_timesteps - start_step
        log(
            f"{'resuming' if resume else 'training'} {directory} at step {start_step} of "
            f"{config.total_timesteps}: {n_envs} {config.vec_env} environments, "
            f"{config.num_players} players, pool of {len(league.snapshots)} snapshots"
        )
        interrupted = False
        checkpoint: Path | None = None
        if remaining > 0:
            with stop_on_interrupt(context), single_threaded_blas():
                if resume:
                    restore_games(model, games, saved_games, config, start_step, log)
                    restore_rng(state.rng)
                model.learn(
                    remaining,
                    callback=run_callbacks,
                    log_interval=config.log_interval,
                    tb_log_name=TB_LOG_NAME,
                    reset_num_timesteps=not resume,
                    progress_bar=progress_bar,
                )
                interrupted = context.stop_saved
                if interrupted:
                    # The stop's checkpoint was written at the last rollout start; the step
                    # taken after it is not part of the run.
                    model.num_timesteps = state.num_timesteps
                    checkpoint = directory / str(state.checkpoint)
                else:
                    # What a rollout start at this step would have done (a snapshot, a
                    # refresh, an evaluation when due), so that a resume continues as the
                    # uninterrupted run would; then the final policy competes for
                    # best_model.zip too, and the last checkpoint is written.
                    league_callback.on_rollout_start()
                    evaluations.on_rollout_start()
                    if evaluations.last_step != model.num_timesteps:
                        evaluations.evaluate(final=True)
                    checkpoint = checkpoints.finish()
        else:  # resumed at or past total_timesteps: nothing new to save but the final policy
            assert state.checkpoint is not None
            checkpoint = directory / state.checkpoint
        final = None
        if not interrupted:
            final = save_model_atomic(
                model,
                directory / "final_model.zip",
                weights_only=True,
                game=config.game,
                players=config.num_players,
            )
        figures = throughput.throughput() if remaining > 0 else None
        if figures is not None:
            log(figures.text())
        log(
            f"{'stopped' if interrupted else 'finished'} at step {model.num_timesteps}; "
            f"checkpoint {checkpoint}" + (f"; policy {final}" if final else "")
        )
        return TrainResult(
            directory,
            int(model.num_timesteps),
            checkpoint,
            final,
            interrupted,
            figures,
            state.best_win_rate,
            state.best_step,
        )
    finally:
        with contextlib.suppress(EOFError, BrokenPipeError, ConnectionResetError):
            venv.close()


def export_model(
    source: str | os.PathLike[str], target: str | os.PathLike[str], players: int | None = None
) -> Path:
    """Copy a checkpoint or model zip as a small weights-only model (for ``agents/models``);
    the copy records the source's game and its player count (``players``, or the one the
    source records)."""
    from sb3_contrib import MaskablePPO

    from agents.games import model_game, recorded_players

    recorded = recorded_players(source)
    if players is not None and recorded is not None and players != recorded:
        raise ValueError(f"{source}: a policy for {recorded} players, not for {players}")
    model = MaskablePPO.load(Path(source), device="cpu")
    return save_model_atomic(
        model,
        target,
        weights_only=True,
        game=model_game(source),
        players=players if players is not None else recorded,
    )
