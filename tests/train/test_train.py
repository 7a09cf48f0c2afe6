"""A tiny training run end to end: checkpoint, resume, evaluate, Ctrl-C, legal play from disk.

One run of ``configs/ppo_tiny.yaml`` (2 SubprocVecEnv environments, 256 steps) is shared by the
module; the resume and interrupt tests add a few hundred steps each.
"""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import Any

import pytest
import yaml

pytest.importorskip("sb3_contrib")

from stable_baselines3.common.callbacks import BaseCallback

from agents.arena import run_arena
from agents.training.checkpoint import ResumeError, read_state
from agents.training.config import TrainConfig, load_config
from agents.training.evaluate import evaluate_model, model_players
from agents.training.train import train

ROOT = Path(__file__).resolve().parents[2]


def tiny_config(output_dir: Path, **changes: Any) -> TrainConfig:
    config = load_config(ROOT / "configs" / "ppo_tiny.yaml")
    return config.replace(run={"output_dir": str(output_dir)}, **changes)


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[TrainConfig, Path]:
    output = tmp_path_factory.mktemp("runs")
    config = tiny_config(output, total_timesteps=256)
    result = train(config, progress_bar=False, log=lambda text: None)
    assert not result.interrupted
    return config, result.run_dir


def test_tiny_run_writes_a_checkpoint(tiny_run: tuple[TrainConfig, Path]) -> None:
    _, run_dir = tiny_run
    state = read_state(run_dir)
    assert state is not None and state.num_timesteps == 256 and state.sessions == 1
    assert state.checkpoint == "checkpoints/step_256.zip"
    assert (run_dir / state.checkpoint).is_file()
    assert (run_dir / "config.yaml").is_file()
    assert (run_dir / "final_model.zip").is_file()
    assert (run_dir / "best_model.zip").is_file()
    assert state.best_step == 256 and state.best_win_rate is not None
    # snapshots were taken at step 128 and at the end (256, as a rollout start there would)
    league = json.loads((run_dir / state.league).read_text())  # type: ignore[arg-type]
    assert [s["step"] for s in league["snapshots"]] == [128, 256]
    assert (run_dir / league["snapshots"][0]["path"]).is_file()
    evaluations = [
        json.loads(line)
        for line in (run_dir / "eval" / "evaluations.jsonl").read_text().splitlines()
    ]
    assert {e["opponent"] for e in evaluations} == {"random", "greedy"}
    assert all(
        e["step"] == 256 and 0 <= e["ci_low"] <= e["win_rate"] <= e["ci_high"] <= 1
        for e in evaluations
    )
    assert list((run_dir / "tb").rglob("events.out.tfevents.*"))
    # the weights-only model is small, the checkpoint holds the optimizer too
    assert (run_dir / "final_model.zip").stat().st_size < (
        run_dir / state.checkpoint
    ).stat().st_size


def test_resume_continues_step_count_and_pool(
    tiny_run: tuple[TrainConfig, Path], tmp_path: Path
) -> None:
    import shutil

    config, source = tiny_run
    run_dir = tmp_path / "resumed"
    shutil.copytree(source, run_dir)
    longer = config.replace(total_timesteps=512)
    result = train(longer, resume=True, run_dir=run_dir, progress_bar=False, log=lambda text: None)
    state = read_state(run_dir)
    assert state is not None
    assert result.num_timesteps == state.num_timesteps == 512
    assert state.sessions == 2
    league = json.loads((run_dir / "league.json").read_text())
    # the restored pool (128, 256) went on: the newest two of 128, 256, 384 and 512 are kept
    assert [s["step"] for s in league["snapshots"]] == [384, 512]
    assert yaml.safe_load((run_dir / "config.yaml").read_text())["total_timesteps"] == 512
    # keep_last: 2
    assert sorted(p.name for p in (run_dir / "checkpoints").glob("*.zip")) == [
        "step_256.zip",
        "step_512.zip",
    ]

    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(run_dir / "checkpoints" / "step_512.zip", device="cpu")
    assert model.num_timesteps == 512
    assert model.policy.optimizer.state_dict()["state"]  # Adam moments were saved


