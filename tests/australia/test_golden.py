"""The golden games (tests/australia/golden/, written by scripts/australia_golden.py): each is
dealt again from its seed and replayed; every record and the final state must be identical."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

from airships_env.games.australia.engine import (
    ActionRecord,
    LogError,
    RulesOptions,
    new_game,
    replay_action,
)

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


def _digest_script() -> ModuleType:
    root = Path(__file__).resolve().parent.parent.parent
    spec = importlib.util.spec_from_file_location(
        "observation_digests", root / "scripts" / "observation_digests.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", NAMES)
def test_the_observations_and_legal_actions_along_a_golden_game_are_unchanged(name: str) -> None:
    """Every seat's observation and the legal actions at every state hash to the recorded
    digest (scripts/observation_digests.py): a faster encoder must give the same vectors."""
    script = _digest_script()
    stored = json.loads((GOLDEN / script.FILE_NAME).read_text(encoding="utf-8"))
    assert script.australia_digest(name) == stored[name]
