"""The training games of a run as a record that a resume replays: dealt from a seed, then
driven by the learner's actions and the league's changes.

Everything random in the environments (deals, dice, the learner's seat, the league's draws,
the bots' and snapshots' choices) comes from generators seeded when the games are dealt, so
the games are a function of three things: the seed they were dealt from, the league mix at that
moment, and what was sent to them after (each step's learner actions, each new mix).
:class:`GameRecorder` sits on top of the run's VecEnv and keeps exactly that, a
:class:`Segment`; a checkpoint saves it (``checkpoints/step_N.games.npz``) and a resume deals
the same games and replays the record. Every environment, its generators, the games in flight
and the draws then stand where they stood, in both vector environments (``native``: one batch
in the core; ``subproc``/``dummy``: Python environments in workers), with no state of theirs
serialised.

The record grows by one row of ``num_envs`` actions per step; to bound it (and the replay), the
run deals new games at every periodic checkpoint, from :func:`segment_seed` of the run's seed
and the step. The games in flight there are dropped: the last rollout already bootstrapped
their value at its end, as it does for every game a rollout cuts, so the only cost is that their
ends are never played (with ``checkpoint.every_steps: 250_000`` and 64 games, 64 games of about
6,000). A checkpoint written off the period (a stop, the end of a run) holds the record since
the last deal, and a resume from it replays at most ``checkpoint.every_steps`` steps of
environment time (no learning).
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import VecEnv, VecEnvWrapper

from agents.training.league import SNAPSHOT, LeagueMix, Member

GAMES_VERSION = 1


class GamesFileError(ValueError):
    """A games record that cannot be read back; the message names the file and the field."""


def segment_seed(seed: int, step: int) -> int:
    """The seed of the games dealt at ``step`` of a run seeded ``seed``."""
    state = np.random.SeedSequence([seed, step]).generate_state(1, np.uint32)
    return int(state[0] >> np.uint32(1))


@dataclass
class Segment:
    """Games dealt at ``step`` from ``seed`` with the league ``mix``, then driven by
    ``actions`` (one row of learner actions per step) and ``leagues`` (a new mix after
    that many steps)."""

    seed: int
    step: int
    mix: LeagueMix
    actions: list[np.ndarray] = field(default_factory=list)
    leagues: list[tuple[int, LeagueMix]] = field(default_factory=list)

    def fresh(self) -> Segment:
        """The same deal with nothing played yet."""
        return Segment(self.seed, self.step, self.mix)


class GameRecorder(VecEnvWrapper):
    """The run's VecEnv, recording its current :class:`Segment` (see the module docstring).

    :meth:`begin` names the next deal; :meth:`reset` deals it (and is what stable-baselines3's
    first reset does); :meth:`replay` deals a saved segment and plays its record again."""

    def __init__(self, venv: VecEnv, mix: LeagueMix):
        super().__init__(venv)
        self.mix = mix  # the mix the environments draw from now
        self.segment = Segment(0, 0, mix)

    def begin(self, seed: int, step: int) -> None:
        """The next :meth:`reset` deals new games from ``seed`` with the current mix."""
        self.segment = Segment(seed, step, self.mix)

    def reset(self) -> Any:
        """Deal the segment's games (again, if they were dealt already)."""
        self.segment = self.segment.fresh()
        self.mix = self.segment.mix
        self.venv.env_method("set_league", self.mix)
        self.venv.seed(self.segment.seed)
        return self.venv.reset()

    def step_async(self, actions: np.ndarray) -> None:
        """Record the learner's actions and send them."""
        row = np.asarray(actions).reshape(self.num_envs).astype(np.int16)
        self.segment.actions.append(row)
        self.venv.step_async(actions)

    def step_wait(self) -> Any:
        """Wait for the step."""
        return self.venv.step_wait()

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        """Call a method of the environments; a new league mix is recorded."""
        if method_name == "set_league":
            if indices is not None:
                raise ValueError("set_league goes to every environment (no indices)")
            mix = method_args[0] if method_args else method_kwargs["mix"]
            self.segment.leagues.append((len(self.segment.actions), mix))
            self.mix = mix
        return self.venv.env_method(method_name, *method_args, indices=indices, **method_kwargs)

    def replay(self, segment: Segment) -> Any:
        """Deal ``segment``'s games and play its record again; returns the observations the
        last step (or the deal) gave."""
        self.segment = segment.fresh()
        observations = self.reset()
        leagues = sorted(segment.leagues, key=lambda entry: entry[0])
        next_league = 0
        for index, row in enumerate(segment.actions):
            while next_league < len(leagues) and leagues[next_league][0] <= index:
                self.env_method("set_league", leagues[next_league][1])
                next_league += 1
            self.step_async(row.astype(np.int64))
            observations = self.step_wait()[0]
        for _, mix in leagues[next_league:]:
            self.env_method("set_league", mix)
        return observations


