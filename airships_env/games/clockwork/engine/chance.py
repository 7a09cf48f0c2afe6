"""All chance of the game, from one numpy generator's raw 64-bit output (RULES.md N1-N4)."""

from __future__ import annotations

import numpy as np

# N1 (an exactly uniform integer by rejection on raw 64-bit draws) and N2 (Fisher-Yates in place
# from the last position down) are the shared samplers of airships_env.chance.
from airships_env.chance import shuffle as shuffle  # re-exported
from airships_env.chance import uniform_below as uniform_below  # re-exported


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