def test_resume_refuses_a_changed_config(tiny_run: tuple[TrainConfig, Path]) -> None:
    config, run_dir = tiny_run
    changed = config.replace(ppo={"ent_coef": 0.05})
    with pytest.raises(
        ResumeError,
        match=r"only total_timesteps may change.*ppo\.ent_coef: "
        r"0\.01 -> 0\.05",
    ):
        train(changed, resume=True, run_dir=run_dir, progress_bar=False, log=lambda t: None)
    with pytest.raises(ResumeError, match="already holds a run; continue it with --resume"):
        train(config, run_dir=run_dir, progress_bar=False, log=lambda t: None)


def test_resume_without_checkpoint_fails(tmp_path: Path) -> None:
    with pytest.raises(ResumeError, match="no checkpoint to resume"):
        train(tiny_config(tmp_path), resume=True, progress_bar=False, log=lambda t: None)


class InterruptAfter(BaseCallback):
    """Sends this process a SIGINT (a Ctrl-C) once ``steps`` steps were taken."""

    def __init__(self, steps: int):
        super().__init__()
        self.steps = steps
        self.sent = False

    def _on_step(self) -> bool:
        if not self.sent and self.model.num_timesteps >= self.steps:
            self.sent = True
            os.kill(os.getpid(), signal.SIGINT)
        return True


def test_ctrl_c_saves_a_checkpoint_of_trained_steps(tmp_path: Path) -> None:
    # in-process environments: the signal logic is the same, without the workers' start-up
    config = tiny_config(tmp_path, total_timesteps=100_000, vec_env="dummy")
    result = train(config, progress_bar=False, log=lambda t: None, callbacks=[InterruptAfter(200)])
    assert result.interrupted
    state = read_state(result.run_dir)
    assert state is not None and state.interrupted
    # interrupted in the second rollout (128..256): it and its update finish, and the run
    # stops at the next rollout start with a checkpoint there
    assert state.num_timesteps == result.num_timesteps == 256
    assert (result.run_dir / "checkpoints" / "step_256.zip").is_file()
    assert state.games == "checkpoints/step_256.games.npz"
    assert not (result.run_dir / "final_model.zip").exists()


def test_evaluate_a_trained_policy(tiny_run: tuple[TrainConfig, Path]) -> None:
    _, run_dir = tiny_run
    model = run_dir / "checkpoints" / "step_256.zip"
    assert model_players(model) == 2
    evaluation = evaluate_model(model, ["random"], players=2, games=4, seed=3)
    assert evaluation.labels == ["ppo", "random"]
    assert evaluation.model.games == 4 and not evaluation.summary.errors
    assert evaluation.model.seat_games == [2, 2]  # seats rotated
    figures = evaluation.to_json()
    assert set(figures["agents"]) == {"ppo", "random"}


def test_evaluate_script_prints_the_arena_json_last(
    tiny_run: tuple[TrainConfig, Path], capsys: pytest.CaptureFixture[str], load_script: Any
) -> None:
    _, run_dir = tiny_run
    evaluate = load_script("evaluate")
    status = evaluate.main(
        [
            "--model",
            str(run_dir / "final_model.zip"),
            "--opponents",
            "random",
            "--games",
            "2",
            "--workers",
            "1",
            "--json",
            "--no-progress",
        ]
    )
    assert status == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    data = json.loads(last)
    assert data["games"] == 2 and "ppo" in data["agents"]
    assert 0 <= data["agents"]["ppo"]["ci_low"] <= data["agents"]["ppo"]["ci_high"] <= 1


def test_train_script_reports_a_bad_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], load_script: Any
) -> None:
    bad = tmp_path / "bad.yaml"
    data = yaml.safe_load((ROOT / "configs" / "ppo_tiny.yaml").read_text())
    data["league"]["snapshot_every"] = 10
    bad.write_text(yaml.safe_dump(data))
    status = load_script("train").main(["--config", str(bad)])
    assert status == 2
    message = capsys.readouterr().err
    assert f"{bad}: league.snapshot_every: unknown key" in message
    assert not (tmp_path / "runs").exists()


def test_policy_loaded_from_disk_plays_only_legal_moves(tiny_run: tuple[TrainConfig, Path]) -> None:
    _, run_dir = tiny_run
    path = run_dir / "final_model.zip"
    # the arena records an "illegal action" error for any action outside the legal list
    for deterministic in ("true", "false"):
        run = run_arena(
            [f"ppo:path={path},deterministic={deterministic}", "greedy"], 4, seed=11, workers=1
        )
        assert not run.errors, run.errors
        assert all(record["winners"] for record in run.records)
