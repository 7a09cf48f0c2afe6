"""Nippon's observation: named pieces over one flat float32 vector, seen from one seat.

Seats are rotated so that the observing seat comes first (``seat``, ``seat + 1``, ...). Every
value is a count scaled by a fixed divisor, so values lie in [-4, 8]. The pieces, in order
(``n`` = players, ``R`` = the default data's worker rows for ``n``: 2, 4, 6), each at the offset
:func:`observation_offsets` names for every data file: a file with fewer action spaces or rows
than a piece holds leaves the rest of it 0, one with more is refused
(:func:`check_observation_fits`):

====================  ==============  ==================================================
name                  size            content
====================  ==============  ==================================================
phase                 15              one-hot of ``State.phase``
pending               80              the action in progress: kind one-hot (10: 9 + none),
                                      units / 3, goods-or-regions used (6 bits), market
                                      region one-hot (5), contract one-hot (9), demand / 3,
                                      goods used for it (6 bits), influence space one-hot
                                      (33), cubes / 3, multiplier to place / 5, am I the
                                      seat to act (1), am I the first player (1), padding
track                 12              marker one-hot (8), golden (1), golden turns / 12,
                                      turn count / 150, reward tiles shown / 16
rewards               12              reward tiles on display per (level, gift) / 4
action_spaces         30              workers per (space, colour) / 3, 5 spaces
rows                  6 * R           workers per (row, colour) / 3
owed                  5 + R           workers owed per space (5), then per row / 3
bag                   6               workers per colour in the bag / 7
factories_open        24              1 if the factory tile is still in the supply
machinery             1               machinery supply / 24
cities                8 * 4 * 12      per influence space: good one-hot (6), tile value / 6,
                                      neutral value / 3, owner: me, another, none (3), 0
regions               4 * 2 * n       trains, ships per (region, seat) / 4
players               n * 86          per seat (me first): yen / 30, coal / 10, blueprints /
                                      10, VP / 100, money, coal track positions / 12,
                                      knowledge / 10, workers per colour / 6, workers / 6,
                                      factory per good (6), its coal cost / 3 (6), machine
                                      / 2 (6), cubes / 4 (6), reserve / 3, trains, ships /
                                      4, contracts done (8), tiles in supply per value / 2
                                      (6), removed / 10, multipliers / 5 (9), reward level
                                      / 4, influence per region / 20 (4), ship VP scored /
                                      50, padding (5)
====================  ==============  ==================================================

Nothing here reads the generator: the bag's order never reaches an observation.
"""

from __future__ import annotations

from array import array
from functools import lru_cache
from itertools import chain
from typing import Any

import numpy as np

from airships_env.games.nippon.engine.data import (
    NUM_COLOURS,
    NUM_FACTORY_TILES,
    NipponData,
    default_data,
)
from airships_env.games.nippon.engine.state import State

__all__ = [
    "check_observation_fits",
    "encode_observation",
    "layout_capacity",
    "observation_layout",
    "observation_offsets",
    "observation_size",
]

PLAYER_SIZE = 86


def layout_capacity(num_players: int) -> tuple[int, int]:
    """The action spaces and worker rows the layout holds for ``num_players``: the default
    data's (a data file with fewer leaves the rest 0; one with more is refused)."""
    d = default_data()
    return len(d.action_spaces), d.num_rows(num_players)


def observation_layout(num_players: int) -> list[tuple[str, int]]:
    """The named pieces of a seat's observation for ``num_players``."""
    spaces, rows = layout_capacity(num_players)
    return [
        ("phase", 15),
        ("pending", 80),
        ("track", 12),
        ("rewards", 12),
        ("action_spaces", spaces * NUM_COLOURS),
        ("rows", NUM_COLOURS * rows),
        ("owed", spaces + rows),
        ("bag", NUM_COLOURS),
        ("factories_open", NUM_FACTORY_TILES),
        ("machinery", 1),
        ("cities", 8 * 4 * 12),
        ("regions", 4 * 2 * num_players),
        ("players", num_players * PLAYER_SIZE),
    ]


def observation_offsets(num_players: int) -> dict[str, int]:
    """Where each piece of :func:`observation_layout` starts."""
    offsets: dict[str, int] = {}
    at = 0
    for name, size in observation_layout(num_players):
        offsets[name] = at
        at += size
    return offsets


def observation_size(num_players: int) -> int:
    """The length of the observation vector for ``num_players``."""
    return sum(size for _, size in observation_layout(num_players))


