"""RLlib for every registered game: the protocol's MultiAgentEnv (Airships keeps its native one,
tested in test_rllib_env.py), the config's per-game checks, the exported actor as an agent of
its game, and a tiny Clockwork City run on the two-node cluster."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("ray")

from agents.games import DEFAULT_GAME
from agents.registry import make_agent
from agents.rllib.config import ConfigError, config_from_dict, load_config
from agents.rllib.env import (
    MAIN,
    AirshipsMultiAgentEnv,
    GameMultiAgentEnv,
    LeagueWeights,
    env_class,
    module_for_agent,
)
from agents.rllib.export import export_actor, read_header
from airships_env.policy import Decision
from airships_env.registry import games, get_game

ROOT = Path(__file__).resolve().parents[2]
OTHER_GAMES = [name for name in games() if name != DEFAULT_GAME]


def play(env: GameMultiAgentEnv, episodes: int, seed: int) -> list[tuple]:
    """Random legal play; returns (agent, action, rewards, done) per step, and checks every
    observation against the game's own view of the seat to act."""
    game = env.game
    rng = np.random.default_rng(seed)
    trace: list[tuple] = []
    observations, _ = env.reset(seed=seed)
    acted: set[str] = set()
    for _ in range(episodes):
        while True:
            ((agent, observation),) = observations.items()
            assert env.observation_space.contains(observation)
            seat = env.state.current_player
            assert agent.endswith(f"@{seat}")
            np.testing.assert_array_equal(
                observation["observations"], game.observe(env.state.view(seat), seat)
            )
            mask = observation["action_mask"]
            assert np.flatnonzero(mask).tolist() == env.state.legal_actions()
            action = int(rng.choice(np.flatnonzero(mask)))
            acted.add(agent)
            observations, rewards, terminateds, truncateds, _ = env.step({agent: action})
            trace.append((agent, action, dict(rewards), terminateds["__all__"]))
            if terminateds["__all__"]:
                # the reward reaches every Python seat that acted, and no one else
                assert set(rewards) == acted and observations == {}
                assert all(terminateds[a] for a in acted) and not truncateds["__all__"]
                acted = set()
                observations, _ = env.reset()
                break
            assert set(rewards) == set(observations)  # 0.0 with each observation
    return trace


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_self_play_every_seat_is_main(game: str) -> None:
    players = min(get_game(game).player_counts)
    league = {"self_play": 1, "snapshots": 0, "bots": {}}
    env = GameMultiAgentEnv({"game": game, "num_players": players, "league": league})
    trace = play(env, 2, seed=3)
    agents = {agent for agent, *_ in trace}
    assert {module_for_agent(a) for a in agents} == {MAIN} and len(agents) == players


def test_bots_of_the_game_play_in_python() -> None:
    # any agent spec of the game (here with options) sits at the table, played in Python
    league = {"self_play": 0, "snapshots": 0, "bots": {"greedy": 1, "mcts:sims=1": 0.1}}
    env = GameMultiAgentEnv({"game": "clockwork", "num_players": 3, "league": league})
    trace = play(env, 3, seed=1)
    for _, _, rewards, done in trace:
        if done:
            assert len(rewards) == 1  # only the learner's seat is an agent
    with pytest.raises(ValueError, match="league bot 'az': clockwork's agents are random"):
        GameMultiAgentEnv({"game": "clockwork", "league": {"bots": {"az": 1}}})


def test_snapshots_drawn_only_when_ready() -> None:
    league = {"self_play": 0, "snapshots": 1, "bots": {"random": 1e-9}}
    config = {"game": "nippon", "num_players": 2, "pool_size": 3, "league": league}
    env = GameMultiAgentEnv(config)
    assert {module_for_agent(a) for a, *_ in play(env, 2, seed=0)} == {MAIN}
    env.set_league(LeagueWeights.from_mapping({**league, "ready": 2}, "nippon"))
    assert {module_for_agent(a) for a, *_ in play(env, 12, seed=0)} == {MAIN, "snap0", "snap1"}


