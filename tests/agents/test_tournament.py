"""Tournaments: config validation, schedules, ratings, head-to-head, a small full run."""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from agents.registry import AGENTS
from agents.tournament import (
    config_from_dict,
    head_to_head,
    load_config,
    print_report,
    rate_games,
    run_tournament,
    tournament_schedule,
)
from airships_env.policy import Decision, RandomPolicy

ROOT = Path(__file__).resolve().parents[2]


class FirstActionAgent:
    """Always the lowest legal action: a deterministic, weak player."""

    name = "first"

    def reset(self, seat: int, num_players: int, rng: np.random.Generator) -> None:
        """Nothing to reset."""

    def act(self, decision: Decision) -> int:
        """The first legal action."""
        return decision.legal_actions[0]


class FlakyAgent:
    """Random, but raises in its first decision of a quarter of its games."""

    name = "flaky"

    def __init__(self) -> None:
        self.inner = RandomPolicy()
        self.fail = False

    def reset(self, seat: int, num_players: int, rng: np.random.Generator) -> None:
        """Decide from the game's generator whether this game fails."""
        self.fail = bool(rng.random() < 0.25)
        self.inner.reset(seat, num_players, rng)

    def act(self, decision: Decision) -> int:
        """Random, or an error."""
        if self.fail:
            raise RuntimeError("flaky agent failed")
        return self.inner.act(decision)


def base_config(**changes: Any) -> dict[str, Any]:
    """A small valid config as a dict."""
    data: dict[str, Any] = {"players": 2, "games": 4, "seed": 3, "agents": ["random", "greedy"]}
    data.update(changes)
    return data


# ---------------------------------------------------------------------------------------------
# Configuration
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"player": 2}, r"t\.yaml: player: unknown key \(known: agents, game, players"),
        ({"players": 5}, r"t\.yaml: players: expected 2 to 4 \(the player counts of airships\)"),
        ({"players": 1}, r"t\.yaml: players: expected 2 to 4 .*, found 1"),
        ({"game": "chess"}, r"t\.yaml: game: expected one of the registered games \(airships"),
        ({"players": "two"}, r"t\.yaml: players: expected an integer, found 'two'"),
        ({"paired": 1}, r"t\.yaml: paired: expected true or false, found 1"),
        ({"games": True}, r"t\.yaml: games: expected an integer, found True"),
        ({"format": "swiss"}, r"t\.yaml: format: expected one of round_robin, pool"),
        ({"rating": "elo"}, r"t\.yaml: rating: expected one of plackett_luce"),
        ({"games": 0}, r"t\.yaml: games: expected an integer >= 1, found 0"),
        ({"agents": ["random", 3]}, r"t\.yaml: agents\[1\]: expected a spec string or a map"),
        ({"agents": ["random", {"name": "x"}]}, r"t\.yaml: agents\[1\]\.spec: missing"),
        ({"agents": ["random", {"spec": "greedy", "colour": 1}]}, r"agents\[1\]\.colour"),
        ({"agents": ["random", "mcts:400"]}, r"t\.yaml: agents\[1\]\.spec: .*not key=value"),
        ({"agents": ["random", "random"]}, r"t\.yaml: agents: expected distinct names"),
        ({"agents": ["random", "greedy"], "players": 3}, r"agents: 2 agents cannot fill 3"),
        ({"agents": []}, r"agents: 0 agents cannot fill 2"),
    ],
)
def test_config_errors_name_the_file_and_the_key(changes: dict[str, Any], message: str):
    with pytest.raises(ValueError, match=message):
        config_from_dict(base_config(**changes), "t.yaml")


