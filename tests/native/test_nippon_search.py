"""The generic ISMCTS in C (gsearch.c) on Nippon's core (nippon_search.c) and the agent that
plays it (agents/bots/native_ismcts.py): the results and the ported ``evaluate`` hook agree with
the Python game's, a ``sims`` budget with a seed is reproducible, the search reads only the
seat's view, and bad arguments and options are clear errors."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from agents.bots.generic_ismcts import seat_results
from agents.bots.native_ismcts import NativeISMCTSAgent
from agents.registry import make_agent
from airships_env.chance import uniform_below
from airships_env.games.nippon import GAME
from airships_env.games.nippon.engine import RulesOptions, State, new_game
from airships_env.native.nippon import BOTS, NativeNipponGame, SearchOptions
from airships_env.policy import Decision


def positions(players: int, games: int, every: int = 7) -> list[State]:
    """Decisions with a choice, taken from random games."""
    found = []
    chooser = np.random.default_rng(players)
    for seed in range(games):
        state = new_game(players, seed)
        step = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            if len(legal) > 1 and step % every == 0:
                found.append(state.clone())
            state.apply_action(legal[uniform_below(chooser, len(legal))])
            step += 1
    return found


@pytest.mark.parametrize("players", [2, 3, 4])
def test_results_and_evaluate_ported_exactly(players: int) -> None:
    """The C results are the Python search's (E4's winners share 1) on finished games, ties
    included; the C evaluate gives NipponGame.evaluate's values at every step."""
    options = RulesOptions(majority_ties="lower") if players == 3 else RulesOptions()
    shared = 0
    for seed in range(12):
        state = new_game(players, seed, options=options)
        game = NativeNipponGame.from_state(state)
        chooser = np.random.default_rng(seed)
        while not state.is_terminal():
            assert game.search_values() == GAME.evaluate(state)
            legal = state.legal_actions()
            action = legal[uniform_below(chooser, len(legal))]
            state.apply_action(action)
            game.apply_action(action)
        assert game.results() == seat_results(state, players)
        # the same finished game with the scores forced level: E4's tie-break, then a shared win
        for last in (list(state.last_turn), [0] * players):
            tied = state.clone()
            tied.vp = [40] * players
            tied.last_turn = last
            results = NativeNipponGame.from_state(tied).results()
            assert results == seat_results(tied, players)
            shared += sum(r > 0 for r in results) > 1
    assert shared >= 12  # level VP and level last turns: every seat wins a share


SETTINGS = [
    SearchOptions(sims=300),
    SearchOptions(sims=300, rollout=10, prior="heuristic", bias=50.0, c=0.3),
    SearchOptions(sims=60, rollout=0, playout="greedy"),
    SearchOptions(sims=100, playout="random", max_rollout=50, c=0.0),
]


@pytest.mark.parametrize("options", SETTINGS)
def test_a_seeded_sims_search_is_reproducible(options: SearchOptions) -> None:
    for state in positions(3, 1, every=31):
        seat = state.current_player
        game = NativeNipponGame.from_view(state.view(seat))
        first = game.search(seat, options, np.random.default_rng(5))
        again = game.search(seat, options, np.random.default_rng(5))
        assert first == again
        action, simulations, root = first
        assert simulations == options.sims
        assert action in state.legal_actions()
        assert sum(visits for _, visits, _ in root) == options.sims
        assert {a for a, _, _ in root} <= set(state.legal_actions())


@pytest.mark.parametrize("players", [2, 4])
def test_the_search_reads_only_the_view(players: int) -> None:
    """The true state (its generator: the bag's future order) and any other generator give the
    same search as the view, for a fixed seed; the search generator is advanced alike."""
    options = SearchOptions(sims=150, rollout=10, prior="heuristic", bias=50.0, c=0.3)
    for state in positions(players, 1, every=29):
        seat = state.current_player
        view_rng = np.random.default_rng(7)
        expected = NativeNipponGame.from_view(state.view(seat)).search(seat, options, view_rng)
        truth = NativeNipponGame.from_state(state)
        truth_rng = np.random.default_rng(7)
        assert truth.search(seat, options, truth_rng) == expected
        assert truth_rng.bit_generator.state == view_rng.bit_generator.state
        other = state.clone()
        other.rng = np.random.default_rng(12345)  # another bag order, the same view
        assert other.view(seat).to_dict() == state.view(seat).to_dict()
        changed = NativeNipponGame.from_state(other)
        assert changed.search(seat, options, np.random.default_rng(7)) == expected


def test_the_gil_is_released_and_threads_agree() -> None:
    state = positions(2, 1, every=13)[2]
    seat = state.current_player
    game = NativeNipponGame.from_view(state.view(seat))
    options = SearchOptions(sims=400, rollout=10, prior="heuristic", bias=50.0)
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


