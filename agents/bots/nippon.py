"""Nippon bots: ``greedy`` and ``heuristic`` (docs/nippon/DATA.md, "The bots").

Both read only the acting seat's :class:`~airships_env.policy.Decision`: its legal actions and
its view (everything is open in Nippon but the bag's draw order, RULES.md V1). To look ahead
they determinize the view with their own generator (``view.determinize(rng)``) and apply
actions on clones of it: never the true state, whose generator they are not given.

How a choice is made (both bots): at the start of a turn, every worker kind that can be taken
(one colour per kind: a colour already held first, so that no new colour is owed at
consolidation) and ``consolidate`` are played out to the end of the main action on a clone,
each step of the action chosen by the same one-step evaluation; the best end position wins and
its steps become the plan for the rest of the turn. A step whose effect only shows after the
steps that complete it (a contract's deliveries, an influence tile's cubes and value, a reward
tile and where its multiplier goes) is searched to its completion. After the main action the
blueprint bonuses are taken while they raise the evaluation.

- ``greedy`` scores a position by what it holds now: VP, plus fixed values of money, coal,
  cubes, factories, machines, knowledge, track steps, pieces and influence on the board.
- ``heuristic`` scores the rest of the game: VP, the achievements' final value with the
  multipliers placed (and their likely growth), the majority and ship VP of the scoring phases
  still to come at the current standings, the income of the consolidations left, the
  production assets discounted by the turns left, the colours it would fail to pay and the
  reward level its workers have reached.

The weights of both evaluations live in :class:`~airships_env.games.nippon.weights.Weights`
(``GREEDY``, ``HEURISTIC``), where the native bots read them too.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from airships_env.chance import uniform_below
from airships_env.games.nippon.engine import Phase
from airships_env.games.nippon.engine import actions as A
from airships_env.games.nippon.engine.data import NUM_CITIES, NUM_COLOURS, NUM_GOODS, NUM_REGIONS
from airships_env.games.nippon.engine.rules import achievement_base, region_influence
from airships_env.games.nippon.weights import GREEDY, GROWTH, HEURISTIC, Weights
from airships_env.policy import Decision

__all__ = ["GREEDY", "HEURISTIC", "GreedyBot", "HeuristicBot", "Weights", "evaluate"]

#: Phases whose step shows its worth only once the steps after it are done (searched through).
_COMPLETING = frozenset((Phase.DELIVER, Phase.CUBES, Phase.TILE, Phase.REWARD, Phase.ACHIEVEMENT))
#: Phases of a main action in progress (played out step by step).
_IN_ACTION = frozenset(
    (
        Phase.STEPS,
        Phase.PRODUCE,
        Phase.TECHNOLOGY,
        Phase.PIECES,
        Phase.CONTRACT,
        Phase.DELIVER,
        Phase.SPACE,
        Phase.CUBES,
        Phase.TILE,
        Phase.INVEST,
        Phase.REWARD,
        Phase.ACHIEVEMENT,
    )
)
_BONUSES = frozenset((A.BONUS, A.BONUS + 1, A.BONUS + 2))
_EPS = 1e-9


def turns_left(s: Any, w: Weights) -> float:
    """An estimate of the acting player's own turns still to come (E1: 3 golden turns)."""
    d = s.data
    if s.golden_turns >= -1:
        done = max(0, s.golden_turns)
        return max(0.0, 3.0 - done / s.num_players)
    return (d.golden_from - s.marker) * w.turns_per_step + 3.0


