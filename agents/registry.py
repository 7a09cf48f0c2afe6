"""Agents made by name with options: ``make_agent("mcts:sims=400,seconds=1")``.

Spec syntax: ``name[:key=value[,key=value...]]``. Values are read as ``int``, then ``float``,
then ``true``/``false`` (bool), ``none`` (None), else kept as a string. A name is either one of
:data:`AGENTS` or a dotted import path to a class (``package.module.ClassName``), which lets
tests and experiments plug in their own agents and still be built by name in a worker process.

A *list* of specs (``--agents``) is split on commas with one rule: a piece that looks like
``key=value`` (an identifier, then ``=``) continues the options of the agent before it; any
other piece starts a new agent. Agent names never contain ``=``, so this is unambiguous::

    split_specs("mcts:sims=400,seconds=1,greedy,random")
    # -> ["mcts:sims=400,seconds=1", "greedy", "random"]

A value cannot itself contain a comma; pass such an agent with a repeated ``--agents`` flag.
"""

from __future__ import annotations

import inspect
import math
import re
from importlib import import_module
from typing import Any

import numpy as np

from airships_env.games.airships import BOTS as AIRSHIPS_BOTS
from airships_env.policy import Policy
from airships_env.protocol import Game
from airships_env.registry import resolve_game

#: Airships' agent names and the ``module:Class`` each builds (imported on first use, so this
#: module imports without torch or the bots): the names when no game is given. The same dict as
#: the Airships game's ``bots()``.
AGENTS: dict[str, str] = AIRSHIPS_BOTS

#: The agents every game has, written once over the game protocol; a game's own ``bots()``
#: shadow them (Airships' ``ismcts`` is its C search, its ``mcts`` its heuristic-led search).
GENERIC_AGENTS: dict[str, str] = {
    "random": "airships_env.policy:RandomPolicy",
    "mcts": "agents.bots.generic_ismcts:GenericMCTSAgent",
    "ismcts": "agents.bots.generic_ismcts:GenericISMCTSAgent",
    "ppo": "agents.policy_agent:GamePPOAgent",
    "rllib": "agents.rllib.export:RLlibAgent",
}

GameRef = Game | str | None


def agents_for(game: GameRef = None) -> dict[str, str]:
    """The agent names of a game (a Game or a registered name): the generic agents, shadowed
    by the game's own ``bots()``; with no game, Airships' names (:data:`AGENTS`)."""
    if game is None:
        return AGENTS
    return {**GENERIC_AGENTS, **resolve_game(game).bots()}


_OPTION_PIECE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*$")


class AgentUnavailableError(ImportError):
    """A known agent whose module (or one of its dependencies) cannot be imported."""


class TableFitError(ValueError):
    """An agent that cannot play at a table of the given size (a policy trained for another
    player count, or no bundled policy for it)."""


def check_fit(agent: Policy, num_players: int, spec: str | None = None) -> None:
    """Raise :class:`TableFitError` unless ``agent`` can play at a ``num_players`` table.

    Agents that depend on the table size (trained policies) say so with a ``check_table
    (num_players)`` method; the others fit every table. Called when an agent is made for a
    table, so that a misfit is a clear error before the first move, not in the middle of a game.
    """
    check = getattr(agent, "check_table", None)
    if check is None:
        return
    try:
        check(num_players)
    except (ValueError, OSError) as exc:
        where = f"agent {spec!r}: " if spec is not None else ""
        raise TableFitError(f"{where}{exc}") from exc


