"""Many Nippon games as one Stable-Baselines3 ``VecEnv``, stepped in the native core.

:class:`NipponVecEnv` holds ``num_envs`` games in a
:class:`~airships_env.native.nippon.NipponBatch`: one call steps them all. In each game one seat
is the learner (a random seat each episode, or a fixed one); the other seats are opponents: a
native bot named ``"random"``, ``"greedy"`` or ``"heuristic"`` (no options), played inside the
core's step with the Python bots' decisions, or any other :class:`~airships_env.policy.Policy`
(a league snapshot): an external policy evaluated between the core's steps for all games waiting
on it (``act_batch`` if it has one, else ``act`` on
:meth:`~airships_env.policy.Decision.for_game`, the seat's view).

Everything else is :class:`~airships_env.vector.BatchVecEnv`'s, as for the other games: rewards
are the learner's at the end of a game (GameAEC's: ``"win"`` 1/k for each of k winners, -1 a
loss; ``"score"`` the margin in VP over the best other seat / 50), an ended game's ``info`` holds
``terminal_observation``, ``TimeLimit.truncated``, ``scores`` (VP), ``winners`` and ``seat``, and
the game restarts at once. Seeds: see :class:`~airships_env.native.nippon.NipponBatch`.
``max_turns`` truncates an episode after that many actions (GameAEC's meaning).

Needs the ``train`` extra (stable-baselines3) and the native core.
"""

from __future__ import annotations

from collections.abc import Sequence

from airships_env.games.nippon import GAME
from airships_env.games.nippon.engine import ACTION_NAMES, NUM_ACTIONS, NipponData, RulesOptions
from airships_env.native.nippon import NipponBatch
from airships_env.native.table import BOTS, Opponent
from airships_env.policy import Decision
from airships_env.vector import BatchVecEnv, OpponentSpec, parse_bot_spec

__all__ = ["NipponVecEnv"]


class NipponVecEnv(BatchVecEnv):
    """``num_envs`` Nippon games in the native core as one VecEnv (see the module docstring)."""

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
        data: NipponData | None = None,
    ):
        self._rules = options
        self._game_data = data
        super().__init__(
            num_envs,
            num_players,
            opponents,
            seed=seed,
            reward=reward,
            max_turns=max_turns,
            seat=seat,
        )

    def _observation_low(self, num_players: int) -> float:
        """The game's lower bound (GameAEC's observation space): scaled counts may be negative."""
        return GAME.observation_bounds(num_players)[0]

    def _observation_high(self, num_players: int) -> float:
        """The game's upper bound (GameAEC's observation space)."""
        return GAME.observation_bounds(num_players)[1]

    def _new_batch(self, num_envs: int, num_players: int, seed: int) -> NipponBatch:
        """A batch with the rules and data this VecEnv was made with."""
        return NipponBatch(
            num_envs,
            num_players,
            seed=seed,
            options=self._rules,
            data=self._game_data,
            **self._settings,
        )

    def _bot(self, opponent: str) -> Opponent:
        """Check a native bot spec: Nippon's bots take no options."""
        name, options = parse_bot_spec(opponent, BOTS)
        if options:
            raise ValueError(f"opponent {opponent!r}: the {name} bot takes no options")
        return name

    def _decision(self, game: int) -> Decision:
        """The decision facing the seat to act in game ``game``: its view, as the Python
        environments give it."""
        return Decision.for_game(GAME, self.batch.game_state(game))
