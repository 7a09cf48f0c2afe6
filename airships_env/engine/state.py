"""The game state: plain typed data, a cheap ``clone()`` and an exact dict/JSON round trip.

Copy policy: ``clone()`` copies the mutable containers (lists of ints, the player records) and
shares everything immutable (the card set, the options, the pending roll). It never deep-copies.
The random generator is copied with its exact state unless the caller passes another one, so a
clone continues the same game unless told otherwise.

Conventions: cards are integer indices into the :class:`CardSet`; ``-1`` is an empty place.
The deck is a list whose *last* element is the top card; each airship stack lists its cards
from the bottom up. The rules live in :mod:`airships_env.engine.rules` (the methods below call
into it; that module needs this one only for type hints, so there is no import cycle) and the
setup in :mod:`airships_env.engine.game`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from airships_env.chance import copy_generator as copy_generator  # re-exported
from airships_env.chance import generator_from_state
from airships_env.engine import rules as _rules
from airships_env.engine import view as _view
from airships_env.engine.cards import DEPARTMENTS, CardSet, default_cards, load_cards
from airships_env.engine.model import (
    CHANGE_OF_ERA,
    CHANGE_OF_ERA_ID,
    CHIP_DECISION,
    CHIPS_PER_PLAYER,
    CHOOSE_TARGET,
    EMPTY,
    EXTRA_TURN,
    EXTRA_TURN_PRICE,
    GAME_OVER,
    PHASE_NAMES,
    PendingAttempt,
    PlayerState,
    RulesOptions,
)
from airships_env.engine.records import ActionRecord
from airships_env.protocol import Outcome

STATE_FORMAT = 2  # 2: Rules v1 (exchange variants, T3)

__all__ = [
    "CHANGE_OF_ERA",
    "CHANGE_OF_ERA_ID",
    "CHIPS_PER_PLAYER",
    "CHIP_DECISION",
    "CHOOSE_TARGET",
    "EMPTY",
    "EXTRA_TURN",
    "EXTRA_TURN_PRICE",
    "GAME_OVER",
    "PHASE_NAMES",
    "STATE_FORMAT",
    "GameState",
    "PendingAttempt",
    "PlayerState",
    "RulesOptions",
    "copy_generator",
]


@dataclass(slots=True)
class GameState:
    """Everything about one game in progress. Hidden parts: ``deck``, the cards under each
    stack's top, ``left_out`` and the generator (docs/airships/RULES.md V2)."""

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
    legal_cache: list[int] | None = None  # the legal actions, until the next action

    # -- the OpenSpiel vocabulary ---------------------------------------------------------
    def legal_actions(self) -> list[int]:
        """The legal action indices, sorted (a fresh list)."""
        return _rules.legal_actions(self)

    def apply_action(
        self, action: int, dice: tuple[tuple[int, ...], ...] | None = None
    ) -> ActionRecord:
        """Apply an action and return its record; see :func:`rules.apply_action`."""
        return _rules.apply_action(self, action, dice)

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.phase == GAME_OVER

    def outcome(self) -> Outcome | None:
        """Scores, winners (E3) and places once the game is over; None before."""
        return _rules.outcome(self)

    def view(self, seat: int) -> GameState:
        """What ``seat`` may see: the public view (V1; Airships hides nothing from one seat
        only, so every seat's view is the same)."""
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)):
            raise TypeError(f"a seat is an integer, got {type(seat).__name__}")
        if not 0 <= seat < self.num_players:
            raise ValueError(f"no seat {seat} in a {self.num_players}-player game")
        return _view.public_view(self)

    def determinize(self, rng: np.random.Generator) -> GameState:
        """A playable state with the hidden cards re-dealt from ``rng`` (see
        :func:`airships_env.engine.determinize`)."""
        return _view.determinize(self, rng)

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
            cards=self.cards,
            options=self.options,
            num_players=self.num_players,
            players=[p.clone() for p in self.players],
            era=self.era,
            deck=self.deck.copy(),
            board=self.board.copy(),
            stacks=[s.copy() for s in self.stacks],
            left_out=self.left_out.copy(),
            removed=self.removed.copy(),
            hindenburg=self.hindenburg.copy(),
            hindenburg_open=self.hindenburg_open,
            wooden_airship=self.wooden_airship,
            current_player=self.current_player,
            phase=self.phase,
            pending=self.pending,
            turn=self.turn,
            step=self.step,
            passed_mask=self.passed_mask,
            final_scores=self.final_scores,
            winners=self.winners,
            rng=rng,
            is_public_view=self.is_public_view,
            legal_cache=None,
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

        return {
            "format": STATE_FORMAT,
            # The default set is found by its digest, so its path (which depends on where the
            # package is installed) is not written: a log replays in any checkout.
            "cards": {
                "name": cards.name,
                "digest": cards.digest,
                "path": None if cards.digest == default_cards().digest else cards.path,
            },
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
            "pending": None if self.pending is None else self.pending.to_dict(),
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
                f"(this version reads format {STATE_FORMAT}; format 1 was written before "
                f"Rules v1 changed the action table)"
            )
        if cards is None:
            cards = load_cards(None)
            if cards.digest != data["cards"]["digest"]:
                if data["cards"]["path"] is None:
                    raise ValueError(
                        f"the state was made with the default card set of another version "
                        f"(sha256 {data['cards']['digest'][:12]}), not this one "
                        f"(sha256 {cards.digest[:12]})"
                    )
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

        rng = None if data["rng"] is None else generator_from_state(data["rng"])
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
            pending=None if data["pending"] is None else PendingAttempt.from_dict(data["pending"]),
            turn=data["turn"],
            step=data["step"],
            passed_mask=data["passed_mask"],
            final_scores=None if data["final_scores"] is None else tuple(data["final_scores"]),
            winners=None if data["winners"] is None else tuple(data["winners"]),
            rng=rng,
            is_public_view=data.get("is_public_view", False),
        )
