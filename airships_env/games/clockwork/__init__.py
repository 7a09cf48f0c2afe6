"""Escape from Clockwork City (Marbushka): the game object the tools use (protocol ``Game``).

Rules: docs/clockwork/RULES.md; the engine: :mod:`.engine`; the observation: :mod:`.observation`;
the text presenter: :mod:`.text`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from airships_env.gamekit import PythonGame, pettingzoo_functions, python_state
from airships_env.games.clockwork.engine import (
    ACTION_NAMES,
    NUM_ACTIONS,
    ActionRecord,
    ClockworkData,
    LogError,
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


#: ``ismcts`` options tuned for this game (agent_defaults).
TUNED_ISMCTS: dict[str, Any] = {"rollout": 10, "prior": "heuristic", "bias": 50.0, "c": 0.3}


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
    native_table = "airships_env.native.clockwork:NativeClockworkGame"
    observes_true_state = True  # the encoder reads only own and public parts

    setup = staticmethod(new_game)
    options_from_dict = staticmethod(RulesOptions.from_dict)
    load_data = staticmethod(load_data)
    state_from_dict = staticmethod(state_from_dict)
    record_from_dict = staticmethod(ActionRecord.from_dict)
    replay = staticmethod(replay_action)
    log_error = LogError
    observation_layout = staticmethod(observation_layout)
    observation_size = staticmethod(observation_size)
    encode_observation = staticmethod(encode_observation)

    def rollout_action(self, state: Any, rng: np.random.Generator) -> int:
        """The generic search's rollout policy (see :mod:`.rollout`)."""
        return rollout_action(python_state(state), rng)

    def evaluate(self, state: Any) -> list[float]:
        """Each seat's value of an unfinished state in [0, 1] for the search (see :mod:`.evaluate`)."""
        return evaluate(python_state(state))

    def native_random_games(self, num_players: int, games: int, seed: int) -> int:
        """Random legal whole games in the native core alone (the engine benchmark); returns the
        actions applied (:func:`airships_env.native.clockwork.random_games`)."""
        from airships_env.native.clockwork import random_games

        return random_games(num_players, games, seed)

    def native_batch(self, num_games: int, num_players: int, seed: int) -> Any:
        """``num_games`` games in the native core, every seat a Python seat (the environment
        benchmark): ``.masks``, ``.obs``, ``.step(actions)`` after ``.reset()``
        (:class:`airships_env.native.clockwork.ClockworkBatch`)."""
        from airships_env.native.clockwork import ClockworkBatch

        return ClockworkBatch(num_games, num_players, seed=seed, opponents=0)

    def native_bot_decisions(self, bot: str, num_players: int, games: int, seed: int) -> int:
        """Whole games between copies of the native ``bot`` in the core alone (the bots'
        benchmark); returns the decisions made (:func:`airships_env.native.clockwork.
        bot_decisions`)."""
        from airships_env.native.clockwork import bot_decisions

        return bot_decisions(bot, num_players, games, seed)

    def native_vec_env(self) -> str:
        """The batched native VecEnv (``module:Class``, :mod:`.vector`): the core's games, bots
        and observations, the Python bots' decisions."""
        return "airships_env.games.clockwork.vector:ClockworkVecEnv"

    def native_bots(self) -> str:
        """The bots with a native twin and how the core plays them (``module:attr``)."""
        return "agents.bots.native_tables:CLOCKWORK"

    def native_search_view(self, view: Any) -> Any:
        """A seat's view in the native core, to search from (``ismcts``:
        :class:`airships_env.native.clockwork.NativeClockworkGame`)."""
        from airships_env.native.clockwork import NativeClockworkGame

        return NativeClockworkGame.from_view(view)

    def agent_defaults(self) -> dict[str, dict[str, Any]]:
        """Options a spec that does not set them gets: ``ismcts`` is the search tuned for this
        game (short rollouts scored by ``evaluate``, the heuristic's choice first with a strong
        bias, little exploration: 0.735 [0.670, 0.791] of 200 paired 2-player games against
        heuristic at 100 ms; docs/clockwork/BOTS.md)."""
        return {"ismcts": dict(TUNED_ISMCTS)}

    def bots(self) -> Mapping[str, str]:
        """The game's agents: spec name -> 'module:Class'."""
        return {
            "random": "airships_env.policy:RandomPolicy",
            "greedy": "agents.bots.clockwork:GreedyBot",
            "heuristic": "agents.bots.clockwork:HeuristicBot",
            "ismcts": "agents.bots.native_ismcts:NativeISMCTSAgent",
        }

    def presenter(self) -> ClockworkPresenter:
        """Record text and the ANSI table."""
        return ClockworkPresenter()


GAME = ClockworkGame()
env, raw_env = pettingzoo_functions(GAME)
