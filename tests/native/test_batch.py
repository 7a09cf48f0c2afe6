"""The batch API: auto-reset, the seat to act, rewards reaching the seat that earned them, games
independent of each other and of N, errors that change nothing, bad arguments refused."""

from __future__ import annotations

from array import array

import numpy as np
import pytest

from agents.bots import GreedyAgent, HeuristicAgent
from airships_env.engine import IllegalActionError, new_game
from airships_env.engine.dice import uniform_below
from airships_env.native import core_for, require
from airships_env.native.batch import (
    EXTERNAL,
    NativeBatch,
    controller_code,
    play_bot_games,
    slot_generator,
)
from airships_env.observation import encode_observation
from airships_env.policy import Decision, RandomPolicy


def first_legal(batch: NativeBatch) -> np.ndarray:
    """Each game's lowest legal action (a deterministic learner)."""
    return batch.masks.argmax(axis=1).astype(np.int32)


class Mirror:
    """Slot ``i``'s episode ``e`` replayed by the Python engine and the Python bots."""

    def __init__(self, seed: int, slot: int, episode: int, players: int, opponents: list[str]):
        self.state = new_game(players, rng=slot_generator(seed, slot, episode, 0))
        self.learner = uniform_below(slot_generator(seed, slot, episode, 7), players)
        self.episode = episode
        self.bots = {}
        makers = {"heuristic": HeuristicAgent, "greedy": GreedyAgent, "random": RandomPolicy}
        for k, name in enumerate(opponents):
            seat = (self.learner + 1 + k) % players
            bot = makers[name]()
            bot.reset(seat, players, slot_generator(seed, slot, episode, 1 + seat))
            self.bots[seat] = bot

    def play_bots(self) -> None:
        state = self.state
        while not state.is_terminal() and state.current_player != self.learner:
            state.apply_action(self.bots[state.current_player].act(Decision.from_state(state)))


@pytest.mark.parametrize(
    ("players", "opponents"),
    [(2, ["heuristic"]), (3, ["greedy", "random"]), (4, ["random", "heuristic", "greedy"])],
)
def test_every_slot_plays_the_documented_games_with_auto_reset(
    players: int, opponents: list[str]
) -> None:
    seed, games = 11, 5
    batch = NativeBatch(games, players, seed=seed, opponents=opponents, reward="score")
    batch.reset()
    mirrors = [Mirror(seed, i, 0, players, opponents) for i in range(games)]
    for mirror in mirrors:
        mirror.play_bots()
    rng = np.random.default_rng(0)
    ended = 0
    for _step in range(250):
        for i, mirror in enumerate(mirrors):
            assert batch.learner[i] == mirror.learner
            assert batch.acting[i] == mirror.learner == mirror.state.current_player
            assert batch.controller[i] == 0  # the learner waits
            assert batch.game_state(i).to_dict() == mirror.state.to_dict()
            assert np.flatnonzero(batch.masks[i]).tolist() == mirror.state.legal_actions()
            np.testing.assert_array_equal(
                batch.obs[i], encode_observation(mirror.state, mirror.learner)
            )
        actions = np.array(
            [rng.choice(np.flatnonzero(batch.masks[i])) for i in range(games)], dtype=np.int32
        )
        batch.step(actions)
        for i, mirror in enumerate(mirrors):
            mirror.state.apply_action(int(actions[i]))
            mirror.play_bots()
            if mirror.state.is_terminal():
                ended += 1
                assert batch.terminated[i] and not batch.truncated[i]
                final = mirror.state.final_scores
                assert batch.scores[i].tolist() == list(final)
                assert [s for s in range(players) if batch.winners[i] >> s & 1] == list(
                    mirror.state.winners
                )
                for seat in range(players):  # every seat's reward: its own margin (score mode)
                    best_other = max(final[q] for q in range(players) if q != seat)
                    assert batch.rewards[i, seat] == np.float32((final[seat] - best_other) / 20)
                np.testing.assert_array_equal(
                    batch.final_obs[i], encode_observation(mirror.state, mirror.learner)
                )
                mirrors[i] = Mirror(seed, i, mirror.episode + 1, players, opponents)
                mirrors[i].play_bots()
            else:
                assert not batch.terminated[i] and not batch.rewards[i].any()
    assert ended >= games


