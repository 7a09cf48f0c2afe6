"""Airships as a registered game: :data:`GAME`, an adapter over the Airships modules.

The rules (:mod:`airships_env.engine`), the native core (:mod:`airships_env.native`), the
PettingZoo env (:mod:`airships_env.aec`, ``airships_v1``), the observation
(:mod:`airships_env.observation`), the renderers (:mod:`airships_env.render`) and the bots
(``agents.bots``) stay where they are; this module only answers the protocol's questions with
them. ``env()`` and ``raw_env()`` are Airships' PettingZoo env, as a PettingZoo classic module.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from airships_env.engine import NUM_ACTIONS, ActionRecord, GameState, new_game
from airships_env.engine import action_name as _action_name
from airships_env.engine.model import RulesOptions

__all__ = ["GAME", "AirshipsGame", "env", "raw_env"]

#: Airships' own agents under their spec names; they shadow the generic ones of the same name
#: (so ``ismcts`` is the C search here). Strings: nothing is imported until an agent is made.
BOTS: dict[str, str] = {
    "random": "airships_env.policy:RandomPolicy",
    "greedy": "agents.bots.greedy:GreedyAgent",
    "heuristic": "agents.bots.heuristic:HeuristicAgent",
    "mcts": "agents.bots.mcts:MCTSAgent",
    "ismcts": "agents.bots.ismcts:ISMCTSAgent",
    "az": "agents.az.agent:AZAgent",
    "ppo": "agents.policy_agent:PPOAgent",
    "rllib": "agents.rllib.export:RLlibAgent",
}


class AirshipsGame:
    """Airships (:class:`airships_env.protocol.Game`): 2-4 players, 83 actions, v1."""

    name = "airships"
    title = "Airships"
    version = 1
    player_counts = (2, 3, 4)
    num_actions = NUM_ACTIONS
    score_scale = 20.0  # reward="score": score margin / 20 (as airships_env.aec)

    @property
    def backends(self) -> tuple[str, ...]:
        """``("native", "python")`` where the native core is built (the environments' default
        first, as :func:`airships_env.aec.default_backend`), else ``("python",)``."""
        from airships_env.registry import BACKENDS, native_built

        return BACKENDS if native_built() else ("python",)

    def action_name(self, action: int) -> str:
        """The readable name of an action index ('attempt board 4 (no exchange)', 'pass')."""
        return _action_name(action)

    def new_state(
        self,
        num_players: int,
        seed: int | None = None,
        *,
        rng: np.random.Generator | None = None,
        options: RulesOptions | None = None,
        data: Any = None,
        backend: str | None = "python",
    ) -> Any:
        """Set up and deal a game (S1-S6); ``data``: a card file or CardSet; ``backend``:
        ``"python"`` (the engine), ``"native"`` (the C core, same game), None the default."""
        from airships_env.registry import check_backend

        if check_backend(self, backend) == "native":
            from airships_env.native import NativeGame

            return NativeGame.new(num_players, seed, rng=rng, cards=data, options=options)
        return new_game(num_players, seed, rng=rng, cards=data, options=options)

    def options_from_dict(self, data: dict[str, Any]) -> RulesOptions:
        """The rules options a dict names (:meth:`RulesOptions.from_dict`: unknown names and
        values that are not booleans are errors)."""
        return RulesOptions.from_dict(data)

    def state_from_dict(self, data: Mapping[str, Any]) -> GameState:
        """The state a ``GameState.to_dict`` wrote."""
        return GameState.from_dict(dict(data))

    def record_from_dict(self, data: Mapping[str, Any]) -> ActionRecord:
        """The record an ``ActionRecord.to_dict`` wrote."""
        return ActionRecord.from_dict(dict(data))

    def replay_action(self, state: Any, record: ActionRecord) -> ActionRecord:
        """Apply ``record``'s action: dice rolled again by the state's generator (so the state,
        generator included, follows the original exactly), or the logged dice for a state
        without one (as :func:`airships_env.engine.replay`); the new record."""
        if isinstance(state, GameState) and state.rng is None:
            return state.apply_action(record.action, record.rolled)
        return state.apply_action(record.action)

    def observation_layout(self, num_players: int) -> list[tuple[str, int]]:
        """The named pieces of a seat's observation (:mod:`airships_env.observation`)."""
        from airships_env.observation import observation_pieces

        return observation_pieces(num_players)

    def observation_size(self, num_players: int) -> int:
        """The length of a seat's observation vector."""
        from airships_env.observation import observation_size

        return observation_size(num_players)

    def observation_bounds(self, num_players: int) -> tuple[np.ndarray, np.ndarray]:
        """Every entry of the observation lies in [0, high] (optional protocol member)."""
        from airships_env.observation import observation_high

        high = observation_high(num_players)
        return np.zeros_like(high), high

    def observe(self, view: Any, seat: int) -> np.ndarray:
        """``seat``'s observation of a view or a state (engine or native), float32."""
        if isinstance(view, GameState):
            from airships_env.observation import encoder_for

            return encoder_for(view.cards, view.num_players).encode(view, seat)
        observation: np.ndarray = view.observe(seat)
        return observation

    def bots(self) -> Mapping[str, str]:
        """Airships' agents: spec name -> ``'module:Class'``."""
        return BOTS

    def native_bots(self) -> str:
        """Airships' bots with a native twin and how the core plays them (``module:attr``)."""
        return "agents.bots.native:NATIVE_BOTS"

    def native_vec_env(self) -> str:
        """The batched native VecEnv (``module:Class``)."""
        return "airships_env.vector:AirshipsVecEnv"

    def record_fields(self, state: Any) -> dict[str, Any]:
        """A finished game's own fields in an arena record: each seat's airships (E3)."""
        from airships_env.engine.rules import airship_count

        return {"airships": [airship_count(state, p) for p in range(state.num_players)]}

    def log_header(self, state: Any, meta: Mapping[str, Any]) -> dict[str, Any]:
        """The header line of a game log starting at ``state`` (Airships: GameLog's)."""
        from airships_env.engine import GameLog

        return GameLog.start(state, **meta).header()

    def log_record(self, record: ActionRecord) -> dict[str, Any]:
        """One action's line of a game log (Airships: the ``airships-log`` line, typed)."""
        from airships_env.engine.log import record_entry

        return record_entry(record)

    def presenter(self) -> Any:
        """Airships' presenter (text, ANSI, picture, SVG)."""
        from airships_env.games.airships.present import AirshipsPresenter

        return AirshipsPresenter()

    def env(self, **kwargs: Any) -> Any:
        """Airships' PettingZoo AEC env, ``airships_v1`` (:func:`airships_env.aec.env`)."""
        from airships_env.aec import env as airships_env

        return airships_env(**kwargs)

    def single_agent_env(self, **kwargs: Any) -> Any:
        """Airships' single-agent Gymnasium env (``Airships-v1``)."""
        from airships_env.single_agent import AirshipsSingleAgentEnv

        return AirshipsSingleAgentEnv(**kwargs)


GAME = AirshipsGame()


def env(**kwargs: Any) -> Any:
    """Airships' PettingZoo AEC env with the order-enforcing wrapper (``airships_v1``)."""
    return GAME.env(**kwargs)


def raw_env(**kwargs: Any) -> Any:
    """Airships' PettingZoo AEC env without wrappers."""
    from airships_env.aec import raw_env as airships_raw_env

    return airships_raw_env(**kwargs)
