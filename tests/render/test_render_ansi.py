"""The text board: its pieces, its width and its colours (render_ansi)."""

from __future__ import annotations

import re

import numpy as np

from airships_env.engine import ActionRecord, GameState, new_game
from airships_env.render import ANSI_WIDTH, render_ansi

ANSI_CODE = re.compile(r"\x1b\[[0-9;]*m")


def test_board_card_ids_costs_and_effects(table: tuple[GameState, ActionRecord]) -> None:
    """Every card on the main board shows its id, its cost with target and its effect (P1)."""
    state, record = table
    text = render_ansi(state, record)
    on_board = [c for c in state.board if c >= 0]
    assert on_board
    for card in on_board:
        expansion = state.cards.expansions[card]
        assert expansion.id in text
    row = next(line for line in text.splitlines() if line.startswith("Financiers"))
    first = state.cards.expansions[state.board[0]] if state.board[0] >= 0 else None
    if first is not None:
        assert first.id in row


def test_stack_heights_and_top_cards_only(table: tuple[GameState, ActionRecord]) -> None:
    """V1: each stack shows its top card and height; a card under a top card never appears."""
    state, record = table
    text = render_ansi(state, record)
    assert "t20 #3 1 card " in text
    assert "t21 #4 0 cards  (empty)" in text
    assert "t18 #1 3 cards" in text
    for stack in state.stacks:
        if stack:
            assert state.cards.airships[stack[-1]].id in text
        for hidden in stack[:-1]:
            assert state.cards.airships[hidden].id not in text
    for hidden in state.left_out:
        assert state.cards.airships[hidden].id not in text


def test_hindenburg_phase_done_and_open(table: tuple[GameState, ActionRecord]) -> None:
    """H1/H2: the open Hindenburg lists each phase's cost, target, values and who did it."""
    state, record = table
    lines = render_ansi(state, record).splitlines()
    assert any("HINDENBURG open" in line for line in lines)
    phase_two = next(line for line in lines if "t23 #2" in line)
    assert "1W+2B>=16" in phase_two and "VP 6/9" in phase_two and "done by P2" in phase_two
    phase_one = next(line for line in lines if "t22 #1" in line)
    assert phase_one.rstrip().endswith("open")


def test_companies_chips_score_and_markers(table: tuple[GameState, ActionRecord]) -> None:
    """Each company shows chips on board / in supply, the wooden airship, the acting marker."""
    state, record = table
    text = render_ansi(state, record, seat=3)
    lines = text.splitlines()
    assert "chips 2 board, 3 supply" in text  # P0, set by hand
    p2 = next(i for i, line in enumerate(lines) if line.startswith("  P2"))
    assert "[wooden airship +1]" in lines[p2]
    assert "chips 4 board, 1 supply, 1 Hindenburg" in lines[p2 + 2]
    assert "score  6 = 0 stars + 0 airships + 6 Hindenburg" in lines[p2]  # H2 low value
    assert any(line.startswith("> P1") for line in lines)
    assert any(line.startswith("  P3 (you)") for line in lines)


def test_last_roll(table: tuple[GameState, ActionRecord]) -> None:
    """The last action: player, dice rolled and kept, bonuses, total vs needed, result, reveal."""
    state, record = table
    text = render_ansi(state, record)
    assert "LAST ACTION (step 8, turn 5): P1 attempt airship stack 1 -> airship-L9" in text
    assert "dice   white [3] [2] (2)" in text  # kept in brackets, not kept in parentheses
    assert "sum    5 +1 engine +1 white = 6 vs 7 -> FAILURE" in text
    assert "1 chip supply → board (failure)" in text
    assert "revealed hangar-11 → hangar row, slot 2" in text
    assert "LAST ACTION: none" in render_ansi(state)


def test_fixed_die_marked_in_kept_dice() -> None:
    """A kept value that no rolled die explains is an Engineer's fixed die (T4)."""
    state = new_game(num_players=2, seed=1)
    record = ActionRecord(
        step=0,
        turn=1,
        player=0,
        action=0,
        name="attempt",
        phase="x",
        target="engine-14",
        rolled=((1, 2), (4,), ()),
        kept=((3, 2), (4,), ()),
        dice_sum=9,
        total=9,
        needed=9,
        result="success",
    )
    assert "dice   white (1) [2] W<3>  red [4]" in render_ansi(state, record)


def test_fits_100_columns_and_colour_keeps_alignment(
    mid_game: tuple[GameState, ActionRecord | None],
) -> None:
    """No line is wider than 100 columns; colour codes change nothing but the colours."""
    state, record = mid_game
    plain = render_ansi(state, record, seat=0)
    assert "\x1b" not in plain
    for line in plain.splitlines():
        assert len(line) <= ANSI_WIDTH, line
    coloured = render_ansi(state, record, seat=0, color=True)
    assert "\x1b[" in coloured
    assert ANSI_CODE.sub("", coloured) == plain


def test_every_frame_of_a_game_renders() -> None:
    """Every state of a whole random game (2 players) renders within 100 columns."""
    state = new_game(num_players=2, seed=21)
    rng = np.random.default_rng(5)
    record = None
    while True:
        text = render_ansi(state, record)
        assert max(len(line) for line in text.splitlines()) <= ANSI_WIDTH
        if state.is_terminal():
            break
        legal = state.legal_actions()
        record = state.apply_action(legal[int(rng.integers(len(legal)))])
    assert "game over" in text and "final scores" in text


def test_crowded_company_still_fits(table: tuple[GameState, ActionRecord]) -> None:
    """A company holding 10 airships and every Hindenburg phase still fits 100 columns."""
    state, record = table
    for stack in state.stacks:
        while len(stack) > 1:
            state.players[0].airships.append(stack.pop())
    state.players[0].airships.extend(state.left_out)
    state.hindenburg[:] = [0, 0, 0, 0]
    text = render_ansi(state, record)
    assert max(len(line) for line in text.splitlines()) <= ANSI_WIDTH
    assert len(state.players[0].airships) == 10
    assert "airships 10:" in text and "Hindenburg phases: H1 H2 H3 H4" in text
    assert " + 39 Hindenburg" in text  # E2: all four phases done: high values 8+9+10+12


def test_the_header_says_what_left_the_game() -> None:
    """Issue 27 item 14: the header said 'left the game: 0'."""
    state = new_game(2, seed=1)
    assert "no expansion out of the game" in render_ansi(state, color=False)
    state.removed.append(3)
    assert "1 expansion out of the game" in render_ansi(state, color=False)


def test_the_picture_takes_the_same_words(monkeypatch) -> None:
    """The GIF's top bar said '0 left the game': it draws the shared text now."""
    from airships_env.render import picture

    shown: list[str] = []
    monkeypatch.setattr(picture, "removed_text", lambda state: shown.append("x") or "gone")
    picture.render_rgb(new_game(2, seed=1))
    assert shown == ["x"]
