"""The observation of one seat: named pieces over one flat float32 vector, self first.

Seats are relative to the observing seat (0 = itself, 1 = the next seat, ...), padded to five.
Locations are padded to 64 (the action table's maximum). The encoding reads only what the seat
may see (V1-V3): a face-down tile is a flag, never its value; other hands are their backs. Call
it on the seat's view (a true state gives the same vector).

| piece | size | what |
|---|---|---|
| `phase` | 8 | the phase, one-hot (setup draw, windmill, action, place, draw, take back, move to, over) |
| `my_turn` | 1 | 1 when the seat is the one to act |
| `actions_left` | 3 | actions left this turn (0, 1, 2), one-hot (T1) |
| `round` | 1 | rounds begun / max_rounds (E4) |
| `last_round` | 1 | E1's trigger has happened |
| `full_game` | 1 | the windmill is in play |
| `location_rangers` | 320 | per location (64) and relative seat (5): rangers / 4 |
| `location_kind` | 128 | per location: camp, ship (zeros past the map's locations) |
| `region_colour` | 144 | per region (24): colour one-hot (blue, green, orange, grey, red, yellow) |
| `region_water` | 24 | 1 for a water region |
| `region_conservation` | 24 | the conservation tile is still there |
| `region_tile` | 192 | per region: face down, gone, face up 4, 5, 6, 7, 8, 9 |
| `region_rangers` | 24 | all rangers on the region's locations / 9 |
| `region_own` | 24 | own rangers on the region's locations / 9 |
| `region_empty` | 24 | empty locations of the region / 5 |
| `region_open` | 24 | locations the seat could place on (empty or own) / 5 |
| `planes` | 120 | per relative seat (5): the plane's region one-hot (zeros off the map) |
| `windmill` | 25 | the windmill's region one-hot, its value / 12 |
| `hand` | 24 | own cards by type (back x colour) |
| `backs` | 16 | the next four seats' cards by back |
| `vp` | 5 | VP per relative seat / 100 |
| `dollars` | 5 | dollars per relative seat / 20 |
| `supply` | 5 | rangers in supply per relative seat / 20 |
| `seated` | 5 | 1 where a relative seat exists |
| `stacks` | 4 | cards left per stack / 9 |
| `played` | 24 | cards played by type / 4 |
| `pending` | 28 | the card being played one-hot (24), rangers left / 4, D1 paid, W3 used, taken back / 4 |
| `move_from` | 64 | D2's lifted location, one-hot |
| `tracks` | 12 | tiles on the windmill track / areas, free ranger areas / areas, per relative seat: rangers on the ranger track / 4, its topmost area / areas (1 when none) |
"""

from __future__ import annotations

from array import array
from itertools import chain, compress
from typing import Any

import numpy as np

from airships_env.games.australia.engine.data import (
    MAX_LOCATIONS,
    NUM_BACKS,
    NUM_CARD_TYPES,
    NUM_COLOURS,
    NUM_REGIONS,
    PLAYER_COUNTS,
    TILE_VALUES,
    AustraliaData,
)
from airships_env.games.australia.engine.state import ACTION, PHASE_NAMES, State

MAX_SEATS = 5


def observation_layout(num_players: int) -> list[tuple[str, int]]:
    """The named pieces (name, size) of one seat's observation, in order (same for 2-5)."""
    if num_players not in PLAYER_COUNTS:
        raise ValueError(f"Australia is for 2 to 5 players, not {num_players!r}")
    return [
        ("phase", len(PHASE_NAMES)),
        ("my_turn", 1),
        ("actions_left", 3),
        ("round", 1),
        ("last_round", 1),
        ("full_game", 1),
        ("location_rangers", MAX_LOCATIONS * MAX_SEATS),
        ("location_kind", MAX_LOCATIONS * 2),
        ("region_colour", NUM_REGIONS * NUM_COLOURS),
        ("region_water", NUM_REGIONS),
        ("region_conservation", NUM_REGIONS),
        ("region_tile", NUM_REGIONS * (2 + len(TILE_VALUES))),
        ("region_rangers", NUM_REGIONS),
        ("region_own", NUM_REGIONS),
        ("region_empty", NUM_REGIONS),
        ("region_open", NUM_REGIONS),
        ("planes", MAX_SEATS * NUM_REGIONS),
        ("windmill", NUM_REGIONS + 1),
        ("hand", NUM_CARD_TYPES),
        ("backs", (MAX_SEATS - 1) * NUM_BACKS),
        ("vp", MAX_SEATS),
        ("dollars", MAX_SEATS),
        ("supply", MAX_SEATS),
        ("seated", MAX_SEATS),
        ("stacks", NUM_BACKS),
        ("played", NUM_CARD_TYPES),
        ("pending", NUM_CARD_TYPES + 4),
        ("move_from", MAX_LOCATIONS),
        ("tracks", 2 + 2 * MAX_SEATS),
    ]


