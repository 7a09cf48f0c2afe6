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

from collections.abc import Sequence
from typing import Any

import numpy as np

from airships_env.chance import check_seed
from airships_env.games.clockwork.engine import actions as A
from airships_env.games.clockwork.engine.data import PLAYER_COUNTS, ClockworkData, default_data
from airships_env.games.clockwork.engine.model import OVER, PHASE_NAMES, ROLL, RulesOptions
from airships_env.games.clockwork.engine.records import ActionRecord
from airships_env.games.clockwork.engine.state import State
from airships_env.native import require
from airships_env.native.convert import generator_from, rng_state, seed_words
from airships_env.native.table import (
    BOTS,
    NativeBatch,
    Opponent,
    SearchOptions,
    SearchTable,
    deal_generator,
    pcg64_state,
    set_generator_state,
    slot_generator,
)
from airships_env.protocol import IllegalActionError

__all__ = [
    "BOTS",
    "ClockworkBatch",
    "NativeClockworkGame",
    "SearchOptions",
    "bot_decisions",
    "pack_options",
    "random_games",
    "slot_generator",
    "tables",
]

#: The native bots (their controller codes in the core): ``random`` is
#: :class:`~airships_env.policy.RandomPolicy`, ``greedy`` and ``heuristic`` the bots of
#: :mod:`agents.bots.clockwork` (the heuristic with its default threshold unless given).
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


class NativeClockworkGame(SearchTable):
    """One Clockwork game in the native core, with the engine's vocabulary.

    Make one with :meth:`new` (like :func:`~airships_env.games.clockwork.engine.new_game`) or
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
        data: ClockworkData | None = None,
    ) -> NativeClockworkGame:
        """Set up and deal a game (S1-S4) exactly as the Python ``new_game`` does."""
        players = _check_players(num_players)
        rng = deal_generator(seed, rng)
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
        game: NativeClockworkGame = cls._import(state, exported)
        return game

    @classmethod
    def _import(cls, state: State, exported: dict[str, Any]) -> NativeClockworkGame:
        """The core's game of ``exported`` (see :meth:`SearchTable._import`)."""
        counts, track = tables(state.data, state.num_players)
        game = require().cw_import(pack_options(state.options), counts, track, exported)
        return cls(game, state.data, state.options)

    def to_state(self) -> State:
        """The game as a Python :class:`State` (equal ``to_dict()`` to the engine's)."""
        exported = self._game.export()
        exported["rng"] = generator_from(exported["rng"])
        return State(data=self.data, options=self.options, **exported)

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
        try:
            raw = self._game.apply(int(action), forced)
        except IllegalActionError as refused:
            if type(action) is int:
                raise
            self._refuse(action, refused.why)  # named as given (np.int64(-3)), as the engine does
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
        action, after = self._game.bot_action(code, pcg64_state(rng), float(threshold))
        set_generator_state(rng, after)
        return int(action)


# -- the batch ----------------------------------------------------------------------------------
class ClockworkBatch(NativeBatch):
    """N Clockwork City games in the native core, stepped in one call (``src/clockwork_batch.c``
    over the shared batch ``src/gbatch.c``).

    In every game one seat is the *learner* (drawn anew each episode, or fixed) and every other
    seat is played by an *opponent*: a native bot (``"random"``, ``"greedy"``, ``"heuristic"``,
    the Python bots' decisions) played inside the step, or an *external* policy (an integer
    ``k``) that the caller evaluates for all games waiting on it. ``step(actions)`` applies
    ``actions[i]`` in every game ``i`` that waits on a Python seat (``-1``, and no other value,
    leaves a game alone), then plays the bots until a Python seat must act or the game ends; an
    ended game writes its rewards, ``terminated`` or ``truncated``, its final observation for the
    learner and its winner, and starts its slot's next episode (auto-reset). The arrays (all
    overwritten by the next call; copy what you keep):

    ``obs`` (N, 1142) float32 the acting seat's observation (:mod:`~airships_env.games.clockwork.
    observation`); ``masks`` (N, 149) bool its legal actions; ``acting``, ``controller``,
    ``learner`` (N,) int8; ``rewards`` (N, players) float32 (the winner 1, the others -1, all 0
    in a draw: ``"win"`` and ``"score"`` give the same numbers here); ``terminated``,
    ``truncated`` (N,) bool; ``final_obs`` (N, 1142); ``scores`` (N, players) int16 (the outcome's:
    the winner 1, the others 0); ``winners`` (N,) uint8, a bit per seat;
    ``episode_steps`` (N,) int32, the actions of the current episode (``max_turns`` truncates an
    episode after that many, as :class:`~airships_env.game_aec.GameAEC` does).

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
        data: ClockworkData | None = None,
        threshold: float = HEURISTIC_THRESHOLD,
    ):
        module = require()
        buffers, shared = self._prepare(
            num_games,
            int(module.CW_BATCH_MAX_GAMES),
            lambda: _check_players(num_players),
            seed=seed,
            opponents=opponents,
            learner_seat=learner_seat,
            reward=reward,
            max_turns=max_turns,
            autoreset=autoreset,
            obs_size=int(module.CW_OBS_SIZE),
            scores_dtype=np.int16,
        )
        if isinstance(threshold, bool) or not isinstance(threshold, (int, float)):
            raise TypeError(f"threshold must be a number, got {threshold!r}")
        self.options = options if options is not None else RulesOptions()
        self.data = data if data is not None else default_data()
        self.threshold = float(threshold)
        settings = (*shared, self.threshold)
        players = self.num_players
        counts, track = tables(self.data, players)
        self._batch = module.ClockworkBatch(
            self.num_games,
            players,
            seed_words(self.seed),
            pack_options(self.options),
            counts,
            track,
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
    data: ClockworkData | None = None,
    threshold: float = HEURISTIC_THRESHOLD,
) -> int:
    """Whole games between copies of one native bot in the core alone (the bots' benchmark);
    returns the decisions made. Game g deals from ``SeedSequence(seed, spawn_key=(g, 0))`` and
    the bot in seat s draws from ``(g, 1 + s)``."""
    code = BOTS.get(bot)
    if code is None:
        raise ValueError(f"unknown native bot {bot!r}; the core plays {', '.join(BOTS)}")
    players = _check_players(num_players)
    counts, track = tables(data if data is not None else default_data(), players)
    rules = options if options is not None else RulesOptions()
    decisions: int = require().cw_bot_decisions(
        code, players, games, check_seed(seed), pack_options(rules), counts, track, threshold
    )
    return decisions
