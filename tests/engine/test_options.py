"""The rulings of docs/airships/RULES.md and the added ones, switchable in ``RulesOptions``: default and other."""

from __future__ import annotations

import pytest

from airships_env.engine import (
    CHOOSE_TARGET,
    GAME_OVER,
    PASS,
    RulesOptions,
    attempt_odds,
    new_game,
    player_pool,
    scores,
)
from airships_env.engine.actions import FIRST_PHASE_TARGET, attempt_action
from airships_env.engine.records import Reveal
from airships_env.engine.rules import target_card
from airships_env.engine.state import CHANGE_OF_ERA, EMPTY

from .helpers import (
    expansion,
    give,
    hand_built,
    open_hindenburg,
    phase_action,
    place,
    set_chips,
    set_stack,
    stack_action,
)

pytestmark = pytest.mark.usefixtures("engine_backend")

NO_DICE: tuple[int, ...] = ()


def _quiet(state):  # type: ignore[no-untyped-def]
    for player in range(state.num_players):
        set_chips(state, player, 0, 6)
    return state


@pytest.mark.python_only  # nothing here for the core to answer
def test_options_defaults_are_the_rules_as_written() -> None:
    options = RulesOptions()
    assert options.to_dict() == {
        "reveal_after_change_of_era": False,
        "hindenburg_any_order": True,
        "engine_bonus_needs_cost_colour": True,
        "wooden_airship_with_opening_airship": True,
        "stalemate_ends_game": True,
    }
    assert new_game(2, seed=0).options == options


@pytest.mark.python_only  # nothing here for the core to answer
def test_options_round_trip_and_unknown_keys_are_refused() -> None:
    options = RulesOptions(hindenburg_any_order=False, stalemate_ends_game=False)
    assert RulesOptions.from_dict(options.to_dict()) == options
    with pytest.raises(ValueError, match="unknown options"):
        RulesOptions.from_dict({"hindenburg_in_any_order": True})


# T1 ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("reveal_after", [False, True])
def test_T1_option_reveal_after_change_of_era(reveal_after: bool) -> None:
    options = RulesOptions(reveal_after_change_of_era=reveal_after)
    state = _quiet(hand_built(options=options, deck=["engine-12", "engine-11"]))
    state.deck.append(CHANGE_OF_ERA)
    record = state.apply_action(PASS)
    assert state.era == 2 and record.era_changed
    if reveal_after:
        assert record.reveals == (
            Reveal("change-of-era", None, None),
            Reveal("engine-11", 12, None),
        )
        assert state.deck == [expansion(state, "engine-12")]
    else:
        assert record.reveals == (Reveal("change-of-era", None, None),)
        assert state.deck == [expansion(state, "engine-12"), expansion(state, "engine-11")]
        assert state.board[12] == EMPTY


def test_T1_option_reveal_after_change_of_era_with_nothing_left() -> None:
    state = _quiet(hand_built(options=RulesOptions(reveal_after_change_of_era=True)))
    state.deck = [CHANGE_OF_ERA]
    record = state.apply_action(PASS)
    assert record.reveals == (Reveal("change-of-era", None, None),) and state.deck == []


# H1 ------------------------------------------------------------------------------------------
def _phases(legal: list[int]) -> list[int]:
    return [a for a in legal if phase_action(0) <= a < PASS]


@pytest.mark.parametrize("any_order", [True, False])
def test_H1_option_hindenburg_any_order(any_order: bool) -> None:
    state = _quiet(hand_built(era=2, options=RulesOptions(hindenburg_any_order=any_order)))
    open_hindenburg(state)
    for player in (0, 1):
        give(state, player, "financier-21", "hangar-21", "captain-22")  # 2 white 3 red 3 black
    if any_order:
        assert _phases(state.legal_actions()) == [phase_action(p) for p in range(4)]
        assert target_card(state, FIRST_PHASE_TARGET + 2) is not None
    else:
        assert _phases(state.legal_actions()) == [phase_action(0)]
        assert target_card(state, FIRST_PHASE_TARGET + 2) is None
        assert attempt_odds(state, attempt_action(FIRST_PHASE_TARGET + 1)) is None
    state.apply_action(phase_action(0), dice=(NO_DICE, (5, 5, 5), (8, 8, 8)))
    assert state.hindenburg == [0, EMPTY, EMPTY, EMPTY]
    expected = [1, 2, 3] if any_order else [1]
    assert _phases(state.legal_actions()) == [phase_action(p) for p in expected]


def test_H1_option_fixed_order_skips_nothing_when_next_phase_is_out_of_reach() -> None:
    state = _quiet(hand_built(era=2, options=RulesOptions(hindenburg_any_order=False)))
    open_hindenburg(state)
    give(state, 0, "financier-23")  # 1 white, 1 red, 2 black: phases 2 and 3, not phase 1
    assert _phases(state.legal_actions()) == []  # phase 1 comes first: nothing is skipped
    state.hindenburg = [1, EMPTY, EMPTY, EMPTY]
    state.legal_cache = None
    assert _phases(state.legal_actions()) == [phase_action(1)]


