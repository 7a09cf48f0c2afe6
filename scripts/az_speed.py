"""Speed of the network-guided search (``az``) beside the native search (``ismcts``), same run.

Both search the same decisions: mid-game states of seeded heuristic games (2 players) whose
player to act has a choice, with the same simulation budget. Prints, for each:

- ``ismcts``: simulations per second (the C search, heuristic rollouts);
- ``az`` in the core (``engine=native``: the generic search's net mode, the network evaluated in
  C one leaf at a time), with network values only and with heuristic rollouts mixed in:
  simulations and network evaluations per second;
- ``az``, one search at a time (leaves of ``--batch`` simulations per forward pass, virtual
  loss): simulations per second, network evaluations per second (leaves / time in the forward
  pass) and the share of the time spent in the forward pass;
- ``az``, ``--side-by-side`` searches run together (self-play's batching: every search's leaves
  in one forward pass);
- the network alone: evaluations per second at batch sizes 1, 8, 64, 256 and 1024 through
  torch, and one at a time in C (``net_forward``, a Python call each);
- learning: minibatch steps per second of expert iteration's update (``agents.az.train.learn``)
  at ``--learn-batch``.

The network is the bundled ``ppo_2p``'s trunk and policy head (``--path`` for another). torch
runs on one thread; ``--device cuda`` puts the network (evaluation and learning) on a GPU, the
searches stay on the CPU. Figures only, no assertions; compare figures from one run only::

    python scripts/az_speed.py [--decisions 8] [--sims 200] [--batch 8] [--side-by-side 16]
        [--device cpu|cuda] [--learn-batch 256] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
import torch

from agents.az.config import AZConfig
from agents.az.network import PolicyValueNet, bundled_ppo, from_ppo, load_network
from agents.az.search import NativeSearch, PUCTSearch, SearchSettings, run_searches
from agents.az.train import ReplayBuffer, learn
from agents.bots.ismcts import ISMCTSAgent
from airships_env.bot_config import HeuristicConfig
from airships_env.engine import NUM_ACTIONS
from airships_env.native import NativeGame


def decisions(count: int, num_players: int = 2) -> list[NativeGame]:
    """``count`` public views with a choice, spread over the game's course."""
    heuristic = HeuristicConfig.load().native()
    views: list[NativeGame] = []
    seed = 0
    while len(views) < count:
        game = NativeGame.new(num_players, seed=2000 + seed)
        stop = 8 + (seed * 7) % 40
        step = 0
        while not game.is_terminal():
            legal = game.legal_actions()
            if step >= stop and len(legal) > 1:
                views.append(game.public_view())
                break
            game.apply_action(game.bot_action(3, heuristic, legal))
            step += 1
        seed += 1
    return views


class TimedNet:
    """``predict`` that counts its leaves, passes and seconds."""

    def __init__(self, net: PolicyValueNet):
        self.net = net
        self.seconds = 0.0
        self.leaves = 0
        self.passes = 0

    def __call__(self, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, ...]:
        start = time.perf_counter()
        answer = self.net.predict(observations, masks)
        self.seconds += time.perf_counter() - start
        self.leaves += len(observations)
        self.passes += 1
        return answer


def ismcts_rate(views: list[NativeGame], sims: int) -> float:
    """Simulations per second of the native search."""
    bot = ISMCTSAgent(sims=sims)
    total = simulations = 0.0
    for index, view in enumerate(views):
        start = time.perf_counter()
        _action, stats = bot.search(view, seed=index)
        total += time.perf_counter() - start
        simulations += stats.simulations
    return simulations / total


def az_rates(
    views: list[NativeGame], net: PolicyValueNet, sims: int, batch: int, together: int
) -> dict[str, float]:
    """az's simulations/s and evaluations/s, ``together`` searches side by side (1: alone)."""
    settings = SearchSettings(batch=batch)
    timed = TimedNet(net)
    simulations = 0
    start = time.perf_counter()
    for first in range(0, len(views), together):
        group = views[first : first + together]
        searches = [
            PUCTSearch(view.handle, settings, np.random.default_rng(first + i), sims=sims)
            for i, view in enumerate(group)
        ]
        run_searches(searches, [timed] * len(searches))
        simulations += sum(search.counts.simulations for search in searches)
    total = time.perf_counter() - start
    return {
        "simulations_per_s": simulations / total,
        "evaluations_per_s": timed.leaves / max(1e-9, timed.seconds),
        "leaves_per_pass": timed.leaves / max(1, timed.passes),
        "evaluation_share": timed.seconds / total,
    }


def native_az_rates(
    views: list[NativeGame], net: PolicyValueNet, sims: int, rollout_weight: float
) -> dict[str, float]:
    """The core's az: simulations/s and network evaluations/s (whole searches timed)."""
    settings = SearchSettings(rollout_weight=rollout_weight)
    heuristic = HeuristicConfig.load().native()
    native = net.native()
    simulations = evaluations = 0
    start = time.perf_counter()
    for index, view in enumerate(views):
        rng = np.random.default_rng(index)
        search = NativeSearch(view.handle, native, settings, rng, heuristic, sims=sims)
        simulations += search.counts.simulations
        evaluations += search.counts.evaluations
    total = time.perf_counter() - start
    return {"simulations_per_s": simulations / total, "evaluations_per_s": evaluations / total}


def c_network_rate(net: PolicyValueNet, seconds: float) -> float:
    """Evaluations per second of the C forward pass, one observation a call."""
    from airships_env.native import require

    view = decisions(1)[0]
    game = view.determinize(np.random.default_rng(0))
    observation = game.observe(game.current_player).astype(np.float32).tobytes()
    native, forward = net.native(), require().net_forward
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            forward(native, observation)
        calls += 100
    return calls / (time.perf_counter() - start)


