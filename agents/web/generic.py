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
from typing import Any

from markupsafe import Markup

from agents.session import outcome_rows as outcome_rows  # re-exported
from agents.session import result_text as result_text  # re-exported
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
