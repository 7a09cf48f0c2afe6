"""A person's game against bots, saved as a game log: what ``airships play`` and the web app share.

The log is the engine's (:mod:`airships_env.engine.log`): a header with the initial state and
``meta``, then one record per action, appended and flushed as the game goes. The header's meta
records what it takes to continue the game anywhere: ``tool`` (the program that started it, one
of :data:`GAME_TOOLS`), ``seed``, ``seat`` (the person's) and ``agents`` (the spec of every seat,
:data:`HUMAN` for the person). A game started at the terminal continues in the browser and the
other way round.

Deterministic resumption: each bot gets its own generator, ``SeedSequence(seed).spawn(players)
[seat]`` (never the game's), once per game; on resuming, the bots are rebuilt from their specs
with the same generators and shown every decision they took in the log again (their answers must
match the logged actions), which brings their generators and any state they keep to exactly
where they were. A bot whose answers depend on the clock (a time budget) may answer differently;
then the log wins and the caller is told which seats diverged.

Games other than Airships are saved as generic game logs (:mod:`airships_env.game_log`), with
the same meta in their header: :func:`generic_settings`, :func:`restore_generic` and
:func:`seat_record_text` (what a seat may read of a record) serve both front ends.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np

from airships_env.engine import GameLog, GameState
from airships_env.game_log import Replayed, StoredLog, is_game_log_header, replay_log
from airships_env.policy import Decision, Policy
from airships_env.protocol import Game

HUMAN = "human"
PLAY_TOOL = "airships play"
SERVE_TOOL = "airships serve"
#: Programs whose logs record a person's game that can be continued.
GAME_TOOLS = (PLAY_TOOL, SERVE_TOOL)


def bot_generator(seed: int, num_players: int, seat: int) -> np.random.Generator:
    """The generator of the bot at ``seat``: its own stream, never the game's."""
    return np.random.default_rng(np.random.SeedSequence(seed).spawn(num_players)[seat])


def fresh_seed() -> int:
    """A new seed from OS entropy, short enough for a file name."""
    return int(np.random.SeedSequence().generate_state(1)[0])


def seat_agents(opponents: Sequence[str], num_players: int, seat: int) -> list[str]:
    """The agent spec of every seat: the person at ``seat``, the opponents (cycled) elsewhere."""
    others = [opponents[i % len(opponents)] for i in range(num_players - 1)]
    return [*others[:seat], HUMAN, *others[seat:]]


def make_bots(
    agents: Sequence[str], seed: int, make: Callable[[str], Policy] | None = None
) -> dict[int, Policy]:
    """The bots of every non-human seat, built by ``make`` (default: the registry's
    ``make_agent``), checked to fit the table (``TableFitError``, a ValueError naming the
    policy's file, the player count it was trained for and the table's) and reset with their
    own generators."""
    from agents.registry import check_fit

    if make is None:
        from agents.registry import make_agent

        make = make_agent
    bots: dict[int, Policy] = {}
    for seat, spec in enumerate(agents):
        if spec != HUMAN:
            bots[seat] = make(spec)
            check_fit(bots[seat], len(agents), spec)
            bots[seat].reset(seat, len(agents), bot_generator(seed, len(agents), seat))
    return bots


def game_meta(tool: str, seed: int, seat: int, agents: Sequence[str]) -> dict[str, Any]:
    """The header meta of a person's game (see the module docstring)."""
    from airships_env import __version__

    return {
        "tool": tool,
        "version": __version__,
        "seed": seed,
        "seat": seat,
        "agents": list(agents),
    }


def start_log(path: Path, state: GameState, meta: dict[str, Any]) -> IO[str]:
    """Create the log at ``path`` with its header and return it open for appending records.

    Raises ``FileExistsError`` when ``path`` exists (a game is never overwritten here).
    """
    handle = open(path, "x", encoding="utf-8")  # noqa: SIM115 - the caller closes it
    handle.write(next(GameLog.start(state, **meta).lines()) + "\n")
    handle.flush()
    return handle


@dataclass(frozen=True)
class SavedSettings:
    """What a person's game log records about its players: seed, the person's seat, agents."""

    seed: int
    seat: int
    agents: list[str]
    tool: str


def saved_settings(log: GameLog) -> SavedSettings | None:
    """The settings a log's header records, or None when it is no person's game against bots
    (an arena log, a log without the seed, the seat or the agents)."""
    meta = log.meta
    num_players = log.initial_state.get("num_players")
    agents = meta.get("agents")
    seed, seat, tool = meta.get("seed"), meta.get("seat"), meta.get("tool")
    if (
        tool not in GAME_TOOLS
        or not isinstance(num_players, int)
        or not isinstance(agents, list)
        or len(agents) != num_players
        or not all(isinstance(agent, str) for agent in agents)
        or not isinstance(seed, int)
        or isinstance(seed, bool)
        or not isinstance(seat, int)
        or not 0 <= seat < num_players
        or agents[seat] != HUMAN
    ):
        return None
    return SavedSettings(seed, seat, list(agents), str(tool))


@dataclass
class Restored:
    """A game brought back from its log: the state after the last record, the bots where they
    were, and the seats whose bots did not repeat their logged moves."""

    state: GameState
    bots: dict[int, Policy]
    diverged: set[int] = field(default_factory=set)


