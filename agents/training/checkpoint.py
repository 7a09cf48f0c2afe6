"""A run directory and its checkpoints: what is written, in which order, and how it is read back.

Layout of ``<run.output_dir>/<run.name>/``::

    config.yaml                   the full config the run was started with (defaults filled in)
    state.json                    the last complete checkpoint: step count, files, best
                                  evaluation, random states, config fingerprint, sessions
    checkpoints/step_N.zip        MaskablePPO.save: policy, optimizer, step count, schedules,
                                  the last observations
    checkpoints/step_N.league.json  the league pool at step N
    checkpoints/step_N.games.npz  the training games at step N, as a record to replay
                                  (:mod:`agents.training.games`)
    league/snapshot_N.zip         frozen learners in the pool (weights only, no optimizer)
    eval/evaluations.jsonl        one line per periodic evaluation and opponent
    best_model.zip                best evaluation win rate against ``evaluation.best_by``
    final_model.zip               the policy at the end of training (weights only)
    tb/                           TensorBoard logs

Checkpoints are written between rollouts only (periodically, at a stop, at the end), where the
policy has just been updated and nothing is half-collected; with the games' record and the
random states, a resumed run then continues as the uninterrupted one would have, step for step
(see the README for what "exact" covers). A checkpoint is written model first, league and games
second, ``state.json`` last (each through a
temporary file and a rename), so a crash at any moment leaves ``state.json`` naming a complete
checkpoint: ``--resume`` never reads a half-written file.
"""

from __future__ import annotations

import base64
import json
import os
import random
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from agents.games import DEFAULT_GAME, write_model_game
from agents.training.league import League, write_json_atomic

if TYPE_CHECKING:
    from agents.training.games import Segment

STATE_FILE = "state.json"
CONFIG_FILE = "config.yaml"
STATE_VERSION = 2
READABLE_VERSIONS = (1, 2)  # version 1 had no games record: its resume deals new games


class ResumeError(RuntimeError):
    """A run directory that cannot be resumed (or started) as asked; the message says why."""


@dataclass
class RunState:
    """What ``state.json`` records about the last complete checkpoint."""

    num_timesteps: int = 0
    checkpoint: str | None = None  # relative to the run directory
    league: str | None = None
    games: str | None = None  # the games record (state version 2 on)
    best_win_rate: float | None = None
    best_step: int | None = None
    sessions: int = 1
    config_fingerprint: str = ""
    interrupted: bool = False
    wall_seconds: float = 0.0  # training wall time up to this checkpoint, all sessions
    rng: dict[str, Any] = field(default_factory=dict)
    version: int = STATE_VERSION

    def to_dict(self) -> dict[str, Any]:
        """JSON data."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RunState:
        """Read ``state.json`` data."""
        if data.get("version") not in READABLE_VERSIONS:
            raise ResumeError(f"state.json version {data.get('version')!r} is not supported")
        return cls(**{**data, "version": STATE_VERSION})


def read_state(run_dir: str | os.PathLike[str]) -> RunState | None:
    """The run's last complete checkpoint, or None for a run never checkpointed."""
    path = Path(run_dir) / STATE_FILE
    if not path.exists():
        return None
    return RunState.from_dict(json.loads(path.read_text(encoding="utf-8")))


def _encode_tensor(tensor: Any) -> str:
    return base64.b64encode(tensor.numpy().tobytes()).decode("ascii")


def _decode_tensor(text: str) -> Any:
    import torch

    raw = np.frombuffer(base64.b64decode(text), dtype=np.uint8).copy()
    return torch.from_numpy(raw)


def capture_rng() -> dict[str, Any]:
    """The main process's random states that stable-baselines3 draws from (torch sampling,
    on the CPU and every CUDA device; minibatch permutations through numpy's global state;
    python's random)."""
    import torch

    legacy: Any = np.random.get_state(legacy=True)
    kind, keys, position, has_gauss, gauss = legacy
    state = {
        "torch": _encode_tensor(torch.get_rng_state()),
        "numpy": [kind, keys.tolist(), int(position), int(has_gauss), float(gauss)],
        "python": _jsonable(random.getstate()),
    }
    if torch.cuda.is_available() and torch.cuda.is_initialized():
        state["cuda"] = [_encode_tensor(s) for s in torch.cuda.get_rng_state_all()]
    return state


def restore_rng(state: dict[str, Any]) -> None:
    """Put back what :func:`capture_rng` recorded."""
    import torch

    if not state:
        return
    torch.set_rng_state(_decode_tensor(state["torch"]))
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all([_decode_tensor(s) for s in state["cuda"]])
    kind, keys, position, has_gauss, gauss = state["numpy"]
    np.random.set_state((kind, np.asarray(keys, dtype=np.uint32), position, has_gauss, gauss))
    random.setstate(_tupled(state["python"]))


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


