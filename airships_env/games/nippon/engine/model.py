"""Nippon's small value types: what the player to act is choosing (:class:`Phase`) and the
rulings where readings differ (:class:`RulesOptions`). Kept apart from the state so that the
rules can use them without importing the state (the state's methods call the rules).
"""

from __future__ import annotations

from dataclasses import dataclass

from airships_env.protocol import OptionsDict

__all__ = ["Phase", "RulesOptions"]


class Phase:
    """What the player to act is choosing (``State.phase``)."""

    TURN = 0  # take a worker or consolidate (T1)
    STEPS = 1  # KNOWLEDGE / MINE: how many steps (A4, A5)
    PRODUCE = 2  # which factory next (A3)
    TECHNOLOGY = 3  # which machine next (A2)
    PIECES = 4  # which region next (A6, A7)
    CONTRACT = 5  # which contract next (A9)
    DELIVER = 6  # which good pays the next demand (A9)
    SPACE = 7  # which influence space next (A10)
    CUBES = 8  # how many cubes (A10)
    TILE = 9  # which influence tile (A10)
    INVEST = 10  # which factory tile (A1)
    REWARD = 11  # which reward tile (C3)
    ACHIEVEMENT = 12  # where the multiplier goes (C4)
    FINISH = 13  # blueprint bonuses or end the turn (T3)
    OVER = 14

    NAMES = (
        "turn", "steps", "produce", "technology", "pieces", "contract", "deliver", "space",
        "cubes", "tile", "invest", "reward", "achievement", "finish", "over",
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class RulesOptions(OptionsDict):
    """The rulings where readings differ (docs/nippon/RULES.md, "Rules options")."""

    captured_tile: str = "returns"  # A10a: "returns" | "removed"
    neutral_competes: bool = True  # F2
    majority_ties: str = "split"  # F3: "split" | "lower"
    marker_trigger: str = "column_empties"  # T4a: "column_empties" | "space_empties"

    def __post_init__(self) -> None:
        if self.captured_tile not in ("returns", "removed"):
            raise ValueError(
                f"captured_tile: expected 'returns' or 'removed', found {self.captured_tile!r}"
            )
        if not isinstance(self.neutral_competes, bool):
            raise ValueError(f"neutral_competes: expected a bool, found {self.neutral_competes!r}")
        if self.majority_ties not in ("split", "lower"):
            raise ValueError(
                f"majority_ties: expected 'split' or 'lower', found {self.majority_ties!r}"
            )
        if self.marker_trigger not in ("space_empties", "column_empties"):
            raise ValueError(
                "marker_trigger: expected 'column_empties' or 'space_empties', "
                f"found {self.marker_trigger!r}"
            )
