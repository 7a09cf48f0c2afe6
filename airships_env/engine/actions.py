"""The fixed action table: a stable integer index and a readable name for every decision.

This module is the only owner of the action encoding: every other module (rules, observation,
bots, renderers, the native core's binding) uses its functions, never the arithmetic inline.

==========  =====================================================================
index       action
==========  =====================================================================
0 .. 77     attempt target ``t`` (0..25) in variant ``v`` (0..2): ``3 * t + v``
78          pass: no target is eligible (T2a)
79          spend a chip: it decides the attempt (T5)
80          keep the chip: the attempt fails
81          buy an extra turn for 3 chips (T8)
82          end the turn
==========  =====================================================================

Targets: ``3 * d + s`` is the board slot in department row ``d`` (0 financier, 1 hangar,
2 captain, 3 engineer, 4 engine, 5 materials), slot ``s`` (0..2); 18..21 are the airship stacks
(0..3), 22..25 the Hindenburg phases (0..3). Variants (docs/airships/RULES.md T3): 0 no exchange, 1 with
the Materials exchange giving rollable dice only, 2 with the exchange giving the player's fixed
(Engineer) die. Indices count from 0; readable names count slots, stacks and phases from 1:
action 40 = ``3 * (3 * 4 + 1) + 1`` is "attempt engine row, slot 2, with exchange".
"""

from __future__ import annotations

from dataclasses import dataclass

from airships_env.engine.cards import DEPARTMENTS
from airships_env.protocol import as_action_index as as_action_index  # re-exported
from airships_env.protocol import not_an_action_reason as _not_an_action_reason

SLOTS_PER_ROW = 3
BOARD_SLOTS = len(DEPARTMENTS) * SLOTS_PER_ROW  # 18
AIRSHIP_STACKS = 4
HINDENBURG_PHASE_COUNT = 4

FIRST_STACK_TARGET = BOARD_SLOTS  # 18
FIRST_PHASE_TARGET = FIRST_STACK_TARGET + AIRSHIP_STACKS  # 22
NUM_TARGETS = FIRST_PHASE_TARGET + HINDENBURG_PHASE_COUNT  # 26

# The variants of an attempt (T3).
NO_EXCHANGE, EXCHANGE, EXCHANGE_GIVING_FIXED = 0, 1, 2
NUM_VARIANTS = 3
VARIANT_NAMES: tuple[str, ...] = (
    "no exchange",
    "with exchange",
    "with exchange giving the fixed die",
)

NUM_ATTEMPT_ACTIONS = NUM_VARIANTS * NUM_TARGETS  # 78
PASS = NUM_ATTEMPT_ACTIONS  # 78
SPEND_CHIP = PASS + 1  # 79
KEEP_CHIP = PASS + 2  # 80
BUY_EXTRA_TURN = PASS + 3  # 81
END_TURN = PASS + 4  # 82
NUM_ACTIONS = END_TURN + 1  # 83


@dataclass(frozen=True, slots=True)
class Attempt:
    """A decoded attempt: the target number and the exchange variant."""

    target: int
    variant: int

    @property
    def exchange(self) -> bool:
        """Whether the Materials exchange is made (T3)."""
        return self.variant != NO_EXCHANGE


def not_an_action_reason(action: object) -> str | None:
    """Why a value is not an action of Airships' action space (None when it is one)."""
    return _not_an_action_reason(action, NUM_ACTIONS)


def attempt_action(target: int, variant: int = NO_EXCHANGE) -> int:
    """The action index of an attempt on ``target`` in ``variant``."""
    return NUM_VARIANTS * target + variant


def is_attempt(action: int) -> bool:
    """Whether ``action`` is an attempt (0..77)."""
    return 0 <= action < NUM_ATTEMPT_ACTIONS


def attempt_target(action: int) -> int:
    """The target number of an attempt action."""
    return action // NUM_VARIANTS


def attempt_variant(action: int) -> int:
    """The exchange variant of an attempt action."""
    return action % NUM_VARIANTS


def board_target(department: int, slot: int) -> int:
    """The target number of a board slot."""
    return SLOTS_PER_ROW * department + slot


def stack_target(stack: int) -> int:
    """The target number of an airship stack."""
    return FIRST_STACK_TARGET + stack


def phase_target(phase: int) -> int:
    """The target number of a Hindenburg phase."""
    return FIRST_PHASE_TARGET + phase


def decode(action: int) -> Attempt | int:
    """An :class:`Attempt` for attempt actions, else the action index itself."""
    if is_attempt(action):
        return Attempt(attempt_target(action), attempt_variant(action))
    return action


def target_name(target: int) -> str:
    """'engine row, slot 2', 'airship stack 3', 'Hindenburg phase 1' (1-based for people)."""
    if target < FIRST_STACK_TARGET:
        department, slot = divmod(target, SLOTS_PER_ROW)
        return f"{DEPARTMENTS[department]} row, slot {slot + 1}"
    if target < FIRST_PHASE_TARGET:
        return f"airship stack {target - FIRST_STACK_TARGET + 1}"
    return f"Hindenburg phase {target - FIRST_PHASE_TARGET + 1}"


def _name(action: int) -> str:
    if is_attempt(action):
        variant = attempt_variant(action)
        suffix = "" if variant == NO_EXCHANGE else f", {VARIANT_NAMES[variant]}"
        return f"attempt {target_name(attempt_target(action))}{suffix}"
    return {
        PASS: "pass (no eligible target)",
        SPEND_CHIP: "spend a chip",
        KEEP_CHIP: "keep the chip (the attempt fails)",
        BUY_EXTRA_TURN: "buy an extra turn (3 chips)",
        END_TURN: "end the turn",
    }[action]


ACTION_NAMES: tuple[str, ...] = tuple(_name(a) for a in range(NUM_ACTIONS))
_INDEX_OF_NAME = {name: index for index, name in enumerate(ACTION_NAMES)}


def action_name(action: int) -> str:
    """The readable name of an action index."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"no action with index {action} (valid: 0..{NUM_ACTIONS - 1})")
    return ACTION_NAMES[action]


def action_from_name(name: str) -> int:
    """The index of an action given its readable name."""
    index = _INDEX_OF_NAME.get(name)
    if index is None:
        raise ValueError(f"no action named {name!r}")
    return index
