"""``airships play --game NAME``: a person at the terminal in any registered game but Airships.

Drawn over the game protocol alone (Airships keeps its own table, :mod:`.play`): before each of
the person's decisions, the seat's view as the game's presenter draws it
(``presenter().ansi(view, seat, last_record)``), the moves since the last choice, and the legal
choices numbered and named by ``action_name``. A choice is typed as its number or a name (the
start of one is enough when only one choice has it; an ambiguous one lists its matches). A bot's
move is told as the person's seat may read it (:func:`agents.session.seat_record_text`: another
seat's record by its action's name, unless the presenter tells records per seat).

The game is saved as it goes in a generic game log (:mod:`airships_env.game_log`), one record
per line, flushed at once; the header's meta records the seed, the person's seat and every
seat's agent, as Airships' logs do (:mod:`agents.session`), so ``--resume LOG`` continues it
(here or in the browser) with the bots brought back to where they were.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from agents.cli.common import (
    CLIError,
    UsageError,
    make_policy,
    player_labels,
)
from agents.cli.prompt import QUIT_WORDS, Quit, interrupts_deferred, parse_choice, say_saved
from agents.session import (
    PLAY_TOOL,
    game_meta,
    generic_settings,
    make_bots,
    restore_generic,
    result_text,
    seat_record_text,
)
from airships_env.game_log import (
    GameLogError,
    append_record,
    log_header,
    read_game_log,
    start_log,
)
from airships_env.policy import Decision
from airships_env.protocol import Game
from airships_env.registry import get_game

if TYPE_CHECKING:
    from rich.console import Console

    from airships_env.policy import Policy


def _make_bots(
    game: str, agents: Sequence[str], seed: int, where: str = "--opponents"
) -> dict[int, Policy]:
    """The bots of a table of ``game``, each checked to fit it before the first move."""
    try:
        return make_bots(agents, seed, lambda spec: make_policy(spec, game=game))
    except (ValueError, OSError) as exc:
        raise UsageError(f"{where}: {exc}") from exc


def new_session(
    game: str, num_players: int, seat: int, seed: int, agents: Sequence[str], log_path: Path
) -> GamePlaySession:
    """A new game of ``game`` (settings already checked), its log started at ``log_path``."""
    rules = get_game(game)
    bots = _make_bots(game, agents, seed)
    state = rules.new_state(num_players, seed=seed)
    meta = {**game_meta(PLAY_TOOL, seed, seat, agents), "game": game}
    header = log_header(rules, state, num_players, seed, None, meta)
    try:
        log_path.parent.mkdir(parents=True, exist_ok=True)
        handle = start_log(log_path, header)
    except OSError as exc:
        raise CLIError(f"{log_path}: cannot write the log: {exc.strerror or exc}") from exc
    return GamePlaySession(rules, state, seat, agents, bots, log_path, handle)


def resume_session(path: Path, console: Console) -> GamePlaySession:
    """The generic game saved in ``path``, with its bots brought back to where they were.

    A last line without its newline was cut short by a crash (every record is written whole
    with its newline, then flushed): it is dropped, with a note, before the game goes on."""
    drop_torn_line(path, console)
    try:
        stored = read_game_log(path)
        rules = get_game(stored.game)
    except ValueError as exc:  # GameLogError, or a game that is not registered here
        raise UsageError(str(exc)) from exc
    settings = generic_settings(stored)
    if settings is None:
        raise UsageError(
            f"{path}: not a game saved by '{PLAY_TOOL}' (its header does not record "
            f"the seed, your seat and the opponents)"
        )
    seed, seat, agents = settings
    bots = _make_bots(rules.name, agents, seed, str(path))
    if any(spec != "human" for spec in agents) and stored.records:
        console.print("restoring the bots: showing them their earlier decisions again...")
    try:
        restored = restore_generic(stored, rules, bots, seat)
    except GameLogError as exc:
        raise UsageError(str(exc)) from exc
    except ValueError as exc:
        raise UsageError(f"{path}: {exc}") from exc
    for player in sorted(restored.diverged):
        console.print(
            f"note: {agents[player]} at seat {player} did not repeat its logged "
            f"moves (not deterministic?); the game continues from the log"
        )
    try:
        handle = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed by play()
    except OSError as exc:
        raise CLIError(f"{path}: cannot write the log: {exc.strerror or exc}") from exc
    replayed = restored.replayed
    last = replayed.records[-1] if replayed.records else None
    return GamePlaySession(
        rules, replayed.state, seat, agents, bots, path, handle, resumed=True, last_record=last
    )


def drop_torn_line(path: Path, console: Console) -> None:
    """Cut a last line that has no newline (a write a crash cut short) off the log at ``path``."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UsageError(f"{path}: cannot read the log: {exc.strerror or exc}") from exc
    if not data or data.endswith(b"\n"):
        return
    keep = data.rfind(b"\n") + 1
    if keep == 0:
        return  # no whole line at all: read_game_log names what is wrong
    number = data.count(b"\n") + 1
    console.print(
        f"note: {path}: dropped line {number}, cut short by a crash ({len(data) - keep} "
        f"bytes); the game continues after line {number - 1}",
        soft_wrap=True,
    )
    try:
        with open(path, "r+b") as torn:
            torn.truncate(keep)
    except OSError as exc:
        raise CLIError(f"{path}: cannot write the log: {exc.strerror or exc}") from exc


