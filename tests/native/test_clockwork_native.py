"""Clockwork City's native core against the Python engine (issue 25): the same seeds and actions
must give the same game at every step (the deal, the legal actions, every record, the whole state
with the players' knowledge and the generator), for every player count, every rules option, an
edited data file and the golden games; and bad input is refused with the engine's errors.

The default run plays about 500 games (~8 s on one core); ``make test-slow`` many more.
"""

from __future__ import annotations

import collections
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from airships_env.chance import uniform_below
from airships_env.games.clockwork import GAME
from airships_env.games.clockwork.engine import (
    ClockworkData,
    IllegalActionError,
    RulesOptions,
    State,
    ViewError,
    new_game,
    parse_data,
)
from airships_env.games.clockwork.engine import actions as A
from airships_env.games.clockwork.engine import data as cw_data
from airships_env.games.clockwork.engine.data import SCRAP, default_data_path
from airships_env.games.clockwork.engine.errors import ClockworkDataError
from airships_env.games.clockwork.engine.model import DISCARD, OVER, PHASE_NAMES
from airships_env.native import require
from airships_env.native.clockwork import NativeClockworkGame, pack_options, random_games, tables
from airships_env.native.convert import rng_state

GOLDEN = Path(__file__).resolve().parent.parent / "clockwork" / "golden"
STATE_FIELDS = [f for f in State.__slots__ if f not in ("data", "options", "rng", "view_seat")]

# What the batches visited (phases, endings): checked at the end so that "agree" is not vacuous.
SEEN: collections.Counter[str] = collections.Counter()


def python_fields(state: State) -> dict[str, Any]:
    """The Python state's fields, as the core exports them (generator and view seat apart)."""
    return {name: getattr(state, name) for name in STATE_FIELDS}


def play_both(
    players: int,
    seed: int,
    *,
    options: RulesOptions | None = None,
    data: ClockworkData | None = None,
) -> int:
    """One random game in both engines, compared at every step; returns its length."""
    python = new_game(players, seed, options=options, data=data)
    native = NativeClockworkGame.new(players, seed, options=options, data=data)
    assert native.to_state().to_dict() == python.to_dict(), ("the deal", players, seed)
    core = native.handle
    rng = np.random.default_rng([seed, players, 25])
    step = 0
    while not python.is_terminal():
        legal = python.legal_actions()
        assert core.legal_actions() == legal, ("legal actions", players, seed, step)
        SEEN[PHASE_NAMES[python.phase]] += 1
        action = legal[int(rng.integers(len(legal)))]
        assert native.apply_action(action) == python.apply_action(action), ("record", step)
        exported = core.export()
        assert exported.pop("rng") == rng_state(python.rng), ("generator", step)
        del exported["view_seat"]
        assert exported == python_fields(python), ("state", players, seed, step)
        step += 1
    assert native.is_terminal() and core.legal_actions() == []
    assert native.to_state().to_dict() == python.to_dict(), "the final state"
    assert native.outcome() == python.outcome()
    SEEN["endgame" if python.endgame else "no endgame"] += 1
    if python.winner >= 0:
        kind = "machines" if python.laid_fm[python.winner] >= 0 else "airship"
        SEEN[f"won by {kind}"] += 1
    else:
        SEEN["draw"] += 1
    return step


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_agree_step_by_step(players: int) -> None:
    steps = sum(play_both(players, seed) for seed in range(80))
    assert steps > 80 * 100


# Every rules option at its other value(s) (the defaults are the batch above), shorter games.
OPTION_CASES = {
    "white_field_exact": RulesOptions(white_field_exact=True, max_turns=40),
    "lucky_from_scrapyard": RulesOptions(lucky_rolls="from_scrapyard", max_turns=40),
    "scrap_to_discards": RulesOptions(scrap_to="discards", max_turns=40),
    "discard_recall_none": RulesOptions(discard_recall="none", max_turns=40),
    "first_player_seat0": RulesOptions(first_player="seat0", max_turns=40),
    "max_turns_3": RulesOptions(max_turns=3),
}


@pytest.mark.parametrize("case", sorted(OPTION_CASES))
def test_every_rules_option_agrees(case: str) -> None:
    options = OPTION_CASES[case]
    for seed in range(45):
        play_both(2 + seed % 3, 1000 + seed, options=options)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_edited_data_file_agrees(players: int, edited_data: ClockworkData) -> None:
    assert tables(edited_data, players)[1] == (31, 17, (3, 30, 9, 12, 20, 25))
    for seed in range(40):
        play_both(players, 2000 + seed, data=edited_data)


