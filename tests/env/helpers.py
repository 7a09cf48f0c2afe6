"""Helpers for the environment tests: random legal play on the AEC env and on the engine."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from airships_env.engine import GameState, new_game


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random action among the mask's legal ones."""
    legal = np.flatnonzero(mask)
    assert legal.size > 0, "the acting agent's mask is all zeros"
    return int(legal[rng.integers(legal.size)])


def play_out(env: object, rng: np.random.Generator, max_steps: int = 10_000) -> int:
    """Play random legal actions (None for finished agents) until every agent is done."""
    steps = 0
    for agent in env.agent_iter(max_steps):  # type: ignore[attr-defined]
        observation, _reward, terminated, truncated, _info = env.last()  # type: ignore[attr-defined]
        action = None if terminated or truncated else random_legal(observation["action_mask"], rng)
        env.step(action)  # type: ignore[attr-defined]
        steps += 1
        del agent
    assert not env.agents, "the game did not end"  # type: ignore[attr-defined]
    return steps


def random_states(num_players: int, games: int, seed: int, every: int = 7) -> Iterator[GameState]:
    """States met in random games (every ``every``-th step, and the final state)."""
    rng = np.random.default_rng(seed)
    for game in range(games):
        state = new_game(num_players, seed=seed * 1000 + game)
        step = 0
        while not state.is_terminal():
            if step % every == 0:
                yield state.clone()
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
            step += 1
        yield state.clone()
