"""The game state: plain integers and lists (a native core is a translation), one copy policy.

Copy policy: :meth:`State.clone` copies every mutable list (nested ones too) and the generator's
state by hand, never ``deepcopy``; the data and options are frozen and shared.

Layout (docs/clockwork/RULES.md): cards are counted by type (14 types, ``data.TYPE_IDS``).
``hands[seat][type]`` counts, ``piles[k]`` lists types bottom to top, ``places[p]`` is the type
face down on place p or -1, ``pawns[seat]`` a field of the track, ``known[o][s][t]`` the lower
bound observer o holds of type t in s's hand (V2, K1-K2).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from airships_env.chance import copy_generator, generator_from_state, generator_state
from airships_env.games.clockwork.engine import rules as _rules
from airships_env.games.clockwork.engine import view as _view
from airships_env.games.clockwork.engine.data import ClockworkData, default_data, load_data
from airships_env.games.clockwork.engine.errors import LogError
from airships_env.games.clockwork.engine.model import (
    _OPTION_VALUES as _OPTION_VALUES,
)
from airships_env.games.clockwork.engine.model import (
    ACT as ACT,
)
from airships_env.games.clockwork.engine.model import (
    COUNTER as COUNTER,
)
from airships_env.games.clockwork.engine.model import (
    DEMAND as DEMAND,
)
from airships_env.games.clockwork.engine.model import (
    DISCARD as DISCARD,
)
from airships_env.games.clockwork.engine.model import (
    GIVE_BACK as GIVE_BACK,
)
from airships_env.games.clockwork.engine.model import (
    MOVE as MOVE,
)
from airships_env.games.clockwork.engine.model import (
    OVER as OVER,
)
from airships_env.games.clockwork.engine.model import (
    PHASE_NAMES as PHASE_NAMES,
)
from airships_env.games.clockwork.engine.model import (
    PLACE as PLACE,
)
from airships_env.games.clockwork.engine.model import (
    RESPOND as RESPOND,
)
from airships_env.games.clockwork.engine.model import (  # re-exported: the phases and options
    ROLL as ROLL,
)
from airships_env.games.clockwork.engine.model import (
    RulesOptions as RulesOptions,
)


@dataclass(slots=True)
class State:
    """One game of Escape from Clockwork City, true or as one seat sees it (``view_seat``)."""

    num_players: int
    data: ClockworkData
    options: RulesOptions
    hands: list[list[int]]
    laid_fm: list[int]  # the type laid, or -1 (W1)
    laid_cb: list[int]
    piles: list[list[int]]
    places: list[int]
    removed_scrap: int
    pawns: list[int]
    start_player: int
    current: int  # the seat whose turn it is
    actor: int  # the seat to act now (the opponent in a challenge)
    phase: int
    dice: list[int]  # [0, 0] before the roll
    turn: int  # turns begun, from 1
    step: int  # actions applied
    turn_start_field: int
    endgame: bool  # every pile was empty when this turn began (F1)
    challenge: list[int]  # [challenger, opponent, named type, stage 0/1], -1 when none
    seek_type: int  # R1's named type, -1 when none
    winner: int
    known: list[list[list[int]]]
    rng: np.random.Generator | None = field(default=None, repr=False)
    view_seat: int = -1  # -1: the true state; else the seat this view belongs to

    # The GameState protocol, delegated to the rules module.
    @property
    def current_player(self) -> int:
        """The seat to act."""
        return self.actor

    def legal_actions(self) -> list[int]:
        """The legal action indices, sorted (a fresh list)."""
        return _rules.legal_actions(self)

    def apply_action(self, action: int, *, dice: tuple[int, int] | None = None) -> Any:
        """Apply a legal action and return its frozen record (``dice``: force a roll)."""
        return _rules.apply_action(self, action, dice=dice)

    def apply_legal_action(self, action: int) -> Any:
        """``apply_action`` without its check: ``action`` comes from ``legal_actions()`` of this
        state, unchanged since (the generic environments check it against that list)."""
        return _rules.apply_legal_action(self, action)

    def is_terminal(self) -> bool:
        """True once the game is over (a winner, or W3's turn limit)."""
        return self.phase == OVER

    def outcome(self) -> Any:
        """Scores, winners and places once the game is over; None before."""
        return _rules.outcome(self)

    def view(self, seat: int) -> State:
        """What ``seat`` may see (V1-V4): hidden cards canonical, no generator."""
        return _view.view(self, seat)

    def determinize(self, rng: np.random.Generator) -> State:
        """A playable state, what the view hides re-dealt from ``rng`` consistently with it."""
        return _view.determinize(self, rng)

    @property
    def phase_name(self) -> str:
        """The phase as a word ('roll', 'move', ...)."""
        return PHASE_NAMES[self.phase]

    def hand_size(self, seat: int) -> int:
        """The number of cards in ``seat``'s hand (laid cards do not count, W1)."""
        return sum(self.hands[seat])

    def clone(self) -> State:
        """An independent copy: lists copied, the generator's state copied, frozen data shared."""
        return self.copy_without_generator(copy_generator(self.rng))

    def copy_without_generator(self, rng: np.random.Generator | None = None) -> State:
        """An independent copy of everything but the generator, which is ``rng`` (a view has
        none: copying the generator's state only to drop it cost a third of a view)."""
        return State(
            num_players=self.num_players,
            data=self.data,
            options=self.options,
            hands=[list(h) for h in self.hands],
            laid_fm=list(self.laid_fm),
            laid_cb=list(self.laid_cb),
            piles=[list(p) for p in self.piles],
            places=list(self.places),
            removed_scrap=self.removed_scrap,
            pawns=list(self.pawns),
            start_player=self.start_player,
            current=self.current,
            actor=self.actor,
            phase=self.phase,
            dice=list(self.dice),
            turn=self.turn,
            step=self.step,
            turn_start_field=self.turn_start_field,
            endgame=self.endgame,
            challenge=list(self.challenge),
            seek_type=self.seek_type,
            winner=self.winner,
            known=[[list(row) for row in rows] for rows in self.known],
            rng=rng,
            view_seat=self.view_seat,
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; :func:`state_from_dict` restores the identical state."""
        return {
            "game": "clockwork",
            "num_players": self.num_players,
            "data": {"path": self.data.path, "digest": self.data.digest},
            "options": self.options.to_dict(),
            "hands": [list(h) for h in self.hands],
            "laid_fm": list(self.laid_fm),
            "laid_cb": list(self.laid_cb),
            "piles": [list(p) for p in self.piles],
            "places": list(self.places),
            "removed_scrap": self.removed_scrap,
            "pawns": list(self.pawns),
            "start_player": self.start_player,
            "current": self.current,
            "actor": self.actor,
            "phase": self.phase,
            "dice": list(self.dice),
            "turn": self.turn,
            "step": self.step,
            "turn_start_field": self.turn_start_field,
            "endgame": self.endgame,
            "challenge": list(self.challenge),
            "seek_type": self.seek_type,
            "winner": self.winner,
            "known": [[list(row) for row in rows] for rows in self.known],
            "rng": generator_state(self.rng),
            "view_seat": self.view_seat,
        }


def state_from_dict(data: Any) -> State:
    """The state a :meth:`State.to_dict` wrote; a LogError names what is wrong."""
    try:
        if data.get("game") != "clockwork":
            raise LogError(f"not a Clockwork state: game = {data.get('game')!r}")
        source = data["data"]
        loaded = load_data(source["path"] or None) if source["path"] else default_data()
        if loaded.digest != source["digest"]:
            raise LogError(
                f"the state was saved with data {source['path'] or '(default)'} of digest "
                f"{source['digest']}, but that file now has digest {loaded.digest}"
            )
        rng = None if data["rng"] is None else generator_from_state(data["rng"])
        ints = lambda xs: [int(x) for x in xs]  # noqa: E731
        return State(
            num_players=int(data["num_players"]),
            data=loaded,
            options=RulesOptions.from_dict(dict(data["options"])),
            hands=[ints(h) for h in data["hands"]],
            laid_fm=ints(data["laid_fm"]),
            laid_cb=ints(data["laid_cb"]),
            piles=[ints(p) for p in data["piles"]],
            places=ints(data["places"]),
            removed_scrap=int(data["removed_scrap"]),
            pawns=ints(data["pawns"]),
            start_player=int(data["start_player"]),
            current=int(data["current"]),
            actor=int(data["actor"]),
            phase=int(data["phase"]),
            dice=ints(data["dice"]),
            turn=int(data["turn"]),
            step=int(data["step"]),
            turn_start_field=int(data["turn_start_field"]),
            endgame=bool(data["endgame"]),
            challenge=ints(data["challenge"]),
            seek_type=int(data["seek_type"]),
            winner=int(data["winner"]),
            known=[[ints(row) for row in rows] for rows in data["known"]],
            rng=rng,
            view_seat=int(data["view_seat"]),
        )
    except LogError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise LogError(f"not a valid Clockwork state ({exc!r})") from exc
