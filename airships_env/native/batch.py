"""N games in the native core, stepped in one call: the fast path for training and evaluation.

A :class:`NativeBatch` holds ``num_games`` games of ``num_players`` seats. In every game one seat
is the *learner* (drawn anew each episode, or fixed) and every other seat is played by an
*opponent*: a native bot (``"random"``, ``"greedy"``, ``"heuristic"``) played inside the step, or an
*external* policy (an integer ``k``: a league snapshot, a self-play copy) that the caller evaluates,
in one batched forward for all games that wait on it.

``step(actions)`` applies ``actions[i]`` in every game ``i`` that waits on a Python seat (the
learner or an external policy; ``-1``, and no other value, leaves a game alone), then plays the
bots' turns until a Python seat must act or the game ends. A game that ends writes its rewards (every seat's),
``terminated`` or ``truncated``, its final observation for its learner seat and its scores, and
starts its slot's next episode at once (auto-reset), whose first bot turns are played too. After
the call the arrays below describe every game's position; they belong to the batch and are
overwritten by the next call (copy what you keep):

==================  ==================  ======================================================
array               shape, dtype        content
==================  ==================  ======================================================
``obs``             (N, obs), float32   observation of the seat to act (the layout of
                                        :mod:`airships_env.observation`)
``masks``           (N, 83), bool       its legal actions
``acting``          (N,), int8          the seat to act
``controller``      (N,), int8          its controller: 0 learner, 16 + k external policy k
``learner``         (N,), int8          the learner's seat this episode
``rewards``         (N, players), f32   rewards given in this call (at a game's end)
``terminated``      (N,), bool          a game ended in this call (E1, E4)
``truncated``       (N,), bool          a game passed ``max_turns`` in this call
``final_obs``       (N, obs), float32   the ended game's last observation, learner's seat
``scores``          (N, players), i16   the ended game's scores (E2)
``winners``         (N,), uint8         the ended game's winners, a bit per seat (E3)
``episode_steps``   (N,), int32         actions played in the current episode
==================  ==================  ======================================================

A batch holds 1 to 100,000 games (the core's ``BATCH_MAX_GAMES``; ``src/batch.c`` says why). A batch may be shared between threads: each
call holds the batch's lock from its checks to its last write, so calls from two threads run one
after the other (the arrays are the batch's: a thread that reads them while another steps sees
them change).

Seeds: episode ``e`` of slot ``i`` deals from
``np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(i, e, 0)))`` (so
``airships_env.engine.new_game(rng=...)`` deals the same game); its random bot in seat ``s`` draws
from ``spawn_key=(i, e, 1 + s)`` and its learner seat is draw ``uniform_below(players)`` from
``spawn_key=(i, e, 7)``. A slot's games depend on neither the number of slots nor the others.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from airships_env.bot_config import GreedyConfig, HeuristicConfig
from airships_env.engine.actions import ACTION_NAMES, NUM_ACTIONS
from airships_env.engine.cards import CardSet, load_cards
from airships_env.engine.game import check_num_players
from airships_env.engine.model import RulesOptions
from airships_env.engine.state import GameState
from airships_env.native import core_for, require
from airships_env.native.convert import seed_words, to_python
from airships_env.native.table import (
    BOTS,
    EXTERNAL,
    LEARNER,
    MAX_EXTERNAL,
    REWARD_MODES,
    Opponent,
    controller_code,
    seats_codes,
    slot_generator,
)
from airships_env.native.table import NativeBatch as GameBatch

__all__ = [
    "BOTS",
    "EXTERNAL",
    "LEARNER",
    "MAX_EXTERNAL",
    "REWARD_MODES",
    "NativeBatch",
    "Opponent",
    "controller_code",
    "play_bot_games",
    "seats_codes",
    "slot_generator",
]


class NativeBatch(GameBatch):
    """N games in the native core (see the module docstring); the arguments' checks, the
    buffers, the refusal of an illegal action and the opponents' queue are every game's
    (:class:`airships_env.native.table.NativeBatch`)."""

    NUM_ACTIONS = NUM_ACTIONS
    ACTION_NAMES = ACTION_NAMES
    STATE = GameState

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
        cards: CardSet | str | None = None,
        options: RulesOptions | None = None,
        greedy: GreedyConfig | None = None,
        heuristic: HeuristicConfig | None = None,
    ):
        module = require()
        buffers, settings = self._prepare(
            num_games,
            int(module.BATCH_MAX_GAMES),
            lambda: check_num_players(num_players),
            seed=seed,
            opponents=opponents,
            learner_seat=learner_seat,
            reward=reward,
            max_turns=max_turns,
            autoreset=autoreset,
            obs_size=module.obs_size,
            scores_dtype=np.int16,
        )
        self.cards = cards if isinstance(cards, CardSet) else load_cards(cards)
        self.options = options if options is not None else RulesOptions()
        self.data = self.cards
        self.greedy = greedy if greedy is not None else GreedyConfig()
        self.heuristic = heuristic if heuristic is not None else HeuristicConfig.load()
        self._batch = module.Batch(
            core_for(self.cards, self.options),
            self.num_games,
            self.num_players,
            seed_words(self.seed),
            buffers,
            (REWARD_MODES.index(reward), *settings),  # the reward mode is Airships' setting
            self.greedy.native(),
            self.heuristic.native(),
        )

    @property
    def buffer_bytes_per_game(self) -> int:
        """Bytes of the arrays above per game."""
        arrays = (
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
        return sum(a.nbytes for a in arrays) // self.num_games

    def step(self, actions: np.ndarray | Sequence[int]) -> None:
        """Apply one action per waiting game (``-1``: leave the game alone), then play the bots.

        Raises :class:`IllegalActionError` naming the game, the action and its legal actions if
        any action is illegal or out of range (any dtype: nothing is wrapped into int32), and
        ``ValueError`` if ``next_opponents`` holds a code that is not an opponent; then no game
        has changed.
        """
        if (
            isinstance(actions, np.ndarray)
            and actions.dtype == np.int32
            and actions.flags.c_contiguous
        ):
            chosen = actions  # the core checks every value, -1 and 0..82
        else:
            values = np.asarray(actions)
            if values.shape != (self.num_games,):
                raise ValueError(f"actions must have shape ({self.num_games},), got {values.shape}")
            if not np.issubdtype(values.dtype, np.integer):
                raise TypeError(f"actions must be integers, got dtype {values.dtype}")
            # checked before the cast to int32, which would wrap 2**32 to 0 (issue 27)
            outside = np.flatnonzero((values < -1) | (values >= NUM_ACTIONS))
            if outside.size:
                game = int(outside[0])
                legal = np.flatnonzero(self.masks[game]).tolist()
                raise self._illegal(game, int(values[game]), legal)
            chosen = values.astype(np.int32)  # a fresh array: a shared scratch one races
        if chosen.shape != (self.num_games,):
            raise ValueError(f"actions must have shape ({self.num_games},), got {chosen.shape}")
        try:
            self._batch.step(chosen)
        except LookupError as error:
            game, action, legal = error.args
            raise self._illegal(game, action, legal) from None

    def observe(
        self, seats: np.ndarray | Sequence[int], out: np.ndarray | None = None
    ) -> np.ndarray:
        """The observation of ``seats[i]`` in game ``i`` (``-1``: zeros), float32 (N, obs)."""
        seats_array = np.ascontiguousarray(seats, dtype=np.int8)
        if out is None:
            out = np.empty((self.num_games, self.obs_size), dtype=np.float32)
        self._batch.observe(seats_array, out)
        return out

    def game_state(self, game: int) -> GameState:
        """Game ``game``'s state as a Python :class:`GameState` (for tests and tools)."""
        words, rng = self._batch.export_game(int(game))
        return to_python(words, rng, self.cards, self.options)


