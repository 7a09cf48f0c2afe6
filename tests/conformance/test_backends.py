"""The two backends of every game that has both play the same game, seen from everywhere a tool
looks: the same seed and the same actions give, in the generic environments, the same
observations, masks, rewards, records and final state at every table size and with the rules
options changed; the same refusals of illegal actions, word for word; copies and pickles that
continue the same game; the same bot decisions, pictures and logs. And ``make(name, backend=...)``
and the Gymnasium ids pick the engine, with a clear error for a backend that is not there.

The default run plays one seed per table size and one options set per game; the sweep over more
seeds and every table size with the options changed is marked ``slow``.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any

import gymnasium
import numpy as np
import pytest

import airships_env
from airships_env import gamekit, registry
from airships_env.game_aec import GameAEC
from airships_env.game_single_agent import GameSingleAgentEnv
from airships_env.policy import Decision
from airships_env.protocol import Game, IllegalActionError
from airships_env.registry import games, get_game, gym_id

#: Every registered game whose native core is built here.
BOTH = [get_game(name) for name in games() if "native" in get_game(name).backends]
#: Rules options other than the defaults, per game (every switch the core takes flipped).
CHANGED_OPTIONS: dict[str, dict[str, Any]] = {
    "clockwork": {
        "white_field_exact": True,
        "lucky_rolls": "from_scrapyard",
        "scrap_to": "discards",
        "discard_recall": "none",
        "first_player": "seat0",
        "max_turns": 30,
    },
    "australia": {"full_game": True, "stack_cards": 8, "recolour_anywhere": True},
    "nippon": {
        "captured_tile": "removed",
        "neutral_competes": False,
        "majority_ties": "lower",
        "marker_trigger": "space_empties",
    },
}
OPTIONED = [game for game in BOTH if game.name in CHANGED_OPTIONS]
TABLES = [(game, n) for game in BOTH for n in game.player_counts]


def table_id(table: tuple[Game, int]) -> str:
    """``clockwork-3p``."""
    return f"{table[0].name}-{table[1]}p"


def play_both(game: Game, num_players: int, seed: int, options: Any = None) -> int:
    """One game in GameAEC on each backend, the same random legal actions; everything an agent
    or a tool is given is compared at every step. Returns the actions played."""
    envs = {
        backend: GameAEC(game, num_players, backend=backend, options=options, render_mode="ansi")
        for backend in ("python", "native")
    }
    for env in envs.values():
        env.reset(seed=seed)
    python, native = envs["python"], envs["native"]
    assert type(python.state) is not type(native.state)
    chooser = np.random.default_rng(seed)
    played = 0
    while python.agents:
        assert native.agent_selection == python.agent_selection
        agent = python.agent_selection
        expected = python.last()
        found = native.last()
        assert found[0]["observation"].tobytes() == expected[0]["observation"].tobytes()
        assert np.array_equal(found[0]["action_mask"], expected[0]["action_mask"])
        assert found[1:4] == expected[1:4], f"reward or end differs at {played}"
        assert native.rewards == python.rewards
        if played % 25 == 0:
            for other in python.agents:
                assert (
                    native.observe(other)["observation"].tobytes()
                    == python.observe(other)["observation"].tobytes()
                )
            assert native.state.to_dict() == python.state.to_dict()
        if expected[2] or expected[3]:
            action = None
        else:
            legal = np.flatnonzero(expected[0]["action_mask"])
            action = int(legal[chooser.integers(len(legal))])
            played += 1
        python.step(action)
        native.step(action)
        assert native.last_record == python.last_record, f"records differ at {played}: {agent}"
    assert not native.agents
    assert native.state.to_dict() == python.state.to_dict()
    assert native.state.outcome() == python.state.outcome()
    assert native._cumulative_rewards == python._cumulative_rewards
    assert native.render() == python.render()
    return played


@pytest.mark.parametrize("table", TABLES, ids=[table_id(t) for t in TABLES])
def test_both_backends_give_the_same_game_in_the_environment(table: tuple[Game, int]) -> None:
    game, num_players = table
    assert play_both(game, num_players, seed=21) > 0


@pytest.mark.parametrize("game", OPTIONED, ids=[g.name for g in OPTIONED])
def test_both_backends_agree_with_the_rules_options_changed(game: Game) -> None:
    assert play_both(game, min(game.player_counts), 22, CHANGED_OPTIONS[game.name]) > 0


SWEEP = [
    (game, n, options)
    for game in OPTIONED
    for n in game.player_counts
    for options in (None, CHANGED_OPTIONS[game.name])
]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "num_players", "options"),
    SWEEP,
    ids=[f"{g.name}-{n}p-{'changed' if o else 'default'}" for g, n, o in SWEEP],
)
def test_both_backends_agree_over_many_games(
    game: Game, num_players: int, options: dict[str, Any] | None
) -> None:
    for seed in range(30, 36):
        play_both(game, num_players, seed, options)


def refusal(state: Any, action: object) -> tuple[type, str]:
    """The error ``state.apply_action(action)`` raises: its class and message."""
    with pytest.raises(IllegalActionError) as raised:
        state.apply_action(action)
    return type(raised.value), str(raised.value)


@pytest.mark.parametrize("game", BOTH, ids=[g.name for g in BOTH])
def test_illegal_actions_are_refused_in_the_same_words(game: Game) -> None:
    num_players = max(game.player_counts)
    python = game.new_state(num_players, seed=23)
    native = game.new_state(num_players, seed=23, backend="native")
    chooser = np.random.default_rng(23)
    step = 0
    while True:
        if step % 40 == 0 or python.is_terminal():
            legal = python.legal_actions()
            illegal = [a for a in range(game.num_actions) if a not in legal][:2]
            before = native.to_dict()
            for action in [*illegal, -1, game.num_actions, True, "0", 1.0, np.int64(-3)]:
                assert refusal(native, action) == refusal(python, action), (step, action)
            assert native.to_dict() == before == python.to_dict()
        if python.is_terminal():
            break
        legal = python.legal_actions()
        action = legal[int(chooser.integers(len(legal)))]
        assert native.apply_action(action) == python.apply_action(action)
        step += 1


@pytest.mark.parametrize("game", BOTH, ids=[g.name for g in BOTH])
def test_a_native_state_pickles_copies_and_clones_into_the_same_game(game: Game) -> None:
    num_players = min(game.player_counts)
    native = game.new_state(num_players, seed=24, backend="native")
    chooser = np.random.default_rng(24)
    for _ in range(30):
        legal = native.legal_actions()
        native.apply_action(legal[int(chooser.integers(len(legal)))])
    copies = [
        pickle.loads(pickle.dumps(native)),
        copy.deepcopy(native),
        native.clone(),
        game.state_from_dict(native.to_dict()),  # the engine's state, restored from the dict
    ]
    for twin in copies[:3]:
        assert type(twin) is type(native)
    while not native.is_terminal():
        legal = native.legal_actions()
        assert all(twin.legal_actions() == legal for twin in copies)
        action = legal[int(chooser.integers(len(legal)))]
        record = native.apply_action(action)
        assert all(twin.apply_action(action) == record for twin in copies)
    assert all(twin.to_dict() == native.to_dict() for twin in copies)
    # An environment holding a native game pickles too, and continues the same game.
    env = GameAEC(game, num_players, backend="native")
    env.reset(seed=5)
    env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    again = pickle.loads(pickle.dumps(env))
    assert again.state.to_dict() == env.state.to_dict()
    action = int(np.flatnonzero(env.last()[0]["action_mask"])[-1])
    env.step(action)
    again.step(action)
    assert again.last_record == env.last_record


@pytest.mark.parametrize("game", BOTH, ids=[g.name for g in BOTH])
def test_bots_and_opponents_decide_alike_on_either_backend(game: Game) -> None:
    """The single-agent env's opponents are handed a native game's decision (its view and its
    observation made from a copy, on first use): the same decisions, the same episode."""
    num_players = min(game.player_counts)
    bot = "heuristic" if "heuristic" in game.bots() else "random"
    from agents.registry import make_agent

    runs = []
    for backend in ("python", "native"):
        opponent = make_agent(bot, num_players=num_players, game=game)
        env = GameSingleAgentEnv(game, num_players, opponents=opponent, seat=0, backend=backend)
        chooser = np.random.default_rng(25)
        observation, _info = env.reset(seed=25)
        trace = [observation.tobytes()]
        for _ in range(40):
            legal = np.flatnonzero(env.action_masks())
            observation, reward, terminated, truncated, _info = env.step(
                int(legal[chooser.integers(len(legal))])
            )
            trace.append((observation.tobytes(), reward, terminated, truncated))
            if terminated or truncated:
                break
        trace.append(env.aec_env.state.to_dict())
        runs.append(trace)
    assert runs[0] == runs[1]
    # A decision on a native game: the same view and observation, and a copy of the position.
    python = game.new_state(num_players, seed=26)
    native = game.new_state(num_players, seed=26, backend="native")
    slow, fast = Decision.for_game(game, python), Decision.for_game(game, native)
    native.apply_action(native.legal_actions()[0])  # the decision keeps its own position
    assert fast.legal_actions == slow.legal_actions and fast.seat == slow.seat
    assert fast.observation.tobytes() == slow.observation.tobytes()
    assert fast.view.to_dict() == slow.view.to_dict()


@pytest.mark.parametrize("game", BOTH, ids=[g.name for g in BOTH])
def test_a_native_game_logs_replays_and_presents_as_the_engine(game: Game) -> None:
    num_players = min(game.player_counts)
    python = game.new_state(num_players, seed=27)
    native = game.new_state(num_players, seed=27, backend="native")
    start = python.to_dict()
    presenter = game.presenter()
    records = []
    for _ in range(25):
        action = python.legal_actions()[-1]
        record = native.apply_action(action)
        assert python.apply_action(action) == record
        assert presenter.record_text(record, native) == presenter.record_text(record, python)
        records.append(record)
    assert presenter.ansi(native, None, record) == presenter.ansi(python, None, record)
    assert presenter.svg(native, None, record) == presenter.svg(python, None, record)
    assert np.array_equal(presenter.rgb(native, None, record), presenter.rgb(python, None, record))
    # replay_action replays on a native state; a record that does not replay is the log's error
    again = game.new_state(num_players, seed=27, backend="native")
    assert again.to_dict() == start
    for logged in records:
        assert game.replay_action(again, game.record_from_dict(logged.to_dict())) == logged
    assert again.to_dict() == native.to_dict()
    if isinstance(game, gamekit.PythonGame):
        fresh = game.new_state(num_players, seed=27, backend="native")
        legal = fresh.legal_actions()
        refused = dataclasses.replace(records[0], action=min(set(range(99)) - set(legal)))
        with pytest.raises(game.log_error, match="does not replay"):
            game.replay_action(fresh, refused)
        assert fresh.to_dict() == start


@pytest.mark.parametrize("game", BOTH, ids=[g.name for g in BOTH])
def test_make_and_the_gymnasium_ids_pick_the_backend(game: Game) -> None:
    assert game.backends == ("native", "python")  # the core is the default where it is built
    for backend, expected in ((None, "native"), ("native", "native"), ("python", "python")):
        env = airships_env.make(game.name, num_players=min(game.player_counts), backend=backend)
        env.reset(seed=1)
        assert env.unwrapped.backend == expected
        held = env.unwrapped.engine if game.name == "airships" else env.unwrapped.state
        assert gamekit.is_native(held) == (expected == "native")
        single = gymnasium.make(gym_id(game.name, game.version), backend=backend)
        single.reset(seed=1)
        assert single.unwrapped.aec_env.backend == expected
    with pytest.raises(ValueError, match=r"backend must be one of \('native', 'python'\)"):
        airships_env.make(game.name, backend="gpu")
    with pytest.raises(ValueError, match="backend must be one of"):
        game.new_state(min(game.player_counts), seed=1, backend="cuda")


def test_without_the_core_the_python_engine_is_the_only_backend(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(registry, "native_built", lambda: False)
    for name in games():
        game = get_game(name)
        assert game.backends == ("python",)
        with pytest.raises(ValueError, match="native core is not built"):
            game.new_state(min(game.player_counts), seed=1, backend="native")
        if name != "airships":  # Airships' own env decides by the core's import itself
            env = airships_env.make(name, num_players=min(game.player_counts))
            assert env.unwrapped.backend == "python"
            with pytest.raises(ValueError, match="native core is not built"):
                airships_env.make(name, backend="native")
