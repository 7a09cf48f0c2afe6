"""The native core: the rules, observations and bots in C, bit-identical to the Python engine.

The Python engine (:mod:`airships_env.engine`) stays the readable reference and the oracle; the
core (``airships_env/native/src``, built by ``pip install`` / ``make`` as the extension
``airships_env.native._core``) is the fast path. Both follow docs/airships/RULES.md and draw every chance
event the same way (docs/airships/RULES.md "Chance"), so the same seed and the same actions give the same
game: the same deal, dice, legal actions, records, observations and final state. The
differential tests (``tests/native``) hold them to it.

This module is the core's Python face:

- :func:`available` says whether the extension is built (the engine works without it);
- :class:`NativeGame` is one game in the core with the engine's vocabulary (``legal_actions``,
  ``apply_action`` returning the engine's :class:`~airships_env.engine.ActionRecord`,
  ``to_state`` giving a :class:`~airships_env.engine.GameState`), plus ``observe`` and the bots;
- :mod:`airships_env.native.batch` steps thousands of games per call;
- :mod:`airships_env.native.clockwork` is Escape from Clockwork City's core,
  :mod:`airships_env.native.australia` Australia's and :mod:`airships_env.native.nippon`
  Nippon's (their rules today), in the same extension.

The card set comes from the Python loader (:func:`airships_env.engine.load_cards` validates the
file; the core re-checks the packed table and never parses a card file itself).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections import OrderedDict
from types import ModuleType
from typing import Any

import numpy as np

from airships_env.chance import check_seed
from airships_env.engine.actions import (
    ACTION_NAMES,
    NUM_ATTEMPT_ACTIONS,
    as_action_index,
    not_an_action_reason,
)
from airships_env.engine.cards import CardSet, load_cards
from airships_env.engine.dice import AttemptOdds
from airships_env.engine.errors import ActionSpaceError, IllegalActionError
from airships_env.engine.game import check_num_players
from airships_env.engine.model import GAME_OVER, PHASE_NAMES, RulesOptions
from airships_env.engine.records import ActionRecord
from airships_env.engine.state import GameState
from airships_env.native.convert import (
    pack_cards,
    pack_options,
    record_from_native,
    rng_state,
    state_words,
    to_python,
)
from airships_env.protocol import Outcome

LIBRARY_VARIABLE = "AIRSHIPS_NATIVE_LIBRARY"


def _load_core() -> ModuleType:
    """The extension: the built one, or the file ``$AIRSHIPS_NATIVE_LIBRARY`` names (``make
    test-asan`` runs the tests against a build with AddressSanitizer and UBSan this way)."""
    path = os.environ.get(LIBRARY_VARIABLE)
    if not path:
        from airships_env.native import _core as module

        return module
    spec = importlib.util.spec_from_file_location("airships_env.native._core", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{LIBRARY_VARIABLE}={path}: not a loadable extension")
    module = importlib.util.module_from_spec(spec)
    sys.modules["airships_env.native._core"] = module
    spec.loader.exec_module(module)
    return module


_core: ModuleType | None
_IMPORT_ERROR: ImportError | None
try:
    _core = _load_core()
except ImportError as error:  # pragma: no cover - exercised where the extension is not built
    _core, _IMPORT_ERROR = None, error
else:
    _IMPORT_ERROR = None

# Error codes of the core (core.h)
_ILLEGAL, _BAD_DICE, _NO_RNG, _PUBLIC_VIEW = 1, 2, 3, 4


class NativeUnavailableError(ImportError):
    """The native core is not built in this installation."""


def available() -> bool:
    """Whether the native core (the extension ``airships_env.native._core``) is built."""
    return _core is not None


def require() -> Any:
    """The extension module, or a clear error that says how to build it."""
    if _core is None:
        raise NativeUnavailableError(
            "the native core is not built (airships_env.native._core failed to import: "
            f"{_IMPORT_ERROR}); build it with `pip install -e .` (needs a C compiler) or "
            "use backend='python'"
        )
    return _core


_CORES: OrderedDict[tuple[str, tuple[bool, ...]], Any] = OrderedDict()


def core_for(cards: CardSet, options: RulesOptions) -> Any:
    """The core's card table and options object for a card set and rules options (cached)."""
    module = require()
    key = (cards.digest, pack_options(options))
    core = _CORES.get(key)
    if core is None:
        core = module.Core(pack_cards(cards), pack_options(options))
        _CORES[key] = core
        if len(_CORES) > 16:
            _CORES.popitem(last=False)
    return core


