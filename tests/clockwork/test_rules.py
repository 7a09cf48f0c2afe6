"""One test per rule id of docs/clockwork/RULES.md, on hand-built states."""

from __future__ import annotations

import numpy as np
import pytest

from airships_env.games.clockwork.engine import (
    IllegalActionError,
    RulesOptions,
    ViewError,
    action_from_name,
    new_game,
)
from airships_env.games.clockwork.engine.chance import roll_two, shuffle, uniform_below
from airships_env.games.clockwork.engine.data import NUM_TYPES, default_data
from tests.clockwork.helpers import T, act, cards, names, piles_with, table

SEVEN = cards("FM1", "FM2", "FM3", "CB1", "CB2", "AS", "SCRAP")


# ---------------------------------------------------------------- setup


def test_S1_cards_in_play_per_player_count() -> None:
    data = default_data()
    assert [data.deck_size(n) for n in (2, 3, 4)] == [34, 46, 58]
    two = data.counts[2]
    assert [two[T[t]] for t in ("FM4", "FM5", "FM6", "CB3", "CB4", "FUEL", "SCRAP")] == [
        0, 0, 0, 0, 0, 3, 4,
    ]  # fmt: skip
    three = data.counts[3]
    assert [three[T[t]] for t in ("FM4", "FM5", "FM6", "CB3", "CB4")] == [4, 0, 0, 4, 0]
    for n in (2, 3, 4):
        state = new_game(n, 7)
        total = sum(map(sum, state.hands)) + sum(map(len, state.piles))
        assert total == data.deck_size(n)


def test_S2_deal_follows_the_chance_order() -> None:
    for n in (2, 3, 4):
        state = new_game(n, 11, options=RulesOptions(first_player="seat0"))
        counts = default_data().counts[n]
        deck = shuffle(
            np.random.default_rng(11), [t for t in range(NUM_TYPES) for _ in range(counts[t])]
        )
        for seat in range(n):
            assert state.hands[seat] == cards_of(deck[7 * seat : 7 * seat + 7])
        rest = deck[7 * n :]
        for k in range(6):
            assert state.piles[k] == rest[k::6]
        sizes = [len(p) for p in state.piles]
        assert max(sizes) - min(sizes) <= 1


def cards_of(items: list[int]) -> list[int]:
    counts = [0] * NUM_TYPES
    for t in items:
        counts[t] += 1
    return counts


def test_S3_pawns_on_the_towers_and_the_roll_off() -> None:
    for seed in range(20):
        state = new_game(3, seed)
        assert state.pawns == [0, 0, 0]
        rng = np.random.default_rng(seed)
        counts = default_data().counts[3]
        shuffle(rng, [t for t in range(NUM_TYPES) for _ in range(counts[t])])
        contenders = [0, 1, 2]
        while len(contenders) > 1:
            sums = [sum(roll_two(rng)) for _ in contenders]
            contenders = [s for s, v in zip(contenders, sums, strict=True) if v == max(sums)]
        assert state.start_player == state.current == state.actor == contenders[0]
    assert new_game(3, 5, options=RulesOptions(first_player="seat0")).current == 0


def test_S4_a_dealt_machine_is_laid_before_the_first_turn() -> None:
    for seed in range(20000):
        state = new_game(4, seed)
        laid = [s for s in range(4) if state.laid_fm[s] >= 0 or state.laid_cb[s] >= 0]
        if laid:
            seat = laid[0]
            assert state.hand_size(seat) == 3
            assert state.phase_name == "roll"
            return
    pytest.fail("no seed dealt a complete machine")


# ---------------------------------------------------------------- hand and discards


