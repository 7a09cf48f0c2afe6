"""How Nippon is shown to people: one line per record, the table as text, a picture, and the
SVG board of the web page (turn track, action board, worker column, bag, map, player panels).

The record text is written once here and used by every renderer. Everything is drawn from what
a view holds; nothing here reads the generator (a view has none), so the bag's order is never
shown.
"""

from __future__ import annotations

from html import escape
from typing import Any

import numpy as np

from airships_env.gamekit import python_state
from airships_env.games.nippon.engine.actions import action_name
from airships_env.games.nippon.engine.data import ACTION_KINDS, GIFT_KINDS, GOODS
from airships_env.games.nippon.engine.records import ActionRecord
from airships_env.games.nippon.engine.rules import achievement_base, region_influence
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


# -- the SVG board ----------------------------------------------------------------------
# Every text goes through escape(); class names and numbers are the module's own. Classes are
# stable (a page's stylesheet or a test may select them); the page owns the markup contract.
_W = 1200  # the height follows the legend's lines
_LEFT_W = 560  # the left column: turn track, action board, worker column, bag, rewards
_INK, _FAINT, _PAPER = "#1e222a", "#8a8f98", "#ffffff"
_GOLD, _STAR = "#e8c65a", "#f6e7b0"
_REGION_TINT = ("#f6efe0", "#e7f0f7", "#ecf5e4", "#f4eaf1")
_ACHIEVEMENT_SHORT = {
    "contracts": "contr", "yen": "yen", "knowledge_stars": "know*", "ship_stars": "ship*",
    "train_stars": "train*", "factories": "fact", "machines": "mach", "influence": "infl",
    "coal_stars": "coal*",
}  # fmt: skip


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def _worker_fill(state: State, colour: int) -> str:
    """A worker colour's fill: by its name when the name is a known colour, else by index."""
    name = state.data.colours[colour]
    return _hex(_RGB.get(name, tuple(_RGB.values())[colour % len(_RGB)]))


def _seat_fill(seat: int) -> str:
    return _hex(_SEAT_RGB[seat % len(_SEAT_RGB)])


