"""Behaviour cloning for every registered game other than Airships (whose fast path has its own
tests in test_imitation.py): the teacher's games recorded through the game protocol as the
learner's environment sees them, a clone that beats a uniform choice among the legal actions,
and a tiny ``game: clockwork`` run that pretrains and then learns."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from agents.games import DEFAULT_GAME
from agents.registry import make_agent
from agents.schedule import agent_rng, deal_seed
from agents.training.config import ConfigError, PretrainConfig, TrainConfig, load_config
from agents.training.imitation import (
    Demonstrations,
    _measure,
    clone_policy,
    collect_demonstrations,
    uniform_accuracy,
)
from agents.training.train import train
from airships_env.game_aec import outcome_rewards
from airships_env.game_single_agent import GameSingleAgentEnv
from airships_env.policy import Decision
from airships_env.registry import games, get_game

ROOT = Path(__file__).resolve().parents[2]
OTHER_GAMES = [name for name in games() if name != DEFAULT_GAME]
GAMMA = 0.9


@pytest.fixture(scope="module")
def clockwork_demos() -> Demonstrations:
    return collect_demonstrations(
        "heuristic", 2, 3, seed=5, reward="score", gamma=GAMMA, game="clockwork"
    )


def test_the_teachers_games_are_recorded_as_the_learner_sees_them(
    clockwork_demos: Demonstrations,
) -> None:
    """Game 0 again by hand: the same deal, the teachers' own generators, the observation and
    mask of the learner's environment, and the discounted returns of the game's outcome."""
    game = get_game("clockwork")
    env = GameSingleAgentEnv(game, 2)
    assert clockwork_demos.observations.shape[1:] == env.observation_space.shape
    assert clockwork_demos.masks.shape[1] == env.action_space.n
    state = game.new_state(2, seed=deal_seed(5, 0))
    teachers = [make_agent("heuristic", game="clockwork") for _ in range(2)]
    for seat, teacher in enumerate(teachers):
        teacher.reset(seat, 2, agent_rng(5, 0, seat))
    rows = np.flatnonzero(clockwork_demos.games == 0)
    seats = []
    for row in rows:
        seat = state.current_player
        np.testing.assert_array_equal(
            clockwork_demos.observations[row], game.observe(state.view(seat), seat)
        )
        assert np.flatnonzero(clockwork_demos.masks[row]).tolist() == state.legal_actions()
        action = teachers[seat].act(Decision.for_game(game, state))
        assert action == clockwork_demos.actions[row]
        seats.append(seat)
        state.apply_action(action)
    assert state.is_terminal()
    final = outcome_rewards(state.outcome(), "score", getattr(game, "score_scale", 1.0))
    returns = clockwork_demos.returns[rows]
    for seat in range(2):
        own = returns[[k for k, s in enumerate(seats) if s == seat]]
        assert own[-1] == pytest.approx(final[seat])
        np.testing.assert_allclose(own[:-1], own[1:] * GAMMA, rtol=1e-5)


def test_collection_is_fixed_by_the_seed_whatever_the_workers(
    clockwork_demos: Demonstrations,
) -> None:
    again = collect_demonstrations(
        "heuristic", 2, 3, seed=5, reward="score", gamma=GAMMA, game="clockwork", workers=2
    )
    for field in ("observations", "masks", "actions", "returns", "games"):
        np.testing.assert_array_equal(getattr(again, field), getattr(clockwork_demos, field))


def test_games_cut_at_max_turns_are_dropped() -> None:
    # max_turns counts actions here, as the game's AEC env truncates
    with pytest.raises(RuntimeError, match="no teacher game"):
        collect_demonstrations("heuristic", 2, 2, seed=5, max_turns=3, game="clockwork")


def test_a_teacher_the_game_lacks_is_refused_before_any_game() -> None:
    with pytest.raises(ValueError, match="az"):
        collect_demonstrations("az", 2, 1, seed=0, game="clockwork")


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_a_clone_beats_a_uniform_choice_among_the_legal_actions(game: str) -> None:
    from sb3_contrib import MaskablePPO

    demos = collect_demonstrations("heuristic", 2, 3, seed=3, game=game)
    assert len(demos) > 100 and demos.dropped_games == 0
    assert demos.masks[np.arange(len(demos)), demos.actions].all()  # every action legal
    model = MaskablePPO(
        "MlpPolicy",
        GameSingleAgentEnv(game, 2),
        seed=0,
        device="cpu",
        policy_kwargs={"net_arch": [64, 64]},
    )
    report = clone_policy(
        model.policy,
        demos,
        epochs=1,
        batch_size=32,
        learning_rate=3e-3,
        value_coef=0.5,
        validation=0.34,  # one game of three held out
        seed=0,
    )
    held_out = np.flatnonzero(demos.games == 2)
    assert report.validation_rows == len(held_out)
    assert report.uniform_accuracy == pytest.approx(uniform_accuracy(demos, held_out))
    assert report.validation_accuracy is not None
    assert report.validation_accuracy == pytest.approx(
        _measure(model.policy, demos, held_out, 64)[0]
    )
    assert report.validation_accuracy > report.uniform_accuracy + 0.05, report.text()


def _clockwork_config(tmp_path: Path, teacher: str) -> TrainConfig:
    return load_config(ROOT / "configs" / "ppo_tiny.yaml").replace(
        game="clockwork",
        run={"output_dir": str(tmp_path)},
        total_timesteps=128,
        vec_env="dummy",
        league={"bots": {"random": 1.0}},
        evaluation={"opponents": ["random"], "best_by": "random", "every_steps": 10_000},
        pretrain=PretrainConfig(teacher=teacher, games=3, epochs=1, workers=1),
    )


def test_a_clockwork_run_pretrains_then_learns(tmp_path: Path) -> None:
    from sb3_contrib import MaskablePPO

    from agents.games import model_game

    config = _clockwork_config(tmp_path, "heuristic")
    lines: list[str] = []
    result = train(config, progress_bar=False, log=lines.append)
    pretrain_dir = result.run_dir / "pretrain"
    demos = Demonstrations.load(pretrain_dir / "demonstrations.npz")
    report = json.loads((pretrain_dir / "report.json").read_text())
    assert report["rows"] == len(demos) and report["uniform_accuracy"] > 0
    assert demos.observations.shape[1] == get_game("clockwork").observation_size(2)
    assert any(line.startswith("pretraining: cloned the teacher") for line in lines)
    clone = result.run_dir / "checkpoints" / "step_0.zip"
    assert model_game(clone) == "clockwork"
    # the step-0 checkpoint is the clone: its accuracy on the teacher's decisions is reported
    policy = MaskablePPO.load(clone, device="cpu").policy
    accuracy, _ = _measure(policy, demos, np.arange(len(demos)), 512)
    assert accuracy == pytest.approx(report["train_accuracy"])
    assert result.num_timesteps == 128 and result.final_model is not None


def test_a_teacher_the_game_lacks_names_the_file_the_key_and_its_agents(tmp_path: Path) -> None:
    config = _clockwork_config(tmp_path, "heuristic")
    data = config.to_dict()
    data["pretrain"]["teacher"] = "az"
    path = tmp_path / "clockwork.yaml"
    import yaml

    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        load_config(path)
    message = str(error.value)
    assert message.startswith(f"{path}: pretrain.teacher: expected a known agent of clockwork (")
    assert "heuristic" in message and "found 'az'" in message


@pytest.mark.parametrize(
    ("game", "players", "teacher", "student"),
    [
        ("clockwork", 3, "heuristic", None),
        ("australia", 2, "heuristic", None),
        ("nippon", 2, "heuristic", None),
        ("australia", 2, "heuristic", "agents/models/australia/ppo_2p.zip"),
        ("nippon", 2, "heuristic", "agents/models/nippon/ppo_2p.zip"),
        ("nippon", 2, "random", "agents/models/nippon/ppo_2p.zip"),  # labels from generators
    ],
)
def test_the_native_core_records_the_python_paths_rows(
    game: str, players: int, teacher: str, student: str | None
) -> None:
    """Teacher games (and DAgger games with a student) played in the game's native core give
    the Python path's rows, returns and counters exactly (agents/training/imitation.py)."""
    from airships_env import native

    if not native.available():
        pytest.skip("the native core is not built")
    kwargs = dict(reward="score", gamma=GAMMA, game=game, first_game=3)
    if student is not None:
        kwargs["student"] = str(ROOT / student)
    python = collect_demonstrations(teacher, players, 2, 9, native=False, **kwargs)
    core = collect_demonstrations(teacher, players, 2, 9, native=True, **kwargs)
    for field in ("observations", "masks", "actions", "returns", "games"):
        assert np.array_equal(getattr(core, field), getattr(python, field)), field
    assert core.student_decisions == python.student_decisions
    assert core.student_agreed == python.student_agreed
    assert core.student_wins == python.student_wins
    assert len(core) > 50 and (student is None or core.student_decisions > 10)
