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

Every registered game is served (:func:`known_games` is the registry's ``games()``). Airships'
games are Airships logs (:mod:`airships_env.engine.log`) with the game in their header's meta
(``"game": "airships"``; a log without it is an Airships game) and keep their rich pages. Any
other game is played over the game protocol alone (:class:`GenericLiveGame`): its log is the
generic one of :mod:`airships_env.game_log` (a header naming the game, its table size, seed,
options and initial state, then one record per line), its bots are the game's agents
(:func:`agents.registry.agents_for`), and nothing here knows its rules.
"""

from __future__ import annotations

import hashlib
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from agents.cli.common import player_labels
from agents.games import DEFAULT_GAME, counts_text
from agents.registry import (
    AgentUnavailableError,
    agent_class,
    agent_options,
    agents_for,
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
    generic_settings,
    is_generic_header,
    is_generic_log,
    make_bots,
    restore,
    restore_generic,
    saved_settings,
    seat_agents,
    seat_record_text,
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
from airships_env.game_log import (
    GameLogError,
    StoredLog,
    log_header,
    parse_game_log,
    read_game_log,
    replay_log,
)
from airships_env.game_log import append_record as append_game_record
from airships_env.game_log import start_log as start_game_log
from airships_env.policy import Decision, Policy
from airships_env.protocol import Game
from airships_env.registry import games as registered_games
from airships_env.registry import get_game

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
#: A search bot's time option (read from its constructor's keyword options) and its units per
#: second: the first of these a bot takes is its time budget.
TIME_OPTIONS: tuple[tuple[str, float], ...] = (("seconds", 1.0), ("ms", 1000.0))
#: The options that count a search bot's work (simulations, steps): they take as long as they
#: take unless a time is set too.
COUNT_OPTIONS: tuple[str, ...] = ("sims", "steps")
#: The game a log is of when its header does not say.

#: The games with their own pages and view models here; every other game gets the generic page.
RICH_GAMES: tuple[str, ...] = (DEFAULT_GAME,)


def known_games() -> tuple[str, ...]:
    """The games this server plays and replays: every registered game."""
    return tuple(registered_games())


def _agent_names(game: str) -> dict[str, str]:
    """The agents of a game by spec name (Airships: its own names, as before there were games)
    and, for another game, those the server can build from numbers alone: not one that needs a
    file (the generic ``ppo:path=FILE``, which requests may not name)."""
    if game == DEFAULT_GAME:
        return agents_for(None)
    return {
        name: target for name, target in agents_for(game).items() if not _needs_file(name, game)
    }


def _needs_file(name: str, game: str | None) -> bool:
    """Whether an agent's constructor has a required option (a model file, say), or the agent
    plays a bundled file the game does not ship (``ships_for(game)`` says; the generic ``ppo``)."""
    import inspect

    try:
        cls = agent_class(name, game)
        parameters = inspect.signature(cls).parameters.values()
    except (AgentUnavailableError, ValueError, TypeError):
        return False  # reported when it is built
    ships_for = getattr(cls, "ships_for", None)
    if ships_for is not None and not ships_for(game or DEFAULT_GAME):
        return True
    return any(
        p.default is inspect.Parameter.empty
        and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
        and p.name not in ("game", "rng")
        for p in parameters
    )


def game_agents(game: str) -> list[str]:
    """The agent names a person may pick as opponents in ``game``: its bots and the generic ones."""
    return list(_agent_names(game))


def default_opponent(game: str) -> str:
    """The opponent of a new game when none is named: heuristic where the game has one."""
    return "heuristic" if "heuristic" in _agent_names(game) else "random"


def search_budget(name: str, game: str = DEFAULT_GAME) -> tuple[str, float, tuple[str, ...]] | None:
    """A search bot's budget options, read from its constructor: the time option, its units per
    second, and its count options; None for a bot without a time option (or not importable
    here: building it fails later with the reason)."""
    try:
        cls = agent_class(name, None if game == DEFAULT_GAME else game)
    except (AgentUnavailableError, ValueError):
        return None
    options, _ = agent_options(cls)
    for option, per_second in TIME_OPTIONS:
        if option in options:
            return option, per_second, tuple(c for c in COUNT_OPTIONS if c in options)
    return None


def checked_game(name: str | None) -> str:
    """A game name from a request or a log (none: Airships); ValueError naming the known ones."""
    game = (name or "").strip() or DEFAULT_GAME
    if game not in known_games():
        raise ValueError(
            f"unknown game {game[:40]!r}: the known games are {', '.join(known_games())}"
        )
    try:
        get_game(game)
    except (ImportError, TypeError, ValueError) as exc:  # a registered game that cannot load
        raise ValueError(f"game {game!r} cannot be played here: {exc}") from exc
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


def checked_spec(spec: str, game: str = DEFAULT_GAME) -> str:
    """An opponent spec from a request: an agent of ``game`` with numeric options only, each in
    range (finite, 0 to :data:`MAX_COUNT`, a time budget at most :data:`MOVE_SECONDS`).

    Raises ValueError naming what is refused.
    """
    known = _agent_names(game)
    name, options = parse_spec(spec, None if game == DEFAULT_GAME else game)
    if name not in known:
        raise ValueError(
            f"unknown agent {name!r}: the web app plays the registered agents "
            f"({', '.join(known)}) only"
        )
    problem = non_finite_option(spec, options)
    if problem:
        raise ValueError(problem)
    budget: tuple[str, float, tuple[str, ...]] | bool | None = False  # False: not read yet
    for key, value in options.items():
        if isinstance(value, bool):
            continue
        if not isinstance(value, (int, float)):
            raise ValueError(
                f"agent spec {spec!r}: option {key}={value!r}: the web app takes numbers and "
                f"true/false only (files and paths are for the command line)"
            )
        if budget is False:
            budget = search_budget(name, game)
        if isinstance(budget, tuple) and key == budget[0]:
            most = MOVE_SECONDS * budget[1]
            if not 0 < value <= most:
                raise ValueError(
                    f"agent spec {spec!r}: {key}={value} is over {most:g}: a bot move thinks "
                    f"for at most {MOVE_SECONDS:g} s on this server"
                )
        if not 0 <= value <= MAX_COUNT:
            raise ValueError(f"agent spec {spec!r}: {key}={value} is out of range (0-{MAX_COUNT})")
    return spec.strip()


def bot_spec(spec: str, game: str = DEFAULT_GAME) -> str:
    """The spec the server builds a bot from: a search bot given a count budget (``sims``,
    ``steps``) and no time gets the time option at :data:`MOVE_SECONDS` as well, so that it
    stops at whichever comes first (the log keeps the spec as asked)."""
    name, options = parse_spec(spec, None if game == DEFAULT_GAME else game)
    budget = search_budget(name, game) if options else None
    if budget is None:
        return spec
    time_option, per_second, counts = budget
    if time_option in options or not any(key in options for key in counts):
        return spec
    return f"{spec.strip()},{time_option}={MOVE_SECONDS * per_second:g}"


def make_web_bot(spec: str, game: str = DEFAULT_GAME) -> Policy:
    """A bot of ``game`` as this server builds it (:func:`bot_spec`).

    A search bot of another game named with no budget at all keeps its own default count and
    gets the time cap as well: the generic searches' defaults (200 simulations to the end of the
    game) think 4 to 8 s a move on Clockwork City and Australia. Its time option is set on the
    built bot (the bots keep each option under its own name and read it at every move); a bot
    that does not keep it so is left as built. Airships' search defaults take 0.1 to 0.35 s.
    """
    if game == DEFAULT_GAME:
        return make_agent(bot_spec(spec))
    bot = make_agent(bot_spec(spec, game), game=game)
    name, options = parse_spec(spec, game)
    budget = search_budget(name, game)
    if budget is not None and not any(key in options for key in (budget[0], *budget[2])):
        time_option, per_second, _counts = budget
        if hasattr(bot, time_option) and getattr(bot, time_option) is None:
            setattr(bot, time_option, MOVE_SECONDS * per_second)
    return bot


def checked_opponents(text: str, game: str = DEFAULT_GAME) -> list[str]:
    """A comma list of opponent specs (options stay attached, see ``split_specs``)."""
    if not text.strip():
        raise ValueError("no opponents given")
    return [checked_spec(spec, game) for spec in split_specs(text)]


def checked_players(game: str, players: int) -> int:
    """``players`` when ``game`` is played by that many; a ValueError naming the counts."""
    counts = get_game(game).player_counts
    if players not in counts:
        raise ValueError(
            f"{get_game(game).title} is played by {counts_text(counts)} players: players must "
            f"be one of {', '.join(str(c) for c in counts)}, got {players}"
        )
    return players


@dataclass
class LiveGame:
    """A person's game of Airships open on the server: the state, the bots and where its log is."""

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

    num_actions = len(ACTION_NAMES)

    def legal(self) -> list[tuple[int, str]]:
        """The legal actions now, with their names."""
        if self.state.is_terminal():
            return []
        return [(action, ACTION_NAMES[action]) for action in self.state.legal_actions()]

    @property
    def human_to_act(self) -> bool:
        """Whether the person decides now."""
        return not self.state.is_terminal() and self.state.current_player == self.seat

    @property
    def step(self) -> int:
        """The actions taken so far."""
        return self.state.step

    def action_name(self, action: int) -> str:
        """An action index's name ('no action' out of range)."""
        return ACTION_NAMES[action] if 0 <= action < len(ACTION_NAMES) else "no action"

    def bot_decision(self) -> Decision:
        """The decision facing the bot to act."""
        return Decision.from_state(self.state)

    def apply(self, action: int) -> ActionRecord:
        """Apply a legal action and append its record to the log (flushed)."""
        record = self.state.apply_action(action)
        with open(self.path, "a", encoding="utf-8") as handle:
            append_record(handle, record)
            self.size = handle.tell()
        self.records.append(record)
        return record


