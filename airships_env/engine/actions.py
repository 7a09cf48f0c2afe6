"""The fixed action table: a stable integer index and a readable name for every decision.

==========  =====================================================================
index       action
==========  =====================================================================
0 .. 35     attempt the expansion at board slot (department row d, slot s), without
            (even index) or with (odd index) the Materials exchange:
            ``2 * (3 * d + s) + exchange``
36 .. 43    attempt the top card of airship stack i (0..3): ``36 + 2 * i + exchange``
44 .. 51    attempt Hindenburg phase j (0..3): ``44 + 2 * j + exchange``
52          pass: no target is eligible (T2a)
53          spend a chip: it decides the attempt (T5)
54          keep the chip: the attempt fails
55          buy an extra turn for 3 chips (T8)
56          end the turn
==========  =====================================================================

Attempts are numbered by *target*: targets 0..17 are the board slots, 18..21 the airship
stacks, 22..25 the Hindenburg phases, and the attempt action is ``2 * target + exchange``.
"""

from __future__ import annotations

from dataclasses import dataclass

from airships_env.engine.cards import DEPARTMENTS

SLOTS_PER_ROW = 3
BOARD_SLOTS = len(DEPARTMENTS) * SLOTS_PER_ROW  # 18
AIRSHIP_STACKS = 4
HINDENBURG_PHASE_COUNT = 4

FIRST_STACK_TARGET = BOARD_SLOTS  # 18
FIRST_PHASE_TARGET = FIRST_STACK_TARGET + AIRSHIP_STACKS  # 22
NUM_TARGETS = FIRST_PHASE_TARGET + HINDENBURG_PHASE_COUNT  # 26
NUM_ATTEMPT_ACTIONS = 2 * NUM_TARGETS  # 52

PASS = NUM_ATTEMPT_ACTIONS  # 52
SPEND_CHIP = PASS + 1  # 53
KEEP_CHIP = PASS + 2  # 54
BUY_EXTRA_TURN = PASS + 3  # 55
END_TURN = PASS + 4  # 56
NUM_ACTIONS = END_TURN + 1  # 57


@dataclass(frozen=True, slots=True)
class Attempt:
    """A decoded attempt: the target number and whether the exchange is used."""

    target: int
    exchange: bool


def attempt_action(target: int, exchange: bool) -> int:
    """The action index of an attempt on ``target``."""
    return 2 * target + int(exchange)


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
    if 0 <= action < NUM_ATTEMPT_ACTIONS:
        return Attempt(action >> 1, bool(action & 1))
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
    if action < NUM_ATTEMPT_ACTIONS:
        suffix = ", with exchange" if action & 1 else ""
        return f"attempt {target_name(action >> 1)}{suffix}"
    return {
        PASS: "pass (no eligible target)",
        SPEND_CHIP: "spend a chip",
        KEEP_CHIP: "keep the chip (the attempt fails)",
        BUY_EXTRA_TURN: "buy an extra turn (3 chips)",
        END_TURN: "end the turn",
    }[action]


ACTION_NAMES: tuple[str, ...] = tuple(_name(a) for a in range(NUM_ACTIONS))


def action_name(action: int) -> str:
    """The readable name of an action index."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"no action with index {action} (valid: 0..{NUM_ACTIONS - 1})")
    return ACTION_NAMES[action]


def action_from_name(name: str) -> int:
    """The index of an action given its readable name."""
    try:
        return ACTION_NAMES.index(name)
    except ValueError:
        raise ValueError(f"no action named {name!r}") from None