def check_observation_fits(data: NipponData, num_players: int) -> None:
    """Refuse (ValueError naming the file, the piece and the counts) a data file whose action
    spaces or worker rows for ``num_players`` are more than the layout's pieces hold."""
    spaces, rows = layout_capacity(num_players)
    where = data.path or data.name
    if len(data.action_spaces) > spaces:
        raise ValueError(
            f"{where}: {len(data.action_spaces)} action spaces do not fit the observation's"
            f" 'action_spaces' piece ({spaces} x {NUM_COLOURS} colours)"
        )
    if data.num_rows(num_players) > rows:
        raise ValueError(
            f"{where}: {data.num_rows(num_players)} worker rows for {num_players} players do"
            f" not fit the observation's 'rows' piece ({rows} x {NUM_COLOURS} colours)"
        )


def _one_hots(size: int) -> tuple[tuple[float, ...], ...]:
    """Every one-hot of ``size`` (index ``size``: all zeros, for an index out of range)."""
    return tuple(tuple(float(k == index) for k in range(size)) for index in range(size + 1))


_ONE_HOT: dict[int, tuple[tuple[float, ...], ...]] = {6: _one_hots(6)}  # a city's good
_OWNER = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))  # me, another, none
_GIFTS = ("blueprints", "coal", "yen")


def _one_hot(size: int, index: int) -> tuple[float, ...]:
    table = _ONE_HOT[size]
    return table[index] if 0 <= index < size else table[size]


_CELL_VALUES = 10  # tile values 0..9 are tabled (the default tiles go to 6)


def _city_cell(good: int, value: int, neutral: int, owner_class: int) -> tuple[float, ...]:
    """One influence space's 12 values: good one-hot, tile value / 6, neutral value / 3,
    owner me / another / none, 0."""
    return (*_one_hot(6, good), value / 6, neutral / 3, *_OWNER[owner_class], 0.0)


@lru_cache(maxsize=8)
def _city_cells(neutral: tuple[int, ...]) -> tuple[tuple[tuple[tuple[bytes, ...], ...], ...], ...]:
    """Every influence space's values as float32 bytes, by [space in city][good][tile
    value][owner class]."""
    return tuple(
        tuple(
            tuple(
                tuple(
                    array("f", _city_cell(good, value, neutral[i], cls)).tobytes()
                    for cls in range(3)
                )
                for value in range(_CELL_VALUES)
            )
            for good in range(6)
        )
        for i in range(len(neutral))
    )


_PLAYER_DIVISORS = (30, 10, 10, 100, 12, 12, 10)  # yen, coal, blueprints, VP, tracks, knowledge


class _Plan:
    """Where each value of the encoder's integer list goes and what divides it, for one data
    file and player count (the state's lists have fixed lengths): built once, then every
    observation is one division and one scatter of that list, the ones, and the cities."""

    def __init__(self, state: State) -> None:
        s = state
        n = s.num_players
        rows = s.data.num_rows(n)
        check_observation_fits(s.data, n)  # a piece's values beyond it would shift the next
        capacity = layout_capacity(n)[0]
        offsets = observation_offsets(n)
        self.size = observation_size(n)
        targets: list[int] = []
        divisors: list[int] = []

        def take(at: int, divisor: int, count: int = 1) -> None:
            targets.extend(range(at, at + count))
            divisors.extend([divisor] * count)

        # phase (15) at 0; pending (80) at 15: one-hots and flags are ones
        take(25, 3)  # units
        take(46, 3)  # demand
        take(86, 3)  # cubes
        take(87, 5)  # multiplier
        # track (12) at 95
        take(104, 12)  # golden turns
        take(105, 150)  # turn count
        take(106, 16)  # reward tiles shown
        take(107, 4, 12)  # rewards: tiles per (level, gift)
        at = offsets["action_spaces"]
        take(at, 3, len(s.spaces) * NUM_COLOURS)
        take(offsets["rows"], 3, NUM_COLOURS * rows)
        take(offsets["owed"], 3, len(s.spaces))  # the spaces', then the rows'
        take(offsets["owed"] + capacity, 3, rows)
        take(offsets["bag"], 7, len(s.bag))
        self.factories_open = offsets["factories_open"]
        take(offsets["machinery"], 24)
        self.cities = offsets["cities"]
        take(offsets["regions"], 4, 4 * 2 * n)  # trains, then ships
        self.players = offsets["players"]
        goods = len(s.factory_tile[0])
        contracts, supply = len(s.contracts_done[0]), len(s.tiles_supply[0])
        achievements = len(s.achievements[0])
        for k in range(n):
            at = self.players + k * PLAYER_SIZE
            for divisor in _PLAYER_DIVISORS:
                take(at, divisor)
                at += 1
            take(at, 6, NUM_COLOURS + 1)  # workers per colour, workers
            at += NUM_COLOURS + 1 + goods  # then the factory flags (ones)
            take(at, 3, goods)  # coal cost
            at += goods
            take(at, 2, goods)  # machine
            at += goods
            take(at, 4, goods)  # cubes
            at += goods
            take(at, 3)  # reserve
            take(at + 1, 4)  # trains
            take(at + 2, 4)  # ships
            at += 3
            take(at, 1, contracts)
            at += contracts
            take(at, 2, supply)
            at += supply
            take(at, 10)  # removed
            at += 1
            take(at, 5, achievements)
            at += achievements
            take(at, 4)  # reward level
            take(at + 1, 20, 4)  # influence per region
            take(at + 5, 50)  # ship VP scored
            at += 6
            assert at <= self.players + (k + 1) * PLAYER_SIZE
        assert self.players + n * PLAYER_SIZE == self.size
        self.player_goods = goods
        #: factory tile -> its coal cost; the last entry (tile -1: none) 0
        self.coal_cost = (*(f.coal for f in s.data.factories), 0)
        #: (seat, owners..., values..., goods...) -> the cities piece, influence from cities
        self.cities_memo: dict[tuple[int, ...], tuple[np.ndarray, list[list[int]]]] = {}
        self.targets = np.array(targets, dtype=np.intp)
        self.divisors = np.array(divisors, dtype=np.float64)


