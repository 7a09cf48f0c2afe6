"""The opponent league: pool bookkeeping, draws from the seat's generator, frozen snapshots."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

from agents.policy_agent import ActorNet, NetPolicy
from agents.training.checkpoint import save_model_atomic
from agents.training.config import LeagueConfig
from agents.training.league import (
    BOT,
    SNAPSHOT,
    League,
    LeagueMix,
    Member,
    league_seats,
)
from airships_env.engine import NUM_ACTIONS


class FakeDecision:
    """Just what a frozen policy reads."""

    def __init__(self, observation: np.ndarray, legal: tuple[int, ...]):
        self.observation = observation
        self.legal_actions = legal


class MaskedBox(gym.Env):
    """A minimal env with the game's action space, to build and save a MaskablePPO model."""

    def __init__(self, size: int = 24):
        self.observation_space = gym.spaces.Box(-1.0, 1.0, (size,), np.float32)
        self.action_space = gym.spaces.Discrete(NUM_ACTIONS)

    def reset(self, *, seed=None, options=None):
        return np.zeros(self.observation_space.shape, np.float32), {}

    def step(self, action):
        return np.zeros(self.observation_space.shape, np.float32), 0.0, True, False, {}

    def action_masks(self):
        return np.ones(NUM_ACTIONS, dtype=bool)


def saved_model(tmp_path: Path, activation: str = "tanh") -> tuple[Any, Path]:
    import torch.nn as nn
    from sb3_contrib import MaskablePPO

    activation_fn = {"tanh": nn.Tanh, "relu": nn.ReLU}[activation]
    model = MaskablePPO(
        "MlpPolicy",
        MaskedBox(),
        n_steps=16,
        batch_size=16,
        seed=3,
        policy_kwargs={"net_arch": [16, 8], "activation_fn": activation_fn},
        device="cpu",
    )
    path = save_model_atomic(model, tmp_path / f"snap_{activation}.zip", weights_only=True)
    return model, path


def config(**changes: object) -> LeagueConfig:
    settings = {"bots": {"random": 1.0, "greedy": 3.0}, "self_play": 4.0, "pool_size": 2}
    settings.update(changes)
    return LeagueConfig(**settings)  # type: ignore[arg-type]


def test_empty_pool_draws_bots_only(tmp_path: Path) -> None:
    mix = League(config(), tmp_path).mix()
    assert mix.members == (Member(BOT, "random"), Member(BOT, "greedy"))
    assert mix.probabilities == pytest.approx((0.25, 0.75))


def test_pool_keeps_newest_and_shares_self_play_weight(tmp_path: Path) -> None:
    league = League(config(), tmp_path)
    for step in (100, 200, 300):
        path = tmp_path / "league" / f"snapshot_{step}.zip"
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(b"x")
        league.add_snapshot(step, path)
    assert [s.step for s in league.snapshots] == [200, 300]  # pool_size 2
    mix = league.mix()
    assert [m.kind for m in mix.members] == [BOT, BOT, SNAPSHOT, SNAPSHOT]
    assert mix.probabilities == pytest.approx((1 / 8, 3 / 8, 2 / 8, 2 / 8))
    assert mix.members[2].ref == str((tmp_path / "league" / "snapshot_200.zip").resolve())

    league.save(tmp_path / "league.json")
    restored = League(config(), tmp_path)
    restored.load(tmp_path / "league.json")
    assert restored.snapshots == league.snapshots
    (tmp_path / "league" / "snapshot_300.zip").unlink()
    with pytest.raises(FileNotFoundError, match=r"snapshot_300\.zip"):
        League(config(), tmp_path).load(tmp_path / "league.json")


def test_mix_draws_follow_probabilities_and_the_generator() -> None:
    mix = LeagueMix((Member(BOT, "a"), Member(BOT, "b"), Member(BOT, "c")), (0.2, 0.0, 0.8))
    rng = np.random.default_rng(5)
    draws = Counter(mix.draw(rng).ref for _ in range(4000))
    assert draws["b"] == 0
    assert abs(draws["a"] / 4000 - 0.2) < 0.03
    first = [mix.draw(np.random.default_rng(9)).ref for _ in range(5)]
    assert len(set(first)) == 1  # same generator state, same draw
    with pytest.raises(ValueError, match="sum to 1"):
        LeagueMix((Member(BOT, "a"),), (0.5,))


