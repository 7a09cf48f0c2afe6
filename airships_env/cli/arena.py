"""``airships arena``: seeded, seat-rotated games between agents; win rates with confidence intervals.

A thin subcommand: every argument goes to :data:`TARGET`, the ``main(argv)`` that
``python scripts/arena.py`` runs, so ``airships arena --help`` shows that command's own help.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from airships_env.cli.common import add_forwarding_parser, forward

NAME = "arena"
TARGET = "scripts/arena.py:main"
SUMMARY = "seeded, seat-rotated games between agents; win rates with confidence intervals"


def add_parser(subparsers: Any) -> None:
    """List ``airships arena`` in the top-level help."""
    add_forwarding_parser(subparsers, NAME, TARGET, SUMMARY)


def run(argv: Sequence[str]) -> int:
    """Run the target with ``argv`` and return its exit status."""
    return forward(NAME, TARGET, argv)