def test_H1_discard_only_over_seven() -> None:
    state = table(hands=[SEVEN, SEVEN], pawns=[5, 20], piles=piles_with("FUEL"))
    act(state, "roll", (1, 1))
    act(state, "move cw 2")  # field 7: Scrapyard 1
    act(state, "draw")
    assert state.phase_name == "discard" and state.hand_size(0) == 8
    six = cards("FM1", "FM2", "FM3", "CB1", "CB2", "AS")
    state = table(hands=[six, SEVEN], pawns=[5, 20], piles=piles_with("FUEL"))
    act(state, "roll", (1, 1))
    act(state, "move cw 2")
    act(state, "draw")
    assert state.hand_size(0) == 7 and state.phase_name == "roll" and state.current == 1


def test_H2_discards_take_the_lowest_free_place() -> None:
    state = table(hands=[SEVEN, SEVEN], pawns=[5, 20], piles=piles_with("FUEL"),
                  places={0: "FM4", 2: "CB3"})  # fmt: skip
    act(state, "roll", (1, 1))
    act(state, "move cw 2")
    act(state, "draw")
    act(state, "discard FUEL")
    assert state.places[:4] == [T["FM4"], T["FUEL"], T["CB3"], -1]
    assert state.hands[0] == SEVEN


# ---------------------------------------------------------------- a turn


def test_T1_roll_and_lucky_rolls() -> None:
    state = table(hands=[SEVEN, SEVEN], pawns=[3, 20], piles=piles_with())
    record = act(state, "roll", (2, 3))
    assert record.dice == (2, 3) and state.dice == [2, 3]
    assert "jump towers" not in names(state)
    for dice in ((3, 4), (5, 6), (2, 2)):
        state = table(hands=[SEVEN, SEVEN], pawns=[3, 20], piles=piles_with())
        act(state, "roll", dice)
        assert "jump towers" in names(state), dice


def test_T2_lucky_choices() -> None:
    piles = piles_with()
    piles[2] = []  # Scrapyard 3 empty: no jump there
    state = table(hands=[SEVEN, SEVEN], pawns=[7, 7], piles=piles)
    act(state, "roll", (3, 4))
    legal = names(state)
    assert {"jump towers", "jump scrapyard 2", "jump scrapyard 4", "draw", "challenge +1"} <= set(
        legal
    )
    assert "jump scrapyard 3" not in legal and "jump scrapyard 1" not in legal  # empty, own field
    act(state, "draw")  # stay and draw again
    assert state.pawns[0] == 7


def test_T2_russian_lucky_rolls_need_a_scrapyard_start() -> None:
    state = table(
        hands=[SEVEN, SEVEN], pawns=[3, 20], piles=piles_with(), lucky_rolls="from_scrapyard"
    )
    act(state, "roll", (3, 4))
    legal = names(state)
    assert "jump towers" in legal
    assert not [n for n in legal if n.startswith("jump scrapyard")]
    state = table(
        hands=[SEVEN, SEVEN], pawns=[7, 20], piles=piles_with(), lucky_rolls="from_scrapyard"
    )
    act(state, "roll", (3, 4))
    assert "jump scrapyard 2" in names(state) and "draw" in names(state)


def test_M1_stops_exact_or_on_white_fields() -> None:
    state = table(hands=[SEVEN, SEVEN], pawns=[0, 20], piles=piles_with())
    act(state, "roll", (3, 5))
    assert names(state) == ["move cw 7", "move cw 8", "move ccw 7", "move ccw 8"]
    state = table(hands=[SEVEN, SEVEN], pawns=[0, 20], piles=piles_with(), white_field_exact=True)
    act(state, "roll", (3, 5))
    assert names(state) == ["move cw 8", "move ccw 8"]


def test_M2_two_pawns_per_field_the_towers_excepted() -> None:
    state = table(4, hands=[SEVEN] * 4, pawns=[0, 8, 8, 0], piles=piles_with())
    act(state, "roll", (3, 5))
    assert "move cw 8" not in names(state) and "move ccw 8" in names(state)
    state = table(4, hands=[SEVEN] * 4, pawns=[7, 0, 0, 0], piles=piles_with())
    act(state, "roll", (3, 4))
    assert "move ccw 7" in names(state)  # the Towers hold any number
    with pytest.raises(IllegalActionError, match=r"not among the legal actions"):
        state2 = table(4, hands=[SEVEN] * 4, pawns=[0, 8, 8, 0], piles=piles_with())
        act(state2, "roll", (3, 5))
        act(state2, "move cw 8")


