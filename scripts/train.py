"""Train a MaskablePPO policy by self-play against an opponent league (config in YAML) (runs ``agents.cli.train.main``; also ``airships train``)."""

from agents.cli.train import main

if __name__ == "__main__":
    raise SystemExit(main())
