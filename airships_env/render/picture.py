"""The picture of the table: a ``(800, 1280, 3)`` uint8 array drawn with Pillow (rgb_array).

It reads public information only (docs/airships/RULES.md V1): the main board, the top card and the height
of each airship stack, the Hindenburg, every company, the era, the deck size and the cards that
left the game; never the deck's order, the cards under a stack's top card, the airships left out
at setup or the random generator (V2). Its words come from :mod:`airships_env.engine.text`, its
colours from :mod:`airships_env.render.palette`. Card tiles, text and unchanged parts of the
table are cached between frames, so a frame costs under 10 ms of CPU.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
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
)
from airships_env.engine.actions import (
    FIRST_PHASE_TARGET,
    FIRST_STACK_TARGET,
    SLOTS_PER_ROW,
)
from airships_env.engine.cards import ANY, DEPARTMENTS, CardSet, DiceCounts, Expansion
from airships_env.engine.state import EMPTY
from airships_env.engine.text import (
    ARROW,
    DROPPED,
    FIXED,
    Dice,
    Die,
    action_text,
    deck_text,
    effect_parts,
    effect_text,
    exchange_made_parts,
    plain,
    record_events,
    removed_text,
    result_label,
    result_text,
    roll_groups,
    score_parts_text,
    total_text,
)
from airships_env.render.palette import (
    BACKGROUND,
    DARK_TEXT,
    DEPARTMENT_COLOURS,
    DEPARTMENT_TEXT,
    DEPARTMENT_TITLES,
    DICE_EDGE,
    DICE_FILL,
    DICE_LABEL,
    GOLD,
    HINDENBURG_HEAD,
    MUTED,
    PANEL,
    PANEL_EDGE,
    PLAYER_COLOURS,
    RESULT_COLOURS,
    RGB,
    STACK_TIERS_FROM_BOTTOM,
    TEXT,
    TIER_COLOURS,
    TIER_TEXT,
    WOOD,
    WOOD_EDGE,
)
from airships_env.render.palette import mix as _mix

__all__ = ["RGB_HEIGHT", "RGB_WIDTH", "render_rgb"]

RGB_WIDTH, RGB_HEIGHT = 1280, 800

_fonts: dict[int, ImageFont.FreeTypeFont | ImageFont.ImageFont] = {}
_text_masks: dict[tuple[str, int, bool], Image.Image] = {}
_digit_box: dict[int, tuple[int, int]] = {}
_MAX_TEXT_MASKS = 3000

Anchor = Literal["l", "c", "r"]
# Characters of the shared texts that Pillow's built-in font lacks, and what stands for them.
_MISSING_GLYPHS = str.maketrans({"→": "->", "★": "*"})


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
        text = text.translate(_MISSING_GLYPHS)
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
        wood, edge = WOOD, WOOD_EDGE
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


# Words of the effect texts that the die squares make clear on the small company tiles.
_COMPACT_WORDS = {"dice +": "+", "exchange ": "", "fixed ": ""}


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
    """An expansion's effect (:func:`~airships_env.engine.text.effect_parts`) with dice drawn as
    squares; returns the x after it. ``compact`` leaves out the words the squares make clear."""
    font_size = size - 3
    mid = y + size / 2
    for part in effect_parts(expansion):
        for token in part:
            if isinstance(token, Dice):
                x = p.dice_counts(x, y, size, token.counts, background=background)
            elif isinstance(token, Die):
                fixed = token.kind == FIXED
                label = "" if token.value is None else str(token.value)
                x = p.die(x + 2 * fixed, y, size, token.colour, label, fixed=fixed) + 3
            elif token == ARROW:
                x = p.arrow(x + 1, mid, 14, ink) + 3
            else:
                words = _COMPACT_WORDS.get(token, token) if compact else token
                x = p.text(x, mid, words.rstrip(), font_size, ink, bold=True, middle=True)
                x += 3 if words.endswith(" ") else 1
        x += 6
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
    x = p.text(x, 9, "Deck " + deck_text(state), 16, TEXT) + 22
    x = p.text(x, 9, f"Turn {state.turn}   step {state.step}", 16, MUTED) + 22
    x = p.text(x, 9, removed_text(state), 16, MUTED) + 22
    if state.phase == GAME_OVER:
        p.text(
            RGB_WIDTH - 14, 8, "Game over: " + result_text(state), 17, GOLD, bold=True, anchor="r"
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
    p.text(x + 40, y + 10, action_text(record), 14, TEXT, middle=True)
    y += 30
    if record.rolled is not None and record.kept is not None:
        dx = x
        size = 26
        for group in roll_groups(record.rolled, record.kept):
            for die in group.dice:
                fixed = die.kind == FIXED
                dx = p.die(
                    dx + (2 if fixed else 0),
                    y,
                    size,
                    group.colour,
                    str(die.value),
                    fixed=fixed,
                    dim=die.kind == DROPPED,
                    background=PANEL,
                ) + (7 if fixed else 5)
            dx += 10
        p.text(
            dx + 4, y + size / 2, "dimmed: not kept   gold ring: fixed die", 12, MUTED, middle=True
        )
        y += size + 12
    if record.exchange is not None:
        p.text(x, y, f"exchange {plain(exchange_made_parts(record.exchange))}", 13, MUTED)
        y += 20
    if record.total is not None:
        line = total_text(record.dice_sum, record.bonuses, record.total, record.needed)
        after = p.text(x, y, line, 15, TEXT, bold=True) + 16
        result = record.result or ""
        p.text(
            after,
            y - 1,
            result_label(result).upper(),
            17,
            RESULT_COLOURS.get(result, TEXT),
            bold=True,
        )
        y += 26
    elif record.result == "passed":
        p.text(x, y, "no eligible target: passed (T2a)", 14, MUTED)
        y += 24
    plain_kinds = ("acquired", "chips")
    events = record_events(record)
    extras = [text for kind, text in events if kind in plain_kinds]
    events_text = [text for kind, text in events if kind not in plain_kinds]
    lines = [(t, TEXT) for t in extras] + [(t, GOLD) for t in events_text]
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
        score_parts_text(parts),
        13,
        MUTED,
    )
