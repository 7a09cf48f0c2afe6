"""Train an ``az`` network's value head on its own search's root values, and say whether it helps.

The network (``--network``, default the one shipped for ``--players``: ``agents/models/az_2p.pt``)
plays ``--games`` games against itself, every move searched in the core with ``--sims``
simulations and heuristic rollouts (the ``--config`` file's ``search`` section; its first
``temperature_moves`` moves a seat sampled from the visits). Every decision with a choice gives a
sample: the acting seat's observation and, as its value target, the search's root value (the
visit-weighted mean result of the root's actions), far less noisy than the game's result. The
value head alone is then trained (trunk and policy head frozen, so the network plays exactly as
before without a search) in ``--steps`` minibatch steps at ``--lr``
(:func:`agents.az.train.warm_up_values`), a tenth of the games held out, and written to ``--out``.

Prints the held-out mean squared errors: the trained head's against the root values, before and
after, beside the best constant's; and against the games' results, beside the root values' own.
Use the network with ``az:path=OUT,rollout_weight=W`` (W < 1 mixes its values into the leaves)::

    python scripts/az_values.py [--network FILE] [--players 2] [--games 800] [--sims 200]
        [--steps 1500] [--lr 1e-3] [--seed 1] [--config configs/az_2p.yaml] --out FILE [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
import torch

from agents.az.config import load_config
from agents.az.network import bundled_network, load_network
from agents.az.train import warm_up_values

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    """Play, train, print the errors (one JSON line with --json) and write the network."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--network", default=None, help="an az network file")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--config", default=None, help="default: configs/az_<players>p.yaml")
    parser.add_argument("--games", type=int, default=800)
    parser.add_argument("--sims", type=int, default=200)
    parser.add_argument("--steps", type=int, default=1500)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True, help="where the network is written")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    # --games: every tenth game is held out, so at least one is
    for name, least in (("games", 10), ("sims", 2), ("steps", 1)):
        if getattr(args, name) < least:
            parser.error(f"--{name} must be at least {least}, got {getattr(args, name)}")
    if not args.lr > 0:
        parser.error(f"--lr must be above 0, got {args.lr}")
    source = args.network or bundled_network(args.players)
    if source is None:
        parser.error(f"no az network is shipped for {args.players} players: pass --network")
    net = load_network(source)
    if net.num_players != args.players:
        parser.error(f"{source} plays {net.num_players} players, not --players {args.players}")
    config_path = args.config or ROOT / "configs" / f"az_{args.players}p.yaml"
    config = load_config(config_path)
    config = config.replace(
        num_players=args.players,
        network=config.network.model_copy(
            update={
                "value_warmup_games": args.games,
                "value_warmup_steps": args.steps,
                "value_warmup_sims": args.sims,
            }
        ),
        learn=config.learn.model_copy(update={"learning_rate": args.lr}),
    )
    torch.set_num_threads(config.threads)
    from tqdm import tqdm

    with tqdm(total=args.games, unit="game", disable=args.no_progress) as bar:
        report = warm_up_values(net, config, np.random.default_rng(args.seed), bar.update)
    net.save(args.out)
    print(
        f"{source}: value head trained on {report['warmup/samples']:.0f} root values of "
        f"{args.sims}-simulation searches ({args.games} games, "
        f"{report['warmup/seconds']:.0f} s of play); "
        f"held out: {report['warmup/held_out_samples']:.0f} samples"
    )
    rows = (
        ("against the root values", ""),
        ("  the value head before", f"{report['warmup/error_before']:.4f}"),
        ("  the value head after", f"{report['warmup/error_after']:.4f}"),
        ("  the best constant", f"{report['warmup/error_constant']:.4f}"),
        ("against the games' results", ""),
        ("  the value head after", f"{report['warmup/error_after_to_results']:.4f}"),
        ("  the root values", f"{report['warmup/root_value_error_to_results']:.4f}"),
    )
    print(f"{'held-out mean squared error':<30}")
    for label, figure in rows:
        print(f"{label:<30}{figure:>8}")
    print(f"written: {args.out}")
    if args.json:
        print(json.dumps({"network": str(source), "out": args.out, **report}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
