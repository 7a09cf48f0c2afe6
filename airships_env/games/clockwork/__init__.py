"""Escape from Clockwork City (Marbushka): the game object the tools use (protocol ``Game``).

Rules: docs/clockwork/RULES.md; the engine: :mod:`.engine`; the observation: :mod:`.observation`;
the text presenter: :mod:`.text`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from airships_env.games.clockwork.engine import (
    ACTION_NAMES,
    NUM_ACTIONS,
    ActionRecord,
    ClockworkData,
    RulesOptions,
    State,
    load_data,
    new_game,
    replay_action,
    state_from_dict,
)
from airships_env.games.clockwork.observation import (
    encode_observation,
    observation_layout,
    observation_size,
)
from airships_env.games.clockwork.rollout import rollout_action
from airships_env.games.clockwork.text import ClockworkPresenter

__all__ = ["GAME", "ClockworkGame", "env", "raw_env"]


class ClockworkGame:
    """The static facts and factories of Escape from Clockwork City."""

    name = "clockwork"
    title = "Escape from Clockwork City"
    version = 0
    player_counts: tuple[int, ...] = (2, 3, 4)
    num_actions = NUM_ACTIONS
    backends: tuple[str, ...] = ("python",)

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
        """Set up and deal a game (options: RulesOptions or its dict; data: ClockworkData or a
        path)."""
        if backend not in self.backends:
            raise ValueError(f"clockwork has no backend {backend!r}; it has {self.backends}")
        if isinstance(options, Mapping):
            options = RulesOptions.from_dict(dict(options))
        if data is not None and not isinstance(data, ClockworkData):
            data = load_data(data)
        return new_game(num_players, seed, rng=rng, options=options, data=data)

    def state_from_dict(self, data: Mapping[str, Any]) -> State:
        """The state a ``State.to_dict`` wrote."""
        return state_from_dict(data)

    def record_from_dict(self, data: Mapping[str, Any]) -> ActionRecord:
        """The record an ``ActionRecord.to_dict`` wrote."""
        return ActionRecord.from_dict(data)

    def replay_action(self, state: Any, record: Any) -> ActionRecord:
        """Apply ``record``'s action (rolling from the state's generator, or the recorded dice
        without one); the new record, equal to ``record`` or a LogError."""
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
        """Every observation value lies in [0, 16] (counts are scaled, see :mod:`.observation`)."""
        return 0.0, 16.0

    def rollout_action(self, state: Any, rng: np.random.Generator) -> int:
        """The generic search's rollout policy (see :mod:`.rollout`)."""
        return rollout_action(state, rng)

    def bots(self) -> Mapping[str, str]:
        """The game's agents: spec name -> 'module:Class'."""
        return {
            "random": "airships_env.policy:RandomPolicy",
            "greedy": "agents.bots.clockwork:GreedyBot",
            "heuristic": "agents.bots.clockwork:HeuristicBot",
        }

    def presenter(self) -> ClockworkPresenter:
        """Record text and the ANSI table."""
        return ClockworkPresenter()

    def env(self, **kwargs: Any) -> Any:
        """The PettingZoo AEC env ``clockwork_v0`` (the generic adapter, order enforced)."""
        from airships_env.game_aec import env

        return env(self, **kwargs)

    def single_agent_env(self, **kwargs: Any) -> Any:
        """The single-agent Gymnasium env ``Clockwork-v0``."""
        from airships_env.game_single_agent import GameSingleAgentEnv

        return GameSingleAgentEnv(self, **kwargs)


GAME = ClockworkGame()


def env(**kwargs: Any) -> Any:
    """``clockwork_v0.env()``: the PettingZoo AEC env (PettingZoo classic style)."""
    return GAME.env(**kwargs)


def raw_env(**kwargs: Any) -> Any:
    """The AEC env without the order-enforcing wrapper."""
    from airships_env.game_aec import GameAEC

    return GameAEC(GAME, **kwargs)
