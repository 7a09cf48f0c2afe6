"""``airships play``: a person at the terminal against bots or trained policies.

The game is saved as it goes, one JSON line per action, flushed at once (the engine's game log:
a header with the initial state and ``meta``, then one record per action), so Ctrl-C, end of
input or ``q`` at the prompt lose nothing, and ``--resume LOG`` continues the game.

Deterministic resumption. The header's meta stores the seed, the human seat and the agent spec
of every seat. The dice come from the game's generator, which the log's replay restores bit for
bit. Each bot gets its own generator, ``SeedSequence(seed).spawn(players)[seat]`` (never the
game's), once per game. On ``--resume`` the bots are rebuilt from the specs with the same
generators and are shown every decision they took in the log again (their answers must match
the logged actions), which brings their generators and any state they keep to exactly where
they were. A resumed game therefore continues exactly as the uninterrupted one would have.
A bot whose answers depend on the clock (a time budget) may answer differently; then the log
wins and a note says so. This is :mod:`agents.session`, which the web app (``airships serve``)
shares: a game started in the browser resumes here, and the other way round.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from agents.cli.common import (
    CLIError,
    UsageError,
    add_game_argument,
    add_no_color,
    make_console,
    make_policy,
    non_negative_int,
    player_labels,
    split_agent_specs,
)
from agents.cli.prompt import QUIT_WORDS, Quit, interrupts_deferred, parse_choice, say_saved
from agents.games import DEFAULT_GAME, counts_text
from agents.registry import AGENTS, agents_for
from agents.session import (
    PLAY_TOOL,
    fresh_seed,
    game_meta,
    is_generic_log,
    make_bots,
    restore,
    saved_settings,
    seat_agents,
)
from airships_env.engine import (
    CardDataError,
    GameLog,
    GameState,
    LogError,
    new_game,
    public_view,
    read_log,
    replay,
)
from airships_env.engine.log import append_record
from airships_env.registry import get_game

if TYPE_CHECKING:
    from rich.console import Console, RenderableType

    from airships_env.policy import Policy

TOOL = PLAY_TOOL
TABLE_WORDS = ("t", "table")  # --compact: show the whole table once
DEFAULT_OPPONENTS = "heuristic"
#: Where games are saved unless --log says otherwise (git-ignored; ``airships serve``'s folder).
GAMES_DIR = Path("games")


def default_log(seed: int, game: str = "airships") -> Path:
    """The default log of a game: ``games/<game>-game-<seed>.jsonl`` under the current folder."""
    return GAMES_DIR / f"{game}-game-{seed}.jsonl"


DESCRIPTION = """\
Play Airships at the terminal against bots or trained policies.

The table is drawn before each of your decisions (main board, airship stacks, Hindenburg,
every company); a terminal too short for it gets the compact view (see --compact). Your legal
choices are listed with the exact chance of success of each attempt. Type the number of a
choice, or a name it shows ('stack 3', 'airship-L5', 'end', 'spend': the start of one is
enough when only one choice has it). The game is
saved after every action; Ctrl-C, end of input or 'q' saves and leaves, and
'airships play --resume LOG' continues it, with the same seed, seats and opponents.

Any other registered game (--game NAME) is played over the game protocol: the seat's view as
the game draws it, the choices numbered and named, another seat's move told by its action's
name, and a generic game log (games/NAME-game-<seed>.jsonl) that --resume continues.
"""

EPILOG = f"""\
examples:
  airships play --opponents heuristic,ppo --seat 0 --seed 7
  airships play --opponents random --players 4 --no-color
  airships play --resume games/airships-game-7.jsonl
  airships play --game nippon --opponents random,random --seed 3

agents: {", ".join(AGENTS)}, with options as name:key=value
(e.g. mcts:sims=400, ismcts:ms=200, rllib:path=FILE); a list's key=value pieces belong to the
agent before them.

