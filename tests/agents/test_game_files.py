"""Files the tools write record their game; a file without one is an Airships file."""

from __future__ import annotations

import hashlib
import json
import shutil
import zipfile
from pathlib import Path

import pytest

from agents.arena import run_arena
from agents.games import (
    MODEL_GAME_ENTRY,
    check_player_count,
    counts_text,
    file_game,
    model_game,
    write_model_game,
)
from agents.results import read_results
from agents.tournament import config_from_dict
from agents.training.config import RESUMABLE_CHANGES, config_differences
from agents.training.config import config_from_dict as train_config_from_dict
from airships_env.engine import GameLog, LogError, new_game
from airships_env.engine.log import parse_log
from airships_env.registry import games

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"


def test_counts_text_and_player_checks() -> None:
    assert counts_text((2, 3, 4)) == "2 to 4"
    assert counts_text((2, 3, 5)) == "2, 3 or 5"
    assert counts_text((2,)) == "2"
    assert check_player_count("airships", 3) == 3
    with pytest.raises(ValueError, match="Airships is played by 2 to 4 players; players: got 5"):
        check_player_count("airships", 5)
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        check_player_count("chess", 2)


def test_file_game_defaults_to_airships_and_names_the_file() -> None:
    assert file_game({}) == "airships"
    assert file_game({"game": "airships"}) == "airships"
    known = ", ".join(games())
    with pytest.raises(ValueError, match=rf"x\.json: game: expected one of {known}, found 'go'"):
        file_game({"game": "go"}, "x.json")


def test_results_files_record_their_game_and_old_files_resume(tmp_path: Path) -> None:
    out = tmp_path / "new.jsonl"
    run_arena(["heuristic", "greedy"], 4, seed=5, paired=True, out=out)
    header, _ = read_results(out)
    assert header is not None and header["config"]["game"] == "airships"
    old = tmp_path / "old.jsonl"  # written before results recorded their game
    shutil.copy(ROOT / "tests" / "golden" / "tools" / "A.jsonl", old)
    old_header, _ = read_results(old)
    assert old_header is not None and "game" not in old_header["config"]
    resumed = run_arena(["heuristic", "greedy"], 40, seed=5, paired=True, out=old)
    assert resumed.played == 0 and len(resumed.records) == 40


def test_arena_refuses_a_table_the_game_does_not_seat() -> None:
    with pytest.raises(ValueError, match="give 2 to 4 agents for Airships, got 5"):
        run_arena(["random"] * 5, 5)
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        run_arena(["random", "random"], 2, game="chess")


def test_game_logs_record_their_game_and_old_logs_read(tmp_path: Path) -> None:
    log = GameLog.start(new_game(2, seed=3))
    header = log.header()
    assert header["game"] == "airships"
    for path in sorted(GOLDEN.glob("*.jsonl")):  # logs written before the key: still read
        first = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
        assert "game" not in first
        parse_log(path.read_text(encoding="utf-8").splitlines(), str(path))
    other = json.dumps({**header, "game": "clockwork"})
    with pytest.raises(LogError, match=r"x\.jsonl: line 1: a game log of 'clockwork'"):
        parse_log([other], "x.jsonl")


def test_saved_models_record_their_game(tmp_path: Path) -> None:
    bundled = ROOT / "agents" / "models" / "ppo_2p.zip"
    assert model_game(bundled) == "airships"  # saved before models recorded their game
    model = tmp_path / "model.zip"
    shutil.copy(bundled, model)
    write_model_game(model, "airships")
    with zipfile.ZipFile(model) as archive:
        assert json.loads(archive.read(MODEL_GAME_ENTRY)) == {"game": "airships"}
    assert model_game(model) == "airships"
    from agents.policy_agent import ActorNet

    ActorNet(model)  # stable-baselines3's loader ignores the extra entry
    other = tmp_path / "other.zip"
    shutil.copy(bundled, other)
    with zipfile.ZipFile(other, "a") as archive:
        archive.writestr(MODEL_GAME_ENTRY, json.dumps({"game": "no-such-game"}))
    with pytest.raises(ValueError, match=r"other\.zip: game.json: game: expected one of"):
        model_game(other)


def test_tournament_and_training_configs_record_their_game() -> None:
    config = config_from_dict({"agents": ["random", "greedy"]}, "t.yaml")
    assert config.game == "airships"
    assert config.results_config({"random": "random"})["game"] == "airships"
    train = train_config_from_dict({}, "train.yaml")
    assert train.game == "airships" and train.to_dict()["game"] == "airships"
    old = {k: v for k, v in train.to_dict().items() if k != "game"}  # a run from before
    assert config_differences(old, train.to_dict()) == []
    # the fingerprint a run saved before the key existed (hash of the config without it)
    kept = {k: v for k, v in old.items() if k not in RESUMABLE_CHANGES}
    before = hashlib.sha256(json.dumps(kept, sort_keys=True).encode()).hexdigest()[:16]
    assert train.fingerprint() == before
