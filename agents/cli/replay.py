"""``airships replay``: step through a saved game, or render it as a GIF or PNG frames.

Every position is rebuilt by the engine's :func:`~airships_env.engine.replay` from the log
(position ``k`` = the state after the first ``k`` records), which also checks each record, so
a log that does not replay fails with the line at fault.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agents.cli.common import (
    CLIError,
    UsageError,
    add_game_argument,
    add_no_color,
    make_console,
    meta_agents,
    player_labels,
    positive_float,
)
from airships_env.engine import ActionRecord, GameLog, GameState, LogError, read_log, replay

if TYPE_CHECKING:
    from rich.console import Console

    from agents.cli.gamereplay import GameReplay

DESCRIPTION = """\
Step through a saved game log (from 'airships play', the arena or GameLog.write) in the
terminal, or render it with the environment's rgb_array picture.

Commands while stepping: n (or Enter) next, p previous, j N jump to the start of turn N,
s N jump to step N (after N actions), f first, e end, q quit. When stdin is not a terminal
and no --commands are given, the final position (or the start of --turn) and the scores are
printed.

A generic game log (any other game's: its header names the game) is replayed by that game's
presenter: its text view, and its picture for --out (one frame per action; it has no turns).
"""

EPILOG = """\
examples:
  airships replay games/airships-game-7.jsonl
  airships replay game.jsonl --turn 20
  airships replay game.jsonl --commands "n;n;p;j 12;e"
  airships replay game.jsonl --out game.gif --fps 2
  airships replay game.jsonl --out frames/ --every record

errors (one line, exit status 2):
  LOG: cannot read the log: No such file or directory
  LOG: line N: not valid JSON (...)                     (a corrupted line)
  LOG: line 1: log version V is not supported (...)     (a log of another version)
  line N: the replay differs from the log in FIELDS     (a record that does not replay)
  --out must be a .gif file or a folder for PNG frames
"""

HELP_LINE = "n/Enter next · p previous · j N turn N · s N step N · f first · e end · q quit"


def add_parser(subparsers: Any) -> None:
    """Register ``airships replay``."""
    parser = subparsers.add_parser(
        "replay",
        help="step through a saved game, or render it as a GIF / PNG frames",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("log", type=Path, metavar="LOG", help="a game log (JSON lines)")
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="PATH",
        help="render frames: PATH.gif, or a folder of PNG frames",
    )
    parser.add_argument(
        "--every",
        choices=("turn", "record"),
        default="turn",
        help="one frame per turn (default) or per record (action)",
    )
    parser.add_argument(
        "--fps", type=positive_float, default=2.0, help="GIF frames per second (default 2)"
    )
    parser.add_argument(
        "--turn",
        type=int,
        default=None,
        metavar="N",
        help="start at turn N (default: the end when printing, the start when stepping)",
    )
    parser.add_argument(
        "--commands",
        default=None,
        metavar="CMDS",
        help="step with these commands, separated by ';' (e.g. 'n;n;j 5;e')",
    )
    add_game_argument(parser, default=None)
    add_no_color(parser)
    parser.set_defaults(func=run)


#: The games the replay view is drawn for (the log's header names its game; none: Airships).
REPLAY_GAMES = ("airships",)


def run(args: argparse.Namespace) -> int:
    """Replay the log: frames, interactive stepping, or the final position."""
    from agents.session import is_generic_log

    if is_generic_log(args.log):
        from agents.cli.gamereplay import load_replay

        generic = load_replay(args.log, args.game)
        if args.turn is not None:
            raise UsageError(
                f"--turn: {generic.rules.name}'s log has no turns; step with --commands 's N'"
            )
        return present(args, generic, None)
    if args.game is not None and args.game not in REPLAY_GAMES:
        raise UsageError(f"--game {args.game}: {args.log} is an Airships log")
    try:
        log = read_log(args.log, torn_end=True)  # a last line cut short by a crash is left out
        final = replay(log)
    except LogError as exc:
        raise UsageError(str(exc)) from exc
    if log.dropped is not None:
        from agents.session import saved_settings

        number, text = log.dropped
        repair = (
            f" ('airships play --resume {args.log}' repairs the file and continues the game)"
            if saved_settings(log) is not None
            else ""
        )
        print(
            f"note: {args.log}: line {number} was cut short by a crash ({len(text)} characters, "
            f"not a whole record): replaying lines 1 to {number - 1}{repair}",
            file=sys.stderr,
        )
    game = ReplayedGame(log, final)
    if args.turn is not None and game.turn_position(args.turn) is None:
        raise UsageError(
            f"--turn {args.turn}: the game has turns {game.first_turn} to {game.last_turn}"
        )
    start = game.turn_position(args.turn) if args.turn is not None else None
    return present(args, game, start)


def present(args: argparse.Namespace, game: Replay, start: int | None) -> int:
    """Frames (``--out``), stepping (``--commands`` or a terminal) or one position (``start``,
    else the end) for a replayed game of any kind."""
    if args.out is not None:
        written = write_frames(game, args.out, args.every, args.fps)
        print(f"wrote {written} frames to {args.out}")
        return 0
    console = make_console(args.no_color)
    if args.commands is not None:
        commands = iter(c for c in args.commands.split(";"))
        step_through(console, game, start or 0, lambda _prompt: next(commands))
        return 0
    if sys.stdin.isatty():
        step_through(console, game, start or 0, console.input)
        return 0
    game.show(console, game.size if start is None else start)
    return 0


class ReplayedGame:
    """A log and the positions its records lead to (rebuilt by the engine on demand)."""

    def __init__(self, log: GameLog, final: GameState):
        self.log = log
        self.records = log.records
        self.size = len(self.records)
        self.final = final
        self.labels = player_labels(meta_agents(log.meta, final.num_players), final.num_players)
        turns = [record.turn for record in self.records]
        self.first_turn = turns[0] if turns else final.turn
        self.last_turn = final.turn

    def show(self, console: Console, position: int) -> None:
        """Draw ``position`` (:func:`show`)."""
        show(console, self, position)

    def state(self, position: int) -> GameState:
        """The state after the first ``position`` records."""
        if position == self.size:
            return self.final
        return replay(self.log, upto=position)

    def last_record(self, position: int) -> ActionRecord | None:
        """The record that led to ``position`` (None at the start)."""
        return self.records[position - 1] if position > 0 else None

    def turn_position(self, turn: int) -> int | None:
        """The position at the start of ``turn`` (before its first record), or None."""
        for index, record in enumerate(self.records):
            if record.turn == turn:
                return index
        if turn == self.last_turn:
            return self.size
        return None

    def picture(self, position: int) -> Any:
        """The rgb_array picture of ``position`` (``airships_env.render.render_rgb``)."""
        return _renderer()(self.state(position), self.last_record(position))

    def frame_positions(self, every: str) -> list[int]:
        """Positions to render: the start, then after every record or after every turn."""
        if every == "record":
            return list(range(self.size + 1))
        positions = [0]
        for index, record in enumerate(self.records):
            if index + 1 == self.size or self.records[index + 1].turn != record.turn:
                positions.append(index + 1)
        return positions


if TYPE_CHECKING:
    #: A replayed game of any kind: Airships' (its table) or any other game's (its presenter).
    Replay = ReplayedGame | GameReplay


def show(console: Console, game: ReplayedGame, position: int) -> None:
    """Draw the table at ``position`` with the record that led there, and the scores."""
    from rich.text import Text

    from agents.cli.tableview import narrate, result_text, scores_table, table_view

    state = game.state(position)
    record = game.last_record(position)
    if record is not None:
        recap = [narrate(record, game.labels, game.state(position - 1).wooden_airship)]
    else:
        recap = [Text("the game as set up (S1-S6), before the first action", "dim")]
    title = f"Step {position}/{game.size}" + (": the last action" if record else ": the start")
    console.print(table_view(state, game.labels, recap, title))
    console.print(scores_table(state, game.labels))
    if state.is_terminal():
        console.print(Text().append("Result: ", "bold").append(result_text(state, game.labels)))


def step_through(
    console: Console, game: Replay, position: int, read_line: Callable[[str], str]
) -> None:
    """Show positions as the commands ask, until ``q``, end of input or Ctrl-C."""
    from rich.text import Text

    game.show(console, position)
    while True:
        try:
            command = read_line(f"[{position}/{game.size}] {HELP_LINE}: ")
        except (EOFError, StopIteration, KeyboardInterrupt):
            console.print()
            return
        new_position, problem = parse_command(command, position, game)
        if new_position is None and not problem:
            return
        if problem:
            console.print(Text(problem, "bold red"))
            continue
        assert new_position is not None
        position = new_position
        game.show(console, position)


def parse_command(command: str, position: int, game: Replay) -> tuple[int | None, str]:
    """The position a command leads to, ``(None, "")`` to quit, or ``(None, why)``."""
    words = command.strip().lower().split()
    if not words:
        words = ["n"]
    verb, arguments = words[0], words[1:]
    if verb in ("q", "quit", "exit"):
        return None, ""
    if verb in ("n", "next"):
        if position >= game.size:
            return None, "already at the end (p previous, f first, q quit)"
        return position + 1, ""
    if verb in ("p", "prev", "previous"):
        if position <= 0:
            return None, "already at the start (n next, e end, q quit)"
        return position - 1, ""
    if verb in ("f", "first"):
        return 0, ""
    if verb in ("e", "end", "last"):
        return game.size, ""
    if verb in ("j", "s", "jump", "step"):
        if len(arguments) != 1 or not arguments[0].isdigit():
            return None, f"'{command.strip()}': give a number, e.g. '{verb} 5'"
        number = int(arguments[0])
        if verb in ("s", "step"):
            if number > game.size:
                return None, f"no step {number}: the game has steps 0 to {game.size}"
            return number, ""
        if not isinstance(game, ReplayedGame):
            return None, f"'{command.strip()}': this game's log has no turns; 's N' goes to step N"
        target = game.turn_position(number)
        if target is None:
            return None, (
                f"no turn {number}: the game has turns {game.first_turn} to {game.last_turn}"
            )
        return target, ""
    return None, f"unknown command '{command.strip()}' ({HELP_LINE})"


def _renderer() -> Callable[[GameState, ActionRecord | None], Any]:
    try:
        from airships_env.render import render_rgb
    except ImportError as exc:
        raise CLIError(
            f"replay --out needs airships_env.render.render_rgb, which cannot be "
            f"imported here: {exc}"
        ) from exc
    return render_rgb


def _frames(game: Replay, positions: list[int]) -> Iterator[Any]:
    for position in positions:
        yield game.picture(position)


def write_frames(game: Replay, out: Path, every: str, fps: float) -> int:
    """Render the positions with ``render_rgb``: one GIF, or a folder of PNG files."""
    try:
        from PIL import Image
    except ImportError as exc:
        raise CLIError("replay --out needs Pillow: pip install 'airships-env[env]'") from exc
    positions = game.frame_positions(every)
    suffix = out.suffix.lower()
    if suffix == ".gif":
        # One palette for every frame, taken from the first, middle and last pictures: a
        # fixed palette without dithering is ~10x faster than Pillow's per-frame quantizing
        # and keeps colours steady from frame to frame.
        import numpy as np

        samples = sorted({positions[0], positions[len(positions) // 2], positions[-1]})
        palette = Image.fromarray(np.vstack(list(_frames(game, samples)))).quantize(
            colors=255, method=Image.Quantize.MEDIANCUT
        )
        images = [
            Image.fromarray(frame).quantize(palette=palette, dither=Image.Dither.NONE)
            for frame in _frames(game, positions)
        ]
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            images[0].save(
                out, save_all=True, append_images=images[1:], duration=round(1000 / fps), loop=0
            )
        except OSError as exc:
            raise CLIError(f"{out}: cannot write the GIF: {exc}") from exc
        return len(images)
    if suffix and not out.is_dir():
        raise UsageError(f"--out must be a .gif file or a folder for PNG frames, got {out}")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CLIError(f"{out}: cannot create the folder: {exc.strerror or exc}") from exc
    width = max(4, len(str(game.size)))
    for count, (position, frame) in enumerate(
        zip(positions, _frames(game, positions), strict=True)
    ):
        path = out / f"frame_{count:0{width}d}_step_{position:0{width}d}.png"
        try:
            Image.fromarray(frame).save(path)
        except OSError as exc:
            raise CLIError(f"{path}: cannot write the frame: {exc}") from exc
    return len(positions)
