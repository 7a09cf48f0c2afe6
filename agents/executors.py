"""Where and how the arena's games are played: one game in Python, a pool of worker processes,
or whole bot-only games in the native core.

Agents are given a :class:`~airships_env.policy.Decision` only (public view, no generator), are
``reset`` before each game, and must not carry anything from one game to the next (a worker
reuses its agent objects across games). An exception raised by an agent, an illegal action or a
game that does not end becomes an *error record* naming the agent, seat and seed; the run goes
on. The agent is rebuilt after an error.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
import traceback
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from agents.registry import make_agent
from agents.schedule import GameSpec, agent_rng
from agents.workers import die_with_parent, single_threaded_workers
from airships_env.engine import GameLog, GameState, new_game
from airships_env.engine.actions import as_action_index
from airships_env.engine.rules import airship_count
from airships_env.policy import Decision, Policy

#: A game longer than this many actions is stopped and recorded as an error (a random 4-player
#: game takes about 200).
MAX_STEPS = 20_000


# ---------------------------------------------------------------------------------------------
# Playing one game
# ---------------------------------------------------------------------------------------------
class AgentFailure(Exception):
    """An agent raised, returned an illegal action, or the game did not end."""

    def __init__(self, kind: str, seat: int | None, message: str, trace: str = ""):
        super().__init__(message)
        self.kind = kind
        self.seat = seat
        self.message = message
        self.trace = trace


def _trace_summary(exc: BaseException, frames: int = 4) -> str:
    """The exception line and its last few frames, for an error record."""
    summary = traceback.extract_tb(exc.__traceback__)[-frames:]
    where = "".join(traceback.format_list(summary))
    return where + "".join(traceback.format_exception_only(type(exc), exc)).strip()


def placings(state: GameState) -> list[int]:
    """Each seat's place: 1 for the engine's winners (E3), then the others by score, then
    airships (the E3 tie-break); equal places share a rank (1, 2, 2, 4)."""
    assert state.final_scores is not None and state.winners is not None
    winners = set(state.winners)
    keys = [(state.final_scores[p], airship_count(state, p)) for p in range(state.num_players)]
    others = [keys[p] for p in range(state.num_players) if p not in winners]
    return [
        1 if p in winners else 1 + len(winners) + sum(other > keys[p] for other in others)
        for p in range(state.num_players)
    ]


def play_game(
    spec: GameSpec,
    agents: dict[str, Policy],
    *,
    seed: int,
    save_log: bool = False,
    max_steps: int = MAX_STEPS,
) -> dict[str, Any]:
    """Play one scheduled game with the given agent objects and return its result record.

    Never raises for an agent's fault: the record then has ``"error"`` set (kind, seat, agent,
    message, traceback) and no scores.
    """
    players = len(spec.seats)
    started = time.perf_counter()
    record: dict[str, Any] = {
        "type": "game",
        "game": spec.game,
        "deal": spec.deal,
        "deal_seed": spec.deal_seed,
        "seats": list(spec.seats),
    }
    decisions = [0] * players
    think = [0.0] * players
    state = new_game(players, seed=spec.deal_seed)
    log = GameLog.start(state, game=spec.game, seats=list(spec.seats)) if save_log else None
    try:
        seated = [agents[label] for label in spec.seats]
        for seat, agent in enumerate(seated):
            try:
                agent.reset(seat, players, agent_rng(seed, spec.game, seat))
            except Exception as exc:
                raise AgentFailure(
                    "exception", seat, f"reset raised {exc!r}", _trace_summary(exc)
                ) from exc
        while not state.is_terminal():
            if state.step >= max_steps:
                raise AgentFailure("no end", None, f"the game did not end in {max_steps} steps")
            seat = state.current_player
            decision = Decision.from_state(state)
            tick = time.perf_counter()
            try:
                action = seated[seat].act(decision)
            except Exception as exc:
                raise AgentFailure(
                    "exception", seat, f"act raised {exc!r}", _trace_summary(exc)
                ) from exc
            think[seat] += time.perf_counter() - tick
            decisions[seat] += 1
            index = as_action_index(action)
            if index is None or index not in decision.legal_actions:
                raise AgentFailure(
                    "illegal action",
                    seat,
                    f"returned {action!r} at step {state.step}; legal: "
                    f"{list(decision.legal_actions)}",
                )
            applied = state.apply_action(index)
            if log is not None:
                log.records.append(applied)
    except AgentFailure as failure:
        record["error"] = {
            "kind": failure.kind,
            "seat": failure.seat,
            "agent": None if failure.seat is None else spec.seats[failure.seat],
            "message": failure.message,
            "traceback": failure.trace,
        }
    except Exception as exc:  # an engine bug: reported like an agent failure, run goes on
        record["error"] = {
            "kind": "engine",
            "seat": None,
            "agent": None,
            "message": repr(exc),
            "traceback": _trace_summary(exc),
        }
    if "error" not in record:
        assert state.final_scores is not None and state.winners is not None
        record.update(
            scores=list(state.final_scores),
            winners=list(state.winners),
            ranks=placings(state),
            airships=[airship_count(state, p) for p in range(players)],
        )
    else:
        record.update(scores=None, winners=None, ranks=None, airships=None)
    record.update(
        turns=state.turn,
        steps=state.step,
        decisions=decisions,
        think_seconds=[round(t, 6) for t in think],
        seconds=round(time.perf_counter() - started, 6),
    )
    if log is not None:
        record["log"] = [log.header(), *(r.to_dict() for r in log.records)]
    return record


class GameRunner:
    """Holds one agent object per label (built from its spec on first use) and plays games."""

    def __init__(
        self,
        agent_specs: dict[str, str],
        seed: int,
        save_logs: bool = False,
        max_steps: int = MAX_STEPS,
    ):
        self.agent_specs = dict(agent_specs)
        self.seed = seed
        self.save_logs = save_logs
        self.max_steps = max_steps
        self.agents: dict[str, Policy] = {}

    def __call__(self, spec: GameSpec) -> dict[str, Any]:
        """Play one game; agents that failed in it are rebuilt before the next."""
        for label in spec.seats:
            if label not in self.agents:
                self.agents[label] = make_agent(self.agent_specs[label])
        record = play_game(
            spec, self.agents, seed=self.seed, save_log=self.save_logs, max_steps=self.max_steps
        )
        error = record.get("error")
        if error is not None and error["agent"] is not None:
            self.agents.pop(error["agent"], None)
        return record


_WORKER: GameRunner | None = None


def _init_worker(
    agent_specs: dict[str, str], seed: int, save_logs: bool, max_steps: int, parent_pid: int
) -> None:
    global _WORKER
    die_with_parent(parent_pid)  # a kill -9 of the arena leaves no worker playing on
    # Ctrl-C is the main process's business: it stops handing out games, and each worker
    # finishes the game it is playing instead of dying mid-game.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER = GameRunner(agent_specs, seed, save_logs, max_steps)


def _worker_play(spec: GameSpec) -> dict[str, Any]:
    assert _WORKER is not None
    return _WORKER(spec)


# ---------------------------------------------------------------------------------------------
# The worker pool
# ---------------------------------------------------------------------------------------------
def default_workers() -> int:
    """All cores."""
    return os.cpu_count() or 1


def _play_all(
    pending: list[GameSpec],
    agent_specs: dict[str, str],
    seed: int,
    save_logs: bool,
    max_steps: int,
    workers: int,
) -> Iterator[dict[str, Any]]:
    """Records of the pending games, in the order they finish."""
    if workers <= 1 or len(pending) <= 1:
        runner = GameRunner(agent_specs, seed, save_logs, max_steps)
        for spec in pending:
            yield runner(spec)
        return
    # spawn: workers build their agents from the spec strings and inherit nothing else. A
    # process pool executor (not multiprocessing.Pool) so that a worker killed by the system
    # raises BrokenProcessPool here instead of hanging the run.
    executor = ProcessPoolExecutor(
        max_workers=min(workers, len(pending)),
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_init_worker,
        initargs=(agent_specs, seed, save_logs, max_steps, os.getpid()),
    )
    try:
        with single_threaded_workers():  # the executor starts its processes on submit
            futures = [executor.submit(_worker_play, spec) for spec in pending]
        for future in as_completed(futures):
            yield future.result()
    except BrokenProcessPool as exc:
        raise RuntimeError(
            "a worker process died while playing (killed by the system, out of memory, or an "
            "agent that exits the process); the finished games are saved: run again to resume"
        ) from exc
    finally:
        executor.shutdown(wait=False, cancel_futures=True)


# ---------------------------------------------------------------------------------------------
# Bot-only games in the native core
# ---------------------------------------------------------------------------------------------
NATIVE_CHUNK = 64  # games per call into the core (a progress update each)


@dataclass(frozen=True)
class NativeSeats:
    """How the native core plays an arena's agents: a bot name per label, and the weights."""

    bots: dict[str, str]
    greedy: Any
    heuristic: Any


