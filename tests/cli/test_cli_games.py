"""``airships play`` and ``airships replay`` for games other than Airships, over the protocol.

The conformance toy game (Hidden Tricks, private hands; registered for these tests only) and
Nippon are played at the terminal from a scripted stdin, saved in generic game logs, resumed and
replayed.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

from airships_env import registry
from airships_env.game_log import read_game_log, replay_log
from tests.conformance.toy_game import GAME as TOY

ALWAYS_FIRST = "1\n" * 400


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The toy game registered for one test (the registry's tables restored afterwards)."""
    monkeypatch.setattr(registry, "_TARGETS", dict(registry._TARGETS))
    monkeypatch.setattr(registry, "_LOADED", dict(registry._LOADED))
    registry.register(TOY.name, "tests.conformance.toy_game:GAME")
    yield TOY.name
    gymnasium = sys.modules.get("gymnasium")
    if gymnasium is not None:
        gymnasium.registry.pop(registry.gym_id(TOY.name, TOY.version), None)


def play_lines(out: str, label: str) -> list[str]:
    """The move lines the terminal printed for a player label ('P1 random')."""
    return [line for line in out.splitlines() if line.startswith(f"{label}: ")]


def test_a_whole_toy_game_is_played_logged_and_told_by_seat(cli, toy, tmp_path):
    log = tmp_path / "t.jsonl"
    run = cli(
        ["play", "--game", toy, "--opponents", "random", "--seed", "4", "--log", str(log)],
        stdin="abc\n0\n" + ALWAYS_FIRST,
    )
    assert run.code == 0, run.err
    assert "Unknown choice 'abc'" in run.out and "0 is out of range" in run.out
    assert "your hand" in run.out  # the presenter's view of the person's seat
    stored = read_game_log(log)
    assert stored.game == toy and stored.meta["agents"] == ["human", "random"]
    replayed = replay_log(stored, TOY)
    assert replayed.state.is_terminal()
    # Another seat's move is told by its action's name only (the protocol's record_text has no
    # seat); the person's own moves in full.
    bot_moves = [r for r, p in zip(replayed.records, replayed.players, strict=True) if p == 1]
    assert play_lines(run.out, "P1 random") == [
        f"P1 random: {TOY.action_name(r.action)}" for r in bot_moves
    ]
    own = len(replayed.records) - len(bot_moves)
    assert own and run.out.count("P0 (you): P0 plays ") == own  # after each prompt
    assert "Result: " in run.out and "place 1:" in run.out


def test_a_choice_by_name_and_an_ambiguous_one(cli, toy, tmp_path):
    state = TOY.new_state(2, seed=9)
    legal = state.legal_actions()
    names = [TOY.action_name(a) for a in legal]
    log = tmp_path / "t.jsonl"
    run = cli(
        ["play", "--game", toy, "--opponents", "random", "--seed", "9", "--log", str(log)],
        stdin=f"play\n{names[-1]}\nq\n",
    )
    assert run.code == 0, run.err
    assert len(names) > 1 and f"'play' matches {len(names)} choices" in run.out
    first = json.loads(log.read_text().splitlines()[1])
    assert first["action"] == legal[-1]  # chosen by its whole name
    assert "resume with: airships play --resume" in run.out


def test_resume_continues_as_the_uninterrupted_game(cli, toy, tmp_path):
    whole, split = tmp_path / "whole.jsonl", tmp_path / "split.jsonl"
    args = ["play", "--game", toy, "--opponents", "ismcts:sims=20", "--seed", "2"]
    assert cli([*args, "--log", str(whole)], stdin=ALWAYS_FIRST).code == 0
    assert cli([*args, "--log", str(split)], stdin="1\n1\nq\n").code == 0
    assert len(read_game_log(split).records) < len(read_game_log(whole).records)
    run = cli(["play", "--resume", str(split)], stdin=ALWAYS_FIRST)
    assert run.code == 0, run.err
    assert "Resuming of Hidden Tricks" in run.out
    assert read_game_log(split).records == read_game_log(whole).records
    assert read_game_log(split).header == read_game_log(whole).header


