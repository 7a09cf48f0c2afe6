"""The PettingZoo AEC environment of Airships: ``airships_v1``.

``env(**kwargs)`` is the usual entry point (``raw_env`` wrapped in PettingZoo's
``OrderEnforcingWrapper``); ``raw_env`` is the class. Agents are ``player_0`` ...
``player_{n-1}`` in seat order; seat 0 starts (S1). The engine decides who acts: a player acts
again for its chip decision (T5), for the extra-turn decision (T8) and for every extra turn it
buys, so ``agent_selection`` does not simply rotate.

Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``: the vector is
described in :mod:`airships_env.observation` (seen from the observing agent, public information
only, docs/airships/RULES.md V1/V2), the mask has one entry per action of the engine's action table
(:mod:`airships_env.engine.actions`, 83 actions) and is all zeros for an agent that is not to
act. The acting agent's mask is also ``infos[agent]["action_mask"]``.

Rewards arrive once, when the game ends, to every agent (see :func:`game_rewards`):
``reward="win"`` gives each winner ``+1/k`` (``k`` winners share the win, E3) and each other
player ``-1``; ``reward="score"`` gives (own score - best opponent score) / 20.

Illegal actions: a value that is no action at all (not an integer index, NaN, outside 0..82:
what ``Discrete(83)`` does not contain) always raises the engine's ``ActionSpaceError``, a bug
in the caller. An action of the space that the mask forbids follows ``illegal_action``:
``"raise"`` raises the engine's ``IllegalActionError`` (its message names the action and lists
the legal ones); ``"penalize"`` ends the game for everyone, with -1 for the offender and 0 for
the others (as PettingZoo's TerminateIllegalWrapper), and records the error in
``infos[offender]["illegal_action"]``.

``max_turns`` truncates the game (every agent truncated, rewards 0) once that many engine turns
were played; by default there is no limit: the engine's games always end (E1, stalemate E4).

Seeding: ``reset(seed=s)`` makes the whole game reproducible; ``reset()`` without a seed starts
the next game of the same seeded stream (fresh entropy if the env was never seeded).

Backends: ``backend="native"`` (the default where the native core is built) plays the game in
the C core (:mod:`airships_env.native`), ``backend="python"`` in the Python engine, the
reference. Both give the same game, bit for bit, for the same seed and actions.

For tools: ``env.unwrapped.game`` is the engine's :class:`~airships_env.engine.GameState` (the
true state: do not show its hidden parts to agents; with the native backend it is a copy made on
request) and ``env.unwrapped.last_record`` the :class:`~airships_env.engine.ActionRecord` of the
last action (None after reset).

Version history:

* v0: first release. 57 actions; observation layout of :mod:`airships_env.observation`
  (1399 / 1646 / 1893 values for 2 / 3 / 4 players).
* v1: Rules v1 (docs/airships/RULES.md T3): the player chooses whether an exchange gives its fixed
  (Engineer) die, so each target has three attempt actions (no exchange, exchange giving
  rollable dice, exchange giving the fixed die): 83 actions. The observation gains the dice
  available after each exchange variant and odds for every attempt action, and the pending
  roll shows its variant (1485 / 1735 / 1985 values for 2 / 3 / 4 players).
"""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from airships_env.engine import (
    NUM_ACTIONS,
    ActionRecord,
    ActionSpaceError,
    GameState,
    IllegalActionError,
    RulesOptions,
    as_action_index,
    load_cards,
    new_game,
    public_view,
)
from airships_env.engine import rules as _rules
from airships_env.engine.game import check_seed
from airships_env.game_aec import ILLEGAL_ACTION_MODES as ILLEGAL_ACTION_MODES  # re-exported
from airships_env.game_aec import (  # the modes, rewards and penalty every env shares
    ILLEGAL_ACTION_REWARD,
    RENDER_MODES,
    check_env_options,
    check_reward,
    penalty_warning,
    rewards_from,
)
from airships_env.game_aec import REWARD_MODES as REWARD_MODES  # re-exported
from airships_env.native import NativeGame, NativeUnavailableError
from airships_env.native import available as native_available
from airships_env.observation import ObservationEncoder
from airships_env.registry import BACKENDS as BACKENDS  # re-exported: every game's two engines

SCORE_REWARD_SCALE = 20.0


def default_backend() -> str:
    """'native' where the native core is built, else 'python'."""
    return "native" if native_available() else "python"


def check_backend(backend: str | None) -> str:
    """The backend to use: ``None`` picks :func:`default_backend`; 'native' must be built."""
    if backend is None:
        return default_backend()
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS} or None, got {backend!r}")
    if backend == "native" and not native_available():
        raise NativeUnavailableError(
            "backend='native': the native core is not built (`pip install -e .` builds it); "
            "use backend='python'"
        )
    return backend


