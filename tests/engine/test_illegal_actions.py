"""Illegal actions raise IllegalActionError (a ValueError) naming the action, the phase and the
legal actions, and leave the state untouched."""

from __future__ import annotations

import numpy as np
import pytest

from airships_env.engine import (
    ACTION_NAMES,
    BUY_EXTRA_TURN,
    CHIP_DECISION,
    END_TURN,
    EXTRA_TURN,
    KEEP_CHIP,
    NUM_ACTIONS,
    PASS,
    SPEND_CHIP,
    GameState,
    IllegalActionError,
    action_name,
    new_game,
)
from airships_env.engine.actions import attempt_action

from .helpers import give, hand_built, place, play_random, set_chips

pytestmark = pytest.mark.usefixtures("engine_backend")


def _refused(state: GameState, action: object) -> IllegalActionError:
    before = state.to_dict()
    with pytest.raises(IllegalActionError) as info:
        state.apply_action(action)  # type: ignore[arg-type]
    assert state.to_dict() == before  # nothing changed
    error = info.value
    message = str(error)
    assert repr(action) in message
    assert f"phase '{error.phase}'" in message
    assert error.legal == state.legal_actions()
    for legal in error.legal:
        assert f"{legal} ({ACTION_NAMES[legal]})" in message
    return error


def _chip_decision() -> GameState:
    state = hand_built()
    give(state, 0, "financier-S1")
    target = place(state, "financier-11")  # 2 white, 5
    set_chips(state, 0, 1, 5)
    state.apply_action(attempt_action(target, False), dice=((2, 2), (), ()))
    assert state.phase == CHIP_DECISION
    return state


def _extra_turn() -> GameState:
    state = hand_built()
    give(state, 0, "financier-S1")
    target = place(state, "financier-11")
    set_chips(state, 0, 3, 3)
    state.apply_action(attempt_action(target, False), dice=((3, 3), (), ()))
    assert state.phase == EXTRA_TURN
    return state


def test_illegal_action_error_is_a_value_error() -> None:
    assert issubclass(IllegalActionError, ValueError)
    error = _refused(new_game(2, seed=0), 999)
    assert isinstance(error, ValueError)
    assert error.action == 999 and error.phase == "choose target"


@pytest.mark.parametrize("action", [-1, NUM_ACTIONS, 1_000, -57])
def test_out_of_range_ints(action: int) -> None:
    error = _refused(new_game(3, seed=1), action)
    assert f"no action has index {action}" in str(error)


@pytest.mark.parametrize("action", ["3", 3.0, None, True, False, [1], (0,)])
def test_non_ints(action: object) -> None:
    error = _refused(new_game(3, seed=1), action)
    assert "integer" in error.why


def test_numpy_integers_are_accepted() -> None:
    state = new_game(2, seed=4)
    legal = state.legal_actions()
    record = state.apply_action(np.int64(legal[0]))  # type: ignore[arg-type]
    assert record.action == legal[0] and type(record.action) is int


def test_ineligible_or_empty_targets() -> None:
    state = hand_built()
    give(state, 0, "financier-S1")  # 2 white
    place(state, "engine-11")  # eligible
    captain = place(state, "captain-11")  # 3 white: not eligible
    error = _refused(state, attempt_action(captain, False))
    assert "attempt captain row, slot 1" in str(error) and "is not allowed now" in error.why
    _refused(state, attempt_action(captain + 1, False))  # an empty slot
    _refused(state, attempt_action(captain, True))  # no Materials card: no exchange
    _refused(state, attempt_action(22, False))  # a Hindenburg phase while it is closed
    _refused(state, PASS)  # a pass while a target is eligible


@pytest.mark.parametrize("action", [SPEND_CHIP, KEEP_CHIP, BUY_EXTRA_TURN, END_TURN])
def test_decisions_outside_their_phase(action: int) -> None:
    state = new_game(4, seed=2)
    error = _refused(state, action)
    assert error.phase == "choose target" and action_name(action) in str(error)


def test_chip_actions_only_during_the_chip_decision() -> None:
    state = _chip_decision()
    assert state.legal_actions() == [SPEND_CHIP, KEEP_CHIP]
    for action in (PASS, BUY_EXTRA_TURN, END_TURN, attempt_action(0, False)):
        error = _refused(state, action)
        assert error.phase == "chip decision"
    state = _extra_turn()
    for action in (SPEND_CHIP, KEEP_CHIP, PASS, attempt_action(0, False)):
        error = _refused(state, action)
        assert error.phase == "extra turn" and error.legal == [BUY_EXTRA_TURN, END_TURN]


def test_nothing_after_the_game_ended() -> None:
    state = new_game(2, seed=6)
    play_random(state, np.random.default_rng(6))
    assert state.is_terminal() and state.legal_actions() == []
    for action in range(NUM_ACTIONS):
        error = _refused(state, action)
        assert error.phase == "game over" and error.legal == [] and "game is over" in error.why
    _refused(state, "pass")
