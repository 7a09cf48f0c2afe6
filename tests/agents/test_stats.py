"""Statistics: Wilson intervals against known values, win shares, margins, seats, pooling."""

from __future__ import annotations

import math

import pytest

from agents.stats import Summary, summarize, wilson_interval


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        (50, 100, 0.4038, 0.5962),  # the textbook example
        (0, 10, 0.0, 0.2775),  # upper bound z^2 / (n + z^2)
        (10, 10, 0.7225, 1.0),
        (1, 10, 0.0179, 0.4042),
        (81, 263, 0.2553, 0.3662),  # a larger, uneven sample
    ],
)
def test_wilson_interval_matches_known_values(wins: int, games: int, low: float, high: float):
    got_low, got_high = wilson_interval(wins, games)
    assert got_low == pytest.approx(low, abs=5e-5)
    assert got_high == pytest.approx(high, abs=5e-5)


def test_wilson_interval_edges_and_symmetry():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(3, 20)
    mirror_low, mirror_high = wilson_interval(17, 20)
    assert low == pytest.approx(1 - mirror_high) and high == pytest.approx(1 - mirror_low)
    # Fractional successes (shared wins) sit between their neighbours.
    assert wilson_interval(2, 10)[0] < wilson_interval(2.5, 10)[0] < wilson_interval(3, 10)[0]
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def game(
    index: int,
    seats: list[str],
    scores: list[int],
    winners: list[int],
    seat_error: int | None = None,
) -> dict:
    """A hand-made game record in the arena's format."""
    record = {
        "type": "game",
        "game": index,
        "deal": index,
        "deal_seed": 100 + index,
        "seats": seats,
        "decisions": [10] * len(seats),
        "think_seconds": [0.01] * len(seats),
        "seconds": 0.1,
    }
    if seat_error is not None:
        record.update(
            scores=None,
            winners=None,
            ranks=None,
            error={
                "kind": "exception",
                "seat": seat_error,
                "agent": seats[seat_error],
                "message": "boom",
                "traceback": "",
            },
        )
    else:
        record.update(scores=scores, winners=winners)
    return record


def test_summary_counts_shared_wins_margins_and_seats():
    records = [
        game(0, ["a", "b"], [30, 20], [0]),
        game(1, ["b", "a"], [25, 25], [0, 1]),  # shared win (E3): half a win each
        game(2, ["a", "b"], [10, 40], [1]),
        game(3, ["b", "a"], [5, 9], [], seat_error=1),  # left out, charged to a
    ]
    summary = summarize(records)
    a, b = summary.agents["a"], summary.agents["b"]
    assert summary.games == 3 and len(summary.errors) == 1
    assert (a.games, a.wins, b.wins) == (3, 1.5, 1.5)
    assert a.win_rate == pytest.approx(0.5)
    assert a.mean_score == pytest.approx((30 + 25 + 10) / 3)
    assert a.mean_margin == pytest.approx((10 + 0 - 30) / 3)
    assert b.mean_margin == pytest.approx(-a.mean_margin)
    assert a.seat_games == [2, 1] and a.seat_wins == [1.0, 0.5]
    assert a.seat_win_rates == [0.5, 0.5]
    assert (a.errors, b.errors) == (1, 0)
    assert a.decisions == 30 and a.ms_per_decision == pytest.approx(1.0)
    low, high = wilson_interval(1.5, 3)
    assert summary.to_json() == {
        "games": 3,
        "agents": {
            "a": {"win_rate": 0.5, "ci_low": low, "ci_high": high, "mean_score": a.mean_score},
            "b": {"win_rate": 0.5, "ci_low": low, "ci_high": high, "mean_score": b.mean_score},
        },
    }


def test_copies_get_their_own_rows_and_a_pooled_row_counting_each_game_once():
    seats = ["h", "g", "g#2", "g#3"]
    records = [
        game(0, seats, [40, 10, 10, 10], [0]),
        game(1, seats, [10, 40, 20, 20], [1]),
        game(2, seats, [10, 30, 30, 5], [1, 2]),  # two copies share: the group wins once
        game(3, seats, [10, 5, 5, 30], [3]),
    ]
    summary = summarize(records, ["h", "g", "g#2", "g#3"])
    assert list(summary.agents) == ["h", "g", "g#2", "g#3"]
    pooled = summary.pooled["g"]
    assert pooled.copies == 3
    assert (pooled.games, pooled.wins) == (4, 3.0)
    assert summary.agents["g"].wins == 1.5 and summary.agents["g#2"].wins == 0.5
    assert pooled.mean_score == pytest.approx(
        (10 + 10 + 10 + 40 + 20 + 20 + 30 + 30 + 5 + 5 + 5 + 30) / 12
    )
    assert "h" not in summary.pooled


def test_empty_summary_is_safe():
    summary = summarize([], ["x"])
    assert summary.games == 0
    assert math.isnan(summary.agents["x"].win_rate)
    assert summary.to_json() == {
        "games": 0,
        "agents": {"x": {"win_rate": None, "ci_low": 0.0, "ci_high": 1.0, "mean_score": None}},
    }
    assert isinstance(summary, Summary)


def test_a_game_without_a_winner_counts_as_no_win_for_anyone() -> None:
    from agents.stats import summarize, win_shares

    record = {"seats": ["a", "b"], "winners": [], "scores": [3, 3], "seconds": 0.1}
    assert win_shares(record) == [0.0, 0.0]
    summary = summarize([record], ["a", "b"])
    assert summary.agents["a"].games == 1 and summary.agents["a"].win_rate == 0.0
