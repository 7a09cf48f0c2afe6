"""The arena and tournaments play a game's rules options (``--rules``, ``rules=``, ``rules:``):
every game is dealt with them on every path (Python, worker pool, native core, a Ray task's
chunk), the results file records them and a resume checks them, saved logs replay them, and a
bad option is refused before any game, naming the game and the option."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import airships_env.registry as registry
from agents import arena
from agents.cli.arena import main as arena_main
from agents.cli.common import parse_rules
from agents.results import read_results
from agents.rllib.arena import play_chunk
from agents.tournament import config_from_dict, run_tournament
from airships_env import native
from airships_env.configfile import ConfigError
from airships_env.game_log import parse_game_log, replay_log
from airships_env.registry import get_game

TIMINGS = ("think_seconds", "seconds")
FULL = {"full_game": True}
needs_core = pytest.mark.skipif(not native.available(), reason="the native core is not built")


def _untimed(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k not in TIMINGS} for r in records]


def test_every_game_is_dealt_with_the_rules_and_its_log_replays_them() -> None:
    """Saved logs (the Python path): the full game's windmill is placed in every game, and the
    log's header names the rules so that the replay is the same game."""
    game = get_game("australia")
    run = arena.run_arena(
        ["heuristic", "greedy"], 2, seed=1, workers=1, game="australia", rules=FULL, save_logs=True
    )
    assert run.played == 2 and not run.errors
    for record in run.records:
        header = record["log"][0]
        assert header["options"] == FULL and header["initial_state"]["options"]["full_game"]
        lines = [json.dumps(line) for line in record["log"]]
        replayed = replay_log(parse_game_log(lines), game).state
        assert replayed.options.full_game and replayed.windmill_region >= 0  # S6 placed it
        assert list(replayed.outcome().scores) == record["scores"]
    simple = arena.run_arena(
        ["heuristic", "greedy"], 2, seed=1, workers=1, game="australia", save_logs=True
    )
    assert simple.records[0]["log"][0]["options"] is None
    assert _untimed(simple.records) != _untimed(run.records)


@needs_core
@pytest.mark.parametrize(
    ("game", "specs", "rules"),
    [
        ("australia", ["heuristic", "greedy", "random"], FULL),
        ("australia", ["heuristic", "greedy"], {**FULL, "stack_cards": 8, "max_rounds": 30}),
        ("clockwork", ["heuristic", "greedy", "random"], {"discard_recall": "none"}),
        ("nippon", ["heuristic", "greedy"], {"majority_ties": "lower", "neutral_competes": False}),
        ("airships", ["heuristic", "greedy", "random"], {"hindenburg_any_order": False}),
    ],
)
def test_the_native_core_plays_the_rules_as_the_python_path_does(
    game: str, specs: list[str], rules: dict[str, Any]
) -> None:
    """Bot-only games go to the core; under the rules they give the Python path's records,
    and not the default rules' ones."""
    agent_specs = arena.label_agents(specs)
    assert arena.native_seats(agent_specs, game) is not None
    games = 2 * len(specs)
    run = arena.run_arena(specs, games, seed=5, paired=True, workers=1, game=game, rules=rules)
    schedule = arena.arena_schedule(list(agent_specs), games, seed=5, paired=True)
    python = arena._play_all(schedule, agent_specs, 5, False, 20_000, 1, game, rules)
    assert _untimed(run.records) == _untimed(sorted(python, key=lambda r: r["game"]))
    default = arena.run_arena(specs, games, seed=5, paired=True, workers=1, game=game)
    assert _untimed(run.records) != _untimed(default.records)


