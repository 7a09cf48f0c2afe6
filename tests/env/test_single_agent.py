"""The single-agent Gymnasium wrapper: checkers, masks, opponents, rewards, seeding, pickling."""

from __future__ import annotations

import pickle
import warnings

import gymnasium
import numpy as np
import pytest

from airships_env import AirshipsSingleAgentEnv
from airships_env.aec import game_rewards
from airships_env.engine import NUM_ACTIONS, ActionSpaceError, IllegalActionError
from airships_env.policy import Decision, RandomPolicy
from airships_env.single_agent import ENV_ID


def _play_episode(
    environment: AirshipsSingleAgentEnv, rng: np.random.Generator
) -> tuple[float, dict]:
    """Random legal learner actions until the episode ends; the last reward and info."""
    while True:
        legal = np.flatnonzero(environment.action_masks())
        assert legal.size > 0
        _obs, reward, terminated, truncated, info = environment.step(
            int(legal[rng.integers(legal.size)])
        )
        if terminated or truncated:
            return reward, info
        assert reward == 0


# -- conformance ---------------------------------------------------------------------------------
def test_gymnasium_check_env(capsys: pytest.CaptureFixture[str]) -> None:
    """Gymnasium's checker, render modes included (made through the registry for its spec)."""
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gymnasium.make(ENV_ID, num_players=2, render_mode="ansi").unwrapped)
    # The checker steps with action_space.sample(), mostly illegal: that one warning is ours.
    messages = [str(w.message) for w in caught]
    assert [m for m in messages if "penalized" not in m] == [] and len(messages) <= 1
    assert capsys.readouterr().out.strip()  # the human mode printed the table


def test_stable_baselines3_check_env() -> None:
    from stable_baselines3.common.env_checker import check_env

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(AirshipsSingleAgentEnv(num_players=3), warn=True)
    messages = [str(w.message) for w in caught]  # as above: sampled actions may be illegal
    assert [m for m in messages if "penalized" not in m] == [] and len(messages) <= 1


def test_registered_with_gymnasium() -> None:
    environment = gymnasium.make(ENV_ID, num_players=2)
    observation, info = environment.reset(seed=0)
    assert environment.observation_space.contains(observation)
    masks = environment.unwrapped.action_masks()
    assert masks.dtype == bool and masks.any()
    np.testing.assert_array_equal(masks, info["action_mask"].astype(bool))
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    assert is_masking_supported(environment)
    np.testing.assert_array_equal(get_action_masks(environment), masks)
    environment.close()


def test_observation_is_the_learners_flat_vector() -> None:
    environment = AirshipsSingleAgentEnv(num_players=3, seat=2)
    observation, info = environment.reset(seed=1)
    assert info["seat"] == 2 and environment.agent == "player_2"
    game = environment.aec_env.game
    assert game.current_player == 2  # the opponents played seats 0 and 1 first
    expected = environment.aec_env.encoder.encode(game, 2)
    np.testing.assert_array_equal(observation, expected)
    legal = np.zeros(NUM_ACTIONS, dtype=bool)
    legal[game.legal_actions()] = True
    np.testing.assert_array_equal(environment.action_masks(), legal)


# -- rewards ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("reward", ["win", "score"])
def test_learner_gets_its_own_result_when_an_opponent_ends_the_game(reward: str) -> None:
    environment = AirshipsSingleAgentEnv(num_players=3, seat=1, reward=reward)
    rng = np.random.default_rng(2)
    environment.reset(seed=2)
    for _ in range(60):
        final_reward, info = _play_episode(environment, rng)
        game = environment.aec_env.game
        if environment.aec_env.last_record.player != environment.seat:
            assert game.is_terminal()
            assert final_reward == pytest.approx(game_rewards(game, reward)[1])
            assert info["final_scores"] and "winners" in info
            return
        environment.reset()
    pytest.fail("no game ended on an opponent's move")


def test_learner_reward_when_it_ends_the_game_itself() -> None:
    environment = AirshipsSingleAgentEnv(num_players=2, seat=0)
    rng = np.random.default_rng(3)
    environment.reset(seed=3)
    for _ in range(60):
        final_reward, _info = _play_episode(environment, rng)
        game = environment.aec_env.game
        assert final_reward == game_rewards(game, "win")[0]
        if environment.aec_env.last_record.player == 0:
            return
        environment.reset()
    pytest.fail("the learner never ended a game")


