"""Game logs of any registered game: a header line, then one action record per line (JSON lines).

The header names the game and how it was set up, and holds the initial state exactly::

    {
        "type": "header",
        "format": "game-log",
        "game": "tricks",
        "version": 0,
        "num_players": 2,
        "seed": 7,
        "options": null,
        "meta": {...},
        "initial_state": {...},
    }

Every later line is one record's ``to_dict()``. :func:`replay_log` rebuilds the game from the
initial state (``Game.state_from_dict``; a header without one is dealt again from ``num_players``,
``seed`` and ``options`` with ``Game.new_state``) and applies each record with
``Game.replay_action``: chance is drawn again from the state's generator, so the replayed game
follows the original bit for bit, and every record it produces must equal the logged one. The
first that does not raises :class:`GameLogError` naming the source and the line (the header is
line 1), as does any line that is not what it should be.

It talks only to the game protocol (:mod:`airships_env.protocol`). Airships keeps its own log
(:mod:`airships_env.engine.log`, format ``airships-log``); the arena's logs of other games use
this header too (``format``, ``game``, ``version``, ``meta``, ``initial_state``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from airships_env.protocol import Game

__all__ = [
    "LOG_FORMAT",
    "GameLogError",
    "Replayed",
    "StoredLog",
    "append_record",
    "is_game_log_header",
    "log_header",
    "parse_game_log",
    "read_game_log",
    "record_line",
    "replay_log",
    "start_log",
]

LOG_FORMAT = "game-log"


class GameLogError(ValueError):
    """A game log that cannot be read or replayed; the message names the source and the line."""


@dataclass
class StoredLog:
    """A log as read: its header and its records as dicts (one per action)."""

    header: dict[str, Any]
    records: list[dict[str, Any]] = field(default_factory=list)
    source: str = ""

    @property
    def game(self) -> str:
        """The registered name of the game the log is of."""
        return str(self.header["game"])

    @property
    def meta(self) -> dict[str, Any]:
        """What the program that wrote it recorded (players' agents, the person's seat...)."""
        meta = self.header.get("meta")
        return meta if isinstance(meta, dict) else {}

    @property
    def num_players(self) -> int | None:
        """The table size the header records (None when it records only the initial state)."""
        value = self.header.get("num_players")
        return value if isinstance(value, int) and not isinstance(value, bool) else None


@dataclass
class Replayed:
    """A log replayed: the state after the records, the records as the game's objects, and the
    seat that chose each of them."""

    state: Any
    records: list[Any]
    players: list[int]


def log_header(
    game: Game,
    state: Any,
    num_players: int,
    seed: int | None,
    options: Mapping[str, Any] | None = None,
    meta: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The header of a log of ``game`` starting at ``state`` (set up from the other fields)."""
    return {
        "type": "header",
        "format": LOG_FORMAT,
        "game": game.name,
        "version": game.version,
        "num_players": num_players,
        "seed": seed,
        "options": None if options is None else dict(options),
        "meta": dict(meta or {}),
        "initial_state": state.to_dict(),
    }


def record_line(record: Any) -> str:
    """One record as a JSON line (no newline)."""
    return json.dumps(record.to_dict(), separators=(",", ":"))


def start_log(path: str | Path, header: Mapping[str, Any]) -> IO[str]:
    """Create the log at ``path`` with ``header`` and return it open for appending records.

    Raises ``FileExistsError`` when ``path`` exists (a log is never overwritten).
    """
    handle = open(path, "x", encoding="utf-8")  # noqa: SIM115 - the caller closes it
    handle.write(json.dumps(dict(header), separators=(",", ":")) + "\n")
    handle.flush()
    return handle


def append_record(handle: IO[str], record: Any) -> None:
    """Append one record to an open log and flush, so that a crash loses nothing."""
    handle.write(record_line(record) + "\n")
    handle.flush()


def is_game_log_header(data: object) -> bool:
    """Whether a parsed first line is the header of a log of this format."""
    return (
        isinstance(data, dict) and data.get("type") == "header" and data.get("format") == LOG_FORMAT
    )


