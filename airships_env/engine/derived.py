"""Derived values of the rules, in one place: dice pools, exchange variants, attempt shapes,
Engine bonuses, eligibility and exact odds (docs/airships/RULES.md T2-T5).

All of them are pure functions of the card set, a company's cards and the era, so they are
computed once and kept in :class:`CardTables` (one per card set, see :func:`tables_for`) behind
bounded caches. The rules, the observation encoder, the bots and the renderers read them from
here and keep no copy. A :class:`CardTables` never travels with its caches: it pickles as its
card set and is looked up again where it is unpickled.

A company's :class:`Pool` holds one :class:`Hand` per exchange variant (T3): the dice an attempt
may use without the exchange, with the exchange giving rollable dice only, and with the exchange
giving the fixed (Engineer) die. A player holds at most one fixed die (one Engineer slot).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from airships_env.engine import dice as _dice
from airships_env.engine.actions import NO_EXCHANGE, NUM_VARIANTS
from airships_env.engine.cards import ANY, CardSet, DiceCounts, EngineBonus, Exchange
from airships_env.engine.dice import AttemptOdds, AttemptShape
from airships_env.engine.model import EMPTY
from airships_env.engine.records import ExchangeMade

POOL_CACHE_LIMIT = 20_000  # company pools per card set before the cache is emptied
TABLES_KEPT = 8  # card sets whose tables are kept

Fixed = tuple[tuple[int, int], ...]  # fixed dice as (colour, value)
VariantOdds = tuple[AttemptOdds | None, AttemptOdds | None, AttemptOdds | None]


@dataclass(frozen=True, slots=True)
class Hand:
    """The dice an attempt may use in one exchange variant (T2, T3)."""

    rollable: DiceCounts
    fixed: Fixed  # sorted by colour, highest value first
    available: DiceCounts  # rollable plus fixed dice per colour (T2)
    exchange: ExchangeMade | None  # what the exchange gave and received; None without one

    def can_pay(self, cost: DiceCounts) -> bool:
        """T2: at least the cost's dice of every colour."""
        available = self.available
        return cost[0] <= available[0] and cost[1] <= available[1] and cost[2] <= available[2]

    def shape(self, cost: DiceCounts) -> AttemptShape:
        """T4: per colour in the cost, the dice rolled (at most 3), kept, and the fixed values."""
        return tuple(
            (
                colour,
                min(self.rollable[colour], _dice.MAX_ROLLED_PER_COLOUR),
                cost[colour],
                tuple(value for fixed_colour, value in self.fixed if fixed_colour == colour),
            )
            for colour in range(3)
            if cost[colour]
        )


def _available(rollable: Sequence[int], fixed: Fixed) -> DiceCounts:
    counts = [rollable[0], rollable[1], rollable[2]]
    for colour, _value in fixed:
        counts[colour] += 1
    return (counts[0], counts[1], counts[2])


def _hand(rollable: Sequence[int], fixed: Fixed, exchange: ExchangeMade | None) -> Hand:
    counts = (rollable[0], rollable[1], rollable[2])
    return Hand(counts, fixed, _available(counts, fixed), exchange)


def exchange_hands(
    rollable: DiceCounts, fixed: Fixed, exchange: Exchange
) -> tuple[Hand | None, Hand | None]:
    """T3: the hands after the exchange giving rollable dice only, and giving the fixed die
    (None where the player lacks the dice for it)."""
    give, get = exchange.give, exchange.get
    rollable_only = None
    if all(rollable[c] >= give[c] for c in range(3)):
        after = [rollable[c] - give[c] + get[c] for c in range(3)]
        rollable_only = _hand(after, fixed, ExchangeMade(give, (), get))
    giving_fixed = None
    if fixed:
        die = fixed[0]
        colour = die[0]
        if give[colour] >= 1:
            from_rollable = tuple(give[c] - (1 if c == colour else 0) for c in range(3))
            if all(rollable[c] >= from_rollable[c] for c in range(3)):
                after = [rollable[c] - from_rollable[c] + get[c] for c in range(3)]
                gave = (from_rollable[0], from_rollable[1], from_rollable[2])
                giving_fixed = _hand(after, fixed[1:], ExchangeMade(gave, (die,), get))
    return rollable_only, giving_fixed


