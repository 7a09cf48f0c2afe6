"""Chance: the dice faces, exact distributions of an attempt's sum, and sampling.

An attempt (docs/airships/RULES.md T4) rolls, for each colour the cost asks for, at most 3 of the player's rollable
dice of that colour, and sums the best ``k`` dice of that colour among the rolled and the fixed
(Engineer) dice, ``k`` being the number the cost asks for. The distributions here are exact:
integer counts over the ``6**n`` equally likely outcomes, memoised per shape, so the odds of an
attempt cost a dictionary look-up after the first time (bounded caches of pure values).

Sampling (docs/airships/RULES.md "Chance") uses one exact uniform sampler on the generator's raw 64-bit
output, :func:`uniform_below`, for everything: a roll is one draw below ``6 ** dice`` read in
base 6 (:func:`roll`), a shuffle is a Fisher-Yates on the same draws (:func:`shuffle`). The
native core implements the same three functions, so both engines deal and roll alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

import numpy as np

from airships_env.chance import shuffle as shuffle  # re-exported
from airships_env.chance import uniform_below as uniform_below  # re-exported
from airships_env.engine.cards import BLACK, COLOURS, RED, WHITE

FACES: tuple[tuple[int, ...], ...] = (
    (1, 1, 2, 2, 3, 3),  # white
    (2, 3, 3, 4, 4, 5),  # red
    (4, 4, 6, 6, 8, 8),  # black
)
MAX_ROLLED_PER_COLOUR = 3

# One colour's part of an attempt: (colour, dice rolled, dice kept, fixed values sorted high first)
ColourShape = tuple[int, int, int, tuple[int, ...]]
# An attempt's dice: one ColourShape per colour in the cost, in colour order.
AttemptShape = tuple[ColourShape, ...]
# Exact distribution: (denominator, ((sum, count), ...)) sorted by sum; counts add to denominator.
Distribution = tuple[int, tuple[tuple[int, int], ...]]

_Cache = TypeVar("_Cache", bound=dict)
_CACHE_LIMIT = 100_000  # entries per cache before it is cleared (pure values, never pickled)
_colour_cache: dict[ColourShape, Distribution] = {}
_attempt_cache: dict[AttemptShape, Distribution] = {}
_tail_cache: dict[AttemptShape, dict[int, int]] = {}


def _bounded(cache: _Cache) -> _Cache:
    """The cache, emptied first if it reached the limit."""
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    return cache


def best_sum(values: Sequence[int], keep: int) -> int:
    """Sum of the ``keep`` highest values."""
    return sum(sorted(values, reverse=True)[:keep])


def colour_distribution(shape: ColourShape) -> Distribution:
    """Exact distribution of one colour's kept sum."""
    cached = _colour_cache.get(shape)
    if cached is not None:
        return cached
    colour, rolled, keep, fixed = shape
    counts: dict[int, int] = {}
    for outcome in _OUTCOMES[colour][rolled]:
        total = best_sum(outcome + fixed, keep)
        counts[total] = counts.get(total, 0) + 1
    result = (6**rolled, tuple(sorted(counts.items())))
    _bounded(_colour_cache)[shape] = result
    return result


def attempt_distribution(shape: AttemptShape) -> Distribution:
    """Exact distribution of an attempt's dice sum (before bonuses): convolution of the colours."""
    cached = _attempt_cache.get(shape)
    if cached is not None:
        return cached
    denominator = 1
    counts: dict[int, int] = {0: 1}
    for colour_shape in shape:
        colour_denominator, colour_counts = colour_distribution(colour_shape)
        denominator *= colour_denominator
        merged: dict[int, int] = {}
        for total, count in counts.items():
            for value, value_count in colour_counts:
                merged[total + value] = merged.get(total + value, 0) + count * value_count
        counts = merged
    result = (denominator, tuple(sorted(counts.items())))
    _bounded(_attempt_cache)[shape] = result
    return result


def count_at_least(shape: AttemptShape, needed: int) -> tuple[int, int]:
    """(number of outcomes whose dice sum is >= needed, denominator)."""
    tails = _tail_cache.get(shape)
    denominator, counts = attempt_distribution(shape)
    if tails is None:
        tails = {}
        running = 0
        for total, count in reversed(counts):
            running += count
            tails[total] = running
        _bounded(_tail_cache)[shape] = tails
    if needed <= counts[0][0]:
        return denominator, denominator
    if needed > counts[-1][0]:
        return 0, denominator
    # The smallest reachable sum >= needed carries the tail count.
    while needed not in tails:
        needed += 1
    return tails[needed], denominator


