"""Australia's native core against the Python engine (issue 25): the same seeds and actions must
give the same game at every step (the deal, the legal actions, every record with what it drew,
revealed and scored, the whole state and the generator), for every player count, every rules
option, an edited map and components file and the golden games; and bad input is refused with the
engine's errors.

The default run plays about 1,100 games (~15 s on one core); ``make test-slow`` many more.
"""

from __future__ import annotations

import collections
import copy
import json
import pickle
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from airships_env.chance import uniform_below
from airships_env.games.australia.engine import (
    AustraliaData,
    IllegalActionError,
    RulesOptions,
    State,
    default_data,
    new_game,
    parse_data,
)
from airships_env.games.australia.engine import actions as A
from airships_env.games.australia.engine.actions import kind_uniform_choice
from airships_env.games.australia.engine.data import COMPONENTS_FILE, MAP_FILE, default_data_dir
from airships_env.games.australia.engine.data import tomllib as toml
from airships_env.games.australia.engine.model import ACTION, OVER, PHASE_NAMES, PLACE, TAKE_BACK
from airships_env.native import require
from airships_env.native.australia import NativeAustraliaGame, pack_options, random_games, tables
from airships_env.native.convert import rng_state

GOLDEN = Path(__file__).resolve().parent.parent / "australia" / "golden"
STATE_FIELDS = [f for f in State.__slots__ if f not in ("data", "options", "rng")]

# What the batches visited (phases, kinds of action, scorings, endings): checked at the end so
# that "agree" is not vacuous.
SEEN: collections.Counter[str] = collections.Counter()

Chooser = Callable[[list[int], np.random.Generator], int]


def kind_uniform(legal: list[int], rng: np.random.Generator) -> int:
    """Each kind of action equally likely first (the rollout policy): cards are played, rangers
    placed and games end by E1."""
    return kind_uniform_choice(legal, lambda k: uniform_below(rng, k))


def uniform(legal: list[int], rng: np.random.Generator) -> int:
    """Every legal action equally likely (mostly flies: for short games, E4)."""
    return legal[uniform_below(rng, len(legal))]


def python_fields(state: State) -> dict[str, Any]:
    """The Python state's fields, as the core exports them (the generator apart)."""
    return {name: getattr(state, name) for name in STATE_FIELDS}


def note(python: State, action: int, record: Any) -> None:
    """Count what a step exercised."""
    SEEN[PHASE_NAMES[python.phase]] += 1
    name = A.ACTION_NAMES[action]
    SEEN[name.split()[0] + (" paying" if "paying" in name else "")] += 1
    for scoring in record.scorings:
        SEEN[scoring.kind] += 1
    if record.windmill_to is not None:
        SEEN["windmill moves"] += 1


def play_both(
    players: int,
    seed: int,
    *,
    options: RulesOptions | None = None,
    data: AustraliaData | None = None,
    choose: Chooser = kind_uniform,
) -> int:
    """One random game in both engines, compared at every step; returns its length."""
    python = new_game(players, seed, options=options, data=data)
    native = NativeAustraliaGame.new(players, seed, options=options, data=data)
    assert native.to_state().to_dict() == python.to_dict(), ("the deal", players, seed)
    core = native.handle
    rng = np.random.default_rng([seed, players, 25])
    step = 0
    while not python.is_terminal():
        legal = python.legal_actions()
        assert core.legal_actions() == legal, ("legal actions", players, seed, step)
        action = choose(legal, rng)
        record = python.apply_action(action)
        assert native.apply_action(action) == record, ("record", players, seed, step)
        note(python, action, record)
        exported = core.export()
        assert exported.pop("rng") == rng_state(python.rng), ("generator", step)
        assert exported == python_fields(python), ("state", players, seed, step)
        step += 1
    assert native.is_terminal() and core.legal_actions() == []
    assert native.to_state().to_dict() == python.to_dict(), "the final state"
    assert native.outcome() == python.outcome()
    SEEN["ended by E1" if python.end_triggered else "ended by E4"] += 1
    return step


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_agree_step_by_step(players: int) -> None:
    """200 games per player count, the simple and the full game alternately."""
    steps = 0
    for seed in range(200):
        steps += play_both(players, seed, options=RulesOptions(full_game=seed % 2 == 1))
    assert steps > 200 * 150