def native_seats(agent_specs: dict[str, str]) -> NativeSeats | None:
    """The native twins of every agent, or None if one has none (or two greedy or two heuristic
    agents have different weights: one core call plays one of each)."""
    from airships_env import native
    from airships_env.bot_config import GreedyConfig, HeuristicConfig
    from airships_env.policy import RandomPolicy

    if not native.available():
        return None
    bots: dict[str, str] = {}
    configs: dict[int, Any] = {}
    for label, spec in agent_specs.items():
        agent = make_agent(spec)
        if type(agent) is RandomPolicy:
            bots[label] = "random"
            continue
        twin = getattr(agent, "native_bot", None)
        if twin is None:
            return None
        kind = int(twin[0])
        config = agent.config  # type: ignore[attr-defined]
        if configs.setdefault(kind, config) != config:
            return None
        bots[label] = {2: "greedy", 3: "heuristic"}[kind]
    greedy = configs.get(2, GreedyConfig())
    heuristic = configs.get(3) or HeuristicConfig.load()
    return NativeSeats(bots, greedy, heuristic)


def _play_native(
    pending: list[GameSpec], seats: NativeSeats, seed: int, max_steps: int
) -> Iterator[dict[str, Any]]:
    """Records of the pending games, played whole in the native core, chunk by chunk."""
    from airships_env.native.batch import play_bot_games

    for start in range(0, len(pending), NATIVE_CHUNK):
        chunk = pending[start : start + NATIVE_CHUNK]
        games = []
        for spec in chunk:
            players = len(spec.seats)
            games.append(
                (
                    np.random.default_rng(spec.deal_seed),
                    [agent_rng(seed, spec.game, seat) for seat in range(players)],
                    [seats.bots[label] for label in spec.seats],
                )
            )
        started = time.perf_counter()
        results = play_bot_games(
            len(chunk[0].seats),
            games,
            greedy=seats.greedy,
            heuristic=seats.heuristic,
            max_steps=max_steps,
        )
        share = (time.perf_counter() - started) / max(1, sum(r["steps"] for r in results))
        for spec, result in zip(chunk, results, strict=True):
            yield _native_record(spec, result, share)


