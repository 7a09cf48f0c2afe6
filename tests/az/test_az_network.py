"""The az policy-value network: shapes, masking, PPO initialisation, save/load and its checks."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from agents.az.network import (
    MASKED_LOGIT,
    NetworkFileError,
    PolicyValueNet,
    bundled_ppo,
    from_ppo,
    layout_name,
    load_network,
)
from agents.policy_agent import ActorNet
from airships_env.engine import NUM_ACTIONS
from airships_env.native import NativeGame
from airships_env.observation import observation_size


def _observations(num_players: int, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Observations and legal masks of the first decisions of a seeded native game."""
    game = NativeGame.new(num_players, seed=5)
    observations, masks = [], []
    for _ in range(count):
        legal = game.legal_actions()
        observations.append(game.observe(game.current_player))
        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        mask[legal] = True
        masks.append(mask)
        game.apply_action(legal[-1])
    return np.stack(observations), np.stack(masks)


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_shapes_and_masking(num_players: int) -> None:
    net = PolicyValueNet(num_players, (32,), 16, rng=np.random.default_rng(1))
    observations, masks = _observations(num_players, 5)
    assert observations.shape == (5, observation_size(num_players))
    logits, values = net(torch.from_numpy(observations), torch.from_numpy(masks))
    assert logits.shape == (5, NUM_ACTIONS) and values.shape == (5, num_players)
    assert torch.all(logits[~torch.from_numpy(masks)] == MASKED_LOGIT)
    priors, predicted = net.predict(observations, masks)
    assert priors.shape == (5, NUM_ACTIONS) and predicted.shape == (5, num_players)
    assert np.allclose(priors.sum(axis=1), 1.0)
    assert np.all(priors[~masks] == 0.0) and np.all(priors[masks] > 0.0)
    # The value head starts at zero: no value until trained.
    assert np.all(predicted == 0.0)
    with pytest.raises(ValueError, match="observations of size"):
        net.predict(observations[:, :-1], masks)


def test_scratch_weights_depend_on_the_generator_only() -> None:
    first = PolicyValueNet(2, (16,), 8, rng=np.random.default_rng(3))
    torch.manual_seed(123)  # the global torch seed plays no part
    second = PolicyValueNet(2, (16,), 8, rng=np.random.default_rng(3))
    other = PolicyValueNet(2, (16,), 8, rng=np.random.default_rng(4))
    for key, value in first.state_dict().items():
        assert torch.equal(value, second.state_dict()[key])
    assert not torch.equal(first.trunk[0].weight, other.trunk[0].weight)


def test_ppo_initialisation_plays_the_ppo_policy() -> None:
    net, copied = from_ppo(bundled_ppo(2), 2)
    assert copied == [
        "trunk.0.weight",
        "trunk.0.bias",
        "trunk.1.weight",
        "trunk.1.bias",
        "policy_head.weight",
        "policy_head.bias",
    ]
    actor = ActorNet(bundled_ppo(2))
    observations, masks = _observations(2, 6)
    logits, _values = net(torch.from_numpy(observations), torch.from_numpy(masks))
    expected = actor.batch_logits(observations)
    legal = torch.from_numpy(masks)
    assert np.allclose(logits[legal].detach().numpy(), expected[masks], atol=1e-4)
    with pytest.raises(ValueError, match="trained for 2 players"):
        from_ppo(bundled_ppo(2), 3)


def test_save_load_round_trip(tmp_path: Path) -> None:
    net = PolicyValueNet(3, (24, 12), 10, rng=np.random.default_rng(7))
    with torch.no_grad():
        net.value_head.bias.fill_(0.25)
    path = tmp_path / "net.pt"
    net.save(path)
    loaded = load_network(path)
    assert (loaded.num_players, loaded.hidden, loaded.value_hidden) == (3, (24, 12), 10)
    observations, masks = _observations(3, 4)
    for mine, theirs in zip(
        net.predict(observations, masks), loaded.predict(observations, masks), strict=True
    ):
        assert np.array_equal(mine, theirs)


def _rewrite(path: Path, **changes: object) -> None:
    data = torch.load(path, weights_only=True)
    data.update(changes)
    torch.save(data, path)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"layout": "airships-obs-2p-1400-000000000000"}, "layout: expected 'airships-obs-2p-1485"),
        ({"num_actions": 80}, "num_actions: expected 83, found 80"),
        ({"format": "something"}, "format: expected 'airships-az-network'"),
        ({"num_players": 5}, "num_players: expected 2, 3 or 4, found 5"),
        ({"hidden": [99]}, "weights: "),
    ],
)
def test_load_refuses_a_mismatch(tmp_path: Path, changes: dict[str, object], message: str) -> None:
    path = tmp_path / "net.pt"
    PolicyValueNet(2, (16,), 8).save(path)
    _rewrite(path, **changes)
    with pytest.raises(NetworkFileError, match=str(path).replace(".", r"\.")) as error:
        load_network(path)
    assert message in str(error.value)


def test_load_refuses_what_is_not_a_network(tmp_path: Path) -> None:
    path = tmp_path / "notes.pt"
    path.write_text("not a network", encoding="utf-8")
    with pytest.raises(NetworkFileError, match="not a network file"):
        load_network(path)
    with pytest.raises(FileNotFoundError, match=r"missing\.pt"):
        load_network(tmp_path / "missing.pt")


def test_layout_name_names_the_table() -> None:
    assert layout_name(2).startswith("airships-obs-2p-1485-")
    assert len({layout_name(n) for n in (2, 3, 4)}) == 3
