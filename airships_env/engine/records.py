"""Frozen records of what each applied action did; the list of records is the game log.

Each record carries what the player chose and what chance produced (the card revealed, the dice
rolled), so that a game can be replayed from its log without the random generator
(pokerkit's operations, catanatron's ActionRecord).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True, slots=True)
class Reveal:
    """A card revealed from the deck (T1) and where P1 put it."""

    card: str  # card id, or "change-of-era"
    slot: int | None  # the board target it took; None for the Change of Era card
    pushed_out: str | None  # the card that left the game because the row was full (P1)


@dataclass(frozen=True, slots=True)
class ExchangeMade:
    """The Materials exchange of one attempt (T3): the dice given and the dice received."""

    gave: tuple[int, int, int]  # rollable dice given, per colour (white, red, black)
    gave_fixed: tuple[tuple[int, int], ...]  # fixed (Engineer) dice given: (colour, value)
    received: tuple[int, int, int]  # rollable dice received, per colour

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "gave": list(self.gave),
            "gave_fixed": [list(die) for die in self.gave_fixed],
            "received": list(self.received),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ExchangeMade:
        """The inverse of :meth:`to_dict`."""
        gave, received = data["gave"], data["received"]
        return cls(
            gave=(int(gave[0]), int(gave[1]), int(gave[2])),
            gave_fixed=tuple((int(d[0]), int(d[1])) for d in data["gave_fixed"]),
            received=(int(received[0]), int(received[1]), int(received[2])),
        )


@dataclass(frozen=True, slots=True)
class ChipMove:
    """Chips that moved between a player's supply, its board and the Hindenburg."""

    player: int
    count: int
    source: str  # "supply" | "board"
    destination: str  # "board" | "supply" | "hindenburg"
    reason: str  # "failure" | "captain" | "chip spent" | "extra turn" | "hindenburg mark"


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """What one applied action did, and what chance produced."""

    step: int
    turn: int
    player: int
    action: int
    name: str
    phase: str
    target: str | None = None  # the card or phase id attempted
    exchange: ExchangeMade | None = None  # the Materials exchange made (T3), if any
    rolled: tuple[tuple[int, ...], ...] | None = None  # faces per colour (white, red, black)
    kept: tuple[tuple[int, ...], ...] | None = None  # values that count, fixed dice included
    dice_sum: int | None = None
    bonuses: tuple[tuple[str, int], ...] = ()
    total: int | None = None
    needed: int | None = None
    result: str | None = None  # "success" | "failure" | "chip decision" | "passed"
    acquired: str | None = None  # card or phase id that went to the player
    discarded: str | None = None  # the player's own card that left the game (T6)
    chips: tuple[ChipMove, ...] = ()
    reveals: tuple[Reveal, ...] = ()  # revealed at the start of the next turn (T1)
    era_changed: bool = False
    hindenburg_opened: bool = False
    wooden_airship: int = -1  # its holder after the action
    next_player: int = -1
    game_over: bool = False
    scores: tuple[int, ...] | None = None
    winners: tuple[int, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (tuples become lists)."""
        data: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "chips":
                value = [_plain(move) for move in value]
            elif f.name == "exchange":
                value = None if value is None else value.to_dict()
            elif f.name == "reveals":
                value = [_plain(reveal) for reveal in value]
            elif isinstance(value, tuple):
                value = _lists(value)
            data[f.name] = value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ActionRecord:
        """The inverse of :meth:`to_dict`."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown record field(s): {', '.join(unknown)}")
        values = dict(data)
        values["chips"] = tuple(ChipMove(**m) for m in data.get("chips", ()))
        values["reveals"] = tuple(Reveal(**r) for r in data.get("reveals", ()))
        if values.get("exchange") is not None:
            values["exchange"] = ExchangeMade.from_dict(values["exchange"])
        for name in ("rolled", "kept"):
            if values.get(name) is not None:
                values[name] = tuple(tuple(v) for v in values[name])
        values["bonuses"] = tuple((str(b[0]), int(b[1])) for b in data.get("bonuses", ()))
        for name in ("scores", "winners"):
            if values.get(name) is not None:
                values[name] = tuple(values[name])
        return cls(**values)


def _plain(record: Reveal | ChipMove) -> dict[str, Any]:
    return {f.name: getattr(record, f.name) for f in fields(record)}


def _lists(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_lists(v) for v in value]
    return value
