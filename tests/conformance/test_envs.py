"""Every registered game's environments pass the libraries' own checks: PettingZoo's api_test
and seed_test (the game's env and the generic GameAEC), Gymnasium's check_env (the game's
single-agent env and the generic one), on every backend and table size; plus the rewards."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from airships_env.game_aec import GameAEC, env, outcome_rewards
from airships_env.game_single_agent import GameSingleAgentEnv
from airships_env.protocol import ActionSpaceError, IllegalActionError, Outcome
from tests.conformance.conftest import Case

API_CYCLES = 150


@pytest.fixture(autouse=True)
def _quiet() -> None:
    """The checkers' advice (a Dict observation space, penalized random actions) is expected."""
    warnings.filterwarnings("ignore", category=UserWarning)


def test_pettingzoo_api_test_at_every_table_size(table: tuple[Case, int]) -> None:
    case, num_players = table
    api_test(case.game.env(num_players=num_players, backend=case.backend), num_cycles=API_CYCLES)
    api_test(env(case.game, num_players=num_players, backend=case.backend), num_cycles=API_CYCLES)


def test_pettingzoo_seed_test(case: Case) -> None:
    num_players = min(case.game.player_counts)
    seed_test(lambda: case.game.env(num_players=num_players, backend=case.backend), 100)
    seed_test(lambda: env(case.game, num_players=num_players, backend=case.backend), 100)


def test_gymnasium_check_env_on_the_single_agent_envs(case: Case) -> None:
    num_players = min(case.game.player_counts)
    check_env(
        case.game.single_agent_env(num_players=num_players, backend=case.backend),
        skip_render_check=True,
    )
    generic = GameSingleAgentEnv(case.game, num_players=num_players, backend=case.backend)
    check_env(generic, skip_render_check=True)


def test_the_generic_env_names_itself_and_plays_to_the_end(case: Case) -> None:
    game = case.game
    num_players = max(game.player_counts)
    aec = GameAEC(game, num_players=num_players, backend=case.backend, render_mode="ansi")
    assert aec.metadata["name"] == f"{game.name}_v{game.version}"
    aec.reset(seed=11)
    assert isinstance(aec.render(), str)
    rng = np.random.default_rng(11)
    total = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        _observation, reward, terminated, truncated, info = aec.last()
        total[agent] += reward
        if terminated or truncated:
            aec.step(None)
            continue
        legal = np.flatnonzero(info["action_mask"])
        aec.step(int(legal[rng.integers(len(legal))]))
    outcome = aec.state.outcome()
    assert list(total.values()) == outcome_rewards(outcome, "win")


def test_the_generic_env_refuses_or_penalizes_an_illegal_action(game_case: Case) -> None:
    game = game_case.game
    num_players = min(game.player_counts)
    raising = GameAEC(game, num_players=num_players)
    raising.reset(seed=1)
    illegal = int(np.flatnonzero(raising.infos[raising.agent_selection]["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="Legal actions"):
        raising.step(illegal)
    penalizing = GameAEC(game, num_players=num_players, illegal_action="penalize")
    penalizing.reset(seed=1)
    offender = penalizing.agent_selection
    penalizing.step(illegal)
    assert penalizing.rewards[offender] == -1.0
    assert all(penalizing.terminations.values())
    assert penalizing.infos[offender]["illegal_action"]["action"] == illegal


def test_outcome_rewards_share_the_win_and_give_the_score_margin() -> None:
    outcome = Outcome(scores=(10.0, 14.0, 14.0), winners=(1, 2), ranks=(3, 1, 1))
    assert outcome_rewards(outcome, "win") == [-1.0, 0.5, 0.5]
    assert outcome_rewards(outcome, "score", score_scale=2.0) == [-2.0, 0.0, 0.0]
    draw = Outcome(scores=(1.0, 1.0), winners=(), ranks=(1, 1))
    assert outcome_rewards(draw, "win") == [0.0, 0.0]


@pytest.mark.parametrize("bad", [np.float32("nan"), 2.5, -1, 10**6, True], ids=repr)
def test_a_value_outside_the_action_space_raises_even_when_penalizing(
    game_case: Case, bad: object
) -> None:
    """Issue 27 item 11: NaN, a float, a negative or too large index, a bool is a bug in the
    policy, not a move: every env raises ActionSpaceError whatever ``illegal_action`` says."""
    game = game_case.game
    for mode in ("raise", "penalize"):
        aec = GameAEC(game, num_players=min(game.player_counts), illegal_action=mode)
        aec.reset(seed=1)
        agent = aec.agent_selection
        with pytest.raises(ActionSpaceError, match="Legal actions"):
            aec.step(bad)
        assert not any(aec.terminations.values()) and aec.agent_selection == agent
    learner = GameSingleAgentEnv(game, num_players=min(game.player_counts))
    learner.reset(seed=1)
    with pytest.raises(ActionSpaceError):
        learner.step(bad)
