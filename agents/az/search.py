"""PUCT over determinizations of the public view, guided by a policy-value network, batched.

One search answers one decision (the ``az`` agent's, or a self-play move):

- single-observer, as ``ismcts``: one tree over the public history; every simulation starts
  from a fresh determinization of the public view (``determinize`` in the native core: the deck
  order and stack contents re-dealt, the dice from the sample's own generator) and applies its
  actions in the core, so chance is handled by sampled outcomes and a node merges them; with
  ``worlds="paired"`` the determinizations are one list made in order, and a root action's k-th
  visit plays the k-th of them, so every root action meets the same deals and dice (common
  random numbers: the difference of two actions' means loses the noise they share);
- PUCT selection (AlphaZero): ``Q + c * P * sqrt(N) / (1 + n)`` for the seat to act, over the
  actions legal in this determinization (``P`` renormalised over them, ``N`` their visits: the
  availability count of ISMCTS); an unvisited action's ``Q`` (the first-play value, ``fpu``)
  is the node's mean for that seat so far (``mean``), or its first evaluation alone (``first``);
- at a new node the network's prior (softmax over the legal logits) is stored, and its values
  (one per seat, max-n) are backed up, optionally mixed with a heuristic rollout's result
  (``rollout_weight``); a finished game backs up its true result;
- Dirichlet noise on the root prior (self-play only);
- batching: :meth:`PUCTSearch.gather` descends up to ``k`` simulations with a virtual loss (a
  pending visit worth 0 to the seat that chose it) and returns their leaves; the caller
  evaluates the leaves of many searches in one forward pass (:func:`run_searches`) and hands the
  answers to :meth:`PUCTSearch.finish`.

Results are a seat's share of the win plus ``margin_weight * tanh(margin / 10)`` (``margin``:
its score minus the best other score), as ``ismcts`` scores a game.

:class:`NativeSearch` runs the same kind of search in the core instead (the generic search's net
mode, ``gsearch.c``; the network evaluated in C, ``gnet.c``): one call a decision, the GIL
released, no batching needed. It is not bit-identical to this tree: the core keeps the prior of
every action where this tree masks the leaf's illegal ones; its node's mean counts the children
legal in the simulation's world only; it keeps one record of a node per situation (a seat to act
and actions legal in both: after a roll, one seat's chip choice and the next seat's turn get
their own priors, values and children, where this tree merges them); its paired worlds key each
turn's dice by the seat and its turns (so that a roll more or less earlier does not shift every
later roll to the other seat); and it adds a prior ``temperature`` and ``luck="subtract"``: the
dice's luck (each roll's reaching its target, or falling one short, less its odds) subtracted from
the results backed up after it, by slopes fitted on the search's earlier simulations (a control
variate: each action's expected result is unchanged, its noise smaller).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

import numpy as np

from airships_env.engine import NUM_ACTIONS
from airships_env.native import require, rng_state

#: A rollout ends after this many actions (the game is then scored as it stands).
MAX_ROLLOUT_ACTIONS = 1000
#: What an unvisited action's Q is (SearchSettings.fpu): the node's mean, or its first value.
FpuRule = Literal["mean", "first"]
FPU_RULES: tuple[str, ...] = get_args(FpuRule)
#: Which world a simulation plays (SearchSettings.worlds): a fresh determinization, or the root
#: action's k-th visit in the search's k-th world.
WorldRule = Literal["fresh", "paired"]
WORLD_RULES: tuple[str, ...] = get_args(WorldRule)
#: What the search does with the dice's luck (SearchSettings.luck): keep it in the results, or
#: subtract it as a control variate (the core's search only).
LuckRule = Literal["keep", "subtract"]
LUCK_RULES: tuple[str, ...] = get_args(LuckRule)
HEURISTIC_KIND = 3  # the native bot kinds of NativeGame.bot_action


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """How a search explores: PUCT constant, virtual-loss batch, root noise, leaf values."""

    c_puct: float = 1.5
    batch: int = 8  # simulations gathered (with virtual loss) before one evaluation
    dirichlet_alpha: float = 0.3
    dirichlet_fraction: float = 0.0  # 0: no root noise (play); 0.25 in self-play
    rollout_weight: float = 0.0  # leaf value = (1 - w) * network + w * heuristic rollout
    margin_weight: float = 0.2
    # An unvisited action's Q: "mean", its node's mean so far (the default since the eighth
    # session: az:ms=100 0.616 against ismcts:ms=100 over 1,000 games, where "first" scored
    # 0.576; agents/az/README.md), or "first", the node's first evaluation alone (a single
    # rollout: a noisy start).
    fpu: FpuRule = "mean"
    # Which world a simulation plays: "fresh", a new determinization every simulation, or
    # "paired", a root action's k-th visit (pending ones counted) in the search's k-th world, so
    # that every root action is measured on the same deals and dice (common random numbers).
    worlds: WorldRule = "fresh"
    # What a result keeps of the dice's luck: "keep" (all of it), or "subtract": every roll's
    # luck (whether it reached its target, or fell one short, less its odds; plain and weighted
    # by the target's points) is subtracted from the results backed up after it, weighted by
    # slopes fitted on the search's earlier simulations (a control variate: the same
    # expectations, less noise). The core's search only (engine native).
    luck: LuckRule = "keep"

    def __post_init__(self) -> None:
        checks = (
            ("c_puct", self.c_puct >= 0),
            ("batch", isinstance(self.batch, int) and self.batch >= 1),
            ("dirichlet_alpha", self.dirichlet_alpha > 0),
            ("dirichlet_fraction", 0 <= self.dirichlet_fraction <= 1),
            ("rollout_weight", 0 <= self.rollout_weight <= 1),
            ("margin_weight", math.isfinite(self.margin_weight)),
            ("fpu", self.fpu in FPU_RULES),
            ("worlds", self.worlds in WORLD_RULES),
            ("luck", self.luck in LUCK_RULES),
        )
        for name, ok in checks:
            value = getattr(self, name)
            if not ok or (isinstance(value, float) and not math.isfinite(value)):
                raise ValueError(f"az search setting {name} is out of range, got {value!r}")


def game_result(game: Any, num_players: int, margin_weight: float) -> np.ndarray:
    """Every seat's result of a finished (or capped) native game: win share plus margin term."""
    result = game.result()
    if result is None:
        scores = list(game.scores())
        best = max(scores)
        mask = sum(1 << seat for seat, score in enumerate(scores) if score == best)
    else:
        scores, mask = list(result[0]), int(result[1])
    winners = [seat for seat in range(num_players) if mask >> seat & 1]
    values = np.zeros(num_players)
    for seat in range(num_players):
        if seat in winners:
            values[seat] = 1.0 / len(winners)
        best_other = max(scores[other] for other in range(num_players) if other != seat)
        values[seat] += margin_weight * math.tanh((scores[seat] - best_other) / 10.0)
    return values


