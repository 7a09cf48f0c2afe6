"""The generic ISMCTS in C (gsearch.c) on Australia's core (australia_search.c) and the agent that
plays it (agents/bots/native_ismcts.py), issue 25: the ported search hooks (``evaluate``,
``rollout_action``) agree with the Python game's at every step, a ``sims`` budget with a seed is
reproducible, the search never reads what the seat may not see, the GIL is released, and bad
options and arguments are clear errors."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from agents.bots.native_ismcts import NativeISMCTSAgent
from agents.registry import make_agent
from airships_env.games.australia import GAME
from airships_env.games.australia.engine import RulesOptions, State, new_game
from airships_env.games.australia.engine.actions import kind_uniform_choice
from airships_env.games.australia.engine.chance import uniform_below
from airships_env.native.australia import NativeAustraliaGame, SearchOptions
from airships_env.policy import Decision


def random_action(state: State, chooser: np.random.Generator) -> int:
    """Kind-uniform random play: cards are played and games end."""
    return kind_uniform_choice(state.legal_actions(), lambda k: uniform_below(chooser, k))


def positions(players: int, games: int, every: int = 7, full: bool = False) -> list[State]:
    """Decisions with a choice, taken from random games."""
    found = []
    chooser = np.random.default_rng(players)
    for seed in range(games):
        state = new_game(players, seed, options=RulesOptions(full_game=full))
        while not state.is_terminal():
            if len(state.legal_actions()) > 1 and state.step % every == 0:
                found.append(state.clone())
            state.apply_action(random_action(state, chooser))
    return found


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("full", [False, True])
def test_evaluate_and_rollout_ported_exactly(players: int, full: bool) -> None:
    """The C evaluate and rollout policy give the Python hooks' values, actions and draws."""
    for seed in range(2):
        state = new_game(players, seed, options=RulesOptions(full_game=full))
        game = NativeAustraliaGame.from_state(state)
        chooser = np.random.default_rng(seed)
        kinds = set()
        while not state.is_terminal():
            assert game.evaluate() == GAME.evaluate(state)
            python_rng = np.random.default_rng([state.step, seed])
            native_rng = np.random.default_rng([state.step, seed])
            expected = GAME.rollout_action(state, python_rng)
            assert game.rollout_action(native_rng) == expected
            assert native_rng.bit_generator.state == python_rng.bit_generator.state
            kinds.add(GAME.action_names[expected].split()[0])
            action = random_action(state, chooser)
            state.apply_action(action)
            game.apply_action(action)
        assert game.evaluate() == GAME.evaluate(state)  # a finished game's too
        assert {"fly", "play", "place", "draw", "end"} <= kinds


SETTINGS = [
    SearchOptions(sims=200),
    SearchOptions(sims=300, rollout=10, prior="heuristic", bias=50.0, c=0.3),
    SearchOptions(sims=60, rollout=0, playout="greedy"),
    SearchOptions(sims=100, playout="random", max_rollout=50, c=0.0),
]


@pytest.mark.parametrize("options", SETTINGS)
def test_a_seeded_sims_search_is_reproducible(options: SearchOptions) -> None:
    for state in positions(3, 1, every=23, full=True):
        seat = state.current_player
        game = NativeAustraliaGame.from_view(state.view(seat))
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
    """Re-dealing what the seat cannot see (other hands, the stacks, the set-aside cards, the
    face-down tiles, the generator) never changes the search's result for a fixed seed."""
    options = SearchOptions(sims=150, rollout=10, prior="heuristic", bias=50.0, c=0.3)
    redeal = np.random.default_rng(99)
    checked = 0
    for state in positions(players, 1, every=17):
        seat = state.current_player
        truth = NativeAustraliaGame.from_state(state)
        expected = truth.search(seat, options, np.random.default_rng(7))
        view = NativeAustraliaGame.from_view(state.view(seat))
        assert view.search(seat, options, np.random.default_rng(7)) == expected
        for _ in range(2):
            other = state.view(seat).determinize(redeal)  # another truth with the same view
            assert other.view(seat).to_dict() == state.view(seat).to_dict()
            changed = NativeAustraliaGame.from_state(other)
            assert changed.search(seat, options, np.random.default_rng(7)) == expected
            checked += other.hands != state.hands or other.stacks != state.stacks
    assert checked > 10  # the re-deals did change hidden cards


