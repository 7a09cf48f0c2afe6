"""The arena: exact seat rotation and pairing, resume, parallel determinism, hidden information,
failing agents, and the command line's JSON."""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import agents.arena as arena
from agents.arena import (
    MAX_STEPS,
    arena_config,
    arena_schedule,
    deal_seed,
    label_agents,
    play_game,
    read_results,
    results_line,
    round_up_games,
    run_arena,
    run_schedule,
    seat_arrangements,
)
from agents.registry import make_agent
from agents.stats import summarize
from airships_env.engine import GameState, new_game
from airships_env.policy import Decision, RandomPolicy
from airships_env.registry import get_game
from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
TIMING = ("seconds", "think_seconds")


# ---------------------------------------------------------------------------------------------
# Test agents (built by dotted path, so worker processes can build them too)
# ---------------------------------------------------------------------------------------------
class RaisingAgent:
    """Random, but in a ``fail_rate`` share of its games it raises on its third turn."""

    name = "raising"

    def __init__(self, fail_rate: float = 0.3):
        self.fail_rate = fail_rate
        self.inner = RandomPolicy()
        self.fail = False

    def reset(self, seat: int, num_players: int, rng: np.random.Generator) -> None:
        """Decide from the game's generator whether this game fails."""
        self.fail = bool(rng.random() < self.fail_rate)
        self.inner.reset(seat, num_players, rng)

    def act(self, decision: Decision) -> int:
        """Random, or boom."""
        if self.fail and decision.view.turn >= 3:
            raise RuntimeError("boom")
        return self.inner.act(decision)


class IllegalAgent(RaisingAgent):
    """Answers with an action that is not legal instead of raising."""

    name = "illegal"

    def act(self, decision: Decision) -> int:
        """Random, or an action outside the table."""
        if self.fail and decision.view.turn >= 3:
            return 999
        return self.inner.act(decision)


class SpyAgent:
    """Plays like ``inner`` (greedy games end before the deck runs out); records everything it
    is given."""

    name = "spy"

    def __init__(self, inner: str = "greedy") -> None:
        self.inner = make_agent(inner)
        self.seen: list[Any] = []
        self.with_observation = importlib.util.find_spec("airships_env.observation") is not None

    def reset(self, seat: int, num_players: int, rng: np.random.Generator) -> None:
        """Record the reset and keep the generator."""
        self.seen.append(("reset", seat, num_players))
        self.inner.reset(seat, num_players, rng)

    def act(self, decision: Decision) -> int:
        """Record the decision's content, then play randomly."""
        view = decision.view
        assert view.rng is None and view.is_public_view
        entry = [
            decision.seat,
            tuple(decision.legal_actions),
            view.to_dict(),
            decision.action_mask.tobytes(),
        ]
        if self.with_observation:
            entry.append(decision.observation.tobytes())
        self.seen.append(entry)
        return self.inner.act(decision)


def spec_of(cls: type, options: str = "") -> str:
    """The dotted-path spec of a test agent class."""
    return f"{__name__}.{cls.__name__}" + (f":{options}" if options else "")


