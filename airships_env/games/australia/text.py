"""How Australia is shown to people: one line per record, the ANSI map, a picture and SVG.

The card, region and location words are written here once and used by every drawing. The
picture (``rgb``) and the SVG share one geometry: each region is a cell of the map's drawing
grid (``x``, ``y`` in map.toml) in its colour; a location is drawn between the cells of the
regions it borders, with its rangers in seat colours. They are plain drawings for replays and
the web page's first version; the web app's markup contract is the web work's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from airships_env.gamekit import python_state
from airships_env.games.australia.engine import actions as A
from airships_env.games.australia.engine.data import (
    BACKS,
    COLOURS,
    NUM_BACKS,
    NUM_COLOURS,
    SHIP,
    AustraliaData,
)
from airships_env.games.australia.engine.records import ActionRecord
from airships_env.games.australia.engine.state import State

_BOLD, _DIM, _RESET = "\x1b[1m", "\x1b[2m", "\x1b[0m"
_SEAT_ANSI = ("\x1b[97m", "\x1b[90m", "\x1b[38;5;208m", "\x1b[94m", "\x1b[33m")
_COLOUR_ANSI = {
    "blue": "\x1b[44m\x1b[97m",
    "green": "\x1b[42m\x1b[30m",
    "orange": "\x1b[48;5;208m\x1b[30m",
    "grey": "\x1b[100m\x1b[97m",
    "red": "\x1b[41m\x1b[97m",
    "yellow": "\x1b[43m\x1b[30m",
}
_COLOUR_RGB = {
    "blue": (70, 120, 200),
    "green": (90, 160, 80),
    "orange": (230, 140, 50),
    "grey": (150, 150, 150),
    "red": (200, 60, 50),
    "yellow": (230, 210, 70),
}
#: Seat colours (white, black, orange, blue, brown: the seed's player colours).
SEAT_RGB: tuple[tuple[int, int, int], ...] = (
    (250, 250, 250), (20, 20, 20), (240, 120, 20), (40, 80, 220), (120, 70, 30),
)  # fmt: skip
SEAT_NAMES: tuple[str, ...] = ("white", "black", "orange", "blue", "brown")


def card_text(card: int) -> str:
    """'3+1 green': a card type's back and colour."""
    return f"{BACKS[card // NUM_COLOURS]} {COLOURS[card % NUM_COLOURS]}"


def hand_text(hand: list[int]) -> str:
    """'3+1 green, 1+3 blue': a hand counted by type."""
    items = [card_text(c) + (f" x{k}" if k > 1 else "") for c, k in enumerate(hand) if k]
    return ", ".join(items) or "(empty)"


def location_text(data: AustraliaData, location: int) -> str:
    """'camp07 (Pilbara/Red Centre)': a location and the regions it borders."""
    loc = data.locations[location]
    return f"{loc.id} ({'/'.join(data.regions[r].name for r in loc.regions)})"


def action_text(data: AustraliaData, action: int) -> str:
    """An action in the map's words ('fly to Kimberley', 'place 2 on camp03 (...)')."""
    if A.FLY <= action < A.PLAY:
        return f"fly to {data.regions[action - A.FLY].name}"
    if A.PLAY <= action < A.PLAY_PAYING:
        return f"play {card_text(action - A.PLAY)}"
    if A.PLAY_PAYING <= action < A.PLACE:
        return f"play {card_text(action - A.PLAY_PAYING)} paying $3 to recolour it"
    if A.PLACE <= action < A.NO_RANGERS:
        offset = action - A.PLACE
        count, loc = offset // A.MAX_LOCATIONS + 1, offset % A.MAX_LOCATIONS
        return f"place {count} on {location_text(data, loc)}"
    if A.TAKE_BACK <= action < A.DONE_TAKING:
        return f"take a ranger back from {location_text(data, action - A.TAKE_BACK)}"
    if A.MOVE_FROM <= action < A.MOVE_TO:
        return f"pay $4 to move a ranger from {location_text(data, action - A.MOVE_FROM)}"
    if A.MOVE_TO <= action < A.END_TURN:
        return f"move it to {location_text(data, action - A.MOVE_TO)}"
    if A.WINDMILL <= action < A.NUM_ACTIONS:
        return f"put the windmill on {data.regions[action - A.WINDMILL].name}"
    return A.ACTION_NAMES[action]


TRUE_LOG = -1  # record_text's ``seat`` for the true log: every drawn colour shown


