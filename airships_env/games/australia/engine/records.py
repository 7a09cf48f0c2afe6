"""Frozen records of what each applied action did; the list of records is the game log.

A record carries the choice and what it revealed: the colour of a card drawn (private to the
drawer), the value of a tile turned up (public), the projects and windmill scorings that
followed, the windmill's move. Nothing is random after the setup (RULES.md N3), so a log replays
from the seeded setup and every record is checked against its replay.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from airships_env.games.australia.engine.errors import LogError

KINDS = ("conservation", "industrialization", "windmill")


@dataclass(frozen=True, slots=True)
class Scoring:
    """One scoring: a project (P3) of ``region`` or a windmill scoring (W5, region -1)."""

    kind: str  # one of KINDS
    region: int
    value: int  # the tile's value (0 for conservation) or the windmill's value
    initiator: int  # -1 for a windmill scoring
    points: tuple[int, ...]  # VP per seat

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "kind": self.kind,
            "region": self.region,
            "value": self.value,
            "initiator": self.initiator,
            "points": list(self.points),
        }

    @classmethod
    def from_dict(cls, data: Any) -> Scoring:
        """The inverse of :meth:`to_dict`."""
        kind = str(data["kind"])
        if kind not in KINDS:
            raise ValueError(f"unknown scoring kind {kind!r}")
        return cls(kind, int(data["region"]), int(data["value"]), int(data["initiator"]),
                   tuple(int(p) for p in data["points"]))  # fmt: skip


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """What one applied action did."""

    step: int
    turn: int
    player: int  # the seat that acted
    action: int
    name: str
    drawn: int | None = None  # the colour taken from a stack (S4, A4): private to the player
    revealed: int | None = None  # the tile value a fly turned up (A1)
    windmill_to: int | None = None  # the region the windmill moved to (W2)
    scorings: tuple[Scoring, ...] = ()
    game_over: bool = False

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "step": self.step,
            "turn": self.turn,
            "player": self.player,
            "action": self.action,
            "name": self.name,
            "drawn": self.drawn,
            "revealed": self.revealed,
            "windmill_to": self.windmill_to,
            "scorings": [s.to_dict() for s in self.scorings],
            "game_over": self.game_over,
        }

    @classmethod
    def from_dict(cls, data: Any) -> ActionRecord:
        """The inverse of :meth:`to_dict`; a LogError names the missing or bad field."""
        try:
            return cls(
                step=int(data["step"]),
                turn=int(data["turn"]),
                player=int(data["player"]),
                action=int(data["action"]),
                name=str(data["name"]),
                drawn=_opt_int(data["drawn"]),
                revealed=_opt_int(data["revealed"]),
                windmill_to=_opt_int(data["windmill_to"]),
                scorings=tuple(Scoring.from_dict(s) for s in data["scorings"]),
                game_over=bool(data["game_over"]),
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise LogError(f"not an Australia action record ({exc!r}): {data!r}") from exc


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)
