"""The one protocol every agent follows, and what an acting player is given.

An agent is given a :class:`Decision`: the seat to act, the legal actions and their mask, the
observation vector of that seat, and a read-only view of the game as that seat sees it
(``state.view(seat)`` of the game protocol: hidden parts canonical, no random generator). For
Airships the view is a :class:`~airships_env.engine.GameState` public view (see
:func:`~airships_env.engine.public_view`). Nothing in a Decision depends on what the seat
cannot see, so no agent can learn it. An agent returns an action index, and draws any
randomness from the generator it is given in :meth:`Policy.reset` (never the game's).

A Decision knows its game (:attr:`Decision.game`, a :class:`~airships_env.protocol.Game`);
without one it is an Airships decision, as it always was.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

from airships_env.chance import uniform_below

if TYPE_CHECKING:
    from airships_env.engine import GameState
    from airships_env.native import NativeGame
    from airships_env.protocol import Game

ObservationPolicy = Callable[[np.ndarray, np.ndarray], int]


class Decision:
    """What the acting player may see; the view and the observation are built on first use."""

    __slots__ = (
        "_observation",
        "_observe",
        "_view",
        "_viewer",
        "game",
        "legal_actions",
        "seat",
    )

    def __init__(
        self,
        view: Any,
        seat: int,
        legal_actions: tuple[int, ...],
        observe: Callable[[], np.ndarray] | None = None,
        game: Game | None = None,
    ):
        self._view: Any = None if callable(view) else view
        self._viewer: Callable[[], Any] | None = view if callable(view) else None
        self.seat = seat
        self.legal_actions = legal_actions
        self._observe = observe
        self._observation: np.ndarray | None = None
        #: The game being played (None: Airships, whose Decisions predate the protocol).
        self.game = game

    @classmethod
    def from_state(cls, state: GameState) -> Decision:
        """The decision facing the player to act in an Airships ``state`` (hidden cards
        stripped)."""
        from airships_env.engine import public_view

        return cls(public_view(state), state.current_player, tuple(state.legal_actions()))

    @classmethod
    def for_game(cls, game: Game, state: Any) -> Decision:
        """The decision facing the player to act in ``state``, a state of any ``game``: its
        view (``state.view(seat)``) is taken now, its observation made on first use. A state
        that writes its own observations (a native one: ``observe(seat)``) is copied (a memcpy)
        and both the view and the observation are made from the copy on first use, so a bot
        that reads only the observation never converts the game to Python."""
        seat = state.current_player
        legal = tuple(state.legal_actions())
        if hasattr(state, "observe"):
            position = state.clone()
            return cls(
                lambda: position.view(seat), seat, legal, lambda: position.observe(seat), game
            )
        return cls(state.view(seat), seat, legal, game=game)

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
    def view(self) -> Any:
        """The game as the seat sees it: hidden parts canonical, no generator (Airships: the
        public view, docs/airships/RULES.md V1, a GameState)."""
        if self._view is None:
            assert self._viewer is not None
            self._view = self._viewer()
        return self._view

    @property
    def observation(self) -> np.ndarray:
        """The seat's float32 observation vector (the game's ``observe``; Airships: see
        :mod:`airships_env.observation`)."""
        if self._observation is None:
            if self._observe is not None:
                self._observation = self._observe()
            elif self.game is not None:
                self._observation = self.game.observe(self.view, self.seat)
            else:
                from airships_env.observation import encode_observation

                self._observation = encode_observation(self.view, self.seat)
        return self._observation.copy()

    @property
    def num_actions(self) -> int:
        """The size of the game's action table."""
        if self.game is not None:
            return self.game.num_actions
        from airships_env.engine import NUM_ACTIONS

        return NUM_ACTIONS

    @property
    def action_mask(self) -> np.ndarray:
        """int8 mask over the action table, 1 for legal actions."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
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


class SeatedPolicy:
    """Base of a game's bot that keeps its seat and its generator for the game it plays."""

    name = "seated"

    def __init__(self, rng: np.random.Generator | None = None):
        self.rng = rng if rng is not None else np.random.default_rng()
        self.seat = 0

    def reset(self, seat: int, num_players: int, rng: np.random.Generator) -> None:
        """Take the seat and the generator for this game."""
        self.seat = seat
        self.rng = rng


class CallablePolicy:
    """A Policy around a plain function ``f(observation, action_mask) -> action``."""

    def __init__(self, function: ObservationPolicy, name: str | None = None):
        self.function = function
        self.name = name if name is not None else getattr(function, "__name__", "callable")

    def reset(self, seat: int, num_players: int, rng: np.random.Generator) -> None:
        """Nothing to reset: the function keeps its own state, if any."""

    def act(self, decision: Decision) -> int:
        """The function's choice on the decision's observation and mask."""
        return int(self.function(decision.observation, decision.action_mask))


def as_policy(opponent: Policy | ObservationPolicy) -> Policy:
    """A Policy as is; a callable ``f(observation, action_mask)`` wrapped in CallablePolicy."""
    if isinstance(opponent, Policy):
        return opponent
    if callable(opponent):
        return CallablePolicy(opponent)
    raise TypeError(
        f"an opponent must be a Policy (reset/act) or a callable "
        f"f(observation, action_mask) -> int, got {opponent!r}"
    )


def opponent_policies(
    opponents: Policy | ObservationPolicy | Sequence[Policy | ObservationPolicy] | None, count: int
) -> list[Policy]:
    """The single-agent envs' ``count`` opponents: uniform random ones for None, independent
    copies of one policy, or one per other seat from a sequence (ValueError for another count)."""
    if opponents is None:
        return [RandomPolicy() for _ in range(count)]
    if isinstance(opponents, Policy) or callable(opponents):
        first = as_policy(opponents)
        return [first] + [copy.deepcopy(first) for _ in range(count - 1)]
    listed = [as_policy(o) for o in opponents]
    if len(listed) != count:
        raise ValueError(f"expected {count} opponents (one per other seat), got {len(listed)}")
    return listed
