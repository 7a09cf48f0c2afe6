"""DAgger (``pretrain.dagger_rounds``): the clone plays one seat of new games, the teacher labels
every decision, the rows join the training rows, and the round's games measure the clone."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from agents.policy_agent import ActorNet, NetPolicy
from agents.registry import make_agent
from agents.schedule import agent_rng, deal_seed
from agents.training.config import PretrainConfig, TrainConfig, load_config
from agents.training.imitation import Demonstrations, collect_demonstrations
from agents.training.train import pretrain_seed, train
from airships_env.game_aec import outcome_rewards
from airships_env.policy import Decision
from airships_env.registry import get_game

ROOT = Path(__file__).resolve().parents[2]
SEED = 3


def _config(tmp_path: Path, rounds: int) -> TrainConfig:
    return load_config(ROOT / "configs" / "ppo_tiny.yaml").replace(
        game="clockwork",
        run={"output_dir": str(tmp_path)},
        seed=SEED,
        total_timesteps=64,
        vec_env="dummy",
        league={"bots": {"random": 1.0}},
        evaluation={"opponents": ["random"], "best_by": "random", "every_steps": 10_000},
        pretrain=PretrainConfig(
            teacher="heuristic",
            games=4,
            epochs=1,
            workers=1,
            dagger_rounds=rounds,
            dagger_games=3,
            dagger_epochs=1,
        ),
    )


@pytest.fixture(scope="module")
def dagger_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    lines: list[str] = []
    result = train(
        _config(tmp_path_factory.mktemp("dagger"), 2), progress_bar=False, log=lines.append
    )
    return result.run_dir, lines


def test_each_round_keeps_its_student_and_its_games(dagger_run: tuple[Path, list[str]]) -> None:
    run_dir, lines = dagger_run
    pretrain = run_dir / "pretrain"
    base = Demonstrations.load(pretrain / "demonstrations.npz")
    rounds = [Demonstrations.load(pretrain / f"dagger_{n}.npz") for n in (1, 2)]
    assert (pretrain / "student_1.zip").is_file() and (pretrain / "student_2.zip").is_file()
    # new deals: game indices after the teacher's games, one block a round
    assert sorted(set(base.games.tolist())) == [0, 1, 2, 3]
    assert sorted(set(rounds[0].games.tolist())) == [4, 5, 6]
    assert sorted(set(rounds[1].games.tolist())) == [7, 8, 9]
    report = json.loads((pretrain / "report.json").read_text())
    assert [r["round"] for r in report["dagger"]] == [1, 2]
    for entry, played in zip(report["dagger"], rounds, strict=True):
        assert entry["games"] == played.student_games == 3
        assert entry["rows"] == len(played)
        assert 0.0 <= entry["student_win_share"] <= 1.0 and 0.0 < entry["agreement"] <= 1.0
    # the last clone trained on the teacher's rows it did not hold out, plus every round's
    assert report["train_rows"] > len(rounds[0]) + len(rounds[1])
    assert sum("DAgger round" in line for line in lines) == 2


def test_the_round_is_the_student_against_the_teacher_labelled_by_it(
    dagger_run: tuple[Path, list[str]],
) -> None:
    """Round 1 again by hand: in game g of the teacher's stream (pretrain_seed) the student
    (deterministic) plays seat g % 2, a teacher with its own generator labels its decisions;
    every other seat is the teacher."""
    run_dir, _ = dagger_run
    played = Demonstrations.load(run_dir / "pretrain" / "dagger_1.npz")
    game = get_game("clockwork")
    student = NetPolicy(ActorNet(run_dir / "pretrain" / "student_1.zip", "clockwork"))
    labels: list[int] = []
    agreed = decisions = 0
    wins = 0.0
    for index in (4, 5, 6):
        teachers = [make_agent("heuristic", game="clockwork") for _ in range(2)]
        learner_seat = index % 2
        for seat, teacher in enumerate(teachers):
            extra = 2 if seat == learner_seat else 0
            teacher.reset(seat, 2, agent_rng(pretrain_seed(SEED), index, seat + extra))
        state = game.new_state(2, seed=deal_seed(pretrain_seed(SEED), index))
        while not state.is_terminal():
            decision = Decision.for_game(game, state)
            label = teachers[decision.seat].act(decision)
            action = label
            if decision.seat == learner_seat:
                action = student.act(decision)
                agreed += int(action == label)
                decisions += 1
            labels.append(label)
            state.apply_action(action)
        wins += max(0.0, outcome_rewards(state.outcome(), "win")[learner_seat])
    assert played.actions.tolist() == labels
    assert (played.student_agreed, played.student_decisions) == (agreed, decisions)
    assert played.student_wins == pytest.approx(wins)
    assert played.student_agreement == pytest.approx(agreed / decisions)


def test_collecting_with_a_student_is_deterministic(dagger_run: tuple[Path, list[str]]) -> None:
    run_dir, _ = dagger_run
    kwargs = dict(game="clockwork", student=str(run_dir / "pretrain" / "student_2.zip"))
    first = collect_demonstrations("heuristic", 2, 2, SEED, first_game=20, **kwargs)
    again = collect_demonstrations("heuristic", 2, 2, SEED, first_game=20, **kwargs)
    assert np.array_equal(first.actions, again.actions)
    assert np.array_equal(first.observations, again.observations)
    assert first.student_games == 2 and first.student_decisions > 0


def test_a_run_stopped_after_a_round_reuses_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Killed while cloning after round 1 was recorded: --resume reads the round back (the same
    bytes) instead of playing it again."""
    import agents.training.train as train_module

    config = _config(tmp_path, 1)
    real_clone = train_module.clone_policy
    calls: list[int] = []

    def killed_in_round_1(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if kwargs.get("extra") is not None:
            raise KeyboardInterrupt  # the process dies while cloning on round 1's rows
        return real_clone(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(train_module, "clone_policy", killed_in_round_1)
    with pytest.raises(KeyboardInterrupt):
        train(config, progress_bar=False, log=lambda line: None)
    round_file = tmp_path / config.run.name / "pretrain" / "dagger_1.npz"
    recorded = round_file.read_bytes()
    monkeypatch.undo()

    def no_new_games(*args: object, **kwargs: object) -> None:
        raise AssertionError("round 1 was played again")

    original = train_module.collect_demonstrations
    monkeypatch.setattr(
        train_module,
        "collect_demonstrations",
        lambda *a, **k: no_new_games() if k.get("student") else original(*a, **k),
    )
    result = train(config, resume=True, progress_bar=False, log=lambda line: None)
    assert round_file.read_bytes() == recorded
    report = json.loads((result.run_dir / "pretrain" / "report.json").read_text())
    assert report["dagger"][0]["games"] == 3 and calls == [1, 1]


def test_dagger_keys_are_checked() -> None:
    from agents.training.config import ConfigError, config_from_dict

    with pytest.raises(ConfigError, match=r"x\.yaml: pretrain\.dagger_rounds"):
        config_from_dict({"pretrain": {"teacher": "greedy", "dagger_rounds": -1}}, "x.yaml")
    with pytest.raises(ConfigError, match=r"x\.yaml: pretrain\.dagger_games"):
        config_from_dict({"pretrain": {"teacher": "greedy", "dagger_games": 0}}, "x.yaml")
    assert config_from_dict({}).pretrain.dagger_rounds == 0  # off by default


def test_the_teacher_deals_none_of_the_evaluations_deals(
    dagger_run: tuple[Path, list[str]],
) -> None:
    """The run's evaluations play ``deal_seed(seed, g)``; the teacher's games come from another
    stream, so a clone is never measured on deals it was trained on (it was: a clone of Clockwork
    City's heuristic scored 0.39 on those deals and 0.25 on fresh ones)."""
    run_dir, _ = dagger_run
    base = Demonstrations.load(run_dir / "pretrain" / "demonstrations.npz")
    recorded = collect_demonstrations("heuristic", 2, 1, pretrain_seed(SEED), game="clockwork")
    rows = base.games == 0
    assert np.array_equal(base.observations[rows], recorded.observations)
    evaluation_deals = {deal_seed(SEED, g) for g in range(1000)}
    assert not evaluation_deals & {deal_seed(pretrain_seed(SEED), g) for g in range(1000)}
