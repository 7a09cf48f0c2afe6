"""Honest statistics over game records: win rates with Wilson intervals, scores, margins, seats.

Counting rules:

- a shared win (E3: equal score and airships) counts as ``1/k`` of a win for each of the ``k``
  winners, so the win shares of one game always add up to 1;
- the margin is the agent's score minus the best score among the other players;
- games that ended in an error are left out of every figure and counted apart (per agent, the
  errors that agent caused);
- copies of one agent (``greedy``, ``greedy#2``...) each get their own row; the *pooled* row of
  a base name counts each game once, with the group's combined win share (so its Wilson interval
  rests on independent games, not on correlated seats), and averages score and margin over
  the copies' seats.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

#: The two-sided 95% normal quantile.
Z95 = 1.959963984540054


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion; ``(0, 1)`` for no trials. ``successes`` may be
    fractional (shared wins)."""
    if trials <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be within 0..{trials}, got {successes}")
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


def win_shares(record: dict[str, Any]) -> list[float]:
    """Each seat's share of the win in one finished game (1/k for each of k winners; a game
    with no winner, which a game's rules may end in, gives every seat 0)."""
    winners = record["winners"]
    if not winners:
        return [0.0] * len(record["seats"])
    share = 1.0 / len(winners)
    return [share if seat in winners else 0.0 for seat in range(len(record["seats"]))]


def margins(record: dict[str, Any]) -> list[int]:
    """Each seat's score minus the best score of the other seats."""
    scores = record["scores"]
    return [
        score - max(s for other, s in enumerate(scores) if other != seat)
        for seat, score in enumerate(scores)
    ]


@dataclass
class AgentStats:
    """The figures of one agent (or of a pooled group of copies)."""

    label: str
    games: int = 0
    wins: float = 0.0
    score_total: float = 0.0
    margin_total: float = 0.0
    seats_played: int = 0  # seat-games counted in the score and margin totals
    seat_games: list[int] = field(default_factory=list)
    seat_wins: list[float] = field(default_factory=list)
    decisions: int = 0
    think_seconds: float = 0.0
    errors: int = 0
    copies: int = 1

    @property
    def win_rate(self) -> float:
        """Wins (shared wins as fractions) per game; NaN without games."""
        return self.wins / self.games if self.games else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        """The Wilson 95% interval of the win rate."""
        return wilson_interval(self.wins, self.games)

    @property
    def mean_score(self) -> float:
        """Mean final score; NaN without games."""
        return self.score_total / self.seats_played if self.seats_played else math.nan

    @property
    def mean_margin(self) -> float:
        """Mean score minus the best other score; NaN without games."""
        return self.margin_total / self.seats_played if self.seats_played else math.nan

    @property
    def seat_win_rates(self) -> list[float]:
        """Win rate in each seat (NaN for a seat never played)."""
        return [
            w / g if g else math.nan for w, g in zip(self.seat_wins, self.seat_games, strict=True)
        ]

    @property
    def ms_per_decision(self) -> float:
        """Mean time per decision in milliseconds; NaN without decisions."""
        return 1000 * self.think_seconds / self.decisions if self.decisions else math.nan

    def to_dict(self) -> dict[str, Any]:
        """Every figure as plain JSON data (NaN becomes None)."""
        low, high = self.interval
        return _json_safe(
            {
                "games": self.games,
                "wins": self.wins,
                "win_rate": self.win_rate,
                "ci_low": low,
                "ci_high": high,
                "mean_score": self.mean_score,
                "mean_margin": self.mean_margin,
                "seat_games": self.seat_games,
                "seat_win_rates": self.seat_win_rates,
                "decisions": self.decisions,
                "ms_per_decision": self.ms_per_decision,
                "errors": self.errors,
                "copies": self.copies,
            }
        )


