"""What a script reading the output relies on: with ``--json`` stdout is the JSON line alone (the
tables go to stderr) for arena, evaluate, tournament and bench; the tournament's defaults and its
``--out`` option (``--output`` kept as an alias); an empty training config is refused."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from agents.cli import main

REPO = Path(__file__).resolve().parents[2]


def _only_json(out: str) -> dict:
    lines = out.strip().splitlines()
    assert len(lines) == 1, f"stdout is not the JSON line alone: {out!r}"
    data = json.loads(lines[0])
    assert isinstance(data, dict)
    return data


def test_arena_json_alone_on_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "--agents", "random,greedy", "--games", "2", "--workers", "1"]
    assert main([*argv, "--no-progress", "--json"]) == 0
    captured = capsys.readouterr()
    assert _only_json(captured.out)["games"] == 2
    assert "Arena, 2 players" in captured.err  # the table, on stderr
    assert main([*argv, "--no-progress"]) == 0  # without --json the table is on stdout
    assert "Arena, 2 players" in capsys.readouterr().out


def _tournament_config(tmp_path: Path) -> Path:
    config = tmp_path / "t.yaml"
    config.write_text(
        "name: t\nplayers: 2\ngames: 2\nseed: 1\nworkers: 1\n"
        f"output: {tmp_path / 'from_config'}\nagents: [random, greedy]\n"
    )
    return config


def test_tournament_json_alone_on_stdout_and_out_option(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("openskill")
    config = _tournament_config(tmp_path)
    common = [str(config), "--no-progress", "--no-plots", "--json"]
    assert main(["tournament", *common, "--out", str(tmp_path / "out")]) == 0
    captured = capsys.readouterr()
    _only_json(captured.out)
    assert (tmp_path / "out" / "results.jsonl").exists()
    assert "leaderboard" in captured.err
    assert main(["tournament", *common, "--output", str(tmp_path / "alias")]) == 0
    capsys.readouterr()
    assert (tmp_path / "alias" / "results.jsonl").exists()
    assert not (tmp_path / "from_config").exists()


def test_tournament_default_config_is_the_repository_one() -> None:
    from agents.cli.tournament import DEFAULT_CONFIG, parse_args

    assert DEFAULT_CONFIG == REPO / "configs" / "tournament.yaml"
    assert DEFAULT_CONFIG.is_file()
    assert parse_args([]).config == DEFAULT_CONFIG
    assert parse_args(["--out", "x"]).out == Path("x")


def test_bench_json_alone_on_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--only", "engine", "--seconds", "0.01", "--json"]) == 0
    captured = capsys.readouterr()
    _only_json(captured.out)
    assert captured.err.strip()


@pytest.mark.skipif(
    any(importlib.util.find_spec(m) is None for m in ("sb3_contrib", "torch")),
    reason="sb3-contrib and torch are needed to save a model",
)
def test_evaluate_json_alone_on_stdout(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from sb3_contrib import MaskablePPO

    from airships_env.single_agent import AirshipsSingleAgentEnv

    model = tmp_path / "tiny.zip"
    MaskablePPO("MlpPolicy", AirshipsSingleAgentEnv(num_players=2), n_steps=16, batch_size=16).save(
        model
    )
    argv = ["evaluate", "--model", str(model), "--opponents", "random", "--games", "2"]
    assert main([*argv, "--workers", "1", "--no-progress", "--json"]) == 0
    captured = capsys.readouterr()
    assert "ppo" in _only_json(captured.out)["agents"]
    assert "ppo: win rate" in captured.err


def test_an_empty_training_config_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config = tmp_path / "empty.yaml"
    config.write_text("")
    assert main(["train", "--config", str(config)]) != 0
    err = capsys.readouterr().err
    assert "empty.yaml" in err and "empty" in err


def test_the_leaderboard_explains_the_ordinal_column(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("openskill")
    config = _tournament_config(tmp_path)
    assert main(["tournament", str(config), "--no-progress", "--no-plots"]) == 0
    out = capsys.readouterr().out
    assert "ordinal" in out and "ordinal = mu - 3 sigma" in out
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "**ordinal**, `mu - 3 sigma`" in readme
