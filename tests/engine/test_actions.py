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
    NUM_VARIANTS,
    PASS,
    SPEND_CHIP,
    action_name,
    attempt_action,
    attempt_target,
    attempt_variant,
    decode,
    is_attempt,
    new_game,
    target_name,
)
from airships_env.engine.actions import (
    EXCHANGE,
    EXCHANGE_GIVING_FIXED,
    Attempt,
    action_from_name,
    board_target,
)
from airships_env.engine.cards import ENGINE


def test_the_table_has_fixed_indices() -> None:
    assert (NUM_TARGETS, NUM_VARIANTS, NUM_ATTEMPT_ACTIONS, NUM_ACTIONS) == (26, 3, 78, 83)
    assert (PASS, SPEND_CHIP, KEEP_CHIP, BUY_EXTRA_TURN, END_TURN) == (78, 79, 80, 81, 82)
    assert attempt_action(0) == 0 and attempt_action(17, EXCHANGE_GIVING_FIXED) == 53
    assert attempt_action(18) == 54 and attempt_action(25, EXCHANGE_GIVING_FIXED) == 77


def test_decode_inverts_encode_and_names_are_unique() -> None:
    for target in range(NUM_TARGETS):
        for variant in range(NUM_VARIANTS):
            action = attempt_action(target, variant)
            assert decode(action) == Attempt(target, variant)
            assert (attempt_target(action), attempt_variant(action)) == (target, variant)
            assert is_attempt(action) and Attempt(target, variant).exchange == (variant != 0)
    for action in range(NUM_ATTEMPT_ACTIONS, NUM_ACTIONS):
        assert decode(action) == action and not is_attempt(action)
    assert len(set(ACTION_NAMES)) == NUM_ACTIONS
    for action in range(NUM_ACTIONS):
        assert action_from_name(action_name(action)) == action
    assert target_name(4) == "hangar row, slot 2"
    assert target_name(19) == "airship stack 2" and target_name(25) == "Hindenburg phase 4"
    assert ACTION_NAMES[attempt_action(4)] == "attempt hangar row, slot 2"
    assert ACTION_NAMES[attempt_action(4, EXCHANGE)] == "attempt hangar row, slot 2, with exchange"
    assert (
        ACTION_NAMES[attempt_action(4, EXCHANGE_GIVING_FIXED)]
        == "attempt hangar row, slot 2, with exchange giving the fixed die"
    )
    with pytest.raises(ValueError):
        action_name(NUM_ACTIONS)
    with pytest.raises(ValueError):
        action_from_name("fly away")


def test_the_documented_example_index_and_name_agree() -> None:
    # README and the actions module: index 40 = 3 * (3 * 4 + 1) + 1, engine row, slot 2 (1-based)
    assert attempt_action(board_target(ENGINE, 1), EXCHANGE) == 40
    assert ACTION_NAMES[40] == "attempt engine row, slot 2, with exchange"


def test_legal_actions_are_a_fresh_sorted_list() -> None:
    state = new_game(3, seed=2)
    legal = state.legal_actions()
    assert legal == sorted(set(legal)) and all(0 <= a < NUM_ACTIONS for a in legal)
    legal.append(999)
    assert 999 not in state.legal_actions()
