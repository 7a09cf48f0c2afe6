"""Typed errors raised by the Australia engine."""

from __future__ import annotations

from airships_env.protocol import IllegalActionError

__all__ = ["AustraliaDataError", "IllegalActionError", "LogError", "ViewError"]


class AustraliaDataError(ValueError):
    """A map or components file that does not follow the schema; names file, entry and field."""


class LogError(ValueError):
    """A game log or saved state that cannot be read or does not replay; names the entry."""


class ViewError(ValueError):
    """A view was asked to advance (determinize it first)."""
