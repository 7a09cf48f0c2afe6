"""A policy trained for one player count, seated at another table: a clear error before the
first move in every tool (play, arena, evaluate, tournament, web), never a crash mid-game; and
games that end in an error are neither recorded as finished nor reported with exit status 0."""

from __future__ import annotations

import importlib.util
import io
import sys
from pathlib import Path

import numpy as np
import pytest

from agents.arena import run_arena
from agents.registry import TableFitError, check_fit, make_agent

pytestmark = pytest.mark.skipif(
    any(importlib.util.find_spec(m) is None for m in ("sb3_contrib", "torch")),
    reason="sb3-contrib and torch are needed to save a model",
)


@pytest.fixture(scope="module")
def model_2p(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An untrained 2-player MaskablePPO saved the way training saves it (no learning: fast)."""
    from sb3_contrib import MaskablePPO

    from airships_env.single_agent import AirshipsSingleAgentEnv

    path = tmp_path_factory.mktemp("model") / "tiny_2p.zip"
    env = AirshipsSingleAgentEnv(num_players=2)
    MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=16, seed=0).save(path)
    return path


def test_the_policy_knows_its_table_and_names_both_counts(model_2p: Path):
    agent = make_agent(f"ppo:path={model_2p}")
    assert agent.net.num_players == 2  # type: ignore[attr-defined]
    check_fit(agent, 2)
    assert make_agent(f"ppo:path={model_2p}", num_players=2) is not None
    with pytest.raises(TableFitError) as caught:
        make_agent(f"ppo:path={model_2p}", num_players=3)
    message = str(caught.value)
    assert str(model_2p) in message
    assert "trained for 2 players" in message and "this table has 3 players" in message
    check_fit(make_agent("greedy"), 3)  # bots fit every table


def test_play_refuses_before_the_first_move_and_writes_no_log(
    capsys, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, model_2p: Path
):
    from agents.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    log = tmp_path / "game.jsonl"
    spec = f"heuristic,ppo:path={model_2p}"
    code = main(["play", "--opponents", spec, "--seed", "7", "--log", str(log)])
    err = capsys.readouterr().err
    assert code == 2
    assert "trained for 2 players" in err and "this table has 3 players" in err
    assert str(model_2p) in err
    assert not log.exists()


def test_arena_refuses_before_playing(tmp_path: Path, model_2p: Path):
    out = tmp_path / "r.jsonl"
    with pytest.raises(TableFitError, match=r"trained for 2 players.*table has 3 players"):
        run_arena([f"ppo:path={model_2p}", "random", "random"], 3, workers=1, out=out)
    run = run_arena([f"ppo:path={model_2p}", "random"], 2, workers=1)
    assert not run.errors


def test_evaluate_at_another_table_exits_non_zero(capsys, model_2p: Path):
    from agents.cli.evaluate import main

    argv = ["--model", str(model_2p), "--opponents", "greedy", "--players", "4"]
    status = main([*argv, "--games", "4", "--workers", "1", "--no-progress"])
    err = capsys.readouterr().err
    assert status != 0
    assert "trained for 2 players" in err and "this table has 4 players" in err


def test_tournament_refuses_a_required_agent_that_does_not_fit(model_2p: Path):
    from agents.tournament import available_agents, config_from_dict

    entries = [
        {"name": "ppo", "spec": f"ppo:path={model_2p}"},
        {"name": "greedy", "spec": "greedy"},
        {"name": "random", "spec": "random"},
    ]
    config = config_from_dict({"players": 3, "games": 3, "agents": entries}, "t.yaml")
    with pytest.raises(ValueError, match=r"trained for 2 players.*table has 3 players"):
        available_agents(config)
    entries[0]["optional"] = True
    entries.append({"name": "heuristic", "spec": "heuristic"})
    config = config_from_dict({"players": 3, "games": 3, "agents": entries}, "t.yaml")
    agents, notes = available_agents(config)
    assert "ppo" not in agents and any("trained for 2 players" in note for note in notes)


def test_web_refuses_a_bundled_policy_of_another_count(
    tmp_path: Path, model_2p: Path, monkeypatch: pytest.MonkeyPatch
):
    import agents.policy_agent as policy_agent
    from agents.web.games import GameStore

    monkeypatch.setattr(policy_agent, "bundled_model", lambda num_players, game=None: model_2p)
    games = GameStore(tmp_path)
    with pytest.raises(ValueError, match=r"trained for 2 players.*table has 3 players"):
        games.create(3, 0, ["heuristic", "ppo"], seed=7)
    assert not list(tmp_path.glob("*.jsonl"))
    assert games.create(2, 0, ["ppo"], seed=7)


def test_ppo_without_a_path_checks_the_bundled_model_for_the_table(
    model_2p: Path, monkeypatch: pytest.MonkeyPatch
):
    import agents.policy_agent as policy_agent

    monkeypatch.setattr(
        policy_agent,
        "bundled_model",
        lambda n, game=None: model_2p if n == 2 else Path("/none/x.zip"),
    )
    agent = make_agent("ppo", num_players=2)
    agent.reset(0, 2, np.random.default_rng(0))
    with pytest.raises(TableFitError, match="no bundled 3-player policy"):
        make_agent("ppo", num_players=3)
