"""The ``az`` agent: PUCT search guided by a policy-value network (:mod:`agents.az.search`).

Spec: ``az[:ms=100][:sims=N][:path=FILE]`` plus the search settings (``c``, ``batch``,
``rollout_weight``, ``margin_weight``, ``temperature``, ``fpu``, ``worlds``, ``luck``),
``engine``, ``search`` and ``seed``.
With neither ``ms`` nor ``sims`` the budget is 100 ms a decision; with ``sims`` alone the choices
are reproducible (same seed, same choice); ``sims=1`` is the network alone (one forward pass, the
most probable legal action).

``engine=native`` (the default): the search runs in the core (the generic search's net mode,
``gsearch.c``), the network evaluated there one leaf at a time (``gnet.c``, the weights copied
in once), the GIL released; ``engine=python``: the readable tree of :mod:`agents.az.search`,
leaves batched through torch (``batch``). The two make the same kind of search, not the same
choices (:mod:`agents.az.search` says where they differ).
``temperature`` (native only): the prior is softmax(logits / temperature); above 1 it spreads
the visits of a peaked policy. ``fpu``: an unvisited action's value, ``mean`` (the default: its
node's mean so far) or ``first`` (its node's first evaluation alone, a single rollout: the
rule before the eighth session; at 2 players ``az:ms=100`` won 0.576 of 1,000 games against
``ismcts:ms=100`` with it, 0.616 with ``mean``). ``worlds``: ``fresh`` (the default: a new
determinization every simulation) or ``paired`` (a root action's k-th visit plays the search's
k-th world, so every root action meets the same deals and dice; :mod:`agents.az.search`).
``luck`` (native only): ``subtract`` (the default since the eleventh session) backs up every
result less the dice's luck after the node's action (each roll's reaching its target, or falling
one short, less its odds), weighted by slopes the search fits on its earlier simulations: a
control variate, each action's expected result unchanged and its noise smaller; ``keep``: the
results as played (the search before, and the default of ``engine=python``, which has no other).

``search=puct`` (the default) is the search above. ``search=gated``: ``ismcts``'s search instead
(ranked candidates, progressive widening, heuristic rollouts, the gate) with the network ranking
the root's candidates, so the network's choice stands unless a candidate's rollouts beat it by
one standard error; the nodes below the root keep the heuristic's ranking (one forward pass a
decision). ``search=ranked``: the same, with the network ranking every node's actions (one
forward pass a node, kept for its later visits).

``path``: a network file written by :mod:`agents.az.train` (``runs/az_2p/best.pt``); without it,
the network shipped for the table size (``agents/models/az_<n>p.pt``, expert iteration's best:
2 players), else one initialised from the bundled ``ppo_<n>p`` policy of the table size (trunk
and policy head; its value head is untrained and answers 0).
``rollout_weight`` (default 1): a leaf's value is ``(1 - w)`` times the network's plus ``w`` times
a heuristic rollout's result. The default uses the network for its prior only: no value head
we trained so far beats a constant on held-out games (agents/az/README.md), and the rollouts do.

The agent reads only the decision's public view (it searches ``public_view`` of
``Decision.view``, whatever that holds) and draws its randomness from the generator given to
:meth:`AZAgent.reset` (or from ``seed``). It sets torch's thread count to ``threads`` (default 1,
process-wide): on this 2-core machine a batch of 8 leaves took 36 ms with 2 threads, 1.8 ms
with one.
"""

from __future__ import annotations

import math
from typing import cast

import numpy as np
import torch

from agents.az.network import (
    PolicyValueNet,
    bundled_network,
    bundled_ppo,
    from_ppo,
    load_network,
)
from agents.az.search import (
    FPU_RULES,
    LUCK_RULES,
    WORLD_RULES,
    FpuRule,
    LuckRule,
    NativeSearch,
    PUCTSearch,
    SearchCounts,
    SearchSettings,
    WorldRule,
    run_searches,
)
from agents.bots.ismcts import ISMCTSAgent
from airships_env.bot_config import HeuristicConfig
from airships_env.native import NativeGame
from airships_env.policy import Decision

