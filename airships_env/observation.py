"""The observation vector: one flat float32 vector per seat, built from public information only.

The vector is seen from the observing seat ("self"), then the other seats in seat order after it
("opponent1" is the next seat to play after self, and so on). Every relative one-hot ("holder",
"current_player", ...) uses the same order: index 0 = self, 1 = opponent1, ... It holds
everything public (docs/RULES.md V1) and nothing hidden (docs/RULES.md V2): the deck is seen only as its size and
each airship stack only as its height and top card; the cards left out at setup and the
generator are never read.

:func:`observation_layout` returns every named piece as a slice of the vector, e.g.
``obs[layout["self.available_dice"]]`` is (white, red, black) of my dice, and
``obs[layout["board.engine.2"]][EXPANSION_FEATURES["target"]]`` is the target number of the
second card of the engine row. Card pieces are feature vectors (below), all zero for an empty
place. Values are scaled to about [0, 1] by the constant named in the table; the observation
space's upper bound is ``observation_high(num_players)`` and values are clipped to it (only
unusual card files or very long games reach a bound above 1).

Layout, in order (``n`` = number of players, ``E`` = 32 expansion features, ``A`` = 9 airship
features; totals: 2 players 1485, 3 players 1735, 4 players 1985):

==============================  ==========  ====================================================
piece                           size        content (scale)
==============================  ==========  ====================================================
era                             1           0 in Era 1, 1 in Era 2
deck_size                       1           cards left in the deck / DECK_SCALE (43)
turn                            1           engine turn counter / TURN_SCALE (100), high 10
phase                           4           one-hot: choose target, chip decision, extra turn,
                                            game over
current_player                  n           relative one-hot of the seat to act
wooden_airship                  n + 1       relative one-hot of its holder; last = nobody
hindenburg_open                 1           1 once the Hindenburg is open (H1)
passed                          n           relative: seats that passed since the last attempt
                                            or reveal (E4)
removed                         48          multi-hot over expansion indices: left the game
board.<department>.<slot>       18 x E      the main board, department rows, slots 1..3
airship_stack.<i>.height        4 x 1       cards in stack i (1..4) / 3
airship_stack.<i>.top           4 x A       the top card of stack i
hindenburg.<j>                  4 x (8+n)   phase j (1..4): available (open, not completed,
                                            may be attempted now), completed, holder (n,
                                            relative), cost (3, /3), target /25, low /12,
                                            high /12
<who>.slot.<department>         n x 6 x E   the company board's expansions; <who> is self,
                                            opponent1, ...
<who>.rollable_dice             n x 3       rollable dice per colour / 6 (high 2)
<who>.fixed_dice                n x 3       fixed dice value per colour / 8 (high 2)
<who>.available_dice            n x 3       rollable + fixed dice per colour / 6 (high 2)
<who>.engine_bonuses            n x 4       bonus per colour (white, red, black, any) / 2
<who>.exchange_give             n x 3       the Materials exchange: dice given / 3
<who>.exchange_get              n x 3       dice received / 3
<who>.available_dice_exchanged  n x 3       available dice after the exchange giving
                                            rollable dice only (T3) / 6, 0 if none
<who>.available_dice_exchanged_fixed  n x 3 available dice after the exchange giving the
                                            fixed die (T3) / 6, 0 if none
<who>.chips_on_board            n x 1       / 6
<who>.supply                    n x 1       chips in the supply / 6
<who>.airships                  n x 18      multi-hot over airship indices: the airship pile
<who>.hindenburg_phases         n x 1       phases completed / 4
<who>.score                     n x 1       current score (E2) / SCORE_SCALE (50), high 4
<who>.score_parts               n x 3       expansions, airships, Hindenburg / 50, high 4
<who>.tie_break                 n x 1       airships + phases (E3) / 12, high 4
odds.eligible                   78          for self, by attempt action (3 * target +
odds.success                    78          variant): offered and eligible (T2, T3), success
odds.chip_decides               78          without a chip, chip decides (misses by exactly 1,
                                            T5); the three are interleaved (a strided slice
                                            each)
pending.active                  1           1 during a chip decision
pending.target                  26          one-hot of the target attempted
pending.variant                 3           one-hot of the exchange variant (T3)
pending.rolled                  9           faces per colour (white, red, black), 3 each,
                                            highest first / 8
pending.kept                    3           sum of the dice that count, per colour / 25
pending.dice_sum                1           / 25 (high 4)
pending.bonus                   1           automatic bonuses / 5 (high 4)
pending.total                   1           / 25 (high 4)
pending.needed                  1           target number / 25 (high 4)
==============================  ==========  ====================================================

Expansion features (``EXPANSION_FEATURES``, E = 32): present 1, department 6 (one-hot), era 3
(one-hot: starter, 1, 2), cost 3 (/3), target 1 (/25), stars 1 (/6), dice 3 (/3), chips 1 (/3),
fixed_die 3 (value at its colour /8), engine_bonus 4 (/2), exchange_give 3 (/3),
exchange_get 3 (/3). Airship features (``AIRSHIP_FEATURES``, A = 9): present 1, tier 3
(one-hot), cost 3 (/3), target 1 (/25), stars 1 (/6).

The odds come from the engine's exact dice maths (:func:`~airships_env.engine.attempt_table`)
for the observing seat, on its own dice, bonuses and chips, whoever is to act.

Arithmetic (so that the native core writes the same bits): every value is computed in double
precision from integers (a count, a sum, a ratio of counts), rounded to float32 once, and the
whole vector is clipped to ``observation_high`` at the end.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from airships_env.engine import rules as _rules
from airships_env.engine.actions import (
    AIRSHIP_STACKS,
    HINDENBURG_PHASE_COUNT,
    NUM_ATTEMPT_ACTIONS,
    NUM_TARGETS,
    NUM_VARIANTS,
    SLOTS_PER_ROW,
)
from airships_env.engine.cards import (
    AIRSHIP_TIERS,
    BONUS_COLOURS,
    DEPARTMENTS,
    Airship,
    CardSet,
    Expansion,
    load_cards,
)
from airships_env.engine.game import check_num_players
from airships_env.engine.state import EMPTY, PHASE_NAMES, GameState

DECK_SCALE = 43.0
TURN_SCALE = 100.0
DICE_SCALE = 6.0
COST_SCALE = 3.0
FACE_SCALE = 8.0
TARGET_SCALE = 25.0
STARS_SCALE = 6.0
BONUS_SCALE = 2.0
CHIP_SCALE = 6.0
SCORE_SCALE = 50.0
STACK_HEIGHT_SCALE = 3.0
PHASE_VALUE_SCALE = 12.0
TIE_BREAK_SCALE = 12.0
PENDING_BONUS_SCALE = 5.0
PHASE_COUNT_SCALE = 4.0

NUM_EXPANSIONS = 48  # fixed by the card-file validation (6 + 18 + 24)
NUM_AIRSHIPS = 18
MAX_DICE_ROLLED = 3

OPEN_HIGH = 4.0  # upper bound of the space for values that are not bounded by the rules
DICE_HIGH = 2.0
TURN_HIGH = 10.0


def _feature_layout(features: Sequence[tuple[str, int]]) -> dict[str, slice]:
    layout: dict[str, slice] = {}
    offset = 0
    for name, size in features:
        layout[name] = slice(offset, offset + size)
        offset += size
    return layout


_EXPANSION_FEATURE_SIZES: tuple[tuple[str, int], ...] = (
    ("present", 1),
    ("department", len(DEPARTMENTS)),
    ("era", 3),
    ("cost", 3),
    ("target", 1),
    ("stars", 1),
    ("dice", 3),
    ("chips", 1),
    ("fixed_die", 3),
    ("engine_bonus", len(BONUS_COLOURS)),
    ("exchange_give", 3),
    ("exchange_get", 3),
)
_AIRSHIP_FEATURE_SIZES: tuple[tuple[str, int], ...] = (
    ("present", 1),
    ("tier", len(AIRSHIP_TIERS)),
    ("cost", 3),
    ("target", 1),
    ("stars", 1),
)
EXPANSION_FEATURES: dict[str, slice] = _feature_layout(_EXPANSION_FEATURE_SIZES)
AIRSHIP_FEATURES: dict[str, slice] = _feature_layout(_AIRSHIP_FEATURE_SIZES)
EXPANSION_SIZE = sum(size for _name, size in _EXPANSION_FEATURE_SIZES)  # 32
AIRSHIP_SIZE = sum(size for _name, size in _AIRSHIP_FEATURE_SIZES)  # 9

_POOL_PIECES: tuple[tuple[str, int, float], ...] = (
    ("rollable_dice", 3, DICE_HIGH),
    ("fixed_dice", 3, DICE_HIGH),
    ("available_dice", 3, DICE_HIGH),
    ("engine_bonuses", 4, OPEN_HIGH),
    ("exchange_give", 3, OPEN_HIGH),
    ("exchange_get", 3, OPEN_HIGH),
    ("available_dice_exchanged", 3, DICE_HIGH),
    ("available_dice_exchanged_fixed", 3, DICE_HIGH),
)
_ODDS_PER_ACTION = 3  # eligible, success, chip decides
_ODDS_NAMES = ("odds.eligible", "odds.success", "odds.chip_decides")


def seat_names(num_players: int) -> tuple[str, ...]:
    """The relative names of the seats in the vector: ('self', 'opponent1', ...)."""
    return ("self", *(f"opponent{k}" for k in range(1, num_players)))


def _pieces(num_players: int) -> list[tuple[str, int, float]]:
    """(name, size, upper bound) of every piece, in order."""
    n = num_players
    pieces: list[tuple[str, int, float]] = [
        ("era", 1, 1.0),
        ("deck_size", 1, 1.0),
        ("turn", 1, TURN_HIGH),
        ("phase", len(PHASE_NAMES), 1.0),
        ("current_player", n, 1.0),
        ("wooden_airship", n + 1, 1.0),
        ("hindenburg_open", 1, 1.0),
        ("passed", n, 1.0),
        ("removed", NUM_EXPANSIONS, 1.0),
    ]
    for department in DEPARTMENTS:
        for slot in range(SLOTS_PER_ROW):
            pieces.append((f"board.{department}.{slot + 1}", EXPANSION_SIZE, OPEN_HIGH))
    for stack in range(AIRSHIP_STACKS):
        pieces.append((f"airship_stack.{stack + 1}.height", 1, OPEN_HIGH))
        pieces.append((f"airship_stack.{stack + 1}.top", AIRSHIP_SIZE, OPEN_HIGH))
    for phase in range(HINDENBURG_PHASE_COUNT):
        pieces.append((f"hindenburg.{phase + 1}", 8 + n, OPEN_HIGH))
    for who in seat_names(n):
        for department in DEPARTMENTS:
            pieces.append((f"{who}.slot.{department}", EXPANSION_SIZE, OPEN_HIGH))
        for name, size, high in _POOL_PIECES:
            pieces.append((f"{who}.{name}", size, high))
        pieces += [
            (f"{who}.chips_on_board", 1, OPEN_HIGH),
            (f"{who}.supply", 1, OPEN_HIGH),
            (f"{who}.airships", NUM_AIRSHIPS, 1.0),
            (f"{who}.hindenburg_phases", 1, 1.0),
            (f"{who}.score", 1, OPEN_HIGH),
            (f"{who}.score_parts", 3, OPEN_HIGH),
            (f"{who}.tie_break", 1, OPEN_HIGH),
        ]
    pieces.append(("odds", _ODDS_PER_ACTION * NUM_ATTEMPT_ACTIONS, 1.0))
    pieces += [
        ("pending.active", 1, 1.0),
        ("pending.target", NUM_TARGETS, 1.0),
        ("pending.variant", NUM_VARIANTS, 1.0),
        ("pending.rolled", 3 * MAX_DICE_ROLLED, OPEN_HIGH),
        ("pending.kept", 3, OPEN_HIGH),
        ("pending.dice_sum", 1, OPEN_HIGH),
        ("pending.bonus", 1, OPEN_HIGH),
        ("pending.total", 1, OPEN_HIGH),
        ("pending.needed", 1, OPEN_HIGH),
    ]
    return pieces


def observation_layout(num_players: int) -> dict[str, slice]:
    """Every named piece of the vector as a slice, in order (see the module docstring)."""
    check_num_players(num_players)
    layout: dict[str, slice] = {}
    offset = 0
    for name, size, _high in _pieces(num_players):
        if name == "odds":
            for k, odds_name in enumerate(_ODDS_NAMES):
                layout[odds_name] = slice(offset + k, offset + size, _ODDS_PER_ACTION)
        else:
            layout[name] = slice(offset, offset + size)
        offset += size
    return layout


def observation_pieces(num_players: int) -> list[tuple[str, int]]:
    """The named pieces ``(name, size)`` of the vector, in order (the odds as one piece)."""
    check_num_players(num_players)
    return [(name, size) for name, size, _high in _pieces(num_players)]


def observation_size(num_players: int) -> int:
    """The length of the observation vector."""
    check_num_players(num_players)
    return sum(size for _name, size, _high in _pieces(num_players))


def observation_high(num_players: int) -> np.ndarray:
    """The upper bound of every element (the lower bound is 0), float32."""
    check_num_players(num_players)
    return np.concatenate(
        [np.full(size, high, dtype=np.float32) for _name, size, high in _pieces(num_players)]
    )


def _rounded(values: Sequence[float]) -> np.ndarray:
    """Doubles rounded once to float32."""
    return np.array(values, dtype=np.float64).astype(np.float32)


def expansion_features(card: Expansion) -> np.ndarray:
    """The feature vector of one expansion card (``EXPANSION_FEATURES``), float32."""
    f = [0.0] * EXPANSION_SIZE
    x = EXPANSION_FEATURES
    f[x["present"].start] = 1.0
    f[x["department"].start + card.department] = 1.0
    f[x["era"].start + card.era] = 1.0
    for colour in range(3):
        f[x["cost"].start + colour] = card.cost[colour] / COST_SCALE
        f[x["dice"].start + colour] = card.dice[colour] / COST_SCALE
    f[x["target"].start] = card.target / TARGET_SCALE
    f[x["stars"].start] = card.stars / STARS_SCALE
    f[x["chips"].start] = card.chips / COST_SCALE
    if card.fixed_die is not None:
        f[x["fixed_die"].start + card.fixed_die.colour] = card.fixed_die.value / FACE_SCALE
    bonus = [0, 0, 0, 0]
    for engine_bonus in card.engine_bonuses:
        bonus[engine_bonus.colour] += engine_bonus.amount
    for colour in range(len(BONUS_COLOURS)):
        f[x["engine_bonus"].start + colour] = bonus[colour] / BONUS_SCALE
    if card.exchange is not None:
        for colour in range(3):
            f[x["exchange_give"].start + colour] = card.exchange.give[colour] / COST_SCALE
            f[x["exchange_get"].start + colour] = card.exchange.get[colour] / COST_SCALE
    return _rounded(f)


def airship_features(card: Airship) -> np.ndarray:
    """The feature vector of one airship card (``AIRSHIP_FEATURES``), float32."""
    f = [0.0] * AIRSHIP_SIZE
    x = AIRSHIP_FEATURES
    f[x["present"].start] = 1.0
    f[x["tier"].start + AIRSHIP_TIERS.index(card.tier)] = 1.0
    for colour in range(3):
        f[x["cost"].start + colour] = card.cost[colour] / COST_SCALE
    f[x["target"].start] = card.target / TARGET_SCALE
    f[x["stars"].start] = card.stars / STARS_SCALE
    return _rounded(f)


class ObservationEncoder:
    """Builds observation vectors for one card set and player count.

    Card features are tables computed once; everything the rules derive (dice pools, the
    exchange variants, the odds) is read from the engine, which owns and caches it. Reads only
    public fields of the state (V1): never the deck's order, the cards under a stack's top, the
    cards left out, or the generator.
    """

    def __init__(self, cards: CardSet, num_players: int):
        check_num_players(num_players)
        if len(cards.expansions) != NUM_EXPANSIONS or len(cards.airships) != NUM_AIRSHIPS:
            raise ValueError("the card set does not have 48 expansions and 18 airships")
        self.cards = cards
        self.num_players = num_players
        self.layout = observation_layout(num_players)
        self.size = observation_size(num_players)
        self.high = observation_high(num_players)
        # Card tables with one extra zero row, so that EMPTY (-1) reads as "no card".
        self._expansion_table = np.vstack(
            [*(expansion_features(e) for e in cards.expansions), np.zeros(EXPANSION_SIZE)]
        ).astype(np.float32)
        self._airship_table = np.vstack(
            [*(airship_features(a) for a in cards.airships), np.zeros(AIRSHIP_SIZE)]
        ).astype(np.float32)
        self._phase_static = [
            _rounded(
                [
                    *(c / COST_SCALE for c in phase.cost),
                    phase.target / TARGET_SCALE,
                    phase.low / PHASE_VALUE_SCALE,
                    phase.high / PHASE_VALUE_SCALE,
                ]
            )
            for phase in cards.hindenburg
        ]
        lay = self.layout
        self._company_starts = [
            lay[f"{who}.slot.financier"].start for who in seat_names(num_players)
        ]
        self._odds_start = lay["odds.eligible"].start
        self._pending_start = lay["pending.active"].start
        self._statics: dict[tuple[int, ...], np.ndarray] = {}

    def __getstate__(self) -> dict[str, object]:
        return {k: v for k, v in self.__dict__.items() if k != "_statics"}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._statics = {}

    # -- the vector ------------------------------------------------------------------------
    def encode(self, state: GameState, seat: int) -> np.ndarray:
        """A fresh float32 vector of ``state`` seen by ``seat``."""
        out = np.zeros(self.size, dtype=np.float32)
        self.encode_into(state, seat, out)
        return out

    def encode_into(self, state: GameState, seat: int, out: np.ndarray) -> None:
        """Write the vector of ``state`` seen by ``seat`` into ``out`` (zeroed float32)."""
        n = self.num_players
        if state.num_players != n:
            raise ValueError(f"this encoder is for {n} players, the state has {state.num_players}")
        if state.cards is not self.cards and state.cards.digest != self.cards.digest:
            raise ValueError("the state uses another card set than this encoder")
        if not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1}, got {seat!r}")
        # -- global values: era .. passed ----------------------------------------------------
        out[0] = state.era - 1
        out[1] = len(state.deck) / DECK_SCALE
        out[2] = state.turn / TURN_SCALE
        at = 3
        out[at + state.phase] = 1.0
        at += len(PHASE_NAMES)
        out[at + (state.current_player - seat) % n] = 1.0
        at += n
        holder = state.wooden_airship
        out[at + ((holder - seat) % n if holder != EMPTY else n)] = 1.0
        at += n + 1
        out[at] = float(state.hindenburg_open)
        at += 1
        for p in range(n):
            if state.passed_mask >> p & 1:
                out[at + (p - seat) % n] = 1.0
        at += n
        # -- cards that left the game, main board, airship stacks ----------------------------
        if state.removed:
            out[[at + card for card in state.removed]] = 1.0
        at += NUM_EXPANSIONS
        board_size = len(state.board) * EXPANSION_SIZE
        out[at : at + board_size] = self._expansion_table[state.board].ravel()
        at += board_size
        for stack in state.stacks:
            out[at] = len(stack) / STACK_HEIGHT_SCALE
            out[at + 1 : at + 1 + AIRSHIP_SIZE] = self._airship_table[stack[-1] if stack else EMPTY]
            at += 1 + AIRSHIP_SIZE
        # -- Hindenburg ------------------------------------------------------------------------
        size = 8 + n
        for phase, holder in enumerate(state.hindenburg):
            if holder != EMPTY:
                out[at + 1] = 1.0
                out[at + 2 + (holder - seat) % n] = 1.0
            elif _rules.phase_available(state, phase):
                out[at] = 1.0
            out[at + 2 + n : at + size] = self._phase_static[phase]
            at += size
        # -- company boards, self first ------------------------------------------------------
        for relative in range(n):
            self._company(state, (seat + relative) % n, out, self._company_starts[relative])
        # -- odds ------------------------------------------------------------------------------
        at = self._odds_start
        values: list[float] = []
        for odds in _rules.attempt_table(state, seat):
            values += _NO_ODDS if odds is None else (1.0, odds.success, odds.chip_decides)
        out[at : at + len(values)] = values
        # -- the pending roll -------------------------------------------------------------------
        pending = state.pending
        if pending is not None:
            at = self._pending_start
            out[at] = 1.0
            at += 1
            out[at + pending.target] = 1.0
            at += NUM_TARGETS
            out[at + pending.variant] = 1.0
            at += NUM_VARIANTS
            for colour in range(3):
                faces = sorted(pending.rolled[colour], reverse=True)[:MAX_DICE_ROLLED]
                for i, face in enumerate(faces):
                    out[at + MAX_DICE_ROLLED * colour + i] = face / FACE_SCALE
                out[at + 3 * MAX_DICE_ROLLED + colour] = sum(pending.kept[colour]) / TARGET_SCALE
            at += 3 * MAX_DICE_ROLLED + 3
            out[at] = pending.dice_sum / TARGET_SCALE
            out[at + 1] = (pending.total - pending.dice_sum) / PENDING_BONUS_SCALE
            out[at + 2] = pending.total / TARGET_SCALE
            out[at + 3] = pending.needed / TARGET_SCALE
        np.minimum(out, self.high, out=out)

    def _company(self, state: GameState, player: int, out: np.ndarray, at: int) -> None:
        """One company block: expansions, dice per variant, chips, airships, score."""
        ps = state.players[player]
        static = self._company_static(state, player)
        out[at : at + len(static)] = static
        at += len(static)
        out[at] = ps.chips_on_board / CHIP_SCALE
        out[at + 1] = ps.chips_supply / CHIP_SCALE
        at += 2
        if ps.airships:
            out[[at + airship for airship in ps.airships]] = 1.0
        at += NUM_AIRSHIPS
        phases = state.hindenburg.count(player)
        parts = _rules.score_parts(state, player)
        expansions, airships, phase_points = (
            parts["expansions"],
            parts["airships"],
            parts["hindenburg"],
        )
        out[at : at + 6] = [
            phases / PHASE_COUNT_SCALE,
            (expansions + airships + phase_points) / SCORE_SCALE,
            expansions / SCORE_SCALE,
            airships / SCORE_SCALE,
            phase_points / SCORE_SCALE,
            (len(ps.airships) + phases) / TIE_BREAK_SCALE,
        ]

    def _company_static(self, state: GameState, player: int) -> np.ndarray:
        """The part of a company block that depends only on its cards and the era: expansion
        features and dice per exchange variant (kept per company, a bounded cache)."""
        ps = state.players[player]
        key = (state.era, *ps.slots)
        static = self._statics.get(key)
        if static is not None:
            return static
        pool = _rules.player_pool(state, player)
        plain, rollable_only, giving_fixed = pool.hands
        assert plain is not None
        fixed = [0, 0, 0]
        for colour, value in plain.fixed:
            fixed[colour] += value
        bonus = [0, 0, 0, 0]
        for engine_bonus in pool.engine_bonuses:
            bonus[engine_bonus.colour] += engine_bonus.amount
        give = pool.exchange.give if pool.exchange is not None else (0, 0, 0)
        get = pool.exchange.get if pool.exchange is not None else (0, 0, 0)
        exchanged = rollable_only.available if rollable_only is not None else (0, 0, 0)
        exchanged_fixed = giving_fixed.available if giving_fixed is not None else (0, 0, 0)
        dice = _rounded(
            [
                *(c / DICE_SCALE for c in plain.rollable),
                *(v / FACE_SCALE for v in fixed),
                *(c / DICE_SCALE for c in plain.available),
                *(b / BONUS_SCALE for b in bonus),
                *(c / COST_SCALE for c in give),
                *(c / COST_SCALE for c in get),
                *(c / DICE_SCALE for c in exchanged),
                *(c / DICE_SCALE for c in exchanged_fixed),
            ]
        )
        static = np.concatenate([self._expansion_table[ps.slots].ravel(), dice])
        if len(self._statics) >= _STATIC_CACHE:
            self._statics.clear()
        self._statics[key] = static
        return static


_STATIC_CACHE = 4096  # company blocks kept per encoder
_NO_ODDS = (0.0, 0.0, 0.0)

_ENCODERS: OrderedDict[tuple[int, int], tuple[CardSet, ObservationEncoder]] = OrderedDict()
_ENCODER_CACHE_SIZE = 8


def encoder_for(cards: CardSet | None, num_players: int) -> ObservationEncoder:
    """The (cached) encoder of a card set (default set if None) and player count."""
    card_set = cards if cards is not None else load_cards(None)
    # Keyed by identity; the entry keeps the card set alive, so the id cannot be reused.
    key = (id(card_set), num_players)
    entry = _ENCODERS.get(key)
    if entry is None:
        entry = (card_set, ObservationEncoder(card_set, num_players))
        _ENCODERS[key] = entry
        if len(_ENCODERS) > _ENCODER_CACHE_SIZE:
            _ENCODERS.popitem(last=False)
    else:
        _ENCODERS.move_to_end(key)
    return entry[1]


def encode_observation(state: GameState, seat: int) -> np.ndarray:
    """The float32 observation vector of ``state`` (a true state or a public view) for ``seat``."""
    return encoder_for(state.cards, state.num_players).encode(state, seat)
