"""The fast trainer: MaskablePPO on the native core's vector environment with the league.

A tiny run (seconds) with a bot and a snapshot opponent writes checkpoints, resumes, evaluates
and plays legal moves only; a run killed with SIGKILL and resumed writes no evaluation row
twice and ends as the uninterrupted run does; the profile compares the real and a free environment.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("airships_env.native._core")

from agents.arena import run_arena
from agents.training.checkpoint import read_state, trim_evaluations
from agents.training.config import TrainConfig, config_from_dict
from agents.training.league import BOT, SNAPSHOT, LeagueMix, Member
from agents.training.native_league import NativeLeagueVecEnv
from agents.training.profile import FreeVecEnv, profile
from agents.training.train import train
from tests.train.test_resume import assert_same_weights

ROOT = Path(__file__).resolve().parents[2]


def native_config(output_dir: Path, **changes: Any) -> TrainConfig:
    data: dict[str, Any] = {
        "run": {"name": "native_tiny", "output_dir": str(output_dir)},
        "num_players": 2,
        "total_timesteps": 1024,
        "vec_env": "native",
        "n_envs": 4,
        "learn_threads": 1,
        "tensorboard": False,
        "policy": {"net_arch": [32, 32]},
        "ppo": {"n_steps": 64, "batch_size": 128, "n_epochs": 1},
        "league": {
            "bots": {"heuristic": 0.5},
            "self_play": 0.5,
            "pool_size": 2,
            "snapshot_every_steps": 256,
            "refresh_every_steps": 256,
        },
        "evaluation": {
            "every_steps": 256,
            "games": 2,
            "opponents": ["random"],
            "best_by": "random",
            "workers": 1,
        },
        "checkpoint": {"every_steps": 512, "keep_last": 2},
    }
    data.update(changes)
    return config_from_dict(data, "native_tiny.yaml")


def evaluation_rows(run_dir: Path) -> list[dict[str, Any]]:
    path = run_dir / "eval" / "evaluations.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_native_run_checkpoints_resumes_and_plays_legal_moves(tmp_path: Path) -> None:
    config = native_config(tmp_path, total_timesteps=512)
    first = train(config, progress_bar=False, log=lambda text: None)
    state = read_state(first.run_dir)
    assert state is not None and state.num_timesteps == 512 and state.wall_seconds > 0
    league = json.loads((first.run_dir / state.league).read_text())  # type: ignore[arg-type]
    assert [s["step"] for s in league["snapshots"]] == [256, 512]  # snapshots joined the pool
    assert [r["step"] for r in evaluation_rows(first.run_dir)] == [256, 512]

    resumed = train(
        config.replace(total_timesteps=1024), resume=True, progress_bar=False, log=lambda t: None
    )
    state = read_state(resumed.run_dir)
    assert state is not None and state.num_timesteps == 1024 and state.sessions == 2
    rows = evaluation_rows(resumed.run_dir)
    assert [r["step"] for r in rows] == [256, 512, 768, 1024]
    assert all(r["wall_seconds"] >= 0 for r in rows)
    assert rows[-1]["wall_seconds"] > rows[1]["wall_seconds"]

    # the trained policy plays legal moves only, through the arena's checks
    assert resumed.final_model is not None
    result = run_arena([f"ppo:path={resumed.final_model}", "random"], 4, seed=3, workers=1)
    assert not result.errors, result.errors
    assert len(result.records) == 4 and all(record["winners"] for record in result.records)


def test_league_env_draws_bots_and_snapshots_and_reports_them(tmp_path: Path) -> None:
    config = native_config(tmp_path, total_timesteps=512)
    run = train(config, progress_bar=False, log=lambda text: None)
    snapshot = next((run.run_dir / "league").glob("snapshot_*.zip"))
    mix = LeagueMix((Member(BOT, "heuristic"), Member(SNAPSHOT, str(snapshot))), (0.5, 0.5))
    env = NativeLeagueVecEnv(6, 2, mix, seed=11, max_turns=300)
    env.reset()
    seen: set[str] = set()
    rng = np.random.default_rng(0)
    for _ in range(400):
        masks = env.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        env.step_async(actions)
        _, _, dones, infos = env.step_wait()
        for done, info in zip(dones, infos, strict=True):
            if done:
                assert len(info["league"]["opponents"]) == 1
                assert 0.0 <= info["league"]["win"] <= 1.0
                seen.update(label.split(":")[0] for label in info["league"]["opponents"])
    assert seen == {"heuristic", "snapshot"}
    assert env.external_seconds > 0  # the snapshot was played outside the core


def test_native_league_draws_do_not_depend_on_timing() -> None:
    """Each slot draws its opponents from its own generator: the learner playing otherwise (so
    that games end at other steps and in another order) leaves every slot's draws unchanged."""
    mix = LeagueMix((Member(BOT, "random"), Member(BOT, "greedy")), (0.5, 0.5))

    def opponents_by_slot(
        actions_seed: int, episodes: int = 3
    ) -> tuple[list[list[list[str]]], list[tuple[int, int]]]:
        env = NativeLeagueVecEnv(3, 3, mix, seed=5, max_turns=200)
        env.reset()
        rng = np.random.default_rng(actions_seed)
        seen: list[list[list[str]]] = [[] for _ in range(3)]
        ends: list[tuple[int, int]] = []  # (step, slot) of every game's end
        for step in range(20_000):
            if min(len(slot) for slot in seen) >= episodes:
                break
            masks = env.action_masks()
            env.step_async(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
            _, _, dones, infos = env.step_wait()
            for slot in np.flatnonzero(dones):
                seen[slot].append(infos[slot]["league"]["opponents"])
                ends.append((step, int(slot)))
        else:
            raise AssertionError("the games did not end")
        env.close()
        return [slot[:episodes] for slot in seen], ends

    (first, first_ends), (second, second_ends) = opponents_by_slot(0), opponents_by_slot(1)
    assert first_ends != second_ends  # the games ended at other steps
    assert first == second
    flat = [label for slot in first for episode in slot for label in episode]
    assert {"random", "greedy"} <= set(flat)  # the draws are not all alike


def test_sigkill_and_resume_write_no_evaluation_twice(tmp_path: Path) -> None:
    # The child trains, then kills itself with SIGKILL after the step-768 evaluation but before
    # the step-1024 checkpoint: the last checkpoint is at 512.
    script = textwrap.dedent(
        f"""
        import os, signal, sys
        sys.path.insert(0, {str(ROOT)!r})
        from stable_baselines3.common.callbacks import BaseCallback
        from tests.train.test_native_training import native_config
        from agents.training.train import train

        class Kill(BaseCallback):
            def _on_step(self):
                if self.model.num_timesteps >= 800:
                    os.kill(os.getpid(), signal.SIGKILL)
                return True

        train(native_config(__import__("pathlib").Path({str(tmp_path)!r})),
              progress_bar=False, log=lambda t: None, callbacks=[Kill()])
        """
    )
    child = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert child.returncode == -signal.SIGKILL, child.stderr
    run_dir = tmp_path / "native_tiny"
    assert [r["step"] for r in evaluation_rows(run_dir)] == [256, 512, 768]
    state = read_state(run_dir)
    assert state is not None and state.num_timesteps == 512
    train(native_config(tmp_path), resume=True, progress_bar=False, log=lambda t: None)
    rows = evaluation_rows(run_dir)
    assert [r["step"] for r in rows] == [256, 512, 768, 1024]  # 768 evaluated again, written once
    # and the resumed run is the uninterrupted one: same rows, same final weights
    straight = train(native_config(tmp_path / "straight"), progress_bar=False, log=lambda t: None)
    timing = ("wall_seconds", "seconds")
    assert [{k: v for k, v in r.items() if k not in timing} for r in rows] == [
        {k: v for k, v in r.items() if k not in timing} for r in evaluation_rows(straight.run_dir)
    ]
    assert_same_weights(run_dir / "final_model.zip", straight.run_dir / "final_model.zip")


def test_trim_evaluations_drops_later_and_torn_rows(tmp_path: Path) -> None:
    path = tmp_path / "eval" / "evaluations.jsonl"
    path.parent.mkdir()
    rows = [json.dumps({"step": s, "opponent": "x"}) + "\n" for s in (100, 200, 300)]
    path.write_text("".join(rows) + '{"step": 40', encoding="utf-8")
    assert trim_evaluations(tmp_path, 200) == 2
    assert [json.loads(line)["step"] for line in path.read_text().splitlines()] == [100, 200]
    assert trim_evaluations(tmp_path, 200) == 0
    assert not (tmp_path / "eval" / "missing.jsonl").exists()
    os.remove(path)
    assert trim_evaluations(tmp_path, 0) == 0


def test_profile_compares_real_and_free_environments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = native_config(tmp_path)
    result = profile(config, 512, as_json=True, log=lambda text: None)
    out, err = capsys.readouterr()
    assert json.loads(out.strip().splitlines()[-1]) == result
    assert "real / free throughput" in err
    assert result["real"]["steps"] >= 512 and result["free"]["steps"] >= 512
    assert result["real_over_free"] > 0 and result["rounds"] == 4
    for figures in (result["real"], result["free"]):
        parts = ("env_share", "opponent_share", "inference_share", "learn_share")
        assert 0.5 < sum(figures[k] for k in parts) + figures["overhead_share"] <= 1.01


def test_free_env_has_the_real_spaces() -> None:
    free = FreeVecEnv(3, 4)
    real = NativeLeagueVecEnv(3, 4, LeagueMix((Member(BOT, "random"),), (1.0,)), seed=0)
    assert free.observation_space.shape == real.observation_space.shape
    assert free.action_space == real.action_space
    observations = free.reset()
    assert observations.shape == (3, *real.observation_space.shape)
    assert free.action_masks().any(axis=1).all()


def test_a_tiny_clockwork_run_trains_in_the_core(tmp_path: Path) -> None:
    """``vec_env: native`` for Clockwork City: the league's bots in the core, its snapshots as
    batched external policies; the run checkpoints, evaluates and its policy plays legal moves."""
    config = native_config(
        tmp_path,
        game="clockwork",
        total_timesteps=512,
        max_turns=400,
        league={
            "bots": {"heuristic": 0.5, "greedy": 0.2},
            "self_play": 0.3,
            "pool_size": 2,
            "snapshot_every_steps": 256,
            "refresh_every_steps": 256,
        },
    )
    assert config.vec_env == "native" and config.game == "clockwork"
    run = train(config, progress_bar=False, log=lambda text: None)
    state = read_state(run.run_dir)
    assert state is not None and state.num_timesteps == 512
    assert [r["step"] for r in evaluation_rows(run.run_dir)] == [256, 512]
    assert run.final_model is not None
    result = run_arena(
        [f"ppo:path={run.final_model}", "random"], 2, seed=3, workers=1, game="clockwork"
    )
    assert not result.errors, result.errors


def test_a_tiny_australia_run_trains_in_the_core(tmp_path: Path) -> None:
    """``vec_env: native`` for Australia: the league's bots in the core, its snapshots as batched
    external policies; the run checkpoints, evaluates and its policy plays legal moves."""
    config = native_config(
        tmp_path,
        game="australia",
        total_timesteps=512,
        max_turns=400,
        league={
            "bots": {"heuristic": 0.5, "greedy": 0.2},
            "self_play": 0.3,
            "pool_size": 2,
            "snapshot_every_steps": 256,
            "refresh_every_steps": 256,
        },
    )
    assert config.vec_env == "native" and config.game == "australia"
    run = train(config, progress_bar=False, log=lambda text: None)
    state = read_state(run.run_dir)
    assert state is not None and state.num_timesteps == 512
    assert [r["step"] for r in evaluation_rows(run.run_dir)] == [256, 512]
    assert run.final_model is not None
    result = run_arena(
        [f"ppo:path={run.final_model}", "random"], 2, seed=3, workers=1, game="australia"
    )
    assert not result.errors, result.errors


def test_a_tiny_nippon_run_trains_in_the_core(tmp_path: Path) -> None:
    """``vec_env: native`` for Nippon: the league's bots in the core (each seat's bot keeping its
    plan), its snapshots as batched external policies; the run checkpoints, evaluates and its
    policy plays legal moves."""
    config = native_config(
        tmp_path,
        game="nippon",
        total_timesteps=512,
        max_turns=300,
        league={
            "bots": {"heuristic": 0.5, "greedy": 0.2},
            "self_play": 0.3,
            "pool_size": 2,
            "snapshot_every_steps": 256,
            "refresh_every_steps": 256,
        },
    )
    assert config.vec_env == "native" and config.game == "nippon"
    run = train(config, progress_bar=False, log=lambda text: None)
    state = read_state(run.run_dir)
    assert state is not None and state.num_timesteps == 512
    assert [r["step"] for r in evaluation_rows(run.run_dir)] == [256, 512]
    assert run.final_model is not None
    result = run_arena(
        [f"ppo:path={run.final_model}", "random"], 2, seed=3, workers=1, game="nippon"
    )
    assert not result.errors, result.errors


def test_every_game_with_a_native_vec_env_may_train_on_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from agents.training import native_league
    from agents.training.config import NATIVE_VEC_ENV_GAMES
    from agents.training.native_league import league_vec_env_class
    from airships_env.registry import games, get_game

    native = tuple(name for name in games() if hasattr(get_game(name), "native_vec_env"))
    assert native == NATIVE_VEC_ENV_GAMES
    mix = LeagueMix((Member(BOT, "heuristic"),), (1.0,))
    for name in native:
        env = league_vec_env_class(name)(2, 2, mix, seed=1)
        assert env.reset().shape == (2, env.observation_space.shape[0])
    # a game without one (every registered game has one now): a fresh name, a bare game object
    monkeypatch.setattr(native_league, "get_game", lambda name: object())
    with pytest.raises(ValueError, match="no native vector environment"):
        league_vec_env_class("a game without a batch")
