"""The bundled Clockwork City policies (agents/models/clockwork/ppo_{2,3,4}p.zip): Clockwork's
``ppo`` with no path plays them, legally; each records its game and player count; a model of
another game or of another table size is refused with a clear error."""

from __future__ import annotations

import importlib.util
import json
import shutil
import zipfile
from pathlib import Path

import numpy as np
import pytest

from agents.games import MODEL_GAME_ENTRY, model_game, recorded_players
from agents.policy_agent import ActorNet, bundled_model
from agents.registry import TableFitError, make_agent
from airships_env.games.clockwork import GAME
from airships_env.policy import Decision

pytestmark = pytest.mark.skipif(
    any(importlib.util.find_spec(m) is None for m in ("stable_baselines3", "torch")),
    reason="stable-baselines3 and torch are needed to read a model zip",
)

COUNTS = (2, 3, 4)


@pytest.mark.parametrize("players", COUNTS)
def test_each_bundle_records_clockwork_and_its_player_count(players: int) -> None:
    path = bundled_model(players, "clockwork")
    assert path.parts[-2:] == ("clockwork", f"ppo_{players}p.zip")
    assert model_game(path) == "clockwork"
    assert recorded_players(path) == players
    assert ActorNet(path, "clockwork").num_players == players


@pytest.mark.parametrize("players", COUNTS)
def test_ppo_without_a_path_plays_the_bundle_legally(players: int) -> None:
    seats = [make_agent("ppo", game="clockwork", num_players=players)]
    seats += [make_agent("heuristic", game="clockwork") for _ in range(players - 1)]
    state = GAME.new_state(players, seed=3)
    for seat, agent in enumerate(seats):
        agent.reset(seat, players, np.random.default_rng([3, seat]))
    assert seats[0].net.path == str(bundled_model(players, "clockwork"))  # type: ignore[attr-defined]
    decisions = 0
    while not state.is_terminal():
        decision = Decision.for_game(GAME, state)
        action = seats[decision.seat].act(decision)
        assert action in decision.legal_actions
        decisions += decision.seat == 0
        state.apply_action(action)
    assert decisions > 0


def test_a_bundle_is_refused_at_another_table() -> None:
    model = bundled_model(2, "clockwork")
    with pytest.raises(TableFitError, match=r"trained for 2 players.*this table has 3 players"):
        make_agent(f"ppo:path={model}", game="clockwork", num_players=3)
    agent = make_agent(f"ppo:path={model}", game="clockwork", num_players=2)
    assert agent.net.num_players == 2  # type: ignore[attr-defined]


def test_a_model_of_another_game_is_refused() -> None:
    clockwork_2p = bundled_model(2, "clockwork")
    airships_2p = bundled_model(2)
    with pytest.raises(ValueError, match=r"a policy for clockwork .* not for airships"):
        make_agent(f"ppo:path={clockwork_2p}")
    with pytest.raises(ValueError, match=r"a policy for airships .* not for clockwork"):
        make_agent(f"ppo:path={airships_2p}", game="clockwork")


def test_a_bad_player_count_in_the_zip_names_the_file(tmp_path: Path) -> None:
    copy = tmp_path / "bad.zip"
    shutil.copy(bundled_model(2, "clockwork"), copy)
    with zipfile.ZipFile(copy) as source, zipfile.ZipFile(tmp_path / "out.zip", "w") as target:
        for item in source.namelist():
            data = source.read(item)
            if item == MODEL_GAME_ENTRY:
                data = json.dumps({"game": "clockwork", "players": 5}).encode()
            target.writestr(item, data)
    with pytest.raises(ValueError, match=r"out\.zip: game\.json: players: .*2 to 4 players"):
        recorded_players(tmp_path / "out.zip")


@pytest.mark.parametrize("players", COUNTS)
def test_the_shipped_configs_clone_the_search_on_the_heuristics_hint(players: int) -> None:
    from agents.training.config import load_config

    root = Path(__file__).resolve().parents[2]
    config = load_config(root / "configs" / "clockwork" / f"ppo_{players}p.yaml")
    assert (config.game, config.num_players) == ("clockwork", players)
    assert config.vec_env == "native" and config.policy.hint == "heuristic"
    assert (config.pretrain.teacher or "").startswith("ismcts:sims=")
    assert config.run_dir() == Path("runs") / f"clockwork_ppo_{players}p"


@pytest.mark.parametrize("players", COUNTS)
def test_each_bundle_reads_the_heuristics_hint(players: int) -> None:
    """The bundles are hinted policies (agents/hint.py): the numpy actor adds beta times the
    hint's one-hot, which ends an observation one action table longer than the game's."""
    net = ActorNet(bundled_model(players, "clockwork"), "clockwork")
    assert net.hint == "heuristic" and net.beta > 1.0
    assert net.observation_size == GAME.observation_size(players) + GAME.num_actions


def test_evaluate_takes_the_recorded_table_size() -> None:
    # Clockwork's observation is one size for 2-4 players: only the record tells them apart.
    from agents.training.evaluate import model_players

    assert [model_players(bundled_model(n, "clockwork")) for n in COUNTS] == list(COUNTS)
