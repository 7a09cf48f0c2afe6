"""The Nippon game state: plain integers and lists (a native core is a translation).

Copy policy: :meth:`State.clone` copies the lists (one level per nesting) and the generator;
the components (:class:`NipponData`) and the options are frozen and shared. ``to_dict`` is
exact: ``state_from_dict(s.to_dict())`` continues bit for bit, the generator included.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from airships_env.chance import copy_generator, generator_state
from airships_env.games.nippon.engine import rules as _rules
from airships_env.games.nippon.engine.data import NipponData, load_data
from airships_env.games.nippon.engine.errors import LogError
from airships_env.games.nippon.engine.model import Phase, RulesOptions
from airships_env.protocol import Outcome

__all__ = ["Phase", "RulesOptions", "State", "state_from_dict"]


# field name -> nesting depth of its lists (0: an int)
_FIELDS: dict[str, int] = {
    "num_players": 0, "current": 0, "first_player": 0, "phase": 0, "turn_count": 0,
    "marker": 0, "golden_turns": 0, "game_over": 0, "machinery_supply": 0,
    # pending action (the steps of one action in progress)
    "pend_kind": 0, "pend_units": 0, "pend_mask": 0, "pend_region": 0, "pend_contract": 0,
    "pend_demand": 0, "pend_goods": 0, "pend_space": 0, "pend_cubes": 0, "pend_multiplier": 0,
    # the board
    "spaces": 2, "rows": 2, "owed": 1, "bag": 1, "factory_owner": 1, "city_tile": 1, "city_turn": 1,
    "city_goods": 2, "influence_owner": 2, "influence_value": 2, "trains_in": 2, "ships_in": 2,
    "rewards_left": 1, "scored": 2,
    # the players
    "yen": 1, "coal": 1, "blueprints": 1, "vp": 1, "money_pos": 1, "coal_pos": 1,
    "knowledge": 1, "workers": 2, "factory_tile": 2, "machine": 2, "cubes": 2,
    "machine_reserve": 1, "trains_placed": 1, "ships_placed": 1, "contracts_done": 2,
    "tiles_supply": 2, "tiles_removed": 1, "achievements": 2, "last_turn": 1,
}  # fmt: skip
_INT_FIELDS = tuple(name for name, depth in _FIELDS.items() if depth == 0)
_FLAT_FIELDS = tuple(name for name, depth in _FIELDS.items() if depth == 1)
_NESTED_FIELDS = tuple(name for name, depth in _FIELDS.items() if depth == 2)


@dataclass(slots=True)
class State:
    """One game of Nippon. Per-seat lists are indexed by seat; see docs/nippon/RULES.md."""

    data: NipponData
    options: RulesOptions
    rng: np.random.Generator | None
    num_players: int = 2
    current: int = 0
    first_player: int = 0
    phase: int = Phase.TURN
    turn_count: int = 0  # turns completed by everyone
    marker: int = 0  # turn track, 0-based (K3)
    golden_turns: int = -2  # -2: not golden yet; then turns completed since (E1)
    game_over: int = 0
    machinery_supply: int = 0
    pend_kind: int = -1  # the action kind in progress, -1 none
    pend_units: int = 0  # units done (factories, machines, pieces, contracts, tiles)
    pend_mask: int = 0  # bit set of goods / regions / contracts used in this action
    pend_region: int = -1  # MARKET: the region of this action's tiles
    pend_contract: int = -1  # EXPORT: the contract being paid
    pend_demand: int = 0  # EXPORT: the next demand of it
    pend_goods: int = 0  # EXPORT: bit set of goods used for it
    pend_space: int = -1  # MARKET: city * 4 + space
    pend_cubes: int = 0  # MARKET: cubes discarded for it
    pend_multiplier: int = 0  # C4: the multiplier to place
    spaces: list[list[int]] = field(default_factory=list)  # [space][colour] worker counts
    rows: list[list[int]] = field(default_factory=list)  # [row][colour], row 0 on top
    owed: list[int] = field(default_factory=list)  # [space..., row...] workers still owed (T4)
    bag: list[int] = field(default_factory=list)  # [colour]
    factory_owner: list[int] = field(default_factory=list)  # [tile] seat or -1
    city_tile: list[int] = field(default_factory=list)  # [city] city tile index
    city_turn: list[int] = field(default_factory=list)  # [city] rotation 0..3
    city_goods: list[list[int]] = field(default_factory=list)  # [city][space] good
    influence_owner: list[list[int]] = field(default_factory=list)  # [city][space] seat or -1
    influence_value: list[list[int]] = field(default_factory=list)  # [city][space] 0 if empty
    trains_in: list[list[int]] = field(default_factory=list)  # [region][seat]
    ships_in: list[list[int]] = field(default_factory=list)  # [region][seat]
    rewards_left: list[int] = field(default_factory=list)  # reward tile indices on display
    scored: list[list[int]] = field(default_factory=list)  # [phase][seat] VP of each F phase
    yen: list[int] = field(default_factory=list)
    coal: list[int] = field(default_factory=list)
    blueprints: list[int] = field(default_factory=list)
    vp: list[int] = field(default_factory=list)
    money_pos: list[int] = field(default_factory=list)
    coal_pos: list[int] = field(default_factory=list)
    knowledge: list[int] = field(default_factory=list)
    workers: list[list[int]] = field(default_factory=list)  # [seat] colours, left to right
    factory_tile: list[list[int]] = field(default_factory=list)  # [seat][good] tile or -1
    machine: list[list[int]] = field(default_factory=list)  # [seat][good] 0, 1 (+1), 2 (+2)
    cubes: list[list[int]] = field(default_factory=list)  # [seat][good]
    machine_reserve: list[int] = field(default_factory=list)
    trains_placed: list[int] = field(default_factory=list)
    ships_placed: list[int] = field(default_factory=list)
    contracts_done: list[list[int]] = field(default_factory=list)  # [seat][contract] 0/1
    tiles_supply: list[list[int]] = field(default_factory=list)  # [seat][value-1] count
    tiles_removed: list[int] = field(default_factory=list)  # A10a "removed"
    achievements: list[list[int]] = field(default_factory=list)  # [seat][space] multiplier
    last_turn: list[int] = field(default_factory=list)  # turn_count of one's last turn, -1
    is_view: bool = False

    # -- the protocol --------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        """The seat to act."""
        return self.current

    def legal_actions(self) -> list[int]:
        """The legal action indices, sorted (a fresh list; empty once the game is over)."""
        return _rules.legal_actions(self)

    def apply_action(self, action: Any) -> Any:
        """Apply a legal action and return its frozen record (IllegalActionError else)."""
        return _rules.apply_action(self, action)

    def apply_legal_action(self, action: int) -> Any:
        """``apply_action`` without its check: ``action`` comes from ``legal_actions()`` of this
        state, unchanged since (the generic environments check it against that list)."""
        return _rules.apply_legal_action(self, action)

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return bool(self.game_over)

    def outcome(self) -> Outcome | None:
        """Scores, winners and places once the game is over (E4); None before."""
        return _rules.outcome(self)

    def clone(self) -> State:
        """An independent copy (lists copied, generator copied, components shared)."""
        return self._clone_with(copy_generator(self.rng))

    def _clone_with(self, rng: np.random.Generator | None) -> State:
        """A copy of the numbers and lists with ``rng`` as its generator (a view has none)."""
        new = object.__new__(State)  # every field is set below: no default lists to discard
        new.data, new.options, new.rng, new.is_view = self.data, self.options, rng, self.is_view
        for name in _INT_FIELDS:
            setattr(new, name, getattr(self, name))
        for name in _FLAT_FIELDS:
            setattr(new, name, getattr(self, name).copy())
        for name in _NESTED_FIELDS:
            setattr(new, name, [v.copy() for v in getattr(self, name)])
        return new

    def view(self, seat: int) -> State:
        """What ``seat`` sees (V1): everything but the bag's order; no generator; frozen."""
        if not 0 <= seat < self.num_players:
            raise ValueError(f"seat {seat} is outside 0..{self.num_players - 1}")
        new = self._clone_with(None)  # the generator is not part of a view: never copied
        new.is_view = True
        return new

    def determinize(self, rng: np.random.Generator) -> State:
        """A playable state whose future bag draws come from ``rng`` (all else is open)."""
        new = self.clone()
        new.rng = np.random.Generator(np.random.PCG64(int(rng.integers(0, 2**63 - 1))))
        new.is_view = False
        return new

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (exact, the generator's state included)."""
        out: dict[str, Any] = {"game": "nippon", "format": 1}
        out["data"] = {"name": self.data.name, "path": self.data.path, "digest": self.data.digest}
        out["options"] = self.options.to_dict()
        out["rng"] = generator_state(self.rng)
        out["is_view"] = self.is_view
        for name, depth in _FIELDS.items():
            value = getattr(self, name)
            out[name] = (
                value if depth == 0 else (list(value) if depth == 1 else [list(v) for v in value])
            )
        return out


def state_from_dict(data: Mapping[str, Any], components: NipponData | None = None) -> State:
    """The state ``State.to_dict`` wrote; LogError naming the field when it cannot be read."""
    if not isinstance(data, Mapping) or data.get("game") != "nippon" or data.get("format") != 1:
        raise LogError("state: expected a Nippon state (game 'nippon', format 1)")
    meta = data.get("data")
    if not isinstance(meta, Mapping):
        raise LogError("state: field 'data': expected the components' name, path and digest")
    if components is None:
        components = load_data(str(meta.get("path") or ""))
    if components.digest != meta.get("digest"):
        raise LogError(
            f"state: field 'data': saved with components digest {meta.get('digest')!r}, "
            f"loaded {components.digest!r} ({components.path or 'the default file'})"
        )
    opts = data.get("options")
    try:
        options = RulesOptions(**dict(opts)) if isinstance(opts, Mapping) else RulesOptions()
    except (TypeError, ValueError) as exc:
        raise LogError(f"state: field 'options': {exc}") from exc
    rng: np.random.Generator | None = None
    if data.get("rng") is not None:
        try:
            bit = np.random.PCG64()
            bit.state = dict(data["rng"])  # type: ignore[assignment]
            rng = np.random.Generator(bit)
        except (TypeError, ValueError, KeyError) as exc:
            raise LogError(f"state: field 'rng': not a PCG64 state ({exc})") from exc
    state = State(components, options, rng)
    for name, depth in _FIELDS.items():
        if name not in data:
            raise LogError(f"state: field {name!r} is missing")
        value = data[name]
        try:
            if depth == 0:
                if not isinstance(value, int) or isinstance(value, bool):
                    raise TypeError
            elif depth == 1:
                value = [int(v) for v in value]
            else:
                value = [[int(x) for x in v] for v in value]
        except (TypeError, ValueError) as exc:
            raise LogError(
                f"state: field {name!r}: expected {'an integer' if depth == 0 else 'integer lists'}"
            ) from exc
        setattr(state, name, value)
    state.is_view = bool(data.get("is_view", False))
    return state
