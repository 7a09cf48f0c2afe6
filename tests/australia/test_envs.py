"""Australia through the generic environments: ``australia_v0`` (PettingZoo AEC),
``Australia-v0`` (Gymnasium, one learning seat) and the vector env, masks honoured to the end."""

from __future__ import annotations

import gymnasium as gym
import numpy as np

import airships_env
from airships_env.game_vector import GameVecEnv
from airships_env.games.australia import GAME


def test_the_gymnasium_env_plays_a_game_to_its_end() -> None:
    env = gym.make("Australia-v0", num_players=3)
    obs, info = env.reset(seed=1)
    assert obs.shape == (GAME.observation_size(3),) and env.action_space.n == GAME.num_actions
    rng = np.random.default_rng(0)
    done = False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        done = terminated or truncated
    assert terminated and reward in (-1.0, 0.0, 1.0)


def test_the_aec_env_and_the_vector_env() -> None:
    aec = airships_env.make("australia", num_players=5)
    aec.reset(seed=2)
    assert len(aec.agents) == 5
    for _ in range(30):
        agent = aec.agent_selection
        mask = aec.observe(agent)["action_mask"]
        aec.step(int(np.flatnonzero(mask)[0]))
    vector = GameVecEnv("australia", num_envs=3, seed=0, num_players=2)
    observations = vector.reset()
    assert observations.shape == (3, GAME.observation_size(2))
    for _ in range(20):
        masks = vector.action_masks()
        actions = np.array([int(np.flatnonzero(m)[0]) for m in masks])
        observations, rewards, _, _ = vector.step(actions)
        assert rewards.shape == (3,)
    assert observations.shape == (3, GAME.observation_size(2))
