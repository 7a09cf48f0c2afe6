"""Train a MaskablePPO policy by self-play against an opponent league (config in YAML) (runs ``agents.cli.train.main``; also ``airships train``)."""

import sys
from pathlib import Path

# The repository root, so that `python scripts/NAME.py` finds `agents` and `airships_env`
# without an installed package (an installed one comes first).
sys.path.append(str(Path(__file__).resolve().parent.parent))

from agents.cli.train import main

if __name__ == "__main__":
    raise SystemExit(main())
