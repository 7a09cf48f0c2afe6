"""The arena: many seeded games between agents, seat-rotated, in parallel, resumable.

Games are driven on the engine directly (no environment wrapper). Every game is fixed by its
*game index* alone, whatever the number of workers or the order they finish in:

- its deal: ``new_game(players, seed=deal_seed)``. The game's generator comes from the deal seed,
  so the deal (deck, airship stacks, starters) *and the dice stream* start from the same state
  in every game of one deal. With ``paired``, each deal is replayed under every seat
  arrangement, so the luck of the deal cancels out (the dice then diverge as soon as the
  players choose differently);
- its seating: arrangement ``game % len(arrangements)``. ``seating="cyclic"`` (default) uses
  the ``players`` cyclic rotations: every agent plays every seat equally often (the order of
  agents around the table stays the same). ``seating="all"`` uses all ``players!``
  permutations, so who plays after whom is balanced too;
- each seat's generator: ``SeedSequence([seed, 1, game, seat])``; deal seeds come from
  ``SeedSequence([seed, 0, deal])``. Agents never share the game's generator.

Agents are given a :class:`~airships_env.policy.Decision` only (public view, no generator), are
``reset`` before each game, and must not carry anything from one game to the next (a worker
reuses its agent objects across games). An exception raised by an agent, an illegal action or a
game that does not end becomes an *error record* naming the agent, seat and seed; the run goes
on. The agent is rebuilt after an error.

Bot-only games are played in the native core when every agent has a native twin (the random,
greedy and heuristic bots: identical choices from the same generators) and no logs are asked
for: whole games in one call, the same records (only the timings differ: a native game's
``seconds`` and ``think_seconds`` share out the batch's time). Other games run in Python, in
parallel worker processes.

Results are JSON lines: a header (``{"type": "header", "format": "airships-results", ...,
"config": {...}}``), then one ``{"type": "game", ...}`` line per finished game, flushed as each
game ends (a game that ended in an error is reported but not written: it is not finished, and
a re-run plays it again). Re-running with the same file checks that the configuration is the
same and plays only the games not yet recorded; a half-written last line (a crash mid-write) is
dropped.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import multiprocessing
import os
import signal
import sys
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agents.registry import check_fit, make_agent
from agents.workers import die_with_parent, single_threaded_workers
from airships_env.engine import GameLog, GameState, new_game
from airships_env.engine.actions import as_action_index
from airships_env.engine.rules import airship_count, ranks
from airships_env.policy import Decision, Policy
from airships_env.protocol import ranks_from

RESULTS_FORMAT = "airships-results"
RESULTS_VERSION = 1
SEATINGS = ("cyclic", "all")
#: A game longer than this many actions is stopped and recorded as an error (a random 4-player
#: game takes about 200).
MAX_STEPS = 20_000

_DEAL_STREAM, _AGENT_STREAM = 0, 1


# ---------------------------------------------------------------------------------------------
# The schedule
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameSpec:
    """One scheduled game: its index, deal, and the agent label in each seat."""

    game: int
    deal: int
    deal_seed: int
    seats: tuple[str, ...]


def label_agents(specs: Sequence[str]) -> dict[str, str]:
    """Distinct labels for agent specs, in order: a repeated spec gets ``#2``, ``#3``..."""
    labels: dict[str, str] = {}
    seen: dict[str, int] = {}
    for spec in specs:
        spec = spec.strip()
        seen[spec] = seen.get(spec, 0) + 1
        label = spec if seen[spec] == 1 else f"{spec}#{seen[spec]}"
        while label in labels:  # a spec that itself looks like "x#2"
            seen[spec] += 1
            label = f"{spec}#{seen[spec]}"
        labels[label] = spec
    return labels


