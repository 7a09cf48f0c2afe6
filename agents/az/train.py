"""Expert iteration: self-play with search, learn the search's choices, keep what beats the best.

Before the first generation, with ``network.value_warmup_games`` > 0, the starting network's
value head alone learns from games the network plays against itself: their results, or with
``network.value_warmup_sims`` > 1 its search's root values (:func:`warm_up_values`; its held-out
errors in ``warmup.json``), so that a search can use its values from the start.
``scripts/az_values.py`` does the same for a finished network. Self-play searches run in the core (``search.engine: native``) or in the
Python tree (``python``).

One generation (``airships train --config configs/az_2p.yaml``):

1. self-play: ``games_per_generation`` games, every seat played by the best network's search
   (:mod:`agents.az.search`, Dirichlet noise at the root, a seat's first ``temperature_moves``
   moves sampled from the visits, then the most visited), ``parallel_games`` at a time with
   their leaves evaluated in one forward pass; each decision with a choice gives a sample: the
   observation, the legal mask, the visit distribution (policy target) and, when the game ends,
   every seat's result in the observation's relative order (value target);
2. learning: ``learn.steps_per_generation`` AdamW steps of the learner network on minibatches
   of the replay buffer (``learn.buffer_size`` latest samples): cross-entropy to the visits plus
   ``value_coef`` times the squared error of the values;
3. the gate: the learner plays the best network over ``arena.deals`` deals, each dealt once per
   seat of the learner (paired games, no noise, ``arena.sims`` simulations); the learner becomes
   the best network when its mean win share reaches ``arena.gate`` and, with
   ``arena.anchor_gate``, when it also scores at least the best network's share against the
   fixed anchor (the native heuristic) on the same ``arena.anchor_deals`` deals;
4. the curves: every ``arena.anchor_every`` generations (with ``arena.anchor_deals`` > 0) the
   best network's share against the anchor is logged as ``anchor/best``, and every
   ``arena.ismcts_every`` generations (with ``arena.ismcts_deals`` > 0) its share against the
   native ``ismcts`` at ``arena.ismcts_sims`` simulations as ``ismcts/best``, with the run's wall
   time.

Run directory ``<run.output_dir>/<run.name>/``::

    config.yaml                  the config the run was started with
    warmup.json                  the value warm-up's held-out errors (when it ran)
    state.json                   names the last complete checkpoint (written last)
    checkpoints/gen_N.pt         networks, optimizer, generator, history after generation N
    checkpoints/gen_N.buffer.npz the replay buffer after generation N
    best.pt                      the best network (``az:path=runs/az_2p/best.pt``)
    eval/evaluations.jsonl       the best network against the anchor and ismcts (plot_training.py)
    tb/                          TensorBoard scalars

Resume (``--resume``) reloads the last checkpoint and continues exactly as an uninterrupted run
would (every draw comes from the run's generator, saved with it; torch runs on ``threads``
threads, 1 by default). Every search runs on a simulation budget, never a time budget.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from agents.az.config import NETWORK_STARTS, AZConfig, dump_config, load_config
from agents.az.network import PolicyValueNet, bundled_ppo, from_ppo, load_network
from agents.az.search import (
    HEURISTIC_KIND,
    NativeSearch,
    PUCTSearch,
    SearchSettings,
    game_result,
    run_searches,
)
from agents.stats import wilson_interval
from agents.training.checkpoint import ResumeError
from agents.training.config import config_differences
from airships_env.configfile import ConfigError
from airships_env.engine import NUM_ACTIONS
from airships_env.native import NativeGame, require

STATE_FILE = "state.json"
CONFIG_FILE = "config.yaml"
BEST_FILE = "best.pt"
WARMUP_FILE = "warmup.json"
STATE_VERSION = 1
#: A seat of :func:`play_games` played by the native ``ismcts`` (``arena.ismcts_sims``).
ISMCTS_SEAT = "ismcts"
#: What sits in a seat: a network (its search), None (the anchor: the native heuristic) or
#: :data:`ISMCTS_SEAT`.
Seat = PolicyValueNet | str | None


class ReplayBuffer:
    """The latest ``capacity`` samples (a ring): observations, masks, visit targets, values."""

    def __init__(self, capacity: int, observation_size: int, num_players: int):
        self.capacity = capacity
        self.observations = np.zeros((capacity, observation_size), dtype=np.float32)
        self.masks = np.zeros((capacity, NUM_ACTIONS), dtype=bool)
        self.policies = np.zeros((capacity, NUM_ACTIONS), dtype=np.float32)
        self.values = np.zeros((capacity, num_players), dtype=np.float32)
        self.size = 0
        self.cursor = 0
        self.added = 0  # samples ever added

    def add(
        self, observation: np.ndarray, mask: np.ndarray, policy: np.ndarray, value: Any
    ) -> None:
        """Store one sample, over the oldest once full."""
        index = self.cursor
        self.observations[index] = observation
        self.masks[index] = mask
        self.policies[index] = policy
        self.values[index] = value
        self.cursor = (index + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)
        self.added += 1

    def sample(self, rng: np.random.Generator, count: int) -> tuple[np.ndarray, ...]:
        """``count`` samples drawn uniformly with replacement."""
        rows = rng.integers(0, self.size, size=count)
        return self.observations[rows], self.masks[rows], self.policies[rows], self.values[rows]

    def save(self, path: Path) -> None:
        """Write the filled part and the cursor, through a temporary file."""
        temporary = path.with_name(path.name + ".tmp.npz")
        np.savez(
            temporary,
            observations=self.observations[: self.size],
            masks=self.masks[: self.size],
            policies=self.policies[: self.size],
            values=self.values[: self.size],
            counters=np.array([self.size, self.cursor, self.added], dtype=np.int64),
        )
        os.replace(temporary, path)

    def load(self, path: Path) -> None:
        """Read what :meth:`save` wrote (the same capacity and shapes)."""
        with np.load(path) as data:
            size, cursor, added = (int(x) for x in data["counters"])
            if (
                size > self.capacity
                or data["observations"].shape[1:] != self.observations.shape[1:]
            ):
                raise ResumeError(f"{path}: the buffer does not fit this config's shapes")
            self.observations[:size] = data["observations"]
            self.masks[:size] = data["masks"]
            self.policies[:size] = data["policies"]
            self.values[:size] = data["values"]
        self.size, self.cursor, self.added = size, cursor, added


@dataclass
class Timer:
    """Seconds spent in network evaluations (forward passes) and how many leaves they answered."""

    seconds: float = 0.0
    leaves: int = 0
    passes: int = 0
    native_seconds: float = 0.0  # native searches, network evaluations included

    def wrap(self, net: PolicyValueNet) -> Any:
        """``net.predict`` that adds its time here."""

        def evaluate(observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            start = time.perf_counter()
            answer = net.predict(observations, masks)
            self.seconds += time.perf_counter() - start
            self.leaves += len(observations)
            self.passes += 1
            return answer

        return evaluate


@dataclass
class GamesResult:
    """Finished games: each seat's result per game, the samples, counts and times."""

    results: list[np.ndarray] = field(default_factory=list)  # every seat's result, by game
    shares: list[np.ndarray] = field(default_factory=list)  # every seat's win share, by game
    samples: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = field(
        default_factory=list
    )
    sample_games: list[int] = field(default_factory=list)  # each sample's game (index)
    sample_seats: list[int] = field(default_factory=list)  # each sample's acting seat
    # each sample's root value: the acting seat's result as its search found it
    # (:meth:`SearchCounts.root_value`; sims=1: the network's choice had no visits, NaN)
    sample_root_values: list[float] = field(default_factory=list)
    decisions: int = 0
    simulations: int = 0
    actions: int = 0
    seconds: float = 0.0


