"""Renderings of the Airships table: a text board for a terminal and an RGB picture.

Both read public information only (docs/RULES.md V1): the main board, the top card and the height of
each airship stack, the Hindenburg, every company, the era, the deck size and the cards that
left the game. They never read the deck's order, the cards under a stack's top card, the
airships left out at setup or the random generator (V2), so a state and its
:func:`~airships_env.engine.public_view` render identically.

- :func:`render_ansi` returns a string that reads well in a 100-column terminal (ANSI colours
  only if asked for).
- :func:`render_rgb` returns a ``(800, 1280, 3)`` uint8 array drawn with Pillow's built-in font.
  Card tiles, text and unchanged parts of the table are cached between frames, so a frame
  costs under 10 ms of CPU (render_ansi: under 1 ms).
"""

from __future__ import annotations

import re
import textwrap
from collections import OrderedDict
from collections.abc import Callable, Sequence
from functools import partial
from typing import Literal

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from airships_env.engine import (
    CHIP_DECISION,
    GAME_OVER,
    PHASE_NAMES,
    ActionRecord,
    GameState,
    player_pool,
    score_parts,
    target_card,
    target_name,
)
from airships_env.engine.actions import (
    FIRST_PHASE_TARGET,
    FIRST_STACK_TARGET,
    NUM_ATTEMPT_ACTIONS,
    SLOTS_PER_ROW,
)
from airships_env.engine.cards import ANY, DEPARTMENTS, CardSet, DiceCounts, Expansion
from airships_env.engine.state import EMPTY, PendingAttempt

__all__ = ["RGB_HEIGHT", "RGB_WIDTH", "render_ansi", "render_rgb"]

RGB_WIDTH, RGB_HEIGHT = 1280, 800
ANSI_WIDTH = 100

COLOUR_LETTERS = ("W", "R", "B")
DEPARTMENT_TITLES = ("Financiers", "Hangars", "Captains", "Engineers", "Engines", "Materials")
STACK_TIERS_FROM_BOTTOM = (3, 2, 1)  # S2: the backs of a stack's cards, public


# ---------------------------------------------------------------------------------------------
# Short texts shared by both renderings
# ---------------------------------------------------------------------------------------------
def cost_text(cost: DiceCounts) -> str:
    """'2W+1R' for (2, 1, 0)."""
    return "+".join(f"{n}{COLOUR_LETTERS[c]}" for c, n in enumerate(cost) if n) or "-"


def effect_text(expansion: Expansion) -> str:
    """A compact effect: 'dice +1W+1R', 'fixed R4', 'bonus +1any', 'exch 3W->2R'."""
    parts = []
    if any(expansion.dice):
        parts.append("dice +" + cost_text(expansion.dice))
    if expansion.chips:
        parts.append(f"+{expansion.chips} chip{'s' if expansion.chips > 1 else ''}")
    if expansion.fixed_die is not None:
        fixed = expansion.fixed_die
        parts.append(f"fixed {COLOUR_LETTERS[fixed.colour]}{fixed.value}")
    for bonus in expansion.engine_bonuses:
        colour = "any" if bonus.colour == ANY else COLOUR_LETTERS[bonus.colour]
        parts.append(f"bonus +{bonus.amount}{colour}")
    if expansion.exchange is not None:
        exchange = expansion.exchange
        parts.append(f"exch {cost_text(exchange.give)}->{cost_text(exchange.get)}")
    return ", ".join(parts)


def _deck_text(state: GameState) -> str:
    """The deck size, and for Era 1 how many cards lie above the Change of Era card (public:
    the card backs of the eras differ)."""
    size = len(state.deck)
    if state.era == 1 and size:
        era_two = len(state.cards.expansions_of_era(2))
        before = max(size - era_two - 1, 0)
        return f"deck {size} ({before} before the Change of Era)"
    return f"deck {size}"


def _status_text(state: GameState) -> str:
    """Who acts and what they decide, or the final result."""
    if state.phase == GAME_OVER:
        return "game over: " + _result_text(state)
    return f"P{state.current_player} to act: {PHASE_NAMES[state.phase]}"


def _result_text(state: GameState) -> str:
    """'P1 wins with 23' or 'P0, P2 share the win with 19'."""
    if state.final_scores is None or state.winners is None:
        return "no result"
    best = state.final_scores[state.winners[0]]
    names = ", ".join(f"P{p}" for p in state.winners)
    verb = "wins" if len(state.winners) == 1 else "share the win"
    return f"{names} {verb} with {best} VP"


def _split_kept(rolled: Sequence[int], kept: Sequence[int]) -> tuple[list[bool], list[bool]]:
    """Which rolled dice were kept, and which kept values no rolled die explains (fixed dice).

    A fixed die and a rolled die of the same value are interchangeable: the rolled one is
    counted as kept first.
    """
    used = [False] * len(rolled)
    fixed = []
    for value in kept:
        for i, face in enumerate(rolled):
            if not used[i] and face == value:
                used[i] = True
                fixed.append(False)
                break
        else:
            fixed.append(True)
    return used, fixed


def _record_lines(record: ActionRecord) -> list[str]:
    """Plain lines describing one action record (without the header)."""
    lines: list[str] = []
    if record.action < NUM_ATTEMPT_ACTIONS or record.rolled is not None:
        if record.rolled is not None and record.kept is not None:
            rolled, kept, any_fixed = [], [], False
            for colour, (faces, values) in enumerate(zip(record.rolled, record.kept, strict=True)):
                if not faces and not values:
                    continue
                _used, fixed = _split_kept(faces, values)
                letter = COLOUR_LETTERS[colour]
                if faces:
                    rolled.append(f"{letter}: {' '.join(str(v) for v in faces)}")
                shown = [f"{v}f" if f else str(v) for v, f in zip(values, fixed, strict=True)]
                any_fixed = any_fixed or any(fixed)
                kept.append(f"{letter}: {' '.join(shown)}")
            line = "dice   rolled " + ("  ".join(rolled) or "-")
            line = _Ansi.pad(line, 36) + "kept " + "  ".join(kept)
            if any_fixed:
                line += "   (f = fixed die)"
            lines.append(line)
        if record.exchange is not None:
            lines.append(f"exchange {record.exchange.text()} (T3)")
        if record.total is not None:
            bonus = "".join(f" + {amount} ({name})" for name, amount in record.bonuses)
            total = f"{bonus} = {record.total}" if bonus else ""
            result = (record.result or "").upper()
            lines.append(f"sum    {record.dice_sum}{total} vs {record.needed} needed -> {result}")
    elif record.result == "passed":
        lines.append("no eligible target: passed (T2a)")
    extra = []
    if record.acquired:
        extra.append(f"acquired {record.acquired}")
    if record.discarded:
        extra.append(f"discarded {record.discarded}")
    for move in record.chips:
        extra.append(f"{move.count} chip(s) {move.source}->{move.destination} ({move.reason})")
    if extra:
        lines.append("       " + "; ".join(extra))
    events = []
    if record.hindenburg_opened:
        events.append("the Hindenburg opens")
    if record.era_changed:
        events.append("Change of Era: every entrepreneur flips to side II")
    for reveal in record.reveals:
        if reveal.slot is None:
            continue
        text = f"revealed {reveal.card} -> {target_name(reveal.slot)}"
        if reveal.pushed_out:
            text += f" (pushed out {reveal.pushed_out})"
        events.append(text)
    if record.game_over:
        events.append("game over")
    if events:
        lines.append("       " + "; ".join(events))
    return lines


