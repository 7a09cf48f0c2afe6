"""The bundled policies of Australia and Nippon (``agents/models/<game>/ppo_<n>p.zip``, where one
ships; Airships' and Clockwork City's have their own tests): each records its game and table
size, the game's ``ppo`` with no path plays it legally, and its shipped config trains that game
from a clone of its heuristic."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from agents.games import model_game, recorded_players
from agents.policy_agent import MODELS_DIR, ActorNet, bundled_model
from agents.registry import make_agent
from airships_env.policy import Decision
from airships_env.registry import get_game

pytestmark = pytest.mark.skipif(
    any(importlib.util.find_spec(m) is None for m in ("stable_baselines3", "torch")),
    reason="stable-baselines3 and torch are needed to read a model zip",
)

ROOT = Path(__file__).resolve().parents[2]
BUNDLES = [
    (game, int(path.stem.removeprefix("ppo_").removesuffix("p")))
    for game in ("australia", "nippon")
    for path in sorted((MODELS_DIR / game).glob("ppo_*p.zip"))
]


def test_the_bundles_are_there() -> None:
    assert ("nippon", 2) in BUNDLES


@pytest.mark.parametrize(("game", "players"), BUNDLES)
def test_a_bundle_records_its_game_and_table(game: str, players: int) -> None:
    path = bundled_model(players, game)
    assert model_game(path) == game and recorded_players(path) == players
    assert ActorNet(path, game).num_players == players


@pytest.mark.parametrize(("game", "players"), BUNDLES)
def test_ppo_without_a_path_plays_the_bundle_legally(game: str, players: int) -> None:
    rules = get_game(game)
    seats = [make_agent("ppo", game=game, num_players=players)]
    seats += [make_agent("greedy", game=game) for _ in range(players - 1)]
    state = rules.new_state(players, seed=5)
    for seat, agent in enumerate(seats):
        agent.reset(seat, players, np.random.default_rng([5, seat]))
    assert seats[0].net.path == str(bundled_model(players, game))  # type: ignore[attr-defined]
    decisions = 0
    while not state.is_terminal():
        decision = Decision.for_game(rules, state)
        action = seats[decision.seat].act(decision)
        assert action in decision.legal_actions
        decisions += decision.seat == 0
        state.apply_action(action)
    assert decisions > 0


@pytest.mark.parametrize(("game", "players"), BUNDLES)
def test_the_shipped_config_trains_the_game_from_a_clone(game: str, players: int) -> None:
    from agents.training.config import load_config

    config = load_config(ROOT / "configs" / game / f"ppo_{players}p.yaml")
    assert (config.game, config.num_players) == (game, players)
    assert config.pretrain.teacher == "heuristic" and config.pretrain.dagger_rounds > 0
    assert config.run_dir() == Path("runs") / f"{game}_ppo_{players}p"
