"""Nippon's batch and native VecEnv (issue 25) against the Python single-agent environment, the
reference: slot by slot, the VecEnv's episodes are GameSingleAgentEnv's against the same Python
bots dealt and seeded from the batch's documented seed stream (observations, masks, rewards,
dones, terminal observations, truncation, scores and winners), with auto-reset; and bad input is
refused with errors naming the game, the action and the legal ones."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from agents.bots.nippon import GreedyBot, HeuristicBot
from airships_env.chance import uniform_below
from airships_env.game_single_agent import GameSingleAgentEnv
from airships_env.games.nippon import NipponGame
from airships_env.games.nippon.engine import (
    NUM_ACTIONS,
    IllegalActionError,
    NipponData,
    RulesOptions,
)
from airships_env.games.nippon.engine.data import default_data
from airships_env.games.nippon.vector import NipponVecEnv
from airships_env.native import require
from airships_env.native.nippon import BOTS, NipponBatch, pack_options, slot_generator, tables
from airships_env.policy import Decision, RandomPolicy
from airships_env.protocol import ActionSpaceError
from tests.native.test_nippon_native import edited_text
from tests.native.test_nippon_observation import fewer_rows_text

WEIGHTS = (BOTS["greedy"][1], BOTS["heuristic"][1])
ROOT = Path(__file__).resolve().parents[2]


class Episode:
    """Which slot and episode the Python environment of a slot plays now."""

    def __init__(self, seed: int, slot: int) -> None:
        self.seed, self.slot, self.number = seed, slot, 0

    def generator(self, stream: int) -> np.random.Generator:
        """The batch's generator for this episode's ``stream``."""
        return slot_generator(self.seed, self.slot, self.number, stream)


class SlotDeals(NipponGame):
    """The game, dealing each new game from the batch's stream (0) of the slot's episode."""

    def __init__(self, episode: Episode) -> None:
        self.episode = episode

    def new_state(self, num_players: int, seed: int | None = None, **kwargs: Any) -> Any:
        """Deal from the episode's generator, whatever the environment's own seed."""
        kwargs["rng"] = self.episode.generator(0)
        return super().new_state(num_players, **kwargs)


class SlotSeeded:
    """A Python bot seated with the batch's generator (1 + seat) of the slot's episode."""

    def __init__(self, bot: Any, episode: Episode) -> None:
        self.bot, self.episode, self.name = bot, episode, bot.name

    def reset(self, seat: int, num_players: int, rng: np.random.Generator) -> None:
        """Take the batch's generator of this seat, not the environment's."""
        self.bot.reset(seat, num_players, self.episode.generator(1 + seat))

    def act(self, decision: Decision) -> int:
        """The bot's choice."""
        return int(self.bot.act(decision))


class FirstLegal:
    """A stateless external policy: the lowest legal action (batched or one by one)."""

    name = "first-legal"

    def __init__(self, batched: bool) -> None:
        if batched:
            self.act_batch = self._act_batch

    def reset(self, seat: int, num_players: int, rng: np.random.Generator) -> None:
        """Nothing to keep."""

    def act(self, decision: Decision) -> int:
        """The lowest legal action."""
        return min(decision.legal_actions)

    def _act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return masks.argmax(axis=1)


def python_bot(spec: Any) -> Any:
    """The Python twin of a native bot spec (a Policy object is itself)."""
    if not isinstance(spec, str):
        return spec
    return {"greedy": GreedyBot, "heuristic": HeuristicBot, "random": RandomPolicy}[spec]()