class Pool:
    """A company's dice: a :class:`Hand` per variant, its Engine bonuses and its exchange.

    Built by :meth:`CardTables.pool`; what it derives (eligibility, shapes, bonuses, odds) is
    cached on it, bounded by the number of distinct targets of the card set.
    """

    __slots__ = (
        "_best",
        "_bonus",
        "_odds",
        "_offers",
        "_shapes",
        "engine_bonuses",
        "exchange",
        "hands",
    )

    def __init__(
        self,
        hands: tuple[Hand | None, Hand | None, Hand | None],
        engine_bonuses: tuple[EngineBonus, ...],
        exchange: Exchange | None,
    ):
        self.hands = hands
        self.engine_bonuses = engine_bonuses
        self.exchange = exchange
        self._offers: dict[DiceCounts, tuple[bool, bool, bool]] = {}
        self._shapes: dict[tuple[int, DiceCounts], AttemptShape] = {}
        self._bonus: dict[tuple[DiceCounts, bool], int] = {}
        self._odds: dict[tuple[int, bool, bool, bool], VariantOdds] = {}
        self._best: dict[tuple[int, bool], tuple[float, float]] = {}

    def __reduce__(self) -> tuple[object, ...]:
        return (Pool, (self.hands, self.engine_bonuses, self.exchange))

    @property
    def plain(self) -> Hand:
        """The hand without exchange."""
        hand = self.hands[NO_EXCHANGE]
        assert hand is not None
        return hand

    @property
    def rollable(self) -> DiceCounts:
        """Rollable dice per colour, without exchange."""
        return self.plain.rollable

    @property
    def fixed(self) -> Fixed:
        """Fixed dice, without exchange."""
        return self.plain.fixed

    @property
    def available(self) -> DiceCounts:
        """Rollable plus fixed dice per colour, without exchange."""
        return self.plain.available

    def offers(self, cost: DiceCounts) -> tuple[bool, bool, bool]:
        """Per variant, whether an attempt on a target of this cost is offered (T2, T3).

        A variant is offered when the player holds its dice and they pay the cost; the variant
        giving the fixed die only where it differs from giving rollable dice: when those are
        lacking, or when the cost asks for the fixed die's colour (else both roll and keep the
        same dice).
        """
        found = self._offers.get(cost)
        if found is None:
            plain, rollable_only, giving_fixed = self.hands
            assert plain is not None
            offer_fixed = giving_fixed is not None and giving_fixed.can_pay(cost)
            if offer_fixed and rollable_only is not None:
                assert giving_fixed is not None and giving_fixed.exchange is not None
                colour = giving_fixed.exchange.gave_fixed[0][0]
                offer_fixed = cost[colour] > 0
            found = (
                plain.can_pay(cost),
                rollable_only is not None and rollable_only.can_pay(cost),
                offer_fixed,
            )
            self._offers[cost] = found
        return found

    def shape(self, variant: int, cost: DiceCounts) -> AttemptShape:
        """The dice an attempt in ``variant`` rolls and keeps (T4); the variant must exist."""
        key = (variant, cost)
        found = self._shapes.get(key)
        if found is None:
            hand = self.hands[variant]
            assert hand is not None, f"variant {variant} is not open to this company"
            found = self._shapes[key] = hand.shape(cost)
        return found

    def engine_bonus(self, cost: DiceCounts, needs_colour: bool) -> int:
        """T5: the Engine bonuses that apply to an attempt with this cost."""
        key = (cost, needs_colour)
        found = self._bonus.get(key)
        if found is None:
            found = self._bonus[key] = sum(
                bonus.amount
                for bonus in self.engine_bonuses
                if engine_bonus_applies(bonus, cost, needs_colour)
            )
        return found


def engine_bonus_applies(bonus: EngineBonus, cost: DiceCounts, needs_colour: bool) -> bool:
    """T5: grey always; a colour when the cost asks for it [ruling] (or always, by option)."""
    return bonus.colour == ANY or not needs_colour or cost[bonus.colour] > 0