def observation_size(num_players: int) -> int:
    """The length of the observation vector."""
    return sum(size for _, size in observation_layout(num_players))


def _offsets() -> dict[str, int]:
    """Where each piece starts in the vector (the layout is the same for 2-5 players)."""
    out: dict[str, int] = {}
    at = 0
    for name, size in observation_layout(PLAYER_COUNTS[0]):
        out[name] = at
        at += size
    return out


_AT = _offsets()
_SIZE = observation_size(PLAYER_COUNTS[0])
_NAMES = [name for name, _ in observation_layout(PLAYER_COUNTS[0])]
#: tile value -> its column in ``region_tile`` (face up)
_TILE_COLUMN = {value: 2 + k for k, value in enumerate(TILE_VALUES)}
_TILE_COLUMNS = 2 + len(TILE_VALUES)
_PHASE, _MY_TURN, _ACTIONS_LEFT = _AT["phase"], _AT["my_turn"], _AT["actions_left"]
_ROUND, _LAST_ROUND, _FULL_GAME = _AT["round"], _AT["last_round"], _AT["full_game"]
_LOCATION_RANGERS, _REGION_TILE = _AT["location_rangers"], _AT["region_tile"]
_REGION_CONSERVATION, _PLANES = _AT["region_conservation"], _AT["planes"]
_REGION_RANGERS, _REGION_OWN = _AT["region_rangers"], _AT["region_own"]
_REGION_EMPTY, _REGION_OPEN = _AT["region_empty"], _AT["region_open"]
_WINDMILL, _HAND, _PENDING = _AT["windmill"], _AT["hand"], _AT["pending"]
_MOVE_FROM, _TRACKS = _AT["move_from"], _AT["tracks"]
_LOCATION_RANGERS_SPAN = slice(_LOCATION_RANGERS, _LOCATION_RANGERS + MAX_LOCATIONS * MAX_SEATS)
_REGION_SUMS_SPAN = slice(_REGION_RANGERS, _REGION_RANGERS + 4 * NUM_REGIONS)
_TILES_SPAN = slice(_REGION_CONSERVATION, _REGION_TILE + NUM_REGIONS * _TILE_COLUMNS)
_MEMO_SIZE = 256
_SEAT_PADDING = [0.0] * MAX_SEATS
_BACK_PADDING = [0.0] * (MAX_SEATS * NUM_BACKS)
# the encoder writes these runs of pieces as one block each
assert _NAMES[_NAMES.index("region_rangers") :][:4] == [
    "region_rangers", "region_own", "region_empty", "region_open"
]  # fmt: skip
assert _NAMES[_NAMES.index("region_conservation") :][:2] == ["region_conservation", "region_tile"]
assert _NAMES[_NAMES.index("hand") : _NAMES.index("played") + 1] == [
    "hand", "backs", "vp", "dollars", "supply", "seated", "stacks", "played"
]  # fmt: skip