def test_T3_what_a_stop_allows() -> None:
    # a Scrapyard with cards: draw (not optional) or challenge the opponent there
    state = table(hands=[SEVEN, SEVEN], pawns=[5, 7], piles=piles_with())
    act(state, "roll", (1, 1))
    act(state, "move cw 2")
    assert names(state) == ["draw", "challenge +1"]
    # an empty Scrapyard with an opponent: challenge or pass
    piles = piles_with()
    piles[0] = []
    state = table(hands=[SEVEN, SEVEN], pawns=[5, 7], piles=piles)
    act(state, "roll", (1, 1))
    act(state, "move cw 2")
    assert names(state) == ["pass", "challenge +1"]
    # an empty Scrapyard alone: the turn ends
    state = table(hands=[SEVEN, SEVEN], pawns=[5, 20], piles=piles)
    act(state, "roll", (1, 1))
    act(state, "move cw 2")
    assert state.current == 1
    # a track field by exact count with an opponent
    state = table(hands=[SEVEN, SEVEN], pawns=[1, 4], piles=piles_with())
    act(state, "roll", (1, 2))
    act(state, "move cw 3")
    assert names(state) == ["pass", "challenge +1"]
    # the Towers: seek (if a place holds a card) or pass
    state = table(hands=[SEVEN, SEVEN], pawns=[3, 20], piles=piles_with(), places={0: "FUEL"})
    act(state, "roll", (1, 2))
    act(state, "move ccw 3")
    legal = names(state)
    assert "pass" in legal and "seek FUEL" in legal and "seek FM1" in legal
    assert "seek FM4" not in legal and "seek SCRAP" not in legal
    state = table(hands=[SEVEN, SEVEN], pawns=[3, 20], piles=piles_with())
    act(state, "roll", (1, 2))
    act(state, "move ccw 3")
    assert state.current == 1  # no discards: nothing to do


# ---------------------------------------------------------------- challenges


def challenge(hands: list[list[int]], **options: object) -> object:
    state = table(hands=hands, pawns=[5, 7], piles=piles_with(), **options)  # type: ignore[arg-type]
    act(state, "roll", (1, 1))
    act(state, "move cw 2")
    act(state, "challenge +1")
    return state


def test_C1_naming_needs_a_shown_card_except_fuel_and_power() -> None:
    state = challenge([cards("FM1", "CB2", "SCRAP"), SEVEN])
    assert names(state) == ["demand FM1", "demand CB2", "demand FUEL", "demand POWER"]
    act(state, "demand CB2")
    assert state.known[1][0][T["CB2"]] == 1  # shown to the opponent only
    state = challenge([cards("FM1"), SEVEN])
    act(state, "demand FUEL")
    assert state.known[1][0][T["FUEL"]] == 0


def test_C2_the_opponent_gives_or_palms_off_scrap() -> None:
    state = challenge([cards("FM1", "CB2"), cards("CB2", "FM3")])
    act(state, "demand CB2")  # forced gift
    assert state.hands[0][T["CB2"]] == 2 and state.hands[1][T["CB2"]] == 0
    assert state.current == 1 and state.phase_name == "roll"
    state = challenge([cards("FM1", "CB2"), cards("CB2", "SCRAP")])
    act(state, "demand CB2")
    assert state.actor == 1 and names(state) == ["give CB2", "give SCRAP"]
    act(state, "give SCRAP")
    assert state.removed_scrap == 1 and state.hands[0] == cards("FM1", "CB2")
    state = challenge([cards("FM1", "CB2"), cards("CB2", "SCRAP")], scrap_to="discards")
    act(state, "demand CB2")
    act(state, "give SCRAP")
    assert state.removed_scrap == 0 and state.places[0] == T["SCRAP"]


