"""The search bot: determinized Monte Carlo search over the acting player's choices.

At a decision the bot draws worlds consistent with what it has seen
(:func:`airships_env.engine.determinize` on the public view: the hidden deck order and the cards
under the stack tops are re-dealt at random, never the true ones), plays a candidate action in
each world (its dice rolled by the world's own generator, a cheap ``clone``), and lets the
heuristic bot play every seat to the end of the game. A rollout scores the acting seat's result:
its share of the win, plus a little for its final score margin.

Why this design (measured, not assumed): the game's outcome is mostly dice, so the result of one
rollout from the opening has a standard deviation near 0.75 in the difference between two
actions, even when both are played in the same world with the same dice (common random
numbers); telling apart actions whose values differ by a few percent would take thousands of
rollouts, far beyond ~0.2 s. Near the end rollouts are short and actions differ a lot (which
Hindenburg phase, whether to end the game, a chip, an extra turn). So:

- flat search at the root (a tree over later choices adds nothing when every step is a roll),
  over the heuristic's best ``candidates`` actions (one per target);
- once the heuristic expects at most ``search_turns`` own turns left (before, its choice);
- budget by sequential halving with common random numbers: in each round every surviving
  candidate is played in the *same* sampled worlds with the *same* dice generator seeds, and
  the worse half is dropped; the heuristic's choice always survives;
- a candidate replaces the heuristic's choice only if its paired gain, world by world, exceeds
  ``z`` standard errors: noise alone never overrides the heuristic;
- rollouts by the heuristic itself (a greedy rollout policy was measured far weaker: 27% against
  the heuristic), which also makes the search a best response when the heuristic is across the
  table. Multi-player: the acting seat's own result is maximised (the others play the heuristic
  in the rollouts).
"""

from __future__ import annotations

import math
import time
from pathlib import Path

import numpy as np

from agents.bots.heuristic import HeuristicAgent
from airships_env.engine import (
    GAME_OVER,
    NUM_ATTEMPT_ACTIONS,
    GameState,
    attempt_target,
    determinize,
)
from airships_env.policy import Decision

DEFAULT_SIMS = 200
DEFAULT_STEPS = 2000