@dataclass
class GenericLiveGame:
    """A person's game of any registered game, played over the game protocol alone.

    ``records`` are the game's records, ``players`` the seat that chose each, ``texts`` each
    record as the person's seat may read it (:func:`~agents.web.generic.seat_record_text`,
    taken when it was applied).
    """

    id: str
    path: Path
    rules: Game
    state: Any
    seat: int
    agents: list[str]
    bots: dict[int, Policy]
    records: list[Any]
    players: list[int]
    texts: list[str]
    size: int
    labels: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def game(self) -> str:
        """The registered name of its game."""
        return self.rules.name

    @property
    def num_actions(self) -> int:
        """The size of the game's action table."""
        return self.rules.num_actions

    def legal(self) -> list[tuple[int, str]]:
        """The legal actions now, with their names."""
        if self.state.is_terminal():
            return []
        return [(action, self.rules.action_name(action)) for action in self.state.legal_actions()]

    @property
    def human_to_act(self) -> bool:
        """Whether the person decides now."""
        return not self.state.is_terminal() and self.state.current_player == self.seat

    @property
    def step(self) -> int:
        """The actions taken so far."""
        return len(self.records)

    def action_name(self, action: int) -> str:
        """An action index's name ('no action' out of range)."""
        return self.rules.action_name(action) if 0 <= action < self.num_actions else "no action"

    def bot_decision(self) -> Decision:
        """The decision facing the bot to act."""
        return Decision.for_game(self.rules, self.state)

    def apply(self, action: int) -> Any:
        """Apply a legal action and append its record to the log (flushed)."""
        player = self.state.current_player
        record = self.state.apply_action(action)
        with open(self.path, "a", encoding="utf-8") as handle:
            append_game_record(handle, record)
            self.size = handle.tell()
        self.records.append(record)
        self.players.append(player)
        self.texts.append(seat_record_text(self.rules, record, self.state, player, self.seat))
        return record