def test_C2_over_the_limit_the_challenger_gives_a_card_back() -> None:
    state = challenge([SEVEN, cards("FM1", "FUEL")])
    act(state, "demand FUEL")
    assert state.actor == 0 and state.phase_name == "give back"
    act(state, "give SCRAP")
    assert state.hand_size(0) == 7 and state.hands[1] == cards("FM1", "SCRAP")
    assert state.places.count(-1) == len(state.places)  # not to the discards


def test_C3_the_opponent_may_challenge_back_once() -> None:
    state = challenge([cards("FM1", "FUEL"), cards("CB2", "AS")])
    act(state, "demand FM1")  # opponent has none
    assert state.actor == 1 and state.phase_name == "counter"
    assert names(state) == ["pass", "demand CB2", "demand AS", "demand FUEL", "demand POWER"]
    act(state, "demand FUEL")
    assert state.hands[1][T["FUEL"]] == 1 and state.current == 1 and state.phase_name == "roll"
    state = challenge([cards("FM1"), cards("CB2")])
    act(state, "demand FM1")
    act(state, "demand POWER")  # the challenger has none: no further swap
    assert state.phase_name == "roll" and state.current == 1


def test_C4_a_challenge_between_two_others_stays_private() -> None:
    state = table(3, hands=[cards("FM1", "CB2"), cards("CB2", "SCRAP"), SEVEN],
                  pawns=[5, 7, 30], piles=piles_with())  # fmt: skip
    act(state, "roll", (1, 1))
    act(state, "move cw 2")
    act(state, "challenge +1")
    act(state, "demand CB2")
    third = state.view(2)
    assert third.challenge[2] == -1
    assert state.view(1).challenge[2] == T["CB2"]
    other = state.clone()
    other.hands[1] = cards("FM1", "SCRAP")  # differs only in what seat 2 cannot see
    other.piles[0][-1] = T["CB2"]
    other.challenge[2] = T["FM1"]
    assert third.to_dict() == other.view(2).to_dict()


# ---------------------------------------------------------------- picking up discards


def at_towers(hand: list[int], places: dict[int, str]) -> object:
    state = table(hands=[hand, SEVEN], pawns=[3, 20], piles=piles_with(), places=places)
    act(state, "roll", (1, 2))
    act(state, "move ccw 3")
    return state


def test_R1_seek_shows_the_type_to_all_and_turns_a_place() -> None:
    state = table(3, hands=[cards("CB1", "FM2"), SEVEN, SEVEN], pawns=[3, 20, 30],
                  piles=piles_with(), places={0: "CB1", 4: "FM2"})  # fmt: skip
    act(state, "roll", (1, 2))
    act(state, "move ccw 3")
    act(state, "seek CB1")
    assert state.known[1][0][T["CB1"]] == 1 and state.known[2][0][T["CB1"]] == 1
    assert names(state) == ["turn place 0", "turn place 4"]


def test_R2_the_right_card_goes_to_the_hand() -> None:
    state = at_towers(cards("CB1", "FM2"), {0: "CB1", 4: "FM2"})
    act(state, "seek CB1")
    record = act(state, "turn place 0")
    assert record.turned == T["CB1"] and state.hands[0][T["CB1"]] == 2 and state.places[0] == -1
    assert state.known[1][0][T["CB1"]] == 2
    state = at_towers(SEVEN, {0: "CB1"})
    act(state, "seek CB1")
    act(state, "turn place 0")
    assert state.phase_name == "discard"  # H1
    act(state, "discard FM3")
    assert state.places[0] == T["FM3"]


def test_R3_a_wrong_card_swaps_with_the_shown_one() -> None:
    state = at_towers(cards("CB1", "FM2"), {0: "CB1", 4: "FM2"})
    act(state, "seek FM2")
    act(state, "turn place 0")
    assert state.hands[0] == cards("CB1", "CB1") and state.places[0] == T["FM2"]
    assert state.current == 1
    state = at_towers(SEVEN, {0: "CB1"})
    act(state, "seek FUEL")  # nothing shown: the card is picked up (H1 follows)
    act(state, "turn place 0")
    assert state.hands[0][T["CB1"]] == 2 and state.phase_name == "discard"


