"""``airships train``: train a policy (PPO) against bots and past versions of itself.

A thin subcommand: every argument goes to :data:`TARGET`, the ``main(argv)`` that
``python scripts/train.py`` runs, so ``airships train --help`` shows that command's own help.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agents.cli.common import add_forwarding_parser, forward

NAME = "train"
TARGET = "scripts/train.py:main"
SUMMARY = "train a policy (PPO) against bots and past versions of itself"


def add_parser(subparsers: Any) -> None:
    """List ``airships train`` in the top-level help."""
    add_forwarding_parser(subparsers, NAME, TARGET, SUMMARY)


def run(argv: Sequence[str]) -> int:
    """Run the target with ``argv`` and return its exit status."""
    return forward(NAME, TARGET, argv)
