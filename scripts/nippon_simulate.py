"""Simulate Nippon games and print figures: game length, VP, and how often each rule happens.

Used to check the reconstructed components (docs/nippon/DATA.md "Checked by simulation"). Two
policies: ``random`` (uniform over the legal actions) and ``steady`` (uniform, except that it
consolidates only with 5+ workers or when nothing else is legal and never stops a 1..3 action
early): the second is closer to how people play. Prints figures, asserts nothing.

    PYTHONPATH=. python scripts/nippon_simulate.py --games 50 [--json]
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from typing import Any

import numpy as np

from airships_env.games.nippon.engine import actions as A
from airships_env.games.nippon.engine import new_game
from airships_env.games.nippon.engine.data import NipponData, load_data
from airships_env.games.nippon.engine.model import RulesOptions
from airships_env.games.nippon.engine.state import Phase, State


def choose(state: State, policy: str, rng: np.random.Generator) -> int:
    """The policy's action."""
    legal = state.legal_actions()
    if policy == "steady":
        p = state.current
        if state.phase == Phase.TURN:
            takes = [a for a in legal if a < A.CONSOLIDATE]
            if takes and len(state.workers[p]) < 5:
                legal = takes
        elif len(legal) > 1 and A.STOP in legal and state.phase != Phase.FINISH:
            legal = [a for a in legal if a != A.STOP]
    return legal[int(rng.integers(len(legal)))]


def play(
    num_players: int,
    seed: int,
    policy: str,
    options: RulesOptions | None = None,
    data: NipponData | None = None,
) -> dict[str, Any]:
    """One game's figures."""
    s = new_game(num_players, seed, options=options, data=data)
    rng = np.random.default_rng(seed + 10_000)
    events: Counter[str] = Counter()
    while not s.is_terminal():
        a = choose(s, policy, rng)
        p = s.current
        before_vp = s.vp[p]
        owners = [row[:] for row in s.influence_owner]
        marker = s.marker
        if a == A.CONSOLIDATE:
            events["consolidations"] += 1
            events["workers_at_consolidation"] += len(s.workers[p])
            if not s.rewards_left and s.workers[p]:
                events["x2_after_rewards_gone"] += 1
        s.apply_action(a)
        if s.vp[p] < before_vp and s.marker == marker:
            events["unpaid_colour_penalties"] += 1
        if s.phase == Phase.TILE or A.TILE <= a < A.INVEST:
            captured = sum(
                1 for c in range(8) for i in range(4)
                if owners[c][i] >= 0 and owners[c][i] != s.influence_owner[c][i]
            )  # fmt: skip
            events["tiles_captured"] += captured
        if s.marker != marker:
            events["marker_steps"] += 1
        events["short_of_workers"] += int(sum(s.owed) > 0)
        if a < A.CONSOLIDATE:
            events["takes"] += 1
    events["factories_built"] = sum(1 for o in s.factory_owner if o >= 0)
    events["contracts_done"] = sum(map(sum, s.contracts_done))
    events["tiles_on_board"] = sum(1 for row in s.influence_owner for o in row if o >= 0)
    events["pieces"] = sum(s.trains_placed) + sum(s.ships_placed)
    events["rewards_taken"] = len(s.data.rewards_for(num_players)) - len(s.rewards_left)
    return {
        "turns_per_player": s.turn_count / num_players,
        "winner_vp": max(s.vp),
        "loser_vp": min(s.vp),
        "events": dict(events),
    }


def main() -> None:
    """Print the figures for 2, 3 and 4 players and both policies."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--data", help="a components file (default: the bundled one)")
    parser.add_argument(
        "--marker-trigger",
        choices=("column_empties", "space_empties"),
        default=RulesOptions().marker_trigger,
        help="the rules option T4a (default: the rules' default)",
    )
    args = parser.parse_args()
    options = RulesOptions(marker_trigger=args.marker_trigger)
    data = load_data(args.data) if args.data else None
    out: dict[str, Any] = {}
    for policy in ("random", "steady"):
        for n in (2, 3, 4):
            start = time.perf_counter()
            games = [play(n, seed, policy, options, data) for seed in range(args.games)]
            elapsed = time.perf_counter() - start
            turns = [g["turns_per_player"] for g in games]
            events: Counter[str] = Counter()
            for g in games:
                events.update(g["events"])
            row = {
                "turns_per_player_mean": round(float(np.mean(turns)), 1),
                "turns_per_player_min": min(turns),
                "turns_per_player_max": max(turns),
                "winner_vp_mean": round(float(np.mean([g["winner_vp"] for g in games])), 1),
                "loser_vp_mean": round(float(np.mean([g["loser_vp"] for g in games])), 1),
                "games_per_second": round(args.games / elapsed, 1),
                "per_game": {k: round(v / args.games, 2) for k, v in sorted(events.items())},
            }
            out[f"{policy}/{n}p"] = row
            if not args.json:
                print(
                    f"{policy} {n}p: "
                    + ", ".join(f"{k} {v}" for k, v in row.items() if k != "per_game")
                )
                print("   per game: " + ", ".join(f"{k} {v}" for k, v in row["per_game"].items()))
    if args.json:
        print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
