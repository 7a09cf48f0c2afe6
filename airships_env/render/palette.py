"""The colours of the table, shared by the picture (Pillow) and the web table (SVG).

RGB triples; :func:`hex_colour` writes one for CSS and SVG.
"""

from __future__ import annotations

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
DEPARTMENT_TITLES = ("Financiers", "Hangars", "Captains", "Engineers", "Engines", "Materials")
TIER_COLOURS: dict[int, RGB] = {1: (168, 212, 240), 2: (86, 146, 210), 3: (30, 64, 128)}
TIER_TEXT: dict[int, RGB] = {1: DARK_TEXT, 2: DARK_TEXT, 3: TEXT}
STACK_TIERS_FROM_BOTTOM = (3, 2, 1)  # S2: the backs of a stack's cards, public
PLAYER_COLOURS: tuple[RGB, ...] = ((226, 70, 110), (40, 176, 210), (150, 196, 48), (190, 96, 226))
# Dice by colour: white, red, black, and grey for "any colour".
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
WOOD: RGB = (196, 140, 80)
WOOD_EDGE: RGB = (96, 62, 28)


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved a fraction ``t`` towards ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def hex_colour(colour: RGB) -> str:
    """'#1e222a' for (30, 34, 42)."""
    return "#{:02x}{:02x}{:02x}".format(*colour)
