"""The fixed action table of Australia: one owner for the action encoding.

Every choice a player makes is one action index; the table is the same for 2-5 players, the
simple and the full game and every map (24 regions, at most 64 locations; docs/australia/RULES.md
"The action table"):

| indices | name | rule |
|---|---|---|
| 0-23 | `fly region <r>` | A1 |
| 24-47 | `play <back> <colour>` | A2 |
| 48-71 | `play <back> <colour> paying $3` | A2 + D1 |
| 72-327 | `place <n> at location <l>` (n 1..4) | A3 |
| 328 | `no rangers (2 VP)` | A2 (b) |
| 329-332 | `ranger track <t>` (t 1..4) | W3 |
| 333 | `stop placing` | W3 |
| 334-337 | `draw <back>` | S4, A4 |
| 338-401 | `take back at location <l>` | A5 |
| 402 | `done taking back` | A5 |
| 403-466 | `move ranger from location <l>` | D2 |
| 467-530 | `move ranger to location <l>` | D2 |
| 531 | `end turn` | T2 |
| 532-555 | `windmill region <r>` | S6 |
"""

from __future__ import annotations

from collections.abc import Callable

from airships_env.games.australia.engine.data import (
    BACKS,
    COLOURS,
    MAX_LOCATIONS,
    NUM_BACKS,
    NUM_CARD_TYPES,
    NUM_COLOURS,
    NUM_REGIONS,
)

MAX_PLACE = 4

FLY = 0
PLAY = FLY + NUM_REGIONS
PLAY_PAYING = PLAY + NUM_CARD_TYPES
PLACE = PLAY_PAYING + NUM_CARD_TYPES
NO_RANGERS = PLACE + MAX_PLACE * MAX_LOCATIONS
RANGER_TRACK = NO_RANGERS + 1
STOP_PLACING = RANGER_TRACK + MAX_PLACE
DRAW = STOP_PLACING + 1
TAKE_BACK = DRAW + NUM_BACKS
DONE_TAKING = TAKE_BACK + MAX_LOCATIONS
MOVE_FROM = DONE_TAKING + 1
MOVE_TO = MOVE_FROM + MAX_LOCATIONS
END_TURN = MOVE_TO + MAX_LOCATIONS
WINDMILL = END_TURN + 1
NUM_ACTIONS = WINDMILL + NUM_REGIONS


def fly(region: int) -> int:
    """Fly to ``region`` (A1)."""
    return FLY + region


def play(card: int, paying: bool = False) -> int:
    """Play a card of type ``card`` (back * 6 + colour), paying $3 to recolour it (D1)."""
    return (PLAY_PAYING if paying else PLAY) + card


def place(count: int, location: int) -> int:
    """Place ``count`` (1..4) rangers on ``location`` (A3)."""
    return PLACE + (count - 1) * MAX_LOCATIONS + location


def ranger_track(count: int) -> int:
    """Send ``count`` (1..4) rangers to the ranger track (W3)."""
    return RANGER_TRACK + count - 1


def draw(back: int) -> int:
    """Take the top card of the stack of ``back`` (S4, A4)."""
    return DRAW + back


def take_back(location: int) -> int:
    """Take one own ranger back from ``location`` (A5)."""
    return TAKE_BACK + location


def move_from(location: int) -> int:
    """Pay $4 and lift one own ranger from ``location`` (D2)."""
    return MOVE_FROM + location


def move_to(location: int) -> int:
    """Put the lifted ranger on ``location`` (D2)."""
    return MOVE_TO + location


def windmill(region: int) -> int:
    """Put the windmill on ``region`` (S6)."""
    return WINDMILL + region


def _card_name(card: int) -> str:
    return f"{BACKS[card // NUM_COLOURS]} {COLOURS[card % NUM_COLOURS]}"


def _build_names() -> tuple[str, ...]:
    names = [f"fly region {r}" for r in range(NUM_REGIONS)]
    names += [f"play {_card_name(c)}" for c in range(NUM_CARD_TYPES)]
    names += [f"play {_card_name(c)} paying $3" for c in range(NUM_CARD_TYPES)]
    names += [
        f"place {n} at location {loc}"
        for n in range(1, MAX_PLACE + 1)
        for loc in range(MAX_LOCATIONS)
    ]
    names += ["no rangers (2 VP)"]
    names += [f"ranger track {t}" for t in range(1, MAX_PLACE + 1)]
    names += ["stop placing"]
    names += [f"draw {b}" for b in BACKS]
    names += [f"take back at location {loc}" for loc in range(MAX_LOCATIONS)]
    names += ["done taking back"]
    names += [f"move ranger from location {loc}" for loc in range(MAX_LOCATIONS)]
    names += [f"move ranger to location {loc}" for loc in range(MAX_LOCATIONS)]
    names += ["end turn"]
    names += [f"windmill region {r}" for r in range(NUM_REGIONS)]
    assert len(names) == NUM_ACTIONS
    return tuple(names)


ACTION_NAMES: tuple[str, ...] = _build_names()
#: The kind of each action, the first word of its name: fly, play, place, no, ranger, stop, draw,
#: take, done, move, end, windmill.
ACTION_KINDS: tuple[str, ...] = tuple(name.split()[0] for name in ACTION_NAMES)
_BY_NAME = {name: index for index, name in enumerate(ACTION_NAMES)}


def action_name(action: int) -> str:
    """The readable name of an action index."""
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action index {action!r} outside 0..{NUM_ACTIONS - 1}")
    return ACTION_NAMES[action]


def kind_uniform_choice(legal: list[int], draw: Callable[[int], int]) -> int:
    """A random legal action, each kind of action equally likely first, then each action of
    that kind (``draw(k)``: a uniform integer below k). Uniform play mostly flies (24 of ~30
    actions) and rarely ends a game by E1; this choice plays cards and ends it (RULES.md E4)."""
    kinds: dict[str, list[int]] = {}
    for action in legal:
        kinds.setdefault(ACTION_KINDS[action], []).append(action)
    chosen = sorted(kinds)[draw(len(kinds))]
    return kinds[chosen][draw(len(kinds[chosen]))]


def action_from_name(name: str) -> int:
    """The action index of a readable name ('fly region 3', 'place 2 at location 7')."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise ValueError(f"unknown action name {name!r}") from None
