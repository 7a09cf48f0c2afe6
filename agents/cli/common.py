"""What every subcommand shares: the one-line errors, the console, player labels, agents.

Nothing here imports rich at module level: :func:`make_console` imports it when a subcommand
needs a console, so ``airships --help`` and ``airships cards --validate`` work without it.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from rich.console import Console

    from agents.executors import Executor
    from airships_env.policy import Policy

PROG = "airships"


class CLIError(Exception):
    """An error shown as one line ``airships: error: ...``; ``code`` is the exit status."""

    def __init__(self, message: str, code: int = 1):
        super().__init__(message)
        self.code = code


class UsageError(CLIError):
    """A bad command line or input file: exit status 2."""

    def __init__(self, message: str):
        super().__init__(message, code=2)


class ArgumentParser(argparse.ArgumentParser):
    """argparse whose errors become one line (``UsageError``) instead of usage + message."""

    def error(self, message: str) -> NoReturn:
        """Raise a :class:`UsageError` naming the command whose help explains it."""
        raise UsageError(f"{message} (see '{self.prog} --help')")


def make_console(no_color: bool = False) -> Console:
    """A rich console on stdout; colours only on a terminal, never with ``no_color``.

    Markup is off: card ids and dice like ``[3]`` are text, never style tags.
    """
    try:
        from rich.console import Console
    except ImportError as exc:  # rich comes with the [env] extra
        raise CLIError(
            "this command needs the 'rich' package: pip install 'airships-env[env]'"
        ) from exc
    return Console(highlight=False, markup=False, emoji=False, no_color=True if no_color else None)


def player_labels(
    agents: Sequence[str] | None, num_players: int, human: int | None = None
) -> list[str]:
    """'P0 (you)', 'P1 heuristic' ... (0-based seats, as in ``--seat`` and the renderings)."""
    labels = []
    for seat in range(num_players):
        if seat == human:
            labels.append(f"P{seat} (you)")
        elif human is None and agents is not None and agents[seat] == "human":
            labels.append(f"P{seat} human")
        elif agents is not None and seat < len(agents) and agents[seat] not in (None, "human"):
            labels.append(f"P{seat} {agents[seat]}")
        else:
            labels.append(f"P{seat}")
    return labels


def split_agent_specs(text: str) -> list[str]:
    """A comma list of agent specs (``agents.registry.split_specs``; options stay attached)."""
    try:
        from agents.registry import split_specs
    except ImportError:
        specs = [piece.strip() for piece in text.split(",")]
        if not all(specs):
            raise ValueError(f"agent list {text!r} has an empty entry") from None
        return specs
    return split_specs(text)


def make_policy(spec: str, game: str | None = None) -> Policy:
    """The agent a spec names, via ``agents.registry.make_agent`` (only 'random' without it);
    ``game`` (a registered name) picks that game's agent names, none Airships'.

    Raises :class:`UsageError` for an unknown agent or option, :class:`CLIError` when the
    agent's module or one of its packages is not installed.
    """
    try:
        from agents.registry import AgentUnavailableError, make_agent
    except ImportError:
        if spec.strip() != "random":
            raise UsageError(
                f"--opponents: unknown agent {spec!r}; without the agents "
                f"package only 'random' is available"
            ) from None
        from airships_env.policy import RandomPolicy

        return RandomPolicy()
    try:
        return make_agent(spec, game=None if game in (None, "airships") else game)
    except AgentUnavailableError as exc:
        raise CLIError(f"opponent {spec!r} is not available: {exc}") from exc
    except ValueError as exc:
        raise UsageError(f"--opponents: {exc}") from exc


def add_no_color(parser: argparse.ArgumentParser) -> None:
    """The ``--no-color`` flag (colours are also off when stdout is not a terminal)."""
    parser.add_argument(
        "--no-color",
        action="store_true",
        help="plain text, no colours (also when NO_COLOR is set or the output is not a terminal)",
    )


def positive_float(text: str) -> float:
    """argparse type: a number > 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be greater than 0, got {text}")
    return value


