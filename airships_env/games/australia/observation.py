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

from itertools import chain

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
#: tile value -> its column in ``region_tile`` (face up)
_TILE_COLUMN = {value: 2 + k for k, value in enumerate(TILE_VALUES)}
_REGION_ROWS = np.arange(NUM_REGIONS)
_REGION_DIVISORS = np.array([9.0, 9.0, 5.0, 5.0])  # rangers, own, empty, open
_REGION_PIECES = ("region_rangers", "region_own", "region_empty", "region_open")
assert [_AT[name] for name in _REGION_PIECES] == [
    _AT["region_rangers"] + k * NUM_REGIONS for k in range(4)
], "the four region sums must be consecutive pieces"


class _MapTables:
    """What the encoder needs of a map, built once per data file: the vector with the map's
    fixed pieces written in (location kinds, region colours and water) and the region x
    location incidence matrix (regions' ranger counts are one product with it)."""

    def __init__(self, data: AustraliaData) -> None:
        self.template = np.zeros(_SIZE, dtype=np.float32)
        kind = self.template[_AT["location_kind"] :][: MAX_LOCATIONS * 2].reshape(MAX_LOCATIONS, 2)
        for loc, location in enumerate(data.locations):
            kind[loc, location.kind] = 1.0
        colour = self.template[_AT["region_colour"] :][: NUM_REGIONS * NUM_COLOURS]
        colour = colour.reshape(NUM_REGIONS, NUM_COLOURS)
        for r, region in enumerate(data.regions):
            colour[r, region.colour] = 1.0
            self.template[_AT["region_water"] + r] = float(region.water)
        self.incidence = np.zeros((len(data.regions), len(data.locations)), dtype=np.float64)
        for r, locs in enumerate(data.region_locations):
            for loc in locs:
                self.incidence[r, loc] += 1.0


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
    n = state.num_players
    if not 0 <= seat < n:
        raise ValueError(f"seat {seat!r} outside 0..{n - 1}")
    data = state.data
    tables = _tables(data)
    out = tables.template.copy()
    rel = [(seat + k) % n for k in range(n)]  # relative seat k -> absolute seat
    out[_AT["phase"] + state.phase] = 1.0
    out[_AT["my_turn"]] = float(state.current == seat)
    if state.phase == ACTION or state.actions_left:
        out[_AT["actions_left"] + min(state.actions_left, 2)] = 1.0
    out[_AT["round"]] = state.round / state.options.max_rounds
    out[_AT["last_round"]] = float(state.end_triggered)
    out[_AT["full_game"]] = float(state.options.full_game)
    # locations and regions: one array of the rangers, sums by the incidence matrix
    num_locations, num_regions = len(data.locations), len(data.regions)
    rangers = np.fromiter(
        chain.from_iterable(state.rangers), dtype=np.float64, count=num_locations * n
    ).reshape(num_locations, n)
    location_rangers = out[_AT["location_rangers"] :][: MAX_LOCATIONS * MAX_SEATS]
    location_rangers = location_rangers.reshape(MAX_LOCATIONS, MAX_SEATS)
    location_rangers[:num_locations, :n] = (rangers[:, rel] if seat else rangers) / 4.0
    # region_rangers, region_own, region_empty, region_open (consecutive pieces): per location
    # its rangers, the seat's, whether it is empty, whether the seat could place there; summed
    # over each region's locations by one product
    per_location = np.empty((num_locations, 4), dtype=np.float64)
    total = rangers.sum(axis=1)
    own = rangers[:, seat]
    per_location[:, 0] = total
    per_location[:, 1] = own
    per_location[:, 2] = total == 0
    per_location[:, 3] = total == own
    at = _AT["region_rangers"]
    region_stats = out[at : at + 4 * NUM_REGIONS].reshape(4, NUM_REGIONS)
    region_stats[:, :num_regions] = (tables.incidence @ per_location / _REGION_DIVISORS).T
    at = _AT["region_conservation"]
    out[at : at + num_regions] = state.conservation
    column = [  # gone, face down, else the face-up value's column
        1 if not value else _TILE_COLUMN[value] if up else 0
        for value, up in zip(state.tile_value, state.tile_up, strict=True)
    ]
    tile = out[_AT["region_tile"] :][: NUM_REGIONS * (2 + len(TILE_VALUES))]
    tile.reshape(NUM_REGIONS, 2 + len(TILE_VALUES))[_REGION_ROWS[:num_regions], column] = 1.0
    # seats
    planes, tracks, backs = _AT["planes"], _AT["tracks"], _AT["backs"]
    for k, other in enumerate(rel):
        if state.plane[other] >= 0:
            out[planes + k * NUM_REGIONS + state.plane[other]] = 1.0
        out[_AT["vp"] + k] = state.vp[other] / 100.0
        out[_AT["dollars"] + k] = state.dollars[other] / 20.0
        out[_AT["supply"] + k] = state.supply[other] / 20.0
        out[_AT["seated"] + k] = 1.0
        if k > 0:
            hand = state.hands[other]
            for back in range(NUM_BACKS):
                held = sum(hand[back * NUM_COLOURS : (back + 1) * NUM_COLOURS])
                out[backs + (k - 1) * NUM_BACKS + back] = float(held)
        on_track = state.ranger_track.count(other)
        out[tracks + 2 + k] = on_track / 4.0
        top = state.ranger_track.index(other) if on_track else data.ranger_areas
        out[tracks + 2 + MAX_SEATS + k] = top / data.ranger_areas
    if state.windmill_region >= 0:
        out[_AT["windmill"] + state.windmill_region] = 1.0
    out[_AT["windmill"] + NUM_REGIONS] = state.windmill_value / 12.0
    at = _AT["hand"]
    out[at : at + NUM_CARD_TYPES] = state.hands[seat]
    at = _AT["stacks"]
    out[at : at + NUM_BACKS] = [len(state.stacks[back]) / 9.0 for back in range(NUM_BACKS)]
    at = _AT["played"]
    out[at : at + NUM_CARD_TYPES] = np.asarray(state.played, dtype=np.float32) / 4.0
    pending = _AT["pending"]
    if state.pending_card >= 0:
        out[pending + state.pending_card] = 1.0
    out[pending + NUM_CARD_TYPES] = state.rangers_left / 4.0
    out[pending + NUM_CARD_TYPES + 1] = float(state.pending_paid)
    out[pending + NUM_CARD_TYPES + 2] = float(state.track_used)
    out[pending + NUM_CARD_TYPES + 3] = state.taken / 4.0
    if state.move_from >= 0:
        out[_AT["move_from"] + state.move_from] = 1.0
    out[tracks] = len(state.windmill_track) / data.tile_areas
    out[tracks + 1] = (data.ranger_areas - len(state.ranger_track)) / data.ranger_areas
    return out
