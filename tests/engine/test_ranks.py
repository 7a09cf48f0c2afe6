"""E3 places: the winners first, then the others by score and then airships; ties share."""

from __future__ import annotations

import numpy as np
import pytest

from airships_env.engine import new_game
from airships_env.engine.rules import airship_count, ranks
from airships_env.protocol import ranks_from


@pytest.mark.parametrize(
    ("winners", "keys", "expected"),
    [
        ((0,), (9, 5, 7), (1, 3, 2)),
        ((1, 2), ((9, 1), (9, 2), (9, 2), (3, 0)), (3, 1, 1, 4)),
        ((0,), ((9, 3), (5, 1), (5, 1), (5, 2)), (1, 3, 3, 2)),  # equal keys share a place
        ((), (1, 1), (1, 1)),  # no winner: everyone by key
    ],
)
def test_ranks_from_places_winners_then_keys(
    winners: tuple[int, ...], keys: tuple, expected: tuple[int, ...]
) -> None:
    assert ranks_from(winners, keys) == expected


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_finished_games_rank_by_e3(num_players: int) -> None:
    rng = np.random.default_rng(num_players)
    for seed in range(10):
        state = new_game(num_players, seed=seed)
        with pytest.raises(ValueError, match="not over"):
            ranks(state)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
        places = ranks(state)
        assert state.winners is not None and state.final_scores is not None
        assert [p for p in range(num_players) if places[p] == 1] == list(state.winners)
        keys = [(state.final_scores[p], airship_count(state, p)) for p in range(num_players)]
        for a in range(num_players):
            for b in range(num_players):
                if a not in state.winners and b not in state.winners and keys[a] > keys[b]:
                    assert places[a] < places[b]
        outcome = state.outcome()
        assert outcome is not None and list(outcome.ranks) == places