def seat_arrangements(players: int, seating: str = "cyclic") -> list[tuple[int, ...]]:
    """Agent index per seat for each arrangement (cyclic rotations or all permutations)."""
    if seating == "cyclic":
        return [
            tuple((seat - shift) % players for seat in range(players)) for shift in range(players)
        ]
    if seating == "all":
        return list(itertools.permutations(range(players)))
    raise ValueError(f"seating must be one of {SEATINGS}, got {seating!r}")


def deal_seed(seed: int, deal: int) -> int:
    """The engine seed of deal number ``deal`` in a run seeded ``seed`` (63 bits)."""
    state = np.random.SeedSequence([seed, _DEAL_STREAM, deal]).generate_state(1, np.uint64)
    return int(state[0] >> np.uint64(1))


def agent_rng(seed: int, game: int, seat: int) -> np.random.Generator:
    """The generator of the agent in ``seat`` of game ``game``."""
    return np.random.default_rng(np.random.SeedSequence([seed, _AGENT_STREAM, game, seat]))


def round_up_games(games: int, players: int, seating: str = "cyclic") -> int:
    """The smallest multiple of the number of seat arrangements that is at least ``games``."""
    block = len(seat_arrangements(players, seating))
    return -(-max(games, 1) // block) * block


def arena_schedule(
    labels: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    paired: bool = False,
    seating: str = "cyclic",
) -> list[GameSpec]:
    """The games of an arena run: ``labels`` (one per seat) under every arrangement in turn.

    ``games`` must be a multiple of the number of arrangements (see :func:`round_up_games`),
    so that every agent plays every seat exactly equally often.
    """
    players = len(labels)
    arrangements = seat_arrangements(players, seating)
    if games % len(arrangements):
        raise ValueError(
            f"games ({games}) must be a multiple of the {len(arrangements)} seat "
            f"arrangements so that every agent plays every seat equally"
        )
    schedule = []
    for game in range(games):
        deal = game // len(arrangements) if paired else game
        order = arrangements[game % len(arrangements)]
        schedule.append(
            GameSpec(game, deal, deal_seed(seed, deal), tuple(labels[index] for index in order))
        )
    return schedule


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
    """Each seat's place (the engine's E3 ranks, :func:`airships_env.engine.rules.ranks`)."""
    return ranks(state)


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
# The results file
# ---------------------------------------------------------------------------------------------
def results_header(config: dict[str, Any]) -> dict[str, Any]:
    """The first line of a results file."""
    return {
        "type": "header",
        "format": RESULTS_FORMAT,
        "version": RESULTS_VERSION,
        "config": config,
    }


def read_results(path: str | Path) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """The header and game records of a results file (a half-written last line is ignored)."""
    path = Path(path)
    header: dict[str, Any] | None = None
    records: list[dict[str, Any]] = []
    lines = path.read_text(encoding="utf-8").split("\n")
    # The last piece has no newline after it: empty, or a line a crash cut short (dropped
    # even if it parses, since the file will be truncated before it).
    for number, line in enumerate(lines[:-1], start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}: line {number}: not valid JSON ({exc.msg})") from exc
        if header is None:
            if data.get("type") != "header" or data.get("format") != RESULTS_FORMAT:
                raise ValueError(
                    f"{path}: line {number}: not an airships results file "
                    f"(its first line must be the header)"
                )
            if data.get("version") != RESULTS_VERSION:
                raise ValueError(
                    f"{path}: results version {data.get('version')!r} is not "
                    f"supported (this version reads {RESULTS_VERSION})"
                )
            header = data
        elif data.get("type") == "game":
            records.append(data)
        else:
            raise ValueError(f"{path}: line {number}: unknown line type {data.get('type')!r}")
    return header, records


def _config_differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    keys = sorted(set(old) | set(new))
    return [
        f"{key}: file has {old.get(key)!r}, now {new.get(key)!r}"
        for key in keys
        if old.get(key) != new.get(key)
    ]


def open_results(path: str | Path, config: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """Prepare ``path`` for appending: check its header against ``config`` (or write one) and
    return the games already recorded, by index. A torn last line is cut off the file."""
    path = Path(path)
    # Round-trip the config through JSON so that tuples and lists compare equal.
    config = json.loads(json.dumps(config))
    if path.exists() and path.stat().st_size > 0:
        header, records = read_results(path)
        if header is None:  # only a torn header: nothing was played
            path.unlink()
            return open_results(path, config)
        differences = _config_differences(header["config"], config)
        if differences:
            raise ValueError(
                f"{path} holds results of a different run; use another --out "
                f"file or the same settings. Differences: " + "; ".join(differences)
            )
        text = path.read_bytes()
        if not text.endswith(b"\n"):  # drop the torn line so appends start on a fresh line
            with open(path, "r+b") as handle:
                handle.truncate(text.rfind(b"\n") + 1)
        done: dict[int, dict[str, Any]] = {}
        for record in records:
            if not record.get("error"):  # an errored game (older files) is played again
                done.setdefault(int(record["game"]), record)
        return done
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(results_header(config), separators=(",", ":")) + "\n")
    return {}


# ---------------------------------------------------------------------------------------------
# Running a schedule
# ---------------------------------------------------------------------------------------------
def default_workers() -> int:
    """All cores."""
    return os.cpu_count() or 1


def _progress(total: int, initial: int, enabled: bool, description: str) -> Any:
    from tqdm import tqdm

    return tqdm(
        total=total,
        initial=initial,
        disable=not enabled,
        desc=description,
        unit="game",
        dynamic_ncols=True,
        file=sys.stderr,
    )


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
        record.update(
            scores=result["scores"],
            winners=result["winners"],
            ranks=list(ranks_from(result["winners"], keys)),
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


def run_schedule(
    schedule: Sequence[GameSpec],
    agent_specs: dict[str, str],
    *,
    seed: int,
    config: dict[str, Any] | None = None,
    out: str | Path | None = None,
    workers: int | None = None,
    save_logs: bool = False,
    max_steps: int = MAX_STEPS,
    progress: bool = False,
    description: str = "games",
    on_record: Callable[[dict[str, Any]], None] | None = None,
    ray_address: str | None = None,
) -> list[dict[str, Any]]:
    """Play every game of ``schedule`` not yet in ``out`` and return all records by game index.

    ``config`` is what the results file's header records and what a resumed run must match.
    Every agent spec is built once here first and checked to fit the tables it is seated at
    (:func:`~agents.registry.check_fit`), so a bad spec or a policy trained for another player
    count fails before any game is played. Games that end in an error are returned but not
    written to ``out``: a re-run plays them again. ``ray_address`` plays the pending games as
    tasks on a Ray cluster (``"default"``: the one ``RAY_ADDRESS`` names, else a local one;
    :mod:`agents.rllib.arena`): the same records.
    """
    for label in sorted({label for spec in schedule for label in spec.seats}):
        if label not in agent_specs:
            raise ValueError(f"the schedule seats {label!r}, which has no agent spec")
    tables: dict[str, set[int]] = {}
    for spec in schedule:
        for label in spec.seats:
            tables.setdefault(agent_specs[label], set()).add(len(spec.seats))
    for spec_text in dict.fromkeys(agent_specs.values()):
        agent = make_agent(spec_text)
        for players in sorted(tables.get(spec_text, ())):
            check_fit(agent, players, spec_text)  # a misfit fails now, not in every game
    done: dict[int, dict[str, Any]] = {}
    if out is not None:
        done = open_results(out, config if config is not None else {"seed": seed})
    wanted = {spec.game for spec in schedule}
    done = {game: record for game, record in done.items() if game in wanted}
    pending = [spec for spec in schedule if spec.game not in done]
    workers = default_workers() if workers is None else max(1, workers)
    seats = None if save_logs or not pending else native_seats(agent_specs)
    if ray_address is not None and pending:
        from agents.rllib.arena import play_on_ray

        games: Iterator[dict[str, Any]] = play_on_ray(
            pending,
            agent_specs,
            seed=seed,
            save_logs=save_logs,
            max_steps=max_steps,
            address=ray_address,
        )
    elif seats is not None:
        games = _play_native(pending, seats, seed, max_steps)
    else:
        games = _play_all(pending, agent_specs, seed, save_logs, max_steps, workers)
    with contextlib.ExitStack() as stack:
        handle = stack.enter_context(open(out, "a", encoding="utf-8")) if out else None
        bar = stack.enter_context(_progress(len(schedule), len(done), progress, description))
        for record in games:
            if handle is not None and not record.get("error"):
                handle.write(json.dumps(record, separators=(",", ":")) + "\n")
                handle.flush()
            done[record["game"]] = record
            if on_record is not None:
                on_record(record)
            bar.update(1)
    return [done[game] for game in sorted(done)]


@dataclass
class ArenaRun:
    """A finished arena run: the labels (one per seat, in the order given) and the records."""

    labels: list[str]
    agent_specs: dict[str, str]
    players: int
    records: list[dict[str, Any]]
    played: int  # games played by this call (the others were already in the results file)
    seconds: float

    @property
    def errors(self) -> list[dict[str, Any]]:
        """The records of games that ended in an error."""
        return [r for r in self.records if r.get("error")]


def arena_config(
    agent_specs: dict[str, str],
    games: int,
    *,
    seed: int,
    paired: bool,
    seating: str,
    save_logs: bool,
    max_steps: int,
) -> dict[str, Any]:
    """The configuration an arena results file records (workers do not change results)."""
    return {
        "kind": "arena",
        "agents": agent_specs,
        "players": len(agent_specs),
        "games": games,
        "seed": seed,
        "paired": paired,
        "seating": seating,
        "save_logs": save_logs,
        "max_steps": max_steps,
    }


def run_arena(
    specs: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    paired: bool = False,
    seating: str = "cyclic",
    workers: int | None = None,
    out: str | Path | None = None,
    save_logs: bool = False,
    max_steps: int = MAX_STEPS,
    progress: bool = False,
    num_players: int | None = None,
    ray_address: str | None = None,
) -> ArenaRun:
    """Play ``games`` games (rounded up to whole rotations) between ``specs``, one per seat.

    ``num_players``, if given, must equal the number of specs (a check for callers).
    """
    if num_players is not None and num_players != len(specs):
        raise ValueError(
            f"{len(specs)} agents for {num_players} seats; give one agent per seat "
            f"(repeat an agent to fill seats, e.g. heuristic,greedy,greedy,greedy)"
        )
    if not 2 <= len(specs) <= 4:
        raise ValueError(
            f"the arena seats one agent per player: give 2 to 4 agents, got "
            f"{len(specs)} (repeat an agent to fill seats, e.g. "
            f"heuristic,greedy,greedy,greedy)"
        )
    if seed < 0:
        raise ValueError(f"seed must be >= 0, got {seed}")
    agent_specs = label_agents(specs)
    labels = list(agent_specs)
    games = round_up_games(games, len(labels), seating)
    schedule = arena_schedule(labels, games, seed=seed, paired=paired, seating=seating)
    config = arena_config(
        agent_specs,
        games,
        seed=seed,
        paired=paired,
        seating=seating,
        save_logs=save_logs,
        max_steps=max_steps,
    )
    played: list[int] = []
    started = time.perf_counter()
    records = run_schedule(
        schedule,
        agent_specs,
        seed=seed,
        config=config,
        out=out,
        workers=workers,
        save_logs=save_logs,
        max_steps=max_steps,
        progress=progress,
        description="arena",
        on_record=lambda record: played.append(record["game"]),
        ray_address=ray_address,
    )
    return ArenaRun(
        labels, agent_specs, len(labels), records, len(played), time.perf_counter() - started
    )
