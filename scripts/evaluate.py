"""Play a trained policy against chosen agents through the arena and report how it does (runs ``agents.cli.evaluate.main``; also ``airships evaluate``)."""

import sys
from pathlib import Path

# The repository root, so that `python scripts/NAME.py` finds `agents` and `airships_env`
# without an installed package (an installed one comes first).
sys.path.append(str(Path(__file__).resolve().parent.parent))

from agents.cli.evaluate import main

if __name__ == "__main__":
    raise SystemExit(main())
