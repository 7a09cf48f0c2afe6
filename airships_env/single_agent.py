"""One learning seat against given opponents, as a Gymnasium environment (``Airships-v1``).

The learner's observation is the flat float32 vector of :mod:`airships_env.observation` (seen
from its seat), its action space the engine's 83 actions, and :meth:`AirshipsSingleAgentEnv.
action_masks` gives the legal ones (for sb3-contrib's MaskablePPO, which finds it through
``gym.make``'s wrappers; other code calls ``env.unwrapped.action_masks()``). After the learner's action
the opponents play until it is the learner's turn again or the game is over, so the learner
also receives the result of a game that an opponent's move ended. The reward is the learner's
own, from the same reward function as the AEC environment
(:func:`airships_env.aec.game_rewards`).

Opponents follow :class:`airships_env.policy.Policy` (``reset(seat, num_players, rng)``,
``act(decision)``); a plain callable ``f(observation, action_mask) -> int`` is accepted too.
``opponents`` is one entry per other seat, listed from the seat after the learner's in play
order, or a single entry used for every other seat (a Policy object is copied per seat, so
that each seat has its own state). Default: :class:`~airships_env.policy.RandomPolicy`.

Randomness: ``reset(seed=s)`` seeds everything; each episode draws the game's generator and one
generator per opponent from a ``numpy.random.SeedSequence`` (spawned, never shared), and the
learner's seat (``seat="random"``) from the environment's own ``np_random``.

Actions: every integer-like value the action space accepts is an action: a Python int, a numpy
integer, or the 0-d integer array that ``MaskablePPO.predict`` returns (converted in one place,
:func:`airships_env.engine.as_action_index`). A value the action space does not
contain (a float, NaN, a string, an index outside 0..82) raises the engine's
``ActionSpaceError`` whatever ``illegal_action`` says: it is a bug in the policy, not a move
that loses. Masked actions: by default (``illegal_action="penalize"``) an action of the space
that the mask forbids ends the episode with reward -1 and ``info["illegal_action"]`` set, and
the first one of an environment warns (a silent -1 hides a bug); ``"raise"`` raises the
engine's ``IllegalActionError``.

The environment pickles with its whole state (the game, the generators, the opponents), so it
works with ``SubprocVecEnv`` and ``copy.deepcopy``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from gymnasium import spaces

from airships_env.aec import RENDER_MODES, raw_env, render_state
from airships_env.engine import NUM_ACTIONS, RulesOptions
from airships_env.game_aec import check_render_mode
from airships_env.game_single_agent import LearnerSeatEnv, check_seat
from airships_env.native import NativeGame
from airships_env.policy import (
    CallablePolicy,
    Decision,
    ObservationPolicy,
    Policy,
    as_policy,
    opponent_policies,
)

ENV_ID = "Airships-v1"  # registered by airships_env.registry (every game's id, one place)

__all__ = ["ENV_ID", "AirshipsSingleAgentEnv", "CallablePolicy", "ObservationPolicy", "as_policy"]


class AirshipsSingleAgentEnv(LearnerSeatEnv):
    """Airships for one learner; the other seats are played by ``opponents``."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(
        self,
        num_players: int = 4,
        opponents: Policy | ObservationPolicy | Sequence[Policy | ObservationPolicy] | None = None,
        seat: int | str = "random",
        render_mode: str | None = None,
        card_file: str | None = None,
        reward: str = "win",
        illegal_action: str = "penalize",
        max_turns: int | None = None,
        rules_options: RulesOptions | None = None,
        backend: str | None = None,
    ):
        self._aec = raw_env(
            num_players=num_players,
            render_mode=None,
            card_file=card_file,
            reward=reward,
            illegal_action=illegal_action,
            max_turns=max_turns,
            rules_options=rules_options,
            backend=backend,
        )
        self.render_mode = render_mode
        check_render_mode(render_mode)
        check_seat(seat, num_players)
        self.seat_choice = seat
        self.num_players = num_players
        self.opponents = opponent_policies(opponents, num_players - 1)
        encoder = self._aec.encoder
        self.observation_space = spaces.Box(
            low=0.0, high=encoder.high, shape=(encoder.size,), dtype=np.float32
        )
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.seat = 0 if seat == "random" else int(seat)
        self._seed_sequence: np.random.SeedSequence | None = None
        self._opponent_of_seat: dict[int, Policy] = {}
        self._done = True

    # -- the AEC game underneath -----------------------------------------------------------
    @property
    def aec_env(self) -> raw_env:
        """The AEC environment the game runs in (``.game`` is the engine state)."""
        return self._aec

    def _play_opponents(self) -> None:
        """Opponents act until it is the learner's turn or the game is over. With the native
        backend a bot that has a native twin (``native_bot``: the greedy and heuristic bots)
        chooses in the core, which makes the same choice."""
        aec = self._aec
        learner = self.agent
        while not self._learner_done() and aec.agent_selection != learner:
            game = aec.engine
            opponent = self._opponent_of_seat[game.current_player]
            if isinstance(game, NativeGame):
                twin = getattr(opponent, "native_bot", None)
                if twin is not None:
                    aec.step(game.bot_action(twin[0], twin[1], game.legal_actions()))
                    continue
                aec.step(opponent.act(Decision.from_native(game)))
            else:
                aec.step(opponent.act(Decision.from_state(game)))

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner as booleans (all False once the episode is over)."""
        if self._done or self._aec.game is None:
            return np.zeros(NUM_ACTIONS, dtype=bool)
        mask: np.ndarray = self._aec.infos[self.agent]["action_mask"]
        return mask.astype(bool)

    def render(self) -> str | np.ndarray | None:  # type: ignore[override,unused-ignore]
        """Render the table in ``render_mode`` (see :func:`airships_env.aec.render_state`)."""
        game = self._aec.game
        if game is None:
            raise RuntimeError("call reset() before render()")
        return render_state(game, self._aec.last_record, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""
