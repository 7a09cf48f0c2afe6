"""Nippon's native core against the Python engine (issue 25): the same seeds and actions must give
the same game at every step (the legal actions, every record with the colours it drew from the
bag, the whole state and the generator), for every player count, every rules option, an edited
data file and the golden games; and bad input is refused with the engine's errors.

The default run plays about 350 games (~10 s on this shared machine); ``make test-slow`` many more.
"""

from __future__ import annotations

import collections
import copy
import json
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from airships_env.chance import uniform_below
from airships_env.games.nippon.engine import (
    IllegalActionError,
    NipponData,
    NipponDataError,
    Phase,
    RulesOptions,
    State,
    ViewError,
    default_data,
    new_game,
    parse_data,
    state_from_dict,
)
from airships_env.games.nippon.engine import actions as A
from airships_env.games.nippon.engine.data import default_data_path
from airships_env.native import require
from airships_env.native.convert import rng_state
from airships_env.native.nippon import NativeNipponGame, pack_options, random_games, tables

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "nippon"
STATE_FIELDS = [f for f in State.__slots__ if f not in ("data", "options", "rng", "is_view")]

# What the batches visited (phases, kinds of action, scorings, endings): checked at the end so
# that "agree" is not vacuous.
SEEN: collections.Counter[str] = collections.Counter()

Chooser = Callable[[list[int], np.random.Generator], int]


def uniform(legal: list[int], rng: np.random.Generator) -> int:
    """Every legal action equally likely."""
    return legal[uniform_below(rng, len(legal))]


def no_early_stop(legal: list[int], rng: np.random.Generator) -> int:
    """Uniform, but ``stop`` only when nothing else is legal: actions run to their 3 units."""
    busy = [a for a in legal if a != A.STOP] or legal
    return busy[uniform_below(rng, len(busy))]


def python_fields(state: State) -> dict[str, Any]:
    """The Python state's fields, as the core exports them (the generator apart)."""
    return {name: getattr(state, name) for name in STATE_FIELDS}


def note(before: State, after: State, action: int, draws: tuple[int, ...]) -> None:
    """Count what a step exercised."""
    SEEN["phase " + Phase.NAMES[before.phase]] += 1
    name = A.ACTION_NAMES[action]
    SEEN[name.split()[-1] if name.startswith("take") else name.split()[0]] += 1
    if draws:
        SEEN["drew during play"] += 1
    if after.marker != before.marker:
        SEEN["marker moved"] += 1
    if after.scored != before.scored:
        SEEN["scored"] += 1
    if after.golden_turns >= -1 and before.golden_turns == -2:
        SEEN["golden"] += 1
    if sum(after.owed) and not sum(before.owed):
        SEEN["owed"] += 1
    if sum(after.owed) < sum(before.owed):
        SEEN["owed paid"] += 1
    if sum(after.tiles_removed) > sum(before.tiles_removed):
        SEEN["tile removed"] += 1
    captured = sum(
        1
        for city in range(8)
        for i in range(4)
        if before.influence_owner[city][i] >= 0
        and after.influence_owner[city][i] != before.influence_owner[city][i]
    )
    if captured:
        SEEN["tile captured"] += 1


def play_both(
    players: int,
    seed: int,
    *,
    options: RulesOptions | None = None,
    data: NipponData | None = None,
    choose: Chooser = uniform,
) -> int:
    """One random game in both engines, compared at every step; returns its length."""
    python = new_game(players, seed, options=options, data=data)
    native = NativeNipponGame.new(players, seed, options=options, data=data)
    assert native.to_state().to_dict() == python.to_dict(), ("the setup", players, seed)
    core = native.handle
    rng = np.random.default_rng([seed, players, 25])
    step = 0
    while not python.is_terminal():
        legal = python.legal_actions()
        assert core.legal_actions() == legal, ("legal actions", players, seed, step)
        action = choose(legal, rng)
        before = python.clone()
        record = python.apply_action(action)
        assert native.apply_action(action) == record, ("record", players, seed, step)
        note(before, python, action, record.draws)
        exported = core.export()
        assert exported.pop("rng") == rng_state(python.rng), ("generator", players, seed, step)
        assert exported.pop("is_view") is False
        assert exported == python_fields(python), ("state", players, seed, step)
        step += 1
    assert native.is_terminal() and core.legal_actions() == []
    assert native.to_state().to_dict() == python.to_dict(), "the final state"
    assert native.outcome() == python.outcome()
    SEEN["games"] += 1
    return step


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_agree_step_by_step(players: int) -> None:
    """60 games per player count: uniform play, and play that runs its actions to 3 units."""
    steps = 0
    for seed in range(60):
        steps += play_both(players, seed, choose=uniform if seed % 2 else no_early_stop)
    assert steps > 60 * 100


