"""The web app (Starlette): play against the bots, replay game logs, look at tournament results.

Every registered game is served: the home page is a game chooser (each game's title, player
counts and a form with its agents). Airships has its own pages and view models (the table as
SVG from :mod:`airships_env.render.svg`, exact odds on every choice); any other game gets the
generic pages of :mod:`agents.web.generic`, drawn over the game protocol alone, so a newly
registered game needs no web code. Pages are rendered on the server (Jinja2); a little plain
JavaScript (``static/app.js``) submits forms
without reloading the page, lets the bots move one by one, and plays replays. Every page works
without it.

Routes::

    GET  /                         the game chooser, the games in the folder, upload a log
    GET  /play?game=airships&players=2&opponents=heuristic&seat=0&seed=7   a new game by URL
    POST /new                      a new game from the form
    GET  /game/{id}                the table, your choices with their odds, the bots' moves
    POST /game/{id}/act            action, step: your choice (409 if stale or illegal)
    POST /game/{id}/advance        step[, all]: the bot to act moves (one, or all until you)
    GET  /api/game/{id}            the game as JSON (step, seat to act, legal actions, scores)
    GET  /replay/{id}?step=N       a log, step by step (Airships also ?turn=N)
    POST /replays                  upload a log (multipart, size-limited) and replay it
    GET  /results                  the tournament result folders
    GET  /results/{name}           leaderboard, pairwise matrix and plots

Errors answer with their status (400 a game that is not registered or a player count the game
does not have, naming the allowed ones, 404 unknown game id, 409 stale or illegal action naming
the legal actions, 400 bad input naming the field or a log that is not a game log, 413 an
upload or a body over the limit, 503 when the bots' queue is full), as a page or, for
``Accept: application/json``, as ``{"error": ..., "legal_actions": [...]}``. Every number of a
request is range-checked before it is used (:mod:`agents.web.inputs`).

Bots move on a few worker threads (:class:`BotWorkers`) with a bounded queue, never on the event
loop: the server keeps answering while a bot thinks, and a search bot's move is capped at
:data:`~agents.web.games.MOVE_SECONDS`.

The markup contract the browser tests of every game rely on: the game's page carries
``data-game="NAME"`` on one element, each legal choice is an element with
``data-action="INDEX"``, and a finished game shows ``data-testid="game-over"``;
``/play?game=NAME&players=N&opponents=SPEC,...&seat=S&seed=K`` starts a game.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import threading
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from agents.cli.common import meta_agents, player_labels
from agents.web.games import (
    GAME_ID,
    MAX_SEED,
    GameError,
    GameStore,
    GenericLiveGame,
    LiveGame,
    checked_game,
    checked_opponents,
    checked_players,
    counts_text,
    default_opponent,
    game_agents,
    generic_settings,
    known_games,
    log_game,
)
from agents.web.generic import outcome_rows, result_text, seat_record_text, table_view
from agents.web.inputs import (
    body_fields,
    flag,
    read_body,
    replayed,
    text_field,
    whole_number,
)
from airships_env.engine import (
    CHIP_DECISION,
    PHASE_NAMES,
    ActionRecord,
    GameState,
    attempt_odds,
    attempt_target,
    attempt_variant,
    is_attempt,
    player_pool,
    score_parts,
    target_card,
)
from airships_env.engine import text as words
from airships_env.engine.rules import airship_count
from airships_env.game_log import replay_log
from airships_env.registry import get_game
from airships_env.render import svg
from airships_env.render.palette import PLAYER_COLOURS, hex_colour

HERE = Path(__file__).resolve().parent
PLOTS = ("ratings", "pairwise")
DEFAULT_PACE_MS = 700
MAX_PACE_MS = 60_000
#: Room for the multipart form around an uploaded log (boundaries, headers, other fields).
UPLOAD_MARGIN = 64 * 1024
#: The most steps a game or a replay position may be asked for (a game has a few hundred).
MAX_STEP = 1_000_000
#: Bot moves thinking at once (one per core of a small machine), and waiting at most.
BOT_WORKERS = 2
BOT_QUEUE = 8

T = TypeVar("T")


class BotWorkers:
    """Bot moves off the event loop: ``workers`` threads and at most ``queue`` moves waiting or
    running; a move beyond that is refused (503) rather than queued without end."""

    def __init__(self, workers: int = BOT_WORKERS, queue: int = BOT_QUEUE):
        self.executor = ThreadPoolExecutor(workers, thread_name_prefix="airships-bot")
        self.queue = queue
        self._pending = 0
        self._lock = threading.Lock()

    async def run(self, work: Callable[[], T]) -> T:
        """Run ``work`` on a worker thread and wait for it without blocking the event loop."""
        with self._lock:
            if self._pending >= self.queue:
                raise GameError(
                    503, f"the bots are busy ({self._pending} moves waiting): try again shortly"
                )
            self._pending += 1
        try:
            return await asyncio.wrap_future(self.executor.submit(work))
        finally:
            with self._lock:
                self._pending -= 1

    def close(self) -> None:
        """Stop taking moves (a move already thinking finishes on its thread)."""
        self.executor.shutdown(wait=False, cancel_futures=True)


def _templates() -> Environment:
    env = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals["player_colour"] = lambda seat: hex_colour(PLAYER_COLOURS[seat % 4])
    env.globals["dice_legend"] = [
        (Markup(picture), meaning) for picture, meaning in svg.dice_legend_svg()
    ]
    return env


# ---------------------------------------------------------------------------------------------
# What the pages show
# ---------------------------------------------------------------------------------------------
def table_context(state: GameState, labels: Sequence[str]) -> dict[str, Any]:
    """The SVG pieces and the header of a table."""
    return {
        "state": state,
        "labels": labels,
        "board_svg": Markup(svg.board_svg(state)),
        "stacks_svg": Markup(svg.stacks_svg(state, labels)),
        "company_svgs": [
            Markup(svg.company_svg(state, seat, labels)) for seat in range(state.num_players)
        ],
        "deck": words.deck_text(state),
        "removed": words.removed_text(state),
        "phase": PHASE_NAMES[state.phase],
        "status": words.status_text(state, labels),
    }


def record_view(
    record: ActionRecord, labels: Sequence[str], wooden_before: int | None
) -> dict[str, Any]:
    """One action record as the pages narrate it: who, what, the dice, the total, the result."""
    dice = ""
    if record.rolled is not None and record.kept is not None and is_attempt(record.action):
        dice = Markup(svg.dice_svg(words.roll_groups(record.rolled, record.kept)))
    exchange = ""
    if record.exchange is not None:
        exchange = Markup(svg.tokens_svg(words.exchange_made_parts(record.exchange), 18))
    return {
        "record": record,
        "player": record.player,
        "label": labels[record.player],
        "what": words.action_text(record),
        "exchange": exchange,
        "dice": dice,
        "roll": (
            words.roll_text(record.rolled, record.kept)
            if record.rolled is not None and record.kept is not None
            else ""
        ),
        "total": words.total_text(record.dice_sum, record.bonuses, record.total, record.needed),
        "result": record.result or "",
        "result_label": words.result_label(record.result),
        "events": words.record_events(record, labels, wooden_before),
        "text": words.record_text(record, labels, wooden_before),
    }


def records_view(
    records: Sequence[ActionRecord], labels: Sequence[str], start: int
) -> list[dict[str, Any]]:
    """``records[start:]`` narrated, each knowing who held the wooden airship before it."""
    views = []
    for index in range(start, len(records)):
        before = records[index - 1].wooden_airship if index > 0 else None
        views.append(record_view(records[index], labels, before))
    return views


def choices_view(state: GameState) -> dict[str, Any]:
    """The person's legal actions: attempts with their card, cost and exact odds (T5), with
    the exchange variant (T3); the other choices with what they mean now."""
    player = state.current_player
    has_chip = state.players[player].chips_on_board > 0
    pool = player_pool(state, player)
    attempts, others = [], []
    for action in state.legal_actions():
        if not is_attempt(action):
            others.append({"action": action, "text": words.choice_text(state, action)})
            continue
        target = attempt_target(action)
        info = target_card(state, target)
        odds = attempt_odds(state, action)
        if info is None or odds is None:  # not reached for a legal attempt
            continue
        card_id, _card, cost, needed = info
        hand = pool.hands[attempt_variant(action)]
        exchange = ""
        if hand is not None and hand.exchange is not None:
            exchange = Markup(svg.tokens_svg(words.exchange_made_parts(hand.exchange), 18))
        success, chip, with_chip = words.odds_texts(odds, has_chip)
        attempts.append(
            {
                "action": action,
                "target": target,
                "where": words.target_short_text(target),
                "card": card_id,
                "cost": Markup(svg.tokens_svg((words.Dice(cost),), 18)),
                "needed": needed,
                "value": words.target_value_text(state, target),
                "exchange": exchange,
                "variant": attempt_variant(action),
                "odds": (success, chip, with_chip),
                "success": odds.success,
                "name": words.plain((words.target_short_text(target),)),
            }
        )
    pending = None
    if state.phase == CHIP_DECISION and state.pending is not None:
        p = state.pending
        info = target_card(state, p.target)
        pending = {
            "card": info[0] if info else words.target_short_text(p.target),
            "dice": Markup(svg.dice_svg(words.roll_groups(p.rolled, p.kept))),
            "total": words.total_text(p.dice_sum, p.bonuses, p.total, p.needed),
        }
    return {
        "attempts": attempts,
        "others": others,
        "odds_labels": words.ODDS_LABELS,
        "pending": pending,
        "has_chip": has_chip,
    }


def scores_view(state: GameState, labels: Sequence[str]) -> list[dict[str, Any]]:
    """Every player's score by part (E2) and airships (the E3 tie-break), best first."""
    rows = []
    for seat in range(state.num_players):
        parts = score_parts(state, seat)
        rows.append(
            {
                "seat": seat,
                "label": labels[seat],
                "parts": parts,
                "total": sum(parts.values()),
                "airships": airship_count(state, seat),
                "winner": state.winners is not None and seat in state.winners,
            }
        )
    return sorted(rows, key=lambda row: (-row["total"], -row["airships"], row["seat"]))