def parse_game_log(lines: Iterable[str], source: str = "<log>") -> StoredLog:
    """Parse log lines (see the module docstring); GameLogError names the line at fault."""
    log: StoredLog | None = None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise GameLogError(f"{source}: line {number}: not valid JSON ({exc.msg})") from exc
        if not isinstance(data, dict):
            raise GameLogError(f"{source}: line {number}: expected a JSON object")
        if log is None:
            if not is_game_log_header(data):
                raise GameLogError(
                    f"{source}: line {number}: not a game log (the first line must be its "
                    f'header, with "format": "{LOG_FORMAT}")'
                )
            if not isinstance(data.get("game"), str):
                raise GameLogError(f"{source}: line {number}: the header's game must be a name")
            has_state = isinstance(data.get("initial_state"), dict)
            if not has_state and not isinstance(data.get("num_players"), int):
                raise GameLogError(
                    f"{source}: line {number}: the header has neither an initial state nor "
                    f"num_players and seed to deal one"
                )
            log = StoredLog(data, [], source)
            continue
        log.records.append(data)
    if log is None:
        raise GameLogError(f"{source}: the log is empty")
    return log


def read_game_log(path: str | Path) -> StoredLog:
    """Read a log file; GameLogError names the file and the line at fault."""
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise GameLogError(f"{path}: cannot read the log: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise GameLogError(f"{path}: not a game log: byte {exc.start} is not UTF-8") from exc
    return parse_game_log(text.splitlines(), str(path))


def _initial_state(log: StoredLog, game: Game) -> Any:
    where = f"{log.source}: line 1"
    header = log.header
    try:
        if isinstance(header.get("initial_state"), dict):
            state = game.state_from_dict(header["initial_state"])
            if state.num_players not in game.player_counts:
                raise ValueError(
                    f"{state.num_players} players: {game.title} is played by "
                    f"{', '.join(str(n) for n in game.player_counts)}"
                )
            return state
        num_players = header["num_players"]
        if num_players not in game.player_counts:
            raise ValueError(
                f"num_players {num_players!r}: {game.title} is played by "
                f"{', '.join(str(n) for n in game.player_counts)}"
            )
        options = header.get("options")
        if options is not None and not isinstance(options, dict):
            raise ValueError(f"options must be an object or null, got {options!r}")
        seed = header.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ValueError(f"seed must be a whole number or null, got {seed!r}")
        return game.new_state(num_players, seed=seed, options=options)
    except (AttributeError, KeyError, IndexError, TypeError, ValueError) as exc:
        raise GameLogError(f"{where}: the initial state cannot be set up ({exc})") from exc


def replay_log(
    log: StoredLog,
    game: Game,
    upto: int | None = None,
    before: Callable[[Any, Any], None] | None = None,
    after: Callable[[Any, Any, int], None] | None = None,
) -> Replayed:
    """The game after the first ``upto`` records (all by default), each checked (see the module
    docstring); GameLogError names the line that does not replay. ``before(state, record)`` is
    called before each record is applied, ``after(state, record, seat)`` after it."""
    if log.game != game.name:
        raise GameLogError(f"{log.source}: line 1: a log of {log.game!r}, not of {game.name!r}")
    state = _initial_state(log, game)
    num_players = log.num_players
    if num_players is not None and num_players != state.num_players:
        raise GameLogError(
            f"{log.source}: line 1: num_players is {num_players}, the initial state has "
            f"{state.num_players}"
        )
    records: list[Any] = []
    players: list[int] = []
    chosen = log.records if upto is None else log.records[:upto]
    for number, data in enumerate(chosen, start=2):
        where = f"{log.source}: line {number}"
        try:
            logged = game.record_from_dict(data)
        except (AttributeError, KeyError, IndexError, TypeError, ValueError) as exc:
            raise GameLogError(f"{where}: not a valid {game.name} record ({exc!r})") from exc
        if state.is_terminal():
            raise GameLogError(f"{where}: a record after the end of the game")
        seat = state.current_player
        if before is not None:
            before(state, logged)
        try:
            produced = game.replay_action(state, logged)
        except (AttributeError, KeyError, IndexError, TypeError, ValueError) as exc:
            raise GameLogError(f"{where}: the logged action does not replay: {exc}") from exc
        if produced != logged:
            raise GameLogError(
                f"{where}: the replay differs from the log: logged {logged.to_dict()}, "
                f"replayed {produced.to_dict()}"
            )
        records.append(produced)
        players.append(seat)
        if after is not None:
            after(state, produced, seat)
    return Replayed(state, records, players)
