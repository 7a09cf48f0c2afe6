"""A fast rollout policy for the generic search (the protocol's optional ``rollout_action``).

Uniform rollouts wander for hundreds of actions before the W3 turn limit; this one plays like a
hurried collector (draw when possible, head for a Scrapyard with cards, answer with Scrap Metal,
discard what it holds least of), so a simulated game ends in a few dozen turns. It reads the
state it is given, which in a search is a determinized copy, never the true game.
"""

from __future__ import annotations

import numpy as np

from airships_env.chance import uniform_below
from airships_env.games.clockwork.engine import actions as A
from airships_env.games.clockwork.engine.data import FUEL, POWER, SCRAP
from airships_env.games.clockwork.engine.state import State


def rollout_action(state: State, rng: np.random.Generator) -> int:
    """A quick, sensible legal action for simulations."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    if A.DRAW in legal:
        return A.DRAW
    phase = state.phase_name
    hand = state.hands[state.actor]
    if phase == "move":
        track = state.data.track
        yards = [
            a
            for a in legal
            if A.JUMP_SCRAPYARD <= a < A.DRAW
            or (a < A.JUMP_TOWERS and _lands_on_yard(state, a, track.scrapyards))
        ]
        if yards:
            return yards[uniform_below(rng, len(yards))]
    elif phase == "respond":
        return A.give(SCRAP)
    elif phase in ("discard", "give back"):
        base = A.DISCARD if phase == "discard" else A.GIVE

        def keep(action: int) -> tuple[int, int]:
            card = action - base
            if card == SCRAP:
                return (-1, action)
            if card in (FUEL, POWER):
                return (9, action)
            return (hand[card], action)

        return min(legal, key=keep)
    return legal[uniform_below(rng, len(legal))]


def _lands_on_yard(state: State, action: int, yards: tuple[int, ...]) -> bool:
    position = state.pawns[state.actor]
    length = state.data.track.length
    if action < A.MOVE_CCW:
        field = (position + action - A.MOVE_CW + 1) % length
    else:
        field = (position - (action - A.MOVE_CCW + 1)) % length
    yard = yards.index(field) if field in yards else -1
    return yard >= 0 and bool(state.piles[yard])