def test_the_batches_reached_every_phase_and_ending() -> None:
    """Runs after the batches above (file order): what they compared covers the rules."""
    if not SEEN:
        pytest.skip("run with the batches above")
    phases = {name for name in PHASE_NAMES if name != "over"}
    assert phases <= set(SEEN), SEEN
    for ending in ("endgame", "won by machines", "won by airship", "draw"):
        assert SEEN[ending] > 0, (ending, SEEN)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_many_random_games_agree_step_by_step(players: int) -> None:
    for seed in range(5000, 6500):
        play_both(players, seed)


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(OPTION_CASES))
def test_many_games_of_every_rules_option_agree(case: str) -> None:
    options = replace(OPTION_CASES[case], max_turns=max(OPTION_CASES[case].max_turns, 100))
    for seed in range(300):
        play_both(2 + seed % 3, 7000 + seed, options=options)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_benchmark_games_are_the_engines_games(players: int) -> None:
    """cw_random_games (the engine benchmark) plays what the Python engine plays from the same
    seeds: game g deals from SeedSequence(seed, spawn_key=(g, 0)), chooses from (g, 1)."""
    applied = 0
    for game in range(4):
        rng = np.random.default_rng(np.random.SeedSequence(31, spawn_key=(game, 0)))
        chooser = np.random.default_rng(np.random.SeedSequence(31, spawn_key=(game, 1)))
        state = new_game(players, rng=rng)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[uniform_below(chooser, len(legal))])
            applied += 1
    assert random_games(players, 4, 31) == applied


# -- the golden games -----------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.jsonl")), ids=lambda path: path.stem)
def test_the_golden_games_replay_in_the_core(path: Path) -> None:
    """A log the Python engine wrote replays in the core: every record, then the final state."""
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    native = NativeClockworkGame.new(
        header["players"], header["seed"], options=RulesOptions.from_dict(header["options"])
    )
    for line in lines[1:]:
        logged = GAME.record_from_dict(json.loads(line))
        assert native.apply_action(logged.action) == logged
    final = json.loads(path.with_suffix("").with_suffix(".final.json").read_text("utf-8"))
    assert json.loads(json.dumps(native.to_state().to_dict(), sort_keys=True)) == final
    assert native.is_terminal()


# -- states in and out ------------------------------------------------------------------------


