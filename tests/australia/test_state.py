"""The state's contracts: exact dict round trip, clone independence, determinism, views that leak
nothing (another player's card colours, face-down tiles, stack order), determinize, the
observation's layout and perspective, the GAME object and the presenter."""

from __future__ import annotations

import json

import numpy as np
import pytest

from airships_env.games.australia import GAME
from airships_env.games.australia.engine import (
    LogError,
    RulesOptions,
    State,
    new_game,
    state_from_dict,
)
from airships_env.games.australia.engine.data import NUM_BACKS, NUM_COLOURS
from airships_env.games.australia.observation import observation_layout
from airships_env.registry import get_game
from tests.australia.helpers import random_kind_action


def sampled_states(num_players: int, seed: int, every: int, full: bool = False) -> list[State]:
    """Clones of every ``every``-th state of a random game, and of its last state."""
    state = new_game(num_players, seed, options=RulesOptions(full_game=full))
    rng = np.random.default_rng(seed)
    kept = [state.clone()]
    step = 0
    while not state.is_terminal():
        state.apply_action(random_kind_action(state.legal_actions(), rng))
        step += 1
        if step % every == 0:
            kept.append(state.clone())
    kept.append(state.clone())
    return kept


def hidden_pool(state: State, seat: int, back: int) -> list[int]:
    """The colours of ``back`` that ``seat`` cannot see (other hands, stack, set aside)."""
    pool = state.stacks[back] + state.set_aside[back]
    for other in range(state.num_players):
        if other != seat:
            pool += [c for c in range(NUM_COLOURS) for _ in range(state.hands[other][back * 6 + c])]
    return sorted(pool)


def hidden_twin(state: State, seat: int, rng: np.random.Generator) -> State:
    """A state that differs from ``state`` only in what ``seat`` cannot see."""
    twin: State = state.view(seat).determinize(rng)
    twin.rng = state.rng
    return twin


@pytest.mark.parametrize("full", [False, True])
def test_the_dict_round_trip_is_exact_through_json(full: bool) -> None:
    for state in sampled_states(4, 1, 23, full):
        data = state.to_dict()
        text = json.loads(json.dumps(data))
        restored = state_from_dict(text)
        assert restored.to_dict() == data
        if not state.is_terminal():
            assert restored.legal_actions() == state.legal_actions()
            action = state.legal_actions()[-1]
            assert restored.apply_action(action) == state.clone().apply_action(action)
    with pytest.raises(LogError, match="not an Australia state"):
        state_from_dict({"game": "clockwork"})
    broken = sampled_states(2, 1, 50)[0].to_dict()
    del broken["rangers"]
    with pytest.raises(LogError, match="rangers"):
        state_from_dict(broken)


def test_clone_is_independent_and_continues_the_same_game() -> None:
    for state in sampled_states(3, 2, 17, full=True):
        if state.is_terminal():
            continue
        before = state.to_dict()
        twin = state.clone()
        action = twin.legal_actions()[0]
        record = twin.apply_action(action)
        assert state.to_dict() == before
        assert state.apply_action(action) == record
        assert state.to_dict() == twin.to_dict()


def test_the_same_seed_and_actions_give_the_same_game() -> None:
    first = [s.to_dict() for s in sampled_states(5, 3, 11)]
    second = [s.to_dict() for s in sampled_states(5, 3, 11)]
    assert first == second
    assert new_game(2, 0).to_dict() != new_game(2, 1).to_dict()  # seed 0 is a seed


@pytest.mark.parametrize("num_players", [2, 5])
def test_a_view_leaks_no_hidden_colour_tile_or_stack_order(num_players: int) -> None:
    rng = np.random.default_rng(4)
    for state in sampled_states(num_players, 4, 13, full=True):
        for seat in range(num_players):
            seen = state.view(seat)
            for _ in range(2):
                twin = hidden_twin(state, seat, rng)
                assert twin.view(seat).to_dict() == seen.to_dict()
                assert np.array_equal(GAME.observe(twin, seat), GAME.observe(seen, seat))
            assert seen.rng is None
            assert seen.hands[seat] == state.hands[seat]


