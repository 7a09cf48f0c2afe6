"""One learning seat of any registered game against given opponents, as a Gymnasium env.

The generic twin of :class:`airships_env.single_agent.AirshipsSingleAgentEnv`, over
:class:`airships_env.game_aec.GameAEC` (the game protocol only): the learner's observation is
the game's float32 vector of its own view, its action space ``Discrete(game.num_actions)``, and
:meth:`GameSingleAgentEnv.action_masks` the legal actions (sb3-contrib's MaskablePPO finds it).
After the learner's action the opponents play until it is the learner's turn again or the game
is over. Rewards, illegal actions (``"penalize"`` by default) and ``max_turns``: as GameAEC.

Opponents are :class:`~airships_env.policy.Policy` objects (or callables ``f(observation,
action_mask) -> int``), one per other seat in play order from the seat after the learner's, or
a single one for every other seat (copied per seat). Each is given a
:class:`~airships_env.policy.Decision` made by ``Decision.for_game``: the view of its own seat.
Default: :class:`~airships_env.policy.RandomPolicy`.

Randomness: ``reset(seed=s)`` seeds everything: each episode draws the game's seed and one
generator per opponent from a ``numpy.random.SeedSequence``, the learner's seat
(``seat="random"``) from the environment's ``np_random``.

:class:`airships_env.game_vector.GameVecEnv` runs several of these as one Stable-Baselines3
``VecEnv``, for training on any game.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from airships_env.chance import check_seed
from airships_env.game_aec import RENDER_MODES, GameAEC, check_render_mode
from airships_env.policy import Decision, ObservationPolicy, Policy, opponent_policies
from airships_env.protocol import Game

__all__ = ["GameSingleAgentEnv", "LearnerSeatEnv", "check_seat"]

Opponents = Policy | ObservationPolicy | Sequence[Policy | ObservationPolicy] | None


def check_seat(seat: object, num_players: int) -> None:
    """ValueError unless ``seat`` is 'random' or a seat index of a ``num_players`` table."""
    if seat != "random" and (
        isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < num_players
    ):
        raise ValueError(f"seat must be 'random' or 0..{num_players - 1}, got {seat!r}")


class LearnerSeatEnv(gymnasium.Env[np.ndarray, np.int64]):
    """What both single-agent envs (Airships' and the generic one) do the same way: the learner's
    seat, the episode's seeding, opponents playing between the learner's turns, the step.

    A subclass sets ``_aec`` (the AEC env), ``num_players``, ``seat_choice``, ``seat``,
    ``opponents``, ``_seed_sequence`` (None), ``_opponent_of_seat`` ({}) and ``_done`` (True)
    in its ``__init__``, and defines ``_play_opponents()`` and ``action_masks()``.
    """

    _aec: Any
    num_players: int
    seat_choice: int | str
    seat: int
    opponents: list[Policy]
    _seed_sequence: np.random.SeedSequence | None
    _opponent_of_seat: dict[int, Policy]
    _done: bool
    _play_opponents: Callable[[], None]
    action_masks: Callable[[], np.ndarray]

    @property
    def agent(self) -> str:
        """The learner's agent name in the AEC environment."""
        name: str = self._aec.possible_agents[self.seat]
        return name

    def _learner_done(self) -> bool:
        return bool(self._aec.terminations[self.agent] or self._aec.truncations[self.agent])

    def _observation(self) -> np.ndarray:
        observation: np.ndarray = self._aec.observe(self.agent)["observation"]
        return observation

    def _info(self) -> dict[str, Any]:
        info = copy.deepcopy(self._aec.infos.get(self.agent, {}))
        if "action_mask" not in info:
            info["action_mask"] = self.action_masks().astype(np.int8)
        info["seat"] = self.seat
        return info

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a game; ``seed`` (a whole number >= 0) restarts the seeded stream, None
        continues it."""
        seed = check_seed(seed)
        super().reset(seed=seed)
        if seed is not None or self._seed_sequence is None:
            self._seed_sequence = np.random.SeedSequence(seed)
        episode = self._seed_sequence.spawn(1)[0]
        game_seed, *opponent_seeds = episode.spawn(self.num_players)
        if self.seat_choice == "random":
            self.seat = int(self.np_random.integers(self.num_players))
        self._aec.reset(seed=int.from_bytes(game_seed.generate_state(4).tobytes(), "little"))
        self._opponent_of_seat = {}
        for k, (opponent, opponent_seed) in enumerate(
            zip(self.opponents, opponent_seeds, strict=True)
        ):
            opponent_seat = (self.seat + 1 + k) % self.num_players
            opponent.reset(opponent_seat, self.num_players, np.random.default_rng(opponent_seed))
            self._opponent_of_seat[opponent_seat] = opponent
        self._play_opponents()
        self._done = self._learner_done()
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The learner's action, then the opponents' until the learner's next turn."""
        if self._done:
            raise RuntimeError("the episode is over: call reset() before step()")
        self._aec.step(action)
        self._play_opponents()
        agent = self.agent
        reward = float(self._aec._cumulative_rewards[agent])
        terminated = bool(self._aec.terminations[agent])
        truncated = bool(self._aec.truncations[agent])
        self._done = terminated or truncated
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, self._info()


class GameSingleAgentEnv(LearnerSeatEnv):
    """A game for one learner; the other seats are played by ``opponents``."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(
        self,
        game: Game | str,
        num_players: int | None = None,
        opponents: Opponents = None,
        seat: int | str = "random",
        render_mode: str | None = None,
        reward: str = "win",
        illegal_action: str = "penalize",
        max_turns: int | None = None,
        backend: str | None = None,
        options: Any = None,
        data: Any = None,
    ):
        self._aec = GameAEC(
            game,
            num_players=num_players,
            reward=reward,
            illegal_action=illegal_action,
            max_turns=max_turns,
            backend=backend,
            options=options,
            data=data,
        )
        self.game = self._aec.game
        self.num_players = self._aec.num_players
        check_render_mode(render_mode)
        self.render_mode = render_mode
        check_seat(seat, self.num_players)
        self.seat_choice = seat
        self.seat = 0 if seat == "random" else int(seat)
        self.opponents = opponent_policies(opponents, self.num_players - 1)
        box = self._aec.observation_spaces[self._aec.possible_agents[0]]["observation"]
        self.observation_space = box
        self.action_space = spaces.Discrete(self.game.num_actions)
        self._seed_sequence: np.random.SeedSequence | None = None
        self._opponent_of_seat: dict[int, Policy] = {}
        self._done = True

    @property
    def aec_env(self) -> GameAEC:
        """The AEC environment the game runs in (``.state`` is the true state)."""
        return self._aec

    def _play_opponents(self) -> None:
        """Opponents act until it is the learner's turn or the game is over."""
        aec = self._aec
        while not self._learner_done() and aec.agent_selection != self.agent:
            state = aec.state
            opponent = self._opponent_of_seat[state.current_player]
            aec.step(opponent.act(Decision.for_game(self.game, state)))

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner as booleans (all False once the episode is over)."""
        if self._done or self._aec.state is None:
            return np.zeros(self.game.num_actions, dtype=bool)
        mask: np.ndarray = self._aec.infos[self.agent]["action_mask"]
        return mask.astype(bool)

    def render(self) -> str | np.ndarray | None:  # type: ignore[override,unused-ignore]
        """Render the table in ``render_mode`` through the game's presenter."""
        if self._aec.state is None:
            raise RuntimeError("call reset() before render()")
        self._aec.render_mode = self.render_mode
        return self._aec.render()

    def close(self) -> None:
        """Nothing to release."""
