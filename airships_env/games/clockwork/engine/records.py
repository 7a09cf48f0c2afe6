"""Frozen records of what each applied action did; the list of records is the game log.

A record carries the choice and what chance produced (the dice of a roll) and what the action
revealed or moved (the card drawn, the card turned, the card given, machines laid), so that a
log is readable on its own and a replay can check every step (pokerkit's operations).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from airships_env.games.clockwork.engine.errors import LogError


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """What one applied action did; ``dice`` is the only chance a replay must force."""

    step: int
    turn: int
    player: int  # the seat that acted
    action: int
    name: str
    dice: tuple[int, int] | None = None  # the roll (T1), chance N3
    drawn: int | None = None  # the type drawn from a pile (T3), private to the player
    turned: int | None = None  # the type turned face up on a place (R1), public
    given: int | None = None  # the type that changed hands in a challenge (C2), private
    laid: tuple[tuple[int, int], ...] = ()  # (seat, type) laid down by W1 after the action
    winner: int | None = None  # the seat that won by W2 after the action

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "step": self.step,
            "turn": self.turn,
            "player": self.player,
            "action": self.action,
            "name": self.name,
            "dice": None if self.dice is None else list(self.dice),
            "drawn": self.drawn,
            "turned": self.turned,
            "given": self.given,
            "laid": [list(item) for item in self.laid],
            "winner": self.winner,
        }

    @classmethod
    def from_dict(cls, data: Any) -> ActionRecord:
        """The inverse of :meth:`to_dict`; a LogError names the missing or bad field."""
        try:
            dice = data["dice"]
            return cls(
                step=int(data["step"]),
                turn=int(data["turn"]),
                player=int(data["player"]),
                action=int(data["action"]),
                name=str(data["name"]),
                dice=None if dice is None else (int(dice[0]), int(dice[1])),
                drawn=_opt_int(data["drawn"]),
                turned=_opt_int(data["turned"]),
                given=_opt_int(data["given"]),
                laid=tuple((int(s), int(t)) for s, t in data["laid"]),
                winner=_opt_int(data["winner"]),
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise LogError(f"not a Clockwork action record ({exc!r}): {data!r}") from exc


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)
