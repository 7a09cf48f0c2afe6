"""The heuristic bot: a hand-written plan over the game, its weights in a YAML file.

The plan: while many turns are left, an expansion is valued by how much it raises the expected
points of the bot's future attempts (on the airships still to come and the Hindenburg phases),
so the dice engine is built early; as the horizon shrinks, stars, airships and phases take
over. Near the end it plays the race: an attempt that would end the game (E1) is judged by who
then wins, and a leader prefers attempts that bring the end closer while a trailer avoids them.
Chips are valued as a share of a turn's expected points (3 buy a turn, T8), so a chip that
decides a low-value attempt is kept (spending it costs one chip, keeping it brings one, T7).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from agents.bots.common import (
    AIRSHIP,
    EXPANSION,
    MEMO_LIMIT,
    PHASE,
    Profile,
    add_up,
    horizon_key,
    margin,
    outlook,
    profile,
    target_card_index,
    target_kind,
)
from airships_env.bot_config import HeuristicConfig
from airships_env.engine import (
    BUY_EXTRA_TURN,
    END_TURN,
    KEEP_CHIP,
    NUM_ATTEMPT_ACTIONS,
    PASS,
    SPEND_CHIP,
    AttemptOdds,
    GameState,
    attempt_odds,
    attempt_target,
    outcome_if_success,
)
from airships_env.policy import Decision


class HeuristicAgent:
    """A hand-written strategy over the whole game; weights from ``agents/bots/heuristic.yaml``.

    ``config`` is the path of a YAML file overriding some of the shipped weights; any weight may
    also be given as a keyword option (``HeuristicAgent(race_weight=2.0)``).
    """

    def __init__(self, config: str | Path | None = None, name: str = "heuristic", **weights: float):
        self.config = HeuristicConfig.load(config, **weights)
        self.core = HeuristicCore(self.config)
        self.name = name
        self.seat = 0
        self.num_players = 2
        self.rng = np.random.default_rng(0)

    @property
    def native_bot(self) -> tuple[int, tuple[object, ...]]:
        """The native core's twin of this bot (kind, weights): it makes the same choices."""
        return (3, self.config.native())

    def reset(self, seat: int, num_players: int, rng: np.random.Generator) -> None:
        """Remember the seat and the table size; the bot is deterministic."""
        self.seat = seat
        self.num_players = num_players
        self.rng = rng

    def act(self, decision: Decision) -> int:
        """The heuristic choice among ``decision.legal_actions``."""
        legal = decision.legal_actions
        if len(legal) == 1:
            return legal[0]
        return self.core.choose(decision.view, decision.seat, legal)

    def rank(self, decision: Decision) -> list[tuple[int, float]]:
        """Every legal action with the heuristic's value for it, best first."""
        return self.core.rank(decision.view, decision.seat, decision.legal_actions)


@dataclass(frozen=True, slots=True)
class _Horizon:
    """What is left of the game, as the heuristic weighs it (depends on public facts only)."""

    future_airships: tuple[tuple[int, float], ...]
    open_phases: tuple[int, ...]
    phase_share: float  # the share of the points left that the Hindenburg holds
    turns_left: float
    phases_left: int
    takes_left: int


