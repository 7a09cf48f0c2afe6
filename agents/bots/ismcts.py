"""The native search bot: information-set Monte Carlo tree search inside the core.

``ismcts`` searches every decision with more than one legal action in C, with the GIL released:
the generic search every native core shares (``airships_env/native/src/gsearch.c``) with Airships
filling its game interface (``airships_search.c``) and its ranked candidates, progressive
widening, gate and forced-move skipping turned on (docs/api/search.md):

- single-observer ISMCTS (Cowling, Powley and Whitehouse 2012; OpenSpiel's ``is_mcts``): one
  tree over the public history, every iteration in a fresh determinization of the public view
  (the hidden deck order and stack contents re-dealt, the dice from a fresh generator), so chance
  is handled by sampled outcomes. In Airships nobody holds private cards, so every seat's
  information set is the same public view and one tree serves every seat;
- per-player values (max-n) for 3 and 4 players: a node keeps every seat's mean result, and the
  seat that chooses maximises its own; a result is the seat's share of the win plus
  ``margin_weight * tanh(margin / 10)`` (its final score over the best other);
- the heuristic bot's values order the candidates: the root searches its best ``candidates``
  actions (one per target: the exchange variants of a target differ only in odds, and the
  heuristic already weighs them); a node below the root widens to
  ``max(1, widening * sqrt(visits))`` of them, so the other seats (and the acting seat's later
  choices) first play the heuristic's choice and alternatives enter as the node is visited; UCB1 with the availability counts of ISMCTS
  (constant ``c``) chooses among the children; the most visited root candidate is played, unless
  it is not the heuristic's choice and its mean does not beat the heuristic choice's mean by
  ``z`` standard errors (then the heuristic's choice is played: noise alone never overrides it;
  ``z=0``: always the most visited);
- rollouts by a native bot (``heuristic``, ``greedy`` or ``random``), capped at 1,000 actions.

Budgets: ``ms`` milliseconds per decision (default 100 when no budget is given), ``sims``
simulations per decision (reproducible: the same seed gives the same choices), or both (whichever
runs out first). The bot reads only the decision's public view; its randomness comes from the
generator given to :meth:`ISMCTSAgent.reset` (or from ``seed``, when given), never the game's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from airships_env.bot_config import GreedyConfig, HeuristicConfig
from airships_env.native import NativeGame
from airships_env.policy import Decision

DEFAULT_MS = 100.0
ROLLOUTS = {"random": 1, "greedy": 2, "heuristic": 3}
MAX_NODES_LIMIT = 50_000_000


@dataclass(frozen=True, slots=True)
class SearchStats:
    """What one search did: simulations, actions applied (tree and rollouts), tree nodes, and
    each root candidate's (action, visits, mean result of the acting seat, its standard error)."""

    simulations: int
    actions: int
    nodes: int
    root: tuple[tuple[int, int, float, float], ...]


def _whole(name: str, value: object, low: int, high: int | None = None) -> int:
    """An integer option in [low, high], or a ValueError naming the option and the value."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"ismcts option {name} must be a whole number, got {value!r}")
    number = int(value)
    if number < low or (high is not None and number > high):
        bound = f">= {low}" if high is None else f"in {low}..{high}"
        raise ValueError(f"ismcts option {name} must be {bound}, got {value!r}")
    return number


def _real(name: str, value: object, low: float, *, strict: bool = False) -> float:
    """A finite number option >= low (> low if strict), or a ValueError naming it."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"ismcts option {name} must be a number, got {value!r}")
    number = float(value)
    if not math.isfinite(number) or number < low or (strict and number == low):
        bound = f"> {low:g}" if strict else f">= {low:g}"
        raise ValueError(f"ismcts option {name} must be a finite number {bound}, got {value!r}")
    return number


