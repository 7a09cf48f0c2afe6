"""The greedy bot: the attempt with the highest expected value now, no plan over the game."""

from __future__ import annotations

import numpy as np

from agents.bots.common import (
    AIRSHIP,
    EXPANSION,
    Option,
    Profile,
    add_up,
    attempt_options,
    phase_value,
    profile,
    slots_after,
)
from airships_env.bot_config import GreedyConfig
from airships_env.engine import BUY_EXTRA_TURN, END_TURN, PASS, SPEND_CHIP, GameState
from airships_env.policy import Decision


class GreedyAgent:
    """Attempts the target maximising success odds times card value; buys an extra turn when a
    good attempt is on the board; always spends the chip when it decides the attempt.

    A card's value: an airship's points; a Hindenburg phase's points (its high values if it
    completes the Hindenburg); an expansion's stars, plus its chips, plus ``dice_weight`` times the
    gain in the company's mean expected points per attempt over all airships and phases.
    """

    def __init__(
        self,
        dice_weight: float = 6.0,
        chip_value: float = 0.3,
        extra_turn_threshold: float = 1.0,
        name: str = "greedy",
    ):
        self.config = GreedyConfig(
            float(dice_weight), float(chip_value), float(extra_turn_threshold)
        )
        self.dice_weight = self.config.dice_weight
        self.chip_value = self.config.chip_value
        self.extra_turn_threshold = self.config.extra_turn_threshold
        self.name = name
        self.seat = 0
        self.rng = np.random.default_rng(0)

    @property
    def native_bot(self) -> tuple[int, tuple[object, ...]]:
        """The native core's twin of this bot (kind, weights): it makes the same choices."""
        return (2, self.config.native())

    def reset(self, seat: int, num_players: int, rng: np.random.Generator) -> None:
        """Remember the seat; the generator is kept but the greedy bot never draws from it."""
        self.seat = seat
        self.rng = rng

    def act(self, decision: Decision) -> int:
        """The greedy choice among ``decision.legal_actions``."""
        legal = decision.legal_actions
        if len(legal) == 1:
            return legal[0]
        if SPEND_CHIP in legal:
            return SPEND_CHIP
        view = decision.view
        if BUY_EXTRA_TURN in legal:
            options = attempt_options(view, decision.seat)
            best = max((self.expected_value(view, decision.seat, o) for o in options), default=0.0)
            return BUY_EXTRA_TURN if best >= self.extra_turn_threshold else END_TURN
        options = attempt_options(view, decision.seat, legal)
        if not options:
            return PASS if PASS in legal else legal[0]
        best_option = max(options, key=lambda o: self.expected_value(view, decision.seat, o))
        return best_option.action

    def expected_value(self, view: GameState, seat: int, option: Option) -> float:
        """Success odds (spending a chip when it decides) times the card's value."""
        value = self.card_value(view, seat, option)
        return option.success_with_chip * value

    def card_value(self, view: GameState, seat: int, option: Option) -> float:
        """Points now, or for an expansion its stars, chips and dice gain."""
        cards = view.cards
        if option.kind == AIRSHIP:
            return float(cards.airships[option.card].stars)
        if option.kind != EXPANSION:
            return phase_value(view, seat, option.card)
        expansion = cards.expansions[option.card]
        old = view.players[seat].slots[expansion.department]
        old_stars = cards.expansions[old].stars if old >= 0 else 0
        needs_colour = view.options.engine_bonus_needs_cost_colour
        slots = view.players[seat].slots
        before = _mean_points(view, profile(cards, needs_colour, slots, view.era))
        after_slots = slots_after(view, seat, option.card)
        after = _mean_points(view, profile(cards, needs_colour, after_slots, view.era))
        chips = min(expansion.chips, view.players[seat].chips_supply)
        return (
            expansion.stars
            - old_stars
            + self.chip_value * chips
            + self.dice_weight * (after - before)
        )


def _mean_points(view: GameState, company: Profile) -> float:
    """Mean expected points per attempt over every airship and phase of the card set."""
    cards = view.cards
    total = add_up(p * a.stars for p, a in zip(company.airship, cards.airships, strict=True))
    total += add_up(p * h.low for p, h in zip(company.phase, cards.hindenburg, strict=True))
    return total / (len(cards.airships) + len(cards.hindenburg))
