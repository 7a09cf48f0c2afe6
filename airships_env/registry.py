"""The game registry: every game by name, imported on first use (as ``pgx.make``, ``gym.make``).

A game registers a name and a ``"module:ATTR"`` target naming its :class:`~airships_env.protocol.
Game` object; nothing is imported until the game is asked for, so listing the games costs
nothing and a game whose optional dependencies are missing fails only when used::

    import airships_env

    airships_env.games()  # ['airships', ...]
    env = airships_env.make("airships", num_players=3)  # the game's PettingZoo AEC env
    env = airships_env.make("nippon", backend="python")  # on the Python engine, not the core
    game = airships_env.registry.get_game("airships")  # the protocol's Game object

Names and ids: a game ``name`` (``"airships"``) of ``version`` N is the PettingZoo env
``<name>_v<N>`` (``airships_v1``) and the Gymnasium id ``<Name>-v<N>`` (``Airships-v1``, its
single-agent wrapper). Importing :mod:`airships_env` registers the Gymnasium ids of every game
as soon as gymnasium is imported (:func:`register_gym_ids`).
"""

from __future__ import annotations

import sys
import warnings
from importlib import import_module
from typing import Any

from airships_env.protocol import Game

__all__ = [
    "BACKENDS",
    "check_backend",
    "games",
    "get_game",
    "gym_id",
    "make",
    "make_single_agent",
    "pettingzoo_name",
    "register",
    "register_gym_ids",
    "resolve_game",
]

#: Registered games: name -> ``"module:ATTR"`` of its Game object. A new game adds one line.
_TARGETS: dict[str, str] = {
    "airships": "airships_env.games.airships:GAME",
    "australia": "airships_env.games.australia:GAME",
    "clockwork": "airships_env.games.clockwork:GAME",
    "nippon": "airships_env.games.nippon:GAME",
}

_LOADED: dict[str, Game] = {}

#: Every backend a game may have: its rules in a native core, or in the Python engine.
BACKENDS: tuple[str, ...] = ("native", "python")


def native_built() -> bool:
    """Whether the native core (``airships_env.native._core``) is built here."""
    from airships_env.native import available

    return available()


def check_backend(game: Any, backend: object) -> str:
    """``backend`` if ``game`` has it, the game's default (its first) for None; else a
    ValueError naming the game's backends (and, for ``"native"`` where the core is not built,
    how to build it)."""
    if backend is None:
        default: str = game.backends[0]
        return default
    if isinstance(backend, str) and backend in game.backends:
        return backend
    why = ""
    if backend == "native" and not native_built():
        why = (
            " (the native core is not built here: `pip install -e .` builds it, with a C compiler)"
        )
    raise ValueError(
        f"{game.name}: backend must be one of {game.backends} or None, got {backend!r}{why}"
    )


def register(name: str, target: str) -> None:
    """Register a game: ``target`` is ``"module:ATTR"`` naming its Game (imported lazily).

    Registering the same name again with the same target is allowed (a module imported twice);
    another target under a taken name is a ValueError.
    """
    if not isinstance(name, str) or not name.isidentifier() or name != name.lower():
        raise ValueError(f"a game name is a lower-case identifier, got {name!r}")
    module, sep, attribute = target.partition(":") if isinstance(target, str) else ("", "", "")
    if not sep or not module or not attribute:
        raise ValueError(f"game {name!r}: the target must be 'module:ATTR', got {target!r}")
    known = _TARGETS.get(name)
    if known is not None and known != target:
        raise ValueError(f"game {name!r} is already registered as {known!r}, not {target!r}")
    _TARGETS[name] = target
    if "gymnasium" in sys.modules:
        register_gym_ids()


def games() -> list[str]:
    """The registered game names, sorted."""
    return sorted(_TARGETS)


def get_game(name: str) -> Game:
    """The Game object registered as ``name`` (imported on first use)."""
    game = _LOADED.get(name)
    if game is not None:
        return game
    target = _TARGETS.get(name) if isinstance(name, str) else None
    if target is None:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(games())}")
    module_name, _, attribute = target.partition(":")
    try:
        game = getattr(import_module(module_name), attribute)
    except AttributeError as exc:
        raise ValueError(f"game {name!r}: module {module_name} has no {attribute!r}") from exc
    if not isinstance(game, Game):
        raise TypeError(f"game {name!r}: {target} does not follow the Game protocol")
    if game.name != name:
        raise ValueError(f"game {name!r}: {target} calls itself {game.name!r}")
    _LOADED[name] = game
    return game


def resolve_game(game: Game | str) -> Game:
    """A Game object as is, or the registered game of that name."""
    if isinstance(game, str):
        return get_game(game)
    if not isinstance(game, Game):
        raise TypeError(f"game must be a registered name or a Game object, got {game!r}")
    return game


def make(name: str, **kwargs: Any) -> Any:
    """The PettingZoo AEC environment of game ``name`` (``kwargs`` go to the game's ``env``:
    ``backend="native"`` or ``"python"`` picks the engine, None or nothing the game's default,
    its first ``backends``, the native core where it is built)."""
    return get_game(name).env(**kwargs)


def make_single_agent(game: str, **kwargs: Any) -> Any:
    """The single-agent Gymnasium environment of ``game`` (the entry point of its gym id;
    ``gym.make(id, backend=...)`` passes ``backend`` here, as :func:`make` does)."""
    return get_game(game).single_agent_env(**kwargs)


def gym_id(name: str, version: int) -> str:
    """The Gymnasium id of a game: ``Airships-v1``."""
    return f"{name.capitalize()}-v{version}"


def pettingzoo_name(name: str, version: int) -> str:
    """The PettingZoo env name of a game: ``airships_v1``."""
    return f"{name}_v{version}"


def register_gym_ids() -> list[str]:
    """Register every game's Gymnasium id (``<Name>-v<N>``) not registered yet; the new ids.

    The entry point is :func:`make_single_agent` with ``game=<name>``, for every game (so
    ``gym.spec("Airships-v1").kwargs`` holds ``{"game": "airships"}``).
    """
    import gymnasium

    added = []
    for name in games():
        try:
            version = get_game(name).version
        except (ImportError, ValueError, TypeError) as exc:
            # Registration runs inside ``import gymnasium``: a broken game must not break that.
            warnings.warn(f"game {name!r} has no Gymnasium id: {exc}", stacklevel=2)
            continue
        env_id = gym_id(name, version)
        if env_id in gymnasium.registry:
            continue
        gymnasium.register(
            id=env_id, entry_point="airships_env.registry:make_single_agent", kwargs={"game": name}
        )
        added.append(env_id)
    return added