def test_illegal_action_modes() -> None:
    environment = AirshipsSingleAgentEnv(num_players=2, seat=0)
    environment.reset(seed=0)
    illegal = int(np.flatnonzero(~environment.action_masks())[0])
    _obs, reward, terminated, truncated, info = environment.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert "Legal actions:" in info["illegal_action"]["message"]
    assert not environment.action_masks().any()
    with pytest.raises(RuntimeError, match="reset"):
        environment.step(0)
    strict = AirshipsSingleAgentEnv(num_players=2, seat=0, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError, match="Legal actions"):
        strict.step(illegal)


def test_max_turns_truncates() -> None:
    environment = AirshipsSingleAgentEnv(num_players=2, seat=0, max_turns=6)
    environment.reset(seed=4)
    reward, info = _play_episode(environment, np.random.default_rng(4))
    assert reward == 0 and "scores" in info
    assert environment.aec_env.truncations["player_0"]


# -- opponents and seeding -----------------------------------------------------------------------
class _Recorder:
    """A policy that records what it is given and plays the first legal action."""

    name = "recorder"

    def __init__(self) -> None:
        self.resets: list[tuple[int, int, np.random.Generator]] = []
        self.decisions: list[Decision] = []

    def reset(self, seat: int, num_players: int, rng: np.random.Generator) -> None:
        self.resets.append((seat, num_players, rng))

    def act(self, decision: Decision) -> int:  # never draws from its generator
        self.decisions.append(decision)
        return decision.legal_actions[0]


def test_opponents_get_their_seats_and_own_generators() -> None:
    first, second = _Recorder(), _Recorder()
    environment = AirshipsSingleAgentEnv(num_players=3, opponents=[first, second], seat=0)
    environment.reset(seed=9)
    _play_episode(environment, np.random.default_rng(9))
    assert first.resets[-1][0] == 1 and second.resets[-1][0] == 2  # play order after the learner
    generator_1, generator_2 = first.resets[-1][2], second.resets[-1][2]
    assert generator_1 is not generator_2
    assert generator_1 is not environment.aec_env.game.rng
    assert first.decisions and all(d.seat == 1 for d in first.decisions)
    assert all(d.view.rng is None for d in first.decisions)  # public views only (V2)
    # The same seed gives every opponent the same generator again; another seed another.
    at_reset = [(seat, rng.bit_generator.state) for seat, _n, rng in second.resets]
    environment.reset(seed=9)
    assert second.resets[-1][2].bit_generator.state == at_reset[-1][1]
    environment.reset(seed=10)
    assert second.resets[-1][2].bit_generator.state != at_reset[-1][1]


def test_opponent_randomness_never_changes_the_game() -> None:
    """Opponents draw from their own generators: how much they draw does not change the deal
    or the dice (the game's generator is never shared)."""

    class Greedy:
        name = "greedy"

        def __init__(self, draws: int) -> None:
            self.draws = draws
            self.rng = np.random.default_rng()

        def reset(self, seat: int, num_players: int, rng: np.random.Generator) -> None:
            self.rng = rng

        def act(self, decision: Decision) -> int:
            self.rng.random(self.draws)
            return decision.legal_actions[-1]

    histories = []
    for draws in (1, 50):
        environment = AirshipsSingleAgentEnv(num_players=2, opponents=[Greedy(draws)], seat=0)
        environment.reset(seed=17)
        steps = []
        for _ in range(40):
            action = int(np.flatnonzero(environment.action_masks())[-1])
            observation, _r, terminated, truncated, _i = environment.step(action)
            steps.append(observation.tobytes())
            if terminated or truncated:
                break
        histories.append(steps)
    assert histories[0] == histories[1]


def test_callable_opponent_and_shared_policy() -> None:
    seen: list[tuple[tuple[int, ...], np.dtype]] = []

    def first_legal(observation: np.ndarray, action_mask: np.ndarray) -> int:
        seen.append((observation.shape, action_mask.dtype))
        return int(np.flatnonzero(action_mask)[0])

    environment = AirshipsSingleAgentEnv(num_players=3, opponents=first_legal, seat=0)
    environment.reset(seed=1)
    while not seen:
        environment.step(int(np.flatnonzero(environment.action_masks())[0]))
    size = environment.observation_space.shape
    assert seen and all(shape == size and dtype == np.int8 for shape, dtype in seen)
    shared = AirshipsSingleAgentEnv(num_players=4, opponents=RandomPolicy())
    assert len({id(p) for p in shared.opponents}) == 3  # a Policy is copied per seat
    with pytest.raises(ValueError, match="expected 2 opponents"):
        AirshipsSingleAgentEnv(num_players=3, opponents=[RandomPolicy()] * 3)
    with pytest.raises(TypeError, match="opponent"):
        AirshipsSingleAgentEnv(num_players=2, opponents=[42])
    with pytest.raises(ValueError, match="seat"):
        AirshipsSingleAgentEnv(num_players=2, seat=2)


