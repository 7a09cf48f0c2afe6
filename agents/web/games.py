"""The web app's games: JSON-lines game logs in one folder, played and replayed by the engine.

A game is its log file, ``<folder>/<id>.jsonl``, the same log ``airships play`` writes (see
:mod:`agents.session`): a game started in the browser resumes in the terminal with ``airships
play --resume`` and the other way round, and a restart of the server loses nothing. The server
keeps each open game in memory (state, bots) and appends one record per action, flushed at once;
when the file changed on disk since (a terminal played on), the game is read again.

Requests never name a path: a game is named by its id (letters, digits, ``-``, ``_``, ``.``),
which must name a file directly inside the folder (a link that leads elsewhere is refused, in
the list of games too). Bots are built only from registered agent names with numeric options
(never a dotted import path, a file or a string option), and they play server-side, one move per
request, so that a page can show them one by one; a search bot's budget is capped so that one
move thinks for at most :data:`MOVE_SECONDS` (see :func:`bot_spec`).

A log records the game it is of in its header's meta (``"game": "airships"``); a log without it
is an Airships game.
"""

from __future__ import annotations

import hashlib
import re
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from agents.cli.common import player_labels
from agents.registry import (
    AGENTS,
    AgentUnavailableError,
    make_agent,
    non_finite_option,
    parse_spec,
    split_specs,
)
from agents.session import (
    HUMAN,
    SERVE_TOOL,
    fresh_seed,
    game_meta,
    make_bots,
    restore,
    saved_settings,
    seat_agents,
    start_log,
)
from airships_env.engine import (
    ACTION_NAMES,
    ActionRecord,
    GameLog,
    GameState,
    LogError,
    new_game,
    read_log,
    replay,
)
from airships_env.engine.log import append_record, parse_log
from airships_env.policy import Decision, Policy

GAME_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")
LOG_SUFFIX = ".jsonl"
UPLOADS = "uploads"
MAX_SEED = 2**63 - 1
#: The most one bot move may think on this server, in seconds. A person waits for each move, the
#: bots run on a few worker threads shared by every game, and the search bots' own defaults take
#: 0.1 to 0.35 s a move: 3 s leaves ten times that for a stronger setting, and no more.
MOVE_SECONDS = 3.0
#: The most seconds one request lets the bots play in a row (``all``): the page asks again.
ADVANCE_SECONDS = 2 * MOVE_SECONDS
#: The largest number an agent option of a request may have (simulations, steps, weights).
MAX_COUNT = 100_000
#: The search bots' budget options: the time option, its units per second, and the options that
#: count work (simulations, steps), which take as long as they take unless a time is set too.
SEARCH_BUDGETS: dict[str, tuple[str, float, tuple[str, ...]]] = {
    "mcts": ("seconds", 1.0, ("sims", "steps")),
    "ismcts": ("ms", 1000.0, ("sims",)),
}
#: The game a log is of when its header does not say.
DEFAULT_GAME = "airships"


def known_games() -> tuple[str, ...]:
    """The games this server plays and replays (one place to list them)."""
    return (DEFAULT_GAME,)


def checked_game(name: str | None) -> str:
    """A game name from a request or a log (none: Airships); ValueError naming the known ones."""
    game = (name or "").strip() or DEFAULT_GAME
    if game not in known_games():
        raise ValueError(
            f"unknown game {game[:40]!r}: the known games are {', '.join(known_games())}"
        )
    return game


def log_game(meta: dict[str, object]) -> str:
    """The game a log's header names (none: Airships), refused (ValueError) when unknown."""
    name = meta.get("game")
    if name is not None and not isinstance(name, str):
        raise ValueError(f"the header's game must be a name, got {name!r}")
    return checked_game(name)


class GameError(Exception):
    """A request the games cannot serve: ``status`` is its HTTP status, ``legal`` the legal
    actions (as ``(index, name)``) when an action was refused."""

    def __init__(
        self, status: int, message: str, legal: Sequence[tuple[int, str]] = (), step: int = -1
    ):
        super().__init__(message)
        self.status = status
        self.message = message
        self.legal = list(legal)
        self.step = step