# Every rules option at its other value, and all of them together, shorter runs.
OPTION_CASES = {
    "captured_tile_removed": RulesOptions(captured_tile="removed"),
    "neutral_does_not_compete": RulesOptions(neutral_competes=False),
    "majority_ties_lower": RulesOptions(majority_ties="lower"),
    "marker_on_space_empties": RulesOptions(marker_trigger="space_empties"),
    "every_other_value": RulesOptions(
        captured_tile="removed",
        neutral_competes=False,
        majority_ties="lower",
        marker_trigger="space_empties",
    ),
}


@pytest.mark.parametrize("case", sorted(OPTION_CASES))
def test_every_rules_option_agrees(case: str) -> None:
    options = OPTION_CASES[case]
    for seed in range(18):
        play_both(
            2 + seed % 3, 1000 + seed, options=options, choose=[uniform, no_early_stop][seed % 2]
        )


# (text in the default file, its replacement): other action spaces (SHIPS alone on a sixth), a
# smaller bag and spaces, more rows, a longer turn track with four scorings and other majority
# tables, shorter tracks, fewer trains, more ships, other powers, bonuses, tiles and tables.
EDITS = [
    ('actions = ["TRAINS", "SHIPS"]\nsource = "R"\n',
     'actions = ["TRAINS"]\nsource = "R"\n[[action_space]]\nactions = ["SHIPS"]\nsource = "R"\n'),
    ("per_colour = 7", "per_colour = 5"),
    ("per_space = 3 ", "per_space = 2 "),
    ("rows = { 2 = 2, 3 = 4, 4 = 6 }", "rows = { 2 = 1, 3 = 3, 4 = 12 }"),
    ("spaces = 8 ", "spaces = 10 "),
    ("golden_from = 5 ", "golden_from = 7 "),
    ("scoring_spaces = [3, 5, 8]", "scoring_spaces = [2, 4, 7, 10]"),
    ("majority_vp = [[4, 2, 1], [6, 3, 1], [8, 4, 2]]",
     "majority_vp = [[3], [5, 2], [6, 3, 2, 1], [9, 4]]"),
    ("ship_vp = [3, 2, 1]", "ship_vp = [2, 1]"),
    ("start_blueprints = 0", "start_blueprints = 4"),
    ("money_track = [12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24]",
     "money_track = [10, 12, 15, 18, 21]"),
    ("coal_track = [2, 3, 4, 5, 6, 7, 8, 9, 10]", "coal_track = [1, 2, 4, 6, 9]"),
    ("coal_stars = [3, 6, 8]", "coal_stars = [1, 4, 4]"),
    ("knowledge_max = 10", "knowledge_max = 8"),
    ("knowledge_stars = [3, 5, 7, 9]", "knowledge_stars = [2, 4, 8]"),
    ("trains = 4", "trains = 3"),
    ("ships = 4", "ships = 5"),
    ("train_stars = [0, 1, 1, 1]", "train_stars = [1, 0, 1]"),
    ("ship_stars = [0, 1, 1, 1]", "ship_stars = [0, 1, 1, 1, 1]"),
    ("worker_levels = [0, 1, 1, 2, 3, 4]", "worker_levels = [1, 1, 2, 2, 3, 4]"),
    ("machinery_tiles = 24", "machinery_tiles = 5"),
    ("knowledge = [0, 2, 4, 6]", "knowledge = [0, 1, 3, 5]"),
    ("factory_capacity = 4", "factory_capacity = 3"),
    ("max_units = 3 ", "max_units = 2 "),
    ('bonus = "none"', 'bonus = "vp"'),
    ("tiles = [1, 1, 2, 2, 3, 3, 4, 4, 5, 6]", "tiles = [1, 2, 2, 3, 3, 3, 4, 5, 6, 6]"),
    ("neutral = [0, 0, 1, 2]", "neutral = [1, 0, 2, 3]"),
    ("spaces_per_region = { 2 = 4, 3 = 6, 4 = 8 }", "spaces_per_region = { 2 = 2, 3 = 3, 4 = 5 }"),
    ('{ kind = "coal", amount = 1 }', '{ kind = "coal_track", amount = 2 }'),
    ("per = 6", "per = 4"),
    ('power = "vp"', 'power = "machine"'),
]  # fmt: skip