def network_rates(net: PolicyValueNet, sizes: tuple[int, ...], seconds: float) -> dict[int, float]:
    """Evaluations per second of one forward pass at each batch size."""
    view = decisions(1)[0]
    game = view.determinize(np.random.default_rng(0))
    observation = game.observe(game.current_player)
    mask = np.zeros(NUM_ACTIONS, dtype=bool)
    mask[game.legal_actions()] = True
    rates: dict[int, float] = {}
    for size in sizes:
        observations = np.repeat(observation[None], size, axis=0)
        masks = np.repeat(mask[None], size, axis=0)
        net.predict(observations, masks)
        passes = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            net.predict(observations, masks)
            passes += 1
        rates[size] = passes * size / (time.perf_counter() - start)
    return rates


def learn_rate(net: PolicyValueNet, batch: int, seconds: float) -> float:
    """Minibatch steps per second of expert iteration's update on a full buffer of samples."""
    rng = np.random.default_rng(0)
    buffer = ReplayBuffer(4096, net.observation_size, net.num_players)
    for _ in range(buffer.capacity):
        mask = rng.random(NUM_ACTIONS) < 0.2
        mask[0] = True
        policy = mask / mask.sum()
        observation = (rng.random(net.observation_size) < 0.1).astype(np.float32)
        buffer.add(observation, mask, policy, rng.uniform(-1, 1, net.num_players))
    config = AZConfig.model_validate({"learn": {"batch_size": batch, "steps_per_generation": 5}})
    optimizer = torch.optim.AdamW(net.parameters(), lr=1e-4)
    learn(net, optimizer, buffer, config, rng)  # warm-up (kernels, allocator)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        learn(net, optimizer, buffer, config, rng)
        steps += 5
    return steps / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    """Print the figures (and one JSON line with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=8)
    parser.add_argument("--sims", type=int, default=200)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--side-by-side", type=int, default=16)
    parser.add_argument("--path", default=None, help="an az network file (default: ppo_2p init)")
    parser.add_argument("--device", default="cpu", help="torch device of the network (cuda: GPU)")
    parser.add_argument("--learn-batch", type=int, default=256)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    net = load_network(args.path) if args.path else from_ppo(bundled_ppo(2), 2)[0]
    net.to(args.device)
    views = decisions(args.decisions)
    figures: dict[str, Any] = {
        "decisions": len(views),
        "sims": args.sims,
        "batch": args.batch,
        "device": str(net.policy_head.weight.device),
    }
    figures["ismcts_simulations_per_s"] = ismcts_rate(views, args.sims)
    for weight in (0.0, 1.0):
        rates = native_az_rates(views, net.cpu(), args.sims, weight)
        figures.update({f"az_native_rollout{weight:g}_{key}": v for key, v in rates.items()})
    net.to(args.device)
    alone = az_rates(views, net, args.sims, args.batch, 1)
    # Side by side: the same decisions repeated so that every group is full.
    many = views * max(1, args.side_by_side // len(views))
    together = az_rates(many, net, args.sims, args.batch, args.side_by_side)
    figures.update({f"az_{key}": value for key, value in alone.items()})
    figures.update({f"az_side_by_side_{key}": value for key, value in together.items()})
    figures["network_evaluations_per_s"] = network_rates(net, (1, 8, 64, 256, 1024), 1.0)
    figures["c_network_evaluations_per_s"] = c_network_rate(net.cpu(), 1.0)
    net.to(args.device)
    figures["learn_batch"] = args.learn_batch
    figures["learn_steps_per_s"] = learn_rate(net, args.learn_batch, 3.0)
    print(
        f"{len(views)} decisions, {args.sims} simulations each, 2 players, torch on 1 thread, "
        f"network on {figures['device']}"
    )
    print(f"ismcts (C, heuristic rollouts)   {figures['ismcts_simulations_per_s']:10.0f} sims/s")
    for weight, label in ((0, "network values "), (1, "heuristic rollouts")):
        print(
            f"az in C, {label}     {figures[f'az_native_rollout{weight}_simulations_per_s']:10.0f} "
            f"sims/s  {figures[f'az_native_rollout{weight}_evaluations_per_s']:8.0f} evals/s"
        )
    print(
        f"az, one search (batch {args.batch:3d})      {alone['simulations_per_s']:10.0f} sims/s  "
        f"{alone['evaluations_per_s']:8.0f} evals/s  {alone['leaves_per_pass']:5.1f} leaves/pass  "
        f"{alone['evaluation_share']:5.0%} in the network"
    )
    print(
        f"az, {args.side_by_side:3d} searches side by side  {together['simulations_per_s']:10.0f} "
        f"sims/s  {together['evaluations_per_s']:8.0f} evals/s  "
        f"{together['leaves_per_pass']:5.1f} leaves/pass  "
        f"{together['evaluation_share']:5.0%} in the network"
    )
    for size, rate in figures["network_evaluations_per_s"].items():
        print(f"network alone, batch {size:4d}       {rate:10.0f} evals/s")
    print(f"network alone in C, one a call  {figures['c_network_evaluations_per_s']:10.0f} evals/s")
    print(
        f"learning, batch {args.learn_batch:4d}            {figures['learn_steps_per_s']:10.1f} "
        f"steps/s ({figures['learn_steps_per_s'] * args.learn_batch:.0f} samples/s)"
    )
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