def test_nippon_at_the_terminal_saves_and_resumes(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run = cli(["play", "--game", "nippon", "--seed", "3", "--no-color"], stdin="take\n1\nq\n")
    assert run.code == 0, run.err
    log = Path("games/nippon-game-3.jsonl")  # the default log names the game
    assert "'take' matches" in run.out  # an ambiguous start of a name lists its matches
    assert "Nippon, 2 players" in run.out  # the presenter's view
    stored = read_game_log(log)
    # the default opponent is the game's heuristic where it has one
    assert stored.game == "nippon" and stored.meta["agents"] == ["human", "heuristic"]
    count = len(stored.records)
    run = cli(["play", "--resume", str(log), "--no-color"], stdin="1\nq\n")
    assert run.code == 0, run.err
    assert len(read_game_log(log).records) > count
    replay_log(read_game_log(log), registry.get_game("nippon"))  # still replays


def test_generic_play_errors(cli, tmp_path):
    run = cli(["play", "--game", "nippon", "--cards", "x.toml"])
    assert run.code == 2 and "--cards" in run.err
    run = cli(["play", "--game", "nippon", "--opponents", "az", "--log", "x.jsonl"])
    assert run.code == 2 and "az" in run.err  # Airships' agent, not one of Nippon's
    run = cli(["play", "--game", "nippon", "--players", "5", "--log", str(tmp_path / "x")])
    assert run.code == 2 and "--players must be 2 to 4" in run.err


def test_replay_reads_a_generic_log_by_its_header(cli, toy, tmp_path):
    log = tmp_path / "t.jsonl"
    args = ["play", "--game", toy, "--opponents", "random", "--seed", "6", "--log", str(log)]
    assert cli(args, stdin=ALWAYS_FIRST).code == 0
    size = len(read_game_log(log).records)
    run = cli(["replay", str(log), "--commands", "n;n;p;s 4;j 2;e;q"])
    assert run.code == 0, run.err
    steps = [line for line in run.out.splitlines() if line.startswith("Step ")]
    assert [s.split(":")[0] for s in steps] == [
        "Step 0/" + str(size),
        f"Step 1/{size}",
        f"Step 2/{size}",
        f"Step 1/{size}",
        f"Step 4/{size}",
        f"Step {size}/{size}",
    ]
    assert "this game's log has no turns" in run.out
    # A finished game is the referee's record: every record in full.
    assert "P1 random: P1 plays" in run.out and "Result: " in run.out
    gif = tmp_path / "t.gif"
    run = cli(["replay", str(log), "--out", str(gif)])
    assert run.code == 0, run.err
    assert gif.read_bytes()[:6] == b"GIF89a" and f"wrote {size + 1} frames" in run.out
    run = cli(["replay", str(log), "--game", "nippon"])
    assert run.code == 2 and "is a log of tricks" in run.err
    run = cli(["replay", str(log), "--turn", "3"])
    assert run.code == 2 and "no turns" in run.err


def test_replay_names_a_bad_line(cli, toy, tmp_path):
    log = tmp_path / "t.jsonl"
    args = ["play", "--game", toy, "--opponents", "random", "--seed", "6", "--log", str(log)]
    assert cli(args, stdin=ALWAYS_FIRST).code == 0
    lines = log.read_text().splitlines()
    record = json.loads(lines[2])
    record["action"] = (record["action"] + 1) % TOY.num_actions
    lines[2] = json.dumps(record)
    log.write_text("\n".join(lines) + "\n")
    run = cli(["replay", str(log)])
    assert run.code == 2 and "line 3" in run.err


def test_resume_drops_a_line_a_crash_cut_short(cli, toy, tmp_path):
    log = tmp_path / "t.jsonl"
    args = ["play", "--game", toy, "--opponents", "random", "--seed", "8", "--log", str(log)]
    assert cli(args, stdin="1\n1\nq\n").code == 0
    whole = log.read_text()
    lines = whole.splitlines()
    log.write_text(whole + lines[-1][: len(lines[-1]) // 2])  # a record cut mid-write
    run = cli(["play", "--resume", str(log)], stdin="q\n")
    assert run.code == 0, run.err
    assert f"dropped line {len(lines) + 1}, cut short by a crash" in run.out
    assert log.read_text() == whole


def test_nippon_in_a_pseudo_terminal_and_its_replay(tmp_path):
    from tests.cli.test_cli_play import spawn

    log = tmp_path / "n.jsonl"
    child = spawn(["play", "--game", "nippon", "--seed", "3", "--log", str(log)])
    child.expect(r"Your choice \(1-\d+, or a name; q to save and quit\): ")
    child.sendline("1")
    child.expect(r"P0 \(you\): ")
    child.expect(r"Your choice \(1-\d+")
    child.sendline("q")
    child.expect("game saved to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    size = len(read_game_log(log).records)
    child = spawn(["replay", str(log)])
    child.expect(rf"\[0/{size}\]")
    child.sendline("n")
    child.expect(f"Step 1/{size}")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