def compare(
    players: int,
    opponents: list[Any],
    *,
    seed: int,
    steps: int,
    num_envs: int = 2,
    max_turns: int | None = None,
    reward: str = "win",
    options: RulesOptions | None = None,
    data: NipponData | None = None,
) -> tuple[int, int]:
    """Step the VecEnv and one Python environment per slot with the same learner actions;
    returns the episodes that ended by the rules and by truncation."""
    venv = NipponVecEnv(
        num_envs,
        players,
        opponents,
        seed=seed,
        max_turns=max_turns,
        reward=reward,
        options=options,
        data=data,
    )
    episodes = [Episode(seed, slot) for slot in range(num_envs)]
    envs = []
    for episode in episodes:
        env = GameSingleAgentEnv(
            SlotDeals(episode),
            players,
            [SlotSeeded(python_bot(o), episode) if isinstance(o, str) else o for o in opponents],
            max_turns=max_turns,
            reward=reward,
            options=options,
            data=data,
            illegal_action="raise",
            backend="python",  # the reference: the Python engine
        )
        envs.append(env)

    def start(slot: int) -> np.ndarray:
        env, episode = envs[slot], episodes[slot]
        # the learner's seat of the batch's stream (7), fixed for this episode
        env.seat_choice = env.seat = uniform_below(episode.generator(7), players)
        observation, info = env.reset()
        assert info["seat"] == env.seat_choice
        return observation

    observations = venv.reset()
    assert observations.shape == (num_envs, venv.observation_space.shape[0])
    for slot in range(num_envs):
        assert observations[slot].tobytes() == start(slot).tobytes()
    assert venv.observation_space == envs[0].observation_space
    # mostly the lowest legal action (it ends turns soon: games finish), now and then any
    chooser = np.random.default_rng([seed, 5])
    terminated_count = truncated_count = 0
    for _step in range(steps):
        masks = venv.action_masks()
        for slot, env in enumerate(envs):
            assert masks[slot].tolist() == env.action_masks().tolist(), (slot, _step)
        actions = np.array(
            [
                int(np.flatnonzero(mask)[0])
                if chooser.random() < 0.7
                else int(chooser.choice(np.flatnonzero(mask)))
                for mask in masks
            ]
        )
        observations, rewards, dones, infos = venv.step(actions)
        for slot, env in enumerate(envs):
            observation, reward, terminated, truncated, _ = env.step(int(actions[slot]))
            assert rewards[slot] == np.float32(reward), (slot, _step)
            assert dones[slot] == (terminated or truncated)
            if not dones[slot]:
                assert observations[slot].tobytes() == observation.tobytes(), (slot, _step)
                continue
            info = infos[slot]
            assert info["terminal_observation"].tobytes() == observation.tobytes()
            assert info["TimeLimit.truncated"] == truncated
            assert info["seat"] == env.seat
            state = env.aec_env.state
            assert venv.batch.scores[slot].tolist() == list(state.vp)
            if terminated:
                outcome = state.outcome()
                assert info["winners"] == list(outcome.winners)
                assert info["scores"] == [int(score) for score in outcome.scores]
                terminated_count += 1
            else:
                truncated_count += 1
            episodes[slot].number += 1
            assert observations[slot].tobytes() == start(slot).tobytes()
    return terminated_count, truncated_count


@pytest.mark.parametrize(
    ("players", "opponents"),
    [
        (2, ["heuristic"]),
        (3, ["greedy", "random"]),
        (4, ["heuristic", "random", "greedy"]),
    ],
    ids=["2p", "3p", "4p"],
)
def test_whole_games_are_the_python_single_agent_envs(players: int, opponents: list[str]) -> None:
    terminated, _ = compare(players, opponents, seed=11, steps=STEPS[players])
    assert terminated >= 1


#: learner steps that see every slot's first game end (the learner plays 1 / players of them)
STEPS = {2: 140, 3: 110, 4: 90}


def test_the_score_reward_truncation_options_and_an_edited_data_file() -> None:
    from airships_env.games.nippon.engine.data import parse_data

    data = parse_data(fewer_rows_text().encode("utf-8"), "fewer-nippon.toml")
    _, truncated = compare(3, ["greedy", "heuristic"], seed=4, steps=40, max_turns=25)
    assert truncated >= 2
    terminated, _ = compare(2, ["greedy"], seed=5, steps=STEPS[2], reward="score")
    assert terminated >= 1
    options = RulesOptions(
        captured_tile="removed", neutral_competes=True, majority_ties="lower",
        marker_trigger="space_empties",
    )  # fmt: skip
    compare(2, ["heuristic"], seed=6, steps=60, options=options, data=data, max_turns=50)


def test_external_policies_batched_and_one_by_one() -> None:
    opponents = ["heuristic", FirstLegal(batched=True), FirstLegal(batched=False)]
    compare(4, opponents, seed=6, steps=40, max_turns=60)


