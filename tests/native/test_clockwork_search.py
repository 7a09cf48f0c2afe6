"""The generic ISMCTS in C (gsearch.c) on Clockwork's core (clockwork_search.c) and the agent
that plays it (agents/bots/native_ismcts.py): the ported search hooks agree with the Python
game's at every step, a ``sims`` budget with a seed is reproducible, the search never reads what
the seat may not see, and bad options are clear errors."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from agents.bots.native_ismcts import NativeISMCTSAgent
from agents.registry import make_agent
from airships_env.chance import uniform_below
from airships_env.games.clockwork import GAME
from airships_env.games.clockwork.engine import RulesOptions, State, new_game
from airships_env.games.clockwork.evaluate import evaluate
from airships_env.games.clockwork.rollout import rollout_action
from airships_env.native.clockwork import NativeClockworkGame, SearchOptions
from airships_env.policy import Decision


def positions(players: int, games: int, every: int = 7) -> list[State]:
    """Decisions with a choice, taken from random games."""
    found = []
    chooser = np.random.default_rng(players)
    for seed in range(games):
        state = new_game(players, seed)
        step = 0
        while not state.is_terminal() and step < 300:
            legal = state.legal_actions()
            if len(legal) > 1 and step % every == 0:
                found.append(state.clone())
            state.apply_action(legal[uniform_below(chooser, len(legal))])
            step += 1
    return found


@pytest.mark.parametrize("players", [2, 3, 4])
def test_evaluate_and_rollout_ported_exactly(players: int) -> None:
    """The C evaluate and rollout policy give the Python hooks' values, actions and draws."""
    options = RulesOptions(discard_recall="none") if players == 3 else RulesOptions()
    for seed in range(3):
        state = new_game(players, seed, options=options)
        game = NativeClockworkGame.from_state(state)
        chooser = np.random.default_rng(seed)
        while not state.is_terminal():
            assert game.evaluate() == evaluate(state)
            python_rng, native_rng = (
                np.random.default_rng(state.step),
                np.random.default_rng(state.step),
            )
            assert game.rollout_action(native_rng) == rollout_action(state, python_rng)
            assert native_rng.bit_generator.state == python_rng.bit_generator.state
            legal = state.legal_actions()
            action = legal[uniform_below(chooser, len(legal))]
            state.apply_action(action)
            game.apply_action(action)


SETTINGS = [
    SearchOptions(sims=300),
    SearchOptions(sims=300, rollout=10, prior="heuristic", bias=5.0),
    SearchOptions(sims=100, rollout=0, playout="greedy"),
    SearchOptions(sims=100, playout="random", max_rollout=50, c=0.0),
]


@pytest.mark.parametrize("options", SETTINGS)
def test_a_seeded_sims_search_is_reproducible(options: SearchOptions) -> None:
    for state in positions(3, 2, every=23):
        seat = state.current_player
        game = NativeClockworkGame.from_view(state.view(seat))
        first = game.search(seat, options, np.random.default_rng(5))
        again = game.search(seat, options, np.random.default_rng(5))
        assert first == again
        action, simulations, root = first
        assert simulations == options.sims
        assert action in state.legal_actions()
        assert sum(visits for _, visits, _ in root) == options.sims
        assert {a for a, _, _ in root} <= set(state.legal_actions())


@pytest.mark.parametrize("players", [2, 4])
def test_the_search_never_reads_hidden_information(players: int) -> None:
    """Re-dealing what the seat cannot see (other hands, piles, others' knowledge, the
    generator) never changes the search's result for a fixed seed."""
    options = SearchOptions(sims=200, rollout=10, prior="heuristic", bias=5.0)
    redeal = np.random.default_rng(99)
    checked = 0
    for state in positions(players, 3, every=11):
        seat = state.current_player
        truth = NativeClockworkGame.from_state(state)
        expected = truth.search(seat, options, np.random.default_rng(7))
        assert (
            NativeClockworkGame.from_view(state.view(seat)).search(
                seat, options, np.random.default_rng(7)
            )
            == expected
        )
        for _ in range(2):
            other = state.view(seat).determinize(redeal)  # another truth with the same view
            assert other.view(seat).to_dict() == state.view(seat).to_dict()
            changed = NativeClockworkGame.from_state(other)
            assert changed.search(seat, options, np.random.default_rng(7)) == expected
            checked += other.hands != state.hands or other.piles != state.piles
    assert checked > 10  # the re-deals did change hidden cards


