"""The game state: plain integers and lists (a native core is a translation), one copy policy.

Copy policy: :meth:`State.clone` copies every mutable list (nested ones too) and the generator's
state by hand, never ``deepcopy``; the data and options are frozen and shared.

Layout (docs/australia/RULES.md): a card type is ``back * 6 + colour``. ``hands[seat][type]``
counts; ``stacks[back]`` lists colours bottom to top (the last is the top); ``set_aside[back]``
the colours S3 removed; ``played[type]`` counts. ``rangers[location][seat]`` counts;
``tile_value[region]`` the industrialization tile's value (0: gone), ``tile_up[region]`` 1 when
face up, ``conservation[region]`` 1 while its tile is there. Full game: ``windmill_track`` the
tiles on it (a value, 0 for a conservation tile), ``ranger_track`` seats top to bottom.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from airships_env.chance import copy_generator, generator_from_state, generator_state
from airships_env.games.australia.engine import rules as _rules
from airships_env.games.australia.engine import view as _view
from airships_env.games.australia.engine.data import AustraliaData, default_data, load_data
from airships_env.games.australia.engine.errors import LogError
from airships_env.games.australia.engine.model import (
    ACTION as ACTION,
)
from airships_env.games.australia.engine.model import (
    DRAW as DRAW,
)
from airships_env.games.australia.engine.model import (
    MOVE_TO as MOVE_TO,
)
from airships_env.games.australia.engine.model import (
    OVER as OVER,
)
from airships_env.games.australia.engine.model import (
    PHASE_NAMES as PHASE_NAMES,
)
from airships_env.games.australia.engine.model import (
    PLACE as PLACE,
)
from airships_env.games.australia.engine.model import (  # re-exported: the phases and options
    SETUP_DRAW as SETUP_DRAW,
)
from airships_env.games.australia.engine.model import (
    TAKE_BACK as TAKE_BACK,
)
from airships_env.games.australia.engine.model import (
    WINDMILL as WINDMILL,
)
from airships_env.games.australia.engine.model import (
    RulesOptions as RulesOptions,
)

_LISTS: dict[str, int] = {
    "supply": 1,
    "vp": 1,
    "dollars": 1,
    "plane": 1,
    "hands": 2,
    "stacks": 2,
    "set_aside": 2,
    "played": 1,
    "rangers": 2,
    "tile_value": 1,
    "tile_up": 1,
    "conservation": 1,
    "windmill_track": 1,
    "ranger_track": 1,
}
_FLAT_LISTS = tuple(name for name, depth in _LISTS.items() if depth == 1)
_NESTED_LISTS = tuple(name for name, depth in _LISTS.items() if depth == 2)
_INTS: tuple[str, ...] = (
    "num_players", "phase", "current", "actions_left", "step", "turn", "round",
    "pending_card", "pending_paid", "rangers_left", "track_used", "taken", "move_from",
    "setup_draws", "end_triggered", "windmill_region", "windmill_value", "view_seat",
)  # fmt: skip


@dataclass(slots=True)
class State:
    """One game of Australia, true or as one seat sees it (``view_seat``)."""

    num_players: int
    data: AustraliaData
    options: RulesOptions
    phase: int
    current: int  # the seat to act (whose turn it is)
    actions_left: int  # T1: actions still to perform this turn
    step: int  # actions applied
    turn: int  # turns begun (0 during setup)
    round: int  # rounds begun (0 during setup)
    supply: list[int]
    vp: list[int]
    dollars: list[int]
    plane: list[int]  # region, or -1 off the map
    hands: list[list[int]]
    stacks: list[list[int]]
    set_aside: list[list[int]]
    played: list[int]
    rangers: list[list[int]]
    tile_value: list[int]
    tile_up: list[int]
    conservation: list[int]
    windmill_track: list[int]
    ranger_track: list[int]
    pending_card: int  # the card being played (A2), or -1
    pending_paid: int  # 1 when D1 was paid for it
    rangers_left: int  # rangers the pending card may still place
    track_used: int  # 1 once W3 sent rangers to the ranger track for this card
    taken: int  # rangers taken back in this A5
    move_from: int  # D2's lifted location, or -1
    setup_draws: int  # S4 takes done
    end_triggered: int  # E1: the last round is running
    windmill_region: int  # -1 in the simple game and before S6
    windmill_value: int
    rng: np.random.Generator | None = field(default=None, repr=False)
    view_seat: int = -1  # -1: the true state; else the seat this view belongs to

    # The GameState protocol, delegated to the rules module.
    @property
    def current_player(self) -> int:
        """The seat to act."""
        return self.current

    def legal_actions(self) -> list[int]:
        """The legal action indices, sorted (a fresh list)."""
        return _rules.legal_actions(self)

    def apply_action(self, action: int) -> Any:
        """Apply a legal action and return its frozen record."""
        return _rules.apply_action(self, action)

    def apply_legal_action(self, action: int) -> Any:
        """``apply_action`` without its check: ``action`` comes from ``legal_actions()`` of this
        state, unchanged since (the generic environments check it against that list)."""
        return _rules.apply_legal_action(self, action)

    def is_terminal(self) -> bool:
        """True once the game is over (E1 or E4)."""
        return self.phase == OVER

    def outcome(self) -> Any:
        """Scores, winners and places once the game is over; None before."""
        return _rules.outcome(self)

    def view(self, seat: int) -> State:
        """What ``seat`` may see (V1-V4): hidden cards and tiles canonical, no generator."""
        return _view.view(self, seat)

    def determinize(self, rng: np.random.Generator) -> State:
        """A playable state, what the view hides re-dealt from ``rng`` consistently with it."""
        return _view.determinize(self, rng)

    @property
    def phase_name(self) -> str:
        """The phase as words ('action', 'place', ...)."""
        return PHASE_NAMES[self.phase]

    def hand_size(self, seat: int) -> int:
        """The number of cards in ``seat``'s hand."""
        return sum(self.hands[seat])

    def clone(self) -> State:
        """An independent copy: lists copied, the generator's state copied, frozen data shared."""
        return self._clone_with(copy_generator(self.rng))

    def _clone_with(self, rng: np.random.Generator | None) -> State:
        """A copy of the lists and numbers with ``rng`` as its generator (a view has none)."""
        new = object.__new__(State)  # every field is set below
        new.data, new.options, new.rng = self.data, self.options, rng
        for name in _INTS:
            setattr(new, name, getattr(self, name))
        for name in _FLAT_LISTS:
            setattr(new, name, getattr(self, name).copy())
        for name in _NESTED_LISTS:
            setattr(new, name, [x.copy() for x in getattr(self, name)])
        return new

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; :func:`state_from_dict` restores the identical state."""
        out: dict[str, Any] = {
            "game": "australia",
            "data": {
                "map_path": self.data.map_path,
                "components_path": self.data.components_path,
                "digest": self.data.digest,
            },
            "options": self.options.to_dict(),
        }
        for name in _INTS:
            out[name] = getattr(self, name)
        for name, depth in _LISTS.items():
            value = getattr(self, name)
            out[name] = [list(x) for x in value] if depth == 2 else list(value)
        out["rng"] = generator_state(self.rng)
        return out


def state_from_dict(data: Any) -> State:
    """The state a :meth:`State.to_dict` wrote; a LogError names what is wrong."""
    try:
        if data.get("game") != "australia":
            raise LogError(f"not an Australia state: game = {data.get('game')!r}")
        source = data["data"]
        map_path, components_path = source["map_path"], source["components_path"]
        if map_path or components_path:
            loaded = load_data(map_path=map_path or None, components_path=components_path or None)
        else:
            loaded = default_data()
        if loaded.digest != source["digest"]:
            raise LogError(
                f"the state was saved with data of digest {source['digest']}, but "
                f"{map_path or '(default map)'} + {components_path or '(default components)'} "
                f"now have digest {loaded.digest}"
            )
        rng = None if data["rng"] is None else generator_from_state(data["rng"])
        fields: dict[str, Any] = {name: int(data[name]) for name in _INTS}
        for name, depth in _LISTS.items():
            value = data[name]
            fields[name] = (
                [[int(x) for x in row] for row in value] if depth == 2 else [int(x) for x in value]
            )
        return State(
            data=loaded,
            options=RulesOptions.from_dict(dict(data["options"])),
            rng=rng,
            **fields,
        )
    except LogError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise LogError(f"not a valid Australia state ({exc!r})") from exc