def _last_human_index(game: LiveGame | GenericLiveGame) -> int:
    """Where 'since your last choice' starts: after the person's last record."""
    players = (
        game.players
        if isinstance(game, GenericLiveGame)
        else [record.player for record in game.records]
    )
    for index in range(len(players) - 1, -1, -1):
        if players[index] == game.seat:
            return index
    return 0


def game_choices() -> list[dict[str, Any]]:
    """The game chooser: every registered game's name, title, player counts and agents."""
    choices: list[dict[str, Any]] = []
    for name in known_games():
        try:
            rules = get_game(name)
        except (ImportError, TypeError, ValueError) as exc:  # listed, with why it cannot play
            choices.append({"name": name, "title": name, "problem": str(exc)})
            continue
        choices.append(
            {
                "name": name,
                "title": rules.title,
                "counts": list(rules.player_counts),
                "counts_text": counts_text(rules.player_counts),
                "agents": game_agents(name),
                "opponent": default_opponent(name),
                "problem": "",
            }
        )
    return choices


def _generic_json(game: GenericLiveGame) -> dict[str, Any]:
    """A generic game as JSON (the fields of Airships' that the protocol gives)."""
    state = game.state
    over = state.is_terminal()
    outcome = state.outcome()
    return {
        "id": game.id,
        "game": game.game,
        "step": game.step,
        "turn": game.step,
        "to_act": None if over else state.current_player,
        "your_seat": game.seat,
        "agents": game.agents,
        "phase": "",
        "legal_actions": [{"action": a, "name": n} for a, n in game.legal()],
        "game_over": over,
        "scores": None if outcome is None else list(outcome.scores),
        "winners": None if outcome is None else list(outcome.winners),
        "ranks": None if outcome is None else list(outcome.ranks),
        "last": game.texts[-1] if game.texts else None,
    }


