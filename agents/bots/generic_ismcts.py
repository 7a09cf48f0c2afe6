"""Search bots for every game, written once over the game protocol: information-set MCTS and a
flat determinized Monte Carlo search.

:class:`GenericISMCTSAgent` (spec ``ismcts`` for a game without its own) is single-observer
information-set MCTS (Cowling, Powley and Whitehouse 2012; OpenSpiel's ``ismcts.py`` is the same
idea): one tree over the acting seat's action sequences; each simulation

1. draws a world consistent with what the seat sees: ``decision.view.determinize(rng)``;
2. descends the tree, choosing among the children legal *in this world* by UCB, where a child's
   exploration term counts the simulations in which it was available, not its parent's visits;
3. expands one untried legal action (the ``prior`` bot's choice first, if untried), then plays
   a rollout: to the end of the game, or ``rollout`` actions and then the game's
   ``evaluate(state)`` scores it; the rollout's actions come from the ``playout`` bot, else the
   game's ``rollout_action(state, rng)``, else uniformly from the legal ones;
4. backs up each seat's result: ``1/k`` for each of the ``k`` winners, 0 for the others (0 for
   everybody in a rollout cut at ``max_rollout`` actions; ``evaluate``'s values at a
   ``rollout`` cut), every node scoring the result of the seat that chose the action leading
   to it.

Chance (dice, draws) happens inside ``apply_action``, so one tree node stands for an action
whatever chance did after it (an "open loop" tree). The chosen action is the most visited root
child (ties: the best mean, then the lowest index).

:class:`GenericMCTSAgent` (spec ``mcts`` for a game without its own) is the same loop with a
tree one level deep: UCB1 over the root actions, a new determinization per simulation. With
``paired=true`` it is a different flat search: each world plays every root action from copies
of one world and one generator state (common random numbers), so the actions are compared on
the same deals and dice; the choice is the best mean (the prior's choice given a bonus).

Options every game can use (spec ``ismcts:ms=100,rollout=10,prior=heuristic``): ``sims``,
``ms``, ``c``, ``max_rollout``, ``seed`` as before; ``rollout`` (actions before the evaluation:
needs the game's optional ``evaluate`` hook, else a clear error); ``prior`` (a bot of the game,
``bots()``: its choice for the seat to act at a tree node is expanded first and gets the
progressive bias ``bias / (visits + 1)`` in UCB); ``bias`` (default 1); ``playout`` (a bot of the
game playing the rollouts: strong but slow, one bot decision per rollout action). A bot used as
``prior`` or ``playout`` is handed a Decision whose view is the simulation's determinized world:
it holds nothing of the truth beyond the searching seat's view, and a bot reads only what its
seat may see, so nothing leaks. The options are checked when the agent is made (with
``game=``, as the registry does) or at its first decision.

Budget: ``sims`` simulations and/or ``ms`` milliseconds per decision, whichever ends first
(``sims`` alone is reproducible; ``ms`` depends on the machine). Randomness: only the generator
given to ``reset`` (or a fixed ``seed``). The bots read only ``decision.view``, which holds
nothing the seat may not see, so they cannot cheat. Figures on Escape from Clockwork City:
docs/clockwork/BOTS.md.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from airships_env.chance import copy_generator, uniform_below
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


def _bot_name(agent: str, option: str, value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.isidentifier():
        raise ValueError(f"{agent} option {option} must be a bot name of the game, got {value!r}")
    return value


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
    it counts as a draw; ``rollout``: actions per rollout before the game's ``evaluate`` scores
    the state (None: play to the end); ``prior``: a bot of the game whose choice is expanded
    first and favoured by ``bias``; ``playout``: a bot of the game that plays the rollouts
    (None: the game's ``rollout_action``, else uniform); ``seed``: a fixed seed (else the
    generator given to ``reset``); ``game``: the game (else the decision's).
    """

    max_depth: int | None = None  # tree depth limit (None: unlimited)

    def __init__(
        self,
        sims: int | None = None,
        ms: float | None = None,
        c: float = 0.7,
        max_rollout: int = DEFAULT_MAX_ROLLOUT,
        rollout: int | None = None,
        prior: str | None = None,
        bias: float = 1.0,
        playout: str | None = None,
        seed: int | None = None,
        name: str = "ismcts",
        game: Any = None,
    ):
        self.sims = None if sims is None else _whole(name, "sims", sims, 1)
        self.ms = None if ms is None else _positive(name, "ms", ms, strict=True)
        if self.sims is None and self.ms is None:
            self.sims = DEFAULT_SIMS
        self.c = _positive(name, "c", c, strict=False)
        self.max_rollout = _whole(name, "max_rollout", max_rollout, 0)
        self.rollout = None if rollout is None else _whole(name, "rollout", rollout, 0)
        self.prior = _bot_name(name, "prior", prior)
        self.bias = _positive(name, "bias", bias, strict=False)
        self.playout = _bot_name(name, "playout", playout)
        self.seed = None if seed is None else _whole(name, "seed", seed, 0)
        self.name = name
        self.seat = 0
        self.num_players = 2
        self.rng = np.random.default_rng(self.seed)
        self.game: Any = None
        self._bots: dict[str, list[Any]] = {}
        if game is not None:
            self._bind(game)
        #: Simulations run by the last search (0 when the decision had one legal action).
        self.last_simulations = 0

    def _bind(self, game: Any) -> None:
        """Check the options against ``game``'s hooks and bots, once per game."""
        if game is self.game:
            return
        if self.rollout is not None and getattr(game, "evaluate", None) is None:
            raise ValueError(
                f"{self.name} option rollout={self.rollout} needs the game's evaluate hook, "
                f"which {game.name} does not have (leave rollout out to play rollouts to the end)"
            )
        for option, bot in (("prior", self.prior), ("playout", self.playout)):
            if bot is None:
                continue
            bots = dict(game.bots())
            if bot not in bots or bot in ("ismcts", "mcts"):
                known = ", ".join(b for b in bots if b not in ("ismcts", "mcts"))
                raise ValueError(
                    f"{self.name} option {option}={bot!r}: {game.name} has no such bot; "
                    f"its bots: {known}"
                )
        self.game = game
        self._bots = {}

    def _bot(self, name: str, seat: int, num_players: int) -> Any:
        """The game's bot ``name`` playing ``seat`` in this search (made once per seat, drawing
        from the search's generator)."""
        seats = self._bots.get(name)
        if seats is None or len(seats) != num_players:
            from agents.registry import make_agent

            seats = self._bots[name] = [
                make_agent(name, rng=self.rng, game=self.game) for _ in range(num_players)
            ]
            for s, bot in enumerate(seats):
                bot.reset(s, num_players, self.rng)
        return seats[seat]

    def _bot_choice(self, name: str, world: Any, legal: list[int]) -> int:
        """What the game's bot ``name`` plays for the seat to act in ``world`` (a determinized
        world, which holds nothing more of the truth than the searching seat's view)."""
        if len(legal) == 1:
            return legal[0]
        seat = world.current_player
        decision = Decision(world, seat, tuple(legal), game=self.game)
        return int(self._bot(name, seat, world.num_players).act(decision))

    def reset(self, seat: int, num_players: int, rng: np.random.Generator) -> None:
        """Take the seat and this game's generator (a fixed ``seed`` replaces it)."""
        self.seat = seat
        self.num_players = num_players
        self.rng = rng if self.seed is None else np.random.default_rng(self.seed)
        self._bots = {}

    def act(self, decision: Decision) -> int:
        """The most visited root action of a search from the decision's view (equal visits: the
        best mean result for the acting seat, then the lowest index)."""
        self.last_simulations = 0
        legal = decision.legal_actions
        if len(legal) == 1:
            return legal[0]
        if decision.game is not None:
            self._bind(decision.game)
        rollout = None if self.game is None else getattr(self.game, "rollout_action", None)
        root = self.search(decision.view, rollout)
        candidates = [a for a in sorted(root.children) if a in legal]
        if not candidates:
            raise RuntimeError(f"{self.name}: the search found none of the legal {list(legal)}")

        def rank(action: int) -> tuple[int, float, int]:
            child = root.children[action]
            mean = child.total / child.visits if child.visits else -math.inf
            return child.visits, mean, -action

        return max(candidates, key=rank)

    def _evaluate_hook(self) -> Callable[[Any], Any] | None:
        """The game's ``evaluate`` when ``rollout`` cuts rollouts (else None); a clear error when
        an option needs the game and the search does not know it."""
        if (self.prior or self.playout or self.rollout is not None) and self.game is None:
            raise ValueError(
                f"{self.name}: the options prior, playout and rollout need the game "
                f"(a Decision with its game, or game= when the agent is made)"
            )
        return None if self.rollout is None else self.game.evaluate

    def search(
        self, view: Any, rollout: Callable[[Any, np.random.Generator], int] | None = None
    ) -> _Node:
        """Run the budget's simulations from ``view`` (the seat's view); the root node."""
        root = _Node(mover=-1)
        deadline = None if self.ms is None else time.perf_counter() + self.ms / 1000.0
        evaluate = self._evaluate_hook()
        simulations = 0
        while True:
            self._simulate(root, view, rollout, evaluate)
            simulations += 1
            if self.sims is not None and simulations >= self.sims:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_simulations = simulations
        return root

    def _simulate(
        self,
        root: _Node,
        view: Any,
        rollout: Callable[[Any, np.random.Generator], int] | None,
        evaluate: Callable[[Any], Any] | None = None,
    ) -> None:
        rng = self.rng
        world = view.determinize(rng)
        prior = self.prior
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
            favoured = -1 if prior is None else self._bot_choice(prior, world, legal)
            if untried:
                if favoured in untried:
                    action = favoured
                else:
                    action = untried[uniform_below(rng, len(untried))]
                child = children[action] = _Node(mover)
                child.available = 1
                world.apply_action(action)
                path.append(child)
                break
            action = self._select(node, legal, favoured)
            world.apply_action(action)
            node = children[action]
            path.append(node)
            depth += 1
        results = self._finish(world, rollout, evaluate, rng)
        for visited in path:
            visited.visits += 1
            visited.total += results[visited.mover]

    def _finish(
        self,
        world: Any,
        rollout: Callable[[Any, np.random.Generator], int] | None,
        evaluate: Callable[[Any], Any] | None,
        rng: np.random.Generator,
    ) -> list[float]:
        """Play ``world`` on (the playout bot, the game's rollout policy, else uniform) to the
        end or the ``rollout`` cut; each seat's result (``evaluate``'s values at a cut)."""
        limit = self.max_rollout if self.rollout is None else self.rollout
        playout = self.playout
        steps = 0
        while not world.is_terminal() and steps < limit:
            if playout is not None:
                world.apply_action(self._bot_choice(playout, world, world.legal_actions()))
            elif rollout is not None:
                world.apply_action(rollout(world, rng))
            else:
                legal = world.legal_actions()
                world.apply_action(legal[uniform_below(rng, len(legal))])
            steps += 1
        if evaluate is not None and not world.is_terminal():
            return [float(v) for v in evaluate(world)]
        return seat_results(world, world.num_players)

    def _select(self, node: _Node, legal: list[int], favoured: int = -1) -> int:
        """The legal child with the highest UCB (availability counts; the prior's ``favoured``
        action gets ``bias / (visits + 1)`` more, progressive bias; ties: lowest index)."""
        best_action = legal[0]
        best_value = -math.inf
        for action in legal:
            child = node.children[action]
            value = child.total / child.visits + self.c * math.sqrt(
                math.log(child.available) / child.visits
            )
            if action == favoured:
                value += self.bias / (child.visits + 1)
            if value > best_value:
                best_value = value
                best_action = action
        return best_action


