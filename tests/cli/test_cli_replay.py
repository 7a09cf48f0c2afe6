"""``airships replay``: the final state, stepping, frames, and the documented errors."""

from __future__ import annotations

import json
import re

import pytest

from agents.cli.replay import ReplayedGame, parse_command
from airships_env.engine import read_log, replay

from .conftest import record_game


def one_line_error(run, code: int = 2) -> str:
    assert run.code == code, run.out
    lines = run.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("airships: error: "), run.err
    return lines[0]


def test_replay_prints_the_final_state_and_scores(cli, game_log):
    path, log = game_log
    final_record = log.records[-1]
    assert final_record.game_over and final_record.scores is not None
    run = cli(["replay", str(path)])  # stdin is not a terminal: print the end
    assert run.code == 0, run.err
    # The replayed final state is the logged one, and the printed scores are its scores.
    state = replay(read_log(path))
    assert state.final_scores == final_record.scores
    assert state.winners == final_record.winners
    rows = re.findall(r"│(P\d)[^│]*│\s*(\d+) │\s*(\d+) │\s*(\d+) │\s*(\d+) │", run.out)
    printed = {int(p[1:]): int(total) for p, _e, _a, _h, total in rows}
    assert printed == dict(enumerate(final_record.scores))
    best = max(final_record.scores)
    assert f"wins with {best}" in run.out or f"share the win with {best}" in run.out
    assert f"Step {len(log.records)}/{len(log.records)}" in run.out
    assert "Game over" in run.out


def test_replay_stepping_commands(cli, game_log):
    path, log = game_log
    turn = log.records[10].turn
    run = cli(["replay", str(path), "--commands", f"n;n;p;j {turn};s 3;e;x;n;q"])
    assert run.code == 0, run.err
    titles = re.findall(r"Step (\d+)/\d+", run.out)
    start_of_turn = next(i for i, r in enumerate(log.records) if r.turn == turn)
    size = len(log.records)
    assert [int(t) for t in titles] == [0, 1, 2, 1, start_of_turn, 3, size]
    assert "unknown command 'x'" in run.out
    assert "already at the end" in run.out


def test_replay_turn_option_and_positions(cli, game_log):
    path, log = game_log
    run = cli(["replay", str(path), "--turn", "5"])
    assert run.code == 0
    assert "Turn 5 " in run.out
    game = ReplayedGame(read_log(path), replay(read_log(path)))
    for position in (0, 7, len(log.records)):
        assert game.state(position).to_dict() == replay(read_log(path), upto=position).to_dict()
    assert parse_command("j 999", 0, game)[0] is None
    assert parse_command("s 2", 0, game) == (2, "")
    assert parse_command("", 0, game) == (1, "")
    assert parse_command("q", 4, game) == (None, "")
    assert parse_command("p", 0, game)[1].startswith("already at the start")


def test_replay_gif_and_png_frames(cli, tmp_path):
    path = tmp_path / "short.jsonl"
    log = record_game(path, upto=6)
    turns = len({r.turn for r in log.records})
    gif = tmp_path / "game.gif"
    run = cli(["replay", str(path), "--out", str(gif), "--fps", "4"])
    assert run.code == 0, run.err
    from PIL import Image

    with Image.open(gif) as image:
        assert image.n_frames == 1 + turns
        assert image.size == (1280, 800)
        assert image.info["duration"] == 250
    frames = tmp_path / "frames"
    run = cli(["replay", str(path), "--out", str(frames), "--every", "record"])
    assert run.code == 0, run.err
    written = sorted(frames.glob("*.png"))
    assert len(written) == 1 + len(log.records)
    assert f"wrote {len(written)} frames" in run.out
    with Image.open(written[-1]) as image:
        assert image.size == (1280, 800)


# ---------------------------------------------------------------------------------------------
# Documented errors
# ---------------------------------------------------------------------------------------------
def test_error_missing_log(cli, tmp_path):
    missing = tmp_path / "none.jsonl"
    line = one_line_error(cli(["replay", str(missing)]))
    assert f"{missing}: cannot read the log: No such file or directory" in line


def test_error_corrupted_line(cli, game_log):
    path, _log = game_log
    lines = path.read_text().splitlines()
    lines[4] = "{this is not json"
    path.write_text("\n".join(lines) + "\n")
    line = one_line_error(cli(["replay", str(path)]))
    assert f"{path}: line 5: not valid JSON" in line


def test_error_older_log_version(cli, game_log):
    path, _log = game_log
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    header["version"] = 0
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    line = one_line_error(cli(["replay", str(path)]))
    assert f"{path}: line 1: log version 0 is not supported" in line


def test_error_record_that_does_not_replay(cli, game_log):
    path, log = game_log
    lines = path.read_text().splitlines()
    number = next(i for i, r in enumerate(log.records) if r.result == "failure") + 2
    record = json.loads(lines[number - 1])
    record["result"] = "success"
    lines[number - 1] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n")
    line = one_line_error(cli(["replay", str(path)]))
    assert f"line {number}: the replay differs from the log in" in line
    assert "result" in line


def test_error_bad_out_and_turn(cli, game_log, tmp_path):
    path, _log = game_log
    line = one_line_error(cli(["replay", str(path), "--out", str(tmp_path / "x.mp4")]))
    assert "--out must be a .gif file or a folder for PNG frames" in line
    line = one_line_error(cli(["replay", str(path), "--turn", "9999"]))
    assert "--turn 9999: the game has turns 1 to" in line


@pytest.mark.parametrize("fps", ["0", "-1", "fast"])
def test_error_bad_fps(cli, game_log, fps):
    path, _log = game_log
    line = one_line_error(cli(["replay", str(path), "--fps", fps, "--out", "x.gif"]))
    assert "argument --fps" in line and "airships replay --help" in line


def test_replay_steps_interactively_in_a_terminal(game_log):
    import pexpect

    from .conftest import AIRSHIPS

    path, log = game_log
    child = pexpect.spawn(
        str(AIRSHIPS),
        ["replay", str(path), "--no-color"],
        encoding="utf-8",
        timeout=30,
        dimensions=(40, 120),
        env={"TERM": "xterm"},
    )
    child.delaybeforesend = None
    child.expect(r"Step 0/\d+")
    child.expect(r"\[0/\d+\] n/Enter next")
    child.sendline("")  # Enter: the next step
    child.expect(r"Step 1/\d+")
    child.sendline("e")
    child.expect(f"Step {len(log.records)}/{len(log.records)}")
    child.expect("Final scores")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_replay_shows_a_log_whose_last_line_a_crash_cut_short(cli, tmp_path):
    """Issue 27 item 13: what 'play --resume' repairs, replay reads too (up to the cut)."""
    log = tmp_path / "torn.jsonl"
    played = cli(["play", "--opponents", "random", "--seed", "9", "--log", str(log)], "1\n" * 7)
    assert played.code == 0, played.err
    lines = log.read_text().splitlines()
    log.write_text("\n".join([*lines[:-1], lines[-1][:25]]))  # cut short, no newline
    run = cli(["replay", str(log)])
    assert run.code == 0, run.err
    assert run.err.strip() == (
        f"note: {log}: line {len(lines)} was cut short by a crash (25 characters, not a whole "
        f"record): replaying lines 1 to {len(lines) - 1} ('airships play --resume {log}' "
        f"repairs the file and continues the game)"
    )
    whole = len(lines) - 2  # the header and the cut line are no records
    assert f"Step {whole}/{whole}" in run.out
    assert log.read_text().endswith(lines[-1][:25])  # replay reads, never writes
