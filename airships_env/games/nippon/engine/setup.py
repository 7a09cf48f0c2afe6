"""Setting up a game of Nippon (docs/nippon/RULES.md S1-S5): city tiles, the first player,
the players' boards, and the workers drawn from the bag onto the action board (N1, N2)."""

from __future__ import annotations

import numpy as np

from airships_env.chance import uniform_below
from airships_env.games.nippon.engine.data import (
    NUM_ACHIEVEMENTS,
    NUM_CITIES,
    NUM_COLOURS,
    NUM_CONTRACTS,
    NUM_GOODS,
    NUM_REGIONS,
    SPACES_PER_CITY,
    NipponData,
    default_data,
)
from airships_env.games.nippon.engine.model import RulesOptions
from airships_env.games.nippon.engine.rules import _Drawer, _fill_board
from airships_env.games.nippon.engine.state import State

__all__ = ["new_game"]


def new_game(
    num_players: int,
    seed: int | None = None,
    *,
    rng: np.random.Generator | None = None,
    options: RulesOptions | None = None,
    data: NipponData | None = None,
) -> State:
    """Set up a game (S1-S5): city tiles, first player, workers drawn from the bag."""
    if num_players not in (2, 3, 4):
        raise ValueError(f"Nippon is for 2, 3 or 4 players, not {num_players!r}")
    if rng is None:
        rng = np.random.default_rng(seed) if seed is not None else np.random.default_rng()
    d = data if data is not None else default_data()
    s = State(d, options if options is not None else RulesOptions(), rng)
    n = s.num_players = num_players
    # N1 / S2: city tiles shuffled onto the cities (one draw per city), then each turned
    pool = list(range(NUM_CITIES))
    s.city_tile = [pool.pop(uniform_below(rng, len(pool))) for _ in range(NUM_CITIES)]
    s.city_turn = [uniform_below(rng, SPACES_PER_CITY) for _ in range(NUM_CITIES)]
    s.city_goods = [
        [d.city_tiles[s.city_tile[c]][(i + s.city_turn[c]) % SPACES_PER_CITY] for i in range(4)]
        for c in range(NUM_CITIES)
    ]
    s.first_player = s.current = uniform_below(rng, n)  # S1
    s.influence_owner = [[-1] * SPACES_PER_CITY for _ in range(NUM_CITIES)]
    s.influence_value = [[0] * SPACES_PER_CITY for _ in range(NUM_CITIES)]
    s.trains_in = [[0] * n for _ in range(NUM_REGIONS)]
    s.ships_in = [[0] * n for _ in range(NUM_REGIONS)]
    s.factory_owner = [-1] * len(d.factories)
    s.rewards_left = list(d.rewards_for(n))
    s.scored = [[0] * n for _ in d.scoring_spaces]
    s.machinery_supply = d.machinery_tiles
    # S3
    s.money_pos = [d.start_money] * n
    s.coal_pos = [d.start_coal] * n
    s.knowledge = [d.start_knowledge] * n
    s.yen = [d.money_track[d.start_money]] * n
    s.coal = [d.coal_track[d.start_coal]] * n
    s.blueprints = [d.start_blueprints] * n
    s.vp = [0] * n
    s.workers = [[] for _ in range(n)]
    s.factory_tile = [[-1] * NUM_GOODS for _ in range(n)]
    s.machine = [[0] * NUM_GOODS for _ in range(n)]
    s.cubes = [[0] * NUM_GOODS for _ in range(n)]
    s.machine_reserve = [0] * n
    s.trains_placed = [0] * n
    s.ships_placed = [0] * n
    s.contracts_done = [[0] * NUM_CONTRACTS for _ in range(n)]
    s.tiles_supply = [[d.influence_tiles.count(v) for v in range(1, 7)] for _ in range(n)]
    s.tiles_removed = [0] * n
    s.achievements = [[0] * NUM_ACHIEVEMENTS for _ in range(n)]
    s.last_turn = [-1] * n
    # S4: every worker in the bag, then the board filled from it
    s.bag = [d.per_colour] * NUM_COLOURS
    s.spaces = [[0] * NUM_COLOURS for _ in d.action_spaces]
    s.rows = [[0] * NUM_COLOURS for _ in range(d.num_rows(n))]
    s.owed = [0] * (len(s.spaces) + len(s.rows))
    draws: list[int] = []
    _fill_board(s, _Drawer(s, None, draws))
    return s
