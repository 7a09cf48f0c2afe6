"""Resume is exact: a run stopped and resumed equals the uninterrupted run, weights and
evaluation rows, with the native and the subprocess vector environments.

The tiny runs have 2 games and 64 steps per rollout (128 steps), a checkpoint period of 256
steps (new games are dealt there) and stop at 384 steps, off the period: the resume then
replays the games' record of the last 128 steps (the subprocess runs are half that). The games' record itself (file, relocation,
bad files, a tampered record) is tested on its own.
"""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from agents.training.checkpoint import ResumeError, read_state
from agents.training.config import TrainConfig, load_config
from agents.training.games import (
    GamesFileError,
    Segment,
    load_games,
    mix_from_json,
    mix_to_json,
    save_games,
)
from agents.training.league import BOT, SNAPSHOT, LeagueMix, Member
from agents.training.train import train
from tests.train.test_train import InterruptAfter

ROOT = Path(__file__).resolve().parents[2]
TIMING = ("wall_seconds", "seconds")


def config_for(output_dir: Path, vec_env: str, total: int, **changes: Any) -> TrainConfig:
    config = load_config(ROOT / "configs" / "ppo_tiny.yaml")
    return config.replace(
        run={"output_dir": str(output_dir)},
        total_timesteps=total,
        vec_env=vec_env,
        tensorboard=False,
        learn_threads=1,
        **changes,
    )


def quiet(config: TrainConfig, **options: Any) -> Any:
    return train(config, progress_bar=False, log=lambda text: None, **options)


def policy_weights(path: Path) -> dict[str, Any]:
    import torch

    with zipfile.ZipFile(path) as archive:
        return dict(torch.load(io.BytesIO(archive.read("policy.pth")), map_location="cpu"))


def assert_same_weights(first: Path, second: Path) -> None:
    import torch

    a, b = policy_weights(first), policy_weights(second)
    assert a.keys() == b.keys()
    different = [name for name in a if not torch.equal(a[name], b[name])]
    assert not different, f"weights differ: {different}"


def evaluation_rows(run_dir: Path, drop_final: bool = False) -> list[dict[str, Any]]:
    rows = []
    for line in (run_dir / "eval" / "evaluations.jsonl").read_text().splitlines():
        row = {k: v for k, v in json.loads(line).items() if k not in TIMING}
        if not (drop_final and row.get("final")):
            rows.append(row)
    return rows


def check_resume_is_exact(
    tmp_path: Path, vec_env: str, total: int, stop: int, **changes: Any
) -> None:
    straight = quiet(config_for(tmp_path / "straight", vec_env, total, **changes))
    quiet(config_for(tmp_path / "stopped", vec_env, stop, **changes))
    state = read_state(tmp_path / "stopped" / "ppo_tiny")
    assert state is not None and state.games is not None and state.num_timesteps == stop
    resumed = quiet(config_for(tmp_path / "stopped", vec_env, total, **changes), resume=True)
    assert resumed.num_timesteps == straight.num_timesteps == total
    assert_same_weights(straight.run_dir / "final_model.zip", resumed.run_dir / "final_model.zip")
    assert evaluation_rows(resumed.run_dir, drop_final=True) == evaluation_rows(straight.run_dir)
    assert not any(r.get("final") for r in evaluation_rows(straight.run_dir))
    # the stopped session's final evaluation (off the period) is kept and marked
    assert [r["step"] for r in evaluation_rows(resumed.run_dir) if r.get("final")] == [stop] * 2


def test_native_resume_off_the_period_equals_the_uninterrupted_run(tmp_path: Path) -> None:
    check_resume_is_exact(tmp_path, "native", total=768, stop=384)


# Half the tiny run (rollouts of 64 steps, periods of 128): three sessions of worker processes.
SMALLER = {
    "ppo": {"n_steps": 32},
    "league": {"snapshot_every_steps": 64, "refresh_every_steps": 64},
    "evaluation": {"every_steps": 128},
    "checkpoint": {"every_steps": 128},
}


@pytest.mark.slow  # three sessions of worker processes: about 30 s on 2 busy cores
def test_subproc_resume_off_the_period_equals_the_uninterrupted_run(tmp_path: Path) -> None:
    check_resume_is_exact(tmp_path, "subproc", total=256, stop=192, **SMALLER)


def test_dummy_resume_off_the_period_equals_the_uninterrupted_run(tmp_path: Path) -> None:
    # the fast variant of the test above: the same Python environments, in this process
    check_resume_is_exact(tmp_path, "dummy", total=256, stop=192, **SMALLER)