def test_same_seed_same_games() -> None:
    config = {"game": "clockwork", "num_players": 2, "league": {"bots": {"greedy": 0.5}}}
    first = play(GameMultiAgentEnv(config), 3, seed=11)
    assert first == play(GameMultiAgentEnv(config), 3, seed=11)
    assert first != play(GameMultiAgentEnv(config), 3, seed=12)


def test_each_game_has_its_env_class() -> None:
    assert env_class(DEFAULT_GAME) is AirshipsMultiAgentEnv
    assert all(env_class(game) is GameMultiAgentEnv for game in OTHER_GAMES)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"game": "clockwork", "league": {"bots": {"az": 1.0}}},
            "x.yaml: league.bots: expected a known agent of clockwork (random, ",
        ),
        (
            {"game": "nippon", "evaluation": {"opponents": ["kind_random"]}},
            "x.yaml: evaluation.opponents: expected a known agent of nippon (random, ",
        ),
        (
            {"league": {"bots": {"mcts": 1.0}}},
            "x.yaml: league.bots: expected bots the core plays (random, greedy, heuristic)",
        ),
    ],
)
def test_the_config_checks_the_games_agents(data: dict, message: str) -> None:
    with pytest.raises(ConfigError) as error:
        config_from_dict(data, "x.yaml")
    assert message in str(error.value)


def test_a_config_of_another_game_may_name_its_python_bots() -> None:
    config = config_from_dict({"game": "clockwork", "league": {"bots": {"mcts:sims=8": 1.0}}})
    assert config.league.bots == {"mcts:sims=8": 1.0}


def fake_module_state(game: str, players: int, hidden: int = 8) -> dict[str, np.ndarray]:
    """A state dict shaped like MaskedPPOTorchRLModule's for ``game`` (random weights)."""
    rng = np.random.default_rng(0)
    rules = get_game(game)
    size, actions = rules.observation_size(players), rules.num_actions
    return {
        "encoder.actor_encoder.net.mlp.0.weight": rng.normal(size=(hidden, size)),
        "encoder.actor_encoder.net.mlp.0.bias": rng.normal(size=hidden),
        "pi.net.mlp.0.weight": rng.normal(size=(actions, hidden)),
        "pi.net.mlp.0.bias": rng.normal(size=actions),
    }


def test_an_exported_actor_plays_its_game_only(tmp_path: Path) -> None:
    path = export_actor(
        fake_module_state("clockwork", 2),
        tmp_path / "a.npz",
        activation="tanh",
        num_players=2,
        game="clockwork",
    )
    agent = make_agent(f"rllib:path={path}", game="clockwork", num_players=2)
    game = get_game("clockwork")
    state = game.new_state(2, seed=4)
    agent.reset(state.current_player, 2, np.random.default_rng(0))
    assert agent.act(Decision.for_game(game, state)) in state.legal_actions()
    with pytest.raises(ValueError, match=r"a policy for clockwork .*, not for airships"):
        make_agent(f"rllib:path={path}")
    with pytest.raises(ValueError, match=r"a policy for clockwork .*, not for nippon"):
        make_agent(f"rllib:path={path}", game="nippon")


@pytest.mark.slow  # a Ray cluster and an RLlib iteration: about 40 s on 2 cores
def test_a_tiny_clockwork_run(two_node_cluster: Any, tmp_path: Path) -> None:
    from agents.arena import run_arena
    from agents.rllib.train import checkpoints, train

    config = load_config(ROOT / "configs" / "rllib_tiny.yaml").replace(
        game="clockwork",
        run={"output_dir": str(tmp_path)},
        total_timesteps=256,
        evaluation={"opponents": ["random"], "games": 2},
    )
    result = train(config, log=lambda _: None)
    assert result.iterations == 1 and result.env_steps >= 256
    assert [row["opponent"] for row in result.evaluations] == ["random"]
    assert result.policy is not None and read_header(result.policy)["game"] == "clockwork"
    (checkpoint,) = checkpoints(tmp_path / "rllib_tiny")
    assert json.loads((checkpoint / "league.json").read_text())["game"] == "clockwork"
    for spec in (f"rllib:path={result.policy}", f"rllib:path={checkpoint}"):
        played = run_arena([spec, "random"], 2, seed=1, workers=1, game="clockwork")
        assert not played.errors and len(played.records) == 2
