"""The Nippon game object: registry, observation layout and perspective, presenter."""

from __future__ import annotations

import numpy as np
import pytest

from airships_env import registry
from airships_env.games.nippon import GAME
from airships_env.games.nippon.observation import PLAYER_SIZE
from tests.nippon.helpers import random_game


def test_registered_with_its_facts() -> None:
    game = registry.get_game("nippon")
    assert game is GAME
    assert (game.name, game.title, game.version, game.player_counts) == (
        "nippon", "Nippon", 0, (2, 3, 4),
    )  # fmt: skip
    assert game.num_actions == 176 and game.action_name(54) == "consolidate"


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_observation_matches_its_layout_and_bounds(num_players: int) -> None:
    layout = GAME.observation_layout(num_players)
    size = GAME.observation_size(num_players)
    low, high = GAME.observation_bounds(num_players)
    state = GAME.new_state(num_players, seed=1)
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        for seat in range(num_players):
            obs = GAME.observe(state.view(seat), seat)
            assert obs.shape == (size,) and obs.dtype == np.float32
            assert sum(n for _, n in layout) == size
            assert low <= float(obs.min()) and float(obs.max()) <= high
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])


def test_observation_puts_the_observing_seat_first() -> None:
    state, _ = random_game(3, 4)
    layout = GAME.observation_layout(3)
    start = sum(n for name, n in layout[:-1])
    for seat in range(3):
        obs = GAME.observe(state.view(seat), seat)
        players = obs[start:].reshape(3, PLAYER_SIZE)
        assert players[0][3] == np.float32(state.vp[seat] / 100)
        assert players[1][3] == np.float32(state.vp[(seat + 1) % 3] / 100)


def test_values_outside_a_byte_are_encoded_as_the_layout_says() -> None:
    """The encoder takes a quick path when every value lies in 0..255; a negative or larger
    one goes the general way and still gives the value over its divisor."""
    state, _ = random_game(2, 4)
    layout = GAME.observation_layout(2)
    start = sum(n for name, n in layout[:-1])
    quick = GAME.observe(state, 0)
    state.yen[0], state.vp[1] = 400, -7
    general = GAME.observe(state, 0)
    players = general[start:].reshape(2, PLAYER_SIZE)
    assert players[0][0] == np.float32(400 / 30) and players[1][3] == np.float32(-7 / 100)
    changed = np.flatnonzero(general != quick)
    assert set(changed) <= {start, start + PLAYER_SIZE + 3}


def test_presenter_text_names_the_draws_and_hides_the_order() -> None:
    state = GAME.new_state(2, seed=2)
    presenter = GAME.presenter()
    record = state.apply_action(state.legal_actions()[0])
    assert presenter.record_text(record, state).startswith(f"seat {record.seat}: ")
    text = presenter.ansi(state.view(0), 0, record)
    assert "order hidden" in text and "region 3" in text
    assert presenter.svg(state.view(1), 1, record).startswith("<svg")
