"""The Nippon golden games (scripts/nippon_golden.py) replay exactly, and the bots still play
them (re-record with the script after changing the engine, the data file or the bots)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from airships_env.game_log import read_game_log, replay_log
from airships_env.games.nippon import GAME
from tests.scripts import load_script

ROOT = Path(__file__).resolve().parent.parent.parent
GOLDEN = ROOT / "tests" / "golden" / "nippon"


SCRIPT = load_script("nippon_golden")
GAMES = SCRIPT.GAMES
game_name = SCRIPT.game_name
STEMS = [game_name(n, agents) for n, _, agents in GAMES]


def test_one_golden_game_per_table_size() -> None:
    found = sorted(path.stem for path in GOLDEN.glob("*.jsonl"))
    assert found == sorted(STEMS)
    assert {n for n, _, _ in GAMES} == set(GAME.player_counts)


@pytest.mark.parametrize("stem", STEMS)
def test_golden_game_replays_record_by_record(stem: str) -> None:
    log = read_game_log(GOLDEN / f"{stem}.jsonl")
    replayed = replay_log(log, GAME)  # raises at the first record that differs
    assert [r.to_dict() for r in replayed.records] == log.records
    final = json.loads((GOLDEN / f"{stem}.final.json").read_text(encoding="utf-8"))
    state = replayed.state
    assert state.is_terminal()
    assert json.loads(json.dumps(state.to_dict())) == final["state"]
    assert state.outcome().to_dict() == final["outcome"]


@pytest.mark.parametrize(("num_players", "seed", "agents"), GAMES[:1])
def test_the_bots_still_play_the_golden_game(
    num_players: int, seed: int, agents: tuple[str, ...], tmp_path: Path
) -> None:
    """Same seeds, same bots: the same records (a change in a bot's choices shows here)."""
    stem = game_name(num_players, agents)
    SCRIPT.play(num_players, seed, agents, tmp_path / "again.jsonl")
    again = read_game_log(tmp_path / "again.jsonl")
    golden = read_game_log(GOLDEN / f"{stem}.jsonl")
    assert again.records == golden.records
    assert again.header == golden.header


@pytest.mark.parametrize("stem", STEMS)
def test_the_observations_and_legal_actions_along_a_golden_game_are_unchanged(stem: str) -> None:
    """Every seat's observation and the legal actions at every state hash to the recorded
    digest (scripts/observation_digests.py): a faster encoder must give the same vectors."""
    script = load_script("observation_digests")
    stored = json.loads((GOLDEN / script.FILE_NAME).read_text(encoding="utf-8"))
    assert script.nippon_digest(stem) == stored[stem]