class MCTSAgent:
    """Determinized Monte Carlo search over the heuristic's best candidates.

    Budget per searched decision: at most ``sims`` rollouts, at most ``steps`` actions played in
    rollouts, at most ``seconds``; whichever runs out first. With none given: 200 rollouts and
    2000 steps (about 0.15-0.35 s here for a searched decision; the step cap matters when
    rollouts are long). ``sims`` and ``steps`` are reproducible; ``seconds`` depends on the load.
    ``search_turns``: the search runs once the heuristic expects at most this many own turns
    left (0: always); before that, rollouts to the end are too noisy to tell candidates apart
    and the heuristic's choice is played. ``candidates``: how many of the heuristic's best
    actions are searched. ``z``: how many standard errors the paired gain of a candidate over the
    heuristic's choice must exceed to replace it. ``margin_weight``: weight of the final score
    margin in a rollout's result. ``config``: the heuristic's YAML file (prior and rollouts).
    """

    def __init__(
        self,
        sims: int | None = None,
        steps: int | None = None,
        seconds: float | None = None,
        search_turns: float = 10.0,
        candidates: int = 4,
        z: float = 2.0,
        margin_weight: float = 0.2,
        config: str | Path | None = None,
        name: str = "mcts",
    ):
        for label, value in (("sims", sims), ("steps", steps)):
            if value is not None and (isinstance(value, bool) or int(value) < 1):
                raise ValueError(f"{label} must be a positive whole number or None, got {value!r}")
        if seconds is not None and float(seconds) <= 0:
            raise ValueError(f"seconds must be positive, got {seconds!r}")
        if sims is None and steps is None and seconds is None:
            sims, steps = DEFAULT_SIMS, DEFAULT_STEPS
        if int(candidates) < 1:
            raise ValueError(f"candidates must be at least 1, got {candidates!r}")
        self.sims = None if sims is None else int(sims)
        self.steps = None if steps is None else int(steps)
        self.seconds = None if seconds is None else float(seconds)
        self.search_turns = float(search_turns)
        self.candidates = int(candidates)
        self.z = float(z)
        self.margin_weight = float(margin_weight)
        self.name = name
        self.heuristic = HeuristicAgent(config=config)
        self.seat = 0
        self.rng = np.random.default_rng(0)
        # The last search: candidate -> (rollouts, mean result); empty if none ran.
        self.last_stats: dict[int, tuple[int, float]] = {}

    def reset(self, seat: int, num_players: int, rng: np.random.Generator) -> None:
        """Take the seat and this game's generator (all sampling comes from it)."""
        self.seat = seat
        self.rng = rng
        self.heuristic.reset(seat, num_players, rng)

    def act(self, decision: Decision) -> int:
        """Search the heuristic's best candidates; keep its choice unless one is clearly better."""
        self.last_stats = {}
        legal = decision.legal_actions
        if len(legal) == 1:
            return legal[0]
        candidates = self._candidates(decision)
        if len(candidates) == 1:
            return candidates[0]
        if self.search_turns and self.heuristic.core.turns_left(decision.view) > self.search_turns:
            return candidates[0]
        results = self._search(decision, candidates)
        return self._choose(candidates, results)

    def _candidates(self, decision: Decision) -> list[int]:
        """The heuristic's best actions, one per target: between the exchange variants only the
        odds differ, and the heuristic already picked the best of them."""
        chosen: list[int] = []
        targets: set[int] = set()
        for action, _value in self.heuristic.rank(decision):
            if action < NUM_ATTEMPT_ACTIONS:
                if attempt_target(action) in targets:
                    continue
                targets.add(attempt_target(action))
            chosen.append(action)
            if len(chosen) == self.candidates:
                break
        return chosen

    def _choose(self, candidates: list[int], results: dict[int, list[float]]) -> int:
        """The candidate with the best paired gain over the heuristic's choice, if significant."""
        default = candidates[0]
        base = results[default]
        best, best_gain = default, 0.0
        for action in candidates[1:]:
            own = results[action]
            n = min(len(own), len(base))
            if n < 2:
                continue
            gains = [own[i] - base[i] for i in range(n)]
            mean = sum(gains) / n
            error = math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1) / n)
            if mean > best_gain and mean > self.z * error:
                best, best_gain = action, mean
        return best

    # -- search -------------------------------------------------------------------------------
    def _search(self, decision: Decision, candidates: list[int]) -> dict[int, list[float]]:
        """Sequential halving with common random numbers: every surviving candidate is played in
        the same worlds (world i: the same hidden cards and the same dice generator for all); the
        heuristic's choice is never dropped. Returns each candidate's results, world by world."""
        results: dict[int, list[float]] = {a: [] for a in candidates}
        alive = list(candidates)
        rounds = max(1, math.ceil(math.log2(len(candidates))))
        started = time.perf_counter()
        sims_used = steps_used = 0
        for round_index in range(rounds):
            share = (round_index + 1) / rounds  # each round may use its share of every budget
            time_limit = math.inf if self.seconds is None else started + self.seconds * share
            step_limit = math.inf if self.steps is None else self.steps * share
            worlds = 1 << 30
            if self.sims is not None:
                worlds = max(1, (self.sims - sims_used) // (len(alive) * (rounds - round_index)))
            for world_index in range(worlds):
                if world_index and (steps_used >= step_limit or time.perf_counter() >= time_limit):
                    break
                world_seed = int(self.rng.integers(2**63))
                for action in alive:
                    result, steps = self._simulate(
                        decision, action, np.random.default_rng(world_seed)
                    )
                    results[action].append(result)
                    sims_used += 1
                    steps_used += steps
            if round_index < rounds - 1 and len(alive) > 2:
                keep = max(2, len(alive) // 2)
                ordered = sorted(alive[1:], key=lambda a: -sum(results[a]) / len(results[a]))
                alive = [alive[0], *ordered[: keep - 1]]
        self.last_stats = {a: (len(r), sum(r) / max(1, len(r))) for a, r in results.items()}
        return results

    def _simulate(
        self, decision: Decision, action: int, world_rng: np.random.Generator
    ) -> tuple[float, int]:
        """One world: determinize, play ``action``, let the heuristic play every seat to the end;
        the acting seat's result and the number of actions played."""
        world = determinize(decision.view, world_rng)
        world.apply_action(action)
        steps = 1
        core = self.heuristic.core
        while world.phase != GAME_OVER:
            world.apply_action(core.choose(world, world.current_player, world.legal_actions()))
            steps += 1
        return self._result(world, decision.seat), steps

    def _result(self, final: GameState, seat: int) -> float:
        """The seat's share of the win plus a little for its score margin over the best other."""
        assert final.final_scores is not None and final.winners is not None
        win = 1.0 / len(final.winners) if seat in final.winners else 0.0
        others = max(s for p, s in enumerate(final.final_scores) if p != seat)
        margin = final.final_scores[seat] - others
        return win + self.margin_weight * math.tanh(margin / 10.0)
