"""Bot-only arena games of Clockwork City, Australia and Nippon played through their native cores
(issue 25, agents/bots/native_tables.py): the same records as the Python path but the timings,
and only for agents whose exact class has a twin in the core."""

from __future__ import annotations

import numpy as np
import pytest

from agents import arena
from agents.bots.native_tables import CLOCKWORK
from agents.executors import game_native_bots
from airships_env import native
from airships_env.policy import RandomPolicy

pytestmark = pytest.mark.skipif(not native.available(), reason="the native core is not built")
TIMINGS = ("think_seconds", "seconds")


def _untimed(record: dict) -> dict:
    return {key: value for key, value in record.items() if key not in TIMINGS}


@pytest.mark.parametrize(
    ("game", "specs"),
    [
        ("clockwork", ["heuristic", "greedy", "random"]),
        ("clockwork", ["heuristic:threshold=0.6", "heuristic"]),
        ("australia", ["heuristic", "greedy", "random", "greedy"]),
        ("nippon", ["heuristic", "greedy", "random"]),
    ],
)
def test_bot_only_games_in_the_core_give_the_python_records(game: str, specs: list[str]) -> None:
    agent_specs = arena.label_agents(specs)
    assert arena.native_seats(agent_specs, game) is not None
    run = arena.run_arena(specs, 2 * len(specs), seed=5, paired=True, workers=1, game=game)
    schedule = arena.arena_schedule(list(agent_specs), 2 * len(specs), seed=5, paired=True)
    python = sorted(
        arena._play_all(schedule, agent_specs, 5, False, 20_000, 1, game), key=lambda r: r["game"]
    )
    assert [_untimed(r) for r in run.records] == [_untimed(r) for r in python]
    assert all(r["winners"] for r in run.records)


@pytest.mark.parametrize("game", ["clockwork", "australia", "nippon"])
def test_an_agent_without_a_twin_keeps_the_python_path(game: str) -> None:
    assert game_native_bots(game) is not None
    assert arena.native_seats(arena.label_agents(["mcts:sims=5", "random"]), game) is None


def test_only_the_exact_classes_are_twins() -> None:
    from agents.bots.clockwork import GreedyBot, HeuristicBot

    class Tweaked(HeuristicBot):
        pass

    assert CLOCKWORK.twin(RandomPolicy()) == "random"
    assert CLOCKWORK.twin(GreedyBot()) == "greedy"
    assert CLOCKWORK.twin(HeuristicBot(np.random.default_rng(0))) == "heuristic"
    assert CLOCKWORK.twin(Tweaked()) is None


def test_a_game_cut_off_by_max_steps_has_no_outcome() -> None:
    plan = CLOCKWORK.plan(dict.fromkeys(["a", "b"], RandomPolicy()))
    assert plan is not None
    rngs = [np.random.default_rng(1), np.random.default_rng(2)]
    (result,) = CLOCKWORK.play(plan, 2, [(7, rngs, ["a", "b"])], max_steps=5)
    assert result.outcome is None and result.steps == 5 and sum(result.decisions) == 5


@pytest.mark.parametrize(
    ("game", "specs"),
    [
        ("nippon", ["ppo", "heuristic"]),
        ("australia", ["ppo", "heuristic", "greedy"]),
        ("australia", ["ppo:deterministic=false", "random"]),
    ],
)
def test_trained_policies_play_on_the_cores_observations(game: str, specs: list[str]) -> None:
    """A policy (reads only its observation) sits at a core-played table: same records."""
    agent_specs = arena.label_agents(specs)
    assert arena.native_seats(agent_specs, game) is not None
    run = arena.run_arena(specs, 2 * len(specs), seed=3, paired=True, workers=1, game=game)
    schedule = arena.arena_schedule(list(agent_specs), 2 * len(specs), seed=3, paired=True)
    python = sorted(
        arena._play_all(schedule, agent_specs, 3, False, 20_000, 1, game), key=lambda r: r["game"]
    )
    assert [_untimed(r) for r in run.records] == [_untimed(r) for r in python]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_hinted_policy_is_played_in_python(players: int) -> None:
    """Clockwork City's bundled policies read the heuristic's choice (agents/hint.py), which
    reads the view: the arena plays their games through the protocol, not on the core's
    observations, and they play legal moves to the end."""
    specs = ["ppo", *["heuristic"] * (players - 1)]
    assert arena.native_seats(arena.label_agents(specs), "clockwork") is None
    run = arena.run_arena(specs, players, seed=3, workers=1, game="clockwork")
    assert len(run.records) == players
    assert all(record["winners"] is not None for record in run.records)