dice notation: [4] rolled and counted in the total; (4) rolled, not counted (only the
best dice of each colour the cost asks for count); R<5> a fixed die (Engineer), never
rolled; 2W+1R: 2 white and 1 red dice.

--compact fits an 80x24 terminal: instead of the whole table before each choice, one
line per company, the moves since your last choice and your choices with their odds
('t' at the prompt shows the whole table). A terminal shorter than the whole table and the
choices gets this view without --compact.

errors (one line, exit status 2):
  --opponents: unknown agent 'NAME'; known agents: ...
  --seat N is out of range: seats are 0 to M for P players
  LOG: cannot read the log: No such file or directory      (--resume)
  LOG: line N: not valid JSON (...)                          (--resume, a corrupted line)
  LOG: line 1: log version V is not supported (...)          (--resume, an older log)
  LOG exists: resume it with 'airships play --resume LOG' ...
"""


def add_parser(subparsers: Any) -> None:
    """Register ``airships play``."""
    parser = subparsers.add_parser(
        "play",
        help="play at the terminal against bots or trained policies",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--opponents",
        default=None,
        metavar="SPECS",
        help=f"comma-separated agent specs, one per other seat, repeated to "
        f"fill the seats (default: {DEFAULT_OPPONENTS})",
    )
    add_game_argument(parser)
    parser.add_argument(
        "--players",
        type=int,
        default=None,
        help="players, one of the game's counts (Airships: 2-4; default: 1 + the number of "
        "opponents)",
    )
    parser.add_argument(
        "--seat", type=int, default=0, help="your seat, 0-based; seat 0 starts (default 0)"
    )
    parser.add_argument(
        "--seed",
        type=non_negative_int,
        default=None,
        help="seed of the deal, dice and bots (default: a fresh one, stored in the log)",
    )
    parser.add_argument(
        "--log",
        type=Path,
        default=None,
        metavar="PATH",
        help=f"where to save the game (default: {GAMES_DIR}/airships-game-<seed>.jsonl, a folder "
        f"git ignores and 'airships serve' opens)",
    )
    parser.add_argument("--overwrite", action="store_true", help="replace an existing --log file")
    parser.add_argument(
        "--resume",
        type=Path,
        default=None,
        metavar="LOG",
        help="continue the game saved in LOG (seed, seats and opponents come from the log)",
    )
    parser.add_argument(
        "--compact",
        action="store_true",
        help="fit an 80x24 terminal: what changed, the scores and your choices with their odds "
        "('t' shows the whole table)",
    )
    parser.add_argument(
        "--cards",
        default=None,
        metavar="PATH",
        help="a card file (TOML) instead of the default set",
    )
    add_no_color(parser)
    parser.set_defaults(func=run)


#: The games the terminal table is drawn for (agents/cli/tableview.py is Airships').
TERMINAL_GAMES = ("airships",)


def run(args: argparse.Namespace) -> int:
    """Play one game (new or resumed) and return the exit status."""
    generic = args.game not in TERMINAL_GAMES
    if generic:
        from agents.cli.gameplay import check_generic_args

        check_generic_args(args)
    if args.resume is not None:
        given = [
            flag
            for flag, value in (
                ("--opponents", args.opponents),
                ("--players", args.players),
                ("--seed", args.seed),
                ("--log", args.log),
                ("--cards", args.cards),
            )
            if value is not None
        ]
        if given:
            raise UsageError(
                f"--resume takes the game's settings from the log; do not also "
                f"give {', '.join(given)}"
            )
    console = make_console(args.no_color)
    if args.resume is not None and is_generic_log(args.resume):
        from agents.cli.gameplay import resume_session as resume_game

        try:
            return resume_game(args.resume, console).play(console, console.input)
        except KeyboardInterrupt:
            console.print(f"\nstopped; the game is still saved in {args.resume}", soft_wrap=True)
            return 0
    if args.resume is None and generic:
        from agents.cli.gameplay import new_session as new_game_session

        return new_game_session(*table_settings(args)).play(console, console.input)
    if args.resume is None:
        session = new_session(args)
    else:
        try:
            session = resume_session(args.resume, console)
        except KeyboardInterrupt:
            console.print(f"\nstopped; the game is still saved in {args.resume}", soft_wrap=True)
            return 0
    session.compact = bool(getattr(args, "compact", False))
    return session.play(console, console.input)


# ---------------------------------------------------------------------------------------------
# Setting up
# ---------------------------------------------------------------------------------------------
def table_settings(args: argparse.Namespace) -> tuple[str, int, int, int, list[str], Path]:
    """A new game's settings from the command line, checked against the game: the game, the
    players, the person's seat, the seed, every seat's agent spec and the log's path."""
    counts = get_game(args.game).player_counts
    default = (
        DEFAULT_OPPONENTS if DEFAULT_OPPONENTS in agents_for(_names_game(args.game)) else "random"
    )
    try:
        opponents = split_agent_specs(args.opponents or default)
    except ValueError as exc:
        raise UsageError(f"--opponents: {exc}") from exc
    num_players = args.players if args.players is not None else 1 + len(opponents)
    if args.players is None and num_players > max(counts):
        raise UsageError(
            f"--opponents: {len(opponents)} opponents make {num_players} players; {args.game} is "
            f"played by {counts_text(counts)}, so give at most {max(counts) - 1} opponents"
        )
    if num_players not in counts:
        raise UsageError(f"--players must be {counts_text(counts)}, got {num_players}")
    if len(opponents) > num_players - 1:
        raise UsageError(
            f"{len(opponents)} opponents do not fit {num_players - 1} other "
            f"seat(s); give --players {min(len(opponents) + 1, max(counts))} or fewer "
            f"opponents"
        )
    seat = args.seat
    if not 0 <= seat < num_players:
        raise UsageError(
            f"--seat {seat} is out of range: seats are 0 to {num_players - 1} "
            f"for {num_players} players"
        )
    seed = args.seed if args.seed is not None else fresh_seed()
    agents = seat_agents(opponents, num_players, seat)
    log_path: Path = args.log if args.log is not None else default_log(seed, args.game)
    if log_path.exists():
        if not args.overwrite:
            raise UsageError(
                f"{log_path} exists: resume it with 'airships play --resume "
                f"{log_path}', or choose another --log (or --overwrite)"
            )
        if args.game not in TERMINAL_GAMES:
            log_path.unlink()  # a generic log is created afresh (never opened over a file)
    return args.game, num_players, seat, seed, agents, log_path


