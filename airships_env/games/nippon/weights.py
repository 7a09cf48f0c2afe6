"""The weights of Nippon's bot evaluations (agents/bots/nippon.py, docs/nippon/BOTS.md): their one
place, read by the Python bots and handed to the native ones (airships_env/native/nippon.py)."""

from __future__ import annotations

from dataclasses import astuple, dataclass

from airships_env.games.nippon.engine.data import ACHIEVEMENT_KINDS

__all__ = ["GREEDY", "GROWTH", "HEURISTIC", "Weights", "packed"]


@dataclass(frozen=True, slots=True)
class Weights:
    """Every weight of the evaluations, in VP per unit (one place to tune them)."""

    # what both evaluations count
    yen: float  # a Yen in the reserve (discarded at consolidation, C1)
    coal: float  # a coal in the reserve
    money_step: float  # a step of the money track (per consolidation left, heuristic)
    coal_step: float  # a step of the coal track (per consolidation left, heuristic)
    knowledge: float  # a knowledge point up to the level-3 requirement
    blueprint: float
    factory: float  # per level of the good (1..3)
    machine: float  # per +1 of machine bonus
    cube: float  # per cube, times its good's level
    piece: float  # a train or ship placed (greedy: its VP and influence in one figure)
    influence: float  # a point of own influence tile on the board (greedy)
    colour: float  # a distinct colour among the workers held (owed 3 Yen at consolidation)
    achievements: float  # weight of the achievements' projected value (heuristic: 1)
    # the heuristic's plan
    planning: bool  # time-aware: assets fade with the turns left; majorities, rewards projected
    majority: float  # weight of the projected majority and ship VP of the phases to come
    later_phase: float  # discount of each scoring phase after the next
    reward_level: float  # per multiplier point the held workers would earn at consolidation
    turns_per_step: float  # own turns per marker step before the golden spaces (estimate)
    turns_per_consolidation: float  # own turns between two consolidations (estimate)
    contract_cube: float  # per cube of a contract the cubes held can fulfil now


GREEDY = Weights(
    yen=0.15,
    coal=0.3,
    money_step=1.0,
    coal_step=0.7,
    knowledge=0.4,
    blueprint=0.3,
    factory=1.5,
    machine=0.8,
    cube=0.5,
    piece=1.2,
    influence=0.5,
    colour=0.5,
    achievements=0.0,
    planning=False,
    majority=0.0,
    later_phase=0.0,
    reward_level=0.0,
    turns_per_step=6.0,
    turns_per_consolidation=4.5,
    contract_cube=0.0,
)

HEURISTIC = Weights(
    yen=0.12,
    coal=0.25,
    money_step=0.12,
    coal_step=0.12,
    knowledge=0.35,
    blueprint=0.25,
    factory=1.0,
    machine=0.6,
    cube=0.35,
    piece=0.0,
    influence=0.0,
    colour=0.3,
    achievements=1.0,
    planning=True,
    majority=1.0,
    later_phase=0.7,
    reward_level=0.8,
    turns_per_step=6.0,
    turns_per_consolidation=4.5,
    contract_cube=0.3,
)

#: Heuristic: how much each achievement's base is expected to grow over a whole game.
GROWTH: dict[str, float] = {
    "contracts": 3.0,
    "yen": 0.0,
    "knowledge_stars": 1.5,
    "coal_stars": 1.0,
    "ship_stars": 1.5,
    "train_stars": 1.5,
    "factories": 2.5,
    "machines": 2.0,
    "influence": 3.0,
}


def packed(weights: Weights) -> tuple[float, ...]:
    """The weights as the native core takes them: the fields in order, then GROWTH by kind."""
    return (
        *(float(value) for value in astuple(weights)),
        *(GROWTH.get(kind, 0.0) for kind in ACHIEVEMENT_KINDS),
    )
