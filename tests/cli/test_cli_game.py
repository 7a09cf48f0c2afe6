"""``--game NAME`` on the commands: the default is Airships, an unknown game is a clear error
listing the registered games, and a game without a tool a command needs is a clear error."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.cli import main
from airships_env.registry import games

COMMANDS = [
    ["arena", "--agents", "random,random"],
    ["tournament"],
    ["play"],
    ["replay", "x.jsonl"],
    ["evaluate", "--model", "m.zip", "--opponents", "random"],
    ["train", "--config", "c.yaml"],
    ["bench"],
]


@pytest.mark.parametrize("argv", COMMANDS, ids=[a[0] for a in COMMANDS])
def test_an_unknown_game_lists_the_registered_ones(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*argv, "--game", "chess"]) == 2
    err = capsys.readouterr().err
    assert "unknown game 'chess'; registered games: " + ", ".join(games()) in err


def test_a_game_without_the_tool_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    from agents.cli.common import UsageError, require_tool

    with pytest.raises(UsageError, match="play: go has no terminal table yet; the games with"):
        require_tool("play", "go", "terminal table", ("airships",))
    require_tool("play", "airships", "terminal table", ("airships",))


def test_arena_player_counts_come_from_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "--game", "airships", "--agents", "random,random,random,random,random"]
    assert main([*argv, "--no-progress"]) == 2
    assert "airships is played by 2 to 4 players, got 5" in capsys.readouterr().err


def test_play_player_counts_come_from_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--game", "airships", "--players", "5"]) == 2
    assert "--players must be 2 to 4, got 5" in capsys.readouterr().err


def test_bench_engine_rate_plays_through_the_protocol(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from agents.cli import bench

    rate = bench.python_engine_rate(2, 0.05, game="airships")
    assert rate["decisions_per_s"] > 0 and rate["games_per_s"] > 0


def test_tournament_game_override(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "t.yaml"
    config.write_text("agents: [random, greedy]\ngames: 2\nworkers: 1\n", encoding="utf-8")
    out = tmp_path / "out"
    argv = ["tournament", str(config), "--game", "airships", "--out", str(out)]
    assert main([*argv, "--no-plots", "--no-progress"]) == 0
    assert '"game":"airships"' in (out / "results.jsonl").read_text(encoding="utf-8")
