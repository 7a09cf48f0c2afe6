"""A bot's choice as an input of a trained policy: residual policy learning.

A *hinted* policy of a game reads the game's observation followed by the one-hot of the action
a bot of that game (its *hint*: ``greedy`` or ``heuristic``) chooses for the same decision, and
adds ``beta`` times that one-hot to its action logits. With the rest of its head near zero it
plays the bot; training (the clone of a stronger teacher, then PPO) teaches it where to differ.
The bot reads only the deciding seat's view, as every bot does, so nothing hidden reaches the
policy through its hint.

:class:`Hinter` makes the hint of one decision with the game's Python bot and a generator of its
own (the policy's sampling and the deal never share it). Training environments in the native
core make the same choices with the core's twin of the bot (:mod:`agents.training.hint`); a
model zip records its hint with its policy's arguments, where
:class:`agents.policy_agent.ActorNet` reads it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from airships_env.policy import Decision, Policy
from airships_env.registry import get_game

#: The bots a policy may take its hint from (each game that has them; Airships' ``ppo`` takes
#: none).
HINT_BOTS = ("greedy", "heuristic")


def check_hint(hint: object, game: str) -> str:
    """``hint`` if it names a hint bot of ``game``; a ValueError naming what is known."""
    from agents.games import DEFAULT_GAME

    if hint not in HINT_BOTS:
        raise ValueError(f"hint: expected one of {', '.join(HINT_BOTS)}, found {hint!r}")
    if game == DEFAULT_GAME:
        raise ValueError(f"hint: {game}'s policies take no hint")
    return str(hint)


def native_hints(game: str) -> Any:
    """``game``'s native bots (:class:`agents.bots.native_tables.TableNativeBots`) for hints; a
    ValueError for a game whose bots keep a memory between decisions (Nippon's plan) or that
    has none."""
    from agents.bots.native_tables import TableNativeBots
    from agents.executors import game_native_bots

    table = game_native_bots(game)
    if not isinstance(table, TableNativeBots):
        raise ValueError(f"hint: {game} has no native bots to make hints with")
    if table.start_memory is not None:
        raise ValueError(
            f"hint: {game}'s bots keep a plan between decisions; hints are made only for games "
            f"whose bots decide from the decision alone"
        )
    return table


def one_hot(actions: np.ndarray | list[int], num_actions: int) -> np.ndarray:
    """Rows of float32 one-hots: row i has a 1 at ``actions[i]``."""
    chosen = np.asarray(actions, dtype=np.int64)
    out = np.zeros((len(chosen), num_actions), dtype=np.float32)
    out[np.arange(len(chosen)), chosen] = 1.0
    return out


def hint_bounds(
    low: np.ndarray, high: np.ndarray, num_actions: int
) -> tuple[np.ndarray, np.ndarray]:
    """The bounds of a hinted observation: the game's ``low`` and ``high``, then 0 and 1 for
    each entry of the hint's one-hot."""
    return (
        np.concatenate([np.ravel(low), np.zeros(num_actions, np.float32)]),
        np.concatenate([np.ravel(high), np.ones(num_actions, np.float32)]),
    )


class Hinter:
    """The hint of ``game``'s bot ``bot`` for one decision at a time (see the module
    docstring). :meth:`reset` gives it a game's generator, as an agent's ``reset`` does."""

    def __init__(self, game: str, bot: str):
        from agents.registry import make_agent

        self.game = game
        self.bot_name = check_hint(bot, game)
        self.bot: Policy = make_agent(bot, game=game)
        self.num_actions = int(get_game(game).num_actions)

    def reset(self, seat: int, num_players: int, rng: np.random.Generator) -> None:
        """A new game: the bot takes ``rng`` (the hinter's own, not the policy's)."""
        self.bot.reset(seat, num_players, rng)

    def action(self, decision: Decision) -> int:
        """The bot's choice for ``decision``."""
        return int(self.bot.act(decision))

    def observation(self, decision: Decision) -> np.ndarray:
        """The decision's observation followed by the one-hot of the bot's choice."""
        return np.concatenate(
            [
                np.asarray(decision.observation, dtype=np.float32),
                one_hot([self.action(decision)], self.num_actions)[0],
            ]
        )
