"""Replay from logs, the dict/JSON round trip, determinism, clone independence, public views and
determinization, and the engine's independence from gymnasium, pettingzoo and torch."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from airships_env.engine import (
    CHIP_DECISION,
    EXTRA_TURN,
    NUM_ATTEMPT_ACTIONS,
    PASS,
    GameLog,
    GameState,
    LogError,
    determinize,
    new_game,
    public_view,
    read_log,
    replay,
)
from airships_env.engine.records import ActionRecord
from airships_env.engine.state import CHANGE_OF_ERA

from .helpers import check_state, play_random

REPO = Path(__file__).resolve().parents[2]


def _logged_game(num_players: int, seed: int) -> tuple[GameState, GameLog]:
    state = new_game(num_players, seed=seed)
    log = GameLog.start(state, seed=seed)
    log.records.extend(play_random(state, np.random.default_rng(seed + 100)))
    return state, log


def _without_rng(data: dict) -> dict:  # type: ignore[type-arg]
    return {k: v for k, v in data.items() if k != "rng"}


# ---------------------------------------------------------------------------------------------
# Replay
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("num_players", "seed"), [(2, 1), (3, 2), (4, 3), (4, 4)])
def test_replay_of_the_log_gives_the_identical_final_state(num_players: int, seed: int) -> None:
    state, log = _logged_game(num_players, seed)
    assert state.is_terminal()
    assert replay(log).to_dict() == state.to_dict()
    # with the logged dice instead of the generator: the same game (the generator is not used)
    forced = replay(log, reroll=False)
    assert _without_rng(forced.to_dict()) == _without_rng(state.to_dict())
    # part of the log: the state after the first k records
    partial = new_game(num_players, seed=seed)
    rng = np.random.default_rng(seed + 100)
    for _ in range(17):
        legal = partial.legal_actions()
        partial.apply_action(legal[int(rng.integers(len(legal)))])
    assert replay(log, upto=17).to_dict() == partial.to_dict()


def test_replay_through_a_json_lines_file(tmp_path: Path) -> None:
    state, log = _logged_game(4, 12)
    path = tmp_path / "game.jsonl"
    log.write(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 + len(log.records)
    assert all(isinstance(json.loads(line), dict) for line in lines)
    loaded = read_log(path)
    assert loaded.records == log.records and loaded.meta == {"seed": 12}
    assert loaded.replay().to_dict() == state.to_dict()
    assert replay(loaded, reroll=False).final_scores == state.final_scores


def test_replay_refuses_a_tampered_log(tmp_path: Path) -> None:
    _state, log = _logged_game(3, 5)
    index = next(i for i, r in enumerate(log.records) if r.rolled is not None)
    record = log.records[index]
    log.records[index] = replace(record, total=(record.total or 0) + 7)
    with pytest.raises(LogError, match=f"line {index + 2}: .*total"):
        replay(log)
    path = tmp_path / "bad.jsonl"
    path.write_text('{"type": "header"}\n', encoding="utf-8")
    with pytest.raises(LogError, match="line 1"):
        read_log(path)


def test_records_round_trip_through_dicts() -> None:
    _state, log = _logged_game(3, 8)
    for record in log.records:
        assert ActionRecord.from_dict(json.loads(json.dumps(record.to_dict()))) == record


# ---------------------------------------------------------------------------------------------
# Dict / JSON round trip
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("num_players", "seed"), [(2, 21), (3, 22), (4, 23)])
def test_json_round_trip_at_every_point_continues_identically(num_players: int, seed: int) -> None:
    state = new_game(num_players, seed=seed)
    rng = np.random.default_rng(seed)
    phases_seen = set()
    while not state.is_terminal():
        data = state.to_dict()
        restored = GameState.from_dict(json.loads(json.dumps(data)))
        assert restored.to_dict() == data
        assert restored.legal_actions() == state.legal_actions()
        phases_seen.add(state.phase)
        if state.step % 15 == 0 or state.phase != 0:
            # the restored state plays on exactly like the original (dice included)
            original = state.clone()
            actions = np.random.default_rng(state.step)
            while not original.is_terminal():
                legal = original.legal_actions()
                action = legal[int(actions.integers(len(legal)))]
                assert restored.apply_action(action) == original.apply_action(action)
            assert restored.to_dict() == original.to_dict()
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    final = state.to_dict()
    assert GameState.from_dict(json.loads(json.dumps(final))).to_dict() == final
    assert EXTRA_TURN in phases_seen  # the pending chip decision is covered by the next test


def test_json_round_trip_of_a_pending_chip_decision() -> None:
    found = 0
    for seed in range(200):
        state = new_game(2, seed=seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal() and state.phase != CHIP_DECISION:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
        if state.phase != CHIP_DECISION:
            continue
        found += 1
        data = state.to_dict()
        restored = GameState.from_dict(json.loads(json.dumps(data)))
        assert restored.pending == state.pending and restored.to_dict() == data
        for action in restored.legal_actions():
            assert restored.clone().apply_action(action) == state.clone().apply_action(action)
        if found == 5:
            break
    assert found == 5


def test_from_dict_refuses_another_card_set_and_format() -> None:
    data = new_game(2, seed=0).to_dict()
    with pytest.raises(ValueError, match="format"):
        GameState.from_dict({**data, "format": 99})
    other = json.loads(json.dumps(data))
    other["cards"]["digest"] = "0" * 64
    with pytest.raises(ValueError):
        GameState.from_dict(other)


# ---------------------------------------------------------------------------------------------
# Determinism
# ---------------------------------------------------------------------------------------------
def _records(seed: int, action_seed: int) -> list[ActionRecord]:
    state = new_game(3, seed=seed)
    return play_random(state, np.random.default_rng(action_seed))


def test_same_seed_and_actions_give_the_same_records() -> None:
    assert _records(5, 9) == _records(5, 9)
    assert new_game(4, seed=0).to_dict() == new_game(4, seed=0).to_dict()
    rng_game = new_game(4, rng=np.random.default_rng(0))
    assert rng_game.to_dict() == new_game(4, seed=0).to_dict()  # seed 0 is a seed, not "none"


def test_different_seeds_differ() -> None:
    assert _records(5, 9) != _records(6, 9)
    setups = {json.dumps(new_game(4, seed=s).to_dict(), sort_keys=True) for s in range(10)}
    assert len(setups) == 10
    a, b = new_game(2), new_game(2)  # no seed: fresh entropy
    assert a.to_dict()["rng"] != b.to_dict()["rng"]
    with pytest.raises(ValueError, match="either seed or rng"):
        new_game(2, seed=1, rng=np.random.default_rng(1))


# ---------------------------------------------------------------------------------------------
# Clones
# ---------------------------------------------------------------------------------------------
def test_clone_is_independent_of_the_original() -> None:
    state = new_game(4, seed=31)
    rng = np.random.default_rng(31)
    while not state.is_terminal():
        if state.step % 10 == 0:
            before = state.to_dict()
            clone = state.clone()
            assert clone.to_dict() == before
            play_random(clone, np.random.default_rng(state.step))  # advance the clone
            clone.players[0].slots[0] = 0  # and mutate every container it has
            clone.players[1].airships.append(0)
            clone.players[2].chips_supply += 9
            clone.deck.append(0)
            clone.board[0] = 0
            clone.stacks[0].append(0)
            clone.left_out.clear()
            clone.removed.append(0)
            clone.hindenburg[0] = 3
            assert state.to_dict() == before
            # and advancing the original leaves a fresh clone untouched
            clone = state.clone()
            snapshot = clone.to_dict()
            original = state.clone()
            play_random(original, np.random.default_rng(1))
            assert clone.to_dict() == snapshot
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])


def test_clone_with_another_generator_rolls_differently() -> None:
    state = new_game(2, seed=3)
    same = [state.clone() for _ in range(2)]
    assert play_random(same[0], np.random.default_rng(0)) == play_random(
        same[1], np.random.default_rng(0)
    )
    other = [state.clone(rng=np.random.default_rng(s)) for s in range(2)]
    assert play_random(other[0], np.random.default_rng(0)) != play_random(
        other[1], np.random.default_rng(0)
    )


# ---------------------------------------------------------------------------------------------
# Public view and determinization (V1, V2)
# ---------------------------------------------------------------------------------------------
def _reshuffled(state: GameState, seed: int) -> GameState:
    """The same public state with its hidden cards (V2) in another order: determinize it."""
    return determinize(state, np.random.default_rng(seed))


def _points(num_players: int, seed: int, every: int = 9) -> list[GameState]:
    state = new_game(num_players, seed=seed)
    rng = np.random.default_rng(seed)
    points = []
    while not state.is_terminal():
        if state.step % every == 0:
            points.append(state.clone())
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    return [*points, state]


def test_same_public_history_with_other_hidden_order_gives_the_same_view() -> None:
    for state in _points(4, 41):
        view = public_view(state).to_dict()
        for seed in range(3):
            other = _reshuffled(state, seed)
            assert public_view(other).to_dict() == view
        assert public_view(public_view(state)).to_dict() == view  # a view of a view


def test_the_view_hides_the_hidden_order() -> None:
    state = new_game(3, seed=2)
    view = public_view(state)
    assert view.rng is None and view.to_dict()["rng"] is None
    era_one = sorted(
        c for c in state.deck if c != CHANGE_OF_ERA and c in set(state.cards.expansions_of_era(1))
    )
    assert view.deck[-len(era_one) :] == era_one  # canonical (sorted), whatever the true order
    attempt = next(a for a in view.legal_actions() if a < NUM_ATTEMPT_ACTIONS)
    before = view.to_dict()
    with pytest.raises(ValueError, match="public view cannot advance"):
        view.apply_action(attempt)  # a view cannot roll: it has no generator
    # not even with forced dice: it would reveal a placeholder card from its canonical deck
    forced = ((3, 3, 3), (5, 5, 5), (8, 8, 8))
    with pytest.raises(ValueError, match="determinize"):
        view.apply_action(attempt, dice=forced)
    with pytest.raises(ValueError, match="public view cannot advance"):
        view.apply_action(PASS)
    assert view.to_dict() == before
    assert view.legal_actions() == state.legal_actions()  # it answers public questions


def test_determinize_keeps_public_information_and_ignores_the_true_order() -> None:
    moved = 0
    for state in _points(3, 43):
        view = public_view(state)
        for seed in range(3):
            sample = determinize(state, np.random.default_rng(seed))
            check_state(sample)
            assert sample.rng is not None and not sample.is_public_view
            assert public_view(sample).to_dict() == view.to_dict()
            # the same sample from the view and from another true order of the hidden cards
            assert determinize(view, np.random.default_rng(seed)).to_dict() == sample.to_dict()
            other = _reshuffled(state, 100 + seed)
            assert determinize(other, np.random.default_rng(seed)).to_dict() == sample.to_dict()
            moved += (sample.deck, sample.stacks, sample.left_out) != (
                state.deck,
                state.stacks,
                state.left_out,
            )
        if not state.is_terminal():
            sample = determinize(view, np.random.default_rng(0))
            play_random(sample, np.random.default_rng(0))  # a determinized state plays on
    assert moved > 0


# ---------------------------------------------------------------------------------------------
# The engine stands alone
# ---------------------------------------------------------------------------------------------
BLOCKER = textwrap.dedent(
    """
    import importlib.abc
    import sys

    BLOCKED = ("gymnasium", "pettingzoo", "torch", "stable_baselines3", "sb3_contrib")

    class Blocker(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                raise ImportError(f"{name} is blocked for this test")
            return None

    sys.meta_path.insert(0, Blocker())
    """
)

PLAY = textwrap.dedent(
    """
    import sys
    try:
        import gymnasium  # noqa: F401
    except ImportError:
        pass
    else:
        raise SystemExit("the blocker does not work")
    import numpy as np
    import airships_env.engine as engine
    state = engine.new_game(4, seed=1)
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    view = engine.determinize(engine.public_view(state), rng)
    loaded = [m for m in ("gymnasium", "pettingzoo", "torch") if m in sys.modules]
    assert not loaded, loaded
    print("ok", state.final_scores)
    """
)


def test_engine_imports_and_plays_without_gymnasium_pettingzoo_torch(tmp_path: Path) -> None:
    (tmp_path / "sitecustomize.py").write_text(BLOCKER, encoding="utf-8")
    env = {"PYTHONPATH": f"{tmp_path}:{REPO}", "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", PLAY],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok (")
