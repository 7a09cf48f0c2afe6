"""``airships bench --game NAME --json`` for every registered game other than Airships: the
sections run with a tiny budget and the JSON line has its stable keys (figures, not timings, are
checked: no speed is asserted)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents.bench_games import bench_game, bot_name, choose_each
from agents.cli import main
from airships_env import native
from airships_env.registry import games, get_game

OTHER_GAMES = [name for name in games() if name != "airships"]

COMMON_KEYS = {
    "game",
    "players",
    "notes",
    "python_decisions_per_s",
    "python_env_steps_per_s",
    "connect_four_env_steps_per_s",
    "env_over_connect_four",
    "heuristic_bot",
    "python_heuristic_decisions_per_s",
    "vecenv_opponents",
    "python_vecenv_2p_steps_per_s",
}


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_bench_json_has_every_key(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--game", game, "--seconds", "0.001", "--json"]) == 0
    captured = capsys.readouterr()
    lines = captured.out.strip().splitlines()
    assert len(lines) == 1, "the JSON line is alone on stdout"
    figures = json.loads(lines[0])
    counts = get_game(game).player_counts
    # a game with a native core (its rules offer native_random_games) has the native pair too
    rules = get_game(game)
    has_native = hasattr(rules, "native_random_games") and native.available()
    native_keys = {"native_decisions_per_s"} if has_native else set()
    # and with a native batch, native bots and a native VecEnv, their pairs
    optional = {
        "native_batch": "native_env_steps_per_s",
        "native_bot_decisions": "native_heuristic_decisions_per_s",
        "native_vec_env": "native_vecenv_2p_steps_per_s",
    }
    if native.available():
        native_keys |= {key for member, key in optional.items() if hasattr(rules, member)}
    if "native" in rules.backends:  # the AEC env on the native backend beside the Python one
        native_keys.add("native_aec_env_steps_per_s")
    assert set(figures) == COMMON_KEYS | native_keys | {f"engine_{n}p" for n in counts}
    assert figures["game"] == game and figures["players"] == 2
    engines = {"python", "native"} if has_native else {"python"}
    for players in counts:
        assert set(figures[f"engine_{players}p"]) == engines
        for engine in figures[f"engine_{players}p"].values():
            assert engine["decisions_per_s"] > 0 and engine["games_per_s"] > 0
    if has_native:
        assert (
            figures["native_decisions_per_s"] == figures["engine_2p"]["native"]["decisions_per_s"]
        )
    for key in ("python_env_steps_per_s", "connect_four_env_steps_per_s"):
        assert figures[key] > 0
    bot = bot_name(game)
    assert figures["heuristic_bot"] == bot
    if bot is None:
        assert figures["python_heuristic_decisions_per_s"] is None
        assert figures["vecenv_opponents"] == "random"
    else:
        assert figures["python_heuristic_decisions_per_s"] > 0
        assert figures["vecenv_opponents"] == bot
    assert figures["python_vecenv_2p_steps_per_s"] > 0
    for key in native_keys:
        assert figures[key] > 0, key
    assert "connect_four_v3" in captured.err  # the table went to stderr


def test_bench_sections_and_players_are_chosen(capsys: pytest.CaptureFixture[str]) -> None:
    game = OTHER_GAMES[0]
    players = max(get_game(game).player_counts)
    argv = ["bench", "--game", game, "--only", "env", "--players", str(players), "--json"]
    assert main([*argv, "--seconds", "0.001"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["players"] == players
    assert "python_env_steps_per_s" in figures and "python_decisions_per_s" not in figures


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--only", "bots"], "unknown section(s) ['bots']"),
        (["--players", "9"], "--players: clockwork is played by 2, 3, 4, got 9"),
    ],
)
def test_bench_bad_choices_are_clear_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", "--game", "clockwork", *argv]) == 2
    assert message in capsys.readouterr().err


def test_bench_game_rejects_a_player_count_the_game_lacks() -> None:
    with pytest.raises(ValueError, match="clockwork: --players must be one of"):
        bench_game("clockwork", 0.001, num_players=7, log=lambda _text: None)


def test_choose_each_picks_a_legal_action_per_row_uniformly() -> None:
    masks = np.zeros((4000, 12), dtype=bool)
    masks[:, [1, 4, 11]] = True
    masks[7] = False  # a row without a legal action is left alone (-1)
    masks[9, :] = False
    masks[9, 0] = True
    chosen = choose_each(np.random.default_rng(0), masks)
    assert chosen.dtype == np.int32 and chosen[7] == -1 and chosen[9] == 0
    rows = np.flatnonzero(masks.any(axis=1))
    assert masks[rows, chosen[rows]].all()
    counts = np.bincount(chosen[chosen >= 0], minlength=12)
    assert set(np.flatnonzero(counts)) == {0, 1, 4, 11}
    assert min(counts[[1, 4, 11]]) > 1200  # each about a third of 3,998 draws