def _native_record(spec: GameSpec, result: dict[str, Any], share: float) -> dict[str, Any]:
    """A native game's result in the arena's record format (as :func:`play_game` writes it)."""
    record: dict[str, Any] = {
        "type": "game",
        "game": spec.game,
        "deal": spec.deal,
        "deal_seed": spec.deal_seed,
        "seats": list(spec.seats),
    }
    if result["over"]:
        keys = list(zip(result["scores"], result["airships"], strict=True))
        winners = set(result["winners"])
        others = [keys[p] for p in range(len(keys)) if p not in winners]
        record.update(
            scores=result["scores"],
            winners=result["winners"],
            ranks=[
                1 if p in winners else 1 + len(winners) + sum(o > keys[p] for o in others)
                for p in range(len(keys))
            ],
            airships=result["airships"],
        )
    else:
        record["error"] = {
            "kind": "no end",
            "seat": None,
            "agent": None,
            "message": f"the game did not end in {result['steps']} steps",
            "traceback": "",
        }
        record.update(scores=None, winners=None, ranks=None, airships=None)
    record.update(
        turns=result["turns"],
        steps=result["steps"],
        decisions=result["decisions"],
        think_seconds=[round(share * d, 6) for d in result["decisions"]],
        seconds=round(share * result["steps"], 6),
    )
    return record


# ---------------------------------------------------------------------------------------------
# Executors: what the arena hands its pending games to
# ---------------------------------------------------------------------------------------------
class Executor(Protocol):
    """Plays pending games and yields their records, in any order (each names its game)."""

    def __call__(
        self,
        pending: Sequence[GameSpec],
        agent_specs: dict[str, str],
        *,
        seed: int,
        save_logs: bool,
        max_steps: int,
    ) -> Iterator[dict[str, Any]]:
        """The records of ``pending``, as they finish."""
        ...


@dataclass(frozen=True)
class LocalExecutor:
    """This machine: bot-only games whole in the native core when every agent has a native
    twin and no logs are asked for, else a pool of ``workers`` processes (None: all cores;
    1: in this process)."""

    workers: int | None = None

    def __call__(
        self,
        pending: Sequence[GameSpec],
        agent_specs: dict[str, str],
        *,
        seed: int,
        save_logs: bool,
        max_steps: int,
    ) -> Iterator[dict[str, Any]]:
        """The records of ``pending``, as they finish."""
        pending = list(pending)
        workers = default_workers() if self.workers is None else max(1, self.workers)
        seats = None if save_logs or not pending else native_seats(agent_specs)
        if seats is not None:
            return _play_native(pending, seats, seed, max_steps)
        return _play_all(pending, agent_specs, seed, save_logs, max_steps, workers)
