"""Hinted policies (agents/hint.py): a bot's choice as the policy's input, from training to play.

The hint is the game's bot's choice for the same decision, on the seat's view: the native
training VecEnv, the teacher games and the playing agent make it the same way; a policy whose
beta dominates plays the bot; the config refuses what cannot carry a hint.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("airships_env.native._core")

from agents.arena import run_arena
from agents.hint import Hinter, check_hint, one_hot
from agents.policy_agent import ActorNet, GamePPOAgent
from agents.registry import make_agent
from agents.training.config import ConfigError, config_from_dict
from agents.training.hint import HINT_STREAM, HintVecEnv
from agents.training.imitation import collect_demonstrations
from agents.training.train import train
from airships_env.games.clockwork import GAME
from airships_env.games.clockwork.vector import ClockworkVecEnv
from airships_env.policy import Decision


def hint_config(output_dir: Path, **changes: Any) -> Any:
    data: dict[str, Any] = {
        "run": {"name": "hint_tiny", "output_dir": str(output_dir)},
        "game": "clockwork",
        "num_players": 2,
        "total_timesteps": 256,
        "vec_env": "native",
        "n_envs": 4,
        "learn_threads": 1,
        "tensorboard": False,
        "max_turns": None,
        "policy": {"net_arch": [16], "hint": "heuristic", "hint_weight": 10.0},
        "ppo": {"n_steps": 32, "batch_size": 64, "n_epochs": 1},
        "league": {"bots": {"heuristic": 1.0}, "self_play": 0.0},
        "pretrain": {"teacher": "heuristic", "games": 2, "epochs": 1, "workers": 1},
        "evaluation": {
            "every_steps": 256,
            "games": 2,
            "opponents": ["heuristic"],
            "best_by": "heuristic",
            "workers": 1,
        },
        "checkpoint": {"every_steps": 256, "keep_last": 1},
    }
    data.update(changes)
    return config_from_dict(data, "hint_tiny.yaml")


def test_the_hint_is_the_bots_choice_on_the_seats_view() -> None:
    """The hint of a decision is the Python bot's choice with the hinter's own generator: the
    same as the bot's own on that decision with a generator in the same state."""
    state = GAME.new_state(2, seed=3)
    hinter, bot = Hinter("clockwork", "heuristic"), make_agent("heuristic", game="clockwork")
    for _ in range(60):
        decision = Decision.for_game(GAME, state)
        hinter.reset(decision.seat, 2, np.random.default_rng(5))
        bot.reset(decision.seat, 2, np.random.default_rng(5))
        observation = hinter.observation(decision)
        choice = bot.act(decision)
        assert observation.shape == (GAME.observation_size(2) + GAME.num_actions,)
        np.testing.assert_array_equal(observation[: -GAME.num_actions], decision.observation)
        np.testing.assert_array_equal(
            observation[-GAME.num_actions :], one_hot([choice], GAME.num_actions)[0]
        )
        state.apply_action(choice)


def test_native_training_env_appends_the_native_bots_hint() -> None:
    """The VecEnv's hints are the core's twin of the bot on each game's waiting decision (the
    Python bot's choice where it draws nothing), one-hot after the observation; terminal
    observations get zeros; seeding seeds the hints."""
    venv = HintVecEnv(ClockworkVecEnv(3, 2, "heuristic", seed=1), "clockwork", "heuristic")
    size = GAME.observation_size(2)
    assert venv.observation_space.shape == (size + GAME.num_actions,)
    venv.seed(4)
    observations = venv.reset()
    bot = make_agent("greedy", game="clockwork")  # draws nothing: the choice is the state's
    greedy = HintVecEnv(ClockworkVecEnv(3, 2, "heuristic", seed=1), "clockwork", "greedy")
    greedy.seed(4)
    hinted = greedy.reset()
    for _step in range(40):
        assert np.all(observations[:, size:].sum(axis=1) == 1.0)
        masks = venv.action_masks()
        assert np.all(masks[np.arange(3), observations[:, size:].argmax(axis=1)])
        for i in range(3):
            decision = Decision.for_game(GAME, greedy.venv.batch.game_state(i))
            assert hinted[i, size:].argmax() == bot.act(decision)
        actions = observations[:, size:].argmax(axis=1)  # play the hints
        observations, _rewards, dones, infos = venv.step(actions)
        hinted = greedy.step(hinted[:, size:].argmax(axis=1))[0]
        for done, info in zip(dones, infos, strict=True):
            if done:
                assert not info["terminal_observation"][size:].any()
    again = HintVecEnv(ClockworkVecEnv(3, 2, "heuristic", seed=1), "clockwork", "heuristic")
    again.seed(4)
    venv.seed(4)  # the hints' generator restarts from the seed, whatever it drew before
    fresh = np.random.default_rng(np.random.SeedSequence([4, HINT_STREAM])).bit_generator.state
    assert venv.rng.bit_generator.state == fresh == again.rng.bit_generator.state
    np.testing.assert_array_equal(again.reset(), venv.reset())


def test_the_profiles_free_env_carries_a_hint_as_the_training_env_does() -> None:
    """``train --profile`` measures a hinted learner against a free environment of the hinted
    spaces: its observations end with the one-hot of one of its legal actions."""
    from agents.training.profile import FreeVecEnv

    free = FreeVecEnv(3, 2, game="clockwork", hinted=True)
    real = HintVecEnv(ClockworkVecEnv(3, 2, "heuristic", seed=1), "clockwork", "heuristic")
    assert free.observation_space == real.observation_space
    size = GAME.observation_size(2)
    for _step in range(5):
        observations, masks = free.reset(), free.action_masks()
        assert np.all(observations[:, size:].sum(axis=1) == 1.0)
        assert np.all(masks[np.arange(3), observations[:, size:].argmax(axis=1)])
        free.step(np.zeros(3, dtype=np.int64))
    plain = FreeVecEnv(3, 2, game="clockwork")
    assert plain.observation_space.shape == (size,)