def record_text(record: ActionRecord, state: State, seat: int | None = TRUE_LOG) -> str:
    """One line describing a record: for the true log (``seat`` -1, drawn colours shown), or
    as ``seat`` sees it (None: a spectator), a drawn colour shown to its drawer only (V2)."""
    data = state.data
    words = [f"P{record.player + 1}: {action_text(data, record.action)}"]
    if record.drawn is not None:
        back = record.action - A.DRAW
        shown = seat == TRUE_LOG or seat == record.player
        words.append(f"draws {BACKS[back]} {COLOURS[record.drawn] if shown else '?'}")
    if record.revealed is not None:
        words.append(f"turns up tile {record.revealed}")
    if record.windmill_to is not None:
        words.append(f"the windmill moves to {data.regions[record.windmill_to].name}")
    for scoring in record.scorings:
        points = " ".join(f"P{s + 1}+{p}" for s, p in enumerate(scoring.points) if p)
        if scoring.kind == "windmill":
            words.append(f"windmill {scoring.value} scores: {points or 'nobody'}")
        else:
            tile = f" {scoring.value}" if scoring.value else ""
            words.append(
                f"{scoring.kind}{tile} of {data.regions[scoring.region].name} "
                f"(P{scoring.initiator + 1}): {points}"
            )
    if record.game_over:
        words.append("game over")
    return ", ".join(words)


def _tile_text(state: State, region: int) -> str:
    if state.tile_value[region] == 0:
        return "-"
    return str(state.tile_value[region]) if state.tile_up[region] else "?"


def _rangers_text(state: State, location: int) -> str:
    held = state.rangers[location]
    for seat, count in enumerate(held):
        if count:
            return f"{_SEAT_ANSI[seat]}P{seat + 1}x{count}{_RESET}"
    return f"{_DIM}.{_RESET}"


def ansi_map(view: State, seat: int | None, last_record: ActionRecord | None = None) -> str:
    """The map and the players as text with ANSI colours, seen by ``seat`` (None: everyone)."""
    data = view.data
    lines = [f"{_BOLD}Australia{_RESET} round {view.round}, turn {view.turn}, "
             f"phase {view.phase_name}, P{view.current + 1} to act"
             + (", last round" if view.end_triggered else "")]  # fmt: skip
    if last_record is not None:
        lines.append("last: " + record_text(last_record, view, seat))
    width = max(r.x for r in data.regions) + 1
    height = max(r.y for r in data.regions) + 1
    grid = [["      "] * width for _ in range(height)]
    for r, region in enumerate(data.regions):
        label = f"{region.name[:4]:<4}{_tile_text(view, r):>2}"
        grid[region.y][region.x] = f"{_COLOUR_ANSI[COLOURS[region.colour]]}{label}{_RESET}"
    lines += [" ".join(row) for row in grid]
    for r, region in enumerate(data.regions):
        planes = [f"P{s + 1}" for s in range(view.num_players) if view.plane[s] == r]
        cons = "C" if view.conservation[r] else "-"
        locs = " ".join(
            f"{data.locations[loc].id}:{_rangers_text(view, loc)}"
            for loc in data.region_locations[r]
        )
        mill = f" windmill {view.windmill_value}" if view.windmill_region == r else ""
        lines.append(
            f"{_COLOUR_ANSI[COLOURS[region.colour]]}{r:2d} {region.name:<22}{_RESET} "
            f"{cons} tile {_tile_text(view, r):>2} {locs}"
            + (f"  plane {' '.join(planes)}" if planes else "")
            + mill
        )
    stacks = " ".join(f"{BACKS[b]}:{len(view.stacks[b])}" for b in range(NUM_BACKS))
    lines.append(f"stacks {stacks}")
    if view.options.full_game:
        track = " ".join(f"P{s + 1}" for s in view.ranger_track) or "(empty)"
        lines.append(f"windmill track {len(view.windmill_track)}/{data.tile_areas} tiles; "
                     f"ranger track {track}")  # fmt: skip
    for s in range(view.num_players):
        backs = [
            sum(view.hands[s][b * NUM_COLOURS : (b + 1) * NUM_COLOURS]) for b in range(NUM_BACKS)
        ]
        if seat is not None and s == seat:
            hand = hand_text(view.hands[s])  # V2: only the seat's own colours
        else:
            hand = ", ".join(f"{BACKS[b]} ?" for b in range(NUM_BACKS) for _ in range(backs[b]))
        lines.append(
            f"{_SEAT_ANSI[s]}P{s + 1}{_RESET} VP {view.vp[s]} ${view.dollars[s]} "
            f"supply {view.supply[s]} hand [{hand or '(empty)'}]"
        )
    return "\n".join(lines)


_CELL_W, _CELL_H = 120, 80


def _location_points(data: AustraliaData) -> list[tuple[float, float]]:
    """Where each location is drawn: the mean of its regions' cell centres, spread a little."""
    points = []
    for index, loc in enumerate(data.locations):
        xs = [data.regions[r].x * _CELL_W + _CELL_W / 2 for r in loc.regions]
        ys = [data.regions[r].y * _CELL_H + _CELL_H / 2 for r in loc.regions]
        spread = (index % 3 - 1) * 9
        points.append((sum(xs) / len(xs) + spread, sum(ys) / len(ys) + spread))
    return points


