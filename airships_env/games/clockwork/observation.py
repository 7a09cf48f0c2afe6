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
from airships_env.games.clockwork.engine.data import NUM_SCRAPYARDS, NUM_TYPES, ClockworkData
from airships_env.games.clockwork.engine.state import PHASE_NAMES, State

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


def _offsets() -> dict[str, int]:
    """Where each piece starts in the vector (the layout is the same for 2-4 players)."""
    out: dict[str, int] = {}
    at = 0
    for name, size in observation_layout(2):
        out[name] = at
        at += size
    return out


_AT = _offsets()
_SIZE = observation_size(2)
_PHASE, _MY_TURN, _DICE, _LUCKY = _AT["phase"], _AT["my_turn"], _AT["dice"], _AT["lucky"]
_ENDGAME, _TURN, _HAND = _AT["endgame"], _AT["turn"], _AT["hand"]
_WHITE, _TOWERS, _AHEAD, _PILES = _AT["pawn_white"], _AT["pawn_towers"], _AT["ahead"], _AT["piles"]
_PLACES, _CHALLENGE, _SEEK = _AT["places"], _AT["challenge"], _AT["seek"]
_PLACE_COLUMNS = NUM_TYPES + 1
_UNKNOWN_COLUMN = NUM_TYPES  # "occupied, unknown": a face-down card under no recall
_PADDING = [0.0] * (MAX_SEATS * NUM_TYPES)
_NAMES = [name for name, _ in observation_layout(2)]
# the encoder writes these runs of pieces as one block each
assert _NAMES[_NAMES.index("hand") : _NAMES.index("known") + 1] == [
    "hand", "in_play", "unseen", "hand_sizes", "laid", "known"
]  # fmt: skip
assert _NAMES[_NAMES.index("piles") :][:2] == ["piles", "removed_scrap"]


class _TrackTables:
    """What the encoder needs of a track, built once per data file (a few at most)."""

    def __init__(self, data: ClockworkData) -> None:
        track = data.track
        length = track.length
        #: field -> its column in a seat's ``pawn_white`` row (Towers, Scrapyard 1..6, else)
        self.white_column = [
            0
            if field == track.towers
            else 1 + track.scrapyard_at(field)
            if track.scrapyard_at(field) >= 0
            else NUM_SCRAPYARDS + 1
            for field in range(length)
        ]
        #: field -> fields to the Towers clockwise and counter-clockwise / length (as float64)
        self.to_towers = [
            (((track.towers - f) % length) / length, ((f - track.towers) % length) / length)
            for f in range(length)
        ]
        white_fields = {track.towers, *track.scrapyards}
        #: own field -> field -> the ``ahead`` rows (index of the row's first value) it is in
        self.rows: list[list[list[int]]] = [[[] for _ in range(length)] for _ in range(length)]
        #: own field -> the ``ahead`` indices of the "white field" flag that are set
        self.white_ahead: list[list[int]] = [[] for _ in range(length)]
        for position in range(length):
            for d, direction in enumerate((1, -1)):
                for steps in range(1, MAX_MOVE + 1):
                    field = (position + direction * steps) % length
                    row = _AHEAD + 3 * (d * MAX_MOVE + steps - 1)
                    self.rows[position][field].append(row)
                    if field in white_fields:
                        self.white_ahead[position].append(row)
        self.towers = track.towers
        self.length = length
        #: player count -> the ``in_play`` piece's values
        self.in_play = {n: [c / 8.0 for c in counts] for n, counts in data.counts.items()}


_TABLES: dict[str, _TrackTables] = {}  # by data digest; a few tracks at most, never pickled


def _tables(data: ClockworkData) -> _TrackTables:
    tables = _TABLES.get(data.digest)
    if tables is None:
        if len(_TABLES) >= 8:
            _TABLES.clear()
        tables = _TABLES[data.digest] = _TrackTables(data)
    return tables


