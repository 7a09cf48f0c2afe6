"""One test per rule id of docs/australia/RULES.md, on hand-built states; X1-X4 at the end."""

from __future__ import annotations

import numpy as np
import pytest

from airships_env.games.australia.engine import (
    IllegalActionError,
    RulesOptions,
    State,
    ViewError,
    action_from_name,
    new_game,
)
from airships_env.games.australia.engine.chance import shuffle, uniform_below
from airships_env.games.australia.engine.data import BACK_DOLLARS, NUM_BACKS, NUM_COLOURS
from airships_env.games.australia.engine.rules import windmill_ranking
from airships_env.games.australia.engine.state import ACTION, DRAW, OVER, PLACE, SETUP_DRAW
from tests.australia.helpers import (
    DATA,
    LOCATION,
    REGION,
    act,
    card,
    face_up,
    hand,
    names,
    put,
    table,
)

# ---------------------------------------------------------------- setup


def test_S1_players_rangers_and_the_first_seat() -> None:
    for n, rangers in ((2, 20), (3, 14), (4, 11), (5, 10)):
        state = new_game(n, 1)
        assert state.supply == [rangers] * n
        assert state.vp == [0] * n and state.plane == [-1] * n
        assert state.current == 0
    for n in (1, 6):
        with pytest.raises(ValueError, match="2 to 5 players"):
            new_game(n, 1)


def test_S2_one_face_down_tile_and_one_conservation_tile_per_region() -> None:
    state = new_game(3, 2)
    assert sorted(state.tile_value) == sorted(DATA.tile_list())
    assert state.tile_up == [0] * 24 and state.conservation == [1] * 24


def test_S3_nine_cards_per_stack_the_rest_set_aside() -> None:
    for stack_cards in (9, 8):
        state = new_game(2, 3, options=RulesOptions(stack_cards=stack_cards))
        for back in range(NUM_BACKS):
            assert len(state.stacks[back]) == stack_cards
            held = sorted(state.stacks[back] + state.set_aside[back])
            assert held == [c for c in range(NUM_COLOURS) for _ in range(DATA.cards[back][c])]
    with pytest.raises(ValueError, match="stack_cards"):
        new_game(2, 3, options=RulesOptions(stack_cards=11))


def test_S4_each_seat_takes_two_cards_in_turn_from_stacks_of_its_choice() -> None:
    state = new_game(3, 4)
    order = []
    backs = ["4+0", "1+3", "2+2", "1+3", "3+1", "4+0"]
    for back in backs:
        assert state.phase == SETUP_DRAW
        order.append(state.current)
        top = state.stacks[("4+0", "3+1", "2+2", "1+3").index(back)][-1]
        record = act(state, f"draw {back}")
        assert record.drawn == top
    assert order == [0, 1, 2, 0, 1, 2]
    assert [state.hand_size(s) for s in range(3)] == [2, 2, 2]
    assert state.phase == ACTION and state.current == 0 and state.actions_left == 2


def test_S5_no_starting_money() -> None:
    assert table(4).dollars == [0, 0, 0, 0]


def test_S6_full_game_seat_0_places_the_windmill_at_value_2() -> None:
    state = new_game(2, 5, options=RulesOptions(full_game=True))
    for _ in range(4):
        state.apply_action(state.legal_actions()[0])
    assert state.phase_name == "windmill" and state.current == 0
    assert len(state.legal_actions()) == 24
    act(state, f"windmill region {REGION['outback']}")
    assert state.windmill_region == REGION["outback"] and state.windmill_value == 2
    assert state.phase == ACTION and state.current == 0
    assert table(2).windmill_region == -1  # the simple game has none


# ---------------------------------------------------------------- a turn


def test_T1_two_actions_the_same_one_twice_allowed() -> None:
    state = table(2)
    act(state, "fly region 3")
    assert state.current == 0 and state.actions_left == 1
    act(state, "fly region 4")
    assert state.current == 1 and state.actions_left == 2


