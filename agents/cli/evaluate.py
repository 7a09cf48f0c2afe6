"""``airships evaluate``: evaluate a trained policy against the bots.

A thin subcommand: every argument goes to :data:`TARGET`, the ``main(argv)`` that
``python scripts/evaluate.py`` runs, so ``airships evaluate --help`` shows that command's own help.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agents.cli.common import add_forwarding_parser, forward

NAME = "evaluate"
TARGET = "scripts/evaluate.py:main"
SUMMARY = "evaluate a trained policy against the bots"


def add_parser(subparsers: Any) -> None:
    """List ``airships evaluate`` in the top-level help."""
    add_forwarding_parser(subparsers, NAME, TARGET, SUMMARY)


def run(argv: Sequence[str]) -> int:
    """Run the target with ``argv`` and return its exit status."""
    return forward(NAME, TARGET, argv)
