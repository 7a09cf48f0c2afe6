"""Randomness helpers every game and bot shares (numpy generators only, never global state)."""

from __future__ import annotations

import numpy as np

__all__ = ["uniform_below"]

_MASK64 = (1 << 64) - 1


def uniform_below(rng: np.random.Generator, bound: int) -> int:
    """An exactly uniform integer in [0, bound) from the generator's raw 64-bit output.

    Rejection sampling on ``random_raw`` is about six times faster than ``rng.integers`` for a
    scalar, and exact (no float rounding). Deterministic for a given generator state.
    """
    if bound <= 1:
        return 0
    draw = rng.bit_generator.random_raw
    limit = ((_MASK64 + 1) // bound) * bound
    value: int = draw()
    while value >= limit:
        value = draw()
    return value % bound
