"""How Nippon is shown to people: one line per record, the table as text, a picture, SVG.

Written once for every renderer; the picture and the SVG draw what the text says. Nothing here
reads the generator (a view has none), so the bag's order is never shown.
"""

from __future__ import annotations

from html import escape
from typing import Any

import numpy as np

from airships_env.games.nippon.engine.actions import action_name
from airships_env.games.nippon.engine.data import ACTION_KINDS, GOODS
from airships_env.games.nippon.engine.records import ActionRecord
from airships_env.games.nippon.engine.rules import region_influence
from airships_env.games.nippon.engine.state import Phase, State

__all__ = ["NipponPresenter", "ansi_table", "record_text", "table_lines"]

_RGB = {
    "red": (200, 40, 40), "blue": (40, 80, 200), "green": (40, 160, 60),
    "yellow": (230, 200, 40), "black": (30, 30, 30), "white": (235, 235, 235),
}  # fmt: skip
_SEAT_RGB = ((214, 90, 40), (60, 120, 200), (90, 170, 80), (160, 90, 180))
_ANSI = {"red": 31, "blue": 34, "green": 32, "yellow": 33, "black": 90, "white": 97}


def record_text(record: ActionRecord, state: State | None = None) -> str:
    """One line for a record: who did what, and the colours drawn from the bag."""
    text = f"seat {record.seat}: {action_name(record.action)}"
    if record.draws:
        colours = state.data.colours if state is not None else None
        drawn = ", ".join(colours[c] if colours else str(c) for c in record.draws)
        text += f" (drawn from the bag: {drawn})"
    return text


def _workers_text(state: State, counts: list[int]) -> str:
    names = state.data.colours
    return " ".join(f"{names[c]}x{k}" for c, k in enumerate(counts) if k) or "-"


def table_lines(state: State, seat: int | None) -> list[str]:
    """The table as plain lines (what every renderer shows)."""
    s, d = state, state.data
    lines = [
        f"Nippon, {s.num_players} players. Turn track {s.marker + 1}/{d.track_spaces}"
        + (" (golden)" if s.marker >= d.golden_from else "")
        + f"; seat {s.current} to act ({Phase.NAMES[s.phase]})"
        + (f"; you are seat {seat}" if seat is not None else "")
        + (" -- game over" if s.game_over else ""),
    ]
    for k, kinds in enumerate(d.action_spaces):
        acts = " / ".join(ACTION_KINDS[x] for x in kinds)
        lines.append(f"  space {k + 1} [{acts}]: {_workers_text(s, s.spaces[k])}")
    for k, row in enumerate(s.rows):
        lines.append(f"  row {k + 1}: {_workers_text(s, row)}")
    lines.append(f"  bag: {_workers_text(s, s.bag)} (order hidden)")
    for r in range(4):
        per, neutral = region_influence(s, r)
        cities = []
        for city in (2 * r, 2 * r + 1):
            spaces = []
            for i in range(4):
                good = GOODS[s.city_goods[city][i]]
                owner = s.influence_owner[city][i]
                held = f"s{owner}={s.influence_value[city][i]}" if owner >= 0 else "-"
                spaces.append(f"{good}:{held}")
            cities.append(f"city {city} [{' '.join(spaces)}]")
        trains = ",".join(str(t) for t in s.trains_in[r])
        ships = ",".join(str(t) for t in s.ships_in[r])
        lines.append(
            f"  region {r}: {'; '.join(cities)}; trains {trains}; ships {ships}; "
            f"influence {per} neutral {neutral}"
        )
    for p in range(s.num_players):
        factories = [
            f"{GOODS[g]}(+{s.machine[p][g]}, {s.cubes[p][g]} cubes)"
            for g in range(6)
            if s.factory_tile[p][g] >= 0
        ]
        lines.append(
            f"  seat {p}: VP {s.vp[p]}, Yen {s.yen[p]}k, coal {s.coal[p]}, blueprints "
            f"{s.blueprints[p]}, tracks money {d.money_track[s.money_pos[p]]} coal "
            f"{d.coal_track[s.coal_pos[p]]} knowledge {s.knowledge[p]}; workers "
            f"{[d.colours[c] for c in s.workers[p]]}; factories {', '.join(factories) or '-'}; "
            f"contracts done {sum(s.contracts_done[p])}; multipliers {s.achievements[p]}"
        )
    return lines


def ansi_table(view: State, seat: int | None, last_record: ActionRecord | None = None) -> str:
    """The table as text with ANSI colours on the worker colours."""
    lines = table_lines(view, seat)
    if last_record is not None:
        lines.insert(1, "  last: " + record_text(last_record, view))
    text = "\n".join(lines)
    for name, code in _ANSI.items():
        text = text.replace(f"{name}x", f"\x1b[{code}m{name}\x1b[0mx")
    return text


def picture(view: State, seat: int | None) -> np.ndarray:
    """An RGB picture: action spaces and rows (worker colours), cities (tile owners)."""
    s = view
    cell = 12
    width = 8 * 4 * cell + 40
    height = (len(s.spaces) + len(s.rows) + 1) * cell + 4 * cell
    img = np.full((height, width, 3), 245, dtype=np.uint8)
    for k, place in enumerate(s.spaces + s.rows):
        x = 0
        for c, count in enumerate(place):
            for _ in range(count):
                y0 = k * cell
                img[y0 + 1 : y0 + cell - 1, x + 1 : x + cell - 1] = _RGB.get(
                    s.data.colours[c], (128,) * 3
                )
                x += cell
    top = (len(s.spaces) + len(s.rows) + 1) * cell
    for city in range(8):
        for i in range(4):
            owner = s.influence_owner[city][i]
            colour = _SEAT_RGB[owner] if owner >= 0 else (200, 200, 200)
            x0 = (city * 4 + i) * cell + (city // 2) * 10
            img[top + 1 : top + 3 * cell, x0 + 1 : x0 + cell - 1] = colour
    return img


def svg_table(view: State, seat: int | None, last_record: ActionRecord | None = None) -> str:
    """The table as one SVG document: the text lines, one per row."""
    lines = table_lines(view, seat)
    if last_record is not None:
        lines.insert(1, "last: " + record_text(last_record, view))
    height = 18 * len(lines) + 10
    body = "".join(
        f'<text x="6" y="{18 * (k + 1)}" font-family="monospace" font-size="12">'
        f"{escape(line)}</text>"
        for k, line in enumerate(lines)
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="1400" height="{height}" '
        f'class="nippon-table">{body}</svg>'
    )


class NipponPresenter:
    """Record text, the ANSI table, a picture and SVG (protocol ``Presenter``)."""

    def record_text(self, record: Any, state: Any) -> str:
        """One line describing ``record``."""
        return record_text(record, state)

    def ansi(self, view: Any, seat: int | None, last_record: Any | None) -> str:
        """The table as text with ANSI colours."""
        return ansi_table(view, seat, last_record)

    def rgb(self, view: Any, seat: int | None, last_record: Any | None) -> np.ndarray:
        """The table as an RGB picture."""
        return picture(view, seat)

    def svg(self, view: Any, seat: int | None, last_record: Any | None) -> str:
        """The table as an SVG document."""
        return svg_table(view, seat, last_record)
