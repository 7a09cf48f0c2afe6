"""Invariants over many seeded random games, checked after every action.

Every card in exactly one place; each player's 6 chips = board + supply + Hindenburg marks; no
attempt rolls more than 3 dice of a colour; a record's total, bonuses and result agree; a legal
action exists until the game ends; at the end the logged scores and winners equal the ones
counted here from the card data and the records (not by the engine's scoring code); every game
ends within a bound.
"""

from __future__ import annotations

import numpy as np
import pytest

from airships_env.engine import GameState, RulesOptions, new_game
from airships_env.engine.records import ActionRecord
from airships_env.engine.state import EMPTY

from .helpers import check_record, check_state

MAX_STEPS = 2_000  # a 4-player game takes about 150 actions
# Every ruling switched, except E4: without it a stalemate (nobody can take anything, the deck
# empty) never ends, and random games do reach one (2 players, seed 20000, with these rulings;
# with the default rulings too, about 1 game in 600). E4 off is tested in test_options.
OTHER_RULINGS = RulesOptions(
    reveal_after_change_of_era=True,
    hindenburg_any_order=False,
    engine_bonus_needs_cost_colour=False,
    wooden_airship_with_opening_airship=False,
    stalemate_ends_game=True,
)

pytestmark = pytest.mark.usefixtures("engine_backend")


def counted_result(
    state: GameState, records: list[ActionRecord]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """E2 and E3 counted from the card data and the records, without the engine's scoring code:
    airships and Hindenburg phases from who acquired them, stars from the cards left on the
    company boards."""
    cards = state.cards
    phase_by_id = {phase.id: phase for phase in cards.hindenburg}
    airship_by_id = {ship.id: ship for ship in cards.airships}
    phases: list[list[str]] = [[] for _ in range(state.num_players)]
    ships: list[list[str]] = [[] for _ in range(state.num_players)]
    for record in records:
        if record.acquired in phase_by_id:
            phases[record.player].append(record.acquired)
        elif record.acquired in airship_by_id:
            ships[record.player].append(record.acquired)
    complete = sum(len(taken) for taken in phases) == len(phase_by_id)
    points = []
    for seat, player in enumerate(state.players):
        assert sorted(ships[seat]) == sorted(cards.airships[a].id for a in player.airships)
        stars = sum(cards.expansions[c].stars for c in player.slots if c != EMPTY)
        stars += sum(airship_by_id[ship].stars for ship in ships[seat])
        for phase in phases[seat]:
            stars += phase_by_id[phase].high if complete else phase_by_id[phase].low
        points.append(stars)
    # E3: the best score, then the most airships with phases counted as airships, then shared
    best = max((points[s], len(ships[s]) + len(phases[s])) for s in range(state.num_players))
    won = tuple(
        s for s in range(state.num_players) if (points[s], len(ships[s]) + len(phases[s])) == best
    )
    return tuple(points), won


def play_checked(num_players: int, seed: int, options: RulesOptions | None = None) -> int:
    """Play one random game checking every action; returns the number of actions."""
    state = new_game(num_players, seed=seed, options=options)
    rng = np.random.default_rng([seed, 1])
    check_state(state)
    record = None
    records = []
    for step in range(MAX_STEPS):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        record = state.apply_action(legal[int(rng.integers(len(legal)))])
        records.append(record)
        assert record.step == step
        check_record(record)
        check_state(state)
    else:
        raise AssertionError(f"game {num_players}p seed {seed} did not end in {MAX_STEPS} steps")
    assert record is not None and record.game_over
    counted_scores, counted_winners = counted_result(state, records)
    assert record.scores == state.final_scores == counted_scores, "E2: final score"
    assert record.winners == state.winners == counted_winners, "E3: winners"
    return state.step


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_invariants_hold_in_random_games(num_players: int) -> None:
    lengths = [play_checked(num_players, seed) for seed in range(200)]
    assert min(lengths) > 10


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_invariants_hold_with_the_other_rulings(num_players: int) -> None:
    for seed in range(40):
        play_checked(num_players, 10_000 + seed, OTHER_RULINGS)


@pytest.mark.slow
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_invariants_hold_in_many_random_games(num_players: int) -> None:
    for seed in range(1_000, 3_000):
        play_checked(num_players, seed)
    for seed in range(20_000, 20_300):
        play_checked(num_players, seed, OTHER_RULINGS)
