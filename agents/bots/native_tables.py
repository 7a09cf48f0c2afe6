"""The native twins of Clockwork City's, Australia's and Nippon's bots, and bot-only arena games
played through those games' cores.

Each of these games' cores makes the ``random``, ``greedy`` and ``heuristic`` bots' decisions
and generator draws (:mod:`airships_env.native.clockwork`, ``.australia``, ``.nippon``; their
differential suites in ``tests/native`` hold them to the Python bots). When every agent of an
arena is one of those exact classes, the arena (:mod:`agents.executors`) plays its games here:
the game dealt in the core from the deal seed, each seat's decision made in the core from the
seat's own generator (the one the Python agent would have been reset with), so every record
equals the Python path's but for its timings. One call into the core per decision: the rules,
the legal actions and the bots never run in Python.

A game names its twins with its ``native_bots`` member (``'agents.bots.native_tables:CLOCKWORK'``
and so on); the arena never guesses a twin from an agent's attributes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from importlib import import_module
from typing import Any

import numpy as np

from agents.bots.native import NativeResult
from airships_env.native.nippon import NO_PLAN
from airships_env.policy import Decision, Policy, RandomPolicy
from airships_env.protocol import as_action_index

__all__ = ["AUSTRALIA", "CLOCKWORK", "NIPPON", "TableNativeBots", "TablePlan", "python_view"]

# (game, seat generator, the bot, its parameter, its memory) -> (action, memory after)
Chooser = Callable[[Any, np.random.Generator, str, Any, Any], tuple[int, Any]]


@dataclass(frozen=True)
class TablePlan:
    """How a core plays an arena's agents: the core's bot and its parameter, by label, and the
    agents played in Python on the core's observations (trained policies), by label."""

    bots: dict[str, str]
    parameters: dict[str, Any]
    policies: dict[str, Policy] = field(default_factory=dict)


