"""Invariants over seeded random games per player count, the simple and the full game: rangers
conserved between supply, map and ranger track; every card in one place; each tile scored at most
once; no completed project left unscored; VP only grow; dollars never negative; a legal action until the end; games end by E1; the
log replays. The default run plays a few games per table; ``-m slow`` plays many."""

from __future__ import annotations

import json

import numpy as np
import pytest

from airships_env.games.australia.engine import (
    ActionRecord,
    RulesOptions,
    State,
    default_data,
    new_game,
    replay,
)
from airships_env.games.australia.engine.data import NUM_BACKS, NUM_COLOURS
from airships_env.games.australia.engine.rules import (
    conservation_complete,
    industrialization_complete,
)
from airships_env.games.australia.engine.state import TAKE_BACK
from tests.australia.helpers import random_kind_action

DATA = default_data()
TABLES = [(n, full) for n in (2, 3, 4, 5) for full in (False, True)]


def check(state: State, before: State | None) -> None:
    """Every invariant of one state (``before``: the state one action earlier)."""
    n = state.num_players
    for seat in range(n):
        on_map = sum(state.rangers[loc][seat] for loc in range(DATA.num_locations))
        on_track = state.ranger_track.count(seat)
        assert state.supply[seat] + on_map + on_track == DATA.rangers[n]
        assert state.supply[seat] >= 0 and state.dollars[seat] >= 0
        assert state.hand_size(seat) <= 2
        if before is not None:
            assert state.vp[seat] >= before.vp[seat]
    for loc in range(DATA.num_locations):
        assert sum(1 for count in state.rangers[loc] if count) <= 1  # A3: one player a location
    for back in range(NUM_BACKS):
        for colour in range(NUM_COLOURS):
            t = back * NUM_COLOURS + colour
            held = sum(state.hands[s][t] for s in range(n)) + state.played[t]
            held += state.stacks[back].count(colour) + state.set_aside[back].count(colour)
            assert held == DATA.cards[back][colour]
    for region in range(24 if state.phase != TAKE_BACK else 0):  # P4: none left unscored
        assert not conservation_complete(state, region)
        assert not industrialization_complete(state, region)
    assert len(state.windmill_track) < DATA.tile_areas
    assert len(state.ranger_track) <= DATA.ranger_areas
    if not state.is_terminal():
        legal = state.legal_actions()
        assert legal and legal == sorted(set(legal))


def play(num_players: int, full: bool, seed: int) -> tuple[State, list[ActionRecord]]:
    """One random game, checked after every action."""
    state = new_game(num_players, seed, options=RulesOptions(full_game=full))
    rng = np.random.default_rng(seed + 7_000)
    records: list[ActionRecord] = []
    scored: set[tuple[str, int]] = set()
    check(state, None)
    while not state.is_terminal():
        before = state.clone()
        record = state.apply_action(random_kind_action(state.legal_actions(), rng))
        records.append(record)
        for scoring in record.scorings:
            if scoring.kind != "windmill":
                key = (scoring.kind, scoring.region)
                assert key not in scored, f"{key} scored twice"
                scored.add(key)
        check(state, before)
    return state, records


def run_games(games: int) -> None:
    for num_players, full in TABLES:
        for seed in range(games):
            state, records = play(num_players, full, seed)
            assert state.end_triggered == 1, "the game ended by E4, not E1"
            outcome = state.outcome()
            assert outcome is not None and outcome.winners
            text = json.loads(json.dumps([r.to_dict() for r in records]))
            again = [ActionRecord.from_dict(r) for r in text]
            assert again == records
            options = RulesOptions(full_game=full)
            assert replay(again, num_players, seed, options=options).to_dict() == state.to_dict()


def test_invariants_over_random_games() -> None:
    run_games(6)


@pytest.mark.slow
def test_invariants_over_many_random_games() -> None:
    run_games(250)