def checked_spec(spec: str) -> str:
    """An opponent spec from a request: a registered agent with numeric options only, each in
    range (finite, 0 to :data:`MAX_COUNT`, a time budget at most :data:`MOVE_SECONDS`).

    Raises ValueError naming what is refused.
    """
    name, options = parse_spec(spec)
    if name not in AGENTS:
        raise ValueError(
            f"unknown agent {name!r}: the web app plays the registered agents "
            f"({', '.join(AGENTS)}) only"
        )
    problem = non_finite_option(spec, options)
    if problem:
        raise ValueError(problem)
    time_option = SEARCH_BUDGETS[name][:2] if name in SEARCH_BUDGETS else None
    for key, value in options.items():
        if isinstance(value, bool):
            continue
        if not isinstance(value, (int, float)):
            raise ValueError(
                f"agent spec {spec!r}: option {key}={value!r}: the web app takes numbers and "
                f"true/false only (files and paths are for the command line)"
            )
        if time_option is not None and key == time_option[0]:
            most = MOVE_SECONDS * time_option[1]
            if not 0 < value <= most:
                raise ValueError(
                    f"agent spec {spec!r}: {key}={value} is over {most:g}: a bot move thinks "
                    f"for at most {MOVE_SECONDS:g} s on this server"
                )
        if not 0 <= value <= MAX_COUNT:
            raise ValueError(f"agent spec {spec!r}: {key}={value} is out of range (0-{MAX_COUNT})")
    return spec.strip()


def bot_spec(spec: str) -> str:
    """The spec the server builds a bot from: a search bot given a count budget (``sims``,
    ``steps``) and no time gets the time option at :data:`MOVE_SECONDS` as well, so that it
    stops at whichever comes first (the log keeps the spec as asked)."""
    name, options = parse_spec(spec)
    if name not in SEARCH_BUDGETS:
        return spec
    time_option, per_second, counts = SEARCH_BUDGETS[name]
    if time_option in options or not any(key in options for key in counts):
        return spec
    return f"{spec.strip()},{time_option}={MOVE_SECONDS * per_second:g}"


def make_web_bot(spec: str) -> Policy:
    """A bot as this server builds it (:func:`bot_spec`)."""
    return make_agent(bot_spec(spec))


def checked_opponents(text: str) -> list[str]:
    """A comma list of opponent specs (options stay attached, see ``split_specs``)."""
    if not text.strip():
        raise ValueError("no opponents given")
    return [checked_spec(spec) for spec in split_specs(text)]


@dataclass
class LiveGame:
    """A person's game open on the server: the state, the bots and where its log is."""

    id: str
    path: Path
    state: GameState
    seat: int
    agents: list[str]
    bots: dict[int, Policy]
    records: list[ActionRecord]
    size: int  # the log's size in bytes as this server last wrote or read it
    labels: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    game: str = DEFAULT_GAME  # the game it is of (its log's header says)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def legal(self) -> list[tuple[int, str]]:
        """The legal actions now, with their names."""
        if self.state.is_terminal():
            return []
        return [(action, ACTION_NAMES[action]) for action in self.state.legal_actions()]

    @property
    def human_to_act(self) -> bool:
        """Whether the person decides now."""
        return not self.state.is_terminal() and self.state.current_player == self.seat


@dataclass(frozen=True)
class LogEntry:
    """A log in the folder, for the list of games."""

    id: str
    agents: list[str]
    players: int
    actions: int
    finished: bool
    playable: bool  # a person's game (it records a human seat and its opponents)
    problem: str = ""


def _modified(path: Path) -> float:
    """When a file (or a link itself, when it leads nowhere) was last changed."""
    return path.lstat().st_mtime


