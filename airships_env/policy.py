"""The one protocol every agent follows, and what an acting player is given.

An agent is given a :class:`Decision`: the seat to act, the legal actions and their mask, the
observation vector of that seat, and a read-only public view of the game (a
:class:`~airships_env.engine.GameState` whose hidden cards are canonical and which has no random
generator, see :func:`~airships_env.engine.public_view`). Nothing in a Decision depends on the
hidden deck or stack order, so no agent can learn it. An agent returns an action index, and
draws any randomness from the generator it is given in :meth:`Policy.reset` (never the game's).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from airships_env.engine import NUM_ACTIONS, GameState, public_view
from airships_env.engine.dice import uniform_below

if TYPE_CHECKING:
    from airships_env.native import NativeGame


class Decision:
    """What the acting player may see; the view and the observation are built on first use."""

    __slots__ = ("_observation", "_observe", "_view", "_viewer", "legal_actions", "seat")

    def __init__(
        self,
        view: GameState | Callable[[], GameState],
        seat: int,
        legal_actions: tuple[int, ...],
        observe: Callable[[], np.ndarray] | None = None,
    ):
        self._view: GameState | None = None if callable(view) else view
        self._viewer = view if callable(view) else None
        self.seat = seat
        self.legal_actions = legal_actions
        self._observe = observe
        self._observation: np.ndarray | None = None

    @classmethod
    def from_state(cls, state: GameState) -> Decision:
        """The decision facing the player to act in ``state`` (hidden cards stripped)."""
        return cls(public_view(state), state.current_player, tuple(state.legal_actions()))

    @classmethod
    def from_native(cls, game: NativeGame) -> Decision:
        """The decision facing the player to act in a native game; its public view and its
        observation are made only if an agent asks for them."""
        seat = game.current_player
        return cls(
            lambda: game.public_view().to_state(),
            seat,
            tuple(game.legal_actions()),
            lambda: game.observe(seat),
        )

    @property
    def view(self) -> GameState:
        """A public view of the game (docs/airships/RULES.md V1): hidden cards canonical, no generator."""
        if self._view is None:
            assert self._viewer is not None
            self._view = self._viewer()
        return self._view

    @property
    def observation(self) -> np.ndarray:
        """The seat's float32 observation vector (see :mod:`airships_env.observation`)."""
        if self._observation is None:
            if self._observe is not None:
                self._observation = self._observe()
            else:
                from airships_env.observation import encode_observation

                self._observation = encode_observation(self.view, self.seat)
        return self._observation.copy()

    @property
    def action_mask(self) -> np.ndarray:
        """int8 mask over the action table, 1 for legal actions."""
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        mask[list(self.legal_actions)] = 1
        return mask


@runtime_checkable
class Policy(Protocol):
    """Anything that can play a seat: bots, trained policies, a person at a terminal."""

    name: str

    def reset(self, seat: int, num_players: int, rng: np.random.Generator) -> None:
        """Called before each game with the agent's seat and its own generator."""

    def act(self, decision: Decision) -> int:
        """Choose one of ``decision.legal_actions``."""
        ...


class RandomPolicy:
    """Uniform over the legal actions."""

    name = "random"

    def __init__(self, rng: np.random.Generator | None = None):
        self.rng = rng if rng is not None else np.random.default_rng()

    def reset(self, seat: int, num_players: int, rng: np.random.Generator) -> None:
        """Take the generator for this game."""
        self.rng = rng

    def act(self, decision: Decision) -> int:
        """A uniformly random legal action."""
        legal = decision.legal_actions
        return legal[uniform_below(self.rng, len(legal))]
