"""Typed errors raised by the Nippon engine."""

from __future__ import annotations

from airships_env.protocol import IllegalActionError

__all__ = ["IllegalActionError", "LogError", "NipponDataError", "ViewError"]


class NipponDataError(ValueError):
    """A components file that does not follow the schema; names the file, the entry, the field."""


class LogError(ValueError):
    """A saved state or game log that cannot be read or does not replay; names the entry."""


class ViewError(ValueError):
    """A view (one seat's copy without the bag's generator) was asked to advance."""