def play_games(
    seat_nets: Sequence[Sequence[Seat]],
    config: AZConfig,
    rng: np.random.Generator,
    *,
    sims: int,
    noise: bool,
    record: bool,
    timer: Timer,
    seeds: list[int] | None = None,
    progress: Callable[[int], None] | None = None,
) -> GamesResult:
    """Play one game per entry of ``seat_nets`` (the network of each seat; ``None``: the anchor,
    the native heuristic; :data:`ISMCTS_SEAT`: the native ``ismcts`` at ``arena.ismcts_sims``
    simulations, searching the public view), ``parallel_games`` side by side, every network
    decision with a choice searched; leaves of searches sharing a network are evaluated
    together. ``seeds``: each game's deal (default: drawn from ``rng`` first); the searches then
    draw from ``rng`` in a fixed order. ``progress``: called with 1 as each game ends."""
    start = time.perf_counter()
    n = config.num_players
    search = config.search
    settings = SearchSettings(
        c_puct=search.c_puct,
        batch=search.batch,
        dirichlet_alpha=search.dirichlet_alpha,
        dirichlet_fraction=search.dirichlet_fraction if noise else 0.0,
        rollout_weight=search.rollout_weight,
        margin_weight=search.margin_weight,
        fpu=search.fpu,
        worlds=search.worlds,
        luck=search.luck,
    )
    anchor = any(net is None for nets in seat_nets for net in nets)
    heuristic = None
    if search.rollout_weight > 0 or anchor or search.engine == "native":
        from airships_env.bot_config import HeuristicConfig

        heuristic = HeuristicConfig.load().native()
    networks = [net for nets in seat_nets for net in nets if isinstance(net, PolicyValueNet)]
    evaluators = {id(net): timer.wrap(net) for net in networks}
    natives: dict[int, object] = {}
    if search.engine == "native":  # the core's copies of this call's networks
        natives = {id(net): net.native() for net in networks}
    searcher = None
    if any(net == ISMCTS_SEAT for nets in seat_nets for net in nets):
        from agents.bots.ismcts import ISMCTSAgent

        searcher = ISMCTSAgent(sims=config.arena.ismcts_sims)
    out = GamesResult()
    obs_size = int(require().obs_size(n))
    if seeds is None:
        seeds = [int(seed) for seed in rng.integers(2**63, size=len(seat_nets))]
    if len(seeds) != len(seat_nets):
        raise ValueError("one seed per game")
    queue = list(range(len(seat_nets)))
    live: list[dict[str, Any]] = []
    finished: list[tuple[int, np.ndarray, np.ndarray]] = []
    while queue or live:
        while queue and len(live) < config.parallel_games:
            index = queue.pop(0)
            seed = seeds[index]
            live.append(
                {
                    "index": index,
                    "native": NativeGame.new(n, seed=seed),
                    "samples": [],
                    "moves": [0] * n,
                    "actions": 0,
                }
            )
        searches: list[PUCTSearch | NativeSearch] = []
        owners: list[dict[str, Any]] = []
        for entry in live:
            game = entry["game"] = entry["native"].handle
            nets = seat_nets[entry["index"]]
            legal = game.legal_actions()
            # No choice, or a bot's turn (the anchor or ismcts): no network search.
            while game.result() is None and (
                len(legal) == 1 or not isinstance(nets[game.current_player], PolicyValueNet)
            ):
                if len(legal) == 1:
                    action = legal[0]
                elif nets[game.current_player] is None:
                    action = game.bot_action(HEURISTIC_KIND, heuristic, legal)
                else:
                    assert searcher is not None
                    view = entry["native"].public_view()
                    action = searcher.search(view, int(rng.integers(2**63)))[0]
                game.apply(action, None)
                entry["actions"] += 1
                legal = game.legal_actions()
            if game.result() is not None or entry["actions"] >= config.max_actions:
                continue
            view = game.public_view()
            search_rng = np.random.default_rng(int(rng.integers(2**63)))
            if search.engine == "native":
                net = nets[game.current_player]
                assert isinstance(net, PolicyValueNet) and heuristic is not None
                started = time.perf_counter()
                searches.append(
                    NativeSearch(
                        view,
                        natives[id(net)],
                        settings,
                        search_rng,
                        heuristic,
                        sims=sims,
                        temperature=search.temperature,
                    )
                )
                timer.native_seconds += time.perf_counter() - started
                timer.leaves += searches[-1].counts.evaluations
            else:
                searches.append(
                    PUCTSearch(view, settings, search_rng, sims=sims, heuristic=heuristic)
                )
            owners.append(entry)
        if search.engine == "python":
            run_searches(
                [tree for tree in searches if isinstance(tree, PUCTSearch)],
                [evaluators[id(seat_nets[e["index"]][e["game"].current_player])] for e in owners],
            )
        for entry, tree in zip(owners, searches, strict=True):
            game = entry["game"]
            seat = int(game.current_player)
            out.decisions += 1
            out.simulations += tree.counts.simulations
            if record:
                observation = np.empty(obs_size, dtype=np.float32)
                game.observe(seat, observation)
                mask = np.zeros(NUM_ACTIONS, dtype=bool)
                mask[tree.legal] = True
                visits = tree.visit_counts()
                root_value = tree.summary().root_value()
                entry["samples"].append(
                    (
                        observation,
                        mask,
                        visits / visits.sum(),
                        seat,
                        math.nan if root_value is None else root_value,
                    )
                )
            early = entry["moves"][seat] < config.search.temperature_moves and noise
            action = tree.sample_action(1.0) if early else tree.best_action()
            entry["moves"][seat] += 1
            game.apply(action, None)
            entry["actions"] += 1
        still: list[dict[str, Any]] = []
        for entry in live:
            game = entry["game"]
            if game.result() is None and entry["actions"] < config.max_actions:
                still.append(entry)
                continue
            values = game_result(game, n, config.search.margin_weight)
            finished.append((entry["index"], values, game_result(game, n, 0.0)))
            if progress is not None:
                progress(1)
            out.actions += entry["actions"]
            for observation, mask, policy, seat, root_value in entry["samples"]:
                # The value target in the observation's order: the acting seat first.
                out.samples.append((observation, mask, policy, np.roll(values, -seat)))
                out.sample_games.append(entry["index"])
                out.sample_seats.append(seat)
                out.sample_root_values.append(root_value)
        live = still
    finished.sort(key=lambda item: item[0])
    out.results = [values for _index, values, _shares in finished]
    out.shares = [shares for _index, _values, shares in finished]
    out.seconds = time.perf_counter() - start
    return out


