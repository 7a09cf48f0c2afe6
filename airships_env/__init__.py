"""airships-env: board-game rules engines and their PettingZoo / Gymnasium environments.

Layers, imports going one way: the games' rules (``airships_env.engine``; numpy only) <- this
package's environment modules (PettingZoo AEC env, observation encoding, rendering, the
single-agent Gymnasium wrapper) <- ``agents`` and ``scripts``.

Games: :func:`games` lists the registered games and :func:`make` returns one's PettingZoo AEC
environment (see :mod:`airships_env.registry`); :func:`env` is Airships' (``airships_v1``).
Importing this package registers every game's Gymnasium id (``Airships-v1``) as soon as
gymnasium is imported, before or after this package.

The environment classes are imported lazily, so ``import airships_env.engine`` works without
gymnasium or pettingzoo installed (and does not import them when they are).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from importlib import import_module
from types import ModuleType
from typing import Any

__version__ = "0.1.0"

_LAZY = {
    "env": "airships_env.aec",
    "raw_env": "airships_env.aec",
    "AirshipsSingleAgentEnv": "airships_env.single_agent",
    "observation_layout": "airships_env.observation",
    "encode_observation": "airships_env.observation",
    "Decision": "airships_env.policy",
    "Policy": "airships_env.policy",
    "RandomPolicy": "airships_env.policy",
    "make": "airships_env.registry",
    "get_game": "airships_env.registry",
}

__all__ = ["__version__", "games", *_LAZY]


def __getattr__(name: str) -> Any:
    if name == "games":
        # The package airships_env.games, which is callable: games() lists the games.
        return import_module("airships_env.games")
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'airships_env' has no attribute {name!r}")
    return getattr(import_module(module), name)


class _GymnasiumHook(importlib.abc.MetaPathFinder):
    """Registers the games' Gymnasium ids right after gymnasium is first imported.

    It finds gymnasium's spec through the other finders and wraps its loader, so gymnasium is
    never imported because of this package; it leaves ``sys.meta_path`` once it has fired.
    """

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        """gymnasium's own spec, its loader wrapped; None for every other module."""
        if fullname != "gymnasium":
            return None
        _remove_hook()
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            spec = None if find is None else find(fullname, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = _RegisteringLoader(spec.loader)
                return spec
        return None


class _RegisteringLoader(importlib.abc.Loader):
    """gymnasium's loader, then the registration of the games' ids."""

    def __init__(self, loader: Any):
        self.loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        """gymnasium's own module object."""
        created: ModuleType | None = self.loader.create_module(spec)
        return created

    def exec_module(self, module: ModuleType) -> None:
        """Run gymnasium, then register the ids."""
        self.loader.exec_module(module)
        _register_gym_ids()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.loader, name)


def _remove_hook() -> None:
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _GymnasiumHook)]


def _register_gym_ids() -> None:
    from airships_env.registry import register_gym_ids

    register_gym_ids()


if "gymnasium" in sys.modules:
    _register_gym_ids()
elif not any(isinstance(f, _GymnasiumHook) for f in sys.meta_path):
    sys.meta_path.insert(0, _GymnasiumHook())