DEFAULT_MS = 100.0


class AZAgent:
    """Network-guided PUCT over determinizations of the public view (see the module)."""

    def __init__(
        self,
        ms: float | None = None,
        sims: int | None = None,
        path: str | None = None,
        c: float = 1.5,
        batch: int = 8,
        rollout_weight: float = 1.0,
        margin_weight: float = 0.2,
        seed: int | None = None,
        threads: int = 1,
        engine: str = "native",
        temperature: float = 1.0,
        search: str = "puct",
        fpu: str = "mean",
        worlds: str = "fresh",
        luck: str | None = None,
        name: str = "az",
    ):
        if sims is not None and (isinstance(sims, bool) or not isinstance(sims, int) or sims < 1):
            raise ValueError(f"az option sims must be a whole number >= 1, got {sims!r}")
        if ms is not None and (
            isinstance(ms, bool)
            or not isinstance(ms, (int, float))
            or not math.isfinite(ms)
            or not 0 < ms <= 3_600_000
        ):
            raise ValueError(f"az option ms must be a number in (0, 3600000], got {ms!r}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            raise ValueError(f"az option seed must be a whole number >= 0, got {seed!r}")
        if path is not None and not isinstance(path, str):
            raise ValueError(f"az option path must be a file path, got {path!r}")
        if isinstance(batch, bool) or not isinstance(batch, int):
            raise ValueError(f"az option batch must be a whole number >= 1, got {batch!r}")
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise ValueError(f"az option threads must be a whole number >= 1, got {threads!r}")
        if engine not in ("native", "python"):
            raise ValueError(f"az option engine must be native or python, got {engine!r}")
        if search not in ("puct", "gated", "ranked"):
            raise ValueError(f"az option search must be puct, gated or ranked, got {search!r}")
        if fpu not in FPU_RULES:
            raise ValueError(f"az option fpu must be {' or '.join(FPU_RULES)}, got {fpu!r}")
        if worlds not in WORLD_RULES:
            raise ValueError(f"az option worlds must be {' or '.join(WORLD_RULES)}, got {worlds!r}")
        if luck is None:  # the default: subtract it where the search can (the core's)
            luck = "subtract" if engine == "native" else "keep"
        if luck not in LUCK_RULES:
            raise ValueError(f"az option luck must be {' or '.join(LUCK_RULES)}, got {luck!r}")
        if luck != "keep" and engine != "native":
            raise ValueError(f"az option luck={luck} needs engine=native")
        if search != "puct" and engine != "native":
            raise ValueError(f"az option search={search} needs engine=native")
        self.search_kind = search
        self._gated: ISMCTSAgent | None = None
        if search != "puct":
            self._gated = ISMCTSAgent(ms=ms, sims=sims, margin_weight=margin_weight)
        if (
            isinstance(temperature, bool)
            or not isinstance(temperature, (int, float))
            or not 0 < temperature <= 100
        ):
            raise ValueError(f"az option temperature must be in (0, 100], got {temperature!r}")
        if engine == "python" and temperature != 1:
            raise ValueError("az option temperature needs engine=native")
        self.engine = engine
        self.temperature = float(temperature)
        self.threads = threads
        self.sims = sims
        self.ms = float(ms) if ms is not None else (DEFAULT_MS if sims is None else None)
        for option, value in (("c", c), ("rollout_weight", rollout_weight)):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"az option {option} must be a number, got {value!r}")
        try:
            self.settings = SearchSettings(
                c_puct=float(c),
                batch=batch,
                rollout_weight=float(rollout_weight),
                margin_weight=float(margin_weight),
                fpu=cast(FpuRule, fpu),  # checked against FPU_RULES above
                worlds=cast(WorldRule, worlds),  # checked against WORLD_RULES above
                luck=cast(LuckRule, luck),  # checked against LUCK_RULES above
            )
        except ValueError as exc:  # name the option as the spec spells it
            raise ValueError(str(exc).replace("search setting c_puct", "option c")) from None
        self.path = path
        self.seed = seed
        self.name = name
        self.seat = 0
        self.rng = np.random.default_rng(seed)
        self._nets: dict[int, PolicyValueNet] = {}
        self.net: PolicyValueNet | None = load_network(path) if path is not None else None
        self._heuristic = HeuristicConfig.load().native()
        self._native: tuple[PolicyValueNet, object] | None = None  # (net, its core copy)
        #: The last search's counts (None when the decision had one legal action).
        self.last_counts: SearchCounts | None = None

    def check_table(self, num_players: int) -> None:
        """Raise ValueError unless the network file plays ``num_players`` seats (without a file
        each table size gets its own bundled network)."""
        if self.path is not None and self.net is not None and self.net.num_players != num_players:
            raise ValueError(
                f"az network {self.path} was trained for {self.net.num_players} players, "
                f"this table has {num_players}"
            )

    def reset(self, seat: int, num_players: int, rng: np.random.Generator) -> None:
        """Take the seat and this game's generator (a fixed ``seed`` replaces it)."""
        self.check_table(num_players)
        self.seat = seat
        self.rng = rng if self.seed is None else np.random.default_rng(self.seed)
        if self.path is None:
            self.net = self._bundled(num_players)

    def _bundled(self, num_players: int) -> PolicyValueNet:
        net = self._nets.get(num_players)
        if net is None:
            shipped = bundled_network(num_players)
            if shipped is not None:
                net = load_network(shipped)
            else:
                net, _copied = from_ppo(bundled_ppo(num_players), num_players)
            net.eval()
            self._nets[num_players] = net
        return net

    def act(self, decision: Decision) -> int:
        """The most visited root action of a search on the decision's public view."""
        self.last_counts = None
        legal = decision.legal_actions
        if len(legal) == 1:
            return legal[0]
        view = NativeGame.from_state(decision.view).public_view()
        if self.net is None:
            self.net = self._bundled(view.num_players)
        self.check_table(view.num_players)
        if self._gated is not None:
            seed = int(self.rng.integers(2**63))
            action, _stats = self._gated.search(
                view, seed, rank_net=self.native_net(), rank_all=self.search_kind == "ranked"
            )
        elif self.engine == "native":
            action = self.native_search(view.handle, self.rng)
        else:
            action = self.search(view.handle, self.rng).best_action()
        if action not in legal:  # the search reads the same legal set; never expected
            raise RuntimeError(f"az chose {action}, not among the legal {list(legal)}")
        return action

    def native_net(self) -> object:
        """The core's copy of the current network (made again when the network changes)."""
        assert self.net is not None
        if self._native is None or self._native[0] is not self.net:
            self._native = (self.net, self.net.native())
        return self._native[1]

    def native_search(self, view: object, rng: np.random.Generator) -> int:
        """Search the native public view ``view`` (its handle) in the core; the chosen action
        (the counts in :attr:`last_counts`)."""
        search = NativeSearch(
            view,
            self.native_net(),
            self.settings,
            rng,
            self._heuristic,
            sims=self.sims,
            seconds=None if self.ms is None else self.ms / 1000.0,
            temperature=self.temperature,
        )
        self.last_counts = search.summary()
        return search.best_action()

    def search(self, view: object, rng: np.random.Generator) -> PUCTSearch:
        """Run one search of the native public view ``view`` (its handle) and return it."""
        assert self.net is not None
        if torch.get_num_threads() != self.threads:
            torch.set_num_threads(self.threads)
        search = PUCTSearch(
            view,
            self.settings,
            rng,
            sims=self.sims,
            seconds=None if self.ms is None else self.ms / 1000.0,
            heuristic=self._heuristic,
        )
        run_searches([search], [self.net.predict])
        self.last_counts = search.summary()
        return search
