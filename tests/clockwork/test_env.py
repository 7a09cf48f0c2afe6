"""clockwork_v0 / Clockwork-v0 through the protocol's generic environments."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from airships_env.games.clockwork import GAME

pettingzoo_test = pytest.importorskip("pettingzoo.test")
env_checker = pytest.importorskip("gymnasium.utils.env_checker")


@pytest.mark.parametrize("num_players", [2, 4])
def test_pettingzoo_api(num_players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pettingzoo_test.api_test(GAME.env(num_players=num_players), num_cycles=200)


def test_pettingzoo_seed() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pettingzoo_test.seed_test(lambda: GAME.env(num_players=3), num_cycles=100)


def test_gymnasium_single_agent() -> None:
    env = GAME.single_agent_env(num_players=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env_checker.check_env(env)
    observation, _ = env.reset(seed=3)
    assert observation.shape == (GAME.observation_size(2),)
    assert observation.dtype == np.float32


def test_observation_is_the_acting_seats_view() -> None:
    env = GAME.env(num_players=3)
    env.reset(seed=5)
    agent = env.agent_selection
    seat = env.possible_agents.index(agent)
    observation = env.observe(agent)
    state = env.unwrapped.state
    assert np.array_equal(observation["observation"], GAME.observe(state.view(seat), seat))
    mask = observation["action_mask"]
    assert np.flatnonzero(mask).tolist() == state.legal_actions()


def test_vector_env_for_sb3() -> None:
    from airships_env.game_vector import GameVecEnv

    vec = GameVecEnv(GAME, num_envs=2, seed=1, num_players=2)
    observations = vec.reset()
    assert observations.shape == (2, GAME.observation_size(2))
    for _ in range(20):
        masks = vec.action_masks()
        actions = np.array([int(np.flatnonzero(row)[0]) for row in masks])
        observations, _, _, _ = vec.step(actions)
    assert observations.shape == (2, GAME.observation_size(2))
