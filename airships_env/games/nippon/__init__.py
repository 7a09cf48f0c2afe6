"""Nippon (What's Your Game?, 2015) with reconstructed components: the game object the tools
use (protocol ``Game``).

Rules: docs/nippon/RULES.md; components: docs/nippon/DATA.md; the engine: :mod:`.engine`; the
observation: :mod:`.observation`; the presenter: :mod:`.text`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from airships_env.gamekit import PythonGame, pettingzoo_functions, python_state, score_shares
from airships_env.games.nippon.engine import (
    ACTION_NAMES,
    NUM_ACTIONS,
    ActionRecord,
    LogError,
    NipponData,
    RulesOptions,
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


class NipponGame(PythonGame):
    """The static facts and factories of Nippon (options: RulesOptions or its dict; data:
    NipponData or a path; replay: bag draws from the generator, else the record's)."""

    name = "nippon"
    title = "Nippon"
    version = 0
    player_counts: tuple[int, ...] = (2, 3, 4)
    num_actions = NUM_ACTIONS
    score_scale = 50.0
    action_names = ACTION_NAMES
    data_type = NipponData
    native_table = "airships_env.native.nippon:NativeNipponGame"
    observes_true_state = True  # the view differs only by its generator and flag

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

    def observation_bounds(self, num_players: int) -> tuple[float, float]:
        """Every observation value lies in [-4, 8] (scaled counts, see :mod:`.observation`)."""
        return -4.0, 8.0

    def evaluate(self, state: Any) -> list[float]:
        """Each seat's value of an unfinished state for the generic search: its VP (E4) so
        far against the others', a softmax over a fifth of ``score_scale``."""
        state = python_state(state)
        totals = [state.vp[seat] for seat in range(state.num_players)]
        return score_shares(totals, self.score_scale / 5)

    def native_random_games(self, num_players: int, games: int, seed: int) -> int:
        """Random legal whole games in the native core alone (the engine benchmark); returns the
        actions applied (:func:`airships_env.native.nippon.random_games`)."""
        from airships_env.native.nippon import random_games

        return random_games(num_players, games, seed)

    def native_batch(self, num_games: int, num_players: int, seed: int) -> Any:
        """``num_games`` games in the native core, every seat a Python seat (the environment
        benchmark): ``.masks``, ``.obs``, ``.step(actions)`` after ``.reset()``
        (:class:`airships_env.native.nippon.NipponBatch`)."""
        from airships_env.native.nippon import NipponBatch

        return NipponBatch(num_games, num_players, seed=seed, opponents=0)

    def native_bot_decisions(self, bot: str, num_players: int, games: int, seed: int) -> int:
        """Whole games between copies of the native ``bot`` in the core alone (the bots'
        benchmark); returns the decisions made (:func:`airships_env.native.nippon.
        bot_decisions`)."""
        from airships_env.native.nippon import bot_decisions

        return bot_decisions(bot, num_players, games, seed)

    def native_bots(self) -> str:
        """The bots with a native twin and how the core plays them (``module:attr``)."""
        return "agents.bots.native_tables:NIPPON"

    def native_vec_env(self) -> str:
        """The batched native VecEnv (``module:Class``, :mod:`.vector`): the core's games, bots
        and observations, the Python bots' decisions."""
        return "airships_env.games.nippon.vector:NipponVecEnv"

    def native_search_view(self, view: Any) -> Any:
        """A seat's view in the native core, to search from (``ismcts``:
        :class:`airships_env.native.nippon.NativeNipponGame`)."""
        from airships_env.native.nippon import NativeNipponGame

        return NativeNipponGame.from_view(view)

    def bots(self) -> Mapping[str, str]:
        """The game's agents: spec name -> 'module:Class'."""
        return {
            "random": "airships_env.policy:RandomPolicy",
            "greedy": "agents.bots.nippon:GreedyBot",
            "heuristic": "agents.bots.nippon:HeuristicBot",
            "ismcts": "agents.bots.native_ismcts:NativeISMCTSAgent",
        }

    def presenter(self) -> NipponPresenter:
        """Record text, the ANSI table, a picture, SVG."""
        return NipponPresenter()


GAME = NipponGame()
env, raw_env = pettingzoo_functions(GAME)
