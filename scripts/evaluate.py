"""Play a trained policy against chosen agents through the arena and report how it does (runs ``agents.cli.evaluate.main``; also ``airships evaluate``)."""

from agents.cli.evaluate import main

if __name__ == "__main__":
    raise SystemExit(main())
