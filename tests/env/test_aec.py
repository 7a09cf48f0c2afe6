"""The PettingZoo AEC environment: API conformance, agents, seeding, rendering, truncation."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

import airships_env.aec as aec_module
from airships_env import env, raw_env
from airships_env.engine import CHIP_DECISION, EXTRA_TURN, NUM_ACTIONS
from airships_env.observation import observation_size
from tests.env.helpers import play_out, random_legal

PLAYER_COUNTS = (2, 3, 4)


# -- conformance --------------------------------------------------------------------------------
# The API test warns about dict observations unless the env's name is on its list of
# classic envs (connect_four_v3, chess_v6, ...); the dict is what the issue asks for.
DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_pettingzoo_api_test(num_players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(num_players=num_players), num_cycles=1000)
    # Any other warning of the API test is a finding, not noise.
    assert {str(w.message) for w in caught} <= DICT_OBSERVATION_WARNINGS


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_pettingzoo_seed_test(num_players: int) -> None:
    seed_test(lambda: env(num_players=num_players), num_cycles=200)


def test_pettingzoo_render_test(capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda render_mode=None: env(num_players=2, render_mode=render_mode))
    assert capsys.readouterr().out.strip()  # human mode printed the table


def test_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    """ansi returns the text that human prints; rgb_array is a picture of the table."""
    texts = {}
    for mode in ("ansi", "human", "rgb_array"):
        environment = env(num_players=3, render_mode=mode)
        environment.reset(seed=4)
        observation, *_ = environment.last()
        environment.step(int(np.flatnonzero(observation["action_mask"])[0]))
        capsys.readouterr()
        texts[mode] = environment.render()
        if mode == "human":
            assert texts[mode] is None
            printed = capsys.readouterr().out
            assert printed.strip() == texts["ansi"].strip()
        environment.close()
    assert isinstance(texts["ansi"], str) and texts["ansi"]
    picture = texts["rgb_array"]
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    assert picture.std() > 0  # not a blank canvas
    silent = env(num_players=2)
    silent.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert silent.render() is None


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_bombardment(num_players: int) -> None:
    """PettingZoo's bombardment idea (its own test fails on dict observations): many resets,
    random legal play, every observation inside the space, the acting mask never empty."""
    environment = env(num_players=num_players)
    rng = np.random.default_rng(num_players)
    space = environment.observation_space("player_0")
    for cycle in range(15):
        environment.reset(seed=cycle if cycle % 2 else None)
        for _ in range(rng.integers(1, 120)):
            agent = environment.agent_selection
            observation, _reward, terminated, truncated, info = environment.last()
            assert space.contains(observation)
            if terminated or truncated:
                environment.step(None)
                if not environment.agents:
                    break
                continue
            assert observation["action_mask"].any()
            np.testing.assert_array_equal(info["action_mask"], observation["action_mask"])
            other = environment.agents[
                (environment.agents.index(agent) + 1) % len(environment.agents)
            ]
            if other != agent:
                assert not environment.observe(other)["action_mask"].any()
            environment.step(random_legal(observation["action_mask"], rng))


def test_metadata_agents_and_spaces() -> None:
    environment = env(num_players=3)
    assert isinstance(environment, OrderEnforcingWrapper)
    assert environment.metadata["name"] == "airships_v1"
    assert set(environment.metadata["render_modes"]) == {"human", "ansi", "rgb_array"}
    assert "v0" in (aec_module.__doc__ or "") and "Version history" in (aec_module.__doc__ or "")
    environment.reset(seed=1)
    assert environment.possible_agents == ["player_0", "player_1", "player_2"]
    assert environment.agent_selection == "player_0"  # S1: seat 0 starts
    space = environment.observation_space("player_1")
    assert space["observation"].shape == (observation_size(3),)
    assert space["observation"].dtype == np.float32
    assert space["action_mask"].dtype == np.int8
    assert environment.action_space("player_1").n == NUM_ACTIONS
    observation = environment.observe("player_2")
    assert observation["observation"].dtype == np.float32
    assert observation["action_mask"].dtype == np.int8


def test_bad_arguments_are_named() -> None:
    with pytest.raises(ValueError, match="num_players"):
        raw_env(num_players=5)
    with pytest.raises(ValueError, match="reward"):
        raw_env(reward="points")
    with pytest.raises(ValueError, match="illegal_action"):
        raw_env(illegal_action="ignore")
    with pytest.raises(ValueError, match="max_turns"):
        raw_env(max_turns=0)
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="window")


def test_agent_selection_comes_from_the_engine() -> None:
    """T5/T8: a player acts again for its chip decision and its extra-turn decision."""
    environment = env(num_players=4)
    environment.reset(seed=3)
    rng = np.random.default_rng(3)
    seen = set()
    for _ in range(2000):
        game = environment.unwrapped.game
        if game.is_terminal():
            environment.reset()
            continue
        agent = environment.agent_selection
        assert agent == f"player_{game.current_player}"
        if game.phase in (CHIP_DECISION, EXTRA_TURN):
            record = environment.unwrapped.last_record
            assert record is not None and record.player == game.current_player
            seen.add(game.phase)
        observation, *_ = environment.last()
        environment.step(random_legal(observation["action_mask"], rng))
    assert seen == {CHIP_DECISION, EXTRA_TURN}


# -- seeding ------------------------------------------------------------------------------------
def _opening(environment: object, steps: int = 60) -> list[bytes]:
    """Observations along a fixed random-legal line of play from the current reset."""
    rng = np.random.default_rng(0)
    seen = []
    for _ in range(steps):
        observation, _reward, terminated, truncated, _info = environment.last()
        seen.append(observation["observation"].tobytes() + observation["action_mask"].tobytes())
        if terminated or truncated:
            break
        environment.step(random_legal(observation["action_mask"], rng))
    return seen


def test_seeded_games_are_reproducible_and_continue_the_stream() -> None:
    first = env(num_players=3)
    second = env(num_players=3)
    first.reset(seed=123)
    second.reset(seed=123)
    assert _opening(first) == _opening(second)
    first.reset()  # continues the seeded stream: the next game of seed 123
    next_game = _opening(first)
    second.reset(seed=123)
    second.reset()
    assert _opening(second) == next_game
    first.reset(seed=123)
    assert _opening(first) != next_game  # the stream's next game is a different game
    first.reset(seed=124)
    second.reset(seed=123)
    assert _opening(first) != _opening(second)


def test_unseeded_reset_draws_fresh_games() -> None:
    environment = env(num_players=2)
    environment.reset()
    one = _opening(environment, 5)
    environment.reset()
    assert _opening(environment, 5) != one


# -- truncation, pickling, tools ----------------------------------------------------------------
def test_max_turns_truncates_every_agent() -> None:
    environment = env(num_players=3, max_turns=4)
    environment.reset(seed=8)
    rng = np.random.default_rng(8)
    while True:
        observation, _reward, terminated, truncated, info = environment.last()
        if truncated:
            break
        assert not terminated
        environment.step(random_legal(observation["action_mask"], rng))
    game = environment.unwrapped.game
    assert game.turn == 5 and not game.is_terminal()
    assert all(environment.truncations.values())
    assert all(r == 0 for r in environment.rewards.values())
    assert set(info["scores"]) == set(environment.possible_agents)
    while environment.agents:
        environment.step(None)


def test_pickle_continues_the_same_game() -> None:
    environment = raw_env(num_players=2)
    environment.reset(seed=5)
    rng = np.random.default_rng(1)
    for _ in range(30):
        environment.step(
            random_legal(environment.observe(environment.agent_selection)["action_mask"], rng)
        )
    copy = pickle.loads(pickle.dumps(environment))
    for _ in range(30):
        agent = environment.agent_selection
        assert copy.agent_selection == agent
        mine, theirs = environment.observe(agent), copy.observe(agent)
        np.testing.assert_array_equal(mine["observation"], theirs["observation"])
        action = random_legal(mine["action_mask"], rng)
        environment.step(action)
        copy.step(action)


def test_game_and_last_record_are_exposed() -> None:
    environment = env(num_players=2)
    environment.reset(seed=2)
    assert environment.unwrapped.last_record is None
    observation, *_ = environment.last()
    action = int(np.flatnonzero(observation["action_mask"])[0])
    environment.step(action)
    record = environment.unwrapped.last_record
    assert record.action == action and record.step == 0
    assert environment.unwrapped.game.step == 1


def test_a_whole_game_ends_with_every_agent_done() -> None:
    environment = env(num_players=4)
    environment.reset(seed=13)
    steps = play_out(environment, np.random.default_rng(13))
    assert steps > 50 and environment.agents == []


def test_a_negative_seed_says_what_is_allowed() -> None:
    from airships_env import AirshipsSingleAgentEnv

    for environment in (env(num_players=2), AirshipsSingleAgentEnv(num_players=2)):
        with pytest.raises(ValueError, match=r"seed must be a whole number >= 0 or None, got -1"):
            environment.reset(seed=-1)