class _MapTables:
    """What the encoder needs of a map, built once per data file: the vector with the map's
    fixed pieces written in (location kinds, region colours and water, and the region sums of
    an empty map), each location's regions and each region's tile one-hot indices."""

    def __init__(self, data: AustraliaData) -> None:
        template = np.zeros(_SIZE, dtype=np.float32)
        kind = template[_AT["location_kind"] :][: MAX_LOCATIONS * 2].reshape(MAX_LOCATIONS, 2)
        for loc, location in enumerate(data.locations):
            kind[loc, location.kind] = 1.0
        colour = template[_AT["region_colour"] :][: NUM_REGIONS * NUM_COLOURS]
        colour = colour.reshape(NUM_REGIONS, NUM_COLOURS)
        for r, region in enumerate(data.regions):
            colour[r, region.colour] = 1.0
            template[_AT["region_water"] + r] = float(region.water)
        #: location -> [(region, how many times the region lists it)]
        self.location_regions: list[list[tuple[int, int]]] = [[] for _ in data.locations]
        #: region -> its number of location entries (a region's empty and open count when
        #: nothing stands on its locations)
        self.region_size = [len(locs) for locs in data.region_locations]
        for r, locs in enumerate(data.region_locations):
            for loc in sorted(set(locs)):
                self.location_regions[loc].append((r, locs.count(loc)))
            template[_REGION_EMPTY + r] = self.region_size[r] / 5.0
            template[_REGION_OPEN + r] = self.region_size[r] / 5.0
        #: the vector of an empty map, a C float array (``array("f")``) that each call copies
        self.template = array("f", template.tobytes())
        #: (seat, rangers...) -> the location_rangers and region sums segments
        self.rangers_memo: dict[tuple[int, ...], tuple[array[float], array[float]]] = {}
        #: (tile values..., face up..., conservation...) -> the conservation and tile segment
        self.tiles_memo: dict[tuple[int, ...], array[float]] = {}
        #: region -> where its tile one-hot begins
        self.tile_rows = [_REGION_TILE + r * _TILE_COLUMNS for r in range(len(data.regions))]


_TABLES: dict[str, _MapTables] = {}  # by data digest; a few maps at most, never pickled


def _tables(data: AustraliaData) -> _MapTables:
    tables = _TABLES.get(data.digest)
    if tables is None:
        if len(_TABLES) >= 8:
            _TABLES.clear()
        tables = _TABLES[data.digest] = _MapTables(data)
    return tables