# ---------------------------------------------------------------- when the piles are empty


def empty() -> list[list[int]]:
    return [[] for _ in range(6)]


def test_F1_every_pawn_heads_for_the_towers() -> None:
    state = table(hands=[SEVEN, SEVEN], pawns=[7, 20], piles=empty(), places={0: "FUEL"})
    act(state, "roll", (3, 4))
    legal = names(state)
    assert "jump towers" in legal and "draw" not in legal
    assert not [n for n in legal if n.startswith(("jump scrapyard", "challenge"))]
    act(state, "jump towers")
    assert "seek FUEL" in names(state)


def test_F2_rolls_on_the_towers() -> None:
    def roll(dice: tuple[int, int]) -> list[str]:
        state = table(hands=[SEVEN, SEVEN], pawns=[0, 0], piles=empty(), places={0: "FUEL"})
        act(state, "roll", dice)
        return names(state) if state.current == 0 else []

    assert roll((2, 3)) == ["pass", "seek FM1", "seek FM2", "seek FM3", "seek CB1", "seek CB2",
                             "seek AS", "seek FUEL", "seek POWER"]  # fmt: skip
    assert "challenge +1" in roll((3, 4)) and "seek FUEL" in roll((3, 4))
    assert "challenge +1" in roll((4, 4)) and "seek FUEL" in roll((4, 4))
    assert roll((1, 3)) == []  # the turn is lost


# ---------------------------------------------------------------- laying down and winning


def test_W1_a_complete_machine_is_laid_at_once_one_of_each() -> None:
    state = challenge([cards("FM1", "FM1", "FM1", "CB2"), cards("FM1", "FM3")])
    record = act(state, "demand FM1")
    assert record.laid == ((0, T["FM1"]),) and state.laid_fm[0] == T["FM1"]
    assert state.hands[0] == cards("CB2") and state.known[1][0][T["FM1"]] == 0
    state = challenge([cards("FM2", "FM2", "FM2", "FM2", "FM1", "FM1", "FM1"), cards("FM1")])
    state.laid_fm[0] = T["FM3"]
    act(state, "demand FM1")
    assert state.hands[0][T["FM1"]] == 4 and state.laid_fm[0] == T["FM3"]  # stays in hand


def test_W2_the_two_ways_to_win() -> None:
    state = challenge([cards("FM1"), cards("FUEL")])
    state.laid_fm[0], state.laid_cb[0] = T["FM2"], T["CB1"]
    record = act(state, "demand FUEL")
    assert record.winner == 0 and state.is_terminal()
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.scores == (1.0, 0.0)
    state = challenge([cards("AS", "AS", "AS", "AS", "AS", "AS"), cards("POWER")])
    act(state, "demand POWER")
    assert state.winner == 0
    # a win on another player's turn: the card given back completes the opponent's escape
    state = challenge([SEVEN, cards("FUEL", "CB1")])
    state.hands[0] = cards("FM1", "FM2", "FM3", "FUEL", "CB2", "AS", "SCRAP")
    state.laid_fm[1], state.laid_cb[1] = T["FM4"], T["CB1"]
    state.hands[1] = cards("CB2", "SCRAP")  # no FUEL yet
    state.hands[1][T["SCRAP"]] = 0
    act(state, "demand CB2")
    act(state, "give FUEL")
    assert state.winner == 1


def test_W3_the_turn_limit_ends_drawn() -> None:
    state = new_game(2, 3, options=RulesOptions(max_turns=1))
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[uniform_below(rng, len(legal))])
    outcome = state.outcome()
    assert outcome is not None
    assert state.turn == 2 and (state.winner >= 0 or outcome.winners == ())


# ---------------------------------------------------------------- what a player sees


