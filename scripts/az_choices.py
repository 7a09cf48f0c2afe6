"""How often a variant of the ``az`` search chooses what a long search chooses: a low-noise screen.

A 2-player game against ``ismcts`` has a standard error of about 3.4 points over 200 games, so
games cannot tell search variants a few points apart in a session. This script asks a narrower
question of the same decisions for every variant: positions of seeded heuristic games (2
players, a choice of at least 3 actions), a reference for each from two searches of
``--reference-sims`` simulations (the defaults, fresh worlds, two seeds; their visits and means
pooled), then each variant's search at ``--sims`` simulations with ``--seeds`` seeds. For each
variant it prints:

- ``agree``: the share of its choices equal to the reference's most visited action;
- ``loss``: the reference's mean of its most visited action minus the reference's mean of the
  chosen one (an action the reference never visited counts at the reference's worst mean; a
  choice the reference rates above its own can make it negative);

each with its standard error over the positions and seeds. The reference is itself a search
with the defaults, so a variant that changes what the search converges to (not only how fast)
is judged against the defaults' answer; treat such a variant's figures with care. A variant is a
comma-separated list of ``az`` options (``worlds=paired,c=1.0``; ``default`` for none). Figures
only, no assertions::

    python scripts/az_choices.py [--positions 150] [--reference-sims 4000] [--sims 400]
        [--seeds 4] [--path FILE.pt] [--json] [VARIANT ...]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from agents.az.agent import AZAgent
from agents.registry import make_agent
from airships_env.native import NativeGame


def positions(count: int, seed: int, heuristic: tuple[Any, ...]) -> list[NativeGame]:
    """``count`` public views with at least 3 legal actions from seeded heuristic games (about
    one decision in twelve kept, spread over the games' course)."""
    rng = np.random.default_rng(seed)
    views: list[NativeGame] = []
    while len(views) < count:
        game = NativeGame.new(2, seed=int(rng.integers(2**31)))
        while not game.is_terminal() and len(views) < count:
            legal = game.legal_actions()
            if len(legal) >= 3 and rng.random() < 1 / 12:
                views.append(game.public_view())
            game.apply_action(game.bot_action(3, heuristic, legal))
    return views


def make(sims: int, path: str | None, variant: str) -> AZAgent:
    """The ``az`` agent of a variant (``default``: no options), made from its spec."""
    spec = f"az:sims={sims}" + (f",path={path}" if path else "")
    agent = make_agent(spec if variant == "default" else f"{spec},{variant}")
    assert isinstance(agent, AZAgent)
    agent.reset(0, 2, np.random.default_rng(0))
    return agent


def search(agent: AZAgent, view: NativeGame, seed: int) -> tuple[int, dict[int, tuple[int, float]]]:
    """The agent's choice for ``view`` and its root's {action: (visits, mean)}."""
    action = agent.native_search(view.handle, np.random.default_rng(seed))
    assert agent.last_counts is not None
    return action, {a: (visits, mean) for a, visits, mean in agent.last_counts.root}


def mean_and_error(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    spread = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(spread / n)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("variants", nargs="*", default=["default", "worlds=paired"])
    parser.add_argument("--positions", type=int, default=150)
    parser.add_argument("--reference-sims", type=int, default=4000)
    parser.add_argument("--sims", type=int, default=400)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--seed", type=int, default=11, help="the positions' games")
    parser.add_argument("--path", default=None, help="an az network file (default: shipped)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    for name in ("positions", "reference_sims", "sims", "seeds"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    try:
        agents = {v: make(args.sims, args.path, v) for v in args.variants}
        reference = make(args.reference_sims, args.path, "default")
    except (ValueError, TypeError, OSError) as error:
        parser.error(str(error))
    from tqdm import tqdm

    views = positions(args.positions, args.seed, reference._heuristic)
    references = []
    for index, view in enumerate(tqdm(views, desc="reference", disable=args.no_progress)):
        pooled: dict[int, tuple[int, float]] = {}
        for seed in (2 * index, 2 * index + 1):
            for action, (visits, mean) in search(reference, view, 10**6 + seed)[1].items():
                seen, total = pooled.get(action, (0, 0.0))
                pooled[action] = (seen + visits, total + visits * mean)
        means = {a: total / seen for a, (seen, total) in pooled.items() if seen}
        best = max(pooled, key=lambda a: pooled[a][0])
        references.append((best, means))
    rows = []
    for variant, agent in agents.items():
        agree: list[float] = []
        loss: list[float] = []
        runs = [(i, k) for i in range(len(views)) for k in range(args.seeds)]
        for index, k in tqdm(runs, desc=variant, disable=args.no_progress):
            best, means = references[index]
            action, _root = search(agent, views[index], 10**7 * (k + 1) + index)
            agree.append(float(action == best))
            loss.append(means[best] - means.get(action, min(means.values())))
        (share, share_error), (lost, lost_error) = mean_and_error(agree), mean_and_error(loss)
        rows.append(
            {
                "variant": variant,
                "agree": share,
                "agree_error": share_error,
                "loss": lost,
                "loss_error": lost_error,
            }
        )
    print(
        f"{len(views)} positions, reference {args.reference_sims} simulations x 2, "
        f"variants {args.sims} simulations x {args.seeds} seeds"
    )
    width = max(len(row["variant"]) for row in rows)
    print(f"{'variant':<{width}}  {'agree':>13}  {'loss':>15}")
    for row in rows:
        print(
            f"{row['variant']:<{width}}  {row['agree']:.3f} ± {row['agree_error']:.3f}"
            f"  {row['loss']:.4f} ± {row['loss_error']:.4f}"
        )
    if args.json:
        print(
            json.dumps(
                {
                    "positions": len(views),
                    "reference_sims": args.reference_sims,
                    "sims": args.sims,
                    "seeds": args.seeds,
                    "variants": rows,
                }
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
