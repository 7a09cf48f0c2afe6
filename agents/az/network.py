"""The policy-value network of the ``az`` search: an observation in, action logits and values out.

Input: the acting seat's observation vector (:mod:`airships_env.observation`, self first).
Output: 83 action logits (illegal actions masked to a large negative number) and one value per
seat, in the observation's relative order (index 0 = the acting seat, 1 = the next seat, ...):
the seat's expected result (its share of the win plus ``margin_weight * tanh(margin / 10)``,
as :mod:`agents.bots.ismcts` scores a game), so that 3 and 4 players search by max-n.

Shape: a shared trunk (``hidden`` tanh layers), a linear policy head, and a value head (one tanh
layer of ``value_hidden`` units, then one output per seat). The trunk and the policy head have
the bundled MaskablePPO policy's shapes (``[256, 256]`` tanh, 83 actions), so
:func:`from_ppo` copies them from ``agents/models/ppo_<n>p.zip``; the value head starts from
scratch with a zero output layer (every value 0 until trained).

A saved network (:meth:`PolicyValueNet.save`) records the observation layout's name and the
action count; :func:`load_network` refuses a file whose layout or action count differs from
this version's, naming the file, the field, what was expected and what was found.
"""

from __future__ import annotations

import hashlib
import itertools
import os
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from airships_env.engine import NUM_ACTIONS
from airships_env.observation import observation_pieces, observation_size

FORMAT = "airships-az-network"
FORMAT_VERSION = 1
#: Added to the logits of illegal actions (finite, so a softmax never divides 0 by 0).
MASKED_LOGIT = -1e9


class NetworkFileError(ValueError):
    """A network file that cannot be used here; the message names the file and the field."""


def layout_name(num_players: int) -> str:
    """The observation layout's name for a table size: size and a hash of its named pieces."""
    pieces = observation_pieces(num_players)
    digest = hashlib.sha256(repr(pieces).encode()).hexdigest()[:12]
    return f"airships-obs-{num_players}p-{observation_size(num_players)}-{digest}"


def _init_linear(layer: nn.Linear, rng: np.random.Generator, zero: bool = False) -> None:
    """torch's default Linear initialisation (uniform in +-1/sqrt(fan_in)), drawn from ``rng``
    so that a run's networks depend on its seed alone (no global torch seed)."""
    bound = 1.0 / float(np.sqrt(layer.in_features))
    with torch.no_grad():
        if zero:
            layer.weight.zero_()
            layer.bias.zero_()
            return
        weight = rng.uniform(-bound, bound, size=tuple(layer.weight.shape))
        bias = rng.uniform(-bound, bound, size=tuple(layer.bias.shape))
        layer.weight.copy_(torch.from_numpy(weight.astype(np.float32)))
        layer.bias.copy_(torch.from_numpy(bias.astype(np.float32)))