def edited_text() -> str:
    """The default data file with every edit of EDITS (each must match exactly)."""
    text = default_data_path().read_text(encoding="utf-8")
    for old, new in EDITS:
        assert old in text, old
        text = text.replace(old, new)
    # one more level-1 reward tile (yen) at every table
    text += '\n[[reward]]\nlevel = 1\nmultiplier = 2\ngift = "yen"\nmin_players = 2\nsource = "R"\n'
    return text


@pytest.fixture(scope="module")
def edited_data() -> NipponData:
    return parse_data(edited_text().encode("utf-8"), "edited-nippon.toml")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_edited_data_file_agrees(players: int, edited_data: NipponData) -> None:
    assert tables(edited_data) != tables(default_data())
    assert len(edited_data.action_spaces) == 6 and len(edited_data.scoring_spaces) == 4
    for seed in range(16):
        options = RulesOptions(marker_trigger="space_empties") if seed % 4 == 3 else None
        play_both(players, 2000 + seed, options=options, data=edited_data,
                  choose=[uniform, no_early_stop][seed % 2])  # fmt: skip


def test_the_batches_reached_every_phase_action_and_event() -> None:
    """Runs after the batches above (file order): what they compared covers the rules."""
    if not SEEN:
        pytest.skip("run with the batches above")
    for name in Phase.NAMES[:-1]:
        assert SEEN["phase " + name] > 0, (name, SEEN)
    kinds = {"INVEST", "TECHNOLOGY", "PRODUCE", "KNOWLEDGE", "MINE", "TRAINS", "SHIPS", "EXPORT",
             "MARKET", "consolidate", "blueprints", "stop", "amount", "produce", "machine",
             "region", "contract", "deliver", "space", "tile", "invest", "reward", "achievement"}  # fmt: skip
    kinds |= {"drew during play", "marker moved", "scored", "golden", "owed",
              "owed paid", "tile removed", "tile captured"}  # fmt: skip
    for kind in kinds:
        assert SEEN[kind] > 0, (kind, SEEN)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_many_random_games_agree_step_by_step(players: int) -> None:
    for seed in range(5000, 6500):
        play_both(players, seed, choose=uniform if seed % 2 else no_early_stop)


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(OPTION_CASES))
def test_many_games_of_every_rules_option_agree(case: str) -> None:
    for seed in range(300):
        play_both(2 + seed % 3, 7000 + seed, options=OPTION_CASES[case])


@pytest.mark.slow
def test_many_games_of_the_edited_data_agree(edited_data: NipponData) -> None:
    for seed in range(600):
        play_both(2 + seed % 3, 9000 + seed, data=edited_data,
                  choose=[uniform, no_early_stop][seed % 2])  # fmt: skip


@pytest.mark.parametrize("players", [2, 4])
def test_the_benchmark_games_are_the_engines_games(players: int) -> None:
    """ni_random_games (the engine benchmark) plays what the Python engine plays from the same
    seeds: game g sets up and draws from SeedSequence(seed, spawn_key=(g, 0)), chooses from
    (g, 1)."""
    applied = 0
    for game in range(3):
        rng = np.random.default_rng(np.random.SeedSequence(31, spawn_key=(game, 0)))
        chooser = np.random.default_rng(np.random.SeedSequence(31, spawn_key=(game, 1)))
        state = new_game(players, rng=rng)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[uniform_below(chooser, len(legal))])
            applied += 1
    assert random_games(players, 3, 31) == applied