def test_the_worker_pool_and_a_ray_task_deal_the_rules() -> None:
    """Two worker processes and a Ray task's chunk (played here, without a cluster) give the
    records of one process."""
    specs = ["random", "greedy"]
    one, pool = (  # saved logs: the Python path
        arena.run_arena(specs, 4, seed=2, workers=n, game="australia", rules=FULL, save_logs=True)
        for n in (1, 2)
    )
    assert _untimed(pool.records) == _untimed(one.records)
    assert all(r["log"][0]["initial_state"]["options"]["full_game"] for r in pool.records)
    schedule = arena.arena_schedule(list(arena.label_agents(specs)), 4, seed=2)
    for save_logs in (True, False):  # the task's Python path, then its native one
        chunk = play_chunk(schedule, one.agent_specs, 2, save_logs, 20_000, "australia", FULL)
        unlogged = [{k: v for k, v in r.items() if k != "log"} for r in _untimed(one.records)]
        played = sorted(_untimed(chunk), key=lambda r: r["game"])
        assert [{k: v for k, v in r.items() if k != "log"} for r in played] == unlogged


@pytest.mark.parametrize(
    ("game", "rules", "message"),
    [
        ("australia", {"windmill": True}, r"Australia rules: .*unknown options \['windmill'\]"),
        ("australia", {"max_rounds": 0}, r"Australia rules: .*max_rounds: expected an integer"),
        ("australia", {"full_game": "yes"}, r"Australia rules: .*full_game: expected a bool"),
        ("clockwork", {"discard_recall": "some"}, r"Escape from .*rules: .*discard_recall"),
        ("nippon", {"ties": "lower"}, r"Nippon rules: .*unknown options \['ties'\]"),
        ("airships", {"stalemate_ends_game": 1}, r"Airships rules: .*'stalemate_ends_game'"),
    ],
)
def test_a_bad_rules_option_is_refused_before_any_game(
    game: str, rules: dict[str, Any], message: str, tmp_path: Path
) -> None:
    out = tmp_path / "r.jsonl"
    with pytest.raises(ValueError, match=message):
        arena.run_arena(["random", "random"], 2, workers=1, out=out, game=game, rules=rules)
    assert not out.exists()


def test_a_game_without_rules_options_refuses_any(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._TARGETS, "tricks", "tests.conformance.toy_game:GAME")
    with pytest.raises(ValueError, match="Hidden Tricks has no rules options; got full_game"):
        arena.run_arena(["random", "random"], 2, workers=1, game="tricks", rules=FULL)


def test_a_resume_checks_the_rules_and_an_old_file_resumes_as_the_default_rules(
    tmp_path: Path,
) -> None:
    specs = ["random", "greedy"]
    ruled = tmp_path / "full.jsonl"
    arena.run_arena(specs, 2, seed=3, workers=1, out=ruled, game="australia", rules=FULL)
    header, _ = read_results(ruled)
    assert header is not None and header["config"]["rules"] == FULL
    with pytest.raises(ValueError, match=r"different run.*rules: file has \{'full_game': True\}"):
        arena.run_arena(specs, 2, seed=3, workers=1, out=ruled, game="australia")
    again = arena.run_arena(specs, 2, seed=3, workers=1, out=ruled, game="australia", rules=FULL)
    assert again.played == 0

    # A file written before the arena took rules has no "rules" entry: the default rules.
    old = tmp_path / "old.jsonl"
    arena.run_arena(specs, 2, seed=3, workers=1, out=old, game="australia")
    header, _ = read_results(old)
    assert header is not None and "rules" not in header["config"]
    same = arena.run_arena(
        specs, 2, seed=3, workers=1, out=old, game="australia", rules={"full_game": False}
    )
    assert same.played == 0  # the defaults, named or not, are the same run
    with pytest.raises(ValueError, match=r"rules: file has None, now \{'full_game': True\}"):
        arena.run_arena(specs, 2, seed=3, workers=1, out=old, game="australia", rules=FULL)


