"""The picture of the table (render_rgb): size, colours, and that it follows the state."""

from __future__ import annotations

import numpy as np

from airships_env.engine import ActionRecord, GameState, new_game
from airships_env.render.picture import (
    BOARD_COL_PITCH,
    BOARD_LABEL_W,
    BOARD_ROW_PITCH,
    BOARD_X,
    BOARD_Y,
    COMPANY_PITCH,
    COMPANY_Y,
    DEPARTMENT_COLOURS,
    PHASE_TILE,
    PHASE_Y,
    PLAYER_COLOURS,
    RGB_HEIGHT,
    RGB_WIDTH,
    RIGHT_X,
    STACK_PITCH,
    render_rgb,
)


def pixel(picture: np.ndarray, x: int, y: int) -> tuple[int, ...]:
    """The colour at (x, y)."""
    return tuple(int(v) for v in picture[y, x])


def test_shape_and_dtype(table: tuple[GameState, ActionRecord]) -> None:
    """A fixed (800, 1280, 3) uint8 picture, a fresh writable array each call."""
    state, record = table
    first = render_rgb(state, record)
    assert first.shape == (RGB_HEIGHT, RGB_WIDTH, 3) == (800, 1280, 3)
    assert first.dtype == np.uint8
    assert first.flags.writeable
    second = render_rgb(state, record)
    assert np.array_equal(first, second)
    first[:] = 0
    assert not np.array_equal(first, render_rgb(state, record))


def test_same_size_for_every_player_count() -> None:
    """The size does not depend on the state (2 to 4 players, start and game over)."""
    for players in (2, 3, 4):
        assert render_rgb(new_game(num_players=players, seed=players)).shape == (800, 1280, 3)


def test_board_tiles_in_department_colours(table: tuple[GameState, ActionRecord]) -> None:
    """Each card on the main board is a tile in its department's colour (P1)."""
    state, record = table
    picture = render_rgb(state, record)
    checked = 0
    for target, card in enumerate(state.board):
        department, slot = divmod(target, 3)
        x = BOARD_X + BOARD_LABEL_W + slot * BOARD_COL_PITCH + 130
        y = BOARD_Y + department * BOARD_ROW_PITCH + 20  # the tile's header strip
        if card >= 0:
            assert state.cards.expansions[card].department == department
            assert pixel(picture, x, y) == DEPARTMENT_COLOURS[department]
            checked += 1
        else:
            assert pixel(picture, x, y) != DEPARTMENT_COLOURS[department]
    assert checked >= 6


def test_completed_phase_in_player_colour(table: tuple[GameState, ActionRecord]) -> None:
    """H2/E2: a completed phase carries its player's colour; an open one does not."""
    state, record = table
    picture = render_rgb(state, record)
    y = BOARD_Y + PHASE_Y + 55
    done = pixel(picture, RIGHT_X + 1 * STACK_PITCH + 40, y)
    assert done == PLAYER_COLOURS[2]
    not_done = pixel(picture, RIGHT_X + 0 * STACK_PITCH + 40, y)
    assert not_done not in PLAYER_COLOURS
    assert PHASE_TILE[1] > 60


def test_company_header_in_player_colour(table: tuple[GameState, ActionRecord]) -> None:
    """Each company's header band is drawn in its player's colour."""
    state, record = table
    picture = render_rgb(state, record)
    for player in range(state.num_players):
        x = 10 + player * COMPANY_PITCH + 150
        assert pixel(picture, x, COMPANY_Y + 24) == PLAYER_COLOURS[player]


def test_follows_every_public_change(table: tuple[GameState, ActionRecord]) -> None:
    """Changing any public part changes the picture, and undoing it restores it (cached parts
    of the picture are keyed on everything they show)."""
    state, record = table
    base = render_rgb(state, record)
    changes = [
        lambda s: setattr(s.players[3], "chips_on_board", s.players[3].chips_on_board + 1),
        lambda s: setattr(s.players[1], "chips_supply", s.players[1].chips_supply - 1),
        lambda s: s.players[0].airships.append(s.stacks[0].pop()),
        lambda s: s.board.__setitem__(s.board.index(-1), s.deck[0]),
        lambda s: setattr(s, "wooden_airship", 0),
        lambda s: s.hindenburg.__setitem__(0, 3),
        lambda s: setattr(s, "era", 2),
        lambda s: setattr(s, "current_player", 3),
        lambda s: s.deck.pop(),
    ]
    for change in changes:
        changed = state.clone()
        change(changed)
        assert not np.array_equal(render_rgb(changed, record), base)
        assert np.array_equal(render_rgb(state, record), base)
    assert not np.array_equal(render_rgb(state, None), base)


def test_follows_a_played_game() -> None:
    """Applying actions changes the picture; a full game renders at every step."""
    state = new_game(num_players=3, seed=4)
    rng = np.random.default_rng(9)
    previous = render_rgb(state)
    changed = 0
    steps = 0
    while not state.is_terminal() and steps < 60:
        legal = state.legal_actions()
        record = state.apply_action(legal[int(rng.integers(len(legal)))])
        picture = render_rgb(state, record)
        changed += not np.array_equal(picture, previous)
        previous = picture
        steps += 1
    assert changed == steps
