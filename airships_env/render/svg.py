"""The table as SVG, in pieces a web page lays out: the main board, the airship stacks with the
Hindenburg, each company, and dice.

The same information as the picture (:mod:`.picture`), from public information only
(docs/airships/RULES.md V1), with the words of :mod:`airships_env.engine.text` and the colours of
:mod:`.palette`. Standard library only. Each piece is one ``<svg>`` element with a ``viewBox``,
so that a page scales it to any width (a 1280-pixel window shows the board beside the stacks, a
phone stacks the pieces). Every place a player can attempt carries ``data-target="<target>"``,
and every card a ``<title>`` with its full text (a tooltip).

Text widths are estimated (an SVG cannot measure text before a browser lays it out); the
estimates are generous, so that dice drawn after a word never overlap it.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from airships_env.engine import GAME_OVER, GameState, player_pool, score_parts
from airships_env.engine.actions import FIRST_PHASE_TARGET, FIRST_STACK_TARGET, SLOTS_PER_ROW
from airships_env.engine.cards import DEPARTMENTS, DiceCounts, Expansion
from airships_env.engine.model import EMPTY
from airships_env.engine.text import (
    ARROW,
    COLOUR,
    DICE_NOTATION,
    DROPPED,
    FIXED,
    KEPT,
    POOL,
    Dice,
    Die,
    RollGroup,
    Token,
    bonus_parts,
    cost_text,
    effect_parts,
    effect_text,
    exchange_parts,
    player_label,
    score_parts_text,
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
    PLAYER_COLOURS,
    RGB,
    STACK_TIERS_FROM_BOTTOM,
    TEXT,
    TIER_COLOURS,
    TIER_TEXT,
    WOOD,
    WOOD_EDGE,
    hex_colour,
    mix,
)

__all__ = [
    "BOARD_WIDTH",
    "COMPANY_WIDTH",
    "STACKS_WIDTH",
    "board_svg",
    "company_svg",
    "dice_svg",
    "stacks_svg",
    "tokens_svg",
]

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', 'Liberation Sans', sans-serif"
WHITE: RGB = (255, 255, 255)

# The main board: 6 rows of 3 tiles.
TILE_W, TILE_H = 200, 94
BOARD_GAP = 8
BOARD_BAR = 8  # the department's colour bar left of each row
BOARD_WIDTH = BOARD_BAR + 4 + 3 * TILE_W + 2 * BOARD_GAP
BOARD_HEIGHT = 6 * TILE_H + 5 * BOARD_GAP
# The stacks and the Hindenburg: 2 rows of 4 tiles.
STACK_W, STACK_H = 148, 112
STACK_GAP = 8
STACKS_WIDTH = 4 * STACK_W + 3 * STACK_GAP + 12
# A company.
COMPANY_WIDTH, COMPANY_HEIGHT = 320, 282


def _c(colour: RGB) -> str:
    return hex_colour(colour)


def text_width(text: str, size: float, bold: bool = False) -> float:
    """A generous estimate of a text's width in a sans-serif font."""
    narrow, wide = "ilj.,:;|!'() ", "mwMW@%"
    units = sum(0.36 if ch in narrow else 0.98 if ch in wide else 0.66 for ch in text)
    return units * size * (1.1 if bold else 1.0)


