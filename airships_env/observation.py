"""The observation vector: one flat float32 vector per seat, built from public information only.

The vector is seen from the observing seat ("self"), then the other seats in seat order after it
("opponent1" is the next seat to play after self, and so on). Every relative one-hot ("holder",
"current_player", ...) uses the same order: index 0 = self, 1 = opponent1, ... It holds
everything public (RULES V1) and nothing hidden (RULES V2): the deck is seen only as its size and
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
features; totals: 2 players 1399, 3 players 1646, 4 players 1893):

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
<who>.available_dice_exchanged  n x 3       available dice after the exchange / 6, 0 if none
<who>.chips_on_board            n x 1       / 6
<who>.supply                    n x 1       chips in the supply / 6
<who>.airships                  n x 18      multi-hot over airship indices: the airship pile
<who>.hindenburg_phases         n x 1       phases completed / 4
<who>.score                     n x 1       current score (E2) / SCORE_SCALE (50), high 4
<who>.score_parts               n x 3       expansions, airships, Hindenburg / 50, high 4
<who>.tie_break                 n x 1       airships + phases (E3) / 12, high 4
odds.eligible                   52          for self, by attempt action (2 * target +
odds.success                    52          exchange): eligible (T2), success without a chip,
odds.chip_decides               52          chip decides (misses by exactly 1, T5); the three
                                            are interleaved (a strided slice each)
pending.active                  1           1 during a chip decision
pending.target                  26          one-hot of the target attempted
pending.exchange                1           the exchange was made
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

The odds come from the engine's exact dice maths (``attempt_odds``) for the observing seat, on
its own dice, bonuses and chips, whoever is to act.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import numpy as np

from airships_env.engine import rules as _rules
from airships_env.engine.actions import (
    AIRSHIP_STACKS,
    FIRST_PHASE_TARGET,
    HINDENBURG_PHASE_COUNT,
    NUM_ATTEMPT_ACTIONS,
    NUM_TARGETS,
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

NUM_EXPANSIONS = 48  # fixed by the card-file validation (6 + 18 + 24)
NUM_AIRSHIPS = 18
MAX_DICE_ROLLED = 3

_OPEN_HIGH = 4.0  # upper bound of the space for values that are not bounded by the rules
_DICE_HIGH = 2.0
_TURN_HIGH = 10.0


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
    ("rollable_dice", 3, _DICE_HIGH),
    ("fixed_dice", 3, _DICE_HIGH),
    ("available_dice", 3, _DICE_HIGH),
    ("engine_bonuses", 4, _OPEN_HIGH),
    ("exchange_give", 3, _OPEN_HIGH),
    ("exchange_get", 3, _OPEN_HIGH),
    ("available_dice_exchanged", 3, _DICE_HIGH),
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
        ("turn", 1, _TURN_HIGH),
        ("phase", len(PHASE_NAMES), 1.0),
        ("current_player", n, 1.0),
        ("wooden_airship", n + 1, 1.0),
        ("hindenburg_open", 1, 1.0),
        ("passed", n, 1.0),
        ("removed", NUM_EXPANSIONS, 1.0),
    ]
    for department in DEPARTMENTS:
        for slot in range(SLOTS_PER_ROW):
            pieces.append((f"board.{department}.{slot + 1}", EXPANSION_SIZE, _OPEN_HIGH))
    for stack in range(AIRSHIP_STACKS):
        pieces.append((f"airship_stack.{stack + 1}.height", 1, _OPEN_HIGH))
        pieces.append((f"airship_stack.{stack + 1}.top", AIRSHIP_SIZE, _OPEN_HIGH))
    for phase in range(HINDENBURG_PHASE_COUNT):
        pieces.append((f"hindenburg.{phase + 1}", 8 + n, _OPEN_HIGH))
    for who in seat_names(n):
        for department in DEPARTMENTS:
            pieces.append((f"{who}.slot.{department}", EXPANSION_SIZE, _OPEN_HIGH))
        for name, size, high in _POOL_PIECES:
            pieces.append((f"{who}.{name}", size, high))
        pieces += [
            (f"{who}.chips_on_board", 1, _OPEN_HIGH),
            (f"{who}.supply", 1, _OPEN_HIGH),
            (f"{who}.airships", NUM_AIRSHIPS, 1.0),
            (f"{who}.hindenburg_phases", 1, 1.0),
            (f"{who}.score", 1, _OPEN_HIGH),
            (f"{who}.score_parts", 3, _OPEN_HIGH),
            (f"{who}.tie_break", 1, _OPEN_HIGH),
        ]
    pieces.append(("odds", _ODDS_PER_ACTION * NUM_ATTEMPT_ACTIONS, 1.0))
    pieces += [
        ("pending.active", 1, 1.0),
        ("pending.target", NUM_TARGETS, 1.0),
        ("pending.exchange", 1, 1.0),
        ("pending.rolled", 3 * MAX_DICE_ROLLED, _OPEN_HIGH),
        ("pending.kept", 3, _OPEN_HIGH),
        ("pending.dice_sum", 1, _OPEN_HIGH),
        ("pending.bonus", 1, _OPEN_HIGH),
        ("pending.total", 1, _OPEN_HIGH),
        ("pending.needed", 1, _OPEN_HIGH),
    ]
    return pieces


def _check_num_players(num_players: int) -> None:
    if (
        isinstance(num_players, bool)
        or not isinstance(num_players, int)
        or not (_rules.MIN_PLAYERS <= num_players <= _rules.MAX_PLAYERS)
    ):
        raise ValueError(
            f"num_players must be {_rules.MIN_PLAYERS} to {_rules.MAX_PLAYERS}, got {num_players!r}"
        )


def observation_layout(num_players: int) -> dict[str, slice]:
    """Every named piece of the vector as a slice, in order (see the module docstring)."""
    _check_num_players(num_players)
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


def observation_size(num_players: int) -> int:
    """The length of the observation vector."""
    _check_num_players(num_players)
    return sum(size for _name, size, _high in _pieces(num_players))


def observation_high(num_players: int) -> np.ndarray:
    """The upper bound of every element (the lower bound is 0), float32."""
    _check_num_players(num_players)
    return np.concatenate(
        [np.full(size, high, dtype=np.float32) for _name, size, high in _pieces(num_players)]
    )


def expansion_features(card: Expansion) -> np.ndarray:
    """The feature vector of one expansion card (``EXPANSION_FEATURES``)."""
    f = np.zeros(EXPANSION_SIZE, dtype=np.float32)
    x = EXPANSION_FEATURES
    f[x["present"].start] = 1.0
    f[x["department"].start + card.department] = 1.0
    f[x["era"].start + card.era] = 1.0
    f[x["cost"]] = np.asarray(card.cost, dtype=np.float32) / COST_SCALE
    f[x["target"].start] = card.target / TARGET_SCALE
    f[x["stars"].start] = card.stars / STARS_SCALE
    f[x["dice"]] = np.asarray(card.dice, dtype=np.float32) / COST_SCALE
    f[x["chips"].start] = card.chips / COST_SCALE
    if card.fixed_die is not None:
        f[x["fixed_die"].start + card.fixed_die.colour] = card.fixed_die.value / FACE_SCALE
    for bonus in card.engine_bonuses:
        f[x["engine_bonus"].start + bonus.colour] += bonus.amount / BONUS_SCALE
    if card.exchange is not None:
        f[x["exchange_give"]] = np.asarray(card.exchange.give, dtype=np.float32) / COST_SCALE
        f[x["exchange_get"]] = np.asarray(card.exchange.get, dtype=np.float32) / COST_SCALE
    return f


def airship_features(card: Airship) -> np.ndarray:
    """The feature vector of one airship card (``AIRSHIP_FEATURES``)."""
    f = np.zeros(AIRSHIP_SIZE, dtype=np.float32)
    x = AIRSHIP_FEATURES
    f[x["present"].start] = 1.0
    f[x["tier"].start + AIRSHIP_TIERS.index(card.tier)] = 1.0
    f[x["cost"]] = np.asarray(card.cost, dtype=np.float32) / COST_SCALE
    f[x["target"].start] = card.target / TARGET_SCALE
    f[x["stars"].start] = card.stars / STARS_SCALE
    return f


_MEMO_LIMIT = 4096
_DICE_MEMO_LIMIT = 200_000
# The engine's attempt_odds memoised on the values it reads (see ObservationEncoder._fill_odds);
# pure values, so these serve every encoder of the process.
_ELIGIBLE_MEMO: dict[tuple[object, ...], bool] = {}
_DICE_MEMO: dict[tuple[object, ...], tuple[float, float]] = {}
_OPTIONS_IDS: dict[object, int] = {}  # rules options -> a small number, process-wide


class ObservationEncoder:
    """Builds observation vectors for one card set and player count.

    The vector is assembled from blocks (global values, removed cards, board, stacks,
    Hindenburg, one block per company, odds, pending roll). Card features are precomputed
    tables, and every block is kept from the previous call and rebuilt only when the public
    fields it is computed from changed (its cache key is exactly those fields), because most
    actions change little. Reads only public fields of the state (V1): never the deck's order,
    the cards under a stack's top, the cards left out, or the generator.
    """

    def __init__(self, cards: CardSet, num_players: int):
        _check_num_players(num_players)
        if len(cards.expansions) != NUM_EXPANSIONS or len(cards.airships) != NUM_AIRSHIPS:
            raise ValueError("the card set does not have 48 expansions and 18 airships")
        self.cards = cards
        self.num_players = num_players
        self.layout = observation_layout(num_players)
        self.size = observation_size(num_players)
        self.high = observation_high(num_players)
        lay = self.layout
        names = seat_names(num_players)
        # Card tables (clipped to the space's bound once) with one extra zero row, so that
        # EMPTY (-1) reads as "no card".
        self._expansion_table = np.minimum(
            np.vstack(
                [*(expansion_features(e) for e in cards.expansions), np.zeros(EXPANSION_SIZE)]
            ),
            _OPEN_HIGH,
        ).astype(np.float32)
        self._airship_table = np.minimum(
            np.vstack([*(airship_features(a) for a in cards.airships), np.zeros(AIRSHIP_SIZE)]),
            _OPEN_HIGH,
        ).astype(np.float32)
        self._phase_static = [
            np.minimum(
                np.array(
                    [
                        *(c / COST_SCALE for c in phase.cost),
                        phase.target / TARGET_SCALE,
                        phase.low / PHASE_VALUE_SCALE,
                        phase.high / PHASE_VALUE_SCALE,
                    ],
                    dtype=np.float32,
                ),
                _OPEN_HIGH,
            )
            for phase in cards.hindenburg
        ]
        self._head_size = lay["passed"].stop
        self._phase_size = lay["hindenburg.1"].stop - lay["hindenburg.1"].start
        # A company block: a static part (expansions, dice: depends on era and slots only)
        # then a dynamic part (chips_on_board .. tie_break).
        base = lay[f"{names[0]}.slot.financier"].start
        middle = lay[f"{names[0]}.chips_on_board"].start
        stop = lay[f"{names[0]}.tie_break"].stop
        self._static_high = self.high[base:middle]
        self._dynamic_size = stop - middle
        # _company_dynamic writes these in this order, each within its bound.
        expected = (
            "chips_on_board",
            "supply",
            "airships",
            "hindenburg_phases",
            "score",
            "score_parts",
            "tie_break",
        )
        assert [
            name.split(".", 1)[1]
            for name in lay
            if name.startswith(f"{names[0]}.") and lay[name].start >= middle
        ] == list(expected)
        pending = lay["pending.active"].start
        self._pending_size = lay["pending.needed"].stop - pending
        self._pending_at = {
            name: lay[name].start - pending
            for name in (
                "pending.active",
                "pending.target",
                "pending.exchange",
                "pending.rolled",
                "pending.kept",
                "pending.dice_sum",
                "pending.bonus",
                "pending.total",
                "pending.needed",
            )
        }
        self._pending_high = self.high[pending : pending + self._pending_size]
        self._no_pending = np.zeros(self._pending_size, dtype=np.float32)
        self._no_pending.setflags(write=False)
        # Odds are memoised per target class: the distinct (cost, target number) of the cards
        # and phases; the last class is "no target here".
        classes: dict[tuple[tuple[int, int, int], int], int] = {}

        def class_of(cost: tuple[int, int, int], target: int) -> int:
            return classes.setdefault((cost, target), len(classes))

        self._expansion_class = [class_of(e.cost, e.target) for e in cards.expansions]
        self._airship_class = [class_of(a.cost, a.target) for a in cards.airships]
        self._phase_class = [class_of(h.cost, h.target) for h in cards.hindenburg]
        self._no_target = len(classes)
        self._class_cost = list(classes)  # (cost, target number) of each class
        self._expansion_class.append(self._no_target)  # EMPTY (-1) reads the last entry
        self._clear_caches()

    def _clear_caches(self) -> None:
        n = self.num_players
        self._pool_memo: dict[tuple[int, ...], tuple[np.ndarray, int]] = {}
        self._pool_values: dict[tuple[object, ...], int] = {}
        self._odds_memo: dict[tuple[object, ...], tuple[np.ndarray, set[int]]] = {}
        self._last_options: object = None
        self._last_options_id = -1
        self._hindenburg_memo: dict[tuple[object, ...], np.ndarray] = {}
        self._last_removed: tuple[tuple[int, ...], np.ndarray] | None = None
        self._last_board: tuple[tuple[int, ...], np.ndarray] | None = None
        self._last_stacks: tuple[tuple[int, ...], np.ndarray] | None = None
        self._last_players: list[tuple[Any, ...] | None] = [None] * n
        self._last_odds: list[tuple[object, list[int], np.ndarray] | None] = [None] * n
        self._last_rows: tuple[tuple[object, ...], list[int]] | None = None
        self._last_pool: list[tuple[int, list[int], tuple[np.ndarray, int]] | None] = [None] * n
        self._last_companies: list[tuple[np.ndarray, np.ndarray, np.ndarray] | None] = [None] * n

    _CACHES = (
        "_pool_memo",
        "_pool_values",
        "_odds_memo",
        "_last_options",
        "_last_options_id",
        "_hindenburg_memo",
        "_last_removed",
        "_last_board",
        "_last_stacks",
        "_last_players",
        "_last_odds",
        "_last_pool",
        "_last_companies",
        "_last_rows",
    )

    def __getstate__(self) -> dict[str, object]:
        return {name: value for name, value in self.__dict__.items() if name not in self._CACHES}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._clear_caches()

    # -- memo helpers ----------------------------------------------------------------------
    def _options_id(self, options: object) -> int:
        """A small number naming the rules options (hashing them costs more than a look-up)."""
        if options is not self._last_options:
            self._last_options = options
            self._last_options_id = _OPTIONS_IDS.setdefault(options, len(_OPTIONS_IDS))
        return self._last_options_id

    def _pool_info(self, state: GameState, player: int) -> tuple[np.ndarray, int]:
        """The static part of a company block (its expansions and dice, clipped), and an id of
        its dice pool's value (for the odds memo); both depend only on the era and the slots."""
        ps = state.players[player]
        last = self._last_pool[player]
        if last is not None and last[0] == state.era and last[1] == ps.slots:
            return last[2]
        key = (state.era, *ps.slots)
        info = self._pool_memo.get(key)
        if info is None:
            pool = _rules.player_pool(state, player)
            fixed = [0.0, 0.0, 0.0]
            for colour, value in pool.fixed:
                fixed[colour] += value / FACE_SCALE
            bonuses = [0.0] * len(BONUS_COLOURS)
            for bonus in pool.engine_bonuses:
                bonuses[bonus.colour] += bonus.amount / BONUS_SCALE
            give = pool.exchange.give if pool.exchange is not None else (0, 0, 0)
            get = pool.exchange.get if pool.exchange is not None else (0, 0, 0)
            exchanged = pool.available_exchanged or (0, 0, 0)
            dice = np.array(
                [
                    *(c / DICE_SCALE for c in pool.rollable),
                    *fixed,
                    *(c / DICE_SCALE for c in pool.available),
                    *bonuses,
                    *(c / COST_SCALE for c in give),
                    *(c / COST_SCALE for c in get),
                    *(c / DICE_SCALE for c in exchanged),
                ],
                dtype=np.float32,
            )
            static = np.concatenate([self._expansion_table[ps.slots].ravel(), dice])
            np.minimum(static, self._static_high, out=static)
            # Many company boards give the same dice: the odds depend on the pool's value only.
            pool_value = (
                pool.rollable,
                pool.fixed,
                pool.available,
                pool.engine_bonuses,
                pool.exchange,
                pool.rollable_exchanged,
                pool.fixed_exchanged,
                pool.available_exchanged,
            )
            if len(self._pool_memo) > _MEMO_LIMIT:
                # Pool ids name odds contexts: forget both together, never one alone.
                self._pool_memo.clear()
                self._pool_values.clear()
                self._odds_memo.clear()
                self._last_odds = [None] * self.num_players
                self._last_pool = [None] * self.num_players
            pool_id = self._pool_values.setdefault(pool_value, len(self._pool_values))
            info = self._pool_memo[key] = (static, pool_id)
        self._last_pool[player] = (state.era, ps.slots.copy(), info)
        return info

    # -- blocks ----------------------------------------------------------------------------
    def _company_dynamic(
        self, state: GameState, player: int, hindenburg: tuple[int, ...]
    ) -> np.ndarray:
        """The changing part of a company block: chips, airships, phases, score (E2, E3)."""
        ps = state.players[player]
        last = self._last_players[player]
        if (
            last is not None
            and last[2] == ps.airships
            and last[3] == ps.slots
            and (last[4] == hindenburg)
        ):
            if last[0] == ps.chips_on_board and last[1] == ps.chips_supply:
                return last[6]
            values = last[5].copy()  # only chips moved: the score is unchanged
        else:
            values = [0.0] * self._dynamic_size
            for airship in ps.airships:
                values[2 + airship] = 1.0
            at = 2 + NUM_AIRSHIPS
            phases = hindenburg.count(player)
            values[at] = phases / HINDENBURG_PHASE_COUNT
            parts = _rules.score_parts(state, player)
            expansions, airships, phase_points = (
                parts["expansions"],
                parts["airships"],
                parts["hindenburg"],
            )
            values[at + 1] = min((expansions + airships + phase_points) / SCORE_SCALE, _OPEN_HIGH)
            values[at + 2] = min(expansions / SCORE_SCALE, _OPEN_HIGH)
            values[at + 3] = min(airships / SCORE_SCALE, _OPEN_HIGH)
            values[at + 4] = min(phase_points / SCORE_SCALE, _OPEN_HIGH)
            values[at + 5] = min((len(ps.airships) + phases) / TIE_BREAK_SCALE, _OPEN_HIGH)
        values[0] = min(ps.chips_on_board / CHIP_SCALE, _OPEN_HIGH)
        values[1] = min(ps.chips_supply / CHIP_SCALE, _OPEN_HIGH)
        block = np.array(values, dtype=np.float32)
        self._last_players[player] = (
            ps.chips_on_board,
            ps.chips_supply,
            ps.airships.copy(),
            ps.slots.copy(),
            hindenburg,
            values,
            block,
        )
        return block

    def _hindenburg_block(
        self, state: GameState, seat: int, hindenburg: tuple[int, ...]
    ) -> np.ndarray:
        """The four phases: available, completed, holder (relative), cost, values."""
        key = (hindenburg, state.hindenburg_open, seat, self._options_id(state.options))
        block = self._hindenburg_memo.get(key)
        if block is None:
            n = self.num_players
            size = self._phase_size
            block = np.zeros(HINDENBURG_PHASE_COUNT * size, dtype=np.float32)
            for phase, holder in enumerate(hindenburg):
                start = phase * size
                if holder != EMPTY:
                    block[start + 1] = 1.0
                    block[start + 2 + (holder - seat) % n] = 1.0
                elif (
                    state.hindenburg_open
                    and _rules.target_card(state, FIRST_PHASE_TARGET + phase) is not None
                ):
                    block[start] = 1.0
                block[start + 2 + n : start + size] = self._phase_static[phase]
            if len(self._hindenburg_memo) > _MEMO_LIMIT:
                self._hindenburg_memo.clear()
            self._hindenburg_memo[key] = block
        return block

    def _fill_odds(
        self, state: GameState, seat: int, table: np.ndarray, known: set[int], rows: list[int]
    ) -> None:
        """Fill the missing rows of an odds table with the engine's ``attempt_odds``.

        The engine's answers are memoised on the values ``attempt_odds`` reads, as the engine's
        own helpers give them, because exact odds are costly and many company boards share
        them: eligibility (T2) on the dice available for the attempt (``Pool.available``, or
        ``available_exchanged``, None when no exchange is possible) and the cost; the odds of
        an eligible attempt on the dice it rolls and keeps (``attempt_shape``), the target
        number, the Engine bonus (``engine_bonus``) and the wooden airship. Chips are left
        out: ``success`` and ``chip_decides`` do not depend on them. A test compares the
        result with direct ``attempt_odds`` calls.
        """
        pool = _rules.player_pool(state, seat)
        wooden = state.wooden_airship == seat
        eligible_memo = _ELIGIBLE_MEMO
        dice_memo = _DICE_MEMO
        class_cost = self._class_cost
        for target, row in enumerate(rows):
            if row in known:
                continue
            cost, needed = class_cost[row]
            values: list[float] = []
            for exchange, available in ((False, pool.available), (True, pool.available_exchanged)):
                eligible_key = (available, cost)
                eligible = eligible_memo.get(eligible_key)
                if eligible is False:
                    values += (0.0, 0.0, 0.0)
                    continue
                odds_key: tuple[object, ...] | None = None
                if eligible:
                    odds_key = (
                        _rules.attempt_shape(pool, cost, exchange),
                        needed,
                        _rules.engine_bonus(state, pool, cost),
                        wooden,
                    )
                    known_odds = dice_memo.get(odds_key)
                    if known_odds is not None:
                        values += (1.0, *known_odds)
                        continue
                odds = _rules.attempt_odds(state, target, exchange, seat)
                if len(eligible_memo) > _DICE_MEMO_LIMIT or len(dice_memo) > _DICE_MEMO_LIMIT:
                    eligible_memo.clear()
                    dice_memo.clear()
                eligible_memo[eligible_key] = odds is not None
                if odds is None:
                    values += (0.0, 0.0, 0.0)
                    continue
                if odds_key is None:
                    odds_key = (
                        _rules.attempt_shape(pool, cost, exchange),
                        needed,
                        _rules.engine_bonus(state, pool, cost),
                        wooden,
                    )
                dice_memo[odds_key] = (odds.success, odds.chip_decides)
                values += (1.0, odds.success, odds.chip_decides)
            table[row] = values
            known.add(row)

    def _target_rows(self, state: GameState, targets_key: tuple[object, ...]) -> list[int]:
        """The odds-table row (target class) of each of the 26 targets, kept while the board,
        the stack tops and the Hindenburg stay the same (``targets_key``)."""
        last = self._last_rows
        if last is not None and last[0] == targets_key:
            return last[1]
        none = self._no_target
        expansion_class = self._expansion_class
        airship_class = self._airship_class
        rows = [expansion_class[card] for card in state.board]
        rows += [airship_class[stack[-1]] if stack else none for stack in state.stacks]
        if state.hindenburg_open:
            phase_class = self._phase_class
            rows += [
                phase_class[phase]
                if _rules.target_card(state, FIRST_PHASE_TARGET + phase) is not None
                else none
                for phase in range(HINDENBURG_PHASE_COUNT)
            ]
        else:
            rows += [none] * HINDENBURG_PHASE_COUNT
        self._last_rows = (targets_key, rows)
        return rows

    def _odds_block(
        self, state: GameState, seat: int, targets_key: tuple[object, ...]
    ) -> np.ndarray:
        """eligible, success, chip decides for every attempt action of ``seat``, interleaved."""
        # Everything the odds depend on besides the target's card: the pool, the wooden
        # airship's bonus, the rules options (see _fill_odds).
        context = (
            self._pool_info(state, seat)[1],
            state.wooden_airship == seat,
            self._options_id(state.options),
        )
        rows = self._target_rows(state, targets_key)
        last = self._last_odds[seat]
        if last is not None and last[0] == context and last[1] is rows:
            return last[2]
        entry = self._odds_memo.get(context)
        if entry is None:
            if len(self._odds_memo) > _MEMO_LIMIT:
                self._odds_memo.clear()
            table = np.zeros((self._no_target + 1, 2 * _ODDS_PER_ACTION), dtype=np.float32)
            entry = self._odds_memo[context] = (table, {self._no_target})
        table, known = entry
        if not known.issuperset(rows):
            self._fill_odds(state, seat, table, known, rows)
        block = table.take(rows, axis=0).ravel()
        self._last_odds[seat] = (context, rows, block)
        return block

    def _pending_block(self, state: GameState) -> np.ndarray:
        """The roll a chip decision is about (public: everybody saw it)."""
        pending = state.pending
        if pending is None:
            return self._no_pending
        at = self._pending_at
        block = np.zeros(self._pending_size, dtype=np.float32)
        block[at["pending.active"]] = 1.0
        block[at["pending.target"] + pending.target] = 1.0
        block[at["pending.exchange"]] = float(pending.exchange)
        block[at["pending.dice_sum"]] = pending.dice_sum / TARGET_SCALE
        block[at["pending.bonus"]] = (pending.total - pending.dice_sum) / PENDING_BONUS_SCALE
        block[at["pending.total"]] = pending.total / TARGET_SCALE
        block[at["pending.needed"]] = pending.needed / TARGET_SCALE
        for colour in range(3):
            faces = sorted(pending.rolled[colour], reverse=True)[:MAX_DICE_ROLLED]
            rolled = at["pending.rolled"] + MAX_DICE_ROLLED * colour
            for i, face in enumerate(faces):
                block[rolled + i] = face / FACE_SCALE
            block[at["pending.kept"] + colour] = sum(pending.kept[colour]) / TARGET_SCALE
        return np.minimum(block, self._pending_high)

    # -- the vector ------------------------------------------------------------------------
    def encode(self, state: GameState, seat: int) -> np.ndarray:
        """A fresh float32 vector of ``state`` seen by ``seat``."""
        n = self.num_players
        if state.num_players != n:
            raise ValueError(f"this encoder is for {n} players, the state has {state.num_players}")
        if state.cards is not self.cards and state.cards.digest != self.cards.digest:
            raise ValueError("the state uses another card set than this encoder")
        if not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1}, got {seat!r}")
        # -- global values: era .. passed (small, rebuilt every time) -----------------------
        head = np.zeros(self._head_size, dtype=np.float32)
        head[0] = state.era - 1
        head[1] = min(len(state.deck) / DECK_SCALE, 1.0)
        head[2] = min(state.turn / TURN_SCALE, _TURN_HIGH)
        at = 3
        head[at + state.phase] = 1.0
        at += len(PHASE_NAMES)
        head[at + (state.current_player - seat) % n] = 1.0
        at += n
        holder = state.wooden_airship
        head[at + ((holder - seat) % n if holder != EMPTY else n)] = 1.0
        at += n + 1
        if state.hindenburg_open:
            head[at] = 1.0
        at += 1
        passed = state.passed_mask
        if passed:
            for p in range(n):
                if passed >> p & 1:
                    head[at + (p - seat) % n] = 1.0
        blocks = [head]
        # -- cards that left the game, main board, airship stacks --------------------------
        removed = tuple(state.removed)
        last_removed = self._last_removed
        if last_removed is None or last_removed[0] != removed:
            block = np.zeros(NUM_EXPANSIONS, dtype=np.float32)
            block[list(removed)] = 1.0
            last_removed = self._last_removed = (removed, block)
        blocks.append(last_removed[1])
        board = tuple(state.board)
        last_board = self._last_board
        if last_board is None or last_board[0] != board:
            last_board = self._last_board = (board, self._expansion_table[state.board].ravel())
        blocks.append(last_board[1])
        stack_1, stack_2, stack_3, stack_4 = state.stacks  # AIRSHIP_STACKS = 4
        stacks = (
            len(stack_1),
            stack_1[-1] if stack_1 else EMPTY,
            len(stack_2),
            stack_2[-1] if stack_2 else EMPTY,
            len(stack_3),
            stack_3[-1] if stack_3 else EMPTY,
            len(stack_4),
            stack_4[-1] if stack_4 else EMPTY,
        )
        last_stacks = self._last_stacks
        if last_stacks is None or last_stacks[0] != stacks:
            block = np.zeros(AIRSHIP_STACKS * (1 + AIRSHIP_SIZE), dtype=np.float32)
            for stack_index in range(AIRSHIP_STACKS):
                height, top = stacks[2 * stack_index], stacks[2 * stack_index + 1]
                start = stack_index * (1 + AIRSHIP_SIZE)
                block[start] = min(height / STACK_HEIGHT_SCALE, _OPEN_HIGH)
                block[start + 1 : start + 1 + AIRSHIP_SIZE] = self._airship_table[top]
            last_stacks = self._last_stacks = (stacks, block)
        blocks.append(last_stacks[1])
        # -- Hindenburg, company boards (self first), odds, pending roll --------------------
        hindenburg = tuple(state.hindenburg)
        blocks.append(self._hindenburg_block(state, seat, hindenburg))
        companies = self._last_companies
        for relative in range(n):
            player = (seat + relative) % n
            static = self._pool_info(state, player)[0]
            dynamic = self._company_dynamic(state, player, hindenburg)
            last = companies[player]
            if last is None or last[0] is not static or last[1] is not dynamic:
                last = companies[player] = (static, dynamic, np.concatenate([static, dynamic]))
            blocks.append(last[2])
        targets_key = (
            board,
            stacks,
            hindenburg,
            state.hindenburg_open,
            self._options_id(state.options),
        )
        blocks.append(self._odds_block(state, seat, targets_key))
        blocks.append(self._pending_block(state))
        return np.concatenate(blocks)


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
