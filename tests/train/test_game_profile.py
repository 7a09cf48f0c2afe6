"""``airships train --profile`` for a game other than Airships: its Python vector env against
a free environment of its spaces, with the opponents' share of the time measured."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

pytest.importorskip("sb3_contrib")

from agents.cli import main
from agents.games import DEFAULT_GAME
from agents.training.profile import FreeVecEnv
from airships_env.game_single_agent import GameSingleAgentEnv
from airships_env.registry import games

ROOT = Path(__file__).resolve().parents[2]


def test_profile_of_a_clockwork_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = yaml.safe_load((ROOT / "configs" / "ppo_tiny.yaml").read_text(encoding="utf-8"))
    data.update(
        game="clockwork",
        vec_env="dummy",
        league={"bots": {"greedy": 1.0}},
        evaluation={"opponents": ["greedy"], "best_by": "greedy"},
    )
    data["run"]["output_dir"] = str(tmp_path / "runs")
    config = tmp_path / "clockwork.yaml"
    config.write_text(yaml.safe_dump(data), encoding="utf-8")
    assert main(["train", "--config", str(config), "--profile", "256", "--json"]) == 0
    out, err = capsys.readouterr()
    result = json.loads(out.strip().splitlines()[-1])
    assert "Escape from Clockwork City, 2 players, 2 dummy environments" in err
    assert "real / free throughput" in err
    assert result["game"] == "clockwork" and result["rounds"] == 4
    assert result["real"]["steps"] >= 256 and result["free"]["steps"] >= 256
    parts = ("env_share", "opponent_share", "inference_share", "learn_share", "overhead_share")
    for figures in (result["real"], result["free"]):
        assert 0.5 < sum(figures[k] for k in parts) <= 1.01
    # the greedy opponents play inside the Python environments: their time is counted there
    assert result["real"]["opponent_share"] > 0
    assert result["free"]["opponent_share"] == 0
    assert not (tmp_path / "runs").exists()  # a profile writes nothing


@pytest.mark.parametrize("game", [name for name in games() if name != DEFAULT_GAME])
def test_the_free_env_has_the_games_spaces(game: str) -> None:
    free = FreeVecEnv(3, 2, game=game)
    real = GameSingleAgentEnv(game, 2)
    assert free.observation_space == real.observation_space
    assert free.action_space == real.action_space
    assert free.reset().shape == (3, *real.observation_space.shape)
    assert free.action_masks().shape == (3, real.action_space.n)
