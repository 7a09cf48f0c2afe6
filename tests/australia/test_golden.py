"""The golden games (tests/australia/golden/, written by scripts/australia_golden.py): each is
dealt again from its seed and replayed; every record and the final state must be identical."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from airships_env.games.australia.engine import (
    ActionRecord,
    LogError,
    RulesOptions,
    new_game,
    replay_action,
)
from tests.scripts import load_script

GOLDEN = Path(__file__).resolve().parent / "golden"
NAMES = [f"{n}p_{variant}" for n in (2, 3, 4, 5) for variant in ("simple", "full")]


@pytest.mark.parametrize("name", NAMES)
def test_a_golden_game_replays_to_the_same_records_and_final_state(name: str) -> None:
    lines = (GOLDEN / f"{name}.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    options = RulesOptions.from_dict(header["options"])
    assert options.full_game == name.endswith("full")
    state = new_game(header["num_players"], header["seed"], options=options)
    records = [ActionRecord.from_dict(json.loads(line)) for line in lines[1:]]
    for record in records:
        replay_action(state, record)
    assert state.is_terminal() and state.end_triggered == 1
    final = json.loads((GOLDEN / f"{name}.final.json").read_text())
    assert state.to_dict() == final
    kinds = {s.kind for r in records for s in r.scorings}
    assert {"conservation", "industrialization"} <= kinds
    if options.full_game:
        assert "windmill" in kinds


def test_a_changed_record_does_not_replay() -> None:
    lines = (GOLDEN / "2p_simple.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    state = new_game(2, header["seed"], options=RulesOptions.from_dict(header["options"]))
    first = json.loads(lines[1])
    first["drawn"] = (first["drawn"] + 1) % 6
    with pytest.raises(LogError, match="does not match"):
        replay_action(state, ActionRecord.from_dict(first))


@pytest.mark.parametrize("name", NAMES)
def test_the_observations_and_legal_actions_along_a_golden_game_are_unchanged(name: str) -> None:
    """Every seat's observation and the legal actions at every state hash to the recorded
    digest (scripts/observation_digests.py): a faster encoder must give the same vectors."""
    script = load_script("observation_digests")
    stored = json.loads((GOLDEN / script.FILE_NAME).read_text(encoding="utf-8"))
    assert script.australia_digest(name) == stored[name]