def learn(
    learner: PolicyValueNet,
    optimizer: torch.optim.Optimizer,
    buffer: ReplayBuffer,
    config: AZConfig,
    rng: np.random.Generator,
) -> tuple[float, float]:
    """``steps_per_generation`` minibatch steps; the mean policy and value losses."""
    learner.train()
    device = learner.policy_head.weight.device  # the CPU, or where .to() put the network
    policy_total = value_total = 0.0
    steps = config.learn.steps_per_generation
    for _ in range(steps):
        observations, masks, policies, values = (
            torch.from_numpy(part).to(device)
            for part in buffer.sample(rng, config.learn.batch_size)
        )
        logits, predicted = learner(observations, masks)
        log_probs = torch.log_softmax(logits, dim=1)
        policy_loss = -(policies * log_probs).sum(dim=1).mean()
        value_loss = ((predicted - values) ** 2).mean()
        loss = policy_loss + config.learn.value_coef * value_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        policy_total += policy_loss.item()
        value_total += value_loss.item()
    learner.eval()
    return policy_total / steps, value_total / steps


def value_targets(played: GamesResult, num_players: int) -> np.ndarray:
    """Value targets of ``played``'s samples from their searches, in the observation's order:
    the acting seat's is its search's root value (:meth:`SearchCounts.root_value`); at 2 players
    the other's is 1 minus it (the two results always sum to 1: the win shares do, and the
    margin terms cancel); at more players the other seats keep their game's results. A sample
    without a root value (one simulation) keeps its game's results."""
    targets = np.stack([sample[3] for sample in played.samples]).astype(np.float64)
    for row, root_value in enumerate(played.sample_root_values):
        if math.isnan(root_value):
            continue
        targets[row, 0] = root_value
        if num_players == 2:
            targets[row, 1] = 1.0 - root_value
    return targets