class Node:
    """A tree node: children by action, visits, per-seat value sums, prior, pending visits, and
    its first evaluation's values."""

    __slots__ = ("children", "first", "pending", "prior", "value_sum", "visits")

    def __init__(self, num_players: int):
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.pending = 0  # virtual visits of simulations in flight through this node
        # Plain lists: a tree step reads a few entries, and numpy's per-call cost dominates that.
        self.value_sum = [0.0] * num_players
        self.prior: list[float] | None = None  # 83 probabilities, set at expansion
        self.first: list[float] | None = None  # every seat's value at its evaluation


@dataclass(slots=True)
class Leaf:
    """A simulation waiting for its evaluation: the path, the leaf's seat and observation."""

    path: list[Node]
    seat: int
    observation: np.ndarray
    mask: np.ndarray
    rollout: np.ndarray | None = None  # the heuristic rollout's result, when mixed


@dataclass
class SearchCounts:
    """What one search did."""

    simulations: int = 0
    evaluations: int = 0
    nodes: int = 1
    seconds: float = 0.0
    root: list[tuple[int, int, float]] = field(default_factory=list)  # action, visits, mean
    # The core's records of a node for a situation it had not met (counted in ``nodes``); the
    # Python tree merges situations: 0.
    situations: int = 0
    # With luck="subtract": the core's fitted slopes of its four luck terms at the end (the
    # result's change per unit of each); empty otherwise.
    luck_slopes: tuple[float, ...] = ()

    def root_value(self) -> float | None:
        """The acting seat's expected result as the search found it: its root actions' means
        weighted by their visits (None when no root action was visited)."""
        visits = sum(count for _action, count, _mean in self.root)
        if visits == 0:
            return None
        return sum(count * mean for _action, count, mean in self.root) / visits