def test_states_round_trip_and_continue_identically() -> None:
    """from_state/to_state keep everything; an imported game continues as the Python one."""
    for seed in range(12):
        state = new_game(2 + seed % 3, seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            native = NativeClockworkGame.from_state(state)
            assert native.to_state().to_dict() == state.to_dict()
            legal = state.legal_actions()
            action = legal[int(rng.integers(len(legal)))]
            assert native.apply_action(action) == state.apply_action(action)
            assert native.to_state().to_dict() == state.to_dict()


def test_a_state_without_generator_takes_forced_dice_only() -> None:
    state = new_game(3, 4)
    state.rng = None
    native = NativeClockworkGame.from_state(state)
    before = native.to_state().to_dict()
    with pytest.raises(ViewError, match="no generator"):
        native.apply_action(A.ROLL)
    with pytest.raises(ViewError, match="no generator"):
        state.clone().apply_action(A.ROLL)
    assert native.to_state().to_dict() == before
    assert native.apply_action(A.ROLL, dice=(3, 4)) == state.apply_action(A.ROLL, dice=(3, 4))
    assert native.to_state().to_dict() == state.to_dict()


def test_clones_are_independent() -> None:
    native = NativeClockworkGame.new(2, 3)
    copy = native.clone()
    native.apply_action(A.ROLL)
    assert copy.to_state().to_dict() == NativeClockworkGame.new(2, 3).to_state().to_dict()
    assert copy.apply_action(A.ROLL) == NativeClockworkGame.new(2, 3).apply_action(A.ROLL)


# -- errors -------------------------------------------------------------------------------------


@pytest.mark.parametrize("action", [5, A.PASS, A.NUM_ACTIONS, -1, 10**30, "roll", True, 2.0])
def test_an_illegal_action_is_refused_as_the_engine_does_and_changes_nothing(
    action: Any,
) -> None:
    python = new_game(3, 11)
    native = NativeClockworkGame.new(3, 11)
    before = native.to_state().to_dict()
    with pytest.raises(IllegalActionError) as from_python:
        python.apply_action(action)
    with pytest.raises(IllegalActionError) as from_core:
        native.apply_action(action)
    assert str(from_core.value) == str(from_python.value)
    assert from_core.value.legal == [A.ROLL]
    assert "Legal actions: 0 (roll)" in str(from_core.value)
    assert native.to_state().to_dict() == before


def test_the_core_refuses_an_illegal_action_itself() -> None:
    """The binding alone (no Python wrapper) raises the typed error, naming the legal actions."""
    core = NativeClockworkGame.new(2, 1).handle
    before = core.export()
    with pytest.raises(IllegalActionError, match=r"illegal action 33 in phase 'roll'.*0 \(roll\)"):
        core.apply(33)
    with pytest.raises(TypeError):
        core.apply("33")
    with pytest.raises(ValueError, match="forced dice"):
        core.apply(A.ROLL, (0, 7))
    assert core.export() == before


def test_a_finished_game_refuses_every_action() -> None:
    python = new_game(2, 0, options=RulesOptions(max_turns=1))
    native = NativeClockworkGame.new(2, 0, options=RulesOptions(max_turns=1))
    while not python.is_terminal():
        action = python.legal_actions()[0]
        python.apply_action(action)
        native.apply_action(action)
    assert native.phase == OVER
    with pytest.raises(IllegalActionError, match="the game is over") as refused:
        native.apply_action(A.ROLL)
    with pytest.raises(IllegalActionError) as from_python:
        python.apply_action(A.ROLL)
    assert str(refused.value) == str(from_python.value)


def test_bad_forced_dice_are_refused_as_the_engine_does() -> None:
    python, native = new_game(2, 5), NativeClockworkGame.new(2, 5)
    for dice in [(0, 3), (1, 7), (1, 2, 3)]:
        with pytest.raises(ValueError) as from_python:
            python.apply_action(A.ROLL, dice=dice)  # type: ignore[arg-type]
        with pytest.raises(ValueError) as from_core:
            native.apply_action(A.ROLL, dice=dice)  # type: ignore[arg-type]
        assert str(from_core.value) == str(from_python.value)
    assert native.to_state().to_dict() == python.to_dict()


def test_no_free_place_is_refused_before_anything_changes() -> None:
    """H2 with every place taken (only a data file of more than 58 cards can get there): the core
    refuses the discard and keeps the state (the Python engine fails inside list.index)."""
    state = new_game(2, 0, options=RulesOptions(first_player="seat0"))
    state.places = [SCRAP] * len(state.places)
    state.hands[0][SCRAP] += 1
    state.phase = DISCARD
    native = NativeClockworkGame.from_state(state)
    before = native.to_state().to_dict()
    with pytest.raises(ValueError, match="no free place"):
        native.apply_action(A.discard(SCRAP))
    assert native.to_state().to_dict() == before


def test_a_deck_larger_than_the_places_is_refused_by_the_loader() -> None:
    """72 cards for 2 players could fill all 58 places (the Python engine then failed inside
    list.index); the loader refuses such a file, naming the entry and the field, so neither
    engine ever meets it (the core's own check above stays as a defence)."""
    doc = cw_data.tomllib.loads(default_data_path().read_text(encoding="utf-8"))
    for card in doc["card"]:
        card["count"]["p2"] = 8 if card["id"] in ("AS", "FUEL", "POWER", "SCRAP") else 4
    with pytest.raises(
        ClockworkDataError, match=r"big\.toml: entry \[\[card\]\], field 'count\.p2': 72 cards"
    ):
        parse_data(doc, source="big.toml")


def cw_new_args(**changes: Any) -> list[Any]:
    data = new_game(2, 0).data
    counts, track = tables(data, 2)
    args = {
        "players": 2,
        "rng": rng_state(np.random.default_rng(0)),
        "options": pack_options(RulesOptions()),
        "counts": counts,
        "track": track,
    }
    args.update(changes)
    return list(args.values())


BAD_NEW_ARGS = [
    ({"players": 1}, ValueError, "num_players"),
    ({"players": 5}, ValueError, "num_players"),
    ({"players": "2"}, TypeError, "num_players"),
    ({"rng": None}, ValueError, "generator"),
    ({"rng": (1, 2)}, TypeError, None),
    ({"rng": "seed"}, TypeError, "generator state"),
    ({"options": (True,) * 5}, TypeError, "options"),
    ({"options": (1, True, True, True, True, 100)}, TypeError, "options"),
    ({"options": (True, True, True, True, True, 0)}, ValueError, "max_turns"),
    ({"options": (True, True, True, True, True, -(10**30))}, ValueError, "max_turns"),
    ({"options": (True, True, True, True, True, 2.5)}, TypeError, "max_turns"),
    ({"counts": (4,) * 13}, ValueError, "14 integers"),
    ({"counts": (4,) * 13 + (9,)}, ValueError, "counts"),
    ({"counts": (3,) + (4,) * 13}, ValueError, "0 or 4"),
    ({"counts": (0,) * 10 + (2, 2, 2, 2)}, ValueError, "cannot deal"),
    ({"counts": 5}, TypeError, None),
    ({"track": (25, 0, (1, 2, 3, 4, 5, 6))}, ValueError, "track length"),
    ({"track": (201, 0, (1, 2, 3, 4, 5, 6))}, ValueError, "track length"),
    ({"track": (49, 49, (1, 2, 3, 4, 5, 6))}, ValueError, "towers"),
    ({"track": (49, 0, (1, 2, 3, 4, 5, 49))}, ValueError, "scrapyards"),
    ({"track": (49, 0, (1, 2, 3, 4, 5))}, ValueError, "scrapyards"),
    ({"track": (49, 0, (1, 2, 3, 4, 5, 5))}, ValueError, "distinct"),
    ({"track": (49, 1, (1, 2, 3, 4, 5, 6))}, ValueError, "distinct"),
    ({"track": [49, 0, (1, 2, 3, 4, 5, 6)]}, TypeError, "track"),
]


@pytest.mark.parametrize(("changes", "error", "match"), BAD_NEW_ARGS, ids=repr)
def test_bad_arguments_to_the_core_are_python_exceptions(
    changes: dict[str, Any], error: type[Exception], match: str | None
) -> None:
    with pytest.raises(error, match=match):
        require().cw_new(*cw_new_args(**changes))


def test_bad_arguments_to_the_wrapper_and_the_bench_games_are_python_exceptions() -> None:
    options, (counts, track) = pack_options(RulesOptions()), tables(new_game(2, 0).data, 2)
    with pytest.raises(ValueError, match="games"):
        require().cw_random_games(2, -1, 0, options, counts, track)
    with pytest.raises(ValueError, match="seed"):
        require().cw_random_games(2, 1, 2**32, options, counts, track)
    with pytest.raises(ValueError, match="num_players"):
        require().cw_random_games(5, 1, 0, options, counts, track)
    assert require().cw_random_games(2, 0, 0, options, counts, track) == 0
    with pytest.raises(ValueError, match="seed"):
        NativeClockworkGame.new(2, -1)
    with pytest.raises(ValueError, match="2 to 4 players"):
        NativeClockworkGame.new(True)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="either seed or rng"):
        NativeClockworkGame.new(2, 0, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="PCG64"):
        NativeClockworkGame.new(2, rng=np.random.Generator(np.random.MT19937(0)))


