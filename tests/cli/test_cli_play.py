"""``airships play``: full games against random bots, bad input, Ctrl-C, resume, errors."""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import os
import re
import signal
import sys
from pathlib import Path

import pexpect
import pytest

from agents.cli import main
from agents.cli.play import parse_choice
from agents.session import bot_generator, seat_agents
from airships_env.engine import read_log, replay

from .conftest import AIRSHIPS

ALWAYS_FIRST = "1\n" * 400  # more answers than any 2-player game asks for
PROMPT = r"Your choice \(1-(\d+), q to save and quit\): "


def log_records(path: Path) -> list[dict]:
    """The action lines of a log as dicts."""
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


def test_full_game_with_scripted_stdin_refuses_bad_input(cli, tmp_path):
    log = tmp_path / "g.jsonl"
    bad = ["", "abc", "0", "999"]
    run = cli(
        ["play", "--opponents", "random", "--seed", "3", "--log", str(log)],
        stdin="\n".join(bad) + "\n" + ALWAYS_FIRST,
    )
    assert run.code == 0, run.err
    assert "Empty input: type a number from 1 to" in run.out
    assert "Unknown choice 'abc'" in run.out
    assert "0 is out of range" in run.out
    assert "999 is out of range" in run.out
    # Each refusal shows the choices again: the first decision lists them 1 + 4 times.
    first_decision = run.out.split("turn 1: P0 (you)")[0]
    assert first_decision.count("Your choices") - len(bad) == 1 + len(bad)
    assert first_decision.count("Your choices again") == len(bad)
    # The game ran to its end; the log says so and the printed result agrees with it.
    records = log_records(log)
    assert records[-1]["game_over"] is True
    scores = records[-1]["scores"]
    assert "Final scores" in run.out
    final = replay(read_log(log))
    assert final.is_terminal() and list(final.final_scores) == scores
    winner = records[-1]["winners"][0]
    label = "P0 (you)" if winner == 0 else "P1 random"
    assert f"Result: {label}" in run.out and f"with {scores[winner]}" in run.out
    # The human's own decisions were the first legal action each time.
    header = json.loads(log.read_text().splitlines()[0])
    assert header["meta"]["agents"] == ["human", "random"]
    assert header["meta"]["seed"] == 3 and header["meta"]["seat"] == 0


