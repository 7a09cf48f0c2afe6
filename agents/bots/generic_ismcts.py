"""Search bots for every game, written once over the game protocol: information-set MCTS and a
flat determinized Monte Carlo search.

:class:`GenericISMCTSAgent` (spec ``ismcts`` for a game without its own) is single-observer
information-set MCTS (Cowling, Powley and Whitehouse 2012; OpenSpiel's ``ismcts.py`` is the same
idea): one tree over the acting seat's action sequences; each simulation

1. draws a world consistent with what the seat sees: ``decision.view.determinize(rng)``;
2. descends the tree, choosing among the children legal *in this world* by UCB, where a child's
   exploration term counts the simulations in which it was available, not its parent's visits;
3. expands one untried legal action, then plays a rollout to the end of the game (uniform over
   the legal actions, or the game's ``rollout_action(state, rng)`` if it has one);
4. backs up each seat's result: ``1/k`` for each of the ``k`` winners, 0 for the others (0 for
   everybody in a rollout cut at ``max_rollout`` actions), every node scoring the result of the
   seat that chose the action leading to it.

Chance (dice, draws) happens inside ``apply_action``, so one tree node stands for an action
whatever chance did after it (an "open loop" tree). The chosen action is the most visited root
child (ties: the lowest index).

:class:`GenericMCTSAgent` (spec ``mcts`` for a game without its own) is the same loop with a
tree one level deep: UCB1 over the root actions, a new determinization per simulation, random
rollouts.

Budget: ``sims`` simulations and/or ``ms`` milliseconds per decision, whichever ends first
(``sims`` alone is reproducible; ``ms`` depends on the machine). Randomness: only the generator
given to ``reset`` (or a fixed ``seed``). The bots read only ``decision.view``, which holds
nothing the seat may not see, so they cannot cheat.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from airships_env.chance import uniform_below
from airships_env.policy import Decision

__all__ = ["GenericISMCTSAgent", "GenericMCTSAgent"]

DEFAULT_SIMS = 200
DEFAULT_MAX_ROLLOUT = 2000


class _Node:
    """One action sequence of the acting seat's tree: ``mover`` chose the action leading here."""

    __slots__ = ("available", "children", "mover", "total", "visits")

    def __init__(self, mover: int):
        self.mover = mover
        self.visits = 0
        self.available = 0
        self.total = 0.0
        self.children: dict[int, _Node] = {}


def _whole(agent: str, option: str, value: object, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise ValueError(f"{agent} option {option} must be a whole number >= {low}, got {value!r}")
    return int(value)


def _positive(agent: str, option: str, value: object, strict: bool) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or value < 0
        or (strict and value == 0)
    ):
        bound = "> 0" if strict else ">= 0"
        raise ValueError(f"{agent} option {option} must be a number {bound}, got {value!r}")
    return float(value)


def seat_results(state: Any, num_players: int) -> list[float]:
    """Each seat's result of a finished game: ``1/k`` for the ``k`` winners, 0 for the others
    (0 for all in an unfinished game or a draw without winners)."""
    outcome = state.outcome() if state.is_terminal() else None
    if outcome is None or not outcome.winners:
        return [0.0] * num_players
    share = 1.0 / len(outcome.winners)
    return [share if seat in outcome.winners else 0.0 for seat in range(num_players)]


