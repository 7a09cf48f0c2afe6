"""The generic search on Clockwork City with the game's hooks: the evaluation, the prior bot and
the rollout cut are used, and a simulation budget with a fixed seed repeats itself."""

from __future__ import annotations

import numpy as np
import pytest

from agents.bots.clockwork import HeuristicBot
from agents.bots.generic_ismcts import GenericISMCTSAgent
from agents.registry import make_agent
from airships_env.games.clockwork import GAME
from airships_env.games.clockwork.engine.data import FM_TYPES
from airships_env.games.clockwork.evaluate import evaluate, score
from airships_env.policy import Decision
from tests.clockwork.helpers import cards, table


def states(seed: int, every: int = 11) -> list:  # type: ignore[type-arg]
    """Decisions with a choice from one heuristic game."""
    state = GAME.new_state(2, seed)
    bots = [HeuristicBot(), HeuristicBot()]
    for seat, bot in enumerate(bots):
        bot.reset(seat, 2, np.random.default_rng([seed, seat]))
    found = []
    while not state.is_terminal():
        decision = Decision.for_game(GAME, state)
        if len(decision.legal_actions) > 1 and state.step % every == 0:
            found.append(state.clone())
        state.apply_action(bots[state.current_player].act(decision))
    return found


def test_the_evaluation_is_a_share_per_seat_that_follows_progress() -> None:
    for state in states(3)[:8]:
        values = evaluate(state)
        assert len(values) == 2 and all(0.0 <= v <= 1.0 for v in values)
        assert sum(values) == pytest.approx(1.0)
    behind = table(hands=[cards("FM1", "CB1"), cards("FM1", "FM1", "FM1", "CB1", "CB1", "CB1")])
    assert score(behind, 1) > score(behind, 0)
    assert evaluate(behind)[1] > 0.5
    laid = table(hands=[cards("FUEL"), cards("FM1")])
    laid.laid_fm[0] = FM_TYPES[0]
    assert score(laid, 0) > score(laid, 1)


def test_the_hooks_are_used(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = {"evaluate": 0, "prior": 0}

    def counted_evaluate(state: object) -> list[float]:
        calls["evaluate"] += 1
        return evaluate(state)  # type: ignore[arg-type]

    original = HeuristicBot.act

    def counted_act(self: HeuristicBot, decision: Decision) -> int:
        calls["prior"] += 1
        return original(self, decision)

    monkeypatch.setattr(GAME, "evaluate", counted_evaluate, raising=False)
    monkeypatch.setattr(HeuristicBot, "act", counted_act)
    # the Python search (the native one calls the C ports of the hooks)
    bot = make_agent("ismcts:sims=30,rollout=3,prior=heuristic,native=false", game=GAME)
    bot.reset(0, 2, np.random.default_rng(0))
    state = next(s for s in states(5) if s.current_player == 0)
    assert bot.act(Decision.for_game(GAME, state)) in state.legal_actions()
    assert calls["evaluate"] >= 20  # a few simulations may end the game before the cut
    assert calls["prior"] >= 30  # once per tree node a simulation passes


def test_without_a_cut_rollouts_play_to_the_end() -> None:
    bot = GenericISMCTSAgent(sims=2, rollout=None, game=GAME)
    bot.reset(0, 2, np.random.default_rng(0))
    worlds = []
    original = bot._simulate

    def watched(root, view, rollout, evaluate=None):  # type: ignore[no-untyped-def]
        worlds.append(evaluate)
        return original(root, view, rollout, evaluate)

    bot._simulate = watched  # type: ignore[method-assign]
    state = states(2)[0]
    bot.act(Decision.for_game(GAME, state))
    assert worlds == [None, None]


@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:sims=40,rollout=8,prior=heuristic",
        "ismcts:sims=20,rollout=2,playout=greedy,bias=2",
        "ismcts:sims=20,rollout=2,playout=greedy,bias=2,native=false",
        "mcts:sims=30,rollout=4,prior=heuristic,paired=true,bias=0.3",
    ],
)
def test_a_simulation_budget_with_a_seed_repeats_itself(spec: str) -> None:
    picks = []
    for _ in range(2):
        bot = make_agent(spec + ",seed=7", game=GAME)
        bot.reset(1, 2, np.random.default_rng(99))
        picks.append([bot.act(Decision.for_game(GAME, s)) for s in states(4, every=17)[:6]])
    assert picks[0] == picks[1]
    assert all(isinstance(a, int) for a in picks[0])


def test_a_paired_search_compares_every_action_on_the_same_worlds() -> None:
    bot = make_agent("mcts:sims=1,rollout=0,paired=true,seed=3", game=GAME)
    state = next(s for seed in range(6) for s in states(seed, every=1) if s.phase_name == "discard")
    bot.reset(state.current_player, 2, np.random.default_rng(0))
    seat = state.current_player
    legal = state.legal_actions()
    choice = bot.act(Decision.for_game(GAME, state))
    assert bot.last_simulations == len(legal)  # one whole world, every action once
    mine = {}
    for action in legal:
        after = state.clone()
        after.apply_action(action)
        mine[action] = score(after, seat)
    # rollout=0 on one world: the opponents' hands are the same after every action, so the
    # actions' values follow the seat's own score
    for a in legal:
        for b in legal:
            if mine[a] > mine[b]:
                assert bot.last_means[a] > bot.last_means[b]
    assert choice == max(legal, key=lambda a: (bot.last_means[a], -a))


def test_paired_is_a_switch() -> None:
    from agents.bots.generic_ismcts import GenericMCTSAgent

    with pytest.raises(ValueError, match="paired must be true or false"):
        GenericMCTSAgent(paired=2)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="paired=2: expected true or false"):
        make_agent("mcts:paired=2", game=GAME)
