"""Nippon's observation in C (issue 25) against the Python encoder, the reference: at every step of
seeded random games, for every seat, on the true state and on the seat's view, the vectors are the
same bytes (2, 3 and 4 players, every rules option, edited data files, one of fewer worker rows
padded); a data file of more action spaces or rows than the layout holds is refused by both."""

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
from airships_env.games.nippon.engine.data import default_data, default_data_path
from airships_env.games.nippon.observation import (
    encode_observation,
    observation_layout,
    observation_offsets,
    observation_size,
)
from airships_env.native.nippon import NativeNipponGame, NipponBatch
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


#: worker rows for 2, 3 and 4 players fewer than the default's (2, 4, 6): none at 2 players
FEWER_ROWS = "rows = { 2 = 0, 3 = 3, 4 = 5 }"


def fewer_rows_text() -> str:
    """The fitting file with fewer worker rows than the layout holds (its pieces padded)."""
    text = fitting_text()
    assert "rows = { 2 = 2, 3 = 4, 4 = 6 }" in text
    return text.replace("rows = { 2 = 2, 3 = 4, 4 = 6 }", FEWER_ROWS)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_data_file_of_more_action_spaces_or_rows_is_refused(players: int) -> None:
    """Six action spaces do not fit the layout's five at any table, twelve rows not its six at
    4 players: both encoders and the batch refuse them, naming the file, the piece and the
    counts (never a vector of shifted pieces)."""
    data = parse_data(edited_text().encode("utf-8"), "edited-nippon.toml")
    message = (
        r"edited-nippon\.toml: 6 action spaces do not fit the observation's 'action_spaces'"
        r" piece \(5 x 6 colours\)"
    )
    with pytest.raises(ValueError, match=message):
        encode_observation(new_game(players, 1, data=data), 0)
    native = NativeNipponGame.new(players, 1, data=data)
    with pytest.raises(ValueError, match=message):
        native.observe(0)
    with pytest.raises(ValueError, match="do not fit"):  # the core's own guard
        native.handle.observe(0, np.empty(observation_size(players), dtype=np.float32))
    with pytest.raises(ValueError, match=message):
        NipponBatch(2, players, data=data)
    rows = default_data_path().read_text(encoding="utf-8")
    rows = rows.replace("rows = { 2 = 2, 3 = 4, 4 = 6 }", "rows = { 2 = 3, 3 = 5, 4 = 7 }")
    data = parse_data(rows.encode("utf-8"), "rows-nippon.toml")
    message = (
        rf"rows-nippon\.toml: {2 * players - 1} worker rows for {players} players do"
        rf" not fit the observation's 'rows' piece \({2 * players - 2} x 6 colours\)"
    )
    with pytest.raises(ValueError, match=message):
        encode_observation(new_game(players, 1, data=data), 0)
    with pytest.raises(ValueError, match=message):
        NativeNipponGame.new(players, 1, data=data).observe(0)
    with pytest.raises(ValueError, match=message):
        NipponBatch(2, players, data=data)


def test_the_cores_batch_refuses_a_file_that_does_not_fit_unchecked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past the Python side's check (an empty observation), the core's batch refuses the
    tables itself rather than writing observations beyond the buffers."""
    import airships_env.native.nippon as native_nippon

    monkeypatch.setattr(native_nippon, "_check_layout", lambda obs_size, players, data: 0)
    data = parse_data(edited_text().encode("utf-8"), "edited-nippon.toml")
    with pytest.raises(ValueError, match="do not fit the observation's layout"):
        NipponBatch(2, 2, data=data)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_data_file_of_fewer_rows_is_padded(players: int) -> None:
    """Fewer worker rows than the layout holds: the same bytes from both encoders at every step,
    each piece at its named offset, the rest of the rows and owed pieces 0."""
    data = parse_data(fewer_rows_text().encode("utf-8"), "fewer-nippon.toml")
    rows, room = data.num_rows(players), default_data().num_rows(players)
    assert rows < room
    for seed in range(2):
        compare_game(players, 400 + seed, data=data)
    state = new_game(players, 7, data=data)
    for r in range(rows):
        state.rows[r] = [r + 1] * 6
    state.owed = [1] * len(state.owed)
    state.bag = [7, 0, 0, 0, 0, 0]
    state.machinery_supply, state.yen[1] = 12, 30
    at = observation_offsets(players)
    fast = NativeNipponGame.from_state(state).observe(1)
    out = encode_observation(state, 1)
    assert fast.tobytes() == out.tobytes()
    layout = dict(observation_layout(players))
    piece = out[at["rows"] : at["rows"] + layout["rows"]]
    assert piece.tolist() == [np.float32((r + 1) / 3) for r in range(rows) for _ in range(6)] + [
        0.0
    ] * (6 * (room - rows))
    owed = out[at["owed"] : at["owed"] + layout["owed"]]
    third = np.float32(1 / 3)
    assert owed.tolist() == [third] * (5 + rows) + [0.0] * (room - rows)
    assert out[at["bag"]] == 1.0 and out[at["bag"] + 1] == 0.0
    assert out[at["factories_open"] : at["machinery"]].tolist() == [1.0] * 24
    assert out[at["machinery"]] == 0.5
    assert out[at["players"]] == 1.0  # the observing seat's yen / 30


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
