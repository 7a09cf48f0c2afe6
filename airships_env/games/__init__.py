"""The games, one package each: ``airships_env.games.<name>`` holds the game's ``GAME`` object
(:class:`airships_env.protocol.Game`), registered in :mod:`airships_env.registry`.

Airships' rules, environments and renderers still live where they always were
(``airships_env.engine``, ``airships_env.aec``, ``airships_env.render`` ...):
:mod:`airships_env.games.airships` is an adapter over them.

This package is also the function ``airships_env.games()``: the attribute ``games`` of
``airships_env`` is this package once a game's module is imported, so the package is made
callable and calling it lists the registered games (:func:`airships_env.registry.games`).
Typed code calls :func:`airships_env.registry.games`.
"""

from __future__ import annotations

import sys
from types import ModuleType


class _GamesPackage(ModuleType):
    """This package, callable: ``airships_env.games()`` lists the registered games."""

    def __call__(self) -> list[str]:
        """The registered game names, sorted (:func:`airships_env.registry.games`)."""
        from airships_env.registry import games

        return games()


sys.modules[__name__].__class__ = _GamesPackage