# T5 ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("needs_colour", [True, False])
def test_T5_option_engine_bonus_needs_cost_colour(needs_colour: bool) -> None:
    options = RulesOptions(engine_bonus_needs_cost_colour=needs_colour)
    state = _quiet(hand_built(options=options))
    give(state, 0, "financier-S1", "engine-13")  # 2 white; +1 red
    target = place(state, "financier-11")  # 2 white, 5
    odds = attempt_odds(state, attempt_action(target))
    assert odds is not None
    # 2 white dice reach 5 with 12/36; and 4 (with the +1) with another 12/36 (T5, see test_dice)
    assert odds.exact[0] * 36 == (24 if not needs_colour else 12)
    record = state.apply_action(attempt_action(target, False), dice=((2, 2), NO_DICE, NO_DICE))
    assert record.result == ("failure" if needs_colour else "success")


def test_T5_option_engine_bonus_odds_do_not_leak_between_games() -> None:
    # The dice pools are memoised per card set and shared by every game using it; the odds of
    # a game with the other ruling must not come from a game played with the default one.
    for first, second in [(True, False), (False, True)]:
        seen = []
        for needs_colour in (first, second):
            options = RulesOptions(engine_bonus_needs_cost_colour=needs_colour)
            state = _quiet(hand_built(options=options))
            give(state, 0, "financier-S1", "engine-13")
            target = place(state, "financier-11")
            odds = attempt_odds(state, attempt_action(target))
            assert odds is not None
            seen.append((needs_colour, odds.exact[0] * 36))
        assert sorted(seen) == [(False, 24), (True, 12)]


# Added ruling: the airship that empties a stack --------------------------------------------
@pytest.mark.parametrize("with_opening", [True, False])
def test_H3a_option_wooden_airship_with_opening_airship(with_opening: bool) -> None:
    options = RulesOptions(wooden_airship_with_opening_airship=with_opening)
    state = _quiet(hand_built(options=options))
    state.wooden_airship = 1
    give(state, 0, "financier-S1", "hangar-S1")  # 3 white
    set_stack(state, 2, ["airship-L5"])  # the last card of stack 2: 3 white, 7
    record = state.apply_action(stack_action(2), dice=((3, 3, 1), NO_DICE, NO_DICE))
    assert record.result == "success" and record.hindenburg_opened and state.hindenburg_open
    assert state.wooden_airship == (0 if with_opening else 1)
    assert record.wooden_airship == state.wooden_airship


# Added ruling E4: stalemate ----------------------------------------------------------------
def _stalemate(ends: bool):  # type: ignore[no-untyped-def]
    state = _quiet(hand_built(3, options=RulesOptions(stalemate_ends_game=ends)))
    for stack in range(4):  # black costs only: nobody (1 white die) is ever eligible
        set_stack(state, stack, ["airship-D1", "airship-D2"])
    place(state, "engineer-14")
    return state


@pytest.mark.parametrize("ends", [True, False])
def test_E4_option_stalemate_ends_game(ends: bool) -> None:
    state = _stalemate(ends)
    state.players[2].airships = [state.cards.airship_index["airship-D2"]]
    for _ in range(2):
        state.apply_action(PASS)
        assert state.phase == CHOOSE_TARGET
    record = state.apply_action(PASS)
    if ends:
        assert record.game_over and state.phase == GAME_OVER
        assert state.final_scores == tuple(scores(state)) == (0, 0, 6)
        assert state.winners == (2,)
    else:
        assert not record.game_over and state.phase == CHOOSE_TARGET
        state.apply_action(PASS)
        assert state.phase == CHOOSE_TARGET


def test_E4_passes_count_only_with_the_deck_empty_and_since_the_last_attempt() -> None:
    state = _stalemate(True)
    state.deck = [expansion(state, "engine-22")]  # 3 red: nobody can take it
    state.apply_action(PASS)  # deck not empty: player 0's pass does not count
    state.apply_action(PASS)  # the reveal of engine-22 emptied the deck: counts
    state.apply_action(PASS)
    assert state.phase == CHOOSE_TARGET and state.current_player == 0
    # an attempt in between resets the count
    give(state, 0, "financier-S1")
    target = place(state, "financier-11")
    state.apply_action(attempt_action(target, False), dice=((1, 1), NO_DICE, NO_DICE))
    assert player_pool(state, 0).available == (2, 0, 0)
    state.apply_action(PASS)
    state.apply_action(PASS)
    assert state.phase == CHOOSE_TARGET and state.current_player == 0
    state.board[target] = EMPTY  # financier-11 no longer offered: player 0 passes too
    state.legal_cache = None
    assert state.apply_action(PASS).game_over
