"""The Clockwork bots: legal, deterministic, reading only their seat's view."""

from __future__ import annotations

import numpy as np
import pytest

from agents.bots.clockwork import GreedyBot, HeuristicBot
from airships_env.games.clockwork import GAME
from airships_env.games.clockwork.engine import actions as A
from airships_env.policy import Decision, RandomPolicy


def play(seats: list, seed: int, checks: object = None) -> int:  # type: ignore[type-arg]
    state = GAME.new_state(len(seats), seed)
    for seat, agent in enumerate(seats):
        agent.reset(seat, len(seats), np.random.default_rng([seed, seat]))
    while not state.is_terminal():
        decision = Decision.for_game(GAME, state)
        action = seats[state.current_player].act(decision)
        assert action in decision.legal_actions
        if callable(checks):
            checks(state, decision, action)
        state.apply_action(action)
    return int(state.winner)


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_bots_play_legal_games(num_players: int) -> None:
    for seed in range(4):
        seats = [GreedyBot(), HeuristicBot(), RandomPolicy(), GreedyBot()][:num_players]
        play(seats, seed)


def test_greedy_never_challenges_blindly() -> None:
    def checks(state: object, decision: Decision, action: int) -> None:
        view = decision.view
        if A.CHALLENGE <= action < A.DEMAND:
            other = (decision.seat + action - A.CHALLENGE + 1) % view.num_players
            assert any(view.known[decision.seat][other][t] for t in range(13))

    for seed in range(6):
        play([GreedyBot(), GreedyBot()], seed, checks)


@pytest.mark.parametrize("bot", [GreedyBot, HeuristicBot])
def test_bots_read_only_their_view(bot: type) -> None:
    """A state and a re-deal of what the seat cannot see give the bot the same choice."""
    state = GAME.new_state(3, 12)
    rng = np.random.default_rng(0)
    agents = [bot(), bot(), bot()]
    for seat, agent in enumerate(agents):
        agent.reset(seat, 3, np.random.default_rng(seat))
    compared = 0
    while not state.is_terminal() and compared < 60:
        seat = state.current_player
        decision = Decision.for_game(GAME, state)
        twin = state.view(seat).determinize(rng)
        twin_decision = Decision.for_game(GAME, twin)
        one, other = bot(), bot()
        one.reset(seat, 3, np.random.default_rng(7))
        other.reset(seat, 3, np.random.default_rng(7))
        assert one.act(decision) == other.act(twin_decision)
        compared += 1
        state.apply_action(agents[seat].act(decision))


def test_greedy_beats_random() -> None:
    wins = 0
    for seed in range(10):
        wins += play([GreedyBot(), RandomPolicy()], seed) == 0
        wins += play([RandomPolicy(), GreedyBot()], seed) == 1
    assert wins >= 16
