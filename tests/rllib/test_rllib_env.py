"""The RLlib MultiAgentEnv over the native batch, and the exported numpy actor."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ray")

from agents.rllib.env import (
    MAIN,
    AirshipsMultiAgentEnv,
    LeagueWeights,
    module_for_agent,
)
from agents.rllib.export import RLlibAgent, export_actor, load_actor
from airships_env.engine import NUM_ACTIONS
from airships_env.observation import observation_size


def play(env: AirshipsMultiAgentEnv, episodes: int, seed: int) -> list[tuple]:
    """Random legal play; returns (agent, action, rewards, done) per step."""
    rng = np.random.default_rng(seed)
    trace: list[tuple] = []
    observations, _ = env.reset(seed=seed)
    acted: set[str] = set()
    for _ in range(episodes):
        while True:
            ((agent, observation),) = observations.items()
            assert observation["observations"].shape == (observation_size(env.num_players),)
            mask = observation["action_mask"]
            assert mask.shape == (NUM_ACTIONS,) and mask.dtype == np.float32 and mask.any()
            assert env.observation_space.contains(observation)
            action = int(rng.choice(np.flatnonzero(mask)))
            acted.add(agent)
            observations, rewards, terminateds, truncateds, _ = env.step({agent: action})
            trace.append((agent, action, dict(rewards), terminateds["__all__"]))
            if terminateds["__all__"] or truncateds["__all__"]:
                # the reward reaches every Python seat that acted, and no one else
                assert set(rewards) == acted and observations == {}
                assert all(terminateds[a] for a in acted)
                acted = set()
                observations, _ = env.reset()
                break
            assert set(rewards) == set(observations)  # 0.0 with each observation
    return trace


@pytest.mark.parametrize("players", [2, 3, 4])
def test_self_play_every_seat_is_main(players: int) -> None:
    env = AirshipsMultiAgentEnv(
        {"num_players": players, "league": {"self_play": 1, "snapshots": 0, "bots": {}}}
    )
    trace = play(env, 3, seed=players)
    agents = {agent for agent, *_ in trace}
    assert {module_for_agent(a) for a in agents} == {MAIN}
    assert len(agents) == players
    finals = [rewards for _, _, rewards, done in trace if done]
    assert all(sorted(r.values())[-1] > 0 for r in finals)  # somebody wins each game


def test_bots_are_played_inside_the_core() -> None:
    env = AirshipsMultiAgentEnv(
        {"num_players": 3, "league": {"self_play": 0, "snapshots": 0, "bots": {"greedy": 1}}}
    )
    trace = play(env, 4, seed=1)
    for _, _, rewards, done in trace:
        if done:
            assert len(rewards) == 1  # only the learner seat is an agent


def test_snapshots_drawn_only_when_ready() -> None:
    league = {"self_play": 0, "snapshots": 1, "bots": {"random": 1e-9}}
    env = AirshipsMultiAgentEnv({"num_players": 2, "pool_size": 3, "league": league})
    modules = {module_for_agent(a) for a, *_ in play(env, 3, seed=0)}
    assert modules == {MAIN}  # none ready: only the bot can sit there
    env.set_league(LeagueWeights.from_mapping({**league, "ready": 2}))
    modules = {module_for_agent(a) for a, *_ in play(env, 30, seed=0)}
    assert modules == {MAIN, "snap0", "snap1"}


def test_same_seed_same_games() -> None:
    config = {"num_players": 2, "league": {"self_play": 0.5, "bots": {"greedy": 0.5}}}
    first = play(AirshipsMultiAgentEnv(config), 3, seed=11)
    second = play(AirshipsMultiAgentEnv(config), 3, seed=11)
    assert first == second


def fake_module_state(players: int, hidden: int = 8) -> dict[str, np.ndarray]:
    """A state dict shaped like MaskedPPOTorchRLModule's (random weights)."""
    rng = np.random.default_rng(0)
    size = observation_size(players)
    return {
        "encoder.actor_encoder.net.mlp.0.weight": rng.normal(size=(hidden, size)),
        "encoder.actor_encoder.net.mlp.0.bias": rng.normal(size=hidden),
        "encoder.actor_encoder.net.mlp.2.weight": rng.normal(size=(hidden, hidden)),
        "encoder.actor_encoder.net.mlp.2.bias": rng.normal(size=hidden),
        "encoder.critic_encoder.net.mlp.0.weight": rng.normal(size=(hidden, size)),
        "pi.net.mlp.0.weight": rng.normal(size=(NUM_ACTIONS, hidden)),
        "pi.net.mlp.0.bias": rng.normal(size=NUM_ACTIONS),
        "vf.net.mlp.0.weight": rng.normal(size=(1, hidden)),
    }


def test_export_round_trip(tmp_path: Path) -> None:
    state = fake_module_state(2)
    path = export_actor(state, tmp_path / "a.npz", activation="tanh", num_players=2)
    net = load_actor(path)
    observation = np.random.default_rng(1).random(observation_size(2)).astype(np.float32)
    hidden = np.tanh(
        state["encoder.actor_encoder.net.mlp.0.weight"] @ observation
        + state["encoder.actor_encoder.net.mlp.0.bias"]
    )
    hidden = np.tanh(
        state["encoder.actor_encoder.net.mlp.2.weight"] @ hidden
        + state["encoder.actor_encoder.net.mlp.2.bias"]
    )
    expected = state["pi.net.mlp.0.weight"] @ hidden + state["pi.net.mlp.0.bias"]
    np.testing.assert_allclose(net.logits(observation), expected, rtol=1e-4, atol=1e-4)
    assert isinstance(RLlibAgent(str(path)), RLlibAgent)
    with pytest.raises(ValueError, match="not a MaskedPPOTorchRLModule actor"):
        export_actor(
            {"x.weight": np.zeros(1)}, tmp_path / "b.npz", activation="tanh", num_players=2
        )