# -- the golden games -----------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.jsonl")), ids=lambda path: path.stem)
def test_the_golden_games_replay_in_the_core(path: Path) -> None:
    """A log the Python engine wrote replays in the core: every record with its draws, then the
    final state and the outcome."""
    from airships_env.games.nippon import GAME

    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    native = NativeNipponGame.from_state(state_from_dict(header["initial_state"]))
    for line in lines[1:]:
        logged = GAME.record_from_dict(json.loads(line))
        assert native.apply_action(logged.action) == logged
    final = json.loads(path.with_suffix("").with_suffix(".final.json").read_text("utf-8"))
    assert json.loads(json.dumps(native.to_state().to_dict())) == final["state"]
    assert native.outcome().to_dict() == final["outcome"]  # type: ignore[union-attr]
    assert native.is_terminal()


# -- states in and out ------------------------------------------------------------------------


def test_states_round_trip_and_continue_identically() -> None:
    """from_state/to_state keep everything; an imported game continues as the Python one."""
    for seed in range(6):
        state = new_game(2 + seed % 3, seed, options=RulesOptions(captured_tile="removed"))
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            native = NativeNipponGame.from_state(state)
            assert native.to_state().to_dict() == state.to_dict()
            action = uniform(state.legal_actions(), rng)
            assert native.apply_action(action) == state.apply_action(action)
            assert native.to_state().to_dict() == state.to_dict()


def test_a_view_or_a_state_without_generator_is_not_imported() -> None:
    state = new_game(3, 4)
    with pytest.raises(ViewError):
        NativeNipponGame.from_state(state.view(0))
    state.rng = None
    with pytest.raises(ViewError):
        NativeNipponGame.from_state(state)
    exported = new_game(3, 4).to_dict()
    exported["rng"] = None
    with pytest.raises(ValueError, match="generator"):
        require().ni_import(pack_options(RulesOptions()), tables(default_data()), exported)


def test_clones_pickles_and_copies_are_independent() -> None:
    native = NativeNipponGame.new(2, 3)
    fresh = NativeNipponGame.new(2, 3).to_state().to_dict()
    clone, copied = native.clone(), copy.deepcopy(native)
    pickled = pickle.loads(pickle.dumps(native))
    first = native.legal_actions()[0]
    native.apply_action(first)
    for other in (clone, copied, pickled):
        assert other.to_state().to_dict() == fresh
    assert clone.apply_action(first) == NativeNipponGame.new(2, 3).apply_action(first)


def test_the_core_has_the_engines_action_table() -> None:
    assert require().NI_NUM_ACTIONS == A.NUM_ACTIONS


# -- errors -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [A.STOP, A.INVEST, A.NUM_ACTIONS, -1, 10**30, "stop", True, 2.0, np.int64(58), None],
    ids=repr,
)
def test_an_illegal_action_is_refused_as_the_engine_does_and_changes_nothing(
    action: Any,
) -> None:
    python = new_game(3, 11)
    native = NativeNipponGame.new(3, 11)
    before = native.to_state().to_dict()
    with pytest.raises(IllegalActionError) as from_python:
        python.apply_action(action)
    with pytest.raises(IllegalActionError) as from_core:
        native.apply_action(action)
    assert str(from_core.value) == str(from_python.value)
    assert from_core.value.legal == python.legal_actions()
    assert "Legal actions: " in str(from_core.value)
    assert native.to_state().to_dict() == before