class CardTables:
    """The derived values of one card set: company pools and the odds of every target."""

    def __init__(self, cards: CardSet):
        self.cards = cards
        self._pools: dict[tuple[int, ...], Pool] = {}
        # Targets with the same cost and target number have the same odds: a class each.
        classes: dict[tuple[DiceCounts, int], int] = {}

        def class_of(cost: DiceCounts, needed: int) -> int:
            return classes.setdefault((cost, needed), len(classes))

        self.expansion_class = tuple(class_of(e.cost, e.target) for e in cards.expansions)
        self.airship_class = tuple(class_of(a.cost, a.target) for a in cards.airships)
        self.phase_class = tuple(class_of(h.cost, h.target) for h in cards.hindenburg)
        self.class_cost: tuple[tuple[DiceCounts, int], ...] = tuple(classes)

    def __reduce__(self) -> tuple[object, ...]:
        return (tables_for, (self.cards,))

    def pool(self, era: int, slots: Sequence[int]) -> Pool:
        """The dice of a company with these department slots in this era."""
        key = (era, *slots)
        pool = self._pools.get(key)
        if pool is None:
            if len(self._pools) >= POOL_CACHE_LIMIT:
                self._pools.clear()
            pool = self._pools[key] = self._build_pool(era, slots)
        return pool

    def _build_pool(self, era: int, slots: Sequence[int]) -> Pool:
        cards = self.cards
        entrepreneur = cards.entrepreneur_side_2 if era == 2 else cards.entrepreneur_side_1
        rollable = list(entrepreneur)
        fixed: list[tuple[int, int]] = []
        bonuses: list[EngineBonus] = []
        exchange = None
        for card_index in slots:
            if card_index == EMPTY:
                continue
            card = cards.expansions[card_index]
            for colour in range(3):
                rollable[colour] += card.dice[colour]
            if card.fixed_die is not None:
                fixed.append((card.fixed_die.colour, card.fixed_die.value))
            bonuses.extend(card.engine_bonuses)
            if card.exchange is not None:
                exchange = card.exchange
        fixed.sort(key=lambda die: (die[0], -die[1]))
        counts = (rollable[0], rollable[1], rollable[2])
        plain = _hand(counts, tuple(fixed), None)
        rollable_only = giving_fixed = None
        if exchange is not None:
            rollable_only, giving_fixed = exchange_hands(counts, plain.fixed, exchange)
        return Pool((plain, rollable_only, giving_fixed), tuple(bonuses), exchange)

    def odds(
        self, pool: Pool, target_class: int, wooden: bool, has_chip: bool, needs_colour: bool
    ) -> VariantOdds:
        """Per variant, the exact odds of an attempt on a target of this class, None where the
        variant is not offered. ``wooden``: the player holds the wooden airship (+1, T5)."""
        key = (target_class, wooden, has_chip, needs_colour)
        found = pool._odds.get(key)
        if found is None:
            cost, needed = self.class_cost[target_class]
            offers = pool.offers(cost)
            bonus = pool.engine_bonus(cost, needs_colour) + (1 if wooden else 0)
            per_variant = [
                _dice.attempt_odds(pool.shape(variant, cost), needed, bonus, has_chip)
                if offers[variant]
                else None
                for variant in range(NUM_VARIANTS)
            ]
            found = pool._odds[key] = (per_variant[0], per_variant[1], per_variant[2])
        return found

    def best_odds(self, pool: Pool, target_class: int, needs_colour: bool) -> tuple[float, float]:
        """(success without a chip, success with one chip on the board) of the best offered
        variant on a target of this class, without the wooden airship; 0.0 where none is."""
        key = (target_class, needs_colour)
        found = pool._best.get(key)
        if found is None:
            best = best_with_chip = 0.0
            for odds in self.odds(pool, target_class, False, True, needs_colour):
                if odds is not None:
                    best = max(best, odds.success)
                    best_with_chip = max(best_with_chip, odds.success_with_chip)
            found = pool._best[key] = (best, best_with_chip)
        return found


_TABLES: dict[str, CardTables] = {}
_last: tuple[CardSet, CardTables] | None = None


def tables_for(cards: CardSet) -> CardTables:
    """The derived tables of a card set (one per card set, found by its digest)."""
    global _last
    last = _last
    if last is not None and last[0] is cards:
        return last[1]
    tables = _TABLES.get(cards.digest)
    if tables is None:
        if len(_TABLES) >= TABLES_KEPT:
            del _TABLES[next(iter(_TABLES))]
        tables = _TABLES[cards.digest] = CardTables(cards)
    _last = (cards, tables)
    return tables