def stripped(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Records without their timing fields (which differ from run to run)."""
    return [{k: v for k, v in r.items() if k not in TIMING} for r in records]


# ---------------------------------------------------------------------------------------------
# Seat rotation and pairing
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "seating"), [(2, "cyclic"), (3, "cyclic"), (4, "cyclic"), (3, "all"), (4, "all")]
)
def test_every_agent_plays_every_seat_equally(players: int, seating: str):
    labels = [f"agent{i}" for i in range(players)]
    block = len(seat_arrangements(players, seating))
    assert block == (players if seating == "cyclic" else [1, 1, 2, 6, 24][players])
    games = 3 * block
    schedule = arena_schedule(labels, games, seed=1, seating=seating)
    counts = Counter((label, seat) for spec in schedule for seat, label in enumerate(spec.seats))
    per_seat = 3 * block // players
    assert counts == {(label, seat): per_seat for label in labels for seat in range(players)}
    assert all(sorted(spec.seats) == labels for spec in schedule)
    if seating == "all":  # every ordering around the table equally often
        assert Counter(spec.seats for spec in schedule) == {
            order: 3
            for order in {tuple(labels[i] for i in p) for p in seat_arrangements(players, "all")}
        }


def test_games_are_rounded_up_to_whole_rotations():
    assert round_up_games(10, 3) == 12 and round_up_games(12, 3) == 12
    assert round_up_games(1, 4, "all") == 24
    with pytest.raises(ValueError, match="multiple"):
        arena_schedule(["a", "b", "c"], 10)
    assert len(run_arena(["random", "random", "random"], 2, workers=1).records) == 3


def test_paired_deals_are_replayed_under_every_rotation():
    labels = ["a", "b", "c"]
    paired = arena_schedule(labels, 12, seed=7, paired=True)
    by_deal: dict[int, list] = {}
    for spec in paired:
        by_deal.setdefault(spec.deal, []).append(spec)
    assert sorted(by_deal) == [0, 1, 2, 3]
    for deal, specs in by_deal.items():
        assert {s.deal_seed for s in specs} == {deal_seed(7, deal)}
        assert sorted(s.seats for s in specs) == sorted(
            tuple(labels[i] for i in order) for order in seat_arrangements(3)
        )
    unpaired = arena_schedule(labels, 12, seed=7)
    assert len({s.deal_seed for s in unpaired}) == 12
    assert deal_seed(7, 0) != deal_seed(8, 0)


def test_paired_games_start_from_identical_deals_and_dice():
    run = run_arena(["random", "greedy"], 4, seed=11, paired=True, workers=1, save_logs=True)
    starts: dict[int, list] = {}
    for record in run.records:
        header = record["log"][0]
        assert header["type"] == "header"
        starts.setdefault(record["deal"], []).append(
            (tuple(record["seats"]), header["initial_state"])
        )
    assert len(starts) == 2
    for games in starts.values():
        (seats_a, state_a), (seats_b, state_b) = games
        assert seats_a == tuple(reversed(seats_b))
        assert state_a == state_b  # deck, stacks, board and the dice generator's state
    first, second = (games[0][1] for games in starts.values())
    assert first["deck"] != second["deck"]


def test_places_follow_the_winners_then_score_then_airships():
    run = run_arena(["random", "greedy", "random", "greedy"], 8, seed=4, workers=1)
    for record in run.records:
        ranks, winners = record["ranks"], record["winners"]
        assert [seat for seat, rank in enumerate(ranks) if rank == 1] == winners
        keys = list(zip(record["scores"], record["airships"], strict=True))
        for a in range(4):
            for b in range(4):
                if a not in winners and b not in winners and keys[a] > keys[b]:
                    assert ranks[a] < ranks[b]
                if keys[a] == keys[b]:
                    assert ranks[a] == ranks[b]


def test_copies_of_an_agent_get_distinct_labels():
    assert list(label_agents(["heuristic", "greedy", "greedy", "greedy"])) == [
        "heuristic",
        "greedy",
        "greedy#2",
        "greedy#3",
    ]
    with pytest.raises(ValueError, match="2 to 4 agents"):
        run_arena(["random"], 2, workers=1)


# ---------------------------------------------------------------------------------------------
# Results file: resume, configuration check, determinism across workers
# ---------------------------------------------------------------------------------------------
def test_resumed_run_gives_the_same_results_as_an_uninterrupted_one(tmp_path: Path):
    specs, games, seed = ["random", "greedy"], 12, 3
    full = run_arena(specs, games, seed=seed, workers=1, out=tmp_path / "full.jsonl")

    part = tmp_path / "part.jsonl"
    agent_specs = label_agents(specs)
    schedule = arena_schedule(list(agent_specs), games, seed=seed)
    config = arena_config(
        agent_specs,
        games,
        seed=seed,
        paired=False,
        seating="cyclic",
        save_logs=False,
        max_steps=MAX_STEPS,
    )
    finished: list[int] = []

    def crash_after_five(record: dict[str, Any]) -> None:
        finished.append(record["game"])
        if len(finished) == 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_schedule(
            schedule,
            agent_specs,
            seed=seed,
            config=config,
            out=part,
            workers=1,
            on_record=crash_after_five,
        )
    with open(part, "a", encoding="utf-8") as handle:  # a line torn by the crash
        handle.write('{"type":"game","game":5,"sco')
    assert len(read_results(part)[1]) == 5

    resumed = run_arena(specs, games, seed=seed, workers=1, out=part)
    assert resumed.played == games - 5
    assert stripped(resumed.records) == stripped(full.records)
    assert summarize(resumed.records).to_json() == summarize(full.records).to_json()
    header, records = read_results(part)
    assert header is not None and sorted(r["game"] for r in records) == list(range(games))
    assert part.read_text().count("\n") == games + 1

    again = run_arena(specs, games, seed=seed, workers=1, out=part)  # nothing left to play
    assert again.played == 0 and stripped(again.records) == stripped(full.records)


def test_resuming_with_other_settings_is_refused(tmp_path: Path):
    out = tmp_path / "r.jsonl"
    run_arena(["random", "random"], 2, seed=1, workers=1, out=out)
    with pytest.raises(ValueError, match=r"different run.*seed: file has 1, now 2"):
        run_arena(["random", "random"], 2, seed=2, workers=1, out=out)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "something else"}\n')
    with pytest.raises(ValueError, match="not an airships results file"):
        run_arena(["random", "random"], 2, workers=1, out=bad)


def test_results_do_not_depend_on_the_number_of_workers():
    specs = ["random", spec_of(RaisingAgent, "fail_rate=0.3")]
    one = run_arena(specs, 16, seed=5, workers=1)
    two = run_arena(specs, 16, seed=5, workers=2)
    assert [r["game"] for r in two.records] == list(range(16))
    assert stripped(one.records) == stripped(two.records)
    assert one.errors and len(one.errors) < 16  # errors cross the process boundary too


# ---------------------------------------------------------------------------------------------
# Agents see public information only
# ---------------------------------------------------------------------------------------------
def _unreached_variant(original: GameState, reveals: int) -> GameState | None:
    """The same deal with the never-revealed part of the deck and the airships left out of
    the game in another order; None if that part has no two cards of one era to swap."""
    era_one = set(original.cards.expansions_of_era(1))
    unreached = len(original.deck) - reveals
    variant = original.clone()  # same generator state: same dice
    deck = variant.deck
    for group in (lambda c: c in era_one, lambda c: c >= 0 and c not in era_one):
        positions = [i for i in range(unreached) if group(deck[i])]
        if len(positions) >= 2:
            first, last = positions[0], positions[-1]
            deck[first], deck[last] = deck[last], deck[first]
            variant.left_out.reverse()
            return variant
    return None


def test_a_saved_airships_log_is_a_log_file_the_replay_reads(tmp_path: Path):
    """The lines of an arena record's log are Airships' own log lines (typed action lines):
    written out, ``read_log`` takes them and the replay ends where the game ended."""
    from airships_env.engine.log import read_log

    run = run_arena(["greedy", "random"], 2, seed=5, workers=1, save_logs=True)
    for record in run.records:
        path = tmp_path / f"game-{record['game']}.jsonl"
        path.write_text("".join(json.dumps(line) + "\n" for line in record["log"]))
        log = read_log(path)
        assert len(log.records) == record["steps"]
        state = log.replay()
        assert state.is_terminal() and list(state.outcome().scores) == record["scores"]


def test_agents_never_receive_hidden_information(monkeypatch: pytest.MonkeyPatch):
    for seed in range(30):
        spec = arena.GameSpec(0, 0, seed, ("spy", "spy#2"))
        spies = {"spy": SpyAgent(), "spy#2": SpyAgent()}
        record = play_game(spec, spies, seed=1, save_log=True)
        reveals = sum(len(line["reveals"]) for line in record["log"][1:])
        original = new_game(2, seed=seed)
        variant = _unreached_variant(original, reveals)
        if variant is not None:
            break
    else:
        pytest.fail("no deal left two cards of one era unrevealed")
    assert variant.deck != original.deck and variant.left_out != original.left_out

    # the same game but for the hidden order: the arena asks the game for its deal
    monkeypatch.setattr(get_game("airships"), "new_state", lambda *_, **__: variant.clone())
    twins = {"spy": SpyAgent(), "spy#2": SpyAgent()}
    twin_record = play_game(spec, twins, seed=1)
    assert twin_record["scores"] == record["scores"]
    for label in spies:  # identical inputs, decision by decision, despite the hidden order
        assert len(spies[label].seen) > 10
        assert twins[label].seen == spies[label].seen


def test_decisions_from_states_with_the_same_public_history_are_identical():
    from airships_env.engine import determinize

    state = new_game(3, seed=21)
    rng = np.random.default_rng(0)
    checked = 0
    while not state.is_terminal() and checked < 60:
        other = determinize(state, rng)  # the hidden cards re-dealt, another generator
        mine, theirs = Decision.from_state(state), Decision.from_state(other)
        assert mine.view.to_dict() == theirs.view.to_dict()
        assert mine.view.to_dict()["rng"] is None
        assert (mine.seat, mine.legal_actions) == (theirs.seat, theirs.legal_actions)
        checked += 1
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    assert checked >= 30


# ---------------------------------------------------------------------------------------------
# Failing agents
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("cls", "kind", "text"),
    [(RaisingAgent, "exception", "boom"), (IllegalAgent, "illegal action", "999")],
)
def test_a_failing_agent_is_reported_with_its_seed_and_the_run_goes_on(cls, kind, text):
    bad = spec_of(cls, "fail_rate=0.4")
    run = run_arena(["random", bad], 20, seed=2, workers=1)
    assert len(run.records) == 20
    errors = run.errors
    assert 0 < len(errors) < 20
    for record in errors:
        error = record["error"]
        assert error["kind"] == kind and text in error["message"]
        assert error["agent"] == bad and record["seats"][error["seat"]] == bad
        assert record["deal_seed"] == deal_seed(2, record["deal"])
        assert record["scores"] is None
        if kind == "exception":
            assert "RuntimeError: boom" in error["traceback"]
    finished = [r for r in run.records if not r.get("error")]
    assert all(r["scores"] is not None and r["winners"] for r in finished)
    summary = summarize(run.records, run.labels)
    assert summary.games == len(finished) and summary.agents[bad].errors == len(errors)


def test_a_game_that_does_not_end_is_an_error():
    run = run_arena(["random", "random"], 2, workers=1, max_steps=5)
    assert [r["error"]["kind"] for r in run.records] == ["no end", "no end"]


# ---------------------------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------------------------
def test_arena_command_json_is_the_last_line(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    script = load_script("arena")
    status = script.main(
        [
            "--agents",
            "random,random",
            "--players",
            "2",
            "--games",
            "6",
            "--workers",
            "1",
            "--json",
            "--no-progress",
            "--out",
            str(tmp_path / "r.jsonl"),
            "--report",
            str(tmp_path / "report.json"),
        ]
    )
    assert status == 0
    lines = capsys.readouterr().out.strip().splitlines()
    data = json.loads(lines[-1])
    assert set(data) == {"games", "agents"} and data["games"] == 6
    assert set(data["agents"]) == {"random", "random#2"}
    for figures in data["agents"].values():
        assert set(figures) == {"win_rate", "ci_low", "ci_high", "mean_score"}
        assert figures["ci_low"] <= figures["win_rate"] <= figures["ci_high"]
    assert data["agents"]["random"]["win_rate"] + data["agents"]["random#2"]["win_rate"] == (
        pytest.approx(1.0)
    )
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["agents"]["random"]["seat_games"] == [3, 3]

    assert script.main(["--agents", "random,random", "--players", "3", "--workers", "1"]) == 2
    assert "one agent per seat" in capsys.readouterr().err
    assert script.main(["--agents", "nosuch,random", "--workers", "1", "--no-progress"]) == 2
    assert "unknown agent 'nosuch'" in capsys.readouterr().err


def test_bot_only_games_in_the_native_core_give_the_python_records() -> None:
    """Every agent has a native twin: the arena plays in the core, with the same results."""
    from agents import arena
    from airships_env import native

    if not native.available():
        pytest.skip("the native core is not built")
    specs = ["heuristic", "greedy", "random"]
    agent_specs = arena.label_agents(specs)
    assert arena.native_seats(agent_specs) is not None
    assert arena.native_seats(arena.label_agents(["mcts", "random"])) is None
    run = arena.run_arena(specs, 30, seed=5, paired=True)
    schedule = arena.arena_schedule(list(agent_specs), 30, seed=5, paired=True)
    python = sorted(
        arena._play_all(schedule, agent_specs, 5, False, 20_000, 1), key=lambda r: r["game"]
    )
    timings = ("think_seconds", "seconds")
    for ours, theirs in zip(run.records, python, strict=True):
        assert {k: v for k, v in ours.items() if k not in timings} == {
            k: v for k, v in theirs.items() if k not in timings
        }


FAIL_SPEC = spec_of(RaisingAgent, "fail_rate=0.5")


def _rewrite_line(path: Path, number: int, change: Callable[[dict[str, Any]], None]) -> None:
    """Edit game line ``number`` (1-based, the header is line 1) and, like a careful forger,
    give it the digest of its new content."""
    lines = path.read_text().splitlines(keepends=True)
    record = json.loads(lines[number - 1])
    change(record)
    record.pop("digest")
    lines[number - 1] = results_line(record)
    path.write_text("".join(lines))


def _results_file(tmp_path: Path, name: str = "r.jsonl") -> Path:
    out = tmp_path / name
    run_arena(["random", "greedy"], 6, seed=4, workers=1, out=out)
    return out


def test_an_edited_score_is_named_by_line_and_field(tmp_path: Path):
    out = _results_file(tmp_path)
    lines = out.read_text().splitlines(keepends=True)
    record = json.loads(lines[2])
    loser = record["ranks"].index(max(record["ranks"]))
    # a hand edit that keeps the line valid JSON but forgets the digest
    record["scores"][loser] -= 1
    lines[2] = json.dumps(record) + "\n"
    out.write_text("".join(lines))
    with pytest.raises(ValueError, match=r"r\.jsonl: line 3: game 1: the line was changed after"):
        read_results(out)
    with pytest.raises(ValueError, match=r"line 3: game 1: the line was changed"):
        run_arena(["random", "greedy"], 6, seed=4, workers=1, out=out)

    out = _results_file(tmp_path, "winner.jsonl")  # a loser's score raised above the winner's
    _rewrite_line(out, 3, lambda r: r["scores"].__setitem__(loser, max(r["scores"]) + 5))
    with pytest.raises(ValueError, match=r"line 3: game 1: winners: .* do not follow from scores"):
        read_results(out)

    out = _results_file(tmp_path, "ranks.jsonl")
    _rewrite_line(out, 4, lambda r: r.__setitem__("ranks", [1] * len(r["ranks"])))
    with pytest.raises(ValueError, match=r"line 4: game 2: (ranks|winners): "):
        read_results(out)


def test_a_duplicated_line_is_named_with_both_lines(tmp_path: Path):
    out = _results_file(tmp_path)
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join([*lines, lines[2]]))
    with pytest.raises(
        ValueError, match=r"line 8: game 1: the game is recorded twice \(lines 3 and 8\)"
    ):
        run_arena(["random", "greedy"], 6, seed=4, workers=1, out=out)


def test_a_resumed_file_is_checked_against_the_schedule(tmp_path: Path):
    out = _results_file(tmp_path)
    _rewrite_line(out, 2, lambda r: r.__setitem__("deal_seed", r["deal_seed"] + 1))
    with pytest.raises(
        ValueError, match=r"line 2: game 0: deal_seed: the file has \d+, the schedule"
    ):
        run_arena(["random", "greedy"], 6, seed=4, workers=1, out=out)
    out = _results_file(tmp_path, "seats.jsonl")
    _rewrite_line(out, 2, lambda r: r.__setitem__("seats", r["seats"][::-1]))
    with pytest.raises(
        ValueError, match=r"line 2: game 0: seats: the file has \['greedy', 'random'\]"
    ):
        run_arena(["random", "greedy"], 6, seed=4, workers=1, out=out)
    out = _results_file(tmp_path, "index.jsonl")
    _rewrite_line(out, 2, lambda r: r.__setitem__("game", 99))
    with pytest.raises(ValueError, match=r"line 2: game 99: game: the schedule has no game"):
        run_arena(["random", "greedy"], 6, seed=4, workers=1, out=out)


def test_a_version_1_file_without_digests_still_resumes(tmp_path: Path):
    full = _results_file(tmp_path)
    lines = full.read_text().splitlines()
    header = json.loads(lines[0])
    header["version"] = 1
    games = [json.loads(line) for line in lines[1:4]]
    for record in games:
        del record["digest"]
    old = tmp_path / "old.jsonl"
    old.write_text("".join(json.dumps(x) + "\n" for x in [header, *games]))
    resumed = run_arena(["random", "greedy"], 6, seed=4, workers=1, out=old)
    assert resumed.played == 3
    assert stripped(read_results(old)[1]) == stripped(read_results(full)[1])
    no_digest = tmp_path / "no_digest.jsonl"  # a version 2 file must have them
    no_digest.write_text("".join(json.dumps(x) + "\n" for x in [json.loads(lines[0]), games[0]]))
    with pytest.raises(ValueError, match=r"line 2: game 0: digest: missing"):
        read_results(no_digest)


# ---------------------------------------------------------------------------------------------
# Errored games: not recorded as finished, retried on a re-run, a non-zero exit status
# ---------------------------------------------------------------------------------------------
def test_errored_games_are_not_recorded_and_are_retried(tmp_path: Path):
    out = tmp_path / "r.jsonl"
    first = run_arena(["random", FAIL_SPEC], 12, seed=3, workers=1, out=out)
    failed = {r["game"] for r in first.errors}
    assert failed and len(failed) < 12
    _header, written = read_results(out)
    assert {r["game"] for r in written} == set(range(12)) - failed
    assert not any(r.get("error") for r in written)
    again = run_arena(["random", FAIL_SPEC], 12, seed=3, workers=1, out=out)
    assert again.played == len(failed)  # only the errored games are played again


def test_arena_command_exits_non_zero_when_games_errored(capsys, tmp_path: Path):
    main = load_script("arena").main

    out = tmp_path / "r.jsonl"
    argv = ["--agents", f"random,{FAIL_SPEC}", "--games", "8", "--workers", "1"]
    status = main([*argv, "--no-progress", "--json", "--out", str(out)])
    captured = capsys.readouterr()
    assert status == 1
    assert "ended in an error" in captured.err and "run again to retry" in captured.err
    json.loads(captured.out.strip().splitlines()[-1])
    assert main(["--agents", "random,random", "--games", "2", "--workers", "1"]) == 0