Live = LiveGame | GenericLiveGame


@dataclass(frozen=True)
class LogEntry:
    """A log in the folder, for the list of games."""

    id: str
    agents: list[str]
    players: int
    actions: int
    finished: bool | None  # None: not known without replaying (a generic log)
    playable: bool  # a person's game (it records a human seat and its opponents)
    problem: str = ""
    game: str = DEFAULT_GAME


def _modified(path: Path) -> float:
    """When a file (or a link itself, when it leads nowhere) was last changed."""
    return path.lstat().st_mtime


class GameStore:
    """The games in one folder (see the module docstring)."""

    def __init__(self, folder: str | Path, max_upload: int = 5 * 1024 * 1024):
        self.folder = Path(folder).resolve()
        self.max_upload = max_upload
        self._live: dict[str, Live] = {}
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
                entries.append(self._entry(relative, path))
            except (LogError, ValueError) as exc:
                entries.append(LogEntry(relative, [], 0, 0, False, False, str(exc)))
        return entries

    def _entry(self, relative: str, path: Path) -> LogEntry:
        """The list's line of one log (a ValueError when it does not read)."""
        if is_generic_log(path):
            stored = read_game_log(path)
            game = checked_game(stored.game)
            state = stored.header.get("initial_state")
            players = stored.num_players or (state or {}).get("num_players", 0)
            names = _meta_names(stored.meta)
            playable = generic_settings(stored) is not None and not relative.startswith(UPLOADS)
            return LogEntry(
                relative, names, int(players), len(stored.records), None, playable, game=game
            )
        log = read_log(path)
        game = log_game(log.meta)
        players = log.initial_state.get("num_players", 0)
        names = _meta_names(log.meta)
        finished = bool(log.records) and log.records[-1].game_over
        playable = saved_settings(log) is not None and not relative.startswith(UPLOADS)
        return LogEntry(
            relative, names, int(players), len(log.records), finished, playable, game=game
        )

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
        checked_players(game, players)
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is out of range: seats are 0 to {players - 1}")
        if seed is not None and not 0 <= seed <= MAX_SEED:
            raise ValueError(f"seed must be 0 to {MAX_SEED}, got {seed}")
        specs = [checked_spec(spec, game) for spec in opponents]
        if not specs:
            raise ValueError("no opponents given")
        if len(specs) > players - 1:
            raise ValueError(f"{len(specs)} opponents do not fit {players - 1} other seat(s)")
        seed = seed if seed is not None else fresh_seed()
        agents = seat_agents(specs, players, seat)
        try:
            bots = make_bots(agents, seed, lambda spec: make_web_bot(spec, game))
        except (AgentUnavailableError, OSError) as exc:
            raise ValueError(f"an opponent is not available: {exc}") from exc
        meta = {**game_meta(SERVE_TOOL, seed, seat, agents), "game": game}
        labels = player_labels(agents, players, seat)
        if game in RICH_GAMES:
            state = new_game(players, seed=seed)
            game_id, path, size = self._new_log(seed, lambda p: start_log(p, state, meta))
            live: Live = LiveGame(
                game_id, path, state, seat, agents, bots, [], size, labels, game=game
            )
        else:
            rules = get_game(game)
            state = rules.new_state(players, seed=seed)
            header = log_header(rules, state, players, seed, None, meta)
            game_id, path, size = self._new_log(seed, lambda p: start_game_log(p, header))
            live = GenericLiveGame(
                game_id, path, rules, state, seat, agents, bots, [], [], [], size, labels
            )
        with self._lock:
            self._live[game_id] = live
        return game_id

    def _new_log(self, seed: int, start: Callable[[Path], IO[str]]) -> tuple[str, Path, int]:
        """A new log ``web-SEED[-N]`` begun by ``start``: its id, path and size."""
        self.folder.mkdir(parents=True, exist_ok=True)
        with self._lock:
            for number in range(1, 1000):
                game_id = f"web-{seed}" + (f"-{number}" if number > 1 else "")
                path = self.path_of(game_id, must_exist=False)
                try:
                    handle = start(path)
                except FileExistsError:
                    continue
                size = handle.tell()
                handle.close()
                return game_id, path, size
        raise ValueError(f"too many games with seed {seed} in {self.folder}")  # pragma: no cover

    def live(self, game_id: str) -> Live:
        """The open game of an id, read from its log when it is not open or the file changed."""
        path = self.path_of(game_id)
        with self._lock:
            game = self._live.get(game_id)
            if game is not None and game.size == path.stat().st_size:
                return game
            game = self._open_generic(game_id, path) if is_generic_log(path) else None
            if game is None:
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
            raise GameError(409, _not_a_persons_game(game_id))
        try:
            specs = [spec if spec == HUMAN else checked_spec(spec) for spec in settings.agents]
            bots = make_bots(specs, settings.seed, make_web_bot)
            restored = restore(log, bots)
        except (ValueError, AgentUnavailableError, OSError) as exc:
            raise GameError(409, f"{game_id}: its opponents cannot play here: {exc}") from exc
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
            _divergence_notes(settings.agents, restored.diverged),
            game,
        )

    def _open_generic(self, game_id: str, path: Path) -> GenericLiveGame:
        """A generic log opened to play on: replayed with the bots shown their logged moves."""
        try:
            stored = read_game_log(path)
            rules = get_game(checked_game(stored.game))
            replay_log(stored, rules)  # checks every record before any bot is built
        except ValueError as exc:  # GameLogError is a ValueError too
            message = str(exc) if isinstance(exc, GameLogError) else f"{game_id}: {exc}"
            raise GameError(422, message) from exc
        settings = generic_settings(stored)
        if settings is None:
            raise GameError(409, _not_a_persons_game(game_id))
        seed, seat, agents = settings
        try:
            specs = [spec if spec == HUMAN else checked_spec(spec, rules.name) for spec in agents]
            bots = make_bots(specs, seed, lambda spec: make_web_bot(spec, rules.name))
            restored = restore_generic(stored, rules, bots, seat)
        except (ValueError, AgentUnavailableError, OSError) as exc:
            raise GameError(409, f"{game_id}: its opponents cannot play here: {exc}") from exc
        replayed, texts, diverged = restored.replayed, restored.texts, restored.diverged
        num_players = replayed.state.num_players
        return GenericLiveGame(
            game_id,
            path,
            rules,
            replayed.state,
            seat,
            agents,
            bots,
            replayed.records,
            replayed.players,
            texts,
            path.stat().st_size,
            player_labels(agents, num_players, seat),
            _divergence_notes(agents, diverged),
        )

    def act(self, game_id: str, action: int, step: int) -> Any:
        """The person's action at ``step``; a stale step, an illegal action or a bot's turn is
        refused (409) with the legal actions named, and changes nothing."""
        game = self.live(game_id)
        with game.lock:
            state = game.state
            if state.is_terminal():
                raise GameError(409, f"{game_id}: the game is over", step=game.step)
            if step != game.step:
                raise GameError(
                    409,
                    f"stale action: it was chosen at step {step}, the game is at step {game.step}",
                    game.legal() if game.human_to_act else (),
                    game.step,
                )
            if not game.human_to_act:
                raise GameError(
                    409,
                    f"it is {game.labels[state.current_player]}'s turn, not yours",
                    step=game.step,
                )
            if action not in state.legal_actions():
                name = game.action_name(action)
                raise GameError(
                    409, f"action {action} ({name}) is not legal now", game.legal(), game.step
                )
            return game.apply(action)

    def advance(self, game_id: str, step: int, all_moves: bool = False) -> list[Any]:
        """Let the bot to act at ``step`` play one move (or every move until the person's turn
        or the end, with ``all_moves``)."""
        game = self.live(game_id)
        with game.lock:
            state = game.state
            if step != game.step:
                raise GameError(
                    409,
                    f"stale request: step {step}, the game is at step {game.step}",
                    step=game.step,
                )
            if state.is_terminal() or game.human_to_act:
                raise GameError(409, "no bot is to act now", game.legal(), game.step)
            records = []
            started = time.monotonic()
            while not state.is_terminal() and not game.human_to_act:
                bot = game.bots[state.current_player]
                records.append(game.apply(bot.act(game.bot_decision())))
                # One move per request, or (all) moves until the person's turn, the end, or
                # ADVANCE_SECONDS: the page asks again for the rest.
                if not all_moves or time.monotonic() - started >= ADVANCE_SECONDS:
                    break
            return records

    # -- replays ------------------------------------------------------------------------------
    def is_generic(self, game_id: str) -> bool:
        """Whether the log of an id is a generic game log (else an Airships log)."""
        return is_generic_log(self.path_of(game_id))

    def read(self, game_id: str) -> tuple[GameLog, GameState]:
        """An Airships log of the folder, checked by replaying it, and its final state."""
        path = self.path_of(game_id)
        try:
            log = read_log(path)
            log_game(log.meta)
            return log, replay(log)
        except LogError as exc:
            raise GameError(422, str(exc)) from exc
        except ValueError as exc:
            raise GameError(422, f"{game_id}: {exc}") from exc

    def read_generic(self, game_id: str) -> tuple[StoredLog, Game]:
        """A generic log of the folder, checked by replaying it, and its game."""
        path = self.path_of(game_id)
        try:
            stored = read_game_log(path)
            rules = get_game(checked_game(stored.game))
            replay_log(stored, rules)
        except GameLogError as exc:
            raise GameError(422, str(exc)) from exc
        except ValueError as exc:
            raise GameError(422, f"{game_id}: {exc}") from exc
        return stored, rules

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
            lines = text.splitlines()
            if lines and is_generic_header(lines[0]):
                stored = parse_game_log(lines, source)
                replay_log(stored, get_game(checked_game(stored.game)))
            else:
                log = parse_log(lines, source)
                log_game(log.meta)
                replay(log)
        except ValueError as exc:  # LogError and GameLogError are ValueErrors too
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


def _meta_names(meta: dict[str, Any]) -> list[str]:
    """The agents a log's header records, as text."""
    agents = meta.get("agents")
    return [str(a) for a in agents] if isinstance(agents, list) else []


def _not_a_persons_game(game_id: str) -> str:
    return (
        f"{game_id} is not a person's game against bots (its header does not record "
        f"the seed, the person's seat and the opponents): open it as a replay"
    )


def _divergence_notes(agents: Sequence[str], diverged: set[int]) -> list[str]:
    return [
        f"{agents[seat]} at seat {seat} did not repeat its logged moves; "
        f"the game continues from the log"
        for seat in sorted(diverged)
    ]
