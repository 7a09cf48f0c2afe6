"""How Clockwork City is shown to people: one line per record and the ANSI table.

The picture (``rgb``) and the SVG table share one geometry (:func:`_layout`): the track as a
ring of fields (white fields large, the Towers gold), pawns in seat colours, each Scrapyard's pile
as a bar, the 58 discard places as a grid (type colour where the seat may know it), and the
hands' sizes. They are plain drawings for replays and the web page's first version; the
markup contract of the web app (buttons for the choices) is the web work's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from airships_env.gamekit import python_state
from airships_env.games.clockwork.engine.data import TYPE_IDS
from airships_env.games.clockwork.engine.records import ActionRecord
from airships_env.games.clockwork.engine.state import State

TYPE_NAMES: tuple[str, ...] = (
    *(f"Flying Machine {k}" for k in range(1, 7)),
    *(f"Code Breaker {k}" for k in range(1, 5)),
    "Airship part",
    "Fuel Supplier",
    "Power Machine",
    "Scrap Metal",
)

_BOLD, _DIM, _RESET = "\x1b[1m", "\x1b[2m", "\x1b[0m"
_SEAT_COLOURS = ("\x1b[31m", "\x1b[34m", "\x1b[32m", "\x1b[33m")


def hand_text(hand: list[int]) -> str:
    """'FM1x2 CB3 FUEL': a hand counted by type."""
    items = [
        TYPE_IDS[t] + (f"x{count}" if count > 1 else "") for t, count in enumerate(hand) if count
    ]
    return " ".join(items) or "(empty)"


def record_text(record: ActionRecord, state: State | None = None) -> str:
    """One line describing a record for logs and replays (the true log: private cards shown)."""
    words = [f"P{record.player + 1}: {record.name}"]
    if record.dice is not None:
        words.append(f"rolls {record.dice[0]}+{record.dice[1]}")
    if record.drawn is not None:
        words.append(f"draws {TYPE_IDS[record.drawn]}")
    if record.turned is not None:
        words.append(f"turns up {TYPE_IDS[record.turned]}")
    if record.given is not None:
        words.append(f"card given: {TYPE_IDS[record.given]}")
    for seat, card in record.laid:
        words.append(f"P{seat + 1} lays down {TYPE_IDS[card]}")
    if record.winner is not None:
        words.append(f"P{record.winner + 1} escapes and wins")
    return ", ".join(words)


def ansi_table(view: State, seat: int | None, last_record: ActionRecord | None = None) -> str:
    """The table as text with ANSI colours, seen by ``seat`` (None: a spectator)."""
    track = view.data.track
    lines = [
        f"{_BOLD}Escape from Clockwork City{_RESET}  turn {view.turn}, phase {view.phase_name}"
    ]
    if view.dice[0]:
        lines.append(f"dice {view.dice[0]}+{view.dice[1]}")
    for k, field in enumerate(track.scrapyards):
        here = [f"P{s + 1}" for s in range(view.num_players) if view.pawns[s] == field]
        lines.append(
            f"  Scrapyard {k + 1} (field {field}): {len(view.piles[k])} cards  {' '.join(here)}"
        )
    towers = [f"P{s + 1}" for s in range(view.num_players) if view.pawns[s] == track.towers]
    lines.append(f"  Towers (field {track.towers}): {' '.join(towers)}")
    recall = view.options.discard_recall == "perfect"
    occupied = [
        f"{p}:{TYPE_IDS[card] if recall else '?'}"
        for p, card in enumerate(view.places)
        if card >= 0
    ]
    lines.append(
        f"  discards: {' '.join(occupied) or '(none)'}; Scrap set aside: {view.removed_scrap}"
    )
    for s in range(view.num_players):
        colour = _SEAT_COLOURS[s % len(_SEAT_COLOURS)]
        marker = ">" if s == view.actor else " "
        laid = [TYPE_IDS[t] for t in (view.laid_fm[s], view.laid_cb[s]) if t >= 0]
        hand = (
            hand_text(view.hands[s])
            if seat is not None and s == seat
            else f"{view.hand_size(s)} cards"
        )
        lines.append(
            f"{marker}{colour}P{s + 1}{_RESET} field {view.pawns[s]:2d}  hand: {hand}"
            f"  laid: {' '.join(laid) or '-'}"
        )
    if last_record is not None:
        lines.append(f"{_DIM}last: {last_record.name}{_RESET}")
    return "\n".join(lines)


_SIZE = 320
_SEAT_RGB = ((200, 50, 50), (50, 90, 200), (40, 150, 60), (210, 170, 30))
_TYPE_RGB = (
    *((120, 160, 220),) * 6,
    *((200, 120, 200),) * 4,
    (240, 200, 80),
    (250, 120, 40),
    (120, 220, 220),
    (110, 110, 110),
)


def _layout(
    view: State, seat: int | None
) -> list[tuple[str, int, int, int, int, tuple[int, int, int]]]:
    """Shapes ('rect' or 'disc', x, y, w or r, h, colour) of the table, in drawing order."""
    import math

    track = view.data.track
    shapes: list[tuple[str, int, int, int, int, tuple[int, int, int]]] = []
    centre, radius = 130, 110
    positions = []
    for field in range(track.length):
        angle = 2 * math.pi * field / track.length - math.pi / 2
        x = int(centre + radius * math.cos(angle))
        y = int(centre + radius * math.sin(angle))
        positions.append((x, y))
        colour = (
            (220, 190, 60)
            if field == track.towers
            else ((235, 235, 235) if track.is_white(field) else (90, 80, 70))
        )
        size = 6 if track.is_white(field) else 3
        shapes.append(("disc", x, y, size, 0, colour))
    for k, field in enumerate(track.scrapyards):
        x, y = positions[field]
        bx, by = int(centre + (x - centre) * 0.72), int(centre + (y - centre) * 0.72)
        height = 2 * len(view.piles[k])
        shapes.append(("rect", bx - 3, by - height // 2, 6, max(height, 1), (150, 130, 100)))
    for s in range(view.num_players):
        x, y = positions[view.pawns[s]]
        shapes.append(("disc", x + 4 * (s % 2) - 2, y + 4 * (s // 2) - 2, 4, 0, _SEAT_RGB[s]))
    recall = view.options.discard_recall == "perfect"
    for p, card in enumerate(view.places):
        x, y = 262 + (p % 6) * 9, 20 + (p // 6) * 9
        colour = (40, 40, 40) if card < 0 else (_TYPE_RGB[card] if recall else (180, 180, 180))
        shapes.append(("rect", x, y, 7, 7, colour))
    for s in range(view.num_players):
        y = 270 + 12 * s
        shapes.append(("rect", 10, y, 8, 8, _SEAT_RGB[s]))
        if seat is not None and s == seat:
            x = 24
            for t, count in enumerate(view.hands[s]):
                for _ in range(count):
                    shapes.append(("rect", x, y, 6, 8, _TYPE_RGB[t]))
                    x += 8
        else:
            shapes.append(("rect", 24, y, 8 * view.hand_size(s), 8, (160, 160, 160)))
        for k, laid in enumerate((view.laid_fm[s], view.laid_cb[s])):
            if laid >= 0:
                shapes.append(("rect", 150 + 12 * k, y, 10, 8, _TYPE_RGB[laid]))
    return shapes


def picture(view: State, seat: int | None) -> np.ndarray:
    """The table as an RGB array (320 x 320 x 3, uint8)."""
    image = np.full((_SIZE, _SIZE, 3), 30, dtype=np.uint8)
    ys, xs = np.mgrid[0:_SIZE, 0:_SIZE]
    for kind, x, y, w, h, colour in _layout(view, seat):
        if kind == "disc":
            mask = (xs - x) ** 2 + (ys - y) ** 2 <= w * w
            image[mask] = colour
        else:
            image[max(y, 0) : max(y + h, 0), max(x, 0) : max(x + w, 0)] = colour
    return image


def svg_table(view: State, seat: int | None) -> str:
    """The table as one SVG document."""
    items = [f'<rect x="0" y="0" width="{_SIZE}" height="{_SIZE}" fill="rgb(30,30,30)"/>']
    for kind, x, y, w, h, (r, g, b) in _layout(view, seat):
        if kind == "disc":
            items.append(f'<circle cx="{x}" cy="{y}" r="{w}" fill="rgb({r},{g},{b})"/>')
        else:
            items.append(
                f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="rgb({r},{g},{b})"/>'
            )
    body = "".join(items)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_SIZE} {_SIZE}" '
        f'width="{_SIZE}" height="{_SIZE}" class="clockwork-table">{body}</svg>'
    )


class ClockworkPresenter:
    """Record text, the ANSI table, the picture and the SVG table."""

    def record_text(self, record: Any, state: Any) -> str:
        """One line describing ``record``."""
        return record_text(record, python_state(state))

    def ansi(self, view: Any, seat: int | None, last_record: Any | None) -> str:
        """The table as ANSI text."""
        return ansi_table(python_state(view), seat, last_record)

    def rgb(self, view: Any, seat: int | None, last_record: Any | None) -> np.ndarray:
        """The table as an RGB picture."""
        return picture(python_state(view), seat)

    def svg(self, view: Any, seat: int | None, last_record: Any | None) -> str:
        """The table as an SVG document."""
        return svg_table(python_state(view), seat)
