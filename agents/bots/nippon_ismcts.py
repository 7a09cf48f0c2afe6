"""Nippon's ``ismcts``: the generic information-set MCTS at native speed.

The search of :class:`~agents.bots.generic_ismcts.GenericISMCTSAgent` (its docstring says how a
simulation runs), with the same options, run in C (``airships_env/native/src/gsearch.c``) on
Nippon's core (``nippon_search.c``: the rules, the view and determinization bit-identical to the
engine's, the native ``random``, ``greedy`` and ``heuristic`` bots, E4's winners and a port of
the game's ``evaluate`` hook), the GIL released. Its options and their checks are Clockwork's
native agent's (:class:`~agents.bots.clockwork_ismcts.ClockworkISMCTSAgent`, ``native`` included);
only the core it searches in is Nippon's.

Not bit-identical to the Python search (a faster search runs more simulations in the same
``ms``; a bot's plan for its turn is kept only while a simulated world follows it), but with a
``sims`` budget and a seed its choices are reproducible, and it reads only the seat's view: the
search is handed the decision's view, and every simulation re-draws the bag's order, all that a
Nippon view hides. Without the core, or with ``native=false``, it is the Python search itself.
"""

from __future__ import annotations

from typing import Any

from agents.bots.clockwork_ismcts import ClockworkISMCTSAgent
from agents.bots.generic_ismcts import DEFAULT_MAX_ROLLOUT, GenericISMCTSAgent
from airships_env.policy import Decision

__all__ = ["NipponISMCTSAgent"]


class NipponISMCTSAgent(ClockworkISMCTSAgent):
    """The generic ISMCTS in C on Nippon's core (see the module docstring); the options of
    :class:`~agents.bots.generic_ismcts.GenericISMCTSAgent`, and ``native``: search in the core
    when it is built (false: the Python search)."""

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
        native: bool = True,
        seed: int | None = None,
        name: str = "ismcts",
        game: Any = None,
    ):
        if game is None:
            from airships_env.games.nippon import GAME

            game = GAME
        super().__init__(
            sims=sims,
            ms=ms,
            c=c,
            max_rollout=max_rollout,
            rollout=rollout,
            prior=prior,
            bias=bias,
            playout=playout,
            native=native,
            seed=seed,
            name=name,
            game=game,
        )

    def act(self, decision: Decision) -> int:
        """The most visited root action of a search from the decision's view (equal visits: the
        best mean result, then the lowest index)."""
        if not self.native:
            return GenericISMCTSAgent.act(self, decision)
        from airships_env.native.nippon import SearchOptions

        self.last_simulations = 0
        legal = decision.legal_actions
        if len(legal) == 1:
            return legal[0]
        if decision.game is not None:
            self._bind(decision.game)
        options = SearchOptions(
            sims=0 if self.sims is None else self.sims,
            seconds=0.0 if self.ms is None else self.ms / 1000.0,
            c=self.c,
            max_rollout=self.max_rollout,
            rollout=-1 if self.rollout is None else self.rollout,
            prior=self.prior,
            bias=self.bias,
            playout=self.playout,
        )
        root = self.game.native_search_view(decision.view)
        action, simulations, children = root.search(decision.seat, options, self.rng)
        self.last_simulations = simulations
        self.last_root = children
        if action not in legal:
            raise RuntimeError(f"{self.name}: the search chose {action}, not among {list(legal)}")
        return action
