"""Typed errors raised by the engine."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action that is not legal in the current state (python-chess's IllegalMoveError)."""

    def __init__(self, action: object, phase: str, legal: list[int], names: list[str], why: str):
        self.action = action
        self.phase = phase
        self.legal = list(legal)
        self.why = why
        listed = ", ".join(f"{a} ({n})" for a, n in zip(legal, names, strict=True))
        super().__init__(
            f"illegal action {action!r} in phase '{phase}': {why}. Legal actions: {listed}"
        )


class ActionSpaceError(IllegalActionError):
    """A value that is no action at all (not an integer index, or outside 0..82).

    Unlike an action the rules forbid now, this is a bug in the caller: the environments
    raise it whatever their ``illegal_action`` option says.
    """


class CardDataError(ValueError):
    """A card file that does not follow the schema; names the file, the entry and the field."""


class LogError(ValueError):
    """A game log that cannot be read or does not replay; names the line."""