class HeuristicCore:
    """The heuristic's judgement of any state, public view or full state (it reads only the
    public parts); fast enough to be the search bot's rollout policy (values are memoised)."""

    def __init__(self, config: HeuristicConfig):
        self.config = config
        self._horizons: dict[tuple[object, ...], _Horizon] = {}
        self._points: dict[tuple[int, tuple[object, ...]], tuple[Profile, float]] = {}
        self._gains: dict[tuple[object, ...], float] = {}

    # -- decisions ----------------------------------------------------------------------------
    def choose(self, state: GameState, seat: int, legal: Sequence[int]) -> int:
        """The heuristic's action for ``seat``, the player to act in ``state``."""
        if len(legal) == 1:
            return legal[0]
        best_action, best_value = legal[0], -math.inf
        for action, value in self._values(state, seat, legal):
            if value > best_value:
                best_action, best_value = action, value
        return best_action

    def rank(self, state: GameState, seat: int, legal: Sequence[int]) -> list[tuple[int, float]]:
        """Every legal action with its value, best first (ties keep the action order)."""
        ranked = list(self._values(state, seat, legal))
        ranked.sort(key=lambda item: -item[1])
        return ranked

    def _values(self, state: GameState, seat: int, legal: Sequence[int]) -> list[tuple[int, float]]:
        c = self.config
        if SPEND_CHIP in legal:
            spend, keep = self.chip_values(state, seat)
            return [(SPEND_CHIP, spend), (KEEP_CHIP, keep)]
        if BUY_EXTRA_TURN in legal:
            best = self.best_attempt_value(state, seat)
            return [(BUY_EXTRA_TURN, best), (END_TURN, c.extra_turn_min_value)]
        context = self._context(state, seat)
        values = []
        target_values: dict[int, float] = {}  # every exchange variant: one card value
        for action in legal:
            if action >= NUM_ATTEMPT_ACTIONS:
                values.append((action, -math.inf if action != PASS else 0.0))
                continue
            target = attempt_target(action)
            value = target_values.get(target)
            if value is None:
                value = target_values[target] = self._success_value(context, action, exact=True)
            odds = attempt_odds(state, action, seat)
            assert odds is not None
            values.append((action, self._expected(context, value, odds)))
        return values

    def best_attempt_value(self, state: GameState, seat: int) -> float:
        """The best attempt's value for ``seat`` on the board as it is (for an extra turn)."""
        context = self._context(state, seat)
        best = -math.inf
        for action in range(NUM_ATTEMPT_ACTIONS):
            odds = attempt_odds(state, action, seat)
            if odds is not None:
                value = self._success_value(context, action, exact=False)
                best = max(best, self._expected(context, value, odds))
        return best if best > -math.inf else 0.0

    def chip_values(self, state: GameState, seat: int) -> tuple[float, float]:
        """(spend, keep) values of a chip that decides the pending attempt (T5)."""
        pending = state.pending
        assert pending is not None
        context = self._context(state, seat)
        outcome = outcome_if_success(state, SPEND_CHIP)
        if outcome is not None:
            value = self._end_value(outcome[1], seat)
        else:
            value = self._card_value(context, pending.target) + self._race_value(
                context, pending.target
            )
        return value - context.chip_value, context.fail_gain

    # -- values --------------------------------------------------------------------------------
    def _success_value(self, context: _Context, action: int, exact: bool) -> float:
        """What the attempt's success is worth; if it may end the game (E1), the engine says who
        then wins and the value is the end's (win or loss)."""
        target = attempt_target(action)
        if exact and self._may_end(context, target):
            outcome = outcome_if_success(context.state, action)
            if outcome is not None:
                return self._end_value(outcome[1], context.seat)
        return self._card_value(context, target) + self._race_value(context, target)

    @staticmethod
    def _expected(context: _Context, value: float, odds: AttemptOdds) -> float:
        """Expected value of an attempt: success, a chip that decides it, or a miss (T5-T7)."""
        success, chip_decides = odds.success, odds.chip_decides
        fail_gain = context.fail_gain
        chip_branch = max(value - context.chip_value, fail_gain) if context.has_chip else fail_gain
        return (
            success * value
            + chip_decides * chip_branch
            + (1.0 - success - chip_decides) * fail_gain
        )

    @staticmethod
    def _may_end(context: _Context, target: int) -> bool:
        """Whether an attempt on ``target`` could end the game (E1): then its success is
        simulated exactly."""
        kind = target_kind(target)
        if kind == PHASE:
            return context.horizon.phases_left <= 1
        return kind == AIRSHIP and context.horizon.takes_left <= 1

    def _card_value(self, context: _Context, target: int) -> float:
        state, seat, c = context.state, context.seat, self.config
        cards = state.cards
        kind = target_kind(target)
        card = target_card_index(state, target)
        if kind == AIRSHIP:
            value = float(cards.airships[card].stars)
            if not state.hindenburg_open and state.wooden_airship != seat:
                value += c.wooden_airship_value
            return value
        if kind == PHASE:
            value = self._phase_points(state, card)
            if state.wooden_airship != seat:
                value += c.wooden_airship_value
            return value
        expansion = cards.expansions[card]
        me = state.players[seat]
        old = me.slots[expansion.department]
        stars = expansion.stars - (cards.expansions[old].stars if old >= 0 else 0)
        chips = min(expansion.chips, me.chips_supply)
        gain = self._dice_gain(context, tuple(me.slots), expansion.department, card)
        return (
            stars + chips * context.chip_value + c.dice_weight * context.horizon.turns_left * gain
        )

    def _dice_gain(
        self, context: _Context, slots: tuple[int, ...], department: int, card: int
    ) -> float:
        """The gain in expected points per attempt if the card joins the company (memoised)."""
        key = (slots, card, context.horizon_key)
        gain = self._gains.get(key)
        if gain is None:
            changed = list(slots)
            changed[department] = card  # T6: the card takes its department's slot
            state = context.state
            company = self._profile(state, changed)
            gain = self._points_per_attempt(state, company, context.horizon_key, context.horizon)
            gain -= context.points_per_turn
            self._gains[key] = gain
        return gain

    def _profile(self, state: GameState, slots: Sequence[int]) -> Profile:
        """The odds of a company with these slots, valued in the config's era."""
        needs_colour = state.options.engine_bonus_needs_cost_colour
        return profile(state.cards, needs_colour, slots, self.config.value_era)

    @staticmethod
    def _race_value(context: _Context, target: int) -> float:
        """Attempts that bring the end closer (airships, phases): a plus when leading."""
        return 0.0 if target_kind(target) == EXPANSION else context.race

    def _end_value(self, winners: Sequence[int], seat: int) -> float:
        if seat in winners:
            return self.config.win_value / len(winners)
        return -self.config.win_value

    def _phase_points(self, state: GameState, phase: int) -> float:
        h = state.cards.hindenburg[phase]
        return h.low + self.config.phase_complete_odds * (h.high - h.low)

    # -- the context of a decision ------------------------------------------------------------
    def turns_left(self, state: GameState) -> float:
        """The heuristic's estimate of each player's own turns left in the game."""
        return self._cached_horizon(state)[1].turns_left

    def _cached_horizon(self, state: GameState) -> tuple[tuple[object, ...], _Horizon]:
        key = horizon_key(state)
        horizon = self._horizons.get(key)
        if horizon is None:
            horizon = self._horizons[key] = self._horizon(state)
        return key, horizon

    def _context(self, state: GameState, seat: int) -> _Context:
        if len(self._gains) + len(self._points) + len(self._horizons) >= MEMO_LIMIT:
            self._gains.clear()
            self._points.clear()
            self._horizons.clear()
        key, horizon = self._cached_horizon(state)
        company = self._profile(state, state.players[seat].slots)
        points = self._points_per_attempt(state, company, key, horizon)
        chip_value = max(self.config.chip_value_min, self.config.chip_turn_fraction * points)
        me = state.players[seat]
        fail_gain = chip_value if me.chips_supply > 0 else 0.0  # T7: a miss brings a chip
        race = 0.0
        if self.config.race_weight:
            race = self.config.race_weight * math.tanh(margin(state, seat) / self.config.race_scale)
        return _Context(
            state, seat, key, horizon, points, chip_value, fail_gain, me.chips_on_board > 0, race
        )

    def _horizon(self, state: GameState) -> _Horizon:
        c, players = self.config, state.num_players
        view = outlook(state)
        base = (c.turns_base_2p, c.turns_base_3p, c.turns_base_4p)[players - 2]
        per_airship = (c.turns_per_airship_2p, c.turns_per_airship_3p, c.turns_per_airship_4p)[
            players - 2
        ]
        taken = sum(len(p.airships) for p in state.players)
        turns_left = max(
            c.turns_min, base - per_airship * taken - c.turns_per_phase * view.phases_done
        )
        cards = state.cards
        airship_left = add_up(cards.airships[a].stars * w for a, w in view.future_airships)
        total_weight = add_up(w for _a, w in view.future_airships)
        if total_weight > 0:
            airship_left *= min(1.0, view.takes_left / total_weight)
        open_phases = tuple(j for j, holder in enumerate(state.hindenburg) if holder < 0)
        phases_left = add_up(self._phase_points(state, j) for j in open_phases)
        share = phases_left / (airship_left + phases_left) if airship_left + phases_left else 0.0
        return _Horizon(
            view.future_airships, open_phases, share, turns_left, view.phases_left, view.takes_left
        )

    def _points_per_attempt(
        self, state: GameState, company: Profile, key: tuple[object, ...], horizon: _Horizon
    ) -> float:
        """Expected points of a good attempt for a company: the best airships still to come and
        the best open phases, mixed by the points each still has to give."""
        memo_key = (id(company), key)
        found = self._points.get(memo_key)
        if found is not None and found[0] is company:
            return found[1]
        c = self.config
        cards = state.cards
        airship_values = sorted(
            (
                (company.airship_chip[a] * cards.airships[a].stars, weight)
                for a, weight in horizon.future_airships
            ),
            reverse=True,
        )
        phase_values = sorted(
            (
                (company.phase_chip[j] * self._phase_points(state, j), 1.0)
                for j in horizon.open_phases
            ),
            reverse=True,
        )
        share = horizon.phase_share
        points = (1 - share) * _top_mean(airship_values, c.airship_choice) + share * _top_mean(
            phase_values, c.phase_choice
        )
        self._points[memo_key] = (company, points)
        return points


@dataclass(frozen=True, slots=True)
class _Context:
    """One decision's shared facts."""

    state: GameState
    seat: int
    horizon_key: tuple[object, ...]
    horizon: _Horizon
    points_per_turn: float
    chip_value: float
    fail_gain: float
    has_chip: bool
    race: float


def _top_mean(values: list[tuple[float, float]], amount: float) -> float:
    """Mean of the best values taking ``amount`` weight in total (values sorted best first)."""
    total = taken = 0.0
    for value, weight in values:
        use = min(weight, amount - taken)
        if use <= 0:
            break
        total += value * use
        taken += use
    return total / taken if taken > 0 else 0.0
