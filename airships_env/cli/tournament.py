"""``airships tournament``: a tournament between many agents: ratings and a leaderboard.

A thin subcommand: every argument goes to :data:`TARGET`, the ``main(argv)`` that
``python scripts/tournament.py`` runs, so ``airships tournament --help`` shows that command's own help.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from airships_env.cli.common import add_forwarding_parser, forward

NAME = "tournament"
TARGET = "scripts/tournament.py:main"
SUMMARY = "a tournament between many agents: ratings and a leaderboard"


def add_parser(subparsers: Any) -> None:
    """List ``airships tournament`` in the top-level help."""
    add_forwarding_parser(subparsers, NAME, TARGET, SUMMARY)


def run(argv: Sequence[str]) -> int:
    """Run the target with ``argv`` and return its exit status."""
    return forward(NAME, TARGET, argv)
