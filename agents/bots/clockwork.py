"""Escape from Clockwork City bots: ``greedy`` and ``heuristic``.

Both read only the acting seat's :class:`~airships_env.policy.Decision`: its legal actions and
its view (the seat's own hand, the public table, the faces of the discard places as far as the
rules' memory option lets the seat know them, and its own knowledge row ``known[seat]`` of the
other hands, V1-V4). Neither looks at an opponent's hand or a pile.

- ``greedy`` keeps what completes a machine, draws whenever it can, picks up a discard it can see
  and needs, and challenges only an opponent it knows holds a card it needs (never blindly).
- ``heuristic`` adds odds: it estimates from the unseen cards (the view's hidden pool) the chance
  that an opponent holds a needed type, challenges where that chance is good and the risk of a
  counter-challenge small, weighs the Airship plan against the machines by what is visible
  (the Airship when its parts are out on the discard places), and plans its moves towards the
  Towers when a discard it needs lies there.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from airships_env.chance import uniform_below
from airships_env.games.clockwork.engine import actions as A
from airships_env.games.clockwork.engine.data import (
    AS,
    CB_TYPES,
    FM_TYPES,
    FUEL,
    NUM_TYPES,
    POWER,
    SCRAP,
)
from airships_env.games.clockwork.engine.view import _hidden_pool
from airships_env.policy import Decision, SeatedPolicy

__all__ = ["GreedyBot", "HeuristicBot"]


def destination(view: Any, action: int) -> int:
    """The field a move or jump action ends on."""
    track = view.data.track
    position = view.pawns[view.actor]
    if A.MOVE_CW <= action < A.MOVE_CCW:
        return (position + action - A.MOVE_CW + 1) % track.length
    if A.MOVE_CCW <= action < A.JUMP_TOWERS:
        return (position - (action - A.MOVE_CCW + 1)) % track.length
    if action == A.JUMP_TOWERS:
        return int(track.towers)
    return int(track.scrapyards[action - A.JUMP_SCRAPYARD])


def ring_distance(length: int, a: int, b: int) -> int:
    """Fields between ``a`` and ``b`` the short way round."""
    d = (a - b) % length
    return min(d, length - d)


class _ClockworkBot(SeatedPolicy):
    """What both bots share: card values, discards, moves, pick-ups."""

    name = "clockwork-bot"

    # ------------------------------------------------------------ values

    def airship_weight(self, view: Any) -> float:
        """How much the Airship plan counts against the machines (0..1)."""
        return 0.3

    def needs(self, view: Any, seat: int) -> list[float]:
        """The value to ``seat`` of one more card of each type."""
        hand = view.hands[seat]
        counts = view.data.counts[view.num_players]
        value = [0.0] * NUM_TYPES
        for kinds, laid in ((FM_TYPES, view.laid_fm[seat]), (CB_TYPES, view.laid_cb[seat])):
            if laid >= 0:
                continue
            in_play = [t for t in kinds if counts[t] > 0]
            best = max(hand[t] for t in in_play) if in_play else 0
            for t in in_play:
                value[t] = 1.0 + hand[t] + (1.0 if hand[t] == best and best > 0 else 0.0)
                if hand[t] == counts[t] - 1:
                    value[t] += 3.0  # completes the machine
        machines = int(view.laid_fm[seat] >= 0) + int(view.laid_cb[seat] >= 0)
        value[FUEL] = (1.5 + 2.5 * machines) if hand[FUEL] == 0 else 0.1
        weight = self.airship_weight(view)
        value[AS] = weight * (1.0 + 1.5 * hand[AS]) if counts[AS] else 0.0
        value[POWER] = weight * (2.0 + hand[AS]) if hand[POWER] == 0 and counts[POWER] else 0.0
        value[SCRAP] = 0.6 if hand[SCRAP] == 0 else 0.05
        return value

    def keep_value(self, view: Any, seat: int, card: int) -> float:
        """What losing one card of ``card`` costs ``seat``."""
        hand = list(view.hands[seat])
        hand[card] -= 1
        saved = view.hands[seat]
        view.hands[seat] = hand
        value = self.needs(view, seat)[card]
        view.hands[seat] = saved
        return value

    def cheapest(self, view: Any, choices: list[int], base: int) -> int:
        """The action among ``choices`` (base + type) losing the least."""
        return min(choices, key=lambda a: (self.keep_value(view, self.seat, a - base), a))

    # ------------------------------------------------------------ decisions

    def act(self, decision: Decision) -> int:
        """Choose one of the legal actions."""
        legal = list(decision.legal_actions)
        if len(legal) == 1:
            return legal[0]
        view = decision.view
        self.seat = decision.seat
        phase = view.phase_name
        if phase == "move":
            return self.choose_move(view, legal)
        if phase == "act":
            return self.choose_act(view, legal)
        if phase in ("demand", "counter"):
            return self.choose_demand(view, legal)
        if phase == "respond":
            return A.give(SCRAP)  # keep the real card
        if phase == "give back":
            return self.cheapest(view, legal, A.GIVE)
        if phase == "discard":
            return self.cheapest(view, legal, A.DISCARD)
        if phase == "place":
            return self.choose_place(view, legal)
        return legal[uniform_below(self.rng, len(legal))]

    def visible_places(self, view: Any) -> list[int]:
        """The type on each place as the seat knows it (-1: empty or unknown)."""
        if view.options.discard_recall != "perfect":
            return [-1] * len(view.places)
        return list(view.places)

    def wanted_discard(self, view: Any) -> tuple[float, int, int]:
        """The best visible discard: (value, type, place); value 0 if none is worth a trip."""
        needs = self.needs(view, self.seat)
        best = (0.0, -1, -1)
        for place, card in enumerate(self.visible_places(view)):
            if card >= 0 and card != SCRAP and needs[card] > best[0]:
                best = (needs[card], card, place)
        return best

    def field_value(self, view: Any, field: int) -> float:
        """How good it is to stop on ``field`` now."""
        track = view.data.track
        yard = track.scrapyard_at(field)
        if yard >= 0 and view.piles[yard]:
            return 3.0 + self.challenge_bonus(view, field)
        if field == track.towers:
            return self.towers_value(view)
        return self.challenge_bonus(view, field) - self.distance_to_target(view, field) / 10.0

    def towers_value(self, view: Any) -> float:
        """Stopping on the Towers: worth the best discard the seat can name."""
        value, card, _ = self.wanted_discard(view)
        if card < 0 or not self.can_name(view, card):
            return -0.5 if not view.endgame else 5.0
        return value + (5.0 if view.endgame else 0.0)

    def can_name(self, view: Any, card: int) -> bool:
        """R1/C1: a type the seat may name (FUEL, POWER, or one it can show)."""
        return card in (FUEL, POWER) or view.hands[self.seat][card] > 0

    def distance_to_target(self, view: Any, field: int) -> int:
        """Fields from ``field`` to the nearest Scrapyard with cards (the Towers in the endgame)."""
        track = view.data.track
        targets = [track.scrapyards[k] for k in range(len(view.piles)) if view.piles[k]]
        if view.endgame or not targets:
            targets = [track.towers]
        return min(ring_distance(track.length, field, t) for t in targets)

    def challenge_bonus(self, view: Any, field: int) -> float:
        """Value of meeting an opponent on ``field`` (greedy: only a known needed card)."""
        best = 0.0
        for offset in range(1, view.num_players):
            other = (self.seat + offset) % view.num_players
            if view.pawns[other] == field:
                best = max(best, self.challenge_value(view, other)[0])
        return best

    def challenge_value(self, view: Any, other: int) -> tuple[float, int]:
        """(value, type) of the best demand against ``other``: only what the seat knows."""
        needs = self.needs(view, self.seat)
        known = view.known[self.seat][other]
        best = (0.0, -1)
        for card in range(SCRAP):
            if known[card] > 0 and self.can_name(view, card) and needs[card] > best[0]:
                best = (needs[card], card)
        return best

    def choose_move(self, view: Any, legal: list[int]) -> int:
        """Draw or challenge on the spot if good, else the move with the best destination."""
        scored = []
        for action in legal:
            if action == A.DRAW:
                value = 3.2
            elif A.CHALLENGE <= action < A.DEMAND:
                other = (self.seat + action - A.CHALLENGE + 1) % view.num_players
                value = 3.0 + self.challenge_value(view, other)[0]
                if self.challenge_value(view, other)[1] < 0:
                    value = -10.0
            else:
                value = self.field_value(view, destination(view, action))
            scored.append((value, -action, action))
        return max(scored)[2]

    def choose_act(self, view: Any, legal: list[int]) -> int:
        """Draw; pick up a needed discard; challenge only with a good reason; else pass."""
        seeks = [a for a in legal if A.SEEK <= a < A.GIVE]
        _, card, _ = self.wanted_discard(view)
        if card >= 0 and A.seek(card) in seeks:
            return A.seek(card)
        best_challenge, best_value = -1, 0.0
        for action in legal:
            if A.CHALLENGE <= action < A.DEMAND:
                other = (self.seat + action - A.CHALLENGE + 1) % view.num_players
                worth, target = self.challenge_value(view, other)
                if target >= 0 and worth > best_value:
                    best_challenge, best_value = action, worth
        if A.DRAW in legal:
            return best_challenge if best_value > 4.0 else A.DRAW
        if best_challenge >= 0:
            return best_challenge
        if A.PASS in legal:
            return A.PASS
        return legal[uniform_below(self.rng, len(legal))]

    def choose_demand(self, view: Any, legal: list[int]) -> int:
        """The needed type the opponent is known (or likely) to hold; pass if there is none."""
        other = view.challenge[1]
        _, card = self.challenge_value(view, other)
        if card >= 0 and A.demand(card) in legal:
            return A.demand(card)
        if A.PASS in legal:
            return A.PASS
        needs = self.needs(view, self.seat)
        demands = [a for a in legal if A.DEMAND <= a < A.SEEK]
        return max(demands, key=lambda a: (needs[a - A.DEMAND], -a))

    def choose_place(self, view: Any, legal: list[int]) -> int:
        """The place showing the named type, else one at random."""
        places = self.visible_places(view)
        for action in legal:
            if places[action - A.TURN_PLACE] == view.seek_type:
                return action
        return legal[uniform_below(self.rng, len(legal))]


class GreedyBot(_ClockworkBot):
    """Keeps what completes a machine, draws, never challenges blindly."""

    name = "greedy"


class HeuristicBot(_ClockworkBot):
    """Counts the unseen cards: challenges on good odds, goes for the Airship when it is out."""

    name = "heuristic"

    def __init__(self, rng: np.random.Generator | None = None, threshold: float = 0.3):
        super().__init__(rng)
        self.threshold = threshold

    def needs(self, view: Any, seat: int) -> list[float]:
        """The shared values, a machine discounted by its parts known in other hands."""
        value = super().needs(view, seat)
        if seat != self.seat:
            return value
        for other in range(view.num_players):
            if other == seat:
                continue
            known = view.known[seat][other]
            for t in (*FM_TYPES, *CB_TYPES):
                if known[t] and value[t] > 0:
                    value[t] *= 0.5 ** known[t]
        return value

    def feeding(self, view: Any, card: int) -> float:
        """How much a public discard of ``card`` would help the best-placed opponent."""
        worst = 0.0
        for other in range(view.num_players):
            if other == self.seat:
                continue
            machines = int(view.laid_fm[other] >= 0) + int(view.laid_cb[other] >= 0)
            known = view.known[self.seat][other]
            if card == FUEL:
                worst = max(worst, 1.5 * machines)
            elif known[card] and (
                (card in FM_TYPES and view.laid_fm[other] < 0)
                or (card in CB_TYPES and view.laid_cb[other] < 0)
            ):
                worst = max(worst, 1.0 + known[card])
            elif card in (AS, POWER) and known[AS] >= 3:
                worst = max(worst, 1.0 + known[AS] / 2)
        return worst

    def cheapest(self, view: Any, choices: list[int], base: int) -> int:
        """The card losing the least, counting what a discard would give the others."""
        if base != A.DISCARD:
            return super().cheapest(view, choices, base)
        return min(
            choices,
            key=lambda a: (
                self.keep_value(view, self.seat, a - base) + 0.5 * self.feeding(view, a - base),
                a,
            ),
        )

    def airship_weight(self, view: Any) -> float:
        """Airship parts the seat holds or can see on the places decide the plan."""
        hand = view.hands[self.seat]
        visible = sum(1 for card in self.visible_places(view) if card == AS)
        power = hand[POWER] + sum(1 for card in self.visible_places(view) if card == POWER)
        reach = hand[AS] + visible
        machines = int(view.laid_fm[self.seat] >= 0) + int(view.laid_cb[self.seat] >= 0)
        if reach >= 5 and (power or hand[AS] >= 4) and machines < 2:
            return 1.6
        if reach >= 4:
            return 0.8
        return 0.25

    def holds_probability(self, view: Any, other: int, card: int) -> float:
        """P(``other`` holds ``card``): known, else drawn from the unseen pool at random."""
        if view.known[self.seat][other][card] > 0:
            return 1.0
        pool = _hidden_pool(view, self.seat)
        total = sum(pool)
        unknown = view.hand_size(other) - sum(view.known[self.seat][other])
        if total <= 0 or unknown <= 0 or pool[card] <= 0:
            return 0.0
        miss = 1.0
        for i in range(unknown):  # hypergeometric: no card of the type among ``unknown``
            miss *= max(0.0, (total - pool[card] - i) / (total - i))
        return 1.0 - miss

    def challenge_value(self, view: Any, other: int) -> tuple[float, int]:
        """(expected value, type) of the best demand: odds of a real card, not a Scrap Metal."""
        needs = self.needs(view, self.seat)
        best = (0.0, -1)
        scrap = self.holds_probability(view, other, SCRAP)
        # a failed demand lets the opponent challenge back: what the seat could lose
        risk = max(
            (self.keep_value(view, self.seat, t) for t in range(SCRAP) if view.hands[self.seat][t]),
            default=0.0,
        )
        for card in range(SCRAP):
            if not self.can_name(view, card):
                continue
            p = self.holds_probability(view, other, card)
            if p < self.threshold:
                continue
            expected = p * (1.0 - 0.7 * scrap) * needs[card] - (1.0 - p) * 0.3 * risk
            if expected > best[0]:
                best = (expected, card)
        return best
