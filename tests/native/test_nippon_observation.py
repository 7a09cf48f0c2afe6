"""Nippon's observation in C (issue 25) against the Python encoder, the reference: at every step of
seeded random games, for every seat, on the true state and on the seat's view, the vectors are the
same bytes (2, 3 and 4 players, every rules option, edited data files); a data file whose spaces
and rows do not fit the layout is refused by both."""

from __future__ import annotations

import collections

import numpy as np
import pytest

from airships_env.chance import uniform_below
from airships_env.games.nippon.engine import (
    NipponData,
    Phase,
    RulesOptions,
    new_game,
    parse_data,
)
from airships_env.games.nippon.engine.data import default_data_path
from airships_env.games.nippon.observation import encode_observation, observation_size
from airships_env.native.nippon import NativeNipponGame
from tests.native.test_nippon_native import EDITS, OPTION_CASES, edited_text

SEEN: collections.Counter[str] = collections.Counter()


def compare_game(
    players: int,
    seed: int,
    *,
    options: RulesOptions | None = None,
    data: NipponData | None = None,
) -> int:
    """One random game, the core's observation of every seat compared at every step."""
    state = new_game(players, seed, options=options, data=data)
    native = NativeNipponGame.new(players, seed, options=options, data=data)
    rng = np.random.default_rng([seed, players, 26])
    compared = 0
    while True:
        for seat in range(players):
            fast = native.observe(seat)
            reference = encode_observation(state, seat)
            assert fast.dtype == np.float32 and fast.shape == (observation_size(players),)
            assert fast.tobytes() == reference.tobytes(), (players, seed, compared, seat)
            assert fast.tobytes() == encode_observation(state.view(seat), seat).tobytes()
            compared += 1
        SEEN["phase " + Phase.NAMES[state.phase]] += 1
        SEEN["pending"] += state.pend_kind >= 0
        SEEN["golden"] += state.golden_turns >= -1
        SEEN["scored"] += any(any(row) for row in state.scored)
        SEEN["owed"] += sum(state.owed) > 0
        SEEN["captured or placed"] += any(o >= 0 for row in state.influence_owner for o in row)
        if state.is_terminal():
            return compared
        legal = state.legal_actions()
        action = legal[uniform_below(rng, len(legal))]
        assert native.apply_action(action) == state.apply_action(action)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_observations_are_the_python_encoders_at_every_step(players: int) -> None:
    assert sum(compare_game(players, seed) for seed in range(4)) > 500


@pytest.mark.parametrize("case", sorted(OPTION_CASES))
def test_every_rules_option(case: str) -> None:
    for seed in range(3):
        compare_game(2 + seed % 3, 100 + seed, options=OPTION_CASES[case])


def fitting_text() -> str:
    """The default data file with every edit of the native tests but the two that change the
    observation's shape (the sixth action space and the rows)."""
    text = default_data_path().read_text(encoding="utf-8")
    for old, new in EDITS[:3] + EDITS[4:]:
        if old.startswith("actions ="):
            continue
        assert old in text, old
        text = text.replace(old, new)
    return text


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_edited_data_file(players: int) -> None:
    data = parse_data(fitting_text().encode("utf-8"), "fitting-nippon.toml")
    for seed in range(2):
        compare_game(players, 200 + seed, data=data)


def test_an_edited_data_file_of_other_spaces_and_rows() -> None:
    """Six action spaces and other rows: the same bytes where the pieces fill the layout (2 and 3
    players, by chance of the rows), refused by both where they do not (4 players)."""
    data = parse_data(edited_text().encode("utf-8"), "edited-nippon.toml")
    for players in (2, 3):
        compare_game(players, 300 + players, data=data)
    native = NativeNipponGame.new(4, 1, data=data)
    with pytest.raises(ValueError, match=r"edited-nippon\.toml"):
        native.observe(0)
    with pytest.raises(
        ValueError, match=r"edited-nippon\.toml: 6 action spaces and 12 worker rows"
    ):
        encode_observation(new_game(4, 1, data=data), 0)


def test_values_beyond_a_byte_and_below_zero() -> None:
    """The encoder's other path (values outside 0..255): the same bytes."""
    state = new_game(3, 5)
    state.yen[1], state.vp[2], state.turn_count = 1000, -7, 400
    native = NativeNipponGame.from_state(state)
    for seat in range(3):
        assert native.observe(seat).tobytes() == encode_observation(state, seat).tobytes()


def test_the_games_reached_every_phase() -> None:
    """Runs after the games above (file order): what they compared covers the encoder."""
    if not SEEN:
        pytest.skip("run with the comparisons above")
    for name in Phase.NAMES:
        if name != "over":
            assert SEEN["phase " + name] > 0, name
    for name in ("pending", "golden", "scored", "owed", "captured or placed"):
        assert SEEN[name] > 0, name


def test_bad_arguments_are_python_exceptions() -> None:
    native = NativeNipponGame.new(3, 1)
    core = native.handle
    size = observation_size(3)
    assert core.obs_size == size
    for seat in (-1, 3, 10**20):
        with pytest.raises(ValueError, match="seat"):
            core.observe(seat, np.empty(size, dtype=np.float32))
    for seat in ("0", True, 1.0):
        with pytest.raises(TypeError, match="seat"):
            core.observe(seat, np.empty(size, dtype=np.float32))
    for out in (
        np.empty(size, dtype=np.float64),
        np.empty(size - 1, dtype=np.float32),
        np.empty(size + 1, dtype=np.float32),
        np.empty(size, dtype=np.int32),
    ):
        with pytest.raises(ValueError, match="float32"):
            core.observe(0, out)
    with pytest.raises(ValueError):  # read-only
        core.observe(0, np.frombuffer(bytes(4 * size), dtype=np.float32))
    with pytest.raises(ValueError):  # not contiguous
        core.observe(0, np.empty(2 * size, dtype=np.float32)[::2])
    with pytest.raises(TypeError):
        core.observe(0, [0.0] * size)
    with pytest.raises(ValueError, match="seat"):
        native.observe(5)
