"""The batch's guards (issue 27): two threads on one batch, actions and queued opponents out of
range, the search's argument errors, and the documented limits."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from airships_env.engine import IllegalActionError
from airships_env.native import NativeGame, core_for, require
from airships_env.native.batch import NativeBatch

ROOT = Path(__file__).resolve().parents[2]

# Two threads on one batch: one steps (each game's lowest legal action), one resets at random
# moments, a third observes. Before the lock, a reset between the step's check of the actions and
# their application crashed the interpreter (bus error, SIGFPE; ASan: bots.c index -1).
RACE = """
import json, random, threading, time
import numpy as np
from airships_env.engine import IllegalActionError
from airships_env.native.batch import NativeBatch

batch = NativeBatch(1500, 3, seed=1, opponents="heuristic")
batch.reset()
stop = threading.Event()
counts = {"steps": 0, "refused": 0, "resets": 0, "observes": 0}

def resetter():
    chance = random.Random(2)
    while not stop.is_set():
        time.sleep(chance.random() * 0.004)
        batch.reset()
        counts["resets"] += 1

def observer():
    seats = np.zeros(batch.num_games, dtype=np.int8)
    while not stop.is_set():
        batch.observe(seats)
        counts["observes"] += 1

threads = [threading.Thread(target=resetter), threading.Thread(target=observer)]
for thread in threads:
    thread.start()
deadline = time.monotonic() + float(SECONDS)
try:
    while time.monotonic() < deadline:
        try:
            batch.step(batch.masks.argmax(axis=1).astype(np.int32))
            counts["steps"] += 1
        except IllegalActionError:  # a reset changed the games after the masks were read
            counts["refused"] += 1
finally:
    stop.set()
    for thread in threads:
        thread.join()
# every game is whole: its state reads back and its mask is its legal actions
for i in range(batch.num_games):
    state = batch.game_state(i)
    assert np.flatnonzero(batch.masks[i]).tolist() == list(state.legal_actions()), i
print("finished", json.dumps(counts))
"""


def test_reset_in_one_thread_while_another_steps_never_crashes() -> None:
    seconds = 6.0
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])}
    done = subprocess.run(
        [sys.executable, "-c", RACE.replace("SECONDS", str(seconds))],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        cwd=ROOT,
    )
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr[-3000:]}"
    assert "finished" in done.stdout
    counts = json.loads(done.stdout.split("finished", 1)[1])
    assert counts["steps"] + counts["refused"] > 10 and counts["resets"] > 10


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
@pytest.mark.parametrize("value", [-2, -7, -(2**31)])
def test_only_minus_one_leaves_a_game_alone(dtype: type, value: int) -> None:
    batch = NativeBatch(3, 2, seed=5, opponents="greedy")
    batch.reset()
    before = [batch.game_state(i).to_dict() for i in range(3)]
    actions = batch.masks.argmax(axis=1).astype(dtype)
    actions[2] = value
    with pytest.raises(
        IllegalActionError, match=rf"game 2 of the batch: no action has index {value}"
    ):
        batch.step(actions)
    assert [batch.game_state(i).to_dict() for i in range(3)] == before


def test_wide_actions_are_not_wrapped_into_int32() -> None:
    batch = NativeBatch(4, 2, seed=6, opponents="greedy")
    batch.reset()
    before = [batch.game_state(i).to_dict() for i in range(4)]
    wrapped = batch.masks.argmax(axis=1).astype(np.int64) + 2**32  # was played as the action 0..
    with pytest.raises(
        IllegalActionError, match=rf"game 0 of the batch: no action has index {2**32}"
    ):
        batch.step(wrapped)
    huge = np.full(4, 2**64 - 1, dtype=np.uint64)  # -1 as unsigned: not -1
    with pytest.raises(IllegalActionError, match=r"no action has index 18446744073709551615"):
        batch.step(huge)
    assert [batch.game_state(i).to_dict() for i in range(4)] == before
    batch.step(batch.masks.argmax(axis=1).astype(np.int64))  # in range: played


@pytest.mark.parametrize("code", [0, 4, 15, 127, -128, 16 + 100])
def test_a_bad_queued_opponent_is_refused_at_the_step(code: int) -> None:
    batch = NativeBatch(5, 3, seed=7, opponents="random", learner_seat=0)
    batch.reset()
    before = [batch.game_state(i).to_dict() for i in range(5)]
    batch.next_opponents[3, 1] = code  # written straight into the array, past the constructor
    message = rf"next_opponents\[3, 1\] \(game 3\) holds controller {code}, which is not"
    with pytest.raises(ValueError, match=message):
        for _ in range(2000):
            batch.step(batch.masks.argmax(axis=1).astype(np.int32))
    assert [batch.game_state(i).to_dict() for i in range(5)] == before
    with pytest.raises(ValueError, match=message):
        batch.reset()
    assert [batch.game_state(i).to_dict() for i in range(5)] == before
    batch.next_opponents[3, 1] = 16 + 99  # the last external policy is fine
    batch.step(batch.masks.argmax(axis=1).astype(np.int32))


def search_arguments() -> dict[str, object]:
    """Arguments the binding accepts (tests/native/test_search.py uses the same)."""
    from airships_env.bot_config import HeuristicConfig

    return dict(
        sims=10, seconds=0.0, rollout=3, candidates=4, c=0.7, margin_weight=0.2, widening=1.0,
        max_nodes=1000, seed=1, greedy=(6.0, 0.3, 1.0), heuristic=HeuristicConfig.load().native(),
    )  # fmt: skip


def test_the_search_names_a_bad_config_and_prints_its_budget() -> None:
    game = NativeGame.new(2, seed=0)
    arguments = search_arguments()
    with pytest.raises(TypeError, match=r"heuristic \(HeuristicConfig.native\(\)\) .* NoneType"):
        game.handle.search(**{**arguments, "heuristic": None})
    with pytest.raises(TypeError, match=r"greedy .* got 2"):
        game.handle.search(**{**arguments, "greedy": (1.0, 2.0)})
    with pytest.raises(ValueError, match=r"\(got sims=0, seconds=0\.0\)"):
        game.handle.search(**{**arguments, "sims": 0})
    with pytest.raises(ValueError, match=r"\(got sims=5, seconds=-1\.5\)"):
        game.handle.search(**{**arguments, "sims": 5, "seconds": -1.5})
    assert game.handle.search(**arguments)[1] == 10


def test_the_readme_states_the_batch_limits_of_the_code() -> None:
    module = require()
    limit = int(module.BATCH_MAX_GAMES)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"steps N games \(1 to ([\d,]+); (\d+) bytes of state per game", readme)
    assert found, "README.md no longer states the batch's size limits"
    assert int(found.group(1).replace(",", "")) == limit
    assert int(found.group(2)) == NativeBatch(1, 2).bytes_per_game
    import airships_env.native.batch as batch_module

    assert f"1 to {limit:,} games" in (batch_module.__doc__ or "")
    with pytest.raises(ValueError, match=rf"num_games must be 1 to {limit:,}, got {limit + 1}"):
        NativeBatch(limit + 1, 2)
    small = NativeBatch(1, 2)
    with pytest.raises(ValueError, match=rf"num_games must be 1\.\.{limit}, got {limit + 1}"):
        module.Batch(
            core_for(small.cards, small.options),
            limit + 1,
            2,
            [0],
            (),
            (0, 0, 1, -1, 100),
            small.greedy.native(),
            small.heuristic.native(),
        )
