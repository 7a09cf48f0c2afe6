"""Every bot a game can name (its own and the generic ones) plays only legal actions, and no bot
nor observation can tell apart two states that differ only in what the seat cannot see."""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import pytest

from agents.registry import (
    AgentUnavailableError,
    TableFitError,
    agent_class,
    agents_for,
    make_agent,
)
from airships_env.policy import Decision, Policy
from airships_env.protocol import Game
from tests.conformance.conftest import CASES, GAME_CASES, Case, random_states

#: Simulations per decision for the search bots (a short search decides as legally as a long).
SEARCH_SIMS = 8
#: Decisions each bot makes per test game.
DECISIONS = 12

BOTS = [(case, name) for case in GAME_CASES for name in agents_for(case.game)]
#: Every bot on every backend (a bot reads the view, whichever core holds the game).
BOTS_EVERY_BACKEND = [(case, name) for case in CASES for name in agents_for(case.game)]


def fast_spec(name: str, game: Game) -> str:
    """The bot's spec, with a small search budget where it takes one."""
    parameters = inspect.signature(agent_class(name, game)).parameters
    return f"{name}:sims={SEARCH_SIMS}" if "sims" in parameters else name


def make_bot(name: str, game: Game, num_players: int) -> Policy:
    """The bot, or a skip naming why it cannot be made here."""
    try:
        return make_agent(fast_spec(name, game), num_players=num_players, game=game)
    except AgentUnavailableError as exc:
        pytest.skip(f"{name}: {exc}")
    except TableFitError as exc:  # a policy the game does not ship for this table: needs a file
        pytest.skip(f"{name} needs a file here: {exc}")
    except ValueError as exc:
        if "missing" in str(exc) and "required" in str(exc):
            pytest.skip(f"{name} needs options to be made (a file): {exc}")
        raise


@pytest.mark.parametrize(
    ("case", "name"), BOTS_EVERY_BACKEND, ids=[f"{c.id}-{n}" for c, n in BOTS_EVERY_BACKEND]
)
def test_every_bot_plays_legal_actions(case: Case, name: str) -> None:
    game = case.game
    num_players = min(game.player_counts)
    bot = make_bot(name, game, num_players)
    bot.reset(0, num_players, np.random.default_rng(0))
    others = np.random.default_rng(1)
    decisions = 0
    state = game.new_state(num_players, seed=7, backend=case.backend)
    while not state.is_terminal() and decisions < DECISIONS:
        legal = state.legal_actions()
        if state.current_player == 0:
            action = bot.act(Decision.for_game(game, state))
            assert action in legal, f"{name} chose {action}, not among {legal}"
            decisions += 1
        else:
            action = legal[int(others.integers(len(legal)))]
        state.apply_action(action)
    assert decisions > 0


def leak_pairs(case: Case, num_players: int, seed: int) -> list[tuple[int, Any, Any]]:
    """(seat, state_a, state_b): pairs that differ only in what ``seat`` (the seat to act)
    cannot see, at every 9th state of a random game: the game's ``leak_pair`` if it has one,
    else its view determinized with two generators."""
    game = case.game
    make_pair = getattr(game, "leak_pair", None)
    pairs = []
    for k, state in enumerate(random_states(case, num_players, seed)):
        if state.is_terminal() or k % 9:
            continue
        seat = state.current_player
        if make_pair is not None:
            first, second = make_pair(num_players, seed * 1000 + k, seat)
        else:
            view = state.view(seat)
            first = view.determinize(np.random.default_rng(2 * k))
            second = view.determinize(np.random.default_rng(2 * k + 1))
        pairs.append((seat, first, second))
    return pairs


@pytest.fixture(params=GAME_CASES, ids=[c.game.name for c in GAME_CASES], scope="module")
def pairs(request: pytest.FixtureRequest) -> tuple[Case, list[tuple[int, Any, Any]]]:
    """Leak pairs of each game at its largest table."""
    case: Case = request.param
    return case, leak_pairs(case, max(case.game.player_counts), seed=8)


