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

import numpy as np

from airships_env.games.australia.engine.data import (
    MAX_LOCATIONS,
    NUM_BACKS,
    NUM_CARD_TYPES,
    NUM_COLOURS,
    NUM_REGIONS,
    PLAYER_COUNTS,
    TILE_VALUES,
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


def encode_observation(state: State, seat: int) -> np.ndarray:
    """``seat``'s observation of a view (or a true state): a fresh float32 vector."""
    n = state.num_players
    if not 0 <= seat < n:
        raise ValueError(f"seat {seat!r} outside 0..{n - 1}")
    data = state.data
    rel = [(seat + k) % n for k in range(n)]  # relative seat k -> absolute seat
    parts: dict[str, np.ndarray] = {
        name: np.zeros(size, dtype=np.float32) for name, size in observation_layout(n)
    }
    parts["phase"][state.phase] = 1.0
    parts["my_turn"][0] = float(state.current == seat)
    if state.phase == ACTION or state.actions_left:
        parts["actions_left"][min(state.actions_left, 2)] = 1.0
    parts["round"][0] = state.round / state.options.max_rounds
    parts["last_round"][0] = float(state.end_triggered)
    parts["full_game"][0] = float(state.options.full_game)
    location_rangers = parts["location_rangers"].reshape(MAX_LOCATIONS, MAX_SEATS)
    location_kind = parts["location_kind"].reshape(MAX_LOCATIONS, 2)
    for loc, location in enumerate(data.locations):
        location_kind[loc, location.kind] = 1.0
        for k, other in enumerate(rel):
            location_rangers[loc, k] = state.rangers[loc][other] / 4.0
    colour = parts["region_colour"].reshape(NUM_REGIONS, NUM_COLOURS)
    tile = parts["region_tile"].reshape(NUM_REGIONS, 2 + len(TILE_VALUES))
    for r, region in enumerate(data.regions):
        colour[r, region.colour] = 1.0
        parts["region_water"][r] = float(region.water)
        parts["region_conservation"][r] = float(state.conservation[r])
        if state.tile_value[r] == 0:
            tile[r, 1] = 1.0
        elif not state.tile_up[r]:
            tile[r, 0] = 1.0
        else:
            tile[r, 2 + TILE_VALUES.index(state.tile_value[r])] = 1.0
        locs = data.region_locations[r]
        parts["region_rangers"][r] = sum(sum(state.rangers[loc]) for loc in locs) / 9.0
        parts["region_own"][r] = sum(state.rangers[loc][seat] for loc in locs) / 9.0
        parts["region_empty"][r] = sum(sum(state.rangers[loc]) == 0 for loc in locs) / 5.0
        parts["region_open"][r] = (
            sum(sum(state.rangers[loc]) == state.rangers[loc][seat] for loc in locs) / 5.0
        )
    planes = parts["planes"].reshape(MAX_SEATS, NUM_REGIONS)
    for k, other in enumerate(rel):
        if state.plane[other] >= 0:
            planes[k, state.plane[other]] = 1.0
        parts["vp"][k] = state.vp[other] / 100.0
        parts["dollars"][k] = state.dollars[other] / 20.0
        parts["supply"][k] = state.supply[other] / 20.0
        parts["seated"][k] = 1.0
        if k > 0:
            for back in range(NUM_BACKS):
                held = state.hands[other][back * NUM_COLOURS : (back + 1) * NUM_COLOURS]
                parts["backs"][(k - 1) * NUM_BACKS + back] = float(sum(held))
        on_track = state.ranger_track.count(other)
        parts["tracks"][2 + k] = on_track / 4.0
        top = state.ranger_track.index(other) if on_track else data.ranger_areas
        parts["tracks"][2 + MAX_SEATS + k] = top / data.ranger_areas
    if state.windmill_region >= 0:
        parts["windmill"][state.windmill_region] = 1.0
    parts["windmill"][NUM_REGIONS] = state.windmill_value / 12.0
    parts["hand"][:] = state.hands[seat]
    for back in range(NUM_BACKS):
        parts["stacks"][back] = len(state.stacks[back]) / 9.0
    parts["played"][:] = np.asarray(state.played, dtype=np.float32) / 4.0
    if state.pending_card >= 0:
        parts["pending"][state.pending_card] = 1.0
    parts["pending"][NUM_CARD_TYPES] = state.rangers_left / 4.0
    parts["pending"][NUM_CARD_TYPES + 1] = float(state.pending_paid)
    parts["pending"][NUM_CARD_TYPES + 2] = float(state.track_used)
    parts["pending"][NUM_CARD_TYPES + 3] = state.taken / 4.0
    if state.move_from >= 0:
        parts["move_from"][state.move_from] = 1.0
    parts["tracks"][0] = len(state.windmill_track) / data.tile_areas
    parts["tracks"][1] = (data.ranger_areas - len(state.ranger_track)) / data.ranger_areas
    return np.concatenate([parts[name] for name, _ in observation_layout(n)])
