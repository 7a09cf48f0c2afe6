"""Errors of the RLlib backend that callers catch without importing ray."""

from __future__ import annotations


class ResumeError(RuntimeError):
    """A run that cannot be resumed (no checkpoint, or another config), or that would
    overwrite one."""