# Every rules option at its other values (full_game is the batch above), shorter runs.
OPTION_CASES = {
    "stack_cards_3": RulesOptions(stack_cards=3),
    "stack_cards_10": RulesOptions(stack_cards=10),  # the smallest back: none set aside
    "stack_cards_8_full": RulesOptions(stack_cards=8, full_game=True),
    "recolour_anywhere": RulesOptions(recolour_anywhere=True),
    "recolour_anywhere_full": RulesOptions(recolour_anywhere=True, full_game=True),
    "max_rounds_4": RulesOptions(max_rounds=4),
    "max_rounds_1_full": RulesOptions(max_rounds=1, full_game=True),
}


@pytest.mark.parametrize("case", sorted(OPTION_CASES))
def test_every_rules_option_agrees(case: str) -> None:
    options = OPTION_CASES[case]
    for seed in range(30):
        play_both(2 + seed % 4, 1000 + seed, options=options)


def test_uniform_play_to_the_round_limit_agrees() -> None:
    """Uniform play (mostly flights, rarely E1) ends by E4: the round limit, both games."""
    for seed in range(24):
        options = RulesOptions(max_rounds=12, full_game=seed % 2 == 0)
        play_both(2 + seed % 4, 3000 + seed, options=options, choose=uniform)


def edited_documents() -> tuple[dict[str, Any], dict[str, Any]]:
    """The default map and components, edited: other region colours, fewer locations (a camp
    gone, another moved), other card counts (bigger stacks, a colour on one back only), other
    tiles with other windmill values, few rangers, a short windmill scale and short tracks."""
    folder = default_data_dir()
    board = toml.loads((folder / MAP_FILE).read_text(encoding="utf-8"))
    parts = toml.loads((folder / COMPONENTS_FILE).read_text(encoding="utf-8"))
    land = [r for r in board["region"] if r["kind"] == "land"]
    for region, colour in zip(
        land[:6], ["red", "yellow", "grey", "green", "orange", "red"], strict=True
    ):
        region["colour"] = colour
    camps = [loc for loc in board["location"] if loc["kind"] == "camp"]
    counted = collections.Counter(r for loc in camps for r in loc["regions"])
    removable = next(loc for loc in camps if all(counted[r] > 1 for r in loc["regions"]))
    board["location"].remove(removable)
    camps[-1]["regions"] = camps[-1]["regions"][:2]
    for card, counts in zip(
        parts["card"],
        [
            {"blue": 5, "green": 1, "orange": 4, "grey": 0, "red": 3, "yellow": 0},
            {"blue": 2, "green": 3, "orange": 0, "grey": 4, "red": 2, "yellow": 1},
            {"blue": 4, "green": 2, "orange": 2, "grey": 1, "red": 0, "yellow": 3},
            {"blue": 1, "green": 4, "orange": 1, "grey": 2, "red": 3, "yellow": 2},
        ],
        strict=True,
    ):
        card["counts"] = counts
    for tile, (count, windmill) in zip(
        parts["tile"],
        [(6, True), (2, False), (2, False), (6, True), (4, False), (4, True)],
        strict=True,
    ):
        tile.update(count=count, windmill=windmill)
    parts["rangers"].update(p2=9, p3=7, p4=6, p5=4)
    parts["windmill"].update(start_value=1, max_value=5)
    parts["tracks"].update(tile_areas=2, ranger_areas=3)
    return board, parts


@pytest.fixture(scope="module")
def edited_data() -> AustraliaData:
    board, parts = edited_documents()
    return parse_data(board, parts, "edited-map.toml", "edited-components.toml")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_an_edited_data_file_agrees(players: int, edited_data: AustraliaData) -> None:
    default = default_data()
    assert edited_data.num_locations == default.num_locations - 1
    assert tables(edited_data, players) != tables(default, players)
    for seed in range(30):
        options = RulesOptions(full_game=seed % 3 != 0, recolour_anywhere=seed % 5 == 0)
        play_both(players, 2000 + seed, options=options, data=edited_data)


