"""Nippon (What's Your Game?, 2015) with reconstructed components: the game object the tools
use (protocol ``Game``).

Rules: docs/nippon/RULES.md; components: docs/nippon/DATA.md; the engine: :mod:`.engine`; the
observation: :mod:`.observation`; the presenter: :mod:`.text`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from airships_env.games.nippon.engine import (
    ACTION_NAMES,
    NUM_ACTIONS,
    ActionRecord,
    NipponData,
    RulesOptions,
    State,
    load_data,
    new_game,
    replay_action,
    state_from_dict,
)
from airships_env.games.nippon.observation import (
    encode_observation,
    observation_layout,
    observation_size,
)
from airships_env.games.nippon.text import NipponPresenter

__all__ = ["GAME", "NipponGame", "env", "raw_env"]


class NipponGame:
    """The static facts and factories of Nippon."""

    name = "nippon"
    title = "Nippon"
    version = 0
    player_counts: tuple[int, ...] = (2, 3, 4)
    num_actions = NUM_ACTIONS
    backends: tuple[str, ...] = ("python",)
    score_scale = 50.0

    def action_name(self, action: int) -> str:
        """The readable name of an action index."""
        if not 0 <= action < NUM_ACTIONS:
            raise ValueError(f"action index {action!r} outside 0..{NUM_ACTIONS - 1}")
        return ACTION_NAMES[action]

    def new_state(
        self,
        num_players: int,
        seed: int | None = None,
        *,
        rng: np.random.Generator | None = None,
        options: Any = None,
        data: Any = None,
        backend: str = "python",
    ) -> State:
        """Set up a game (options: RulesOptions or its dict; data: NipponData or a path)."""
        if backend not in self.backends:
            raise ValueError(f"nippon has no backend {backend!r}; it has {self.backends}")
        if isinstance(options, Mapping):
            options = RulesOptions(**dict(options))
        if data is not None and not isinstance(data, NipponData):
            data = load_data(data)
        return new_game(num_players, seed, rng=rng, options=options, data=data)

    def state_from_dict(self, data: Mapping[str, Any]) -> State:
        """The state a ``State.to_dict`` wrote."""
        return state_from_dict(data)

    def record_from_dict(self, data: Mapping[str, Any]) -> ActionRecord:
        """The record an ``ActionRecord.to_dict`` wrote."""
        return ActionRecord.from_dict(data)

    def replay_action(self, state: Any, record: Any) -> ActionRecord:
        """Apply ``record``'s action (bag draws from the generator, else the record's)."""
        return replay_action(state, record)

    def observation_layout(self, num_players: int) -> list[tuple[str, int]]:
        """The named pieces of a seat's observation (see :mod:`.observation`)."""
        return observation_layout(num_players)

    def observation_size(self, num_players: int) -> int:
        """The length of a seat's observation vector."""
        return observation_size(num_players)

    def observe(self, view: Any, seat: int) -> np.ndarray:
        """``seat``'s observation of a view or a true state, a fresh float32 vector."""
        return encode_observation(view, seat)

    def observation_bounds(self, num_players: int) -> tuple[float, float]:
        """Every observation value lies in [-4, 8] (scaled counts, see :mod:`.observation`)."""
        return -4.0, 8.0

    def bots(self) -> Mapping[str, str]:
        """The game's agents: spec name -> 'module:Class'."""
        return {
            "random": "airships_env.policy:RandomPolicy",
            "greedy": "agents.bots.nippon:GreedyBot",
            "heuristic": "agents.bots.nippon:HeuristicBot",
        }

    def presenter(self) -> NipponPresenter:
        """Record text, the ANSI table, a picture, SVG."""
        return NipponPresenter()

    def env(self, **kwargs: Any) -> Any:
        """The PettingZoo AEC env ``nippon_v0`` (the generic adapter, order enforced)."""
        from airships_env.game_aec import env

        return env(self, **kwargs)

    def single_agent_env(self, **kwargs: Any) -> Any:
        """The single-agent Gymnasium env ``Nippon-v0``."""
        from airships_env.game_single_agent import GameSingleAgentEnv

        return GameSingleAgentEnv(self, **kwargs)


GAME = NipponGame()


def env(**kwargs: Any) -> Any:
    """``nippon_v0.env()``: the PettingZoo AEC env (PettingZoo classic style)."""
    return GAME.env(**kwargs)


def raw_env(**kwargs: Any) -> Any:
    """The AEC env without the order-enforcing wrapper."""
    from airships_env.game_aec import GameAEC

    return GameAEC(GAME, **kwargs)
