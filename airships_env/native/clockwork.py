"""Escape from Clockwork City's native core: its rules in C, bit-identical to the Python engine.

The Python engine (:mod:`airships_env.games.clockwork.engine`) is the readable reference and the
oracle; the core (``airships_env/native/src/clockwork.c``, in the extension
``airships_env.native._core``) is the fast path. Both draw every chance event from the same
numpy PCG64 stream with the shared samplers of :mod:`airships_env.chance`, so the same seed and
the same actions give the same game: the deal, dice, legal actions, records and the whole state
(knowledge included). ``tests/native/test_clockwork_native.py`` holds them to it. The core also
writes each seat's observation (``src/clockwork_obs.c``, the bytes of
:func:`~airships_env.games.clockwork.observation.encode_observation`) and plays the random, greedy
and heuristic bots (``src/clockwork_bots.c``, the decisions and generator draws of the Python
bots): ``tests/native/test_clockwork_observation.py`` and ``test_clockwork_bots.py``.

The data (card counts, track) are not compiled into the core: :func:`tables` hands it the tables
the Python loader validated, so an edited data file plays in C exactly as in Python.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from airships_env.chance import check_seed
from airships_env.games.clockwork.engine import actions as A
from airships_env.games.clockwork.engine.data import PLAYER_COUNTS, ClockworkData, default_data
from airships_env.games.clockwork.engine.model import OVER, PHASE_NAMES, ROLL, RulesOptions
from airships_env.games.clockwork.engine.records import ActionRecord
from airships_env.games.clockwork.engine.state import State
from airships_env.native import require
from airships_env.native.convert import generator_from, rng_state
from airships_env.protocol import IllegalActionError, Outcome

__all__ = ["BOTS", "NativeClockworkGame", "pack_options", "random_games", "tables"]

#: The native bots (their controller codes in the core): ``random`` is
#: :class:`~airships_env.policy.RandomPolicy`, ``greedy`` and ``heuristic`` the bots of
#: :mod:`agents.bots.clockwork` (the heuristic with its default threshold unless given).
BOTS: dict[str, int] = {"random": 1, "greedy": 2, "heuristic": 3}
HEURISTIC_THRESHOLD = 0.3  # agents.bots.clockwork.HeuristicBot's default

Options = tuple[bool, bool, bool, bool, bool, int]
Track = tuple[int, int, tuple[int, ...]]


def pack_options(options: RulesOptions) -> Options:
    """The rules options as the core takes them (clockwork_module.c)."""
    return (
        options.white_field_exact,
        options.lucky_rolls == "anywhere",
        options.scrap_to == "discards",
        options.discard_recall == "none",
        options.first_player == "roll",
        options.max_turns,
    )


def tables(data: ClockworkData, num_players: int) -> tuple[tuple[int, ...], Track]:
    """The validated card counts of ``num_players`` and the track, as the core takes them."""
    track = data.track
    return tuple(data.counts[num_players]), (track.length, track.towers, tuple(track.scrapyards))


def _check_players(num_players: object) -> int:
    if isinstance(num_players, bool) or num_players not in PLAYER_COUNTS:
        raise ValueError(f"Escape from Clockwork City is for 2 to 4 players, not {num_players!r}")
    return int(num_players)


def random_games(
    num_players: int,
    games: int,
    seed: int,
    *,
    options: RulesOptions | None = None,
    data: ClockworkData | None = None,
) -> int:
    """Random legal whole games in the core alone (the engine benchmark); the actions applied.
    Game g deals from ``SeedSequence(seed, spawn_key=(g, 0))`` and draws its choices with
    :func:`~airships_env.chance.uniform_below` from ``(g, 1)``."""
    players = _check_players(num_players)
    options = options if options is not None else RulesOptions()
    counts, track = tables(data if data is not None else default_data(), players)
    played: int = require().cw_random_games(
        players, games, seed, pack_options(options), counts, track
    )
    return played


class NativeClockworkGame:
    """One Clockwork game in the native core, with the engine's vocabulary.

    Make one with :meth:`new` (like :func:`~airships_env.games.clockwork.engine.new_game`) or
    :meth:`from_state` (any true Python state: a saved game, a hand-built position).
    """

    __slots__ = ("_game", "data", "options")

    def __init__(self, game: Any, data: ClockworkData, options: RulesOptions):
        self._game = game
        self.data = data
        self.options = options

    @classmethod
    def new(
        cls,
        num_players: int,
        seed: int | None = None,
        *,
        rng: np.random.Generator | None = None,
        options: RulesOptions | None = None,
        data: ClockworkData | None = None,
    ) -> NativeClockworkGame:
        """Set up and deal a game (S1-S4) exactly as the Python ``new_game`` does."""
        players = _check_players(num_players)
        if rng is not None and seed is not None:
            raise ValueError("pass either seed or rng, not both")
        if rng is None:
            rng = np.random.default_rng(check_seed(seed))
        options = options if options is not None else RulesOptions()
        data = data if data is not None else default_data()
        counts, track = tables(data, players)
        game = require().cw_new(players, rng_state(rng), pack_options(options), counts, track)
        return cls(game, data, options)

    @classmethod
    def from_state(cls, state: State) -> NativeClockworkGame:
        """The same game in the core (generator state included); a view cannot be imported."""
        exported = state.to_dict()
        exported["rng"] = rng_state(state.rng)
        counts, track = tables(state.data, state.num_players)
        game = require().cw_import(pack_options(state.options), counts, track, exported)
        return cls(game, state.data, state.options)

    def to_state(self) -> State:
        """The game as a Python :class:`State` (equal ``to_dict()`` to the engine's)."""
        exported = self._game.export()
        exported["rng"] = generator_from(exported["rng"])
        return State(data=self.data, options=self.options, **exported)

    def to_dict(self) -> dict[str, Any]:
        """The game as the engine's dict (:meth:`State.to_dict`)."""
        return self.to_state().to_dict()

    def clone(self) -> NativeClockworkGame:
        """An independent copy (a memcpy in the core)."""
        return NativeClockworkGame(self._game.clone(), self.data, self.options)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickles (and deep-copies) as its Python state."""
        return (NativeClockworkGame.from_state, (self.to_state(),))

    # -- the OpenSpiel vocabulary ----------------------------------------------------------
    @property
    def current_player(self) -> int:
        """The seat to act."""
        return int(self._game.current_player)

    @property
    def num_players(self) -> int:
        """The number of players."""
        return int(self._game.num_players)

    @property
    def phase(self) -> int:
        """The phase (see :data:`~airships_env.games.clockwork.engine.model.PHASE_NAMES`)."""
        return int(self._game.phase)

    @property
    def phase_name(self) -> str:
        """The phase as a word ('roll', 'move', ...)."""
        return PHASE_NAMES[self.phase]

    def is_terminal(self) -> bool:
        """True once the game is over (a winner, or W3's turn limit)."""
        return self.phase == OVER

    def legal_actions(self) -> list[int]:
        """The legal action indices, sorted (a fresh list)."""
        return list(self._game.legal_actions())

    def apply_action(self, action: int, *, dice: tuple[int, int] | None = None) -> ActionRecord:
        """Apply a legal action and return its record, as the Python engine does (``dice``:
        force a roll); an illegal action raises the same IllegalActionError, changing nothing."""
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            legal = self.legal_actions()
            why = "the game is over" if self.is_terminal() else "not among the legal actions"
            names = [A.ACTION_NAMES[a] for a in legal]
            raise IllegalActionError(action, self.phase_name, legal, names, why)
        forced = None
        if dice is not None and self.phase == ROLL and action == A.ROLL:  # checked on a roll
            if len(dice) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
                raise ValueError(f"forced dice must be two faces 1..6, found {dice!r}")
            forced = (int(dice[0]), int(dice[1]))
        raw = self._game.apply(int(action), forced)
        step, turn, player, index, rolled, drawn, turned, given, laid, winner = raw
        return ActionRecord(
            step=step,
            turn=turn,
            player=player,
            action=index,
            name=A.ACTION_NAMES[index],
            dice=rolled,
            drawn=drawn,
            turned=turned,
            given=given,
            laid=laid,
            winner=winner,
        )

    def outcome(self) -> Outcome | None:
        """Scores, winners and places once the game is over (W2, W3); None before."""
        return self.to_state().outcome() if self.is_terminal() else None

    def observe(self, seat: int) -> np.ndarray:
        """``seat``'s observation (:func:`~airships_env.games.clockwork.observation.
        encode_observation` of its view), a fresh float32 vector."""
        out = np.empty(require().CW_OBS_SIZE, dtype=np.float32)
        self._game.observe(seat, out)
        return out

    def bot_action(
        self, bot: str, rng: np.random.Generator, *, threshold: float = HEURISTIC_THRESHOLD
    ) -> int:
        """The native ``bot``'s choice for the seat to act, drawing from ``rng`` (advanced as
        the Python bot advances its generator): the Python bot's decision."""
        code = BOTS.get(bot)
        if code is None:
            raise ValueError(f"unknown native bot {bot!r}; the core plays {', '.join(BOTS)}")
        bit_generator = rng.bit_generator if isinstance(rng, np.random.Generator) else None
        if not isinstance(bit_generator, np.random.PCG64):
            raise TypeError(f"rng must be a numpy Generator over PCG64, got {rng!r}")
        action, after = self._game.bot_action(code, rng_state(rng), float(threshold))
        state, inc, has_uint32, uinteger = after
        bit_generator.state = {
            "bit_generator": "PCG64",
            "state": {"state": state, "inc": inc},
            "has_uint32": has_uint32,
            "uinteger": uinteger,
        }
        return int(action)

    @property
    def handle(self) -> Any:
        """The core's game object (``_core.ClockworkGame``)."""
        return self._game
