"""What every Python-engine game's :class:`~airships_env.protocol.Game` object does the same way.

A game with a Python engine subclasses :class:`PythonGame`, names its facts (``name``, ``title``,
``version``, ``player_counts``, ``num_actions``, ``action_names``, ``observation_range``) and its
engine's functions (``setup``, ``state_from_dict``, ...) as class attributes, and writes only what
is its own: ``bots``, ``presenter`` and the optional members (``rollout_action``, ``score_scale``,
...). :func:`pettingzoo_functions` gives the game module its PettingZoo-classic ``env()`` and
``raw_env()``.

Backends. A game whose rules also run in a native core names its wrapper class in
``native_table`` (``"module:Class"``, a :class:`~airships_env.native.table.NativeTable`); its
``backends`` are then ``("native", "python")`` where the core is built (the first is the
environments' default) and ``("python",)`` where it is not, and ``new_state(...,
backend="native")`` returns a :class:`~airships_env.native.state.NativeState`, the same game in
the core. ``observe`` takes the core's observation of such a state, ``replay_action`` replays on
it, and :func:`python_state` gives the Python state of either backend to code that reads a
state's fields.

This module sits below the games and above nothing game-specific: it imports only the protocol
and, lazily, the generic environments and the native core.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from importlib import import_module
from typing import Any

import numpy as np

__all__ = [
    "PythonGame",
    "is_native",
    "pettingzoo_functions",
    "python_state",
    "replay_native",
    "score_shares",
]


class PythonGame:
    """The shared members of a Python game's Game object; a subclass fills the class attributes.

    Engine hooks (set with ``staticmethod(...)``): ``setup(num_players, seed, *, rng, options,
    data)`` deals a game; ``options_from_dict(dict)`` builds the rules options a dict names;
    ``load_data(source)`` loads the game's data from a path; ``replay(state, record)`` replays a
    record on an engine state (``log_error``: the engine's error for a record that does not
    replay); ``encode_observation(view, seat)`` is the engine's encoder; ``state_from_dict``,
    ``record_from_dict``, ``observation_layout`` and ``observation_size`` are the protocol
    members themselves. ``native_table``: the native wrapper's ``"module:Class"``, or None.
    """

    name: str
    title: str
    version: int
    player_counts: tuple[int, ...]
    num_actions: int
    action_names: Sequence[str]  # the readable name of each action index
    data_type: type  # the engine's loaded-data class; any other ``data`` is a path to load
    observation_range: tuple[float, float]  # every observation value lies in [low, high]
    # observe(state, seat) of a true state == observe(state.view(seat), seat), bit for bit
    observes_true_state: bool = False
    #: the game's native wrapper (``"module:Class"`` of a NativeTable), None without a core
    native_table: str | None = None
    log_error: type[Exception] = ValueError

    setup: Callable[..., Any]
    options_from_dict: Callable[[dict[str, Any]], Any]
    load_data: Callable[[Any], Any]
    state_from_dict: Callable[[Mapping[str, Any]], Any]
    record_from_dict: Callable[[Mapping[str, Any]], Any]
    replay: Callable[[Any, Any], Any]
    observation_layout: Callable[[int], list[tuple[str, int]]]
    observation_size: Callable[[int], int]
    encode_observation: Callable[[Any, int], np.ndarray]
    # Each game's own (written as methods): its agents and its presenter.
    bots: Callable[[], Mapping[str, str]]
    presenter: Callable[[], Any]

    @property
    def backends(self) -> tuple[str, ...]:
        """``("native", "python")`` for a game with a native core built here (the first is
        the environments' default), else ``("python",)``."""
        from airships_env.registry import BACKENDS, native_built

        if self.native_table is not None and native_built():
            return BACKENDS
        return ("python",)

    def action_name(self, action: int) -> str:
        """The readable name of an action index."""
        if not 0 <= action < self.num_actions:
            raise ValueError(f"action index {action!r} outside 0..{self.num_actions - 1}")
        return self.action_names[action]

    def new_state(
        self,
        num_players: int,
        seed: int | None = None,
        *,
        rng: np.random.Generator | None = None,
        options: Any = None,
        data: Any = None,
        backend: str | None = "python",
    ) -> Any:
        """Set up and deal a game (options: the rules options or their dict; data: the loaded
        data or a path to load it from; backend: one of ``backends``, None for the default);
        both backends deal the same game from the same seed."""
        from airships_env.registry import check_backend

        backend = check_backend(self, backend)
        if isinstance(options, Mapping):
            options = self.options_from_dict(dict(options))
        if data is not None and not isinstance(data, self.data_type):
            data = self.load_data(data)
        if backend == "native":
            from airships_env.native.state import NativeState

            table = self.native_table_type().new(
                num_players, seed, rng=rng, options=options, data=data
            )
            return NativeState(table)
        return self.setup(num_players, seed, rng=rng, options=options, data=data)

    def native_table_type(self) -> Any:
        """The native wrapper class ``native_table`` names (imported on first use)."""
        if self.native_table is None:
            raise ValueError(f"{self.name} has no native core")
        module, _, attribute = self.native_table.partition(":")
        return getattr(import_module(module), attribute)

    def observe(self, view: Any, seat: int) -> np.ndarray:
        """``seat``'s observation of a view (or a true state): the engine's encoder, or the
        state's own ``observe(seat)`` where it has one (a native state: the same bytes)."""
        own = getattr(view, "observe", None)
        if own is not None:
            observation: np.ndarray = own(seat)
            return observation
        return self.encode_observation(view, seat)

    def replay_action(self, state: Any, record: Any) -> Any:
        """Apply ``record``'s action (chance drawn again from the state's generator, or the
        record's without one) and return the new record, which must equal ``record``
        (``log_error`` else): the engine's replay, or :func:`replay_native` on a native state."""
        if is_native(state):
            return replay_native(state, record, self.log_error)
        return self.replay(state, record)

    def observation_bounds(self, num_players: int) -> tuple[float, float]:
        """The bounds of every observation value (``observation_range``)."""
        return self.observation_range

    def env(self, **kwargs: Any) -> Any:
        """The PettingZoo AEC env ``<name>_v<version>`` (the generic adapter, order enforced)."""
        from airships_env.game_aec import env

        return env(self, **kwargs)

    def single_agent_env(self, **kwargs: Any) -> Any:
        """The single-agent Gymnasium env ``<Name>-v<version>`` (the generic wrapper)."""
        from airships_env.game_single_agent import GameSingleAgentEnv

        return GameSingleAgentEnv(self, **kwargs)


def is_native(state: Any) -> bool:
    """Whether ``state`` is a native core's (it converts to the engine's with ``to_state``)."""
    return hasattr(state, "to_state")


def python_state(state: Any) -> Any:
    """The Python engine's state of a state of either backend: a native one converted with
    ``to_state()``, an engine state as it is. For code that reads a state's fields (presenters,
    evaluations, rollout policies)."""
    return state.to_state() if is_native(state) else state


def replay_native(state: Any, record: Any, error: type[Exception]) -> Any:
    """Replay ``record`` on a native state (which always has its generator): its action applied,
    the new record; ``error`` naming the record when it is refused or comes out different."""
    try:
        again = state.apply_action(record.action)
    except ValueError as exc:  # IllegalActionError, a view that cannot advance
        raise error(f"record {record.to_dict()} does not replay: {exc}") from exc
    if again != record:
        raise error(f"record {record.to_dict()} does not match its replay {again.to_dict()}")
    return again


def score_shares(scores: Sequence[float], spread: float) -> list[float]:
    """Each seat's value for the generic search's ``evaluate`` from scores so far: a softmax of
    the scores over ``spread`` (a lead of one ``spread`` is worth e to 1), in [0, 1], summing
    to 1 like the shares of a won game."""
    top = max(scores)
    weights = [math.exp((score - top) / spread) for score in scores]
    total = 0.0
    for weight in weights:  # in seat order, as the native ports add (sum() compensates from 3.12)
        total += weight
    return [w / total for w in weights]


def pettingzoo_functions(game: Any) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """A game module's PettingZoo-classic ``env()`` (order enforced) and ``raw_env()``."""

    def env(**kwargs: Any) -> Any:
        return game.env(**kwargs)

    def raw_env(**kwargs: Any) -> Any:
        from airships_env.game_aec import GameAEC

        return GameAEC(game, **kwargs)

    env.__doc__ = f"``{game.name}_v{game.version}.env()``: the PettingZoo AEC env."
    raw_env.__doc__ = "The AEC env without the order-enforcing wrapper."
    return env, raw_env
