"""The game protocol: what a game gives the tools above it (environments, bots, arena, CLI, web).

A game is a folder that fills two small protocols, :class:`GameState` (one game in progress)
and :class:`Game` (the static facts and factories of one game), and registers itself in
:mod:`airships_env.registry`. Nothing generic imports a game's internals: it asks the
:class:`Game` for them.

Why this shape. The state side takes OpenSpiel's vocabulary (``current_player``,
``legal_actions``, ``apply_action``, ``is_terminal``, ``clone``, ``resample_from_infostate``
here called ``determinize``): it is what every search and RL paper and most engines speak, and
Airships' engine already spoke it. Unlike OpenSpiel, chance is not a player: an action's chance
outcome (dice, a card drawn) happens inside ``apply_action`` from the state's own generator and
is returned in the action's frozen record, so a log replays without the generator (pokerkit's
operations) and agents never see a chance node. The game side takes pgx's idea of a small static
record with a registry that imports lazily (``make(name)``), and OpenSpiel's ``GameType``: name,
version, player counts, action table and observation layout are facts the game states once, so
no tool writes "2 to 4 players" or an action index of one game. Presentation (text, ANSI,
picture, SVG) is a separate :class:`Presenter`, so the engine never imports its renderers.

Hidden information. ``view(seat)`` is the only way a tool gives a seat the game: a copy in
which whatever that seat may not see is replaced by a canonical arrangement and the generator
is gone (a view refuses to advance with a ValueError). ``determinize(rng)`` re-deals what a view
hides, at random and consistently with everything the view shows, into a playable state (for
search); on a true state it determinizes for the seat to act. Two states that differ only in
what a seat cannot see give that seat equal views, observations and bot decisions: the
conformance suite's leak test (``tests/conformance``) holds every game to it.

What else lives here: the helpers every game shares (:class:`Outcome` and :func:`ranks_from`,
:func:`as_action_index`, the one :class:`IllegalActionError`), so that a game's engine depends on
this module and nothing above it. The generic layers over the protocol are
:mod:`airships_env.game_aec` (PettingZoo), :mod:`airships_env.game_single_agent` (Gymnasium),
:mod:`airships_env.game_vector` (SB3) and ``agents/bots/generic_ismcts.py`` (search); a Python
game's :class:`Game` object subclasses :class:`airships_env.gamekit.PythonGame`, which fills the
members every such game fills the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

__all__ = [
    "ActionRecord",
    "ActionSpaceError",
    "Game",
    "GameState",
    "IllegalActionError",
    "OptionsDict",
    "Outcome",
    "Presenter",
    "as_action_index",
    "not_an_action_reason",
    "ranks_from",
]


def as_action_index(action: object) -> int | None:
    """The Python int an integer-like action stands for, or None when it is not one.

    Integer-like is what gymnasium's ``Discrete`` space accepts: a Python int (not a bool:
    ``Discrete.contains(True)`` holds, but a bool as an action is a bug, refused here), a
    numpy integer (``np.int64(12)``) or a 0-d integer array (``np.array(12)``, what
    sb3-contrib's ``MaskablePPO.predict`` returns for one observation). Every caller that takes
    an action from outside (the engine, the native core's binding, the environments, the arena)
    converts through this one function; the range is checked by the caller.
    """
    if isinstance(action, bool | np.bool_):
        return None
    if isinstance(action, int):
        return int(action)
    if isinstance(action, np.integer):
        return int(action)
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        return int(action)
    return None


def not_an_action_reason(action: object, num_actions: int) -> str | None:
    """Why a value is not an action of a ``num_actions``-action space (None when it is one)."""
    index = as_action_index(action)
    if index is None:
        if isinstance(action, np.ndarray):
            kind = f"an array of {action.dtype} with shape {action.shape}"
        else:
            shown = repr(action)
            shown = shown if len(shown) <= 40 else shown[:37] + "..."
            kind = f"{shown} of type {type(action).__name__}"
        return f"an action is an integer index, got {kind}"
    if not 0 <= index < num_actions:
        return f"no action has index {index} (0..{num_actions - 1})"
    return None


class IllegalActionError(ValueError):
    """An action that is not legal in the current state (python-chess's IllegalMoveError);
    every game raises this one class. ``phase``: the game's name for the situation, or ''."""

    def __init__(self, action: object, phase: str, legal: list[int], names: list[str], why: str):
        self.action = action
        self.phase = phase
        self.legal = list(legal)
        self.why = why
        listed = ", ".join(f"{a} ({n})" for a, n in zip(legal, names, strict=True))
        where = f" in phase '{phase}'" if phase else ""
        super().__init__(f"illegal action {action!r}{where}: {why}. Legal actions: {listed}")


class ActionSpaceError(IllegalActionError):
    """A value that is no action at all (not an integer index, or outside the action table).

    Unlike an action the rules forbid now, this is a bug in the caller: the environments
    raise it whatever their ``illegal_action`` option says.
    """


class OptionsDict:
    """The exact dict round trip of a game's rules options (a dataclass of plain values):
    ``to_dict`` gives every field by name; ``from_dict`` refuses what is not a dict or names
    an option the game does not have."""

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict, every option by name."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__}  # type: ignore[attr-defined]

    @classmethod
    def from_dict(cls, data: Any) -> Any:
        """The inverse of :meth:`to_dict` (unknown keys are an error)."""
        if not isinstance(data, dict):
            raise ValueError(f"RulesOptions: expected a dict, found {data!r}")
        known = list(cls.__dataclass_fields__)  # type: ignore[attr-defined]
        unknown = set(data) - set(known)
        if unknown:
            raise ValueError(f"RulesOptions: unknown options {sorted(unknown)}; known: {known}")
        cls.check_values(data)
        return cls(**data)

    @classmethod
    def check_values(cls, data: dict[str, Any]) -> None:
        """Refuse values ``from_dict`` must not pass on (a game's options may override; the
        dataclass's own ``__post_init__`` still checks what it checks)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: every seat's score, the winners and each seat's place."""

    scores: tuple[float, ...]  # the game's own final score per seat
    winners: tuple[int, ...]  # seats sharing the win (empty: a draw with no winner)
    ranks: tuple[int, ...]  # 1 = first; equal places share a rank (1, 2, 2, 4)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "scores": list(self.scores),
            "winners": list(self.winners),
            "ranks": list(self.ranks),
        }


def ranks_from(winners: Sequence[int], keys: Sequence[Any]) -> tuple[int, ...]:
    """Places from the winners and a sort key per seat (higher is better): the winners share
    place 1, the others follow by key; equal keys share a place (1, 2, 2, 4)."""
    winning = set(winners)
    others = [keys[seat] for seat in range(len(keys)) if seat not in winning]
    return tuple(
        1 if seat in winning else 1 + len(winning) + sum(other > keys[seat] for other in others)
        for seat in range(len(keys))
    )


@runtime_checkable
class ActionRecord(Protocol):
    """The frozen record of one applied action: the choice and what chance did."""

    action: int

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict from which the game's ``record_from_dict`` rebuilds the record."""
        ...


@runtime_checkable
class GameState(Protocol):
    """One game in progress, true or as one seat sees it.

    Optional member, looked up with ``getattr`` by the generic environments:
    ``apply_legal_action(action) -> record``, ``apply_action`` without its legality check, for a
    caller that took ``action`` from ``legal_actions()`` of this very state, unchanged since (the
    environments check every action against the list they computed for the mask, so the engine
    need not compute it a second time); the same record and the same new state as
    ``apply_action``. ``observe(seat) -> np.ndarray``, a state that writes its seats'
    observations itself (a native core): the bytes of ``game.observe(state.view(seat), seat)``;
    the environments and ``Decision.for_game`` take it. ``to_state()``, a native state: the
    same game as the Python engine's state (:func:`airships_env.gamekit.python_state`), for
    code that reads a state's fields.
    """

    num_players: int

    @property
    def current_player(self) -> int:
        """The seat to act (meaningless once the game is over)."""
        ...

    def legal_actions(self) -> list[int]:
        """The legal action indices of the seat to act, sorted (a fresh list)."""
        ...

    def apply_action(self, action: int) -> Any:
        """Apply a legal action; the frozen :class:`ActionRecord`; IllegalActionError else."""
        ...

    def is_terminal(self) -> bool:
        """True once the game is over."""
        ...

    def outcome(self) -> Outcome | None:
        """Scores, winners and places once the game is over; None before."""
        ...

    def clone(self) -> Any:
        """A cheap independent copy, the generator's state included."""
        ...

    def view(self, seat: int) -> Any:
        """What ``seat`` may see: hidden parts canonical, no generator; refuses to advance."""
        ...

    def determinize(self, rng: np.random.Generator) -> Any:
        """A playable state with what the view hides re-dealt from ``rng``, consistent with it."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; the game's ``state_from_dict`` restores the identical state."""
        ...


@runtime_checkable
class Presenter(Protocol):
    """How a game is shown to people: one line per record, a terminal table, a picture, SVG.

    ``view`` is a seat's view, or a true state with ``seat`` None (a spectator, the envs'
    ``render``): then the presenter draws only what every seat may see.
    """

    def record_text(self, record: Any, state: Any) -> str:
        """One line describing ``record`` (``state``: the game after it) for logs and replays."""
        ...

    def ansi(self, view: Any, seat: int | None, last_record: Any | None) -> str:
        """The table as text with ANSI colours, seen by ``seat`` (None: a spectator)."""
        ...

    def rgb(self, view: Any, seat: int | None, last_record: Any | None) -> np.ndarray:
        """The table as an RGB picture (height x width x 3, uint8)."""
        ...

    def svg(self, view: Any, seat: int | None, last_record: Any | None) -> str:
        """The table as an SVG document for the web page."""
        ...


@runtime_checkable
class Game(Protocol):
    """The static facts and factories of one game (OpenSpiel's GameType, pgx's Env).

    Optional members, looked up with ``getattr`` by the generic layers: ``score_scale`` (float:
    ``reward="score"`` is the score margin divided by it; default 1), ``observation_bounds(
    num_players) -> (low, high)`` (the observation's bounds; default unbounded),
    ``rollout_action(state, rng) -> int`` (the generic search's rollout policy; default
    uniform), ``evaluate(state) -> Sequence[float]`` (each seat's value of an unfinished state
    in [0, 1], on the scale of a finished game's shares, 1/k for each of k winners: the generic
    search scores a rollout cut after its ``rollout`` option's number of actions with it; a game
    without it cannot take that option), ``leak_pair(num_players, seed, seat) -> (state_a, state_b)`` (two states that differ
    only in what ``seat`` cannot see, for the conformance suite's leak test; default
    ``state.determinize`` of one view with two generators), ``observes_true_state`` (bool: True
    when ``observe(state, seat)`` of a true state equals ``observe(state.view(seat), seat)`` bit
    for bit, because the encoder reads only the seat's own and public parts; the generic
    environments then encode the true state and skip building the view; the conformance suite
    compares both on thousands of random states; default False). The generic search's
    ``prior`` and ``playout`` options name one of the game's ``bots()``: it is handed a Decision
    whose view is a determinized world (a state that holds nothing more of the truth than the
    searching seat's view), so such a bot must read only what its seat may see, as every bot
    does.
    ``native_vec_env() -> "module:Class"`` names the game's batched native VecEnv (a
    :class:`airships_env.vector.BatchVecEnv`; ``vec_env: native`` trains on it).
    ``native_search_view(view) -> native game`` puts a seat's view in the game's native core, whose
    ``search(seat, options, rng)`` runs the generic search in C (``ismcts`` of
    :mod:`agents.bots.native_ismcts`).
    ``agent_defaults() -> {agent name: {option: value}}`` gives the options an agent of this game
    takes when its spec does not set them (a search tuned for the game: ``ismcts`` alone means the
    tuned search); a spec's own options win.
    """

    name: str  # registry name: "airships", "clockwork", ...
    title: str  # for people: "Airships", "Escape from Clockwork City"
    version: int  # the environment's version: the N of airships_vN / Airships-vN
    player_counts: tuple[int, ...]  # the table sizes the rules allow, ascending
    num_actions: int  # size of the fixed action table

    @property
    def backends(self) -> tuple[str, ...]:
        """("python",), or ("native", "python") where the game's native core is built (the
        environments' default is the first)."""
        ...

    def action_name(self, action: int) -> str:
        """The readable name of an action index."""
        ...

    def new_state(
        self,
        num_players: int,
        seed: int | None = None,
        *,
        rng: np.random.Generator | None = None,
        options: Any = None,
        data: Any = None,
        backend: str = "python",
    ) -> Any:
        """Set up and deal a game; all chance from ``rng`` (or ``default_rng(seed)``);
        ``backend`` one of ``backends`` (each deals the same game from the same seed; the
        environments' default is the first, the native core where it is built)."""
        ...

    def state_from_dict(self, data: Mapping[str, Any]) -> Any:
        """The state a ``GameState.to_dict`` wrote."""
        ...

    def record_from_dict(self, data: Mapping[str, Any]) -> Any:
        """The record an ``ActionRecord.to_dict`` wrote."""
        ...

    def replay_action(self, state: Any, record: Any) -> Any:
        """Apply ``record``'s action: chance drawn again from the state's generator when it
        has one (the state then follows the original bit for bit, generator included), else
        the chance the record holds; the new record, which must equal ``record``."""
        ...

    def observation_layout(self, num_players: int) -> list[tuple[str, int]]:
        """The named pieces ``(name, size)`` of a seat's flat float32 observation, in order."""
        ...

    def observation_size(self, num_players: int) -> int:
        """The length of a seat's observation vector (the sum of the layout's sizes)."""
        ...

    def observe(self, view: Any, seat: int) -> np.ndarray:
        """``seat``'s observation of a view (or a true state), a fresh float32 vector."""
        ...

    def bots(self) -> Mapping[str, str]:
        """The game's own agents: spec name -> ``'module:Class'`` (imported on first use)."""
        ...

    def presenter(self) -> Presenter:
        """The game's :class:`Presenter`."""
        ...

    def env(self, **kwargs: Any) -> Any:
        """The game's PettingZoo AEC env (``<name>_v<version>``), order-enforcing wrapper on."""
        ...

    def single_agent_env(self, **kwargs: Any) -> Any:
        """The game's single-agent Gymnasium env (``<Name>-v<version>``: one learning seat)."""
        ...
