"""Setting up a game (docs/clockwork/RULES.md S rules): the deal and the first player; all chance
from the generator, in the order the rules document's chance section gives."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from airships_env.games.clockwork.engine import actions as A
from airships_env.games.clockwork.engine.chance import (
    roll_two,
    shuffle,
)
from airships_env.games.clockwork.engine.data import (
    HAND_LIMIT,
    NUM_SCRAPYARDS,
    NUM_TYPES,
    PLAYER_COUNTS,
    ClockworkData,
    default_data,
)
from airships_env.games.clockwork.engine.model import (
    ROLL,
    RulesOptions,
)
from airships_env.games.clockwork.engine.records import ActionRecord
from airships_env.games.clockwork.engine.rules import _settle, replay_action
from airships_env.games.clockwork.engine.state import State

__all__ = ["new_game", "replay"]


def new_game(
    num_players: int,
    seed: int | None = None,
    *,
    rng: np.random.Generator | None = None,
    options: RulesOptions | None = None,
    data: ClockworkData | None = None,
) -> State:
    """Set up and deal a game (S1-S4); all chance from ``rng`` (or ``default_rng(seed)``)."""
    if num_players not in PLAYER_COUNTS:
        raise ValueError(f"Escape from Clockwork City is for 2 to 4 players, not {num_players!r}")
    if rng is None:
        rng = np.random.default_rng(seed)
    options = options if options is not None else RulesOptions()
    data = data if data is not None else default_data()
    counts = data.counts[num_players]
    deck = [t for t in range(NUM_TYPES) for _ in range(counts[t])]  # S1, type order
    shuffle(rng, deck)  # S2, N2
    hands = [[0] * NUM_TYPES for _ in range(num_players)]
    for seat in range(num_players):
        for card in deck[HAND_LIMIT * seat : HAND_LIMIT * (seat + 1)]:
            hands[seat][card] += 1
    piles: list[list[int]] = [[] for _ in range(NUM_SCRAPYARDS)]
    for j, card in enumerate(deck[HAND_LIMIT * num_players :]):
        piles[j % NUM_SCRAPYARDS].append(card)
    start = 0
    if options.first_player == "roll":  # S3, N3: roll-off, ties roll again
        contenders = list(range(num_players))
        while len(contenders) > 1:
            sums = [sum(roll_two(rng)) for _ in contenders]
            best = max(sums)
            contenders = [s for s, total in zip(contenders, sums, strict=True) if total == best]
        start = contenders[0]
    towers = data.track.towers
    state = State(
        num_players=num_players,
        data=data,
        options=options,
        hands=hands,
        laid_fm=[-1] * num_players,
        laid_cb=[-1] * num_players,
        piles=piles,
        places=[-1] * A.NUM_PLACES,
        removed_scrap=0,
        pawns=[towers] * num_players,
        start_player=start,
        current=start,
        actor=start,
        phase=ROLL,
        dice=[0, 0],
        turn=1,
        step=0,
        turn_start_field=towers,
        endgame=False,
        challenge=[-1, -1, -1, -1],
        seek_type=-1,
        winner=-1,
        known=[[[0] * NUM_TYPES for _ in range(num_players)] for _ in range(num_players)],
        rng=rng,
    )
    _settle(state, start, [])  # S4: a dealt machine is laid at once
    return state


def replay(
    num_players: int,
    seed: int | None,
    records: Iterable[ActionRecord],
    *,
    options: RulesOptions | None = None,
    data: ClockworkData | None = None,
) -> State:
    """The state after replaying a log from the seeded setup (every record checked)."""
    state = new_game(num_players, seed, options=options, data=data)
    for record in records:
        replay_action(state, record)
    return state
