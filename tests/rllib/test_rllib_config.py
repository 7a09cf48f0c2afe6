"""The RLlib config: pydantic models over airships_env.configfile (no ray needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.rllib.config import ConfigError, config_from_dict, is_rllib_config, load_config

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["rllib_2p.yaml", "rllib_tiny.yaml"])
def test_shipped_configs_load(name: str) -> None:
    config = load_config(ROOT / "configs" / name)
    assert config.backend == "rllib"
    assert is_rllib_config(ROOT / "configs" / name)


def test_sb3_configs_are_not_rllib() -> None:
    assert not is_rllib_config(ROOT / "configs" / "ppo_tiny.yaml")
    assert not is_rllib_config(ROOT / "configs" / "no_such_file.yaml")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"cluster": {"num_env_runners": -1}},
            "x.yaml: cluster.num_env_runners: expected an integer >= 0, found -1",
        ),
        ({"ppo": {"n_steps": 5}}, "x.yaml: ppo.n_steps: unknown key (known: learning_rate"),
        (
            {"league": {"bots": {"mcts": 1.0}}},
            "x.yaml: league.bots: expected bots the core plays (random, greedy, heuristic)",
        ),
        (
            {"num_players": 5},
            "x.yaml: num_players: expected 2 to 4 (the player counts of airships)",
        ),
        ({"game": "chess"}, "x.yaml: game: expected one of the registered games (airships"),
        (
            {"ppo": {"train_batch_size": 100, "minibatch_size": 200}},
            "x.yaml: ppo.minibatch_size: expected at most ppo.train_batch_size (100), found 200",
        ),
        (
            {"league": {"self_play": 0, "bots": {}}},
            "x.yaml: league: expected a positive weight for self_play or a bot",
        ),
        ({"evaluation": {"opponents": ["nobody"]}}, "x.yaml: evaluation.opponents[0]: expected"),
        ({"backend": "sb3"}, "x.yaml: backend: expected one of 'rllib', found 'sb3'"),
        ({"model": {"hidden": []}}, "x.yaml: model.hidden: expected at least 1 item"),
    ],
)
def test_config_errors_name_file_key_expected_found(data: dict, message: str) -> None:
    with pytest.raises(ConfigError) as error:
        config_from_dict(data, "x.yaml")
    assert message in str(error.value)


def test_empty_file_and_counts(tmp_path: Path) -> None:
    empty = tmp_path / "empty.yaml"
    empty.write_text("", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"empty\.yaml: the file is empty"):
        load_config(empty)
    assert config_from_dict({"total_timesteps": "1e6"}).total_timesteps == 1_000_000


def test_resume_may_change_only_steps_and_cluster() -> None:
    config = config_from_dict({})
    assert config.fingerprint() == config.replace(total_timesteps=5).fingerprint()
    assert config.fingerprint() == config.replace(cluster={"num_env_runners": 8}).fingerprint()
    assert config.fingerprint() != config.replace(ppo={"num_epochs": 9}).fingerprint()
