"""Any registered game as a PettingZoo AEC environment, through the game protocol alone.

``GameAEC(game, num_players)`` plays a :class:`~airships_env.protocol.Game` (an object or a
registered name): agents ``player_0`` ... ``player_{n-1}`` in seat order; the game's state says
who acts (``current_player``), so a seat may act several times in a row. Airships keeps its own
faster environment (:mod:`airships_env.aec`, ``airships_v1``); this one serves every game the
same way and is what a new game gets on the day it registers (``env_name`` ``<name>_v<N>``).

Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``: the vector is
``game.observe(state.view(seat), seat)`` (so it comes from what that seat may see), or, for a
game whose ``observes_true_state`` is True, ``game.observe(state, seat)``, the same vector
bit for bit without building the view (the conformance suite holds such a game to it); the
mask has ``game.num_actions`` entries, all zero for an agent not to act. The acting agent's
mask is also ``infos[agent]["action_mask"]``.

Legal actions are computed once per step (and at reset), after the action: the one list gives
the mask and is what the next action is checked against; a state that has
``apply_legal_action`` then applies the checked action without computing them again.

Rewards arrive once, at the end, from the state's :class:`~airships_env.protocol.Outcome`
(:func:`outcome_rewards`): ``reward="win"`` gives each of the ``k`` winners ``1/k`` and every
other seat ``-1`` (a draw with no winner: 0 for all); ``reward="score"`` gives (own score - best
other score) / ``game.score_scale`` (a game may set ``score_scale``; 1 otherwise).

Illegal actions: this environment checks every action against the legal ones before the game
sees it. ``illegal_action="raise"`` raises :class:`~airships_env.protocol.IllegalActionError`
(the action and the legal ones, with their names); ``"penalize"`` ends the game with -1 for the
offender and 0 for the others, and records the error in ``infos[offender]["illegal_action"]``.
A value that is no action at all (not an integer, or outside the table) always raises
:class:`~airships_env.protocol.ActionSpaceError`: it is a bug in the caller, not a move.

``max_turns`` truncates the game (every agent truncated, rewards 0) after that many actions (the
protocol has no turns of its own: here a turn is one action).

Backends: ``backend`` is one of the game's ``backends``; None (the default) takes its first,
``"native"`` where the game's rules run in a native core built here (the same game, bit for bit,
as ``"python"``, the engine). With the native backend ``env.state`` is the core's game with the
protocol's vocabulary (a :class:`~airships_env.native.state.NativeState`; Airships' own
``NativeGame``), ``to_state()`` gives the engine's state, and the observations come from the
core (a state's own ``observe(seat)``).

Seeding: ``reset(seed=s)`` makes the game reproducible; ``reset()`` continues the seeded stream.
Rendering goes through the game's :class:`~airships_env.protocol.Presenter`, with the true
state and no seat: the presenter draws only what every seat may see.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from airships_env.chance import check_seed
from airships_env.protocol import (
    ActionSpaceError,
    Game,
    IllegalActionError,
    Outcome,
    as_action_index,
    not_an_action_reason,
)
from airships_env.registry import check_backend, pettingzoo_name, resolve_game

__all__ = [
    "ILLEGAL_ACTION_MODES",
    "ILLEGAL_ACTION_REWARD",
    "RENDER_MODES",
    "REWARD_MODES",
    "GameAEC",
    "check_env_options",
    "check_num_players",
    "check_render_mode",
    "check_reward",
    "env",
    "observation_bounds",
    "outcome_rewards",
    "penalty_warning",
    "rewards_from",
]

REWARD_MODES: tuple[str, ...] = ("win", "score")
ILLEGAL_ACTION_MODES: tuple[str, ...] = ("raise", "penalize")
RENDER_MODES: tuple[str, ...] = ("human", "ansi", "rgb_array")
ILLEGAL_ACTION_REWARD = -1.0


def check_num_players(game: Game, num_players: object) -> int:
    """``num_players`` if the game allows it, else ValueError naming the allowed counts."""
    if (
        isinstance(num_players, bool)
        or not isinstance(num_players, (int, np.integer))
        or int(num_players) not in game.player_counts
    ):
        allowed = ", ".join(str(n) for n in game.player_counts)
        raise ValueError(f"{game.name}: num_players must be one of {allowed}, got {num_players!r}")
    return int(num_players)


def check_reward(reward: object) -> None:
    """ValueError unless ``reward`` is one of REWARD_MODES."""
    if reward not in REWARD_MODES:
        raise ValueError(f"reward must be one of {REWARD_MODES}, got {reward!r}")


def outcome_rewards(outcome: Outcome, reward: str = "win", score_scale: float = 1.0) -> list[float]:
    """Every seat's reward for a finished game (see the module docstring)."""
    check_reward(reward)
    return rewards_from(outcome.scores, outcome.winners, reward, score_scale)


