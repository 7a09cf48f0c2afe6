"""Benchmarks: engine, environment and bot speed. Prints figures; asserts nothing (runs ``agents.cli.bench.main``; also ``airships bench``)."""

from agents.cli.bench import main

if __name__ == "__main__":
    raise SystemExit(main())