BAD_SEARCHES = [
    ({"sims": 0}, "a search needs sims > 0 or seconds > 0"),
    ({"sims": -1}, "sims must be >= 0"),
    ({"sims": 1, "seconds": 4000.0}, "seconds must be in 0..3600"),
    ({"sims": 1, "seconds": float("nan")}, "seconds must be in 0..3600"),
    ({"sims": 1, "c": float("inf")}, "c must be a finite number"),
    ({"sims": 1, "bias": -1.0}, "bias must be a finite number"),
    ({"sims": 1, "max_rollout": -3}, "max_rollout must be >= 0"),
    ({"sims": 1, "rollout": -2}, "rollout must be >= 0"),
    ({"sims": 1, "prior": "ppo"}, "prior='ppo': the core plays"),
    ({"sims": 1, "playout": "ismcts"}, "playout='ismcts': the core plays"),
]


@pytest.mark.parametrize(("fields", "message"), BAD_SEARCHES)
def test_bad_search_options_are_clear_errors(fields: dict[str, object], message: str) -> None:
    state = positions(2, 1, every=41)[0]
    game = NativeNipponGame.from_view(state.view(state.current_player))
    with pytest.raises(ValueError, match=message):
        game.search(state.current_player, SearchOptions(**fields), np.random.default_rng(0))  # type: ignore[arg-type]


def test_bad_search_arguments_are_clear_errors() -> None:
    state = positions(2, 1, every=41)[0]
    seat = state.current_player
    game = NativeNipponGame.from_state(state)
    core = game.handle
    options = SearchOptions(sims=5)
    with pytest.raises(ValueError, match="is not the seat to act"):
        game.search(1 - seat, options, np.random.default_rng(0))
    with pytest.raises(ValueError, match="seat"):
        game.search(7, options, np.random.default_rng(0))
    with pytest.raises(TypeError, match="PCG64"):
        game.search(seat, options, np.random.Generator(np.random.MT19937(0)))
    packed = (5, 0.0, 0.7, 2000, -1, 3, 1.0, 0)
    weights = tuple(w for _, w in sorted(BOTS.values()))
    state_tuple = (1, 1, 0, 0)
    for bad_packed, message in (
        ((5, 0.0, 0.7, 2000, -1, 4, 1.0, 0), "prior must be 0"),
        ((5, 0.0, 0.7, 2000, -1, 0, 1.0, -1), "playout must be 0"),
    ):
        with pytest.raises(ValueError, match=message):
            core.search(seat, bad_packed, state_tuple, weights)
    with pytest.raises(TypeError, match="weights"):
        core.search(seat, packed, state_tuple, weights[:2])
    with pytest.raises(ValueError, match="not a finite number"):
        core.search(seat, packed, state_tuple, (weights[0], weights[1], (float("nan"),) * 29))
    with pytest.raises(ValueError, match="needs its generator"):
        core.search(seat, packed, None, weights)
    finished = state.clone()
    while not finished.is_terminal():
        finished.apply_action(finished.legal_actions()[0])
    over = NativeNipponGame.from_state(finished)
    with pytest.raises(ValueError, match="the game is over"):
        over.search(0, options, np.random.default_rng(0))
    with pytest.raises(ValueError, match="not over"):
        game.results()


def decision(state: State) -> Decision:
    seat = state.current_player
    return Decision(state.view(seat), seat, tuple(state.legal_actions()), game=GAME)


def test_the_agent_is_native_and_reproducible() -> None:
    spec = "ismcts:sims=200,rollout=10,prior=heuristic,bias=50,c=0.3,seed=3"
    agent = make_agent(spec, game=GAME)
    assert isinstance(agent, NativeISMCTSAgent) and agent.native
    chosen = positions(2, 1, every=23)
    choices = []
    for state in chosen:
        choices.append(agent.act(decision(state)))
        assert agent.last_simulations == 200
        assert choices[-1] in state.legal_actions()
    again = make_agent(spec, game=GAME)
    assert [again.act(decision(s)) for s in chosen] == choices


def test_the_agent_reads_only_the_decision_view() -> None:
    """The decision's view is all the agent is given; another bag order behind the same view
    makes the same choice."""
    spec = "ismcts:sims=150,rollout=10,prior=heuristic,bias=50,seed=4"
    for state in positions(2, 1, every=37):
        other = state.clone()
        other.rng = np.random.default_rng(999)
        first = make_agent(spec, game=GAME).act(decision(state))
        assert make_agent(spec, game=GAME).act(decision(other)) == first


def test_the_python_search_stays_reachable() -> None:
    agent = make_agent("ismcts:sims=8,rollout=4,native=false,seed=1", game=GAME)
    assert isinstance(agent, NativeISMCTSAgent) and not agent.native
    state = positions(2, 1, every=17)[1]
    assert agent.act(decision(state)) in state.legal_actions()
    assert agent.last_simulations == 8 and agent.last_root == ()


def test_the_agent_plays_whole_games() -> None:
    for players in (2, 3):
        state = new_game(players, 11)
        agents = [make_agent("ismcts:sims=30,rollout=10,prior=greedy", game=GAME)] + [
            make_agent("greedy", rng=np.random.default_rng(s), game=GAME)
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
        NativeISMCTSAgent(native=3, game=GAME)  # type: ignore[arg-type]
    assert NativeISMCTSAgent(game=GAME).game is GAME
