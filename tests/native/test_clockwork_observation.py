"""Clockwork City's observation in C (issue 25) against the Python encoder, the reference: at
every step of seeded random games, for every seat, on the true state and on the seat's view, the
vectors are the same bytes (2, 3 and 4 players, both discard_recall options, other rules options
and an edited data file)."""

from __future__ import annotations

import collections

import numpy as np
import pytest

from airships_env.games.clockwork.engine import ClockworkData, RulesOptions, new_game
from airships_env.games.clockwork.observation import encode_observation, observation_size
from airships_env.native import require
from airships_env.native.clockwork import NativeClockworkGame

SEEN: collections.Counter[str] = collections.Counter()


def compare_game(
    players: int,
    seed: int,
    *,
    options: RulesOptions | None = None,
    data: ClockworkData | None = None,
) -> int:
    """One random game, the core's observation of every seat compared at every step."""
    state = new_game(players, seed, options=options, data=data)
    native = NativeClockworkGame.new(players, seed, options=options, data=data)
    rng = np.random.default_rng([seed, players, 7])
    compared = 0
    while True:
        for seat in range(players):
            fast = native.observe(seat)
            reference = encode_observation(state, seat)
            assert fast.dtype == np.float32 and fast.shape == (observation_size(players),)
            assert fast.tobytes() == reference.tobytes(), (players, seed, state.step, seat)
            assert fast.tobytes() == encode_observation(state.view(seat), seat).tobytes()
            compared += 1
        SEEN[state.phase_name] += 1
        if state.challenge[0] >= 0:
            SEEN["challenge"] += 1
        if any(card >= 0 for card in state.places):
            SEEN["places"] += 1
        if state.is_terminal():
            return compared
        legal = state.legal_actions()
        action = legal[int(rng.integers(len(legal)))]
        assert native.apply_action(action) == state.apply_action(action)


@pytest.mark.parametrize("recall", ["perfect", "none"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_observations_are_the_python_encoders_at_every_step(players: int, recall: str) -> None:
    options = RulesOptions(discard_recall=recall, max_turns=40)
    assert sum(compare_game(players, seed, options=options) for seed in range(12)) > 1000


@pytest.mark.parametrize(
    "options",
    [
        RulesOptions(scrap_to="discards", white_field_exact=True, max_turns=50),
        RulesOptions(lucky_rolls="from_scrapyard", first_player="seat0", max_turns=7),
        RulesOptions(max_turns=10**30),  # the turn piece of a limit no double holds exactly
    ],
    ids=["scrap_to_discards", "from_scrapyard", "huge_max_turns"],
)
def test_other_rules_options(options: RulesOptions) -> None:
    for seed in range(6):
        compare_game(2 + seed % 3, 300 + seed, options=options)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_edited_data_file(players: int, edited_data: ClockworkData) -> None:
    for recall in ("perfect", "none"):
        options = RulesOptions(discard_recall=recall, max_turns=60)
        for seed in range(5):
            compare_game(players, 500 + seed, options=options, data=edited_data)


def test_the_games_reached_every_phase() -> None:
    """Runs after the games above (file order): what they compared covers the encoder."""
    if not SEEN:
        pytest.skip("run with the comparisons above")
    phases = ("roll", "move", "act", "demand", "respond", "counter", "give back", "discard")
    for name in (*phases, "place", "over", "challenge", "places"):
        assert SEEN[name] > 0, name


def test_bad_arguments_are_python_exceptions() -> None:
    native = NativeClockworkGame.new(3, 1)
    core = native.handle
    size = require().CW_OBS_SIZE
    assert size == observation_size(3)
    for seat in (-1, 3, 10**20):
        with pytest.raises(ValueError, match="seat"):
            core.observe(seat, np.empty(size, dtype=np.float32))
    with pytest.raises(TypeError, match="seat"):
        core.observe("0", np.empty(size, dtype=np.float32))
    for out in (
        np.empty(size, dtype=np.float64),
        np.empty(size - 1, dtype=np.float32),
        np.empty(size, dtype=np.int32),
    ):
        with pytest.raises(ValueError, match="float32"):
            core.observe(0, out)
    with pytest.raises(ValueError):  # read-only
        core.observe(0, np.frombuffer(bytes(4 * size), dtype=np.float32))
    with pytest.raises(TypeError):
        core.observe(0, [0.0] * size)
