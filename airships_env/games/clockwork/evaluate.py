"""A position's value for the generic search (the protocol's optional ``evaluate``).

Each seat's progress towards W2 is a number in [0, 1]: the machines route counts a laid FM or CB
as whole and an unlaid one as the share of its most-held type (a machine needs every card of one
type, W1), plus the FUEL; the Airship route counts the share of the AS cards held and the POWER.
The better route is the seat's progress. The seats' values are a softmax of their progress
(``SHARPNESS`` sets how much a lead counts), so they sum to 1 like the shares of a won game.
It reads only the state it is given (a determinized world in a search).
"""

from __future__ import annotations

import math

from airships_env.games.clockwork.engine.data import AS, CB_TYPES, FM_TYPES, FUEL, POWER
from airships_env.games.clockwork.engine.state import State

SHARPNESS = 6.0  # softmax temperature over progress: a full route ahead is worth e**6 to 1


def _machine(hand: list[int], counts: tuple[int, ...], kinds: tuple[int, ...], laid: int) -> float:
    """1 for a laid machine, else the share of its best-held type (0 when none is in play)."""
    if laid >= 0:
        return 1.0
    return max((hand[t] / counts[t] for t in kinds if counts[t] > 0), default=0.0)


def progress(state: State, seat: int) -> float:
    """``seat``'s progress towards a win in [0, 1] (1: it has won)."""
    if state.winner == seat:
        return 1.0
    hand = state.hands[seat]
    counts = state.data.counts[state.num_players]
    machines = 0.5 * _machine(hand, counts, FM_TYPES, state.laid_fm[seat]) + 0.5 * _machine(
        hand, counts, CB_TYPES, state.laid_cb[seat]
    )
    best = 0.85 * machines + 0.15 * (hand[FUEL] > 0)
    if counts[AS] > 0:
        airship = 0.85 * hand[AS] / counts[AS] + 0.15 * (hand[POWER] > 0 and counts[POWER] > 0)
        best = max(best, airship)
    return best


def evaluate(state: State) -> list[float]:
    """Each seat's value of ``state`` in [0, 1], summing to 1 (a softmax of their progress)."""
    weights = [math.exp(SHARPNESS * progress(state, seat)) for seat in range(state.num_players)]
    total = sum(weights)
    return [w / total for w in weights]
