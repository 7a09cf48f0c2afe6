"""The game state: plain typed data, a cheap ``clone()`` and an exact dict/JSON round trip.

Copy policy: ``clone()`` copies the mutable containers (lists of ints, the player records) and
shares everything immutable (the card set, the options, cached dice pools, the pending roll).
It never deep-copies. The random generator is copied with its exact state unless the caller
passes another one, so a clone continues the same game unless told otherwise.

Conventions: cards are integer indices into the :class:`CardSet`; ``-1`` is an empty place.
The deck is a list whose *last* element is the top card; each airship stack lists its cards
from the bottom up. All rules live in :mod:`airships_env.engine.rules`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from airships_env.engine.cards import (
    DEPARTMENTS,
    CardSet,
    DiceCounts,
    EngineBonus,
    Exchange,
    load_cards,
)
from airships_env.engine.dice import AttemptShape

STATE_FORMAT = 1

CHOOSE_TARGET, CHIP_DECISION, EXTRA_TURN, GAME_OVER = range(4)
PHASE_NAMES: tuple[str, ...] = ("choose target", "chip decision", "extra turn", "game over")

EMPTY = -1
CHANGE_OF_ERA = -2  # the Change of Era card in the deck
CHANGE_OF_ERA_ID = "change-of-era"

CHIPS_PER_PLAYER = 6
EXTRA_TURN_PRICE = 3


@dataclass(frozen=True, slots=True)
class RulesOptions:
    """Switches for the rulings of RULES.md marked [ruling] and for the ones this project added.

    The defaults are the rules as written in RULES.md.
    """

    # T1: after the Change of Era card, no replacement card is revealed.
    reveal_after_change_of_era: bool = False
    # H1: the Hindenburg's phases may be completed in any order (False: phase 1, 2, 3, 4).
    hindenburg_any_order: bool = True
    # T5: an Engine bonus of a colour applies when the cost asks for that colour.
    engine_bonus_needs_cost_colour: bool = True
    # Added ruling: the airship that empties a stack still brings the wooden airship; the
    # Hindenburg opens after that acquisition (False: it opens first, H3 keeps the token).
    wooden_airship_with_opening_airship: bool = True
    # Added ruling E4: with the deck empty, once every player has passed (no eligible target)
    # since the last attempt, nothing can change any more, and the game ends.
    stalemate_ends_game: bool = True

    def to_dict(self) -> dict[str, bool]:
        """The options as a plain dict."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RulesOptions:
        """Options from a dict; unknown keys are an error."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown rules option(s) {unknown}; known: {sorted(known)}")
        return cls(**data)


@dataclass(slots=True)
class Pool:
    """A player's dice, derived from its entrepreneur side and its expansions (cached).

    ``available`` counts rollable plus fixed dice per colour (T2); the ``*_exchanged`` fields are
    the same after the Materials exchange (T3), or None when the player cannot make it.
    """

    rollable: DiceCounts
    fixed: tuple[tuple[int, int], ...]  # (colour, value)
    available: DiceCounts
    engine_bonuses: tuple[EngineBonus, ...]
    exchange: Exchange | None
    rollable_exchanged: DiceCounts | None
    fixed_exchanged: tuple[tuple[int, int], ...] | None
    available_exchanged: DiceCounts | None
    shapes: dict[tuple[DiceCounts, bool], AttemptShape] = field(default_factory=dict, repr=False)
    # keyed by (cost, RulesOptions.engine_bonus_needs_cost_colour)
    engine_bonus_by_cost: dict[tuple[DiceCounts, bool], int] = field(
        default_factory=dict, repr=False
    )


@dataclass(frozen=True, slots=True)
class PendingAttempt:
    """A roll that misses by exactly 1 while the player holds a chip: it decides (T5)."""

    target: int
    exchange: bool
    needed: int
    rolled: tuple[tuple[int, ...], ...]
    kept: tuple[tuple[int, ...], ...]
    dice_sum: int
    bonuses: tuple[tuple[str, int], ...]
    total: int


@dataclass(slots=True)
class PlayerState:
    """One company: its department slots, airship pile and chips."""

    slots: list[int]  # expansion index per department, EMPTY if none
    airships: list[int]  # in the order acquired; the last is on top of the pile
    chips_on_board: int
    chips_supply: int
    pool: Pool | None = None  # cache, derived from slots and era; never serialised

    def clone(self) -> PlayerState:
        """A copy sharing only immutable parts."""
        return PlayerState(
            self.slots.copy(),
            self.airships.copy(),
            self.chips_on_board,
            self.chips_supply,
            self.pool,
        )


@dataclass(slots=True)
class GameState:
    """Everything about one game in progress. Hidden parts: ``deck``, the cards under each
    stack's top, ``left_out`` and the generator (RULES V2)."""

    cards: CardSet
    options: RulesOptions
    num_players: int
    players: list[PlayerState]
    era: int
    deck: list[int]
    board: list[int]
    stacks: list[list[int]]
    left_out: list[int]
    removed: list[int]  # expansions that left the game, in order (public, V1)
    hindenburg: list[int]  # the player who completed each phase, EMPTY if open
    hindenburg_open: bool
    wooden_airship: int
    current_player: int
    phase: int
    pending: PendingAttempt | None
    turn: int
    step: int
    passed_mask: int  # players who passed since the last attempt or reveal (E4)
    final_scores: tuple[int, ...] | None
    winners: tuple[int, ...] | None
    rng: np.random.Generator | None
    is_public_view: bool = False
    legal_cache: list[int] | None = None

    # -- convenience, the OpenSpiel vocabulary ---------------------------------------------
    def legal_actions(self) -> list[int]:
        """The legal action indices, sorted (a fresh list)."""
        return _rules.legal_actions(self)

    def apply_action(
        self, action: int, dice: tuple[tuple[int, ...], ...] | None = None
    ) -> _records.ActionRecord:
        """Apply an action and return its record; see :func:`rules.apply_action`."""
        return _rules.apply_action(self, action, dice)

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.phase == GAME_OVER

    def phase_name(self) -> str:
        """The readable name of the current phase."""
        return PHASE_NAMES[self.phase]

    # -- copies ---------------------------------------------------------------------------
    def clone(self, rng: np.random.Generator | None = None, *, with_rng: bool = True) -> GameState:
        """A cheap independent copy; ``rng`` replaces the generator (else its state is copied).

        ``with_rng=False`` gives a copy without a generator (a public view's).
        """
        if not with_rng:
            rng = None
        elif rng is None and self.rng is not None:
            rng = copy_generator(self.rng)
        return GameState(
            self.cards,
            self.options,
            self.num_players,
            [p.clone() for p in self.players],
            self.era,
            self.deck.copy(),
            self.board.copy(),
            [s.copy() for s in self.stacks],
            self.left_out.copy(),
            self.removed.copy(),
            self.hindenburg.copy(),
            self.hindenburg_open,
            self.wooden_airship,
            self.current_player,
            self.phase,
            self.pending,
            self.turn,
            self.step,
            self.passed_mask,
            self.final_scores,
            self.winners,
            rng,
            self.is_public_view,
            None,
        )

    # -- plain data -----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict with card ids; :meth:`from_dict` restores the identical state."""
        cards = self.cards
        exp = [e.id for e in cards.expansions]
        air = [a.id for a in cards.airships]

        def expansion_id(index: int) -> str | None:
            if index == EMPTY:
                return None
            return CHANGE_OF_ERA_ID if index == CHANGE_OF_ERA else exp[index]

        pending = None
        if self.pending is not None:
            p = self.pending
            pending = {
                "target": p.target,
                "exchange": p.exchange,
                "needed": p.needed,
                "rolled": [list(v) for v in p.rolled],
                "kept": [list(v) for v in p.kept],
                "dice_sum": p.dice_sum,
                "bonuses": [list(b) for b in p.bonuses],
                "total": p.total,
            }
        return {
            "format": STATE_FORMAT,
            "cards": {"name": cards.name, "digest": cards.digest, "path": cards.path},
            "options": self.options.to_dict(),
            "num_players": self.num_players,
            "players": [
                {
                    "slots": {DEPARTMENTS[d]: expansion_id(c) for d, c in enumerate(p.slots)},
                    "airships": [air[a] for a in p.airships],
                    "chips_on_board": p.chips_on_board,
                    "chips_supply": p.chips_supply,
                }
                for p in self.players
            ],
            "era": self.era,
            "deck": [expansion_id(c) for c in self.deck],
            "board": [expansion_id(c) for c in self.board],
            "stacks": [[air[a] for a in s] for s in self.stacks],
            "left_out": [air[a] for a in self.left_out],
            "removed": [exp[c] for c in self.removed],
            "hindenburg": list(self.hindenburg),
            "hindenburg_open": self.hindenburg_open,
            "wooden_airship": self.wooden_airship,
            "current_player": self.current_player,
            "phase": PHASE_NAMES[self.phase],
            "pending": pending,
            "turn": self.turn,
            "step": self.step,
            "passed_mask": self.passed_mask,
            "final_scores": None if self.final_scores is None else list(self.final_scores),
            "winners": None if self.winners is None else list(self.winners),
            "rng": None if self.rng is None else self.rng.bit_generator.state,
            "is_public_view": self.is_public_view,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], cards: CardSet | None = None) -> GameState:
        """Rebuild a state from :meth:`to_dict` output (with the same card set)."""
        if data.get("format") != STATE_FORMAT:
            raise ValueError(
                f"unsupported state format {data.get('format')!r} "
                f"(this version reads format {STATE_FORMAT})"
            )
        if cards is None:
            cards = load_cards(None)
            if cards.digest != data["cards"]["digest"]:
                cards = load_cards(data["cards"]["path"])
        if cards.digest != data["cards"]["digest"]:
            raise ValueError(
                f"the state was made with card set {data['cards']['name']!r} "
                f"(sha256 {data['cards']['digest'][:12]}), not with {cards.path} "
                f"(sha256 {cards.digest[:12]})"
            )
        exp = cards.expansion_index
        air = cards.airship_index

        def expansion_index(card_id: str | None) -> int:
            if card_id is None:
                return EMPTY
            return CHANGE_OF_ERA if card_id == CHANGE_OF_ERA_ID else exp[card_id]

        pending = None
        if data["pending"] is not None:
            p = data["pending"]
            pending = PendingAttempt(
                p["target"],
                p["exchange"],
                p["needed"],
                tuple(tuple(v) for v in p["rolled"]),
                tuple(tuple(v) for v in p["kept"]),
                p["dice_sum"],
                tuple((str(b[0]), int(b[1])) for b in p["bonuses"]),
                p["total"],
            )
        rng = None
        if data["rng"] is not None:
            bit_generator = getattr(np.random, data["rng"]["bit_generator"])()
            bit_generator.state = data["rng"]
            rng = np.random.Generator(bit_generator)
        return cls(
            cards=cards,
            options=RulesOptions.from_dict(data["options"]),
            num_players=data["num_players"],
            players=[
                PlayerState(
                    slots=[expansion_index(p["slots"][d]) for d in DEPARTMENTS],
                    airships=[air[a] for a in p["airships"]],
                    chips_on_board=p["chips_on_board"],
                    chips_supply=p["chips_supply"],
                )
                for p in data["players"]
            ],
            era=data["era"],
            deck=[expansion_index(c) for c in data["deck"]],
            board=[expansion_index(c) for c in data["board"]],
            stacks=[[air[a] for a in s] for s in data["stacks"]],
            left_out=[air[a] for a in data["left_out"]],
            removed=[exp[c] for c in data["removed"]],
            hindenburg=list(data["hindenburg"]),
            hindenburg_open=data["hindenburg_open"],
            wooden_airship=data["wooden_airship"],
            current_player=data["current_player"],
            phase=PHASE_NAMES.index(data["phase"]),
            pending=pending,
            turn=data["turn"],
            step=data["step"],
            passed_mask=data["passed_mask"],
            final_scores=None if data["final_scores"] is None else tuple(data["final_scores"]),
            winners=None if data["winners"] is None else tuple(data["winners"]),
            rng=rng,
            is_public_view=data.get("is_public_view", False),
        )


# Seeding a bit generator from a prepared SeedSequence is ~5x cheaper than from OS entropy; its
# state is overwritten at once, so this seed never influences anything.
_PROTOTYPE_SEED = np.random.SeedSequence(0)


def copy_generator(rng: np.random.Generator) -> np.random.Generator:
    """An independent generator in exactly the same state."""
    bit_generator = type(rng.bit_generator)(_PROTOTYPE_SEED)
    bit_generator.state = rng.bit_generator.state
    return np.random.Generator(bit_generator)


# Late imports: the rules and records modules use GameState; the methods above delegate to them.
from airships_env.engine import records as _records  # noqa: E402
from airships_env.engine import rules as _rules  # noqa: E402
