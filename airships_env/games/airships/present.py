"""Airships' presenter: the protocol's text, terminal, picture and SVG views of a table.

An adapter over :mod:`airships_env.engine.text` and :mod:`airships_env.render`; every view is
drawn from the public view (V1), whatever state it is given.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from airships_env.engine import public_view
from airships_env.engine.records import ActionRecord
from airships_env.engine.state import GameState

_VIEW_BOX = re.compile(r'viewBox="0 0 ([0-9.]+) ([0-9.]+)"')
_GAP = 16


def _public(state: Any) -> GameState:
    """The public view of an engine or native state."""
    if not isinstance(state, GameState):
        state = state.to_state()
    return state if state.is_public_view else public_view(state)


def _placed(piece: str, x: float, y: float) -> tuple[str, float, float]:
    """``piece`` (one ``<svg>`` with a viewBox) placed at ``(x, y)``; its width and height."""
    found = _VIEW_BOX.search(piece)
    if found is None:
        raise ValueError("an SVG piece without a viewBox")
    width, height = float(found.group(1)), float(found.group(2))
    placed = piece.replace(
        "<svg ", f'<svg x="{x:g}" y="{y:g}" width="{width:g}" height="{height:g}" ', 1
    )
    return placed, width, height


class AirshipsPresenter:
    """How Airships is shown to people (:class:`airships_env.protocol.Presenter`)."""

    def record_text(self, record: ActionRecord, state: Any) -> str:
        """One line describing ``record`` for logs and replays."""
        from airships_env.engine.text import record_text

        return record_text(record)

    def ansi(self, view: Any, seat: int | None, last_record: ActionRecord | None) -> str:
        """The text board of the table with ANSI colours, ``seat`` marked as "you"."""
        from airships_env.render.ansi import render_ansi

        return render_ansi(_public(view), last_record, seat=seat, color=True)

    def rgb(self, view: Any, seat: int | None, last_record: ActionRecord | None) -> np.ndarray:
        """The table as a ``(800, 1280, 3)`` uint8 picture."""
        from airships_env.render.picture import render_rgb

        return render_rgb(_public(view), last_record)

    def svg(self, view: Any, seat: int | None, last_record: ActionRecord | None) -> str:
        """The table as one SVG document: the board and stacks, the companies below."""
        from airships_env.render import svg as pieces

        state = _public(view)
        board, board_w, board_h = _placed(pieces.board_svg(state), 0, 0)
        stacks, stacks_w, stacks_h = _placed(pieces.stacks_svg(state), board_w + _GAP, 0)
        top = max(board_h, stacks_h) + _GAP
        parts = [board, stacks]
        x = 0.0
        bottom = top
        for player in range(state.num_players):
            company, company_w, company_h = _placed(
                pieces.company_svg(state, player, you=seat), x, top
            )
            parts.append(company)
            x += company_w + _GAP
            bottom = max(bottom, top + company_h)
        width = max(board_w + _GAP + stacks_w, x - _GAP)
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {bottom:g}" '
            f'class="airships-table">' + "".join(parts) + "</svg>"
        )
