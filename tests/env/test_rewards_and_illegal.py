"""Rewards (the win split, the score difference, who receives them) and illegal actions."""

from __future__ import annotations

import numpy as np
import pytest

from airships_env import env, raw_env
from airships_env.aec import game_rewards
from airships_env.engine import (
    ACTION_NAMES,
    NUM_ACTIONS,
    ActionSpaceError,
    IllegalActionError,
    new_game,
)
from tests.env.helpers import random_legal


def _finished(num_players: int, seed: int):
    state = new_game(num_players, seed=seed)
    rng = np.random.default_rng(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    return state


# -- the reward function -----------------------------------------------------------------------
def test_win_reward_single_and_shared() -> None:
    """E3: +1 for a sole winner, -1 for everybody else; k sharing winners get 1/k each."""
    state = _finished(4, seed=1)
    state.winners = (2,)
    assert game_rewards(state, "win") == [-1.0, -1.0, 1.0, -1.0]
    state.winners = (0, 3)
    assert game_rewards(state, "win") == [0.5, -1.0, -1.0, 0.5]
    state.winners = (0, 1, 2, 3)
    assert game_rewards(state, "win") == [0.25] * 4
    assert sum(r for r in game_rewards(state, "win") if r > 0) == 1.0


def test_score_reward_is_the_difference_to_the_best_opponent() -> None:
    state = _finished(3, seed=2)
    state.final_scores = (10, 25, 18)
    assert game_rewards(state, "score") == pytest.approx([-15 / 20, 7 / 20, -7 / 20])


def test_rewards_need_a_finished_game() -> None:
    with pytest.raises(ValueError, match="not over"):
        game_rewards(new_game(2, seed=0))
    with pytest.raises(ValueError, match="reward"):
        game_rewards(_finished(2, seed=0), "points")


@pytest.mark.parametrize("reward", ["win", "score"])
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_every_agent_receives_its_own_reward(reward: str, num_players: int) -> None:
    """The final rewards reach every agent through last(), acting or not when the game ends."""
    environment = env(num_players=num_players, reward=reward)
    environment.reset(seed=num_players)
    rng = np.random.default_rng(num_players)
    received: dict[str, float] = {}
    ender = None
    for agent in environment.agent_iter():
        observation, cumulative, terminated, truncated, _info = environment.last()
        if terminated or truncated:
            received[agent] = cumulative
            environment.step(None)
            continue
        assert cumulative == 0  # nothing before the end
        environment.step(random_legal(observation["action_mask"], rng))
        if environment.unwrapped.game.is_terminal() and ender is None:
            ender = agent
    game = environment.unwrapped.game
    expected = game_rewards(game, reward)
    assert received == {f"player_{seat}": expected[seat] for seat in range(num_players)}
    assert ender is not None and any(r != 0 for a, r in received.items() if a != ender)


def test_final_infos_name_scores_and_winners() -> None:
    environment = env(num_players=2)
    environment.reset(seed=7)
    rng = np.random.default_rng(7)
    while not environment.unwrapped.game.is_terminal():
        observation, *_ = environment.last()
        environment.step(random_legal(observation["action_mask"], rng))
    game = environment.unwrapped.game
    info = environment.infos["player_1"]
    assert info["final_scores"] == {
        "player_0": game.final_scores[0],
        "player_1": game.final_scores[1],
    }
    assert info["winners"] == [f"player_{seat}" for seat in game.winners]
    assert not info["action_mask"].any()


# -- illegal actions -----------------------------------------------------------------------------
def test_illegal_action_raises_with_the_legal_actions_listed() -> None:
    environment = env(num_players=2, illegal_action="raise")
    environment.reset(seed=3)
    observation, *_ = environment.last()
    legal = np.flatnonzero(observation["action_mask"]).tolist()
    illegal = next(a for a in range(NUM_ACTIONS) if a not in legal)
    with pytest.raises(IllegalActionError) as error:
        environment.step(illegal)
    message = str(error.value)
    assert f"illegal action {illegal}" in message and "Legal actions:" in message
    assert all(ACTION_NAMES[a] in message for a in legal)
    assert error.value.legal == legal
    with pytest.raises(IllegalActionError, match="no action has index 99"):
        environment.step(99)  # out of range: the same clear error, not an assertion
    # Nothing happened: the same agent still acts with the same mask.
    again, *_ = environment.last()
    np.testing.assert_array_equal(again["action_mask"], observation["action_mask"])
    assert environment.unwrapped.game.step == 0


@pytest.mark.parametrize("bad_action", [0, np.int64(0)])
def test_illegal_action_penalized_ends_the_game(bad_action: object) -> None:
    """Like PettingZoo's TerminateIllegalWrapper: -1 for the offender, 0 for the others, and
    the error recorded in the offender's infos."""
    environment = env(num_players=3, illegal_action="penalize")
    environment.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(5):
        observation, *_ = environment.last()
        environment.step(random_legal(observation["action_mask"], rng))
    observation, *_ = environment.last()
    offender = environment.agent_selection
    if observation["action_mask"][0]:
        bad_action = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    step_before = environment.unwrapped.game.step
    environment.step(bad_action)
    assert environment.unwrapped.game.step == step_before  # the engine refused it
    assert all(environment.terminations.values())
    assert environment.rewards == {
        a: (-1.0 if a == offender else 0.0) for a in environment.possible_agents
    }
    record = environment.infos[offender]["illegal_action"]
    assert record["legal"] == np.flatnonzero(observation["action_mask"]).tolist()
    assert "illegal action" in record["message"] and "Legal actions:" in record["message"]
    received = {}
    for agent in environment.agent_iter():
        _obs, cumulative, terminated, _truncated, _info = environment.last()
        assert terminated
        received[agent] = cumulative
        environment.step(None)
    assert received[offender] == -1.0
    assert all(r == 0.0 for a, r in received.items() if a != offender)


@pytest.mark.parametrize("mode", ["penalize", "raise"])
@pytest.mark.parametrize(
    "not_an_action", [99, -1, None, 2.5, np.float32("nan"), "3", np.array([3])]
)
def test_a_value_outside_the_action_space_raises_in_every_mode(
    mode: str, not_an_action: object
) -> None:
    """Issue 27 item 11: no action at all is a bug in the caller, never a -1 that looks like a
    lost game; nothing changes and the same agent still acts."""
    environment = env(num_players=3, illegal_action=mode)
    environment.reset(seed=4)
    observation, *_ = environment.last()
    agent = environment.agent_selection
    with pytest.raises(ActionSpaceError) as error:
        environment.step(not_an_action)
    assert "Legal actions:" in str(error.value)
    assert error.value.legal == np.flatnonzero(observation["action_mask"]).tolist()
    assert environment.agent_selection == agent and not any(environment.terminations.values())
    assert environment.unwrapped.game.step == 0
    again, *_ = environment.last()
    np.testing.assert_array_equal(again["action_mask"], observation["action_mask"])


def test_raw_env_defaults_to_raise() -> None:
    environment = raw_env(num_players=2)
    environment.reset(seed=0)
    with pytest.raises(IllegalActionError):
        environment.step(56)  # END_TURN is not legal while choosing a target