# ---------------------------------------------------------------------------------------------
# The app
# ---------------------------------------------------------------------------------------------
class WebApp:
    """The routes over a :class:`GameStore` and a results folder."""

    def __init__(
        self,
        games: str | Path = "games",
        results: str | Path = "results",
        pace_ms: int = DEFAULT_PACE_MS,
        max_upload: int = 5 * 1024 * 1024,
    ):
        self.store = GameStore(games, max_upload)
        self.results = Path(results).resolve()
        self.pace_ms = pace_ms
        self.templates = _templates()
        self.bots = BotWorkers()

    # -- responses ----------------------------------------------------------------------------
    def page(self, template: str, status_code: int = 200, **context: Any) -> HTMLResponse:
        """A rendered template."""
        html = self.templates.get_template(template).render(**context)
        return HTMLResponse(html, status_code=status_code)

    def error(self, request: Request, exc: GameError) -> Response:
        """An error as a page, or as JSON when the request asks for it."""
        legal = [{"action": action, "name": name} for action, name in exc.legal]
        if "application/json" in request.headers.get("accept", ""):
            return JSONResponse(
                {"error": exc.message, "legal_actions": legal, "step": exc.step},
                status_code=exc.status,
            )
        back = request.url.path.rsplit("/", 1)[0] if request.method == "POST" else "/"
        return self.page(
            "error.html", exc.status, message=exc.message, legal=legal, back=back or "/"
        )

    def bad(self, request: Request, message: str, status: int = 400) -> Response:
        """A refused request."""
        return self.error(request, GameError(status, message))

    # -- pages --------------------------------------------------------------------------------
    def index(self, request: Request) -> Response:
        """The game chooser (a new-game form per registered game), the games in the folder,
        upload a log."""
        return self.page(
            "index.html",
            choices=game_choices(),
            entries=self.store.entries() if self.store.folder.is_dir() else [],
            folder=self.store.folder,
            max_upload=self.store.max_upload,
            results=self._result_names(),
        )

    async def _create(self, request: Request, fields: dict[str, str]) -> Response:
        """A new game from the fields of a URL or a form, each checked before it is used."""
        try:
            game = checked_game(text_field(fields, "game"))
            counts = get_game(game).player_counts
            players = whole_number(fields, "players", min(counts), max(counts), default=counts[0])
            checked_players(game, players)
            seat = whole_number(fields, "seat", 0, players - 1, default=0)
            seed_given = bool(fields.get("seed", "").strip())
            seed = whole_number(fields, "seed", 0, MAX_SEED) if seed_given else None
            opponents_text = text_field(fields, "opponents")
            if not opponents_text:
                seats = [text_field(fields, f"opponent{i}").strip() for i in range(1, players)]
                opponents_text = ",".join(s for s in seats if s) or default_opponent(game)

            def create() -> str:
                # Checking a spec may import its bot's module, and building bots may import a
                # library or read a policy: off the event loop.
                opponents = checked_opponents(opponents_text, game)
                return self.store.create(players, seat, opponents, seed, game)

            game_id = await run_in_threadpool(create)
        except GameError as exc:
            return self.error(request, exc)
        except ValueError as exc:
            return self.bad(request, str(exc))
        return RedirectResponse(f"/game/{game_id}", status_code=303)

    async def play_url(self, request: Request) -> Response:
        """A new game by URL: ``/play?game=airships&players=2&opponents=heuristic&seat=0&seed=7``."""
        return await self._create(request, dict(request.query_params))

    async def new(self, request: Request) -> Response:
        """A new game from the form."""
        try:
            fields = await body_fields(request)
        except GameError as exc:
            return self.error(request, exc)
        return await self._create(request, fields)

    def game(self, request: Request) -> Response:
        """The table, the person's choices (or the bot to act), the moves since, the end."""
        game_id = request.path_params["game_id"]
        try:
            game = self.store.live(game_id)
            pace = self._pace(request)
        except GameError as exc:
            return self.error(request, exc)
        if isinstance(game, GenericLiveGame):
            return self._generic_game(game, pace)
        with game.lock:
            state = game.state
            context = table_context(state, game.labels)
            since = _last_human_index(game)
            context.update(
                game=game,
                game_id=game_id,
                recent=records_view(game.records, game.labels, since)[-24:],
                choices=choices_view(state) if game.human_to_act else None,
                scores=scores_view(state, game.labels),
                result=words.result_text(state, game.labels),
                tie_break=words.tie_break_text(state, game.labels),
                pace=pace,
                step=state.step,
                game_name=game.game,
            )
            return self.page("game.html", **context)

    def _generic_game(self, game: GenericLiveGame, pace: int) -> Response:
        """The page of a game other than Airships, drawn over the protocol."""
        with game.lock:
            state = game.state
            since = _last_human_index(game)
            last = game.records[-1] if game.records else None
            over = state.is_terminal()
            recent = [
                {"step": index + 1, "player": game.players[index], "text": game.texts[index]}
                for index in range(since, len(game.records))
            ][-24:]
            return self.page(
                "generic_game.html",
                game=game,
                game_id=game.id,
                game_name=game.game,
                title=game.rules.title,
                table=table_view(game.rules, state.view(game.seat), game.seat, last),
                labels=game.labels,
                to_act=None if over else state.current_player,
                over=over,
                choices=game.legal() if game.human_to_act else None,
                recent=recent,
                scores=outcome_rows(state, game.labels),
                result=result_text(state, game.labels),
                pace=pace,
                step=game.step,
            )

    def _pace(self, request: Request) -> int:
        """The milliseconds between bot moves a page asks for (``?pace=``), range-checked."""
        return whole_number(request.query_params, "pace", 0, MAX_PACE_MS, default=self.pace_ms)

    async def act(self, request: Request) -> Response:
        """The person's choice: ``action`` and the ``step`` it was chosen at."""
        game_id = request.path_params["game_id"]
        try:
            fields = await body_fields(request)
            live = await run_in_threadpool(self.store.live, game_id)
            action = whole_number(fields, "action", 0, live.num_actions - 1)
            step = whole_number(fields, "step", 0, MAX_STEP)
            # The game's lock may be held by a bot thinking: wait for it off the event loop.
            await run_in_threadpool(self.store.act, game_id, action, step)
        except GameError as exc:
            return self.error(request, exc)
        return await self._after(request, game_id)

    async def advance(self, request: Request) -> Response:
        """The bot to act moves (``all``: every bot move until the person's turn), on a bot
        worker thread."""
        game_id = request.path_params["game_id"]
        try:
            fields = await body_fields(request)
            step = whole_number(fields, "step", 0, MAX_STEP)
            all_moves = flag(fields, "all")
            await self.bots.run(lambda: self.store.advance(game_id, step, all_moves=all_moves))
        except GameError as exc:
            return self.error(request, exc)
        return await self._after(request, game_id)

    async def _after(self, request: Request, game_id: str) -> Response:
        if "application/json" in request.headers.get("accept", ""):
            return await run_in_threadpool(self._game_json, game_id)
        try:
            pace = self._pace(request) if "pace" in request.query_params else None
        except GameError:
            pace = None
        suffix = f"?pace={pace}" if pace is not None else ""
        return RedirectResponse(f"/game/{game_id}{suffix}", status_code=303)

    def _game_json(self, game_id: str) -> Response:
        game = self.store.live(game_id)
        if isinstance(game, GenericLiveGame):
            return JSONResponse(_generic_json(game))
        state = game.state
        return JSONResponse(
            {
                "id": game_id,
                "game": game.game,
                "step": state.step,
                "turn": state.turn,
                "to_act": None if state.is_terminal() else state.current_player,
                "your_seat": game.seat,
                "agents": game.agents,
                "phase": PHASE_NAMES[state.phase],
                "legal_actions": [{"action": a, "name": n} for a, n in game.legal()],
                "game_over": state.is_terminal(),
                "scores": state.final_scores,
                "winners": state.winners,
                "last": words.record_text(game.records[-1], game.labels) if game.records else None,
            }
        )

    def game_api(self, request: Request) -> Response:
        """The game as JSON."""
        try:
            return self._game_json(request.path_params["game_id"])
        except GameError as exc:
            return self.error(request, exc)

    # -- replays ------------------------------------------------------------------------------
    def replay(self, request: Request) -> Response:
        """A log step by step: ``?step=N`` (after N actions) or ``?turn=N``."""
        game_id = request.path_params["game_id"]
        try:
            if self.store.is_generic(game_id):
                return self._generic_replay(request, game_id)
            log, final = self.store.read(game_id)
        except GameError as exc:
            return self.error(request, exc)
        records = log.records
        size = len(records)
        query = request.query_params
        first = records[0].turn if records else final.turn
        try:
            pace = self._pace(request)
            if "turn" in query and query["turn"].strip():
                turn = whole_number(query, "turn", 0, MAX_STEP)
                position = next(
                    (i for i, record in enumerate(records) if record.turn == turn), None
                )
                if position is None:
                    return self.bad(
                        request, f"no turn {turn}: the game has turns {first} to {final.turn}"
                    )
            else:
                position = whole_number(query, "step", 0, MAX_STEP, default=0)
        except GameError as exc:
            return self.error(request, exc)
        if not 0 <= position <= size:
            return self.bad(request, f"no step {position}: the game has steps 0 to {size}")
        state = final if position == size else log.replay(upto=position)
        num_players = state.num_players
        labels = player_labels(meta_agents(log.meta, num_players), num_players)
        context = table_context(state, labels)
        context.update(
            game_id=game_id,
            position=position,
            size=size,
            record=records_view(records, labels, position - 1)[0] if position else None,
            scores=scores_view(state, labels),
            result=words.result_text(state, labels),
            tie_break=words.tie_break_text(state, labels),
            turns=(records[0].turn if records else 1, final.turn),
            pace=pace,
            game_name=log_game(log.meta),
        )
        return self.page("replay.html", **context)

    def _generic_replay(self, request: Request, game_id: str) -> Response:
        """A generic log step by step (``?step=N``: after N actions), with the list of steps."""
        stored, rules = self.store.read_generic(game_id)
        query = request.query_params
        pace = self._pace(request)
        if query.get("turn", "").strip():
            return self.bad(request, f"{rules.title} replays go by step (?step=N), not by turn")
        position = whole_number(query, "step", 0, MAX_STEP, default=0)
        size = len(stored.records)
        if not 0 <= position <= size:
            return self.bad(request, f"no step {position}: the game has steps 0 to {size}")
        records: list[Any] = []
        players: list[int] = []
        after: list[Any] = []  # the true state after each record
        settings = generic_settings(stored)
        person = settings[1] if settings is not None else None

        def kept(state: Any, record: Any, player: int) -> None:
            records.append(record)
            players.append(player)
            after.append(state.clone())

        final = replay_log(stored, rules, after=kept).state
        # The referee's record once the game is over; a person's game in progress is shown
        # as that person sees it (a replay must not tell what the game page does not).
        seat = None if final.is_terminal() else person
        texts = [
            seat_record_text(rules, record, after[i], players[i], seat)
            for i, record in enumerate(records)
        ]
        state = final if position == size else replay_log(stored, rules, upto=position).state
        last = records[position - 1] if position else None
        num_players = state.num_players
        labels = player_labels(meta_agents(stored.meta, num_players), num_players, seat)
        steps = [
            {"step": index + 1, "player": players[index], "label": labels[players[index]],
             "text": texts[index]}
            for index in range(size)
        ]  # fmt: skip
        return self.page(
            "generic_replay.html",
            game_id=game_id,
            game_name=rules.name,
            title=rules.title,
            table=table_view(rules, state if seat is None else state.view(seat), seat, last),
            labels=labels,
            to_act=None if state.is_terminal() else state.current_player,
            over=state.is_terminal(),
            position=position,
            size=size,
            record=steps[position - 1] if position else None,
            steps=steps,
            scores=outcome_rows(state, labels),
            result=result_text(state, labels),
            pace=pace,
        )

    async def upload(self, request: Request) -> Response:
        """An uploaded log: checked, kept under ``uploads/``, then replayed."""
        limit = self.store.max_upload
        try:
            # The whole request is read first, never more than the log's limit and a margin
            # for the form around it (a chunked upload has no length to refuse it by).
            body = await read_body(request, limit + UPLOAD_MARGIN)
            async with replayed(request, body).form(max_files=1, max_fields=5) as form:
                upload = form.get("log")
                if upload is None or isinstance(upload, str):
                    return self.bad(request, "choose a game log file (field 'log')")
                data = await upload.read(limit + 1)
                name = upload.filename or "upload"
        except GameError as exc:
            return self.error(request, exc)
        except Exception as exc:  # a malformed multipart body (Starlette raises its own kinds)
            detail = getattr(exc, "detail", None) or str(exc)
            return self.bad(request, f"the upload is not a form: {detail}")
        try:
            game_id = await run_in_threadpool(self.store.save_upload, name, data)
        except GameError as exc:
            return self.error(request, exc)
        return RedirectResponse(f"/replay/{game_id}", status_code=303)

    # -- tournament results -------------------------------------------------------------------
    def _result_names(self) -> list[str]:
        if not self.results.is_dir():
            return []
        return sorted(
            path.parent.name
            for path in self.results.glob("*/leaderboard.json")
            if GAME_ID.match(path.parent.name)
        )

    def _result_dir(self, name: str) -> Path:
        if not GAME_ID.match(name) or name not in self._result_names():
            raise GameError(404, f"no tournament results {name!r} in {self.results}")
        return self.results / name

    def results_index(self, request: Request) -> Response:
        """The result folders."""
        return self.page("results.html", names=self._result_names(), folder=self.results)

    def result(self, request: Request) -> Response:
        """One tournament: its leaderboard, pairwise matrix and plots."""
        name = request.path_params["name"]
        try:
            folder = self._result_dir(name)
            board = json.loads((folder / "leaderboard.json").read_text(encoding="utf-8"))
        except GameError as exc:
            return self.error(request, exc)
        except (OSError, ValueError) as exc:
            return self.bad(request, f"{name}/leaderboard.json cannot be read: {exc}", 422)
        pairwise = board.get("pairwise", {})
        agents = pairwise.get("agents", [])
        order = [row["name"] for row in board.get("leaderboard", [])]
        index = {agent: i for i, agent in enumerate(agents)}
        matrix = []
        for a in order:
            cells: list[dict[str, Any] | None] = []
            for b in order:
                if a == b or a not in index or b not in index:
                    cells.append(None)
                    continue
                rate = pairwise["rate"][index[a]][index[b]]
                games = pairwise["games"][index[a]][index[b]]
                cells.append({"rate": rate, "games": games})
            matrix.append({"name": a, "cells": cells})
        plots = [plot for plot in PLOTS if (folder / f"{plot}.png").is_file()]
        return self.page(
            "result.html",
            name=name,
            board=board,
            order=order,
            matrix=matrix,
            plots=plots,
            cell_colour=_cell_colour,
        )

    def plot(self, request: Request) -> Response:
        """A tournament's plot (only ratings.png and pairwise.png)."""
        name, plot = request.path_params["name"], request.path_params["plot"]
        try:
            folder = self._result_dir(name)
        except GameError as exc:
            return self.error(request, exc)
        path = folder / f"{plot}.png"
        if plot not in PLOTS or not path.is_file():
            return self.bad(request, f"no plot {plot!r} for {name}", 404)
        return FileResponse(path, media_type="image/png")

    def routes(self) -> list[Route | Mount]:
        """The URL routes."""
        return [
            Route("/", self.index),
            Route("/play", self.play_url),
            Route("/new", self.new, methods=["POST"]),
            Route("/game/{game_id}", self.game),
            Route("/game/{game_id}/act", self.act, methods=["POST"]),
            Route("/game/{game_id}/advance", self.advance, methods=["POST"]),
            Route("/api/game/{game_id}", self.game_api),
            Route("/replay/{game_id:path}", self.replay),
            Route("/replays", self.upload, methods=["POST"]),
            Route("/results", self.results_index),
            Route("/results/{name}", self.result),
            Route("/results/{name}/{plot}.png", self.plot),
            Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
        ]


def _cell_colour(rate: float | None) -> str:
    """A pairwise cell's background: blue when the row agent places above, red below."""
    if rate is None or (isinstance(rate, float) and math.isnan(rate)):
        return "#3a3f4b"
    t = max(0.0, min(1.0, float(rate)))
    red, blue = (178, 58, 58), (46, 104, 178)
    base = red if t < 0.5 else blue
    k = abs(t - 0.5) * 2
    grey = (70, 74, 84)
    return hex_colour(tuple(round(g + (c - g) * k) for g, c in zip(grey, base, strict=True)))  # type: ignore[arg-type]


def create_app(
    games: str | Path = "games",
    results: str | Path = "results",
    pace_ms: int = DEFAULT_PACE_MS,
    max_upload: int = 5 * 1024 * 1024,
) -> Starlette:
    """The ASGI app over a folder of game logs and a folder of tournament results."""
    web = WebApp(games, results, pace_ms, max_upload)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        yield
        web.bots.close()

    app = Starlette(routes=web.routes(), lifespan=lifespan)
    app.state.web = web
    return app