class _Canvas:
    """SVG elements appended in drawing order; every text and title escaped."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def group(self, cls: str, title: str | None = None) -> None:
        """Open a ``<g>`` of class ``cls`` (closed by :meth:`end`)."""
        self.parts.append(f'<g class="{cls}">')
        if title is not None:
            self.parts.append(f"<title>{escape(title)}</title>")

    def end(self) -> None:
        """Close the last group."""
        self.parts.append("</g>")

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        fill: str,
        cls: str = "",
        stroke: str = "#555",
        stroke_width: float = 1,
        dash: bool = False,
        rx: float = 0,
        title: str | None = None,
    ) -> None:
        """A rectangle."""
        attrs = f'x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" fill="{fill}"'
        attrs += f' stroke="{stroke}" stroke-width="{stroke_width:g}"'
        attrs += ' stroke-dasharray="3 2"' * dash + (f' rx="{rx:g}"' if rx else "")
        self._shape("rect", attrs, cls, title)

    def circle(
        self,
        cx: float,
        cy: float,
        r: float,
        fill: str,
        cls: str = "",
        stroke: str = "#333",
        dash: bool = False,
        title: str | None = None,
    ) -> None:
        """A circle."""
        attrs = f'cx="{cx:g}" cy="{cy:g}" r="{r:g}" fill="{fill}" stroke="{stroke}"'
        attrs += ' stroke-dasharray="3 2"' * dash
        self._shape("circle", attrs, cls, title)

    def _shape(self, tag: str, attrs: str, cls: str, title: str | None) -> None:
        if cls:
            attrs = f'class="{cls}" ' + attrs
        if title is None:
            self.parts.append(f"<{tag} {attrs}/>")
        else:
            self.parts.append(f"<{tag} {attrs}><title>{escape(title)}</title></{tag}>")

    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: float = 11,
        cls: str = "",
        anchor: str = "start",
        bold: bool = False,
        fill: str = _INK,
    ) -> None:
        """One line of text."""
        attrs = f'x="{x:g}" y="{y:g}" font-size="{size:g}" fill="{fill}"'
        if anchor != "start":
            attrs += f' text-anchor="{anchor}"'
        if bold:
            attrs += ' font-weight="bold"'
        if cls:
            attrs = f'class="{cls}" ' + attrs
        self.parts.append(f"<text {attrs}>{escape(text)}</text>")


def _svg_header(c: _Canvas, s: State, seat: int | None, last: ActionRecord | None) -> None:
    """The title line (players, turn track, who acts, whose view) and the last action."""
    d = s.data
    title = f"Nippon · {s.num_players} players · turn track {s.marker + 1}/{d.track_spaces}"
    if s.marker >= d.golden_from:
        title += " (golden)"
    outcome = s.outcome()
    if outcome is not None:
        winners = ", ".join(f"seat {p}" for p in outcome.winners)
        title += f" · game over, won by {winners}"
    else:
        title += f" · seat {s.current} to act ({Phase.NAMES[s.phase]})"
    c.text(12, 24, title, size=16, cls="title", bold=True)
    whose = f"seat {seat}'s view" if seat is not None else "public view"
    c.text(_W - 12, 24, whose, size=12, cls="whose", anchor="end", fill=_FAINT)
    if last is not None:
        c.text(12, 46, "Last: " + record_text(last, s), size=12, cls="caption")


def _svg_turn_track(c: _Canvas, s: State) -> None:
    """K3: the turn track's spaces (golden, scoring) and the marker."""
    d = s.data
    step = min(48.0, _LEFT_W / d.track_spaces)
    size = step - 6
    c.group("turn-track")
    c.text(12, 72, "Turn track", size=12, bold=True)
    for k in range(d.track_spaces):
        x = 12 + k * step
        kinds = ["track-space"] + ["golden"] * (k >= d.golden_from)
        kinds += ["scoring"] * (k in d.scoring_spaces)
        fill = _GOLD if k >= d.golden_from else "#e4e4e4"
        c.rect(x, 80, size, 42, fill, cls=" ".join(kinds), rx=3)
        c.text(x + 3, 93, str(k + 1), size=min(10.0, size / 2.2))
        if k in d.scoring_spaces:
            c.text(x + size - 3, 118, "★", size=min(13.0, size / 2), anchor="end")
    c.circle(12 + s.marker * step + size / 2, 104, min(9.0, size / 3), "#b01c1c", cls="marker",
             stroke="#000", title="turn marker")  # fmt: skip
    c.end()


def _worker_slots(
    c: _Canvas, s: State, counts: list[int], x: float, y: float, width: float, radius: float
) -> None:
    """Workers of ``counts`` (by colour) across ``width`` from ``x``: a place for each of the
    data's ``per_space`` (the empty ones dashed) or for each worker when there are more."""
    slots = max(s.data.per_space, sum(counts))
    step = min(2.5 * radius, width / slots)
    r = min(radius, step * 0.42)
    k = 0
    for colour, count in enumerate(counts):
        for _ in range(count):
            c.circle(x + r + k * step, y, r, _worker_fill(s, colour), cls="worker",
                     title=f"{s.data.colours[colour]} worker")  # fmt: skip
            k += 1
    for j in range(k, slots):
        c.circle(x + r + j * step, y, r, "none", cls="empty-slot", stroke=_FAINT, dash=True)


def _svg_action_board(c: _Canvas, s: State) -> None:
    """K1: the action spaces, their actions and workers."""
    d = s.data
    step = min(112.0, (_LEFT_W + 8) / len(d.action_spaces))
    width = step - 8
    font = min(10.0, width / 8.5)
    c.group("action-board")
    c.text(12, 146, "Action board", size=12, bold=True)
    for k, kinds in enumerate(d.action_spaces):
        x, y = 12 + k * step, 154
        c.group("action-space")
        c.rect(x, y, width, 124, "#faf8f2", cls="space", rx=4)
        c.text(x + 5, y + 16, f"Space {k + 1}", size=min(11.0, width / 6), bold=True)
        for j, kind in enumerate(kinds):
            c.text(x + 5, y + 34 + 14 * j, ACTION_KINDS[kind], size=font)
        _worker_slots(c, s, s.spaces[k], x + 5, y + 98, width - 10, 13)
        c.end()
    c.end()