class GameStore:
    """The games in one folder (see the module docstring)."""

    def __init__(self, folder: str | Path, max_upload: int = 5 * 1024 * 1024):
        self.folder = Path(folder).resolve()
        self.max_upload = max_upload
        self._live: dict[str, LiveGame] = {}
        self._lock = threading.Lock()

    # -- names and files ----------------------------------------------------------------------
    def path_of(self, game_id: str, must_exist: bool = True) -> Path:
        """The log of a game id: a file directly inside the folder (or its uploads folder)."""
        parts = game_id.split("/")
        if (
            len(parts) > 2
            or (len(parts) == 2 and parts[0] != UPLOADS)
            or not GAME_ID.match(parts[-1])
            or ".." in parts[-1]
        ):
            raise GameError(404, f"no game {game_id!r}: a game id is letters, digits, - _ .")
        path = (self.folder / (game_id + LOG_SUFFIX)).resolve()
        if path.parent not in (self.folder, self.folder / UPLOADS):
            raise GameError(404, f"no game {game_id!r}")
        if must_exist and not path.is_file():
            raise GameError(404, f"no game {game_id!r} in {self.folder}")
        return path

    def entries(self) -> list[LogEntry]:
        """The logs in the folder, newest first (a log that does not read says why)."""
        paths = sorted(self.folder.glob(f"*{LOG_SUFFIX}"), key=_modified, reverse=True)
        uploads = self.folder / UPLOADS
        if uploads.is_dir():
            paths += sorted(uploads.glob(f"*{LOG_SUFFIX}"), key=_modified, reverse=True)
        entries = []
        for path in paths:
            relative = path.relative_to(self.folder).with_suffix("").as_posix()
            try:
                self.path_of(relative)  # the checks /game and /replay make: links stay inside
            except GameError:
                continue
            try:
                log = read_log(path)
                log_game(log.meta)
            except (LogError, ValueError) as exc:
                entries.append(LogEntry(relative, [], 0, 0, False, False, str(exc)))
                continue
            players = log.initial_state.get("num_players", 0)
            agents = log.meta.get("agents")
            names = [str(a) for a in agents] if isinstance(agents, list) else []
            finished = bool(log.records) and log.records[-1].game_over
            playable = saved_settings(log) is not None and not relative.startswith(UPLOADS)
            entries.append(
                LogEntry(relative, names, int(players), len(log.records), finished, playable)
            )
        return entries

    # -- a person's games ---------------------------------------------------------------------
    def create(
        self,
        players: int,
        seat: int,
        opponents: Sequence[str],
        seed: int | None,
        game: str = DEFAULT_GAME,
    ) -> str:
        """Start a new game and return its id; ValueError says what is wrong with the request."""
        game = checked_game(game)
        if not 2 <= players <= 4:
            raise ValueError(f"players must be 2 to 4, got {players}")
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is out of range: seats are 0 to {players - 1}")
        if seed is not None and not 0 <= seed <= MAX_SEED:
            raise ValueError(f"seed must be 0 to {MAX_SEED}, got {seed}")
        specs = [checked_spec(spec) for spec in opponents]
        if not specs:
            raise ValueError("no opponents given")
        if len(specs) > players - 1:
            raise ValueError(f"{len(specs)} opponents do not fit {players - 1} other seat(s)")
        seed = seed if seed is not None else fresh_seed()
        agents = seat_agents(specs, players, seat)
        try:
            bots = make_bots(agents, seed, make_web_bot)
        except (AgentUnavailableError, OSError) as exc:
            raise ValueError(f"an opponent is not available: {exc}") from exc
        state = new_game(players, seed=seed)
        self.folder.mkdir(parents=True, exist_ok=True)
        with self._lock:
            for number in range(1, 1000):
                game_id = f"web-{seed}" + (f"-{number}" if number > 1 else "")
                path = self.path_of(game_id, must_exist=False)
                try:
                    meta = {**game_meta(SERVE_TOOL, seed, seat, agents), "game": game}
                    handle = start_log(path, state, meta)
                except FileExistsError:
                    continue
                size = handle.tell()
                handle.close()
                break
            else:  # pragma: no cover - a thousand games with one seed
                raise ValueError(f"too many games with seed {seed} in {self.folder}")
            self._live[game_id] = LiveGame(
                game_id, path, state, seat, agents, bots, [], size,
                player_labels(agents, players, seat), game=game,
            )  # fmt: skip
        return game_id

    def live(self, game_id: str) -> LiveGame:
        """The open game of an id, read from its log when it is not open or the file changed."""
        path = self.path_of(game_id)
        with self._lock:
            game = self._live.get(game_id)
            if game is not None and game.size == path.stat().st_size:
                return game
            game = self._open(game_id, path)
            self._live[game_id] = game
            return game

    def _open(self, game_id: str, path: Path) -> LiveGame:
        try:
            log = read_log(path)
            game = log_game(log.meta)
            replay(log)  # checks every record; a bad line raises LogError naming it
        except (LogError, ValueError) as exc:
            message = str(exc) if isinstance(exc, LogError) else f"{game_id}: {exc}"
            raise GameError(422, message) from exc
        settings = saved_settings(log)
        if settings is None:
            raise GameError(
                409,
                f"{game_id} is not a person's game against bots (its header does not record "
                f"the seed, the person's seat and the opponents): open it as a replay",
            )
        try:
            specs = [spec if spec == HUMAN else checked_spec(spec) for spec in settings.agents]
            bots = make_bots(specs, settings.seed, make_web_bot)
            restored = restore(log, bots)
        except (ValueError, AgentUnavailableError, OSError) as exc:
            raise GameError(409, f"{game_id}: its opponents cannot play here: {exc}") from exc
        notes = [
            f"{settings.agents[seat]} at seat {seat} did not repeat its logged moves; "
            f"the game continues from the log"
            for seat in sorted(restored.diverged)
        ]
        return LiveGame(
            game_id,
            path,
            restored.state,
            settings.seat,
            settings.agents,
            bots,
            list(log.records),
            path.stat().st_size,
            player_labels(settings.agents, restored.state.num_players, settings.seat),
            notes,
            game,
        )

    def _apply(self, game: LiveGame, action: int) -> ActionRecord:
        record = game.state.apply_action(action)
        with open(game.path, "a", encoding="utf-8") as handle:
            append_record(handle, record)
            game.size = handle.tell()
        game.records.append(record)
        return record

    def act(self, game_id: str, action: int, step: int) -> ActionRecord:
        """The person's action at ``step``; a stale step, an illegal action or a bot's turn is
        refused (409) with the legal actions named, and changes nothing."""
        game = self.live(game_id)
        with game.lock:
            state = game.state
            if state.is_terminal():
                raise GameError(409, f"{game_id}: the game is over", step=state.step)
            if step != state.step:
                raise GameError(
                    409,
                    f"stale action: it was chosen at step {step}, the game is at step {state.step}",
                    game.legal() if game.human_to_act else (),
                    state.step,
                )
            if not game.human_to_act:
                raise GameError(
                    409,
                    f"it is {game.labels[state.current_player]}'s turn, not yours",
                    step=state.step,
                )
            legal = state.legal_actions()
            if action not in legal:
                name = ACTION_NAMES[action] if 0 <= action < len(ACTION_NAMES) else "no action"
                raise GameError(
                    409, f"action {action} ({name}) is not legal now", game.legal(), state.step
                )
            return self._apply(game, action)

    def advance(self, game_id: str, step: int, all_moves: bool = False) -> list[ActionRecord]:
        """Let the bot to act at ``step`` play one move (or every move until the person's turn
        or the end, with ``all_moves``)."""
        game = self.live(game_id)
        with game.lock:
            state = game.state
            if step != state.step:
                raise GameError(
                    409,
                    f"stale request: step {step}, the game is at step {state.step}",
                    step=state.step,
                )
            if state.is_terminal() or game.human_to_act:
                raise GameError(409, "no bot is to act now", game.legal(), state.step)
            records = []
            started = time.monotonic()
            while not state.is_terminal() and not game.human_to_act:
                bot = game.bots[state.current_player]
                records.append(self._apply(game, bot.act(Decision.from_state(state))))
                # One move per request, or (all) moves until the person's turn, the end, or
                # ADVANCE_SECONDS: the page asks again for the rest.
                if not all_moves or time.monotonic() - started >= ADVANCE_SECONDS:
                    break
            return records

    # -- replays ------------------------------------------------------------------------------
    def read(self, game_id: str) -> tuple[GameLog, GameState]:
        """A log of the folder, checked by replaying it, and its final state."""
        path = self.path_of(game_id)
        try:
            log = read_log(path)
            log_game(log.meta)
            return log, replay(log)
        except LogError as exc:
            raise GameError(422, str(exc)) from exc
        except ValueError as exc:
            raise GameError(422, f"{game_id}: {exc}") from exc

    def save_upload(self, name: str, data: bytes) -> str:
        """Check an uploaded log (it must replay) and keep it under ``uploads/``; its id."""
        if len(data) > self.max_upload:
            raise GameError(413, f"the log is over the limit of {self.max_upload} bytes")
        source = Path(name).name or "upload"
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise GameError(400, f"{source}: not a text file (UTF-8): {exc.reason}") from exc
        try:
            log = parse_log(text.splitlines(), source)
            log_game(log.meta)
            replay(log)
        except ValueError as exc:  # LogError is a ValueError too
            message = str(exc)
            if not message.startswith(source):
                message = f"{source}: {message}"
            raise GameError(400, message) from exc
        digest = hashlib.sha256(data).hexdigest()[:16]
        game_id = f"{UPLOADS}/{digest}"
        path = self.path_of(game_id, must_exist=False)
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists():
            path.write_bytes(data)
        return game_id
