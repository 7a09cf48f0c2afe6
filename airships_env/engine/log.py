"""Game logs as JSON lines, and replay.

Line 1 is a header holding the complete initial state (hidden cards included: a log is the
referee's record, never an agent's input); every further line is one :class:`ActionRecord`.
:func:`replay` rebuilds the game from the header, applies each logged action with its logged
dice, checks that every record comes out identical, and returns the final state.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from airships_env.engine.cards import CardSet
from airships_env.engine.errors import LogError
from airships_env.engine.records import ActionRecord
from airships_env.engine.rules import apply_action
from airships_env.engine.state import GameState

LOG_FORMAT = "airships-log"
#: The game a log records (its header's ``"game"``; a header without one is an Airships log).
LOG_GAME = "airships"
LOG_VERSION = 2  # 2: Rules v1 (83 actions, exchange variants)


@dataclass
class GameLog:
    """A header (initial state, metadata) and the records of the actions applied since."""

    initial_state: dict[str, Any]
    records: list[ActionRecord] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    #: Where the log was read from ("" if built in memory): replay errors name it.
    source: str = field(default="", compare=False)
    #: A last line that a crash cut short and :func:`read_log` dropped (``torn_end=True``):
    #: its line number and text; None when the file ended cleanly.
    dropped: tuple[int, str] | None = field(default=None, compare=False)

    @classmethod
    def start(cls, state: GameState, **meta: Any) -> GameLog:
        """A log beginning at ``state`` (usually a freshly set-up game)."""
        return cls(state.to_dict(), [], dict(meta))

    def header(self) -> dict[str, Any]:
        """The header line's content."""
        return {
            "type": "header",
            "format": LOG_FORMAT,
            "game": LOG_GAME,
            "version": LOG_VERSION,
            "meta": self.meta,
            "initial_state": self.initial_state,
        }

    def lines(self) -> Iterator[str]:
        """The log as JSON lines (no trailing newlines)."""
        yield json.dumps(self.header(), separators=(",", ":"))
        for record in self.records:
            yield record_line(record)

    def write(self, path: str | Path) -> None:
        """Write the whole log to ``path``."""
        with open(path, "w", encoding="utf-8") as handle:
            for line in self.lines():
                handle.write(line + "\n")

    def replay(
        self, cards: CardSet | None = None, upto: int | None = None, reroll: bool = True
    ) -> GameState:
        """The state after the first ``upto`` records (all by default); see :func:`replay`."""
        return replay(self, cards, upto, reroll)


def record_entry(record: ActionRecord) -> dict[str, Any]:
    """One record as a log line's JSON object (``"type": "action"`` and the record's fields)."""
    return {"type": "action", **record.to_dict()}


def record_line(record: ActionRecord) -> str:
    """One record as a JSON line."""
    return json.dumps(record_entry(record), separators=(",", ":"))


def append_record(handle: IO[str], record: ActionRecord) -> None:
    """Append one record to an open log file and flush, so that a crash loses nothing."""
    handle.write(record_line(record) + "\n")
    handle.flush()


def read_log(path: str | Path, torn_end: bool = False) -> GameLog:
    """Read a log file; a bad line raises :class:`LogError` naming the file and the line.

    With ``torn_end``, a last line without its newline that does not parse (a crash cut it
    short while it was written) is dropped and reported in :attr:`GameLog.dropped` instead.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise LogError(f"{path}: cannot read the log: {exc.strerror or exc}") from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LogError(
            f"{path}: not a game log: byte {exc.start} is not UTF-8 text (a game log is JSON "
            f"lines written by airships play, the web app or the arena)"
        ) from exc
    lines = text.splitlines()
    if torn_end and lines and not text.endswith("\n"):
        try:
            json.loads(lines[-1])
        except json.JSONDecodeError:
            log = parse_log(lines[:-1], str(path))
            log.dropped = (len(lines), lines[-1])
            return log
    return parse_log(lines, str(path))


def parse_log(lines: Iterable[str], source: str = "<log>") -> GameLog:
    """Parse log lines (see :func:`read_log`)."""
    log: GameLog | None = None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise LogError(f"{source}: line {number}: not valid JSON ({exc.msg})") from exc
        if not isinstance(data, dict):
            raise LogError(f"{source}: line {number}: expected a JSON object")
        if log is None:
            game = data.get("game", LOG_GAME) if data.get("type") == "header" else LOG_GAME
            if game != LOG_GAME:
                raise LogError(
                    f"{source}: line {number}: a game log of {game!r}, not of Airships "
                    f"(the header names its game)"
                )
            if data.get("type") != "header" or data.get("format") != LOG_FORMAT:
                raise LogError(
                    f"{source}: line {number}: not an Airships game log "
                    f"(the first line must be its header)"
                )
            if data.get("version") != LOG_VERSION:
                raise LogError(
                    f"{source}: line {number}: log version {data.get('version')!r} "
                    f"is not supported (this version reads version {LOG_VERSION})"
                )
            if not isinstance(data.get("initial_state"), dict):
                raise LogError(f"{source}: line {number}: the header has no initial state")
            log = GameLog(data["initial_state"], [], data.get("meta", {}), source)
            continue
        if data.get("type") != "action":
            raise LogError(f"{source}: line {number}: unknown line type {data.get('type')!r}")
        del data["type"]
        try:
            log.records.append(ActionRecord.from_dict(data))
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise LogError(f"{source}: line {number}: not a valid action record ({exc!r})") from exc
    if log is None:
        raise LogError(f"{source}: the log is empty")
    return log


def replay(
    log: GameLog, cards: CardSet | None = None, upto: int | None = None, reroll: bool = True
) -> GameState:
    """Rebuild the game from the log and return its state after the first ``upto`` records.

    With ``reroll`` (the default) and a generator in the initial state, the dice are rolled
    again with the restored generator, so the final state is identical bit for bit, generator
    included; otherwise each attempt takes its logged dice. Either way every record the replay
    produces must equal the logged one; the first that differs raises :class:`LogError` naming
    its line (the header is line 1).
    """
    where = f"{log.source}: " if log.source else ""
    try:
        state = GameState.from_dict(log.initial_state, cards)
    except (KeyError, TypeError, ValueError) as exc:
        raise LogError(f"{where}line 1: the initial state cannot be restored ({exc})") from exc
    records = log.records if upto is None else log.records[:upto]
    force = not reroll or state.rng is None
    for number, logged in enumerate(records, start=2):
        try:
            produced = apply_action(state, logged.action, logged.rolled if force else None)
        except ValueError as exc:
            raise LogError(
                f"{where}line {number}: the logged action does not replay: {exc}"
            ) from exc
        if produced != logged:
            differing = [
                name
                for name in logged.to_dict()
                if getattr(produced, name) != getattr(logged, name)
            ]
            raise LogError(
                f"{where}line {number}: the replay differs from the log in {', '.join(differing)}"
            )
    return state