class _Svg:
    """An SVG being written: shapes, text, dice."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, markup: str) -> None:
        """Append raw markup."""
        self.parts.append(markup)

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        fill: RGB | None,
        stroke: RGB | None = None,
        width: float = 1,
        radius: float = 0,
        extra: str = "",
    ) -> None:
        """A (rounded) rectangle."""
        paint = f'fill="{_c(fill)}"' if fill is not None else 'fill="none"'
        if stroke is not None:
            paint += f' stroke="{_c(stroke)}" stroke-width="{width}"'
        rounded = f' rx="{radius}"' if radius else ""
        self.add(
            f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}"{rounded} {paint}{extra}/>'
        )

    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: float,
        fill: RGB,
        bold: bool = False,
        anchor: str = "start",
        extra: str = "",
    ) -> float:
        """Text whose vertical middle is at ``y``; returns the estimated x after it."""
        weight = ' font-weight="700"' if bold else ""
        self.add(
            f'<text x="{x:g}" y="{y:g}" font-size="{size:g}"{weight} fill="{_c(fill)}" '
            f'text-anchor="{anchor}" dominant-baseline="central"{extra}>{escape(text)}</text>'
        )
        return x + text_width(text, size, bold)

    def die(
        self,
        x: float,
        y: float,
        size: float,
        colour: int,
        label: str,
        fixed: bool = False,
        dim: bool = False,
    ) -> float:
        """A die square (colour 3 = any) with a label; ``fixed`` rings it in gold, ``dim``
        greys it (rolled, not kept). Returns the x after it."""
        fill, edge, ink = DICE_FILL[colour], DICE_EDGE[colour], DICE_LABEL[colour]
        opacity = ' opacity="0.38"' if dim else ""
        self.add(f"<g{opacity}>")
        if fixed:
            self.rect(x - 2.5, y - 2.5, size + 5, size + 5, GOLD, radius=size / 5 + 2)
        self.rect(x, y, size, size, fill, edge, 1, radius=size / 5)
        if label:
            self.text(x + size / 2, y + size / 2 + 0.5, label, size * 0.66, ink, True, "middle")
        self.add("</g>")
        return x + size

    def dice_counts(self, x: float, y: float, size: float, counts: DiceCounts) -> float:
        """One die per colour present with its count inside; returns the x after the last."""
        for colour, count in enumerate(counts):
            if count:
                x = self.die(x, y, size, colour, str(count)) + 3
        return x

    def tokens(
        self, x: float, y: float, size: float, tokens: Sequence[Token], ink: RGB, bold: bool = True
    ) -> float:
        """Text tokens with their dice drawn as squares; returns the x after them."""
        mid = y + size / 2
        for token in tokens:
            if isinstance(token, Dice):
                x = self.dice_counts(x, y, size, token.counts)
            elif isinstance(token, Die):
                fixed = token.kind == FIXED
                label = "" if token.value is None or token.kind == COLOUR else str(token.value)
                x = self.die(x + 3 * fixed, y, size, token.colour, label, fixed=fixed) + 3 * fixed
                x += 3
            elif token == ARROW:
                x = self.arrow(x + 1, mid, size * 0.8, ink) + 4
            else:
                x = self.text(x, mid, token.rstrip(), size * 0.8, ink, bold)
                x += size * 0.25 if token.endswith(" ") else 2
        return x

    def arrow(self, x: float, mid: float, length: float, ink: RGB) -> float:
        """A right arrow; returns the x after it."""
        head = length * 0.35
        self.add(
            f'<path d="M{x:g} {mid:g}H{x + length - 1:g}M{x + length - head:g} {mid - head:g}'
            f'L{x + length:g} {mid:g}L{x + length - head:g} {mid + head:g}" '
            f'stroke="{_c(ink)}" stroke-width="2" fill="none"/>'
        )
        return x + length

    def star(self, cx: float, cy: float, radius: float) -> None:
        """A five-pointed gold star."""
        import math

        points = []
        for k in range(10):
            r = radius if k % 2 == 0 else radius * 0.45
            angle = -math.pi / 2 + k * math.pi / 5
            points.append(f"{cx + r * math.cos(angle):.1f},{cy + r * math.sin(angle):.1f}")
        self.add(f'<polygon points="{" ".join(points)}" fill="{_c(GOLD)}" stroke="#785a0a"/>')

    def stars(self, right: float, cy: float, count: int, radius: float) -> None:
        """``count`` stars ending at ``right``."""
        for k in range(count):
            self.star(right - radius - k * (2 * radius + 2), cy, radius)

    def chip(self, cx: float, cy: float, radius: float, filled: bool) -> None:
        """A bonus chip: filled on the board, hollow in the supply."""
        if filled:
            self.add(
                f'<circle cx="{cx:g}" cy="{cy:g}" r="{radius:g}" fill="{_c(GOLD)}" '
                f'stroke="#785a0a"/>'
            )
        else:
            self.add(
                f'<circle cx="{cx:g}" cy="{cy:g}" r="{radius:g}" fill="none" '
                f'stroke="{_c(MUTED)}" stroke-width="1.5"/>'
            )

    def wooden_airship(self, x: float, y: float, scale: float = 1.0) -> None:
        """The wooden airship token: an envelope with fins and a gondola."""
        w, h = 34 * scale, 13 * scale
        self.add(
            f'<g stroke="{_c(WOOD_EDGE)}" fill="{_c(WOOD)}">'
            f'<polygon points="{x + 2:g},{y + h / 2:g} {x - 5 * scale:g},{y:g} '
            f'{x - 5 * scale:g},{y + h:g}"/>'
            f'<ellipse cx="{x + w / 2:g}" cy="{y + h / 2:g}" rx="{w / 2:g}" ry="{h / 2:g}"/>'
            f'<rect x="{x + w * 0.35:g}" y="{y + h:g}" width="{w * 0.3:g}" '
            f'height="{4 * scale:g}"/></g>'
        )

    def svg(self, width: float, height: float, label: str, css_class: str) -> str:
        """The finished ``<svg>`` element."""
        body = "".join(self.parts)
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" class="{css_class}" '
            f'viewBox="0 0 {width:g} {height:g}" role="img" aria-label="{escape(label)}" '
            f'font-family="{FONT}">{body}</svg>'
        )


# ---------------------------------------------------------------------------------------------
# The main board
# ---------------------------------------------------------------------------------------------
def _board_tile(svg: _Svg, x: float, y: float, expansion: Expansion, target: int) -> None:
    colour = DEPARTMENT_COLOURS[expansion.department]
    ink = DEPARTMENT_TEXT[expansion.department]
    body = mix(colour, WHITE, 0.8)
    title = (
        f"{expansion.id}: {cost_text(expansion.cost)} ≥{expansion.target}, "
        f"{expansion.stars} stars; {effect_text(expansion)}"
    )
    svg.add(f'<g class="place card" data-target="{target}"><title>{escape(title)}</title>')
    svg.rect(x, y, TILE_W, TILE_H, body, colour, 2, radius=8)
    svg.add(
        f'<path d="M{x:g} {y + 26:g}V{y + 8:g}a8 8 0 0 1 8 -8H{x + TILE_W - 8:g}'
        f'a8 8 0 0 1 8 8V{y + 26:g}Z" fill="{_c(colour)}"/>'
    )
    svg.text(x + 8, y + 13.5, expansion.id, 16, ink, bold=True)
    era = {0: "start", 1: "era I", 2: "era II"}[expansion.era]
    svg.text(x + TILE_W - 8, y + 13.5, era, 12, ink, anchor="end")
    after = svg.dice_counts(x + 8, y + 33, 23, expansion.cost)
    svg.text(after + 3, y + 45, f"≥ {expansion.target}", 20, DARK_TEXT, bold=True)
    svg.stars(x + TILE_W - 8, y + 45, expansion.stars, 8.5)
    parts = effect_parts(expansion)
    size = 21.0
    while size > 13 and _tokens_width(parts, size, 8) > TILE_W - 14:
        size -= 1
    right = x + 8
    for part in parts:
        right = svg.tokens(right, y + 64 + (21 - size) / 2, size, part, DARK_TEXT) + 8
    svg.add("</g>")


def board_svg(state: GameState) -> str:
    """The main board: one row of three slots per department (P1), each card with its cost,
    target, stars and effect."""
    svg = _Svg()
    cards = state.cards
    for department in range(len(DEPARTMENTS)):
        y = department * (TILE_H + BOARD_GAP)
        colour = DEPARTMENT_COLOURS[department]
        svg.rect(0, y, BOARD_BAR, TILE_H, colour, radius=3)
        for slot in range(SLOTS_PER_ROW):
            target = department * SLOTS_PER_ROW + slot
            x = BOARD_BAR + 4 + slot * (TILE_W + BOARD_GAP)
            card = state.board[target]
            if card == EMPTY:
                svg.add(f'<g class="place empty" data-target="{target}">')
                svg.rect(
                    x + 1,
                    y + 1,
                    TILE_W - 2,
                    TILE_H - 2,
                    None,
                    mix(colour, BACKGROUND, 0.35),
                    1.5,
                    radius=8,
                    extra=' stroke-dasharray="7 6"',
                )
                svg.text(
                    x + TILE_W / 2,
                    y + TILE_H / 2,
                    f"{DEPARTMENT_TITLES[department]}: empty",
                    14,
                    MUTED,
                    anchor="middle",
                )
                svg.add("</g>")
                continue
            _board_tile(svg, x, y, cards.expansions[card], target)
    return svg.svg(BOARD_WIDTH, BOARD_HEIGHT, "The main board", "board")


# ---------------------------------------------------------------------------------------------
# Airship stacks and the Hindenburg
# ---------------------------------------------------------------------------------------------
def stacks_svg(state: GameState, labels: Sequence[str] | None = None) -> str:
    """The four airship stacks (top card and height, V1) and the Hindenburg's four phases."""
    svg = _Svg()
    cards = state.cards
    after = svg.text(0, 12, "Airship stacks", 17, TEXT, bold=True)
    svg.text(after + 10, 12, "top card and height; the cards below are hidden", 12, MUTED)
    top = 30
    for index, stack in enumerate(state.stacks):
        x = index * (STACK_W + STACK_GAP)
        height = len(stack)
        target = FIRST_STACK_TARGET + index
        w, h = STACK_W - 12, STACK_H - 30
        # The backs under the top card: their tiers follow from the height alone (S2).
        for depth in range(height - 1, 0, -1):
            tier = STACK_TIERS_FROM_BOTTOM[height - 1 - depth]
            svg.rect(x + 5 * depth, top + 5 * depth, w, h, TIER_COLOURS[tier], (12, 20, 40), 1, 7)
        svg.add(f'<g class="place stack" data-target="{target}">')
        if stack:
            airship = cards.airships[stack[-1]]
            title = f"{airship.id}: {cost_text(airship.cost)} ≥{airship.target}, {airship.stars} VP"
            svg.add(f"<title>{escape(title)}</title>")
            colour = TIER_COLOURS[airship.tier]
            svg.rect(x, top, w, h, (226, 236, 246), colour, 2, 7)
            svg.rect(x, top, w, 24, colour, None, radius=7)
            svg.rect(x, top + 14, w, 10, colour)
            svg.text(x + 7, top + 12.5, airship.id, 14, TIER_TEXT[airship.tier], bold=True)
            after = svg.dice_counts(x + 7, top + 30, 21, airship.cost)
            svg.text(after + 3, top + 40.5, f"≥ {airship.target}", 18, DARK_TEXT, bold=True)
            svg.star(x + 14, top + h - 14, 8)
            svg.text(x + 26, top + h - 14, f"{airship.stars} VP", 16, DARK_TEXT, bold=True)
        else:
            svg.rect(x + 1, top + 1, w - 2, h - 2, None, MUTED, 1.5, 7, ' stroke-dasharray="7 6"')
            svg.text(x + w / 2, top + h / 2, "empty", 14, MUTED, anchor="middle")
        svg.add("</g>")
        plural = "s" if height != 1 else ""
        svg.text(x, top + h + 20, f"stack {index + 1}: {height} card{plural}", 13, TEXT)

    top = STACK_H + 40
    after = svg.text(0, top, "Hindenburg", 17, TEXT, bold=True)
    if state.hindenburg_open:
        svg.text(after + 10, top, "open: each phase once, in any order", 12, (96, 206, 96))
    else:
        svg.text(after + 10, top, "opens when an airship stack is empty", 12, MUTED)
    top += 18
    for index, phase in enumerate(cards.hindenburg):
        x = index * (STACK_W + STACK_GAP)
        w, h = STACK_W - 12, 92
        holder = state.hindenburg[index]
        target = FIRST_PHASE_TARGET + index
        done = holder != EMPTY
        edge = PLAYER_COLOURS[holder % 4] if done else (120, 124, 134)
        title = (
            f"Hindenburg phase {index + 1}: {cost_text(phase.cost)} ≥{phase.target}, "
            f"{phase.low} VP, {phase.high} VP if all four are completed"
        )
        opacity = "" if state.hindenburg_open or done else ' opacity="0.45"'
        svg.add(f'<g class="place phase" data-target="{target}"{opacity}>')
        svg.add(f"<title>{escape(title)}</title>")
        svg.rect(x, top, w, h, (226, 228, 234), edge, 3 if done else 2, 7)
        svg.rect(x, top, w, 24, HINDENBURG_HEAD, None, radius=7)
        svg.rect(x, top + 14, w, 10, HINDENBURG_HEAD)
        svg.text(x + 7, top + 12.5, f"Phase {index + 1}", 14, DARK_TEXT, bold=True)
        after = svg.dice_counts(x + 7, top + 30, 21, phase.cost)
        svg.text(after + 3, top + 40.5, f"≥ {phase.target}", 18, DARK_TEXT, bold=True)
        if done:
            svg.rect(x + 4, top + 60, w - 8, 27, PLAYER_COLOURS[holder % 4], radius=5)
            name = player_label(labels, holder).split(" ")[0]
            svg.text(x + 10, top + 73.5, name, 15, DARK_TEXT, bold=True)
            svg.text(
                x + w - 10, top + 73.5, f"{phase.low}/{phase.high} VP", 14, DARK_TEXT, anchor="end"
            )
        else:
            svg.text(x + 7, top + 73.5, f"{phase.low} VP (all 4: {phase.high})", 14, DARK_TEXT)
        svg.add("</g>")
    return svg.svg(STACKS_WIDTH, top + 96, "Airship stacks and the Hindenburg", "stacks")