@dataclass(frozen=True, slots=True)
class AttemptOdds:
    """The odds of one attempt before rolling, as floats; ``exact`` gives the Fractions.

    ``success``: the dice and automatic bonuses reach the target without a chip.
    ``chip_decides``: the total misses by exactly 1, so a chip would decide it (T5).
    ``success_with_chip``: success if the player spends a chip whenever it decides the attempt
    (equals ``success`` when the player has no chip on its board).
    ``counts``: the integer counts behind them: (success, chip decides, success with chip,
    number of equally likely outcomes).
    """

    success: float
    chip_decides: float
    success_with_chip: float
    counts: tuple[int, int, int, int]

    @property
    def exact(self) -> tuple[Fraction, Fraction, Fraction]:
        """(success, chip_decides, success_with_chip) as exact fractions."""
        success, chip, with_chip, denominator = self.counts
        return (
            Fraction(success, denominator),
            Fraction(chip, denominator),
            Fraction(with_chip, denominator),
        )


_odds_cache: dict[tuple[AttemptShape, int, bool], AttemptOdds] = {}


def attempt_odds(shape: AttemptShape, target: int, bonus: int, has_chip: bool) -> AttemptOdds:
    """Exact odds of reaching ``target`` with the dice of ``shape`` plus automatic ``bonus``."""
    key = (shape, target - bonus, has_chip)
    cached = _odds_cache.get(key)
    if cached is None:
        cached = _bounded(_odds_cache)[key] = _compute_odds(shape, target - bonus, has_chip)
    return cached


def _compute_odds(shape: AttemptShape, needed: int, has_chip: bool) -> AttemptOdds:
    at_least, denominator = count_at_least(shape, needed)
    one_short, _ = count_at_least(shape, needed - 1)
    chip_count = one_short - at_least
    with_chip = one_short if has_chip else at_least
    return AttemptOdds(
        at_least / denominator,
        chip_count / denominator,
        with_chip / denominator,
        (at_least, chip_count, with_chip, denominator),
    )


def _outcomes(colour: int, count: int) -> tuple[tuple[int, ...], ...]:
    """Every outcome of rolling ``count`` dice of a colour, indexed by a base-6 code."""
    outcomes: list[tuple[int, ...]] = [()]
    for _ in range(count):
        outcomes = [(*o, f) for f in FACES[colour] for o in outcomes]
    return tuple(outcomes)


# _OUTCOMES[colour][n][code] for code in [0, 6**n): precomputed so a roll is three look-ups.
_OUTCOMES = tuple(
    tuple(_outcomes(c, n) for n in range(MAX_ROLLED_PER_COLOUR + 1)) for c in (WHITE, RED, BLACK)
)
_POWERS = tuple(6**n for n in range(3 * MAX_ROLLED_PER_COLOUR + 1))


def roll(rng: np.random.Generator, rolled: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Roll ``rolled[c]`` dice of each colour c (at most 3); returns the faces per colour."""
    white, red, black = rolled
    code = uniform_below(rng, _POWERS[white + red + black])
    code, white_code = divmod(code, _POWERS[white])
    black_code, red_code = divmod(code, _POWERS[red])
    return (
        _OUTCOMES[WHITE][white][white_code],
        _OUTCOMES[RED][red][red_code],
        _OUTCOMES[BLACK][black][black_code],
    )


def check_forced_roll(rolled: Sequence[int], values: Sequence[Sequence[int]]) -> str | None:
    """Why a given roll does not fit the dice rolled (None if it fits)."""
    if len(values) != 3:
        return f"expected the faces of 3 colours (white, red, black), got {len(values)}"
    for colour in (WHITE, RED, BLACK):
        if len(values[colour]) != rolled[colour]:
            return f"expected {rolled[colour]} {COLOURS[colour]} dice, got {len(values[colour])}"
        for value in values[colour]:
            if value not in FACES[colour]:
                return f"{value} is not a face of a {COLOURS[colour]} die {FACES[colour]}"
    return None