def parse_value(text: str) -> Any:
    """An option value: int, float, bool (true/false), None (none) or the string itself."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered == "none":
        return None
    return text


def parse_spec(spec: str, game: GameRef = None) -> tuple[str, dict[str, Any]]:
    """Split ``name:key=value,...`` into the name and its parsed options (``game``: whose
    agent names an error lists)."""
    name, _, rest = spec.strip().partition(":")
    name = name.strip()
    if not _NAME.match(name):
        known = ", ".join(agents_for(game))
        raise ValueError(
            f"agent spec {spec!r}: {name!r} is not an agent name; known agents: {known}"
        )
    options: dict[str, Any] = {}
    if rest.strip():
        for piece in rest.split(","):
            key, sep, value = piece.partition("=")
            key = key.strip()
            if not sep or not key.isidentifier():
                raise ValueError(f"agent spec {spec!r}: option {piece!r} is not key=value")
            if key in options:
                raise ValueError(f"agent spec {spec!r}: option {key!r} given twice")
            options[key] = parse_value(value.strip())
    return name, options


def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of agent specs (see the module docstring for the rule)."""
    specs: list[str] = []
    for raw in text.split(","):
        piece = raw.strip()
        if not piece:
            raise ValueError(f"agent list {text!r} has an empty entry")
        if _OPTION_PIECE.match(piece):
            if not specs or ":" not in specs[-1]:
                raise ValueError(
                    f"agent list {text!r}: option {piece!r} follows no agent "
                    f"with options (write name:key=value,key=value)"
                )
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


#: The extra that installs a package an agent may need (pip's name for the import name).
EXTRA_OF_PACKAGE: dict[str, str] = {
    "yaml": "env",
    "pydantic": "env",
    "torch": "train",
    "stable_baselines3": "train",
    "sb3_contrib": "train",
    "ray": "rllib",
}


def missing_package(agent: str, package: str) -> AgentUnavailableError:
    """The error for an agent whose package is not installed, naming the extra that has it."""
    package = package.partition(".")[0]  # 'stable_baselines3.common': the package to install
    extra = EXTRA_OF_PACKAGE.get(package)
    how = (
        f": pip install 'airships-env[{extra}]' (in a checkout: pip install -e '.[{extra}]')"
        if extra is not None
        else ""
    )
    return AgentUnavailableError(
        f"agent {agent!r} needs the package {package!r}, which is not installed{how}"
    )


def agent_class(name: str, game: GameRef = None) -> type:
    """The class an agent name builds (a name of the game's agents, :func:`agents_for`, or a
    dotted ``module.Class`` path)."""
    known = agents_for(game)
    if name in known:
        module_name, _, attribute = known[name].partition(":")
    elif "." in name:
        module_name, _, attribute = name.rpartition(".")
    else:
        where = "" if game is None else f" for {resolve_game(game).name}"
        raise ValueError(
            f"unknown agent {name!r}; known agents{where}: {', '.join(known)} "
            f"(or a dotted path package.module.Class)"
        )
    try:
        module = import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = exc.name or "?"
        if module_name == missing or module_name.startswith(missing + "."):
            raise AgentUnavailableError(
                f"agent {name!r} lives in module {module_name}, which does not exist "
                f"(yet) in this installation"
            ) from exc
        raise missing_package(name, missing) from exc
    try:
        cls = getattr(module, attribute)
    except AttributeError as exc:
        raise AgentUnavailableError(
            f"agent {name!r}: module {module_name} has no {attribute!r}"
        ) from exc
    if not isinstance(cls, type):
        raise ValueError(f"agent {name!r}: {module_name}.{attribute} is not a class")
    return cls


def agent_options(cls: type) -> tuple[list[str], bool]:
    """The keyword options a class takes, and whether it takes any (``**kwargs``)."""
    parameters = inspect.signature(cls).parameters.values()
    names = [
        p.name
        for p in parameters
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name not in ("rng", "game")
    ]
    open_ended = any(p.kind == p.VAR_KEYWORD for p in parameters)
    return names, open_ended


#: How an option's allowed values are named in messages, by the type in its annotation.
_VALUE_WORDS = {"int": "a whole number", "float": "a number", "bool": "true or false"}


def non_finite_option(spec: str, options: dict[str, Any]) -> str:
    """The message refusing the first option that is NaN or infinite (a float option of any
    agent: no budget, weight or threshold is a NaN or an infinity), or "" when none is."""
    for key, value in options.items():
        if isinstance(value, float) and not math.isfinite(value):
            return (
                f"agent spec {spec!r}: option {key}={value}: expected a finite number "
                f"(nan and inf are not allowed)"
            )
    return ""