def test_the_command_line_reads_and_records_the_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.jsonl"
    argv = ["--game", "australia", "--agents", "heuristic,greedy", "--games", "2", "--workers"]
    argv += ["1", "--no-progress", "--out", str(out), "--json"]
    assert arena_main([*argv, "--rules", "full_game=true,max_rounds=40"]) == 0
    header, records = read_results(out)
    assert header is not None and header["config"]["rules"] == {**FULL, "max_rounds": 40}
    assert len(records) == 2 and "full_game=true, max_rounds=40" in capsys.readouterr().err
    assert arena_main([*argv, "--rules", "full_game=true", "--rules", "max_rounds=40"]) == 0
    assert arena_main([*argv, "--rules", "windmill=true"]) == 2
    assert "arena: Australia rules: " in capsys.readouterr().err


def test_rules_text_is_key_value_pairs_of_json_scalars() -> None:
    assert parse_rules(["full_game=true,max_rounds=12", 'scrap_to="discards"']) == {
        "full_game": True,
        "max_rounds": 12,
        "scrap_to": "discards",
    }
    assert parse_rules(["discard_recall=none"]) == {"discard_recall": "none"}  # not JSON: text
    for texts, message in (
        (["full_game"], "expected KEY=VALUE, found 'full_game'"),
        (["=1"], "expected KEY=VALUE"),
        (["a=1", "a=2"], "a is given twice"),
        (["a=[1]"], "a: expected one value"),
    ):
        with pytest.raises(ValueError, match=message):
            parse_rules(texts)


def _tournament(**changes: Any) -> dict[str, Any]:
    config = {
        "game": "australia",
        "agents": ["random", "greedy", "heuristic"],
        "games": 2,
        "seed": 1,
        "rules": FULL,
    }
    config.update(changes)
    return config


def test_a_tournament_checks_records_and_plays_its_rules(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"t.yaml: rules: Australia rules: .*\['windmill'\]"):
        config_from_dict(_tournament(rules={"windmill": True}), "t.yaml")
    with pytest.raises(ConfigError, match=r"t.yaml: rules: Nippon rules: .*\['full_game'\]"):
        config_from_dict(_tournament(), "t.yaml").replace(game="nippon")
    config = config_from_dict(_tournament(), "t.yaml")
    result = run_tournament(config, workers=1, output=tmp_path, plots=False)
    header, records = read_results(tmp_path / "results.jsonl")
    assert header is not None and header["config"]["rules"] == FULL
    direct = arena.run_schedule(  # the round robin's game 0: random and greedy, deal 0
        arena.arena_schedule(["random", "greedy"], 2, seed=1, paired=True)[:1],
        {"random": "random", "greedy": "greedy"},
        seed=1,
        workers=1,
        game="australia",
        rules=FULL,
    )
    assert len(records) == len(result.records) == 6
    assert _untimed(result.records[:1]) == _untimed(direct)
    simple = config_from_dict(_tournament(rules={}), "t.yaml")
    with pytest.raises(ValueError, match=r"rules: file has \{'full_game': True\}, now None"):
        run_tournament(simple, workers=1, output=tmp_path, plots=False)


def test_evaluate_plays_a_policy_under_the_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``airships evaluate --rules``: the policy's games are dealt with the options, the results
    file records them, and a bad option is refused before any game."""
    from agents.cli.evaluate import main as evaluate_main

    model = Path("agents/models/australia/ppo_2p.zip")
    if not model.is_file():
        pytest.skip("no bundled Australia policy")
    argv = ["--model", str(model), "--opponents", "greedy", "--games", "2", "--workers", "1"]
    ruled, plain = tmp_path / "full.jsonl", tmp_path / "simple.jsonl"
    assert evaluate_main([*argv, "--out", str(ruled), "--rules", "full_game=true"]) == 0
    assert evaluate_main([*argv, "--out", str(plain)]) == 0
    header, records = read_results(ruled)
    assert header is not None and header["config"]["rules"] == FULL
    plain_header, plain_records = read_results(plain)
    assert plain_header is not None and "rules" not in plain_header["config"]
    assert [r["scores"] for r in records] != [r["scores"] for r in plain_records]
    capsys.readouterr()
    assert evaluate_main([*argv, "--rules", "windmill=true"]) == 2
    assert "evaluate: Australia rules: " in capsys.readouterr().err
