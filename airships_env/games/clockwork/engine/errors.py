"""Typed errors raised by the Clockwork City engine."""

from __future__ import annotations

from airships_env.protocol import IllegalActionError

__all__ = ["ClockworkDataError", "IllegalActionError", "LogError"]


class ClockworkDataError(ValueError):
    """A components/track file that does not follow the schema; names file, entry and field."""


class LogError(ValueError):
    """A game log or saved state that cannot be read or does not replay; names the entry."""
