"""Clockwork's small value types: the phases (who acts and which actions make sense) and
the rulings where readings differ (:class:`RulesOptions`). Kept apart from the state so that the
rules use them without importing the state (the state's methods call the rules).
"""

from __future__ import annotations

from dataclasses import dataclass

from airships_env.protocol import OptionsDict

# Phases: who acts and which actions make sense.
ROLL, MOVE, ACT, DEMAND, RESPOND, COUNTER, GIVE_BACK, DISCARD, PLACE, OVER = range(10)
PHASE_NAMES: tuple[str, ...] = (
    "roll", "move", "act", "demand", "respond", "counter", "give back", "discard", "place", "over",
)  # fmt: skip

_OPTION_VALUES = {
    "lucky_rolls": ("anywhere", "from_scrapyard"),
    "scrap_to": ("removed", "discards"),
    "discard_recall": ("perfect", "none"),
    "first_player": ("roll", "seat0"),
}


@dataclass(frozen=True, slots=True)
class RulesOptions(OptionsDict):
    """The rulings that can be switched (docs/clockwork/RULES.md "Rules options")."""

    white_field_exact: bool = False  # M1: NL, DE, PL, CZ
    lucky_rolls: str = "anywhere"  # T2: "from_scrapyard" is RU
    scrap_to: str = "removed"  # C2: "discards" is FR
    discard_recall: str = "perfect"  # V4: "none"
    first_player: str = "roll"  # S3: "seat0"
    max_turns: int = 100  # W3: turns per player before a draw

    def __post_init__(self) -> None:
        if not isinstance(self.white_field_exact, bool):
            raise ValueError(
                f"RulesOptions.white_field_exact: expected a bool, found {self.white_field_exact!r}"
            )
        for name, allowed in _OPTION_VALUES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise ValueError(f"RulesOptions.{name}: expected one of {allowed}, found {value!r}")
        if (
            not isinstance(self.max_turns, int)
            or isinstance(self.max_turns, bool)
            or (self.max_turns < 1)
        ):
            raise ValueError(
                f"RulesOptions.max_turns: expected a positive integer, found {self.max_turns!r}"
            )