def test_the_gil_is_released_and_threads_agree() -> None:
    state = positions(2, 1, every=13)[2]
    seat = state.current_player
    game = NativeClockworkGame.from_view(state.view(seat))
    options = SearchOptions(sims=2000, rollout=10, prior="heuristic", bias=5.0)
    alone = game.search(seat, options, np.random.default_rng(3))
    results: list[object] = [None] * 4

    def run(k: int) -> None:
        results[k] = game.search(seat, options, np.random.default_rng(3))

    threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [alone] * 4


def decision(state: State) -> Decision:
    seat = state.current_player
    return Decision(state.view(seat), seat, tuple(state.legal_actions()), game=GAME)


def test_the_agent_is_native_and_reproducible() -> None:
    spec = "ismcts:sims=200,rollout=10,prior=heuristic,bias=5,seed=3"
    agent = make_agent(spec, game=GAME)
    assert isinstance(agent, NativeISMCTSAgent) and agent.native
    choices = []
    for state in positions(2, 2, every=17):
        choices.append(agent.act(decision(state)))
        assert agent.last_simulations == 200
    again = make_agent(spec, game=GAME)
    assert [again.act(decision(s)) for s in positions(2, 2, every=17)] == choices


def test_the_python_search_stays_reachable() -> None:
    agent = make_agent("ismcts:sims=30,rollout=10,native=false,seed=1", game=GAME)
    assert isinstance(agent, NativeISMCTSAgent) and not agent.native
    state = positions(2, 1, every=17)[1]
    assert agent.act(decision(state)) in state.legal_actions()
    assert agent.last_simulations == 30 and agent.last_root == ()


def test_the_agent_plays_whole_games() -> None:
    for players in (2, 3):
        state = new_game(players, 11)
        agents = [make_agent("ismcts:sims=40,rollout=10,prior=heuristic", game=GAME)] + [
            make_agent("heuristic", rng=np.random.default_rng(s), game=GAME)
            for s in range(players - 1)
        ]
        for seat, agent in enumerate(agents):
            agent.reset(seat, players, np.random.default_rng(seat))
        while not state.is_terminal():
            state.apply_action(agents[state.current_player].act(decision(state)))


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ismcts:sims=0", "sims must be a whole number >= 1"),
        ("ismcts:ms=-5", "ms must be a number > 0"),
        ("ismcts:ms=4000000", "ms must be at most 3600000"),
        ("ismcts:c=-1", "c must be a number >= 0"),
        ("ismcts:rollout=-2", "rollout must be a whole number >= 0"),
        ("ismcts:prior=ppo", "has no such bot"),
        ("ismcts:playout=ismcts", "has no such bot"),
        ("ismcts:bias=-1", "bias must be a number >= 0"),
        ("ismcts:native=3", "native=3: expected true or false"),
    ],
)
def test_bad_options_are_clear_errors(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent(spec, game=GAME)


def test_the_agent_checks_its_own_options() -> None:
    with pytest.raises(ValueError, match="native must be true or false"):
        NativeISMCTSAgent(native=3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="needs the game's evaluate hook"):
        NativeISMCTSAgent(rollout=5, game=_NoEvaluate())


class _NoEvaluate:
    """A game without an evaluate hook."""

    name = "no-evaluate"
    evaluate = None

    def bots(self) -> dict[str, str]:
        return {}


def test_the_core_refuses_bad_search_arguments() -> None:
    state = positions(2, 1)[1]
    seat = state.current_player
    game = NativeClockworkGame.from_view(state.view(seat))
    rng = np.random.default_rng(0)
    for options, message in [
        (SearchOptions(), "needs sims > 0 or seconds > 0"),
        (SearchOptions(sims=-1), "sims must be >= 0"),
        (SearchOptions(sims=5, seconds=float("nan")), "seconds must be in 0..3600"),
        (SearchOptions(sims=5, c=float("inf")), "c must be a finite number"),
        (SearchOptions(sims=5, bias=-1.0), "bias must be a finite number"),
        (SearchOptions(sims=5, rollout=-3), "rollout must be >= 0"),
        (SearchOptions(sims=5, max_rollout=-1), "max_rollout must be >= 0"),
        (SearchOptions(sims=5, prior="cheater"), "the core plays random, greedy, heuristic"),
    ]:
        with pytest.raises(ValueError, match=message):
            game.search(seat, options, rng)
    with pytest.raises(ValueError, match="not the seat to act"):
        game.search((seat + 1) % 2, SearchOptions(sims=5), rng)
    with pytest.raises(TypeError, match="PCG64"):
        game.search(seat, SearchOptions(sims=5), np.random.Generator(np.random.MT19937(0)))
    with pytest.raises(ValueError, match="seat"):
        game.search(7, SearchOptions(sims=5), rng)
