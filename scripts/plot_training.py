"""Time to strength: win rate against wall time for training runs (runs ``agents.training.plots.main``)."""

from agents.training.plots import main

if __name__ == "__main__":
    raise SystemExit(main())
