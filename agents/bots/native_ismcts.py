"""``ismcts`` at native speed: the generic information-set MCTS run in a game's native core.

The same search as :class:`~agents.bots.generic_ismcts.GenericISMCTSAgent` (read its docstring:
UCB on the information set, one determinization per simulation, rollouts cut at ``rollout``
actions and scored by the game's ``evaluate``, the ``prior`` bot's choice expanded first with
the progressive ``bias``, rollouts by the ``playout`` bot, else the game's rollout policy), with
the same options, written once in C over a small game interface (``airships_env/native/src/
gsearch.c``) and run on the core of any game that fills it: the game's ``native_search_view(
view)`` hook hands the decision's view to the core (Escape from Clockwork City:
``clockwork_search.c``; Australia: ``australia_search.c``; each with its rules, views and
determinizations bit-identical to the engine's, its native bots, and ports of its
``rollout_action`` and ``evaluate``), and the search runs with the GIL released. ``prior`` and
``playout`` name one of the core's bots (``random``, ``greedy``, ``heuristic``).

It is not bit-identical to the Python search (a faster search runs more simulations in the same
``ms``), but with a ``sims`` budget and a seed its choices are reproducible, and it reads only
the seat's view: the search is handed the decision's view, and every simulation re-deals what
the view hides. Without the core, for a game without the hook, or with ``native=false``, it is
the Python search itself.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agents.bots.generic_ismcts import DEFAULT_MAX_ROLLOUT, GenericISMCTSAgent
from airships_env.policy import Decision

__all__ = ["NativeISMCTSAgent"]

MAX_MS = 3_600_000.0  # an hour: the core's limit on a decision's time


class NativeISMCTSAgent(GenericISMCTSAgent):
    """The generic ISMCTS in C on a game's core (see the module docstring); the options of
    :class:`~agents.bots.generic_ismcts.GenericISMCTSAgent`, and ``native``: search in the core
    when it is built and the game has one (false: the Python search)."""

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
        if not isinstance(native, (bool, np.bool_)):
            raise ValueError(f"{name} option native must be true or false, got {native!r}")
        if isinstance(ms, (int, float)) and not isinstance(ms, bool) and ms > MAX_MS:
            raise ValueError(f"{name} option ms must be at most {MAX_MS:.0f} (an hour), got {ms!r}")
        from airships_env.native import available

        self._wants_native = bool(native) and available()
        #: Whether decisions are searched in the core (else by the Python search); settled
        #: when the game is known.
        self.native = self._wants_native
        #: Each root child's (action, visits, mean result) of the last native search.
        self.last_root: tuple[tuple[int, int, float], ...] = ()
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

    def _bind(self, game: Any) -> None:
        """The generic checks, then whether the game's core searches, and with which bots."""
        if game is self.game:
            return
        super()._bind(game)
        self.native = self._wants_native and getattr(game, "native_search_view", None) is not None
        if not self.native:
            return
        from airships_env.native.table import BOTS

        for option, bot in (("prior", self.prior), ("playout", self.playout)):
            if bot is not None and bot not in BOTS:
                raise ValueError(
                    f"{self.name} option {option}={bot!r}: the native search plays the core's "
                    f"bots ({', '.join(BOTS)}); native=false searches in Python with any bot "
                    f"of {game.name}"
                )

    def act(self, decision: Decision) -> int:
        """The most visited root action of a search from the decision's view (equal visits: the
        best mean result, then the lowest index)."""
        if decision.game is not None:
            self._bind(decision.game)
        if not self.native or self.game is None:
            return super().act(decision)
        from airships_env.native.table import SearchOptions

        self.last_simulations = 0
        legal = decision.legal_actions
        if len(legal) == 1:
            return legal[0]
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
