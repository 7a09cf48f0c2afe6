"""All chance of the game, from one numpy generator's raw 64-bit output (RULES.md N1-N4)."""

from __future__ import annotations

import numpy as np

_MASK64 = (1 << 64) - 1


def uniform_below(rng: np.random.Generator, bound: int) -> int:
    """An exactly uniform integer in [0, bound) by rejection on raw 64-bit draws (N1)."""
    if bound <= 1:
        return 0
    draw = rng.bit_generator.random_raw
    limit = ((_MASK64 + 1) // bound) * bound
    value: int = int(draw())
    while value >= limit:
        value = int(draw())
    return value % bound


def shuffle(rng: np.random.Generator, items: list[int]) -> list[int]:
    """Fisher-Yates in place from the last position down (N2); returns ``items``."""
    for i in range(len(items) - 1, 0, -1):
        j = uniform_below(rng, i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def roll_two(rng: np.random.Generator) -> tuple[int, int]:
    """Two six-sided dice from one draw below 36 (N3)."""
    value = uniform_below(rng, 36)
    return 1 + value % 6, 1 + value // 6


def is_lucky(dice: tuple[int, int] | list[int]) -> bool:
    """A sum of 7 or 11, or a double (T1)."""
    total = dice[0] + dice[1]
    return total in (7, 11) or dice[0] == dice[1]


def is_odd_or_double(dice: tuple[int, int] | list[int]) -> bool:
    """An odd sum or a double: the endgame roll that allows a pick-up (F2)."""
    return (dice[0] + dice[1]) % 2 == 1 or dice[0] == dice[1]