def test_the_batches_reached_every_phase_action_and_scoring() -> None:
    """Runs after the batches above (file order): what they compared covers the rules."""
    if not SEEN:
        pytest.skip("run with the batches above")
    phases = {name for name in PHASE_NAMES if name != "over"}
    assert phases <= set(SEEN), SEEN
    kinds = {"fly", "play", "play paying", "place", "no", "ranger", "stop", "draw", "take",
             "done", "move", "end", "windmill"}  # fmt: skip
    kinds |= {"conservation", "industrialization", "windmill moves", "ended by E1", "ended by E4"}
    for kind in kinds:
        assert SEEN[kind] > 0, (kind, SEEN)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_many_random_games_agree_step_by_step(players: int) -> None:
    for seed in range(5000, 6500):
        play_both(players, seed, options=RulesOptions(full_game=seed % 2 == 1))


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(OPTION_CASES))
def test_many_games_of_every_rules_option_agree(case: str) -> None:
    for seed in range(300):
        play_both(2 + seed % 4, 7000 + seed, options=OPTION_CASES[case])


@pytest.mark.slow
def test_many_uniform_games_and_edited_data_agree(edited_data: AustraliaData) -> None:
    for seed in range(200):
        play_both(2 + seed % 4, 8000 + seed, options=RulesOptions(full_game=seed % 2 == 0),
                  choose=uniform)  # fmt: skip
        play_both(2 + seed % 4, 9000 + seed, options=RulesOptions(full_game=seed % 2 == 0),
                  data=edited_data)  # fmt: skip


@pytest.mark.parametrize("players", [2, 5])
def test_the_benchmark_games_are_the_engines_games(players: int) -> None:
    """au_random_games (the engine benchmark) plays what the Python engine plays from the same
    seeds: game g deals from SeedSequence(seed, spawn_key=(g, 0)), chooses from (g, 1)."""
    options = RulesOptions(max_rounds=30, full_game=True)
    applied = 0
    for game in range(3):
        rng = np.random.default_rng(np.random.SeedSequence(31, spawn_key=(game, 0)))
        chooser = np.random.default_rng(np.random.SeedSequence(31, spawn_key=(game, 1)))
        state = new_game(players, rng=rng, options=options)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[uniform_below(chooser, len(legal))])
            applied += 1
    assert random_games(players, 3, 31, options=options) == applied


# -- the golden games -----------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.jsonl")), ids=lambda path: path.stem)
def test_the_golden_games_replay_in_the_core(path: Path) -> None:
    """A log the Python engine wrote replays in the core: every record, then the final state."""
    from airships_env.games.australia import GAME

    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    native = NativeAustraliaGame.new(
        header["num_players"], header["seed"], options=RulesOptions.from_dict(header["options"])
    )
    for line in lines[1:]:
        logged = GAME.record_from_dict(json.loads(line))
        assert native.apply_action(logged.action) == logged
    final = json.loads(path.with_suffix("").with_suffix(".final.json").read_text("utf-8"))
    assert native.to_state().to_dict() == final
    assert native.is_terminal()


# -- states in and out ------------------------------------------------------------------------


def test_states_round_trip_and_continue_identically() -> None:
    """from_state/to_state keep everything; an imported game continues as the Python one."""
    for seed in range(8):
        state = new_game(2 + seed % 4, seed, options=RulesOptions(full_game=seed % 2 == 0))
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            native = NativeAustraliaGame.from_state(state)
            assert native.to_state().to_dict() == state.to_dict()
            action = kind_uniform(state.legal_actions(), rng)
            assert native.apply_action(action) == state.apply_action(action)
            assert native.to_state().to_dict() == state.to_dict()


def test_a_state_without_generator_plays_on() -> None:
    """All chance is at setup: a state without a generator plays as the Python one does."""
    state = new_game(3, 4, options=RulesOptions(full_game=True))
    state.rng = None
    native = NativeAustraliaGame.from_state(state)
    assert native.handle.export()["rng"] is None
    rng = np.random.default_rng(4)
    while not state.is_terminal():
        action = kind_uniform(state.legal_actions(), rng)
        assert native.apply_action(action) == state.apply_action(action)
    assert native.to_state().to_dict() == state.to_dict()


