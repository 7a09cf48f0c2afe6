"""Play seeded, seat-rotated games between agents and report win rates with Wilson intervals (runs ``agents.cli.arena.main``; also ``airships arena``)."""

from agents.cli.arena import main

if __name__ == "__main__":
    raise SystemExit(main())
