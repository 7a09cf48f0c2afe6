"""A training run's checkpoints: the league state RLlib's checkpoints carry beside their own.

Each complete checkpoint directory ``<run>/checkpoints/iter_NNNNNN/`` holds RLlib's state,
``league.json`` (written last: a checkpoint without it is incomplete and ignored) and
``main.npz`` (the exported actor). Reading the league needs nothing; reading the module needs ray.
Used by :mod:`agents.rllib.train` (which writes them) and :mod:`agents.rllib.export`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents.games import DEFAULT_GAME

__all__ = [
    "CHECKPOINTS",
    "LEAGUE_FILE",
    "LeagueState",
    "checkpoints",
    "read_checkpoint_module",
    "read_league",
]

LEAGUE_FILE = "league.json"
CHECKPOINTS = "checkpoints"


@dataclass
class LeagueState:
    """What a checkpoint adds to RLlib's own state."""

    iteration: int = 0
    env_steps: int = 0
    ready: int = 0  # snapshot slots filled
    next_slot: int = 0
    snapshots: list[int] = field(default_factory=list)  # iteration of each filled slot
    fingerprint: str = ""
    activation: str = "tanh"
    num_players: int = 2
    seconds: float = 0.0
    game: str = DEFAULT_GAME  # a league.json without it: an Airships run

    def to_dict(self) -> dict[str, Any]:
        """As written to ``league.json``."""
        return dict(self.__dict__)


def checkpoints(run_dir: Path) -> list[Path]:
    """The complete checkpoints of a run, oldest first."""
    root = run_dir / CHECKPOINTS
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if p.is_dir() and (p / LEAGUE_FILE).is_file())


def read_league(checkpoint: Path) -> LeagueState:
    """The league state saved beside an RLlib checkpoint."""
    data = json.loads((checkpoint / LEAGUE_FILE).read_text(encoding="utf-8"))
    return LeagueState(**data)


def read_checkpoint_module(checkpoint: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """``main``'s state dict in a checkpoint and the league info (needs ray)."""
    league = read_league(checkpoint)
    exported = checkpoint / "main.npz"
    from agents.rllib.env import MAIN

    module_dir = checkpoint / "learner_group" / "learner" / "rl_module" / MAIN
    if not module_dir.is_dir():
        raise ValueError(f"{checkpoint}: no {MAIN} module in this checkpoint ({exported} missing)")
    from ray.rllib.core.rl_module.rl_module import RLModule

    module = RLModule.from_checkpoint(module_dir)
    return dict(module.state_dict()), league.to_dict()
