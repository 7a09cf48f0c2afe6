"""RLlib training and the arena on a two-node Ray cluster on loopback (see conftest.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("ray")

from agents.arena import run_arena
from agents.rllib.arena import RayExecutor
from agents.rllib.config import load_config
from agents.rllib.errors import ResumeError
from agents.rllib.export import export_actor
from agents.rllib.train import checkpoints, train

ROOT = Path(__file__).resolve().parents[2]
TIMINGS = ("seconds", "think_seconds")


def without_timings(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(
        ({k: v for k, v in r.items() if k not in TIMINGS} for r in records),
        key=lambda r: r["game"],
    )


def test_train_on_two_nodes_checkpoint_resume_export(two_node_cluster: Any, tmp_path: Path) -> None:
    config = load_config(ROOT / "configs" / "rllib_tiny.yaml").replace(
        run={"output_dir": str(tmp_path)}, total_timesteps=512
    )
    first = train(config, log=lambda _: None)
    # one env runner (1 CPU) per node: the sampling really is spread over both
    assert len(first.node_ids) == 2 and len(set(first.node_ids)) == 2
    assert first.iterations == 2 and first.env_steps >= 512
    run = tmp_path / "rllib_tiny"
    assert [p.name for p in checkpoints(run)] == ["iter_000002"]
    assert {r["opponent"] for r in first.evaluations} == {"random", "greedy"}
    assert list((run / "tb").iterdir())
    with pytest.raises(ResumeError, match="already holds a run"):
        train(config, log=lambda _: None)

    resumed = train(config.replace(total_timesteps=700), resume=True, log=lambda _: None)
    assert resumed.iterations == 3 and resumed.env_steps > first.env_steps
    league = json.loads((checkpoints(run)[-1] / "league.json").read_text())
    assert league["iteration"] == 3 and league["ready"] == 2  # a snapshot per iteration
    rows = [json.loads(line) for line in (run / "progress.jsonl").read_text().splitlines()]
    assert [r["iteration"] for r in rows] == [1, 2, 3]
    with pytest.raises(ResumeError, match="config differs"):
        train(config.replace(ppo={"num_epochs": 3}), resume=True, log=lambda _: None)

    # the exported policy (and the checkpoint directory as an agent) plays legal moves only
    assert resumed.policy is not None
    for spec in (f"rllib:path={resumed.policy}", f"rllib:path={checkpoints(run)[-1]}"):
        games = run_arena([spec, "random"], 4, seed=1, workers=1)
        assert not games.errors and all(r["winners"] for r in games.records)


def test_arena_on_the_cluster_gives_the_local_records(
    two_node_cluster: Any, tmp_path: Path
) -> None:
    from test_rllib_env import fake_module_state

    actor = export_actor(
        fake_module_state(2), tmp_path / "actor.npz", activation="tanh", num_players=2
    )
    for specs in (["greedy", "random"], [f"rllib:path={actor}", "greedy"]):  # native, Python
        local = run_arena(specs, 12, seed=5, paired=True, workers=1, out=tmp_path / "local.jsonl")
        out = tmp_path / "ray.jsonl"
        remote = run_arena(specs, 12, seed=5, paired=True, out=out, executor=RayExecutor())
        assert remote.played == 12 and not remote.errors
        assert without_timings(remote.records) == without_timings(local.records)
        resumed = run_arena(specs, 12, seed=5, paired=True, out=out, executor=RayExecutor())
        assert resumed.played == 0  # everything was in the file
        (tmp_path / "local.jsonl").unlink()
        out.unlink()
    assert np.isfinite(remote.seconds)


def test_tournament_on_the_cluster_gives_the_local_records(
    two_node_cluster: Any, tmp_path: Path
) -> None:
    from agents.arena import read_results
    from agents.tournament import config_from_dict, run_tournament

    data = {"agents": ["random", "greedy", "heuristic"], "players": 2, "games": 4, "seed": 3}
    local = run_tournament(config_from_dict(data), output=tmp_path / "local", plots=False)
    remote = run_tournament(
        config_from_dict({**data, "ray": "default"}), output=tmp_path / "ray", plots=False
    )
    assert without_timings(remote.records) == without_timings(local.records)
    assert remote.leaderboard() == local.leaderboard()
    # the results files' headers match too: either run can be resumed the other way
    assert (
        read_results(tmp_path / "ray" / "results.jsonl")[0]
        == read_results(tmp_path / "local" / "results.jsonl")[0]
    )