def rewards_from(
    scores: Sequence[float], winners: Sequence[int], reward: str, score_scale: float
) -> list[float]:
    """Every seat's reward from the final scores and the winners (``reward`` already checked):
    ``"win"``: 1/k for each of the k winners, -1 for the others (0 for all without a winner);
    ``"score"``: the margin over the best other seat divided by ``score_scale``."""
    seats = range(len(scores))
    if reward == "win":
        if not winners:
            return [0.0 for _ in seats]
        share = 1.0 / len(winners)
        return [share if seat in winners else -1.0 for seat in seats]
    return [
        (scores[seat] - max(scores[other] for other in seats if other != seat)) / score_scale
        for seat in seats
    ]


def check_render_mode(render_mode: object) -> None:
    """ValueError unless ``render_mode`` is one of RENDER_MODES or None."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be one of {RENDER_MODES} or None, got {render_mode!r}")


def check_env_options(
    render_mode: str | None, reward: str, illegal_action: str, max_turns: int | None
) -> None:
    """Validate the AEC environments' shared arguments with a message naming the argument."""
    check_render_mode(render_mode)
    check_reward(reward)
    if illegal_action not in ILLEGAL_ACTION_MODES:
        raise ValueError(
            f"illegal_action must be one of {ILLEGAL_ACTION_MODES}, got {illegal_action!r}"
        )
    if max_turns is not None and (
        isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 1
    ):
        raise ValueError(f"max_turns must be a positive integer or None, got {max_turns!r}")


def penalty_warning(error: IllegalActionError, agent: str) -> str:
    """The warning of the first penalized illegal action in an environment."""
    return (
        f"{error} (penalized: the game ends with reward {ILLEGAL_ACTION_REWARD} for "
        f"{agent}; later illegal actions in this environment are penalized without "
        f"a warning; illegal_action='raise' raises instead)"
    )


def observation_bounds(game: Game, num_players: int) -> tuple[np.ndarray, np.ndarray]:
    """The bounds of a seat's observation: the game's ``observation_bounds(num_players)`` if it
    has one (an optional member), else unbounded."""
    size = game.observation_size(num_players)
    bounds = getattr(game, "observation_bounds", None)
    if bounds is None:
        return np.full(size, -np.inf, np.float32), np.full(size, np.inf, np.float32)
    low, high = bounds(num_players)
    return (
        np.broadcast_to(np.asarray(low, np.float32), (size,)).copy(),
        np.broadcast_to(np.asarray(high, np.float32), (size,)).copy(),
    )


def env(game: Game | str, **kwargs: Any) -> AECEnv:
    """:class:`GameAEC` with PettingZoo's order-enforcing wrapper (what ``Game.env`` returns)."""
    return wrappers.OrderEnforcingWrapper(GameAEC(game, **kwargs))


