"""Nippon's observation: named pieces over one flat float32 vector, seen from one seat.

Seats are rotated so that the observing seat comes first (``seat``, ``seat + 1``, ...). Every
value is a count scaled by a fixed divisor, so values lie in [-4, 8]. The pieces, in order
(``n`` = players, ``R`` = worker rows for ``n``):

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
action_spaces         30              workers per (space, colour) / 3
rows                  6 * R           workers per (row, colour) / 3
owed                  5 + R           workers owed per place / 3
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
from operator import truediv
from typing import Any

import numpy as np

from airships_env.games.nippon.engine.data import NipponData, default_data
from airships_env.games.nippon.engine.state import State

__all__ = ["encode_observation", "observation_layout", "observation_size"]

PLAYER_SIZE = 86


def observation_layout(num_players: int) -> list[tuple[str, int]]:
    """The named pieces of a seat's observation for ``num_players``."""
    rows = default_data().num_rows(num_players)
    return [
        ("phase", 15),
        ("pending", 80),
        ("track", 12),
        ("rewards", 12),
        ("action_spaces", 30),
        ("rows", 6 * rows),
        ("owed", 5 + rows),
        ("bag", 6),
        ("factories_open", 24),
        ("machinery", 1),
        ("cities", 8 * 4 * 12),
        ("regions", 4 * 2 * num_players),
        ("players", num_players * PLAYER_SIZE),
    ]


def observation_size(num_players: int) -> int:
    """The length of the observation vector for ``num_players``."""
    return sum(size for _, size in observation_layout(num_players))


def _one_hots(size: int) -> tuple[tuple[float, ...], ...]:
    """Every one-hot of ``size`` (index ``size``: all zeros, for an index out of range)."""
    return tuple(tuple(float(k == index) for k in range(size)) for index in range(size + 1))


_ONE_HOT: dict[int, tuple[tuple[float, ...], ...]] = {
    size: _one_hots(size) for size in (5, 6, 8, 9, 10, 15, 33)
}
_BITS6 = tuple(tuple(float(mask >> k & 1) for k in range(6)) for mask in range(64))
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


_REWARD_SLOTS: dict[str, tuple[int, ...]] = {}  # by data digest; a few at most, never pickled


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


#: divisors of the per-seat lists, one per entry (``map(truediv, values, divisors)`` is
#: ``[v / divisor for v in values]``)
_BY_2, _BY_3, _BY_4, _BY_5, _BY_6, _BY_7 = ((k,) * 64 for k in (2, 3, 4, 5, 6, 7))


def encode_observation(state: Any, seat: int) -> np.ndarray:
    """``seat``'s observation of a view or a true state (a fresh float32 vector)."""
    # The values are the Python floats of the layout above, stored as float32 (a C float
    # array seen as numpy float32, the cast numpy makes): the pieces before the cities as one
    # list, the cities from float32 tables built once, then the regions and the players.
    s: State = state
    d = s.data
    n = s.num_players
    seats = [(seat + k) % n for k in range(n)]
    rows = d.num_rows(n)
    flat: list[float] = []
    flat += _one_hot(15, s.phase)
    # pending (80): kind, units, used goods or regions, region, contract, demand, goods of the
    # demand, influence space, cubes, multiplier, my turn, first player, padding
    flat += _one_hot(10, s.pend_kind if s.pend_kind >= 0 else 9)
    flat.append(s.pend_units / 3)
    flat += _BITS6[s.pend_mask & 63]
    flat += _one_hot(5, s.pend_region if s.pend_region >= 0 else 4)
    flat += _one_hot(9, s.pend_contract if s.pend_contract >= 0 else 8)
    flat.append(s.pend_demand / 3)
    flat += _BITS6[s.pend_goods & 63]
    flat += _one_hot(33, s.pend_space if s.pend_space >= 0 else 32)
    flat += (s.pend_cubes / 3, s.pend_multiplier / 5)
    flat += (float(s.current == seat), float(s.first_player == seat))
    flat += (0.0,) * 5
    flat += _one_hot(8, min(s.marker, 7))
    flat += (float(s.golden_turns >= -1), max(0, s.golden_turns) / 12, s.turn_count / 150)
    flat.append(len(s.rewards_left) / 16)
    rewards = [0.0] * 12
    slots = _reward_slots(d)
    for t in s.rewards_left:
        rewards[slots[t]] += 0.25
    flat += rewards
    for place in s.spaces:
        flat += map(truediv, place, _BY_3)
    for row in s.rows[:rows]:
        flat += map(truediv, row, _BY_3)
    flat += (0.0,) * (6 * (rows - min(rows, len(s.rows))))
    owed = s.owed[: 5 + rows]
    flat += map(truediv, owed, _BY_3)
    flat += (0.0,) * (5 + rows - len(owed))
    flat += map(truediv, s.bag, _BY_7)
    flat += [float(o < 0) for o in s.factory_owner]
    flat.append(s.machinery_supply / 24)
    out = array("f", flat)
    # cities; each region's influence per seat on the way (F2, as rules.region_influence)
    cells = _city_cells(d.neutral)
    city_parts: list[bytes] = []
    influence = [[0] * n for _ in range(4)]  # [region][seat]
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
                city_parts.append(cells[i][good][value][owner_class])
            else:
                cell = _city_cell(good, value, d.neutral[i], owner_class)
                city_parts.append(array("f", cell).tobytes())
    out.frombytes(b"".join(city_parts))
    for r in range(4):
        trains = s.trains_in[r]
        for p in range(n):
            influence[r][p] += trains[p] * d.train_influence
    flat = []
    for r in range(4):
        trains = s.trains_in[r]
        flat += map(truediv, [trains[p] for p in seats], _BY_4)
    for r in range(4):
        ships = s.ships_in[r]
        flat += map(truediv, [ships[p] for p in seats], _BY_4)
    for p in seats:
        start = len(flat)
        flat += (s.yen[p] / 30, s.coal[p] / 10, s.blueprints[p] / 10, s.vp[p] / 100)
        flat += (s.money_pos[p] / 12, s.coal_pos[p] / 12, s.knowledge[p] / 10)
        workers = s.workers[p]
        flat += map(truediv, map(workers.count, range(6)), _BY_6)
        flat.append(len(workers) / 6)
        tiles = s.factory_tile[p]
        flat += [float(t >= 0) for t in tiles]
        flat += [d.factories[t].coal / 3 if t >= 0 else 0.0 for t in tiles]
        flat += map(truediv, s.machine[p], _BY_2)
        flat += map(truediv, s.cubes[p], _BY_4)
        flat += (s.machine_reserve[p] / 3, s.trains_placed[p] / 4, s.ships_placed[p] / 4)
        flat += map(float, s.contracts_done[p])
        flat += map(truediv, s.tiles_supply[p], _BY_2)
        flat.append(s.tiles_removed[p] / 10)
        flat += map(truediv, s.achievements[p], _BY_5)
        k = len(workers)
        flat.append((d.worker_levels[k - 1] if k else 0) / 4)
        flat += [influence[r][p] / 20 for r in range(4)]
        flat.append(sum(sc[p] for sc in s.scored) / 50)
        flat += (0.0,) * (PLAYER_SIZE - (len(flat) - start))
    out.extend(array("f", flat))
    return np.frombuffer(out, dtype=np.float32)
