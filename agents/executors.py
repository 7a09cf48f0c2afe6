"""Where and how the arena's games are played: one game in Python, a pool of worker processes,
or whole bot-only games in the native core.

Agents are given a :class:`~airships_env.policy.Decision` only (public view, no generator), are
``reset`` before each game, and must not carry anything from one game to the next (a worker
reuses its agent objects across games). An exception raised by an agent, an illegal action or a
game that does not end becomes an *error record* naming the agent, seat and seed; the run goes
on. The agent is rebuilt after an error.

Games come from the game registry (``game``: a registered name, Airships by default): the deal
is ``game.new_state(players, seed=deal_seed, options=...)``, places come from the state's
``outcome()``. ``rules`` (option name -> value, checked by the game's own ``options_from_dict``
through :func:`agents.games.rules_options`; none: the game's defaults) sets the rules options
every game of a run is dealt with, on every path: Python, the worker pool, the native core.
Optional members of a game that the arena reads (``getattr``; absent: the generic default):
``record_fields(state)`` (a finished game's own record fields, e.g. Airships' ``airships``),
``log_header(state, meta)`` (a saved log's header; default: a generic one with the initial
state), ``log_record(record)`` (one action's log line; default: the record's ``to_dict()``; the
lines of a saved log are then the game's own log file's, so ``airships replay`` reads them) and
``native_bots`` (a :class:`NativeBots` or its ``"module:attr"``: which of the game's
bots have a native twin, and whole bot-only games in its core; default: none).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from importlib import import_module
from typing import Any, Protocol

import numpy as np

from agents.games import resolve_game, rules_options
from agents.registry import make_agent
from agents.schedule import GameSpec, agent_rng
from agents.workers import die_with_parent, single_threaded_workers
from airships_env.game_log import log_header as generic_log_header
from airships_env.policy import Decision, Policy
from airships_env.protocol import Game, Outcome, as_action_index

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


def placings(state: Any) -> list[int]:
    """Each seat's place in a finished game, from the game's outcome (1 = first; equal places
    share a rank: 1, 2, 2, 4)."""
    outcome = state.outcome()
    if outcome is None:
        raise ValueError("the game is not over: no places yet")
    return list(outcome.ranks)


def _number(value: Any) -> Any:
    """A score as JSON writes it: a whole number as an int (Airships' scores are ints)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def outcome_fields(outcome: Outcome, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A finished game's result fields of a record: scores, winners, places (from the game's
    :class:`~airships_env.protocol.Outcome`), then the game's own fields (Airships: airships)."""
    fields: dict[str, Any] = {
        "scores": [_number(score) for score in outcome.scores],
        "winners": list(outcome.winners),
        "ranks": list(outcome.ranks),
    }
    fields.update(getattr(outcome, "extra", None) or {})
    fields.update(extra or {})
    return fields


def log_header(
    game: Game,
    state: Any,
    meta: Mapping[str, Any],
    seed: int | None = None,
    rules: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The header line of a game log starting at ``state``: the game's own (``log_header``),
    else the generic one of :mod:`airships_env.game_log`. Both hold the initial state, its rules
    options included; the generic one also names the ``rules`` the game was dealt with."""
    own = getattr(game, "log_header", None)
    if own is not None:
        header: dict[str, Any] = own(state, meta)
        return header
    return generic_log_header(game, state, state.num_players, seed, rules or None, meta=meta)


def play_game(
    spec: GameSpec,
    agents: dict[str, Policy],
    *,
    seed: int,
    save_log: bool = False,
    max_steps: int = MAX_STEPS,
    game: str | Game = "airships",
    rules: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Play one scheduled game of ``game`` (a registered name or a Game), dealt with the rules
    options ``rules`` names (None: the game's defaults), with the given agent objects and return
    its result record.

    Never raises for an agent's fault: the record then has ``"error"`` set (kind, seat, agent,
    message, traceback) and no scores.
    """
    played = resolve_game(game)
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
    steps = 0
    state = played.new_state(players, seed=spec.deal_seed, options=rules_options(played, rules))
    log: list[dict[str, Any]] | None = None
    own_line = getattr(played, "log_record", None)  # the game's own log line (Airships: typed)
    log_record: Callable[[Any], dict[str, Any]] = own_line or (lambda record: record.to_dict())
    if save_log:
        meta = {"game": spec.game, "seats": list(spec.seats)}
        log = [log_header(played, state, meta, spec.deal_seed, rules)]
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
            if steps >= max_steps:
                raise AgentFailure("no end", None, f"the game did not end in {max_steps} steps")
            seat = state.current_player
            decision = Decision.for_game(played, state)
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
                    f"returned {action!r} at step {steps}; legal: {list(decision.legal_actions)}",
                )
            applied = state.apply_action(index)
            steps += 1
            if log is not None:
                log.append(log_record(applied))
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
    outcome = None if "error" in record else state.outcome()
    if outcome is not None:
        own = getattr(played, "record_fields", None)  # the game's own fields (Airships: airships)
        record.update(outcome_fields(outcome, None if own is None else own(state)))
    else:
        record.update(scores=None, winners=None, ranks=None)
    record.update(
        turns=getattr(state, "turn", steps),  # a game's own count of turns, else its actions
        steps=steps,
        decisions=decisions,
        think_seconds=[round(t, 6) for t in think],
        seconds=round(time.perf_counter() - started, 6),
    )
    if log is not None:
        record["log"] = log
    return record


class GameRunner:
    """Holds one agent object per label (built from its spec on first use) and plays games."""

    def __init__(
        self,
        agent_specs: dict[str, str],
        seed: int,
        save_logs: bool = False,
        max_steps: int = MAX_STEPS,
        game: str = "airships",
        rules: Mapping[str, Any] | None = None,
    ):
        self.agent_specs = dict(agent_specs)
        self.seed = seed
        self.save_logs = save_logs
        self.max_steps = max_steps
        self.game = resolve_game(game)
        self.rules = dict(rules or {})
        rules_options(self.game, self.rules)  # bad rules fail here, not in every game
        self.agents: dict[str, Policy] = {}

    def __call__(self, spec: GameSpec) -> dict[str, Any]:
        """Play one game; agents that failed in it are rebuilt before the next."""
        for label in spec.seats:
            if label not in self.agents:
                self.agents[label] = make_agent(self.agent_specs[label], game=self.game)
        record = play_game(
            spec,
            self.agents,
            seed=self.seed,
            save_log=self.save_logs,
            max_steps=self.max_steps,
            game=self.game,
            rules=self.rules,
        )
        error = record.get("error")
        if error is not None and error["agent"] is not None:
            self.agents.pop(error["agent"], None)
        return record


_WORKER: GameRunner | None = None


def _init_worker(
    agent_specs: dict[str, str],
    seed: int,
    save_logs: bool,
    max_steps: int,
    game: str,
    rules: dict[str, Any],
    parent_pid: int,
) -> None:
    global _WORKER
    die_with_parent(parent_pid)  # a kill -9 of the arena leaves no worker playing on
    # Ctrl-C (sent to the whole process group) is the main process's business: it stops
    # handing out games, keeps the finished ones and ends the workers (_end_workers).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER = GameRunner(agent_specs, seed, save_logs, max_steps, game, rules)


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
    game: str = "airships",
    rules: Mapping[str, Any] | None = None,
) -> Iterator[dict[str, Any]]:
    """Records of the pending games (dealt with the rules options ``rules`` names), in the
    order they finish."""
    if workers <= 1 or len(pending) <= 1:
        runner = GameRunner(agent_specs, seed, save_logs, max_steps, game, rules)
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
        initargs=(agent_specs, seed, save_logs, max_steps, game, dict(rules or {}), os.getpid()),
    )
    finished = False
    try:
        with single_threaded_workers():  # the executor starts its processes on submit
            futures = [executor.submit(_worker_play, spec) for spec in pending]
        for future in as_completed(futures):
            yield future.result()
        finished = True
    except BrokenProcessPool as exc:
        raise RuntimeError(
            "a worker process died while playing (killed by the system, out of memory, or an "
            "agent that exits the process); the finished games are saved: run again to resume"
        ) from exc
    finally:
        if not finished:
            _end_workers(executor)
        executor.shutdown(wait=False, cancel_futures=True)


