"""The action table: fixed indices, readable names, encode/decode."""

from __future__ import annotations

import pytest

from airships_env.engine import (
    ACTION_NAMES,
    BUY_EXTRA_TURN,
    END_TURN,
    KEEP_CHIP,
    NUM_ACTIONS,
    NUM_ATTEMPT_ACTIONS,
    NUM_TARGETS,
    PASS,
    SPEND_CHIP,
    action_name,
    attempt_action,
    decode,
    new_game,
    target_name,
)
from airships_env.engine.actions import Attempt, action_from_name


def test_the_table_has_fixed_indices() -> None:
    assert (NUM_TARGETS, NUM_ATTEMPT_ACTIONS, NUM_ACTIONS) == (26, 52, 57)
    assert (PASS, SPEND_CHIP, KEEP_CHIP, BUY_EXTRA_TURN, END_TURN) == (52, 53, 54, 55, 56)
    assert attempt_action(0, False) == 0 and attempt_action(17, True) == 35
    assert attempt_action(18, False) == 36 and attempt_action(25, True) == 51


def test_decode_inverts_encode_and_names_are_unique() -> None:
    for target in range(NUM_TARGETS):
        for exchange in (False, True):
            assert decode(attempt_action(target, exchange)) == Attempt(target, exchange)
    for action in range(NUM_ATTEMPT_ACTIONS, NUM_ACTIONS):
        assert decode(action) == action
    assert len(set(ACTION_NAMES)) == NUM_ACTIONS
    for action in range(NUM_ACTIONS):
        assert action_from_name(action_name(action)) == action
    assert target_name(4) == "hangar row, slot 2"
    assert target_name(19) == "airship stack 2" and target_name(25) == "Hindenburg phase 4"
    assert ACTION_NAMES[8] == "attempt hangar row, slot 2"  # 2 * target 4
    assert ACTION_NAMES[9] == "attempt hangar row, slot 2, with exchange"
    with pytest.raises(ValueError):
        action_name(NUM_ACTIONS)
    with pytest.raises(ValueError):
        action_from_name("fly away")


def test_legal_actions_are_a_fresh_sorted_list() -> None:
    state = new_game(3, seed=2)
    legal = state.legal_actions()
    assert legal == sorted(set(legal)) and all(0 <= a < NUM_ACTIONS for a in legal)
    legal.append(999)
    assert 999 not in state.legal_actions()