def _svg_column_and_bag(c: _Canvas, s: State) -> None:
    """K2: the worker column's rows (top first); the bag's contents (its order is hidden);
    K9: the reward tiles on display."""
    d = s.data
    c.group("worker-column")
    c.text(12, 300, "Worker column", size=12, bold=True)
    row_step = min(34.0, 220 / max(len(s.rows), 1))
    for k, row in enumerate(s.rows):
        y = 308 + k * row_step
        c.group("column-row")
        c.rect(12, y, 146, row_step - 4, "#faf8f2", cls="row", rx=3)
        c.text(18, y + row_step / 2 + 2, str(k + 1), size=min(10.0, row_step / 2.5), fill=_FAINT)
        _worker_slots(c, s, row, 38, y + (row_step - 4) / 2, 114, min(11.0, row_step / 2 - 4))
        c.end()
    c.end()
    c.group("bag")
    c.text(172, 300, "Bag (contents; the draw order is hidden)", size=12, bold=True)
    for colour, count in enumerate(s.bag):
        x = 184 + colour * 64
        c.circle(x, 322, 11, _worker_fill(s, colour), cls="bag-colour",
                 title=f"{d.colours[colour]} workers in the bag: {count}")  # fmt: skip
        c.text(x + 15, 326, f"×{count}", size=11)
    c.end()
    c.group("rewards")
    c.text(172, 360, "Reward tiles on display", size=12, bold=True)
    lines = -(-len(s.rewards_left) // 4)
    step = min(38.0, 160 / max(lines, 1))
    for i, t in enumerate(s.rewards_left):
        rw = d.rewards[t]
        x, y = 172 + (i % 4) * 97, 368 + (i // 4) * step
        gift = f"+{d.gift_amounts[GIFT_KINDS.index(rw.gift)]} {rw.gift}"
        c.rect(x, y, 90, step - 6, "#fbf3dc", cls="reward-tile", rx=3,
               title=f"reward tile: level {rw.level}, multiplier {rw.multiplier}, {gift}")  # fmt: skip
        if step >= 32:
            c.text(x + 6, y + 13, f"level {rw.level} · ×{rw.multiplier}", size=10, bold=True)
            c.text(x + 6, y + 26, gift, size=10)
        else:
            c.text(x + 4, y + step / 2, f"L{rw.level} ×{rw.multiplier} {gift}",
                   size=min(9.0, step - 8))  # fmt: skip
    c.end()


def _svg_map(c: _Canvas, s: State) -> None:
    """K8: regions, cities and their influence spaces, tiles, pieces, bonuses, influence."""
    d = s.data
    c.group("map")
    c.text(590, 72, "Japan", size=12, bold=True)
    capacity = d.region_spaces(s.num_players)
    for r in range(4):
        x, y = 590 + (r % 2) * 302, 80 + (r // 2) * 228
        bonus, amount = d.region_bonus[r]
        c.group("region")
        c.rect(x, y, 292, 220, _REGION_TINT[r], cls="region-area", rx=6)
        c.text(x + 8, y + 17, f"Region {r}", size=12, bold=True)
        c.text(x + 284, y + 17, f"bonus +{amount} {bonus} per tile", size=10, anchor="end")
        for j, city in enumerate((2 * r, 2 * r + 1)):
            cx, cy = x + 8 + j * 142, y + 26
            c.group("city")
            c.rect(cx, cy, 134, 84, _PAPER, cls="city-area", rx=4)
            c.text(cx + 6, cy + 14, f"City {city}", size=11, bold=True)
            for i in range(4):
                _svg_influence_space(c, s, city, i, cx + 6 + i * 32, cy + 22)
            c.end()
        used = sum(s.trains_in[r]) + sum(s.ships_in[r])
        for row, (label, pieces) in enumerate(
            (("trains", s.trains_in[r]), ("ships", s.ships_in[r]))
        ):
            py = y + 130 + row * 22
            c.text(x + 8, py + 4, label, size=10)
            for p in range(s.num_players):
                px = x + 52 + p * 44
                shape_cls = "train" if label == "trains" else "ship"
                c.rect(
                    px,
                    py - 7,
                    14,
                    14,
                    _seat_fill(p),
                    cls=shape_cls,
                    stroke="#333",
                    rx=0 if label == "trains" else 7,
                    title=f"seat {p}: {pieces[p]} {label}",
                )
                c.text(px + 18, py + 4, str(pieces[p]), size=10)
        c.text(x + 8, y + 178, f"train/ship spaces taken {used}/{capacity}", size=10)
        per, neutral = region_influence(s, r)
        c.text(x + 8, y + 204, "influence", size=10)
        for p in range(s.num_players):
            px = x + 62 + p * 44
            c.rect(px, y + 195, 10, 10, _seat_fill(p), cls="influence-mark", stroke="#333")
            c.text(px + 14, y + 204, str(per[p]), size=10, bold=True)
        c.text(x + 284, y + 204, f"neutral {neutral}", size=10, anchor="end", fill=_FAINT)
        c.end()
    c.end()


def _svg_influence_space(c: _Canvas, s: State, city: int, i: int, x: float, y: float) -> None:
    """One influence space: its good, a placed tile in its owner's colour, else the neutral."""
    good = GOODS[s.city_goods[city][i]]
    owner = s.influence_owner[city][i]
    c.text(x + 14, y + 8, good, size=8.5, anchor="middle")
    if owner >= 0:
        value = s.influence_value[city][i]
        c.rect(
            x,
            y + 12,
            28,
            28,
            _seat_fill(owner),
            cls="influence-space tile",
            stroke="#222",
            title=f"space {city}.{i} ({good}): seat {owner}'s tile {value}",
        )
        c.text(x + 14, y + 31, str(value), size=13, anchor="middle", bold=True, fill=_PAPER)
    else:
        neutral = s.data.neutral[i]
        c.rect(
            x,
            y + 12,
            28,
            28,
            _PAPER,
            cls="influence-space",
            stroke=_FAINT,
            title=f"space {city}.{i} ({good}): empty, neutral value {neutral}",
        )
        c.text(x + 14, y + 31, f"({neutral})", size=10, anchor="middle", cls="neutral", fill=_FAINT)
    c.text(x + 14, y + 52, f"{city}.{i}", size=7.5, anchor="middle", fill=_FAINT)


def _svg_track(
    c: _Canvas, x: float, y: float, width: float, label: str, values: tuple[int, ...], pos: int,
    stars: tuple[int, ...], fill: str,
) -> None:  # fmt: skip
    """A player's track in ``width``: one cell per space, stars tinted, the current one in the
    seat's colour, its value after it."""
    cell = min(14.0, (width - 62 - 28) / len(values))
    c.group("track")
    c.text(x, y + 10, label, size=10)
    for k in range(len(values)):
        tint = _STAR if k in stars else _PAPER  # stars are positions
        c.rect(x + 62 + k * cell, y, cell - 1, 12, fill if k == pos else tint, stroke="#999",
               stroke_width=0.6)  # fmt: skip
    c.text(x + 66 + len(values) * cell, y + 10, str(values[pos]), size=10, bold=True)
    c.end()


def _svg_player(c: _Canvas, s: State, p: int, seat: int | None, x: float, w: float) -> None:
    """K5-K7: one player's board: money, coal, tracks, workers, factories, contracts, VP."""
    d = s.data
    y = 548
    current = p == s.current and not s.game_over
    cls = "player" + " current" * current + " you" * (p == seat)
    c.group(cls)
    c.rect(
        x,
        y,
        w,
        296,
        _PAPER,
        cls="player-area",
        stroke=_GOLD if current else "#888",
        stroke_width=4 if current else 1,
        rx=6,
    )
    c.rect(x, y, w, 26, _seat_fill(p), cls="player-banner", stroke="none", rx=6)
    name = f"Seat {p}" + (" (you)" if p == seat else "") + (" · to act" if current else "")
    c.text(x + 8, y + 18, name, size=13, bold=True, fill=_PAPER)
    c.text(
        x + w - 8,
        y + 18,
        f"{s.vp[p]} VP",
        size=14,
        bold=True,
        fill=_PAPER,
        anchor="end",
        cls="score",
    )
    c.text(
        x + 8,
        y + 44,
        f"Yen {s.yen[p]}k · coal {s.coal[p]} · blueprints {s.blueprints[p]}",
        size=11,
        cls="reserve",
    )
    fill = _seat_fill(p)
    money = tuple(d.money_track)
    _svg_track(c, x + 8, y + 52, w - 16, "money", money, s.money_pos[p], (), fill)
    _svg_track(
        c, x + 8, y + 68, w - 16, "coal", tuple(d.coal_track), s.coal_pos[p], d.coal_stars, fill
    )
    knowledge = tuple(range(d.knowledge_max + 1))
    _svg_track(
        c, x + 8, y + 84, w - 16, "knowledge", knowledge, s.knowledge[p], d.knowledge_stars, fill
    )
    c.text(x + 8, y + 116, "workers", size=10)
    for k in range(len(d.worker_levels)):
        wx = x + 74 + k * 26
        if k < len(s.workers[p]):
            colour = s.workers[p][k]
            c.circle(
                wx,
                y + 112,
                10,
                _worker_fill(s, colour),
                cls="worker",
                title=f"{d.colours[colour]} worker",
            )
        else:
            c.circle(wx, y + 112, 10, "none", cls="empty-slot", stroke=_FAINT, dash=True)
        c.text(wx, y + 132, f"L{d.worker_levels[k]}", size=7.5, anchor="middle", fill=_FAINT)
    for g in range(len(GOODS)):
        _svg_factory(c, s, p, g, x + 8 + g * 44, y + 138)
    c.text(x + 8, y + 196, "contracts", size=10)
    for k, contract in enumerate(d.contracts):
        done = s.contracts_done[p][k]
        cx = x + 8 + k * 34
        demands = "+".join(str(n) for n in contract.demands)
        c.rect(
            cx,
            y + 200,
            32,
            20,
            "#666" if done else _PAPER,
            cls="contract" + " done" * bool(done),
            stroke="#555",
            rx=2,
            title=f"contract {k}: {demands} cubes, {contract.vp} VP, bonus {contract.bonus}"
            + (f" {contract.amount}" if contract.amount else "")
            + (" (done)" if done else ""),
        )
        c.text(cx + 16, y + 214, demands, size=9, anchor="middle", fill=_PAPER if done else _INK)
    tiles = " ".join(str(v + 1) for v, count in enumerate(s.tiles_supply[p]) for _ in range(count))
    c.text(
        x + 8,
        y + 238,
        f"trains {s.trains_placed[p]}/{d.trains} · ships {s.ships_placed[p]}/{d.ships} · "
        f"machines in reserve {s.machine_reserve[p]}",
        size=10,
    )
    c.text(x + 8, y + 253, f"influence tiles left: {tiles or '-'}", size=10)
    c.text(x + 8, y + 267, "achievements (multipliers)", size=10)
    for k, ach in enumerate(d.achievements):
        ax = x + 8 + k * 30
        mult = s.achievements[p][k]
        shown = f"×{mult}" if mult else (f"×{ach.printed}" if ach.printed else "")
        c.rect(
            ax,
            y + 271,
            28,
            21,
            _STAR if mult else _PAPER,
            cls="achievement" + " taken" * bool(mult),
            stroke="#999",
            stroke_width=0.6,
            title=f"achievement {k}: {ach.kind}, counts {achievement_base(s, p, ach.kind)} now, "
            f"1 per {ach.per}, times {mult or ach.printed}",
        )
        c.text(
            ax + 14,
            y + 279,
            _ACHIEVEMENT_SHORT.get(ach.kind, ach.kind)[:6],
            size=6.5,
            anchor="middle",
            fill=_FAINT,
        )
        c.text(ax + 14, y + 289, shown, size=9, anchor="middle", bold=bool(mult))
    c.end()


def _svg_factory(c: _Canvas, s: State, p: int, g: int, x: float, y: float) -> None:
    """One good's factory place: empty (dashed) or the factory, its machine and its cubes."""
    d = s.data
    tile = s.factory_tile[p][g]
    good = GOODS[g]
    if tile < 0:
        c.rect(
            x,
            y,
            42,
            44,
            "none",
            cls="factory-place",
            stroke=_FAINT,
            dash=True,
            rx=3,
            title=f"no {good} factory (level {d.goods_levels[g]})",
        )
        c.text(x + 21, y + 12, good, size=8.5, anchor="middle", fill=_FAINT)
        return
    factory = d.factories[tile]
    machine = s.machine[p][g]
    c.rect(
        x,
        y,
        42,
        44,
        "#f3efe4",
        cls="factory",
        stroke="#444",
        rx=3,
        title=f"{good} factory: coal {factory.coal} per production, machine +{machine}, "
        f"{s.cubes[p][g]} cubes",
    )
    c.text(x + 21, y + 12, good, size=8.5, anchor="middle", bold=True)
    if machine:
        c.text(x + 21, y + 25, f"+{machine}", size=10, anchor="middle", cls="machine")
    step = min(9.0, 36 / d.factory_capacity)
    for k in range(d.factory_capacity):
        filled = k < s.cubes[p][g]
        c.rect(
            x + 4 + k * step,
            y + 32,
            step - 2,
            7,
            "#333" if filled else _PAPER,
            cls="cube" if filled else "cube-place",
            stroke="#777",
            stroke_width=0.6,
        )


def _svg_legend(c: _Canvas, s: State, top: float) -> float:
    """What the shapes and colours mean, in lines from ``top``; the last line's baseline."""
    d = s.data
    c.group("legend")
    c.text(12, top, "Legend", size=12, bold=True)
    keys: list[tuple[str, str, str]] = [
        ("worker", _worker_fill(s, colour), f"{name} worker") for colour, name in enumerate(d.colours)
    ]  # fmt: skip
    keys += [("seat", _seat_fill(p), f"seat {p}") for p in range(s.num_players)]
    keys += [
        ("golden", _GOLD, "golden turn-track space (three more turns each)"),
        ("scoring", _PAPER, "★ scoring phase"),
        ("marker", "#b01c1c", "turn marker"),
        ("neutral", _PAPER, "(n) empty influence space: its neutral value"),
        ("empty", "none", "free place"),
        ("done", "#666", "contract done"),
    ]
    x, y = 84.0, top
    for kind, fill, label in keys:
        width = 30 + 6 * len(label)
        if x + width > _W - 12 or (kind == "golden" and x > 84):  # wrap: the marks on a new line
            x, y = 84.0, y + 24
        if kind in ("worker", "marker", "empty"):
            c.circle(x + 6, y - 4, 6, fill, cls=f"{kind}-key", stroke="#333" if fill != "none"
                     else _FAINT, dash=kind == "empty")  # fmt: skip
        else:
            c.rect(x, y - 10, 12, 12, fill, cls=f"{kind}-key", stroke="#555")
        c.text(x + 16, y, label, size=10)
        x += width
    c.end()
    return y


def svg_table(view: State, seat: int | None, last_record: ActionRecord | None = None) -> str:
    """The table as one SVG document drawn from ``view``: the turn track, the action board,
    the worker column and the bag's contents, the map, one panel per player, a legend."""
    s = view
    c = _Canvas()
    _svg_header(c, s, seat, last_record)
    _svg_turn_track(c, s)
    _svg_action_board(c, s)
    _svg_column_and_bag(c, s)
    _svg_map(c, s)
    gap = 8
    width = (_W - 24 - gap * (s.num_players - 1)) / s.num_players
    for p in range(s.num_players):
        _svg_player(c, s, p, seat, 12 + p * (width + gap), width)
    height = round(_svg_legend(c, s, 868) + 18)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_W} {height}" width="{_W}" '
        f'height="{height}" class="nippon-board" font-family="sans-serif" role="img">'
        f'<title>Nippon table</title><rect class="background" x="0" y="0" width="{_W}" '
        f'height="{height}" fill="#f4f1ea"/>{"".join(c.parts)}</svg>'
    )


class NipponPresenter:
    """Record text, the ANSI table, a picture and SVG (protocol ``Presenter``)."""

    def record_text(self, record: Any, state: Any) -> str:
        """One line describing ``record``."""
        return record_text(record, python_state(state))

    def ansi(self, view: Any, seat: int | None, last_record: Any | None) -> str:
        """The table as text with ANSI colours."""
        return ansi_table(python_state(view), seat, last_record)

    def rgb(self, view: Any, seat: int | None, last_record: Any | None) -> np.ndarray:
        """The table as an RGB picture."""
        return picture(python_state(view), seat)

    def svg(self, view: Any, seat: int | None, last_record: Any | None) -> str:
        """The table as an SVG document."""
        return svg_table(python_state(view), seat, last_record)
