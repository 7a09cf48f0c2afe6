"""Many Nippon games as one Stable-Baselines3 ``VecEnv``, stepped in the native core.

:class:`NipponVecEnv` holds ``num_envs`` games in a
:class:`~airships_env.native.nippon.NipponBatch`: one call steps them all. In each game one seat
is the learner (a random seat each episode, or a fixed one); the other seats are opponents: a
native bot named ``"random"``, ``"greedy"`` or ``"heuristic"`` (no options), played inside the
core's step with the Python bots' decisions, or any other :class:`~airships_env.policy.Policy`
(a league snapshot): an external policy evaluated between the core's steps for all games waiting
on it (``act_batch`` if it has one, else ``act`` on
:meth:`~airships_env.policy.Decision.for_game`, the seat's view).

Everything else is :class:`~airships_env.vector.GameBatchVecEnv`'s, as for the other games: rewards
are the learner's at the end of a game (GameAEC's: ``"win"`` 1/k for each of k winners, -1 a
loss; ``"score"`` the margin in VP over the best other seat / 50), an ended game's ``info`` holds
``terminal_observation``, ``TimeLimit.truncated``, ``scores`` (VP), ``winners`` and ``seat``, and
the game restarts at once. Seeds: see :class:`~airships_env.native.nippon.NipponBatch`.
``max_turns`` truncates an episode after that many actions (GameAEC's meaning).

Needs the ``train`` extra (stable-baselines3) and the native core.
"""

from __future__ import annotations

from airships_env.games.nippon import GAME
from airships_env.games.nippon.engine import ACTION_NAMES, NUM_ACTIONS
from airships_env.native.nippon import NipponBatch
from airships_env.vector import GameBatchVecEnv

__all__ = ["NipponVecEnv"]


class NipponVecEnv(GameBatchVecEnv):
    """``num_envs`` Nippon games in the native core as one VecEnv (see the module docstring):
    ``NipponVecEnv(num_envs, num_players=2, opponents="heuristic", *, seed=0, reward="win",
    max_turns=None, seat="random", options=None, data=None)``."""

    game = GAME
    batch_type = NipponBatch
    num_actions = NUM_ACTIONS
    action_names = ACTION_NAMES