class PUCTSearch:
    """One decision's search over a public view (a native game handle); see the module."""

    def __init__(
        self,
        view: Any,
        settings: SearchSettings,
        rng: np.random.Generator,
        sims: int | None = None,
        seconds: float | None = None,
        heuristic: tuple[Any, ...] | None = None,
    ):
        if sims is None and seconds is None:
            raise ValueError("a search needs a budget: sims, seconds or both")
        self.view = view
        self.settings = settings
        self.rng = rng
        self.sims = sims
        self.seconds = seconds
        self.heuristic = heuristic
        if settings.rollout_weight > 0 and heuristic is None:
            raise ValueError("rollout_weight > 0 needs the heuristic's native config")
        if settings.luck != "keep":
            raise ValueError(f"luck={settings.luck} is the core's search only (engine native)")
        self.num_players = int(view.num_players)
        self.seat = int(view.current_player)
        self.legal = list(view.legal_actions())
        self.root = Node(self.num_players)
        self.counts = SearchCounts()
        self.in_flight = 0
        self.started = time.perf_counter()
        self._core_rng = rng_state(np.random.default_rng(int(rng.integers(2**63))))
        self._worlds: list[Any] = []  # paired worlds, in order (settings.worlds)
        self._obs_size = int(require().obs_size(self.num_players))

    # -- budget ----------------------------------------------------------------------------
    def done(self) -> bool:
        """True once the budget is spent and no simulation is in flight."""
        if self.in_flight:
            return False
        if self.sims is not None and self.counts.simulations >= self.sims:
            return True
        elapsed = time.perf_counter() - self.started
        return (
            self.seconds is not None
            and elapsed >= self.seconds
            and self.counts.simulations > 0
            and self.root.prior is not None
        )

    def _room(self, k: int) -> int:
        """How many simulations may start now (the root is expanded alone, first)."""
        if self.root.prior is None:
            return 0 if self.in_flight else 1
        if self.sims is not None:
            k = min(k, self.sims - self.counts.simulations - self.in_flight)
        if self.seconds is not None and time.perf_counter() - self.started >= self.seconds:
            k = 0
        return max(0, k)

    # -- simulations -------------------------------------------------------------------------
    def gather(self, k: int | None = None) -> list[Leaf]:
        """Run up to ``k`` (default ``settings.batch``) simulations down to a new node; finished
        games are backed up at once, the others returned to be evaluated."""
        leaves: list[Leaf] = []
        for _ in range(self._room(self.settings.batch if k is None else k)):
            leaf = self._descend()
            if leaf is not None:
                leaves.append(leaf)
        return leaves

    def _world(self, index: int) -> Any:
        """Paired worlds: a copy of the search's world ``index`` (the worlds before it are made
        first, in order); past the core's GS_MAX_WORLDS, as there, a fresh determinization."""
        if index >= require().GS_MAX_WORLDS:
            game, self._core_rng = self.view.determinize(self._core_rng)
            return game
        while len(self._worlds) <= index:
            game, self._core_rng = self.view.determinize(self._core_rng)
            self._worlds.append(game)
        return self._worlds[index].clone()

    def _descend(self) -> Leaf | None:
        paired = self.settings.worlds == "paired"
        if paired:  # world 0 until the root's action is chosen (the root is the same in all)
            game = self._world(0)
        else:
            game, self._core_rng = self.view.determinize(self._core_rng)
        node = self.root
        path = [node]
        while True:
            if game.result() is not None:
                result = game_result(game, self.num_players, self.settings.margin_weight)
                self._backup(path, result.tolist())
                self.counts.simulations += 1
                return None
            if node.prior is None:
                seat = int(game.current_player)
                legal = game.legal_actions()
                observation = np.empty(self._obs_size, dtype=np.float32)
                game.observe(seat, observation)
                mask = np.zeros(NUM_ACTIONS, dtype=bool)
                mask[legal] = True
                rollout = None
                if self.settings.rollout_weight > 0:
                    rollout = self._rollout(game)
                self.in_flight += 1
                return Leaf(path, seat, observation, mask, rollout)
            seat = int(game.current_player)
            legal = game.legal_actions()
            action = legal[0] if len(legal) == 1 else self._select(node, seat, legal)
            child = node.children.get(action)
            if child is None:
                child = node.children[action] = Node(self.num_players)
                self.counts.nodes += 1
            index = child.visits + child.pending  # at the root: this action's next visit's world
            if paired and node is self.root and index > 0:
                game = self._world(index)
            child.pending += 1
            game.apply(action, None)
            node = child
            path.append(node)

    def _select(self, node: Node, seat: int, legal: Sequence[int]) -> int:
        """The PUCT choice of ``seat`` among ``legal`` at ``node`` (the first of equal scores)."""
        prior = node.prior
        assert prior is not None
        children = node.children
        total = 0.0
        for action in legal:
            total += prior[action]
        seen_total = 0
        stats: list[tuple[int, int, Node | None]] = []
        for action in legal:
            child = children.get(action)
            if child is None:
                stats.append((action, 0, None))
            else:
                seen = child.visits + child.pending
                seen_total += seen
                stats.append((action, seen, child))
        if self.settings.fpu == "first" and node.first is not None:
            default = node.first[seat]
        else:
            default = node.value_sum[seat] / node.visits if node.visits else 0.0
        uniform = 1.0 / len(legal)
        scale = self.settings.c_puct * math.sqrt(max(1, seen_total))
        best, best_score = legal[0], -math.inf
        for action, seen, child in stats:
            value = child.value_sum[seat] / seen if child is not None and seen else default
            share = prior[action] / total if total > 0 else uniform
            score = value + scale * share / (1 + seen)
            if score > best_score:
                best, best_score = action, score
        return int(best)

    def _rollout(self, game: Any) -> np.ndarray:
        """The heuristic bot plays every seat from ``game`` (a copy) to the end."""
        sample = game.clone()
        for _ in range(MAX_ROLLOUT_ACTIONS):
            if sample.result() is not None:
                break
            legal = sample.legal_actions()
            sample.apply(sample.bot_action(HEURISTIC_KIND, self.heuristic, legal), None)
        return game_result(sample, self.num_players, self.settings.margin_weight)

    def finish(self, leaves: Sequence[Leaf], priors: np.ndarray, values: np.ndarray) -> None:
        """Expand and back up evaluated leaves (``values`` in each leaf's relative order)."""
        weight = self.settings.rollout_weight
        for leaf, prior, relative in zip(leaves, priors, values, strict=True):
            node = leaf.path[-1]
            if node.prior is None:
                node.prior = np.asarray(prior, dtype=np.float64).tolist()
                if node is self.root and self.settings.dirichlet_fraction > 0:
                    self._add_noise()
            # The network answers in the observation's order (the leaf's seat first).
            n = self.num_players
            absolute = [float(relative[(seat - leaf.seat) % n]) for seat in range(n)]
            if leaf.rollout is not None:
                absolute = [
                    (1.0 - weight) * mine + weight * float(rolled)
                    for mine, rolled in zip(absolute, leaf.rollout, strict=True)
                ]
            if node.first is None:
                node.first = absolute
            self._backup(leaf.path, absolute)
            self.in_flight -= 1
            self.counts.simulations += 1
            self.counts.evaluations += 1

    def _add_noise(self) -> None:
        assert self.root.prior is not None
        noise = self.rng.dirichlet(np.full(len(self.legal), self.settings.dirichlet_alpha))
        fraction = self.settings.dirichlet_fraction
        prior = np.array(self.root.prior)
        prior[self.legal] = (1 - fraction) * prior[self.legal] + fraction * noise
        self.root.prior = prior.tolist()

    @staticmethod
    def _backup(path: list[Node], values: list[float]) -> None:
        for depth, node in enumerate(path):
            node.visits += 1
            sums = node.value_sum
            for seat, value in enumerate(values):
                sums[seat] += value
            if depth:
                node.pending -= 1

    # -- the answer -----------------------------------------------------------------------------
    def visit_counts(self) -> np.ndarray:
        """Visits of every root action (83 entries, 0 for the unvisited and the illegal)."""
        counts = np.zeros(NUM_ACTIONS)
        for action, child in self.root.children.items():
            counts[action] = child.visits
        return counts

    def best_action(self) -> int:
        """The most visited root action (ties: the higher prior, then the lower index)."""
        counts = self.visit_counts()
        prior = self.root.prior if self.root.prior is not None else [0.0] * NUM_ACTIONS
        return int(max(self.legal, key=lambda a: (counts[a], prior[a], -a)))

    def sample_action(self, temperature: float) -> int:
        """A root action drawn with probability ~ visits^(1/temperature) from the search's
        generator (temperature 0: :meth:`best_action`)."""
        if temperature <= 0:
            return self.best_action()
        counts = self.visit_counts()[self.legal] ** (1.0 / temperature)
        if counts.sum() <= 0:
            return self.best_action()
        return int(self.legal[int(self.rng.choice(len(self.legal), p=counts / counts.sum()))])

    def summary(self) -> SearchCounts:
        """The counts, with the time spent and the root's (action, visits, mean) filled in."""
        self.counts.seconds = time.perf_counter() - self.started
        self.counts.root = [
            (action, child.visits, child.value_sum[self.seat] / max(1, child.visits))
            for action, child in sorted(self.root.children.items())
        ]
        return self.counts


