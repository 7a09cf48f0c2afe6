"""Setting up a game (docs/airships/RULES.md S1-S6) and starting its first turn (T1)."""

from __future__ import annotations

import numpy as np

from airships_env.chance import check_seed as check_seed  # re-exported
from airships_env.engine.actions import BOARD_SLOTS
from airships_env.engine.cards import AIRSHIP_TIERS, DEPARTMENTS, CardSet, load_cards
from airships_env.engine.dice import shuffle
from airships_env.engine.model import (
    CHANGE_OF_ERA,
    CHIPS_PER_PLAYER,
    CHOOSE_TARGET,
    EMPTY,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PlayerState,
    RulesOptions,
)
from airships_env.engine.records import Reveal
from airships_env.engine.rules import place, reveal, start_turn
from airships_env.engine.state import GameState

BOARD_EXPANSIONS_AT_SETUP = 6  # S4
START_PLAYER_CHIPS, OTHER_PLAYER_CHIPS = 3, 4  # S6


def check_num_players(num_players: object) -> int:
    """S1: 2 to 4 players (numpy integers accepted); a clear ValueError otherwise."""
    if isinstance(num_players, np.integer):
        num_players = int(num_players)
    if (
        isinstance(num_players, bool)
        or not isinstance(num_players, int)
        or not (MIN_PLAYERS <= num_players <= MAX_PLAYERS)
    ):
        raise ValueError(f"num_players must be {MIN_PLAYERS} to {MAX_PLAYERS}, got {num_players!r}")
    return num_players


def new_game(
    num_players: int = 4,
    seed: int | None = None,
    *,
    rng: np.random.Generator | None = None,
    cards: CardSet | str | None = None,
    options: RulesOptions | None = None,
) -> GameState:
    """Set up a game (S1-S6) and start the first turn (T1); all chance comes from ``rng``.

    Pass either ``rng`` or ``seed`` (``np.random.default_rng(seed)``; ``seed=None`` and no
    ``rng`` draws fresh OS entropy). The order of the draws is documented in docs/airships/RULES.md
    "Chance": the native core deals the same game from the same generator.
    """
    num_players = check_num_players(num_players)
    if rng is not None and seed is not None:
        raise ValueError("pass either seed or rng, not both")
    if rng is None:
        rng = np.random.default_rng(check_seed(seed))
    card_set = cards if isinstance(cards, CardSet) else load_cards(cards)
    options = options if options is not None else RulesOptions()

    # S2: each tier shuffled (tier 3 first); 4 stacks, tier 3 at the bottom, tier 1 on top; the
    # rest of each tier is left out unseen.
    stacks: list[list[int]] = [[] for _ in range(4)]
    left_out: list[int] = []
    for tier in reversed(AIRSHIP_TIERS):
        shuffled = shuffle(rng, card_set.airships_of_tier(tier))
        for stack, card in zip(stacks, shuffled[:4], strict=True):
            stack.append(card)
        left_out.extend(shuffled[4:])
    # S3: top to bottom: Era 1 shuffled, the Change of Era card, Era 2 shuffled (top = last);
    # Era 2 is shuffled first.
    deck = [*shuffle(rng, card_set.expansions_of_era(2)), CHANGE_OF_ERA]
    deck += shuffle(rng, card_set.expansions_of_era(1))
    # S5, S6: two white dice each (entrepreneur side I + starter); chips 3 / 4 on the board.
    players = [
        PlayerState(
            slots=[EMPTY] * len(DEPARTMENTS),
            airships=[],
            chips_on_board=START_PLAYER_CHIPS if seat == 0 else OTHER_PLAYER_CHIPS,
            chips_supply=CHIPS_PER_PLAYER
            - (START_PLAYER_CHIPS if seat == 0 else OTHER_PLAYER_CHIPS),
        )
        for seat in range(num_players)
    ]
    state = GameState(
        cards=card_set,
        options=options,
        num_players=num_players,
        players=players,
        era=1,
        deck=deck,
        board=[EMPTY] * BOARD_SLOTS,
        stacks=stacks,
        left_out=left_out,
        removed=[],
        hindenburg=[EMPTY] * len(card_set.hindenburg),
        hindenburg_open=False,
        wooden_airship=EMPTY,
        current_player=0,
        phase=CHOOSE_TARGET,
        pending=None,
        turn=0,
        step=0,
        passed_mask=0,
        final_scores=None,
        winners=None,
        rng=rng,
    )
    # S4: starters shuffled, one dealt to each player in seat order, the rest onto the board by
    # P1; then reveal from the deck until 6 expansions lie on the board.
    starters = shuffle(rng, card_set.expansions_of_era(0))
    for seat, card in enumerate(starters[:num_players]):
        players[seat].slots[card_set.expansions[card].department] = card
    for card in starters[num_players:]:
        place(state, card)
    reveals: list[Reveal] = []
    while state.deck and BOARD_SLOTS - state.board.count(EMPTY) < BOARD_EXPANSIONS_AT_SETUP:
        reveal(state, reveals)
    start_turn(state, 0, [])  # T1a: the first turn begins with a reveal
    return state
