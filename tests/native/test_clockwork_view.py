"""Clockwork's views and determinizations in the native core (clockwork_view.c) against the
Python engine (engine/view.py): at every step of random games, every seat's view and a
determinization of it must agree field for field, and the generator must be left in the same
state; numpy's ``Generator.permutation`` is replayed exactly on many sizes and streams."""

from __future__ import annotations

import collections
from typing import Any

import numpy as np
import pytest

from airships_env.chance import uniform_below
from airships_env.games.clockwork.engine import RulesOptions, State, new_game
from airships_env.games.clockwork.engine.model import RESPOND
from airships_env.native import require
from airships_env.native.clockwork import NativeClockworkGame

STATE_FIELDS = [f for f in State.__slots__ if f not in ("data", "options", "rng", "view_seat")]
SEEN: collections.Counter[str] = collections.Counter()


def fields(state: State) -> dict[str, Any]:
    """The state's fields as the core exports them (generator and view seat apart)."""
    return {name: getattr(state, name) for name in STATE_FIELDS}


def native_fields(game: NativeClockworkGame) -> dict[str, Any]:
    exported = game.handle.export()
    return {name: exported[name] for name in STATE_FIELDS}


def check_position(state: State, game: NativeClockworkGame, draw: int) -> None:
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
        # determinizing the native view gives the same world as the true state's
        again = native_view.determinize(seat, np.random.default_rng([draw, seat]))
        assert native_fields(again) == fields(world)
        if state.phase == RESPOND and view.challenge[2] < 0:
            SEEN["guessed"] += 1
        if sum(state.hand_size(s) for s in range(state.num_players) if s != seat) > 0:
            SEEN["hidden hands"] += 1


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("recall", ["all", "none"])
def test_views_and_worlds_agree_at_every_step(players: int, recall: str) -> None:
    options = RulesOptions() if recall == "all" else RulesOptions(discard_recall="none")
    for seed in range(4 if players == 2 else 3):
        state = new_game(players, seed, options=options)
        game = NativeClockworkGame.from_state(state)
        chooser = np.random.default_rng(1000 + seed)
        draw = 0
        while not state.is_terminal() and draw < 400:
            check_position(state, game, draw)
            legal = state.legal_actions()
            action = legal[uniform_below(chooser, len(legal))]
            state.apply_action(action)
            game.apply_action(action)
            draw += 1


def test_the_batches_visited_hidden_hands_and_guessed_challenges() -> None:
    """Run after the batches: the comparisons covered what they should."""
    assert SEEN["hidden hands"] > 100
    assert SEEN["guessed"] > 0


@pytest.mark.parametrize("seed", range(20))
def test_numpy_permutation_replayed(seed: int) -> None:
    """``numpy_permute_i8`` through a determinization of a hand-made view is numpy's order:
    checked directly on arrays of many sizes through the core's test hook."""
    core = require()
    for size in (0, 1, 2, 3, 5, 17, 64, 100, 112):
        values = np.arange(size) % 14
        rng = np.random.default_rng(seed * 1000 + size)
        rng.bit_generator.random_raw(seed % 3)  # vary the stream's position
        if seed % 2:
            rng.integers(0, 2**32, dtype=np.uint32)  # leave a buffered 32-bit half
        expected_rng = np.random.default_rng(0)
        expected_rng.bit_generator.state = rng.bit_generator.state
        expected = expected_rng.permutation(values).tolist()
        got, after = core.numpy_permutation(values.tolist(), tuple(_state_tuple(rng)))
        assert got == expected
        assert after == _state_tuple(expected_rng)


def _state_tuple(rng: np.random.Generator) -> tuple[int, int, int, int]:
    state = rng.bit_generator.state
    return (
        int(state["state"]["state"]),
        int(state["state"]["inc"]),
        int(state["has_uint32"]),
        int(state["uinteger"]),
    )


def test_bad_arguments_are_exceptions() -> None:
    game = NativeClockworkGame.new(3, 5)
    with pytest.raises(ValueError, match="seat"):
        game.view(3)
    with pytest.raises(ValueError, match="seat"):
        game.determinize(-1, np.random.default_rng(0))
    with pytest.raises(TypeError, match="PCG64"):
        game.determinize(0, np.random.Generator(np.random.MT19937(0)))
