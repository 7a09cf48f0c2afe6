"""V1/V2: the renderings read public information only."""

from __future__ import annotations

import numpy as np

from airships_env.engine import ActionRecord, GameState, determinize, public_view
from airships_env.render import render_ansi, render_rgb


def hidden_parts(state: GameState) -> tuple[object, ...]:
    """What V2 hides: the deck order, the cards under each stack's top, the left-out airships."""
    return (tuple(state.deck), tuple(tuple(s[:-1]) for s in state.stacks), tuple(state.left_out))


def test_public_view_renders_identically(mid_game: tuple[GameState, ActionRecord | None]) -> None:
    """V1: a state and its public view (hidden cards canonical, no generator) render alike."""
    state, record = mid_game
    view = public_view(state)
    assert hidden_parts(view) != hidden_parts(state)  # the comparison is not vacuous
    assert view.rng is None
    assert render_ansi(state, record) == render_ansi(view, record)
    assert render_ansi(state, record, seat=1, color=True) == render_ansi(
        view, record, seat=1, color=True
    )
    assert np.array_equal(render_rgb(state, record), render_rgb(view, record))


def test_other_hidden_order_renders_identically(
    mid_game: tuple[GameState, ActionRecord | None],
) -> None:
    """V2: two states with the same public information and other hidden orders render alike."""
    state, record = mid_game
    rng = np.random.default_rng(3)
    for _ in range(3):
        other = determinize(state, rng)
        assert hidden_parts(other) != hidden_parts(state)
        assert render_ansi(other, record) == render_ansi(state, record)
        assert np.array_equal(render_rgb(other, record), render_rgb(state, record))


def test_a_public_difference_does_show(mid_game: tuple[GameState, ActionRecord | None]) -> None:
    """The control: changing a stack's top card (public, V1) changes both renderings."""
    state, record = mid_game
    other = state.clone()
    stack = next(s for s in other.stacks if len(s) >= 1)
    stack[-1] = next(
        a
        for a in range(len(state.cards.airships))
        if a not in stack
        and all(a not in s for s in state.stacks)
        and state.cards.airships[a].tier == state.cards.airships[stack[-1]].tier
    )
    assert render_ansi(other, record) != render_ansi(state, record)
    assert not np.array_equal(render_rgb(other, record), render_rgb(state, record))


def svg_pieces(state: GameState) -> tuple[str, ...]:
    """Every SVG piece of the web table."""
    from airships_env.render import svg

    companies = tuple(svg.company_svg(state, p) for p in range(state.num_players))
    return (svg.board_svg(state), svg.stacks_svg(state), *companies)


def test_svg_reads_public_information_only(
    mid_game: tuple[GameState, ActionRecord | None],
) -> None:
    """V1/V2 for the web table: a public view and another hidden order draw the same SVG; the
    cards under a stack's top card never appear in it."""
    state, _record = mid_game
    pieces = svg_pieces(state)
    assert svg_pieces(public_view(state)) == pieces
    assert svg_pieces(determinize(state, np.random.default_rng(4))) == pieces
    text = "".join(pieces)
    for stack in state.stacks:
        if stack:
            assert state.cards.airships[stack[-1]].id in text
        for hidden in stack[:-1]:
            assert f">{state.cards.airships[hidden].id}<" not in text
    assert text.count('data-target="') >= 26 - sum(1 for s in state.stacks if not s) - 0