def encode_observation(state: State, seat: int) -> np.ndarray:
    """``seat``'s observation of a view (or a true state): a fresh float32 vector."""
    # Written value by value into a copy of the map's template, a C float array, then seen as
    # numpy float32: every value is computed in float64 (region sums as exact integers) and
    # stored as float32, as numpy would store it. Only the occupied locations and the regions
    # they touch are visited; every other entry is the template's.
    n = state.num_players
    if not 0 <= seat < n:
        raise ValueError(f"seat {seat!r} outside 0..{n - 1}")
    data = state.data
    tables = _tables(data)
    out = tables.template[:]
    rel = [(seat + k) % n for k in range(n)]  # relative seat k -> absolute seat
    out[_PHASE + state.phase] = 1.0
    if state.current == seat:
        out[_MY_TURN] = 1.0
    if state.phase == ACTION or state.actions_left:
        out[_ACTIONS_LEFT + min(state.actions_left, 2)] = 1.0
    out[_ROUND] = state.round / state.options.max_rounds
    if state.end_triggered:
        out[_LAST_ROUND] = 1.0
    if state.options.full_game:
        out[_FULL_GAME] = 1.0
    # the map's pieces, from the tables' memo when the same rangers (and seat), tiles and
    # conservation tiles were encoded before: they change a few times a game
    rangers_key = (seat, *chain.from_iterable(state.rangers))
    segments = tables.rangers_memo.get(rangers_key)
    if segments is None:
        _write_rangers(out, state, seat, rel, tables)
        segments = (out[_LOCATION_RANGERS_SPAN], out[_REGION_SUMS_SPAN])
        _remember(tables.rangers_memo, rangers_key, segments)
    else:
        out[_LOCATION_RANGERS_SPAN], out[_REGION_SUMS_SPAN] = segments
    tiles_key = (*state.tile_value, *state.tile_up, *state.conservation)
    tiles = tables.tiles_memo.get(tiles_key)
    if tiles is None:
        for r in compress(range(len(state.conservation)), state.conservation):
            out[_REGION_CONSERVATION + r] = 1.0
        for row, value, up in zip(tables.tile_rows, state.tile_value, state.tile_up, strict=True):
            out[row + (1 if not value else _TILE_COLUMN[value] if up else 0)] = 1.0  # gone, down
        _remember(tables.tiles_memo, tiles_key, out[_TILES_SPAN])
    else:
        out[_TILES_SPAN] = tiles
    # seats: planes, the ranger track; hand .. played as one block
    hands = state.hands
    block: list[float] = list(hands[seat])
    for other in rel[1:]:
        held = hands[other]
        block += [
            float(sum(held[back * NUM_COLOURS : (back + 1) * NUM_COLOURS]))
            for back in range(NUM_BACKS)
        ]
    block += _BACK_PADDING[: (MAX_SEATS - n) * NUM_BACKS]
    padding = _SEAT_PADDING[: MAX_SEATS - n]
    block += [state.vp[other] / 100.0 for other in rel] + padding
    block += [state.dollars[other] / 20.0 for other in rel] + padding
    block += [state.supply[other] / 20.0 for other in rel] + padding
    block += [1.0] * n + padding
    block += [len(state.stacks[back]) / 9.0 for back in range(NUM_BACKS)]
    block += [played / 4.0 for played in state.played]
    out[_HAND : _HAND + len(block)] = array("f", block)
    ranger_track, areas = state.ranger_track, data.ranger_areas
    for k, other in enumerate(rel):
        if state.plane[other] >= 0:
            out[_PLANES + k * NUM_REGIONS + state.plane[other]] = 1.0
        on_track = ranger_track.count(other)
        out[_TRACKS + 2 + k] = on_track / 4.0
        out[_TRACKS + 2 + MAX_SEATS + k] = (
            ranger_track.index(other) if on_track else areas
        ) / areas
    if state.windmill_region >= 0:
        out[_WINDMILL + state.windmill_region] = 1.0
    out[_WINDMILL + NUM_REGIONS] = state.windmill_value / 12.0
    if state.pending_card >= 0:
        out[_PENDING + state.pending_card] = 1.0
    out[_PENDING + NUM_CARD_TYPES] = state.rangers_left / 4.0
    out[_PENDING + NUM_CARD_TYPES + 1] = float(state.pending_paid)
    out[_PENDING + NUM_CARD_TYPES + 2] = float(state.track_used)
    out[_PENDING + NUM_CARD_TYPES + 3] = state.taken / 4.0
    if state.move_from >= 0:
        out[_MOVE_FROM + state.move_from] = 1.0
    out[_TRACKS] = len(state.windmill_track) / data.tile_areas
    out[_TRACKS + 1] = (data.ranger_areas - len(state.ranger_track)) / data.ranger_areas
    return np.frombuffer(out, dtype=np.float32)


def _write_rangers(
    out: array[float], state: State, seat: int, rel: list[int], tables: _MapTables
) -> None:
    """Write ``location_rangers`` (rangers per relative seat / 4) and the four region sums,
    visiting only the occupied locations and the regions they touch (the template holds the
    sums of an empty region)."""
    rangers = state.rangers
    region_sums: dict[int, list[int]] = {}  # region -> [rangers, own, empty, open]
    region_size = tables.region_size
    for loc in compress(range(len(rangers)), map(any, rangers)):
        counts = rangers[loc]
        row = _LOCATION_RANGERS + loc * MAX_SEATS
        for k, other in enumerate(rel):
            if counts[other]:
                out[row + k] = counts[other] / 4.0
        total = sum(counts)
        own = counts[seat]
        for r, times in tables.location_regions[loc]:
            sums = region_sums.get(r)
            if sums is None:
                sums = region_sums[r] = [0, 0, region_size[r], region_size[r]]
            sums[0] += times * total
            sums[1] += times * own
            sums[2] -= times  # occupied: not empty
            if total != own:
                sums[3] -= times  # another seat's rangers: not open
    for r, (on_region, own, empty, open_) in region_sums.items():
        out[_REGION_RANGERS + r] = on_region / 9.0
        out[_REGION_OWN + r] = own / 9.0
        out[_REGION_EMPTY + r] = empty / 5.0
        out[_REGION_OPEN + r] = open_ / 5.0


def _remember(memo: dict[Any, Any], key: Any, value: Any) -> None:
    """Keep ``value`` under ``key`` in a memo of at most _MEMO_SIZE entries (emptied when
    full: a game revisits few keys, and a few games share the memo)."""
    if len(memo) >= _MEMO_SIZE:
        memo.clear()
    memo[key] = value
