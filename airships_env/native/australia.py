"""Australia's native core: its rules in C, bit-identical to the Python engine.

The Python engine (:mod:`airships_env.games.australia.engine`) is the readable reference and the
oracle; the core (``airships_env/native/src/australia.c``, in the extension
``airships_env.native._core``) is the fast path. Both deal from the same numpy PCG64 stream with
the shared samplers of :mod:`airships_env.chance` (all chance is at setup), so the same seed and
the same actions give the same game: the deal, legal actions, records (drawn colours, revealed
tiles, the windmill's moves, every scoring) and the whole state.
``tests/native/test_australia_native.py`` holds them to it. The core also writes each seat's
observation (``src/australia_obs.c``), plays the random, greedy and heuristic bots
(``src/australia_bots.c``), gives the views and determinizations of the engine's ``view.py``
(``src/australia_view.c``, ``tests/native/test_australia_view.py``) and runs the generic search
in C (``src/australia_search.c``: the game's ``evaluate`` and ``rollout_action`` ported,
``tests/native/test_australia_search.py``).

The map and components are not compiled into the core: :func:`tables` hands it the tables the
Python loader validated, so an edited data file plays in C exactly as in Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from airships_env.chance import check_seed
from airships_env.games.australia.engine import actions as A
from airships_env.games.australia.engine.data import PLAYER_COUNTS, AustraliaData, default_data
from airships_env.games.australia.engine.model import OVER, PHASE_NAMES, RulesOptions
from airships_env.games.australia.engine.records import ActionRecord, Scoring
from airships_env.games.australia.engine.state import State
from airships_env.native import require
from airships_env.native.convert import generator_from, rng_state, seed_words
from airships_env.native.table import (
    BOTS,
    REWARD_MODES,
    NativeBatch,
    Opponent,
    SearchOptions,
    SearchTable,
    deal_generator,
    pcg64_state,
    set_generator_state,
    slot_generator,
)

__all__ = [
    "BOTS",
    "AustraliaBatch",
    "NativeAustraliaGame",
    "SearchOptions",
    "bot_decisions",
    "pack_options",
    "random_games",
    "slot_generator",
    "tables",
]

Options = tuple[bool, bool, int, int]
Map = tuple[tuple[int, ...], tuple[tuple[int, tuple[int, ...]], ...], tuple[int, ...]]
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
        tuple(int(region.water) for region in data.regions),
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


class NativeAustraliaGame(SearchTable):
    """One Australia game in the native core, with the engine's vocabulary.

    Make one with :meth:`new` (like :func:`~airships_env.games.australia.engine.new_game`) or
    :meth:`from_state` (any true Python state: a saved game, a hand-built position), or
    :meth:`from_view` (a seat's view: a position to search from). Views, determinizations and the
    search: :class:`~airships_env.native.table.SearchTable`.
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
        game: NativeAustraliaGame = cls._import(state, exported)
        return game

    @classmethod
    def _import(cls, state: State, exported: dict[str, Any]) -> NativeAustraliaGame:
        """The core's game of ``exported`` (see :meth:`SearchTable._import`)."""
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

    def observe(self, seat: int) -> np.ndarray:
        """``seat``'s observation (:func:`~airships_env.games.australia.observation.
        encode_observation` of its view), a fresh float32 vector."""
        out = np.empty(require().AU_OBS_SIZE, dtype=np.float32)
        self._game.observe(seat, out)
        return out

    def bot_action(self, bot: str, rng: np.random.Generator) -> int:
        """The native ``bot``'s choice for the seat to act, drawing from ``rng`` (advanced as
        the Python bot advances its generator): the Python bot's decision."""
        code = BOTS.get(bot)
        if code is None:
            raise ValueError(f"unknown native bot {bot!r}; the core plays {', '.join(BOTS)}")
        action, after = self._game.bot_action(code, pcg64_state(rng))
        set_generator_state(rng, after)
        return int(action)


# -- the batch ----------------------------------------------------------------------------------
class AustraliaBatch(NativeBatch):
    """N Australia games in the native core, stepped in one call (``src/australia_batch.c`` over
    the shared batch ``src/gbatch.c``).

    In every game one seat is the *learner* (drawn anew each episode, or fixed) and every other
    seat is played by an *opponent*: a native bot (``"random"``, ``"greedy"``, ``"heuristic"``,
    the Python bots' decisions) played inside the step, or an *external* policy (an integer
    ``k``) that the caller evaluates for all games waiting on it. ``step(actions)`` applies
    ``actions[i]`` in every game ``i`` that waits on a Python seat (``-1``, and no other value,
    leaves a game alone), then plays the bots until a Python seat must act or the game ends; an
    ended game writes its rewards, ``terminated`` or ``truncated``, its final observation for the
    learner and its winner, and starts its slot's next episode (auto-reset). The arrays (all
    overwritten by the next call; copy what you keep):

    ``obs`` (N, 1280) float32 the acting seat's observation (:mod:`~airships_env.games.australia.
    observation`); ``masks`` (N, 556) bool its legal actions; ``acting``, ``controller``,
    ``learner`` (N,) int8; ``rewards`` (N, players) float32 (GameAEC's: ``"win"`` gives each of
    the k winners 1/k and the others -1, ``"score"`` the margin over the best other seat / 50);
    ``terminated``, ``truncated`` (N,) bool; ``final_obs`` (N, 1280); ``scores`` (N, players)
    int32 (the outcome's: VP + dollars, E3); ``winners`` (N,) uint8, a bit per seat (E3: a tie
    goes to the most dollars, still tied a shared win); ``episode_steps`` (N,) int32, the actions
    of the current episode (``max_turns`` truncates an episode after that many, rewards 0, as
    :class:`~airships_env.game_aec.GameAEC` does).

    Seeds: episode ``e`` of slot ``i`` deals from :func:`slot_generator` ``(seed, i, e, 0)`` (so
    ``new_game(players, rng=...)`` deals the same game); the bot in seat ``s`` draws from
    ``(seed, i, e, 1 + s)`` and the learner's seat is ``uniform_below(players)`` from
    ``(seed, i, e, 7)``. A slot's games depend on neither the number of slots nor the others.
    """

    NUM_ACTIONS = A.NUM_ACTIONS
    ACTION_NAMES = A.ACTION_NAMES
    STATE = State

    def __init__(
        self,
        num_games: int,
        num_players: int,
        *,
        seed: int = 0,
        opponents: Opponent | Sequence[Opponent] = "random",
        learner_seat: int | str = "random",
        reward: str = "win",
        max_turns: int | None = None,
        autoreset: bool = True,
        options: RulesOptions | None = None,
        data: AustraliaData | None = None,
    ):
        module = require()
        buffers, shared = self._prepare(
            num_games,
            int(module.AU_BATCH_MAX_GAMES),
            lambda: _check_players(num_players),
            seed=seed,
            opponents=opponents,
            learner_seat=learner_seat,
            reward=reward,
            max_turns=max_turns,
            autoreset=autoreset,
            obs_size=int(module.AU_OBS_SIZE),
            scores_dtype=np.int32,
        )
        self.options = options if options is not None else RulesOptions()
        self.data = data if data is not None else default_data()
        settings = (*shared, REWARD_MODES.index(reward))
        players = self.num_players
        board, components = tables(self.data, players)
        self._batch = module.AustraliaBatch(
            self.num_games,
            players,
            seed_words(self.seed),
            pack_options(self.options),
            board,
            components,
            buffers,
            settings,
        )


def bot_decisions(
    bot: str,
    num_players: int,
    games: int,
    seed: int,
    *,
    options: RulesOptions | None = None,
    data: AustraliaData | None = None,
) -> int:
    """Whole games between copies of one native bot in the core alone (the bots' benchmark);
    returns the decisions made. Game g deals from ``SeedSequence(seed, spawn_key=(g, 0))`` and
    the bot in seat s draws from ``(g, 1 + s)``."""
    code = BOTS.get(bot)
    if code is None:
        raise ValueError(f"unknown native bot {bot!r}; the core plays {', '.join(BOTS)}")
    players = _check_players(num_players)
    board, components = tables(data if data is not None else default_data(), players)
    rules = options if options is not None else RulesOptions()
    decisions: int = require().au_bot_decisions(
        code, players, games, check_seed(seed), pack_options(rules), board, components
    )
    return decisions
