"""Nippon's native core: its rules in C, bit-identical to the Python engine.

The Python engine (:mod:`airships_env.games.nippon.engine`) is the readable reference and the
oracle; the core (``airships_env/native/src/nippon.c``, in the extension
``airships_env.native._core``) is the fast path. Both draw from the same numpy PCG64 stream with
the shared samplers of :mod:`airships_env.chance` (the city tiles and first player at setup, then
every worker drawn from the bag, during play too), so the same seed and the same actions give the
same game: legal actions, records (the colours each action drew) and the whole state.
``tests/native/test_nippon_native.py`` holds them to it.

The components are not compiled into the core: :func:`tables` hands it the tables the Python
loader validated, so an edited data file plays in C exactly as in Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from airships_env.games.nippon.engine.actions import ACTION_NAMES, NUM_ACTIONS
from airships_env.games.nippon.engine.data import (
    ACHIEVEMENT_KINDS,
    GIFT_KINDS,
    PLAYER_COUNTS,
    POWER_KINDS,
    NipponData,
    default_data,
)
from airships_env.games.nippon.engine.errors import ViewError
from airships_env.games.nippon.engine.model import Phase, RulesOptions
from airships_env.games.nippon.engine.records import ActionRecord
from airships_env.games.nippon.engine.state import State
from airships_env.games.nippon.observation import (
    check_observation_fits,
    layout_capacity,
    observation_size,
)
from airships_env.games.nippon.weights import GREEDY, HEURISTIC, Weights, packed
from airships_env.native import require
from airships_env.native.convert import generator_from, rng_state, seed_words
from airships_env.native.table import (
    REWARD_MODES,
    NativeBatch,
    NativeTable,
    Opponent,
    SearchOptions,
    deal_generator,
    pcg64_state,
    set_generator_state,
    slot_generator,
)

__all__ = [
    "BOTS",
    "BotMemory",
    "NativeNipponGame",
    "NipponBatch",
    "SearchOptions",
    "bot_decisions",
    "pack_options",
    "random_games",
    "slot_generator",
    "tables",
]

Options = tuple[bool, bool, bool, bool]
#: the native bots: their code in the core and their weights, packed once (agents/bots/nippon.py)
BOTS: dict[str, tuple[int, tuple[float, ...]]] = {
    "random": (1, packed(GREEDY)),  # the random bot reads no weights
    "greedy": (2, packed(GREEDY)),
    "heuristic": (3, packed(HEURISTIC)),
}
#: what a bot carries between decisions: the rest of its turn's plan, and the (turn, seat) it is for
BotMemory = tuple[tuple[int, ...], int, int]
NO_PLAN: BotMemory = ((), -1, -1)
#: the bots' weights as the search takes them: one tuple per bot code 1, 2, 3
_SEARCH_WEIGHTS = tuple(weights for _, weights in sorted(BOTS.values()))


def pack_options(options: RulesOptions) -> Options:
    """The rules options as the core takes them (nippon_module.c): four switches."""
    return (
        options.captured_tile == "removed",
        options.neutral_competes,
        options.majority_ties == "lower",
        options.marker_trigger == "space_empties",
    )


def tables(data: NipponData) -> tuple[Any, ...]:
    """The validated components, as the core takes them (nippon_module.c's ``tables``)."""
    d = data
    costs = (
        d.invest_cost, d.machine_cost, d.step_costs, d.piece_cost, d.colour_cost, d.unpaid_vp,
        d.blueprints_per_bonus, d.max_units, d.factory_capacity, d.gift_amounts,
    )  # fmt: skip
    room = (  # the observation's room for action spaces and rows (nippon_obs.c's offsets)
        layout_capacity(2)[0],
        tuple(layout_capacity(players)[1] for players in PLAYER_COUNTS),
    )
    board = (d.action_spaces, d.per_colour, d.per_space, d.rows, room)
    track = (
        d.track_spaces, d.golden_from, d.scoring_spaces, d.majority_vp, d.ship_vp,
        d.ship_vp_no_place, d.train_influence,
    )  # fmt: skip
    player_board = (
        d.start_money, d.start_coal, d.start_knowledge, d.start_blueprints, d.money_track,
        d.coal_track, d.coal_stars, d.knowledge_max, d.knowledge_stars, d.trains, d.ships,
        d.train_stars, d.ship_stars, d.worker_levels, d.machinery_tiles,
    )  # fmt: skip
    goods = (d.goods_levels, d.level_knowledge)
    factories = tuple((f.good, f.coal, POWER_KINDS.index(f.power), f.amount) for f in d.factories)
    contracts = tuple((c.demands, c.vp, POWER_KINDS.index(c.bonus), c.amount) for c in d.contracts)
    influence = (
        d.influence_tiles,
        d.influence_table,
        d.neutral,
        d.spaces_per_region,
        tuple((POWER_KINDS.index(kind), amount) for kind, amount in d.region_bonus),
        d.city_tiles,
    )
    rewards = tuple(
        (w.level, w.multiplier, GIFT_KINDS.index(w.gift), w.min_players) for w in d.rewards
    )
    achievements = tuple(
        (ACHIEVEMENT_KINDS.index(a.kind), a.per, a.printed) for a in d.achievements
    )
    return (
        costs, board, track, player_board, goods, factories, contracts, influence, rewards,
        achievements,
    )  # fmt: skip


def _check_players(num_players: object) -> int:
    if isinstance(num_players, bool) or num_players not in PLAYER_COUNTS:
        raise ValueError(f"Nippon is for 2, 3 or 4 players, not {num_players!r}")
    return int(num_players)


def random_games(
    num_players: int,
    games: int,
    seed: int,
    *,
    options: RulesOptions | None = None,
    data: NipponData | None = None,
) -> int:
    """Random legal whole games in the core alone (the engine benchmark); the actions applied.
    Game g deals and draws its bag from ``SeedSequence(seed, spawn_key=(g, 0))`` and draws its
    choices with :func:`~airships_env.chance.uniform_below` from ``(g, 1)``."""
    players = _check_players(num_players)
    options = options if options is not None else RulesOptions()
    packed = tables(data if data is not None else default_data())
    played: int = require().ni_random_games(players, games, seed, pack_options(options), packed)
    return played


def bot_decisions(
    bot: str,
    num_players: int,
    games: int,
    seed: int,
    *,
    options: RulesOptions | None = None,
    data: NipponData | None = None,
) -> int:
    """Whole games between copies of one native bot in the core alone (the bots' benchmark);
    returns the decisions made. Game g deals from ``SeedSequence(seed, spawn_key=(g, 0))`` and
    the bot in seat s draws from ``(g, 1 + s)``."""
    entry = BOTS.get(bot)
    if entry is None:
        raise ValueError(f"unknown native bot {bot!r}; the core plays {', '.join(BOTS)}")
    players = _check_players(num_players)
    rules = options if options is not None else RulesOptions()
    code, weights = entry
    decisions: int = require().ni_bot_decisions(
        code,
        players,
        games,
        seed,
        pack_options(rules),
        tables(data if data is not None else default_data()),
        weights,
    )
    return decisions


def _state_from(exported: dict[str, Any], data: NipponData, options: RulesOptions) -> State:
    """The Python :class:`State` of a game the core exported (its fields, the generator's state)."""
    rng = exported.pop("rng")
    state = State(data, options, generator_from(rng))
    for name, value in exported.items():
        setattr(state, name, value)
    return state


def _check_layout(obs_size: int, num_players: int, data: NipponData) -> int:
    """The observation's length, or the error (the encoder's) when the data file's action spaces
    or worker rows do not fit the layout's pieces."""
    check_observation_fits(data, num_players)
    size = observation_size(num_players)
    if obs_size != size:  # the core's offsets disagree with the layout's: never with the tables
        raise ValueError(f"the core's {obs_size}-value observation is not the layout's {size}")
    return size


class NativeNipponGame(NativeTable):
    """One Nippon game in the native core, with the engine's vocabulary.

    Make one with :meth:`new` (like :func:`~airships_env.games.nippon.engine.new_game`) or
    :meth:`from_state` (any playable Python state: a saved game, a hand-built position).
    """

    __slots__ = ()
    PHASE_NAMES = Phase.NAMES
    OVER = -1  # the game ends by a flag, not a phase: see is_terminal
    ACTION_NAMES = ACTION_NAMES

    @classmethod
    def new(
        cls,
        num_players: int,
        seed: int | None = None,
        *,
        rng: np.random.Generator | None = None,
        options: RulesOptions | None = None,
        data: NipponData | None = None,
    ) -> NativeNipponGame:
        """Set up a game (S1-S5) exactly as the Python ``new_game`` does."""
        players = _check_players(num_players)
        rng = deal_generator(seed, rng)
        options = options if options is not None else RulesOptions()
        data = data if data is not None else default_data()
        game = require().ni_new(players, rng_state(rng), pack_options(options), tables(data))
        return cls(game, data, options)

    @classmethod
    def from_state(cls, state: State) -> NativeNipponGame:
        """The same game in the core (generator state included). A view, or a state without a
        generator, cannot be imported: the bag draws during play (ViewError, as the engine)."""
        if state.is_view or state.rng is None:
            raise ViewError("a view has no generator: determinize it to play on")
        exported = state.to_dict()
        exported["rng"] = rng_state(state.rng)
        game = require().ni_import(pack_options(state.options), tables(state.data), exported)
        return cls(game, state.data, state.options)

    @classmethod
    def from_view(cls, state: State) -> NativeNipponGame:
        """A seat's view (or any state) in the core without its generator: a position to search
        or determinize from, never to play on (the bag draws during play: ViewError)."""
        exported = state.to_dict()
        exported["rng"] = None
        exported["is_view"] = True
        game = require().ni_import(pack_options(state.options), tables(state.data), exported)
        return cls(game, state.data, state.options)

    def to_state(self) -> State:
        """The game as a Python :class:`State` (equal ``to_dict()`` to the engine's; a view
        comes back as the engine's view)."""
        return _state_from(self._game.export(), self.data, self.options)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickles (and deep-copies) as its Python state; a view as a view."""
        state = self.to_state()
        return (type(self).from_view if state.is_view else type(self).from_state, (state,))

    def view(self, seat: int) -> NativeNipponGame:
        """``seat``'s view (the engine's ``state.view(seat)``, field for field): the game without
        its generator, a position to search from, never to play on."""
        return type(self)(self._game.view(seat), self.data, self.options)

    def determinize(self, seat: int, rng: np.random.Generator) -> NativeNipponGame:
        """A world consistent with ``seat``'s view (the engine's ``view.determinize(rng)``, bit
        for bit), drawing from ``rng`` (advanced as the engine advances it)."""
        world, after = self._game.determinize(seat, pcg64_state(rng))
        set_generator_state(rng, after)
        return type(self)(world, self.data, self.options)

    def results(self) -> list[float]:
        """Each seat's result of the finished game for the search: ``1/k`` for the ``k``
        winners of :meth:`outcome` (E4), 0 for the others."""
        values: list[float] = self._game.results()
        return values

    def search_values(self) -> list[float]:
        """Each seat's value for the search (the game's ``evaluate`` hook, :meth:`~airships_env.
        games.nippon.NipponGame.evaluate`)."""
        values: list[float] = self._game.values()
        return values

    def search(
        self, seat: int, options: SearchOptions, rng: np.random.Generator
    ) -> tuple[int, int, tuple[tuple[int, int, float], ...]]:
        """The generic ISMCTS in C (``src/gsearch.c`` over ``src/nippon_search.c``) for
        ``seat``, the seat to act, reading only its view of this game, drawing from ``rng``
        (advanced), the GIL released; the action, the simulations run, and each root child's
        (action, visits, mean result). ``prior`` and ``playout`` name native bots (BOTS)."""
        codes = []
        for option, bot in (("prior", options.prior), ("playout", options.playout)):
            if bot is not None and bot not in BOTS:
                raise ValueError(
                    f"search option {option}={bot!r}: the core plays {', '.join(BOTS)}"
                )
            codes.append(0 if bot is None else BOTS[bot][0])
        packed = (
            options.sims,
            options.seconds,
            options.c,
            options.max_rollout,
            options.rollout,
            codes[0],
            options.bias,
            codes[1],
        )
        action, simulations, _nodes, after, root = self._game.search(
            seat, packed, pcg64_state(rng), _SEARCH_WEIGHTS
        )
        set_generator_state(rng, after)
        return int(action), int(simulations), root

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return bool(self._game.game_over)

    def observe(self, seat: int) -> np.ndarray:
        """``seat``'s observation (:func:`~airships_env.games.nippon.observation.
        encode_observation` of its view, the same bytes), a fresh float32 vector."""
        size = _check_layout(int(self._game.obs_size), int(self._game.num_players), self.data)
        out = np.empty(size, dtype=np.float32)
        self._game.observe(seat, out)
        return out

    def bot_action(
        self, bot: str, rng: np.random.Generator, memory: BotMemory = NO_PLAN
    ) -> tuple[int, BotMemory]:
        """The native ``bot``'s choice for the seat to act and its memory after it, drawing from
        ``rng`` (advanced as the Python bot advances its generator); ``memory`` is the Python
        bot's ``(_plan, *_plan_key)``: the Python bot's decision and plan."""
        entry = BOTS.get(bot)
        if entry is None:
            raise ValueError(f"unknown native bot {bot!r}; the core plays {', '.join(BOTS)}")
        code, weights = entry
        action, after, (plan, key_turn, key_seat) = self._game.bot_action(
            code, pcg64_state(rng), weights, memory
        )
        set_generator_state(rng, after)
        return int(action), (tuple(plan), key_turn, key_seat)

    def evaluate(self, seat: int, weights: Weights) -> float:
        """The position's worth to ``seat`` under ``weights`` (agents.bots.nippon.evaluate)."""
        return float(self._game.evaluate(seat, packed(weights)))

    def apply_action(self, action: Any) -> ActionRecord:
        """Apply a legal action and return its record, as the Python engine does; an illegal
        action raises the same IllegalActionError, changing nothing."""
        raw = self.apply_raw(action)
        return ActionRecord(raw[0], raw[1], raw[2])


# -- the batch ----------------------------------------------------------------------------------
class NipponBatch(NativeBatch):
    """N Nippon games in the native core, stepped in one call (``src/nippon_batch.c`` over the
    shared batch ``src/gbatch.c``).

    In every game one seat is the *learner* (drawn anew each episode, or fixed) and every other
    seat is played by an *opponent*: a native bot (``"random"``, ``"greedy"``, ``"heuristic"``,
    the Python bots' decisions, each seat's bot keeping its turn's plan as the Python bot does)
    played inside the step, or an *external* policy (an integer ``k``) that the caller evaluates
    for all games waiting on it. ``step(actions)`` applies ``actions[i]`` in every game ``i`` that
    waits on a Python seat (``-1``, and no other value, leaves a game alone), then plays the bots
    until a Python seat must act or the game ends; an ended game writes its rewards,
    ``terminated`` or ``truncated``, its final observation for the learner and its winners, and
    starts its slot's next episode (auto-reset). The arrays (all overwritten by the next call;
    copy what you keep):

    ``obs`` (N, observation_size(players)) float32 the acting seat's observation
    (:mod:`~airships_env.games.nippon.observation`); ``masks`` (N, 176) bool its legal actions;
    ``acting``, ``controller``, ``learner`` (N,) int8; ``rewards`` (N, players) float32
    (GameAEC's: ``"win"`` gives each of the k winners 1/k and the others -1, ``"score"`` the
    margin in VP over the best other seat / 50); ``terminated``, ``truncated`` (N,) bool;
    ``final_obs`` like ``obs``; ``scores`` (N, players) int32 (the outcome's: VP, E4);
    ``winners`` (N,) uint8, a bit per seat (E4: most VP, a tie to the tied player who took a turn
    last); ``episode_steps`` (N,) int32, the actions of the current episode (``max_turns``
    truncates an episode after that many, rewards 0, as :class:`~airships_env.game_aec.GameAEC`
    does).

    Seeds: episode ``e`` of slot ``i`` deals (and draws its bag) from :func:`slot_generator`
    ``(seed, i, e, 0)`` (so ``new_game(players, rng=...)`` deals the same game); the bot in seat
    ``s`` draws from ``(seed, i, e, 1 + s)`` and the learner's seat is
    ``uniform_below(players)`` from ``(seed, i, e, 7)``. A slot's games depend on neither the
    number of slots nor the others.
    """

    NUM_ACTIONS = NUM_ACTIONS
    ACTION_NAMES = ACTION_NAMES
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
        data: NipponData | None = None,
    ):
        module = require()
        self.options = options if options is not None else RulesOptions()
        self.data = data if data is not None else default_data()
        packed_tables = tables(self.data)

        def layout(players: int) -> int:
            """The observation's length, checked against a game the core deals from the data."""
            rules, generator = pack_options(self.options), rng_state(np.random.default_rng(0))
            probe = module.ni_new(players, generator, rules, packed_tables)
            return _check_layout(int(probe.obs_size), players, self.data)

        buffers, shared = self._prepare(
            num_games,
            int(module.NI_BATCH_MAX_GAMES),
            lambda: _check_players(num_players),
            seed=seed,
            opponents=opponents,
            learner_seat=learner_seat,
            reward=reward,
            max_turns=max_turns,
            autoreset=autoreset,
            obs_size=layout,
            scores_dtype=np.int32,
        )
        self._batch = module.NipponBatch(
            self.num_games,
            self.num_players,
            seed_words(self.seed),
            pack_options(self.options),
            packed_tables,
            (BOTS["greedy"][1], BOTS["heuristic"][1]),
            buffers,
            (*shared, REWARD_MODES.index(reward)),
        )

    def game_state(self, game: int) -> State:
        """Game ``game``'s true state as the engine's state (for tests and tools)."""
        return _state_from(self._batch.export_game(int(game)), self.data, self.options)