def test_a_slots_games_do_not_depend_on_the_number_of_slots() -> None:
    def episodes(num_games: int, slot: int, steps: int) -> list[tuple[int, ...]]:
        batch = NativeBatch(num_games, 3, seed=4, opponents="heuristic")
        batch.reset()
        found = []
        for _ in range(steps):
            batch.step(first_legal(batch))
            if batch.terminated[slot]:
                found.append(tuple(batch.scores[slot].tolist()))
        return found

    assert episodes(2, 1, 300) == episodes(9, 1, 300) != []


def test_win_rewards_and_truncation() -> None:
    batch = NativeBatch(4, 2, seed=1, opponents="random", max_turns=5)
    batch.reset()
    truncated = 0
    for _ in range(40):
        batch.step(first_legal(batch))
        truncated += int(batch.truncated.sum())
        assert not batch.terminated.any()  # 5 turns never finish a game
        assert not batch.rewards.any()  # a truncated game gives no reward
    assert truncated > 0
    batch = NativeBatch(4, 3, seed=2, opponents="heuristic")
    batch.reset()
    for _ in range(400):
        batch.step(first_legal(batch))
        for i in np.flatnonzero(batch.terminated):
            winners = [s for s in range(3) if batch.winners[i] >> s & 1]
            for seat in range(3):
                expected = 1 / len(winners) if seat in winners else -1.0
                assert batch.rewards[i, seat] == np.float32(expected)


def test_a_truncated_game_without_auto_reset_waits_for_reset() -> None:
    """Past max_turns without auto-reset no seat acts until reset (the batch used to offer the
    seat to act's actions, a bot's seat among them, and then refuse them)."""
    batch = NativeBatch(3, 2, seed=4, opponents="random", max_turns=3, autoreset=False)
    batch.reset()
    before = None
    for _ in range(40):
        waiting = batch.masks.any(axis=1)
        actions = np.where(waiting, batch.masks.argmax(axis=1), -1).astype(np.int32)
        batch.step(actions)
        if batch.truncated.any():
            before = [batch.game_state(i).to_dict() for i in range(3)]
            break
    assert before is not None
    done = np.flatnonzero(batch.truncated)
    assert (batch.acting[done] == -1).all() and not batch.masks[done].any()
    batch.step(np.full(3, -1, dtype=np.int32))
    assert [batch.game_state(i).to_dict() for i in done] == [before[i] for i in done]
    with pytest.raises(IllegalActionError, match="not waiting for a Python seat"):
        batch.step(np.where(np.arange(3) == done[0], 0, -1).astype(np.int32))
    batch.reset()
    assert (batch.acting >= 0).all() and batch.masks.any(axis=1).all()


def test_external_seats_are_returned_to_python() -> None:
    batch = NativeBatch(6, 4, seed=3, opponents=["heuristic", 0, 1])
    batch.reset()
    seen = set()
    for _ in range(300):
        waiting = batch.controller.tolist()
        seen.update(waiting)
        for i, code in enumerate(waiting):
            controllers = batch.seat_controllers(i)
            assert controllers[batch.acting[i]] == code
            assert controllers[batch.learner[i]] == 0
        batch.step(first_legal(batch))
    assert {0, EXTERNAL, EXTERNAL + 1} <= seen