def test_clones_pickles_and_copies_are_independent() -> None:
    native = NativeAustraliaGame.new(2, 3)
    fresh = NativeAustraliaGame.new(2, 3).to_state().to_dict()
    clone, copied = native.clone(), copy.deepcopy(native)
    pickled = pickle.loads(pickle.dumps(native))
    native.apply_action(native.legal_actions()[0])
    for other in (clone, copied, pickled):
        assert other.to_state().to_dict() == fresh
    assert clone.apply_action(A.draw(0)) == NativeAustraliaGame.new(2, 3).apply_action(A.draw(0))


def test_the_core_has_the_engines_action_table() -> None:
    assert require().AU_NUM_ACTIONS == A.NUM_ACTIONS


# -- errors -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [A.fly(3), A.END_TURN, A.NUM_ACTIONS, -1, 10**30, "draw", True, 2.0, np.int64(7), None],
    ids=repr,
)
def test_an_illegal_action_is_refused_as_the_engine_does_and_changes_nothing(
    action: Any,
) -> None:
    python = new_game(3, 11)
    native = NativeAustraliaGame.new(3, 11)
    before = native.to_state().to_dict()
    with pytest.raises(IllegalActionError) as from_python:
        python.apply_action(action)
    with pytest.raises(IllegalActionError) as from_core:
        native.apply_action(action)
    assert str(from_core.value) == str(from_python.value)
    assert from_core.value.legal == [A.draw(b) for b in range(4)]
    assert "Legal actions: 334 (draw 4+0), 335 (draw 3+1)" in str(from_core.value)
    assert native.to_state().to_dict() == before


def test_illegal_actions_in_every_phase_name_the_legal_ones() -> None:
    """Along a game, an action that is not legal is refused with the engine's message."""
    python = new_game(4, 5, options=RulesOptions(full_game=True))
    native = NativeAustraliaGame.new(4, 5, options=RulesOptions(full_game=True))
    rng = np.random.default_rng(5)
    phases = set()
    while not python.is_terminal():
        legal = python.legal_actions()
        wrong = next(a for a in range(A.NUM_ACTIONS) if a not in legal)
        with pytest.raises(IllegalActionError) as from_python:
            python.apply_action(wrong)
        with pytest.raises(IllegalActionError) as from_core:
            native.apply_action(wrong)
        assert str(from_core.value) == str(from_python.value)
        phases.add(python.phase)
        action = kind_uniform(legal, rng)
        assert native.apply_action(action) == python.apply_action(action)
    assert {ACTION, PLACE, TAKE_BACK} <= phases
    with pytest.raises(IllegalActionError, match="the game is over") as refused:
        native.apply_action(A.fly(0))
    with pytest.raises(IllegalActionError) as from_python:
        python.apply_action(A.fly(0))
    assert str(refused.value) == str(from_python.value)
    assert native.phase == OVER


def test_the_core_refuses_an_illegal_action_itself() -> None:
    """The binding alone (no Python wrapper) raises the typed error, naming the legal actions."""
    core = NativeAustraliaGame.new(2, 1).handle
    before = core.export()
    with pytest.raises(IllegalActionError, match=r"illegal action 3 in phase 'setup draw'.*334"):
        core.apply(3)
    with pytest.raises(IllegalActionError, match="not legal now"):
        core.apply(2**70)
    with pytest.raises(TypeError):
        core.apply("334")
    with pytest.raises(TypeError):
        core.apply(True)
    assert core.export() == before


def au_new_args(**changes: Any) -> list[Any]:
    board, components = tables(default_data(), 2)
    args = {
        "players": 2,
        "rng": rng_state(np.random.default_rng(0)),
        "options": pack_options(RulesOptions()),
        "map": board,
        "components": components,
    }
    args.update(changes)
    return list(args.values())


def _map(**changes: Any) -> Any:
    colours, locations, water = tables(default_data(), 2)[0]
    colours = changes.get("colours", colours)
    locations = changes.get("locations", locations)
    return (colours, locations, changes.get("water", water))


def _components(index: int, value: Any) -> Any:
    parts = list(tables(default_data(), 2)[1])
    parts[index] = value
    return tuple(parts)


