"""The generic search bots (information-set MCTS and flat determinized Monte Carlo) on a game
with private hands: they beat random play, repeat themselves for a seed, and check options."""

from __future__ import annotations

import numpy as np
import pytest

from agents.bots.generic_ismcts import GenericISMCTSAgent, GenericMCTSAgent
from agents.registry import make_agent
from airships_env.policy import Decision, Policy, RandomPolicy
from tests.conformance.toy_game import GAME


def play(bot: Policy, seat: int, seed: int) -> tuple[float, list[int]]:
    """One 2-player game of the bot against random; its result (share of the win) and the
    actions played."""
    state = GAME.new_state(2, seed=seed)
    players: dict[int, Policy] = {seat: bot, 1 - seat: RandomPolicy()}
    for s, player in players.items():
        player.reset(s, 2, np.random.default_rng(seed * 10 + s))
    actions = []
    while not state.is_terminal():
        action = players[state.current_player].act(Decision.for_game(GAME, state))
        actions.append(action)
        state.apply_action(action)
    outcome = state.outcome()
    assert outcome is not None
    return (1 / len(outcome.winners) if seat in outcome.winners else 0.0), actions


@pytest.mark.parametrize("cls", [GenericISMCTSAgent, GenericMCTSAgent])
def test_the_search_beats_random_play(cls: type) -> None:
    results = [play(cls(sims=60), seat=game % 2, seed=game)[0] for game in range(20)]
    assert sum(results) / len(results) >= 0.6  # random against random: 0.5


def test_a_simulation_budget_repeats_itself() -> None:
    first = play(GenericISMCTSAgent(sims=20), seat=0, seed=3)
    again = play(GenericISMCTSAgent(sims=20), seat=0, seed=3)
    assert first == again


def test_a_time_budget_runs_at_least_one_simulation() -> None:
    bot = GenericISMCTSAgent(ms=2)
    bot.reset(0, 2, np.random.default_rng(0))
    state = GAME.new_state(2, seed=1)
    assert bot.act(Decision.for_game(GAME, state)) in state.legal_actions()
    assert bot.last_simulations >= 1


@pytest.mark.parametrize(
    ("options", "message"),
    [({"sims": 0}, "sims must be a whole number >= 1"), ({"ms": -1}, "ms must be a number > 0")],
)
def test_bad_options_are_named(options: dict[str, float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GenericISMCTSAgent(**options)


def test_a_game_without_its_own_bots_gets_the_generic_ones_by_name() -> None:
    assert isinstance(make_agent("ismcts:sims=5", game=GAME), GenericISMCTSAgent)
    assert isinstance(make_agent("mcts", game=GAME), GenericMCTSAgent)
    with pytest.raises(ValueError, match="known agents for tricks: random, mcts, ismcts"):
        make_agent("greedy", game=GAME)


def test_airships_keeps_its_own_search_under_the_same_names() -> None:
    from agents.bots.ismcts import ISMCTSAgent
    from agents.bots.mcts import MCTSAgent

    assert type(make_agent("ismcts:sims=5", game="airships")) is ISMCTSAgent
    assert type(make_agent("mcts", game="airships")) is MCTSAgent
    assert type(make_agent("ismcts:sims=5")) is ISMCTSAgent


def test_equal_visits_go_to_the_best_mean_not_the_lowest_index(monkeypatch) -> None:
    """A budget of one simulation per action (a 100 ms search on a loaded machine) visits every
    root action once: the choice must follow the results, not the action order."""
    from agents.bots import generic_ismcts

    state = GAME.new_state(2, seed=3)
    decision = Decision.for_game(GAME, state)
    legal = list(decision.legal_actions)
    assert len(legal) >= 2
    root = generic_ismcts._Node(-1)
    for rank, action in enumerate(legal):
        child = root.children[action] = generic_ismcts._Node(state.current_player)
        child.visits, child.total = 1, float(rank)  # the last legal action did best
    bot = GenericISMCTSAgent(sims=len(legal))
    bot.reset(state.current_player, 2, np.random.default_rng(0))
    monkeypatch.setattr(bot, "search", lambda view, rollout=None: root)
    assert bot.act(decision) == legal[-1]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"rollout": -1}, "rollout must be a whole number >= 0"),
        ({"bias": -0.5}, "bias must be a number >= 0"),
        ({"prior": "not a bot"}, "prior must be a bot name of the game"),
        ({"playout": 3}, "playout must be a bot name of the game"),
    ],
)
def test_bad_search_options_are_named(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GenericISMCTSAgent(**options)  # type: ignore[arg-type]


def test_a_rollout_cut_needs_the_games_evaluate_hook() -> None:
    with pytest.raises(ValueError, match="rollout=5 needs the game's evaluate hook, which tricks"):
        make_agent("ismcts:rollout=5", game=GAME)
    bot = GenericISMCTSAgent(sims=3, rollout=5)  # no game yet: checked at the first decision
    bot.reset(0, 2, np.random.default_rng(0))
    with pytest.raises(ValueError, match="evaluate hook"):
        bot.act(Decision.for_game(GAME, GAME.new_state(2, seed=1)))


def test_a_prior_or_playout_must_be_one_of_the_games_bots() -> None:
    from airships_env.games.clockwork import GAME as CLOCKWORK

    with pytest.raises(ValueError, match="prior='wizard': clockwork has no such bot; its bots: "):
        make_agent("ismcts:prior=wizard", game=CLOCKWORK)
    with pytest.raises(ValueError, match="playout='ismcts': clockwork has no such bot"):
        make_agent("ismcts:playout=ismcts", game=CLOCKWORK)
    with pytest.raises(ValueError, match="tricks has no such bot"):
        make_agent("ismcts:prior=heuristic", game=GAME)
