"""Many Clockwork City games as one Stable-Baselines3 ``VecEnv``, stepped in the native core.

:class:`ClockworkVecEnv` holds ``num_envs`` games in a
:class:`~airships_env.native.clockwork.ClockworkBatch`: one call steps them all. In each game one
seat is the learner (a random seat each episode, or a fixed one); the other seats are opponents:
a native bot named ``"random"``, ``"greedy"`` or ``"heuristic"`` (``heuristic:threshold=0.2``),
played inside the core's step with the Python bots' decisions, or any other
:class:`~airships_env.policy.Policy` (a league snapshot): an external policy evaluated between
the core's steps for all games waiting on it (``act_batch`` if it has one, else ``act`` on
:meth:`~airships_env.policy.Decision.for_game`, the seat's view).

Everything else is :class:`~airships_env.vector.GameBatchVecEnv`'s, as for Airships: rewards are the
learner's at the end of a game (GameAEC's: +1 a win, -1 a loss, 0 a draw, for ``"win"`` and
``"score"`` alike), an ended game's ``info`` holds ``terminal_observation``,
``TimeLimit.truncated``, ``scores`` (the winner 1, the others 0), ``winners`` and ``seat``, and the game restarts at once. Seeds: see
:class:`~airships_env.native.clockwork.ClockworkBatch`. ``max_turns`` truncates an episode after
that many actions (GameAEC's meaning).

Needs the ``train`` extra (stable-baselines3) and the native core.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from airships_env.games.clockwork import GAME
from airships_env.games.clockwork.engine import ACTION_NAMES, NUM_ACTIONS, ClockworkData
from airships_env.games.clockwork.engine.model import RulesOptions
from airships_env.native.clockwork import BOTS, HEURISTIC_THRESHOLD, ClockworkBatch
from airships_env.native.table import Opponent
from airships_env.vector import GameBatchVecEnv, OpponentSpec, parse_bot_spec

__all__ = ["ClockworkVecEnv"]


class ClockworkVecEnv(GameBatchVecEnv):
    """``num_envs`` Clockwork City games in the native core as one VecEnv (see the module
    docstring)."""

    game = GAME
    batch_type = ClockworkBatch
    num_actions = NUM_ACTIONS
    action_names = ACTION_NAMES
    bot_codes = BOTS

    def __init__(
        self,
        num_envs: int,
        num_players: int = 2,
        opponents: OpponentSpec | Sequence[OpponentSpec] = "heuristic",
        *,
        seed: int = 0,
        reward: str = "win",
        max_turns: int | None = None,
        seat: int | str = "random",
        options: RulesOptions | None = None,
        data: ClockworkData | None = None,
    ):
        self._threshold: float | None = None
        super().__init__(
            num_envs,
            num_players,
            opponents,
            seed=seed,
            reward=reward,
            max_turns=max_turns,
            seat=seat,
            options=options,
            data=data,
        )

    def _batch_options(self) -> dict[str, Any]:
        """The heuristic's threshold this VecEnv was made with."""
        threshold = self._threshold if self._threshold is not None else HEURISTIC_THRESHOLD
        return {"threshold": threshold}

    def _bot(self, opponent: str) -> Opponent:
        """Check a native bot spec: the heuristic takes ``threshold``, the others nothing."""
        name, options = parse_bot_spec(opponent, BOTS)
        if name == "heuristic":
            threshold = options.pop("threshold", HEURISTIC_THRESHOLD)
            if options or not isinstance(threshold, float):
                raise ValueError(
                    f"opponent {opponent!r}: the heuristic takes threshold=NUMBER, nothing else"
                )
            if self._threshold is not None and threshold != self._threshold:
                raise ValueError("one VecEnv plays one heuristic threshold")
            self._threshold = threshold
        elif options:
            raise ValueError(f"opponent {opponent!r}: the {name} bot takes no options")
        return name
