"""Training configs: the shipped files load, and a bad file fails naming the file and the key."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from agents.training.config import (
    ConfigError,
    TrainConfig,
    config_differences,
    config_from_dict,
    load_config,
)

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ["ppo_2p.yaml", "ppo_3p.yaml", "ppo_4p.yaml", "ppo_2p_subproc.yaml", "ppo_tiny.yaml"]


def write(tmp_path: Path, data: object, name: str = "bad.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def tiny() -> dict:
    return yaml.safe_load((ROOT / "configs" / "ppo_tiny.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_configs_load(name: str) -> None:
    config = load_config(ROOT / "configs" / name)
    assert isinstance(config, TrainConfig)
    assert config.source.endswith(name)
    # Whatever the machine, a rollout holds at least one batch.
    assert config.ppo.batch_size <= config.ppo.n_steps * config.resolved_n_envs()


def test_shipped_player_counts() -> None:
    assert load_config(ROOT / "configs" / "ppo_2p.yaml").num_players == 2
    assert load_config(ROOT / "configs" / "ppo_4p.yaml").num_players == 4


def test_init_from_needs_an_existing_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # init_from is relative to the working directory
    data = tiny()
    data["init_from"] = "runs/stage1/final_model.zip"
    data["pretrain"] = {"teacher": None}
    path = write(tmp_path, data, "stage2.yaml")
    with pytest.raises(ConfigError, match=r"stage2\.yaml: init_from: expected the path"):
        load_config(path)
    stage_one = tmp_path / "runs" / "stage1" / "final_model.zip"
    stage_one.parent.mkdir(parents=True)
    stage_one.write_bytes(b"")
    assert load_config(path).init_from == "runs/stage1/final_model.zip"


def test_old_recipe_runs_python_environments() -> None:
    config = load_config(ROOT / "configs" / "ppo_2p_subproc.yaml")
    assert (config.vec_env, config.env_backend, config.ppo.n_epochs) == ("subproc", "python", 8)
    assert config.run.name != load_config(ROOT / "configs" / "ppo_2p.yaml").run.name


def test_python_backend_needs_python_environments(tmp_path: Path) -> None:
    data = tiny()
    data.update(vec_env="native", env_backend="python")
    path = write(tmp_path, data)
    with pytest.raises(ConfigError, match=r"bad\.yaml: env_backend: expected 'native'"):
        load_config(path)


def test_unknown_key_names_file_and_key_path(tmp_path: Path) -> None:
    data = tiny()
    data["ppo"]["n_step"] = 64
    path = write(tmp_path, data)
    with pytest.raises(ConfigError) as error:
        load_config(path)
    message = str(error.value)
    assert message.startswith(f"{path}: ppo.n_step: unknown key")
    assert "n_steps" in message  # the known keys are listed


def test_unknown_top_level_key(tmp_path: Path) -> None:
    data = tiny()
    data["learning_rate"] = 0.1
    with pytest.raises(ConfigError, match=r"bad\.yaml: learning_rate: unknown key"):
        load_config(write(tmp_path, data))


@pytest.mark.parametrize(
    ("section", "key", "value", "expected"),
    [
        ("ppo", "n_steps", "abc", "ppo.n_steps: expected an integer, found 'abc'"),
        ("ppo", "n_steps", 0, "ppo.n_steps: expected an integer >= 1, found 0"),
        ("ppo", "n_steps", True, "ppo.n_steps: expected an integer, found True"),
        ("ppo", "n_steps", 2.5, "ppo.n_steps: expected an integer, found 2.5"),
        ("ppo", "gamma", 1.5, "ppo.gamma: expected a number <= 1.0, found 1.5"),
        ("ppo", "learning_rate", "fast", "ppo.learning_rate: expected a finite number"),
        ("policy", "net_arch", [64, -1], "policy.net_arch[1]: expected an integer >= 1"),
        ("policy", "net_arch", [], "policy.net_arch: expected at least 1 item, found []"),
        ("policy", "activation", "sigmoid", "policy.activation: expected one of 'tanh', 'relu'"),
        ("league", "bots", {"nobody": 1.0}, "league.bots: expected a known agent"),
        ("league", "bots", {"greedy": -1}, "league.bots.greedy: expected a number >= 0.0"),
        ("evaluation", "opponents", [], "evaluation.opponents: expected at least 1 item"),
        ("evaluation", "best_by", "random", "evaluation.best_by: expected one of"),
    ],
)
def test_bad_value_names_key_and_expectation(
    tmp_path: Path, section: str, key: str, value: object, expected: str
) -> None:
    data = tiny()
    data[section][key] = value
    if (section, key) == ("evaluation", "best_by"):
        data["evaluation"]["opponents"] = ["greedy"]
    with pytest.raises(ConfigError) as error:
        load_config(write(tmp_path, data))
    assert str(error.value).startswith(f"{tmp_path / 'bad.yaml'}: ")
    assert expected in str(error.value)


def test_bad_top_level_values(tmp_path: Path) -> None:
    for key, value, expected in [
        ("num_players", 5, "num_players: expected 2 to 4 (the player counts of airships), found 5"),
        ("game", "chess", "game: expected one of the registered games (airships"),
        ("vec_env", "threads", "vec_env: expected one of 'native', 'subproc' or 'dummy'"),
        ("reward", "money", "reward: expected one of 'win' or 'score'"),
        ("n_envs", -2, "n_envs: expected an integer >= 1, found -2"),
    ]:
        data = tiny()
        data[key] = value
        with pytest.raises(ConfigError, match="bad.yaml: " + expected.split(":")[0]) as error:
            load_config(write(tmp_path, data))
        assert expected in str(error.value)


def test_section_must_be_a_mapping(tmp_path: Path) -> None:
    data = tiny()
    data["ppo"] = [1, 2]
    with pytest.raises(ConfigError, match="ppo: expected a mapping of keys"):
        load_config(write(tmp_path, data))


def test_batch_larger_than_rollout_is_refused(tmp_path: Path) -> None:
    data = tiny()
    data["ppo"]["batch_size"] = 1000  # 64 steps * 2 envs = 128
    with pytest.raises(ConfigError, match=r"ppo.batch_size: expected at most .* = 128, found 1000"):
        load_config(write(tmp_path, data))


def test_no_bots_is_refused(tmp_path: Path) -> None:
    data = tiny()
    data["league"]["bots"] = {"greedy": 0}
    with pytest.raises(ConfigError, match=r"league\.bots: expected at least one bot"):
        load_config(write(tmp_path, data))


def test_invalid_yaml_and_missing_file(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("ppo: [unclosed\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"broken\.yaml: not valid YAML"):
        load_config(broken)
    with pytest.raises(ConfigError, match=r"missing\.yaml: no such config file"):
        load_config(tmp_path / "missing.yaml")


def test_defaults_and_numeric_strings() -> None:
    config = config_from_dict({"ppo": {"learning_rate": "3e-4"}})  # PyYAML reads 3e-4 as text
    assert config.ppo.learning_rate == pytest.approx(3e-4)
    assert config.policy.net_arch == [256, 256]
    assert config.resolved_n_envs() >= 1
    assert config.eval_players() == config.num_players


def test_fingerprint_ignores_only_total_timesteps() -> None:
    base = config_from_dict(tiny())
    longer = tiny()
    longer["total_timesteps"] = 10_000
    assert config_from_dict(longer).fingerprint() == base.fingerprint()
    other = tiny()
    other["ppo"]["ent_coef"] = 0.02
    changed = config_from_dict(other)
    assert changed.fingerprint() != base.fingerprint()
    assert config_differences(base.to_dict(), changed.to_dict()) == ["ppo.ent_coef: 0.01 -> 0.02"]


@pytest.mark.parametrize("text", ["", "# only a comment\n", "[1, 2]\n", "just text\n"])
def test_empty_or_non_mapping_file_is_an_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "empty.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=r"empty\.yaml: (the file is empty|expected a mapping)"):
        load_config(path)


def test_counts_accept_scientific_and_underscored_spellings() -> None:
    for spelling in ("1e6", "1_000_000", 1e6, "1.0e6"):
        assert config_from_dict({"total_timesteps": spelling}).total_timesteps == 1_000_000
    with pytest.raises(ConfigError, match=r"total_timesteps: expected an integer, found '1\.5e0'"):
        config_from_dict({"total_timesteps": "1.5e0"})


def test_binary_file_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "model.yaml"
    path.write_bytes(b"PK\x03\x04\xff\xfe\x00binary")
    with pytest.raises(ConfigError, match=r"model\.yaml: not a text file"):
        load_config(path)


def test_native_league_refuses_bots_the_core_cannot_play() -> None:
    with pytest.raises(ConfigError, match=r"league\.bots: 'mcts'.*use vec_env: subproc"):
        config_from_dict({"vec_env": "native", "league": {"bots": {"mcts": 1.0}}})
    config = config_from_dict({"vec_env": "subproc", "league": {"bots": {"mcts": 1.0}}})
    assert config.league.bots == {"mcts": 1.0}


def test_device_auto_is_the_cpu_without_a_gpu() -> None:
    torch = pytest.importorskip("torch")
    from agents.training.config import resolve_device

    assert resolve_device("cpu") == "cpu"
    expected = "cuda" if torch.cuda.is_available() else None
    assert resolve_device("auto") in ((expected,) if expected else ("cpu", "mps"))


def test_learn_threads_default_leaves_a_core(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    config = config_from_dict({})
    for cores, threads in ((1, 1), (2, 1), (16, 15)):
        monkeypatch.setattr(os, "cpu_count", lambda cores=cores: cores)
        assert config.resolved_learn_threads() == threads
    assert config.replace(learn_threads=2).resolved_learn_threads() == 2
