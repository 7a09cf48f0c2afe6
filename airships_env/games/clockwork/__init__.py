"""Escape from Clockwork City (Marbushka): the game object the tools use (protocol ``Game``).

Rules: docs/clockwork/RULES.md; the engine: :mod:`.engine`; the observation: :mod:`.observation`;
the text presenter: :mod:`.text`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from airships_env.gamekit import PythonGame, pettingzoo_functions
from airships_env.games.clockwork.engine import (
    ACTION_NAMES,
    NUM_ACTIONS,
    ActionRecord,
    ClockworkData,
    RulesOptions,
    load_data,
    new_game,
    replay_action,
    state_from_dict,
)
from airships_env.games.clockwork.evaluate import evaluate
from airships_env.games.clockwork.observation import (
    encode_observation,
    observation_layout,
    observation_size,
)
from airships_env.games.clockwork.rollout import rollout_action
from airships_env.games.clockwork.text import ClockworkPresenter

__all__ = ["GAME", "ClockworkGame", "env", "raw_env"]


class ClockworkGame(PythonGame):
    """The static facts and factories of Escape from Clockwork City (options: RulesOptions or
    its dict; data: ClockworkData or a path; replay: rolling from the state's generator, or the
    recorded dice without one)."""

    name = "clockwork"
    title = "Escape from Clockwork City"
    version = 0
    player_counts: tuple[int, ...] = (2, 3, 4)
    num_actions = NUM_ACTIONS
    action_names = ACTION_NAMES
    data_type = ClockworkData
    observation_range = (0.0, 16.0)  # counts are scaled, see .observation
    observes_true_state = True  # the encoder reads only own and public parts

    setup = staticmethod(new_game)
    options_from_dict = staticmethod(RulesOptions.from_dict)
    load_data = staticmethod(load_data)
    state_from_dict = staticmethod(state_from_dict)
    record_from_dict = staticmethod(ActionRecord.from_dict)
    replay_action = staticmethod(replay_action)
    observation_layout = staticmethod(observation_layout)
    observation_size = staticmethod(observation_size)
    observe = staticmethod(encode_observation)

    def rollout_action(self, state: Any, rng: np.random.Generator) -> int:
        """The generic search's rollout policy (see :mod:`.rollout`)."""
        return rollout_action(state, rng)

    def evaluate(self, state: Any) -> list[float]:
        """Each seat's value of an unfinished state in [0, 1] for the search (see :mod:`.evaluate`)."""
        return evaluate(state)

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


GAME = ClockworkGame()
env, raw_env = pettingzoo_functions(GAME)
