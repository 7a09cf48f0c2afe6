"""The arena and tournaments give the same results before and after the many-games move.

The files under ``tests/golden/tools/`` were written by the untouched tree (before the arena
was split and moved onto the game protocol) with::

    airships arena --agents heuristic,greedy --players 2 --games 40 --paired --seed 5 \\
        --out A.jsonl                                                 # native core, 2 players
    airships arena --agents heuristic,greedy,random,greedy --games 8 --paired --seed 2 \\
        --out N4.jsonl                                                # native core, 4 players
    airships arena --agents mcts:sims=8,greedy --games 4 --seed 9 --workers 1 --out M.jsonl
    airships arena --agents heuristic,greedy --games 2 --seed 3 --workers 1 --save-logs \\
        --out L.jsonl                                                 # Python path, with logs
    airships tournament T.yaml --out T --no-plots --workers 1          # T.results, T.leaderboard

Every game record must come back identical except for its timings (and a digest of itself, should
a line gain one); a header's config may only gain the ``"game"`` key (a file without it is an
Airships file); a saved log's action line may only gain ``"type": "action"`` (the line of
Airships' own log file, so a record's log written out is a log ``airships replay`` reads).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agents.arena import run_arena
from agents.cli import main
from agents.tournament import load_config, run_tournament

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "tools"
TIMING = ("seconds", "think_seconds", "ms_per_decision")
#: Keys a line may gain without changing the game: a results line's digest of itself.
ADDED = ("digest",)


def _strip(value: Any) -> Any:
    """``value`` without timing fields, without the ``game`` name a header may have gained and
    without the ``"type": "action"`` a log's action line gained."""
    if isinstance(value, dict):
        return {
            key: _strip(item)
            for key, item in value.items()
            if key not in TIMING + ADDED
            and not (key == "game" and isinstance(item, str))
            and not (key == "type" and item == "action")
        }
    if isinstance(value, list):
        return [_strip(item) for item in value]
    return value


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _game_names(value: Any) -> set[str]:
    """Every string-valued ``game`` key anywhere in ``value`` (headers, configs, logs)."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "game" and isinstance(item, str):
                found.add(item)
            found |= _game_names(item)
    elif isinstance(value, list):
        for item in value:
            found |= _game_names(item)
    return found


def assert_same_results(expected: Path, actual: Path) -> None:
    """The two results files hold the same header and records, game for game, but timings."""
    old, new = _lines(expected), _lines(actual)
    assert _game_names(new) <= {"airships"}
    old_records = sorted(old[1:], key=lambda r: r["game"])
    new_records = sorted(new[1:], key=lambda r: r["game"])
    assert old[0]["format"] == new[0]["format"]  # the version may grow, the run may not
    assert _strip(old[0]["config"]) == _strip(new[0]["config"])
    assert len(old_records) == len(new_records)
    for before, after in zip(old_records, new_records, strict=True):
        assert _strip(before) == _strip(after), f"game {before['game']} differs"


@pytest.mark.parametrize(
    ("name", "specs", "games", "seed", "paired", "workers", "save_logs"),
    [
        ("A", ["heuristic", "greedy"], 40, 5, True, None, False),
        ("N4", ["heuristic", "greedy", "random", "greedy"], 8, 2, True, None, False),
        ("M", ["mcts:sims=8", "greedy"], 4, 9, False, 1, False),
        ("L", ["heuristic", "greedy"], 2, 3, False, 1, True),
    ],
)
def test_arena_records_are_unchanged(
    tmp_path: Path,
    name: str,
    specs: list[str],
    games: int,
    seed: int,
    paired: bool,
    workers: int | None,
    save_logs: bool,
) -> None:
    out = tmp_path / f"{name}.jsonl"
    run_arena(specs, games, seed=seed, paired=paired, workers=workers, out=out, save_logs=save_logs)
    assert_same_results(GOLDEN / f"{name}.jsonl", out)


def test_python_path_gives_the_native_records(tmp_path: Path) -> None:
    """The golden native run, replayed in Python worker-less (save_logs forces Python)."""
    out = tmp_path / "A.jsonl"
    run = run_arena(
        ["heuristic", "greedy"], 40, seed=5, paired=True, workers=1, out=out, save_logs=True
    )
    expected = sorted(_lines(GOLDEN / "A.jsonl")[1:], key=lambda r: r["game"])
    got = [{k: v for k, v in r.items() if k != "log"} for r in run.records]
    assert [_strip(r) for r in got] == [_strip(r) for r in expected]


def test_tournament_leaderboard_is_unchanged(tmp_path: Path) -> None:
    config = load_config(GOLDEN / "T.yaml")
    result = run_tournament(config, workers=1, output=tmp_path, plots=False)
    assert_same_results(GOLDEN / "T.results.jsonl", tmp_path / "results.jsonl")
    expected = json.loads((GOLDEN / "T.leaderboard.json").read_text(encoding="utf-8"))
    written = json.loads((tmp_path / "leaderboard.json").read_text(encoding="utf-8"))
    assert _strip(written) == _strip(expected)
    assert _strip(result.to_dict()) == _strip(expected)


@pytest.mark.parametrize("game", [[], ["--game", "airships"]], ids=["no --game", "--game"])
def test_command_line_golden_arena(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: list[str]
) -> None:
    """The issue's command writes the golden records, with or without ``--game airships``."""
    out = tmp_path / "A.jsonl"
    argv = ["arena", *game, "--agents", "heuristic,greedy", "--players", "2", "--games", "40"]
    argv += ["--paired", "--seed", "5", "--no-progress", "--out", str(out)]
    assert main(argv) == 0, capsys.readouterr().err
    assert_same_results(GOLDEN / "A.jsonl", out)
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert written[0]["config"]["game"] == "airships"
