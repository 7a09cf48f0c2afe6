"""The game registry: names, lazy import, errors, make, and the Gymnasium ids after import."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import airships_env
from airships_env import registry
from airships_env.protocol import Game

REPO = Path(__file__).resolve().parents[1]


def test_games_lists_airships_and_get_game_follows_the_protocol() -> None:
    assert "airships" in registry.games()
    assert airships_env.games() == registry.games()
    game = registry.get_game("airships")
    assert isinstance(game, Game)
    assert (game.name, game.version, game.player_counts) == ("airships", 1, (2, 3, 4))


def test_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"unknown game 'chess'; known games: .*airships"):
        registry.get_game("chess")


def test_register_refuses_bad_names_targets_and_a_second_target() -> None:
    with pytest.raises(ValueError, match="lower-case identifier"):
        registry.register("Air ships", "x:GAME")
    with pytest.raises(ValueError, match="module:ATTR"):
        registry.register("newgame", "no_colon")
    with pytest.raises(ValueError, match="already registered"):
        registry.register("airships", "elsewhere:GAME")
    registry.register("airships", "airships_env.games.airships:GAME")  # the same: allowed


def test_make_returns_todays_airships_env() -> None:
    from airships_env.aec import raw_env

    env = airships_env.make("airships", num_players=3)
    assert isinstance(env.unwrapped, raw_env)
    assert env.metadata["name"] == "airships_v1"
    assert env.unwrapped.num_players == 3


def test_the_game_module_has_env_and_raw_env_as_pettingzoo_classic_modules() -> None:
    from airships_env.aec import raw_env as airships_raw_env
    from airships_env.games import airships

    wrapped = airships.env(num_players=2)
    assert isinstance(wrapped.unwrapped, airships_raw_env)
    assert type(airships.raw_env(num_players=2)) is airships_raw_env


def test_ids_follow_the_game_name_and_version() -> None:
    assert registry.gym_id("airships", 1) == "Airships-v1"
    assert registry.pettingzoo_name("clockwork", 0) == "clockwork_v0"


DONE_WHEN = (
    "import airships_env, gymnasium as gym; print(airships_env.games()); "
    "airships_env.make('airships', num_players=3); gym.make('Airships-v1')"
)


@pytest.mark.parametrize(
    "program",
    [
        DONE_WHEN,
        # gymnasium imported first: the ids register when airships_env is imported.
        "import gymnasium as gym, airships_env; gym.make('Airships-v1', num_players=2)",
    ],
)
def test_the_done_when_line_runs_in_a_fresh_interpreter(program: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", program],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    if program == DONE_WHEN:
        assert "airships" in done.stdout


def test_importing_the_engine_does_not_import_gymnasium() -> None:
    program = "import sys, airships_env.engine; assert 'gymnasium' not in sys.modules, 'imported'"
    done = subprocess.run(
        [sys.executable, "-c", program], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