def test_seats_draw_from_their_generator_and_reuse_agents() -> None:
    mix = LeagueMix((Member(BOT, "random"), Member(BOT, "greedy")), (0.5, 0.5))
    table, seats = league_seats(mix, 3)
    drawn = []
    for game in range(20):
        for slot, seat in enumerate(seats):
            seat.reset(slot + 1, 4, np.random.default_rng([game, slot]))
        drawn.append(tuple(seat.member.ref for seat in seats))  # type: ignore[union-attr]
    assert {ref for game in drawn for ref in game} == {"random", "greedy"}
    again = []
    for game in range(20):
        for slot, seat in enumerate(seats):
            seat.reset(slot + 1, 4, np.random.default_rng([game, slot]))
        again.append(tuple(seat.member.ref for seat in seats))  # type: ignore[union-attr]
    assert again == drawn
    # one agent object per (slot, member): seats never share a bot's per-game state
    assert len(table._agents) == 6
    table.set_mix(LeagueMix((Member(BOT, "greedy"),), (1.0,)))
    assert all(member.ref == "greedy" for _, member in table._agents)


@pytest.mark.parametrize("activation", ["tanh", "relu"])
def test_actor_net_matches_the_torch_policy(tmp_path: Path, activation: str) -> None:
    import torch

    model, path = saved_model(tmp_path, activation)
    net = ActorNet(path)
    rng = np.random.default_rng(0)
    observations = rng.uniform(-1, 1, (20, 24)).astype(np.float32)
    with torch.no_grad():
        tensor = torch.as_tensor(observations)
        features = model.policy.extract_features(tensor)
        latent = model.policy.mlp_extractor.forward_actor(features)
        expected = model.policy.action_net(latent).numpy()
    for observation, logits in zip(observations, expected, strict=True):
        np.testing.assert_allclose(net.logits(observation), logits, rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match="observations of size 24"):
        net.logits(np.zeros(10, np.float32))


def test_net_policy_plays_legal_actions_like_predict(tmp_path: Path) -> None:
    model, path = saved_model(tmp_path)
    net = ActorNet(path)
    greedy = NetPolicy(net, deterministic=True)
    sampler = NetPolicy(net, deterministic=False)
    sampler.reset(0, 2, np.random.default_rng(4))
    rng = np.random.default_rng(1)
    for _ in range(50):
        observation = rng.uniform(-1, 1, 24).astype(np.float32)
        legal = tuple(
            sorted(rng.choice(NUM_ACTIONS, size=int(rng.integers(1, 6)), replace=False).tolist())
        )
        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        mask[list(legal)] = True
        action = greedy.act(FakeDecision(observation, legal))  # type: ignore[arg-type]
        expected, _ = model.predict(
            observation,
            deterministic=True,
            action_masks=mask,
        )
        assert action == int(expected)
        assert sampler.act(FakeDecision(observation, legal)) in legal  # type: ignore[arg-type]


def test_info_masks_match_the_environments_own_masks() -> None:
    from stable_baselines3.common.vec_env import DummyVecEnv

    from agents.training.callbacks import InfoMaskVecEnv
    from agents.training.league import LeagueEnvFactory

    mix = LeagueMix((Member(BOT, "random"),), (1.0,))
    inner = DummyVecEnv([LeagueEnvFactory(2, mix) for _ in range(2)])
    venv = InfoMaskVecEnv(inner)
    venv.seed(7)
    venv.reset()
    chooser = np.random.default_rng(0)
    finished = 0
    for _ in range(300):
        cached = np.stack(venv.env_method("action_masks"))
        assert np.array_equal(cached, np.stack(inner.env_method("action_masks")))
        assert cached.any(axis=1).all()
        actions = np.array([chooser.choice(np.flatnonzero(mask)) for mask in cached])
        _, _, dones, infos = venv.step(actions)
        finished += int(dones.sum())
        for done, info in zip(dones, infos, strict=True):
            if done:
                assert info["league"]["opponents"] == ["random"]
                assert info["league"]["win"] in (0.0, 0.5, 1.0)
    assert finished >= 2  # the cache was refreshed from reset infos after games ended


def test_environment_backend_follows_the_config() -> None:
    """``env_backend: python`` (the old recipe) plays on the reference engine, the same game as
    the native backend for the same seed and actions."""
    from agents.training.league import LeagueEnvFactory
    from airships_env.engine.state import GameState
    from airships_env.native import NativeGame

    mix = LeagueMix((Member(BOT, "greedy"),), (1.0,))
    python_env = LeagueEnvFactory(2, mix, backend="python")()
    native_env = LeagueEnvFactory(2, mix, backend="native")()
    observations = [env.reset(seed=3)[0] for env in (python_env, native_env)]
    assert isinstance(python_env.unwrapped._aec.engine, GameState)
    assert isinstance(native_env.unwrapped._aec.engine, NativeGame)
    assert np.array_equal(*observations)
    for _ in range(40):
        mask = python_env.action_masks()
        assert np.array_equal(mask, native_env.action_masks())
        action = int(np.flatnonzero(mask)[0])
        steps = [env.step(action) for env in (python_env, native_env)]
        assert np.array_equal(steps[0][0], steps[1][0])
        if steps[0][2] or steps[0][3]:
            break
