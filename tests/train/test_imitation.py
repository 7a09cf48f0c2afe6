"""Behaviour cloning: the recorded teacher games, the cloned policy, and pretraining in a run."""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from agents.arena import agent_rng, deal_seed
from agents.training.checkpoint import ResumeError, read_state
from agents.training.config import (
    ConfigError,
    PretrainConfig,
    TrainConfig,
    config_from_dict,
    load_config,
)
from agents.training.imitation import Demonstrations, _measure, clone_policy, collect_demonstrations
from agents.training.train import train
from airships_env.aec import game_rewards
from airships_env.engine import new_game
from airships_env.observation import observation_size
from airships_env.policy import Decision
from airships_env.single_agent import AirshipsSingleAgentEnv

ROOT = Path(__file__).resolve().parents[2]
GAMMA = 0.9


@pytest.fixture(scope="module")
def greedy_demos() -> Demonstrations:
    return collect_demonstrations("greedy", 2, 6, seed=5, reward="score", gamma=GAMMA)


def test_demonstrations_are_the_teachers_legal_decisions(greedy_demos: Demonstrations) -> None:
    demos = greedy_demos
    rows = len(demos)
    assert rows > 100 and demos.dropped_games == 0
    assert demos.observations.shape == (rows, observation_size(2))
    assert demos.observations.dtype == np.float32
    assert demos.masks[np.arange(rows), demos.actions].all()  # every action legal
    assert sorted(set(demos.games.tolist())) == list(range(6))


def test_demonstrations_replay_the_seeded_game(greedy_demos: Demonstrations) -> None:
    # Game 0 again, by hand: the same deal and the same decisions, observed from the same seat.
    from agents.registry import make_agent

    state = new_game(2, seed=deal_seed(5, 0))
    agents = [make_agent("greedy") for _ in range(2)]
    for seat, agent in enumerate(agents):
        agent.reset(seat, 2, agent_rng(5, 0, seat))
    rows = np.flatnonzero(greedy_demos.games == 0)
    seats = []
    for row in rows:
        decision = Decision.from_state(state)
        np.testing.assert_array_equal(greedy_demos.observations[row], decision.observation)
        action = agents[decision.seat].act(decision)
        assert action == greedy_demos.actions[row]
        seats.append(decision.seat)
        state.apply_action(action)
    assert state.is_terminal()
    final = game_rewards(state, "score")
    returns = greedy_demos.returns[rows]
    for seat in range(2):
        own = returns[[k for k, s in enumerate(seats) if s == seat]]
        # the last own decision gets the final reward, each earlier one gamma times the next
        assert own[-1] == pytest.approx(final[seat])
        np.testing.assert_allclose(own[:-1], own[1:] * GAMMA, rtol=1e-5)


def test_collection_is_fixed_by_the_seed_whatever_the_workers(
    greedy_demos: Demonstrations,
) -> None:
    again = collect_demonstrations("greedy", 2, 6, seed=5, reward="score", gamma=GAMMA, workers=2)
    for field in ("observations", "masks", "actions", "returns", "games"):
        np.testing.assert_array_equal(getattr(again, field), getattr(greedy_demos, field))
    other = collect_demonstrations("greedy", 2, 1, seed=6, reward="score", gamma=GAMMA)
    assert not np.array_equal(other.observations[:20], greedy_demos.observations[:20])


def test_demonstrations_round_trip(greedy_demos: Demonstrations, tmp_path: Path) -> None:
    path = greedy_demos.save(tmp_path / "demos.npz")
    loaded = Demonstrations.load(path)
    assert len(loaded) == len(greedy_demos) and loaded.dropped_games == 0
    np.testing.assert_array_equal(loaded.observations, greedy_demos.observations)


def test_games_cut_at_max_turns_are_dropped() -> None:
    demos = collect_demonstrations("greedy", 2, 3, seed=5, max_turns=1_000)
    assert demos.dropped_games == 0
    with pytest.raises(RuntimeError, match="no teacher game"):
        collect_demonstrations("greedy", 2, 2, seed=5, max_turns=2)


def test_cloning_learns_the_teacher(greedy_demos: Demonstrations) -> None:
    from sb3_contrib import MaskablePPO

    model = MaskablePPO(
        "MlpPolicy",
        AirshipsSingleAgentEnv(num_players=2),
        seed=0,
        device="cpu",
        policy_kwargs={"net_arch": [64, 64]},
    )
    rows = np.arange(len(greedy_demos))
    before_accuracy, before_error = _measure(model.policy, greedy_demos, rows, 512)
    report = clone_policy(
        model.policy,
        greedy_demos,
        epochs=40,
        batch_size=128,
        learning_rate=3e-3,
        value_coef=0.5,
        validation=0.0,
        seed=0,
    )
    assert report.validation_accuracy is None and report.train_rows == len(greedy_demos)
    # greedy is a deterministic function of what it sees: a net can fit its choices
    assert report.train_accuracy > max(0.8, before_accuracy + 0.3)
    _, after_error = _measure(model.policy, greedy_demos, rows, 512)
    assert after_error < before_error / 2


def test_validation_holds_out_whole_games(greedy_demos: Demonstrations) -> None:
    from agents.training.imitation import _split

    train_rows, held_rows = _split(greedy_demos, 0.34)
    assert set(greedy_demos.games[held_rows].tolist()) == {4, 5}
    assert not set(greedy_demos.games[train_rows].tolist()) & {4, 5}