def _names_game(game: str) -> str | None:
    """The game whose agent names a command line's specs use (None: Airships' own table)."""
    return None if game == DEFAULT_GAME else game


def new_session(args: argparse.Namespace) -> PlaySession:
    """A new game from the command line's options."""
    _game, num_players, seat, seed, agents, log_path = table_settings(args)
    bots = _make_bots(agents, seed)
    try:
        state = new_game(num_players, seed=seed, cards=args.cards)
    except CardDataError as exc:
        raise CLIError(str(exc)) from exc
    log = GameLog.start(state, **game_meta(TOOL, seed, seat, agents))
    try:
        log_path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(log_path, "w", encoding="utf-8")  # noqa: SIM115 - closed by play()
    except OSError as exc:
        raise CLIError(f"{log_path}: cannot write the log: {exc.strerror or exc}") from exc
    handle.write(next(log.lines()) + "\n")
    handle.flush()
    return PlaySession(state, seat, agents, bots, log_path, handle)


def _make_bots(agents: Sequence[str], seed: int, log: Path | None = None) -> dict[int, Policy]:
    """The bots of a table, each checked to fit it before the first move (a policy trained for
    another player count is a usage error naming its file and both counts)."""
    try:
        return make_bots(agents, seed, make_policy)
    except (ValueError, OSError) as exc:
        where = f"{log}: " if log is not None else "--opponents: "
        raise UsageError(f"{where}{exc}") from exc


