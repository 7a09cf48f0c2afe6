"""What the native wrappers of the new games share (:mod:`airships_env.native.clockwork`,
:mod:`airships_env.native.australia`, :mod:`airships_env.native.nippon`).

:class:`NativeTable` is one game in the core with the Python engine's vocabulary: a subclass
names its game's ``PHASE_NAMES``, ``OVER`` phase and ``ACTION_NAMES`` and writes what differs:
how a game is dealt (``new``), imported (``from_state``), exported (``to_state``) and how an
action's record reads (``apply_action``). Everything else (the seat to act, the phase, the legal
actions, the refusal of an illegal action, copies, pickling, the outcome) is here once.
:class:`NativeBatch` is the same for the games' batches, beside their controller codes and seed
stream. :class:`SearchTable` adds what a core with views and the generic search in C
(``src/gsearch.c``) offers: views, determinizations, the search hooks and the search itself
(Clockwork and Australia).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from airships_env.chance import check_seed
from airships_env.native.convert import RngState, generator_from, rng_state
from airships_env.protocol import ActionSpaceError, IllegalActionError, Outcome, as_action_index

__all__ = [
    "BOTS",
    "EXTERNAL",
    "LEARNER",
    "MAX_EXTERNAL",
    "REWARD_MODES",
    "NativeBatch",
    "NativeTable",
    "Opponent",
    "SearchOptions",
    "SearchTable",
    "controller_code",
    "deal_generator",
    "pcg64_state",
    "seats_codes",
    "set_generator_state",
    "slot_generator",
]


def deal_generator(seed: int | None, rng: np.random.Generator | None) -> np.random.Generator:
    """The generator a game is dealt from: ``rng``, or ``default_rng(seed)`` (not both)."""
    if rng is not None and seed is not None:
        raise ValueError("pass either seed or rng, not both")
    return rng if rng is not None else np.random.default_rng(check_seed(seed))


# -- what the games' batches share: controller codes and the seed stream ----------------------
#: The native bots of the new games' cores, by controller code (clockwork_bots.c,
#: australia_bots.c): the Python bots' decisions.
BOTS: dict[str, int] = {"random": 1, "greedy": 2, "heuristic": 3}
LEARNER = 0
EXTERNAL = 16  # controller 16 + k: external policy k
MAX_EXTERNAL = 100
REWARD_MODES = ("win", "score")

Opponent = str | int  # a native bot's name, or the index of an external policy


def controller_code(opponent: Opponent) -> int:
    """The core's controller code of a native bot name or an external policy index."""
    if isinstance(opponent, str):
        code = BOTS.get(opponent)
        if code is None:
            raise ValueError(
                f"unknown native bot {opponent!r}; the core plays {', '.join(BOTS)} "
                f"(other agents are external policies: pass their index)"
            )
        return code
    if isinstance(opponent, (int, np.integer)) and not isinstance(opponent, bool):
        if not 0 <= opponent < MAX_EXTERNAL:
            raise ValueError(f"an external policy index is 0..{MAX_EXTERNAL - 1}, got {opponent}")
        return EXTERNAL + int(opponent)
    raise TypeError(f"an opponent is a native bot name or an external index, got {opponent!r}")


def seats_codes(opponents: Opponent | Sequence[Opponent], num_players: int) -> list[int]:
    """Controller codes of the other seats, listed from the seat after the learner's."""
    if isinstance(opponents, (str, int, np.integer)):
        return [controller_code(opponents)] * (num_players - 1)
    listed = [controller_code(o) for o in opponents]
    if len(listed) == 1:
        return listed * (num_players - 1)
    if len(listed) != num_players - 1:
        raise ValueError(
            f"expected {num_players - 1} opponents (one per other seat) or one for all, "
            f"got {len(listed)}"
        )
    return listed