def restore(log: GameLog, bots: dict[int, Policy]) -> Restored:
    """Replay ``log`` from its header, showing each bot its logged decisions again.

    The log must have been checked (``replay(log)``) and hold a generator in its initial state:
    the restored generator rolls the logged dice again.
    """
    state = GameState.from_dict(log.initial_state)
    if state.rng is None:
        raise ValueError("line 1: the initial state has no random generator")
    diverged: set[int] = set()
    for record in log.records:
        bot = bots.get(record.player)
        if (
            bot is not None
            and record.player not in diverged
            and bot.act(Decision.from_state(state)) != record.action
        ):
            diverged.add(record.player)
        state.apply_action(record.action)
    return Restored(state, bots, diverged)


# ---------------------------------------------------------------------------------------------
# Games of any registered game (generic game logs, over the game protocol)
# ---------------------------------------------------------------------------------------------
#: Characters of a log's first line read to tell its format (a header holds an initial state).
HEADER_LIMIT = 4 * 1024 * 1024


def _takes_seat(method: Callable[..., Any]) -> bool:
    """Whether a presenter's ``record_text`` takes a ``seat`` keyword."""
    try:
        return "seat" in inspect.signature(method).parameters
    except (TypeError, ValueError):
        return False


def seat_record_text(
    rules: Game, record: Any, state_after: Any, player: int, seat: int | None
) -> str:
    """``record`` (chosen by ``player``; ``state_after`` is the true game after it) as ``seat``
    may read it (None: the referee's true log).

    The protocol's ``record_text(record, state)`` has no seat, and presenters write the true
    log (a card drawn, a hidden choice), so another seat's record is told by its action's name
    only, unless the presenter's ``record_text`` takes a ``seat`` keyword (then it is asked as
    that seat sees it); the seat's own records are told in full. The web pages and ``airships
    play`` both tell records through this one function."""
    presenter = rules.presenter()
    if seat is None:
        return str(presenter.record_text(record, state_after))
    view = state_after.view(seat)
    tell: Callable[..., Any] = presenter.record_text
    if _takes_seat(tell):  # beyond the protocol: a presenter that tells a record per seat
        return str(tell(record, view, seat=seat))
    if player == seat:
        return str(presenter.record_text(record, view))
    return rules.action_name(record.action)


def outcome_rows(state: Any, labels: Sequence[str]) -> list[dict[str, Any]]:
    """A finished game's seats, best place first: label, score, place, winner."""
    outcome = state.outcome()
    if outcome is None:
        return []
    rows = [
        {
            "seat": seat,
            "label": labels[seat],
            "score": _number(outcome.scores[seat]),
            "rank": outcome.ranks[seat],
            "winner": seat in outcome.winners,
        }
        for seat in range(state.num_players)
    ]
    return sorted(rows, key=lambda row: (row["rank"], row["seat"]))


def result_text(state: Any, labels: Sequence[str]) -> str:
    """'P0 (you) wins', 'P0 and P2 share the win', 'a draw'."""
    outcome = state.outcome()
    if outcome is None:
        return ""
    winners = [labels[seat] for seat in outcome.winners]
    if not winners:
        return "a draw"
    if len(winners) == 1:
        return f"{winners[0]} wins"
    return f"{', '.join(winners[:-1])} and {winners[-1]} share the win"


def _number(value: float) -> int | float:
    """A score as written: 3, not 3.0."""
    return int(value) if float(value).is_integer() else value


def is_generic_header(line: str) -> bool:
    """Whether a log's first line is a generic game log's header."""
    try:
        return is_game_log_header(json.loads(line))
    except ValueError:
        return False


def is_generic_log(path: Path) -> bool:
    """Whether the log at ``path`` is a generic game log (its first line says)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            first = handle.readline(HEADER_LIMIT)
    except OSError:
        return False
    return is_generic_header(first)


def generic_settings(stored: StoredLog) -> tuple[int, int, list[str]] | None:
    """The seed, the person's seat and every seat's agent a generic log of a person's game
    records; None for any other log (an arena's, one missing any of them)."""
    meta = stored.meta
    seed, seat, agents = meta.get("seed"), meta.get("seat"), meta.get("agents")
    num_players = stored.num_players
    if (
        meta.get("tool") not in GAME_TOOLS
        or num_players is None
        or not isinstance(agents, list)
        or len(agents) != num_players
        or not all(isinstance(agent, str) for agent in agents)
        or not isinstance(seed, int)
        or isinstance(seed, bool)
        or not isinstance(seat, int)
        or isinstance(seat, bool)
        or not 0 <= seat < num_players
        or agents[seat] != HUMAN
    ):
        return None
    return seed, seat, list(agents)


@dataclass
class GenericRestored:
    """A generic log replayed with its bots: the game, each record as the person's seat may
    read it, and the seats whose bots did not repeat their logged moves."""

    replayed: Replayed
    texts: list[str]
    diverged: set[int] = field(default_factory=set)


def restore_generic(
    stored: StoredLog, rules: Game, bots: dict[int, Policy], seat: int | None
) -> GenericRestored:
    """Replay a generic log, showing each bot its logged decisions again (so that its generator
    ends where it was) and telling each record as ``seat`` may read it
    (:func:`seat_record_text`); GameLogError names a line that does not replay."""
    texts: list[str] = []
    diverged: set[int] = set()

    def shown(state: Any, logged: Any) -> None:
        player = state.current_player
        bot = bots.get(player)
        if (
            bot is not None
            and player not in diverged
            and bot.act(Decision.for_game(rules, state)) != logged.action
        ):
            diverged.add(player)

    def told(state: Any, record: Any, player: int) -> None:
        texts.append(seat_record_text(rules, record, state, player, seat))

    replayed = replay_log(stored, rules, before=shown, after=told)
    return GenericRestored(replayed, texts, diverged)