def game_rewards(state: GameState | NativeGame, reward: str = "win") -> list[float]:
    """Every seat's reward for a finished game (the one place rewards are defined).

    ``"win"``: each of the ``k`` winners (E3; a shared win has several) gets ``1/k`` and every
    other player ``-1``. The winners' rewards always add up to one win, so a shared win is worth
    less than a sole one but always more than a loss, and a loss costs the same however many
    players share the win. With one winner this is the usual +1 / -1.
    ``"score"``: (own score - best opponent score) / SCORE_REWARD_SCALE (20), from the final
    scores (E2); positive only for a player ahead of everybody else.
    """
    check_reward(reward)
    if state.winners is None or state.final_scores is None:
        raise ValueError("the game is not over: rewards are given at the end")
    return rewards_from(state.final_scores, state.winners, reward, SCORE_REWARD_SCALE)


def render_state(
    state: GameState, last_record: ActionRecord | None, mode: str | None
) -> str | np.ndarray | None:
    """Render a game in one of RENDER_MODES (``human`` prints the text and returns None).

    Only the public view is drawn, so a picture never shows a hidden card (V2).
    """
    if mode is None:
        gymnasium.logger.warn("render() was called without a render_mode; nothing to render.")
        return None
    from airships_env import render as _render

    view = public_view(state)
    if mode == "ansi":
        return _render.render_ansi(view, last_record)
    if mode == "human":
        print(_render.render_ansi(view, last_record))
        return None
    if mode == "rgb_array":
        return _render.render_rgb(view, last_record)
    raise ValueError(f"render_mode must be one of {RENDER_MODES} or None, got {mode!r}")


def check_options(
    num_players: int,
    render_mode: str | None,
    reward: str,
    illegal_action: str,
    max_turns: int | None,
) -> None:
    """Validate the environment's arguments with a message naming the argument."""
    if (
        isinstance(num_players, bool)
        or not isinstance(num_players, int)
        or not (2 <= num_players <= 4)
    ):
        raise ValueError(f"num_players must be 2, 3 or 4, got {num_players!r}")
    check_env_options(render_mode, reward, illegal_action, max_turns)


def env(**kwargs: Any) -> AECEnv:
    """The Airships AEC environment with PettingZoo's order-enforcing wrapper.

    Illegal actions are handled by the environment itself (``illegal_action``), so PettingZoo's
    TerminateIllegalWrapper and AssertOutOfBoundsWrapper are not applied: the engine's error
    already names the action and lists the legal ones, out-of-range indices included.
    """
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


