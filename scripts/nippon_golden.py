"""Record the Nippon golden games (tests/golden/nippon/), replayed by tests/nippon/test_golden.py.

    python scripts/nippon_golden.py [--out DIR]

One seeded game per table size, bots in fixed seats (2 players: heuristic, greedy; 3: heuristic,
greedy, random; 4: heuristic, greedy, random, greedy), each bot seeded with
``default_rng([seed, seat])``. Each game is a generic game log (``airships_env.game_log``: a
header with the initial state, then one record per line) ``<n>p_<agents>.jsonl``, and
``<n>p_<agents>.final.json`` holds the final state's ``to_dict`` and the outcome. Existing files
are replaced. Re-record after a change to the engine, the data file or the bots.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np

from agents.registry import make_agent
from airships_env.game_log import append_record, log_header, start_log
from airships_env.games.nippon import GAME
from airships_env.policy import Decision

OUT = Path(__file__).resolve().parent.parent / "tests" / "golden" / "nippon"

#: (players, seed, the agents by seat)
GAMES: tuple[tuple[int, int, tuple[str, ...]], ...] = (
    (2, 2024, ("heuristic", "greedy")),
    (3, 2025, ("heuristic", "greedy", "random")),
    (4, 2026, ("heuristic", "greedy", "random", "greedy")),
)


def game_name(num_players: int, agents: tuple[str, ...]) -> str:
    """The files' stem: ``2p_heuristic-greedy``."""
    return f"{num_players}p_{'-'.join(agents)}"


def bot_rng(seed: int, seat: int) -> np.random.Generator:
    """The generator of the bot in ``seat`` (its own, never the game's)."""
    return np.random.default_rng([seed, seat])


def play(num_players: int, seed: int, agents: tuple[str, ...], log_path: Path) -> Any:
    """Play one game, writing its log to ``log_path``; the final state."""
    state = GAME.new_state(num_players, seed)
    seats = [make_agent(name, num_players=num_players, game=GAME) for name in agents]
    for seat, agent in enumerate(seats):
        agent.reset(seat, num_players, bot_rng(seed, seat))
    meta = {"agents": list(agents), "bot_seeds": [[seed, s] for s in range(num_players)]}
    header = log_header(GAME, state, num_players, seed, meta=meta)
    with start_log(log_path, header) as handle:
        while not state.is_terminal():
            action = seats[state.current_player].act(Decision.for_game(GAME, state))
            append_record(handle, state.apply_action(action))
    return state


def main(argv: list[str] | None = None) -> None:
    """Record every golden game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="folder for the files")
    args = parser.parse_args(argv)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    for num_players, seed, agents in GAMES:
        stem = game_name(num_players, agents)
        log_path = out / f"{stem}.jsonl"
        log_path.unlink(missing_ok=True)
        state = play(num_players, seed, agents, log_path)
        outcome = state.outcome()
        final = {"state": state.to_dict(), "outcome": outcome.to_dict()}
        (out / f"{stem}.final.json").write_text(
            json.dumps(final, sort_keys=True) + "\n", encoding="utf-8"
        )
        records = sum(1 for _ in log_path.open(encoding="utf-8")) - 1
        print(f"{stem}: seed {seed}, {records} records, VP {state.vp}, winners {outcome.winners}")


if __name__ == "__main__":
    main()
