"""An RLlib policy as the numpy actor the arena plays: export to ``.npz``, load as an agent.

:func:`export_actor` lifts the actor MLP of a trained :class:`~agents.rllib.module.
MaskedPPOTorchRLModule` (its ``encoder.actor_encoder`` layers and the ``pi`` head; the critic is
left behind) into a small ``.npz`` file. :class:`RLlibAgent` plays such a file, or a training
checkpoint directory (exported on the fly, which needs the ``rllib`` extra), with the same masked
argmax / masked sampling as the ``ppo`` agent, so ``rllib:path=runs/rllib_2p/policy.npz`` enters
arenas and tournaments like any other spec. Playing an ``.npz`` needs numpy alone.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from agents.games import DEFAULT_GAME, file_game
from agents.policy_agent import ActorNet, NetPolicy
from airships_env.protocol import Game

FORMAT = "airships-rllib-actor"
VERSION = 1
_ACTIVATION_NAMES = {"tanh": "Tanh", "relu": "ReLU"}
_LAYER = re.compile(r"^(encoder\.actor_encoder\.net\.mlp|pi\.net\.mlp)\.(\d+)\.weight$")


def actor_layers(
    state: Mapping[str, Any],
) -> tuple[list[tuple[np.ndarray, np.ndarray]], tuple[np.ndarray, np.ndarray]]:
    """The actor's hidden layers and head from a module's state dict (numpy or torch values)."""

    def array(value: Any) -> np.ndarray:
        if hasattr(value, "detach"):
            value = value.detach().cpu().numpy()
        return np.asarray(value, dtype=np.float32)

    encoder: list[tuple[int, str]] = []
    head: list[tuple[int, str]] = []
    for key in state:
        match = _LAYER.match(key)
        if match:
            (encoder if match.group(1).startswith("encoder") else head).append(
                (int(match.group(2)), key[: -len(".weight")])
            )
    if not encoder or len(head) != 1:
        raise ValueError(
            "not a MaskedPPOTorchRLModule actor: expected encoder.actor_encoder layers and one "
            f"pi layer, found keys {sorted(state)[:8]}..."
        )
    hidden = [(array(state[f"{k}.weight"]), array(state[f"{k}.bias"])) for _, k in sorted(encoder)]
    prefix = head[0][1]
    return hidden, (array(state[f"{prefix}.weight"]), array(state[f"{prefix}.bias"]))


def export_actor(
    state: Mapping[str, Any],
    path: str | os.PathLike[str],
    *,
    activation: str,
    num_players: int,
    metadata: Mapping[str, Any] | None = None,
    game: str = DEFAULT_GAME,
) -> Path:
    """Write the actor of ``state`` (a module state dict) to ``path`` (``.npz``), atomically;
    its header records the ``game`` (a header without one: Airships)."""
    hidden, head = actor_layers(state)
    if activation not in _ACTIVATION_NAMES:
        raise ValueError(f"activation {activation!r}: expected one of {list(_ACTIVATION_NAMES)}")
    arrays: dict[str, np.ndarray] = {"head_weight": head[0], "head_bias": head[1]}
    for index, (weight, bias) in enumerate(hidden):
        arrays[f"hidden{index}_weight"] = weight
        arrays[f"hidden{index}_bias"] = bias
    header = {
        "format": FORMAT,
        "version": VERSION,
        "game": game,
        "activation": activation,
        "layers": len(hidden),
        "num_players": num_players,
        **(dict(metadata) if metadata else {}),
    }
    arrays["header"] = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(target.name + ".tmp.npz")
    np.savez(temporary, **arrays)
    os.replace(temporary, target)
    return target


def read_header(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The JSON header of an exported actor."""
    with np.load(path) as data:
        if "header" not in data:
            raise ValueError(f"{path}: not an exported RLlib actor (no header)")
        header: dict[str, Any] = json.loads(bytes(data["header"]).decode())
    if header.get("format") != FORMAT:
        raise ValueError(f"{path}: not an exported RLlib actor (format {header.get('format')!r})")
    return header


def load_actor(path: str | os.PathLike[str], game: str = DEFAULT_GAME) -> ActorNet:
    """The :class:`ActorNet` of an exported ``.npz`` of ``game`` (numpy only); an actor of
    another game is a ValueError naming both."""
    source = Path(path)
    if not source.is_file():
        raise FileNotFoundError(f"RLlib actor {str(path)!r} not found")
    header = read_header(source)
    if header.get("version") != VERSION:
        raise ValueError(f"{source}: actor version {header.get('version')!r}, this reads {VERSION}")
    trained = file_game(header, str(source))
    if trained != game:  # its observations and actions are another game's
        raise ValueError(f"{source}: a policy for {trained} (its header says), not for {game}")
    with np.load(source) as data:
        hidden = [
            (data[f"hidden{i}_weight"], data[f"hidden{i}_bias"]) for i in range(header["layers"])
        ]
        head = (data["head_weight"], data["head_bias"])
    activation = _ACTIVATION_NAMES[header["activation"]]
    return ActorNet.from_layers(hidden, head, activation, str(source), game)


def export_checkpoint(
    checkpoint: str | os.PathLike[str], path: str | os.PathLike[str] | None = None
) -> Path:
    """Export ``main`` of a training checkpoint (a directory written by
    :mod:`agents.rllib.train`) to ``path`` (default: ``<checkpoint>/main.npz``)."""
    from agents.rllib.checkpoint import read_checkpoint_module

    source = Path(checkpoint)
    state, info = read_checkpoint_module(source)
    target = Path(path) if path is not None else source / "main.npz"
    return export_actor(
        state,
        target,
        activation=info["activation"],
        num_players=info["num_players"],
        metadata={"checkpoint": str(source), "iteration": info.get("iteration")},
        game=info.get("game", DEFAULT_GAME),
    )


class RLlibAgent(NetPolicy):
    """An RLlib-trained policy as an agent: ``rllib:path=FILE.npz`` (or a checkpoint
    directory), masked argmax or (``deterministic=false``) masked sampling. ``game`` (given by
    :func:`agents.registry.make_agent` for the game whose agents name it; None: Airships) must
    be the game the policy was trained for."""

    def __init__(
        self,
        path: str,
        deterministic: bool = True,
        name: str = "rllib",
        game: Game | str | None = None,
    ):
        source = Path(path)
        if source.is_dir():
            exported = source / "main.npz"
            if not exported.is_file():
                export_checkpoint(source, exported)
            source = exported
        self.path = str(source)
        game_name = DEFAULT_GAME if game is None else game if isinstance(game, str) else game.name
        super().__init__(load_actor(source, game_name), deterministic, name)