def test_a_huge_turn_limit_plays_as_the_engine() -> None:
    options = RulesOptions(max_turns=10**30)
    args = cw_new_args(options=pack_options(options))
    assert require().cw_new(*args).legal_actions() == [A.ROLL]
    python = new_game(2, 8, options=options)
    native = NativeClockworkGame.new(2, 8, options=options)
    rng = np.random.default_rng(8)
    for _ in range(300):
        if python.is_terminal():
            break
        legal = python.legal_actions()
        action = legal[int(rng.integers(len(legal)))]
        assert native.apply_action(action) == python.apply_action(action)
    assert native.to_state().to_dict() == python.to_dict()


BAD_STATES: list[tuple[str, Any, str]] = [
    ("view_seat", 0, "view"),
    ("phase", 10, "phase"),
    ("actor", 2, "actor"),
    ("pawns", [0, 49], "pawns"),
    ("hands", [[0] * 14], "hands"),
    ("piles", [[0]] * 5, "piles"),
    ("piles", [[14]] * 6, "piles"),
    ("places", [-1] * 57, "places"),
    ("known", [[[0] * 14] * 2], "known"),
    ("challenge", [5, 0, 0, 0], "challenge"),
    ("num_players", 6, "num_players"),
]


@pytest.mark.parametrize(("key", "value", "match"), BAD_STATES, ids=repr)
def test_a_bad_state_is_refused_on_import(key: str, value: Any, match: str) -> None:
    state = new_game(2, 0)
    exported = state.to_dict()
    exported["rng"] = rng_state(state.rng)
    exported[key] = value
    if key == "challenge":
        exported["phase"] = 3  # a challenge in progress indexes the hands by its seats
    counts, track = tables(state.data, 2)
    with pytest.raises((ValueError, TypeError, KeyError), match=match):
        require().cw_import(pack_options(state.options), counts, track, exported)
    del exported[key]
    with pytest.raises(KeyError, match=key):
        require().cw_import(pack_options(state.options), counts, track, exported)


def test_a_seat_must_be_an_integer_not_a_bool() -> None:
    """``True`` is an int to Python; the core refuses it as a seat like every other game's."""
    core = NativeClockworkGame.new(2, 1).handle
    out = np.zeros(len(NativeClockworkGame.new(2, 1).observe(0)), dtype=np.float32)
    state = np.random.default_rng(0).bit_generator.state
    rng = (state["state"]["state"], state["state"]["inc"], 0, 0)
    calls = (
        lambda: core.observe(True, out),
        lambda: core.view(True),
        lambda: core.determinize(True, rng),
    )
    for call in calls:
        with pytest.raises(TypeError, match="seat: expected an integer, got bool"):
            call()
    core.observe(1, out)  # an int is fine