# ---------------------------------------------------------------------------------------------
# Companies
# ---------------------------------------------------------------------------------------------
SLOT_W, SLOT_H = 100, 56
# Words of the effect texts that the die squares make clear on the small company tiles.
_COMPACT = {"dice +": "+", "exchange ": "", "fixed ": ""}


def _tokens_width(parts: Sequence[Sequence[Token]], size: float, gap: float = 5) -> float:
    """How wide :meth:`_Svg.tokens` draws these parts, ``gap`` apart."""
    scratch = _Svg()
    return sum(scratch.tokens(0, 0, size, part, DARK_TEXT) + gap for part in parts) - gap


def _slot_tile(svg: _Svg, x: float, y: float, department: int, expansion: Expansion | None) -> None:
    colour = DEPARTMENT_COLOURS[department]
    if expansion is None:
        svg.rect(
            x + 1, y + 1, SLOT_W - 2, SLOT_H - 2, None, mix(colour, PANEL, 0.4), 1.2, 5,
            ' stroke-dasharray="5 4"',
        )  # fmt: skip
        svg.text(
            x + SLOT_W / 2, y + SLOT_H / 2, DEPARTMENTS[department], 13, mix(colour, TEXT, 0.35),
            anchor="middle",
        )  # fmt: skip
        return
    title = f"{expansion.id}: {effect_text(expansion)}; {expansion.stars} stars"
    svg.add(f"<g><title>{escape(title)}</title>")
    body = mix(colour, WHITE, 0.8)
    svg.rect(x, y, SLOT_W, SLOT_H, body, colour, 1, 5)
    svg.rect(x, y, SLOT_W, 19, colour, None, radius=5)
    svg.rect(x, y + 12, SLOT_W, 7, colour)
    svg.text(x + 5, y + 10, expansion.id, 13, DEPARTMENT_TEXT[department], bold=True)
    parts = [
        tuple(_COMPACT.get(t, t) if isinstance(t, str) else t for t in p)
        for p in effect_parts(expansion)
    ]
    size = 18.0
    while size > 11 and _tokens_width(parts, size, 5) > SLOT_W - 8:
        size -= 1
    right = x + 5
    for part in parts:
        right = svg.tokens(right, y + 25 + (18 - size) / 2, size, part, DARK_TEXT) + 5
    svg.stars(x + SLOT_W - 4, y + SLOT_H - 7, expansion.stars, 5)
    svg.add("</g>")