def test_an_illegal_action_names_the_game_the_action_and_the_legal_ones() -> None:
    batch = NipponBatch(3, 2, seed=2, opponents="greedy")
    batch.reset()
    before = [batch.game_state(i).to_dict() for i in range(3)]
    actions = batch.masks.argmax(axis=1)
    illegal = int(np.flatnonzero(~batch.masks[1])[0])
    actions[1] = illegal
    legal = np.flatnonzero(batch.masks[1]).tolist()
    with pytest.raises(IllegalActionError) as caught:
        batch.step(actions)
    error = caught.value
    assert "game 1" in str(error) and error.legal == legal and error.action == illegal
    for value in (NUM_ACTIONS, -2, 2**32):
        actions[1] = value
        with pytest.raises(ActionSpaceError, match="game 1"):
            batch.step(actions)
    assert [batch.game_state(i).to_dict() for i in range(3)] == before
    with pytest.raises(TypeError, match="integers"):
        batch.step(actions.astype(np.float64))
    with pytest.raises(ValueError, match="shape"):
        batch.step(actions[:2])
    venv = NipponVecEnv(2, 2, "random", seed=3)
    venv.reset()
    with pytest.raises(ActionSpaceError, match="game 0"):
        venv.step(np.array([0.5, 1.0]))


def test_a_bad_queued_opponent_changes_nothing() -> None:
    batch = NipponBatch(2, 3, seed=2, opponents="random")
    batch.reset()
    before = batch.game_state(0).to_dict()
    batch.next_opponents[1, 1] = 5
    with pytest.raises(ValueError, match=r"next_opponents\[1, 1\]"):
        batch.step(batch.masks.argmax(axis=1))
    assert batch.game_state(0).to_dict() == before


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"num_games": 0}, ValueError, "num_games"),
        ({"num_games": 10**6}, ValueError, "num_games"),
        ({"num_games": 2.0}, TypeError, "num_games"),
        ({"num_players": 5}, ValueError, "2, 3 or 4"),
        ({"num_players": True}, ValueError, "2, 3 or 4"),
        ({"opponents": "ismcts"}, ValueError, "unknown native bot"),
        ({"opponents": ["random"] * 3}, ValueError, "one per other seat"),
        ({"opponents": 100}, ValueError, "external"),
        ({"learner_seat": 2}, ValueError, "learner_seat"),
        ({"reward": "margin"}, ValueError, "reward"),
        ({"max_turns": 0}, ValueError, "max_turns"),
        ({"seed": -1}, ValueError, "seed"),
    ],
    ids=repr,
)
def test_bad_arguments_to_the_batch(kwargs: dict[str, Any], error: type, match: str) -> None:
    arguments: dict[str, Any] = {"num_games": 2, "num_players": 2, **kwargs}
    with pytest.raises(error, match=match):
        NipponBatch(**arguments)


def test_bad_arguments_to_the_core_batch_and_the_vecenv() -> None:
    core = require()
    packed = tables(default_data())
    options = pack_options(RulesOptions())
    with pytest.raises(TypeError, match="buffers"):
        core.NipponBatch(2, 2, [0], options, packed, WEIGHTS, (), (0, 1, -1, 0, 0))
    with pytest.raises(ValueError, match="settings"):  # learner seat 5 at a 2-player table
        core.NipponBatch(2, 2, [0], options, packed, WEIGHTS, (), (0, 1, 5, 0, 0))
    with pytest.raises(ValueError, match="settings"):  # reward 2
        core.NipponBatch(2, 2, [0], options, packed, WEIGHTS, (), (0, 1, -1, 0, 2))
    with pytest.raises(TypeError):
        core.NipponBatch(2, 2, [0], options, packed, WEIGHTS, (), (0,))
    with pytest.raises(ValueError, match="num_players must be 2 to 4"):
        core.NipponBatch(2, 5, [0], options, packed, WEIGHTS, (), (0,) * 5)
    with pytest.raises(TypeError, match="greedy, heuristic"):
        core.NipponBatch(2, 2, [0], options, packed, WEIGHTS[0], (), (0,) * 5)
    bad = (WEIGHTS[0], (*WEIGHTS[1][:-1], float("nan")))
    with pytest.raises(ValueError, match="finite"):
        core.NipponBatch(2, 2, [0], options, packed, bad, (), (0,) * 5)
    with pytest.raises(TypeError, match="tables"):
        core.NipponBatch(2, 2, [0], options, packed[:-1], WEIGHTS, (), (0,) * 5)
    with pytest.raises(ValueError, match="seed_words"):
        core.NipponBatch(2, 2, [], options, packed, WEIGHTS, (), (0,) * 5)
    with pytest.raises(RuntimeError, match="initialised once"):
        NipponBatch(2, 2)._batch.__init__(2, 2, [0], options, packed, WEIGHTS, (), (0,))
    with pytest.raises(RuntimeError, match="NipponBatch was not initialised"):
        core.NipponBatch.__new__(core.NipponBatch).reset()
    with pytest.raises(ValueError, match="bot kind"):
        core.ni_bot_decisions(4, 2, 1, 0, options, packed, WEIGHTS[0])
    batch = NipponBatch(2, 2)
    with pytest.raises(IndexError, match="game 2"):
        batch.game_state(2)
    with pytest.raises(ValueError, match="takes no options"):
        NipponVecEnv(2, 2, "heuristic:depth=2")
    with pytest.raises(ValueError, match="the core plays"):
        NipponVecEnv(2, 2, "mcts")


