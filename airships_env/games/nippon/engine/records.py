"""The frozen record of one applied action: the choice and what chance did (the bag draws)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from airships_env.games.nippon.engine.actions import NUM_ACTIONS, action_name
from airships_env.games.nippon.engine.errors import LogError

__all__ = ["ActionRecord"]


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """One action of ``seat``; ``draws``: the colours drawn from the bag, in order (N2, N3)."""

    action: int
    seat: int
    draws: tuple[int, ...] = ()

    @property
    def name(self) -> str:
        """The action's readable name."""
        return action_name(self.action)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "action": self.action,
            "name": self.name,
            "seat": self.seat,
            "draws": list(self.draws),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ActionRecord:
        """The record ``to_dict`` wrote (LogError naming the field when it is not one)."""
        if not isinstance(d, Mapping):
            raise LogError(f"record: expected an object, found {type(d).__name__}")
        action, seat, draws = d.get("action"), d.get("seat"), d.get("draws", [])
        if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < NUM_ACTIONS:
            raise LogError(
                f"record: field 'action': expected 0..{NUM_ACTIONS - 1}, found {action!r}"
            )
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 4:
            raise LogError(f"record: field 'seat': expected 0..3, found {seat!r}")
        if not isinstance(draws, list) or not all(
            isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 6 for c in draws
        ):
            raise LogError(
                f"record: field 'draws': expected a list of colours 0..5, found {draws!r}"
            )
        return cls(action, seat, tuple(draws))