def encode_observation(state: State, seat: int) -> np.ndarray:
    """``seat``'s observation of a view (or a true state): a fresh float32 vector."""
    # Every value is computed as the reference layout above says, in float64 and then stored
    # as float32 (divisions by 8 and 4 are exact): the vector is the same bit for bit.
    n = state.num_players
    tables = _tables(state.data)
    seats = [(seat + k) % n for k in range(n)]
    hands = state.hands
    known = state.known[seat]
    out = np.zeros(_SIZE, dtype=np.float32)
    ones = [_PHASE + state.phase]  # the indices whose value is 1
    if state.current == seat:
        ones.append(_MY_TURN)
    dice = state.dice
    if dice[0]:
        ones += (_DICE + dice[0] - 1, _DICE + 6 + dice[1] - 1)
        if is_lucky(dice):
            ones.append(_LUCKY)
    if state.endgame:
        ones.append(_ENDGAME)
    out[_TURN] = state.turn / (state.options.max_turns * n)
    # hand, in_play, unseen, hand_sizes, laid, known: one block of consecutive pieces
    unseen = [0] * NUM_TYPES
    for other in seats[1:]:
        unseen = [u + h - k for u, h, k in zip(unseen, hands[other], known[other], strict=True)]
    for pile in state.piles:
        for card in pile:
            unseen[card] += 1
    if state.options.discard_recall == "none":
        for card in state.places:
            if card >= 0:
                unseen[card] += 1
    block = [h / 8.0 for h in hands[seat]]
    block += tables.in_play[n]
    block += [u / 8.0 for u in unseen]
    block += [sum(hands[other]) / 8.0 for other in seats]
    block += _PADDING[: MAX_SEATS - n]
    for other in seats:
        block += (float(state.laid_fm[other] >= 0), float(state.laid_cb[other] >= 0))
    block += _PADDING[: 2 * (MAX_SEATS - n)]
    for other in seats[1:]:
        block += [k / 4.0 for k in known[other]]
    block += _PADDING[: (MAX_SEATS - n) * NUM_TYPES]
    out[_HAND : _HAND + len(block)] = block
    # pawns: the Towers, a Scrapyard or elsewhere, and the distances to the Towers
    pawns = state.pawns
    white_column, to_towers = tables.white_column, tables.to_towers
    towers: list[float] = []
    for k, other in enumerate(seats):
        field = pawns[other]
        ones.append(_WHITE + k * (NUM_SCRAPYARDS + 2) + white_column[field])
        towers += to_towers[field]
    out[_TOWERS : _TOWERS + len(towers)] = towers
    # ahead: per distance each way, a white field (+0), a full field (+1), an opponent (+2)
    position = pawns[seat]
    rows = tables.rows[position]
    ones += tables.white_ahead[position]
    pawns_on = [0] * tables.length
    for field in pawns:
        pawns_on[field] += 1
    for field in set(pawns):
        if field != tables.towers and pawns_on[field] >= 2:
            ones += [row + 1 for row in rows[field]]
    for field in {pawns[other] for other in seats[1:]}:
        ones += [row + 2 for row in rows[field]]
    piles = [len(pile) / 10.0 for pile in state.piles]
    piles.append(state.removed_scrap / 6.0)
    out[_PILES : _PILES + len(piles)] = piles
    if state.options.discard_recall == "perfect":
        ones += [
            _PLACES + p * _PLACE_COLUMNS + card for p, card in enumerate(state.places) if card >= 0
        ]
    else:
        ones += [
            _PLACES + p * _PLACE_COLUMNS + _UNKNOWN_COLUMN
            for p, card in enumerate(state.places)
            if card >= 0
        ]
    challenger, opponent, named, stage = state.challenge
    if challenger >= 0:
        if challenger == seat:
            ones.append(_CHALLENGE)
        if opponent == seat:
            ones.append(_CHALLENGE + 1)
        if stage == 1:
            ones.append(_CHALLENGE + 2)
        if named >= 0 and seat in (challenger, opponent):
            ones.append(_CHALLENGE + 3 + named)
    if state.seek_type >= 0:
        ones.append(_SEEK + state.seek_type)
    out[ones] = 1.0
    return out