def play_bot_games(
    num_players: int,
    games: Sequence[
        tuple[np.random.Generator, Sequence[np.random.Generator | None], Sequence[str]]
    ],
    *,
    cards: CardSet | None = None,
    options: RulesOptions | None = None,
    greedy: GreedyConfig | None = None,
    heuristic: HeuristicConfig | None = None,
    max_steps: int = 20_000,
) -> list[dict[str, Any]]:
    """Whole games between native bots: each given by its game generator, one generator per seat
    (the random bot's) and the bot name per seat. Returns per game: ``over``, ``scores``,
    ``winners``, ``airships`` (E3's count), ``turns``, ``steps``, ``decisions`` per seat."""
    from airships_env.native.convert import rng_state

    card_set = cards if cards is not None else load_cards(None)
    rules = options if options is not None else RulesOptions()
    packed = [
        (
            rng_state(game_rng),
            tuple(rng_state(r) for r in seat_rngs),
            tuple(controller_code(name) for name in names),
        )
        for game_rng, seat_rngs, names in games
    ]
    results = require().play_bot_games(
        core_for(card_set, rules),
        check_num_players(num_players),
        packed,
        (greedy if greedy is not None else GreedyConfig()).native(),
        (heuristic if heuristic is not None else HeuristicConfig.load()).native(),
        max_steps,
    )
    return [
        {
            "over": bool(over),
            "scores": list(scores),
            "winners": [s for s in range(num_players) if winners >> s & 1],
            "airships": list(airships),
            "turns": turns,
            "steps": steps,
            "decisions": list(decisions),
        }
        for over, scores, winners, airships, turns, steps, decisions in results
    ]
