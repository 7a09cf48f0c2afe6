"""The ``airships`` command (console script ``airships = "agents.cli:main"``): the top layer.

Subcommands:

- ``play``: a person at the terminal against bots or trained policies (:mod:`.play`);
- ``replay``: step through a saved game, or render it as a GIF / PNG frames (:mod:`.replay`);
- ``serve``: the web app: play in the browser, replays, tournament results (:mod:`.serve`);
- ``cards``: print or validate a card file (:mod:`.cards`);
- ``arena``, ``tournament``, ``train``, ``evaluate``, ``bench``: each module's ``main(argv)``
  (which the matching shim in ``scripts/`` also runs) gets every argument and shows its own
  help.

It imports the bots, rich and torch only inside the subcommands, so ``airships --help`` is
quick; the engine and environment layers never import it.

Errors are one line on stderr, ``airships: error: ...``, with exit status 2 for a bad command
line or input file (unknown opponent, bad seat, missing or corrupted log, a log of another
version) and 1 otherwise (an invalid card file, a failure while running). ``--debug``, before
or after the subcommand, prints the traceback as well.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Sequence
from types import ModuleType

from agents.cli.common import (
    PROG,
    ArgumentParser,
    CLIError,
    UsageError,
    add_forwarding_parser,
    forward,
)

__all__ = ["main"]

NATIVE = ("play", "replay", "cards", "serve")
# Commands whose module's main(argv) parses its own arguments, with their one-line summaries
# (kept here so that ``airships --help`` imports none of them: train imports torch).
FORWARDED = {
    "arena": "seeded, seat-rotated games between agents; win rates with confidence intervals",
    "tournament": "a tournament between many agents: ratings and a leaderboard",
    "train": "train a policy (PPO) against bots and past versions of itself",
    "evaluate": "a trained policy against chosen agents: win rate with its interval",
    "bench": "benchmarks: engine, environment and bot speed (prints figures)",
}
DEBUG_FLAG = "--debug"


def _target(name: str) -> str:
    """The ``module:function`` a forwarded command runs."""
    return f"agents.cli.{name}:main"


def _subcommand_module(name: str) -> ModuleType:
    from importlib import import_module

    return import_module(f"agents.cli.{name}")


def build_parser() -> tuple[ArgumentParser, dict[str, ArgumentParser]]:
    """The top-level parser, and the parser of every subcommand by name."""
    from airships_env import __version__

    parser = ArgumentParser(
        prog=PROG,
        description="Airships: play, replay, evaluate and benchmark the board game's "
        "environment and agents.",
        epilog=f"Run '{PROG} COMMAND --help' for a command's options. Errors are one line; "
        f"{DEBUG_FLAG} (before or after the command) also prints the traceback.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    parser.add_argument(
        DEBUG_FLAG,
        action="store_true",
        help="print the traceback of an error, not only its one line",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for name in NATIVE:
        _subcommand_module(name).add_parser(subparsers)
    for name, summary in FORWARDED.items():
        add_forwarding_parser(subparsers, name, _target(name), summary)
    return parser, dict(subparsers.choices)


def _split_debug(argv: Sequence[str]) -> tuple[bool, list[str]]:
    """Remove ``--debug`` wherever it stands before a ``--`` separator."""
    rest: list[str] = []
    debug = False
    for index, arg in enumerate(argv):
        if arg == "--":
            rest.extend(argv[index:])
            break
        if arg == DEBUG_FLAG:
            debug = True
        else:
            rest.append(arg)
    return debug, rest


def _dispatch(argv: list[str]) -> int:
    if argv and argv[0] in FORWARDED:
        return forward(argv[0], _target(argv[0]), argv[1:])
    parser, commands = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # reported by the subcommand's parser, so that its --help is the one named
        commands.get(args.command, parser).error(f"unrecognized arguments: {' '.join(unknown)}")
    if args.command is None:
        raise UsageError(
            f"missing command: choose one of {', '.join((*NATIVE, *FORWARDED))} "
            f"(see '{PROG} --help')"
        )
    return int(args.func(args))


def _error(message: str) -> None:
    print(f"{PROG}: error: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``airships`` command line; returns the exit status."""
    from airships_env.engine import CardDataError, LogError

    debug, args = _split_debug(sys.argv[1:] if argv is None else argv)
    try:
        return _dispatch(args)
    except SystemExit as exc:  # argparse after --help / --version
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
    except CLIError as exc:
        if debug:
            traceback.print_exc()
        _error(str(exc))
        return exc.code
    except KeyboardInterrupt:
        _error("interrupted")
        return 130
    except BrokenPipeError:
        # The reader went away (`airships cards | head`): leave quietly (Python's recipe).
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except (LogError, CardDataError) as exc:
        if debug:
            traceback.print_exc()
        _error(str(exc))
        return 2 if isinstance(exc, LogError) else 1
    except Exception as exc:
        if debug:
            traceback.print_exc()
            _error(f"{type(exc).__name__}: {exc}")
        else:
            _error(f"{type(exc).__name__}: {exc} (run with {DEBUG_FLAG} for the traceback)")
        return 1
