"""The arena: many seeded games between agents, seat-rotated, in parallel, resumable.

Games are driven on the engine directly (no environment wrapper). Every game is fixed by its
*game index* alone, whatever the number of workers or the order they finish in:

- its deal: ``new_state(players, seed=deal_seed, options=...)``, under the run's rules options
  (``rules``: option name -> value, the game's defaults for the others; checked up front by the
  game's own ``options_from_dict``). The game's generator comes from the deal seed,
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
"config": {...}}``; the config's ``"rules"`` holds the options that differ from the game's
defaults, and is absent when none do, as in files written before the arena took rules), then one ``{"type": "game", ...}`` line per finished game, flushed as each
game ends (a game that ended in an error is reported but not written: it is not finished, and
a re-run plays it again), with a digest of its content. Re-running with the same file checks
that the configuration is the same, that every recorded game is the schedule's (deal, seed,
seats), agrees with itself (winners, places) and with its digest, and is recorded once, then
plays only the games not yet recorded; a half-written last line (a crash mid-write) is dropped.

The pieces: :mod:`agents.schedule` (which games, deals, seats and seeds), :mod:`agents.executors`
(playing them: one game, the worker pool, the native core; an ``executor`` passed in plays them
elsewhere, e.g. :class:`agents.rllib.arena.RayExecutor` on a Ray cluster) and
:mod:`agents.results` (the results file). This module runs a schedule through them.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents.executors import (
    MAX_STEPS,
    NATIVE_CHUNK,
    AgentFailure,
    Executor,
    GameRunner,
    LocalExecutor,
    NativeSeats,
    default_workers,
    native_seats,
    placings,
    play_game,
)
from agents.executors import _native_record as _native_record  # re-exported for the tests
from agents.executors import _play_all as _play_all
from agents.executors import _play_native as _play_native
from agents.games import (
    DEFAULT_GAME,
    check_player_count,
    counts_text,
    resolve_game,
    rules_record,
)
from agents.registry import check_fit, make_agent
from agents.results import (
    RESULTS_FORMAT,
    RESULTS_VERSION,
    open_results,
    read_results,
    results_header,
    results_line,
)
from agents.schedule import (
    SEATINGS,
    GameSpec,
    agent_rng,
    arena_schedule,
    deal_seed,
    label_agents,
    round_up_games,
    seat_arrangements,
)

__all__ = [
    "MAX_STEPS",
    "NATIVE_CHUNK",
    "RESULTS_FORMAT",
    "RESULTS_VERSION",
    "SEATINGS",
    "AgentFailure",
    "ArenaRun",
    "Executor",
    "GameRunner",
    "GameSpec",
    "LocalExecutor",
    "NativeSeats",
    "agent_rng",
    "arena_config",
    "arena_schedule",
    "deal_seed",
    "default_workers",
    "label_agents",
    "native_seats",
    "open_results",
    "placings",
    "play_game",
    "read_results",
    "results_header",
    "results_line",
    "round_up_games",
    "run_arena",
    "run_schedule",
    "seat_arrangements",
]


# ---------------------------------------------------------------------------------------------
# Running a schedule
# ---------------------------------------------------------------------------------------------
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
    executor: Executor | None = None,
    game: str = DEFAULT_GAME,
    rules: Mapping[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """Play every game of ``schedule`` (games of ``game``, a registered name, dealt with the
    rules options ``rules`` names: option name -> value, the game's defaults for the others) not
    yet in ``out`` and return all records by game index.

    ``config`` is what the results file's header records and what a resumed run must match.
    Every agent spec is built once here first and checked to fit the tables it is seated at
    (:func:`~agents.registry.check_fit`), so a bad spec or a policy trained for another player
    count fails before any game is played. Games that end in an error are returned but not
    written to ``out``: a re-run plays them again. ``executor`` plays the pending games (default:
    a :class:`~agents.executors.LocalExecutor` of ``workers`` processes; a Ray cluster's is
    :class:`agents.rllib.arena.RayExecutor`): the same records wherever they are played.
    """
    rules = rules_record(game, rules)  # a bad option name or value fails before any game
    for label in sorted({label for spec in schedule for label in spec.seats}):
        if label not in agent_specs:
            raise ValueError(f"the schedule seats {label!r}, which has no agent spec")
    for players in sorted({len(spec.seats) for spec in schedule}):
        check_player_count(game, players, "seats at a table")
    tables: dict[str, set[int]] = {}
    for spec in schedule:
        for label in spec.seats:
            tables.setdefault(agent_specs[label], set()).add(len(spec.seats))
    for spec_text in dict.fromkeys(agent_specs.values()):
        agent = make_agent(spec_text, game=game)
        for players in sorted(tables.get(spec_text, ())):
            check_fit(agent, players, spec_text)  # a misfit fails now, not in every game
    done: dict[int, dict[str, Any]] = {}
    if out is not None:
        default_config = {"game": game, "seed": seed, **({"rules": rules} if rules else {})}
        done = open_results(out, config if config is not None else default_config, schedule)
    wanted = {spec.game for spec in schedule}
    done = {game: record for game, record in done.items() if game in wanted}
    pending = [spec for spec in schedule if spec.game not in done]
    if executor is None:
        executor = LocalExecutor(workers)
    games = executor(
        pending,
        agent_specs,
        seed=seed,
        save_logs=save_logs,
        max_steps=max_steps,
        game=game,
        rules=rules,
    )
    with contextlib.ExitStack() as stack:
        handle = stack.enter_context(open(out, "a", encoding="utf-8")) if out else None
        bar = stack.enter_context(_progress(len(schedule), len(done), progress, description))
        for record in games:
            if handle is not None and not record.get("error"):
                handle.write(results_line(record))
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
    game: str = DEFAULT_GAME,
    rules: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The configuration an arena results file records (workers do not change results); its
    ``rules`` (the options that differ from the game's defaults) only when there are some."""
    config: dict[str, Any] = {
        "kind": "arena",
        "game": game,
        "agents": agent_specs,
        "players": len(agent_specs),
        "games": games,
        "seed": seed,
        "paired": paired,
        "seating": seating,
        "save_logs": save_logs,
        "max_steps": max_steps,
    }
    recorded = rules_record(game, rules)
    if recorded:
        config["rules"] = recorded
    return config


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
    executor: Executor | None = None,
    game: str = DEFAULT_GAME,
    rules: Mapping[str, Any] | None = None,
) -> ArenaRun:
    """Play ``games`` games of ``game`` (rounded up to whole rotations) between ``specs``, one
    per seat, dealt with the rules options ``rules`` names (option name -> value, e.g.
    ``{"full_game": True}``; the game's defaults for the others).

    ``num_players``, if given, must equal the number of specs (a check for callers). A rules
    option the game does not have, or a bad value, is a ValueError naming the game and the
    option, before any game is played.
    """
    played_game = resolve_game(game)
    if num_players is not None and num_players != len(specs):
        raise ValueError(
            f"{len(specs)} agents for {num_players} seats; give one agent per seat "
            f"(repeat an agent to fill seats, e.g. heuristic,greedy,greedy,greedy)"
        )
    if len(specs) not in played_game.player_counts:
        raise ValueError(
            f"the arena seats one agent per player: give {counts_text(played_game.player_counts)} "
            f"agents for {played_game.title}, got {len(specs)} (repeat an agent to fill seats, e.g. "
            f"heuristic,greedy,greedy,greedy)"
        )
    if seed < 0:
        raise ValueError(f"seed must be >= 0, got {seed}")
    rules = rules_record(played_game, rules)
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
        game=played_game.name,
        rules=rules,
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
        executor=executor,
        game=played_game.name,
        rules=rules,
    )
    return ArenaRun(
        labels, agent_specs, len(labels), records, len(played), time.perf_counter() - started
    )
