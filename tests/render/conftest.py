"""Shared states for the renderer's tests: a hand-built table and seeded mid-game tables."""

from __future__ import annotations

import numpy as np
import pytest

from airships_env.engine import ActionRecord, ChipMove, GameState, Reveal, new_game


def play_random(state: GameState, seed: int, until_turn: int) -> ActionRecord | None:
    """Random legal moves (own generator) until ``until_turn`` or the game end."""
    rng = np.random.default_rng(seed)
    record = None
    while not state.is_terminal() and state.turn < until_turn:
        legal = state.legal_actions()
        record = state.apply_action(legal[int(rng.integers(len(legal)))])
    return record


@pytest.fixture
def table() -> tuple[GameState, ActionRecord]:
    """A hand-built table: Hindenburg open with phase 2 done by P2, stack 3 down to 1 card,
    P0 with 2 chips on its board and 3 in its supply, and P1's last roll."""
    state = new_game(num_players=4, seed=11)
    state.stacks[2] = state.stacks[2][:1]
    state.stacks[3] = []
    state.hindenburg_open = True
    state.hindenburg[1] = 2
    state.players[2].chips_supply -= 1  # the mark (T6)
    state.players[0].chips_on_board, state.players[0].chips_supply = 2, 3
    state.wooden_airship = 2
    state.current_player = 1
    state.legal_cache = None
    record = ActionRecord(
        step=8,
        turn=5,
        player=1,
        action=36,
        name="attempt airship stack 1",
        phase="choose target",
        target="airship-L9",
        rolled=((3, 2, 2), (), ()),
        kept=((3, 2), (), ()),
        dice_sum=5,
        bonuses=(("engine +1 white", 1),),
        total=6,
        needed=7,
        result="failure",
        chips=(ChipMove(1, 1, "supply", "board", "failure"),),
        reveals=(Reveal("hangar-11", 4, None),),
        next_player=2,
    )
    return state, record


@pytest.fixture(params=[(4, 3, 24), (3, 5, 40), (2, 8, 60)], ids=["4p", "3p", "2p"])
def mid_game(request: pytest.FixtureRequest) -> tuple[GameState, ActionRecord | None]:
    """A seeded game played with random legal moves into the middle (or to its end)."""
    players, seed, turn = request.param
    state = new_game(num_players=players, seed=seed)
    record = play_random(state, seed + 100, turn)
    return state, record