def test_a_data_file_whose_layout_differs_is_refused() -> None:
    """The edited file's 6 action spaces do not fit the layout's 5 at any table (the Python
    encoder refuses it too, with the same message); fewer rows fit, padded."""
    from airships_env.games.nippon.engine.data import parse_data

    data = parse_data(edited_text().encode("utf-8"), "edited-nippon.toml")
    for players in (2, 3, 4):
        with pytest.raises(ValueError, match=r"edited-nippon\.toml: 6 action spaces do not fit"):
            NipponBatch(2, players, data=data)
    fewer = parse_data(fewer_rows_text().encode("utf-8"), "fewer-nippon.toml")
    assert NipponBatch(2, 3, data=fewer).obs.shape == (2, 879)


def test_seeding_restarts_the_documented_stream() -> None:
    venv = NipponVecEnv(2, 3, ["greedy", "random"], seed=8)
    first = venv.reset()
    for _ in range(20):
        venv.step(venv.action_masks().argmax(axis=1))
    venv.seed(8)
    assert venv.reset().tobytes() == first.tobytes()


def test_without_auto_reset_an_ended_game_waits_for_reset() -> None:
    batch = NipponBatch(2, 2, seed=3, opponents="heuristic", autoreset=False, max_turns=30)
    batch.reset()
    ended = np.zeros(2, dtype=bool)
    for _ in range(40):
        actions = np.where(ended, -1, batch.masks.argmax(axis=1)).astype(np.int32)
        batch.step(actions)
        ended |= batch.terminated | batch.truncated
        if ended.all():
            break
    assert ended.all() and (batch.acting == -1).all() and not batch.masks.any()
    with pytest.raises(IllegalActionError, match="not waiting"):
        batch.step(np.array([0, -1], dtype=np.int32))
    batch.step(np.array([-1, -1], dtype=np.int32))  # leaves them alone
    assert not (batch.terminated | batch.truncated).any()
    batch.reset()  # each slot's next episode
    assert (batch.acting >= 0).all() and batch.masks.any(axis=1).all()
    assert (batch.episode_steps < 30).all()  # the new episodes' first actions only


def test_maskable_ppo_trains_on_it() -> None:
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import is_masking_supported

    env = NipponVecEnv(8, 2, "heuristic", seed=1)
    assert is_masking_supported(env)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=64, n_epochs=1, seed=0)
    model.learn(512)
    assert model.num_timesteps >= 512


# The shared batch's lock (gbatch.c), with a game whose bots keep memory: one thread steps, one
# resets at random moments, one reads games back; nothing crashes and every game stays whole.
RACE = """
import json, random, threading, time
import numpy as np
from airships_env.games.nippon.engine import IllegalActionError
from airships_env.native.nippon import NipponBatch

batch = NipponBatch(300, 3, seed=1, opponents=["heuristic", "greedy"])
batch.reset()
stop = threading.Event()
counts = {"steps": 0, "refused": 0, "resets": 0, "reads": 0}

def resetter():
    chance = random.Random(2)
    while not stop.is_set():
        time.sleep(chance.random() * 0.004)
        batch.reset()
        counts["resets"] += 1

def reader():
    chance = random.Random(3)
    while not stop.is_set():
        game = chance.randrange(batch.num_games)
        batch.game_state(game)
        batch.seat_controllers(game)
        counts["reads"] += 1

threads = [threading.Thread(target=resetter), threading.Thread(target=reader)]
for thread in threads:
    thread.start()
deadline = time.monotonic() + 3.0
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
for i in range(batch.num_games):
    state = batch.game_state(i)
    assert np.flatnonzero(batch.masks[i]).tolist() == list(state.legal_actions()), i
print("finished", json.dumps(counts))
"""


def test_reset_in_one_thread_while_another_steps_never_crashes() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])}
    done = subprocess.run(
        [sys.executable, "-c", RACE], env=env, capture_output=True, text=True, timeout=180,
        cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr[-3000:]}"
    counts = json.loads(done.stdout.split("finished", 1)[1])
    assert counts["steps"] + counts["refused"] > 10 and counts["resets"] > 10
    assert counts["reads"] > 10
