"""Play a seeded 4-player game with random legal moves and save pictures of the table.

Saves ``docs/airships/table.png`` mid-game (when the Hindenburg opens, or at turn 30) and
``docs/airships/table_end.png`` at the end, and prints the text board of both. ``--bench N`` then renders
every step of N more random games and prints the time per frame of both renderers.

    python scripts/render_example.py [--seed 7] [--out docs/airships] [--bench 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from PIL import Image

# The repository root, so that `python scripts/NAME.py` finds `agents` and `airships_env`
# without an installed package (an installed one comes first).
sys.path.append(str(Path(__file__).resolve().parent.parent))

from airships_env.engine import ActionRecord, GameState, new_game
from airships_env.render import render_ansi, render_rgb


def play_until(
    state: GameState, rng: np.random.Generator, stop_turn: int | None
) -> ActionRecord | None:
    """Random legal moves until the Hindenburg opens or ``stop_turn`` (None: the game end)."""
    record = None
    while not state.is_terminal():
        if stop_turn is not None and (state.hindenburg_open or state.turn >= stop_turn):
            break
        legal = state.legal_actions()
        record = state.apply_action(legal[int(rng.integers(len(legal)))])
    return record


def save(state: GameState, record: ActionRecord | None, path: Path) -> None:
    """Render, save the PNG and print the text board."""
    Image.fromarray(render_rgb(state, record)).save(path)
    print(render_ansi(state, record))
    print(f"saved {path}\n")


def bench(games: int, players: int, seed: int) -> None:
    """Render every step of ``games`` random games; print milliseconds per frame.

    Wall time and CPU time of this process are both given: on a shared machine the CPU time is
    the fairer figure.
    """
    times: dict[str, list[tuple[float, float]]] = {"render_rgb": [], "render_ansi": []}
    for game in range(games):
        state = new_game(num_players=players, seed=seed + 1000 + game)
        moves = np.random.default_rng(seed + 2000 + game)
        record = None
        while True:
            for name, render in (("render_rgb", render_rgb), ("render_ansi", render_ansi)):
                wall, cpu = time.perf_counter(), time.process_time()
                render(state, record)
                times[name].append(
                    ((time.perf_counter() - wall) * 1e3, (time.process_time() - cpu) * 1e3)
                )
            if state.is_terminal():
                break
            legal = state.legal_actions()
            record = state.apply_action(legal[int(moves.integers(len(legal)))])
    for name, pairs in times.items():
        values = np.array(pairs)
        wall, cpu = values[:, 0], values[:, 1]
        print(
            f"{name:12s} {len(values)} frames: wall mean {wall.mean():.2f} ms (median "
            f"{np.median(wall):.2f}, p95 {np.percentile(wall, 95):.2f}, max {wall.max():.2f}); "
            f"CPU mean {cpu.mean():.2f} ms (median {np.median(cpu):.2f}, max {cpu.max():.2f})"
        )


def main() -> None:
    """Play, save both pictures, print the boards (and the timings with --bench)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7, help="game seed (the moves use seed+1)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--turn", type=int, default=30, help="mid-game picture at this turn")
    parser.add_argument(
        "--out", type=Path, default=Path(__file__).resolve().parents[1] / "docs" / "airships"
    )
    parser.add_argument("--bench", type=int, default=0, metavar="N", help="time N more games")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)

    state = new_game(num_players=args.players, seed=args.seed)
    moves = np.random.default_rng(args.seed + 1)
    record = play_until(state, moves, args.turn)
    save(state, record, args.out / "table.png")
    record = play_until(state, moves, None) or record
    save(state, record, args.out / "table_end.png")
    if args.bench:
        bench(args.bench, args.players, args.seed)


if __name__ == "__main__":
    main()