class GameAEC(AECEnv):
    """A game of the protocol as a PettingZoo AEC environment (see the module docstring)."""

    def __init__(
        self,
        game: Game | str,
        num_players: int | None = None,
        render_mode: str | None = None,
        reward: str = "win",
        illegal_action: str = "raise",
        max_turns: int | None = None,
        backend: str | None = None,
        options: Any = None,
        data: Any = None,
    ):
        super().__init__()
        self.game = resolve_game(game)
        game_type = self.game
        num_players = check_num_players(
            game_type, max(game_type.player_counts) if num_players is None else num_players
        )
        check_env_options(render_mode, reward, illegal_action, max_turns)
        backend = check_backend(game_type, backend)
        self.metadata = {
            "render_modes": list(RENDER_MODES),
            "name": pettingzoo_name(game_type.name, game_type.version),
            "is_parallelizable": False,
            "render_fps": 1,
        }
        self.num_players = num_players
        self.render_mode = render_mode
        self.reward_mode = reward
        self.score_scale = float(getattr(game_type, "score_scale", 1.0))
        self.illegal_action = illegal_action
        self.max_turns = max_turns
        self.backend = backend
        self.options = options
        self.data = data
        self.num_actions = game_type.num_actions
        self._warned_illegal = False
        self.possible_agents = [f"player_{seat}" for seat in range(num_players)]
        self.agents = self.possible_agents[:]
        self.seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size = game_type.observation_size(num_players)
        low, high = observation_bounds(game_type, num_players)
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low, high, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(self.num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.action_spaces: dict[str, spaces.Space] = {
            agent: spaces.Discrete(self.num_actions) for agent in self.possible_agents
        }
        self.state: Any = None
        self.last_record: Any = None
        self.actions_played = 0
        self._seed_sequence: np.random.SeedSequence | None = None
        self._observations: dict[int, np.ndarray] = {}
        self._observes_true_state = bool(getattr(game_type, "observes_true_state", False))
        self._legal: list[int] = []
        self._legal_state: Any = None  # the state ``_legal`` was computed for
        self._acting_mask = np.zeros(self.num_actions, dtype=np.int8)

    def observation_space(self, agent: str) -> spaces.Space:
        """The agent's observation space (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """The agent's action space: Discrete(game.num_actions)."""
        return self.action_spaces[agent]

    # -- episode -----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` (a whole number >= 0) restarts the seeded stream."""
        seed = check_seed(seed)
        if seed is not None or self._seed_sequence is None:
            self._seed_sequence = np.random.SeedSequence(seed)
        game_seed = self._seed_sequence.spawn(1)[0]
        self.state = self.game.new_state(
            self.num_players,
            rng=np.random.default_rng(game_seed),
            options=self.options,
            data=self.data,
            backend=self.backend,
        )
        self.last_record = None
        self.actions_played = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[self.state.current_player]
        self._observations.clear()
        self._update_infos()

    def step(self, action: Any) -> None:
        """Apply the acting agent's action (None for an agent that is already done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._require_state()
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        index = as_action_index(action)
        if index is None or index not in self._legal:
            error = self._illegal(action, index)
            # a value outside the action space is a bug in the caller: never penalized
            if self.illegal_action == "raise" or isinstance(error, ActionSpaceError):
                raise error
            self._penalize(agent, action, index, error)
            return
        if state is self._legal_state and hasattr(state, "apply_legal_action"):
            self.last_record = state.apply_legal_action(index)  # checked above, same list
        else:
            self.last_record = state.apply_action(index)
        self.actions_played += 1
        self._observations.clear()
        if state.is_terminal():
            outcome = state.outcome()
            rewards = outcome_rewards(outcome, self.reward_mode, self.score_scale)
            for seat, reward in enumerate(rewards):
                self.rewards[self.possible_agents[seat]] = reward
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_turns is not None and self.actions_played >= self.max_turns:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[state.current_player]
        self._accumulate_rewards()
        self._update_infos()
        if self.render_mode == "human":
            self.render()

    def _illegal(self, action: Any, index: int | None) -> IllegalActionError:
        """The error for an action that is not legal now: an :class:`ActionSpaceError` for a
        value that is no action at all (not an integer index, or outside the table)."""
        names = [self.game.action_name(a) for a in self._legal]
        shown = action if index is None else index
        space = not_an_action_reason(action, self.num_actions)
        if space is not None:
            return ActionSpaceError(shown, "", self._legal, names, space)
        why = f"'{self.game.action_name(index or 0)}' is not allowed now"
        return IllegalActionError(shown, "", self._legal, names, why)

    def _penalize(
        self, agent: str, action: Any, index: int | None, error: IllegalActionError
    ) -> None:
        """End the game for everyone: the offender gets ILLEGAL_ACTION_REWARD, others 0."""
        if not self._warned_illegal:
            self._warned_illegal = True
            warnings.warn(penalty_warning(error, agent), UserWarning, stacklevel=3)
        self._observations.clear()
        self.rewards[agent] = ILLEGAL_ACTION_REWARD
        self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self._update_infos()
        self.infos[agent]["illegal_action"] = {
            "action": index if index is not None else repr(action),
            "legal": list(error.legal),
            "message": str(error),
        }

    # -- observations --------------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation vector (what its view shows) and action mask (fresh arrays)."""
        seat = self.seat_of[agent]
        vector = self._observations.get(seat)
        if vector is None:
            state = self._require_state()
            own = getattr(state, "observe", None)  # a native state writes its seats' vectors
            if own is not None:
                vector = np.asarray(own(seat), dtype=np.float32)
            else:
                seen = state if self._observes_true_state else state.view(seat)
                vector = np.asarray(self.game.observe(seen, seat), dtype=np.float32)
            self._observations[seat] = vector
        if agent == self.agent_selection and not (
            self.terminations.get(agent, True) or self.truncations.get(agent, True)
        ):
            mask = self._acting_mask.copy()
        else:
            mask = np.zeros(self.num_actions, dtype=np.int8)
        return {"observation": vector.copy(), "action_mask": mask}

    def _update_infos(self) -> None:
        state = self._require_state()
        acting = self.agent_selection
        num_actions = self.num_actions
        mask = np.zeros(num_actions, dtype=np.int8)
        active = not (self.terminations[acting] or self.truncations[acting])
        self._legal = state.legal_actions() if active else []
        self._legal_state = state
        mask[self._legal] = 1
        self._acting_mask = mask
        infos: dict[str, dict[str, Any]] = {
            agent: {"action_mask": np.zeros(num_actions, dtype=np.int8)} for agent in self.agents
        }
        if active:
            infos[acting]["action_mask"] = mask.copy()
        self.infos = infos
        if state.is_terminal():
            outcome = state.outcome()
            for agent in self.agents:
                self.infos[agent]["final_scores"] = dict(
                    zip(self.possible_agents, outcome.scores, strict=True)
                )
                self.infos[agent]["winners"] = [self.possible_agents[s] for s in outcome.winners]
                self.infos[agent]["ranks"] = dict(
                    zip(self.possible_agents, outcome.ranks, strict=True)
                )

    def _require_state(self) -> Any:
        if self.state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state

    # -- rendering -------------------------------------------------------------------------
    def render(self) -> str | np.ndarray | None:
        """Render in ``render_mode`` through the game's presenter (what every seat may see)."""
        state = self._require_state()
        if self.render_mode is None:
            warnings.warn("render() was called without a render_mode", UserWarning, stacklevel=2)
            return None
        presenter = self.game.presenter()
        if self.render_mode == "rgb_array":
            return presenter.rgb(state, None, self.last_record)
        text = presenter.ansi(state, None, self.last_record)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""