# ---------------------------------------------------------------------------------------------
# The games file
# ---------------------------------------------------------------------------------------------
def mix_to_json(mix: LeagueMix, run_dir: str | os.PathLike[str]) -> dict[str, Any]:
    """A mix as JSON data, snapshot paths relative to the run directory (which may move)."""
    root = Path(run_dir).resolve()
    members = []
    for member in mix.members:
        ref = os.path.relpath(member.ref, root) if member.kind == SNAPSHOT else member.ref
        members.append({"kind": member.kind, "ref": ref})
    return {"members": members, "probabilities": list(mix.probabilities)}


def mix_from_json(data: Any, run_dir: str | os.PathLike[str], where: str) -> LeagueMix:
    """Read :func:`mix_to_json`'s data back (absolute snapshot paths, as ``League.mix``)."""
    try:
        members = tuple(
            Member(
                str(entry["kind"]),
                str((Path(run_dir) / entry["ref"]).resolve())
                if entry["kind"] == SNAPSHOT
                else str(entry["ref"]),
            )
            for entry in data["members"]
        )
        return LeagueMix(members, tuple(float(p) for p in data["probabilities"]))
    except (KeyError, TypeError, ValueError) as error:
        raise GamesFileError(f"{where}: expected a league mix, found {data!r} ({error})") from None


def save_games(
    path: str | os.PathLike[str], segment: Segment, run_dir: str | os.PathLike[str]
) -> Path:
    """Write ``segment`` to ``path`` (an ``.npz``) through a temporary file and a rename."""
    path = Path(path)
    num_envs = segment.actions[0].shape[0] if segment.actions else 0
    actions = (
        np.stack(segment.actions) if segment.actions else np.zeros((0, num_envs), dtype=np.int8)
    )
    if actions.size == 0 or (actions.min() >= -128 and actions.max() <= 127):
        actions = actions.astype(np.int8)  # Airships' 83 actions: the record as it always was
    else:
        actions = actions.astype(np.int16)  # a game of more than 128 actions (Nippon: 176)
    meta = {
        "version": GAMES_VERSION,
        "seed": segment.seed,
        "step": segment.step,
        "mix": mix_to_json(segment.mix, run_dir),
        "leagues": [
            {"after_steps": steps, "mix": mix_to_json(mix, run_dir)}
            for steps, mix in segment.leagues
        ],
    }
    buffer = io.BytesIO()
    np.savez_compressed(buffer, actions=actions, meta=np.array(json.dumps(meta)))
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_bytes(buffer.getvalue())
    os.replace(temporary, path)
    return path


def load_games(
    path: str | os.PathLike[str], run_dir: str | os.PathLike[str], num_envs: int
) -> Segment:
    """Read a games file written by :func:`save_games` for ``num_envs`` environments."""
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            actions = np.array(data["actions"])
            meta = json.loads(str(data["meta"]))
    except (OSError, KeyError, ValueError, zipfile.BadZipFile) as error:
        raise GamesFileError(f"{path}: not a games record ({error})") from None
    if not isinstance(meta, dict) or meta.get("version") != GAMES_VERSION:
        found = meta.get("version") if isinstance(meta, dict) else meta
        raise GamesFileError(f"{path}: version: expected {GAMES_VERSION}, found {found!r}")
    if actions.ndim != 2 or actions.dtype not in (np.int8, np.int16):
        raise GamesFileError(
            f"{path}: actions: expected int8 or int16 rows, found {actions.dtype} {actions.shape}"
        )
    if len(actions) and actions.shape[1] != num_envs:
        raise GamesFileError(
            f"{path}: actions: expected rows of {num_envs} environments, found {actions.shape[1]}"
        )
    for key in ("seed", "step"):
        value = meta.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise GamesFileError(f"{path}: {key}: expected a whole number >= 0, found {value!r}")
    leagues = []
    for index, entry in enumerate(meta.get("leagues", [])):
        steps = entry.get("after_steps") if isinstance(entry, dict) else None
        if isinstance(steps, bool) or not isinstance(steps, int) or not 0 <= steps <= len(actions):
            raise GamesFileError(
                f"{path}: leagues[{index}].after_steps: expected 0..{len(actions)}, found {steps!r}"
            )
        leagues.append((steps, mix_from_json(entry["mix"], run_dir, f"{path}: leagues[{index}]")))
    return Segment(
        int(meta["seed"]),
        int(meta["step"]),
        mix_from_json(meta.get("mix"), run_dir, f"{path}: mix"),
        list(actions),
        leagues,
    )
