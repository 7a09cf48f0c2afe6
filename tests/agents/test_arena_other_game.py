"""The arena plays any registered game through the protocol: here the conformance suite's toy
game (Hidden Tricks), registered for the test, with the generic agents."""

from __future__ import annotations

from pathlib import Path

import pytest

import airships_env.registry as registry
from agents.arena import play_game, run_arena
from agents.executors import game_native_bots, native_seats
from agents.results import read_results
from agents.schedule import GameSpec

RECORD_KEYS = (
    *("type", "game", "deal", "deal_seed", "seats", "scores", "winners", "ranks", "turns"),
    *("steps", "decisions", "think_seconds", "seconds"),
)


@pytest.fixture
def tricks(monkeypatch: pytest.MonkeyPatch) -> str:
    """The toy game, registered as ``tricks`` for one test."""
    monkeypatch.setitem(registry._TARGETS, "tricks", "tests.conformance.toy_game:GAME")
    return "tricks"


def test_arena_runs_another_game_with_generic_agents(tricks: str, tmp_path: Path) -> None:
    out = tmp_path / "tricks.jsonl"
    run = run_arena(
        ["random", "mcts:sims=5"], 4, seed=2, paired=True, workers=1, out=out, game=tricks
    )
    assert run.played == 4 and not run.errors
    for record in run.records:
        assert sorted(record) == sorted(RECORD_KEYS)  # no Airships fields
        assert len(record["ranks"]) == 2 and min(record["ranks"]) == 1
        assert record["turns"] == record["steps"] == sum(record["decisions"])
    header, _ = read_results(out)
    assert header is not None and header["config"]["game"] == tricks
    again = run_arena(
        ["random", "mcts:sims=5"], 4, seed=2, paired=True, workers=1, out=out, game=tricks
    )
    assert again.played == 0 and again.records == run.records
    with pytest.raises(ValueError, match="game: file has 'tricks', now 'airships'"):
        run_arena(["random", "mcts:sims=5"], 4, seed=2, paired=True, workers=1, out=out)


def test_another_game_has_no_native_path_and_a_generic_log(tricks: str) -> None:
    assert game_native_bots(tricks) is None
    assert native_seats({"random": "random", "random#2": "random"}, tricks) is None
    spec = GameSpec(0, 0, 11, ("a", "b"))
    from airships_env.policy import RandomPolicy

    record = play_game(
        spec, {"a": RandomPolicy(), "b": RandomPolicy()}, seed=1, save_log=True, game=tricks
    )
    header = record["log"][0]
    assert header["game"] == tricks and header["format"] == "game-log"
    assert header["initial_state"] == registry.get_game(tricks).new_state(2, seed=11).to_dict()
    assert len(record["log"]) == 1 + record["steps"]


def test_arena_refuses_a_table_the_other_game_does_not_seat(tricks: str) -> None:
    with pytest.raises(ValueError, match=r"give 2 to 4 agents for .*, got 5"):
        run_arena(["random"] * 5, 5, game=tricks)