class TableNativeBots:
    """One game's native twins: which agents its core plays, and whole games played there."""

    def __init__(
        self,
        game: str,
        native_class: str,
        bots_module: str,
        choose: Chooser,
        parameter: Callable[[Policy], Any] = lambda agent: None,
        memory: Any = None,
    ):
        self.game = game
        self._native_class = native_class  # 'module:Class' of the core's game wrapper
        self._bots_module = bots_module  # the module of the Python GreedyBot and HeuristicBot
        self._choose = choose
        self._parameter = parameter
        self._memory = memory  # a bot's memory at the start of a game

    def twin(self, agent: Policy) -> str | None:
        """The core's bot for ``agent`` (exactly the Python class), or None."""
        if type(agent) is RandomPolicy:
            return "random"
        bots = import_module(self._bots_module)
        for name, cls in (("greedy", bots.GreedyBot), ("heuristic", bots.HeuristicBot)):
            if type(agent) is cls:
                return name
        return None

    def plan(self, agents: Mapping[str, Policy]) -> TablePlan | None:
        """How the core seats these agents (by label), or None when it cannot (the core is not
        built, or an agent has no twin and reads more than its observation). An agent whose
        ``reads_observation_only`` is true (a trained policy) is played in Python on the core's
        observations."""
        from airships_env import native

        if not native.available():
            return None
        bots: dict[str, str] = {}
        parameters: dict[str, Any] = {}
        policies: dict[str, Policy] = {}
        for label, agent in agents.items():
            twin = self.twin(agent)
            if twin is not None:
                bots[label] = twin
                parameters[label] = self._parameter(agent)
            elif getattr(agent, "reads_observation_only", False) is True:
                policies[label] = agent
            else:
                return None
        return TablePlan(bots, parameters, policies)

    def _native_type(self) -> Any:
        """The core's game wrapper class."""
        module, _, name = self._native_class.partition(":")
        return getattr(import_module(module), name)

    def from_state(self, state: Any) -> Any:
        """The core's copy of a Python ``state`` (a view included), to ask its bots."""
        return self._native_type().from_state(state)

    def new_game(self, num_players: int, deal_seed: int, options: Any = None) -> Any:
        """A game dealt in the core from ``deal_seed`` under the rules ``options`` (None: the
        defaults), as the game's ``new_state`` deals it."""
        return self._native_type().new(num_players, seed=deal_seed, options=options)

    @property
    def start_memory(self) -> Any:
        """A bot's memory at the start of a game (Nippon's plan; None for the others)."""
        return self._memory

    def decide(
        self, game: Any, rng: np.random.Generator, bot: str, parameter: Any, memory: Any
    ) -> tuple[int, Any]:
        """The core's ``bot`` (with its ``parameter``) for the seat to act in ``game``, drawing
        from ``rng`` as the Python bot draws from its own; the action and the bot's memory."""
        return self._choose(game, rng, bot, parameter, memory)

    def play(
        self,
        plan: TablePlan,
        num_players: int,
        games: Sequence[tuple[int, Sequence[np.random.Generator], Sequence[str]]],
        max_steps: int,
        options: Any = None,
    ) -> list[NativeResult]:
        """Whole games, each given by its deal seed, one generator per seat and the labels,
        under the game's rules ``options`` (None: its defaults)."""
        from airships_env.registry import get_game

        rules = get_game(self.game)
        results = []
        for deal_seed, rngs, labels in games:
            game = self.new_game(num_players, deal_seed, options)
            for seat, label in enumerate(labels):  # as the Python path resets every agent
                if label in plan.policies:
                    plan.policies[label].reset(seat, num_players, rngs[seat])
            memories = [self._memory] * num_players
            decisions = [0] * num_players
            steps = 0
            while not game.is_terminal() and steps < max_steps:
                seat = game.current_player
                label = labels[seat]
                if label in plan.policies:
                    action = self._policy_action(rules, game, seat, plan.policies[label], label)
                else:
                    action, memories[seat] = self._choose(
                        game, rngs[seat], plan.bots[label], plan.parameters[label], memories[seat]
                    )
                game.apply_action(action)
                decisions[seat] += 1
                steps += 1
            over = game.is_terminal()
            # the arena's count of turns: the game's own (Clockwork, Australia), else its actions
            turns = getattr(game.to_state(), "turn", steps)
            outcome = game.outcome() if over else None
            results.append(NativeResult(outcome, {}, turns, steps, decisions))
        return results

    @staticmethod
    def _policy_action(rules: Any, game: Any, seat: int, agent: Policy, label: str) -> int:
        """A trained policy's move on the core's observation of ``seat`` (its view is made only
        if asked for); an exception or an illegal move stops the run, naming the agent."""
        legal = tuple(game.legal_actions())
        decision = Decision(
            partial(python_view, game, seat), seat, legal, partial(game.observe, seat), rules
        )
        try:
            action = agent.act(decision)
        except Exception as exc:
            raise RuntimeError(f"agent {label!r} (seat {seat}) raised {exc!r}") from exc
        index = as_action_index(action)
        if index is None or index not in legal:
            raise RuntimeError(
                f"agent {label!r} (seat {seat}) returned {action!r}; legal: {list(legal)}"
            )
        return index


def python_view(game: Any, seat: int) -> Any:
    """``seat``'s view of a native game, as the Python engine's state gives it."""
    return game.to_state().view(seat)


def _clockwork_choose(
    game: Any, rng: np.random.Generator, bot: str, threshold: Any, memory: Any
) -> tuple[int, Any]:
    if threshold is None:
        return game.bot_action(bot, rng), memory
    return game.bot_action(bot, rng, threshold=threshold), memory


def _clockwork_threshold(agent: Policy) -> float | None:
    """The heuristic's challenge threshold (the others have none)."""
    threshold = getattr(agent, "threshold", None)
    return None if threshold is None else float(threshold)


def _australia_choose(
    game: Any, rng: np.random.Generator, bot: str, parameter: Any, memory: Any
) -> tuple[int, Any]:
    return game.bot_action(bot, rng), memory


def _nippon_choose(
    game: Any, rng: np.random.Generator, bot: str, parameter: Any, memory: Any
) -> tuple[int, Any]:
    action, memory = game.bot_action(bot, rng, memory)
    return action, memory


CLOCKWORK = TableNativeBots(
    "clockwork",
    "airships_env.native.clockwork:NativeClockworkGame",
    "agents.bots.clockwork",
    _clockwork_choose,
    parameter=_clockwork_threshold,
)
AUSTRALIA = TableNativeBots(
    "australia",
    "airships_env.native.australia:NativeAustraliaGame",
    "agents.bots.australia",
    _australia_choose,
)
NIPPON = TableNativeBots(
    "nippon",
    "airships_env.native.nippon:NativeNipponGame",
    "agents.bots.nippon",
    _nippon_choose,
    memory=NO_PLAN,
)