class PolicyValueNet(nn.Module):
    """Trunk, policy head (83 logits) and value head (one value per seat); see the module."""

    def __init__(
        self,
        num_players: int,
        hidden: tuple[int, ...] = (256, 256),
        value_hidden: int = 256,
        rng: np.random.Generator | None = None,
    ):
        super().__init__()
        if num_players not in (2, 3, 4):
            raise ValueError(f"num_players must be 2, 3 or 4, got {num_players!r}")
        if not hidden or any(int(width) < 1 for width in hidden) or value_hidden < 1:
            raise ValueError(f"layer widths must be positive, got {hidden!r}, {value_hidden!r}")
        self.num_players = num_players
        self.observation_size = observation_size(num_players)
        self.hidden = tuple(int(width) for width in hidden)
        self.value_hidden = int(value_hidden)
        widths = (self.observation_size, *self.hidden)
        self.trunk = nn.ModuleList(nn.Linear(a, b) for a, b in itertools.pairwise(widths))
        self.policy_head = nn.Linear(self.hidden[-1], NUM_ACTIONS)
        self.value_layer = nn.Linear(self.hidden[-1], self.value_hidden)
        self.value_head = nn.Linear(self.value_hidden, num_players)
        generator = rng if rng is not None else np.random.default_rng(0)
        for layer in (*self.trunk, self.policy_head, self.value_layer):
            _init_linear(layer, generator)
        _init_linear(self.value_head, generator, zero=True)

    def forward(self, observations: torch.Tensor, masks: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """(masked logits ``(B, 83)``, values ``(B, num_players)``, relative seat order)."""
        hidden = self.features(observations)
        logits = self.policy_head(hidden).masked_fill(~masks, MASKED_LOGIT)
        return logits, self.values_of(hidden)

    def features(self, observations: torch.Tensor) -> torch.Tensor:
        """The trunk's output (what both heads read)."""
        hidden = observations
        for layer in self.trunk:
            hidden = torch.tanh(layer(hidden))
        return hidden

    def values_of(self, features: torch.Tensor) -> torch.Tensor:
        """The value head on the trunk's output: ``(B, num_players)``, relative seat order."""
        return self.value_head(torch.tanh(self.value_layer(features)))

    def predict(self, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """One batched forward pass in inference mode: (priors ``(B, 83)`` summing to 1 over
        the legal actions, values ``(B, num_players)``), float64 numpy arrays."""
        if observations.ndim != 2 or observations.shape[1] != self.observation_size:
            raise ValueError(
                f"the network takes observations of size {self.observation_size} "
                f"({self.num_players} players), got shape {observations.shape}"
            )
        device = self.policy_head.weight.device  # the CPU, or where .to() put the network
        with torch.inference_mode():
            logits, values = self(
                torch.from_numpy(np.ascontiguousarray(observations, dtype=np.float32)).to(device),
                torch.from_numpy(np.ascontiguousarray(masks, dtype=bool)).to(device),
            )
            priors = torch.softmax(logits.double(), dim=1)
        return priors.cpu().numpy(), values.double().cpu().numpy()

    def describe(self) -> dict[str, Any]:
        """What a file records besides the weights (checked by :func:`load_network`)."""
        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "layout": layout_name(self.num_players),
            "num_actions": NUM_ACTIONS,
            "num_players": self.num_players,
            "hidden": list(self.hidden),
            "value_hidden": self.value_hidden,
        }

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the network (weights and :meth:`describe`) through a temporary file."""
        path = Path(path)
        temporary = path.with_name(path.name + ".tmp")
        torch.save({**self.describe(), "weights": self.state_dict()}, temporary)
        os.replace(temporary, path)

    def native(self) -> object:
        """The network as the native search reads it (``make_net`` of the core): the weights
        copied now, each matrix input major, so later training does not reach the copy."""
        from airships_env.native import require

        parts: list[np.ndarray] = []
        for layer in (*self.trunk, self.policy_head, self.value_layer, self.value_head):
            weight = layer.weight.detach().cpu().numpy().T  # (inputs, outputs)
            parts.append(np.ascontiguousarray(weight, dtype=np.float32).ravel())
            parts.append(layer.bias.detach().cpu().numpy().astype(np.float32))
        return require().make_net(
            self.observation_size,
            list(self.hidden),
            self.value_hidden,
            NUM_ACTIONS,
            self.num_players,
            np.concatenate(parts).tobytes(),
        )

    def copy(self) -> PolicyValueNet:
        """An independent copy with the same weights."""
        twin = PolicyValueNet(self.num_players, self.hidden, self.value_hidden)
        twin.load_state_dict(self.state_dict())
        return twin


def _field(path: Path, data: dict[str, Any], key: str, expected: object) -> None:
    found = data.get(key, "<missing>")
    if found != expected:
        raise NetworkFileError(f"{path}: {key}: expected {expected!r}, found {found!r}")


def load_network(path: str | os.PathLike[str]) -> PolicyValueNet:
    """Read a network written by :meth:`PolicyValueNet.save`, checking its format, observation
    layout and action count against this version's (a mismatch names file and field)."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"network file {str(path)!r} not found")
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:  # torch raises many kinds for a file that is not its own
        raise NetworkFileError(f"{path}: not a network file ({exc})") from None
    if not isinstance(data, dict):
        raise NetworkFileError(f"{path}: not a network file (found {type(data).__name__})")
    _field(path, data, "format", FORMAT)
    _field(path, data, "format_version", FORMAT_VERSION)
    players = data.get("num_players")
    if players not in (2, 3, 4):
        raise NetworkFileError(f"{path}: num_players: expected 2, 3 or 4, found {players!r}")
    _field(path, data, "num_actions", NUM_ACTIONS)
    _field(path, data, "layout", layout_name(players))
    hidden, value_hidden = data.get("hidden"), data.get("value_hidden")
    if not isinstance(hidden, list) or not all(isinstance(w, int) for w in hidden):
        raise NetworkFileError(f"{path}: hidden: expected a list of widths, found {hidden!r}")
    if not isinstance(value_hidden, int):
        raise NetworkFileError(f"{path}: value_hidden: expected a width, found {value_hidden!r}")
    net = PolicyValueNet(players, tuple(hidden), value_hidden)
    try:
        net.load_state_dict(data.get("weights", {}))
    except RuntimeError as exc:
        raise NetworkFileError(f"{path}: weights: {str(exc).splitlines()[0]}") from None
    net.eval()
    return net


def from_ppo(
    path: str | os.PathLike[str],
    num_players: int,
    value_hidden: int = 256,
    rng: np.random.Generator | None = None,
) -> tuple[PolicyValueNet, list[str]]:
    """A network whose trunk and policy head are a MaskablePPO zip's actor (the value head from
    scratch), and the names of the tensors copied; a zip whose actor has other shapes raises."""
    from agents.policy_agent import ActorNet

    actor = ActorNet(path)
    actor.check_table(num_players)
    if actor.activation is not np.tanh:
        raise ValueError(f"{path}: the az network is tanh; this actor uses another activation")
    hidden = tuple(weight.shape[0] for weight, _bias in actor.hidden)
    net = PolicyValueNet(num_players, hidden, value_hidden, rng=rng)
    copied: list[str] = []
    with torch.no_grad():
        for index, (weight, bias) in enumerate(actor.hidden):
            layer: nn.Linear = net.trunk[index]  # type: ignore[assignment]
            layer.weight.copy_(torch.from_numpy(weight))
            layer.bias.copy_(torch.from_numpy(bias))
            copied += [f"trunk.{index}.weight", f"trunk.{index}.bias"]
        net.policy_head.weight.copy_(torch.from_numpy(actor.head[0]))
        net.policy_head.bias.copy_(torch.from_numpy(actor.head[1]))
        copied += ["policy_head.weight", "policy_head.bias"]
    return net, copied


def bundled_ppo(num_players: int) -> Path:
    """The bundled PPO policy a network starts from (``agents/models/ppo_<n>p.zip``)."""
    from agents.policy_agent import bundled_model

    return bundled_model(num_players)


def bundled_network(num_players: int) -> Path | None:
    """The network expert iteration made for ``num_players`` seats that the project ships
    (``agents/models/az_<n>p.pt``), or None where that table size has none."""
    from agents.policy_agent import MODELS_DIR

    path = MODELS_DIR / f"az_{num_players}p.pt"
    return path if path.is_file() else None