def test_T2_a_move_after_the_second_action_then_end_turn() -> None:
    state = table(2)
    put(state, "camp01", 0, 1)
    state.dollars[0] = 4
    act(state, "fly region 3")
    act(state, "fly region 4")
    assert state.current == 0 and state.actions_left == 0
    assert "end turn" in names(state)
    assert all(n.startswith("move ranger from") or n == "end turn" for n in names(state))
    act(state, "end turn")
    assert state.current == 1
    # Without $4 the turn ends by itself.
    state = table(2)
    put(state, "camp01", 0, 1)
    state.dollars[0] = 3
    act(state, "fly region 3")
    act(state, "fly region 4")
    assert state.current == 1


def test_T3_turns_go_in_seat_order_and_rounds_start_at_seat_0() -> None:
    state = table(3)
    seen = []
    for _ in range(7):
        seen.append((state.round, state.current))
        act(state, f"fly region {1 + state.plane[state.current] % 20}")
        act(state, f"fly region {2 + state.plane[state.current] % 20}")
    assert seen == [(1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2), (3, 0)]


# ---------------------------------------------------------------- actions


def test_A1_fly_anywhere_else_and_turn_the_tile_up() -> None:
    state = table(2)
    assert len([n for n in names(state) if n.startswith("fly")]) == 24
    target = REGION["pilbara"]
    record = act(state, f"fly region {target}")
    assert state.plane[0] == target and state.tile_up[target] == 1
    assert record.revealed == state.tile_value[target]
    assert f"fly region {target}" not in names(state)
    record = act(state, "fly region 0")
    act(state, f"fly region {target}")  # seat 1 may share the region
    assert state.plane[1] == target


def test_A2_play_a_card_of_the_regions_colour_take_dollars_or_score_2() -> None:
    state = table(2)
    state.hands[0] = hand(("2+2", "red"), ("3+1", "green"))
    act(state, f"fly region {REGION['red_centre']}")
    assert "play 2+2 red" in names(state) and "play 3+1 green" not in names(state)
    act(state, "play 2+2 red")
    assert state.dollars[0] == BACK_DOLLARS[2] and state.phase == PLACE
    assert state.played[card("2+2", "red")] == 1 and state.hand_size(0) == 1
    act(state, "no rangers (2 VP)")
    assert state.vp[0] == 2 and state.supply[0] == 20
    assert table(2).plane[0] == -1 and not any(n.startswith("play") for n in names(table(2)))


def test_A3_one_location_empty_or_own_at_most_the_cards_rangers() -> None:
    state = table(2)
    state.hands[0] = hand(("3+1", "red"), ("3+1", "red"))
    put(state, "camp04", 1, 1)
    put(state, "camp06", 0, 1)
    act(state, f"fly region {REGION['red_centre']}")
    act(state, "play 3+1 red")
    legal = names(state)
    assert f"place 3 at location {LOCATION['camp06']}" in legal  # own
    assert f"place 1 at location {LOCATION['camp01']}" in legal  # empty
    assert not any(n.endswith(f"location {LOCATION['camp04']}") for n in legal)  # black's
    assert f"place 4 at location {LOCATION['camp01']}" not in legal  # the card says 3
    state.supply[0] = 2
    assert f"place 3 at location {LOCATION['camp01']}" not in names(state)  # the supply
    act(state, f"place 2 at location {LOCATION['camp06']}")
    assert state.rangers[LOCATION["camp06"]][0] == 3 and state.supply[0] == 0


def test_A4_the_top_card_of_a_stack_of_choice_at_once_none_when_all_empty() -> None:
    state = table(2)
    state.hands[0] = hand(("1+3", "red"), ("1+3", "red"))
    state.plane[0] = REGION["red_centre"]
    act(state, "play 1+3 red")
    act(state, "no rangers (2 VP)")
    assert state.phase == DRAW and state.current == 0
    state.stacks[1] = []
    assert names(state) == ["draw 4+0", "draw 2+2", "draw 1+3"]
    top = state.stacks[3][-1]
    record = act(state, "draw 1+3")
    assert record.drawn == top and state.hands[0][3 * NUM_COLOURS + top] >= 1
    state.stacks = [[], [], [], []]
    act(state, "play 1+3 red")
    act(state, "no rangers (2 VP)")
    assert state.current == 1  # no draw: the action and the turn are over


