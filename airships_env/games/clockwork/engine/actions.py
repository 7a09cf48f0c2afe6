"""The fixed action table of Escape from Clockwork City: one owner for the action encoding.

Every choice a player makes is one action index; the table is the same for 2, 3 and 4 players
and for every track (docs/clockwork/RULES.md):

| indices | name | when |
|---|---|---|
| 0 | `roll` | start of a turn (T1) |
| 1 | `pass` | decline: a challenge or pick-up that is optional, a counter-challenge, no legal move |
| 2-13 | `move cw 1` .. `move cw 12` | after the roll: move towards higher field numbers (M1) |
| 14-25 | `move ccw 1` .. `move ccw 12` | the same towards lower field numbers |
| 26 | `jump towers` | lucky roll (T2b, F1) |
| 27-32 | `jump scrapyard 1` .. `6` | lucky roll (T2b) |
| 33 | `draw` | on a Scrapyard with cards (T2c, T3) |
| 34-36 | `challenge +1` .. `+3` | the seat 1..3 places after the actor (T2d, T3, F2) |
| 37-49 | `demand FM1` .. `demand POWER` | name a type in a challenge (C1, C3) |
| 50-62 | `seek FM1` .. `seek POWER` | name a type to pick up at the Towers (R1) |
| 63-76 | `give FM1` .. `give SCRAP` | the card given in a challenge (C2) or given back |
| 77-90 | `discard FM1` .. `discard SCRAP` | the card discarded over the hand limit (H1) |
| 91-148 | `turn place 0` .. `turn place 57` | the face-down place turned (R1) |
"""

from __future__ import annotations

from airships_env.games.clockwork.engine.data import NUM_PLACES as NUM_PLACES  # re-exported
from airships_env.games.clockwork.engine.data import NUM_SCRAPYARDS, NUM_TYPES, TYPE_IDS

MAX_MOVE = 12
NUM_NAMEABLE = 13  # every type but SCRAP (C1, R1)

ROLL = 0
PASS = 1
MOVE_CW = 2
MOVE_CCW = MOVE_CW + MAX_MOVE
JUMP_TOWERS = MOVE_CCW + MAX_MOVE
JUMP_SCRAPYARD = JUMP_TOWERS + 1
DRAW = JUMP_SCRAPYARD + NUM_SCRAPYARDS
CHALLENGE = DRAW + 1
DEMAND = CHALLENGE + 3
SEEK = DEMAND + NUM_NAMEABLE
GIVE = SEEK + NUM_NAMEABLE
DISCARD = GIVE + NUM_TYPES
TURN_PLACE = DISCARD + NUM_TYPES
NUM_ACTIONS = TURN_PLACE + NUM_PLACES


def move(direction: int, steps: int) -> int:
    """The action moving ``steps`` fields (1..12) clockwise (``direction`` +1) or not (-1)."""
    return (MOVE_CW if direction > 0 else MOVE_CCW) + steps - 1


def jump_scrapyard(index: int) -> int:
    """The lucky jump to Scrapyard ``index`` (0..5)."""
    return JUMP_SCRAPYARD + index


def challenge(offset: int) -> int:
    """The challenge of the seat ``offset`` (1..3) places after the actor."""
    return CHALLENGE + offset - 1


def demand(card_type: int) -> int:
    """Name ``card_type`` (never SCRAP) in a challenge."""
    return DEMAND + card_type


def seek(card_type: int) -> int:
    """Name ``card_type`` (never SCRAP) to pick up a discard."""
    return SEEK + card_type


def give(card_type: int) -> int:
    """Give a card of ``card_type`` in a challenge."""
    return GIVE + card_type


def discard(card_type: int) -> int:
    """Discard a card of ``card_type``."""
    return DISCARD + card_type


def turn_place(place: int) -> int:
    """Turn the face-down card on ``place``."""
    return TURN_PLACE + place


def _build_names() -> tuple[str, ...]:
    names = ["roll", "pass"]
    names += [f"move cw {n}" for n in range(1, MAX_MOVE + 1)]
    names += [f"move ccw {n}" for n in range(1, MAX_MOVE + 1)]
    names += ["jump towers"] + [f"jump scrapyard {k + 1}" for k in range(NUM_SCRAPYARDS)]
    names += ["draw"] + [f"challenge +{k}" for k in (1, 2, 3)]
    names += [f"demand {TYPE_IDS[t]}" for t in range(NUM_NAMEABLE)]
    names += [f"seek {TYPE_IDS[t]}" for t in range(NUM_NAMEABLE)]
    names += [f"give {TYPE_IDS[t]}" for t in range(NUM_TYPES)]
    names += [f"discard {TYPE_IDS[t]}" for t in range(NUM_TYPES)]
    names += [f"turn place {p}" for p in range(NUM_PLACES)]
    assert len(names) == NUM_ACTIONS
    return tuple(names)


ACTION_NAMES: tuple[str, ...] = _build_names()
_BY_NAME = {name: index for index, name in enumerate(ACTION_NAMES)}


def action_name(action: int) -> str:
    """The readable name of an action index."""
    if not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action index {action!r} outside 0..{NUM_ACTIONS - 1}")
    return ACTION_NAMES[action]


def action_from_name(name: str) -> int:
    """The action index of a readable name ('move cw 5', 'demand CB2')."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise ValueError(f"unknown action name {name!r}") from None
