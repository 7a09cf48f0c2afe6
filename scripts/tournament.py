"""Run a rated tournament from a YAML config: leaderboard, head-to-head matrix and plots (runs ``agents.cli.tournament.main``; also ``airships tournament``)."""

from agents.cli.tournament import main

if __name__ == "__main__":
    raise SystemExit(main())
