"""The parts a game state is made of: rules options, a company, a pending roll, constants.

Plain data with no rules in it; :mod:`airships_env.engine.state` assembles them into the
:class:`~airships_env.engine.state.GameState` and :mod:`airships_env.engine.rules` changes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from airships_env.engine.records import ExchangeMade
from airships_env.protocol import OptionsDict

CHOOSE_TARGET, CHIP_DECISION, EXTRA_TURN, GAME_OVER = range(4)
PHASE_NAMES: tuple[str, ...] = ("choose target", "chip decision", "extra turn", "game over")

EMPTY = -1
CHANGE_OF_ERA = -2  # the Change of Era card in the deck
CHANGE_OF_ERA_ID = "change-of-era"

CHIPS_PER_PLAYER = 6
EXTRA_TURN_PRICE = 3  # T8
MIN_PLAYERS, MAX_PLAYERS = 2, 4  # S1


@dataclass(frozen=True, slots=True)
class RulesOptions(OptionsDict):
    """Switches for the rulings of docs/airships/RULES.md marked [ruling] and for the added ones.

    The defaults are the rules as written in docs/airships/RULES.md.
    """

    # T1: after the Change of Era card, no replacement card is revealed.
    reveal_after_change_of_era: bool = False
    # H1: the Hindenburg's phases may be completed in any order (False: phase 1, 2, 3, 4).
    hindenburg_any_order: bool = True
    # T5: an Engine bonus of a colour applies when the cost asks for that colour.
    engine_bonus_needs_cost_colour: bool = True
    # H3a: the airship that empties a stack still brings the wooden airship; the Hindenburg
    # opens after that acquisition (False: it opens first, H3 keeps the token).
    wooden_airship_with_opening_airship: bool = True
    # E4: with the deck empty, once every player has passed (no eligible target) since the
    # last attempt, nothing can change any more, and the game ends.
    stalemate_ends_game: bool = True

    @classmethod
    def check_values(cls, data: dict[str, Any]) -> None:
        """Every option is a boolean (``from_dict`` has refused unknown names already)."""
        for key, value in data.items():
            if not isinstance(value, bool):
                raise ValueError(f"rules option {key!r} must be true or false, got {value!r}")


@dataclass(frozen=True, slots=True)
class PendingAttempt:
    """A roll that misses by exactly 1 while the player holds a chip: it decides (T5)."""

    target: int
    variant: int
    exchange: ExchangeMade | None
    needed: int
    rolled: tuple[tuple[int, ...], ...]
    kept: tuple[tuple[int, ...], ...]
    dice_sum: int
    bonuses: tuple[tuple[str, int], ...]
    total: int

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "target": self.target,
            "variant": self.variant,
            "exchange": None if self.exchange is None else self.exchange.to_dict(),
            "needed": self.needed,
            "rolled": [list(v) for v in self.rolled],
            "kept": [list(v) for v in self.kept],
            "dice_sum": self.dice_sum,
            "bonuses": [list(b) for b in self.bonuses],
            "total": self.total,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PendingAttempt:
        """The inverse of :meth:`to_dict`."""
        exchange = data["exchange"]
        return cls(
            target=int(data["target"]),
            variant=int(data["variant"]),
            exchange=None if exchange is None else ExchangeMade.from_dict(exchange),
            needed=int(data["needed"]),
            rolled=tuple(tuple(int(x) for x in v) for v in data["rolled"]),
            kept=tuple(tuple(int(x) for x in v) for v in data["kept"]),
            dice_sum=int(data["dice_sum"]),
            bonuses=tuple((str(b[0]), int(b[1])) for b in data["bonuses"]),
            total=int(data["total"]),
        )


@dataclass(slots=True)
class PlayerState:
    """One company: its department slots, airship pile and chips."""

    slots: list[int]  # expansion index per department, EMPTY if none
    airships: list[int]  # in the order acquired; the last is on top of the pile
    chips_on_board: int
    chips_supply: int

    def clone(self) -> PlayerState:
        """An independent copy."""
        return PlayerState(
            slots=self.slots.copy(),
            airships=self.airships.copy(),
            chips_on_board=self.chips_on_board,
            chips_supply=self.chips_supply,
        )