class raw_env(AECEnv):
    """Airships as a PettingZoo AEC environment (see the module docstring)."""

    metadata = {
        "render_modes": list(RENDER_MODES),
        "name": "airships_v1",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        num_players: int = 4,
        render_mode: str | None = None,
        card_file: str | None = None,
        reward: str = "win",
        illegal_action: str = "raise",
        max_turns: int | None = None,
        rules_options: RulesOptions | None = None,
        backend: str | None = None,
    ):
        super().__init__()
        check_options(num_players, render_mode, reward, illegal_action, max_turns)
        self.backend = check_backend(backend)
        self.num_players = num_players
        self.render_mode = render_mode
        self.reward_mode = reward
        self.illegal_action = illegal_action
        self._warned_illegal = False  # a penalized illegal action warns once per environment
        self.max_turns = max_turns
        self.rules_options = rules_options if rules_options is not None else RulesOptions()
        self.cards = load_cards(card_file)
        self.encoder = ObservationEncoder(self.cards, num_players)
        self.possible_agents = [f"player_{seat}" for seat in range(num_players)]
        self.agents = self.possible_agents[:]
        self.seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        # One space object for every agent (the same for all seats; pickles once).
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=0.0,
                    high=self.encoder.high,
                    shape=(self.encoder.size,),
                    dtype=np.float32,
                ),
                "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.action_spaces: dict[str, spaces.Space] = {
            agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents
        }
        self._engine: GameState | NativeGame | None = None
        self._state_copy: GameState | None = None
        self.last_record: ActionRecord | None = None
        self._seed_sequence: np.random.SeedSequence | None = None
        self._observations: dict[int, np.ndarray] = {}
        self._acting_mask = np.zeros(NUM_ACTIONS, dtype=np.int8)

    def observation_space(self, agent: str) -> spaces.Space:
        """The agent's observation space (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """The agent's action space: Discrete(83), the engine's action table."""
        return self.action_spaces[agent]

    # -- episode -----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` (a whole number >= 0) restarts the seeded stream, None
        continues it."""
        seed = check_seed(seed)
        if seed is not None or self._seed_sequence is None:
            self._seed_sequence = np.random.SeedSequence(seed)
        game_seed = self._seed_sequence.spawn(1)[0]
        start = NativeGame.new if self.backend == "native" else new_game
        self._engine = start(
            self.num_players,
            rng=np.random.default_rng(game_seed),
            cards=self.cards,
            options=self.rules_options,
        )
        self._state_copy = None
        self.last_record = None
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[self._engine.current_player]
        self._observations.clear()
        self._update_infos()

    @property
    def game(self) -> GameState | None:
        """The game's true state (None before reset); with the native backend a fresh copy."""
        engine = self._engine
        if engine is None or isinstance(engine, GameState):
            return engine
        if self._state_copy is None:
            self._state_copy = engine.to_state()
        return self._state_copy

    @property
    def engine(self) -> GameState | NativeGame:
        """The game as the backend holds it (a GameState, or a NativeGame)."""
        return self._require_game()

    def step(self, action: Any) -> None:
        """Apply the acting agent's action (None for an agent that is already done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._require_game()
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        try:
            record = game.apply_action(action)
        except IllegalActionError as error:
            if self.illegal_action == "raise" or isinstance(error, ActionSpaceError):
                raise
            self._penalize(agent, action, error)
            return
        self._state_copy = None
        self.last_record = record
        self._observations.clear()
        if game.is_terminal():
            for seat, reward in enumerate(game_rewards(game, self.reward_mode)):
                self.rewards[self.possible_agents[seat]] = reward
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_turns is not None and game.turn > self.max_turns:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[game.current_player]
        self._accumulate_rewards()
        self._update_infos()
        if self.render_mode == "human":
            self.render()

    def _penalize(self, agent: str, action: Any, error: IllegalActionError) -> None:
        """End the game for everyone: the offender gets ILLEGAL_ACTION_REWARD, others 0; the
        first time in this environment, also a warning (a silent -1 hides a bug)."""
        if not self._warned_illegal:
            self._warned_illegal = True
            warnings.warn(penalty_warning(error, agent), UserWarning, stacklevel=3)
        self._observations.clear()
        self.rewards[agent] = ILLEGAL_ACTION_REWARD
        self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self._update_infos()
        self.infos[agent]["illegal_action"] = {
            "action": index if (index := as_action_index(action)) is not None else repr(action),
            "phase": error.phase,
            "legal": list(error.legal),
            "message": str(error),
        }

    # -- observations --------------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation vector and action mask (fresh arrays)."""
        game = self._require_game()
        seat = self.seat_of[agent]
        vector = self._observations.get(seat)
        if vector is None:
            if isinstance(game, NativeGame):
                vector = self._observations[seat] = game.observe(seat)
            else:
                vector = self._observations[seat] = self.encoder.encode(game, seat)
        return {"observation": vector.copy(), "action_mask": self._mask(agent)}

    def _mask(self, agent: str) -> np.ndarray:
        if agent == self.agent_selection and not (
            self.terminations.get(agent, True) or self.truncations.get(agent, True)
        ):
            return self._acting_mask.copy()
        return np.zeros(NUM_ACTIONS, dtype=np.int8)

    def _update_infos(self) -> None:
        game = self._require_game()
        acting = self.agent_selection
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        active = not (self.terminations[acting] or self.truncations[acting])
        if active:
            mask[game.legal_actions()] = 1
        self._acting_mask = mask
        self.infos = {
            agent: {
                "action_mask": mask.copy()
                if active and agent == acting
                else np.zeros(NUM_ACTIONS, dtype=np.int8)
            }
            for agent in self.agents
        }
        if game.is_terminal():
            winners = [self.possible_agents[seat] for seat in game.winners or ()]
            for agent in self.agents:
                self.infos[agent]["final_scores"] = dict(
                    zip(self.possible_agents, game.final_scores or (), strict=True)
                )
                self.infos[agent]["winners"] = list(winners)
        elif any(self.truncations.values()):
            current = game.scores() if isinstance(game, NativeGame) else _rules.scores(game)
            for agent in self.agents:
                self.infos[agent]["scores"] = dict(zip(self.possible_agents, current, strict=True))

    def _require_game(self) -> GameState | NativeGame:
        if self._engine is None:
            raise RuntimeError("call reset() before using the environment")
        return self._engine

    # -- rendering -------------------------------------------------------------------------
    def render(self) -> str | np.ndarray | None:
        """Render in ``render_mode``: ``ansi`` text, ``human`` (prints), ``rgb_array`` picture."""
        self._require_game()
        assert self.game is not None
        return render_state(self.game, self.last_record, self.render_mode)

    def close(self) -> None:
        """Nothing to release: rendering keeps no window open."""
