"""Helpers for the engine tests: hand-built states, card look-ups, random play."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np

from airships_env.engine import CHIP_DECISION, GAME_OVER, GameState, RulesOptions, new_game
from airships_env.engine.actions import (
    FIRST_PHASE_TARGET,
    FIRST_STACK_TARGET,
    NO_EXCHANGE,
    attempt_action,
)
from airships_env.engine.cards import CardSet, default_card_path, load_cards
from airships_env.engine.records import ActionRecord
from airships_env.engine.state import CHANGE_OF_ERA, EMPTY

DEFAULT_TOML = default_card_path().read_text(encoding="utf-8")
ALL_EXPANSIONS = list(range(48))
ALL_AIRSHIPS = list(range(18))
STACK_TIERS = (3, 2, 1)  # bottom to top (S2)


def expansion(state: GameState, card_id: str) -> int:
    """The index of an expansion card by id."""
    return state.cards.expansion_index[card_id]


def airship(state: GameState, card_id: str) -> int:
    """The index of an airship card by id."""
    return state.cards.airship_index[card_id]


def refresh(state: GameState) -> None:
    """Drop the legal-action cache after a test edited the state's fields directly."""
    state.legal_cache = None


def hand_built(
    num_players: int = 2,
    *,
    era: int = 1,
    seed: int = 0,
    options: RulesOptions | None = None,
    cards: CardSet | None = None,
    deck: Iterable[str] = (),
) -> GameState:
    """A set-up game emptied for a test: no card on the board or on any company board.

    ``deck`` lists expansion ids from the bottom to the top (the last one is revealed first).
    The airship stacks stay as dealt (4 stacks of 3). Chips are as after setup (S6).
    """
    state = new_game(num_players, seed=seed, options=options, cards=cards)
    state.board = [EMPTY] * len(state.board)
    for player in state.players:
        player.slots = [EMPTY] * len(player.slots)
        player.airships = []
    state.deck = [expansion(state, card_id) for card_id in deck]
    state.removed = []
    state.era = era
    refresh(state)
    return state


def give(state: GameState, player: int, *card_ids: str) -> None:
    """Put expansions onto a player's company board (each in its department slot)."""
    for card_id in card_ids:
        index = expansion(state, card_id)
        state.players[player].slots[state.cards.expansions[index].department] = index
    refresh(state)


def put(state: GameState, slot: int, card_id: str) -> None:
    """Put an expansion onto a main-board slot (target number ``department * 3 + slot``)."""
    state.board[slot] = expansion(state, card_id)
    refresh(state)


def slot_of(state: GameState, card_id: str, position: int = 0) -> int:
    """The board target of the ``position``-th slot (0..2) of the card's department row."""
    department = state.cards.expansions[expansion(state, card_id)].department
    return 3 * department + position


def place(state: GameState, card_id: str, position: int = 0) -> int:
    """Put an expansion onto its own department row and return the board target."""
    target = slot_of(state, card_id, position)
    put(state, target, card_id)
    return target


def set_chips(state: GameState, player: int, board: int, supply: int) -> None:
    """Set a player's chips on its board and in its supply."""
    state.players[player].chips_on_board = board
    state.players[player].chips_supply = supply
    refresh(state)


def set_stack(state: GameState, stack: int, card_ids: Iterable[str]) -> None:
    """Set an airship stack, bottom to top."""
    state.stacks[stack] = [airship(state, card_id) for card_id in card_ids]
    refresh(state)


def stack_action(stack: int, variant: int = NO_EXCHANGE) -> int:
    """The attempt action on an airship stack."""
    return attempt_action(FIRST_STACK_TARGET + stack, variant)


def phase_action(phase: int, variant: int = NO_EXCHANGE) -> int:
    """The attempt action on a Hindenburg phase."""
    return attempt_action(FIRST_PHASE_TARGET + phase, variant)


def open_hindenburg(state: GameState) -> None:
    """Open the Hindenburg (H1) by emptying stack 0, keeping the other stacks tall."""
    state.stacks[0] = []
    state.hindenburg_open = True
    refresh(state)


def play_random(
    state: GameState, rng: np.random.Generator, max_steps: int = 5_000
) -> list[ActionRecord]:
    """Play uniformly random legal actions to the end; returns the records."""
    records = []
    for _ in range(max_steps):
        if state.is_terminal():
            return records
        legal = state.legal_actions()
        records.append(state.apply_action(legal[int(rng.integers(len(legal)))]))
    raise AssertionError(f"the game did not end within {max_steps} steps")