class NativeGame:
    """One game in the native core, with the engine's vocabulary.

    Make one with :meth:`new` (a new game, like :func:`airships_env.engine.new_game`) or
    :meth:`from_state` (any Python state: a saved game, a public view, a search world).
    """

    __slots__ = ("_game", "cards", "options")

    def __init__(self, game: Any, cards: CardSet, options: RulesOptions):
        self._game = game
        self.cards = cards
        self.options = options

    @classmethod
    def new(
        cls,
        num_players: int = 4,
        seed: int | None = None,
        *,
        rng: np.random.Generator | None = None,
        cards: CardSet | str | None = None,
        options: RulesOptions | None = None,
    ) -> NativeGame:
        """Set up a game (S1-S6) exactly as :func:`airships_env.engine.new_game` does."""
        num_players = check_num_players(num_players)
        if rng is not None and seed is not None:
            raise ValueError("pass either seed or rng, not both")
        if rng is None:
            rng = np.random.default_rng(check_seed(seed))
        card_set = cards if isinstance(cards, CardSet) else load_cards(cards)
        options = options if options is not None else RulesOptions()
        core = core_for(card_set, options)
        game = require().new_game(core, num_players, rng_state(rng))
        return cls(game, card_set, options)

    @classmethod
    def from_state(cls, state: GameState) -> NativeGame:
        """The same game in the core (generator state included)."""
        core = core_for(state.cards, state.options)
        game = require().import_state(core, state_words(state), rng_state(state.rng))
        return cls(game, state.cards, state.options)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickles (and deep-copies) as its Python state."""
        return (NativeGame.from_state, (self.to_state(),))

    def to_state(self) -> GameState:
        """The game as a Python :class:`GameState` (equal ``to_dict()`` to the engine's)."""
        words, rng = self._game.export()
        return to_python(words, rng, self.cards, self.options)

    def clone(self) -> NativeGame:
        """An independent copy."""
        return NativeGame(self._game.clone(), self.cards, self.options)

    # -- the OpenSpiel vocabulary --------------------------------------------------------
    @property
    def current_player(self) -> int:
        """The seat to act."""
        return int(self._game.current_player)

    @property
    def num_players(self) -> int:
        """The number of players."""
        return int(self._game.num_players)

    @property
    def turn(self) -> int:
        """The engine's turn counter."""
        return int(self._game.turn)

    @property
    def phase(self) -> int:
        """The phase (see :data:`airships_env.engine.PHASE_NAMES`)."""
        return int(self._game.phase)

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.phase == GAME_OVER

    def legal_actions(self) -> list[int]:
        """The legal action indices, sorted."""
        return list(self._game.legal_actions())

    def apply_action(
        self, action: int, dice: tuple[tuple[int, ...], ...] | None = None
    ) -> ActionRecord:
        """Apply an action and return its record, as :func:`airships_env.engine.apply_action`
        does (``dice`` forces an attempt's faces); raises the engine's errors."""
        if (not_an_action := not_an_action_reason(action)) is not None:
            self._refuse(action, not_an_action, ActionSpaceError)
        index = as_action_index(action)
        assert index is not None
        action = index
        try:
            raw = self._game.apply(action, dice)
        except LookupError as error:
            code = error.args[0]
            if code in (_PUBLIC_VIEW, _NO_RNG, _BAD_DICE):
                # The Python engine refuses with the same error and says exactly why.
                from airships_env.engine.rules import apply_action as reference

                reference(self.to_state(), action, dice)
                raise AssertionError("the engines disagree on a refusal") from error
            if self.is_terminal():
                self._refuse(action, "the game is over")
            self._refuse(action, f"'{ACTION_NAMES[action]}' is not allowed now")
        return record_from_native(raw, self.cards)

    def _refuse(
        self, action: object, why: str, error: type[IllegalActionError] = IllegalActionError
    ) -> None:
        legal = self.legal_actions()
        index = as_action_index(action)
        raise error(
            action if index is None else index,
            PHASE_NAMES[self.phase],
            legal,
            [ACTION_NAMES[a] for a in legal],
            why,
        )

    # -- observations, odds, views, bots -----------------------------------------------------
    def observe(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """The seat's observation vector (:mod:`airships_env.observation`'s layout), float32."""
        if out is None:
            out = np.empty(require().obs_size(self.num_players), dtype=np.float32)
        self._game.observe(seat, out)
        return out

    def attempt_odds(self, action: int, player: int | None = None) -> AttemptOdds | None:
        """Exact odds of an attempt action, as :func:`airships_env.engine.attempt_odds`."""
        if not 0 <= action < NUM_ATTEMPT_ACTIONS:
            raise ValueError(f"action {action} is not an attempt (0..{NUM_ATTEMPT_ACTIONS - 1})")
        counts = self._game.attempt_odds(action, self.current_player if player is None else player)
        if counts is None:
            return None
        at_least, chip, with_chip, denominator = counts
        return AttemptOdds(
            at_least / denominator,
            chip / denominator,
            with_chip / denominator,
            (at_least, chip, with_chip, denominator),
        )

    def public_view(self) -> NativeGame:
        """The public view (docs/airships/RULES.md V1), as :func:`airships_env.engine.public_view`."""
        return NativeGame(self._game.public_view(), self.cards, self.options)

    def view(self, seat: int) -> GameState:
        """What ``seat`` may see: the public view as the engine's :class:`GameState`, what
        Airships' agents read (:meth:`public_view` keeps it in the core)."""
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)):
            raise TypeError(f"a seat is an integer, got {type(seat).__name__}")
        if not 0 <= seat < self.num_players:
            raise ValueError(f"no seat {seat} in a {self.num_players}-player game")
        return self.public_view().to_state()

    def determinize(self, rng: np.random.Generator) -> NativeGame:
        """Hidden cards re-dealt from ``rng``, as :func:`airships_env.engine.determinize`
        (``rng`` advances exactly as it does there)."""
        sample, after = self._game.determinize(rng_state(rng))
        rng.bit_generator.state = {
            "bit_generator": "PCG64",
            "state": {"state": after[0], "inc": after[1]},
            "has_uint32": after[2],
            "uinteger": after[3],
        }
        return NativeGame(sample, self.cards, self.options)

    def bot_action(self, kind: int, config: tuple[Any, ...], legal: list[int]) -> int:
        """A native bot's choice (``kind``: 2 greedy, 3 heuristic; see agents/native_bots.py)."""
        return int(self._game.bot_action(kind, config, legal))

    def scores(self) -> list[int]:
        """Every seat's current score (E2)."""
        return list(self._game.scores())

    @property
    def final_scores(self) -> tuple[int, ...] | None:
        """The final scores once the game is over (E2), else None."""
        result = self._game.result()
        return None if result is None else tuple(result[0])

    @property
    def winners(self) -> tuple[int, ...] | None:
        """The winners once the game is over (E3), else None."""
        result = self._game.result()
        if result is None:
            return None
        return tuple(seat for seat in range(self.num_players) if result[1] >> seat & 1)

    def outcome(self) -> Outcome | None:
        """Scores, winners (E3) and places once the game is over; None before."""
        if self._game.result() is None:
            return None
        return self.to_state().outcome()

    def to_dict(self) -> dict[str, Any]:
        """The game as the engine's dict (:meth:`GameState.to_dict`)."""
        return self.to_state().to_dict()

    @property
    def handle(self) -> Any:
        """The extension's game object (for the batch API and the native bots)."""
        return self._game
