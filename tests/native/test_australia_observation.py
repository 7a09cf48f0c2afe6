"""Australia's observation in C (issue 25) against the Python encoder, the reference: the same
bytes on the true state and on the seat's view, for every seat at every step of seeded games
(2-5 players, the simple and the full game, the rules options, a huge round limit and an edited
data file)."""

from __future__ import annotations

import numpy as np
import pytest

from airships_env.chance import uniform_below
from airships_env.games.australia.engine import AustraliaData, RulesOptions, new_game, parse_data
from airships_env.games.australia.engine.actions import kind_uniform_choice
from airships_env.games.australia.observation import encode_observation, observation_size
from airships_env.native import require
from airships_env.native.australia import NativeAustraliaGame
from tests.native.test_australia_native import edited_documents


def compare_game(
    players: int,
    seed: int,
    *,
    options: RulesOptions | None = None,
    data: AustraliaData | None = None,
    views: bool = True,
) -> int:
    """Play a seeded kind-uniform game; at every step compare every seat's observation (true
    state and view) between the core and the encoder; returns the steps."""
    state = new_game(players, seed, options=options, data=data)
    rng = np.random.default_rng([seed, 7])
    steps = 0
    while True:
        native = NativeAustraliaGame.from_state(state)
        for seat in range(players):
            got = native.observe(seat)
            expected = encode_observation(state, seat)
            assert got.tobytes() == expected.tobytes(), (seed, steps, seat, np.flatnonzero(
                got != expected))  # fmt: skip
            if views:
                seen = encode_observation(state.view(seat), seat)
                assert got.tobytes() == seen.tobytes(), (seed, steps, seat, "view")
        if state.is_terminal():
            return steps
        legal = state.legal_actions()
        state.apply_action(kind_uniform_choice(legal, lambda k: uniform_below(rng, k)))
        steps += 1


def test_the_size_is_the_layouts() -> None:
    assert require().AU_OBS_SIZE == observation_size(2) == 1280


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_observe_as_the_encoder(players: int) -> None:
    steps = 0
    for seed in range(4):
        options = RulesOptions(full_game=seed % 2 == 1, recolour_anywhere=seed == 3)
        steps += compare_game(players, 100 * players + seed, options=options, views=seed < 2)
    assert steps > 300


def test_a_huge_round_limit_and_a_short_one() -> None:
    compare_game(3, 11, options=RulesOptions(max_rounds=10**30), views=False)
    compare_game(2, 12, options=RulesOptions(max_rounds=7, full_game=True))
    compare_game(4, 13, options=RulesOptions(max_rounds=2**53 + 1), views=False)


@pytest.mark.parametrize("players", [2, 5])
def test_an_edited_data_file(players: int) -> None:
    board, parts = edited_documents()
    data = parse_data(board, parts, "edited-map.toml", "edited-components.toml")
    for seed in range(3):
        compare_game(players, 900 + seed, options=RulesOptions(full_game=seed != 1), data=data)


def test_bad_arguments_are_python_exceptions() -> None:
    native = NativeAustraliaGame.new(2, 0)
    with pytest.raises(ValueError, match="seat"):
        native.handle.observe(2, np.empty(1280, dtype=np.float32))
    with pytest.raises(TypeError, match="seat"):
        native.handle.observe("0", np.empty(1280, dtype=np.float32))
    with pytest.raises(ValueError, match="float32 buffer of 1280"):
        native.handle.observe(0, np.empty(1279, dtype=np.float32))
    with pytest.raises(ValueError, match="float32"):
        native.handle.observe(0, np.empty(1280, dtype=np.float64))
    with pytest.raises(BufferError):
        native.handle.observe(0, b"\0" * 5120)