def test_V1_public_parts_reach_every_view() -> None:
    state = new_game(3, 4)
    view = state.view(1)
    assert view.pawns == state.pawns and [len(p) for p in view.piles] == [
        len(p) for p in state.piles
    ]
    assert [view.hand_size(s) for s in range(3)] == [state.hand_size(s) for s in range(3)]
    assert view.rng is None


def test_V2_own_hand_and_knowledge_only() -> None:
    state = challenge([cards("FM1", "CB2"), cards("CB2", "FM3")])
    act(state, "demand CB2")
    view = state.view(1)
    assert view.hands[1] == state.hands[1]
    assert view.known[1][0][T["CB2"]] == 2  # shown, then given
    assert view.known[0] == [[0] * NUM_TYPES, [0] * NUM_TYPES]


def test_V3_hands_and_piles_are_canonical() -> None:
    state = new_game(4, 9)
    other = state.clone()
    other.hands[2], other.hands[3] = state.hands[3], state.hands[2]
    other.piles = [pile[::-1] for pile in state.piles]
    other.piles[1] = list(state.piles[1])
    top = other.piles[1][-1]
    given = next(t for t in range(NUM_TYPES) if other.hands[1][t] and t != top)
    other.hands[1][given] -= 1
    other.hands[1][top] += 1
    other.piles[1][-1] = given  # a card swapped between a hand and a pile
    assert state.view(0).to_dict() == other.view(0).to_dict()
    with pytest.raises(ViewError):
        state.view(0).apply_action(0)


def test_V4_discard_recall_option() -> None:
    state = table(hands=[SEVEN, SEVEN], places={0: "FUEL", 1: "CB1"})
    assert state.view(1).places[:2] == [T["FUEL"], T["CB1"]]
    state = table(hands=[SEVEN, SEVEN], places={0: "FUEL", 1: "CB1"}, discard_recall="none")
    other = state.clone()
    other.places[0], other.places[1] = T["CB1"], T["FUEL"]
    assert state.view(1).to_dict() == other.view(1).to_dict()
    assert state.view(1).places[0] >= 0  # occupied stays visible


def test_K1_knowledge_rises_on_seen_gains_and_shows() -> None:
    state = at_towers(cards("CB1"), {0: "FM2"})
    act(state, "seek CB1")
    act(state, "turn place 0")  # wrong: FM2 to the hand in view of all, CB1 to the place
    assert state.known[1][0][T["FM2"]] == 1 and state.known[1][0][T["CB1"]] == 0


def test_K2_an_unseen_loss_lowers_every_count() -> None:
    state = table(3, hands=[cards("FM1", "CB2"), cards("CB2", "FM3"), SEVEN],
                  pawns=[5, 7, 30], piles=piles_with())  # fmt: skip
    state.known[2][1] = cards("CB2", "FM3")
    act(state, "roll", (1, 1))
    act(state, "move cw 2")
    act(state, "challenge +1")
    act(state, "demand CB2")
    assert state.known[2][1] == [0] * NUM_TYPES  # seat 2 did not see which card left


# ---------------------------------------------------------------- chance


