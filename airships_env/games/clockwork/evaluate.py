"""A position's value for the generic search (the protocol's optional ``evaluate``).

Each seat gets a linear score of what it has towards W2 (:func:`features`: the machines laid
and the share of the best-held machine type, squared as well since the last cards count most;
the FUEL; the share of the Airship cards and the POWER; Scrap Metal held; hand size), and the
seats' values are a softmax of their scores (for two seats, the logistic of the difference), so
they lie in [0, 1] and sum to 1 like the shares of a won game.

The weights are fitted, not guessed: a logistic regression of the winner on the difference of
the two seats' features at every roll of 1,500 two-player games of the heuristic against itself
and greedy (``scripts/clockwork_fit_evaluate.py`` prints them again). On games held out it has a
log-loss of 0.634 against 0.693 for a coin and 0.660 for a hand-weighted progress measure: the
game is luck-heavy, and a position predicts its winner only loosely. It reads only the state it
is given (a determinized world in a search).
"""

from __future__ import annotations

import math

from airships_env.games.clockwork.engine.data import AS, CB_TYPES, FM_TYPES, FUEL, POWER, SCRAP
from airships_env.games.clockwork.engine.state import State

FEATURES = (
    "fm_laid",
    "fm_share",
    "fm_share_squared",
    "cb_laid",
    "cb_share",
    "cb_share_squared",
    "fuel",
    "as_share",
    "as_share_squared",
    "power",
    "scrap",
    "hand_size",
    "both_laid",
    "laid_with_fuel",
)

#: The fitted weight of each feature (see the module docstring), in :data:`FEATURES` order.
WEIGHTS = (
    0.211,
    -0.051,
    0.836,
    0.083,
    0.521,
    0.924,
    -0.024,
    -1.142,
    2.605,
    0.158,
    0.134,
    -0.025,
    0.948,
    0.122,
)


def _machine(hand: list[int], counts: tuple[int, ...], kinds: tuple[int, ...], laid: int) -> float:
    """1 for a laid machine, else the share of its best-held type (0 when none is in play)."""
    if laid >= 0:
        return 1.0
    return max((hand[t] / counts[t] for t in kinds if counts[t] > 0), default=0.0)


def features(state: State, seat: int) -> list[float]:
    """``seat``'s features, in :data:`FEATURES` order."""
    hand = state.hands[seat]
    counts = state.data.counts[state.num_players]
    fm_laid = float(state.laid_fm[seat] >= 0)
    cb_laid = float(state.laid_cb[seat] >= 0)
    fm = _machine(hand, counts, FM_TYPES, state.laid_fm[seat])
    cb = _machine(hand, counts, CB_TYPES, state.laid_cb[seat])
    fuel = float(hand[FUEL] > 0)
    airship = hand[AS] / counts[AS] if counts[AS] else 0.0
    return [
        fm_laid,
        fm,
        fm * fm,
        cb_laid,
        cb,
        cb * cb,
        fuel,
        airship,
        airship * airship,
        float(hand[POWER] > 0),
        float(min(hand[SCRAP], 2)),
        float(sum(hand)),
        fm_laid * cb_laid,
        (fm_laid + cb_laid) * fuel,
    ]


def score(state: State, seat: int) -> float:
    """``seat``'s linear score (the winner's is made large: its value is then 1)."""
    if state.winner == seat:
        return 50.0
    return sum(w * f for w, f in zip(WEIGHTS, features(state, seat), strict=True))


def evaluate(state: State) -> list[float]:
    """Each seat's value of ``state`` in [0, 1], summing to 1 (a softmax of the scores)."""
    scores = [score(state, seat) for seat in range(state.num_players)]
    top = max(scores)
    weights = [math.exp(s - top) for s in scores]
    total = sum(weights)
    return [w / total for w in weights]