class NativeSearch:
    """One decision searched in the core (see the module): the answer, with the interface of
    :class:`PUCTSearch` that the agent and self-play read (``legal``, ``counts``,
    :meth:`visit_counts`, :meth:`best_action`, :meth:`sample_action`)."""

    def __init__(
        self,
        view: Any,
        net: object,
        settings: SearchSettings,
        rng: np.random.Generator,
        heuristic: tuple[Any, ...],
        sims: int | None = None,
        seconds: float | None = None,
        temperature: float = 1.0,
    ):
        if sims is None and seconds is None:
            raise ValueError("a search needs a budget: sims, seconds or both")
        started = time.perf_counter()
        self.rng = rng
        self.legal = list(view.legal_actions())
        noise = None
        if settings.dirichlet_fraction > 0:
            noise = np.zeros(NUM_ACTIONS)
            noise[self.legal] = rng.dirichlet(np.full(len(self.legal), settings.dirichlet_alpha))
        action, simulations, evaluations, nodes, root, situations, slopes = view.az_search(
            net,
            sims or 0,
            seconds or 0.0,
            settings.c_puct,
            settings.rollout_weight,
            settings.margin_weight,
            int(rng.integers(2**63)),
            heuristic,
            noise=None if noise is None else noise.tobytes(),
            noise_fraction=settings.dirichlet_fraction if noise is not None else 0.0,
            temperature=temperature,
            fpu=settings.fpu,
            worlds=settings.worlds,
            luck=settings.luck,
        )
        self.action = int(action)
        self._visits = np.zeros(NUM_ACTIONS)
        for root_action, visits, _mean, _prior in root:
            self._visits[root_action] = visits
        self.counts = SearchCounts(
            simulations=simulations,
            evaluations=evaluations,
            nodes=nodes,
            seconds=time.perf_counter() - started,
            root=[(a, visits, mean) for a, visits, mean, _prior in root if visits],
            situations=situations,
            luck_slopes=tuple(slopes),
        )

    def visit_counts(self) -> np.ndarray:
        """Visits of every root action (83 entries); one simulation: 1 for the network's choice."""
        if self._visits.sum() == 0:
            counts = np.zeros(NUM_ACTIONS)
            counts[self.action] = 1.0
            return counts
        return self._visits.copy()

    def best_action(self) -> int:
        """The most visited root action (ties: the higher prior, then the lower index)."""
        return self.action

    def sample_action(self, temperature: float) -> int:
        """A root action drawn with probability ~ visits^(1/temperature) (0: the best)."""
        if temperature <= 0:
            return self.action
        counts = self.visit_counts()[self.legal] ** (1.0 / temperature)
        return int(self.legal[int(self.rng.choice(len(self.legal), p=counts / counts.sum()))])

    def summary(self) -> SearchCounts:
        """What the search did."""
        return self.counts


Evaluator = Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]


def run_searches(
    searches: Sequence[PUCTSearch], evaluators: Sequence[Evaluator]
) -> tuple[int, int]:
    """Run searches side by side until all are done: each round gathers every search's leaves
    and answers the leaves of the searches sharing an evaluator in one call. Returns
    (forward passes, leaves evaluated)."""
    if len(searches) != len(evaluators):
        raise ValueError("one evaluator per search")
    passes = evaluated = 0
    while True:
        active = [i for i, search in enumerate(searches) if not search.done()]
        if not active:
            return passes, evaluated
        groups: dict[int, list[tuple[int, list[Leaf]]]] = {}
        for index in active:
            leaves = searches[index].gather()
            if leaves:
                groups.setdefault(id(evaluators[index]), []).append((index, leaves))
        for members in groups.values():
            evaluate = evaluators[members[0][0]]
            every = [leaf for _index, leaves in members for leaf in leaves]
            priors, values = evaluate(
                np.stack([leaf.observation for leaf in every]),
                np.stack([leaf.mask for leaf in every]),
            )
            passes += 1
            evaluated += len(every)
            start = 0
            for index, leaves in members:
                stop = start + len(leaves)
                searches[index].finish(leaves, priors[start:stop], values[start:stop])
                start = stop
