"""The golden games (scripts/clockwork_golden.py) replay to the same final state, and every
seat sees the same observations along them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from airships_env.games.clockwork import GAME
from airships_env.games.clockwork.engine import RulesOptions, replay
from airships_env.games.clockwork.engine.data import SCRAP
from tests.scripts import load_script

GOLDEN = Path(__file__).resolve().parent / "golden"
GAMES = sorted(GOLDEN.glob("*.jsonl"))


def test_the_golden_games_cover_the_issue() -> None:
    names = {path.stem for path in GAMES}
    assert {"2p_machines", "3p_machines", "4p_machines", "2p_airship", "2p_endgame"} <= names


@pytest.mark.parametrize("path", GAMES, ids=[path.stem for path in GAMES])
def test_golden_game_replays(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    records = [GAME.record_from_dict(json.loads(line)) for line in lines[1:]]
    state = replay(
        header["players"],
        header["seed"],
        records,
        options=RulesOptions.from_dict(header["options"]),
    )
    final = json.loads(path.with_suffix("").with_suffix(".final.json").read_text(encoding="utf-8"))
    expected = dict(final)
    got = json.loads(json.dumps(state.to_dict(), sort_keys=True))
    assert got == expected
    shown = set(header["features"])
    if "scrap" in shown:
        assert any(r.given == SCRAP for r in records)
    if "towers" in shown:
        assert any(r.turned is not None for r in records)
    assert ("endgame" in shown) == state.endgame
    assert state.winner >= 0


@pytest.mark.parametrize("path", GAMES, ids=[path.stem for path in GAMES])
def test_the_observations_and_legal_actions_along_a_golden_game_are_unchanged(path: Path) -> None:
    """Every seat's observation and the legal actions at every state hash to the recorded
    digest (scripts/observation_digests.py, recorded with the encoder before its rewrite for
    speed): a faster encoder must give the same vectors."""
    script = load_script("observation_digests")
    stored = json.loads((GOLDEN / script.FILE_NAME).read_text(encoding="utf-8"))
    assert script.clockwork_digest(path.stem) == stored[path.stem]