def _end_workers(executor: ProcessPoolExecutor) -> None:
    """End the workers now (Ctrl-C, an error): the games they are playing would not be saved,
    and waiting for them (a search bot's game takes seconds) held the exit for 10-20 s."""
    terminate = getattr(executor, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
        return
    processes = getattr(executor, "_processes", None) or {}
    for process in list(processes.values()):
        if process.is_alive():
            process.terminate()


# ---------------------------------------------------------------------------------------------
# Bot-only games in a game's native core
# ---------------------------------------------------------------------------------------------
NATIVE_CHUNK = 64  # games per call into the core (a progress update each)


class NativeResult(Protocol):
    """One whole game a native core played."""

    outcome: Outcome | None  # None: the game did not end in max_steps
    extra: Mapping[str, Any]  # the game's own record fields (Airships: airships)
    turns: int
    steps: int
    decisions: list[int]


class NativeBots(Protocol):
    """What a game with a native core gives the arena (the game's ``native_bots``): which of
    its agents have a native twin, and whole bot-only games played in the core."""

    def plan(self, agents: Mapping[str, Policy]) -> Any | None:
        """How the core seats these agents (by label), or None when one has no twin."""
        ...

    def play(
        self,
        plan: Any,
        num_players: int,
        games: Sequence[tuple[int, Sequence[np.random.Generator], Sequence[str]]],
        max_steps: int,
        options: Any = None,
    ) -> Sequence[NativeResult]:
        """Whole games, each given by its deal seed, a generator per seat and the labels, dealt
        with the game's rules ``options`` (None: its defaults), as ``new_state`` deals them."""
        ...


@dataclass(frozen=True)
class NativeSeats:
    """How a game's native core plays an arena's agents: the game's native bots and its plan."""

    bots: NativeBots
    plan: Any


def game_native_bots(game: str | Game) -> NativeBots | None:
    """The game's :class:`NativeBots` (its optional ``native_bots``: the object or a
    ``'module:attr'`` target), or None when it has none."""
    target = getattr(resolve_game(game), "native_bots", None)
    if callable(target):
        target = target()
    if isinstance(target, str):
        module, _, attribute = target.partition(":")
        target = getattr(import_module(module), attribute)
    return target


def native_seats(agent_specs: dict[str, str], game: str | Game = "airships") -> NativeSeats | None:
    """How the game's native core plays every agent, or None when the game has no native bots
    or one agent has no twin there (the game says which of its bots have one)."""
    bots = game_native_bots(game)
    if bots is None:
        return None
    agents = {label: make_agent(spec, game=game) for label, spec in agent_specs.items()}
    plan = bots.plan(agents)
    return None if plan is None else NativeSeats(bots, plan)


def _play_native(
    pending: list[GameSpec], seats: NativeSeats, seed: int, max_steps: int, options: Any = None
) -> Iterator[dict[str, Any]]:
    """Records of the pending games, played whole in the native core, chunk by chunk, dealt
    with the game's rules ``options`` (None: its defaults)."""
    for start in range(0, len(pending), NATIVE_CHUNK):
        chunk = pending[start : start + NATIVE_CHUNK]
        games = [
            (
                spec.deal_seed,
                [agent_rng(seed, spec.game, seat) for seat in range(len(spec.seats))],
                spec.seats,
            )
            for spec in chunk
        ]
        started = time.perf_counter()
        results = seats.bots.play(seats.plan, len(chunk[0].seats), games, max_steps, options)
        share = (time.perf_counter() - started) / max(1, sum(r.steps for r in results))
        for spec, result in zip(chunk, results, strict=True):
            yield _native_record(spec, result, share)


def _native_record(spec: GameSpec, result: NativeResult, share: float) -> dict[str, Any]:
    """A native game's result in the arena's record format (as :func:`play_game` writes it)."""
    record: dict[str, Any] = {
        "type": "game",
        "game": spec.game,
        "deal": spec.deal,
        "deal_seed": spec.deal_seed,
        "seats": list(spec.seats),
    }
    if result.outcome is not None:
        record.update(outcome_fields(result.outcome, result.extra))
    else:
        record["error"] = {
            "kind": "no end",
            "seat": None,
            "agent": None,
            "message": f"the game did not end in {result.steps} steps",
            "traceback": "",
        }
        record.update(scores=None, winners=None, ranks=None)
    record.update(
        turns=result.turns,
        steps=result.steps,
        decisions=list(result.decisions),
        think_seconds=[round(share * d, 6) for d in result.decisions],
        seconds=round(share * result.steps, 6),
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
        game: str = "airships",
        rules: Mapping[str, Any] | None = None,
    ) -> Iterator[dict[str, Any]]:
        """The records of ``pending``, games of ``game`` dealt with the rules options ``rules``
        names (None: the game's defaults), as they finish."""
        ...


@dataclass(frozen=True)
class LocalExecutor:
    """This machine: bot-only games whole in the game's native core when every agent has a
    native twin there and no logs are asked for, else a pool of ``workers`` processes (None: all
    cores; 1: in this process)."""

    workers: int | None = None

    def __call__(
        self,
        pending: Sequence[GameSpec],
        agent_specs: dict[str, str],
        *,
        seed: int,
        save_logs: bool,
        max_steps: int,
        game: str = "airships",
        rules: Mapping[str, Any] | None = None,
    ) -> Iterator[dict[str, Any]]:
        """The records of ``pending``, games of ``game`` dealt with the rules options ``rules``
        names (None: the game's defaults), as they finish."""
        pending = list(pending)
        workers = default_workers() if self.workers is None else max(1, self.workers)
        options = rules_options(game, rules)  # bad rules fail before any game is played
        seats = None if save_logs or not pending else native_seats(agent_specs, game)
        if seats is not None:
            return _play_native(pending, seats, seed, max_steps, options)
        return _play_all(pending, agent_specs, seed, save_logs, max_steps, workers, game, rules)
