"""Hand-written bots to train against and to evaluate with, all following the Policy protocol.

- :class:`GreedyAgent` (``greedy``): the best expected value now.
- :class:`HeuristicAgent` (``heuristic``): a plan over the game, weights in
  ``airships_env/heuristic.yaml`` (shared with the heuristic's native twin).
- :class:`MCTSAgent` (``mcts``): determinized Monte Carlo search over the heuristic's candidates.
- :class:`ISMCTSAgent` (``ismcts``): information-set MCTS inside the native core.

Every bot reads only ``decision.view`` (a public view), ``decision.seat`` and
``decision.legal_actions``, asks the engine for odds and scores, and draws any randomness from the
generator given to ``reset``.
"""

from __future__ import annotations

from agents.bots.greedy import GreedyAgent
from agents.bots.heuristic import HeuristicAgent, HeuristicConfig
from agents.bots.ismcts import ISMCTSAgent
from agents.bots.mcts import MCTSAgent

__all__ = ["GreedyAgent", "HeuristicAgent", "HeuristicConfig", "ISMCTSAgent", "MCTSAgent"]
