"""Airships' bots that have a native twin, and whole bot-only games played in the native core.

The game names these (:data:`NATIVE_BOTS`, the target of the Airships game's ``native_bots``), so
the arena never guesses a twin from an agent's attributes: the random, greedy and heuristic bots
(:class:`~airships_env.policy.RandomPolicy`, :class:`~agents.bots.greedy.GreedyAgent`,
:class:`~agents.bots.heuristic.HeuristicAgent`, exactly those classes) make the same choices in
the core from the same generators. One core call plays one greedy and one heuristic weighting,
so two greedy (or two heuristic) agents with different weights cannot share it.

The interface the arena reads (:class:`agents.executors.NativeBots`): :meth:`AirshipsNativeBots.plan`
(how the core seats the agents, or None) and :meth:`AirshipsNativeBots.play` (the games).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from airships_env.bot_config import GreedyConfig, HeuristicConfig
from airships_env.engine.model import RulesOptions
from airships_env.policy import Policy, RandomPolicy
from airships_env.protocol import Outcome, ranks_from


@dataclass(frozen=True)
class NativePlan:
    """How the core plays an arena's agents: the core's bot per label, and the weights."""

    bots: dict[str, str]
    greedy: GreedyConfig
    heuristic: HeuristicConfig


@dataclass(frozen=True)
class NativeResult:
    """One game the core played: its outcome (None: it did not end), length and decisions."""

    outcome: Outcome | None
    extra: dict[str, Any]
    turns: int
    steps: int
    decisions: list[int]


class AirshipsNativeBots:
    """Airships' native twins: which agents the core can play, and playing them."""

    def twin(self, agent: Policy) -> tuple[str, Any] | None:
        """The core's bot name and weights for ``agent``, or None when it has no twin."""
        from agents.bots.greedy import GreedyAgent
        from agents.bots.heuristic import HeuristicAgent

        if type(agent) is RandomPolicy:
            return "random", None
        if type(agent) is GreedyAgent:
            return "greedy", agent.config
        if type(agent) is HeuristicAgent:
            return "heuristic", agent.config
        return None

    def plan(self, agents: Mapping[str, Policy]) -> NativePlan | None:
        """How the core seats these agents (by label), or None when it cannot (the core is not
        built, an agent has no twin, or two agents of one kind have different weights)."""
        from airships_env import native

        if not native.available():
            return None
        bots: dict[str, str] = {}
        weights: dict[str, Any] = {}
        for label, agent in agents.items():
            twin = self.twin(agent)
            if twin is None:
                return None
            name, config = twin
            if name != "random" and weights.setdefault(name, config) != config:
                return None
            bots[label] = name
        greedy = weights.get("greedy", GreedyConfig())
        heuristic = weights.get("heuristic") or HeuristicConfig.load()
        return NativePlan(bots, greedy, heuristic)

    def play(
        self,
        plan: NativePlan,
        num_players: int,
        games: Sequence[tuple[int, Sequence[np.random.Generator], Sequence[str]]],
        max_steps: int,
        options: RulesOptions | None = None,
    ) -> list[NativeResult]:
        """Whole games in one core call, each given by its deal seed, one generator per seat and
        the label per seat, under the rules ``options`` (None: the defaults)."""
        from airships_env.native.batch import play_bot_games

        results = play_bot_games(
            num_players,
            [
                (np.random.default_rng(deal_seed), list(rngs), [plan.bots[lb] for lb in labels])
                for deal_seed, rngs, labels in games
            ],
            greedy=plan.greedy,
            heuristic=plan.heuristic,
            options=options,
            max_steps=max_steps,
        )
        return [_result(r) for r in results]


def _result(result: dict[str, Any]) -> NativeResult:
    """A core result as the arena reads it (places: E3, ties broken by airships)."""
    outcome = None
    if result["over"]:
        keys = list(zip(result["scores"], result["airships"], strict=True))
        outcome = Outcome(
            scores=tuple(result["scores"]),
            winners=tuple(result["winners"]),
            ranks=ranks_from(result["winners"], keys),
        )
    return NativeResult(
        outcome,
        {"airships": result["airships"] if result["over"] else None},
        result["turns"],
        result["steps"],
        result["decisions"],
    )


NATIVE_BOTS = AirshipsNativeBots()