def test_seeding_reproduces_and_continues() -> None:
    def openings(environment: AirshipsSingleAgentEnv, seed: int | None) -> list[bytes]:
        observation, info = environment.reset(seed=seed)
        out = [observation.tobytes(), bytes([info["seat"]])]
        rng = np.random.default_rng(0)
        for _ in range(15):
            legal = np.flatnonzero(environment.action_masks())
            observation, _r, terminated, truncated, _i = environment.step(
                int(legal[rng.integers(legal.size)])
            )
            out.append(observation.tobytes())
            if terminated or truncated:
                break
        return out

    one, two = AirshipsSingleAgentEnv(num_players=3), AirshipsSingleAgentEnv(num_players=3)
    assert openings(one, 5) == openings(two, 5)
    assert openings(one, None) == openings(two, None)  # the seeded stream continues alike
    assert openings(one, 5) != openings(one, 6)
    seats = {AirshipsSingleAgentEnv(num_players=4).reset(seed=s)[1]["seat"] for s in range(12)}
    assert len(seats) > 1  # seat="random" draws the learner's seat


def test_pickled_env_continues_identically() -> None:
    environment = AirshipsSingleAgentEnv(num_players=3)
    environment.reset(seed=21)
    rng = np.random.default_rng(21)
    for _ in range(5):
        environment.step(int(np.flatnonzero(environment.action_masks())[0]))
    clone = pickle.loads(pickle.dumps(environment))
    for _ in range(200):
        legal = np.flatnonzero(environment.action_masks())
        if legal.size == 0:
            break
        action = int(legal[rng.integers(legal.size)])
        mine, theirs = environment.step(action), clone.step(action)
        np.testing.assert_array_equal(mine[0], theirs[0])
        assert mine[1:4] == theirs[1:4]


def test_render_modes() -> None:
    environment = AirshipsSingleAgentEnv(num_players=2, render_mode="ansi")
    environment.reset(seed=0)
    assert isinstance(environment.render(), str)
    picture = AirshipsSingleAgentEnv(num_players=2, render_mode="rgb_array")
    picture.reset(seed=0)
    image = picture.render()
    assert image.dtype == np.uint8 and image.shape[2] == 3


@pytest.mark.slow  # starting the worker processes takes ~10 s (they import torch)
def test_subproc_vec_env_smoke() -> None:
    """Two environments in worker processes (the env must pickle), masks from each."""
    from stable_baselines3.common.vec_env import SubprocVecEnv

    vector = SubprocVecEnv([lambda: AirshipsSingleAgentEnv(num_players=2) for _ in range(2)])
    try:
        vector.seed(3)
        observations = vector.reset()
        assert observations.shape == (
            2,
            *AirshipsSingleAgentEnv(num_players=2).observation_space.shape,
        )
        rng = np.random.default_rng(3)
        for _ in range(20):
            masks = np.stack(vector.env_method("action_masks"))
            assert masks.any(axis=1).all()
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            observations, _rewards, _dones, infos = vector.step(actions)
            assert len(infos) == 2
    finally:
        vector.close()


@pytest.mark.slow
def test_maskable_ppo_learns_a_few_steps() -> None:
    """sb3-contrib's MaskablePPO runs on the wrapper (action_masks)."""
    from sb3_contrib import MaskablePPO

    environment = AirshipsSingleAgentEnv(num_players=2)
    model = MaskablePPO(
        "MlpPolicy", environment, n_steps=64, batch_size=32, n_epochs=1, seed=0, device="cpu"
    )
    model.learn(total_timesteps=128)
    observation, _info = environment.reset(seed=0)
    action, _state = model.predict(observation, action_masks=environment.action_masks())
    assert environment.action_masks()[int(action)]


