"""Run a rated tournament from a YAML config: leaderboard, head-to-head matrix and plots (runs ``agents.cli.tournament.main``; also ``airships tournament``)."""

import sys
from pathlib import Path

# The repository root, so that `python scripts/NAME.py` finds `agents` and `airships_env`
# without an installed package (an installed one comes first).
sys.path.append(str(Path(__file__).resolve().parent.parent))

from agents.cli.tournament import main

if __name__ == "__main__":
    raise SystemExit(main())