def test_A5_take_back_up_to_four_in_one_action() -> None:
    state = table(2)
    put(state, "camp01", 0, 3)
    put(state, "camp04", 0, 3)
    act(state, f"fly region {REGION['red_centre']}")
    act(state, f"take back at location {LOCATION['camp01']}")
    assert state.phase_name == "take back" and "done taking back" in names(state)
    for _ in range(3):
        act(state, f"take back at location {LOCATION['camp04']}")
    assert state.current == 1  # the fourth ended the action, the second of the turn
    assert state.supply[0] == 20 - 6 + 4
    state = table(2)
    put(state, "camp01", 0, 3)
    act(state, f"fly region {REGION['red_centre']}")
    act(state, f"take back at location {LOCATION['camp01']}")
    act(state, "done taking back")
    assert state.current == 1 and state.rangers[LOCATION["camp01"]][0] == 2


def test_A6_the_player_to_act_always_has_a_legal_action() -> None:
    from tests.australia.helpers import random_kind_action

    for seed in range(3):
        state = table(5, seed=seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal
            if state.phase == ACTION and state.actions_left:
                assert any(n.startswith("fly") for n in names(state))
            state.apply_action(random_kind_action(legal, rng))


# ---------------------------------------------------------------- dollars


def test_D1_pay_3_to_play_a_card_of_another_colour() -> None:
    state = table(2)
    state.hands[0] = hand(("4+0", "green"), ("4+0", "red"))
    act(state, f"fly region {REGION['red_centre']}")
    assert "play 4+0 green paying $3" not in names(state)
    state.dollars[0] = 3
    assert "play 4+0 green paying $3" in names(state)
    assert "play 4+0 red paying $3" not in names(state)  # the colour matches: no need
    act(state, "play 4+0 green paying $3")
    assert state.dollars[0] == 0
    assert all(
        n.startswith("place")
        and DATA.locations[int(n.split()[-1])].id
        in {DATA.locations[i].id for i in DATA.region_locations[REGION["red_centre"]]}
        for n in names(state)
        if n.startswith("place")
    )
    anywhere = table(2, recolour_anywhere=True)
    anywhere.hands[0] = hand(("4+0", "green"), ("4+0", "red"))
    anywhere.dollars[0] = 3
    assert "play 4+0 green paying $3" in names(anywhere)  # no plane needed
    act(anywhere, "play 4+0 green paying $3")
    assert len([n for n in names(anywhere) if n.startswith("place 1 ")]) == DATA.num_locations


def test_D2_pay_4_to_move_one_ranger_to_an_empty_or_own_location() -> None:
    state = table(2)
    put(state, "camp01", 0, 2)
    put(state, "camp02", 1, 1)
    state.dollars[0] = 5
    act(state, f"move ranger from location {LOCATION['camp01']}")
    assert state.dollars[0] == 1 and state.phase_name == "move to"
    legal = names(state)
    assert f"move ranger to location {LOCATION['camp02']}" not in legal
    assert f"move ranger to location {LOCATION['camp01']}" not in legal
    act(state, f"move ranger to location {LOCATION['ship01']}")
    assert state.rangers[LOCATION["ship01"]][0] == 1 and state.rangers[LOCATION["camp01"]][0] == 1
    assert state.actions_left == 2 and state.phase == ACTION  # not an action
    # The move completes a project: the mover is the initiator.
    state = table(2)
    put(state, "camp06", 1, 1)
    put(state, "camp01", 0, 1)
    state.dollars[0] = 4
    act(state, f"move ranger from location {LOCATION['camp01']}")
    record = act(state, f"move ranger to location {LOCATION['camp20']}")
    assert [(s.kind, s.region) for s in record.scorings] == [("conservation", REGION["goldfields"])]
    assert record.scorings[0].points == (3 + 1, 1)


def test_D3_dollars_are_never_spent_below_zero() -> None:
    state = table(2)
    state.hands[0] = hand(("4+0", "green"), ("4+0", "green"))
    put(state, "camp01", 0, 1)
    state.dollars[0] = 2
    act(state, f"fly region {REGION['red_centre']}")
    assert not any("paying" in n or n.startswith("move") for n in names(state))
    with pytest.raises(IllegalActionError):
        act(state, "play 4+0 green paying $3")
    assert state.dollars[0] == 2


# ---------------------------------------------------------------- projects


def test_P1_conservation_when_every_location_is_occupied() -> None:
    state = table(2)
    state.hands[0] = hand(("1+3", "green"), ("1+3", "green"))
    put(state, "camp06", 1, 1)
    act(state, f"fly region {REGION['goldfields']}")
    record = act(state, "play 1+3 green")
    assert record.scorings == ()
    record = act(state, f"place 1 at location {LOCATION['camp20']}")
    assert [s.kind for s in record.scorings] == ["conservation"]
    assert state.conservation[REGION["goldfields"]] == 0
    # Once the tile is gone the region never scores conservation again.
    state.phase, state.actions_left = ACTION, 2
    state.current = 0
    state.hands[0] = hand(("1+3", "green"))
    act(state, "play 1+3 green")
    record = act(state, f"place 1 at location {LOCATION['camp20']}")
    assert all(s.kind != "conservation" for s in record.scorings)


def test_P2_industrialization_on_exactly_the_face_up_value() -> None:
    state = table(2)
    state.hands[0] = hand(("3+1", "red"), ("3+1", "red"))
    region = REGION["red_centre"]
    act(state, f"fly region {region}")
    state.tile_value[region] = 5
    put(state, "camp01", 1, 4)
    act(state, "play 3+1 red")
    record = act(state, f"place 2 at location {LOCATION['camp04']}")
    assert record.scorings == ()  # 6, not 5
    state.current, state.phase, state.actions_left = 0, ACTION, 2
    state.tile_value[region] = 7
    state.hands[0] = hand(("3+1", "red"))
    act(state, "play 3+1 red")
    record = act(state, f"place 1 at location {LOCATION['camp04']}")
    assert [(s.kind, s.value) for s in record.scorings] == [("industrialization", 7)]
    assert state.tile_value[region] == 0
    # A face-down tile never scores.
    state = table(2)
    state.tile_value[REGION["goldfields"]] = 1 + 3
    put(state, "camp06", 1, 3)
    state.hands[0] = hand(("1+3", "green"), ("1+3", "green"))
    state.plane[0] = REGION["goldfields"]
    act(state, "play 1+3 green")
    record = act(state, f"place 1 at location {LOCATION['camp20']}")
    assert [s.kind for s in record.scorings] == ["conservation"]


def test_P3_3_to_the_initiator_1_per_ranger_2_on_ships_rangers_stay() -> None:
    state = table(3)
    put(state, "ship02", 1, 2)
    put(state, "ship03", 2, 1)
    put(state, "ship04", 0, 1)
    state.hands[0] = hand(("4+0", "blue"), ("4+0", "blue"))
    act(state, f"fly region {REGION['coral_sea']}")
    act(state, "play 4+0 blue")
    record = act(state, f"place 3 at location {LOCATION['ship05']}")
    scoring = record.scorings[0]
    assert scoring.kind == "conservation" and scoring.initiator == 0
    assert scoring.points == (3 + 2 * 4, 2 * 2, 2 * 1)
    assert state.vp == [11, 4, 2]
    assert state.rangers[LOCATION["ship05"]][0] == 3


def test_P4_after_the_whole_action_plane_region_first_conservation_first() -> None:
    state = table(2)
    # A take-back that passes through the value scores nothing; its end is what counts.
    region = REGION["red_centre"]
    face_up(state, "red_centre", 5)
    put(state, "camp01", 0, 4)
    put(state, "camp04", 0, 2)
    state.plane[0] = region
    act(state, f"take back at location {LOCATION['camp01']}")  # 5 now: not checked yet
    record = act(state, f"take back at location {LOCATION['camp01']}")
    assert record.scorings == ()
    record = act(state, "done taking back")
    assert record.scorings == () and state.tile_value[region] == 5
    # One placement completing two regions: the plane's region first.
    state = table(2)
    put(state, "camp14", 1, 1)  # flinders ranges' other camp
    put(state, "camp05", 1, 1)
    put(state, "camp15", 1, 1)
    put(state, "camp21", 1, 1)
    face_up(state, "mallee", 4)  # 3 now, 4 after the placement
    state.hands[0] = hand(("1+3", "yellow"), ("1+3", "yellow"))
    state.plane[0] = REGION["mallee"]
    act(state, "play 1+3 yellow")
    record = act(state, f"place 1 at location {LOCATION['camp07']}")
    assert [(s.kind, s.region) for s in record.scorings] == [
        ("conservation", REGION["mallee"]),
        ("industrialization", REGION["mallee"]),
        ("conservation", REGION["flinders_ranges"]),
    ]


def test_P5_a_fly_turning_up_a_matching_tile_scores_for_the_flyer() -> None:
    state = table(2)
    region = REGION["goldfields"]
    state.tile_value[region] = 4
    put(state, "camp06", 1, 4)
    record = act(state, f"fly region {region}")
    assert record.revealed == 4
    assert [(s.kind, s.initiator, s.points) for s in record.scorings] == [
        ("industrialization", 0, (3, 4))
    ]


# ---------------------------------------------------------------- the end


def _empty_stacks_last_card(state: State) -> None:
    state.stacks = [[], [], [], []]
    state.hands[0] = hand(("1+3", "red"))
    state.hands[1] = hand(("1+3", "red"), ("1+3", "red"))
    state.plane[0] = REGION["red_centre"]


def test_E1_the_round_ends_after_a_last_card_with_the_stacks_empty() -> None:
    state = table(3)
    _empty_stacks_last_card(state)
    act(state, "play 1+3 red")
    act(state, "no rangers (2 VP)")
    assert state.end_triggered == 1 and state.phase == ACTION
    act(state, "fly region 1")
    for _ in range(2):  # seats 1 and 2 finish the round
        assert not state.is_terminal()
        act(state, "fly region 5")
        record = act(state, "fly region 6")
    assert state.is_terminal() and record.game_over
    assert state.outcome() is not None


def test_E2_full_game_a_final_windmill_scoring() -> None:
    state = table(2, full_game=True)
    state.ranger_track = [1, 0, 1]
    state.supply[0] -= 1
    state.supply[1] -= 2
    state.windmill_value = 7
    state.tile_up = [1] * 24  # no fly below turns up a windmill tile (W2)
    state.end_triggered = 1
    state.current = 1
    act(state, "fly region 1")
    record = act(state, "fly region 2")
    assert record.game_over and [s.kind for s in record.scorings] == ["windmill"]
    assert record.scorings[0].points == (3, 7)


def test_E3_dollars_count_a_tie_goes_to_the_most_dollars_then_shared() -> None:
    state = table(3)
    state.phase = OVER
    state.vp, state.dollars = [10, 12, 5], [5, 3, 8]
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.scores == (15.0, 15.0, 13.0) and outcome.winners == (0,)
    assert outcome.ranks == (1, 2, 3)
    state.vp, state.dollars = [10, 10, 0], [5, 5, 0]
    assert state.outcome().winners == (0, 1)  # type: ignore[union-attr]


def test_E4_the_round_limit_ends_a_game_no_one_ends() -> None:
    state = table(2, max_rounds=2)
    for _ in range(4):
        act(state, f"fly region {(state.plane[state.current] + 1) % 24}")
        act(state, f"fly region {(state.plane[state.current] + 1) % 24}")
    assert state.is_terminal() and state.round == 2


# ---------------------------------------------------------------- the windmill


def test_W1_neighbours_share_a_location() -> None:
    red_centre = REGION["red_centre"]
    assert set(DATA.neighbours[red_centre]) == {
        REGION[name]
        for name in ("kimberley", "top_end", "pilbara", "simpson_desert", "goldfields",
                     "nullarbor")
    }  # fmt: skip
    assert REGION["indian_ocean"] in DATA.neighbours[REGION["timor_sea"]]


def test_W2_a_windmill_tile_moves_the_windmill_and_raises_its_value() -> None:
    state = table(2, full_game=True)
    region = REGION["outback"]
    state.tile_value[region] = 6
    record = act(state, f"fly region {region}")
    assert record.windmill_to == region and state.windmill_region == region
    assert state.windmill_value == 3
    state.windmill_value = 12
    state.tile_value[REGION["riverina"]] = 7
    act(state, f"fly region {REGION['riverina']}")
    assert state.windmill_value == 12  # at most 12
    state = table(2, full_game=True)
    state.tile_value[region] = 8
    act(state, f"fly region {region}")
    assert state.windmill_region == 0  # S6's choice in the helper: region 0


def test_W3_rangers_to_the_ranger_track_near_the_windmill() -> None:
    state = table(2, full_game=True)  # windmill on region 0 (Kimberley)
    state.hands[0] = hand(("4+0", "grey"), ("4+0", "grey"))
    act(state, f"fly region {REGION['pilbara']}")  # a neighbour of Kimberley
    act(state, "play 4+0 grey")
    assert "ranger track 4" in names(state)
    state.ranger_track = [1] * (DATA.ranger_areas - 2)
    assert "ranger track 2" in names(state) and "ranger track 3" not in names(state)
    state.ranger_track = []
    act(state, "ranger track 3")
    assert state.ranger_track == [0, 0, 0] and state.supply[0] == 17
    legal = names(state)
    assert "stop placing" in legal and "no rangers (2 VP)" not in legal
    assert f"place 2 at location {LOCATION['camp01']}" not in legal  # 1 left
    act(state, f"place 1 at location {LOCATION['camp01']}")
    assert state.phase == DRAW
    far = table(2, full_game=True)
    far.hands[0] = hand(("4+0", "grey"), ("4+0", "grey"))
    far.tile_up = [1] * 24
    act(far, f"fly region {REGION['riverina']}")
    act(far, "play 4+0 grey")
    assert not any(n.startswith("ranger track") for n in names(far))


def test_W4_every_scored_tile_goes_to_the_windmill_track() -> None:
    state = table(2, full_game=True)
    region = REGION["goldfields"]
    state.tile_value[region] = 2
    state.tile_up[region] = 1
    put(state, "camp06", 1, 1)
    state.hands[0] = hand(("1+3", "green"), ("1+3", "green"))
    state.plane[0] = region
    act(state, "play 1+3 green")
    act(state, f"place 1 at location {LOCATION['camp20']}")
    assert state.windmill_track == [0, 2]  # conservation (0), then the tile of value 2


def test_W5_the_windmill_scores_when_its_track_is_full() -> None:
    state = table(3, full_game=True)
    state.windmill_value = 9
    state.windmill_track = [5] * (DATA.tile_areas - 1)
    state.ranger_track = [2, 0, 0, 2, 1]
    for seat in (2, 0, 0, 2, 1):
        state.supply[seat] -= 1
    assert windmill_ranking(state) == [2, 0, 1]  # 2 and 0 tie at 2; seat 2 is higher
    put(state, "camp06", 1, 1)
    state.hands[0] = hand(("1+3", "green"), ("1+3", "green"))
    state.plane[0] = REGION["goldfields"]
    act(state, "play 1+3 green")
    record = act(state, f"place 1 at location {LOCATION['camp20']}")
    assert [s.kind for s in record.scorings] == ["conservation", "windmill"]
    assert record.scorings[1].points == (4, 2, 9)
    assert state.windmill_track == [] and state.ranger_track == [0, 2, 1]


def test_W6_no_ranger_on_the_track_no_windmill_points() -> None:
    state = table(4, full_game=True)
    state.ranger_track = [3]
    state.supply[3] -= 1
    state.windmill_value = 8
    state.tile_up = [1] * 24
    state.end_triggered = 1
    state.current = 3
    act(state, "fly region 1")
    record = act(state, "fly region 2")
    assert record.scorings[-1].points == (0, 0, 0, 8)


# ---------------------------------------------------------------- what a player sees


def test_V1_public_parts_are_in_every_view() -> None:
    state = table(3, seed=9)
    act(state, f"fly region {REGION['kimberley']}")
    seen = state.view(1)
    for name in ("rangers", "plane", "vp", "dollars", "supply", "tile_up", "played"):
        assert getattr(seen, name) == getattr(state, name)
    assert [len(s) for s in seen.stacks] == [len(s) for s in state.stacks]
    for seat in range(3):
        for back in range(NUM_BACKS):
            cut = slice(back * NUM_COLOURS, (back + 1) * NUM_COLOURS)
            assert sum(seen.hands[seat][cut]) == sum(state.hands[seat][cut])
    region = REGION["kimberley"]
    assert seen.tile_value[region] == state.tile_value[region]  # face up: public


def test_V2_a_seat_sees_its_own_colours_only() -> None:
    state = table(3, seed=9)
    first = state.view(0)
    assert first.hands[0] == state.hands[0]
    twin = state.clone()
    for seat in (1, 2):
        backs = [sum(state.hands[seat][b * 6 : b * 6 + 6]) for b in range(NUM_BACKS)]
        twin.hands[seat] = [0] * 24
        for back, count in enumerate(backs):
            twin.hands[seat][back * 6 + (seat % 6)] = count
    # Put the colours that left the hands into the stacks so the card pool stays the same.
    for back in range(NUM_BACKS):
        pool = sorted(
            state.stacks[back]
            + state.set_aside[back]
            + [c for s in (1, 2) for c in range(6) for _ in range(state.hands[s][back * 6 + c])]
        )
        for s in (1, 2):
            for c in range(6):
                for _ in range(twin.hands[s][back * 6 + c]):
                    pool.remove(c)
        twin.stacks[back] = pool[: len(state.stacks[back])]
        twin.set_aside[back] = pool[len(state.stacks[back]) :]
    assert twin.view(0).to_dict() == first.to_dict()


def test_V3_face_down_tiles_and_stack_order_are_hidden_from_everyone() -> None:
    state = table(2, seed=10)
    twin = state.clone()
    twin.tile_value = list(reversed(twin.tile_value))
    twin.stacks = [list(reversed(s)) for s in twin.stacks]
    twin.set_aside = [list(reversed(s)) for s in twin.set_aside]
    for seat in (0, 1):
        assert state.view(seat).to_dict() == twin.view(seat).to_dict()
    assert state.view(0).rng is None


def test_V4_a_view_is_canonical_and_refuses_to_advance() -> None:
    state = table(2, seed=11)
    seen = state.view(0)
    assert seen.view_seat == 0
    assert all(s == sorted(s) for s in seen.set_aside)
    with pytest.raises(ViewError):
        seen.apply_action(seen.legal_actions()[0])
    with pytest.raises(ValueError):
        seen.view(1)


def test_V5_determinize_deals_what_the_view_hides_and_keeps_the_rest() -> None:
    state = table(4, seed=12)
    act(state, "fly region 5")
    seen = state.view(0)
    world = seen.determinize(np.random.default_rng(1))
    assert world.view(0).to_dict() == seen.to_dict()
    assert world.hands[0] == state.hands[0] and world.rng is not None
    world.apply_action(world.legal_actions()[0])
    worlds = {str(seen.determinize(np.random.default_rng(k)).stacks) for k in range(5)}
    assert len(worlds) > 1


# ---------------------------------------------------------------- chance


def test_N1_one_uniform_draw_and_fisher_yates() -> None:
    rng = np.random.default_rng(5)
    values = [uniform_below(rng, 6) for _ in range(6000)]
    counts = np.bincount(values, minlength=6)
    assert counts.min() > 850 and counts.max() < 1150
    assert uniform_below(rng, 1) == 0
    a = shuffle(np.random.default_rng(3), list(range(10)))
    assert a == shuffle(np.random.default_rng(3), list(range(10))) and sorted(a) == list(range(10))


def test_N2_N3_the_setup_follows_the_chance_order() -> None:
    state = new_game(2, 21)
    rng = np.random.default_rng(21)
    assert state.tile_value == shuffle(rng, DATA.tile_list())
    for back in range(NUM_BACKS):
        cards = shuffle(rng, [c for c in range(6) for _ in range(DATA.cards[back][c])])
        assert state.stacks[back] == cards[-9:] and state.set_aside[back] == cards[:-9]


# ---------------------------------------------------------------- worked examples


def test_X1_conservation_of_a_sea_black_9_white_2_blue_4() -> None:
    state = table(3)  # seat 0 white, 1 black, 2 blue
    put(state, "ship01", 0, 1)
    put(state, "ship08", 2, 2)
    state.current = 1
    state.hands[1] = hand(("3+1", "blue"), ("4+0", "blue"))
    state.tile_value[REGION["indian_ocean"]] = 9
    act(state, f"fly region {REGION['indian_ocean']}")
    act(state, "play 3+1 blue")
    record = act(state, f"place 3 at location {LOCATION['ship09']}")
    assert [(s.kind, s.region) for s in record.scorings] == [
        ("conservation", REGION["indian_ocean"])
    ]
    assert record.scorings[0].points == (2, 9, 4)
    assert state.conservation[REGION["indian_ocean"]] == 0


def test_X2_industrialization_white_5_black_2() -> None:
    state = table(2)  # seat 0 white, 1 black
    face_up(state, "outback", 4)
    put(state, "camp05", 1, 2)
    state.hands[0] = hand(("3+1", "red"), ("3+1", "red"))
    state.plane[0] = REGION["outback"]
    act(state, "play 3+1 red")
    record = act(state, f"place 2 at location {LOCATION['camp13']}")
    assert [(s.kind, s.points) for s in record.scorings] == [("industrialization", (5, 2))]
    assert state.tile_value[REGION["outback"]] == 0


def test_X3_one_placement_three_scorings_in_sequence() -> None:
    state = table(2)  # black = seat 0 here
    yellow, neighbour = REGION["gippsland"], REGION["blue_mountains"]
    # Gippsland's other camp, and Blue Mountains' other camps, are occupied.
    put(state, "camp22", 1, 1)
    put(state, "camp03", 1, 2)
    put(state, "camp24", 1, 1)
    face_up(state, "blue_mountains", 6)  # 4 now, 6 after black's 2
    state.hands[0] = hand(("2+2", "yellow"), ("2+2", "yellow"))
    act(state, f"fly region {yellow}")
    act(state, "play 2+2 yellow")
    record = act(state, f"place 2 at location {LOCATION['camp08']}")
    assert [(s.kind, s.region) for s in record.scorings] == [
        ("conservation", yellow),
        ("conservation", neighbour),
        ("industrialization", neighbour),
    ]
    assert [s.initiator for s in record.scorings] == [0, 0, 0]


def test_X4_windmill_five_rangers_top_two_home_three_move_up() -> None:
    state = table(3, full_game=True)
    state.ranger_track = [0, 1, 2, 1, 0]
    for seat in state.ranger_track:
        state.supply[seat] -= 1
    supply = list(state.supply)
    state.windmill_track = [0] * (DATA.tile_areas - 1)
    put(state, "camp06", 1, 1)
    state.hands[0] = hand(("1+3", "green"), ("1+3", "green"))
    state.plane[0] = REGION["goldfields"]
    act(state, "play 1+3 green")
    act(state, f"place 1 at location {LOCATION['camp20']}")
    assert state.ranger_track == [2, 1, 0]
    assert state.supply[0] == supply[0] - 1 + 1 and state.supply[1] == supply[1] - 1 + 1


def test_an_illegal_action_names_the_action_and_the_legal_ones() -> None:
    state = table(2)
    with pytest.raises(IllegalActionError) as caught:
        state.apply_action(action_from_name("play 4+0 blue"))
    message = str(caught.value)
    assert "illegal action 24" in message and "fly region 1" in message
    assert "phase 'action'" in message