def test_a_twin_really_differs_in_what_is_hidden() -> None:
    state = sampled_states(4, 5, 1000)[0]
    while state.phase < 2:  # the setup draws fill the hands
        state.apply_action(state.legal_actions()[0])
    twins = [hidden_twin(state, 0, np.random.default_rng(k)) for k in range(6)]
    assert len({json.dumps(t.stacks) for t in twins}) > 1
    assert len({json.dumps(t.tile_value) for t in twins}) > 1
    assert len({json.dumps(t.hands[1:]) for t in twins}) > 1
    assert all(t.hands[0] == state.hands[0] for t in twins)


def test_determinize_is_consistent_with_the_view_and_playable() -> None:
    rng = np.random.default_rng(6)
    for state in sampled_states(3, 6, 19, full=True):
        seat = state.current
        seen = state.view(seat)
        world = seen.determinize(rng)
        assert world.view(seat).to_dict() == seen.to_dict()
        assert world.view_seat == -1 and world.rng is not None
        for back in range(NUM_BACKS):  # the same multiset of hidden colours
            assert hidden_pool(world, seat, back) == hidden_pool(seen, seat, back)
        if not world.is_terminal():
            world.apply_action(world.legal_actions()[0])


def test_the_observation_layout_and_the_seats_perspective() -> None:
    for n in (2, 3, 4, 5):
        layout = observation_layout(n)
        assert sum(size for _, size in layout) == GAME.observation_size(n) == 1280
    state = sampled_states(3, 7, 1000)[0]
    while state.phase < 2:
        state.apply_action(state.legal_actions()[0])
    offsets: dict[str, tuple[int, int]] = {}
    start = 0
    for name, size in observation_layout(3):
        offsets[name] = (start, start + size)
        start += size
    for seat in range(3):
        vector = GAME.observe(state.view(seat), seat)
        assert vector.dtype == np.float32
        assert np.array_equal(vector, GAME.observe(state, seat))
        a, b = offsets["hand"]
        assert list(vector[a:b]) == state.hands[seat]
        a, b = offsets["backs"]
        nxt = (seat + 1) % 3
        backs = [sum(state.hands[nxt][k * NUM_COLOURS : (k + 1) * NUM_COLOURS]) for k in range(4)]
        assert list(vector[a : a + 4]) == backs
        a, b = offsets["my_turn"]
        assert vector[a] == float(seat == state.current)
        low, high = GAME.observation_bounds(3)
        assert vector.min() >= low and vector.max() <= high


def test_the_game_object_is_registered_and_plays() -> None:
    assert get_game("australia") is GAME
    assert GAME.num_actions == 556 and GAME.player_counts == (2, 3, 4, 5)
    assert GAME.action_name(0) == "fly region 0"
    with pytest.raises(ValueError):
        GAME.action_name(556)
    state = GAME.new_state(2, seed=3, options={"full_game": True})
    assert state.options.full_game
    with pytest.raises(ValueError, match="backend"):
        GAME.new_state(2, seed=3, backend="gpu")
    presenter = GAME.presenter()
    rng = np.random.default_rng(0)
    record = None
    for _ in range(60):
        record = state.apply_action(random_kind_action(state.legal_actions(), rng))
        assert presenter.record_text(record, state)
    text = presenter.ansi(state.view(0), 0, record)
    assert "Kimberley" in text and "P1" in text
    spectator = presenter.ansi(state, None, record)
    own = [line for line in text.splitlines() if line.startswith("\x1b[97mP1")]
    assert own and "?" not in own[0].split("hand")[1]  # the seat sees its own colours
    assert all("?" in line.split("hand")[1] for line in spectator.splitlines() if " VP " in line)
    assert presenter.svg(state, None, record).startswith("<svg")
    assert presenter.rgb(state, None, record).shape[2] == 3


def test_the_ansi_map_shows_a_drawn_colour_to_its_drawer_only() -> None:
    state = GAME.new_state(2, seed=8)
    record = state.apply_action(state.legal_actions()[0])  # seat 0 draws in the setup
    presenter = GAME.presenter()
    colour = ("blue", "green", "orange", "grey", "red", "yellow")[record.drawn]
    assert f"draws 4+0 {colour}" in presenter.record_text(record, state)  # the true log
    last = [line for line in presenter.ansi(state.view(0), 0, record).splitlines()
            if line.startswith("last:")]  # fmt: skip
    assert f"draws 4+0 {colour}" in last[0]
    for seat, shown in ((1, state.view(1)), (None, state)):
        last = [line for line in presenter.ansi(shown, seat, record).splitlines()
                if line.startswith("last:")]  # fmt: skip
        assert "draws 4+0 ?" in last[0]