def _check_option_types(spec: str, cls: type, options: dict[str, Any]) -> None:
    """Refuse an option whose value cannot be what the constructor's annotation says (only
    annotations made of int, float, bool and None are checked), naming what is allowed."""
    parameters = inspect.signature(cls).parameters
    for key, value in options.items():
        parameter = parameters.get(key)
        if parameter is None or parameter.annotation is inspect.Parameter.empty:
            continue
        annotation = parameter.annotation
        text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
        kinds = set(re.findall(r"[A-Za-z_]+", text))
        if not kinds or not kinds <= {"int", "float", "bool", "None", "Optional"}:
            continue
        if value is None:
            fits = "None" in kinds or "Optional" in kinds
        elif isinstance(value, bool):
            fits = "bool" in kinds
        elif isinstance(value, int):
            fits = bool(kinds & {"int", "float"})
        elif isinstance(value, float):
            fits = "float" in kinds
        else:
            fits = False
        if not fits:
            allowed = [_VALUE_WORDS[k] for k in ("int", "float", "bool") if k in kinds]
            if "None" in kinds or "Optional" in kinds:
                allowed.append("none")
            shown = (
                "none"
                if value is None
                else str(value).lower()
                if isinstance(value, bool)
                else value
            )
            raise ValueError(
                f"agent spec {spec!r}: option {key}={shown}: expected {' or '.join(allowed)}"
            )


def game_agent_defaults(game: GameRef) -> dict[str, dict[str, Any]]:
    """The game's default options per agent name (its optional ``agent_defaults()``: the options
    a spec that does not set them gets, such as a search tuned for the game), or none."""
    if game is None:
        return {}
    defaults = getattr(resolve_game(game), "agent_defaults", None)
    if defaults is None:
        return {}
    return {name: dict(options) for name, options in defaults().items()}


def make_agent(
    spec: str,
    rng: np.random.Generator | None = None,
    num_players: int | None = None,
    game: GameRef = None,
) -> Policy:
    """Build the agent a spec names; ``rng`` goes to constructors that take one.

    ``game`` (a Game or a registered name) picks the names: the game's own bots shadow the
    generic ones (:func:`agents_for`); constructors that take ``game`` get the Game object.
    Without it, Airships' names, as always. Raises ValueError for an unknown name or option
    (listing the valid ones) or a constructor that refuses its options (a model file that
    cannot be read included) and :class:`AgentUnavailableError` when the agent's module cannot
    be imported. With ``num_players``, also checks that the agent can play at that table
    (:func:`check_fit`).
    """
    name, options = parse_spec(spec, game)
    cls = agent_class(name, game)
    options = {**game_agent_defaults(game).get(name, {}), **options}
    valid, open_ended = agent_options(cls)
    unknown = [key for key in options if key not in valid]
    if unknown and not open_ended:
        raise ValueError(
            f"agent spec {spec!r}: unknown option(s) {', '.join(unknown)}; "
            f"{name!r} takes: {', '.join(valid) or 'no options'}"
        )
    _check_option_types(spec, cls, options)
    problem = non_finite_option(spec, options)
    if problem:
        raise ValueError(problem)
    parameters = inspect.signature(cls).parameters
    if "rng" in parameters and rng is not None:
        options["rng"] = rng
    if "game" in parameters and game is not None:
        options["game"] = resolve_game(game)
    try:
        agent = cls(**options)
    except ModuleNotFoundError as exc:  # a package imported when the agent is built
        raise missing_package(name, exc.name or "?") from exc
    except (TypeError, ValueError, OSError) as exc:  # OSError: a model file that is not there
        if str(exc).startswith(f"agent spec {spec!r}"):
            raise
        raise ValueError(f"agent spec {spec!r}: {exc}") from exc
    if not isinstance(agent, Policy):
        raise ValueError(
            f"agent {name!r} ({cls.__name__}) does not follow the Policy "
            f"protocol (name, reset, act)"
        )
    if num_players is not None:
        check_fit(agent, num_players, spec)
    return agent
