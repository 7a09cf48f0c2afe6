"""Australia's native core: its rules in C, bit-identical to the Python engine.

The Python engine (:mod:`airships_env.games.australia.engine`) is the readable reference and the
oracle; the core (``airships_env/native/src/australia.c``, in the extension
``airships_env.native._core``) is the fast path. Both deal from the same numpy PCG64 stream with
the shared samplers of :mod:`airships_env.chance` (all chance is at setup), so the same seed and
the same actions give the same game: the deal, legal actions, records (drawn colours, revealed
tiles, the windmill's moves, every scoring) and the whole state.
``tests/native/test_australia_native.py`` holds them to it.

The map and components are not compiled into the core: :func:`tables` hands it the tables the
Python loader validated, so an edited data file plays in C exactly as in Python.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from airships_env.games.australia.engine import actions as A
from airships_env.games.australia.engine.data import PLAYER_COUNTS, AustraliaData, default_data
from airships_env.games.australia.engine.model import OVER, PHASE_NAMES, RulesOptions
from airships_env.games.australia.engine.records import ActionRecord, Scoring
from airships_env.games.australia.engine.state import State
from airships_env.native import require
from airships_env.native.convert import generator_from, rng_state
from airships_env.native.table import NativeTable, deal_generator

__all__ = ["NativeAustraliaGame", "pack_options", "random_games", "tables"]

Options = tuple[bool, bool, int, int]
Map = tuple[tuple[int, ...], tuple[tuple[int, tuple[int, ...]], ...]]
Components = tuple[
    tuple[tuple[int, ...], ...], tuple[int, ...], tuple[bool, ...], int, int, int, int, int
]


def pack_options(options: RulesOptions) -> Options:
    """The rules options as the core takes them (australia_module.c)."""
    return (options.full_game, options.recolour_anywhere, options.stack_cards, options.max_rounds)


def tables(data: AustraliaData, num_players: int) -> tuple[Map, Components]:
    """The validated map and components of ``num_players``, as the core takes them."""
    board: Map = (
        tuple(region.colour for region in data.regions),
        tuple((loc.kind, tuple(loc.regions)) for loc in data.locations),
    )
    components: Components = (
        tuple(tuple(row) for row in data.cards),
        tuple(data.tiles),
        tuple(data.windmill_tiles),
        data.rangers[num_players],
        data.windmill_start,
        data.windmill_max,
        data.tile_areas,
        data.ranger_areas,
    )
    return board, components


def _check_players(num_players: object) -> int:
    if isinstance(num_players, bool) or num_players not in PLAYER_COUNTS:
        raise ValueError(f"Australia is for 2 to 5 players, not {num_players!r}")
    return int(num_players)


def random_games(
    num_players: int,
    games: int,
    seed: int,
    *,
    options: RulesOptions | None = None,
    data: AustraliaData | None = None,
) -> int:
    """Random legal whole games in the core alone (the engine benchmark); the actions applied.
    Game g deals from ``SeedSequence(seed, spawn_key=(g, 0))`` and draws its choices with
    :func:`~airships_env.chance.uniform_below` from ``(g, 1)``."""
    players = _check_players(num_players)
    options = options if options is not None else RulesOptions()
    board, components = tables(data if data is not None else default_data(), players)
    played: int = require().au_random_games(
        players, games, seed, pack_options(options), board, components
    )
    return played


def _record(raw: tuple[Any, ...]) -> ActionRecord:
    """The engine's record of the core's record tuple."""
    step, turn, player, action, drawn, revealed, windmill_to, scorings, game_over = raw
    return ActionRecord(
        step=step,
        turn=turn,
        player=player,
        action=action,
        name=A.ACTION_NAMES[action],
        drawn=drawn,
        revealed=revealed,
        windmill_to=windmill_to,
        scorings=tuple(Scoring(*scoring) for scoring in scorings),
        game_over=game_over,
    )


class NativeAustraliaGame(NativeTable):
    """One Australia game in the native core, with the engine's vocabulary.

    Make one with :meth:`new` (like :func:`~airships_env.games.australia.engine.new_game`) or
    :meth:`from_state` (any true Python state: a saved game, a hand-built position).
    """

    __slots__ = ()
    PHASE_NAMES = PHASE_NAMES
    OVER = OVER
    ACTION_NAMES = A.ACTION_NAMES

    @classmethod
    def new(
        cls,
        num_players: int,
        seed: int | None = None,
        *,
        rng: np.random.Generator | None = None,
        options: RulesOptions | None = None,
        data: AustraliaData | None = None,
    ) -> NativeAustraliaGame:
        """Set up and deal a game (S1-S3) exactly as the Python ``new_game`` does."""
        players = _check_players(num_players)
        rng = deal_generator(seed, rng)
        options = options if options is not None else RulesOptions()
        data = data if data is not None else default_data()
        board, components = tables(data, players)
        game = require().au_new(players, rng_state(rng), pack_options(options), board, components)
        return cls(game, data, options)

    @classmethod
    def from_state(cls, state: State) -> NativeAustraliaGame:
        """The same game in the core (generator state included); a view cannot be imported."""
        exported = state.to_dict()
        exported["rng"] = rng_state(state.rng) if state.rng is not None else None
        board, components = tables(state.data, state.num_players)
        game = require().au_import(pack_options(state.options), board, components, exported)
        return cls(game, state.data, state.options)

    def to_state(self) -> State:
        """The game as a Python :class:`State` (equal ``to_dict()`` to the engine's)."""
        exported = self._game.export()
        rng = exported.pop("rng")
        return State(
            data=self.data,
            options=self.options,
            rng=None if rng is None else generator_from(rng),
            **exported,
        )

    def apply_action(self, action: int) -> ActionRecord:
        """Apply a legal action and return its record, as the Python engine does; an illegal
        action raises the same IllegalActionError, changing nothing."""
        return _record(self.apply_raw(action))
