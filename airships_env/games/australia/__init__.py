"""Australia (Ravensburger / Rio Grande, 2005): the game object the tools use (protocol ``Game``).

Rules: docs/australia/RULES.md; data: docs/australia/DATA.md; the engine: :mod:`.engine`; the
observation: :mod:`.observation`; the presenter: :mod:`.text`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from airships_env.games.australia.engine import (
    ACTION_NAMES,
    NUM_ACTIONS,
    ActionRecord,
    AustraliaData,
    RulesOptions,
    State,
    load_data,
    new_game,
    replay_action,
    state_from_dict,
)
from airships_env.games.australia.engine.actions import kind_uniform_choice
from airships_env.games.australia.engine.chance import uniform_below
from airships_env.games.australia.observation import (
    encode_observation,
    observation_layout,
    observation_size,
)
from airships_env.games.australia.text import AustraliaPresenter

__all__ = ["GAME", "AustraliaGame", "env", "raw_env"]


class AustraliaGame:
    """The static facts and factories of Australia."""

    name = "australia"
    title = "Australia"
    version = 0
    player_counts: tuple[int, ...] = (2, 3, 4, 5)
    num_actions = NUM_ACTIONS
    backends: tuple[str, ...] = ("python",)
    score_scale = 50.0  # reward="score": the final margin in VP / 50

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
        """Set up a game (options: RulesOptions or its dict; data: AustraliaData or a folder
        holding map.toml and components.toml)."""
        if backend not in self.backends:
            raise ValueError(f"australia has no backend {backend!r}; it has {self.backends}")
        if isinstance(options, Mapping):
            options = RulesOptions.from_dict(dict(options))
        if data is not None and not isinstance(data, AustraliaData):
            data = load_data(Path(data))
        return new_game(num_players, seed, rng=rng, options=options, data=data)

    def state_from_dict(self, data: Mapping[str, Any]) -> State:
        """The state a ``State.to_dict`` wrote."""
        return state_from_dict(data)

    def record_from_dict(self, data: Mapping[str, Any]) -> ActionRecord:
        """The record an ``ActionRecord.to_dict`` wrote."""
        return ActionRecord.from_dict(data)

    def replay_action(self, state: Any, record: Any) -> ActionRecord:
        """Apply ``record``'s action (no chance after setup); the new record (equal, or
        LogError)."""
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

    def bots(self) -> Mapping[str, str]:
        """The game's agents: spec name -> 'module:Class'."""
        return {
            "random": "airships_env.policy:RandomPolicy",
            "greedy": "agents.bots.australia:GreedyBot",
            "heuristic": "agents.bots.australia:HeuristicBot",
            "kind_random": "agents.bots.australia:KindRandomBot",
        }

    def rollout_action(self, state: Any, rng: np.random.Generator) -> int:
        """The generic search's rollout policy: each kind of action equally likely first
        (uniform play mostly flies and rarely ends a game by E1)."""
        return kind_uniform_choice(state.legal_actions(), lambda k: uniform_below(rng, k))

    def presenter(self) -> AustraliaPresenter:
        """Record text, the ANSI map, the picture and the SVG map."""
        return AustraliaPresenter()

    def env(self, **kwargs: Any) -> Any:
        """The PettingZoo AEC env ``australia_v0`` (the generic adapter, order enforced)."""
        from airships_env.game_aec import env

        return env(self, **kwargs)

    def single_agent_env(self, **kwargs: Any) -> Any:
        """The single-agent Gymnasium env ``Australia-v0``."""
        from airships_env.game_single_agent import GameSingleAgentEnv

        return GameSingleAgentEnv(self, **kwargs)


GAME = AustraliaGame()


def env(**kwargs: Any) -> Any:
    """``australia_v0.env()``: the PettingZoo AEC env (PettingZoo classic style)."""
    return GAME.env(**kwargs)


def raw_env(**kwargs: Any) -> Any:
    """The AEC env without the order-enforcing wrapper."""
    from airships_env.game_aec import GameAEC

    return GameAEC(GAME, **kwargs)