def _place_vp(s: Any, p: int, r: int, table: tuple[int, ...]) -> float:
    """F2-F4 for one seat: its majority VP and ship VP in region ``r`` at the standings now."""
    d = s.data
    per, neutral = region_influence(s, r)
    mine = per[p]
    place = -1
    if mine > 0:
        above = sum(1 for q, v in enumerate(per) if q != p and v > mine) + (neutral > mine)
        tied = sum(1 for q, v in enumerate(per) if q != p and v == mine) + (neutral == mine)
        covered = [table[j] if j < len(table) else 0 for j in range(above, above + tied + 1)]
        vp = float(sum(covered) // len(covered))
        place = above
    else:
        vp = 0.0
    ships = s.ships_in[r][p]
    if ships:
        each = d.ship_vp_no_place if place < 0 else d.ship_vp[min(place, len(d.ship_vp) - 1)]
        vp += ships * each
    return vp


def projected_majorities(s: Any, p: int, w: Weights) -> float:
    """The VP of the scoring phases still to come for ``p`` at today's standings."""
    d = s.data
    total = 0.0
    factor = 1.0
    for j, space in enumerate(d.scoring_spaces):
        if space <= s.marker:
            continue
        table = d.majority_vp[j]
        total += factor * sum(_place_vp(s, p, r, table) for r in range(NUM_REGIONS))
        factor *= w.later_phase
    return total


def _best_pending_multiplier(s: Any, p: int) -> int:
    """C3: the multiplier ``p`` would take if it consolidated now (0: none)."""
    k = len(s.workers[p])
    if not k:
        return 0
    level = s.data.worker_levels[k - 1]
    best = 0
    for t in s.rewards_left:
        rw = s.data.rewards[t]
        if rw.level <= level:
            best = max(best, rw.multiplier)
    if not s.rewards_left and level >= 1:
        best = 2
    return best


def evaluate(s: Any, p: int, w: Weights) -> float:
    """The worth of position ``s`` to seat ``p`` in VP under the weights ``w``."""
    if s.game_over:
        return float(s.vp[p])
    d = s.data
    value = float(s.vp[p])
    fade = 1.0
    consolidations = 1.0
    if w.planning:
        left = turns_left(s, w)
        fade = min(1.0, left / (d.golden_from * w.turns_per_step + 3.0) * 1.5)
        consolidations = left / w.turns_per_consolidation
    # the reserve, spent before the next consolidation
    value += w.yen * min(s.yen[p], 30) * (fade if w.planning else 1.0)
    value += w.coal * min(s.coal[p], 12) * (fade if w.planning else 1.0)
    # the tracks: income at every consolidation left
    money = d.money_track[s.money_pos[p]]
    coal_income = d.coal_track[s.coal_pos[p]]
    if w.planning:
        value += consolidations * (w.money_step * money + w.coal_step * coal_income)
    else:
        value += w.money_step * s.money_pos[p] + w.coal_step * s.coal_pos[p]
    # production
    levels = d.goods_levels
    factories = 0.0
    machines = 0.0
    cubes = 0.0
    for g in range(NUM_GOODS):
        if s.factory_tile[p][g] >= 0:
            factories += levels[g]
            machines += s.machine[p][g]
        cubes += s.cubes[p][g] * levels[g]
    value += fade * (w.factory * factories + w.machine * machines + w.cube * cubes)
    value += fade * w.knowledge * min(s.knowledge[p], d.level_knowledge[-1])
    value += fade * w.blueprint * s.blueprints[p]
    # the workers held: colours owed at consolidation
    colours = len(set(s.workers[p]))
    value -= w.colour * colours
    if w.planning:
        unpaid = max(0, colours - money // d.colour_cost)
        value -= unpaid * d.unpaid_vp
        value += w.reward_level * _best_pending_multiplier(s, p) * fade
        if w.contract_cube:
            value += fade * w.contract_cube * _contract_cubes(s, p)
    else:
        value += w.piece * (s.trains_placed[p] + s.ships_placed[p])
        own = 0
        for city in range(NUM_CITIES):
            for i, owner in enumerate(s.influence_owner[city]):
                if owner == p:
                    own += s.influence_value[city][i]
        value += w.influence * own
    if w.achievements:
        value += w.achievements * _achievements(s, p, fade)
    if w.majority:
        value += w.majority * projected_majorities(s, p, w)
    return value


def _achievements(s: Any, p: int, fade: float) -> float:
    """E3 projected: each space's base (plus its likely growth) / per x its multiplier."""
    d = s.data
    total = 0.0
    for k, ach in enumerate(d.achievements):
        mult = s.achievements[p][k] or ach.printed
        if not mult:
            continue
        if ach.kind == "yen":
            base = float(d.money_track[s.money_pos[p]])
        else:
            base = achievement_base(s, p, ach.kind) + GROWTH.get(ach.kind, 0.0) * fade
        total += base / ach.per * mult
    return total


def _contract_cubes(s: Any, p: int) -> float:
    """Cubes of the open contracts whose single largest demand the cubes held could meet."""
    held = sorted(s.cubes[p], reverse=True)
    total = 0
    for k, c in enumerate(s.data.contracts):
        if s.contracts_done[p][k]:
            continue
        demands = sorted(c.demands, reverse=True)
        if len(demands) <= len(held) and all(h >= n for h, n in zip(held, demands, strict=False)):
            total += sum(demands)
    return min(total, 8)


class _NipponBot:
    """Plays out each worker kind to the end of its action and takes the best (see above)."""

    name = "nippon-bot"
    weights: Weights = GREEDY

    def __init__(self, rng: np.random.Generator | None = None):
        self.rng = rng if rng is not None else np.random.default_rng()
        self.seat = 0
        self._plan: list[int] = []
        self._plan_key: tuple[int, int] = (-1, -1)

    def reset(self, seat: int, num_players: int, rng: np.random.Generator) -> None:
        """Take the seat and the generator for this game; forget any plan."""
        self.seat = seat
        self.rng = rng
        self._plan = []
        self._plan_key = (-1, -1)

    # ------------------------------------------------------------------ evaluation
    def value(self, s: Any, p: int) -> float:
        """The evaluation of ``s`` for ``p``."""
        return evaluate(s, p, self.weights)

    def _pick(self, scored: list[tuple[float, int]]) -> tuple[float, int]:
        """The best (value, action); ties broken by the bot's generator."""
        best = max(v for v, _ in scored)
        tied = [(v, a) for v, a in scored if v >= best - _EPS]
        if len(tied) == 1:
            return tied[0]
        return tied[uniform_below(self.rng, len(tied))]

    def _candidates(self, s: Any) -> list[int]:
        """The legal actions worth searching: not the bonuses, one tile value per space."""
        legal = s.legal_actions()
        out = [a for a in legal if a not in _BONUSES]
        if s.phase == Phase.TILE and out:
            return [max(out)]  # the strongest tile the cubes allow
        return out or legal

    def _settle(self, s: Any, p: int) -> float:
        """The value of ``s`` once the steps that complete the last one are done."""
        if s.current == p and not s.game_over and s.phase in _COMPLETING:
            best = -1e18
            for a in self._candidates(s):
                child = s.clone()
                child.apply_action(a)
                best = max(best, self._settle(child, p))
            return best
        return self.value(s, p)

    def _best_step(self, s: Any, p: int) -> tuple[float, int]:
        """The best next step of the action in progress (value after its completion)."""
        scored = []
        for a in self._candidates(s):
            child = s.clone()
            child.apply_action(a)
            scored.append((self._settle(child, p), a))
        return self._pick(scored)

    def _play_out(self, s: Any, p: int, plan: list[int]) -> float:
        """Finish the main action in progress on ``s`` (mutated), appending the steps."""
        while s.current == p and not s.game_over and s.phase in _IN_ACTION:
            _, a = self._best_step(s, p)
            plan.append(a)
            s.apply_action(a)
        return self.value(s, p)

    # ------------------------------------------------------------------ decisions
    def act(self, decision: Decision) -> int:
        """Choose one of the legal actions."""
        legal = list(decision.legal_actions)
        if len(legal) == 1:
            return legal[0]
        view = decision.view
        p = decision.seat
        self.seat = p
        key = (int(view.turn_count), p)
        if self._plan and self._plan_key == key and self._plan[0] in legal:
            return self._plan.pop(0)
        self._plan = []
        s = view.determinize(self.rng)
        if s.phase == Phase.TURN:
            return self._choose_turn(s, p, legal, key)
        if s.phase == Phase.FINISH:
            return self._choose_bonus(s, p, legal)
        plan: list[int] = []
        work = s.clone()
        self._play_out(work, p, plan)
        self._plan, self._plan_key = plan[1:], key
        return plan[0]

    def _choose_bonus(self, s: Any, p: int, legal: list[int]) -> int:
        """T3 after the main action: a blueprint bonus while it raises the value, else stop."""
        scored = [(self.value(s, p) + _EPS, A.STOP)]
        for a in legal:
            if a in _BONUSES:
                child = s.clone()
                child.apply_action(a)
                scored.append((self.value(child, p), a))
        return self._pick(scored)[1]

    def _take_colour(self, s: Any, p: int, kind: int) -> int:
        """The colour to take for ``kind``: one already held, else one drawn by the generator."""
        space = s.spaces[s.data.action_space_of(kind)]
        held = set(s.workers[p])
        colours = [c for c in range(len(space)) if space[c]]
        owned = [c for c in colours if c in held]
        pool = owned or colours
        return pool[0] if len(pool) == 1 else pool[uniform_below(self.rng, len(pool))]

    def _choose_turn(self, s: Any, p: int, legal: list[int], key: tuple[int, int]) -> int:
        """T1: play out each takeable kind and consolidation; the best becomes the plan."""
        kinds = sorted({(a - A.TAKE) // NUM_COLOURS for a in legal if a < A.CONSOLIDATE})
        options: list[tuple[int, list[int]]] = []
        for kind in kinds:
            options.append((A.take(kind, self._take_colour(s, p, kind)), []))
        if A.CONSOLIDATE in legal:
            options.append((A.CONSOLIDATE, []))
        scored = []
        plans: dict[int, list[int]] = {}
        for first, plan in options:
            work = s.clone()
            work.apply_action(first)
            value = self._play_out(work, p, plan)
            plans[first] = plan
            scored.append((value, first))
        _, best = self._pick(scored)
        self._plan, self._plan_key = plans[best], key
        return best


class GreedyBot(_NipponBot):
    """The turn that gains the most now: VP and fixed values of what it holds."""

    name = "greedy"
    weights = GREEDY


class HeuristicBot(_NipponBot):
    """The turn that is worth the most for the rest of the game (majorities, achievements,
    income of the consolidations left, assets fading as the end nears)."""

    name = "heuristic"
    weights = HEURISTIC