class ISMCTSAgent:
    """Information-set MCTS in the native core (see the module docstring).

    ``ms``: time per decision in milliseconds; ``sims``: simulations per decision (with neither,
    ``ms=100``). ``rollout``: heuristic, greedy or random. ``candidates``: root actions searched
    (the heuristic's best, one per target). ``c``: UCB exploration constant. ``margin_weight``:
    weight of the score margin in a result. ``widening``: children below the root grow as
    ``widening * sqrt(visits)``. ``z``: standard errors by which the most visited candidate must
    beat the heuristic's choice to replace it (0: the most visited, always). ``max_nodes``: tree
    size limit. ``seed``: a fixed seed for the search (else the generator given to ``reset``).
    ``config``: the heuristic's YAML file (prior and heuristic rollouts).
    """

    def __init__(
        self,
        ms: float | None = None,
        sims: int | None = None,
        rollout: str = "heuristic",
        candidates: int = 6,
        c: float = 0.7,
        margin_weight: float = 0.2,
        widening: float = 1.0,
        z: float = 1.0,
        max_nodes: int = 200_000,
        seed: int | None = None,
        config: str | Path | None = None,
        name: str = "ismcts",
    ):
        self.sims = None if sims is None else _whole("sims", sims, 1)
        self.ms = None if ms is None else _real("ms", ms, 0.0, strict=True)
        if self.ms is not None and self.ms > 3_600_000:
            raise ValueError(f"ismcts option ms must be at most 3600000 (an hour), got {ms!r}")
        if self.sims is None and self.ms is None:
            self.ms = DEFAULT_MS
        if rollout not in ROLLOUTS:
            raise ValueError(
                f"ismcts option rollout must be one of {', '.join(ROLLOUTS)}, got {rollout!r}"
            )
        self.rollout = str(rollout)
        self.candidates = _whole("candidates", candidates, 1, 83)
        self.c = _real("c", c, 0.0)
        self.margin_weight = _real("margin_weight", margin_weight, -math.inf)
        self.widening = _real("widening", widening, 0.0, strict=True)
        self.z = _real("z", z, 0.0)
        self.max_nodes = _whole("max_nodes", max_nodes, 1, MAX_NODES_LIMIT)
        self.seed = None if seed is None else _whole("seed", seed, 0)
        if config is not None and not isinstance(config, (str, Path)):
            raise ValueError(f"ismcts option config must be a file path, got {config!r}")
        self.config = HeuristicConfig.load(config)
        self._heuristic = self.config.native()
        self._greedy = GreedyConfig().native()
        self.name = name
        self.seat = 0
        self.rng = np.random.default_rng(self.seed)
        #: The last search's statistics (None when the decision had one legal action).
        self.last_stats: SearchStats | None = None

    def reset(self, seat: int, num_players: int, rng: np.random.Generator) -> None:
        """Take the seat and this game's generator (a fixed ``seed`` replaces it)."""
        self.seat = seat
        self.rng = rng if self.seed is None else np.random.default_rng(self.seed)

    def act(self, decision: Decision) -> int:
        """The most visited root candidate of a search on the decision's public view."""
        self.last_stats = None
        legal = decision.legal_actions
        if len(legal) == 1:
            return legal[0]
        game = NativeGame.from_state(decision.view)
        action, _stats = self.search(game, int(self.rng.integers(2**63)))
        if action not in legal:  # the core searches the same legal set; never expected
            raise RuntimeError(f"ismcts chose {action}, not among the legal {list(legal)}")
        return action

    def search(
        self, game: NativeGame, seed: int, rank_net: object | None = None, rank_all: bool = False
    ) -> tuple[int, SearchStats]:
        """Search the decision of the player to act in ``game`` (only its public view is read).
        ``rank_net``: a network of the core (``make_net``) that ranks the root's candidates in
        place of the heuristic, and with ``rank_all`` every node's (the ``az`` agent's
        ``search=gated`` and ``search=ranked``)."""
        action, simulations, actions, nodes, root = game.handle.search(
            sims=self.sims or 0,
            seconds=(self.ms or 0.0) / 1000.0,
            rollout=ROLLOUTS[self.rollout],
            candidates=self.candidates,
            c=self.c,
            margin_weight=self.margin_weight,
            widening=self.widening,
            z=self.z,
            max_nodes=self.max_nodes,
            seed=seed,
            greedy=self._greedy,
            heuristic=self._heuristic,
            rank_net=rank_net,
            rank_all=rank_all,
        )
        self.last_stats = SearchStats(simulations, actions, nodes, tuple(root))
        return int(action), self.last_stats
