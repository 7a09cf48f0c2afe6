"""Nippon's components: frozen dataclasses, the TOML loader and its validation.

Every number no source gives is data (docs/nippon/DATA.md). The default ships as
``data/nippon_default.toml`` beside this package; a user who owns the game may load another
file with the same schema (``load_data(path)``). Every problem is a :class:`NipponDataError`
naming the file, the entry and the field. What the action table fixes (6 goods, 9 actions,
4 regions of 2 cities with 4 spaces, 8 contracts, 9 achievement spaces, 6 worker colours, tile
values 1..6) is checked, not configurable.
"""

from __future__ import annotations

import hashlib
import sys
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from airships_env.games.nippon.engine.errors import NipponDataError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10 only
    import tomli as tomllib

__all__ = [
    "ACHIEVEMENT_KINDS",
    "ACTION_KINDS",
    "BONUS_KINDS",
    "GIFT_KINDS",
    "GOODS",
    "POWER_KINDS",
    "Achievement",
    "Contract",
    "Factory",
    "NipponData",
    "Reward",
    "default_data",
    "default_data_path",
    "load_data",
    "parse_data",
]

SCHEMA_VERSION = 1
DEFAULT_DATA_FILE = "nippon_default.toml"
SOURCES = ("S", "P", "R")
ACTION_KINDS: tuple[str, ...] = (
    "INVEST", "TECHNOLOGY", "PRODUCE", "KNOWLEDGE", "MINE", "TRAINS", "SHIPS", "EXPORT", "MARKET",
)  # fmt: skip
GOODS: tuple[str, ...] = ("silk", "paper", "bento", "lenses", "clocks", "bulbs")
NUM_GOODS = 6
NUM_COLOURS = 6
NUM_REGIONS = 4
NUM_CITIES = 8
SPACES_PER_CITY = 4
NUM_CONTRACTS = 8
NUM_ACHIEVEMENTS = 9
NUM_FACTORY_TILES = 24
MAX_TILE_VALUE = 6
WORKER_SPACES = 6
PLAYER_COUNTS = (2, 3, 4)
POWER_KINDS: tuple[str, ...] = (
    "none", "coal_track", "money_track", "knowledge_track", "blueprints", "coal", "yen", "vp",
    "machine",
)  # fmt: skip
#: A contract's or a region's bonus: a factory's powers but "machine" (which improves the
#: factory that has the power, and a contract or a region has none).
BONUS_KINDS: tuple[str, ...] = tuple(kind for kind in POWER_KINDS if kind != "machine")
GIFT_KINDS: tuple[str, ...] = ("blueprints", "coal", "yen")
ACHIEVEMENT_KINDS: tuple[str, ...] = (
    "contracts", "yen", "knowledge_stars", "ship_stars", "train_stars", "factories", "machines",
    "influence", "coal_stars",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Factory:
    """A factory tile: its good (index), coal cost per production and power on building."""

    good: int
    coal: int
    power: str
    amount: int
    source: str


@dataclass(frozen=True, slots=True)
class Contract:
    """An export contract: cubes per distinct good (largest first), its VP and bonus."""

    demands: tuple[int, ...]
    vp: int
    bonus: str
    amount: int
    source: str


@dataclass(frozen=True, slots=True)
class Reward:
    """A reward tile: level, multiplier, gift kind and the smallest table it is used at."""

    level: int
    multiplier: int
    gift: str
    min_players: int
    source: str


@dataclass(frozen=True, slots=True)
class Achievement:
    """An achievement space: what it counts, per how much, its printed multiplier."""

    kind: str
    per: int
    printed: int
    source: str


@dataclass(frozen=True, slots=True)
class NipponData:
    """A validated component set (see the default file for every field's meaning)."""

    name: str
    path: str  # "" for the default file
    digest: str  # sha256 of the file's bytes
    # costs (S)
    invest_cost: int
    machine_cost: int
    step_costs: tuple[int, int, int]
    piece_cost: int
    colour_cost: int
    unpaid_vp: int
    blueprints_per_bonus: int
    max_units: int
    factory_capacity: int
    gift_amounts: tuple[int, int, int]  # by GIFT_KINDS
    # board
    action_spaces: tuple[tuple[int, ...], ...]  # action kind indices per space
    colours: tuple[str, ...]
    per_colour: int
    per_space: int
    rows: tuple[int, int, int]  # worker rows for 2, 3, 4 players
    track_spaces: int
    golden_from: int  # 0-based
    scoring_spaces: tuple[int, ...]  # 0-based
    majority_vp: tuple[tuple[int, ...], ...]
    ship_vp: tuple[int, ...]
    ship_vp_no_place: int
    train_influence: int
    # player board
    start_money: int
    start_coal: int
    start_knowledge: int
    start_blueprints: int
    money_track: tuple[int, ...]
    coal_track: tuple[int, ...]
    coal_stars: tuple[int, ...]
    knowledge_max: int
    knowledge_stars: tuple[int, ...]
    trains: int
    ships: int
    train_stars: tuple[int, ...]
    ship_stars: tuple[int, ...]
    worker_levels: tuple[int, ...]
    machinery_tiles: int
    goods_levels: tuple[int, ...]
    level_knowledge: tuple[int, int, int, int]
    factories: tuple[Factory, ...]
    contracts: tuple[Contract, ...]
    influence_tiles: tuple[int, ...]
    influence_table: tuple[tuple[int, int, int], ...]  # [level-1][cubes-1]
    neutral: tuple[int, ...]
    spaces_per_region: tuple[int, int, int]
    region_bonus: tuple[tuple[str, int], ...]
    city_tiles: tuple[tuple[int, ...], ...]
    rewards: tuple[Reward, ...]
    achievements: tuple[Achievement, ...]

    def action_space_of(self, kind: int) -> int:
        """The action space (0..4) whose worker offers action ``kind``."""
        for space, kinds in enumerate(self.action_spaces):
            if kind in kinds:
                return space
        raise KeyError(kind)  # unreachable for validated data

    def num_rows(self, num_players: int) -> int:
        """Rows in the worker column for ``num_players``."""
        return self.rows[num_players - 2]

    def region_spaces(self, num_players: int) -> int:
        """Train/ship spaces per region for ``num_players``."""
        return self.spaces_per_region[num_players - 2]

    def rewards_for(self, num_players: int) -> tuple[int, ...]:
        """Indices of the reward tiles in play with ``num_players``."""
        return tuple(i for i, r in enumerate(self.rewards) if r.min_players <= num_players)


class _Reader:
    """Typed access to one TOML document; every failure names file, entry and field."""

    def __init__(self, path: str) -> None:
        self.path = path

    def fail(self, entry: str, field: str, message: str) -> NipponDataError:
        return NipponDataError(f"{self.path}: {entry}: field '{field}': {message}")

    def table(self, doc: Any, entry: str, key: str) -> dict[str, Any]:
        value = doc.get(key) if isinstance(doc, dict) else None
        if not isinstance(value, dict):
            raise self.fail(entry, key, f"expected a table, found {_shown(value)}")
        return value

    def tables(self, doc: dict[str, Any], key: str, count: int | None) -> list[dict[str, Any]]:
        value = doc.get(key)
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise self.fail(
                f"[[{key}]]", key, f"expected an array of tables, found {_shown(value)}"
            )
        if count is not None and len(value) != count:
            raise self.fail(f"[[{key}]]", key, f"expected {count} entries, found {len(value)}")
        return value

    def int_(self, t: dict[str, Any], entry: str, key: str, lo: int, hi: int) -> int:
        value = t.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(entry, key, f"expected an integer, found {_shown(value)}")
        if not lo <= value <= hi:
            raise self.fail(entry, key, f"expected {lo}..{hi}, found {value}")
        return value

    def ints(
        self, t: dict[str, Any], entry: str, key: str, lo: int, hi: int,
        length: int | None = None, min_len: int = 1, max_len: int = 64,
    ) -> tuple[int, ...]:  # fmt: skip
        value = t.get(key)
        if not isinstance(value, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        ):
            raise self.fail(entry, key, f"expected a list of integers, found {_shown(value)}")
        if length is not None and len(value) != length:
            raise self.fail(entry, key, f"expected {length} values, found {len(value)}")
        if not min_len <= len(value) <= max_len:
            raise self.fail(entry, key, f"expected {min_len}..{max_len} values, found {len(value)}")
        for v in value:
            if not lo <= v <= hi:
                raise self.fail(entry, key, f"expected values in {lo}..{hi}, found {v}")
        return tuple(value)

    def choice(self, t: dict[str, Any], entry: str, key: str, options: tuple[str, ...]) -> str:
        value = t.get(key)
        if value not in options:
            raise self.fail(
                entry, key, f"expected one of {', '.join(options)}, found {_shown(value)}"
            )
        return str(value)

    def source(self, t: dict[str, Any], entry: str) -> str:
        return self.choice(t, entry, "source", SOURCES)

    def by_players(
        self, t: dict[str, Any], entry: str, key: str, lo: int, hi: int
    ) -> tuple[int, int, int]:
        value = t.get(key)
        if not isinstance(value, dict) or sorted(value) != ["2", "3", "4"]:
            raise self.fail(
                entry, key, f"expected a table with keys 2, 3, 4, found {_shown(value)}"
            )
        out = tuple(self._int_at(value, entry, key, str(n), lo, hi) for n in PLAYER_COUNTS)
        return (out[0], out[1], out[2])

    def _int_at(self, t: dict[str, Any], entry: str, key: str, sub: str, lo: int, hi: int) -> int:
        value = t.get(sub)
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise self.fail(
                entry, f"{key}.{sub}", f"expected an integer {lo}..{hi}, found {_shown(value)}"
            )
        return value


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def default_data_path() -> Path:
    """The path of the components file that ships with the package."""
    root = resources.files("airships_env.games.nippon")
    return Path(str(root.joinpath("data").joinpath(DEFAULT_DATA_FILE)))


@lru_cache(maxsize=1)
def default_data() -> NipponData:
    """The default (reconstructed) components, loaded once."""
    path = default_data_path()
    return parse_data(path.read_bytes(), path="")


def load_data(path: str | Path | None = None) -> NipponData:
    """Load and validate a components file (TOML); ``None`` or ``""`` gives the default."""
    if path is None or str(path) == "":
        return default_data()
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise NipponDataError(f"{path}: cannot read the data file: {exc.strerror or exc}") from exc
    return parse_data(raw, path=str(path))


def parse_data(raw: bytes, path: str = "<data>") -> NipponData:
    """Validate the bytes of a components file; errors name ``path``, the entry and the field."""
    where = path or DEFAULT_DATA_FILE
    try:
        doc = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise NipponDataError(f"{where}: not a valid TOML file: {exc}") from exc
    r = _Reader(where)
    if doc.get("schema") != SCHEMA_VERSION:
        raise r.fail(
            "top level", "schema", f"expected {SCHEMA_VERSION}, found {_shown(doc.get('schema'))}"
        )
    name = doc.get("name")
    if not isinstance(name, str) or not name:
        raise r.fail("top level", "name", f"expected a non-empty string, found {_shown(name)}")

    costs = r.table(doc, "[costs]", "costs")
    e = "[costs]"
    r.source(costs, e)
    gift = r.table(costs, e, "reward_gift")
    gift_amounts = tuple(r._int_at(gift, e, "reward_gift", k, 0, 50) for k in GIFT_KINDS)

    spaces = r.tables(doc, "action_space", None)
    if not 1 <= len(spaces) <= 9:
        raise r.fail(
            "[[action_space]]", "action_space", f"expected 1..9 spaces, found {len(spaces)}"
        )
    action_spaces: list[tuple[int, ...]] = []
    seen: list[int] = []
    for i, sp in enumerate(spaces):
        entry = f"action_space {i + 1}"
        r.source(sp, entry)
        acts = sp.get("actions")
        if not isinstance(acts, list) or not 1 <= len(acts) <= 2:
            raise r.fail(entry, "actions", f"expected 1 or 2 action names, found {_shown(acts)}")
        kinds = []
        for a in acts:
            if a not in ACTION_KINDS:
                raise r.fail(
                    entry,
                    "actions",
                    f"expected names from {', '.join(ACTION_KINDS)}, found {_shown(a)}",
                )
            if ACTION_KINDS.index(a) in seen:
                raise r.fail(entry, "actions", f"action {a} is already on another space")
            kinds.append(ACTION_KINDS.index(a))
            seen.append(ACTION_KINDS.index(a))
        action_spaces.append(tuple(kinds))
    if len(seen) != len(ACTION_KINDS):
        missing = [k for i, k in enumerate(ACTION_KINDS) if i not in seen]
        raise r.fail(
            "[[action_space]]",
            "actions",
            f"every action needs a space; missing {', '.join(missing)}",
        )

    workers = r.table(doc, "[workers]", "workers")
    e = "[workers]"
    r.source(workers, e)
    colours = workers.get("colours")
    if (
        not isinstance(colours, list)
        or len(colours) != NUM_COLOURS
        or not all(isinstance(c, str) and c for c in colours)
        or len(set(colours)) != NUM_COLOURS
    ):
        raise r.fail(
            e, "colours", f"expected {NUM_COLOURS} distinct names, found {_shown(colours)}"
        )
    per_space = r.int_(workers, e, "per_space", 1, 6)
    rows = r.by_players(workers, e, "rows", 0, 12)

    track = r.table(doc, "[turn_track]", "turn_track")
    e = "[turn_track]"
    r.source(track, e)
    # at least 5: the golden spaces (the last three) must start after the first space, else
    # the marker never leaves it and the game never ends
    track_spaces = r.int_(track, e, "spaces", 5, 20)
    # E1: from the first golden space every player has exactly three more turns, one step each
    golden_from = r.int_(track, e, "golden_from", track_spaces - 3, track_spaces - 3) - 1
    scoring = r.ints(track, e, "scoring_spaces", 2, track_spaces, min_len=1, max_len=6)
    if list(scoring) != sorted(set(scoring)) or scoring[-1] != track_spaces:
        raise r.fail(
            e,
            "scoring_spaces",
            f"expected increasing spaces ending with {track_spaces}, found {list(scoring)}",
        )
    majority = track.get("majority_vp")
    if not isinstance(majority, list) or len(majority) != len(scoring):
        raise r.fail(
            e,
            "majority_vp",
            f"expected one VP list per scoring space ({len(scoring)}), found {_shown(majority)}",
        )
    majority_vp = tuple(
        r.ints({"majority_vp": m}, e, "majority_vp", 0, 100, min_len=1, max_len=4) for m in majority
    )
    ship_vp = r.ints(track, e, "ship_vp", 0, 50, min_len=1, max_len=4)

    board = r.table(doc, "[player_board]", "player_board")
    e = "[player_board]"
    r.source(board, e)
    money_track = r.ints(board, e, "money_track", 0, 200, min_len=2, max_len=40)
    coal_track = r.ints(board, e, "coal_track", 0, 50, min_len=2, max_len=40)
    knowledge_max = r.int_(board, e, "knowledge_max", 6, 30)
    trains = r.int_(board, e, "trains", 1, 8)
    ships = r.int_(board, e, "ships", 1, 8)

    goods = r.table(doc, "[goods]", "goods")
    e = "[goods]"
    r.source(goods, e)
    names = goods.get("names")
    if names != list(GOODS):
        raise r.fail(
            e, "names", f"expected {list(GOODS)} (the action table's order), found {_shown(names)}"
        )
    goods_levels = r.ints(goods, e, "levels", 1, 3, length=NUM_GOODS)
    level_knowledge = r.ints(goods, e, "knowledge", 0, knowledge_max, length=4)

    factories = []
    for i, f in enumerate(r.tables(doc, "factory", NUM_FACTORY_TILES)):
        entry = f"factory {i + 1}"
        good = r.choice(f, entry, "good", GOODS)
        factories.append(
            Factory(
                GOODS.index(good),
                r.int_(f, entry, "coal", 0, 6),
                r.choice(f, entry, "power", POWER_KINDS),
                r.int_(f, entry, "amount", 0, 10),
                r.source(f, entry),
            )
        )
    contracts = []
    for i, c in enumerate(r.tables(doc, "contract", NUM_CONTRACTS)):
        entry = f"contract {i + 1}"
        demands = r.ints(c, entry, "demands", 1, 4, min_len=1, max_len=3)
        if list(demands) != sorted(demands, reverse=True):
            raise r.fail(entry, "demands", f"expected largest first, found {list(demands)}")
        contracts.append(
            Contract(
                demands,
                r.int_(c, entry, "vp", 0, 50),
                r.choice(c, entry, "bonus", BONUS_KINDS),
                r.int_(c, entry, "amount", 0, 10),
                r.source(c, entry),
            )
        )
    influence = r.table(doc, "[influence]", "influence")
    e = "[influence]"
    r.source(influence, e)
    tiles = r.ints(influence, e, "tiles", 1, MAX_TILE_VALUE, length=10)
    table_raw = influence.get("table")
    if not isinstance(table_raw, list) or len(table_raw) != 3:
        raise r.fail(e, "table", f"expected 3 rows (levels 1..3), found {_shown(table_raw)}")
    table = tuple(
        r.ints({"table": row}, e, "table", 1, MAX_TILE_VALUE, length=3) for row in table_raw
    )

    cities = r.table(doc, "[board]", "board")
    e = "[board]"
    r.source(cities, e)
    neutral = r.ints(cities, e, "neutral", 0, 9, length=SPACES_PER_CITY)
    bonus_raw = cities.get("region_bonus")
    if (
        not isinstance(bonus_raw, list)
        or len(bonus_raw) != NUM_REGIONS
        or not all(isinstance(b, dict) for b in bonus_raw)
    ):
        raise r.fail(e, "region_bonus", f"expected {NUM_REGIONS} tables, found {_shown(bonus_raw)}")
    region_bonus = tuple(
        (
            r.choice(b, f"[board] region {i + 1}", "kind", BONUS_KINDS),
            r.int_(b, f"[board] region {i + 1}", "amount", 0, 10),
        )
        for i, b in enumerate(bonus_raw)
    )
    city_tiles = []
    for i, t in enumerate(r.tables(doc, "city_tile", NUM_CITIES)):
        entry = f"city_tile {i + 1}"
        r.source(t, entry)
        g = t.get("goods")
        if (
            not isinstance(g, list)
            or len(g) != SPACES_PER_CITY
            or any(x not in GOODS for x in g)
            or len(set(g)) != len(g)
        ):
            raise r.fail(
                entry, "goods", f"expected {SPACES_PER_CITY} distinct goods, found {_shown(g)}"
            )
        city_tiles.append(tuple(GOODS.index(x) for x in g))

    rewards = []
    for i, w in enumerate(r.tables(doc, "reward", None)):
        entry = f"reward {i + 1}"
        rewards.append(
            Reward(
                r.int_(w, entry, "level", 1, 4),
                r.int_(w, entry, "multiplier", 1, 9),
                r.choice(w, entry, "gift", GIFT_KINDS),
                r.int_(w, entry, "min_players", 2, 4),
                r.source(w, entry),
            )
        )
    if not rewards:
        raise r.fail("[[reward]]", "reward", "expected at least one reward tile")
    achievements = []
    for i, a in enumerate(r.tables(doc, "achievement", NUM_ACHIEVEMENTS)):
        entry = f"achievement {i + 1}"
        achievements.append(
            Achievement(
                r.choice(a, entry, "kind", ACHIEVEMENT_KINDS),
                r.int_(a, entry, "per", 1, 50),
                r.int_(a, entry, "printed", 0, 9),
                r.source(a, entry),
            )
        )

    data = NipponData(
        name=name,
        path=path,
        digest=hashlib.sha256(raw).hexdigest(),
        invest_cost=r.int_(costs, "[costs]", "invest", 0, 50),
        machine_cost=r.int_(costs, "[costs]", "machine", 0, 50),
        step_costs=_three(r.ints(costs, "[costs]", "steps", 0, 50, length=3)),
        piece_cost=r.int_(costs, "[costs]", "piece", 0, 50),
        colour_cost=r.int_(costs, "[costs]", "colour", 0, 50),
        unpaid_vp=r.int_(costs, "[costs]", "unpaid_vp", 0, 50),
        blueprints_per_bonus=r.int_(costs, "[costs]", "blueprints_per_bonus", 1, 10),
        max_units=r.int_(costs, "[costs]", "max_units", 1, 3),
        factory_capacity=r.int_(costs, "[costs]", "factory_capacity", 1, 12),
        gift_amounts=_three(gift_amounts),
        action_spaces=tuple(action_spaces),
        colours=tuple(colours),
        per_colour=r.int_(workers, "[workers]", "per_colour", 1, 40),
        per_space=per_space,
        rows=rows,
        track_spaces=track_spaces,
        golden_from=golden_from,
        scoring_spaces=tuple(s - 1 for s in scoring),
        majority_vp=majority_vp,
        ship_vp=ship_vp,
        ship_vp_no_place=r.int_(track, "[turn_track]", "ship_vp_no_place", 0, 50),
        train_influence=r.int_(track, "[turn_track]", "train_influence", 0, 10),
        start_money=r.int_(board, "[player_board]", "start_money", 0, len(money_track) - 1),
        start_coal=r.int_(board, "[player_board]", "start_coal", 0, len(coal_track) - 1),
        start_knowledge=r.int_(board, "[player_board]", "start_knowledge", 0, knowledge_max),
        start_blueprints=r.int_(board, "[player_board]", "start_blueprints", 0, 20),
        money_track=money_track,
        coal_track=coal_track,
        coal_stars=r.ints(board, "[player_board]", "coal_stars", 0, len(coal_track) - 1, min_len=0),
        knowledge_max=knowledge_max,
        knowledge_stars=r.ints(
            board, "[player_board]", "knowledge_stars", 0, knowledge_max, min_len=0
        ),
        trains=trains,
        ships=ships,
        train_stars=r.ints(board, "[player_board]", "train_stars", 0, 1, length=trains),
        ship_stars=r.ints(board, "[player_board]", "ship_stars", 0, 1, length=ships),
        worker_levels=r.ints(board, "[player_board]", "worker_levels", 0, 4, length=WORKER_SPACES),
        machinery_tiles=r.int_(board, "[player_board]", "machinery_tiles", 0, 100),
        goods_levels=goods_levels,
        level_knowledge=_four(level_knowledge),
        factories=tuple(factories),
        contracts=tuple(contracts),
        influence_tiles=tiles,
        influence_table=tuple(_three(t) for t in table),
        neutral=neutral,
        spaces_per_region=r.by_players(cities, "[board]", "spaces_per_region", 1, 12),
        region_bonus=region_bonus,
        city_tiles=tuple(city_tiles),
        rewards=tuple(rewards),
        achievements=tuple(achievements),
    )
    _check_whole(r, data)
    return data


def _three(values: tuple[int, ...]) -> tuple[int, int, int]:
    return (values[0], values[1], values[2])


def _four(values: tuple[int, ...]) -> tuple[int, int, int, int]:
    return (values[0], values[1], values[2], values[3])


def _check_whole(r: _Reader, d: NipponData) -> None:
    """Checks across entries: what the rules need for every stated rule to be able to happen."""
    for good in range(NUM_GOODS):
        if not any(f.good == good for f in d.factories):
            raise r.fail("[[factory]]", "good", f"no factory makes {GOODS[good]}")
    if d.per_colour * NUM_COLOURS < d.per_space * len(d.action_spaces):
        raise r.fail("[workers]", "per_colour", "too few workers to fill the action spaces once")
    if d.golden_from > d.track_spaces - 1:
        raise r.fail("[turn_track]", "golden_from", "the golden spaces must lie on the track")
    if any(len(v) < 1 for v in d.majority_vp):
        raise r.fail("[turn_track]", "majority_vp", "each phase needs at least one place")
    for k, level in enumerate(d.level_knowledge[1:], start=1):
        if level < d.level_knowledge[k - 1]:
            raise r.fail("[goods]", "knowledge", "knowledge needed must not fall with the level")
    for rw in d.rewards:
        first = next(x for x in d.rewards if x.level == rw.level)
        if rw.multiplier != first.multiplier:
            raise r.fail(
                "[[reward]]", "multiplier", f"level {rw.level} tiles must share one multiplier"
            )
    if sorted(set(d.achievements[i].kind for i in range(NUM_ACHIEVEMENTS))) != sorted(
        a.kind for a in d.achievements
    ):
        raise r.fail("[[achievement]]", "kind", "each kind may appear only once")
