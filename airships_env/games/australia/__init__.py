"""Australia (Ravensburger / Rio Grande, 2005): the game object the tools use (protocol ``Game``).

Rules: docs/australia/RULES.md; data: docs/australia/DATA.md; the engine: :mod:`.engine`; the
observation: :mod:`.observation`; the presenter: :mod:`.text`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from airships_env.gamekit import PythonGame, pettingzoo_functions, python_state, score_shares
from airships_env.games.australia.engine import (
    ACTION_NAMES,
    NUM_ACTIONS,
    ActionRecord,
    AustraliaData,
    LogError,
    RulesOptions,
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


def _load_folder(source: Any) -> AustraliaData:
    """The data of a folder holding map.toml and components.toml."""
    return load_data(Path(source))


#: ``ismcts`` options tuned for this game (agent_defaults).
TUNED_ISMCTS: dict[str, Any] = {"rollout": 10, "prior": "heuristic", "bias": 50.0, "c": 0.3}


class AustraliaGame(PythonGame):
    """The static facts and factories of Australia (options: RulesOptions or its dict; data:
    AustraliaData or a folder holding map.toml and components.toml; no chance after setup)."""

    name = "australia"
    title = "Australia"
    version = 0
    player_counts: tuple[int, ...] = (2, 3, 4, 5)
    num_actions = NUM_ACTIONS
    score_scale = 50.0  # reward="score": the final margin in VP / 50
    action_names = ACTION_NAMES
    data_type = AustraliaData
    observation_range = (0.0, 16.0)  # counts are scaled, see .observation
    native_table = "airships_env.native.australia:NativeAustraliaGame"
    observes_true_state = True  # the encoder reads only own and public parts

    setup = staticmethod(new_game)
    options_from_dict = staticmethod(RulesOptions.from_dict)
    load_data = staticmethod(_load_folder)
    state_from_dict = staticmethod(state_from_dict)
    record_from_dict = staticmethod(ActionRecord.from_dict)
    replay = staticmethod(replay_action)
    log_error = LogError
    observation_layout = staticmethod(observation_layout)
    observation_size = staticmethod(observation_size)
    encode_observation = staticmethod(encode_observation)

    def evaluate(self, state: Any) -> list[float]:
        """Each seat's value of an unfinished state for the generic search: its VP + dollars (E3) so
        far against the others', a softmax over a fifth of ``score_scale``."""
        state = python_state(state)
        totals = [state.vp[seat] + state.dollars[seat] for seat in range(state.num_players)]
        return score_shares(totals, self.score_scale / 5)

    def native_random_games(self, num_players: int, games: int, seed: int) -> int:
        """Random legal whole games in the native core alone (the engine benchmark); returns the
        actions applied (:func:`airships_env.native.australia.random_games`)."""
        from airships_env.native.australia import random_games

        return random_games(num_players, games, seed)

    def native_batch(self, num_games: int, num_players: int, seed: int) -> Any:
        """``num_games`` games in the native core, every seat a Python seat (the environment
        benchmark): ``.masks``, ``.obs``, ``.step(actions)`` after ``.reset()``
        (:class:`airships_env.native.australia.AustraliaBatch`)."""
        from airships_env.native.australia import AustraliaBatch

        return AustraliaBatch(num_games, num_players, seed=seed, opponents=0)

    def native_bot_decisions(self, bot: str, num_players: int, games: int, seed: int) -> int:
        """Whole games between copies of the native ``bot`` in the core alone (the bots'
        benchmark); returns the decisions made (:func:`airships_env.native.australia.
        bot_decisions`)."""
        from airships_env.native.australia import bot_decisions

        return bot_decisions(bot, num_players, games, seed)

    def native_vec_env(self) -> str:
        """The batched native VecEnv (``module:Class``, :mod:`.vector`): the core's games, bots
        and observations, the Python bots' decisions."""
        return "airships_env.games.australia.vector:AustraliaVecEnv"

    def native_bots(self) -> str:
        """The bots with a native twin and how the core plays them (``module:attr``)."""
        return "agents.bots.native_tables:AUSTRALIA"

    def native_search_view(self, view: Any) -> Any:
        """A seat's view in the native core, to search from (``ismcts``:
        :class:`airships_env.native.australia.NativeAustraliaGame`)."""
        from airships_env.native.australia import NativeAustraliaGame

        return NativeAustraliaGame.from_view(view)

    def agent_defaults(self) -> dict[str, dict[str, Any]]:
        """Options a spec that does not set them gets: ``ismcts`` is the search tuned for this
        game (short rollouts scored by ``evaluate``, the heuristic's choice first with a strong
        bias, little exploration: 0.807 [0.747, 0.856] of 200 paired 2-player games against heuristic at 100 ms, where the generic defaults won 1 of 20; docs/australia/BOTS.md)."""
        return {"ismcts": dict(TUNED_ISMCTS)}

    def bots(self) -> Mapping[str, str]:
        """The game's agents: spec name -> 'module:Class'."""
        return {
            "random": "airships_env.policy:RandomPolicy",
            "greedy": "agents.bots.australia:GreedyBot",
            "heuristic": "agents.bots.australia:HeuristicBot",
            "kind_random": "agents.bots.australia:KindRandomBot",
            "ismcts": "agents.bots.native_ismcts:NativeISMCTSAgent",
        }

    def rollout_action(self, state: Any, rng: np.random.Generator) -> int:
        """The generic search's rollout policy: each kind of action equally likely first
        (uniform play mostly flies and rarely ends a game by E1)."""
        return kind_uniform_choice(state.legal_actions(), lambda k: uniform_below(rng, k))

    def presenter(self) -> AustraliaPresenter:
        """Record text, the ANSI map, the picture and the SVG map."""
        return AustraliaPresenter()


GAME = AustraliaGame()
env, raw_env = pettingzoo_functions(GAME)