class GenericISMCTSAgent:
    """Single-observer information-set MCTS over any game (see the module docstring).

    ``sims``: simulations per decision; ``ms``: milliseconds per decision (with neither, 200
    simulations); ``c``: UCB exploration constant; ``max_rollout``: actions per rollout before
    it counts as a draw; ``seed``: a fixed seed (else the generator given to ``reset``).
    """

    max_depth: int | None = None  # tree depth limit (None: unlimited)

    def __init__(
        self,
        sims: int | None = None,
        ms: float | None = None,
        c: float = 0.7,
        max_rollout: int = DEFAULT_MAX_ROLLOUT,
        seed: int | None = None,
        name: str = "ismcts",
    ):
        self.sims = None if sims is None else _whole(name, "sims", sims, 1)
        self.ms = None if ms is None else _positive(name, "ms", ms, strict=True)
        if self.sims is None and self.ms is None:
            self.sims = DEFAULT_SIMS
        self.c = _positive(name, "c", c, strict=False)
        self.max_rollout = _whole(name, "max_rollout", max_rollout, 0)
        self.seed = None if seed is None else _whole(name, "seed", seed, 0)
        self.name = name
        self.seat = 0
        self.num_players = 2
        self.rng = np.random.default_rng(self.seed)
        #: Simulations run by the last search (0 when the decision had one legal action).
        self.last_simulations = 0

    def reset(self, seat: int, num_players: int, rng: np.random.Generator) -> None:
        """Take the seat and this game's generator (a fixed ``seed`` replaces it)."""
        self.seat = seat
        self.num_players = num_players
        self.rng = rng if self.seed is None else np.random.default_rng(self.seed)

    def act(self, decision: Decision) -> int:
        """The most visited root action of a search from the decision's view (equal visits: the
        best mean result for the acting seat, then the lowest index)."""
        self.last_simulations = 0
        legal = decision.legal_actions
        if len(legal) == 1:
            return legal[0]
        rollout = getattr(decision.game, "rollout_action", None)
        root = self.search(decision.view, rollout)
        candidates = [a for a in sorted(root.children) if a in legal]
        if not candidates:
            raise RuntimeError(f"{self.name}: the search found none of the legal {list(legal)}")

        def rank(action: int) -> tuple[int, float, int]:
            child = root.children[action]
            mean = child.total / child.visits if child.visits else -math.inf
            return child.visits, mean, -action

        return max(candidates, key=rank)

    def search(
        self, view: Any, rollout: Callable[[Any, np.random.Generator], int] | None = None
    ) -> _Node:
        """Run the budget's simulations from ``view`` (the seat's view); the root node."""
        root = _Node(mover=-1)
        deadline = None if self.ms is None else time.perf_counter() + self.ms / 1000.0
        simulations = 0
        while True:
            self._simulate(root, view, rollout)
            simulations += 1
            if self.sims is not None and simulations >= self.sims:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_simulations = simulations
        return root

    def _simulate(
        self, root: _Node, view: Any, rollout: Callable[[Any, np.random.Generator], int] | None
    ) -> None:
        rng = self.rng
        world = view.determinize(rng)
        num_players = world.num_players
        node = root
        path: list[_Node] = []
        depth = 0
        while not world.is_terminal() and (self.max_depth is None or depth < self.max_depth):
            legal = world.legal_actions()
            children = node.children
            untried = []
            for action in legal:
                child = children.get(action)
                if child is None:
                    untried.append(action)
                else:
                    child.available += 1
            mover = world.current_player
            if untried:
                action = untried[uniform_below(rng, len(untried))]
                child = children[action] = _Node(mover)
                child.available = 1
                world.apply_action(action)
                path.append(child)
                break
            action = self._select(node, legal)
            world.apply_action(action)
            node = children[action]
            path.append(node)
            depth += 1
        steps = 0
        while not world.is_terminal() and steps < self.max_rollout:
            if rollout is not None:
                world.apply_action(rollout(world, rng))
            else:
                legal = world.legal_actions()
                world.apply_action(legal[uniform_below(rng, len(legal))])
            steps += 1
        results = seat_results(world, num_players)
        for visited in path:
            visited.visits += 1
            visited.total += results[visited.mover]

    def _select(self, node: _Node, legal: list[int]) -> int:
        """The legal child with the highest UCB (availability counts; ties: lowest index)."""
        best_action = legal[0]
        best_value = -math.inf
        for action in legal:
            child = node.children[action]
            value = child.total / child.visits + self.c * math.sqrt(
                math.log(child.available) / child.visits
            )
            if value > best_value:
                best_value = value
                best_action = action
        return best_action


class GenericMCTSAgent(GenericISMCTSAgent):
    """Flat determinized Monte Carlo search over any game: UCB1 over the root actions, a new
    world per simulation, random rollouts (the ISMCTS loop with a tree one level deep)."""

    max_depth = 1

    def __init__(
        self,
        sims: int | None = None,
        ms: float | None = None,
        c: float = 0.7,
        max_rollout: int = DEFAULT_MAX_ROLLOUT,
        seed: int | None = None,
        name: str = "mcts",
    ):
        super().__init__(sims=sims, ms=ms, c=c, max_rollout=max_rollout, seed=seed, name=name)
