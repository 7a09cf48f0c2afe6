"""Hand-built Nippon states for the rule tests."""

from __future__ import annotations

import numpy as np

from airships_env.games.nippon.engine import State, action_from_name, new_game
from airships_env.games.nippon.engine.data import GOODS, default_data

DATA = default_data()
G = {g: i for i, g in enumerate(GOODS)}
RED, BLUE, GREEN, YELLOW, BLACK, WHITE = range(6)


def fresh(num_players: int = 2, seed: int = 0, **kw: object) -> State:
    """A new game with seat 0 to act and rich seats (money 20, coal 10)."""
    s = new_game(num_players, seed, **kw)  # type: ignore[arg-type]
    s.current = 0
    s.first_player = 0
    for p in range(num_players):
        s.yen[p], s.coal[p] = 20, 10
    return s


def tile_of(good: str, power: str | None = None) -> int:
    """The index of a factory tile of ``good`` (with ``power`` when given)."""
    for t, f in enumerate(DATA.factories):
        if f.good == G[good] and (power is None or f.power == power):
            return t
    raise KeyError((good, power))


def give_factory(s: State, p: int, good: str, machine: int = 0, cubes: int = 0) -> int:
    """Put a factory of ``good`` on seat ``p`` (no power applied)."""
    t = next(
        t for t, f in enumerate(DATA.factories) if f.good == G[good] and s.factory_owner[t] < 0
    )
    s.factory_owner[t] = p
    s.factory_tile[p][G[good]] = t
    s.machine[p][G[good]] = machine
    s.cubes[p][G[good]] = cubes
    return t


def put_worker(s: State, space: int, colour: int) -> None:
    """Make sure a worker of ``colour`` is on action space ``space`` (taken from the bag)."""
    if s.spaces[space][colour] == 0:
        s.spaces[space][colour] += 1
        if s.bag[colour]:
            s.bag[colour] -= 1
        else:  # take one of that colour off the rows
            row = next(r for r in s.rows if r[colour])
            row[colour] -= 1


def act(s: State, *names: str) -> list[object]:
    """Apply actions by name; their records."""
    return [s.apply_action(action_from_name(n)) for n in names]


def legal_names(s: State) -> list[str]:
    """The legal actions' names."""
    from airships_env.games.nippon.engine import action_name

    return [action_name(a) for a in s.legal_actions()]


def random_game(num_players: int, seed: int, max_steps: int = 20000) -> tuple[State, list[object]]:
    """A whole game of uniform random play; the start state is the first record's state."""
    s = new_game(num_players, seed)
    rng = np.random.default_rng(seed + 77)
    records = []
    while not s.is_terminal():
        legal = s.legal_actions()
        records.append(s.apply_action(legal[int(rng.integers(len(legal)))]))
        assert len(records) < max_steps
    return s, records
