"""Renderings of the Airships table, all from public information only (docs/airships/RULES.md V1).

- :func:`render_ansi` (:mod:`.ansi`): a text board for a 100-column terminal.
- :func:`render_rgb` (:mod:`.picture`): a ``(800, 1280, 3)`` uint8 picture drawn with Pillow.
- :mod:`.svg`: the table as SVG pieces, for the web app.

The words of every rendering come from :mod:`airships_env.engine.text`; the colours of the
picture and the SVG from :mod:`.palette`. A state and its
:func:`~airships_env.engine.public_view` render identically.
"""

from __future__ import annotations

from airships_env.render.ansi import ANSI_WIDTH, render_ansi
from airships_env.render.picture import RGB_HEIGHT, RGB_WIDTH, render_rgb

__all__ = ["ANSI_WIDTH", "RGB_HEIGHT", "RGB_WIDTH", "render_ansi", "render_rgb"]
