"""Helpers for the ``airships`` command's tests: run ``main()`` with a scripted stdin, record
games with the engine, and find the installed console script."""

from __future__ import annotations

import io
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from agents.cli import main
from airships_env.engine import GameLog, new_game
from airships_env.policy import Decision, RandomPolicy

REPO = Path(__file__).resolve().parents[2]
AIRSHIPS = Path(sys.executable).parent / "airships"


@dataclass
class Run:
    """What one ``main()`` call returned and printed."""

    code: int
    out: str
    err: str


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):
    """``cli(argv, stdin="...")`` runs ``airships`` in this process with a scripted stdin."""

    def run(argv: list[str], stdin: str = "") -> Run:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        monkeypatch.setenv("COLUMNS", "120")
        code = main(argv)
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run


def record_game(
    path: Path,
    num_players: int = 2,
    seed: int = 11,
    upto: int | None = None,
    meta: dict | None = None,
) -> GameLog:
    """Play a game between random policies with the engine and write its log to ``path``."""
    state = new_game(num_players, seed=seed)
    log = GameLog.start(state, **(meta or {}))
    policy = RandomPolicy(np.random.default_rng(seed + 1))
    while not state.is_terminal() and (upto is None or len(log.records) < upto):
        log.records.append(state.apply_action(policy.act(Decision.from_state(state))))
    log.write(path)
    return log


@pytest.fixture
def game_log(tmp_path: Path) -> tuple[Path, GameLog]:
    """A complete 2-player game's log."""
    path = tmp_path / "game.jsonl"
    return path, record_game(path)
