"""Time to strength: win rate against wall time for training runs (runs ``agents.training.plots.main``)."""

import sys
from pathlib import Path

# The repository root, so that `python scripts/NAME.py` finds `agents` and `airships_env`
# without an installed package (an installed one comes first).
sys.path.append(str(Path(__file__).resolve().parent.parent))

from agents.training.plots import main

if __name__ == "__main__":
    raise SystemExit(main())