def test_a_leak_pair_really_differs_and_the_seat_sees_the_same(
    pairs: tuple[Case, list[tuple[int, Any, Any]]],
) -> None:
    case, found = pairs
    game = case.game
    assert found
    assert any(a.to_dict() != b.to_dict() for _, a, b in found), "no pair differs: vacuous"
    for seat, first, second in found:
        assert first.current_player == second.current_player == seat
        assert first.legal_actions() == second.legal_actions()
        assert first.view(seat).to_dict() == second.view(seat).to_dict()
        np.testing.assert_array_equal(
            game.observe(first.view(seat), seat), game.observe(second.view(seat), seat)
        )
        # A true state given to observe leaks nothing either.
        np.testing.assert_array_equal(game.observe(first, seat), game.observe(second, seat))


@pytest.mark.parametrize(("case", "name"), BOTS, ids=[f"{c.game.name}-{n}" for c, n in BOTS])
def test_no_bot_decision_depends_on_what_the_seat_cannot_see(case: Case, name: str) -> None:
    game = case.game
    num_players = max(game.player_counts)
    bot = make_bot(name, game, num_players)
    for index, (seat, first, second) in enumerate(leak_pairs(case, num_players, seed=9)[:4]):
        choices = []
        for state in (first, second):
            bot.reset(seat, num_players, np.random.default_rng(index))
            choices.append(bot.act(Decision.for_game(game, state)))
        assert choices[0] == choices[1], f"{name} decides differently at pair {index}"


#: The generic search with the game's hooks (evaluation cut, heuristic prior), where it has them.
HOOKED = [
    (case, spec)
    for case in GAME_CASES
    if getattr(case.game, "evaluate", None) is not None and "heuristic" in case.game.bots()
    for spec in (
        "ismcts:sims=6,rollout=3,prior=heuristic",
        "mcts:sims=6,rollout=3,prior=heuristic,paired=true",
    )
]


@pytest.mark.parametrize(("case", "spec"), HOOKED, ids=[f"{c.game.name}-{s}" for c, s in HOOKED])
def test_the_hooked_search_decides_alike_on_a_leak_pair(case: Case, spec: str) -> None:
    """The prior bot is handed determinized worlds: still nothing the seat cannot see counts."""
    game = case.game
    num_players = max(game.player_counts)
    bot = make_agent(spec, num_players=num_players, game=game)
    for index, (seat, first, second) in enumerate(leak_pairs(case, num_players, seed=9)[:2]):
        choices = []
        for state in (first, second):
            bot.reset(seat, num_players, np.random.default_rng(index))
            choices.append(bot.act(Decision.for_game(game, state)))
        assert choices[0] == choices[1], f"{spec} decides differently at pair {index}"


EVALUATED = [case for case in GAME_CASES if getattr(case.game, "evaluate", None) is not None]


@pytest.mark.parametrize("case", EVALUATED, ids=[c.game.name for c in EVALUATED])
def test_evaluate_gives_every_seat_a_share(case: Case) -> None:
    """The optional evaluate hook: one value per seat in [0, 1], summing to 1 like the shares of
    a won game, and not the same for every seat all game long."""
    game = case.game
    for num_players in (min(game.player_counts), max(game.player_counts)):
        spread = 0.0
        for k, state in enumerate(random_states(case, num_players, seed=4)):
            if k > 600:
                break
            if state.is_terminal() or k % 7:
                continue
            values = game.evaluate(state)
            assert len(values) == num_players
            assert all(0.0 <= v <= 1.0 for v in values)
            assert sum(values) == pytest.approx(1.0)
            spread = max(spread, max(values) - min(values))
        assert spread > 0.01, f"{game.name}: evaluate never told the seats apart"


def test_score_shares_follow_the_lead() -> None:
    from airships_env.gamekit import score_shares

    shares = score_shares([30.0, 20.0, 20.0], spread=10.0)
    assert shares[0] > shares[1] == shares[2]
    assert sum(shares) == pytest.approx(1.0)
    assert score_shares([5.0, 5.0], spread=10.0) == [0.5, 0.5]
