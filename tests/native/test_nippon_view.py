"""Nippon's views and determinizations in the native core (nippon_view.c) against the Python
engine (State.view / State.determinize): at every step of seeded random games, for 2, 3 and 4
players and every rules option, every seat's view and a determinization of it agree field for
field (the generator included) and leave the searcher's generator in the same state; the view
hides exactly what the Python view hides (the generator: the bag's future order), and neither
engine plays on a view."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest

from airships_env.chance import uniform_below
from airships_env.games.nippon.engine import Phase, RulesOptions, State, ViewError, new_game
from airships_env.games.nippon.engine.actions import K_EXPORT
from airships_env.native import require
from airships_env.native.convert import rng_state
from airships_env.native.nippon import NativeNipponGame, pack_options, tables

OPTIONS = {
    "default": RulesOptions(),
    "every_other_value": RulesOptions(
        captured_tile="removed",
        neutral_competes=False,
        majority_ties="lower",
        marker_trigger="space_empties",
    ),
    "captured_tile_removed": RulesOptions(captured_tile="removed"),
    "marker_on_space_empties": RulesOptions(marker_trigger="space_empties"),
}


def hidden_keys(truth: dict[str, Any], view: dict[str, Any]) -> set[str]:
    """The entries of a state's dict that its view changes."""
    return {key for key in truth if truth[key] != view[key]}


def check_position(state: State, game: NativeNipponGame, draw: int) -> None:
    """Every seat's view and one determinization of it agree in both engines."""
    truth = state.to_dict()
    native_truth = game.to_dict()
    for seat in range(state.num_players):
        view = state.view(seat)
        native_view = game.view(seat)
        assert native_view.to_dict() == view.to_dict()
        assert hidden_keys(native_truth, native_view.to_dict()) == hidden_keys(
            truth, view.to_dict()
        )
        python_rng = np.random.default_rng([draw, seat])
        native_rng = np.random.default_rng([draw, seat])
        world = view.determinize(python_rng)
        native_world = native_view.determinize(seat, native_rng)
        assert native_world.to_dict() == world.to_dict()
        assert native_rng.bit_generator.state == python_rng.bit_generator.state
        # the true state determinizes to the same world: only the view is read
        again = game.determinize(seat, np.random.default_rng([draw, seat]))
        assert again.to_dict() == world.to_dict()
        # a Python view imported into the core is the core's view
        assert NativeNipponGame.from_view(view).to_dict() == view.to_dict()


def play(players: int, seed: int, options: RulesOptions, every: int) -> int:
    """A random game in both engines, views checked every ``every`` steps; positions checked."""
    state = new_game(players, seed, options=options)
    game = NativeNipponGame.new(players, seed, options=options)
    chooser = np.random.default_rng([seed, players, 77])
    step = checked = 0
    while not state.is_terminal():
        if step % every == 0:
            check_position(state, game, step)
            checked += 1
        legal = state.legal_actions()
        action = legal[uniform_below(chooser, len(legal))]
        state.apply_action(action)
        game.apply_action(action)
        step += 1
    check_position(state, game, step)
    return checked + 1


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("case", sorted(OPTIONS))
def test_views_and_determinizations_agree(players: int, case: str) -> None:
    checked = sum(play(players, seed, OPTIONS[case], every=3) for seed in range(2))
    assert checked > 40


def test_the_view_hides_the_generator_and_nothing_else() -> None:
    state = new_game(3, 4)
    for _ in range(30):
        state.apply_action(state.legal_actions()[-1])
    truth = state.to_dict()
    view = NativeNipponGame.from_state(state).view(1).to_dict()
    assert hidden_keys(truth, view) == {"rng", "is_view"}
    assert view["rng"] is None and view["is_view"] is True


def test_a_world_plays_on_like_the_engines() -> None:
    """A determinized world's generator is the engine's: the bag draws the same after it."""
    state = new_game(2, 9)
    view = state.view(0)
    world = view.determinize(np.random.default_rng(3))
    native = NativeNipponGame.from_view(view).determinize(0, np.random.default_rng(3))
    chooser = np.random.default_rng(1)
    while not world.is_terminal():
        legal = world.legal_actions()
        action = legal[uniform_below(chooser, len(legal))]
        assert native.apply_action(action) == world.apply_action(action)
    assert native.to_dict() == world.to_dict()
    assert native.outcome() == world.outcome()


def test_games_and_views_pickle_as_themselves() -> None:
    game = NativeNipponGame.new(3, 8)
    for original in (game, game.view(2)):
        copied = pickle.loads(pickle.dumps(original))
        assert copied.to_dict() == original.to_dict()


def test_a_view_cannot_be_played_on() -> None:
    view = NativeNipponGame.new(2, 1).view(0)
    before = view.to_dict()
    with pytest.raises(ViewError, match="a view cannot advance"):
        view.apply_action(view.legal_actions()[0])
    assert view.to_dict() == before
    with pytest.raises(ViewError, match="a view has no generator"):
        NativeNipponGame.from_state(new_game(2, 1).view(0))


def test_bad_arguments_are_clear_errors() -> None:
    game = NativeNipponGame.new(3, 2)
    with pytest.raises(ValueError, match="seat"):
        game.view(3)
    with pytest.raises(ValueError, match="seat"):
        game.determinize(-1, np.random.default_rng(0))
    with pytest.raises(TypeError, match="PCG64"):
        game.determinize(0, np.random.Generator(np.random.MT19937(0)))
    with pytest.raises(TypeError, match="PCG64"):
        game.determinize(0, 5)  # type: ignore[arg-type]
    state = new_game(2, 1)
    exported = state.to_dict()
    exported["rng"] = rng_state(state.rng)
    exported["is_view"] = True  # a view with a generator is neither a view nor a state
    with pytest.raises(ValueError, match="a view has no generator"):
        require().ni_import(pack_options(state.options), tables(state.data), exported)


def test_a_state_after_a_paid_three_demand_contract_imports() -> None:
    """Once a contract's third demand is paid, pend_demand is 3 until the action ends: the core
    imports such a state, a true one and a view (it refused them, 0..2, before)."""
    state = new_game(2, 0)
    seat = state.current
    three = next(k for k, c in enumerate(state.data.contracts) if len(c.demands) == 3)
    state.phase, state.pend_kind, state.pend_contract = Phase.DELIVER, K_EXPORT, three
    state.cubes[seat] = [5] * len(state.cubes[seat])
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    assert state.pend_demand == 3 and state.contracts_done[seat][three] == 1
    assert NativeNipponGame.from_state(state).to_dict() == state.to_dict()
    view = state.view(seat)
    assert NativeNipponGame.from_view(view).to_dict() == view.to_dict()