def fit_value_head(
    net: PolicyValueNet,
    observations: np.ndarray,
    targets: np.ndarray,
    held_out: np.ndarray,
    steps: int,
    config: AZConfig,
    rng: np.random.Generator,
) -> dict[str, float]:
    """Train ``net``'s value head alone (trunk and policy head untouched) toward ``targets``
    (one row per observation, the observation's order) in ``steps`` minibatch steps, the rows
    where ``held_out`` is True kept out; their mean squared error before, after, and for the
    best constant (the training targets' mean): the value head is worth using only below it."""
    inputs = torch.from_numpy(np.ascontiguousarray(observations, dtype=np.float32))
    goals = torch.from_numpy(np.ascontiguousarray(targets, dtype=np.float32))
    test = torch.from_numpy(np.asarray(held_out, dtype=bool))
    with torch.no_grad():
        features = net.features(inputs)
    train_x, train_y = features[~test], goals[~test]
    test_x, test_y = features[test], goals[test]

    def test_error() -> float:
        with torch.no_grad():
            return float(((net.values_of(test_x) - test_y) ** 2).mean())

    before = test_error()
    constant = float(((train_y.mean(dim=0) - test_y) ** 2).mean())
    parameters = [*net.value_layer.parameters(), *net.value_head.parameters()]
    optimizer = torch.optim.AdamW(
        parameters, lr=config.learn.learning_rate, weight_decay=config.learn.weight_decay
    )
    net.train()
    for _ in range(steps):
        rows = torch.from_numpy(rng.integers(len(train_x), size=config.learn.batch_size))
        loss = ((net.values_of(train_x[rows]) - train_y[rows]) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    net.eval()
    return {
        "warmup/samples": float(len(train_x)),
        "warmup/held_out_samples": float(len(test_x)),
        "warmup/error_before": before,
        "warmup/error_after": test_error(),
        "warmup/error_constant": constant,
    }


def warm_up_values(
    net: PolicyValueNet,
    config: AZConfig,
    rng: np.random.Generator,
    progress: Callable[[int], None] | None = None,
) -> dict[str, float]:
    """Train ``net``'s value head alone (:func:`fit_value_head`) on ``network.value_warmup_games``
    games of the network playing itself, in ``network.value_warmup_steps`` minibatch steps. With
    ``network.value_warmup_sims`` 1 each move is one forward pass (root noise for variety) and
    the targets are the games' results; with more, the network's search plays with that many
    simulations and the targets are its root values (:func:`value_targets`). A tenth of the
    games are held out; returns their errors (:func:`fit_value_head`) and the games; for
    searched games also the errors of the trained head and of the root values themselves
    against the held-out games' results. ``progress``: :func:`play_games`'s."""
    games = config.network.value_warmup_games
    sims = config.network.value_warmup_sims
    played = play_games(
        [[net] * config.num_players for _ in range(games)],
        config,
        rng,
        sims=sims,
        noise=True,
        record=True,
        timer=Timer(),
        progress=progress,
    )
    results = np.stack([sample[3] for sample in played.samples])
    targets = value_targets(played, config.num_players) if sims > 1 else results
    observations = np.stack([sample[0] for sample in played.samples])
    held_out = np.array(played.sample_games) % 10 == 9
    report = {
        "warmup/games": float(games),
        "warmup/sims": float(sims),
        **fit_value_head(
            net,
            observations,
            targets,
            held_out,
            config.network.value_warmup_steps,
            config,
            rng,
        ),
        "warmup/seconds": played.seconds,
    }
    if sims > 1:
        with torch.no_grad():
            values = net.values_of(net.features(torch.from_numpy(observations[held_out])))
        report["warmup/error_after_to_results"] = float(
            ((values.double().numpy() - results[held_out]) ** 2).mean()
        )
        report["warmup/root_value_error_to_results"] = float(
            ((targets[held_out] - results[held_out]) ** 2).mean()
        )
    return report


def arena(
    candidate: PolicyValueNet,
    best: PolicyValueNet,
    config: AZConfig,
    rng: np.random.Generator,
    timer: Timer,
) -> float:
    """The candidate's mean win share over ``arena.deals`` deals, each played once per seat of
    the candidate (the other seats: the best network)."""
    n = config.num_players
    lineup = [lambda own: [candidate if seat == own else best for seat in range(n)]]
    return paired_shares(lineup, config.arena.deals, config, rng, timer)[0]


def anchor_score(
    nets: list[PolicyValueNet],
    config: AZConfig,
    rng: np.random.Generator,
    timer: Timer,
) -> list[float]:
    """Each network's mean win share against the anchor (the native heuristic in every other
    seat) over the same ``arena.anchor_deals`` deals, each played once per seat of the network."""
    n = config.num_players
    lineups = [
        lambda own, net=net: [net if seat == own else None for seat in range(n)] for net in nets
    ]
    return paired_shares(lineups, config.arena.anchor_deals, config, rng, timer)


def ismcts_score(
    net: PolicyValueNet, config: AZConfig, rng: np.random.Generator, timer: Timer
) -> float:
    """The network's mean win share against the native ``ismcts`` (``arena.ismcts_sims``
    simulations a decision) in every other seat over ``arena.ismcts_deals`` deals, each played
    once per seat of the network."""
    n = config.num_players
    lineup = [lambda own: [net if seat == own else ISMCTS_SEAT for seat in range(n)]]
    return paired_shares(lineup, config.arena.ismcts_deals, config, rng, timer)[0]


def paired_shares(
    lineups: Sequence[Callable[[int], Sequence[Seat]]],
    deals: int,
    config: AZConfig,
    rng: np.random.Generator,
    timer: Timer,
) -> list[float]:
    """For each lineup (the seats' networks when the measured one sits at ``own``), the measured
    network's mean win share over ``deals`` deals drawn from ``rng``, each played once per seat
    (paired games); every lineup meets the same deals. No noise, ``arena.sims`` simulations."""
    n = config.num_players
    seeds = [int(seed) for seed in rng.integers(2**63, size=deals)]
    played = play_games(
        [lineup(own) for lineup in lineups for _seed in seeds for own in range(n)],
        config,
        rng,
        sims=config.arena.sims,
        noise=False,
        record=False,
        timer=timer,
        seeds=[seed for _lineup in lineups for seed in seeds for _own in range(n)],
    )
    per_lineup = deals * n
    return [
        float(np.mean([played.shares[k * per_lineup + i][i % n] for i in range(per_lineup)]))
        for k in range(len(lineups))
    ]


# -- the run -------------------------------------------------------------------------------------
@dataclass
class RunState:
    """Everything a checkpoint holds besides the buffer."""

    generation: int
    best: PolicyValueNet
    learner: PolicyValueNet
    optimizer: torch.optim.Optimizer
    rng: np.random.Generator
    history: list[dict[str, float]]
    wall_seconds: float = 0.0


@dataclass
class TrainResult:
    """What a call of :func:`train` did."""

    generations: int
    accepted: int
    best: Path
    seconds: float
    interrupted: bool = False
    history: list[dict[str, float]] = field(default_factory=list)


def initial_network(config: AZConfig, rng: np.random.Generator) -> PolicyValueNet:
    """The run's first network: the bundled PPO policy's trunk and head, from scratch, or a
    network file's (its table size must be the run's)."""
    net_config = config.network
    if net_config.init not in NETWORK_STARTS:
        net = load_network(net_config.init)
        if net.num_players != config.num_players:
            raise ConfigError(
                f"{config.source}: network.init: {net_config.init} is a network for "
                f"{net.num_players} players, the run has num_players {config.num_players}"
            )
    elif net_config.init == "ppo":
        net, _copied = from_ppo(
            bundled_ppo(config.num_players), config.num_players, net_config.value_hidden, rng
        )
    else:
        net = PolicyValueNet(
            config.num_players, tuple(net_config.hidden), net_config.value_hidden, rng
        )
    net.eval()
    return net


def _optimizer(net: PolicyValueNet, config: AZConfig) -> torch.optim.Optimizer:
    return torch.optim.AdamW(
        net.parameters(), lr=config.learn.learning_rate, weight_decay=config.learn.weight_decay
    )


def _save_checkpoint(directory: Path, state: RunState, buffer: ReplayBuffer, keep: int) -> None:
    """Checkpoint files first, ``state.json`` last (through renames)."""
    checkpoints = directory / "checkpoints"
    checkpoints.mkdir(parents=True, exist_ok=True)
    name = f"gen_{state.generation:05d}"
    data = {
        "generation": state.generation,
        "best": state.best.state_dict(),
        "learner": state.learner.state_dict(),
        "optimizer": state.optimizer.state_dict(),
        "rng": json.dumps(state.rng.bit_generator.state),
        "history": json.dumps(state.history),
        "wall_seconds": state.wall_seconds,
    }
    temporary = checkpoints / f"{name}.pt.tmp"
    torch.save(data, temporary)
    os.replace(temporary, checkpoints / f"{name}.pt")
    buffer.save(checkpoints / f"{name}.buffer.npz")
    state.best.save(directory / BEST_FILE)
    record = {"version": STATE_VERSION, "generation": state.generation, "checkpoint": name}
    temporary = directory / (STATE_FILE + ".tmp")
    temporary.write_text(json.dumps(record), encoding="utf-8")
    os.replace(temporary, directory / STATE_FILE)
    for old in sorted(checkpoints.glob("gen_*.pt"))[:-keep]:
        old.unlink()
        old.with_name(old.name[: -len(".pt")] + ".buffer.npz").unlink(missing_ok=True)


def _load_checkpoint(
    directory: Path, config: AZConfig, state: RunState, buffer: ReplayBuffer
) -> None:
    path = directory / STATE_FILE
    record = json.loads(path.read_text(encoding="utf-8"))
    if record.get("version") != STATE_VERSION:
        raise ResumeError(f"{path}: version {record.get('version')!r} is not supported")
    name = record["checkpoint"]
    data = torch.load(directory / "checkpoints" / f"{name}.pt", weights_only=True)
    state.generation = int(data["generation"])
    state.best.load_state_dict(data["best"])
    state.learner.load_state_dict(data["learner"])
    state.optimizer.load_state_dict(data["optimizer"])
    state.rng.bit_generator.state = json.loads(data["rng"])
    state.history = json.loads(data["history"])
    state.wall_seconds = float(data["wall_seconds"])
    buffer.load(directory / "checkpoints" / f"{name}.buffer.npz")


def _prepare(config: AZConfig, directory: Path, resume: bool) -> bool:
    """Check the run directory against ``resume``; True when a checkpoint is to be loaded."""
    saved = directory / CONFIG_FILE
    if not resume:
        if (directory / STATE_FILE).exists():
            raise ResumeError(
                f"{directory} already holds a run; pass --resume to continue it or choose "
                f"another run.name"
            )
        directory.mkdir(parents=True, exist_ok=True)
        dump_config(config, saved)
        return False
    if not (directory / STATE_FILE).exists():
        raise ResumeError(f"{directory}: nothing to resume (no {STATE_FILE})")
    old = load_config(saved)
    if old.fingerprint() != config.fingerprint():
        changes = config_differences(old.to_dict(), config.to_dict())
        changes = [line for line in changes if not line.startswith("generations:")]
        raise ResumeError(
            f"{config.source} differs from the run's {saved} in keys a resume may not change: "
            + "; ".join(changes)
        )
    dump_config(config, saved)
    return True


def train(
    config: AZConfig, resume: bool = False, run_dir: str | os.PathLike[str] | None = None
) -> TrainResult:
    """Run (or continue) expert iteration until ``config.generations``; see the module."""
    directory = Path(run_dir) if run_dir is not None else config.run_dir()
    load = _prepare(config, directory, resume)
    torch.set_num_threads(config.threads)
    rng = np.random.default_rng(config.seed)
    best = initial_network(config, rng)
    if not load and config.network.value_warmup_games:
        warmup = warm_up_values(best, config, rng)
        (directory / WARMUP_FILE).write_text(json.dumps(warmup, indent=1), encoding="utf-8")
    learner = best.copy()
    state = RunState(0, best, learner, _optimizer(learner, config), rng, [])
    buffer = ReplayBuffer(config.learn.buffer_size, best.observation_size, config.num_players)
    if load:
        _load_checkpoint(directory, config, state, buffer)
    writer = None
    if config.tensorboard:
        from torch.utils.tensorboard import SummaryWriter

        writer = SummaryWriter(str(directory / "tb"), purge_step=state.generation + 1)
    started = time.perf_counter()
    session_start = state.wall_seconds
    interrupted = False
    try:
        while state.generation < config.generations:
            metrics = generation(state, buffer, config)
            state.wall_seconds = session_start + time.perf_counter() - started
            metrics["wall_seconds"] = state.wall_seconds
            state.history.append(metrics)
            if writer is not None:
                for key, value in metrics.items():
                    writer.add_scalar(key, value, state.generation)
                writer.flush()
            _save_checkpoint(directory, state, buffer, config.checkpoint.keep_last)
            write_curve(directory, state.history, config)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if writer is not None:
            writer.close()
    if not (directory / BEST_FILE).exists():
        state.best.save(directory / BEST_FILE)
    return TrainResult(
        generations=state.generation,
        accepted=int(sum(m["arena/accepted"] for m in state.history)),
        best=directory / BEST_FILE,
        seconds=time.perf_counter() - started,
        interrupted=interrupted,
        history=state.history,
    )


def generation(state: RunState, buffer: ReplayBuffer, config: AZConfig) -> dict[str, float]:
    """Self-play, learning and the gate of one generation; its scalars (TensorBoard keys)."""
    n = config.num_players
    timer = Timer()
    played = play_games(
        [[state.best] * n for _ in range(config.games_per_generation)],
        config,
        state.rng,
        sims=config.search.sims,
        noise=True,
        record=True,
        timer=timer,
    )
    for sample in played.samples:
        buffer.add(*sample)
    start = time.perf_counter()
    policy_loss, value_loss = learn(state.learner, state.optimizer, buffer, config, state.rng)
    learn_seconds = time.perf_counter() - start
    candidate = state.learner.copy()
    candidate.eval()
    arena_timer = Timer()
    start = time.perf_counter()
    score = arena(candidate, state.best, config, state.rng, arena_timer)
    accepted = score >= config.arena.gate
    anchors: dict[str, float] = {}
    settings = config.arena
    if accepted and settings.anchor_gate:
        candidate_share, best_share = anchor_score(
            [candidate, state.best], config, state.rng, arena_timer
        )
        accepted = candidate_share >= best_share
        anchors["anchor/candidate"] = candidate_share
        anchors["anchor/best"] = candidate_share if accepted else best_share
    if accepted:
        state.best = candidate
    curve_due = (state.generation + 1) % settings.anchor_every == 0
    if settings.anchor_deals and curve_due and "anchor/best" not in anchors:
        anchors["anchor/best"] = anchor_score([state.best], config, state.rng, arena_timer)[0]
    if settings.ismcts_deals and (state.generation + 1) % settings.ismcts_every == 0:
        anchors["ismcts/best"] = ismcts_score(state.best, config, state.rng, arena_timer)
    arena_seconds = time.perf_counter() - start
    state.generation += 1
    search_seconds = played.seconds - timer.seconds
    total = played.seconds + learn_seconds
    if config.search.engine == "native":  # the network runs inside the core's searches
        evaluation = {
            "speed/evaluations_per_s": timer.leaves / max(1e-9, timer.native_seconds),
            "speed/leaves_per_pass": 1.0,
        }
    else:
        evaluation = {
            "speed/evaluations_per_s": timer.leaves / max(1e-9, timer.seconds),
            "speed/leaves_per_pass": timer.leaves / max(1, timer.passes),
            "share/evaluation": timer.seconds / max(1e-9, total),
        }
    return {
        "selfplay/games": float(len(played.results)),
        "selfplay/decisions": float(played.decisions),
        "selfplay/actions_per_game": played.actions / max(1, len(played.results)),
        "buffer/size": float(buffer.size),
        "loss/policy": policy_loss,
        "loss/value": value_loss,
        "arena/score": score,
        "arena/accepted": float(accepted),
        **anchors,
        "speed/simulations_per_s": played.simulations / max(1e-9, played.seconds),
        **evaluation,
        "time/selfplay_s": played.seconds,
        "time/learn_s": learn_seconds,
        "time/arena_s": arena_seconds,
        "share/search": search_seconds / max(1e-9, total),
        "share/learning": learn_seconds / max(1e-9, total),
    }


def write_curve(directory: Path, history: list[dict[str, float]], config: AZConfig) -> None:
    """``eval/evaluations.jsonl``: the best network against the anchor (``heuristic``) and
    against ``ismcts``, one row per measured generation and opponent with the run's wall time,
    in the rows PPO runs write, so that ``scripts/plot_training.py runs/az_2p --opponent
    heuristic`` (or ``ismcts``) draws the curve. Rewritten from the checkpoint's history, so a
    resumed run's file matches an uninterrupted run's."""
    curves = (
        ("anchor/best", "heuristic", config.arena.anchor_deals * config.num_players),
        ("ismcts/best", ISMCTS_SEAT, config.arena.ismcts_deals * config.num_players),
    )
    rows = []
    for generation_number, metrics in enumerate(history, start=1):
        for key, opponent, games in curves:
            if key not in metrics:
                continue
            share = metrics[key]
            low, high = wilson_interval(share * games, games)
            rows.append(
                {
                    "step": generation_number,
                    "opponent": opponent,
                    "games": games,
                    "win_rate": share,
                    "ci_low": low,
                    "ci_high": high,
                    "wall_seconds": metrics["wall_seconds"],
                }
            )
    if rows:
        path = directory / "eval" / "evaluations.jsonl"
        path.parent.mkdir(exist_ok=True)
        text = "".join(json.dumps(row) + "\n" for row in rows)
        partial = path.with_suffix(".tmp")
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)


def load_best(run_dir: str | os.PathLike[str]) -> PolicyValueNet:
    """The best network of a run directory."""
    return load_network(Path(run_dir) / BEST_FILE)
