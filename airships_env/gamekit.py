"""What every pure-Python game's :class:`~airships_env.protocol.Game` object does the same way.

A Python game (one engine in Python, no native core) subclasses :class:`PythonGame`, names its
facts (``name``, ``title``, ``version``, ``player_counts``, ``num_actions``, ``action_names``,
``observation_range``) and its engine's functions (``setup``, ``state_from_dict``, ...) as
class attributes, and writes only what is its own: ``bots``, ``presenter`` and the optional
members (``rollout_action``, ``score_scale``, ...). :func:`pettingzoo_functions` gives the game
module its PettingZoo-classic ``env()`` and ``raw_env()``.

This module sits below the games and above nothing game-specific: it imports only the protocol
and, lazily, the generic environments.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

__all__ = ["PythonGame", "pettingzoo_functions", "score_shares"]


class PythonGame:
    """The shared members of a Python game's Game object; a subclass fills the class attributes.

    Engine hooks (set with ``staticmethod(...)``): ``setup(num_players, seed, *, rng, options,
    data)`` deals a game; ``options_from_dict(dict)`` builds the rules options a dict names;
    ``load_data(source)`` loads the game's data from a path; ``state_from_dict``,
    ``record_from_dict``, ``replay_action``, ``observation_layout``, ``observation_size`` and
    ``observe`` are the protocol members themselves.
    """

    name: str
    title: str
    version: int
    player_counts: tuple[int, ...]
    num_actions: int
    backends: tuple[str, ...] = ("python",)
    action_names: Sequence[str]  # the readable name of each action index
    data_type: type  # the engine's loaded-data class; any other ``data`` is a path to load
    observation_range: tuple[float, float]  # every observation value lies in [low, high]
    # observe(state, seat) of a true state == observe(state.view(seat), seat), bit for bit
    observes_true_state: bool = False

    setup: Callable[..., Any]
    options_from_dict: Callable[[dict[str, Any]], Any]
    load_data: Callable[[Any], Any]
    state_from_dict: Callable[[Mapping[str, Any]], Any]
    record_from_dict: Callable[[Mapping[str, Any]], Any]
    replay_action: Callable[[Any, Any], Any]
    observation_layout: Callable[[int], list[tuple[str, int]]]
    observation_size: Callable[[int], int]
    observe: Callable[[Any, int], np.ndarray]
    # Each game's own (written as methods): its agents and its presenter.
    bots: Callable[[], Mapping[str, str]]
    presenter: Callable[[], Any]

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
        backend: str = "python",
    ) -> Any:
        """Set up and deal a game (options: the rules options or their dict; data: the loaded
        data or a path to load it from)."""
        if backend not in self.backends:
            raise ValueError(f"{self.name} has no backend {backend!r}; it has {self.backends}")
        if isinstance(options, Mapping):
            options = self.options_from_dict(dict(options))
        if data is not None and not isinstance(data, self.data_type):
            data = self.load_data(data)
        return self.setup(num_players, seed, rng=rng, options=options, data=data)

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