def company_svg(
    state: GameState, player: int, labels: Sequence[str] | None = None, you: int | None = None
) -> str:
    """One company: its six department slots, dice and effects, chips, airships and score."""
    svg = _Svg()
    cards = state.cards
    company = state.players[player]
    colour = PLAYER_COLOURS[player % 4]
    acting = player == state.current_player and state.phase != GAME_OVER
    w, h = COMPANY_WIDTH, COMPANY_HEIGHT
    svg.rect(1.5, 1.5, w - 3, h - 3, PANEL, colour, 4 if acting else 1.5, 10)
    svg.add(
        f'<path d="M1.5 32V11.5a10 10 0 0 1 10 -10H{w - 11.5:g}a10 10 0 0 1 10 10V32Z" '
        f'fill="{_c(colour)}"/>'
    )
    name = player_label(labels, player) + (" (you)" if you == player and labels is None else "")
    if len(name) > 18:
        name = name[:17] + "…"
    x = svg.text(10, 17, name, 17, DARK_TEXT, bold=True) + 8
    if acting:
        svg.add(f'<polygon points="{x:g},9 {x + 13:g},17 {x:g},25" fill="{_c(DARK_TEXT)}"/>')
        x += 18
    if state.winners is not None and player in state.winners:
        svg.text(x, 17, "WINNER", 14, DARK_TEXT, bold=True)
    parts = score_parts(state, player)
    svg.text(w - 10, 17, f"{sum(parts.values())} VP", 18, DARK_TEXT, bold=True, anchor="end")

    for department, card in enumerate(company.slots):
        row, col = divmod(department, 3)
        expansion = None if card == EMPTY else cards.expansions[card]
        _slot_tile(svg, 6 + col * (SLOT_W + 4), 38 + row * (SLOT_H + 4), department, expansion)

    y = 38 + 2 * (SLOT_H + 4) + 6
    pool = player_pool(state, player)
    x = svg.text(10, y + 11, "dice", 13, MUTED) + 6
    x = svg.dice_counts(x, y, 22, pool.rollable) + 2
    for colour_index, value in pool.fixed:
        x = svg.tokens(x, y, 22, (Die(colour_index, value, FIXED),), TEXT) + 4
    for bonus in pool.engine_bonuses:
        x = svg.tokens(x + 4, y, 22, bonus_parts(bonus), TEXT) + 2
    if pool.exchange is not None:
        svg.tokens(x + 6, y, 22, exchange_parts(pool.exchange), TEXT)

    y += 32
    mid = y + 9
    x = svg.text(10, mid, "chips", 13, MUTED) + 6
    for _ in range(company.chips_on_board):
        svg.chip(x + 8, mid, 7.5, True)
        x += 18
    for _ in range(company.chips_supply):
        svg.chip(x + 8, mid, 7.5, False)
        x += 18
    marks = state.hindenburg.count(player)  # T6: a chip marks each completed phase
    for _ in range(marks):
        svg.add(
            f'<circle cx="{x + 8:g}" cy="{mid:g}" r="7.5" fill="{_c(HINDENBURG_HEAD)}" '
            f'stroke="{_c(colour)}" stroke-width="2"><title>a chip on the Hindenburg</title></circle>'
        )
        x += 18
    svg.text(
        x + 6, mid, f"{company.chips_on_board} board · {company.chips_supply} supply", 13, TEXT
    )

    y += 28
    mid = y + 14
    x = svg.text(10, mid, "ships", 13, MUTED) + 6
    phases = [index for index, holder in enumerate(state.hindenburg) if holder == player]
    count = len(company.airships) + len(phases)
    if not count:
        svg.text(x, mid, "none", 13, MUTED)
    wooden = state.wooden_airship == player
    if wooden:
        svg.add('<g class="wooden-airship"><title>the wooden airship: +1 on every roll</title>')
        svg.wooden_airship(w - 66, mid - 7)
        svg.text(w - 28, mid, "+1", 15, TEXT, bold=True)
        svg.add("</g>")
    pitch = min(32, (w - 10 - (72 if wooden else 0) - x) / max(count, 1))
    for airship_index in company.airships:
        airship = cards.airships[airship_index]
        svg.add(f"<g><title>{escape(airship.id)}: {airship.stars} VP</title>")
        svg.rect(x, y, pitch - 4, 28, TIER_COLOURS[airship.tier], (12, 20, 40), 1, 4)
        label = str(airship.stars)
        svg.text(x + (pitch - 4) / 2, mid, label, 15, TIER_TEXT[airship.tier], True, "middle")
        svg.add("</g>")
        x += pitch
    for index in phases:
        svg.rect(x, y, pitch - 4, 28, HINDENBURG_HEAD, colour, 2, 4)
        svg.text(x + (pitch - 4) / 2, mid, f"H{index + 1}", 12, DARK_TEXT, True, "middle")
        x += pitch

    y += 40
    svg.text(10, y, "score " + score_parts_text(parts), 13, MUTED)
    return svg.svg(w, h, f"The company of {player_label(labels, player)}", "company")


