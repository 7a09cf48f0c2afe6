"""Tests named after the rule ids of docs/airships/RULES.md (S1..E4, V1, V2, X1..X4, C1..C4), on
hand-built states; tests/test_rule_ids.py checks that every id has one.

Hand-built states start from ``basic()``: a set-up game with an empty main board and empty
company boards (every player holds only its entrepreneur: 1 white die in Era 1), an empty deck
unless a test fills it, and no chip on any board unless a test puts some there. Tests set fields
directly; ``apply_action(a, dice=...)`` forces the faces, per colour (white, red, black).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from airships_env.engine import (
    BUY_EXTRA_TURN,
    CHIP_DECISION,
    CHOOSE_TARGET,
    END_TURN,
    EXTRA_TURN,
    GAME_OVER,
    KEEP_CHIP,
    PASS,
    SPEND_CHIP,
    ExchangeMade,
    GameState,
    attempt_odds,
    new_game,
    player_pool,
    public_view,
    score_parts,
    scores,
    winners,
)
from airships_env.engine.actions import (
    EXCHANGE,
    EXCHANGE_GIVING_FIXED,
    NO_EXCHANGE,
    attempt_action,
    attempt_variant,
)
from airships_env.engine.cards import AIRSHIP_TIERS, RED
from airships_env.engine.records import ActionRecord, ChipMove, Reveal
from airships_env.engine.state import CHANGE_OF_ERA, EMPTY

from .helpers import (
    airship,
    cards_with,
    expansion,
    give,
    hand_built,
    open_hindenburg,
    phase_action,
    place,
    put,
    refresh,
    set_chips,
    set_stack,
    stack_action,
)

pytestmark = pytest.mark.usefixtures("engine_backend")

NO_DICE: tuple[int, ...] = ()


def chips(state: GameState, player: int) -> tuple[int, int]:
    """(on board, in supply)."""
    return state.players[player].chips_on_board, state.players[player].chips_supply


def no_chips(state: GameState) -> None:
    """Every player: no chip on its board, 6 in its supply (no chip decision, no extra turn)."""
    for player in range(state.num_players):
        set_chips(state, player, 0, 6)


def basic(num_players: int = 2, **kwargs: object) -> GameState:
    """hand_built() with no chips on any board."""
    state = hand_built(num_players, **kwargs)  # type: ignore[arg-type]
    no_chips(state)
    return state


# ---------------------------------------------------------------------------------------------
# Setup
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_S1_two_to_four_players_and_seat_0_starts(num_players: int) -> None:
    state = new_game(num_players, seed=11)
    assert state.num_players == num_players == len(state.players)
    assert state.current_player == 0
    assert state.phase == CHOOSE_TARGET


@pytest.mark.python_only  # nothing here for the core to answer
@pytest.mark.parametrize("bad", [0, 1, 5, True, 2.0, "3", None])
def test_S1_other_player_counts_are_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="num_players"):
        new_game(bad, seed=0)  # type: ignore[arg-type]


def test_S2_four_stacks_of_three_tiers_and_six_left_out_unseen() -> None:
    orders = set()
    for seed in range(20):
        state = new_game(3, seed=seed)
        airships = state.cards.airships
        assert len(state.stacks) == 4
        for stack in state.stacks:
            # bottom to top: tier 3, tier 2, tier 1
            assert [airships[a].tier for a in stack] == [3, 2, 1]
        assert len(state.left_out) == 6
        assert sorted(airships[a].tier for a in state.left_out) == [1, 1, 2, 2, 3, 3]
        every = [a for s in state.stacks for a in s] + state.left_out
        assert sorted(every) == list(range(18))
        orders.add(tuple(tuple(s) for s in state.stacks))
    assert len(orders) == 20  # each tier is shuffled


def test_S3_deck_is_era_1_then_change_of_era_then_era_2() -> None:
    orders = set()
    for seed in range(20):
        state = new_game(2, seed=seed)
        cards = state.cards
        era_one, era_two = set(cards.expansions_of_era(1)), set(cards.expansions_of_era(2))
        deck = state.deck  # top = last
        assert set(deck[:24]) == era_two and len(deck[:24]) == 24
        assert deck[24] == CHANGE_OF_ERA and deck.count(CHANGE_OF_ERA) == 1
        assert set(deck[25:]) <= era_one
        shown = [c for c in state.board + state.removed if c != EMPTY]
        revealed = [c for c in shown if cards.expansions[c].era == 1]
        assert sorted(revealed + deck[25:]) == sorted(era_one)
        orders.add(tuple(deck[:24]))
    assert len(orders) == 20  # Era 2 is shuffled too


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_S4_starters_dealt_rest_on_board_then_revealed_to_six(num_players: int) -> None:
    for seed in range(30):
        state = new_game(num_players, seed=seed)
        cards = state.cards
        starters = set(cards.expansions_of_era(0))
        dealt = []
        for player in state.players:
            held = [c for c in player.slots if c != EMPTY]
            assert len(held) == 1 and held[0] in starters
            assert player.slots[cards.expansions[held[0]].department] == held[0]
            dealt.append(held[0])
        rest = starters - set(dealt)
        on_board = [c for c in state.board if c != EMPTY]
        # the undealt starters lie on the board in their own rows (or were pushed out by P1)
        assert rest <= set(on_board) | set(state.removed)
        for target, card in enumerate(state.board):
            if card != EMPTY:
                assert cards.expansions[card].department == target // 3
        revealed_era_one = 18 - (len(state.deck) - 25)
        # setup revealed until 6 lay on the board, then the first turn revealed one more (T1)
        assert len(on_board) + len(state.removed) == (6 - num_players) + revealed_era_one
        assert len(on_board) == 7 or (len(on_board) == 6 and state.removed)


def test_S5_entrepreneur_side_one_and_two_white_dice_each() -> None:
    state = new_game(4, seed=5)
    assert state.era == 1
    assert state.cards.entrepreneur_side_1 == (1, 0, 0)
    for seat in range(4):
        pool = player_pool(state, seat)
        assert pool.rollable == (2, 0, 0)
        assert pool.fixed == () and pool.engine_bonuses == () and pool.exchange is None


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_S6_start_player_three_chips_others_four(num_players: int) -> None:
    state = new_game(num_players, seed=1)
    assert chips(state, 0) == (3, 3)
    for seat in range(1, num_players):
        assert chips(state, seat) == (4, 2)
    assert state.hindenburg == [EMPTY] * 4


# ---------------------------------------------------------------------------------------------
# The main board
# ---------------------------------------------------------------------------------------------
def test_P1_revealed_card_takes_leftmost_empty_slot_of_its_row() -> None:
    # Nothing is eligible (1 white die each): the player passes and the next turn reveals.
    state = basic(deck=["financier-12", "financier-11"])
    put(state, 1, "financier-S1")  # the financier row: [empty, S1, empty]
    record = state.apply_action(PASS)
    assert record.reveals == (Reveal("financier-11", 0, None),)
    assert state.board[0:3] == [
        expansion(state, "financier-11"),
        expansion(state, "financier-S1"),
        EMPTY,
    ]
    state.apply_action(PASS)
    assert state.board[2] == expansion(state, "financier-12")
    assert state.removed == []


def test_P1_full_row_drops_its_leftmost_card_and_slides_left() -> None:
    state = basic(deck=["engine-12"])
    row = ["engine-11", "engine-13", "engine-14"]
    for position, card_id in enumerate(row):
        place(state, card_id, position)
    record = state.apply_action(PASS)
    assert record.reveals == (Reveal("engine-12", 14, "engine-11"),)
    assert state.board[12:15] == [
        expansion(state, "engine-13"),
        expansion(state, "engine-14"),
        expansion(state, "engine-12"),
    ]
    assert state.removed == [expansion(state, "engine-11")]


# ---------------------------------------------------------------------------------------------
# A turn
# ---------------------------------------------------------------------------------------------
def test_P2_a_taken_card_leaves_its_slot_empty_and_the_row_does_not_slide() -> None:
    state = basic(deck=["financier-24"])
    give(state, 0, "financier-S1", "hangar-S1")  # 3 white
    put(state, 0, "financier-11")  # 2 white, 5
    put(state, 1, "financier-22")
    put(state, 2, "financier-23")
    record = state.apply_action(attempt_action(0), dice=((3, 3, 1), NO_DICE, NO_DICE))
    assert record.result == "success" and record.acquired == "financier-11"
    # the next turn's reveal (T1) fills the slot left empty (P1), the others stayed put
    assert record.reveals == (Reveal("financier-24", 0, None),)
    row = [expansion(state, c) for c in ("financier-24", "financier-22", "financier-23")]
    assert state.board[0:3] == row


def test_T1a_the_first_turn_begins_with_a_reveal() -> None:
    checked = 0
    for num_players in (2, 3, 4):
        for seed in range(10):
            state = new_game(num_players, seed=seed)
            assert state.current_player == 0 and state.turn == 1
            if state.removed:  # a card pushed out by P1 (S4) takes an extra reveal
                continue
            # S4 leaves 6 expansions on the board; the first turn's reveal makes 7
            assert sum(card != EMPTY for card in state.board) == 7
            assert len(state.deck) == 18 + 1 + 24 - num_players - 1
            checked += 1
    assert checked >= 10


def test_T1_each_turn_reveals_the_top_card() -> None:
    state = basic(deck=["hangar-12", "engine-11"])
    turn = state.turn
    record = state.apply_action(PASS)
    assert state.current_player == 1 and state.turn == turn + 1
    assert record.reveals == (Reveal("engine-11", 12, None),)
    assert state.deck == [expansion(state, "hangar-12")]
    assert state.board[12] == expansion(state, "engine-11")


def test_T1_empty_deck_skips_the_reveal() -> None:
    state = basic()
    place(state, "engineer-14")  # 2 red: nobody is eligible
    board = state.board.copy()
    record = state.apply_action(PASS)
    assert record.reveals == () and not record.era_changed
    assert state.board == board and state.current_player == 1 and state.phase == CHOOSE_TARGET


def test_T1_change_of_era_flips_every_entrepreneur_and_reveals_no_replacement() -> None:
    state = basic(3, deck=["engine-11"])
    state.deck.append(CHANGE_OF_ERA)
    give(state, 2, "financier-S1")
    refresh(state)
    record = state.apply_action(PASS)
    assert record.era_changed
    assert record.reveals == (Reveal("change-of-era", None, None),)
    assert state.era == 2
    assert state.deck == [expansion(state, "engine-11")]  # no replacement revealed
    assert all(c == EMPTY for c in state.board)
    assert CHANGE_OF_ERA not in state.removed  # it leaves the game; removed lists expansions
    assert player_pool(state, 0).rollable == (1, 1, 0)
    assert player_pool(state, 1).rollable == (1, 1, 0)
    assert player_pool(state, 2).rollable == (2, 1, 0)


def test_T2_target_needs_the_cost_dice_counting_rollable_and_fixed() -> None:
    state = basic()
    give(state, 0, "financier-S1")  # 2 white
    engine = place(state, "engine-11")  # 2 white
    captain = place(state, "captain-11")  # 3 white
    hangar = place(state, "hangar-12")  # 1 white + 1 red
    legal = state.legal_actions()
    assert attempt_action(engine, False) in legal
    assert attempt_action(captain, False) not in legal
    assert attempt_action(hangar, False) not in legal
    give(state, 0, "engineer-13")  # a fixed red 4 counts as a red die for the cost
    legal = state.legal_actions()
    assert attempt_action(hangar, False) in legal
    assert attempt_action(place(state, "engineer-14", 1), False) not in state.legal_actions()


def test_T2_targets_are_board_cards_stack_tops_and_no_closed_hindenburg() -> None:
    state = basic()
    give(state, 0, "financier-S1", "hangar-S1")  # 3 white
    set_stack(state, 0, ["airship-D2", "airship-M2", "airship-L5"])  # top: 3 white
    set_stack(state, 1, ["airship-D1", "airship-M1", "airship-L4"])  # top: 2 red
    set_stack(state, 2, ["airship-D3", "airship-L1"])  # top: 3 white
    set_stack(state, 3, ["airship-D4", "airship-M3", "airship-L3"])
    legal = state.legal_actions()
    assert stack_action(0) in legal and stack_action(2) in legal
    assert stack_action(1) not in legal and stack_action(3) not in legal
    # no board card and the Hindenburg is closed: nothing else
    assert legal == [stack_action(0), stack_action(2)]


def test_T2_eligibility_is_judged_after_the_exchange() -> None:
    state = basic()
    give(state, 0, "financier-S1", "hangar-11", "materials-11")  # 4 white; 2 white -> 1 red
    hangar = place(state, "hangar-12")  # 1 white + 1 red
    legal = state.legal_actions()
    assert attempt_action(hangar, True) in legal
    assert attempt_action(hangar, False) not in legal


def test_T2a_no_eligible_target_means_pass_without_roll_or_chip() -> None:
    state = basic(deck=["engineer-14"])
    set_chips(state, 0, 1, 5)
    place(state, "captain-11")  # 3 white; player 0 has 1 white die
    assert state.legal_actions() == [PASS]
    record = state.apply_action(PASS)
    assert record.result == "passed" and record.rolled is None and record.chips == ()
    assert chips(state, 0) == (1, 5)  # no T7 chip for a pass
    assert state.current_player == 1
    # PASS is refused when a target is eligible
    give(state, 1, "financier-S1", "hangar-S1")
    with pytest.raises(ValueError):
        state.apply_action(PASS)


def test_T3_the_player_chooses_whether_the_fixed_die_is_given() -> None:
    state = basic(era=2)
    # Era 2: 1 white + 1 red; hangar-12 +1 red; engineer-14 fixed red 5; materials-21 2 red -> 1 black
    give(state, 0, "hangar-12", "engineer-14", "materials-21")
    pool = player_pool(state, 0)
    plain, rollable_only, giving_fixed = pool.hands
    assert plain is not None and plain.rollable == (1, 2, 0) and plain.fixed == ((RED, 5),)
    assert rollable_only is not None and giving_fixed is not None
    assert (rollable_only.rollable, rollable_only.fixed) == ((1, 0, 1), ((RED, 5),))
    assert (giving_fixed.rollable, giving_fixed.fixed) == ((1, 1, 1), ())
    set_stack(state, 1, ["airship-D1", "airship-M1", "airship-M3"])  # top: 1 red + 1 black, 12
    legal = state.legal_actions()
    assert stack_action(1, NO_EXCHANGE) not in legal  # no black die without the exchange
    assert {stack_action(1, EXCHANGE), stack_action(1, EXCHANGE_GIVING_FIXED)} <= set(legal)

    keep = state.clone()
    record = keep.apply_action(stack_action(1, EXCHANGE), dice=(NO_DICE, NO_DICE, (8,)))
    assert record.rolled == ((), (), (8,))  # both rollable reds went; the fixed 5 is kept
    assert record.kept == ((), (5,), (8,)) and record.total == 13
    assert record.exchange == ExchangeMade((0, 2, 0), (), (0, 0, 1))

    record = state.apply_action(stack_action(1, EXCHANGE_GIVING_FIXED), dice=(NO_DICE, (3,), (8,)))
    assert record.rolled == ((), (3,), (8,))  # one rollable red kept, rolled
    assert record.kept == ((), (3,), (8,)) and record.total == 11 and record.result == "failure"
    assert record.exchange == ExchangeMade((0, 1, 0), ((RED, 5),), (0, 0, 1))


def test_T3_giving_the_fixed_die_is_offered_only_where_it_differs() -> None:
    state = basic(era=2)
    give(state, 0, "hangar-12", "engineer-14", "materials-21")
    target = place(state, "engine-24")  # 1 black, 8: red is not in the cost
    legal = state.legal_actions()
    assert attempt_action(target, EXCHANGE) in legal
    assert attempt_action(target, EXCHANGE_GIVING_FIXED) not in legal  # the same dice roll
    assert attempt_odds(state, attempt_action(target, EXCHANGE_GIVING_FIXED)) is None


def test_T3_only_the_fixed_die_variant_when_rollable_dice_run_out() -> None:
    state = basic(era=2)
    give(state, 0, "engineer-14", "materials-21")  # 1 rollable red + fixed red 5; 2 red -> 1 black
    _plain, rollable_only, giving_fixed = player_pool(state, 0).hands
    assert rollable_only is None  # one rollable red cannot pay two
    assert giving_fixed is not None and giving_fixed.rollable == (1, 0, 1)
    set_stack(state, 1, ["airship-D1", "airship-M1", "airship-M3"])  # 1 red + 1 black
    target = place(state, "engine-24")  # 1 black, 8
    legal = state.legal_actions()
    assert stack_action(1, EXCHANGE_GIVING_FIXED) not in legal  # no red left to pay the cost
    assert attempt_action(target, EXCHANGE) not in legal
    assert attempt_action(target, EXCHANGE_GIVING_FIXED) in legal  # the only exchange open


def test_T3_X4_giving_the_fixed_die_can_be_the_better_choice() -> None:
    state = basic(era=2)
    give(state, 0, "hangar-12", "financier-22", "engineer-12", "materials-21")
    target = place(state, "engine-23")  # 1 red + 2 black, 18
    assert attempt_odds(state, attempt_action(target, NO_EXCHANGE)) is None  # 1 black only
    keep = attempt_odds(state, attempt_action(target, EXCHANGE))
    give_fixed = attempt_odds(state, attempt_action(target, EXCHANGE_GIVING_FIXED))
    assert keep is not None and give_fixed is not None
    assert keep.exact[0] == Fraction(2, 9) and give_fixed.exact[0] == Fraction(5, 18)


def test_T3_exchange_once_only_with_materials_and_for_this_attempt_only() -> None:
    state = basic()
    give(state, 0, "financier-S1", "hangar-11")  # 4 white, no Materials card
    place(state, "engine-11")
    assert all(attempt_variant(a) == NO_EXCHANGE for a in state.legal_actions())
    give(state, 0, "materials-11")  # 2 white -> 1 red, once: never 0 white + 2 red
    hand = player_pool(state, 0).hands[EXCHANGE]
    assert hand is not None and hand.available == (2, 1, 0)
    hangar = place(state, "hangar-12")  # 1 white + 1 red, 6
    record = state.apply_action(attempt_action(hangar, EXCHANGE), dice=((3, 2), (2,), NO_DICE))
    assert record.exchange and record.result == "failure"  # best white 3 + red 2 = 5 < 6
    assert player_pool(state, 0).available == (4, 0, 0)  # the exchange did not last


def test_T4_rolls_only_the_cost_colours_all_rollable_at_most_three() -> None:
    state = basic(era=2)
    give(state, 0, "financier-S1", "hangar-S1", "captain-22")  # 3 white; 2 red; 1 black
    assert player_pool(state, 0).rollable == (3, 2, 1)
    target = place(state, "financier-11")  # 2 white, 5
    record = state.apply_action(attempt_action(target), dice=((1, 3, 2), NO_DICE, NO_DICE))
    assert record.rolled == ((1, 3, 2), (), ())  # red and black are not in the cost
    assert record.kept == ((3, 2), (), ())  # the best 2 white
    assert record.dice_sum == 5 and record.result == "success"


def test_T4_best_dice_include_fixed_ones_and_colours_add_up() -> None:
    state = basic()
    give(state, 0, "financier-S1", "engineer-13")  # 2 white + fixed red 4
    target = place(state, "hangar-12")  # 1 white + 1 red, 6
    with pytest.raises(ValueError, match="red"):  # no rollable red: no red face may be forced
        state.apply_action(attempt_action(target), dice=((2, 1), (5,), NO_DICE))
    record = state.apply_action(attempt_action(target), dice=((2, 1), NO_DICE, NO_DICE))
    assert record.kept == ((2,), (4,), ())
    assert record.dice_sum == 6 and record.result == "success"

    state = basic()
    give(state, 0, "financier-S1", "engineer-11")  # 2 rollable white + fixed white 3
    target = place(state, "financier-11")  # 2 white, 5
    record = state.apply_action(attempt_action(target), dice=((1, 1), NO_DICE, NO_DICE))
    assert record.kept == ((3, 1), (), ()) and record.dice_sum == 4


def test_T4_forced_roll_that_does_not_fit_is_refused_and_changes_nothing() -> None:
    state = basic()
    give(state, 0, "financier-S1")
    target = place(state, "financier-11")
    state.passed_mask = 0b10  # the other player passed (E4 bookkeeping must not change)
    before = state.to_dict()
    for dice in [((1, 1, 1), (), ()), ((4, 1), (), ()), ((1, 1), (), (), ())]:
        with pytest.raises(ValueError, match="forced dice"):
            state.apply_action(attempt_action(target), dice=dice)
        assert state.to_dict() == before


def test_T5_wooden_airship_adds_one_automatically() -> None:
    state = basic()
    give(state, 0, "financier-S1")
    target = place(state, "financier-11")  # 2 white, 5
    state.wooden_airship = 0
    record = state.apply_action(attempt_action(target), dice=((2, 2), NO_DICE, NO_DICE))
    assert record.bonuses == (("wooden airship", 1),)
    assert record.total == 5 and record.result == "success"
    state = basic()
    give(state, 0, "financier-S1")
    target = place(state, "financier-11")
    state.wooden_airship = 1  # another player's token does not help
    record = state.apply_action(attempt_action(target), dice=((2, 2), NO_DICE, NO_DICE))
    assert record.bonuses == () and record.result == "failure"


@pytest.mark.parametrize(
    ("engine_card", "applies"),
    [("engine-11", True), ("engine-13", False), ("engine-14", True), ("engine-24", True)],
)
def test_T5_engine_bonus_applies_when_cost_asks_for_colour(engine_card: str, applies: bool) -> None:
    # engine-11 / engine-24: +1 white; engine-13: +1 red; engine-14: +1 grey (any colour)
    state = basic()
    give(state, 0, "financier-S1", engine_card)
    target = place(state, "financier-11")  # 2 white, 5
    record = state.apply_action(attempt_action(target), dice=((2, 2), NO_DICE, NO_DICE))
    assert record.dice_sum == 4
    assert (record.total, record.result) == ((5, "success") if applies else (4, "failure"))
    assert len(record.bonuses) == int(applies)


def test_T5_engine_bonuses_add_up_per_colour_in_the_cost() -> None:
    state = basic(era=2)
    give(state, 0, "engine-22")  # +2 red
    target = place(state, "materials-21")  # 1 red, 5
    record = state.apply_action(attempt_action(target), dice=(NO_DICE, (3,), NO_DICE))
    assert record.bonuses == (("engine +2 red", 2),)
    assert record.total == 5 and record.result == "success"


@pytest.mark.parametrize(
    ("faces", "on_board", "phase"),
    [
        ((2, 1), 1, CHIP_DECISION),  # 3 + wooden airship 1 = 4: misses 5 by exactly 1
        ((1, 1), 1, None),  # 2 + 1 = 3: misses by 2, no chip offered
        ((2, 2), 1, None),  # 4 + 1 = 5: success, no chip needed
        ((2, 1), 0, None),  # misses by 1 but no chip on the board
    ],
)
def test_T5_chip_offered_only_when_it_decides_the_attempt(
    faces: tuple[int, int], on_board: int, phase: int | None
) -> None:
    state = basic()
    give(state, 0, "financier-S1")
    target = place(state, "financier-11")  # 2 white, 5
    state.wooden_airship = 0
    set_chips(state, 0, on_board, 6 - on_board)
    record = state.apply_action(attempt_action(target), dice=(faces, NO_DICE, NO_DICE))
    if phase == CHIP_DECISION:
        assert state.phase == CHIP_DECISION and state.current_player == 0
        assert state.legal_actions() == [SPEND_CHIP, KEEP_CHIP]
        assert record.result == "chip decision" and record.total == 4
        assert state.pending is not None and state.pending.total == 4
    else:
        assert state.phase != CHIP_DECISION
        assert record.result in ("success", "failure")
        assert record.result == ("success" if sum(faces) + 1 >= 5 else "failure")


def test_T5_wooden_airship_and_engine_bonus_add_up() -> None:
    state = basic(era=2)
    give(state, 0, "engine-22")  # +2 red
    state.wooden_airship = 0  # +1
    target = place(state, "materials-21")  # 1 red, 5
    record = state.apply_action(attempt_action(target), dice=(NO_DICE, (2,), NO_DICE))
    assert record.bonuses == (("wooden airship", 1), ("engine +2 red", 2))
    assert record.dice_sum == 2 and record.total == 5 and record.result == "success"


def test_T5_two_bonuses_of_one_engine_card_add_up(tmp_path: Path) -> None:
    bonuses = '[ { colour = "red", amount = 2 }, { colour = "any", amount = 1 } ]'
    cards = cards_with(tmp_path, [("engine-22", "engine_bonuses", bonuses)])
    state = basic(era=2, cards=cards)
    give(state, 0, "engine-22")  # +2 red, +1 any
    target = place(state, "materials-21")  # 1 red, 5
    record = state.apply_action(attempt_action(target), dice=(NO_DICE, (2,), NO_DICE))
    assert [amount for _name, amount in record.bonuses] == [2, 1]
    assert record.total == 5 and record.result == "success"


def test_T5_spent_chip_goes_back_to_the_supply_and_decides_success() -> None:
    state = basic()
    give(state, 0, "financier-S1")
    target = place(state, "financier-11")
    set_chips(state, 0, 2, 4)
    state.apply_action(attempt_action(target), dice=((2, 2), NO_DICE, NO_DICE))
    assert state.phase == CHIP_DECISION
    record = state.apply_action(SPEND_CHIP)
    assert record.result == "success" and record.total == 5
    assert record.bonuses == (("chip", 1),)
    assert record.chips == (ChipMove(0, 1, "board", "supply", "chip spent"),)
    assert chips(state, 0) == (1, 5)
    assert state.players[0].slots[0] == expansion(state, "financier-11")
    assert state.current_player == 1


def test_T5_kept_chip_means_failure_with_its_T7_chip() -> None:
    state = basic()
    give(state, 0, "financier-S1")
    target = place(state, "financier-11")
    set_chips(state, 0, 1, 5)
    state.apply_action(attempt_action(target), dice=((2, 2), NO_DICE, NO_DICE))
    record = state.apply_action(KEEP_CHIP)
    assert record.result == "failure" and record.total == 4
    assert chips(state, 0) == (2, 4)
    assert state.board[target] == expansion(state, "financier-11")


def test_T6_expansion_replaces_the_old_card_which_leaves_the_game() -> None:
    state = basic()
    give(state, 0, "financier-S1", "engine-11")
    target = place(state, "engine-13", 1)  # 1 white + 1 red: the player needs red
    give(state, 0, "engineer-13")  # fixed red 4
    record = state.apply_action(attempt_action(target), dice=((3, 3), NO_DICE, NO_DICE))
    assert record.result == "success" and record.acquired == "engine-13"
    assert record.discarded == "engine-11"
    assert state.players[0].slots[4] == expansion(state, "engine-13")
    assert state.board[target] == EMPTY
    assert state.removed == [expansion(state, "engine-11")]


@pytest.mark.parametrize(
    ("captain", "supply", "moved"),
    [("captain-S1", 6, 1), ("captain-S2", 6, 2), ("captain-S2", 1, 1), ("captain-S2", 0, 0)],
)
def test_T6_captain_chips_come_from_the_supply_as_far_as_it_holds(
    captain: str, supply: int, moved: int
) -> None:
    state = basic()
    give(state, 0, "financier-S1")
    target = place(state, captain)  # 2 white, 5
    board_before = 0 if supply else 2
    set_chips(state, 0, board_before, supply)
    record = state.apply_action(attempt_action(target), dice=((3, 2), NO_DICE, NO_DICE))
    assert record.result == "success"
    assert chips(state, 0) == (board_before + moved, supply - moved)
    assert [m for m in record.chips if m.reason == "captain"] == (
        [ChipMove(0, moved, "supply", "board", "captain")] if moved else []
    )


def test_T6_captain_with_three_chips() -> None:
    state = basic(era=2)
    give(state, 0, "engineer-14", "hangar-21")  # 1 red + fixed red 5, 1 black
    target = place(state, "captain-23")  # 2 red + 1 black, 15
    record = state.apply_action(attempt_action(target), dice=(NO_DICE, (5,), (8,)))
    assert record.total == 18 and record.result == "success"
    assert chips(state, 0) == (3, 3)


def test_T6_airship_goes_to_the_pile_and_brings_the_wooden_airship() -> None:
    state = basic()
    state.wooden_airship = 1
    give(state, 0, "financier-S1", "hangar-S1")  # 3 white
    set_stack(state, 2, ["airship-D3", "airship-M5", "airship-L5"])  # 3 white, 7
    record = state.apply_action(stack_action(2), dice=((3, 3, 1), NO_DICE, NO_DICE))
    assert record.result == "success" and record.acquired == "airship-L5"
    assert state.players[0].airships == [airship(state, "airship-L5")]
    assert state.stacks[2] == [airship(state, "airship-D3"), airship(state, "airship-M5")]
    assert state.wooden_airship == 0 and record.wooden_airship == 0
    assert not state.hindenburg_open


@pytest.mark.parametrize(("supply", "source"), [(2, "supply"), (0, "board")])
def test_T6_hindenburg_phase_marked_with_a_chip_from_supply_else_board(
    supply: int, source: str
) -> None:
    state = basic(era=2)
    open_hindenburg(state)
    give(state, 0, "hangar-21", "engineer-14")  # 1 red + fixed red 5, 1 black
    board_before = 1 if supply else 4
    set_chips(state, 0, board_before, supply)
    # phase 1: 2 red + 1 black, 15
    record = state.apply_action(phase_action(0), dice=(NO_DICE, (4,), (6,)))
    assert record.result == "success" and record.acquired == "hindenburg-1"
    assert state.hindenburg == [0, EMPTY, EMPTY, EMPTY]
    assert record.chips == (ChipMove(0, 1, source, "hindenburg", "hindenburg mark"),)
    if source == "supply":
        assert chips(state, 0) == (board_before, supply - 1)
    else:
        assert chips(state, 0)[1] == 0 and chips(state, 0)[0] == board_before - 1
    assert state.wooden_airship == 0


def test_T7_failure_takes_a_chip_from_the_supply_if_there_is_one() -> None:
    state = basic()
    give(state, 0, "financier-S1")
    target = place(state, "financier-11")
    set_chips(state, 0, 0, 2)
    record = state.apply_action(attempt_action(target), dice=((1, 1), NO_DICE, NO_DICE))
    assert record.result == "failure"
    assert record.chips == (ChipMove(0, 1, "supply", "board", "failure"),)
    assert chips(state, 0) == (1, 1)

    state = basic()
    give(state, 0, "financier-S1")
    target = place(state, "financier-11")
    set_chips(state, 0, 2, 0)  # the other 4 mark Hindenburg phases in a real game
    record = state.apply_action(attempt_action(target), dice=((1, 1), NO_DICE, NO_DICE))
    assert record.result == "failure" and record.chips == ()
    assert chips(state, 0) == (2, 0)


def test_T7_a_supply_of_exactly_one_chip_still_gives_it() -> None:
    state = basic()
    give(state, 0, "financier-S1")
    target = place(state, "financier-11")
    set_chips(state, 0, 1, 1)
    record = state.apply_action(attempt_action(target), dice=((1, 1), NO_DICE, NO_DICE))
    assert record.result == "failure"
    assert record.chips == (ChipMove(0, 1, "supply", "board", "failure"),)
    assert chips(state, 0) == (2, 0)


def test_T6_hindenburg_mark_with_a_supply_of_exactly_one_chip() -> None:
    state = basic(era=2)
    open_hindenburg(state)
    give(state, 0, "hangar-21", "engineer-14")  # 1 red + fixed red 5, 1 black
    set_chips(state, 0, 2, 1)
    record = state.apply_action(phase_action(0), dice=(NO_DICE, (4,), (6,)))  # 15 of 15
    assert record.result == "success" and state.hindenburg == [0, EMPTY, EMPTY, EMPTY]
    assert record.chips == (ChipMove(0, 1, "supply", "hindenburg", "hindenburg mark"),)
    assert chips(state, 0) == (2, 0)


@pytest.mark.parametrize("faces", [(3, 3), (1, 1)])
def test_T8_extra_turn_for_three_chips_after_success_or_failure(faces: tuple[int, int]) -> None:
    state = basic(deck=["engine-12", "engine-11"])
    give(state, 0, "financier-S1")
    target = place(state, "financier-11")
    set_chips(state, 0, 3, 3)
    turn = state.turn
    state.apply_action(attempt_action(target), dice=(faces, NO_DICE, NO_DICE))
    if faces == (1, 1):
        assert chips(state, 0) == (4, 2)  # T7 first, then the offer
    assert state.phase == EXTRA_TURN and state.current_player == 0
    assert state.legal_actions() == [BUY_EXTRA_TURN, END_TURN]
    on_board, supply = chips(state, 0)
    record = state.apply_action(BUY_EXTRA_TURN)
    assert record.chips == (ChipMove(0, 3, "board", "supply", "extra turn"),)
    assert chips(state, 0) == (on_board - 3, supply + 3)
    assert state.current_player == 0 and state.phase == CHOOSE_TARGET
    assert state.turn == turn + 1
    assert record.reveals == (Reveal("engine-11", 12, None),)  # a whole turn: T1 again


def test_T8a_offered_again_after_each_extra_turn_while_the_player_can_pay() -> None:
    state = basic(deck=["hangar-12", "captain-12", "engineer-13"])  # nobody can take these
    give(state, 0, "financier-S1")  # 2 white
    set_chips(state, 0, 6, 0)
    targets = [place(state, "engine-11"), place(state, "materials-11"), place(state, "hangar-11")]
    state.apply_action(attempt_action(targets[0], False), dice=((3, 3), NO_DICE, NO_DICE))
    assert state.phase == EXTRA_TURN
    state.apply_action(BUY_EXTRA_TURN)
    assert chips(state, 0) == (3, 3)
    state.apply_action(attempt_action(targets[1], False), dice=((3, 3), NO_DICE, NO_DICE))
    assert state.phase == EXTRA_TURN and state.current_player == 0  # again, with exactly 3
    state.apply_action(BUY_EXTRA_TURN)
    assert chips(state, 0) == (0, 6)
    assert state.phase == CHOOSE_TARGET and state.current_player == 0
    record = state.apply_action(attempt_action(targets[2], False), dice=((1, 1), NO_DICE, NO_DICE))
    assert record.result == "failure" and chips(state, 0) == (1, 5)
    # with fewer than 3 chips on its board, no extra turn is offered: the next seat plays
    assert state.phase == CHOOSE_TARGET and state.current_player == 1


def test_T8_no_offer_below_three_chips_and_end_turn_passes_on() -> None:
    state = basic()
    give(state, 0, "financier-S1")
    target = place(state, "financier-11")
    set_chips(state, 0, 2, 4)
    state.apply_action(attempt_action(target), dice=((3, 3), NO_DICE, NO_DICE))
    assert state.phase == CHOOSE_TARGET and state.current_player == 1

    state = basic()
    give(state, 0, "financier-S1")
    target = place(state, "financier-11")
    set_chips(state, 0, 3, 3)
    state.apply_action(attempt_action(target), dice=((3, 3), NO_DICE, NO_DICE))
    record = state.apply_action(END_TURN)
    assert record.chips == () and chips(state, 0) == (3, 3)
    assert state.current_player == 1 and state.phase == CHOOSE_TARGET


def test_T8_no_extra_turn_after_the_game_ended() -> None:
    state = basic()
    give(state, 0, "financier-S1", "hangar-S1")
    set_chips(state, 0, 6, 0)
    for stack in range(3):
        set_stack(state, stack, ["airship-D3"] if stack else [])
    set_stack(state, 3, ["airship-D4", "airship-L5"])
    state.hindenburg_open = True
    record = state.apply_action(stack_action(3), dice=((3, 3, 3), NO_DICE, NO_DICE))
    assert record.game_over and state.phase == GAME_OVER
    assert state.legal_actions() == []


def test_T9_next_seat_plays_and_the_order_wraps_around() -> None:
    # nobody can take these (1 white die each); the reveals keep the deck from emptying (E4)
    state = basic(3, deck=["engineer-14", "hangar-21", "financier-24", "engine-22", "captain-22"])
    seen = [state.current_player]
    for _ in range(4):
        state.apply_action(PASS)
        seen.append(state.current_player)
    assert seen == [0, 1, 2, 0, 1]


# ---------------------------------------------------------------------------------------------
# The Hindenburg
# ---------------------------------------------------------------------------------------------
def test_H1_opens_when_a_stack_empties_then_phases_in_any_order_once_each() -> None:
    state = basic(era=2)
    give(state, 0, "financier-21", "hangar-21", "captain-22")  # 2 white, 3 red, 3 black
    give(state, 1, "financier-21", "hangar-21", "captain-22")
    set_stack(state, 0, ["airship-M3"])  # 1 red + 1 black, 12
    assert not any(a >= phase_action(0) and a < PASS for a in state.legal_actions())
    record = state.apply_action(stack_action(0), dice=(NO_DICE, (5, 2, 2), (8, 4, 4)))
    assert record.result == "success" and record.hindenburg_opened
    assert state.hindenburg_open and state.stacks[0] == []
    legal = state.legal_actions()  # player 1
    assert [a for a in legal if phase_action(0) <= a < PASS] == [phase_action(p) for p in range(4)]
    # phase 3 first (any order): 1 red + 2 black, 18
    state.apply_action(phase_action(2), dice=(NO_DICE, (5, 5, 5), (8, 8, 8)))
    assert state.hindenburg == [EMPTY, EMPTY, 1, EMPTY]
    legal = state.legal_actions()  # player 0
    assert phase_action(2) not in legal
    assert [a for a in legal if phase_action(0) <= a < PASS] == [
        phase_action(0),
        phase_action(1),
        phase_action(3),
    ]


def test_H2_phase_cost_target_and_values_come_from_the_board() -> None:
    state = basic(era=2)
    open_hindenburg(state)
    give(state, 0, "financier-21", "hangar-21", "captain-22")  # 2 white, 3 red, 3 black
    phase = state.cards.hindenburg[3]
    assert (phase.cost, phase.target, phase.low, phase.high) == ((0, 2, 2), 23, 8, 12)
    record = state.apply_action(phase_action(3), dice=(NO_DICE, (5, 4, 2), (8, 6, 4)))
    assert record.needed == 23 and record.kept == ((), (5, 4), (8, 6))
    assert record.total == 23 and record.result == "success"
    assert score_parts(state, 0)["hindenburg"] == 8  # low value: not complete
    state.hindenburg = [1, 1, 1, 0]
    assert score_parts(state, 0)["hindenburg"] == 12  # high value once all 4 are done


def test_H3_once_open_only_a_phase_moves_the_wooden_airship() -> None:
    state = basic(era=2)
    open_hindenburg(state)
    state.wooden_airship = 1
    give(state, 0, "financier-21", "hangar-21", "captain-22")  # 2 white, 3 red, 3 black
    set_stack(state, 1, ["airship-D1", "airship-M1", "airship-L3"])  # 1 white + 1 red, 7
    record = state.apply_action(stack_action(1), dice=((3, 3), (5, 5, 5), NO_DICE))
    assert record.result == "success" and record.acquired is not None
    assert state.wooden_airship == 1  # an airship no longer brings it
    state.current_player = 0
    refresh(state)
    state.apply_action(phase_action(0), dice=(NO_DICE, (5, 5, 5), (8, 8, 8)))
    assert state.wooden_airship == 0


# ---------------------------------------------------------------------------------------------
# The end
# ---------------------------------------------------------------------------------------------
def test_E1_game_ends_after_the_turn_leaving_every_stack_at_most_one_card() -> None:
    state = basic()
    give(state, 0, "financier-S1", "hangar-S1")
    set_stack(state, 0, [])
    set_stack(state, 1, ["airship-D1"])
    set_stack(state, 2, ["airship-D2"])
    set_stack(state, 3, ["airship-D3", "airship-M5", "airship-L5"])
    state.hindenburg_open = True
    record = state.apply_action(stack_action(3), dice=((3, 3, 3), NO_DICE, NO_DICE))
    assert not record.game_over and state.phase == CHOOSE_TARGET  # stack 3 holds 2 cards
    state.current_player = 0
    set_stack(state, 3, ["airship-D3", "airship-L1"])  # L1: 3 white, 8
    record = state.apply_action(stack_action(3), dice=((3, 3, 2), NO_DICE, NO_DICE))
    assert record.result == "success" and record.game_over
    # player 0: its starters (0 stars), airship-L5 (1 point) and L1 (2); player 1: nothing (E2)
    assert state.is_terminal() and state.final_scores == (3, 0) and state.winners == (0,)
    assert record.scores == state.final_scores and record.winners == state.winners


def test_E1_game_ends_after_the_fourth_phase_even_with_tall_stacks() -> None:
    state = basic(era=2)
    open_hindenburg(state)
    state.hindenburg = [1, 1, EMPTY, 1]
    give(state, 0, "financier-21", "hangar-21", "captain-22")
    set_chips(state, 0, 5, 1)
    record = state.apply_action(phase_action(2), dice=(NO_DICE, (5, 5, 5), (8, 8, 8)))
    assert record.game_over and state.phase == GAME_OVER
    assert state.winners is not None


def test_E1_a_failed_last_turn_also_ends_the_game() -> None:
    state = basic()
    give(state, 0, "financier-S1", "hangar-S1")
    for stack in range(4):
        set_stack(state, stack, ["airship-L5"] if stack == 0 else ["airship-D1"])
    # every stack already holds at most 1 card: the end check after this turn ends the game
    record = state.apply_action(stack_action(0), dice=((1, 1, 1), NO_DICE, NO_DICE))
    assert record.result == "failure" and record.game_over


def test_E1_the_third_phase_does_not_end_the_game() -> None:
    state = basic(era=2)
    open_hindenburg(state)
    state.hindenburg = [1, EMPTY, EMPTY, 1]
    give(state, 0, "financier-21", "hangar-21", "captain-22")
    set_chips(state, 0, 0, 4)
    record = state.apply_action(phase_action(2), dice=(NO_DICE, (5, 5, 5), (8, 8, 8)))
    assert record.result == "success" and state.hindenburg == [1, EMPTY, 0, 1]
    assert not record.game_over and state.phase == CHOOSE_TARGET and state.current_player == 1


def test_E2_score_is_stars_plus_airships_plus_phases() -> None:
    state = basic(3, era=2)
    give(state, 0, "financier-24", "hangar-24", "engine-11")  # 3 + 2 + 0 stars
    state.players[0].airships = [airship(state, "airship-D2"), airship(state, "airship-L3")]
    state.hindenburg = [0, 2, EMPTY, 0]  # phases 1 and 4: low 5 + 8
    assert score_parts(state, 0) == {"expansions": 5, "airships": 7, "hindenburg": 13}
    assert score_parts(state, 2) == {"expansions": 0, "airships": 0, "hindenburg": 6}
    assert scores(state) == [25, 0, 6]
    state.hindenburg = [0, 2, 1, 0]  # complete: high values 8 + 12, 9, 10
    assert scores(state) == [5 + 7 + 20, 10, 9]
    state.removed.append(state.players[0].slots[0])  # stars count only while on the board
    state.players[0].slots[0] = EMPTY
    assert score_parts(state, 0)["expansions"] == 2


def _end_with_a_failed_attempt(state: GameState) -> ActionRecord:
    """Seat 0 fails an attempt on stack 0 while every stack holds one card (E1): the game ends.

    Seat 0 gets its two starters (0 stars) and a chip (T7), so no score changes.
    """
    state.current_player = 0
    give(state, 0, "financier-S1", "hangar-S1")
    for stack in range(4):
        set_stack(state, stack, ["airship-L5"] if stack == 0 else ["airship-D1"])
    record = state.apply_action(stack_action(0), dice=((1, 1, 1), NO_DICE, NO_DICE))
    assert record.result == "failure" and record.game_over
    return record


def test_E3_highest_score_wins() -> None:
    state = basic(3)
    state.players[1].airships = [airship(state, "airship-D2")]  # 6
    state.players[2].airships = [airship(state, "airship-D1")]  # 5
    assert winners(state) == [1]
    record = _end_with_a_failed_attempt(state)
    assert record.scores == state.final_scores == (0, 6, 5)
    assert record.winners == state.winners == (1,)


def test_E3_tie_broken_by_airships_with_phases_counting_as_airships() -> None:
    state = basic(3)
    state.players[0].airships = [airship(state, "airship-D2")]  # 6 points, 1 airship
    state.players[1].airships = [airship(state, "airship-L3"), airship(state, "airship-L5")]  # 2
    state.hindenburg = [2, EMPTY, EMPTY, EMPTY]  # player 2: 5 points, 1 "airship"
    state.players[2].airships = [airship(state, "airship-L5")]  # +1 = 6 points, 2 "airships"
    assert scores(state) == [6, 2, 6]
    assert winners(state) == [2]
    tied = state.clone()
    record = _end_with_a_failed_attempt(tied)
    assert record.scores == (6, 2, 6) and record.winners == tied.winners == (2,)
    state.players[0].airships.append(airship(state, "airship-L3"))  # 7 points now
    assert winners(state) == [0]
    record = _end_with_a_failed_attempt(state)
    assert record.scores == (7, 2, 6) and record.winners == state.winners == (0,)


def test_E3_still_tied_players_share_the_win() -> None:
    state = basic(4)
    state.players[1].airships = [airship(state, "airship-D2")]
    state.players[3].airships = [airship(state, "airship-D5")]
    assert winners(state) == [1, 3]
    # the shared win is what the game records at its end
    _end_with_a_failed_attempt(state)
    assert state.winners == (1, 3) and state.final_scores == (0, 6, 0, 6)


# ---------------------------------------------------------------------------------------------
# What a player sees
# ---------------------------------------------------------------------------------------------
def _played(seed: int, steps: int) -> GameState:
    state = new_game(3, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    return state


@pytest.mark.parametrize("steps", [0, 40, 120])
def test_V1_public_view_keeps_all_public_information(steps: int) -> None:
    state = _played(4, steps)
    view = public_view(state)
    assert view.rng is None and view.is_public_view
    assert view.board == state.board and view.removed == state.removed
    assert [s[-1:] for s in view.stacks] == [s[-1:] for s in state.stacks]  # tops
    assert [len(s) for s in view.stacks] == [len(s) for s in state.stacks]  # heights
    assert len(view.deck) == len(state.deck) and len(view.left_out) == len(state.left_out)
    for mine, theirs in zip(view.players, state.players, strict=True):
        assert mine.slots == theirs.slots and mine.airships == theirs.airships
        assert mine.chips_on_board == theirs.chips_on_board
        assert mine.chips_supply == theirs.chips_supply
    for name in (
        "era",
        "hindenburg",
        "hindenburg_open",
        "wooden_airship",
        "current_player",
        "phase",
        "pending",
        "turn",
        "step",
        "final_scores",
        "winners",
    ):
        assert getattr(view, name) == getattr(state, name), name
    assert view.legal_actions() == state.legal_actions()
    assert scores(view) == scores(state)


def _shuffle_hidden(state: GameState, rng: np.random.Generator) -> GameState:
    """The same public state with the hidden cards (V2) in another order."""
    other = state.clone()
    era_one = set(state.cards.expansions_of_era(1))
    one = [c for c in other.deck if c in era_one]
    two = [c for c in other.deck if c not in era_one and c != CHANGE_OF_ERA]
    rng.shuffle(one)
    rng.shuffle(two)
    other.deck = two + ([CHANGE_OF_ERA] if CHANGE_OF_ERA in state.deck else []) + one
    tiers = {t: [] for t in AIRSHIP_TIERS}  # hidden airships by tier: under the tops, left out
    for stack in other.stacks:
        for card in stack[:-1]:
            tiers[other.cards.airships[card].tier].append(card)
    for card in other.left_out:
        tiers[other.cards.airships[card].tier].append(card)
    for cards in tiers.values():
        rng.shuffle(cards)
    for stack in other.stacks:
        for position in range(len(stack) - 1):
            stack[position] = tiers[3 - position].pop()
    other.left_out = [card for tier in (3, 2, 1) for card in tiers[tier]]
    other.rng = np.random.default_rng(int(rng.integers(1000)))
    return other


@pytest.mark.parametrize("steps", [0, 25, 80])
def test_V2_hidden_order_never_reaches_the_view(steps: int) -> None:
    state = _played(9, steps)
    rng = np.random.default_rng(0)
    view = public_view(state).to_dict()
    assert view["rng"] is None
    changed = False
    for _ in range(10):
        other = _shuffle_hidden(state, rng)
        changed |= (other.deck, other.stacks, other.left_out) != (
            state.deck,
            state.stacks,
            state.left_out,
        )
        assert public_view(other).to_dict() == view
    assert changed  # the test did move hidden cards
    # and the view is not blind: a public difference shows
    other = state.clone()
    seat = next(p for p, player in enumerate(other.players) if player.chips_supply > 0)
    other.players[seat].chips_supply -= 1  # a chip moves from the supply onto the board
    other.players[seat].chips_on_board += 1
    assert public_view(other).to_dict() != view


# ---------------------------------------------------------------------------------------------
# Worked examples
# ---------------------------------------------------------------------------------------------
def test_X1_three_white_dice_best_two_reach_five() -> None:
    state = basic()
    give(state, 0, "financier-S1", "hangar-S1")  # 3 white dice
    target = place(state, "financier-11")  # cost 2 white, target 5
    record = state.apply_action(attempt_action(target), dice=((3, 2, 2), NO_DICE, NO_DICE))
    assert record.rolled == ((3, 2, 2), (), ())
    assert record.kept == ((3, 2), (), ()) and record.dice_sum == 5
    assert record.result == "success"
    assert state.players[0].slots[0] == expansion(state, "financier-11")


def _x2_state(tmp_path: Path, old_engine: str | None) -> tuple[GameState, int]:
    # The default cards cannot give exactly 5 white + 3 red; one Captain is edited to do so.
    cards = cards_with(tmp_path, [("captain-24", "dice", "{ white = 1, red = 1 }")])
    state = basic(era=2, cards=cards)  # entrepreneur side II: 1 white + 1 red
    # financier-12: 1 white + 1 red; hangar-11: 2 white; captain-24 (edited): 1 white + 1 red;
    # engineer-11: fixed white 3; materials-13: 3 white -> 1 black
    give(state, 0, "financier-12", "hangar-11", "captain-24", "engineer-11", "materials-13")
    if old_engine is not None:
        give(state, 0, old_engine)
    pool = player_pool(state, 0)
    assert pool.rollable == (5, 3, 0) and pool.fixed == ((0, 3),)
    set_chips(state, 0, 1, 5)
    target = place(state, "engine-21")  # 1 white + 1 red + 1 black, 15
    return state, target


def test_X2_exchange_fixed_white_and_a_chip_win_the_engine(tmp_path: Path) -> None:
    state, target = _x2_state(tmp_path, old_engine=None)
    assert attempt_action(target) not in state.legal_actions()  # no black die
    action = attempt_action(target, EXCHANGE)  # trade 3 white for 1 black
    # T4 rolls the 2 white dice left as well (X2 leaves them: the fixed white 3 is best anyway)
    record = state.apply_action(action, dice=((2, 1), (5, 3, 2), (6,)))
    assert record.rolled == ((2, 1), (5, 3, 2), (6,))
    assert record.kept == ((3,), (5,), (6,))
    assert record.dice_sum == 14 and record.total == 14  # 5 + 6 + 3
    assert state.phase == CHIP_DECISION
    record = state.apply_action(SPEND_CHIP)
    assert record.total == 15 and record.result == "success"
    assert state.players[0].slots[4] == expansion(state, "engine-21")


def test_X2_the_new_engine_replaces_the_old_one(tmp_path: Path) -> None:
    # With an old Engine on the board its bonus applies (the cost asks for every colour), so
    # the same roll already reaches 15 without the chip; the old card leaves the game (T6).
    state, target = _x2_state(tmp_path, old_engine="engine-24")  # +1 white
    record = state.apply_action(attempt_action(target, EXCHANGE), dice=((2, 1), (5, 3, 2), (6,)))
    assert record.dice_sum == 14 and record.total == 15 and record.result == "success"
    assert record.discarded == "engine-24"
    assert state.players[0].slots[4] == expansion(state, "engine-21")
    assert state.removed == [expansion(state, "engine-24")]


def test_X3_six_white_dice_available_only_three_rolled() -> None:
    state = basic()
    give(state, 0, "financier-S1", "hangar-11", "captain-11")  # 1 + 1 + 2 + 2 = 6 white
    assert player_pool(state, 0).rollable == (6, 0, 0)
    target = place(state, "engine-11")  # 2 white
    with pytest.raises(ValueError, match="expected 3 white"):
        state.apply_action(attempt_action(target), dice=((3,) * 6, NO_DICE, NO_DICE))
    record = state.apply_action(attempt_action(target), dice=((1, 2, 3), NO_DICE, NO_DICE))
    assert record.rolled == ((1, 2, 3), (), ())
    state = basic()
    give(state, 0, "financier-S1", "hangar-11", "captain-11")
    target = place(state, "engine-11")
    record = state.apply_action(attempt_action(target))  # the real roll: 3 dice too
    assert record.rolled is not None and len(record.rolled[0]) == 3


# ---------------------------------------------------------------------------------------------
# Chance, computed here from the rule text (C1-C4), not with the engine's sampler
# ---------------------------------------------------------------------------------------------
FACES_AS_WRITTEN = ((1, 1, 2, 2, 3, 3), (2, 3, 3, 4, 4, 5), (4, 4, 6, 6, 8, 8))  # Components


def _below(raw: np.random.Generator, bound: int) -> int:
    """C1 as written: rejection on the raw 64-bit output, nothing drawn below 2."""
    if bound <= 1:
        return 0
    limit = (2**64 // bound) * bound
    while True:
        value = int(raw.bit_generator.random_raw())
        if value < limit:
            return value % bound


def _shuffled(raw: np.random.Generator, items: list[int]) -> list[int]:
    """C2 as written: Fisher-Yates from the last position down."""
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        j = _below(raw, i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def _twin(generator: np.random.Generator) -> np.random.Generator:
    twin = np.random.default_rng()
    twin.bit_generator.state = generator.bit_generator.state
    return twin


def test_C1_a_bound_of_one_draws_nothing_and_a_large_bound_rejects() -> None:
    state = basic(era=2)
    state.wooden_airship = 0
    give(state, 0, "engineer-21")  # fixed red 5: enough for materials-21 (1 red, 5)
    target = place(state, "materials-21")
    # the entrepreneur's red die is rolled: a bound of 6, one draw
    assert state.rng is not None
    twin = _twin(state.rng)
    record = state.apply_action(attempt_action(target))
    assert record.rolled == ((), (FACES_AS_WRITTEN[1][_below(twin, 6)],), ())
    assert state.rng.bit_generator.state == twin.bit_generator.state
    # bound 2^63 + 1: about half of the raw values lie at or above the limit and are redrawn
    from airships_env.engine.dice import uniform_below

    generator = np.random.default_rng(5)
    twin = _twin(generator)
    for bound in (0, 1, 2, 6, 216, 6**9, 2**63 + 1):
        assert [uniform_below(generator, bound) for _ in range(64)] == [
            _below(twin, bound) for _ in range(64)
        ]
    assert generator.bit_generator.state == twin.bit_generator.state


def test_C3_a_roll_reads_base_6_digits_white_then_red_then_black() -> None:
    state = basic(era=2)  # entrepreneur side II: 1 white + 1 red
    give(state, 0, "financier-21")  # + 1 white, 1 red, 1 black
    target = place(state, "hangar-23")  # 2 red + 1 black, 15: rolls 2 red and 1 black
    other = place(state, "captain-24")  # 1 white + 1 red + 1 black, 13: rolls 2 + 2 + 1
    assert state.rng is not None
    twin = _twin(state.rng)
    record = state.apply_action(attempt_action(other))
    code = _below(twin, 6**5)
    digits = [code // 6**i % 6 for i in range(5)]  # least significant first
    white, red, black = FACES_AS_WRITTEN
    assert record.rolled == (
        (white[digits[0]], white[digits[1]]),
        (red[digits[2]], red[digits[3]]),
        (black[digits[4]],),
    )
    assert state.rng.bit_generator.state == twin.bit_generator.state
    assert state.board[target] == expansion(state, "hangar-23")


@pytest.mark.parametrize("num_players", [2, 4])
def test_C4_the_deal_draws_in_the_documented_order(num_players: int) -> None:
    seed = 11 + num_players
    state = new_game(num_players, seed=seed)
    raw = np.random.default_rng(seed)
    cards = state.cards
    stacks: list[list[int]] = [[], [], [], []]
    left_out: list[int] = []
    for tier in (3, 2, 1):  # S2: tier 3 first, each in card-file order before its shuffle
        shuffled = _shuffled(raw, [a.index for a in cards.airships if a.tier == tier])
        for stack, card in zip(stacks, shuffled[:4], strict=True):
            stack.append(card)
        left_out += shuffled[4:]
    era_two = _shuffled(raw, [e.index for e in cards.expansions if e.era == 2])
    era_one = _shuffled(raw, [e.index for e in cards.expansions if e.era == 1])
    deck = [*era_two, CHANGE_OF_ERA, *era_one]  # bottom to top: the last item is on top
    starters = _shuffled(raw, [e.index for e in cards.expansions if e.era == 0])
    assert state.stacks == stacks and state.left_out == left_out
    for seat in range(num_players):  # item i goes to seat i
        department = cards.expansions[starters[seat]].department
        assert state.players[seat].slots[department] == starters[seat]
    on_board = [card for card in state.board if card != EMPTY] + state.removed
    assert sorted(on_board) == sorted(starters[num_players:] + deck[len(state.deck) :])
    assert state.deck == deck[: len(state.deck)]  # the reveals took the top and drew nothing
    assert state.rng is not None
    assert state.rng.bit_generator.state == raw.bit_generator.state