def _tupled(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    return value


def save_model_atomic(
    model: Any,
    path: str | os.PathLike[str],
    weights_only: bool = False,
    game: str = DEFAULT_GAME,
    players: int | None = None,
) -> Path:
    """``model.save`` through a temporary file; ``weights_only`` drops the optimizer's moments
    and the rollout leftovers (a small file for play, not for resuming). The zip records its
    ``game`` and, when given, the table size ``players`` it plays (:func:`agents.games.model_game`
    and :func:`agents.games.recorded_players` read them)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.stem + ".tmp.zip")
    if weights_only:
        policy = model.policy
        optimizer = policy.optimizer
        # A fresh optimizer has an empty state: the zip then holds the weights alone.
        policy.optimizer = policy.optimizer_class(
            policy.parameters(), lr=optimizer.param_groups[0]["lr"], **policy.optimizer_kwargs
        )
        try:
            model.save(
                temporary,
                exclude=[
                    "_last_obs",
                    "_last_episode_starts",
                    "_last_original_obs",
                    "ep_info_buffer",
                    "ep_success_buffer",
                ],
            )
        finally:
            policy.optimizer = optimizer
    else:
        model.save(temporary)
    write_model_game(temporary, game, players)
    os.replace(temporary, path)
    return path


def save_checkpoint(
    model: Any,
    league: League,
    run_dir: str | os.PathLike[str],
    state: RunState,
    keep_last: int,
    games: Segment | None = None,
    game: str = DEFAULT_GAME,
    players: int | None = None,
) -> Path:
    """Write a resumable checkpoint at ``model.num_timesteps`` (with the training games'
    record when given; the model zip records its ``game``) and point ``state.json`` at it."""
    run_dir = Path(run_dir)
    step = int(model.num_timesteps)
    model_path = save_model_atomic(
        model, run_dir / "checkpoints" / f"step_{step}.zip", game=game, players=players
    )
    league_path = run_dir / "checkpoints" / f"step_{step}.league.json"
    league.save(league_path)
    league.save(run_dir / "league.json")
    state.games = None
    if games is not None:
        from agents.training.games import save_games  # needs stable-baselines3

        games_path = save_games(run_dir / "checkpoints" / f"step_{step}.games.npz", games, run_dir)
        state.games = os.path.relpath(games_path, run_dir)
    state.num_timesteps = step
    state.checkpoint = os.path.relpath(model_path, run_dir)
    state.league = os.path.relpath(league_path, run_dir)
    state.rng = capture_rng()
    write_json_atomic(run_dir / STATE_FILE, state.to_dict())
    prune_checkpoints(run_dir, keep_last, keep=model_path)
    return model_path


EVALUATIONS = Path("eval") / "evaluations.jsonl"


def trim_evaluations(run_dir: str | os.PathLike[str], step: int) -> int:
    """Drop the evaluation rows written after the checkpoint at ``step`` (a run killed after
    them repeats those evaluations when it resumes) and a half-written last line; returns
    how many rows were dropped. The file is replaced atomically."""
    path = Path(run_dir) / EVALUATIONS
    if not path.is_file():
        return 0
    kept: list[str] = []
    dropped = 0
    for line in path.read_text(encoding="utf-8").splitlines(keepends=True):
        try:
            row = json.loads(line)
            complete = line.endswith("\n") and int(row["step"]) <= step
        except (ValueError, KeyError, TypeError):
            complete = False
        if complete:
            kept.append(line)
        else:
            dropped += 1
    if dropped:
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_text("".join(kept), encoding="utf-8")
        os.replace(temporary, path)
    return dropped


def checkpoint_steps(run_dir: str | os.PathLike[str]) -> list[int]:
    """Steps of the checkpoints present, oldest first."""
    steps = []
    for path in (Path(run_dir) / "checkpoints").glob("step_*.zip"):
        number = path.stem.removeprefix("step_")
        if number.isdigit():
            steps.append(int(number))
    return sorted(steps)


def prune_checkpoints(run_dir: str | os.PathLike[str], keep_last: int, keep: Path) -> None:
    """Delete all but the newest ``keep_last`` checkpoints (never ``keep``)."""
    directory = Path(run_dir) / "checkpoints"
    steps = checkpoint_steps(run_dir)
    for step in steps[: max(0, len(steps) - keep_last)]:
        model_path = directory / f"step_{step}.zip"
        if model_path.resolve() == keep.resolve():
            continue
        model_path.unlink(missing_ok=True)
        (directory / f"step_{step}.league.json").unlink(missing_ok=True)
        (directory / f"step_{step}.games.npz").unlink(missing_ok=True)