LOCATIONS = tables(default_data(), 2)[0][1]
BAD_NEW_ARGS = [
    ({"players": 1}, ValueError, "num_players"),
    ({"players": 6}, ValueError, "num_players"),
    ({"players": "2"}, TypeError, "num_players"),
    ({"rng": None}, ValueError, "generator"),
    ({"rng": "seed"}, TypeError, "generator state"),
    ({"options": (True, False, 9)}, TypeError, "options"),
    ({"options": (1, False, 9, 200)}, TypeError, "full_game"),
    ({"options": (False, False, 2, 200)}, ValueError, "stack_cards"),
    ({"options": (False, False, 11, 200)}, ValueError, "smallest back has 10"),
    ({"options": (False, False, 10**30, 200)}, ValueError, "smallest back"),
    ({"options": (False, False, 9, 0)}, ValueError, "max_rounds"),
    ({"options": (False, False, 9, 2.5)}, TypeError, "max_rounds"),
    ({"map": "map"}, TypeError, "map"),
    ({"map": _map(colours=(0,) * 23)}, ValueError, "24 integers"),
    ({"map": _map(colours=(6,) * 24)}, ValueError, "colours"),
    ({"map": _map(water=(2,) * 24)}, ValueError, "water"),
    ({"map": _map(water=(0,) * 23)}, ValueError, "water"),
    ({"map": _map(locations=())}, ValueError, "1..64"),
    ({"map": _map(locations=LOCATIONS * 2)}, ValueError, "1..64"),
    ({"map": _map(locations=((2, (0, 1)),))}, ValueError, "kind"),
    ({"map": _map(locations=((0, (1, 0)), *LOCATIONS))}, ValueError, "ascending"),
    ({"map": _map(locations=((0, (0, 1, 2, 3, 4)),))}, ValueError, "at most 4"),
    ({"map": _map(locations=((0, (0, 24)),))}, ValueError, "regions"),
    ({"map": _map(locations=((0, (0, 1)),))}, ValueError, "no location borders region 2"),
    ({"components": "parts"}, TypeError, "components"),
    ({"components": _components(0, ((1,) * 6,) * 3)}, ValueError, "4 rows"),
    ({"components": _components(0, ((21,) * 6,) * 4)}, ValueError, "cards"),
    ({"components": _components(0, ((1, 1, 0, 0, 0, 0),) * 4)}, ValueError, "at least 3"),
    ({"components": _components(0, ((3, 3, 3, 3, 3, 0),) * 4)}, ValueError, "no card"),
    ({"components": _components(1, (5,) * 6)}, ValueError, "24 in all"),
    ({"components": _components(2, (1,) * 6)}, TypeError, "windmill tiles"),
    ({"components": _components(3, 41)}, ValueError, "rangers"),
    ({"components": _components(5, 1)}, ValueError, "windmill max"),
    ({"components": _components(6, 0)}, ValueError, "tile areas"),
    ({"components": _components(7, 41)}, ValueError, "ranger areas"),
]


@pytest.mark.parametrize(
    ("changes", "error", "match"),
    BAD_NEW_ARGS,
    ids=[f"{i}-{case[2]}" for i, case in enumerate(BAD_NEW_ARGS)],
)
def test_bad_arguments_to_the_core_are_python_exceptions(
    changes: dict[str, Any], error: type[Exception], match: str | None
) -> None:
    with pytest.raises(error, match=match):
        require().au_new(*au_new_args(**changes))


def test_too_many_stack_cards_are_refused_as_the_engine_does() -> None:
    options = RulesOptions(stack_cards=11)
    with pytest.raises(ValueError) as from_python:
        new_game(2, 0, options=options)
    with pytest.raises(ValueError) as from_core:
        NativeAustraliaGame.new(2, 0, options=options)
    assert str(from_core.value) == str(from_python.value)


def test_bad_arguments_to_the_wrapper_and_the_bench_games_are_python_exceptions() -> None:
    options = pack_options(RulesOptions())
    board, components = tables(default_data(), 2)
    with pytest.raises(ValueError, match="games"):
        require().au_random_games(2, -1, 0, options, board, components)
    with pytest.raises(ValueError, match="seed"):
        require().au_random_games(2, 1, 2**32, options, board, components)
    with pytest.raises(ValueError, match="num_players"):
        require().au_random_games(6, 1, 0, options, board, components)
    with pytest.raises(ValueError, match="smallest back"):
        require().au_random_games(2, 1, 0, (False, False, 12, 200), board, components)
    assert require().au_random_games(2, 0, 0, options, board, components) == 0
    with pytest.raises(ValueError, match="seed"):
        NativeAustraliaGame.new(2, -1)
    with pytest.raises(ValueError, match="2 to 5 players"):
        NativeAustraliaGame.new(True)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="either seed or rng"):
        NativeAustraliaGame.new(2, 0, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="PCG64"):
        NativeAustraliaGame.new(2, rng=np.random.Generator(np.random.MT19937(0)))


