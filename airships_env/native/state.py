"""A game in a native core as the game protocol's state: the ``backend="native"`` of the new games.

:class:`NativeState` wraps one game of a native wrapper (a :class:`~airships_env.native.table.
NativeTable`: :class:`~airships_env.native.clockwork.NativeClockworkGame`, ``NativeAustraliaGame``,
``NativeNipponGame``) and answers the protocol's questions (:class:`~airships_env.protocol.
GameState`) so that every tool that plays a Python state plays it: the generic environments, the
bots, the arena, logs and the presenters. ``Game.new_state(..., backend="native")`` of Escape from
Clockwork City, Australia and Nippon returns one; it deals the same game from the same seed as the
Python engine, and the same actions give the same records, legal actions, observations, outcome
and state (``tests/conformance/test_backends.py``).

What runs in the core and what is converted:

- in the core: ``current_player``, ``legal_actions``, ``apply_action`` (the engine's records and
  its :class:`~airships_env.protocol.IllegalActionError`, naming the action and the legal ones,
  the game unchanged), ``is_terminal``, ``clone`` (a memcpy) and ``observe(seat)`` (the bytes of
  the game's encoder on the seat's view; the environments and ``Decision.for_game`` use it);
- ``view(seat)`` is the Python engine's view of the converted state: bots, the Python encoder
  and the presenters read its fields, and a view is what an agent is handed (a core's own view,
  Clockwork's, serves the core's search and is not this: it is not the engine's object);
- ``determinize(rng)`` (of the seat to act, as the engine's on a true state) runs in the core
  where it has one (Clockwork, Nippon: the engine's draws bit for bit), else on the converted state, and
  returns a native state either way;
- ``outcome``, ``to_dict`` and pickling go through :meth:`to_state`, the Python engine's state
  (``to_dict`` equal to the engine's, so logs and saved games do not depend on the backend);
- anything else of a Python state (its fields) is read from :meth:`to_state`: the games'
  presenters, ``evaluate`` and ``rollout_action`` do so (:func:`airships_env.gamekit.
  python_state`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from airships_env.protocol import Outcome

__all__ = ["NativeState"]


class NativeState:
    """One game in a native core with the protocol's vocabulary (see the module)."""

    __slots__ = ("table",)

    def __init__(self, table: Any):
        #: the native wrapper's game (its bots, search and batch helpers live there)
        self.table = table

    @classmethod
    def from_state(cls, state: Any, table_type: Any) -> NativeState:
        """The same game as a Python ``state`` (generator included) in the core of ``table_type``."""
        return cls(table_type.from_state(state))

    def to_state(self) -> Any:
        """The game as the Python engine's state (equal ``to_dict()``)."""
        return self.table.to_state()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickles (and deep-copies) as its Python state and the wrapper's class."""
        return (NativeState.from_state, (self.table.to_state(), type(self.table)))

    def __repr__(self) -> str:
        table = type(self.table).__name__
        return f"NativeState({table}, {self.num_players} players, phase {self.phase_name!r})"

    # -- the protocol, in the core ------------------------------------------------------------
    @property
    def num_players(self) -> int:
        """The number of players."""
        return int(self.table.num_players)

    @property
    def current_player(self) -> int:
        """The seat to act."""
        return int(self.table.current_player)

    @property
    def phase_name(self) -> str:
        """The phase as the engine names it."""
        return str(self.table.phase_name)

    def legal_actions(self) -> list[int]:
        """The legal action indices, sorted (a fresh list)."""
        legal: list[int] = self.table.legal_actions()
        return legal

    def apply_action(self, action: Any, **forced: Any) -> Any:
        """Apply a legal action; the engine's record (``forced``: the wrapper's keyword to force
        chance, Clockwork's ``dice``); an illegal action raises the engine's IllegalActionError
        and changes nothing."""
        return self.table.apply_action(action, **forced)

    def apply_legal_action(self, action: int) -> Any:
        """``apply_action`` (the core checks an action at no extra cost)."""
        return self.table.apply_action(action)

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return bool(self.table.is_terminal())

    def outcome(self) -> Outcome | None:
        """Scores, winners and places once the game is over (the engine's); None before."""
        outcome: Outcome | None = self.table.outcome()
        return outcome

    def clone(self) -> NativeState:
        """An independent copy, the generator's state included (a memcpy in the core)."""
        return NativeState(self.table.clone())

    def observe(self, seat: int) -> np.ndarray:
        """``seat``'s observation, the bytes of the game's ``observe(self.view(seat), seat)``,
        written by the core (a fresh float32 vector)."""
        observation: np.ndarray = self.table.observe(seat)
        return observation

    def to_dict(self) -> dict[str, Any]:
        """The engine's dict of this game; the game's ``state_from_dict`` restores it (in Python)."""
        data: dict[str, Any] = self.table.to_dict()
        return data

    # -- hidden information -------------------------------------------------------------------
    def view(self, seat: int) -> Any:
        """``seat``'s view as the Python engine's state (what bots, encoders and presenters
        read): the engine's view of :meth:`to_state`."""
        return self.table.to_state().view(seat)

    def determinize(self, rng: np.random.Generator) -> NativeState:
        """A playable world consistent with the acting seat's view, what it hides re-dealt from
        ``rng`` (advanced as the engine advances it): in the core where it has determinization,
        else the engine's of the converted state, imported back."""
        core_determinize = getattr(self.table, "determinize", None)
        if core_determinize is not None:
            return NativeState(core_determinize(self.current_player, rng))
        world = self.table.to_state().determinize(rng)
        return NativeState(type(self.table).from_state(world))
