"""The arena's schedule: which games are played, with which deal, in which seats, from which seeds.

Every game is fixed by its *game index* alone, whatever the number of workers or the order they
finish in (see :mod:`agents.arena` for the whole story): its deal seed comes from
``SeedSequence([seed, 0, deal])``, its seating is arrangement ``game % len(arrangements)``
(cyclic rotations or all permutations), and each seat's generator is
``SeedSequence([seed, 1, game, seat])``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

SEATINGS = ("cyclic", "all")

_DEAL_STREAM, _AGENT_STREAM = 0, 1


# ---------------------------------------------------------------------------------------------
# The schedule
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameSpec:
    """One scheduled game: its index, deal, and the agent label in each seat."""

    game: int
    deal: int
    deal_seed: int
    seats: tuple[str, ...]


def label_agents(specs: Sequence[str]) -> dict[str, str]:
    """Distinct labels for agent specs, in order: a repeated spec gets ``#2``, ``#3``..."""
    labels: dict[str, str] = {}
    seen: dict[str, int] = {}
    for spec in specs:
        spec = spec.strip()
        seen[spec] = seen.get(spec, 0) + 1
        label = spec if seen[spec] == 1 else f"{spec}#{seen[spec]}"
        while label in labels:  # a spec that itself looks like "x#2"
            seen[spec] += 1
            label = f"{spec}#{seen[spec]}"
        labels[label] = spec
    return labels


def seat_arrangements(players: int, seating: str = "cyclic") -> list[tuple[int, ...]]:
    """Agent index per seat for each arrangement (cyclic rotations or all permutations)."""
    if seating == "cyclic":
        return [
            tuple((seat - shift) % players for seat in range(players)) for shift in range(players)
        ]
    if seating == "all":
        return list(itertools.permutations(range(players)))
    raise ValueError(f"seating must be one of {SEATINGS}, got {seating!r}")


def deal_seed(seed: int, deal: int) -> int:
    """The engine seed of deal number ``deal`` in a run seeded ``seed`` (63 bits)."""
    state = np.random.SeedSequence([seed, _DEAL_STREAM, deal]).generate_state(1, np.uint64)
    return int(state[0] >> np.uint64(1))


def agent_rng(seed: int, game: int, seat: int) -> np.random.Generator:
    """The generator of the agent in ``seat`` of game ``game``."""
    return np.random.default_rng(np.random.SeedSequence([seed, _AGENT_STREAM, game, seat]))


def round_up_games(games: int, players: int, seating: str = "cyclic") -> int:
    """The smallest multiple of the number of seat arrangements that is at least ``games``."""
    block = len(seat_arrangements(players, seating))
    return -(-max(games, 1) // block) * block


def arena_schedule(
    labels: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    paired: bool = False,
    seating: str = "cyclic",
) -> list[GameSpec]:
    """The games of an arena run: ``labels`` (one per seat) under every arrangement in turn.

    ``games`` must be a multiple of the number of arrangements (see :func:`round_up_games`),
    so that every agent plays every seat exactly equally often.
    """
    players = len(labels)
    arrangements = seat_arrangements(players, seating)
    if games % len(arrangements):
        raise ValueError(
            f"games ({games}) must be a multiple of the {len(arrangements)} seat "
            f"arrangements so that every agent plays every seat equally"
        )
    schedule = []
    for game in range(games):
        deal = game // len(arrangements) if paired else game
        order = arrangements[game % len(arrangements)]
        schedule.append(
            GameSpec(game, deal, deal_seed(seed, deal), tuple(labels[index] for index in order))
        )
    return schedule