def test_an_illegal_action_names_the_game_and_changes_nothing() -> None:
    batch = NativeBatch(3, 2, seed=5, opponents="greedy")
    batch.reset()
    before = [batch.game_state(i).to_dict() for i in range(3)]
    obs = batch.obs.copy()
    actions = first_legal(batch)
    illegal = int(np.flatnonzero(~batch.masks[1])[0])
    actions[1] = illegal
    with pytest.raises(IllegalActionError, match=r"game 1 of the batch") as caught:
        batch.step(actions)
    assert caught.value.legal == np.flatnonzero(batch.masks[1]).tolist()
    assert [batch.game_state(i).to_dict() for i in range(3)] == before
    np.testing.assert_array_equal(batch.obs, obs)
    with pytest.raises(IllegalActionError, match="no action has index"):
        batch.step(np.array([0, 500, 0], dtype=np.int32))


def test_bad_arguments_are_python_errors() -> None:
    with pytest.raises(ValueError, match="num_games"):
        NativeBatch(0, 2)
    with pytest.raises(ValueError, match="num_players"):
        NativeBatch(2, 5)
    with pytest.raises(ValueError, match="unknown native bot"):
        NativeBatch(2, 2, opponents="mcts")
    with pytest.raises(ValueError, match="seed"):
        NativeBatch(2, 2, seed=-1)
    with pytest.raises(ValueError, match="external policy index"):
        controller_code(1000)
    batch = NativeBatch(2, 2)
    batch.reset()
    with pytest.raises(ValueError, match="shape"):
        batch.step(np.zeros(3, dtype=np.int32))
    with pytest.raises(TypeError, match="integers"):
        batch.step(np.zeros(2, dtype=np.float32))
    with pytest.raises(ValueError, match="int32"):
        batch._batch.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError):
        batch.observe(np.array([0, 7]))
    core = core_for(new_game(2).cards, new_game(2).options)
    module = require()
    good = [np.zeros(1, np.float32)] * 13
    with pytest.raises(TypeError, match="buffers"):
        module.Batch(
            core,
            2,
            2,
            [0],
            tuple(good[:3]),
            (0, 0, 1, -1, 100),
            batch.greedy.native(),
            batch.heuristic.native(),
        )
    with pytest.raises((TypeError, ValueError), match="buffer 'obs'"):
        module.Batch(
            core,
            2,
            2,
            [0],
            tuple(good),
            (0, 0, 1, -1, 100),
            batch.greedy.native(),
            batch.heuristic.native(),
        )
    with pytest.raises(ValueError, match="card table"):
        module.Core(array("i", [0] * 10), (True,) * 5)
    words = array("i", [0] * module.CARD_TABLE_WORDS)
    with pytest.raises(ValueError, match="out of range"):
        module.Core(words, (True,) * 5)
    with pytest.raises(ValueError, match="state words"):
        module.import_state(core, [0] * 10, None)
    with pytest.raises(ValueError, match="invariant"):
        module.import_state(core, [9] * module.EXPORT_WORDS, None)
    with pytest.raises(TypeError):
        module.new_game(object(), 2, (1, 1, 0, 0))


def test_bytes_per_game() -> None:
    batch = NativeBatch(8, 4)
    assert 0 < batch.bytes_per_game < 2048
    assert batch.buffer_bytes_per_game > batch.obs_size * 4


def test_whole_bot_games_match_the_python_bots() -> None:
    names = ["heuristic", "greedy", "random"]
    games = []
    for g in range(6):
        seat_rngs = [np.random.default_rng([g, s]) for s in range(3)]
        games.append((np.random.default_rng(g), seat_rngs, names))
    results = play_bot_games(3, games)
    for g, result in enumerate(results):
        state = new_game(3, rng=np.random.default_rng(g))
        bots = [HeuristicAgent(), GreedyAgent(), RandomPolicy()]
        for seat, bot in enumerate(bots):
            bot.reset(seat, 3, np.random.default_rng([g, seat]))
        while not state.is_terminal():
            state.apply_action(bots[state.current_player].act(Decision.from_state(state)))
        assert result["over"] and result["scores"] == list(state.final_scores)
        assert result["winners"] == list(state.winners) and result["steps"] == state.step
        assert sum(result["decisions"]) == state.step