def test_pickled_environment_stays_small_over_1000_games() -> None:
    """Derived values (pools, odds) live in the engine's bounded tables, never in what an
    environment pickles: its size after 1,000 games on its card set is what it was after one."""
    import pickle

    from airships_env.engine import new_game

    environment = AirshipsSingleAgentEnv(num_players=4)
    environment.reset(seed=3)
    cards = environment.aec_env.cards
    rng = np.random.default_rng(0)

    def random_game(seed: int) -> None:
        state = new_game(4, seed=seed, cards=cards)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])

    random_game(0)
    before = len(pickle.dumps(environment))
    for seed in range(1, 1000):
        random_game(seed)
    after = len(pickle.dumps(environment))
    assert after <= before + 256, (before, after)
    assert before < 100_000, before


# -- integer-like actions (issue 14) ---------------------------------------------------------------
@pytest.mark.parametrize(
    "wrap",
    [int, np.int64, np.int32, np.uint8, np.array, lambda a: np.array(a, dtype=np.int16)],
    ids=["int", "np.int64", "np.int32", "np.uint8", "0-d array", "0-d int16 array"],
)
def test_every_integer_like_action_the_space_accepts_is_played(wrap) -> None:
    """MaskablePPO.predict returns a 0-d array: it is the same action as the int."""
    plain = AirshipsSingleAgentEnv(num_players=2, seat=0)
    wrapped = AirshipsSingleAgentEnv(num_players=2, seat=0)
    plain.reset(seed=5)
    wrapped.reset(seed=5)
    rng = np.random.default_rng(5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "illegal action" warning either
        for _ in range(40):
            legal = np.flatnonzero(plain.action_masks())
            action = int(legal[rng.integers(legal.size)])
            assert wrapped.action_space.contains(wrap(action))
            expected = plain.step(action)
            got = wrapped.step(wrap(action))
            np.testing.assert_array_equal(got[0], expected[0])
            assert got[1:4] == expected[1:4] and "illegal_action" not in got[4]
            if expected[2] or expected[3]:
                break


@pytest.mark.parametrize(
    "bad",
    [2.0, np.array([3]), np.array(3.0), "3", np.float32("nan"), 83, -1, np.int64(200), None],
)
def test_what_the_space_refuses_is_an_error_not_a_lost_game(bad) -> None:
    """Issue 27 item 11: in penalize mode too, a value the space does not contain raises (a
    broken policy must not look like one that loses); the episode goes on untouched."""
    environment = AirshipsSingleAgentEnv(num_players=2, seat=0)
    environment.reset(seed=0)
    assert not environment.action_space.contains(bad)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "penalized" warning either
        with pytest.raises(ActionSpaceError, match=r"integer index|no action has index"):
            environment.step(bad)
    legal = int(np.flatnonzero(environment.action_masks())[0])
    *_, info = environment.step(legal)
    assert "illegal_action" not in info


def test_a_penalized_illegal_action_warns_once_per_environment() -> None:
    environment = AirshipsSingleAgentEnv(num_players=2, seat=0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            environment.reset(seed=0)
            illegal = int(np.flatnonzero(~environment.action_masks())[0])
            environment.step(np.int64(illegal))
    messages = [str(w.message) for w in caught if issubclass(w.category, UserWarning)]
    assert len(messages) == 1
    assert f"illegal action {illegal}" in messages[0] and "penalized" in messages[0]


def test_as_action_index() -> None:
    from airships_env.engine import as_action_index

    assert as_action_index(12) == 12 and type(as_action_index(np.array(12))) is int
    assert as_action_index(np.int64(3)) == 3 and as_action_index(np.uint16(4)) == 4
    for bad in (True, np.bool_(True), 1.0, np.float32(1), np.array([1]), np.array(1.0), "1", None):
        assert as_action_index(bad) is None, bad


def test_action_masks_through_gym_make_wrappers() -> None:
    """gym.make wraps the env (OrderEnforcing, PassiveEnvChecker), which forward no other
    attribute: the README's forms reach the masks, and SB3 finds them with get_wrapper_attr."""
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    environment = gymnasium.make(ENV_ID, num_players=2)
    environment.reset(seed=1)
    masks = environment.unwrapped.action_masks()
    assert masks.dtype == bool and masks.any()
    np.testing.assert_array_equal(environment.get_wrapper_attr("action_masks")(), masks)
    assert is_masking_supported(environment)
    np.testing.assert_array_equal(get_action_masks(environment), masks)