def test_illegal_actions_in_every_phase_name_the_legal_ones() -> None:
    """Along games, an action that is not legal is refused with the engine's message."""
    phases = set()
    for seed in range(4):
        python = new_game(2 + seed % 3, 5 + seed)
        native = NativeNipponGame.new(2 + seed % 3, 5 + seed)
        rng = np.random.default_rng(5 + seed)
        while not python.is_terminal():
            legal = python.legal_actions()
            wrong = next(a for a in range(A.NUM_ACTIONS) if a not in legal)
            with pytest.raises(IllegalActionError) as from_python:
                python.apply_action(wrong)
            with pytest.raises(IllegalActionError) as from_core:
                native.apply_action(wrong)
            assert str(from_core.value) == str(from_python.value)
            phases.add(python.phase)
            action = no_early_stop(legal, rng)
            assert native.apply_action(action) == python.apply_action(action)
        with pytest.raises(IllegalActionError, match="the game is over") as refused:
            native.apply_action(A.STOP)
        with pytest.raises(IllegalActionError) as from_python:
            python.apply_action(A.STOP)
        assert str(refused.value) == str(from_python.value)
        assert native.phase == Phase.OVER
    assert {Phase.TURN, Phase.SPACE, Phase.DELIVER, Phase.FINISH} <= phases


def test_the_core_refuses_an_illegal_action_itself() -> None:
    """The binding alone (no Python wrapper) raises the typed error, naming the legal actions."""
    core = NativeNipponGame.new(2, 1).handle
    before = core.export()
    with pytest.raises(IllegalActionError, match=r"illegal action 58 in phase 'turn'.*take"):
        core.apply(58)
    with pytest.raises(IllegalActionError, match=r"outside 0\.\.175"):
        core.apply(2**70)
    with pytest.raises(TypeError):
        core.apply("58")
    with pytest.raises(TypeError):
        core.apply(True)
    assert core.export() == before


def _tables(index: int, *path: int, value: Any) -> tuple[Any, ...]:
    """The default tables with the item at ``index`` then ``path`` replaced by ``value``."""

    def put(node: Any, path: tuple[int, ...]) -> Any:
        if not path:
            return value
        items = list(node)
        items[path[0]] = put(items[path[0]], path[1:])
        return tuple(items)

    return put(tables(default_data()), (index, *path))  # type: ignore[no-any-return]


BAD_NEW_ARGS: list[tuple[dict[str, Any], type[Exception], str]] = [
    ({"players": 1}, ValueError, "num_players"),
    ({"players": 5}, ValueError, "num_players"),
    ({"players": "2"}, TypeError, "num_players"),
    ({"rng": None}, ValueError, "generator"),
    ({"rng": "seed"}, TypeError, "generator state"),
    ({"options": (True, False, False)}, TypeError, "options"),
    ({"options": (1, False, False, False)}, TypeError, "captured_tile"),
    ({"tables": "tables"}, TypeError, "tables"),
    ({"tables": tables(default_data())[:9]}, TypeError, "tables"),
    ({"tables": _tables(0, 0, value=51)}, ValueError, "invest"),
    ({"tables": _tables(0, 2, value=(1, 2))}, ValueError, "steps"),
    ({"tables": _tables(0, 7, value=4)}, ValueError, "max_units"),
    ({"tables": _tables(1, 0, value=())}, ValueError, "1..9 spaces"),
    ({"tables": _tables(1, 0, 0, value=(3, 0, 1))}, ValueError, "at most 2"),
    ({"tables": _tables(1, 0, 0, value=(9,))}, ValueError, "kinds"),
    ({"tables": _tables(1, 0, 1, value=(3,))}, ValueError, "two spaces"),
    ({"tables": _tables(1, 0, 1, value=(4,))}, ValueError, "every action kind"),
    ({"tables": _tables(1, 1, value=41)}, ValueError, "per_colour"),
    ({"tables": _tables(1, 1, value=2)}, ValueError, "too few workers"),
    ({"tables": _tables(1, 3, value=(2, 4, 13))}, ValueError, "rows"),
    ({"tables": _tables(1, 4, value=(5,))}, TypeError, "observation room"),
    ({"tables": _tables(1, 4, 0, value=0)}, ValueError, "observation spaces"),
    ({"tables": _tables(1, 4, 1, value=(2, 4, 13))}, ValueError, "observation rows"),
    ({"tables": _tables(2, 1, value=5)}, ValueError, "golden_from"),
    ({"tables": _tables(2, 2, value=(2, 4, 6))}, ValueError, "ending with the last"),
    ({"tables": _tables(2, 2, value=(4, 2, 7))}, ValueError, "increasing"),
    ({"tables": _tables(2, 3, value=((4, 2, 1), (6, 3, 1)))}, ValueError, "one VP list"),
    ({"tables": _tables(2, 3, 0, value=())}, ValueError, "at least one place"),
    ({"tables": _tables(2, 4, value=(1, 1, 1, 1, 1))}, ValueError, "ship_vp"),
    ({"tables": _tables(3, 0, value=13)}, ValueError, "start_money"),
    ({"tables": _tables(3, 4, value=(1,) * 41)}, ValueError, "money_track"),
    ({"tables": _tables(3, 6, value=(9,))}, ValueError, "coal_stars"),
    ({"tables": _tables(3, 11, value=(0, 1, 1))}, ValueError, "train_stars"),
    ({"tables": _tables(3, 9, value=9)}, ValueError, "trains"),
    ({"tables": _tables(4, 1, value=(0, 2, 1, 6))}, ValueError, "must not fall"),
    ({"tables": _tables(5, value=((0, 1, 0, 0),) * 24)}, ValueError, "no factory makes"),
    ({"tables": _tables(5, 0, value=(0, 1, 9, 0))}, ValueError, "factory power"),
    ({"tables": _tables(6, 0, 0, value=(1, 2))}, ValueError, "largest first"),
    ({"tables": _tables(6, 0, 2, value=8)}, ValueError, "not machine"),
    ({"tables": _tables(7, 0, value=(7,) * 10)}, ValueError, "influence tiles"),
    ({"tables": _tables(7, 4, 0, value=(8, 1))}, ValueError, "not machine"),
    ({"tables": _tables(7, 5, 0, value=(0, 1, 2, 2))}, ValueError, "distinct"),
    ({"tables": _tables(8, value=())}, ValueError, "1..255"),
    ({"tables": _tables(8, value=((1, 2, 0, 2),) * 256)}, ValueError, "1..255"),
    ({"tables": _tables(8, 1, value=(1, 3, 0, 2))}, ValueError, "one multiplier"),
    ({"tables": _tables(9, 1, value=(0, 1, 0))}, ValueError, "only once"),
    ({"tables": _tables(9, 1, 1, value=0)}, ValueError, "per"),
]


