"""The main job (`make run`): the default tournament of the bundled agents.

Plays ``configs/tournament.yaml`` (random, greedy, heuristic, MCTS with a reduced budget, and the
trained policy once ``agents/models/ppo_2p.zip`` exists), prints the leaderboard with rating
uncertainty and the head-to-head matrix, and writes the plots. Finished games are kept in
``results/tournament/results.jsonl``: running it again resumes, and a run whose settings changed
(for example a trained policy appeared) starts over.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

# The repository root, so that `python scripts/NAME.py` finds `agents` and `airships_env`
# without an installed package (an installed one comes first).
sys.path.append(str(Path(__file__).resolve().parent.parent))

from agents.registry import AgentUnavailableError
from agents.tournament import load_config, print_report, run_tournament

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    """Run the default tournament and report it; returns the exit status."""
    os.chdir(ROOT)  # the config's paths (output, model files) are relative to the repository
    started = time.perf_counter()
    try:
        config = load_config(ROOT / "configs" / "tournament.yaml")
        try:
            result = run_tournament(config, progress=sys.stderr.isatty())
        except ValueError as exc:
            if "holds results of a different run" not in str(exc):
                raise
            print(f"note: {exc}\nnote: starting the tournament over", file=sys.stderr)
            result = run_tournament(config, progress=sys.stderr.isatty(), restart=True)
    except (ValueError, RuntimeError, AgentUnavailableError) as exc:
        print(f"run_main: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(
            "run_main: interrupted" + "; the finished games are saved: run again to resume",
            file=sys.stderr,
        )
        return 130
    print_report(result)
    print(f"done in {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
