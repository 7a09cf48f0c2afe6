"""The core draws exactly what numpy and the engine's sampler draw (docs/airships/RULES.md "Chance")."""

from __future__ import annotations

import numpy as np
import pytest

from airships_env.engine.dice import shuffle, uniform_below
from airships_env.native import require
from airships_env.native.convert import rng_state, seed_words


@pytest.mark.parametrize(
    ("entropy", "spawn"),
    [(0, ()), (1, ()), (2**32 + 7, ()), (2**70 + 5, (1, 2, 3)), (42, (0,)), (9, (5, 0, 7))],
)
def test_seed_sequence_gives_numpys_pcg64_state(entropy: int, spawn: tuple[int, ...]) -> None:
    words = [w for key in spawn for w in seed_words(key)]
    state = require().seed_sequence_state(seed_words(entropy), words)
    expected = np.random.PCG64(np.random.SeedSequence(entropy, spawn_key=spawn)).state
    assert state[:2] == (expected["state"]["state"], expected["state"]["inc"])


@pytest.mark.parametrize("bound", [0, 1, 2, 6, 7, 36, 216, 2**31 + 1, 6**9, 2**63, 2**63 + 1])
def test_C1_raw_output_and_uniform_sampler_follow_numpy(bound: int) -> None:
    """bound 0: the raw 64-bit output (numpy's random_raw); else the engine's uniform_below."""
    generator = np.random.default_rng(2026)
    values, after = require().rng_draws(rng_state(generator), bound, 500)
    if bound == 0:
        expected = [int(v) for v in generator.bit_generator.random_raw(500)]
    else:
        expected = [uniform_below(generator, bound) for _ in range(500)]
    assert values == expected
    assert after == rng_state(generator)


def test_C2_shuffle_is_the_documented_fisher_yates() -> None:
    """Fisher-Yates from the last position down, each partner drawn below i + 1 (C2)."""
    generator = np.random.default_rng(3)
    twin = np.random.default_rng(3)
    items = list(range(24))
    shuffled = shuffle(generator, items.copy())
    expected = items.copy()
    for i in range(len(expected) - 1, 0, -1):
        j = uniform_below(twin, i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert shuffled == expected and sorted(shuffled) == items
