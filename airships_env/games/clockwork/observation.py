"""The observation of one seat: named pieces over one flat float32 vector, self first.

Seats are relative to the observing seat (0 = itself, 1 = the next seat, ...), padded to four.
The encoding reads only what the seat may see (V1-V4): call it on the seat's view (a true state
gives the same vector, since only the seat's own rows and public parts are read).

| piece | size | what |
|---|---|---|
| `phase` | 10 | the phase, one-hot (roll, move, act, demand, respond, counter, give back, discard, place, over) |
| `my_turn` | 1 | 1 when the seat's own turn (0 while answering a challenge) |
| `dice` | 12 | each die's face one-hot (zeros before the roll) |
| `lucky` | 1 | the roll is 7, 11 or a double (T1) |
| `endgame` | 1 | every pile was empty at this turn's start (F1) |
| `turn` | 1 | turns begun / the turn limit (W3) |
| `hand` | 14 | own cards by type / 8 |
| `in_play` | 14 | cards of each type in this game / 8 |
| `unseen` | 14 | cards by type the seat cannot place (hands beyond its knowledge, piles, places under no recall) / 8 |
| `hand_sizes` | 4 | cards in hand per relative seat / 8 |
| `laid` | 8 | FM laid, CB laid per relative seat |
| `known` | 42 | what the seat knows of the next three seats' hands, by type / 4 (V2) |
| `pawn_white` | 32 | per relative seat: on the Towers, on Scrapyard 1..6, elsewhere (8) |
| `pawn_towers` | 8 | per relative seat: fields to the Towers clockwise and counter-clockwise / length |
| `ahead` | 72 | own pawn, distance 1..12 each way: white field, full field, opponent there |
| `piles` | 6 | cards per pile / 10 |
| `removed_scrap` | 1 | Scrap Metal set aside / 6 |
| `places` | 870 | per place 0..57: its type one-hot (14) or "occupied, unknown" (under no recall) |
| `challenge` | 17 | I challenge, I am challenged, counter stage, the named type one-hot (14) |
| `seek` | 14 | R1's named type, one-hot |
"""

from __future__ import annotations

import numpy as np

from airships_env.games.clockwork.engine.actions import MAX_MOVE, NUM_PLACES
from airships_env.games.clockwork.engine.chance import is_lucky
from airships_env.games.clockwork.engine.data import NUM_SCRAPYARDS, NUM_TYPES
from airships_env.games.clockwork.engine.state import PHASE_NAMES, State
from airships_env.games.clockwork.engine.view import _hidden_pool

MAX_SEATS = 4


def observation_layout(num_players: int) -> list[tuple[str, int]]:
    """The named pieces (name, size) of one seat's observation, in order (same for 2-4)."""
    if num_players not in (2, 3, 4):
        raise ValueError(f"Escape from Clockwork City is for 2 to 4 players, not {num_players!r}")
    return [
        ("phase", len(PHASE_NAMES)),
        ("my_turn", 1),
        ("dice", 12),
        ("lucky", 1),
        ("endgame", 1),
        ("turn", 1),
        ("hand", NUM_TYPES),
        ("in_play", NUM_TYPES),
        ("unseen", NUM_TYPES),
        ("hand_sizes", MAX_SEATS),
        ("laid", 2 * MAX_SEATS),
        ("known", (MAX_SEATS - 1) * NUM_TYPES),
        ("pawn_white", MAX_SEATS * (NUM_SCRAPYARDS + 2)),
        ("pawn_towers", 2 * MAX_SEATS),
        ("ahead", 2 * MAX_MOVE * 3),
        ("piles", NUM_SCRAPYARDS),
        ("removed_scrap", 1),
        ("places", NUM_PLACES * (NUM_TYPES + 1)),
        ("challenge", 3 + NUM_TYPES),
        ("seek", NUM_TYPES),
    ]


def observation_size(num_players: int) -> int:
    """The length of the observation vector."""
    return sum(size for _, size in observation_layout(num_players))