_MEMO_SIZE = 256
_PLANS: dict[tuple[str, int], _Plan] = {}  # by (data digest, players); never pickled
_REWARD_SLOTS: dict[str, tuple[int, ...]] = {}  # by data digest; a few at most, never pickled


def _plan(state: State) -> _Plan:
    key = (state.data.digest, state.num_players)
    plan = _PLANS.get(key)
    if plan is None:
        if len(_PLANS) >= 16:
            _PLANS.clear()
        plan = _PLANS[key] = _Plan(state)
    return plan


def _reward_slots(data: NipponData) -> tuple[int, ...]:
    """Each reward tile's place in the ``rewards`` piece: (level - 1) * 3 + gift."""
    slots = _REWARD_SLOTS.get(data.digest)
    if slots is None:
        if len(_REWARD_SLOTS) >= 8:
            _REWARD_SLOTS.clear()
        slots = _REWARD_SLOTS[data.digest] = tuple(
            (rw.level - 1) * 3 + _GIFTS.index(rw.gift) for rw in data.rewards
        )
    return slots


#: mask (6 bits) -> the positions of its set bits
_SET_BITS = tuple(tuple(k for k in range(6) if mask >> k & 1) for mask in range(64))


def encode_observation(state: Any, seat: int) -> np.ndarray:
    """``seat``'s observation of a view or a true state (a fresh float32 vector)."""
    # Every value of the layout above is an integer over a fixed divisor (a one-hot: 1 over
    # 1), computed in float64 and stored as float32: the integers are gathered in the plan's
    # order and divided in one step, the ones written, the cities copied from float32 tables.
    s: State = state
    d = s.data
    n = s.num_players
    plan = _plan(s)
    seats = [(seat + k) % n for k in range(n)]
    rows = d.num_rows(n)
    out = np.zeros(plan.size, dtype=np.float32)
    ones: list[int] = []  # the indices whose value is 1
    if 0 <= s.phase < 15:
        ones.append(s.phase)
    kind = s.pend_kind if s.pend_kind >= 0 else 9
    if 0 <= kind < 10:
        ones.append(15 + kind)
    ones += [26 + bit for bit in _SET_BITS[s.pend_mask & 63]]
    region = s.pend_region if s.pend_region >= 0 else 4
    if 0 <= region < 5:
        ones.append(32 + region)
    contract = s.pend_contract if s.pend_contract >= 0 else 8
    if 0 <= contract < 9:
        ones.append(37 + contract)
    ones += [47 + bit for bit in _SET_BITS[s.pend_goods & 63]]
    space = s.pend_space if s.pend_space >= 0 else 32
    if 0 <= space < 33:
        ones.append(53 + space)
    if s.current == seat:
        ones.append(88)
    if s.first_player == seat:
        ones.append(89)
    marker = min(s.marker, 7)
    if marker >= 0:
        ones.append(95 + marker)
    if s.golden_turns >= -1:
        ones.append(103)
    ints = [
        s.pend_units,
        s.pend_demand,
        s.pend_cubes,
        s.pend_multiplier,
        max(0, s.golden_turns),
        s.turn_count,
        len(s.rewards_left),
    ]
    rewards = [0] * 12
    slots = _reward_slots(d)
    for t in s.rewards_left:
        rewards[slots[t]] += 1
    ints += rewards
    for place in s.spaces:
        ints += place
    for row in s.rows[:rows]:
        ints += row
    ints += [0] * (NUM_COLOURS * (rows - min(rows, len(s.rows))))
    owed = s.owed[: len(s.spaces) + rows]
    ints += owed
    ints += [0] * (len(s.spaces) + rows - len(owed))
    ints += s.bag
    ones += [plan.factories_open + t for t, owner in enumerate(s.factory_owner) if owner < 0]
    ints.append(s.machinery_supply)
    # cities, and each region's influence per seat from its cities (F2, as
    # rules.region_influence), from the plan's memo when encoded before for these owners,
    # values and goods (and seat): they change a few times a game
    cities_key = (
        seat,
        *chain.from_iterable(s.influence_owner),
        *chain.from_iterable(s.influence_value),
        *chain.from_iterable(s.city_goods),
    )
    known = plan.cities_memo.get(cities_key)
    if known is None:
        known = _cities(s, seat)
        if len(plan.cities_memo) >= _MEMO_SIZE:
            plan.cities_memo.clear()
        plan.cities_memo[cities_key] = known
    cities, from_cities = known
    out[plan.cities : plan.cities + 8 * 4 * 12] = cities
    train_influence = d.train_influence
    for r in range(4):
        trains = s.trains_in[r]
        ints += [trains[p] for p in seats]
    for r in range(4):
        ships = s.ships_in[r]
        ints += [ships[p] for p in seats]
    goods_count = plan.player_goods
    for k, p in enumerate(seats):
        ints += (s.yen[p], s.coal[p], s.blueprints[p], s.vp[p])
        ints += (s.money_pos[p], s.coal_pos[p], s.knowledge[p])
        workers = s.workers[p]
        ints += map(workers.count, range(NUM_COLOURS))
        ints.append(len(workers))
        tiles = s.factory_tile[p]
        flags = plan.players + k * PLAYER_SIZE + 7 + NUM_COLOURS + 1
        ones += [flags + g for g in range(goods_count) if tiles[g] >= 0]
        ints += map(plan.coal_cost.__getitem__, tiles)  # tile -1 (none): 0
        ints += s.machine[p]
        ints += s.cubes[p]
        ints += (s.machine_reserve[p], s.trains_placed[p], s.ships_placed[p])
        ints += s.contracts_done[p]
        ints += s.tiles_supply[p]
        ints.append(s.tiles_removed[p])
        ints += s.achievements[p]
        level = len(workers)
        ints.append(d.worker_levels[level - 1] if level else 0)
        ints += [  # F2: its tiles in the region's cities and its trains there
            in_cities[p] + trains[p] * train_influence
            for in_cities, trains in zip(from_cities, s.trains_in, strict=True)
        ]
        ints.append(sum([scored[p] for scored in s.scored]))
    if len(ints) != len(plan.targets):
        raise ValueError(f"a Nippon state of unexpected shape ({len(ints)} values to encode)")
    try:  # every value in 0..255 (nearly always): bytes are the quick way into numpy
        numerators: np.ndarray = np.frombuffer(bytes(ints), dtype=np.uint8)
    except ValueError:
        numerators = np.fromiter(ints, np.float64, len(ints))
    out[plan.targets] = numerators / plan.divisors
    out[ones] = 1.0
    return out


def _cities(s: State, seat: int) -> tuple[np.ndarray, list[list[int]]]:
    """The ``cities`` piece seen by ``seat`` (float32) and each region's influence per seat
    from its cities' tiles."""
    cells = _city_cells(s.data.neutral)
    parts: list[bytes] = []
    influence = [[0] * s.num_players for _ in range(4)]  # [region][seat]
    for city in range(8):
        goods, values, owners = s.city_goods[city], s.influence_value[city], s.influence_owner[city]
        in_region = influence[city // 2]
        for i in range(4):
            owner = owners[i]
            good, value = goods[i], values[i]
            if owner >= 0:
                in_region[owner] += value
                owner_class = 0 if owner == seat else 1
            else:
                owner_class = 2
            if 0 <= good < 6 and 0 <= value < _CELL_VALUES:
                parts.append(cells[i][good][value][owner_class])
            else:
                cell = _city_cell(good, value, s.data.neutral[i], owner_class)
                parts.append(array("f", cell).tobytes())
    cities = np.frombuffer(b"".join(parts), dtype=np.float32)
    cities.flags.writeable = False  # shared by the memo's users, who copy it
    return cities, influence