def ni_new_args(**changes: Any) -> list[Any]:
    args = {
        "players": 2,
        "rng": rng_state(np.random.default_rng(0)),
        "options": pack_options(RulesOptions()),
        "tables": tables(default_data()),
    }
    args.update(changes)
    return list(args.values())


@pytest.mark.parametrize(
    ("changes", "error", "match"),
    BAD_NEW_ARGS,
    ids=[f"{i}-{case[2]}" for i, case in enumerate(BAD_NEW_ARGS)],
)
def test_bad_arguments_to_the_core_are_python_exceptions(
    changes: dict[str, Any], error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        require().ni_new(*ni_new_args(**changes))


def test_a_machine_bonus_outside_factories_is_refused_by_the_loader() -> None:
    """ "machine" as a contract or region bonus made the Python engine fail (AssertionError in
    _gain) when one was gained; the loader refuses such a file now, and the core refuses such
    tables too (the "not machine" cases above)."""
    text = default_data_path().read_text(encoding="utf-8")
    text = text.replace('bonus = "none"', 'bonus = "machine"', 1)
    with pytest.raises(NipponDataError, match=r"machine-bonus\.toml: .*'bonus'"):
        parse_data(text.encode("utf-8"), "machine-bonus.toml")


def test_bad_arguments_to_the_wrapper_and_the_bench_games_are_python_exceptions() -> None:
    options = pack_options(RulesOptions())
    packed = tables(default_data())
    with pytest.raises(ValueError, match="games"):
        require().ni_random_games(2, -1, 0, options, packed)
    with pytest.raises(ValueError, match="seed"):
        require().ni_random_games(2, 1, 2**32, options, packed)
    with pytest.raises(ValueError, match="num_players"):
        require().ni_random_games(5, 1, 0, options, packed)
    with pytest.raises(TypeError, match="tables"):
        require().ni_random_games(2, 1, 0, options, packed[:3])
    assert require().ni_random_games(2, 0, 0, options, packed) == 0
    with pytest.raises(ValueError, match="seed"):
        NativeNipponGame.new(2, -1)
    with pytest.raises(ValueError, match="2, 3 or 4 players"):
        NativeNipponGame.new(True)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="either seed or rng"):
        NativeNipponGame.new(2, 0, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="PCG64"):
        NativeNipponGame.new(2, rng=np.random.Generator(np.random.MT19937(0)))


