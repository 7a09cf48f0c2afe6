"""``airships bench``: benchmarks: engine, environment and bot speed (prints figures).

A thin subcommand: every argument goes to :data:`TARGET`, the ``main(argv)`` that
``python scripts/bench.py`` runs, so ``airships bench --help`` shows that command's own help.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from airships_env.cli.common import add_forwarding_parser, forward

NAME = "bench"
TARGET = "scripts/bench.py:main"
SUMMARY = "benchmarks: engine, environment and bot speed (prints figures)"


def add_parser(subparsers: Any) -> None:
    """List ``airships bench`` in the top-level help."""
    add_forwarding_parser(subparsers, NAME, TARGET, SUMMARY)


def run(argv: Sequence[str]) -> int:
    """Run the target with ``argv`` and return its exit status."""
    return forward(NAME, TARGET, argv)
