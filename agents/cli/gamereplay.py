"""``airships replay LOG`` for a generic game log (any registered game but Airships).

The log's header names its game (no ``--game`` needed); every position is rebuilt by
:func:`airships_env.game_log.replay_log` (position ``k`` = the game after the first ``k``
records), which checks each record, so a log that does not replay fails with the line at fault.
Positions are drawn by the game's presenter: its ``ansi`` text at the terminal, its ``rgb``
picture for ``--out``. Whose eyes: a finished game, or a log that is no person's game, is the
referee's record (the true state drawn with no seat, every record told in full); a person's
unfinished game is drawn and told as that person's seat sees it (as the web app's replays).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from agents.cli.common import CLIError, UsageError, meta_agents, player_labels
from agents.session import generic_settings, result_text, seat_record_text
from airships_env.game_log import StoredLog, read_game_log, replay_log
from airships_env.protocol import Game
from airships_env.registry import get_game

if TYPE_CHECKING:
    from rich.console import Console


def load_replay(path: Path, game: str | None = None) -> GameReplay:
    """The generic log at ``path`` replayed (``game``: the ``--game`` given, which must be the
    log's); UsageError names the file and the line at fault."""
    try:
        stored = read_game_log(path)
        if game is not None and game != stored.game:
            raise UsageError(f"--game {game}: {path} is a log of {stored.game}")
        rules = get_game(stored.game)
        return GameReplay(stored, rules)
    except ValueError as exc:  # GameLogError, or a game that is not registered here
        raise UsageError(str(exc)) from exc


class GameReplay:
    """A generic log and the positions its records lead to (replayed on demand)."""

    def __init__(self, stored: StoredLog, rules: Game):
        self.stored = stored
        self.rules = rules
        replayed = replay_log(stored, rules)
        self.final = replayed.state
        self.records = replayed.records
        self.players = replayed.players
        self.size = len(self.records)
        num_players = self.final.num_players
        settings = generic_settings(stored)
        #: The seat whose eyes the replay uses (None: the referee's).
        self.seat: int | None = (
            settings[1] if settings is not None and not self.final.is_terminal() else None
        )
        agents = meta_agents(stored.meta, num_players)
        self.labels = player_labels(agents, num_players, self.seat)

    def state(self, position: int) -> Any:
        """The true game after the first ``position`` records."""
        if position == self.size:
            return self.final
        return replay_log(self.stored, self.rules, upto=position).state

    def last_record(self, position: int) -> Any:
        """The record that led to ``position`` (None at the start)."""
        return self.records[position - 1] if position > 0 else None

    def seen(self, position: int) -> Any:
        """What the replay draws at ``position``: the seat's view, or the true state."""
        state = self.state(position)
        return state if self.seat is None else state.view(self.seat)

    def record_text(self, position: int) -> str:
        """The record that led to ``position``, as the replay's eyes may read it."""
        record = self.last_record(position)
        player = self.players[position - 1]
        text = seat_record_text(self.rules, record, self.state(position), player, self.seat)
        return f"{self.labels[player]}: {text}"

    def frame_positions(self, every: str) -> list[int]:
        """Every position (a generic log has no turns: one frame per record)."""
        return list(range(self.size + 1))

    def picture(self, position: int) -> Any:
        """The presenter's rgb picture of ``position``."""
        try:
            return self.rules.presenter().rgb(
                self.seen(position), self.seat, self.last_record(position)
            )
        except NotImplementedError as exc:
            raise CLIError(
                f"replay --out: {self.rules.title}'s presenter draws no picture"
            ) from exc

    def show(self, console: Console, position: int) -> None:
        """Draw ``position`` with the record that led there, and the outcome at the end."""
        from rich.text import Text

        title = f"Step {position}/{self.size}" + (
            ": the last action" if position else ": the start"
        )
        console.print(Text(title, "bold"))
        if position:
            console.print(self.record_text(position), soft_wrap=True)
        else:
            console.print(Text("the game as set up, before the first action", "dim"))
        drawn = self.rules.presenter().ansi(
            self.seen(position), self.seat, self.last_record(position)
        )
        console.print(Text.from_ansi(str(drawn)), soft_wrap=True)
        state = self.state(position)
        if state.is_terminal():
            console.print(Text().append("Result: ", "bold").append(result_text(state, self.labels)))
