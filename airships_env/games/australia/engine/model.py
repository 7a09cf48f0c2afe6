"""Australia's small value types: the phases (who acts and which actions make sense) and
the rulings where readings differ (:class:`RulesOptions`). Kept apart from the state so that the
rules use them without importing the state (the state's methods call the rules).
"""

from __future__ import annotations

from dataclasses import dataclass

from airships_env.protocol import OptionsDict

# Phases: who acts and which actions make sense.
SETUP_DRAW, WINDMILL, ACTION, PLACE, DRAW, TAKE_BACK, MOVE_TO, OVER = range(8)
PHASE_NAMES: tuple[str, ...] = (
    "setup draw", "windmill", "action", "place", "draw", "take back", "move to", "over",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class RulesOptions(OptionsDict):
    """The rulings that can be switched (docs/australia/RULES.md "Rules options")."""

    full_game: bool = False  # S6, W1-W6, E2
    stack_cards: int = 9  # S3: 8 is the published simple game
    recolour_anywhere: bool = False  # D1
    max_rounds: int = 200  # E4

    def __post_init__(self) -> None:
        for name in ("full_game", "recolour_anywhere"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"RulesOptions.{name}: expected a bool, found "
                                 f"{getattr(self, name)!r}")  # fmt: skip
        for name, low in (("stack_cards", 3), ("max_rounds", 1)):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise ValueError(f"RulesOptions.{name}: expected an integer >= {low}, found "
                                 f"{value!r}")  # fmt: skip


# The list fields, in to_dict order: name -> nesting depth (1: list of ints, 2: list of lists).
