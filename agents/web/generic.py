"""The pages of any registered game, drawn over the game protocol alone.

A game other than Airships (which keeps its own pages) is shown with what its
:class:`~airships_env.protocol.Game` gives: the table drawn by its presenter (``svg`` when it
draws one, else its ``ansi`` text without the colour codes, in a ``<pre>``), the legal choices
named by ``action_name``, the records told by ``record_text`` and the end by ``outcome()``.
Nothing here knows a game's rules; a newly registered game is served with no web code.

What a seat is shown is drawn from its view (``state.view(seat)``), so a page never holds what
that seat may not see. Records are the exception the protocol leaves open: its
``record_text(record, state)`` has no seat, and the games' presenters write the true log
(Clockwork City's "draws Gear", Australia's drawn colours). So a person's page tells another
seat's record by its action's name only, unless the presenter's ``record_text`` takes a
``seat`` keyword (then it is asked as that seat sees it); the person's own records are told in
full (see :func:`agents.session.seat_record_text`, which this module re-exports). A replay of a finished game (or of a log that is no
person's game) is the referee's record: the true state drawn with no seat (the presenter draws
what every seat may see) and every record in full; a replay of a person's unfinished game is
drawn and told as that person sees it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from markupsafe import Markup

from agents.session import seat_record_text as seat_record_text  # re-exported
from airships_env.protocol import Game

#: ANSI escape sequences (colours, cursor moves) that a terminal table may hold.
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-Z\\-_]")


def strip_ansi(text: str) -> str:
    """``text`` without its ANSI escape sequences."""
    return _ANSI.sub("", text)


def table_view(rules: Game, view: Any, seat: int | None, last_record: Any) -> dict[str, Any]:
    """The table as the page shows it: ``{"svg": Markup}`` when the game draws SVG, else
    ``{"text": str}`` (its terminal table, colour codes stripped)."""
    presenter = rules.presenter()
    draw = getattr(presenter, "svg", None)
    if callable(draw):
        try:
            return {"svg": Markup(draw(view, seat, last_record)), "text": ""}
        except NotImplementedError:
            pass
    return {"svg": "", "text": strip_ansi(str(presenter.ansi(view, seat, last_record)))}


def outcome_rows(state: Any, labels: Sequence[str]) -> list[dict[str, Any]]:
    """A finished game's seats, best place first: label, score, place, winner."""
    outcome = state.outcome()
    if outcome is None:
        return []
    rows = [
        {
            "seat": seat,
            "label": labels[seat],
            "score": _number(outcome.scores[seat]),
            "rank": outcome.ranks[seat],
            "winner": seat in outcome.winners,
        }
        for seat in range(state.num_players)
    ]
    return sorted(rows, key=lambda row: (row["rank"], row["seat"]))


def result_text(state: Any, labels: Sequence[str]) -> str:
    """'P0 (you) wins', 'P0 and P2 share the win', 'a draw'."""
    outcome = state.outcome()
    if outcome is None:
        return ""
    winners = [labels[seat] for seat in outcome.winners]
    if not winners:
        return "a draw"
    if len(winners) == 1:
        return f"{winners[0]} wins"
    return f"{', '.join(winners[:-1])} and {winners[-1]} share the win"


def _number(value: float) -> int | float:
    """A score as written: 3, not 3.0."""
    return int(value) if float(value).is_integer() else value
