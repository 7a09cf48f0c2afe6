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


def test_vector_envs_do_not_share_an_opponent() -> None:
    """Each env of the vector plays its own copy of the opponent (an object keeps one game's
    seat and generator): every env's games equal a lone env's with the same seed."""
    from agents.registry import make_agent
    from airships_env.game_single_agent import GameSingleAgentEnv
    from airships_env.game_vector import GameVecEnv

    heuristic = make_agent("heuristic", game="clockwork")
    vec = GameVecEnv(GAME, num_envs=3, seed=7, num_players=3, opponents=heuristic)
    envs = vec.envs
    opponents = [id(o) for env in envs for o in env.unwrapped.opponents]
    assert len(set(opponents)) == len(opponents)
    alone = [
        GameSingleAgentEnv(GAME, num_players=3, opponents=make_agent("heuristic", game="clockwork"))
        for _ in range(3)
    ]
    lone_obs = [env.reset(seed=7 + i)[0] for i, env in enumerate(alone)]
    observations = vec.reset()
    for _ in range(60):
        assert np.array_equal(observations, np.stack(lone_obs))
        masks = vec.action_masks()
        actions = np.array([int(np.flatnonzero(row)[-1]) for row in masks])
        observations, _, _, _ = vec.step(actions)
        for i, env in enumerate(alone):
            lone, _, terminated, truncated, _ = env.step(int(actions[i]))
            if terminated or truncated:
                lone, _ = env.reset()
            lone_obs[i] = lone
