"""What the native wrappers of the new games share (:mod:`airships_env.native.clockwork`,
:mod:`airships_env.native.australia`): one game in the core with the Python engine's
vocabulary.

A subclass names its game's ``PHASE_NAMES`` and ``OVER`` phase and writes what differs: how a
game is dealt (``new``), imported (``from_state``), exported (``to_state``) and how an action's
record reads (``apply_action``). Everything else (the seat to act, the phase, the legal actions,
copies, pickling, the outcome) is here once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from airships_env.chance import check_seed
from airships_env.protocol import IllegalActionError, Outcome, as_action_index

__all__ = ["NativeTable", "deal_generator"]


def deal_generator(seed: int | None, rng: np.random.Generator | None) -> np.random.Generator:
    """The generator a game is dealt from: ``rng``, or ``default_rng(seed)`` (not both)."""
    if rng is not None and seed is not None:
        raise ValueError("pass either seed or rng, not both")
    return rng if rng is not None else np.random.default_rng(check_seed(seed))


class NativeTable:
    """One game in the native core: the core's object, the data it was dealt with and the rules
    options (see the module)."""

    __slots__ = ("_game", "data", "options")

    #: The game's phase names, by the core's phase numbers, the phase of a finished game, and
    #: the action names (the engine's table).
    PHASE_NAMES: ClassVar[Sequence[str]]
    OVER: ClassVar[int]
    ACTION_NAMES: ClassVar[Sequence[str]]

    def __init__(self, game: Any, data: Any, options: Any):
        self._game = game
        self.data = data
        self.options = options

    @classmethod
    def from_state(cls, state: Any) -> Any:
        """The same game in the core (generator state included)."""
        raise NotImplementedError

    def to_state(self) -> Any:
        """The game as the Python engine's state (equal ``to_dict()``)."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        """The game as the engine's dict (``State.to_dict``)."""
        result: dict[str, Any] = self.to_state().to_dict()
        return result

    def clone(self) -> Any:
        """An independent copy (a memcpy in the core)."""
        return type(self)(self._game.clone(), self.data, self.options)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickles (and deep-copies) as its Python state."""
        return (type(self).from_state, (self.to_state(),))

    # -- the OpenSpiel vocabulary ----------------------------------------------------------
    @property
    def current_player(self) -> int:
        """The seat to act."""
        return int(self._game.current_player)

    @property
    def num_players(self) -> int:
        """The number of players."""
        return int(self._game.num_players)

    @property
    def phase(self) -> int:
        """The phase (an index of ``PHASE_NAMES``)."""
        return int(self._game.phase)

    @property
    def phase_name(self) -> str:
        """The phase as words."""
        return self.PHASE_NAMES[self.phase]

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.phase == self.OVER

    def legal_actions(self) -> list[int]:
        """The legal action indices, sorted (a fresh list)."""
        return list(self._game.legal_actions())

    def apply_raw(self, action: object) -> Any:
        """Apply a legal action in the core and return the core's record; an illegal action
        (or not an action index) raises the engine's IllegalActionError naming the action as
        it was given and the legal ones, changing nothing."""
        index = as_action_index(action)
        if index is None:
            self._refuse(action, "not an action index")
        try:
            return self._game.apply(index)
        except IllegalActionError as refused:
            if action is index:
                raise
            self._refuse(action, refused.why)

    def _refuse(self, action: object, why: str) -> None:
        legal = self.legal_actions()
        why = "the game is over" if self.is_terminal() else why
        names = [self.ACTION_NAMES[a] for a in legal]
        raise IllegalActionError(action, self.phase_name, legal, names, why)

    def outcome(self) -> Outcome | None:
        """Scores, winners and places once the game is over; None before."""
        if not self.is_terminal():
            return None
        result: Outcome | None = self.to_state().outcome()
        return result

    @property
    def handle(self) -> Any:
        """The core's game object."""
        return self._game