def slot_generator(seed: int, slot: int, episode: int, stream: int = 0) -> np.random.Generator:
    """The generator the batch uses for (slot, episode, stream): 0 deals the game, 1 + s is the
    bot in seat s, 7 draws the learner's seat."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(slot, episode, stream)))


def set_generator_state(rng: np.random.Generator, after: tuple[Any, ...]) -> None:
    """Set a PCG64 generator to the state tuple a core hands back (a bot's generator)."""
    state, inc, has_uint32, uinteger = after
    rng.bit_generator.state = {
        "bit_generator": "PCG64",
        "state": {"state": state, "inc": inc},
        "has_uint32": has_uint32,
        "uinteger": uinteger,
    }


class NativeTable:
    """One game in the native core: the core's object, the data it was dealt with and the rules
    options (see the module)."""

    __slots__ = ("_game", "data", "options")

    #: The game's phase names, by the core's phase numbers, the phase of a finished game, and
    #: the action names (the engine's table).
    PHASE_NAMES: ClassVar[Sequence[str]]
    OVER: ClassVar[int]
    ACTION_NAMES: ClassVar[Sequence[str]]

    def __init__(self, game: Any, data: Any, options: Any):
        self._game = game
        self.data = data
        self.options = options

    @classmethod
    def from_state(cls, state: Any) -> Any:
        """The same game in the core (generator state included)."""
        raise NotImplementedError

    def to_state(self) -> Any:
        """The game as the Python engine's state (equal ``to_dict()``)."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        """The game as the engine's dict (``State.to_dict``)."""
        result: dict[str, Any] = self.to_state().to_dict()
        return result

    def clone(self) -> Any:
        """An independent copy (a memcpy in the core)."""
        return type(self)(self._game.clone(), self.data, self.options)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickles (and deep-copies) as its Python state."""
        return (type(self).from_state, (self.to_state(),))

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
        """The phase (an index of ``PHASE_NAMES``)."""
        return int(self._game.phase)

    @property
    def phase_name(self) -> str:
        """The phase as words."""
        return self.PHASE_NAMES[self.phase]

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.phase == self.OVER

    def legal_actions(self) -> list[int]:
        """The legal action indices, sorted (a fresh list)."""
        return list(self._game.legal_actions())

    def apply_raw(self, action: object) -> Any:
        """Apply a legal action in the core and return the core's record; an illegal action
        (or not an action index) raises the engine's IllegalActionError naming the action as
        it was given and the legal ones, changing nothing."""
        index = as_action_index(action)
        if index is None:
            self._refuse(action, "not an action index")
        try:
            return self._game.apply(index)
        except IllegalActionError as refused:
            if action is index:
                raise
            self._refuse(action, refused.why)

    def _refuse(self, action: object, why: str) -> None:
        legal = self.legal_actions()
        why = "the game is over" if self.is_terminal() else why
        names = [self.ACTION_NAMES[a] for a in legal]
        raise IllegalActionError(action, self.phase_name, legal, names, why)

    def outcome(self) -> Outcome | None:
        """Scores, winners and places once the game is over; None before."""
        if not self.is_terminal():
            return None
        result: Outcome | None = self.to_state().outcome()
        return result

    @property
    def handle(self) -> Any:
        """The core's game object."""
        return self._game


def pcg64_state(rng: object) -> RngState:
    """The core's tuple of a numpy Generator over PCG64 (a TypeError for anything else)."""
    bit_generator = rng.bit_generator if isinstance(rng, np.random.Generator) else None
    if not isinstance(bit_generator, np.random.PCG64):
        raise TypeError(f"rng must be a numpy Generator over PCG64, got {rng!r}")
    state = rng_state(rng)  # type: ignore[arg-type]  # a Generator, checked above
    assert state is not None
    return state


@dataclass(frozen=True, slots=True)
class SearchOptions:
    """The native search's options (the generic search's, agents/bots/generic_ismcts.py):
    ``sims``/``seconds`` budgets (0: none), ``rollout`` -1 to play rollouts to the end,
    ``prior``/``playout`` a native bot's name or None."""

    sims: int = 0
    seconds: float = 0.0
    c: float = 0.7
    max_rollout: int = 2000
    rollout: int = -1
    prior: str | None = None
    bias: float = 1.0
    playout: str | None = None

    def packed(self) -> tuple[int, float, float, int, int, int, float, int]:
        """The tuple the core takes (bot names as their codes, 0 for none)."""
        for option, bot in (("prior", self.prior), ("playout", self.playout)):
            if bot is not None and bot not in BOTS:
                raise ValueError(
                    f"search option {option}={bot!r}: the core plays {', '.join(BOTS)}"
                )
        return (
            self.sims,
            self.seconds,
            self.c,
            self.max_rollout,
            self.rollout,
            0 if self.prior is None else BOTS[self.prior],
            self.bias,
            0 if self.playout is None else BOTS[self.playout],
        )


class SearchTable(NativeTable):
    """A game whose core also has views, determinizations, the search hooks (``evaluate``,
    ``rollout_action``) and the generic search in C: all bit-identical to the Python engine's
    but the search, which is the Python generic search's algorithm at native speed. A subclass
    writes :meth:`_import` (a state dict into its core)."""

    __slots__ = ()

    @classmethod
    def _import(cls, state: Any, exported: dict[str, Any]) -> Any:
        """The core's game of ``exported`` (``state.to_dict()``, its generator as the core's
        tuple or None), with ``state``'s data and options."""
        raise NotImplementedError

    @classmethod
    def from_view(cls, state: Any) -> Any:
        """A seat's view (or any state) in the core without its generator: a position to
        search or determinize from, never to play on."""
        exported = state.to_dict()
        exported["rng"] = None
        exported["view_seat"] = -1
        return cls._import(state, exported)

    def view(self, seat: int) -> Any:
        """``seat``'s view (the engine's ``state.view(seat)``, field for field), without a
        generator: a position to search from, never to play on."""
        return type(self)(self._game.view(seat), self.data, self.options)

    def determinize(self, seat: int, rng: np.random.Generator) -> Any:
        """A world consistent with ``seat``'s view (the engine's ``view.determinize(rng)``, bit
        for bit, the world's generator included), drawing from ``rng`` (advanced as the engine
        advances it)."""
        world, after = self._game.determinize(seat, pcg64_state(rng))
        set_generator_state(rng, after)
        return type(self)(world, self.data, self.options)

    def evaluate(self) -> list[float]:
        """Each seat's value for the search (the game's ``evaluate``, the same floats)."""
        values: list[float] = self._game.evaluate()
        return values

    def rollout_action(self, rng: np.random.Generator) -> int:
        """The search's rollout policy (the game's ``rollout_action``), drawing from ``rng`` as
        the Python policy does."""
        action, after = self._game.rollout_action(pcg64_state(rng))
        set_generator_state(rng, after)
        return int(action)

    def search(
        self, seat: int, options: SearchOptions, rng: np.random.Generator
    ) -> tuple[int, int, tuple[tuple[int, int, float], ...]]:
        """The generic ISMCTS in C (``src/gsearch.c``) for ``seat``, the seat to act, reading
        only its view of this game, drawing from ``rng`` (advanced), the GIL released; the
        action, the simulations run, and each root child's (action, visits, mean result)."""
        action, simulations, _nodes, after, root = self._game.search(
            seat, options.packed(), pcg64_state(rng)
        )
        set_generator_state(rng, after)
        return int(action), int(simulations), root


class NativeBatch:
    """What the games' batches share (``ClockworkBatch``, ``AustraliaBatch``, ``NipponBatch``,
    whose core is one C batch, ``src/gbatch.c``): the arguments every batch takes and the
    buffers the core writes (:meth:`_prepare`), stepping the core's batch with the actions
    checked first, the refusal naming the game, the action and its legal actions, the next
    episodes' opponents and a game's state. A subclass checks its player count, calls
    :meth:`_prepare`, builds the core's batch (``_batch``) in its ``__init__`` and names its
    game's ``NUM_ACTIONS``, ``ACTION_NAMES`` and ``STATE``."""

    NUM_ACTIONS: ClassVar[int]
    ACTION_NAMES: ClassVar[Sequence[str]]
    STATE: ClassVar[Any]
    num_games: int
    num_players: int
    seed: int
    obs_size: int
    masks: np.ndarray
    scores: np.ndarray
    next_opponents: np.ndarray
    data: Any
    options: Any
    _batch: Any

    def _prepare(
        self,
        num_games: object,
        max_games: int,
        num_players: Callable[[], int],
        *,
        seed: object,
        opponents: Opponent | Sequence[Opponent],
        learner_seat: int | str,
        reward: str,
        max_turns: int | None,
        autoreset: bool,
        obs_size: int | Callable[[int], int],
        scores_dtype: type,
    ) -> tuple[tuple[np.ndarray, ...], tuple[int, int, int, int]]:
        """Check what every batch takes (each error names its argument; ``num_players`` checks
        and returns the table size; ``obs_size`` may be a function of it) and allocate the
        buffers the core writes. Returns the
        buffers in the core's order and the settings (turn limit, auto-reset, learner seat, the
        external policies' limit); the game's own setting follows them."""
        if isinstance(num_games, bool) or not isinstance(num_games, (int, np.integer)):
            raise TypeError(f"num_games must be an integer, got {num_games!r}")
        if not 1 <= num_games <= max_games:
            raise ValueError(f"num_games must be 1 to {max_games:,}, got {num_games}")
        players = num_players()
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be one of {REWARD_MODES}, got {reward!r}")
        if max_turns is not None and (
            isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 1
        ):
            raise ValueError(f"max_turns must be a positive integer or None, got {max_turns!r}")
        if max_turns is not None and max_turns > 2**31 - 1:
            max_turns = None  # never reached: an episode stops at 2**31 - 1 actions otherwise
        if learner_seat != "random" and (
            isinstance(learner_seat, bool)
            or not isinstance(learner_seat, int)
            or not 0 <= learner_seat < players
        ):
            raise ValueError(f"learner_seat must be 'random' or 0..{players - 1}")
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ValueError(f"seed must be a whole number >= 0, got {seed!r}")
        self.num_games = int(num_games)
        self.num_players = players
        self.seed = int(seed)
        self.obs_size = int(obs_size(players) if callable(obs_size) else obs_size)
        n, p, o = self.num_games, players, self.obs_size
        self.obs = np.zeros((n, o), dtype=np.float32)
        self.masks = np.zeros((n, self.NUM_ACTIONS), dtype=np.bool_)
        self.rewards = np.zeros((n, p), dtype=np.float32)
        self.terminated = np.zeros(n, dtype=np.bool_)
        self.truncated = np.zeros(n, dtype=np.bool_)
        self.acting = np.zeros(n, dtype=np.int8)
        self.controller = np.zeros(n, dtype=np.int8)
        self.final_obs = np.zeros((n, o), dtype=np.float32)
        self.learner = np.zeros(n, dtype=np.int8)
        self.next_opponents = np.empty((n, p - 1), dtype=np.int8)
        self.next_opponents[:] = seats_codes(opponents, p)
        self.scores = np.zeros((n, p), dtype=scores_dtype)
        self.winners = np.zeros(n, dtype=np.uint8)
        self.episode_steps = np.zeros(n, dtype=np.int32)
        buffers = (
            self.obs,
            self.masks,
            self.rewards,
            self.terminated,
            self.truncated,
            self.acting,
            self.controller,
            self.final_obs,
            self.learner,
            self.next_opponents,
            self.scores,
            self.winners,
            self.episode_steps,
        )
        settings = (
            0 if max_turns is None else max_turns,
            int(bool(autoreset)),
            -1 if learner_seat == "random" else int(learner_seat),
            MAX_EXTERNAL,
        )
        return buffers, settings

    @property
    def bytes_per_game(self) -> int:
        """Bytes of core state per game (the arrays come on top)."""
        return int(self._batch.bytes_per_game)

    def reset(self) -> None:
        """Start a new episode in every slot (episode 0 at the first reset, then each slot's
        next) and play the bots until a Python seat acts."""
        self._batch.reset()

    def step(self, actions: np.ndarray | Sequence[int]) -> None:
        """Apply one action per waiting game (``-1``: leave the game alone), then play the bots.

        Raises :class:`IllegalActionError` naming the game, the action and its legal actions if
        any action is illegal (an :class:`ActionSpaceError` for a value that is no action), and
        ``ValueError`` if ``next_opponents`` holds a code that is not an opponent; then no game
        has changed."""
        values = np.asarray(actions)
        if values.shape != (self.num_games,):
            raise ValueError(f"actions must have shape ({self.num_games},), got {values.shape}")
        if not np.issubdtype(values.dtype, np.integer):
            raise TypeError(f"actions must be integers, got dtype {values.dtype}")
        # checked before the cast to int32, which would wrap 2**32 to 0
        outside = np.flatnonzero((values < -1) | (values >= self.NUM_ACTIONS))
        if outside.size:
            game = int(outside[0])
            raise self._illegal(game, int(values[game]), np.flatnonzero(self.masks[game]).tolist())
        chosen = np.ascontiguousarray(values, dtype=np.int32)
        try:
            self._batch.step(chosen)
        except LookupError as error:
            game, action, legal = error.args
            raise self._illegal(game, action, legal) from None

    def _illegal(self, game: int, action: int, legal: list[int]) -> IllegalActionError:
        """The error for ``action`` in game ``game`` of the batch, whose legal actions are given."""
        names = [self.ACTION_NAMES[a] for a in legal]
        if not 0 <= action < self.NUM_ACTIONS:
            why = (
                f"game {game} of the batch: no action has index {action} (actions are "
                f"0..{self.NUM_ACTIONS - 1}; -1 leaves a game alone)"
            )
            return ActionSpaceError(action, f"game {game}", legal, names, why)
        if not legal:
            why = f"game {game} of the batch is not waiting for a Python seat"
        else:
            why = f"game {game} of the batch: '{self.ACTION_NAMES[action]}' is not allowed now"
        return IllegalActionError(action, f"game {game}", legal, names, why)

    def queue_opponents(
        self, games: Sequence[int] | np.ndarray, opponents: Sequence[Opponent]
    ) -> None:
        """The opponents (one per other seat, from the seat after the learner's) of the next
        episode of each game in ``games``; they take their seats when it starts."""
        codes = seats_codes(opponents, self.num_players)
        self.next_opponents[np.asarray(games, dtype=np.int64)] = codes

    def game_state(self, game: int) -> Any:
        """Game ``game``'s true state as the engine's state (for tests and tools)."""
        exported = self._batch.export_game(int(game))
        exported["rng"] = generator_from(exported["rng"])
        return self.STATE(data=self.data, options=self.options, **exported)

    def seat_controllers(self, game: int) -> tuple[int, ...]:
        """The controller codes of game ``game``'s seats this episode."""
        return tuple(self._batch.controllers(int(game)))
