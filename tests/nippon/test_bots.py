"""The Nippon bots: legal over whole games, blind to the bag's order, deterministic, and the
evaluation they share behaves as documented."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from agents.bots.nippon import GREEDY, HEURISTIC, GreedyBot, HeuristicBot, evaluate
from airships_env.games.nippon import GAME
from airships_env.games.nippon.engine import Phase
from airships_env.policy import Decision, Policy, RandomPolicy
from tests.nippon.helpers import fresh, give_factory

BOTS: tuple[Callable[[], Policy], ...] = (GreedyBot, HeuristicBot)


def play(
    seats: list[Policy],
    seed: int,
    checks: Callable[[Any, Decision, int], None] | None = None,
) -> tuple[Any, list[Any]]:
    """One whole game; every action checked legal; the final state and the records."""
    n = len(seats)
    state = GAME.new_state(n, seed)
    for seat, agent in enumerate(seats):
        agent.reset(seat, n, np.random.default_rng([seed, seat]))
    records = []
    while not state.is_terminal():
        decision = Decision.for_game(GAME, state)
        action = seats[state.current_player].act(decision)
        assert action in decision.legal_actions, (state.current_player, action)
        if checks is not None:
            checks(state, decision, action)
        records.append(state.apply_action(action))
    return state, records


def test_the_game_offers_the_bots() -> None:
    bots = GAME.bots()
    assert bots["greedy"] == "agents.bots.nippon:GreedyBot"
    assert bots["heuristic"] == "agents.bots.nippon:HeuristicBot"


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_bots_play_legal_whole_games(num_players: int) -> None:
    seats: list[Policy] = [HeuristicBot(), GreedyBot(), RandomPolicy(), GreedyBot()]
    state, records = play(seats[:num_players], seed=30 + num_players)
    assert state.is_terminal() and state.outcome() is not None
    # the bots do the game's main things: consolidate, export, market, invest
    names = {r.name.split()[0] for r in records}
    assert {"consolidate", "contract", "space", "invest", "produce"} <= names


@pytest.mark.parametrize("bot", BOTS)
def test_the_bag_order_does_not_change_a_decision(bot: Callable[[], Policy]) -> None:
    """A state and a twin whose bag will draw in another order (another generator, all else
    equal) give a freshly seeded bot the same decision, throughout a game."""
    rng = np.random.default_rng(5)
    compared = differing = 0

    def checks(state: Any, decision: Decision, action: int) -> None:
        nonlocal compared, differing
        if compared >= 40 or state.phase != Phase.TURN:
            return
        twin = state.clone()
        twin.rng = np.random.default_rng(int(rng.integers(2**32)))
        a, b = state.clone(), twin.clone()
        draws = [[a.rng.integers(1000) for _ in range(4)], [b.rng.integers(1000) for _ in range(4)]]
        differing += draws[0] != draws[1]
        assert twin.view(decision.seat).to_dict() == state.view(decision.seat).to_dict()
        one, other = bot(), bot()
        one.reset(decision.seat, state.num_players, np.random.default_rng(11))
        other.reset(decision.seat, state.num_players, np.random.default_rng(11))
        assert one.act(Decision.for_game(GAME, state)) == other.act(Decision.for_game(GAME, twin))
        compared += 1

    play([bot(), bot(), bot()], seed=3, checks=checks)
    assert compared == 40 and differing == compared


@pytest.mark.parametrize("bot", BOTS)
def test_a_seed_gives_the_same_game(bot: Callable[[], Policy]) -> None:
    first = play([bot(), GreedyBot()], seed=9)[1]
    again = play([bot(), GreedyBot()], seed=9)[1]
    assert [r.to_dict() for r in first] == [r.to_dict() for r in again]


def test_the_bots_never_touch_the_true_state() -> None:
    """A Decision built from a view (no generator) is enough: the bots determinize it."""
    state = GAME.new_state(2, 4)
    for bot in (GreedyBot(), HeuristicBot()):
        bot.reset(state.current_player, 2, np.random.default_rng(0))
        view = state.view(state.current_player)
        decision = Decision(view, state.current_player, tuple(state.legal_actions()), game=GAME)
        assert decision.view.rng is None
        assert bot.act(decision) in state.legal_actions()


def test_greedy_beats_random() -> None:
    wins = 0
    for seed in range(5):
        wins += 0 in play([GreedyBot(), RandomPolicy()], seed)[0].outcome().winners
        wins += 1 in play([RandomPolicy(), GreedyBot()], seed)[0].outcome().winners
    assert wins >= 8


def test_evaluation_counts_vp_and_ends_at_the_score() -> None:
    s = fresh(2)
    for weights in (GREEDY, HEURISTIC):
        before = evaluate(s, 0, weights)
        s.vp[0] += 3
        assert evaluate(s, 0, weights) == pytest.approx(before + 3)
        s.vp[0] -= 3
    s.game_over = 1
    s.vp[0] = 41
    assert evaluate(s, 0, HEURISTIC) == evaluate(s, 0, GREEDY) == 41.0


def test_heuristic_assets_fade_as_the_end_nears() -> None:
    """A factory is worth less to the heuristic in the golden rounds than at the start;
    greedy values it the same."""
    early = fresh(2)
    late = fresh(2)
    late.marker = late.data.golden_from
    late.golden_turns = 2
    gains = {}
    for name, s in (("early", early), ("late", late)):
        for weights in (GREEDY, HEURISTIC):
            base = evaluate(s, 0, weights)
            with_factory = s.clone()
            give_factory(with_factory, 0, "bento")
            gains[name, weights.planning] = evaluate(with_factory, 0, weights) - base
    assert gains["late", True] < gains["early", True]
    assert gains["late", False] == pytest.approx(gains["early", False])
    assert gains["early", True] > 0
