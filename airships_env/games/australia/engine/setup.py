"""Setting up a game (docs/australia/RULES.md S rules): the deal and the first player; all chance
from the generator, in the order the rules document's chance section gives."""

from __future__ import annotations

import numpy as np

from airships_env.games.australia.engine.chance import shuffle
from airships_env.games.australia.engine.data import (
    NUM_BACKS,
    NUM_CARD_TYPES,
    NUM_COLOURS,
    NUM_REGIONS,
    PLAYER_COUNTS,
    AustraliaData,
    default_data,
)
from airships_env.games.australia.engine.model import (
    SETUP_DRAW,
    RulesOptions,
)
from airships_env.games.australia.engine.records import ActionRecord
from airships_env.games.australia.engine.rules import replay_action
from airships_env.games.australia.engine.state import State

__all__ = ["new_game", "replay"]


def new_game(
    num_players: int,
    seed: int | None = None,
    *,
    rng: np.random.Generator | None = None,
    options: RulesOptions | None = None,
    data: AustraliaData | None = None,
) -> State:
    """Set up a game (S1-S3); all chance from ``rng`` (or ``default_rng(seed)``). The first
    actions are the S4 draws."""
    if num_players not in PLAYER_COUNTS:
        raise ValueError(f"Australia is for 2 to 5 players, not {num_players!r}")
    if rng is None:
        rng = np.random.default_rng(seed)
    options = options if options is not None else RulesOptions()
    data = data if data is not None else default_data()
    smallest = min(sum(row) for row in data.cards)
    if options.stack_cards > smallest:
        raise ValueError(f"RulesOptions.stack_cards: {options.stack_cards} cards per stack, but "
                         f"the smallest back has {smallest} cards")  # fmt: skip
    tiles = shuffle(rng, data.tile_list())  # N2
    stacks: list[list[int]] = []
    set_aside: list[list[int]] = []
    for back in range(NUM_BACKS):  # N3
        cards = [c for c in range(NUM_COLOURS) for _ in range(data.cards[back][c])]
        shuffle(rng, cards)
        cut = len(cards) - options.stack_cards
        set_aside.append(cards[:cut])
        stacks.append(cards[cut:])
    n = num_players
    return State(
        num_players=n,
        data=data,
        options=options,
        phase=SETUP_DRAW,
        current=0,
        actions_left=0,
        step=0,
        turn=0,
        round=0,
        supply=[data.rangers[n]] * n,
        vp=[0] * n,
        dollars=[0] * n,  # S5
        plane=[-1] * n,
        hands=[[0] * NUM_CARD_TYPES for _ in range(n)],
        stacks=stacks,
        set_aside=set_aside,
        played=[0] * NUM_CARD_TYPES,
        rangers=[[0] * n for _ in range(data.num_locations)],
        tile_value=tiles,
        tile_up=[0] * NUM_REGIONS,
        conservation=[1] * NUM_REGIONS,
        windmill_track=[],
        ranger_track=[],
        pending_card=-1,
        pending_paid=0,
        rangers_left=0,
        track_used=0,
        taken=0,
        move_from=-1,
        setup_draws=0,
        end_triggered=0,
        windmill_region=-1,
        windmill_value=data.windmill_start if options.full_game else 0,
        rng=rng,
    )


def replay(
    records: list[ActionRecord],
    num_players: int,
    seed: int | None = None,
    *,
    options: RulesOptions | None = None,
    data: AustraliaData | None = None,
) -> State:
    """The state after replaying a log from the seeded setup (every record checked)."""
    state = new_game(num_players, seed, options=options, data=data)
    for record in records:
        replay_action(state, record)
    return state