class GamePlaySession:
    """A game of any registered game in progress: the state, the person's seat, the bots and
    the open log."""

    def __init__(
        self,
        rules: Game,
        state: Any,
        human: int,
        agents: Sequence[str],
        bots: dict[int, Policy],
        log_path: Path,
        handle: IO[str],
        resumed: bool = False,
        last_record: Any = None,
    ):
        self.rules = rules
        self.state = state
        self.human = human
        self.agents = list(agents)
        self.bots = bots
        self.log_path = log_path
        self.handle = handle
        self.resumed = resumed
        self.last_record = last_record
        self.labels = player_labels(agents, state.num_players, human)

    def play(self, console: Console, read_line: Callable[[str], str]) -> int:
        """Play to the end or until the person leaves; the exit status (0 either way)."""
        from rich.text import Text

        rules, state = self.rules, self.state
        others = ", ".join(self.labels[p] for p in range(state.num_players) if p != self.human)
        verb = "Resuming" if self.resumed else "New game"
        console.print(
            Text(
                f"{verb} of {rules.title}: you are P{self.human} against {others}. "
                f"Saving to {self.log_path}.",
                "bold",
            ),
            soft_wrap=True,
        )
        try:
            while not state.is_terminal():
                seat = state.current_player
                if seat == self.human:
                    self.draw(console)
                    action = self.ask(console, read_line)
                else:
                    action = self.bots[seat].act(Decision.for_game(rules, state))
                with interrupts_deferred():
                    try:
                        record = state.apply_action(action)
                    except ValueError as exc:
                        raise CLIError(
                            f"{self.labels[seat]} chose an illegal action: {exc}"
                        ) from exc
                    append_record(self.handle, record)
                self.last_record = record
                told = seat_record_text(rules, record, state, seat, self.human)
                console.print(f"{self.labels[seat]}: {told}", soft_wrap=True)
        except (KeyboardInterrupt, Quit):
            say_saved(console, self.log_path)
            return 0
        finally:
            self.handle.close()
        self.finish(console)
        return 0

    def draw(self, console: Console) -> None:
        """The person's seat's view, as the game's presenter draws it."""
        from rich.text import Text

        view = self.state.view(self.human)
        drawn = self.rules.presenter().ansi(view, self.human, self.last_record)
        console.print(Text.from_ansi(str(drawn)), soft_wrap=True)

    def choices(self) -> list[tuple[int, str]]:
        """The legal actions now, with their names."""
        return [(a, self.rules.action_name(a)) for a in self.state.legal_actions()]

    def ask(self, console: Console, read_line: Callable[[str], str]) -> int:
        """Show the legal choices and read one; bad input is refused and the choices shown
        again."""
        from rich.text import Text

        legal = self.choices()
        shown = "\n".join(f"  {i + 1:>3}. {name}" for i, (_, name) in enumerate(legal))
        console.print(shown, soft_wrap=True)
        prompt = f"Your choice (1-{len(legal)}, or a name; q to save and quit): "
        while True:
            try:
                answer = read_line(prompt)
            except EOFError:
                raise Quit from None
            if answer.strip().lower() in QUIT_WORDS:
                raise Quit
            index, problem = parse_choice(answer, [name for _, name in legal])
            if index is not None:
                return legal[index][0]
            console.print(Text(f"{problem}. Your choices again:", "bold red"), soft_wrap=True)
            console.print(shown, soft_wrap=True)

    def finish(self, console: Console) -> None:
        """The final view, every seat's score and place, and the winners."""
        from rich.text import Text

        self.draw(console)
        outcome = self.state.outcome()
        if outcome is not None:
            for seat in sorted(range(self.state.num_players), key=lambda s: outcome.ranks[s]):
                score = outcome.scores[seat]
                shown = int(score) if float(score).is_integer() else score
                console.print(f"  place {outcome.ranks[seat]}: {self.labels[seat]}, score {shown}")
        result = Text().append("Result: ", "bold").append(result_text(self.state, self.labels))
        if outcome is not None and outcome.winners == (self.human,):
            result.append("  Well played!", "bold green")
        console.print(result)
        console.print(
            f"game log: {self.log_path} (airships replay {self.log_path})", soft_wrap=True
        )


def check_generic_args(args: argparse.Namespace) -> None:
    """Refuse the options that only Airships' terminal table has."""
    if args.cards is not None:
        raise UsageError(f"--cards: {args.game} has no card file option (Airships' cards)")
    if getattr(args, "compact", False):
        raise UsageError(
            f"--compact: {args.game}'s view is its presenter's text; the compact view is Airships'"
        )
