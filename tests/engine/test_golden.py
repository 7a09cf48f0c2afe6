"""The golden games (``tests/golden/``): recorded games that must replay exactly.

Each was dealt from a seed and played by bots; its log holds the initial state and every record.
A change of the rules, the deal or the dice breaks one of these on purpose: regenerate them with
``.venv/bin/python scripts/golden_games.py`` and review the diff (see that script).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from airships_env.engine import (
    BUY_EXTRA_TURN,
    KEEP_CHIP,
    SPEND_CHIP,
    GameLog,
    attempt_variant,
    is_attempt,
    new_game,
    read_log,
)
from airships_env.engine.actions import EXCHANGE_GIVING_FIXED
from airships_env.engine.model import EMPTY

pytestmark = pytest.mark.usefixtures("engine_backend")

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
NAMES = ("2p_hindenburg", "3p_stacks", "4p_chip_extra_era")


def load(name: str) -> tuple[GameLog, dict[str, object]]:
    """A golden game's log and its final state's dict."""
    log = read_log(GOLDEN / f"{name}.jsonl")
    final = json.loads((GOLDEN / f"{name}.final.json").read_text(encoding="utf-8"))
    return log, final


@pytest.mark.parametrize("name", NAMES)
def test_the_seed_deals_the_logged_initial_state(name: str) -> None:
    """S1-S6 and the documented shuffle: the seed gives the same deal, generator included."""
    log, _final = load(name)
    players = log.initial_state["num_players"]
    assert new_game(players, seed=log.meta["seed"]).to_dict() == log.initial_state


@pytest.mark.parametrize("name", NAMES)
def test_replay_gives_every_record_and_the_final_state(name: str) -> None:
    """Re-rolled with the restored generator: every record identical (replay checks each), and
    the final state identical bit for bit, generator included."""
    log, final = load(name)
    assert log.replay().to_dict() == final


@pytest.mark.parametrize("name", NAMES)
def test_replay_with_the_logged_dice_reaches_the_same_state(name: str) -> None:
    log, final = load(name)
    state = log.replay(reroll=False).to_dict()
    state.pop("rng")  # the logged dice do not advance the generator
    assert state == {k: v for k, v in final.items() if k != "rng"}


@pytest.mark.python_only  # nothing here for the core to answer
def test_the_golden_games_show_what_they_are_for() -> None:
    """Hindenburg end (2p), stack end (3p), and a chip decision, an extra turn, the Change of
    Era at the start of an extra turn and an exchange giving the fixed die (4p)."""
    log, final = load("2p_hindenburg")
    assert final["num_players"] == 2 and EMPTY not in final["hindenburg"]  # type: ignore[operator]
    log, final = load("3p_stacks")
    assert final["num_players"] == 3 and EMPTY in final["hindenburg"]  # type: ignore[operator]
    assert all(len(stack) <= 1 for stack in final["stacks"])  # type: ignore[attr-defined]
    log, final = load("4p_chip_extra_era")
    actions = [record.action for record in log.records]
    assert final["num_players"] == 4
    assert SPEND_CHIP in actions or KEEP_CHIP in actions
    assert any(r.action == BUY_EXTRA_TURN and r.era_changed for r in log.records)
    assert any(is_attempt(a) and attempt_variant(a) == EXCHANGE_GIVING_FIXED for a in actions)