def test_config_file_errors(tmp_path: Path):
    with pytest.raises(ValueError, match=r"missing\.yaml: no such config file"):
        load_config(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("agents: [random\n")
    with pytest.raises(ValueError, match=r"bad\.yaml: not valid YAML"):
        load_config(bad)
    bad.write_text("players: 2\n")
    with pytest.raises(ValueError, match=r"bad\.yaml: agents: missing"):
        load_config(bad)
    bad.write_text("")
    with pytest.raises(ValueError, match=r"bad\.yaml: the file is empty"):
        load_config(bad)


def test_default_config_is_valid_and_names_bundled_agents():
    config = load_config(ROOT / "configs" / "tournament.yaml")
    names = [entry.spec.partition(":")[0] for entry in config.agents]
    assert {"random", "greedy", "heuristic", "mcts"} <= set(names)
    assert set(names) <= set(AGENTS)
    assert all(entry.optional for entry in config.agents if entry.spec.startswith(("ppo", "az")))


# ---------------------------------------------------------------------------------------------
# Schedules
# ---------------------------------------------------------------------------------------------
def test_round_robin_plays_every_group_equally_on_shared_deals():
    config = config_from_dict(
        base_config(agents=["a.A", "b.B", "c.C", "d.D"], games=4, paired=True)
    )
    names = ["a", "b", "c", "d"]
    schedule = tournament_schedule(names, config)
    assert [s.game for s in schedule] == list(range(24))  # 6 pairs x 4 games
    pairs = Counter(frozenset(s.seats) for s in schedule)
    assert set(pairs.values()) == {4} and len(pairs) == 6
    seats = Counter((label, seat) for s in schedule for seat, label in enumerate(s.seats))
    assert set(seats.values()) == {6}  # each agent: 3 opponents x 2 games per seat
    deals_by_pair = {
        pair: sorted(s.deal_seed for s in schedule if frozenset(s.seats) == pair) for pair in pairs
    }
    reference = deals_by_pair[frozenset({"a", "b"})]
    assert len(set(reference)) == 2  # 2 deals, each under both seatings
    assert all(deals == reference for deals in deals_by_pair.values())


def test_pool_format_draws_distinct_agents_per_block():
    config = config_from_dict(
        base_config(agents=["a.A", "b.B", "c.C", "d.D", "e.E"], players=3, format="pool", games=30)
    )
    schedule = tournament_schedule(["a", "b", "c", "d", "e"], config)
    assert len(schedule) == 30
    assert all(len(set(s.seats)) == 3 for s in schedule)
    for block in range(10):
        games = schedule[3 * block : 3 * block + 3]
        assert len({frozenset(s.seats) for s in games}) == 1
        assert len({s.deal_seed for s in games}) == 1  # paired by default
    assert len({frozenset(s.seats) for s in schedule}) > 3
    assert tournament_schedule(["a", "b", "c", "d", "e"], config) == schedule


# ---------------------------------------------------------------------------------------------
# Ratings and head-to-head
# ---------------------------------------------------------------------------------------------
def finished(index: int, seats: list[str], ranks: list[int]) -> dict[str, Any]:
    """A finished game record with the given places."""
    return {
        "game": index,
        "seats": seats,
        "ranks": ranks,
        "scores": [10 - r for r in ranks],
        "winners": [i for i, r in enumerate(ranks) if r == 1],
    }


def test_ratings_order_a_consistent_ranking_and_treat_shared_wins_as_ties():
    records = [
        finished(i, ["a", "b", "c"][i % 3 :] + ["a", "b", "c"][: i % 3], [0, 0, 0])
        for i in range(30)
    ]
    for record in records:  # a always first, then b, then c, whatever the seats
        record["ranks"] = [{"a": 1, "b": 2, "c": 3}[name] for name in record["seats"]]
    ratings = rate_games(records, ["a", "b", "c"])
    assert ratings["a"].ordinal > ratings["b"].ordinal > ratings["c"].ordinal
    assert all(r.sigma < 8.3 for r in ratings.values())
    ties = [finished(i, ["x", "y"], [1, 1]) for i in range(10)]
    tied = rate_games(ties, ["x", "y"])
    assert tied["x"].mu == pytest.approx(tied["y"].mu)
    with_error = [
        *records,
        {"game": 99, "seats": ["c", "a", "b"], "ranks": None, "error": {"kind": "exception"}},
    ]
    assert rate_games(with_error, ["a", "b", "c"]) == ratings


def test_ratings_do_not_depend_on_the_order_records_come_in():
    records = [
        finished(i, ["a", "b"] if i % 2 else ["b", "a"], [1, 2] if i % 3 else [2, 1])
        for i in range(12)
    ]
    assert rate_games(records[::-1], ["a", "b"]) == rate_games(records, ["a", "b"])
    assert rate_games(records[::-1], ["a", "b"], orders=1) == rate_games(
        records, ["a", "b"], orders=1
    )


def test_ratings_over_many_orders_hardly_depend_on_the_game_order():
    # b beats a in 2 of 3 games, but a's wins all come last: one online pass is fooled by the
    # order, the average over orders is not.
    records = [finished(i, ["a", "b"], [2, 1]) for i in range(20)]
    records += [finished(20 + i, ["a", "b"], [1, 2]) for i in range(10)]
    single = rate_games(records, ["a", "b"], orders=1)
    averaged = rate_games(records, ["a", "b"], orders=32)
    assert single["a"].mu > single["b"].mu
    assert averaged["b"].mu > averaged["a"].mu
    assert averaged["a"].sigma >= single["a"].sigma * 0.9


def test_trueskill_needs_its_package():
    if importlib.util.find_spec("trueskill") is None:
        with pytest.raises(ValueError, match=r"rating: 'trueskill' needs the trueskill package"):
            config_from_dict(base_config(rating="trueskill"), "t.yaml")
    else:
        records = [finished(i, ["a", "b"], [1, 2]) for i in range(10)]
        ratings = rate_games(records, ["a", "b"], "trueskill", orders=2)
        assert ratings["a"].mu > ratings["b"].mu


def test_head_to_head_counts_places_with_ties_as_halves():
    records = [
        finished(0, ["a", "b", "c"], [1, 2, 3]),
        finished(1, ["b", "a", "c"], [1, 1, 3]),
        finished(2, ["a", "b"], [2, 1]),
    ]
    rate, count = head_to_head(records, ["a", "b", "c", "d"])
    assert count[0, 1] == 3 and rate[0, 1] == pytest.approx((1 + 0.5 + 0) / 3)
    assert rate[1, 0] == pytest.approx(1 - rate[0, 1])
    assert rate[0, 2] == 1.0 and count[0, 2] == 2
    assert np.isnan(rate[0, 3]) and count[0, 3] == 0


# ---------------------------------------------------------------------------------------------
# A full (small) tournament
# ---------------------------------------------------------------------------------------------
def test_small_tournament_survives_a_failing_agent_and_writes_its_outputs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    agents = [
        "random",
        {"name": "first", "spec": f"{__name__}.FirstActionAgent"},
        {"name": "flaky", "spec": f"{__name__}.FlakyAgent"},
        {"name": "ghost", "spec": "ppo:path=no/such/model.zip", "optional": True},
    ]
    config = config_from_dict(base_config(agents=agents, games=6, name="mini"), "mini.yaml")
    result = run_tournament(config, workers=1, output=tmp_path)
    assert result.names == ["random", "first", "flaky"]
    assert any("ghost" in note for note in result.notes)
    assert len(result.records) == 18
    errors = result.summary.errors
    assert errors and all(r["error"]["agent"] == "flaky" for r in errors)
    assert result.summary.games == 18 - len(errors)
    assert sorted(result.leaderboard()) == ["first", "flaky", "random"]
    for name in ("results.jsonl", "leaderboard.json", "ratings.png", "pairwise.png"):
        path = tmp_path / name
        assert path.exists() and path.stat().st_size > 0
    assert (tmp_path / "ratings.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    print_report(result)
    out = capsys.readouterr().out
    assert "mini: 2-player round_robin" in out and "flaky agent failed" in out
    assert f"deal seed {errors[0]['deal_seed']}" in out

    again = run_tournament(config, workers=1, output=tmp_path, plots=False)  # resumed: no games
    assert again.ratings == result.ratings