def test_ctrl_c_and_resume_equal_the_uninterrupted_run(tmp_path: Path) -> None:
    # The stop waits for the next rollout start (384), saves there, and the resume replays the
    # 128 steps played since the games were dealt at 256.
    straight = quiet(config_for(tmp_path / "straight", "dummy", 512))
    stopped = quiet(config_for(tmp_path / "stopped", "dummy", 512), callbacks=[InterruptAfter(300)])
    assert stopped.interrupted and stopped.num_timesteps == 384
    assert not evaluation_rows(stopped.run_dir)[-1].get("final")
    resumed = quiet(config_for(tmp_path / "stopped", "dummy", 512), resume=True)
    assert not resumed.interrupted
    assert_same_weights(straight.run_dir / "final_model.zip", resumed.run_dir / "final_model.zip")
    assert evaluation_rows(resumed.run_dir) == evaluation_rows(straight.run_dir)


def test_a_changed_record_is_refused(tmp_path: Path) -> None:
    config = config_for(tmp_path, "native", 384)
    run = quiet(config)
    state = read_state(run.run_dir)
    assert state is not None and state.games is not None
    path = run.run_dir / state.games
    original = load_games(path, run.run_dir, 2)
    assert original.step == 256 and len(original.actions) == 64
    longer = config.replace(total_timesteps=512)

    shorter = load_games(path, run.run_dir, 2)
    del shorter.actions[-1]  # the games stop one step short of the saved observations
    shorter.leagues = [(min(steps, 63), mix) for steps, mix in shorter.leagues]
    save_games(path, shorter, run.run_dir)
    with pytest.raises(ResumeError, match="replayed games do not reach the observations"):
        quiet(longer, resume=True)

    illegal = load_games(path, run.run_dir, 2)
    illegal.actions = [np.full(2, 82, dtype=np.int8)] * 64  # "end the turn" before any attempt
    save_games(path, illegal, run.run_dir)
    with pytest.raises(ResumeError, match="at step 384 does not replay: illegal action 82"):
        quiet(longer, resume=True)

    save_games(path, original, run.run_dir)  # the true record resumes
    assert quiet(longer, resume=True).num_timesteps == 512


def test_games_file_round_trip_and_relocation(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    snapshot = run_dir / "league" / "snapshot_128.zip"
    mix = LeagueMix((Member(BOT, "greedy"), Member(SNAPSHOT, str(snapshot.resolve()))), (0.4, 0.6))
    segment = Segment(
        7,
        256,
        mix,
        [np.array([3, -1], dtype=np.int8), np.array([82, 0], dtype=np.int8)],
        [(1, LeagueMix((Member(BOT, "random"),), (1.0,)))],
    )
    run_dir.mkdir()
    path = save_games(run_dir / "games.npz", segment, run_dir)
    assert mix_to_json(mix, run_dir)["members"][1]["ref"] == "league/snapshot_128.zip"
    moved = tmp_path / "moved"
    shutil.move(run_dir, moved)
    back = load_games(moved / path.name, moved, 2)
    assert (back.seed, back.step) == (7, 256)
    assert [row.tolist() for row in back.actions] == [[3, -1], [82, 0]]
    assert back.mix.members[1].ref == str((moved / "league" / "snapshot_128.zip").resolve())
    assert back.leagues[0][0] == 1 and back.leagues[0][1].members == (Member(BOT, "random"),)


def test_a_bad_games_file_names_the_file_and_the_field(tmp_path: Path) -> None:
    mix = LeagueMix((Member(BOT, "greedy"),), (1.0,))
    path = save_games(tmp_path / "g.npz", Segment(1, 0, mix, [np.zeros(3, np.int8)]), tmp_path)
    with pytest.raises(GamesFileError, match=r"g\.npz: actions: expected rows of 2"):
        load_games(path, tmp_path, 2)
    (tmp_path / "torn.npz").write_bytes(path.read_bytes()[:40])
    with pytest.raises(GamesFileError, match=r"torn\.npz: not a games record"):
        load_games(tmp_path / "torn.npz", tmp_path, 3)
    with pytest.raises(GamesFileError, match=r"where: expected a league mix"):
        mix_from_json({"members": [{"kind": "bot"}], "probabilities": [1.0]}, tmp_path, "where")


def test_native_vec_env_seed_then_reset_deals_as_a_new_one() -> None:
    from agents.training.native_league import NativeLeagueVecEnv

    mix = LeagueMix((Member(BOT, "random"), Member(BOT, "greedy")), (0.5, 0.5))

    def play(env: NativeLeagueVecEnv) -> list[Any]:
        observations = [env.reset()]
        rng = np.random.default_rng(1)
        for _ in range(60):
            masks = env.action_masks()
            env.step_async(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
            observations.append(env.step_wait()[0])
        return observations + [[m.label for m in members] for members in env._current]

    reseeded = NativeLeagueVecEnv(3, 2, mix, seed=5)
    play(reseeded)  # the games and draws move on...
    reseeded.seed(9)  # ...and start again from another seed
    expected = play(NativeLeagueVecEnv(3, 2, mix, seed=9))
    again = play(reseeded)
    assert all(np.array_equal(a, b) for a, b in zip(again, expected, strict=True))