def test_teacher_rows_carry_the_hint() -> None:
    demos = collect_demonstrations(
        "heuristic", 2, 2, seed=0, game="clockwork", hint="greedy", max_turns=None
    )
    size = GAME.observation_size(2)
    assert demos.observations.shape[1] == size + GAME.num_actions
    hints = demos.observations[:, size:]
    assert np.all(hints.sum(axis=1) == 1.0)
    assert np.all(demos.masks[np.arange(len(demos)), hints.argmax(axis=1)])  # a legal choice


def test_a_hinted_run_trains_saves_and_plays_its_hint(tmp_path: Path) -> None:
    """Pretraining and PPO with a hint: the saved model records its hint, plays through the
    arena (in Python: its bot reads the view) and, with beta dominating, plays the bot."""
    result = train(hint_config(tmp_path), progress_bar=False, log=lambda text: None)
    model = result.run_dir / "final_model.zip"
    net = ActorNet(model, "clockwork")
    assert net.hint == "heuristic" and net.beta > 0
    assert net.observation_size == GAME.observation_size(2) + GAME.num_actions
    # The numpy actor adds beta times the hint as the torch policy does.
    import torch
    from sb3_contrib import MaskablePPO

    policy = MaskablePPO.load(model, device="cpu").policy
    decision = Decision.for_game(GAME, GAME.new_state(2, seed=2))
    observation = Hinter("clockwork", "heuristic").observation(decision)
    with torch.no_grad():
        probabilities = policy.get_distribution(torch.from_numpy(observation[None])).distribution
    logits = net.logits(observation)
    expected = np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum()
    np.testing.assert_allclose(probabilities.probs.numpy()[0], expected, rtol=1e-4, atol=1e-6)
    agent = GamePPOAgent(str(model), game="clockwork")
    assert agent.reads_observation_only is False
    with pytest.raises(ValueError, match="takes a hint from the heuristic bot"):
        agent.act_batch(
            np.zeros((1, net.observation_size), np.float32), np.ones((1, GAME.num_actions), bool)
        )
    agent.net.beta = 1e6  # the hint dominates: the policy plays the bot
    state = GAME.new_state(2, seed=9)
    for step in range(40):
        decision = Decision.for_game(GAME, state)
        agent.reset(decision.seat, 2, np.random.default_rng(step))
        hint = int(agent.observation(decision)[-GAME.num_actions :].argmax())
        agent.reset(decision.seat, 2, np.random.default_rng(step))  # the same hint again
        assert agent.act(decision) == hint
        state.apply_action(hint)
    played = run_arena(
        [f"ppo:path={model}", "heuristic"], 2, num_players=2, seed=0, workers=1, game="clockwork"
    )
    assert len(played.records) == 2


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"policy": {"hint": "search"}}, r"policy\.hint"),
        ({"vec_env": "dummy", "env_backend": "python"}, r"vec_env: expected 'native' with"),
        ({"league": {"bots": {"heuristic": 1.0}, "self_play": 0.2}}, r"league\.self_play"),
        ({"game": "nippon"}, r"policy\.hint: nippon's bots keep a plan"),
        ({"game": "airships"}, r"policy\.hint: airships's policies take no hint"),
    ],
)
def test_the_config_refuses_what_cannot_carry_a_hint(
    tmp_path: Path, changes: dict[str, Any], message: str
) -> None:
    data_changes = dict(changes)
    if "policy" in data_changes:
        data_changes["policy"] = {"net_arch": [16], **data_changes["policy"]}
    with pytest.raises(ConfigError, match=message):
        hint_config(tmp_path, **data_changes)


def test_check_hint_names_the_known_bots() -> None:
    assert check_hint("heuristic", "clockwork") == "heuristic"
    with pytest.raises(ValueError, match="expected one of greedy, heuristic"):
        check_hint("ismcts", "clockwork")


def test_a_resumed_hinted_run_is_the_uninterrupted_one(tmp_path: Path) -> None:
    """The hints come from a generator seeded with each segment's games: a run resumed from its
    checkpoint replays the segment with the same hints and ends with the same weights."""
    from tests.train.test_resume import assert_same_weights

    checkpoints = {"every_steps": 128, "keep_last": 2}
    evaluation = {"every_steps": 1024, "games": 2, "opponents": ["heuristic"],
                  "best_by": "heuristic", "workers": 1, "at_start": False}  # fmt: skip
    stopped = hint_config(
        tmp_path / "resumed", total_timesteps=256, checkpoint=checkpoints, evaluation=evaluation
    )
    train(stopped, progress_bar=False, log=lambda text: None)
    resumed = train(
        stopped.replace(total_timesteps=512), resume=True, progress_bar=False, log=lambda t: None
    )
    straight = train(
        hint_config(
            tmp_path / "straight",
            total_timesteps=512,
            checkpoint=checkpoints,
            evaluation=evaluation,
        ),
        progress_bar=False,
        log=lambda text: None,
    )
    assert resumed.final_model is not None and straight.final_model is not None
    assert_same_weights(resumed.final_model, straight.final_model)