def test_run_with_pretraining_checkpoints_the_clone(tmp_path: Path) -> None:
    config = load_config(ROOT / "configs" / "ppo_tiny.yaml")
    config = config.replace(
        run={"output_dir": str(tmp_path)},
        total_timesteps=128,
        vec_env="dummy",
        pretrain=PretrainConfig(teacher="greedy", games=4, epochs=1, workers=1),
    )
    lines: list[str] = []
    started = time.perf_counter()
    result = train(config, progress_bar=False, log=lines.append)
    took = time.perf_counter() - started
    pretrain_dir = result.run_dir / "pretrain"
    report = json.loads((pretrain_dir / "report.json").read_text())
    assert report["rows"] == len(Demonstrations.load(pretrain_dir / "demonstrations.npz"))
    assert any(line.startswith("pretraining: cloned the teacher") for line in lines)
    # the clone was checkpointed at step 0 (pruned later only by keep_last)
    assert (result.run_dir / "checkpoints" / "step_0.zip").is_file()
    state = read_state(result.run_dir)
    assert state is not None and state.num_timesteps == 128
    # the run's wall time counts the pretraining once (it was counted twice)
    assert 0 < state.wall_seconds <= took


def test_run_stopped_during_pretraining_resumes_from_the_recorded_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run killed before its step-0 checkpoint (while cloning) is continued by --resume: it
    starts again from step 0 with the teacher's games it had recorded."""
    import agents.training.train as train_module

    config = load_config(ROOT / "configs" / "ppo_tiny.yaml").replace(
        run={"output_dir": str(tmp_path)},
        total_timesteps=128,
        vec_env="dummy",
        pretrain=PretrainConfig(teacher="greedy", games=3, epochs=1, workers=1),
    )

    def killed(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt  # the process dies while cloning

    monkeypatch.setattr(train_module, "clone_policy", killed)
    with pytest.raises(KeyboardInterrupt):
        train(config, progress_bar=False, log=lambda line: None)
    run_dir = tmp_path / config.run.name
    recorded = (run_dir / "pretrain" / "demonstrations.npz").read_bytes()
    assert read_state(run_dir) is None
    with pytest.raises(ResumeError, match="already holds a run; continue it with --resume"):
        train(config, progress_bar=False, log=lambda line: None)

    monkeypatch.undo()
    lines: list[str] = []
    result = train(config, resume=True, progress_bar=False, log=lines.append)
    assert any("teacher decisions read from" in line for line in lines)
    assert (run_dir / "pretrain" / "demonstrations.npz").read_bytes() == recorded
    state = read_state(result.run_dir)
    assert state is not None and state.num_timesteps == 128
    with pytest.raises(ResumeError, match="differs from the config"):
        train(config.replace(ppo={"ent_coef": 0.05}), resume=True, progress_bar=False)


def test_pretrain_config_is_checked() -> None:
    with pytest.raises(ConfigError, match=r"pretrain\.teacher: expected a known agent"):
        config_from_dict({"pretrain": {"teacher": "grandmaster"}}, "x.yaml")
    with pytest.raises(ConfigError, match=r"x\.yaml: pretrain\.game: unknown key"):
        config_from_dict({"pretrain": {"teacher": "greedy", "game": 3}}, "x.yaml")
    assert config_from_dict({}).pretrain.teacher is None  # off by default


def _tiny(tmp_path: Path, **changes: object) -> TrainConfig:
    config = load_config(ROOT / "configs" / "ppo_tiny.yaml")
    return config.replace(run={"output_dir": str(tmp_path)}, vec_env="dummy", **changes)


def test_init_from_starts_a_run_from_a_models_weights(tmp_path: Path) -> None:
    import torch

    from agents.training.train import build_model, load_initial_weights

    first = train(
        _tiny(tmp_path / "a", total_timesteps=128), progress_bar=False, log=lambda t: None
    )
    assert first.final_model is not None
    config = _tiny(tmp_path / "b", total_timesteps=128, init_from=str(first.final_model))
    from sb3_contrib import MaskablePPO

    source = MaskablePPO.load(first.final_model, device="cpu").policy.state_dict()
    model = build_model(config, AirshipsSingleAgentEnv(num_players=2), None)
    assert not torch.equal(
        model.policy.state_dict()["action_net.weight"], source["action_net.weight"]
    )
    load_initial_weights(model, config)
    for name, tensor in source.items():
        assert torch.equal(model.policy.state_dict()[name], tensor), name
    # a 4-player model does not fit a 2-player run; another net_arch does not either
    wider = config.replace(policy={"net_arch": [48]})
    with pytest.raises(ConfigError, match=r"init_from: .*expected a model with policy\.net_arch"):
        load_initial_weights(build_model(wider, AirshipsSingleAgentEnv(num_players=2), None), wider)
    four = config.replace(num_players=4)
    with pytest.raises(ConfigError, match=rf"observations of shape \({observation_size(4)},\)"):
        load_initial_weights(build_model(four, AirshipsSingleAgentEnv(num_players=4), None), four)


def test_init_from_is_checked_before_training(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"x\.yaml: init_from: expected the path of a model zip"):
        config_from_dict({"init_from": str(tmp_path / "missing.zip")}, "x.yaml")
    model = tmp_path / "model.zip"
    model.write_bytes(b"")
    with pytest.raises(ConfigError, match=r"init_from: expected null when pretrain\.teacher"):
        config_from_dict({"init_from": str(model), "pretrain": {"teacher": "greedy"}}, "x.yaml")


def test_resume_at_the_total_writes_the_final_policy(tmp_path: Path) -> None:
    # how a stopped run is closed: --resume --total-timesteps <its step> (nothing to learn)
    config = _tiny(tmp_path, total_timesteps=128)
    first = train(config, progress_bar=False, log=lambda t: None)
    assert first.final_model is not None
    first.final_model.unlink()
    result = train(config, resume=True, progress_bar=False, log=lambda t: None)
    assert not result.interrupted and result.num_timesteps == 128
    assert result.final_model is not None and result.final_model.is_file()
    assert result.checkpoint == first.checkpoint
