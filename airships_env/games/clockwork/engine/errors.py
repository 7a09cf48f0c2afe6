"""Typed errors raised by the Clockwork City engine."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action that is not legal now; names the action, the phase and the legal actions."""

    def __init__(self, action: object, phase: str, legal: list[int], names: list[str], why: str):
        self.action = action
        self.phase = phase
        self.legal = list(legal)
        self.why = why
        listed = ", ".join(f"{a} ({n})" for a, n in zip(legal, names, strict=True))
        super().__init__(
            f"illegal action {action!r} in phase '{phase}': {why}. Legal actions: {listed}"
        )


class ClockworkDataError(ValueError):
    """A components/track file that does not follow the schema; names file, entry and field."""


class LogError(ValueError):
    """A game log or saved state that cannot be read or does not replay; names the entry."""
