"""Training any registered game: a tiny MaskablePPO run on Nippon through ``airships train
--game``, its model played by the arena and ``airships evaluate`` as ``ppo:path=...``, an exact
resume, and the clear errors (a config asking for what only Airships has or agents the game
lacks, a model of another game)."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest
import yaml

from agents.cli import main
from agents.games import model_game, recorded_players
from agents.policy_agent import ActorNet
from agents.registry import make_agent
from agents.training.config import ConfigError, config_from_dict, load_config
from agents.training.games import Segment, load_games, save_games
from agents.training.league import BOT, LeagueMix, Member
from airships_env.registry import get_game

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "configs" / "ppo_tiny.yaml"
#: What the tiny config needs to train another game: Python environments and that game's bots.
GENERIC = {
    "vec_env": "dummy",
    "league": {"bots": {"random": 1.0}},
    "evaluation": {"opponents": ["random"], "best_by": "random"},
}


def tiny_config(tmp_path: Path, **changes: object) -> Path:
    """The tiny test config with ``changes`` (sections merged), written under ``tmp_path``."""
    data = yaml.safe_load(TINY.read_text(encoding="utf-8"))
    for key, value in {**GENERIC, **changes}.items():
        if isinstance(value, dict) and isinstance(data.get(key), dict):
            data[key] = {**data[key], **value}
        else:
            data[key] = value
    data["run"]["output_dir"] = str(tmp_path / "runs")
    path = tmp_path / "tiny.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def nippon_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny Nippon run (384 steps: its last checkpoint holds 128 steps of games played since
    the periodic deal at 256) started by ``airships train --game nippon``."""
    tmp_path = tmp_path_factory.mktemp("nippon")
    config = tiny_config(tmp_path)
    argv = ["train", "--config", str(config), "--game", "nippon", "--total-timesteps", "384"]
    assert main([*argv, "--no-progress"]) == 0
    return tmp_path / "runs" / "ppo_tiny"


def test_a_tiny_nippon_run_writes_a_model_of_nippon(nippon_run: Path) -> None:
    saved = yaml.safe_load((nippon_run / "config.yaml").read_text(encoding="utf-8"))
    assert saved["game"] == "nippon"  # the run's config records its game
    for model in ("final_model.zip", "best_model.zip", "checkpoints/step_384.zip"):
        assert model_game(nippon_run / model) == "nippon"
        assert recorded_players(nippon_run / model) == 2  # and the table size it plays
    snapshots = sorted((nippon_run / "league").glob("snapshot_*.zip"))
    assert snapshots and all(model_game(s) == "nippon" for s in snapshots)
    assert all(recorded_players(s) == 2 for s in snapshots)
    evaluations = (nippon_run / "eval" / "evaluations.jsonl").read_text().splitlines()
    assert [json.loads(line)["opponent"] for line in evaluations] == ["random", "random"]


def test_the_arena_and_evaluate_play_the_model(
    nippon_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = nippon_run / "final_model.zip"
    out = tmp_path / "a.jsonl"
    argv = ["arena", "--game", "nippon", "--agents", f"ppo:path={model},random"]
    assert main([*argv, "--games", "2", "--out", str(out), "--no-progress"]) == 0
    header, *games = [json.loads(line) for line in out.read_text().splitlines()]
    assert header["config"]["game"] == "nippon" and len(games) == 2
    assert not any(g.get("error") for g in games)
    capsys.readouterr()
    argv = ["evaluate", "--game", "nippon", "--model", str(model), "--opponents", "random"]
    assert main([*argv, "--games", "2", "--workers", "1", "--json", "--no-progress"]) == 0
    figures = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert figures["games"] == 2 and "ppo" in figures["agents"]


def test_a_model_of_one_game_is_refused_by_another(nippon_run: Path) -> None:
    nippon_model = nippon_run / "final_model.zip"
    airships_model = ROOT / "agents" / "models" / "ppo_2p.zip"
    with pytest.raises(ValueError, match=r"a policy for nippon .* not for airships"):
        make_agent(f"ppo:path={nippon_model}")
    with pytest.raises(ValueError, match=r"a policy for airships .* not for nippon"):
        make_agent(f"ppo:path={airships_model}", game="nippon")
    net = ActorNet(nippon_model, "nippon")
    assert net.num_players == 2
    assert net.observation_size == get_game("nippon").observation_size(2)
    with pytest.raises(ValueError, match="trained for 2 players, but this table has 3"):
        make_agent(f"ppo:path={nippon_model}", game="nippon", num_players=3)


def test_a_resumed_nippon_run_continues_its_games(
    nippon_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A copy of the run, resumed: the games dealt at step 256 are dealt again and their record
    # replayed to the observations saved at 384 (ResumeError otherwise), then training goes on.
    import shutil

    copy = tmp_path / "run"
    shutil.copytree(nippon_run, copy)
    config = nippon_run.parents[1] / "tiny.yaml"  # the file says airships: --game again
    argv = ["train", "--config", str(config), "--game", "nippon", "--run-dir", str(copy)]
    assert main([*argv, "--resume", "--total-timesteps", "768", "--no-progress"]) == 0
    assert "replayed the 128 steps played since the games were dealt at step 256" in (
        capsys.readouterr().err
    )
    state = json.loads((copy / "state.json").read_text())
    assert state["num_timesteps"] == 768


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"league": {"bots": {"az": 1.0}}}, "league.bots: expected a known agent of nippon"),
        ({"pretrain": {"teacher": "az"}}, "pretrain.teacher: expected a known agent of nippon"),
        ({"num_players": 5}, "num_players: expected 2 to 4"),
    ],
)
def test_a_config_of_another_game_names_what_it_cannot_have(
    tmp_path: Path, changes: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        load_config(tiny_config(tmp_path, game="nippon", **changes))


def test_nippon_may_train_in_the_core(tmp_path: Path) -> None:
    config = load_config(tiny_config(tmp_path, game="nippon", vec_env="native"))
    assert config.vec_env == "native" and config.game == "nippon"


def test_an_unknown_game_in_a_config_lists_the_registered_ones() -> None:
    data = yaml.safe_load(TINY.read_text(encoding="utf-8"))
    with pytest.raises(ConfigError, match="game: expected one of the registered games"):
        config_from_dict({**data, "game": "chess"})


def test_the_games_record_holds_actions_past_127(tmp_path: Path) -> None:
    # Nippon has 176 actions: a record of int8 rows would wrap them (150 -> -106).
    mix = LeagueMix((Member(BOT, "random"),), (1.0,))
    segment = Segment(3, 0, mix, [np.array([150, 2], dtype=np.int16)])
    path = save_games(tmp_path / "g.npz", segment, tmp_path)
    loaded = load_games(path, tmp_path, 2)
    assert [row.tolist() for row in loaded.actions] == [[150, 2]]
    small = save_games(tmp_path / "s.npz", Segment(3, 0, mix, [np.array([5, 82])]), tmp_path)
    with zipfile.ZipFile(small) as archive, archive.open("actions.npy") as stored:
        assert np.lib.format.read_array(stored).dtype == np.int8  # Airships' records unchanged