def non_negative_int(text: str) -> int:
    """argparse type: a whole number >= 0 (seeds)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {text}")
    return value


def positive_int(text: str) -> int:
    """argparse type: a whole number >= 1 (counts of games)."""
    value = non_negative_int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, got {text}")
    return value


RULES_HELP = (
    "rules options every game is dealt with, KEY=VALUE[,KEY=VALUE...] (may be repeated); a "
    'VALUE is read as JSON (true, 12, "none"), other text as a string (discard_recall=none); '
    "the game checks the names and values (e.g. --game australia --rules full_game=true); "
    "default: the game's own rules"
)


def add_rules_argument(parser: argparse.ArgumentParser) -> None:
    """``--rules KEY=VALUE[,...]``: the rules options of every game played (arena)."""
    parser.add_argument(
        "--rules", action="append", default=[], metavar="KEY=VALUE[,...]", help=RULES_HELP
    )


def parse_rules(texts: Sequence[str]) -> dict[str, Any]:
    """The rules options ``--rules`` names (option -> value), not yet checked by the game: a
    piece that is not KEY=VALUE, a value that is a list or an object, or an option given twice
    is a ValueError naming it."""
    rules: dict[str, Any] = {}
    for text in texts:
        for piece in text.split(","):
            key, sep, raw = piece.partition("=")
            key = key.strip()
            if not sep or not key:
                raise ValueError(f"--rules: expected KEY=VALUE, found {piece!r}")
            try:
                value = json.loads(raw)
            except ValueError:
                value = raw.strip()  # text that is not JSON: a string (discard_recall=none)
            if isinstance(value, list | dict):
                raise ValueError(
                    f"--rules: {key}: expected one value (true, 12, none), found {raw!r}"
                )
            if key in rules:
                raise ValueError(f"--rules: {key} is given twice")
            rules[key] = value
    return rules


def meta_agents(meta: dict[str, Any], num_players: int) -> list[str] | None:
    """The per-seat agent names a log's header records, if it records them."""
    agents = meta.get("agents")
    if (
        isinstance(agents, list)
        and len(agents) == num_players
        and all(isinstance(a, str) for a in agents)
    ):
        return agents
    return None


# ---------------------------------------------------------------------------------------------
# Subcommands that forward to a script's main(argv)
# ---------------------------------------------------------------------------------------------
def load_main(target: str) -> Callable[[list[str] | None], Any]:
    """The function a ``package.module:function`` target names."""
    location, _, function = target.partition(":")
    try:
        module = importlib.import_module(location)
    except ModuleNotFoundError as exc:
        raise CLIError(f"this command runs {target}, but {exc.name} is not installed") from exc
    main = getattr(module, function, None)
    if not callable(main):
        raise CLIError(f"this command runs {target}, which does not exist")
    return main


def forward(name: str, target: str, argv: Sequence[str]) -> int:
    """Run ``target(argv)`` as ``airships NAME`` (its own --help and errors) and return its
    exit status."""
    main = load_main(target)
    saved = sys.argv[0]
    sys.argv[0] = f"{PROG} {name}"  # argparse's default prog: "usage: airships NAME ..."
    try:
        status = main(list(argv))
    except SystemExit as exc:
        status = exc.code
    finally:
        sys.argv[0] = saved
    if status is None:
        return 0
    if isinstance(status, bool) or not isinstance(status, int):
        print(status, file=sys.stderr)
        return 1
    return status


def add_forwarding_parser(subparsers: Any, name: str, target: str, summary: str) -> None:
    """List a forwarding subcommand in ``airships --help`` (its arguments go to the target)."""
    parser = subparsers.add_parser(
        name, help=summary, add_help=False, description=f"{summary} (runs {target})"
    )
    parser.set_defaults(forward_target=target)


def game_argument(text: str) -> str:
    """``--game NAME``: a registered game (else an error listing the registered games)."""
    from airships_env.registry import games

    if text not in games():
        raise argparse.ArgumentTypeError(
            f"unknown game {text!r}; registered games: {', '.join(games())}"
        )
    return text


def add_game_argument(parser: argparse.ArgumentParser, default: str | None = "airships") -> None:
    """``--game NAME``: the game played (a registered name; ``airships`` by default)."""
    parser.add_argument(
        "--game",
        type=game_argument,
        default=default,
        metavar="NAME",
        help="the game: a registered name (airships_env.games(); default "
        + (f"{default})" if default is not None else "the file's, else airships)"),
    )


def require_tool(command: str, game: str, tool: str, games_with_it: Sequence[str]) -> None:
    """A clear error when ``game`` lacks a tool the command needs (e.g. a terminal table, a
    trained policy, a native core): names the game, the tool and the games that have it."""
    if game not in games_with_it:
        raise UsageError(
            f"{command}: {game} has no {tool} yet; the games with one: "
            f"{', '.join(games_with_it) or 'none'}"
        )


def add_ray_argument(parser: argparse.ArgumentParser) -> None:
    """``--ray [ADDRESS]``: play the games as tasks on a Ray cluster (arena, tournament)."""
    parser.add_argument(
        "--ray",
        nargs="?",
        const="default",
        default=None,
        metavar="ADDRESS",
        help="play the games as tasks on a Ray cluster: ADDRESS, or without one the cluster "
        "RAY_ADDRESS names, else a local one (needs the rllib extra); same records as locally",
    )


def ray_executor(address: str | None) -> Executor | None:
    """The Ray cluster executor for ``--ray ADDRESS`` (None: play here)."""
    if address is None:
        return None
    from agents.rllib.arena import RayExecutor

    return RayExecutor(address)


def report_errored_games(command: str, errors: int, out: object) -> int:
    """The exit status of a run of games: 1 (with a line on stderr) when ``errors`` games ended
    in an error, which are not recorded in the results file ``out`` (a re-run retries them)."""
    if not errors:
        return 0
    print(
        f"{command}: {errors} game(s) ended in an error (see above)"
        + (f"; they are not recorded in {out}: run again to retry them" if out else ""),
        file=sys.stderr,
    )
    return 1
