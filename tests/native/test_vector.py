"""AirshipsVecEnv: a Stable-Baselines3 VecEnv over the batch API, usable by MaskablePPO as is."""

from __future__ import annotations

import numpy as np
import pytest

from airships_env.engine import NUM_ACTIONS, ActionSpaceError
from airships_env.policy import Decision, RandomPolicy
from airships_env.vector import AirshipsVecEnv


class FirstLegal:
    """An external policy with a batched forward."""

    name = "first-legal"

    def __init__(self) -> None:
        self.batches: list[int] = []

    def reset(self, seat: int, num_players: int, rng: np.random.Generator) -> None:
        """Nothing to keep."""

    def act(self, decision: Decision) -> int:
        """The lowest legal action."""
        return min(decision.legal_actions)

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The lowest legal action of each row, all at once."""
        self.batches.append(len(observations))
        return masks.argmax(axis=1).astype(np.int32)


def test_maskable_ppo_learns_on_it_without_subprocesses() -> None:
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    env = AirshipsVecEnv(8, 2, "heuristic", seed=1)
    assert is_masking_supported(env)
    obs = env.reset()
    assert obs.shape == (8, env.observation_space.shape[0])
    masks = get_action_masks(env)
    assert masks.shape == (8, NUM_ACTIONS) and masks.dtype == bool and masks.any(axis=1).all()
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=64, n_epochs=1, seed=0)
    model.learn(512)
    assert model.num_timesteps >= 512


def test_steps_rewards_and_infos() -> None:
    env = AirshipsVecEnv(6, 3, ["greedy", "random"], seed=2, reward="win")
    obs = env.reset()
    ended = 0
    for _ in range(400):
        masks = env.action_masks()
        actions = masks.argmax(axis=1)
        obs, rewards, dones, infos = env.step(actions)
        assert obs.shape[0] == 6 and rewards.dtype == np.float32
        for i in np.flatnonzero(dones):
            ended += 1
            info = infos[i]
            assert info["terminal_observation"].shape == obs[i].shape
            assert rewards[i] == (
                1 / len(info["winners"]) if info["seat"] in info["winners"] else -1
            )
            assert not info["TimeLimit.truncated"]
        assert not rewards[~dones].any()
    assert ended > 0


def test_external_policies_are_batched_and_any_policy_plays() -> None:
    batched = FirstLegal()
    env = AirshipsVecEnv(
        5, 4, ["heuristic", batched, RandomPolicy(np.random.default_rng(0))], seed=3
    )
    env.reset()
    for _ in range(60):
        env.step(env.action_masks().argmax(axis=1))
        assert (env.batch.controller == 0).all()  # every game waits on its learner again
    assert batched.batches and max(batched.batches) > 1


def test_queued_opponents_take_their_seats_at_the_next_episode() -> None:
    env = AirshipsVecEnv(4, 2, "random", seed=4)
    env.reset()
    env.queue_opponents([0, 2], "heuristic")
    switched = set()
    for _ in range(500):
        _obs, _rewards, dones, _infos = env.step(env.action_masks().argmax(axis=1))
        for i in np.flatnonzero(dones):
            controllers = env.batch.seat_controllers(int(i))
            expected = 3 if i in (0, 2) else 1
            assert controllers[1 - env.batch.learner[i]] == expected
            switched.add(int(i))
    assert {0, 2} <= switched


def test_bad_opponents_are_refused() -> None:
    with pytest.raises(ValueError, match="the core plays"):
        AirshipsVecEnv(2, 2, "mcts")
    with pytest.raises(ValueError, match="one per other seat"):
        AirshipsVecEnv(2, 4, ["random", "random"])
    with pytest.raises(TypeError, match="Policy"):
        AirshipsVecEnv(2, 2, [42])  # type: ignore[list-item]


def test_wide_actions_are_refused_not_wrapped() -> None:
    """2**32 + a legal action used to wrap to that action in the int32 buffer (issue 27)."""
    from airships_env.engine import IllegalActionError

    env = AirshipsVecEnv(3, 2, "random", seed=5)
    env.reset()
    wrapped = env.action_masks().argmax(axis=1).astype(np.int64) + 2**32
    with pytest.raises(IllegalActionError, match=r"'game 0'.*no action has index"):
        env.step(wrapped)
    env.step(env.action_masks().argmax(axis=1))  # int64 in range: played


@pytest.mark.parametrize("bad", [np.float32("nan"), 2.0, 83, -1], ids=["nan", "float", "83", "-1"])
def test_a_value_outside_the_action_space_raises_and_changes_nothing(bad) -> None:
    """Issue 27 item 11: never cast to an action (3.7 -> 3, NaN -> a huge negative), never
    left alone (-1): the VecEnv names the game and its legal actions."""
    env = AirshipsVecEnv(3, 2, "random", seed=4)
    obs = env.reset()
    actions = np.asarray(env.action_masks().argmax(axis=1), dtype=np.asarray(bad).dtype)
    actions[1] = bad
    first_bad = 1 if isinstance(bad, int) else 0  # a float array is no action anywhere
    expected = f"in phase 'game {first_bad}': (an action is an integer index|no action has index)"
    with pytest.raises(ActionSpaceError, match=expected):
        env.step(actions)
    np.testing.assert_array_equal(env.batch.obs, obs)
    env.step(env.action_masks().argmax(axis=1))  # still playable


def test_an_external_policy_returning_floats_is_refused() -> None:
    class Floats(FirstLegal):
        def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
            return masks.argmax(axis=1).astype(np.float64) + 0.5

    with pytest.raises(ActionSpaceError, match="integer index"):
        AirshipsVecEnv(2, 2, Floats(), seed=0).reset()