def edit_card(text: str, card_id: str, field: str, value: str | None) -> str:
    """Set (or, with ``value=None``, delete) one ``field = value`` line of a card in TOML text."""
    start = text.index(f'id = "{card_id}"\n')
    end = text.find("\n[[", start)
    end = len(text) if end < 0 else end
    lines = text[start:end].split("\n")
    kept = [line for line in lines if not line.startswith(f"{field} = ")]
    if value is not None:
        kept.insert(1, f"{field} = {value}")
    return text[:start] + "\n".join(kept) + text[end:]


def write_cards(tmp_path: Path, text: str, name: str = "cards.toml") -> Path:
    """Write card-file text into ``tmp_path``."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def cards_with(tmp_path: Path, edits: Iterable[tuple[str, str, str | None]]) -> CardSet:
    """The default card set with ``(card id, field, value)`` edits (see :func:`edit_card`)."""
    text = DEFAULT_TOML
    for card_id, field, value in edits:
        text = edit_card(text, card_id, field, value)
    return load_cards(write_cards(tmp_path, text))


def check_state(state: GameState) -> None:
    """The invariants of a state (raises AssertionError naming the broken one)."""
    cards = state.cards
    n = state.num_players
    players = state.players
    # expansions: deck / board / company boards / removed, each exactly once
    places = [c for c in state.deck if c != CHANGE_OF_ERA]
    places += [c for c in state.board if c != EMPTY]
    for player in players:
        places += [c for c in player.slots if c != EMPTY]
    places += state.removed
    assert sorted(places) == ALL_EXPANSIONS, "expansions"
    # the Change of Era card: in the deck until revealed, then out of the game with era 2
    assert state.deck.count(CHANGE_OF_ERA) == (1 if state.era == 1 else 0), "change of era"
    # P1 and T6: cards lie in their department's row and slot
    expansions = cards.expansions
    for target, card in enumerate(state.board):
        assert card == EMPTY or expansions[card].department == target // 3, "board row"
    for player in players:
        for department, card in enumerate(player.slots):
            assert card == EMPTY or expansions[card].department == department, "company slot"
    # airships: stacks / left out / airship piles, each exactly once; stacks keep their tiers
    airships = [a for stack in state.stacks for a in stack] + state.left_out
    for player in players:
        airships += player.airships
    assert sorted(airships) == ALL_AIRSHIPS, "airships"
    assert len(state.left_out) == 6
    for stack in state.stacks:
        assert tuple(cards.airships[a].tier for a in stack) == STACK_TIERS[: len(stack)], "tiers"
    # Hindenburg phases: open (EMPTY) or marked by one player; only once the Hindenburg opened
    assert len(state.hindenburg) == 4
    for holder in state.hindenburg:
        assert holder == EMPTY or (0 <= holder < n and state.hindenburg_open), "phases"
    # H1: open exactly when a stack is empty (stacks never grow back)
    assert state.hindenburg_open == (not all(state.stacks)), "H1"
    # chips: 6 per player = board + supply + marks
    for seat, player in enumerate(players):
        assert player.chips_on_board >= 0 and player.chips_supply >= 0, "chips"
        marks = state.hindenburg.count(seat)
        assert player.chips_on_board + player.chips_supply + marks == 6, "chips"
    assert -1 <= state.wooden_airship < n
    assert (state.pending is not None) == (state.phase == CHIP_DECISION), "pending"
    # a legal action exists until the game ends, none after
    legal = state.legal_actions()
    assert bool(legal) == (state.phase != GAME_OVER), "legal actions"
    assert legal == sorted(set(legal))


def check_record(record: ActionRecord) -> None:
    """What a record of an attempt must satisfy (T4, T5)."""
    if record.rolled is None:
        assert record.result in (None, "passed")
        return
    assert record.kept is not None and record.total is not None and record.needed is not None
    for colour in range(3):
        assert len(record.rolled[colour]) <= 3, "at most 3 dice of a colour are rolled (T4)"
    assert record.dice_sum == sum(sum(values) for values in record.kept)
    assert record.total == record.dice_sum + sum(amount for _, amount in record.bonuses)
    assert [name for name, _ in record.bonuses].count("chip") <= 1, "one chip per attempt"
    if record.result == "success":
        assert record.total >= record.needed
    elif record.result == "failure":
        assert record.total < record.needed
    else:
        assert record.result == "chip decision" and record.total == record.needed - 1
