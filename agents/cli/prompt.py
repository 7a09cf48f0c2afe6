"""Reading a person's choice at the terminal: what ``airships play`` shares between Airships'
table (:mod:`.play`) and every other game's (:mod:`.gameplay`)."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

__all__ = [
    "LISTED_MATCHES",
    "QUIT_WORDS",
    "Quit",
    "interrupts_deferred",
    "parse_choice",
    "say_saved",
]

QUIT_WORDS = ("q", "quit", "exit")


class Quit(Exception):
    """The person asked to leave (q, end of input)."""


def say_saved(console: Console, log_path: Path) -> None:
    """What a person who left a game mid-way reads: where it is saved and how to resume it."""
    console.print()
    console.print(
        f"game saved to {log_path}; resume with: airships play --resume {log_path}",
        soft_wrap=True,
    )


#: How many matching choices an ambiguous answer lists before '...'.
LISTED_MATCHES = 6


def parse_choice(answer: str, names: Sequence[str | Sequence[str]]) -> tuple[int | None, str]:
    """The 0-based index an answer picks, or None and why it is refused.

    ``names[i]`` is choice ``i``'s name, or all the names it shows (the first one is quoted in
    messages). An answer is a number from 1, a name, or the start of one (case and spacing do
    not count); a name typed whole wins over names it only starts. An answer that fits several
    choices is refused with their numbers and names.
    """
    aliases = [(n,) if isinstance(n, str) else tuple(n) for n in names]
    text = answer.strip()
    count = len(aliases)
    if not text:
        return None, f"Empty input: type a number from 1 to {count}"
    if text.lstrip("+-").isdigit():
        number = int(text)
        if 1 <= number <= count:
            return number - 1, ""
        return None, f"{text} is out of range: type a number from 1 to {count}"
    typed = " ".join(text.lower().split())
    spelled = [[" ".join(a.lower().split()) for a in choice] for choice in aliases]
    whole = [i for i, choice in enumerate(spelled) if typed in choice]
    started = [i for i, choice in enumerate(spelled) if any(a.startswith(typed) for a in choice)]
    matches = whole or started
    if len(matches) == 1:
        return matches[0], ""
    if matches:
        listed = ", ".join(f"{i + 1} ({aliases[i][0]})" for i in matches[:LISTED_MATCHES])
        more = f" and {len(matches) - LISTED_MATCHES} more" if len(matches) > LISTED_MATCHES else ""
        return None, f"'{text}' matches {len(matches)} choices: {listed}{more}; type its number"
    return None, f"Unknown choice '{text}': type a number from 1 to {count}"


@contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Hold Ctrl-C while an action is applied and logged, so the log and the game agree."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, _frame: caught.append(number))
    try:
        yield
    finally:
        signal.signal(
            signal.SIGINT, previous if previous is not None else signal.default_int_handler
        )
    if caught:
        raise KeyboardInterrupt