def test_table_shows_every_part_and_odds(cli, tmp_path):
    run = cli(
        ["play", "--opponents", "random", "--seed", "4", "--log", str(tmp_path / "g.jsonl")],
        stdin="q\n",
    )
    assert run.code == 0
    for part in (
        "Main board",
        "Airship stacks",
        "Hindenburg (closed",
        "Companies",
        "Turn 1",
        "Era 1",
        "Deck 40 cards",
        "P0 (you) to act: choose target",
        "success",
        "chip decides",
        "with a chip",
        "board",
        "supply",
    ):
        assert part in run.out, part
    # Exact odds of the first listed attempt, as the engine computes them.
    from airships_env.engine import attempt_odds, new_game

    state = new_game(2, seed=4)
    first = state.legal_actions()[0]
    odds = attempt_odds(state, first // 2, bool(first % 2))
    assert odds is not None
    assert f"{odds.success:.1%}" in run.out
    assert "game saved to" in run.out


def test_human_in_a_later_seat_of_four(cli, tmp_path):
    log = tmp_path / "g.jsonl"
    run = cli(
        [
            "play",
            "--opponents",
            "random",
            "--players",
            "4",
            "--seat",
            "2",
            "--seed",
            "8",
            "--log",
            str(log),
        ],
        stdin="1\n" * 12,
    )
    assert run.code == 0, run.err
    header = json.loads(log.read_text().splitlines()[0])
    assert header["meta"]["agents"] == ["random", "random", "human", "random"]
    records = log_records(log)
    assert sum(r["player"] == 2 for r in records) >= 10
    assert records[0]["player"] == 0  # the bots before the person played first
    # Bots narrated: every seat's moves appear.
    for seat in (0, 1, 3):
        assert f"P{seat} random attempts" in run.out
    assert "P2 (you) attempts" in run.out


@pytest.fixture(scope="module")
def straight_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The log of an uninterrupted game, seed 9, the person always taking choice 1."""
    path = tmp_path_factory.mktemp("straight") / "straight.jsonl"
    saved_stdin = sys.stdin
    sys.stdin = io.StringIO(ALWAYS_FIRST)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            code = main(["play", "--opponents", "random", "--seed", "9", "--log", str(path)])
    finally:
        sys.stdin = saved_stdin
    assert code == 0 and log_records(path)[-1]["game_over"]
    return path


def test_end_of_input_saves_and_resume_reaches_the_same_end(cli, tmp_path, straight_game):
    straight = straight_game
    paused = tmp_path / "paused.jsonl"
    run = cli(
        ["play", "--opponents", "random", "--seed", "9", "--log", str(paused)], stdin="1\n" * 7
    )
    assert run.code == 0
    assert f"game saved to {paused}; resume with: airships play --resume {paused}" in run.out
    assert not log_records(paused)[-1]["game_over"]
    run = cli(["play", "--resume", str(paused)], stdin=ALWAYS_FIRST)
    assert run.code == 0, run.err
    assert "restoring the bots" in run.out and "note:" not in run.out
    # Same seed, same answers: the resumed game is the uninterrupted one, record for record.
    assert log_records(paused) == log_records(straight)
    # Resuming a finished game just shows the result.
    run = cli(["play", "--resume", str(paused)])
    assert run.code == 0 and "Final scores" in run.out


def test_quit_word_and_name_prefix(cli, tmp_path):
    run = cli(
        ["play", "--opponents", "random", "--seed", "3", "--log", str(tmp_path / "g.jsonl")],
        stdin="quit\n",
    )
    assert run.code == 0 and "game saved to" in run.out
    names = ["attempt hangar row, slot 1", "end the turn", "buy an extra turn (3 chips)"]
    assert parse_choice("end", names) == (1, "")
    assert parse_choice("BUY", names) == (2, "")
    assert parse_choice(" 2 ", names) == (1, "")
    for bad in ("", "x", "0", "4", "-1"):
        index, problem = parse_choice(bad, names)
        assert index is None and problem


def test_a_choice_answers_to_every_name_it_shows():
    names = [
        ("stack 3", "airship-L5", "attempt airship stack 3"),
        ("stack 3 +exch 3W→2R", "airship-L5", "attempt airship stack 3, with exchange"),
        ("stack 4", "airship-L1", "attempt airship stack 4"),
        ("end the turn", "end the turn: your turn ends"),
    ]
    assert parse_choice("Stack  3", names) == (0, "")  # typed whole: wins over 'stack 3 +exch'
    assert parse_choice("stack 3 +", names) == (1, "")
    assert parse_choice("airship-l1", names) == (2, "")
    assert parse_choice("end", names) == (3, "")
    index, problem = parse_choice("airship-L5", names)
    assert index is None
    assert problem == (
        "'airship-L5' matches 2 choices: 1 (stack 3), 2 (stack 3 +exch 3W→2R); type its number"
    )
    index, problem = parse_choice("stack", names)
    assert index is None and problem.startswith("'stack' matches 3 choices: 1 (stack 3), ")


def test_seats_and_bot_generators():
    assert seat_agents(["a", "b"], 4, 1) == ["a", "human", "b", "a"]
    assert seat_agents(["a"], 2, 0) == ["human", "a"]
    # Each bot has its own stream, which is not the game's (default_rng(seed)).
    import numpy as np

    draws = {seat: bot_generator(5, 3, seat).integers(1 << 30) for seat in range(3)}
    assert len(set(draws.values())) == 3
    assert np.random.default_rng(5).integers(1 << 30) not in draws.values()
    assert bot_generator(5, 3, 1).integers(1 << 30) == draws[1]


# ---------------------------------------------------------------------------------------------
# Through a pseudo-terminal
# ---------------------------------------------------------------------------------------------
def spawn(args: list[str], dimensions: tuple[int, int] = (200, 120)) -> pexpect.spawn:
    """``airships`` in a pseudo-terminal of ``dimensions`` (rows, columns): by default tall
    enough for the whole table (a shorter one gets the compact view)."""
    env = {"TERM": "xterm", "PATH": "/usr/bin:/bin"}  # rich takes a 'dumb' one for 80x25
    if "PYTHONPATH" in os.environ:  # a checkout's code, not only the installed one
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    child = pexpect.spawn(
        str(AIRSHIPS),
        args,
        encoding="utf-8",
        timeout=30,
        dimensions=dimensions,
        searchwindowsize=4000,
        # Ctrl-C as in a terminal, even when the tests were started in the background
        # (`make test &` leaves SIGINT ignored, and children inherit that)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        env=env,
    )
    child.delaybeforesend = None
    return child


def test_pty_full_game_against_random_bots(tmp_path):
    log = tmp_path / "pty.jsonl"
    child = spawn(["play", "--opponents", "random", "--seed", "3", "--log", str(log), "--no-color"])
    child.expect(PROMPT)
    for bad, refusal in (
        ("", "Empty input"),
        ("abc", "Unknown choice 'abc'"),
        ("0", "0 is out of range"),
        ("999", "999 is out of range"),
    ):
        child.sendline(bad)
        child.expect(refusal)
        child.expect("Your choices")  # the options again
        child.expect(PROMPT)
    decisions = 0
    while True:
        child.sendline("1")
        decisions += 1
        index = child.expect([PROMPT, r"Result: .*with \d+"])
        if index == 1:
            break
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    records = log_records(log)
    assert records[-1]["game_over"]
    assert decisions == sum(r["player"] == 0 for r in records)


def test_pty_ctrl_c_saves_and_resume_continues(cli, tmp_path, straight_game):
    log = tmp_path / "pty.jsonl"
    child = spawn(["play", "--opponents", "random", "--seed", "9", "--log", str(log)])
    child.expect(PROMPT)
    for _ in range(4):
        child.sendline("1")
        child.expect(PROMPT)
    child.sendintr()
    child.expect(re.escape(f"game saved to {log}; resume with: airships play --resume {log}"))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and child.signalstatus is None
    saved = log_records(log)
    assert len(saved) >= 4 and not saved[-1]["game_over"]
    run = cli(["play", "--resume", str(log)], stdin=ALWAYS_FIRST)
    assert run.code == 0, run.err
    assert log_records(log)[: len(saved)] == saved
    assert log_records(log) == log_records(straight_game)


def plain(text: str) -> str:
    """Text without its terminal styles (--no-color keeps bold)."""
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


ANY_PROMPT = r"Your choice \(1-(\d+), [^)]*\): "
STACK_ROW = re.compile(r"^ *(\d+) +(stack \d)( \+exch \S+)? +(airship-\w+)", re.MULTILINE)


def test_pty_names_on_screen_are_choices_and_an_ambiguous_one_names_its_matches(tmp_path):
    """Issue 27 item 12: 'stack 4' and 'airship-L5' as shown in the choices are accepted; 'stack'
    that fits several choices lists them with their numbers."""
    log = tmp_path / "names.jsonl"
    child = spawn(["play", "--opponents", "random", "--seed", "1", "--log", str(log), "--no-color"])
    typed: list[tuple[str, str]] = []  # (what was typed, the stack it names)
    for _ in range(60):
        child.expect(ANY_PROMPT)
        rows = STACK_ROW.findall(plain(child.before))
        unexchanged = [row for row in rows if not row[2]]  # one row per stack
        if len(unexchanged) >= 2 and not typed:
            child.sendline("stack")
            listed = ", ".join(f"{number} ({name})" for number, name, _x, _c in rows)
            child.expect(re.escape(f"'stack' matches {len(rows)} choices: {listed}"))
            child.expect(ANY_PROMPT)
            typed.append((unexchanged[-1][3], unexchanged[-1][1]))  # the card's id
            child.sendline(unexchanged[-1][3])
        elif unexchanged and len(typed) == 1:
            typed.append((unexchanged[0][1], unexchanged[0][1]))  # the target as shown
            child.sendline(unexchanged[0][1])
        else:
            child.sendline("1")
        if len(typed) == 2:
            child.expect(ANY_PROMPT)
            break
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert len(typed) == 2, "the game offered no two stacks in 60 decisions"
    attempted = [r["name"] for r in log_records(log) if r["player"] == 0][-2:]
    assert attempted == [f"attempt airship {stack}" for _typed, stack in typed]
    assert "Unknown choice" not in child.before


@pytest.mark.parametrize("rows, columns", [(24, 80), (40, 100)])
def test_pty_a_short_terminal_gets_the_compact_view(tmp_path, rows, columns):
    """Issue 27 item 12: the whole table (~70 lines) would scroll the turn and era off a
    short terminal: the view fits the terminal's height, and says why."""
    log = tmp_path / "short.jsonl"
    args = ["play", "--opponents", "random", "--seed", "3", "--log", str(log)]
    child = spawn(args, dimensions=(rows, columns))
    child.expect(ANY_PROMPT)
    screen = plain(child.before + child.after)
    assert f"this terminal has {rows}: showing the compact view" in " ".join(screen.split())
    assert "t table" in child.after and "Main board" not in screen
    choices = int(child.match.group(1))
    after_note = screen[screen.index("Turn 1") :].splitlines()
    assert len(after_note) <= rows and "era 1" in after_note[0]
    child.sendline("t")  # the whole table on request
    child.expect(ANY_PROMPT)
    assert "Main board" in child.before and int(child.match.group(1)) == choices
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_pty_a_tall_terminal_gets_the_whole_table(tmp_path):
    child = spawn(["play", "--opponents", "random", "--seed", "3", "--log", str(tmp_path / "g")])
    child.expect(PROMPT)
    assert "Main board" in child.before and "compact view" not in child.before
    child.sendline("q")
    child.expect(pexpect.EOF)


# ---------------------------------------------------------------------------------------------
# Documented errors: one line, exit status 2, no traceback
# ---------------------------------------------------------------------------------------------
def one_line_error(run, code: int = 2) -> str:
    assert run.code == code
    lines = run.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("airships: error: "), run.err
    assert "Traceback" not in run.err
    return lines[0]


def test_error_unknown_opponent(cli, tmp_path):
    line = one_line_error(
        cli(["play", "--opponents", "random,nobot", "--log", str(tmp_path / "g.jsonl")])
    )
    assert "--opponents: unknown agent 'nobot'; known agents: random" in line
    assert not (tmp_path / "g.jsonl").exists()


def test_error_bad_seat(cli, tmp_path):
    line = one_line_error(cli(["play", "--opponents", "random", "--seat", "5"]))
    assert "--seat 5 is out of range: seats are 0 to 1 for 2 players" in line


def test_error_bad_players(cli):
    line = one_line_error(cli(["play", "--opponents", "random", "--players", "5"]))
    assert "--players must be 2 to 4, got 5" in line
    line = one_line_error(cli(["play", "--opponents", "random,random,random", "--players", "3"]))
    assert "3 opponents do not fit 2 other seat(s)" in line


def test_error_too_many_opponents_blames_opponents_not_players(cli):
    """Issue 27 item 13: no --players was given, so the message must not name it."""
    line = one_line_error(cli(["play", "--opponents", "random,random,random,random"]))
    assert "--opponents: 4 opponents make 5 players; airships is played by 2 to 4" in line
    assert "--players" not in line


def test_error_resume_missing_log(cli, tmp_path):
    missing = tmp_path / "nothing.jsonl"
    line = one_line_error(cli(["play", "--resume", str(missing)]))
    assert f"{missing}: cannot read the log: No such file or directory" in line


def test_error_resume_corrupted_line(cli, tmp_path):
    log = tmp_path / "g.jsonl"
    cli(["play", "--opponents", "random", "--seed", "3", "--log", str(log)], stdin="1\n" * 6)
    lines = log.read_text().splitlines()
    lines[2] = lines[2][:40]  # a line cut short
    log.write_text("\n".join(lines) + "\n")
    line = one_line_error(cli(["play", "--resume", str(log)]))
    assert f"{log}: line 3: not valid JSON" in line


def test_error_resume_older_log_version(cli, tmp_path):
    log = tmp_path / "g.jsonl"
    cli(["play", "--opponents", "random", "--seed", "3", "--log", str(log)], stdin="q\n")
    lines = log.read_text().splitlines()
    header = json.loads(lines[0])
    header["version"] = 0
    log.write_text(json.dumps(header) + "\n")
    line = one_line_error(cli(["play", "--resume", str(log)]))
    assert f"{log}: line 1: log version 0 is not supported" in line


def test_error_resume_not_a_play_log(cli, game_log):
    path, _log = game_log
    line = one_line_error(cli(["play", "--resume", str(path)]))
    assert "not a game saved by 'airships play'" in line


def test_error_log_exists(cli, tmp_path):
    log = tmp_path / "g.jsonl"
    log.write_text("precious\n")
    line = one_line_error(cli(["play", "--opponents", "random", "--log", str(log)]))
    assert f"{log} exists: resume it with 'airships play --resume {log}'" in line
    assert log.read_text() == "precious\n"


def test_error_resume_with_settings(cli, tmp_path):
    line = one_line_error(cli(["play", "--resume", str(tmp_path / "g.jsonl"), "--seed", "3"]))
    assert "--resume takes the game's settings from the log; do not also give --seed" in line


def test_ctrl_c_is_held_while_an_action_is_applied_and_logged():
    import os
    import signal

    from agents.cli.play import interrupts_deferred

    before = signal.getsignal(signal.SIGINT)  # SIG_IGN under `make test &`
    reached_the_end = False
    with pytest.raises(KeyboardInterrupt), interrupts_deferred():
        os.kill(os.getpid(), signal.SIGINT)
        reached_the_end = True  # the interrupt waits until the block is done
    assert reached_the_end
    assert signal.getsignal(signal.SIGINT) is before  # restored


def test_default_log_goes_to_the_games_folder_and_is_printed(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run = cli(["play", "--opponents", "random", "--seed", "5", "--no-color"], stdin="q\n")
    assert run.code == 0
    log = Path("games") / "airships-game-5.jsonl"
    assert (tmp_path / log).is_file() and not list(tmp_path.glob("*.jsonl"))
    assert str(log) in run.out


def test_resume_recovers_a_log_whose_last_line_a_crash_cut_short(cli, tmp_path, straight_game):
    paused = tmp_path / "torn.jsonl"
    run = cli(
        ["play", "--opponents", "random", "--seed", "9", "--log", str(paused)], stdin="1\n" * 7
    )
    assert run.code == 0
    lines = paused.read_text().splitlines()
    torn = lines[-1][:25]
    paused.write_text("\n".join([*lines[:-1], torn]))  # the last line, cut short, no newline
    run = cli(["play", "--resume", str(paused)], stdin=ALWAYS_FIRST)
    assert run.code == 0, run.err
    assert f"dropped line {len(lines)}, cut short by a crash" in run.out
    assert torn in run.out
    # The game continues from the complete lines and reaches the uninterrupted game's end.
    assert log_records(paused) == log_records(straight_game)


def test_log_errors_name_the_file(cli, tmp_path):
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    line = one_line_error(cli(["play", "--resume", str(binary)]))
    assert f"{binary}: not a game log: byte" in line and "UnicodeDecodeError" not in line
    line = one_line_error(cli(["replay", str(binary)]))
    assert f"{binary}: not a game log" in line
    # a record that does not replay: the message names the file and the line
    log = tmp_path / "g.jsonl"
    cli(["play", "--opponents", "random", "--seed", "3", "--log", str(log)], stdin="1\n" * 6)
    lines = log.read_text().splitlines()
    record = json.loads(lines[2])
    record["action"] = 82 if record["action"] != 82 else 0
    lines[2] = json.dumps(record)
    log.write_text("\n".join(lines) + "\n")
    line = one_line_error(cli(["play", "--resume", str(log)]))
    assert f"{log}: line 3: " in line


def test_compact_mode_fits_80x24_and_plays_the_same_game(
    tmp_path, straight_game, capsys, monkeypatch
):
    from airships_env.engine.text import DICE_LEGEND

    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    monkeypatch.setattr(sys, "stdin", io.StringIO(ALWAYS_FIRST))
    log = tmp_path / "compact.jsonl"
    argv = ["play", "--opponents", "random", "--seed", "9", "--log", str(log), "--compact"]
    assert main([*argv, "--no-color"]) == 0
    out = capsys.readouterr().out
    assert log_records(log) == log_records(straight_game)  # a display mode, the same game
    assert DICE_LEGEND.split(" · ")[0] in " ".join(out.split())
    # Piped input is not echoed, so the next output follows the prompt on its line; the lines
    # naming the log's path are soft-wrapped by the terminal (the path stays copyable).
    lines = [re.sub(r"^.*Your choice \([^)]*\): ", "", line) for line in out.splitlines()]
    assert max(len(line) for line in lines if str(log) not in line) <= 80
    pieces = out.split("Your choice (")  # piece k ends with what decision k shows
    assert len(pieces) > 10
    for block, after in itertools.pairwise(pieces[1:]):
        choices = int(re.match(r"1-(\d+)", after).group(1))
        shown = block.splitlines()[1:]  # after the previous prompt's line
        if choices <= 10:
            assert len(shown) + 1 <= 24, "\n".join(shown)  # + the prompt line


def test_the_dice_legend_is_shown_and_in_the_help(cli, tmp_path):
    run = cli(["play", "--opponents", "random", "--seed", "3", "--log", str(tmp_path / "g.jsonl")])
    assert "[4] rolled and counted in the total" in " ".join(run.out.split())
    run = cli(["play", "--help"])
    assert "dice notation: [4] rolled and counted" in run.out and "--compact" in run.out
