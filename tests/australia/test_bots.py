"""The Australia bots: legal play at every table, choices that depend only on the seat's view,
and greedy taking the score that is there now."""

from __future__ import annotations

import numpy as np
import pytest

from agents.bots.australia import GreedyBot, HeuristicBot
from airships_env.games.australia import GAME
from airships_env.games.australia.engine import action_from_name
from airships_env.policy import Decision
from tests.australia.helpers import LOCATION, REGION, face_up, hand, put, random_kind_action, table


@pytest.mark.parametrize(
    ("bot_class", "num_players", "full"),
    [(GreedyBot, 2, False), (GreedyBot, 3, True), (GreedyBot, 5, False), (HeuristicBot, 4, True)],
)
def test_the_bots_play_legal_games_to_the_end(
    bot_class: type[GreedyBot], num_players: int, full: bool
) -> None:
    state = GAME.new_state(num_players, seed=num_players, options={"full_game": full})
    bot = bot_class()
    bot.reset(0, num_players, np.random.default_rng(1))
    others = np.random.default_rng(2)
    while not state.is_terminal():
        legal = state.legal_actions()
        if state.current_player == 0:
            action = bot.act(Decision.for_game(GAME, state))
            assert action in legal
        else:
            action = random_kind_action(legal, others)
        state.apply_action(action)
    assert state.outcome() is not None


@pytest.mark.parametrize("bot_class", [GreedyBot, HeuristicBot])
def test_the_bots_take_the_project_they_can_complete_now(bot_class: type[GreedyBot]) -> None:
    state = table(2)
    face_up(state, "outback", 4)
    put(state, "camp05", 1, 2)
    state.hands[0] = hand(("3+1", "red"), ("3+1", "red"))
    state.plane[0] = REGION["outback"]
    state.apply_action(action_from_name("play 3+1 red"))
    bot = bot_class()
    bot.reset(0, 2, np.random.default_rng(0))
    action = bot.act(Decision.for_game(GAME, state))
    name = GAME.action_name(action)
    assert name.startswith("place 2 at location")  # 3 + 2 VP now, more than 2 VP for none
    assert int(name.split()[-1]) in {LOCATION[c] for c in ("camp02", "camp07", "camp13", "camp21")}


@pytest.mark.parametrize("bot_class", [GreedyBot, HeuristicBot])
def test_the_bots_decide_on_what_their_seat_sees_only(bot_class: type[GreedyBot]) -> None:
    rng = np.random.default_rng(3)
    state = GAME.new_state(3, seed=3)
    for _ in range(40):
        state.apply_action(random_kind_action(state.legal_actions(), rng))
    seat = state.current_player
    twin = state.view(seat).determinize(np.random.default_rng(9))
    assert twin.to_dict() != state.to_dict()
    choices = []
    for world in (state, twin):
        bot = bot_class()
        bot.reset(seat, 3, np.random.default_rng(5))
        choices.append(bot.act(Decision.for_game(GAME, world)))
    assert choices[0] == choices[1]


def test_kind_random_plays_every_kind_and_ends_games_by_e1() -> None:
    from agents.bots.australia import KindRandomBot

    state = GAME.new_state(4, seed=4)
    bots = [KindRandomBot() for _ in range(4)]
    for seat, bot in enumerate(bots):
        bot.reset(seat, 4, np.random.default_rng(seat))
    kinds = set()
    while not state.is_terminal():
        action = bots[state.current_player].act(Decision.for_game(GAME, state))
        kinds.add(GAME.action_name(action).split()[0])
        state.apply_action(action)
    assert state.end_triggered == 1
    assert {"fly", "play", "place", "draw", "take"} <= kinds