def test_the_gil_is_released_and_threads_agree() -> None:
    state = positions(2, 1, every=13)[3]
    seat = state.current_player
    game = NativeAustraliaGame.from_view(state.view(seat))
    options = SearchOptions(sims=1500, rollout=10, prior="heuristic", bias=50.0)
    alone = game.search(seat, options, np.random.default_rng(3))
    results: list[object] = [None] * 3

    def run(k: int) -> None:
        results[k] = game.search(seat, options, np.random.default_rng(3))

    threads = [threading.Thread(target=run, args=(k,)) for k in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [alone] * 3


def decision(state: State) -> Decision:
    seat = state.current_player
    return Decision(state.view(seat), seat, tuple(state.legal_actions()), game=GAME)


def test_the_agent_is_native_and_reproducible() -> None:
    spec = "ismcts:sims=150,rollout=10,prior=heuristic,bias=50,c=0.3,seed=3"
    agent = make_agent(spec, game=GAME)
    assert isinstance(agent, NativeISMCTSAgent) and agent.native
    states = positions(2, 1, every=19)
    choices = []
    for state in states:
        choices.append(agent.act(decision(state)))
        assert agent.last_simulations == 150
        assert sum(visits for _, visits, _ in agent.last_root) == 150
    again = make_agent(spec, game=GAME)
    assert [again.act(decision(s)) for s in states] == choices


def test_the_agent_reads_only_the_view() -> None:
    """Even handed a true state in place of the view (this truth, or another with the same
    view), the agent chooses what it chooses from the view: the search reads the position only
    through the seat's determinizations."""
    redeal = np.random.default_rng(4)
    spec = "ismcts:sims=80,rollout=10,seed=2"
    checked = 0
    for state in positions(3, 1, every=29):
        seat = state.current_player
        legal = tuple(state.legal_actions())
        chosen = make_agent(spec, game=GAME).act(decision(state))
        for truth in (state, state.view(seat).determinize(redeal)):
            handed = Decision(truth, seat, legal, game=GAME)
            assert make_agent(spec, game=GAME).act(handed) == chosen
            checked += truth.hands != state.view(seat).hands
    assert checked > 5


def test_the_python_search_stays_reachable() -> None:
    agent = make_agent("ismcts:sims=20,rollout=10,native=false,seed=1", game=GAME)
    assert isinstance(agent, NativeISMCTSAgent) and not agent.native
    state = positions(2, 1, every=17)[1]
    assert agent.act(decision(state)) in state.legal_actions()
    assert agent.last_simulations == 20 and agent.last_root == ()
    # a bot only the Python search can play
    python_only = make_agent("ismcts:sims=5,prior=kind_random,native=false", game=GAME)
    assert python_only.act(decision(state)) in state.legal_actions()


def test_the_agent_plays_whole_games() -> None:
    for players in (2, 3):
        state = new_game(players, 11)
        agents = [make_agent("ismcts:sims=30,rollout=10,prior=heuristic", game=GAME)] + [
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
        ("ismcts:prior=kind_random", "the native search plays the core's bots"),
        ("ismcts:bias=-1", "bias must be a number >= 0"),
        ("ismcts:native=3", "native=3: expected true or false"),
    ],
)
def test_bad_options_are_clear_errors(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent(spec, game=GAME)


def test_the_core_refuses_bad_search_arguments() -> None:
    state = positions(2, 1)[1]
    seat = state.current_player
    game = NativeAustraliaGame.from_view(state.view(seat))
    rng = np.random.default_rng(0)
    for options, message in [
        (SearchOptions(), "needs sims > 0 or seconds > 0"),
        (SearchOptions(sims=-1), "sims must be >= 0"),
        (SearchOptions(sims=5, seconds=float("nan")), "seconds must be in 0..3600"),
        (SearchOptions(sims=5, seconds=4000.0), "seconds must be in 0..3600"),
        (SearchOptions(sims=5, c=float("inf")), "c must be a finite number"),
        (SearchOptions(sims=5, bias=-1.0), "bias must be a finite number"),
        (SearchOptions(sims=5, rollout=-3), "rollout must be >= 0"),
        (SearchOptions(sims=5, max_rollout=-1), "max_rollout must be >= 0"),
        (SearchOptions(sims=5, prior="kind_random"), "the core plays random, greedy, heuristic"),
    ]:
        with pytest.raises(ValueError, match=message):
            game.search(seat, options, rng)
    with pytest.raises(ValueError, match="not the seat to act"):
        game.search((seat + 1) % 2, SearchOptions(sims=5), rng)
    with pytest.raises(TypeError, match="PCG64"):
        game.search(seat, SearchOptions(sims=5), np.random.Generator(np.random.MT19937(0)))
    with pytest.raises(ValueError, match="seat"):
        game.search(7, SearchOptions(sims=5), rng)
    handle = game.handle
    with pytest.raises(ValueError, match="prior must be 0"):
        handle.search(seat, (5, 0.0, 0.7, 10, -1, 4, 1.0, 0), (1, 1, 0, 0))
    with pytest.raises(ValueError, match="playout must be 0"):
        handle.search(seat, (5, 0.0, 0.7, 10, -1, 0, 1.0, -1), (1, 1, 0, 0))
    with pytest.raises(TypeError):
        handle.search(seat, (5, 0.0), (1, 1, 0, 0))
    with pytest.raises(ValueError, match="needs its generator"):
        handle.search(seat, (5, 0.0, 0.7, 10, -1, 0, 1.0, 0), None)
    with pytest.raises(ValueError, match="a rollout policy needs a generator"):
        handle.rollout_action(None)
    finished = positions(2, 1)[0]
    while not finished.is_terminal():
        finished.apply_action(finished.legal_actions()[-1])
    over = NativeAustraliaGame.from_state(finished)
    with pytest.raises(ValueError, match="the game is over"):
        over.search(finished.current_player, SearchOptions(sims=5), rng)
    with pytest.raises(ValueError, match="the game is over"):
        over.rollout_action(rng)
