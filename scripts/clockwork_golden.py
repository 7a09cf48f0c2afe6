"""Record the Clockwork golden games (tests/clockwork/golden/), replayed by a test.

    python scripts/clockwork_golden.py

Bots play seeded games until each wanted game is found: per player count, a win by Flying
Machine + Code Breaker + Fuel, and, over all counts, a win by the Airship, a challenge answered
with Scrap Metal, a pick-up at the Towers and an endgame after the piles are empty. Each game is
a JSON-lines file: a header (seed, players, options, the agents), then one record per line;
``<name>.final.json`` is the final state's ``to_dict``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from agents.bots.clockwork import GreedyBot, HeuristicBot
from airships_env.games.clockwork import GAME
from airships_env.games.clockwork.engine import actions as A
from airships_env.games.clockwork.engine.data import AS, POWER, SCRAP
from airships_env.policy import Decision

OUT = Path(__file__).resolve().parent.parent / "tests" / "clockwork" / "golden"


def record_game(num_players: int, seed: int) -> tuple[Any, list[Any]]:
    """One game of heuristic and greedy bots (alternating seats)."""
    state = GAME.new_state(num_players, seed)
    seats = [HeuristicBot() if s % 2 == 0 else GreedyBot() for s in range(num_players)]
    for seat, agent in enumerate(seats):
        agent.reset(seat, num_players, np.random.default_rng([seed, seat]))
    records = []
    while not state.is_terminal():
        decision = Decision.for_game(GAME, state)
        records.append(state.apply_action(seats[state.current_player].act(decision)))
    return state, records


def features(state: Any, records: list[Any]) -> set[str]:
    """What a game shows."""
    found = set()
    if state.winner >= 0:
        hand = state.hands[state.winner]
        airship = hand[AS] == state.data.counts[state.num_players][AS] and hand[POWER]
        found.add("airship" if airship else "machines")
    if any(r.given == SCRAP and r.action in (A.give(SCRAP),) for r in records):
        found.add("scrap")
    if any(r.turned is not None for r in records):
        found.add("towers")
    if state.endgame:
        found.add("endgame")
    return found


def main() -> None:
    """Search seeds and write the files."""
    OUT.mkdir(parents=True, exist_ok=True)
    wanted = {(2, "machines"), (3, "machines"), (4, "machines"), (0, "airship")}
    extras = {"scrap", "towers", "endgame"}
    for num_players in (2, 3, 4):
        for seed in range(3000):
            state, records = record_game(num_players, seed)
            shown = features(state, records)
            name = None
            if (num_players, "machines") in wanted and "machines" in shown and shown & extras:
                wanted.discard((num_players, "machines"))
                name = f"{num_players}p_machines"
            elif (0, "airship") in wanted and "airship" in shown:
                wanted.discard((0, "airship"))
                name = f"{num_players}p_airship"
            elif "endgame" in extras and "endgame" in shown and "scrap" in shown:
                extras.discard("endgame")
                name = f"{num_players}p_endgame"
            if name is None:
                continue
            header: dict[str, Any] = {"game": "clockwork", "players": num_players, "seed": seed,
                      "options": {}, "agents": ["heuristic", "greedy"], "features": sorted(shown)}  # fmt: skip
            lines = [json.dumps(header)] + [json.dumps(r.to_dict()) for r in records]
            (OUT / f"{name}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
            (OUT / f"{name}.final.json").write_text(
                json.dumps(state.to_dict(), sort_keys=True) + "\n", encoding="utf-8"
            )
            print(name, seed, sorted(shown), len(records))
            if not any(p == num_players for p, _ in wanted) and (
                (0, "airship") not in wanted or num_players == 4
            ):
                break
    if wanted:
        print("not found:", sorted(wanted))


if __name__ == "__main__":
    main()