def resume_session(path: Path, console: Console) -> PlaySession:
    """The game saved in ``path``, with its bots brought back to where they were."""
    try:
        log = read_log(path, torn_end=True)  # a last line cut short by a crash is dropped
        replay(log)  # checks every record; a bad line raises LogError naming it
    except LogError as exc:
        raise UsageError(str(exc)) from exc
    settings = saved_settings(log)
    if settings is None:
        raise UsageError(
            f"{path}: not a game saved by '{TOOL}' (its header does not record "
            f"the seed, your seat and the opponents)"
        )
    seat, agents = settings.seat, settings.agents
    bots = _make_bots(agents, settings.seed, path)
    bot_decisions = sum(record.player in bots for record in log.records)
    if bot_decisions:
        console.print(
            f"restoring the bots: showing them their {bot_decisions} earlier decisions again..."
        )
    try:
        restored = restore(log, bots)
    except ValueError as exc:
        raise UsageError(f"{path}: {exc}") from exc
    for player in sorted(restored.diverged):
        console.print(
            f"note: {agents[player]} at seat {player} did not repeat its logged "
            f"moves (not deterministic?); the game continues from the log"
        )
    state = restored.state
    try:
        if log.dropped is not None:
            number, text = log.dropped
            shown = text if len(text) <= 60 else text[:57] + "..."
            console.print(
                f"note: {path}: dropped line {number}, cut short by a crash ({len(text)} "
                f"characters: {shown}); the game continues after line {number - 1}",
                soft_wrap=True,
            )
            data = path.read_bytes()
            with open(path, "r+b") as torn:  # appends start on a fresh line
                torn.truncate(data.rfind(b"\n") + 1)
        handle = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed by play()
    except OSError as exc:
        raise CLIError(f"{path}: cannot write the log: {exc.strerror or exc}") from exc
    return PlaySession(state, seat, agents, bots, path, handle, resumed=True)