def test_a_huge_round_limit_plays_as_the_engine() -> None:
    options = RulesOptions(max_rounds=10**30, full_game=True)
    python = new_game(2, 8, options=options)
    native = NativeAustraliaGame.new(2, 8, options=options)
    rng = np.random.default_rng(8)
    while not python.is_terminal():
        action = kind_uniform(python.legal_actions(), rng)
        assert native.apply_action(action) == python.apply_action(action)
    assert native.to_state().to_dict() == python.to_dict()


def _in_phase(phase: int, seed: int = 0) -> State:
    """A state of a random full game when it first reaches ``phase``."""
    state = new_game(3, seed, options=RulesOptions(full_game=True))
    rng = np.random.default_rng(seed)
    while state.phase != phase:
        state.apply_action(kind_uniform(state.legal_actions(), rng))
    return state


BAD_STATES: list[tuple[str, Any, str]] = [
    ("view_seat", 0, "view"),
    ("phase", 8, "phase"),
    ("current", 3, "current"),
    ("actions_left", 3, "actions_left"),
    ("plane", [0, 24, 1], "plane"),
    ("supply", [41, 0, 0], "supply"),
    ("supply", [14, 14], "supply"),
    ("hands", [[0] * 24] * 2, "hands"),
    ("hands", [[0] * 23] * 3, "hands"),
    ("stacks", [[0]] * 3, "stacks"),
    ("stacks", [[6], [], [], []], "stacks"),
    ("stacks", [[0] * 121, [], [], []], "stacks"),
    ("set_aside", [[-1], [], [], []], "set_aside"),
    ("played", [0] * 23, "played"),
    ("rangers", [[0] * 3] * 33, "rangers"),
    ("rangers", [[41, 0, 0]] * 34, "rangers"),
    ("rangers", [[14, 0, 0]] * 34, "more than 40"),
    ("tile_value", [3] * 24, "tile_value"),
    ("tile_value", [10] * 24, "tile_value"),
    ("tile_up", [2] * 24, "tile_up"),
    ("windmill_track", [0] * 41, "windmill_track"),
    ("ranger_track", [3], "ranger_track"),
    ("pending_card", 24, "pending_card"),
    ("move_from", 34, "move_from"),
    ("windmill_region", 24, "windmill_region"),
    ("windmill_value", 101, "windmill_value"),
    ("num_players", 6, "num_players"),
    ("rng", "state", "generator"),
]


@pytest.mark.parametrize(("key", "value", "match"), BAD_STATES, ids=repr)
def test_a_bad_state_is_refused_on_import(key: str, value: Any, match: str) -> None:
    state = new_game(3, 0)
    exported = state.to_dict()
    exported["rng"] = rng_state(state.rng)
    exported[key] = value
    board, components = tables(state.data, 3)
    with pytest.raises((ValueError, TypeError, KeyError), match=match):
        require().au_import(pack_options(state.options), board, components, exported)
    del exported[key]
    with pytest.raises(KeyError, match=key):
        require().au_import(pack_options(state.options), board, components, exported)


@pytest.mark.parametrize(
    ("phase", "key", "value", "match"),
    [
        (TAKE_BACK, "plane", -1, "phase 'take back' needs the plane"),
        (PLACE, "plane", -1, "phase 'place' needs the plane"),
    ],
)
def test_a_state_whose_phase_lacks_what_it_indexes_is_refused(
    phase: int, key: str, value: int, match: str
) -> None:
    state = _in_phase(phase)
    getattr(state, key)[state.current] = value
    with pytest.raises(ValueError, match=match):
        NativeAustraliaGame.from_state(state)
    moving = replace(RulesOptions(), full_game=True)
    lifted = new_game(2, 0, options=moving)
    lifted.phase = 6  # move to, with no lifted ranger
    with pytest.raises(ValueError, match="move_from"):
        NativeAustraliaGame.from_state(lifted)
