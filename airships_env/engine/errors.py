"""Typed errors raised by the engine."""

from __future__ import annotations

from airships_env.protocol import ActionSpaceError, IllegalActionError

__all__ = ["ActionSpaceError", "CardDataError", "IllegalActionError", "LogError"]


class CardDataError(ValueError):
    """A card file that does not follow the schema; names the file, the entry and the field."""


class LogError(ValueError):
    """A game log that cannot be read or does not replay; names the line."""
