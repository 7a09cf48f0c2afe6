"""Australia's views and determinizations in the native core (australia_view.c) against the
Python engine (engine/view.py), issue 25: at every step of seeded random games (2-5 players, the
simple and the full game, the other rules options, an edited data file), every seat's view and a
determinization of it agree field for field, the generators are left in the same state, and the
world's generator is seeded alike. And the native view hides exactly what the Python view hides:
equal to it field for field, and the same for every truth that seat cannot tell apart."""

from __future__ import annotations

import collections
from typing import Any

import numpy as np
import pytest

from airships_env.games.australia.engine import (
    AustraliaData,
    RulesOptions,
    State,
    new_game,
    parse_data,
)
from airships_env.games.australia.engine.actions import kind_uniform_choice
from airships_env.games.australia.engine.chance import uniform_below
from airships_env.native.australia import NativeAustraliaGame
from tests.native.test_australia_native import edited_documents

STATE_FIELDS = [f for f in State.__slots__ if f not in ("data", "options", "rng", "view_seat")]
SEEN: collections.Counter[str] = collections.Counter()


def fields(state: State) -> dict[str, Any]:
    """The state's fields as the core exports them (generator and view seat apart)."""
    return {name: getattr(state, name) for name in STATE_FIELDS}


def native_fields(game: NativeAustraliaGame) -> dict[str, Any]:
    exported = game.handle.export()
    return {name: exported[name] for name in STATE_FIELDS}


def check_position(state: State, game: NativeAustraliaGame, draw: int) -> None:
    """Every seat's view and one determinization of it agree in both engines."""
    for seat in range(state.num_players):
        view = state.view(seat)
        native_view = game.view(seat)
        assert native_fields(native_view) == fields(view)
        assert native_view.handle.export()["rng"] is None
        python_rng = np.random.default_rng([draw, seat])
        native_rng = np.random.default_rng([draw, seat])
        world = view.determinize(python_rng)
        native_world = game.determinize(seat, native_rng)
        assert native_fields(native_world) == fields(world)
        native_world_rng = native_world.to_state().rng
        assert world.rng is not None and native_world_rng is not None
        assert native_world_rng.bit_generator.state == world.rng.bit_generator.state
        assert native_rng.bit_generator.state == python_rng.bit_generator.state
        # determinizing the native view (or a view imported) gives the same world
        for source in (native_view, NativeAustraliaGame.from_view(view)):
            again = source.determinize(seat, np.random.default_rng([draw, seat]))
            assert native_fields(again) == fields(world)
        if fields(world) != fields(state):
            SEEN["re-dealt"] += 1
        if any(not up and value for value, up in zip(state.tile_value, state.tile_up, strict=True)):
            SEEN["face-down tiles"] += 1


def play(state: State, every: int, seed: int) -> int:
    """Random play (kind-uniform, so that cards are played and games end), both engines checked
    every ``every`` steps; the positions checked."""
    game = NativeAustraliaGame.from_state(state)
    chooser = np.random.default_rng(1000 + seed)
    checked = 0
    while not state.is_terminal():
        if state.step % every == 0:
            check_position(state, game, state.step)
            checked += 1
        action = kind_uniform_choice(state.legal_actions(), lambda k: uniform_below(chooser, k))
        state.apply_action(action)
        game.apply_action(action)
    check_position(state, game, state.step)  # a finished game's views too
    return checked + 1


OPTIONS = {
    "simple": RulesOptions(),
    "full": RulesOptions(full_game=True),
    "published": RulesOptions(stack_cards=8, recolour_anywhere=True),
    "full-anywhere": RulesOptions(full_game=True, recolour_anywhere=True, max_rounds=6),
}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("rules", list(OPTIONS))
def test_views_and_worlds_agree(players: int, rules: str) -> None:
    for seed in range(2):
        state = new_game(players, seed, options=OPTIONS[rules])
        assert play(state, every=3, seed=seed) > 10


def test_an_edited_data_file_agrees() -> None:
    board, parts = edited_documents()
    data: AustraliaData = parse_data(board, parts, "edited-map.toml", "edited-components.toml")
    for players in (2, 5):
        state = new_game(players, 7, options=RulesOptions(full_game=True), data=data)
        play(state, every=4, seed=7)


def test_the_comparisons_re_dealt_hidden_parts() -> None:
    """Run after the games: the worlds did differ from the truth, with tiles face down."""
    assert SEEN["re-dealt"] > 100
    assert SEEN["face-down tiles"] > 100


@pytest.mark.parametrize("players", [2, 4])
def test_the_view_depends_only_on_what_the_seat_sees(players: int) -> None:
    """Truths the seat cannot tell apart (the Python view's hidden parts re-dealt) give the
    same native view; what the Python view shows differs only where it hides."""
    redeal = np.random.default_rng(5)
    chooser = np.random.default_rng(6)
    state = new_game(players, 3, options=RulesOptions(full_game=True))
    changed = 0
    while not state.is_terminal():
        if state.step % 5 == 0:
            for seat in range(players):
                view = NativeAustraliaGame.from_state(state).view(seat)
                other = state.view(seat).determinize(redeal)  # another truth, the same view
                assert NativeAustraliaGame.from_state(other).view(seat).to_dict() == view.to_dict()
                changed += fields(other) != fields(state)
        action = kind_uniform_choice(state.legal_actions(), lambda k: uniform_below(chooser, k))
        state.apply_action(action)
    assert changed > 20


def test_bad_arguments_are_exceptions() -> None:
    game = NativeAustraliaGame.new(3, 5)
    with pytest.raises(ValueError, match="seat"):
        game.view(3)
    with pytest.raises(ValueError, match="seat"):
        game.determinize(-1, np.random.default_rng(0))
    with pytest.raises(TypeError, match="PCG64"):
        game.determinize(0, np.random.Generator(np.random.MT19937(0)))
    with pytest.raises(TypeError, match="seat"):
        game.view("0")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="needs a generator"):
        game.handle.determinize(0, None)
