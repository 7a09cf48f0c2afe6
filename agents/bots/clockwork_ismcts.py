"""Escape from Clockwork City's ``ismcts``: the generic information-set MCTS at native speed.

The same search as :class:`~agents.bots.generic_ismcts.GenericISMCTSAgent` (read its docstring:
UCB on the information set, one determinization per simulation, rollouts cut at ``rollout``
actions and scored by the game's ``evaluate``, the ``prior`` bot's choice expanded first with
the progressive ``bias``, rollouts by the ``playout`` bot, else the game's rollout policy), with
the same options, written once in C over a small game interface (``airships_env/native/src/
gsearch.c``) and run on Clockwork's core (``clockwork_search.c``: the rules, the views and
determinizations bit-identical to the engine's, the native bots, and ports of ``rollout_action``
and ``evaluate``), the GIL released.

It is not bit-identical to the Python search (a faster search runs more simulations in the same
``ms``), but with a ``sims`` budget and a seed its choices are reproducible, and it reads only
the seat's view: the search is handed the decision's view, and every simulation re-deals what
the view hides. Without the core, or with ``native=false``, it is the Python search itself.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agents.bots.generic_ismcts import DEFAULT_MAX_ROLLOUT, GenericISMCTSAgent
from airships_env.policy import Decision

__all__ = ["ClockworkISMCTSAgent"]

MAX_MS = 3_600_000.0  # an hour: the core's limit on a decision's time


class ClockworkISMCTSAgent(GenericISMCTSAgent):
    """The generic ISMCTS in C on Clockwork's core (see the module docstring); the options of
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
            from airships_env.games.clockwork import GAME

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
            seed=seed,
            name=name,
            game=game,
        )
        if not isinstance(native, (bool, np.bool_)):
            raise ValueError(f"{name} option native must be true or false, got {native!r}")
        if self.ms is not None and self.ms > MAX_MS:
            raise ValueError(f"{name} option ms must be at most {MAX_MS:.0f} (an hour), got {ms!r}")
        from airships_env.native import available

        #: Whether decisions are searched in the core (else by the Python search).
        self.native = bool(native) and available()
        #: Each root child's (action, visits, mean result) of the last native search.
        self.last_root: tuple[tuple[int, int, float], ...] = ()

    def act(self, decision: Decision) -> int:
        """The most visited root action of a search from the decision's view (equal visits: the
        best mean result, then the lowest index)."""
        if not self.native:
            return super().act(decision)
        from airships_env.native.clockwork import NativeClockworkGame, SearchOptions

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
        root = NativeClockworkGame.from_view(decision.view)
        action, simulations, children = root.search(decision.seat, options, self.rng)
        self.last_simulations = simulations
        self.last_root = children
        if action not in legal:
            raise RuntimeError(f"{self.name}: the search chose {action}, not among {list(legal)}")
        return action