def test_N1_uniform_below_is_rejection_sampling() -> None:
    rng, raw = np.random.default_rng(3), np.random.default_rng(3)
    for bound in (1, 2, 6, 36, 1000):
        value = uniform_below(rng, bound)
        if bound > 1:
            limit = (2**64 // bound) * bound
            draw = int(raw.bit_generator.random_raw())
            while draw >= limit:
                draw = int(raw.bit_generator.random_raw())
            assert value == draw % bound


def test_N2_shuffle_is_fisher_yates() -> None:
    rng, again = np.random.default_rng(5), np.random.default_rng(5)
    items = shuffle(rng, list(range(10)))
    expected = list(range(10))
    for i in range(9, 0, -1):
        j = uniform_below(again, i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert items == expected


def test_N3_two_dice_from_one_draw() -> None:
    rng, again = np.random.default_rng(8), np.random.default_rng(8)
    for _ in range(50):
        dice = roll_two(rng)
        value = uniform_below(again, 36)
        assert dice == (1 + value % 6, 1 + value // 6)


def test_N4_forced_dice_draw_nothing() -> None:
    state = new_game(2, 1)
    assert state.rng is not None
    before = state.rng.bit_generator.state
    state.apply_action(0, dice=(3, 3))
    assert state.rng.bit_generator.state == before
    state.apply_action(state.legal_actions()[0])
    if state.phase_name == "roll":
        state.apply_action(0)
        assert state.rng.bit_generator.state != before


# ---------------------------------------------------------------- worked examples


def test_X1_hand_of_seven_draws_and_discards() -> None:
    state = table(hands=[SEVEN, SEVEN], pawns=[5, 20], piles=piles_with("POWER"))
    act(state, "roll", (1, 1))
    act(state, "move cw 2")
    record = act(state, "draw")
    assert record.drawn == T["POWER"]
    assert "discard POWER" in names(state) and len(names(state)) == 8
    act(state, "discard CB1")
    assert state.hand_size(0) == 7 and state.places[0] == T["CB1"]
    assert all(state.known[1][0][t] == 0 for t in range(NUM_TYPES))


def test_X2_after_laying_down_no_discards_until_over_seven() -> None:
    hand = cards("FM1", "FM1", "FM1", "CB1", "CB2", "AS", "SCRAP")
    state = table(hands=[hand, SEVEN], pawns=[5, 20], piles=piles_with("FM1"))
    act(state, "roll", (1, 1))
    act(state, "move cw 2")
    record = act(state, "draw")
    assert record.laid == ((0, T["FM1"]),) and state.hand_size(0) == 4
    assert state.phase_name == "roll" and state.current == 1


def test_X3_scrap_metal_answers_a_challenge() -> None:
    state = challenge([cards("CB2", "FM1"), cards("CB2", "SCRAP", "FUEL")])
    act(state, "demand CB2")
    record = act(state, "give SCRAP")
    assert record.given == T["SCRAP"] and state.removed_scrap == 1
    assert state.hands[0] == cards("CB2", "FM1") and state.current == 1


def test_X4_endgame_rolls_at_the_towers() -> None:
    state = table(hands=[SEVEN, SEVEN], pawns=[0, 0], piles=empty(), places={0: "FUEL"})
    act(state, "roll", (4, 4))
    assert "seek FUEL" in names(state) and "challenge +1" in names(state)
    state = table(hands=[SEVEN, SEVEN], pawns=[0, 0], piles=empty(), places={0: "FUEL"})
    act(state, "roll", (1, 3))
    assert state.current == 1 and state.phase_name == "roll"


# ---------------------------------------------------------------- errors


def test_illegal_action_names_the_action_and_the_legal_ones() -> None:
    state = new_game(2, 0)
    with pytest.raises(IllegalActionError) as info:
        state.apply_action(action_from_name("draw"))
    assert "33" in str(info.value) and "0 (roll)" in str(info.value)
    assert isinstance(info.value, ValueError)
    with pytest.raises(IllegalActionError):
        state.apply_action(True)  # type: ignore[arg-type]


def test_K3_determinization_keeps_the_known_cards_in_their_hand() -> None:
    state = challenge([cards("FM1", "CB2"), cards("CB2", "FM3", "AS", "AS")])
    act(state, "demand CB2")  # seat 1 now knows seat 0 holds two CB2
    view = state.view(1)
    for draw in range(20):
        world = view.determinize(np.random.default_rng(draw))
        assert world.hands[0][T["CB2"]] >= 2
        assert world.hands[1] == state.hands[1]


def test_W2_a_win_with_an_eighth_card_comes_before_the_discard() -> None:
    hand = cards("AS", "AS", "AS", "AS", "AS", "POWER", "FM1")
    state = table(hands=[hand, SEVEN], pawns=[5, 20], piles=piles_with("AS"))
    act(state, "roll", (1, 1))
    act(state, "move cw 2")
    record = act(state, "draw")
    assert record.winner == 0 and state.is_terminal() and state.hand_size(0) == 8