def svg_map(view: State, seat: int | None) -> str:
    """The map as one SVG document: regions coloured, locations with rangers, planes, tiles."""
    data = view.data
    width = (max(r.x for r in data.regions) + 1) * _CELL_W
    height = (max(r.y for r in data.regions) + 1) * _CELL_H + 30
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">']  # fmt: skip
    for r, region in enumerate(data.regions):
        fill = "rgb({},{},{})".format(*_COLOUR_RGB[COLOURS[region.colour]])
        x, y = region.x * _CELL_W, region.y * _CELL_H
        out.append(f'<rect x="{x + 2}" y="{y + 2}" width="{_CELL_W - 4}" height="{_CELL_H - 4}" '
                   f'fill="{fill}" stroke="#333"><title>{region.name}</title></rect>')  # fmt: skip
        out.append(f'<text x="{x + 6}" y="{y + 15}">{region.name}</text>')
        out.append(
            f'<text x="{x + 6}" y="{y + 28}">tile {_tile_text(view, r)}'
            f"{' C' if view.conservation[r] else ''}</text>"
        )
        planes = [f"P{s + 1}" for s in range(view.num_players) if view.plane[s] == r]
        if planes:
            out.append(f'<text x="{x + 6}" y="{y + 72}">&#9992; {" ".join(planes)}</text>')
        if view.windmill_region == r:
            out.append(f'<text x="{x + 80}" y="{y + 15}">W{view.windmill_value}</text>')
    for loc, (px, py) in enumerate(_location_points(data)):
        holder = next((s for s, k in enumerate(view.rangers[loc]) if k), -1)
        fill = "rgb({},{},{})".format(*SEAT_RGB[holder]) if holder >= 0 else "white"
        shape = "rect" if data.locations[loc].kind == SHIP else "circle"
        if shape == "rect":
            out.append(f'<rect x="{px - 7}" y="{py - 7}" width="14" height="14" fill="{fill}" '
                       f'stroke="#000"><title>{data.locations[loc].id}</title></rect>')  # fmt: skip
        else:
            out.append(f'<circle cx="{px}" cy="{py}" r="7" fill="{fill}" stroke="#000">'
                       f"<title>{data.locations[loc].id}</title></circle>")  # fmt: skip
        if holder >= 0:
            out.append(f'<text x="{px + 9}" y="{py + 4}">{view.rangers[loc][holder]}</text>')
    scores = "  ".join(
        f"P{s + 1} {view.vp[s]} VP ${view.dollars[s]}" for s in range(view.num_players)
    )
    out.append(f'<text x="6" y="{height - 10}">{scores}</text>')
    out.append("</svg>")
    return "\n".join(out)


def picture(view: State, seat: int | None) -> np.ndarray:
    """The map as an RGB picture: region cells in their colours, locations in seat colours."""
    data = view.data
    scale = 4
    cw, ch = _CELL_W // scale, _CELL_H // scale
    width = (max(r.x for r in data.regions) + 1) * cw
    height = (max(r.y for r in data.regions) + 1) * ch
    image = np.full((height, width, 3), 255, dtype=np.uint8)
    for r, region in enumerate(data.regions):
        x, y = region.x * cw, region.y * ch
        image[y + 1 : y + ch - 1, x + 1 : x + cw - 1] = _COLOUR_RGB[COLOURS[region.colour]]
        if view.tile_value[r] and view.tile_up[r]:
            image[y + 2 : y + 2 + view.tile_value[r], x + 2 : x + 4] = (0, 0, 0)
    for loc, (px, py) in enumerate(_location_points(data)):
        holder = next((s for s, k in enumerate(view.rangers[loc]) if k), -1)
        colour = SEAT_RGB[holder] if holder >= 0 else (255, 255, 255)
        cx, cy = int(px) // scale, int(py) // scale
        image[max(cy - 2, 0) : cy + 2, max(cx - 2, 0) : cx + 2] = colour
    return image


class AustraliaPresenter:
    """Record text, the ANSI map, the picture and the SVG map."""

    def record_text(self, record: Any, state: Any) -> str:
        """One line describing ``record``."""
        return record_text(record, python_state(state))

    def ansi(self, view: Any, seat: int | None, last_record: Any | None) -> str:
        """The map as ANSI text."""
        return ansi_map(python_state(view), seat, last_record)

    def rgb(self, view: Any, seat: int | None, last_record: Any | None) -> np.ndarray:
        """The map as an RGB picture."""
        return picture(python_state(view), seat)

    def svg(self, view: Any, seat: int | None, last_record: Any | None) -> str:
        """The map as an SVG document."""
        return svg_map(python_state(view), seat)


__all__ = [
    "SEAT_NAMES",
    "AustraliaPresenter",
    "action_text",
    "ansi_map",
    "card_text",
    "hand_text",
    "record_text",
]