class GenericMCTSAgent(GenericISMCTSAgent):
    """Flat determinized Monte Carlo search over any game: UCB1 over the root actions, a new
    world per simulation (the ISMCTS loop with a tree one level deep).

    ``paired``: instead, every world plays *every* root action, each from a copy of the same
    world and generator state (common random numbers: the actions meet the same deals and the
    same dice, so their difference is measured with far less noise than their values); the
    choice is the best mean, the ``prior`` bot's own choice on the decision given
    ``bias / (worlds + 1)`` more. A ``sims`` budget then counts action playouts and ends after
    a whole world.
    """

    max_depth = 1

    def __init__(
        self,
        sims: int | None = None,
        ms: float | None = None,
        c: float = 0.7,
        max_rollout: int = DEFAULT_MAX_ROLLOUT,
        rollout: int | None = None,
        prior: str | None = None,
        bias: float = 1.0,
        playout: str | None = None,
        paired: bool = False,
        seed: int | None = None,
        name: str = "mcts",
        game: Any = None,
    ):
        super().__init__(
            sims=sims,
            ms=ms,
            c=c,
            max_rollout=max_rollout,
            rollout=rollout,
            prior=prior,
            bias=bias,
            playout=playout,
            seed=seed,
            name=name,
            game=game,
        )
        if not isinstance(paired, (bool, np.bool_)):
            raise ValueError(f"{name} option paired must be true or false, got {paired!r}")
        self.paired = bool(paired)
        #: Each root action's mean result over the worlds of the last paired search.
        self.last_means: dict[int, float] = {}

    def act(self, decision: Decision) -> int:
        """The flat search's choice (see the class docstring for ``paired``)."""
        if not self.paired:
            return super().act(decision)
        self.last_simulations = 0
        legal = list(decision.legal_actions)
        if len(legal) == 1:
            return legal[0]
        if decision.game is not None:
            self._bind(decision.game)
        evaluate = self._evaluate_hook()
        rollout = None if self.game is None else getattr(self.game, "rollout_action", None)
        seat = decision.seat
        favoured = -1
        if self.prior is not None:
            prior = self._bot(self.prior, seat, decision.view.num_players)
            favoured = int(prior.act(decision))
        deadline = None if self.ms is None else time.perf_counter() + self.ms / 1000.0
        totals = dict.fromkeys(legal, 0.0)
        worlds = simulations = 0
        view = decision.view
        while True:
            world = view.determinize(self.rng)
            dice = np.random.default_rng(int(self.rng.bit_generator.random_raw()))
            for action in legal:
                branch = world.clone()  # the same world generator: the same chance after
                branch.apply_action(action)
                results = self._finish(branch, rollout, evaluate, copy_generator(dice))
                totals[action] += results[seat]
                simulations += 1
            worlds += 1
            if self.sims is not None and simulations >= self.sims:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_simulations = simulations
        self.last_means = {action: totals[action] / worlds for action in legal}

        def score(action: int) -> tuple[float, int]:
            bonus = self.bias / (worlds + 1) if action == favoured else 0.0
            return self.last_means[action] + bonus, -action

        return max(legal, key=score)
