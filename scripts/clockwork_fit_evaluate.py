"""Fit the weights of Clockwork City's search evaluation (a benchmark-style script: it prints).

    python scripts/clockwork_fit_evaluate.py [--games 1500]

Plays two-player games (the heuristic against itself, and against greedy one game in three,
seats alternating), records the difference of the two seats' features
(:func:`airships_env.games.clockwork.evaluate.features`) at every roll, and fits a logistic
regression of "seat 0 won" on it (no intercept: the model is symmetric in the seats; Newton's
method, a small L2 penalty). Games 0, 5, 10, ... are held out; printed: the held-out log-loss of
a coin, of the current ``evaluate`` and of the fit, and the fitted weights to paste into
``WEIGHTS``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from agents.bots.clockwork import GreedyBot, HeuristicBot
from airships_env.games.clockwork import GAME
from airships_env.games.clockwork.evaluate import FEATURES, evaluate, features
from airships_env.policy import Decision, Policy


def play(game: int) -> tuple[list[np.ndarray], list[float], int]:
    """One game: feature differences and current values at each roll, and the winner."""
    state = GAME.new_state(2, seed=10000 + game)
    bots: list[Policy] = [HeuristicBot(), HeuristicBot() if game % 3 else GreedyBot()]
    if game % 2:
        bots.reverse()
    for seat, bot in enumerate(bots):
        bot.reset(seat, 2, np.random.default_rng([game, seat]))
    rows, values = [], []
    while not state.is_terminal():
        if state.phase_name == "roll":
            rows.append(np.array(features(state, 0)) - np.array(features(state, 1)))
            values.append(evaluate(state)[0])
        state.apply_action(bots[state.current_player].act(Decision.for_game(GAME, state)))
    return rows, values, int(state.winner)


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    """Mean negative log-likelihood of the outcomes ``y`` under the probabilities ``p``."""
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-3) -> np.ndarray:
    """Logistic regression without intercept by Newton's method."""
    w = np.zeros(x.shape[1])
    for _ in range(30):
        p = 1 / (1 + np.exp(-x @ w))
        gradient = x.T @ (p - y) / len(y) + l2 * w
        hessian = (x.T * (p * (1 - p))) @ x / len(y) + l2 * np.eye(len(w))
        w -= np.linalg.solve(hessian, gradient)
    return w


def main() -> None:
    """Play, fit, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1500)
    args = parser.parse_args()
    x, y, current, held_out = [], [], [], []
    for game in range(args.games):
        rows, values, winner = play(game)
        if winner < 0:
            continue  # W3's turn limit: no winner to learn from
        x += rows
        y += [1.0 if winner == 0 else 0.0] * len(rows)
        current += values
        held_out += [game % 5 == 0] * len(rows)
    xs, ys, now, test = np.array(x), np.array(y), np.array(current), np.array(held_out)
    w = fit(xs[~test], ys[~test])
    fitted = 1 / (1 + np.exp(-xs[test] @ w))
    print(f"{len(ys)} positions; held-out log-loss: coin 0.693, ", end="")
    print(
        f"current evaluate {log_loss(now[test], ys[test]):.3f}, fit {log_loss(fitted, ys[test]):.3f}"
    )
    for name, weight in zip(FEATURES, w, strict=True):
        print(f"    {weight:.3f},  # {name}")


if __name__ == "__main__":
    main()