# ---------------------------------------------------------------------------------------------
# Dice and tokens inline
# ---------------------------------------------------------------------------------------------
def dice_svg(groups: Sequence[RollGroup], size: int = 30) -> str:
    """The dice of one attempt as dice: kept bright, not kept dimmed, fixed dice ringed in gold;
    a gap between colours."""
    svg = _Svg()
    x = 4.0
    for group in groups:
        for die in group.dice:
            fixed = die.kind == FIXED
            x = svg.die(
                x + 3 * fixed,
                4,
                size,
                group.colour,
                str(die.value),
                fixed=fixed,
                dim=die.kind == DROPPED,
            )
            x += 6 + 3 * fixed
        x += 10
    return svg.svg(max(x, 8), size + 8, "the dice", "dice")


def dice_legend_svg(size: int = 20) -> list[tuple[str, str]]:
    """The dice notation (text.DICE_NOTATION) as the web draws it: per kind, the picture and
    what it means."""
    white, red = 0, 1
    items = []
    for kind, notation, meaning in DICE_NOTATION:
        svg = _Svg()
        if kind == POOL:
            right = svg.dice_counts(3, 4, size, (2, 1, 0))
        elif kind == FIXED:
            right = svg.die(6, 4, size, red, "5", fixed=True) + 3
        elif kind in (KEPT, DROPPED):
            right = svg.die(3, 4, size, white, "4", dim=kind == DROPPED)
        else:  # pragma: no cover - a kind added to DICE_NOTATION without a picture
            raise ValueError(f"no picture for the dice kind {kind!r}")
        items.append((svg.svg(right + 3, size + 8, notation, "dice"), meaning))
    return items


def tokens_svg(tokens: Sequence[Token], size: int = 20, ink: RGB = TEXT) -> str:
    """Tokens (an exchange, an effect) drawn inline, dice as squares."""
    svg = _Svg()
    right = svg.tokens(3, 3, size, tokens, ink)
    return svg.svg(right + 3, size + 6, "".join(t for t in tokens if isinstance(t, str)), "tokens")