# ---------------------------------------------------------------------------------------------
# Playing
# ---------------------------------------------------------------------------------------------
class PlaySession:
    """A game in progress: the state, the person's seat, the bots and the open log."""

    def __init__(
        self,
        state: GameState,
        human: int,
        agents: Sequence[str],
        bots: dict[int, Policy],
        log_path: Path,
        handle: IO[str],
        resumed: bool = False,
    ):
        self.state = state
        self.human = human
        self.agents = list(agents)
        self.bots = bots
        self.log_path = log_path
        self.handle = handle
        self.resumed = resumed
        self.labels = player_labels(agents, state.num_players, human)
        self.compact = False  # --compact: a few lines per choice instead of the whole table
        self.told_compact = False  # the note on a terminal too short for the whole table

    def play(self, console: Console, read_line: Callable[[str], str]) -> int:
        """Play to the end or until the person leaves; the exit status (0 either way)."""
        from rich.text import Text

        from agents.cli.tableview import compact_view, narrate, table_view
        from airships_env.engine.text import DICE_LEGEND
        from airships_env.policy import Decision

        state = self.state
        others = ", ".join(self.labels[p] for p in range(state.num_players) if p != self.human)
        verb = "Resuming" if self.resumed else "New game"
        console.print(
            Text(
                f"{verb}: you are P{self.human} against {others}. Saving to {self.log_path}.",
                "bold",
            ),
            soft_wrap=True,
        )
        console.print(Text(DICE_LEGEND, "dim"))
        recap: list[Text] = []
        view = public_view(state)
        compact = self.compact or not self.table_fits(console, view, table_view(view, self.labels))
        try:
            while not state.is_terminal():
                seat = state.current_player
                if seat == self.human:
                    view = public_view(state)
                    full = table_view(view, self.labels, recap, "Since your last choice")
                    compact = self.compact or not self.table_fits(console, view, full)
                    if compact:
                        console.print(compact_view(view, self.labels, recap))
                    else:
                        console.print(full)
                    recap = []
                    action = ask(console, view, read_line, compact, self.labels)
                else:
                    action = self.bots[seat].act(Decision.from_state(state))
                wooden_before = state.wooden_airship
                with interrupts_deferred():
                    try:
                        record = state.apply_action(action)
                    except ValueError as exc:
                        raise CLIError(
                            f"{self.labels[seat]} chose an illegal action: {exc}"
                        ) from exc
                    append_record(self.handle, record)
                line = narrate(record, self.labels, wooden_before)
                if not compact or seat == self.human:
                    console.print(line)  # compact: the bots' moves come in the next recap
                if not compact or seat != self.human:
                    recap.append(line)
        except (KeyboardInterrupt, Quit):
            say_saved(console, self.log_path)
            return 0
        finally:
            self.handle.close()
        self.finish(console)
        return 0

    def table_fits(self, console: Console, view: GameState, table: RenderableType) -> bool:
        """Whether ``table`` (the whole table) and the view's choices fit the terminal's
        height; off a terminal it always fits. The first time it does not, a note says that
        the compact view follows."""
        if not console.is_terminal:
            return True
        from agents.cli.tableview import choices_view

        options = console.options
        needed = 1 + sum(  # + the prompt's line
            len(console.render_lines(part, options, pad=False))
            for part in (table, choices_view(view, view.legal_actions()))
        )
        height = console.size.height
        if needed <= height:
            return True
        if not self.told_compact:
            self.told_compact = True
            from rich.text import Text

            console.print(
                Text(
                    f"The whole table needs {needed} lines and this terminal has {height}: "
                    f"showing the compact view ('t' at the prompt shows the whole table; "
                    f"--compact always does).",
                    "dim",
                )
            )
        return False

    def finish(self, console: Console) -> None:
        """The final table, the scores by part and the winners."""
        from rich.text import Text

        from agents.cli.tableview import result_text, scores_table, table_view

        state = self.state
        console.print(table_view(public_view(state), self.labels))
        console.print(scores_table(state, self.labels))
        result = Text().append("Result: ", "bold").append(result_text(state, self.labels))
        if state.winners is not None and self.human in state.winners:
            result.append("  Well played!" if len(state.winners) == 1 else "", "bold green")
        console.print(result)
        console.print(
            f"game log: {self.log_path} (airships replay {self.log_path})", soft_wrap=True
        )


def ask(
    console: Console,
    view: GameState,
    read_line: Callable[[str], str],
    compact: bool = False,
    labels: Sequence[str] = (),
) -> int:
    """Show the legal choices and read one; bad input is refused and the choices shown again.
    With ``compact``, the choices come without spacing and 't' shows the whole table."""
    from rich.text import Text

    from agents.cli.tableview import (
        choice_names,
        choices_view,
        compact_choices_view,
        table_view,
    )

    show = compact_choices_view if compact else choices_view
    legal = view.legal_actions()
    console.print(show(view, legal))
    prompt = (
        f"Your choice (1-{len(legal)}, t table, q save and quit): "
        if compact
        else f"Your choice (1-{len(legal)}, q to save and quit): "
    )
    while True:
        try:
            answer = read_line(prompt)
        except EOFError:
            raise Quit from None
        if answer.strip().lower() in QUIT_WORDS:
            raise Quit
        if compact and answer.strip().lower() in TABLE_WORDS:
            console.print(table_view(view, labels or [f"P{p}" for p in range(view.num_players)]))
            console.print(show(view, legal))
            continue
        index, problem = parse_choice(answer, choice_names(view, legal))
        if index is not None:
            return legal[index]
        console.print(Text(f"{problem}. Your choices again:", "bold red"))
        console.print(show(view, legal))
