"""Play seeded, seat-rotated games between agents and report win rates with Wilson intervals (runs ``agents.cli.arena.main``; also ``airships arena``)."""

import sys
from pathlib import Path

# The repository root, so that `python scripts/NAME.py` finds `agents` and `airships_env`
# without an installed package (an installed one comes first).
sys.path.append(str(Path(__file__).resolve().parent.parent))

from agents.cli.arena import main

if __name__ == "__main__":
    raise SystemExit(main())
