"""The fixed Nippon action table: one owner for indices, names and decoding.

Every choice of a player is one index (docs/nippon/RULES.md T2, A1-A10, C3, C4, T3):

=========  ======================================  =====================================
indices    name                                    when
=========  ======================================  =====================================
0..53      ``take <colour> <ACTION>``              a turn's start (T2): kind * 6 + colour
54         ``consolidate``                         a turn's start (C1)
55..57     ``blueprints -> coal|knowledge|money``  any time in one's turn (T3)
58         ``stop``                                end a 1..3 action early / end the turn
59..61     ``amount 1..3``                         KNOWLEDGE, MINE steps; MARKET cubes
62..67     ``produce <good>``                      PRODUCE (A3)
68..73     ``machine <good>``                      TECHNOLOGY (A2)
74         ``machine reserve``                     TECHNOLOGY with no factory to improve
75..78     ``region <r>``                          TRAINS, SHIPS (A6, A7)
79..86     ``contract <k>``                        EXPORT (A9)
87..92     ``deliver <good>``                      EXPORT: the good paying the next demand
93..124    ``space <city>.<i>``                    MARKET: city * 4 + influence space
125..130   ``tile <v>``                            MARKET: the influence tile's value 1..6
131..154   ``invest <tile>``                       INVEST: factory tile 0..23 (A1)
155..166   ``reward L<level> <gift>``              consolidation (C3): (level-1) * 3 + gift
167..175   ``achievement <k>``                     consolidation (C4): achievement space
=========  ======================================  =====================================
"""

from __future__ import annotations

from airships_env.games.nippon.engine.data import (
    ACTION_KINDS,
    GIFT_KINDS,
    GOODS,
    NUM_ACHIEVEMENTS,
    NUM_CITIES,
    NUM_COLOURS,
    NUM_CONTRACTS,
    NUM_FACTORY_TILES,
    NUM_GOODS,
    NUM_REGIONS,
    SPACES_PER_CITY,
    default_data,
)

__all__ = [
    "ACTION_NAMES",
    "NUM_ACTIONS",
    "action_from_name",
    "action_name",
]

TAKE = 0
CONSOLIDATE = TAKE + len(ACTION_KINDS) * NUM_COLOURS  # 54
BONUS = CONSOLIDATE + 1  # 55: coal, knowledge, money
STOP = BONUS + 3  # 58
AMOUNT = STOP + 1  # 59: amount 1..3
PRODUCE = AMOUNT + 3  # 62
MACHINE = PRODUCE + NUM_GOODS  # 68
MACHINE_RESERVE = MACHINE + NUM_GOODS  # 74
REGION = MACHINE_RESERVE + 1  # 75
CONTRACT = REGION + NUM_REGIONS  # 79
DELIVER = CONTRACT + NUM_CONTRACTS  # 87
SPACE = DELIVER + NUM_GOODS  # 93
TILE = SPACE + NUM_CITIES * SPACES_PER_CITY  # 125
INVEST = TILE + 6  # 131
REWARD = INVEST + NUM_FACTORY_TILES  # 155
ACHIEVEMENT = REWARD + 4 * len(GIFT_KINDS)  # 167
NUM_ACTIONS = ACHIEVEMENT + NUM_ACHIEVEMENTS  # 176

BONUS_TRACKS = ("coal", "knowledge", "money")

# the action kinds by name, as indices of ACTION_KINDS
K_INVEST, K_TECHNOLOGY, K_PRODUCE, K_KNOWLEDGE, K_MINE = 0, 1, 2, 3, 4
K_TRAINS, K_SHIPS, K_EXPORT, K_MARKET = 5, 6, 7, 8


def take(kind: int, colour: int) -> int:
    """The index of ``take <colour> <ACTION kind>``."""
    return TAKE + kind * NUM_COLOURS + colour


def _names() -> tuple[str, ...]:
    colours = default_data().colours
    names: list[str] = []
    for kind in ACTION_KINDS:
        names.extend(f"take {c} {kind}" for c in colours)
    names.append("consolidate")
    names.extend(f"blueprints -> {t}" for t in BONUS_TRACKS)
    names.append("stop")
    names.extend(f"amount {n}" for n in (1, 2, 3))
    names.extend(f"produce {g}" for g in GOODS)
    names.extend(f"machine {g}" for g in GOODS)
    names.append("machine reserve")
    names.extend(f"region {r}" for r in range(NUM_REGIONS))
    names.extend(f"contract {k}" for k in range(NUM_CONTRACTS))
    names.extend(f"deliver {g}" for g in GOODS)
    names.extend(f"space {c}.{i}" for c in range(NUM_CITIES) for i in range(SPACES_PER_CITY))
    names.extend(f"tile {v}" for v in range(1, 7))
    names.extend(f"invest {t}" for t in range(NUM_FACTORY_TILES))
    names.extend(f"reward L{lv} {g}" for lv in range(1, 5) for g in GIFT_KINDS)
    names.extend(f"achievement {k}" for k in range(NUM_ACHIEVEMENTS))
    assert len(names) == NUM_ACTIONS
    return tuple(names)


# colours in names are the default file's; a user file's colours differ only in the name
ACTION_NAMES: tuple[str, ...] = _names()
_BY_NAME = {n: i for i, n in enumerate(ACTION_NAMES)}


def action_name(action: int) -> str:
    """The readable name of an action index (ValueError outside the table)."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action} is outside 0..{NUM_ACTIONS - 1}")
    return ACTION_NAMES[action]


def action_from_name(name: str) -> int:
    """The index of a readable action name (ValueError naming close names when unknown)."""
    if name in _BY_NAME:
        return _BY_NAME[name]
    close = [n for n in ACTION_NAMES if n.split()[0] == name.split()[0]][:8] if name else []
    raise ValueError(f"unknown action name {name!r}; names like it: {', '.join(close) or 'none'}")