def encode_observation(state: State, seat: int) -> np.ndarray:
    """``seat``'s observation of a view (or a true state): a fresh float32 vector."""
    n = state.num_players
    track = state.data.track
    seats = [(seat + k) % n for k in range(n)]
    parts: list[np.ndarray] = []

    def piece(size: int) -> np.ndarray:
        array = np.zeros(size, dtype=np.float32)
        parts.append(array)
        return array

    piece(len(PHASE_NAMES))[state.phase] = 1.0
    piece(1)[0] = float(state.current == seat)
    dice = piece(12)
    if state.dice[0]:
        dice[state.dice[0] - 1] = 1.0
        dice[6 + state.dice[1] - 1] = 1.0
    piece(1)[0] = float(state.dice[0] > 0 and is_lucky(state.dice))
    piece(1)[0] = float(state.endgame)
    piece(1)[0] = state.turn / (state.options.max_turns * n)
    piece(NUM_TYPES)[:] = np.asarray(state.hands[seat], dtype=np.float32) / 8.0
    piece(NUM_TYPES)[:] = np.asarray(state.data.counts[n], dtype=np.float32) / 8.0
    piece(NUM_TYPES)[:] = np.asarray(_hidden_pool(state, seat), dtype=np.float32) / 8.0
    sizes = piece(MAX_SEATS)
    laid = piece(2 * MAX_SEATS)
    for k, other in enumerate(seats):
        sizes[k] = state.hand_size(other) / 8.0
        laid[2 * k] = float(state.laid_fm[other] >= 0)
        laid[2 * k + 1] = float(state.laid_cb[other] >= 0)
    known = piece((MAX_SEATS - 1) * NUM_TYPES)
    for k, other in enumerate(seats[1:]):
        known[k * NUM_TYPES : (k + 1) * NUM_TYPES] = np.asarray(state.known[seat][other]) / 4.0
    white = piece(MAX_SEATS * (NUM_SCRAPYARDS + 2))
    towers = piece(2 * MAX_SEATS)
    for k, other in enumerate(seats):
        field = state.pawns[other]
        base = k * (NUM_SCRAPYARDS + 2)
        if field == track.towers:
            white[base] = 1.0
        elif track.scrapyard_at(field) >= 0:
            white[base + 1 + track.scrapyard_at(field)] = 1.0
        else:
            white[base + NUM_SCRAPYARDS + 1] = 1.0
        towers[2 * k] = ((track.towers - field) % track.length) / track.length
        towers[2 * k + 1] = ((field - track.towers) % track.length) / track.length
    ahead = piece(2 * MAX_MOVE * 3).reshape(2 * MAX_MOVE, 3)
    position = state.pawns[seat]
    pawns_on = [0] * track.length
    for field in state.pawns:
        pawns_on[field] += 1
    opponents_on = set(state.pawns[o] for o in seats[1:])
    white_fields = {track.towers, *track.scrapyards}
    for d, direction in enumerate((1, -1)):
        for steps in range(1, MAX_MOVE + 1):
            field = (position + direction * steps) % track.length
            row = ahead[d * MAX_MOVE + steps - 1]
            row[0] = field in white_fields
            row[1] = field != track.towers and pawns_on[field] >= 2
            row[2] = field in opponents_on
    piles = piece(NUM_SCRAPYARDS)
    for k, pile in enumerate(state.piles):
        piles[k] = len(pile) / 10.0
    piece(1)[0] = state.removed_scrap / 6.0
    places = piece(NUM_PLACES * (NUM_TYPES + 1))
    cards = np.asarray(state.places)
    occupied = np.flatnonzero(cards >= 0)
    columns = cards[occupied] if state.options.discard_recall == "perfect" else NUM_TYPES
    places[occupied * (NUM_TYPES + 1) + columns] = 1.0
    challenge = piece(3 + NUM_TYPES)
    challenger, opponent, named, stage = state.challenge
    if challenger >= 0:
        challenge[0] = float(challenger == seat)
        challenge[1] = float(opponent == seat)
        challenge[2] = float(stage == 1)
        if named >= 0 and seat in (challenger, opponent):
            challenge[3 + named] = 1.0
    seek = piece(NUM_TYPES)
    if state.seek_type >= 0:
        seek[state.seek_type] = 1.0
    return np.concatenate(parts)