def _in_phase(phase: int, seed: int = 0) -> State:
    """A state of a random game when it first reaches ``phase``."""
    state = new_game(3, seed)
    rng = np.random.default_rng(seed)
    while state.phase != phase:
        state.apply_action(no_early_stop(state.legal_actions(), rng))
    return state


BAD_STATES: list[tuple[str, Any, str]] = [
    ("is_view", True, "view"),
    ("phase", 15, "phase"),
    ("current", 3, "current"),
    ("marker", 8, "marker"),
    ("pend_kind", 9, "pend_kind"),
    ("pend_space", 32, "pend_space"),
    ("pend_cubes", 4, "pend_cubes"),
    ("spaces", [[0] * 6] * 4, "spaces"),
    ("rows", [[0] * 5] * 4, "rows"),
    ("owed", [0] * 8, "owed"),
    ("bag", [241] * 6, "bag"),
    ("bag", [100] * 6, "largest bag"),
    ("factory_owner", [3] * 24, "factory_owner"),
    ("city_goods", [[6] * 4] * 8, "city_goods"),
    ("influence_owner", [[0] * 4] * 8, "exactly where an owner"),
    ("influence_value", [[7] * 4] * 8, "influence_value"),
    ("trains_in", [[0] * 3] * 3, "trains_in"),
    ("rewards_left", [16], "rewards_left"),
    ("rewards_left", list(range(17)), "rewards_left"),
    ("scored", [[0] * 3] * 2, "scored"),
    ("money_pos", [13, 0, 0], "money_pos"),
    ("workers", [[0] * 7, [], []], "workers"),
    ("workers", [[6], [], []], "workers"),
    ("factory_tile", [[24] * 6] * 3, "factory_tile"),
    ("machine", [[3] * 6] * 3, "machine"),
    ("trains_placed", [5, 0, 0], "trains_placed"),
    ("achievements", [[10] * 9] * 3, "achievements"),
    ("num_players", 5, "num_players"),
    ("rng", "state", "generator"),
]


@pytest.mark.parametrize(("key", "value", "match"), BAD_STATES, ids=repr)
def test_a_bad_state_is_refused_on_import(key: str, value: Any, match: str) -> None:
    state = new_game(3, 0)
    exported = state.to_dict()
    exported["rng"] = rng_state(state.rng)
    exported[key] = value
    packed = tables(state.data)
    with pytest.raises((ValueError, TypeError, KeyError), match=match):
        require().ni_import(pack_options(state.options), packed, exported)
    del exported[key]
    with pytest.raises(KeyError, match=key):
        require().ni_import(pack_options(state.options), packed, exported)


@pytest.mark.parametrize(
    ("phase", "key", "value", "match"),
    [
        (Phase.TILE, "pend_space", -1, "need the chosen space"),
        (Phase.TILE, "pend_cubes", 0, "needs 1..3 cubes"),
        (Phase.DELIVER, "pend_contract", -1, "phase 'deliver' needs a contract"),
        (Phase.DELIVER, "pend_demand", 2, "phase 'deliver' needs a contract"),
    ],
)
def test_a_state_whose_phase_lacks_what_it_indexes_is_refused(
    phase: int, key: str, value: int, match: str
) -> None:
    state = _in_phase(phase)
    if key == "pend_demand":  # a contract of fewer demands than the one asked for
        state.pend_contract = next(
            k for k, c in enumerate(state.data.contracts) if len(c.demands) < 3
        )
        value = len(state.data.contracts[state.pend_contract].demands)
    setattr(state, key, value)
    with pytest.raises(ValueError, match=match):
        NativeNipponGame.from_state(state)