@dataclass
class Summary:
    """Per-agent figures over a set of game records."""

    games: int
    players: int
    agents: dict[str, AgentStats]
    pooled: dict[str, AgentStats]
    errors: list[dict[str, Any]]
    seconds: float = 0.0  # total wall time of the games, summed over games

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` object: ``{"games": n, "agents": {label: {win_rate, ci_low, ci_high,
        mean_score}}}``."""
        agents = {}
        for label, stats in self.agents.items():
            low, high = stats.interval
            agents[label] = {
                "win_rate": stats.win_rate,
                "ci_low": low,
                "ci_high": high,
                "mean_score": stats.mean_score,
            }
        return _json_safe({"games": self.games, "agents": agents})

    def to_dict(self) -> dict[str, Any]:
        """Everything: per-agent figures, pooled groups and the errors."""
        return {
            "games": self.games,
            "players": self.players,
            "agents": {label: s.to_dict() for label, s in self.agents.items()},
            "pooled": {name: s.to_dict() for name, s in self.pooled.items()},
            "errors": [
                {"game": r["game"], "deal_seed": r["deal_seed"], **r["error"]} for r in self.errors
            ],
        }


def _json_safe(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _json_safe(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_safe(v) for v in value]
    return value


def base_name(label: str) -> str:
    """The label without its ``#k`` copy suffix."""
    head, sep, tail = label.rpartition("#")
    return head if sep and tail.isdigit() else label


def summarize(records: Iterable[dict[str, Any]], labels: Sequence[str] | None = None) -> Summary:
    """Per-agent statistics of game records (see the module docstring for the counting rules).

    ``labels`` fixes the order of the rows (default: order of first appearance).
    """
    records = list(records)
    players = max((len(r["seats"]) for r in records), default=0)
    order = list(labels) if labels is not None else []
    for record in records:
        for label in record["seats"]:
            if label not in order:
                order.append(label)
    agents = {
        label: AgentStats(label, seat_games=[0] * players, seat_wins=[0.0] * players)
        for label in order
    }
    groups: dict[str, list[str]] = {}
    for label in order:
        groups.setdefault(base_name(label), []).append(label)
    pooled = {
        name: AgentStats(
            name, seat_games=[0] * players, seat_wins=[0.0] * players, copies=len(members)
        )
        for name, members in groups.items()
        if len(members) > 1
    }
    errors = []
    games = 0
    seconds = 0.0
    for record in records:
        seats = record["seats"]
        seconds += record.get("seconds", 0.0)
        if record.get("error"):
            errors.append(record)
            culprit = record["error"].get("agent")
            if culprit in agents:
                agents[culprit].errors += 1
                if base_name(culprit) in pooled:
                    pooled[base_name(culprit)].errors += 1
            continue
        games += 1
        shares = win_shares(record)
        game_margins = margins(record)
        in_game: dict[str, float] = {}
        for seat, label in enumerate(seats):
            targets = [agents[label]]
            group = pooled.get(base_name(label))
            if group is not None:
                targets.append(group)
                in_game[group.label] = in_game.get(group.label, 0.0) + shares[seat]
            for stats in targets:
                stats.score_total += record["scores"][seat]
                stats.margin_total += game_margins[seat]
                stats.seats_played += 1
                stats.seat_games[seat] += 1
                stats.seat_wins[seat] += shares[seat]
                stats.decisions += record.get("decisions", [0] * len(seats))[seat]
                stats.think_seconds += record.get("think_seconds", [0.0] * len(seats))[seat]
            agents[label].games += 1
            agents[label].wins += shares[seat]
        for name, share in in_game.items():
            pooled[name].games += 1
            pooled[name].wins += min(share, 1.0)
    return Summary(games, players, agents, pooled, errors, seconds)


def _fmt(value: float, digits: int = 3) -> str:
    return "-" if math.isnan(value) else f"{value:.{digits}f}"


def fmt_ms(value: float) -> str:
    """Milliseconds with three significant digits ("-" for none)."""
    if math.isnan(value):
        return "-"
    return f"{value:.0f}" if value >= 100 else f"{value:.3g}"


def _wins_text(wins: float) -> str:
    return f"{wins:.0f}" if wins == int(wins) else f"{wins:.2f}"


def summary_rows(summary: Summary) -> tuple[list[str], list[list[str]]]:
    """Column names and text rows of the per-agent table (pooled groups after their copies)."""
    columns = [
        "agent",
        "games",
        "wins",
        "win rate",
        "95% CI",
        "mean score",
        "mean margin",
        *(f"seat {s + 1}" for s in range(summary.players)),
        "ms/decision",
        "errors",
    ]
    rows = []
    shown = [*summary.agents.values(), *summary.pooled.values()]
    for stats in shown:
        low, high = stats.interval
        name = stats.label if stats.copies == 1 else f"{stats.label} (pooled x{stats.copies})"
        rows.append(
            [
                name,
                str(stats.games),
                _wins_text(stats.wins),
                _fmt(stats.win_rate),
                f"{low:.3f}-{high:.3f}" if stats.games else "-",
                _fmt(stats.mean_score, 2),
                _fmt(stats.mean_margin, 2),
                *(_fmt(r) for r in stats.seat_win_rates),
                fmt_ms(stats.ms_per_decision),
                str(stats.errors),
            ]
        )
    return columns, rows


def print_table(
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    title: str,
    file: Any = None,
    left: int = 1,
) -> None:
    """Print a title line and a table with rich (plain text when not a terminal); the first
    ``left`` columns are left-aligned, the others right-aligned."""
    from rich.console import Console
    from rich.table import Table

    table = Table()
    for index, column in enumerate(columns):
        table.add_column(column, justify="left" if index < left else "right", no_wrap=True)
    for row in rows:
        table.add_row(*row)
    # Wide enough for every cell, so that a narrow or non-terminal output never truncates.
    needed = (
        sum(
            max(len(column), *(len(row[i]) for row in rows)) + 3 for i, column in enumerate(columns)
        )
        + 1
    )
    console = Console(file=file, width=max(needed, len(title)), highlight=False)
    console.print(title, markup=False)
    console.print(table)


def error_lines(errors: Sequence[dict[str, Any]]) -> list[str]:
    """One line per game that ended in an error: game, deal seed, agent, seat, what happened."""
    lines = []
    for record in errors:
        error = record["error"]
        lines.append(
            f"error in game {record['game']} (deal seed {record['deal_seed']}): "
            f"{error.get('agent') or 'no agent'} in seat {error.get('seat')}: "
            f"{error['kind']}: {error['message']}"
        )
    return lines


def print_summary(summary: Summary, title: str = "Arena", file: Any = None) -> None:
    """The per-agent table, then one line per error game (agent, seed, message)."""
    columns, rows = summary_rows(summary)
    print_table(columns, rows, f"{title}: {summary.games} games", file)
    for line in error_lines(summary.errors):
        print(line, file=file)