# ---------------------------------------------------------------------------------------------
# ANSI text board
# ---------------------------------------------------------------------------------------------
_ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")
_ANSI_DEPARTMENT = ("38;5;141", "38;5;220", "38;5;137", "38;5;208", "38;5;70", "38;5;75")
_ANSI_PLAYER = ("38;5;204", "38;5;45", "38;5;148", "38;5;177")
_ANSI_DICE = ("97", "91", "90")
_ANSI_RESULT = {"success": "1;92", "failure": "1;91", "chip decision": "1;93", "passed": "2"}


class _Ansi:
    """Optional colouring that keeps columns aligned (padding counts visible characters)."""

    def __init__(self, color: bool):
        self.color = color

    def __call__(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.color and text else text

    @staticmethod
    def pad(text: str, width: int) -> str:
        visible = len(_ANSI_ESCAPE.sub("", text))
        return text + " " * max(width - visible, 0)

    def cost(self, cost: DiceCounts) -> str:
        if not self.color:
            return cost_text(cost)
        parts = [self(f"{n}{COLOUR_LETTERS[c]}", _ANSI_DICE[c]) for c, n in enumerate(cost) if n]
        return "+".join(parts) or "-"


def render_ansi(
    state: GameState,
    last_record: ActionRecord | None = None,
    seat: int | None = None,
    color: bool = False,
) -> str:
    """A text board of the table (public information only, V1) for a 100-column terminal.

    ``seat`` marks that company as "you"; ``color`` adds ANSI colour codes.
    """
    paint = _Ansi(color)
    cards = state.cards
    out: list[str] = []
    rule = "=" * ANSI_WIDTH
    out.append(
        paint(
            f"AIRSHIPS  era {state.era}  {_deck_text(state)}  turn {state.turn}  "
            f"step {state.step}  left the game: {len(state.removed)}",
            "1",
        )
    )
    out.append(paint(_status_text(state), "1;93" if state.phase == GAME_OVER else "1"))
    out.append(rule)

    # The main board: 6 rows of 3 slots, each slot on two lines (id, cost, target / effect).
    cell = 26
    header = _Ansi.pad("MAIN BOARD", 10)
    for slot in range(SLOTS_PER_ROW):
        header += " | " + _Ansi.pad(f"slot {slot + 1}", cell)
    out.append(paint(header.rstrip(), "1"))
    for department in range(len(DEPARTMENTS)):
        first = _Ansi.pad(paint(DEPARTMENT_TITLES[department], _ANSI_DEPARTMENT[department]), 10)
        start = department * SLOTS_PER_ROW
        second = _Ansi.pad(f"t{start}-{start + SLOTS_PER_ROW - 1}", 10)
        for slot in range(SLOTS_PER_ROW):
            card = state.board[start + slot]
            if card == EMPTY:
                top, bottom = "(empty)", ""
            else:
                expansion = cards.expansions[card]
                top = (
                    paint(expansion.id, _ANSI_DEPARTMENT[department])
                    + " "
                    + paint.cost(expansion.cost)
                    + f">={expansion.target}"
                )
                stars = "*" * expansion.stars
                bottom = "  " + effect_text(expansion)[: cell - len(stars) - 3]
                bottom = _Ansi.pad(bottom, cell - len(stars)) + paint(stars, "1;93")
            first += " | " + _Ansi.pad(top, cell)
            second += " | " + _Ansi.pad(bottom, cell)
        out.append(first.rstrip())
        out.append(second.rstrip())
    out.append(rule)

    # Airship stacks (top card and height only, V1) beside the Hindenburg.
    left: list[str] = [paint("AIRSHIP STACKS", "1") + " (top card and height)"]
    for index, stack in enumerate(state.stacks):
        height = f"{len(stack)} card{'s' if len(stack) != 1 else ''}"
        line = f"t{FIRST_STACK_TARGET + index} #{index + 1} {height:<8}"
        if stack:
            airship = cards.airships[stack[-1]]
            line += (
                f" {airship.id} "
                + _Ansi.pad(paint.cost(airship.cost) + f">={airship.target}", 12)
                + f" {airship.stars}VP"
            )
        else:
            line += " (empty)"
        left.append(line)
    if state.hindenburg_open:
        status = paint("open", "1;92") + " (phases in any order)"
    else:
        status = paint("closed", "2") + " (opens when a stack is empty)"
    right: list[str] = [paint("HINDENBURG", "1") + " " + status]
    for index, phase in enumerate(cards.hindenburg):
        holder = state.hindenburg[index]
        if holder != EMPTY:
            mark = "done by " + paint(f"P{holder}", _ANSI_PLAYER[holder % 4])
        else:
            mark = "open" if state.hindenburg_open else "-"
        right.append(
            f"t{FIRST_PHASE_TARGET + index} #{index + 1} "
            + _Ansi.pad(paint.cost(phase.cost) + f">={phase.target}", 11)
            + f" VP {phase.low}/{phase.high:<2}  {mark}"
        )
    for a, b in zip(left, right, strict=True):
        out.append((_Ansi.pad(a, 50) + b).rstrip())
    out.append(rule)

    # Companies.
    header = _Ansi.pad(paint("COMPANIES", "1"), 10)
    for department in range(len(DEPARTMENTS)):
        header += _Ansi.pad(
            paint(DEPARTMENTS[department].capitalize(), _ANSI_DEPARTMENT[department]), 14
        )
    out.append(header.rstrip())
    current_scores = [score_parts(state, p) for p in range(state.num_players)]
    for p, company in enumerate(state.players):
        marker = ">" if p == state.current_player and state.phase != GAME_OVER else " "
        name = paint(f"P{p}", "1;" + _ANSI_PLAYER[p % 4])
        title = f"{marker} {name}"
        if seat == p:
            title += " (you)"
        if state.wooden_airship == p:
            title += " [wooden airship +1]"
        if state.winners is not None and p in state.winners:
            title += " " + paint("WINNER", "1;93")
        parts = current_scores[p]
        total = sum(parts.values())
        on_hindenburg = state.hindenburg.count(p)
        title = _Ansi.pad(title, 36) + (
            f"score {total:>2} = {parts['expansions']} stars + {parts['airships']} airships"
            f" + {parts['hindenburg']} Hindenburg"
        )
        out.append(title)
        slots = _Ansi.pad("    slots", 10)
        for department, card in enumerate(company.slots):
            text = "-" if card == EMPTY else cards.expansions[card].id
            slots += _Ansi.pad(paint(text, _ANSI_DEPARTMENT[department]), 14)
        out.append(slots.rstrip())
        pool = player_pool(state, p)
        dice = "    dice  " + (
            " ".join(
                paint(f"{n}{COLOUR_LETTERS[c]}", _ANSI_DICE[c]) for c, n in enumerate(pool.rollable)
            )
        )
        if pool.fixed:
            dice += " | fixed " + " ".join(f"{COLOUR_LETTERS[c]}{v}" for c, v in pool.fixed)
        if pool.engine_bonuses:
            dice += " | bonus " + " ".join(
                f"+{b.amount}{'any' if b.colour == ANY else COLOUR_LETTERS[b.colour]}"
                for b in pool.engine_bonuses
            )
        if pool.exchange is not None:
            dice += f" | exch {cost_text(pool.exchange.give)}->{cost_text(pool.exchange.get)}"
        chips = f"chips {company.chips_on_board} board, {company.chips_supply} supply"
        if on_hindenburg:
            chips += f", {on_hindenburg} Hindenburg"
        visible = len(_ANSI_ESCAPE.sub("", dice))
        out.append(_Ansi.pad(dice, max(60, visible + 2)) + chips)
        ships = [
            f"{cards.airships[a].id.removeprefix('airship-')}:{cards.airships[a].stars}VP"
            for a in company.airships
        ]
        phases = [f"H{i + 1}" for i, holder in enumerate(state.hindenburg) if holder == p]
        line = f"    airships {len(company.airships)}: " + (" ".join(ships) or "-")
        phase_text = ("Hindenburg phases: " + " ".join(phases)) if phases else ""
        if len(line) + 3 + len(phase_text) <= ANSI_WIDTH:
            out.append(f"{line}   {phase_text}".rstrip())
        else:
            out.extend(textwrap.wrap(line, ANSI_WIDTH, subsequent_indent=" " * 8))
            out.append(" " * 8 + phase_text)
    out.append(rule)

    # The last action, and a roll waiting for its chip decision.
    if last_record is not None:
        record = last_record
        what = record.name
        if record.target and record.action < NUM_ATTEMPT_ACTIONS:
            what += f" -> {record.target}"
        intro = f"LAST ACTION (step {record.step}, turn {record.turn}): P{record.player} "
        what_lines = textwrap.wrap(
            what,
            ANSI_WIDTH - len(intro),
            subsequent_indent=" " * 7,
            break_long_words=False,
        )
        head = (
            paint("LAST ACTION", "1")
            + f" (step {record.step}, turn {record.turn}): "
            + paint(f"P{record.player}", _ANSI_PLAYER[record.player % 4])
            + f" {what_lines[0]}"
        )
        out.append(head)
        out.extend(what_lines[1:])
        wrapped = [
            part
            for line in _record_lines(record)
            for part in textwrap.wrap(
                line, ANSI_WIDTH, subsequent_indent=" " * 7, break_long_words=False
            )
        ]
        for line in wrapped:
            line = line.rstrip()
            for word, code in _ANSI_RESULT.items():
                if color and f"-> {word.upper()}" in line:
                    line = line.replace(word.upper(), paint(word.upper(), code))
            out.append(line)
    else:
        out.append(paint("LAST ACTION", "1") + ": none")
    if state.phase == CHIP_DECISION and state.pending is not None:
        pending: PendingAttempt = state.pending
        info = target_card(state, pending.target)
        name = info[0] if info is not None else target_name(pending.target)
        out.append(
            f"waiting: P{state.current_player} rolled {pending.total} vs "
            f"{pending.needed} needed for {name}: spend a chip (+1) or keep it?"
        )
    if state.phase == GAME_OVER and state.final_scores is not None:
        out.append(
            "final scores: " + "  ".join(f"P{p} {s}" for p, s in enumerate(state.final_scores))
        )
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------
# RGB picture (Pillow)
# ---------------------------------------------------------------------------------------------
RGB = tuple[int, int, int]

BACKGROUND: RGB = (30, 34, 42)
PANEL: RGB = (46, 52, 64)
PANEL_EDGE: RGB = (70, 78, 94)
TEXT: RGB = (232, 234, 238)
MUTED: RGB = (150, 157, 170)
DARK_TEXT: RGB = (28, 28, 32)
GOLD: RGB = (250, 200, 40)
DEPARTMENT_COLOURS: tuple[RGB, ...] = (
    (128, 78, 168),  # Financiers: purple
    (236, 196, 40),  # Hangars: yellow
    (139, 94, 56),  # Captains: brown
    (238, 128, 36),  # Engineers: orange
    (62, 150, 72),  # Engines: green
    (52, 108, 196),  # Materials: blue
)
DEPARTMENT_TEXT: tuple[RGB, ...] = (TEXT, DARK_TEXT, TEXT, DARK_TEXT, TEXT, TEXT)
TIER_COLOURS: dict[int, RGB] = {1: (168, 212, 240), 2: (86, 146, 210), 3: (30, 64, 128)}
TIER_TEXT: dict[int, RGB] = {1: DARK_TEXT, 2: DARK_TEXT, 3: TEXT}
PLAYER_COLOURS: tuple[RGB, ...] = ((226, 70, 110), (40, 176, 210), (150, 196, 48), (190, 96, 226))
DICE_FILL: tuple[RGB, ...] = ((246, 246, 242), (206, 44, 44), (24, 24, 24), (150, 150, 150))
DICE_EDGE: tuple[RGB, ...] = ((80, 80, 80), (110, 16, 16), (170, 170, 170), (80, 80, 80))
DICE_LABEL: tuple[RGB, ...] = (DARK_TEXT, (255, 255, 255), (255, 255, 255), (255, 255, 255))
RESULT_COLOURS: dict[str, RGB] = {
    "success": (96, 206, 96),
    "failure": (236, 84, 84),
    "chip decision": GOLD,
    "passed": MUTED,
}
HINDENBURG_HEAD: RGB = (176, 180, 190)


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved a fraction ``t`` towards ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


_fonts: dict[int, ImageFont.FreeTypeFont | ImageFont.ImageFont] = {}
_text_masks: dict[tuple[str, int, bool], Image.Image] = {}
_digit_box: dict[int, tuple[int, int]] = {}
_MAX_TEXT_MASKS = 3000

Anchor = Literal["l", "c", "r"]


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's built-in font at ``size`` (no font file needed)."""
    font = _fonts.get(size)
    if font is None:
        font = ImageFont.load_default(size=size)
        _fonts[size] = font
    return font


def _text_mask(text: str, size: int, bold: bool) -> Image.Image:
    """The text as an 'L' mask whose top is the font's ascender line (cached: FreeType is slow)."""
    key = (text, size, bold)
    mask = _text_masks.get(key)
    if mask is None:
        font = _font(size)
        width = int(font.getlength(text)) + 2 + int(bold)
        ascent, descent = font.getmetrics()  # type: ignore[union-attr]
        mask = Image.new("L", (max(width, 1), ascent + descent))
        draw = ImageDraw.Draw(mask)
        draw.text((0, 0), text, fill=255, font=font, anchor="la")
        if bold:  # the built-in font has no bold face: draw it twice, one pixel apart
            draw.text((1, 0), text, fill=255, font=font, anchor="la")
        if len(_text_masks) >= _MAX_TEXT_MASKS:
            _text_masks.clear()
        _text_masks[key] = mask
    return mask


def _digit_extent(size: int) -> tuple[int, int]:
    """Top and bottom of a digit's ink below the ascender line, for vertical centring."""
    extent = _digit_box.get(size)
    if extent is None:
        box = _font(size).getbbox("0", anchor="la")
        extent = (int(box[1]), int(box[3]))
        _digit_box[size] = extent
    return extent


class _Painter:
    """Drawing helpers over one Pillow image: cached text, dice squares, stars, chips."""

    def __init__(self, image: Image.Image):
        self.image = image
        self.draw = ImageDraw.Draw(image)

    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: int,
        fill: RGB,
        bold: bool = False,
        anchor: Anchor = "l",
        middle: bool = False,
    ) -> int:
        """Draw text with its top (or, if ``middle``, its digit-height centre) at ``y``;
        returns the x just right of it."""
        if not text:
            return int(x)
        mask = _text_mask(text, size, bold)
        width = mask.width - 2
        if anchor == "c":
            x -= width / 2
        elif anchor == "r":
            x -= width
        if middle:
            top, bottom = _digit_extent(size)
            y -= (top + bottom) / 2
        left, top_y = round(x), round(y)
        self.image.paste(fill, (left, top_y, left + mask.width, top_y + mask.height), mask)
        return left + width

    def width(self, text: str, size: int, bold: bool = False) -> int:
        """The advance width of a text."""
        return _text_mask(text, size, bold).width - 2

    def box(
        self,
        x0: float,
        y0: float,
        x1: float,
        y1: float,
        fill: RGB | None,
        outline: RGB | None = None,
        width: int = 1,
        radius: int = 0,
    ) -> None:
        """A (rounded) rectangle."""
        if radius:
            self.draw.rounded_rectangle(
                (x0, y0, x1, y1), radius, fill=fill, outline=outline, width=width
            )
        else:
            self.draw.rectangle((x0, y0, x1, y1), fill=fill, outline=outline, width=width)

    def dashed_box(self, x0: int, y0: int, x1: int, y1: int, colour: RGB, dash: int = 6) -> None:
        """An empty place: a dashed outline."""
        for x in range(x0, x1, dash * 2):
            self.draw.line((x, y0, min(x + dash, x1), y0), fill=colour)
            self.draw.line((x, y1, min(x + dash, x1), y1), fill=colour)
        for y in range(y0, y1, dash * 2):
            self.draw.line((x0, y, x0, min(y + dash, y1)), fill=colour)
            self.draw.line((x1, y, x1, min(y + dash, y1)), fill=colour)

    def die(
        self,
        x: float,
        y: float,
        size: int,
        colour: int,
        label: str,
        fixed: bool = False,
        dim: bool = False,
        background: RGB = BACKGROUND,
    ) -> int:
        """A die square of a colour (3 = any) with a label; ``fixed`` rings it in gold."""
        fill, edge, ink = DICE_FILL[colour], DICE_EDGE[colour], DICE_LABEL[colour]
        if dim:
            fill, edge, ink = (
                _mix(fill, background, 0.6),
                _mix(edge, background, 0.6),
                _mix(ink, background, 0.6),
            )
        if fixed:
            self.box(x - 2, y - 2, x + size + 1, y + size + 1, GOLD, radius=4)
        self.box(x, y, x + size - 1, y + size - 1, fill, edge, 1, radius=3)
        if label:
            self.text(
                x + size / 2,
                y + size / 2,
                label,
                max(size * 2 // 3, 9),
                ink,
                bold=True,
                anchor="c",
                middle=True,
            )
        return int(x + size)

    def dice_counts(
        self,
        x: float,
        y: float,
        size: int,
        counts: DiceCounts,
        gap: int = 3,
        background: RGB = BACKGROUND,
    ) -> int:
        """One square per colour present, its count inside; returns the x after the last."""
        for colour, count in enumerate(counts):
            if count:
                x = self.die(x, y, size, colour, str(count), background=background) + gap
        return int(x)

    def star(self, cx: float, cy: float, radius: float, fill: RGB = GOLD) -> None:
        """A five-pointed star (the built-in font has no star glyph)."""
        points = []
        for k in range(10):
            r = radius if k % 2 == 0 else radius * 0.45
            angle = -np.pi / 2 + k * np.pi / 5
            points.append((cx + r * np.cos(angle), cy + r * np.sin(angle)))
        self.draw.polygon(points, fill=fill, outline=(120, 90, 10))

    def chip(self, cx: float, cy: float, radius: float, filled: bool) -> None:
        """A bonus chip: filled on the board, hollow in the supply."""
        box = (cx - radius, cy - radius, cx + radius, cy + radius)
        if filled:
            self.draw.ellipse(box, fill=GOLD, outline=(120, 90, 10))
        else:
            self.draw.ellipse(box, outline=MUTED, width=1)

    def wooden_airship(self, x: float, y: float, scale: float = 1.0) -> None:
        """The wooden airship token: an envelope with a gondola."""
        wood, edge = (196, 140, 80), (96, 62, 28)
        w, h = 30 * scale, 12 * scale
        self.draw.ellipse((x, y, x + w, y + h), fill=wood, outline=edge)
        self.draw.polygon(
            [(x + 1, y + h / 2), (x - 4 * scale, y), (x - 4 * scale, y + h)],
            fill=wood,
            outline=edge,
        )
        self.box(x + w * 0.35, y + h, x + w * 0.65, y + h + 4 * scale, wood, edge)

    def triangle(self, x: float, y: float, size: float, fill: RGB) -> None:
        """A right-pointing marker (the built-in font has no arrow glyph)."""
        self.draw.polygon([(x, y), (x + size, y + size / 2), (x, y + size)], fill=fill)

    def arrow(self, x: float, cy: float, length: float, fill: RGB) -> int:
        """A short right arrow for exchanges; returns the x after it."""
        self.draw.line((x, cy, x + length - 4, cy), fill=fill, width=2)
        self.draw.polygon(
            [(x + length - 6, cy - 4), (x + length, cy), (x + length - 6, cy + 4)], fill=fill
        )
        return int(x + length)


class _ImageCache:
    """Drawn parts of the picture by a key of exactly what they show (least recently used out)."""

    def __init__(self, max_entries: int):
        self.max_entries = max_entries
        self.images: OrderedDict[tuple[object, ...], Image.Image] = OrderedDict()

    def paste(
        self,
        image: Image.Image,
        key: tuple[object, ...],
        size: tuple[int, int],
        draw: Callable[[_Painter], None],
        x: int,
        y: int,
    ) -> None:
        """Paste the cached part at (x, y), drawing it first with ``draw`` if it is new."""
        part = self.images.get(key)
        if part is None:
            part = Image.new("RGB", size, BACKGROUND)
            draw(_Painter(part))
            self.images[key] = part
            if len(self.images) > self.max_entries:
                self.images.popitem(last=False)
        else:
            self.images.move_to_end(key)
        image.paste(part, (x, y))


# Sizes: a few hundred card tiles exist in all; a frame needs 1 board, 1 right column, 4 companies.
_tiles = _ImageCache(400)
_board_sections = _ImageCache(8)
_right_sections = _ImageCache(8)
_company_sections = _ImageCache(32)


def _effect_tokens(
    p: _Painter,
    x: float,
    y: float,
    size: int,
    expansion: Expansion,
    ink: RGB,
    background: RGB,
    compact: bool = False,
) -> int:
    """An expansion's effect with die squares; returns the x after it.

    ``compact`` leaves out the words that the squares make clear (for the company tiles).
    """
    font_size = size - 3
    mid = y + size / 2
    if any(expansion.dice):
        x = p.text(x, mid, "+", font_size + 1, ink, bold=True, middle=True) + 2
        x = p.dice_counts(x, y, size, expansion.dice, background=background)
        if not compact:
            x = p.text(x, mid, "dice", font_size, ink, middle=True)
        x += 5
    if expansion.chips:
        x = p.text(x, mid, f"+{expansion.chips}", font_size, ink, bold=True, middle=True) + 2
        p.chip(x + size / 2 - 1, mid, size / 2 - 2, True)
        x += size + 3
        if not compact:
            x = (
                p.text(
                    x, mid, "chip" if expansion.chips == 1 else "chips", font_size, ink, middle=True
                )
                + 5
            )
    if expansion.fixed_die is not None:
        fixed = expansion.fixed_die
        x = p.text(x, mid, "fixed", font_size, ink, middle=True) + 5
        x = p.die(x, y, size, fixed.colour, str(fixed.value), fixed=True, background=background) + 5
    for bonus in expansion.engine_bonuses:
        x = p.text(x, mid, f"+{bonus.amount}", font_size + 1, ink, bold=True, middle=True) + 3
        x = p.text(x, mid, "on", font_size, ink, middle=True) + 3
        if bonus.colour == ANY:
            x = (
                p.text(
                    x,
                    mid,
                    "any roll" if not compact else "any",
                    font_size,
                    ink,
                    bold=True,
                    middle=True,
                )
                + 5
            )
        else:
            x = p.die(x, y, size, bonus.colour, "", background=background) + 3
            if not compact:
                x = p.text(x, mid, "rolls", font_size, ink, middle=True) + 5
    if expansion.exchange is not None:
        exchange = expansion.exchange
        if not compact:
            x = p.text(x, mid, "trade", font_size, ink, middle=True) + 5
        x = p.dice_counts(x, y, size, exchange.give, background=background)
        x = p.arrow(x + 1, mid, 14, ink) + 3
        x = p.dice_counts(x, y, size, exchange.get, background=background)
    return int(x)


def _stars(p: _Painter, right: float, cy: float, count: int, radius: float) -> None:
    """``count`` stars ending at ``right``."""
    for k in range(count):
        p.star(right - radius - k * (2 * radius + 2), cy, radius)


BOARD_TILE = (194, 74)
STACK_TILE = (118, 90)
PHASE_TILE = (126, 86)
SLOT_TILE = (97, 50)


def _draw_board_tile(p: _Painter, cards: CardSet, card: int) -> None:
    expansion = cards.expansions[card]
    colour = DEPARTMENT_COLOURS[expansion.department]
    body = _mix(colour, (255, 255, 255), 0.78)
    w, h = BOARD_TILE
    p.box(0, 0, w - 1, h - 1, body, colour, 2, radius=6)
    p.box(0, 0, w - 1, 21, colour, None, radius=6)
    p.box(0, 14, w - 1, 21, colour)
    p.text(7, 4, expansion.id, 14, DEPARTMENT_TEXT[expansion.department], bold=True)
    era = {0: "start", 1: "era I", 2: "era II"}[expansion.era]
    p.text(w - 7, 5, era, 11, DEPARTMENT_TEXT[expansion.department], anchor="r")
    x = p.dice_counts(7, 27, 19, expansion.cost, background=body)
    p.text(x + 3, 27 + 19 / 2, f">= {expansion.target}", 17, DARK_TEXT, bold=True, middle=True)
    _stars(p, w - 7, 27 + 19 / 2, expansion.stars, 8)
    _effect_tokens(p, 7, 51, 17, expansion, DARK_TEXT, body)


def _draw_stack_tile(p: _Painter, cards: CardSet, airship_index: int) -> None:
    airship = cards.airships[airship_index]
    colour = TIER_COLOURS[airship.tier]
    body = (226, 236, 246)
    w, h = STACK_TILE
    p.box(0, 0, w - 1, h - 1, body, colour, 2, radius=6)
    p.box(0, 0, w - 1, 20, colour, None, radius=6)
    p.box(0, 14, w - 1, 20, colour)
    p.text(6, 3, airship.id, 13, TIER_TEXT[airship.tier], bold=True)
    x = p.dice_counts(6, 27, 18, airship.cost, background=body)
    p.text(x + 3, 36, f">= {airship.target}", 16, DARK_TEXT, bold=True, middle=True)
    p.star(14, 66, 9)
    p.text(28, 66, f"{airship.stars} VP", 17, DARK_TEXT, bold=True, middle=True)


def _draw_phase_tile(
    p: _Painter, cards: CardSet, phase_index: int, holder: int, is_open: bool
) -> None:
    phase = cards.hindenburg[phase_index]
    w, h = PHASE_TILE
    body = (226, 228, 234)
    edge = PLAYER_COLOURS[holder % 4] if holder != EMPTY else (120, 124, 134)
    p.box(0, 0, w - 1, h - 1, body, edge, 3 if holder != EMPTY else 2, radius=6)
    p.box(0, 0, w - 1, 20, HINDENBURG_HEAD, None, radius=6)
    p.box(0, 14, w - 1, 20, HINDENBURG_HEAD)
    p.text(6, 3, f"Phase {phase_index + 1}", 13, DARK_TEXT, bold=True)
    p.text(w - 6, 4, f"t{FIRST_PHASE_TARGET + phase_index}", 11, (70, 74, 84), anchor="r")
    x = p.dice_counts(6, 26, 18, phase.cost, background=body)
    p.text(x + 3, 35, f">= {phase.target}", 16, DARK_TEXT, bold=True, middle=True)
    if holder != EMPTY:
        band = PLAYER_COLOURS[holder % 4]
        p.box(3, 52, w - 4, h - 4, band, None, radius=4)
        p.text(8, 52 + (h - 56) / 2, f"P{holder}", 16, DARK_TEXT, bold=True, middle=True)
        p.text(
            w - 8,
            52 + (h - 56) / 2,
            f"{phase.low} / {phase.high} VP",
            13,
            DARK_TEXT,
            anchor="r",
            middle=True,
        )
    else:
        p.text(6, 60, f"{phase.low} VP, all 4: {phase.high}", 13, DARK_TEXT, middle=True)
        p.text(6, 76, "open" if is_open else "not open yet", 12, (80, 84, 94), middle=True)
    if not is_open:
        grey = Image.new("RGB", (w, h), BACKGROUND)
        p.image.paste(Image.blend(p.image, grey, 0.55))


def _draw_slot_tile(p: _Painter, cards: CardSet, department: int, card: int) -> None:
    w, h = SLOT_TILE
    colour = DEPARTMENT_COLOURS[department]
    if card == EMPTY:
        p.box(0, 0, w - 1, h - 1, PANEL)
        p.dashed_box(0, 0, w - 1, h - 1, _mix(colour, PANEL, 0.35), dash=4)
        p.text(
            w / 2,
            h / 2,
            DEPARTMENTS[department],
            12,
            _mix(colour, TEXT, 0.3),
            anchor="c",
            middle=True,
        )
        return
    expansion = cards.expansions[card]
    body = _mix(colour, (255, 255, 255), 0.78)
    p.box(0, 0, w - 1, h - 1, body, colour, 1, radius=4)
    p.box(0, 0, w - 1, 16, colour, None, radius=4)
    p.box(0, 10, w - 1, 16, colour)
    p.text(4, 2, expansion.id, 12, DEPARTMENT_TEXT[department], bold=True)
    right = _effect_tokens(p, 4, 21, 15, expansion, DARK_TEXT, body, compact=True)
    if right > w - 2:  # too wide for the small tile: the short text instead
        p.box(1, 17, w - 2, h - 2, body)
        p.text(4, 22, effect_text(expansion), 10, DARK_TEXT)
    _stars(p, w - 4, h - 7, expansion.stars, 4.5)


def render_rgb(state: GameState, last_record: ActionRecord | None = None) -> np.ndarray:
    """A picture of the whole table (public information only, V1): (800, 1280, 3) uint8.

    The main board, the stacks with the Hindenburg and each company are drawn once per distinct
    public content and cached (the cache keys hold exactly what each part shows).
    """
    image = Image.new("RGB", (RGB_WIDTH, RGB_HEIGHT), BACKGROUND)
    p = _Painter(image)
    cards = state.cards
    digest = cards.digest
    _draw_top_bar(p, state)
    board_key = ("board", digest, tuple(state.board))
    _board_sections.paste(
        image,
        board_key,
        BOARD_SIZE,
        partial(_draw_main_board, state=state, digest=digest),
        BOARD_X,
        BOARD_Y,
    )
    # V1: a stack shows its top card and its height, never the cards below.
    tops = tuple((stack[-1] if stack else EMPTY, len(stack)) for stack in state.stacks)
    right_key = ("right", digest, tops, tuple(state.hindenburg), state.hindenburg_open)
    _right_sections.paste(
        image,
        right_key,
        RIGHT_SIZE,
        partial(_draw_stacks_and_hindenburg, state=state, digest=digest),
        RIGHT_X,
        BOARD_Y,
    )
    _draw_last_action(p, state, last_record)
    companies_left = (
        RGB_WIDTH - state.num_players * COMPANY_PITCH + COMPANY_PITCH - COMPANY_W
    ) // 2
    for player in range(state.num_players):
        company = state.players[player]
        key = (
            "company",
            digest,
            player,
            state.era,
            tuple(company.slots),
            tuple(company.airships),
            company.chips_on_board,
            company.chips_supply,
            tuple(state.hindenburg),
            state.wooden_airship == player,
            player == state.current_player and state.phase != GAME_OVER,
            state.winners is not None and player in state.winners,
        )
        _company_sections.paste(
            image,
            key,
            (COMPANY_W, COMPANY_H),
            partial(_draw_company, state=state, player=player, digest=digest),
            companies_left + player * COMPANY_PITCH,
            COMPANY_Y,
        )
    # tobytes + frombuffer is several times faster than np.asarray(image); copy: writable.
    pixels = np.frombuffer(image.tobytes(), dtype=np.uint8)
    return pixels.reshape(RGB_HEIGHT, RGB_WIDTH, 3).copy()


def _draw_top_bar(p: _Painter, state: GameState) -> None:
    p.box(0, 0, RGB_WIDTH - 1, 33, PANEL)
    p.draw.line((0, 34, RGB_WIDTH, 34), fill=PANEL_EDGE)
    x = p.text(14, 7, "AIRSHIPS", 20, TEXT, bold=True) + 24
    x = p.text(x, 9, f"Era {'I' if state.era == 1 else 'II'}", 17, GOLD, bold=True) + 22
    deck = _deck_text(state)
    x = p.text(x, 9, deck[0].upper() + deck[1:], 16, TEXT) + 22
    x = p.text(x, 9, f"Turn {state.turn}   step {state.step}", 16, MUTED) + 22
    x = p.text(x, 9, f"{len(state.removed)} left the game", 16, MUTED) + 22
    if state.phase == GAME_OVER:
        p.text(
            RGB_WIDTH - 14, 8, "Game over: " + _result_text(state), 17, GOLD, bold=True, anchor="r"
        )
    else:
        player = state.current_player
        right = RGB_WIDTH - 14
        phase_width = p.width(PHASE_NAMES[state.phase], 16)
        p.text(right, 9, PHASE_NAMES[state.phase], 16, TEXT, anchor="r")
        name_right = right - phase_width - 10
        p.text(
            name_right,
            8,
            f"P{player} to act:",
            17,
            PLAYER_COLOURS[player % 4],
            bold=True,
            anchor="r",
        )


BOARD_X, BOARD_Y = 10, 44
BOARD_LABEL_W = 100
BOARD_ROW_PITCH = 80
BOARD_COL_PITCH = 202
BOARD_SIZE = (
    BOARD_LABEL_W + 2 * BOARD_COL_PITCH + BOARD_TILE[0],
    5 * BOARD_ROW_PITCH + BOARD_TILE[1],
)


def _draw_main_board(p: _Painter, state: GameState, digest: str) -> None:
    """The six department rows of three slots (P1), in section coordinates."""
    cards = state.cards
    for department in range(len(DEPARTMENTS)):
        y = department * BOARD_ROW_PITCH
        colour = DEPARTMENT_COLOURS[department]
        p.box(0, y, 5, y + BOARD_TILE[1] - 1, colour)
        p.text(
            12,
            y + 12,
            DEPARTMENT_TITLES[department],
            16,
            _mix(colour, (255, 255, 255), 0.3),
            bold=True,
        )
        start = department * SLOTS_PER_ROW
        p.text(12, y + 36, f"targets {start}-{start + SLOTS_PER_ROW - 1}", 12, MUTED)
        for slot in range(SLOTS_PER_ROW):
            x = BOARD_LABEL_W + slot * BOARD_COL_PITCH
            card = state.board[start + slot]
            if card == EMPTY:
                p.dashed_box(
                    x,
                    y,
                    x + BOARD_TILE[0] - 1,
                    y + BOARD_TILE[1] - 1,
                    _mix(colour, BACKGROUND, 0.45),
                )
                p.text(
                    x + BOARD_TILE[0] / 2,
                    y + BOARD_TILE[1] / 2,
                    "empty",
                    13,
                    MUTED,
                    anchor="c",
                    middle=True,
                )
                continue
            _tiles.paste(
                p.image,
                ("board", digest, card),
                BOARD_TILE,
                partial(_draw_board_tile, cards=cards, card=card),
                x,
                y,
            )


RIGHT_X = 732
STACK_Y = 22  # in the right section, which starts at BOARD_Y
STACK_PITCH = 136
PHASE_Y = 170
RIGHT_SIZE = (RGB_WIDTH - 10 - RIGHT_X, PHASE_Y + PHASE_TILE[1])


def _draw_stacks_and_hindenburg(p: _Painter, state: GameState, digest: str) -> None:
    """The four airship stacks (top card and height, V1) and the Hindenburg's phases."""
    cards = state.cards
    p.text(0, 0, "Airship stacks", 16, TEXT, bold=True)
    p.text(132, 2, "top card and height; the cards below are hidden", 13, MUTED)
    w, h = STACK_TILE
    for index, stack in enumerate(state.stacks):
        x = index * STACK_PITCH
        y = STACK_Y
        height = len(stack)
        # The backs under the top card: their tiers follow from the height alone (S2).
        for depth in range(height - 1, 0, -1):
            tier = STACK_TIERS_FROM_BOTTOM[height - 1 - depth]
            offset = 5 * depth
            p.box(
                x + offset,
                y + offset,
                x + offset + w - 1,
                y + offset + h - 1,
                TIER_COLOURS[tier],
                (12, 20, 40),
                1,
                radius=6,
            )
        if stack:
            _tiles.paste(
                p.image,
                ("stack", digest, stack[-1]),
                STACK_TILE,
                partial(_draw_stack_tile, cards=cards, airship_index=stack[-1]),
                x,
                y,
            )
        else:
            p.dashed_box(x, y, x + w - 1, y + h - 1, MUTED)
            p.text(x + w / 2, y + h / 2, "empty", 14, MUTED, anchor="c", middle=True)
        label = f"t{FIRST_STACK_TARGET + index}  height {height}"
        p.text(x, y + h + 14, label, 13, TEXT if height else MUTED)

    y = PHASE_Y - 24
    x = p.text(0, y, "Hindenburg", 16, TEXT, bold=True) + 12
    if state.hindenburg_open:
        p.text(x, y + 2, "open: each phase once, in any order", 13, RESULT_COLOURS["success"])
    else:
        p.text(x, y + 2, "not open: it opens when an airship stack is empty", 13, MUTED)
    for index in range(len(cards.hindenburg)):
        holder = state.hindenburg[index]
        key = ("phase", digest, index, holder, state.hindenburg_open)
        _tiles.paste(
            p.image,
            key,
            PHASE_TILE,
            partial(
                _draw_phase_tile,
                cards=cards,
                phase_index=index,
                holder=holder,
                is_open=state.hindenburg_open,
            ),
            index * STACK_PITCH,
            PHASE_Y,
        )


LAST_Y = 314
LAST_H = 208


def _draw_last_action(p: _Painter, state: GameState, record: ActionRecord | None) -> None:
    x0, y0 = RIGHT_X - 6, LAST_Y
    x1 = RGB_WIDTH - 10
    p.box(x0, y0, x1, y0 + LAST_H, PANEL, PANEL_EDGE, 1, radius=8)
    x = x0 + 12
    y = y0 + 10
    if record is None:
        p.text(x, y, "Last action", 16, TEXT, bold=True)
        p.text(x, y + 30, "none yet", 14, MUTED)
        return
    right = p.text(x, y, "Last action", 16, TEXT, bold=True) + 12
    p.text(right, y + 2, f"step {record.step}, turn {record.turn}", 13, MUTED)
    y += 28
    colour = PLAYER_COLOURS[record.player % 4]
    p.box(x, y, x + 30, y + 20, colour, None, radius=4)
    p.text(x + 15, y + 10, f"P{record.player}", 14, DARK_TEXT, bold=True, anchor="c", middle=True)
    what = record.name
    if record.target and record.action < NUM_ATTEMPT_ACTIONS:
        what = f"{what}: {record.target}"
    elif record.target:
        what = f"{what} ({record.target})"
    p.text(x + 40, y + 10, what, 14, TEXT, middle=True)
    y += 30
    if record.rolled is not None and record.kept is not None:
        dx = x
        size = 26
        for colour_index, (faces, kept) in enumerate(zip(record.rolled, record.kept, strict=True)):
            if not faces and not kept:
                continue
            used, fixed = _split_kept(faces, kept)
            for face, is_kept in zip(faces, used, strict=True):
                dx = (
                    p.die(dx, y, size, colour_index, str(face), dim=not is_kept, background=PANEL)
                    + 5
                )
            for value in (v for v, f in zip(kept, fixed, strict=True) if f):
                dx = (
                    p.die(dx + 2, y, size, colour_index, str(value), fixed=True, background=PANEL)
                    + 7
                )
            dx += 10
        p.text(
            dx + 4, y + size / 2, "dimmed: not kept   gold ring: fixed die", 12, MUTED, middle=True
        )
        y += size + 12
    if record.exchange is not None:
        p.text(x, y, f"exchange: {record.exchange.text()}", 13, MUTED)
        y += 20
    if record.total is not None:
        terms = [str(record.dice_sum)] + [f"{amount} ({name})" for name, amount in record.bonuses]
        line = "dice " + " + ".join(terms) + (f" = {record.total}" if record.bonuses else "")
        after = p.text(x, y, line, 15, TEXT, bold=True) + 10
        after = p.text(after, y, f"needed {record.needed}", 15, MUTED) + 16
        result = record.result or ""
        p.text(after, y - 1, result.upper(), 17, RESULT_COLOURS.get(result, TEXT), bold=True)
        y += 26
    elif record.result == "passed":
        p.text(x, y, "no eligible target: passed (T2a)", 14, MUTED)
        y += 24
    extras = []
    if record.acquired:
        extras.append(f"acquired {record.acquired}")
    if record.discarded:
        extras.append(f"discarded {record.discarded}")
    for move in record.chips:
        extras.append(
            f"P{move.player}: {move.count} chip{'s' if move.count > 1 else ''} "
            f"{move.source} -> {move.destination} ({move.reason})"
        )
    events = []
    if record.hindenburg_opened:
        events.append("The Hindenburg opens!")
    if record.era_changed:
        events.append("Change of Era: entrepreneurs flip to side II")
    for reveal in record.reveals:
        if reveal.slot is not None:
            text = f"revealed {reveal.card} -> {target_name(reveal.slot)}"
            if reveal.pushed_out:
                text += f", pushing out {reveal.pushed_out}"
            events.append(text)
    lines = [(t, TEXT) for t in extras] + [(t, GOLD) for t in events]
    if state.phase == CHIP_DECISION and state.pending is not None:
        lines.append((f"P{state.current_player} decides: spend a chip (+1) or keep it", GOLD))
    for text, fill in lines:
        if y > y0 + LAST_H - 20:
            break
        p.text(x, y, text, 13, fill)
        y += 19


COMPANY_Y = 532
COMPANY_H = 258
COMPANY_PITCH = 317
COMPANY_W = 309


def _draw_company(p: _Painter, state: GameState, player: int, digest: str) -> None:
    """One company board, in section coordinates."""
    cards = state.cards
    x1, y1 = COMPANY_W - 1, COMPANY_H - 1
    colour = PLAYER_COLOURS[player % 4]
    acting = player == state.current_player and state.phase != GAME_OVER
    p.box(0, 0, x1, y1, PANEL, colour, 3 if acting else 1, radius=8)
    p.box(0, 0, x1, 27, colour, None, radius=8)
    p.box(0, 18, x1, 27, colour)
    x = p.text(10, 14, f"P{player}", 18, DARK_TEXT, bold=True, middle=True) + 10
    if acting:
        p.triangle(x, 7, 14, DARK_TEXT)
        x = p.text(x + 18, 14, "to act", 14, DARK_TEXT, bold=True, middle=True) + 10
    if state.winners is not None and player in state.winners:
        x = p.text(x, 14, "WINNER", 15, DARK_TEXT, bold=True, middle=True) + 10
    if state.wooden_airship == player:
        p.wooden_airship(x + 6, 7)
        p.text(x + 40, 14, "+1", 14, DARK_TEXT, bold=True, middle=True)
    parts = score_parts(state, player)
    p.text(
        x1 - 10, 14, f"{sum(parts.values())} VP", 18, DARK_TEXT, bold=True, anchor="r", middle=True
    )

    company = state.players[player]
    sw, sh = SLOT_TILE
    for department, card in enumerate(company.slots):
        row, col = divmod(department, 3)
        _tiles.paste(
            p.image,
            ("slot", digest, department, card),
            SLOT_TILE,
            partial(_draw_slot_tile, cards=cards, department=department, card=card),
            6 + col * (sw + 4),
            34 + row * (sh + 4),
        )

    y = 34 + 2 * (sh + 4) + 4
    pool = player_pool(state, player)
    mid = y + 9
    x = p.text(10, mid, "dice", 13, MUTED, middle=True) + 8
    x = p.dice_counts(x, y, 18, pool.rollable, background=PANEL) + 4
    for colour_index, value in pool.fixed:
        x = p.die(x + 2, y, 18, colour_index, str(value), fixed=True, background=PANEL) + 5
    for bonus in pool.engine_bonuses:
        x = p.text(x + 4, mid, f"+{bonus.amount} on", 14, TEXT, bold=True, middle=True) + 3
        if bonus.colour == ANY:
            x = p.text(x, mid, "any", 14, TEXT, bold=True, middle=True) + 2
        else:
            x = p.die(x, y, 18, bonus.colour, "", background=PANEL) + 2
    if pool.exchange is not None:
        x = p.dice_counts(x + 8, y, 18, pool.exchange.give, background=PANEL)
        x = p.arrow(x + 1, mid, 14, TEXT) + 3
        p.dice_counts(x, y, 18, pool.exchange.get, background=PANEL)

    y += 28
    mid = y + 8
    x = p.text(10, mid, "chips", 13, MUTED, middle=True) + 8
    for _ in range(company.chips_on_board):
        p.chip(x + 7, mid, 7, True)
        x += 17
    for _ in range(company.chips_supply):
        p.chip(x + 7, mid, 7, False)
        x += 17
    marks = state.hindenburg.count(player)  # T6: a chip marks each completed phase
    for _ in range(marks):
        p.draw.ellipse((x, mid - 7, x + 14, mid + 7), fill=HINDENBURG_HEAD, outline=colour, width=2)
        x += 17
    counts = f"{company.chips_on_board} board, {company.chips_supply} supply"
    p.text(x + 6, mid, counts + (f", {marks} H" if marks else ""), 13, TEXT, middle=True)

    y += 26
    mid = y + 13
    x = p.text(10, mid, "ships", 13, MUTED, middle=True) + 8
    phases = [index for index, holder in enumerate(state.hindenburg) if holder == player]
    count = len(company.airships) + len(phases)
    if not count:
        p.text(x, mid, "none", 13, MUTED, middle=True)
    # Airships, then the completed phases (E3 counts them as airships); narrower when many.
    pitch = min(28, (x1 - 6 - x) // max(count, 1))
    size = 15 if pitch >= 22 else 11
    for airship_index in company.airships:
        airship = cards.airships[airship_index]
        p.box(x, y, x + pitch - 4, y + 26, TIER_COLOURS[airship.tier], (12, 20, 40), 1, radius=4)
        p.text(
            x + (pitch - 4) / 2,
            mid,
            str(airship.stars),
            size,
            TIER_TEXT[airship.tier],
            bold=True,
            anchor="c",
            middle=True,
        )
        x += pitch
    for index in phases:
        p.box(x, y, x + pitch - 4, y + 26, HINDENBURG_HEAD, colour, 2, radius=4)
        label = f"H{index + 1}"
        p.text(
            x + (pitch - 4) / 2,
            mid,
            label,
            max(size - 3, 9),
            DARK_TEXT,
            bold=True,
            anchor="c",
            middle=True,
        )
        x += pitch

    y += 34
    p.text(
        10,
        y,
        f"{parts['expansions']} stars + {parts['airships']} airships + "
        f"{parts['hindenburg']} Hindenburg",
        13,
        MUTED,
    )
