"""The map and the components: frozen dataclasses, the TOML loader and its validation.

Two files (docs/australia/DATA.md): ``map.toml`` (24 regions, the locations and the regions each
borders) and ``components.toml`` (cards by back and colour, tiles, rangers per player count, the
windmill and its two tracks). The defaults ship in ``airships_env/games/australia/data/``; a
user's files with the same schema may replace them. Every problem is an
:class:`AustraliaDataError` naming the file, the entry and the field.

Fixed by the rules and the action table (not data): the 6 colours and their order, the 4 backs,
24 regions, at most :data:`MAX_LOCATIONS` locations, tile values 4..9.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from airships_env.games.australia.engine.errors import AustraliaDataError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10 only
    import tomli as tomllib

SCHEMA_VERSION = 1
MAP_FILE = "map.toml"
COMPONENTS_FILE = "components.toml"

COLOURS: tuple[str, ...] = ("blue", "green", "orange", "grey", "red", "yellow")
NUM_COLOURS = len(COLOURS)
BLUE = 0
BACKS: tuple[str, ...] = ("4+0", "3+1", "2+2", "1+3")
NUM_BACKS = len(BACKS)
BACK_RANGERS: tuple[int, ...] = (4, 3, 2, 1)
BACK_DOLLARS: tuple[int, ...] = (0, 1, 2, 3)
NUM_CARD_TYPES = NUM_BACKS * NUM_COLOURS  # card type = back * 6 + colour
NUM_REGIONS = 24
NUM_LAND, NUM_WATER = 18, 6
MAX_LOCATIONS = 64
CAMP, SHIP = 0, 1
LOCATION_KINDS: tuple[str, ...] = ("camp", "ship")
PLAYER_COUNTS: tuple[int, ...] = (2, 3, 4, 5)
TILE_VALUES: tuple[int, ...] = (4, 5, 6, 7, 8, 9)
SOURCES = ("S", "P", "R")
MAX_CARDS_PER_TYPE = 20
MAX_RANGERS = 40
MAX_TRACK = 40


def card_type(back: int, colour: int) -> int:
    """The card type index of a back (0..3) and a colour (0..5)."""
    return back * NUM_COLOURS + colour


@dataclass(frozen=True, slots=True)
class Region:
    """One region: its colour, land or water, and where it is drawn."""

    id: str
    name: str
    territory: str
    water: bool
    colour: int
    x: int
    y: int
    source: str


@dataclass(frozen=True, slots=True)
class Location:
    """A camp or a ship and the regions it borders (region indices, ascending)."""

    id: str
    kind: int  # CAMP or SHIP
    regions: tuple[int, ...]
    source: str


@dataclass(frozen=True, slots=True)
class AustraliaData:
    """A validated map and components set."""

    map_path: str  # "" for the default file
    components_path: str
    digest: str  # sha256 over both files' bytes
    regions: tuple[Region, ...]
    locations: tuple[Location, ...]
    region_locations: tuple[tuple[int, ...], ...]  # per region, its locations ascending
    neighbours: tuple[tuple[int, ...], ...]  # per region, regions sharing a location (W1)
    cards: tuple[tuple[int, ...], ...]  # [back][colour] counts
    card_sources: tuple[str, ...]  # per back
    tiles: tuple[int, ...]  # count per value of TILE_VALUES
    windmill_tiles: tuple[bool, ...]  # per value: shows a windmill
    tile_sources: tuple[str, ...]
    rangers: Mapping[int, int]  # player count -> rangers each
    windmill_start: int
    windmill_max: int
    tile_areas: int
    ranger_areas: int
    sources: Mapping[str, str]  # "rangers", "windmill", "tracks" -> source

    @property
    def num_locations(self) -> int:
        """The number of locations on the map."""
        return len(self.locations)

    def tile_list(self) -> list[int]:
        """Every tile value in tile order (4, 4, 4, 5, ...): the list N2 shuffles."""
        return [v for v, count in zip(TILE_VALUES, self.tiles, strict=True) for _ in range(count)]

    def has_windmill(self, value: int) -> bool:
        """True when tiles of ``value`` show a windmill (W2)."""
        return self.windmill_tiles[TILE_VALUES.index(value)]


def default_data_dir() -> Path:
    """The folder of the data files that ship with the package."""
    return Path(__file__).resolve().parent.parent / "data"


@lru_cache(maxsize=1)
def default_data() -> AustraliaData:
    """The default map and components, loaded once."""
    folder = default_data_dir()
    loaded = _load(folder / MAP_FILE, folder / COMPONENTS_FILE)
    return _with_paths(loaded, "", "")


def load_data(
    directory: str | Path | None = None,
    *,
    map_path: str | Path | None = None,
    components_path: str | Path | None = None,
) -> AustraliaData:
    """Load and validate a map and a components file (TOML): from ``directory`` (both files,
    named ``map.toml`` and ``components.toml``) or each by path; a missing one is the default."""
    if directory is None and map_path is None and components_path is None:
        return default_data()
    if directory is not None:
        folder = Path(directory)
        if not folder.is_dir():
            raise AustraliaDataError(
                f"{folder}: not a folder holding {MAP_FILE}, {COMPONENTS_FILE}"
            )
        map_path = map_path if map_path is not None else folder / MAP_FILE
        components_path = (
            components_path if components_path is not None else folder / COMPONENTS_FILE
        )
    folder = default_data_dir()
    chosen_map = Path(map_path) if map_path else folder / MAP_FILE
    chosen_components = Path(components_path) if components_path else folder / COMPONENTS_FILE
    loaded = _load(chosen_map, chosen_components)
    return _with_paths(
        loaded, str(map_path) if map_path else "", str(components_path) if components_path else ""
    )


def _with_paths(data: AustraliaData, map_path: str, components_path: str) -> AustraliaData:
    fields = {name: getattr(data, name) for name in AustraliaData.__dataclass_fields__}
    fields["map_path"], fields["components_path"] = map_path, components_path
    return AustraliaData(**fields)


def _read(path: Path) -> tuple[dict[str, Any], bytes]:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise AustraliaDataError(
            f"{path}: cannot read the data file: {exc.strerror or exc}"
        ) from exc
    try:
        return tomllib.loads(raw.decode("utf-8")), raw
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise AustraliaDataError(f"{path}: not a valid TOML file: {exc}") from exc


def _load(map_path: Path, components_path: Path) -> AustraliaData:
    map_doc, map_raw = _read(map_path)
    comp_doc, comp_raw = _read(components_path)
    digest = hashlib.sha256(map_raw + b"\0" + comp_raw).hexdigest()
    return parse_data(map_doc, comp_doc, str(map_path), str(components_path), digest)


Fail = Callable[[str, str, str], AustraliaDataError]


def _failer(source: str) -> Fail:
    def fail(entry: str, field: str, message: str) -> AustraliaDataError:
        return AustraliaDataError(f"{source}: entry {entry}, field '{field}': {message}")

    return fail


def _check_keys(raw: Any, entry: str, allowed: set[str], fail: Fail) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise fail(entry, "(entry)", f"expected a table, found {raw!r}")
    for key in raw:
        if key not in allowed:
            raise fail(entry, str(key), f"unknown field; expected one of {sorted(allowed)}")
    return raw


def _int(raw: Mapping[str, Any], entry: str, field: str, low: int, high: int, fail: Fail) -> int:
    value = raw.get(field)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise fail(entry, field, f"expected an integer {low}..{high}, found {value!r}")
    return value


def _text(raw: Mapping[str, Any], entry: str, field: str, fail: Fail) -> str:
    value = raw.get(field)
    if not isinstance(value, str) or not value:
        raise fail(entry, field, f"expected a non-empty string, found {value!r}")
    return value


def _source(raw: Mapping[str, Any], entry: str, fail: Fail, field: str = "source") -> str:
    value = raw.get(field)
    if value not in SOURCES:
        raise fail(entry, field, f"expected one of {list(SOURCES)} (seed, public, reconstructed), "
                   f"found {value!r}")  # fmt: skip
    return str(value)


def _header(doc: Any, expected: set[str], fail: Fail) -> None:
    if not isinstance(doc, Mapping):
        raise fail("(top level)", "(document)", "expected a table")
    for key in doc:
        if key not in expected:
            raise fail("(top level)", str(key), f"unknown key; expected one of {sorted(expected)}")
    if doc.get("schema_version") != SCHEMA_VERSION:
        raise fail("(top level)", "schema_version",
                   f"expected {SCHEMA_VERSION}, found {doc.get('schema_version')!r}")  # fmt: skip
    _text(doc, "(top level)", "name", fail)


def parse_data(
    map_doc: Mapping[str, Any],
    components_doc: Mapping[str, Any],
    map_source: str = "<map>",
    components_source: str = "<components>",
    digest: str = "",
) -> AustraliaData:
    """Validate two parsed documents and build the :class:`AustraliaData`."""
    regions, locations = _parse_map(map_doc, _failer(map_source))
    fail = _failer(components_source)
    _header(components_doc, {"schema_version", "name", "card", "tile", "rangers", "windmill",
                             "tracks"}, fail)  # fmt: skip
    cards, card_sources = _parse_cards(components_doc.get("card"), fail)
    tiles, windmill_tiles, tile_sources = _parse_tiles(components_doc.get("tile"), fail)
    sources: dict[str, str] = {}
    raw = _check_keys(components_doc.get("rangers"), "[rangers]",
                      {"p2", "p3", "p4", "p5", "source"}, fail)  # fmt: skip
    rangers = {n: _int(raw, "[rangers]", f"p{n}", 1, MAX_RANGERS, fail) for n in PLAYER_COUNTS}
    sources["rangers"] = _source(raw, "[rangers]", fail)
    raw = _check_keys(components_doc.get("windmill"), "[windmill]",
                      {"start_value", "max_value", "source"}, fail)  # fmt: skip
    start = _int(raw, "[windmill]", "start_value", 0, 100, fail)
    top = _int(raw, "[windmill]", "max_value", start, 100, fail)
    sources["windmill"] = _source(raw, "[windmill]", fail)
    raw = _check_keys(components_doc.get("tracks"), "[tracks]",
                      {"tile_areas", "ranger_areas", "source"}, fail)  # fmt: skip
    tile_areas = _int(raw, "[tracks]", "tile_areas", 1, MAX_TRACK, fail)
    ranger_areas = _int(raw, "[tracks]", "ranger_areas", 1, MAX_TRACK, fail)
    sources["tracks"] = _source(raw, "[tracks]", fail)
    region_locations = tuple(
        tuple(i for i, loc in enumerate(locations) if r in loc.regions) for r in range(NUM_REGIONS)
    )
    map_fail = _failer(map_source)
    for r, locs in enumerate(region_locations):
        if not locs:
            raise map_fail(f"region {regions[r].id!r}", "(locations)",
                           "no location borders this region: no ranger could go there")  # fmt: skip
    for region in regions:
        if sum(cards[b][region.colour] for b in range(NUM_BACKS)) == 0:
            raise fail("[[card]]", f"counts.{COLOURS[region.colour]}",
                       f"no card of colour {COLOURS[region.colour]}, the colour of region "
                       f"{region.id!r} in {map_source}")  # fmt: skip
    neighbours = tuple(
        tuple(sorted({s for loc in region_locations[r] for s in locations[loc].regions} - {r}))
        for r in range(NUM_REGIONS)
    )
    return AustraliaData(
        map_path=map_source,
        components_path=components_source,
        digest=digest,
        regions=regions,
        locations=locations,
        region_locations=region_locations,
        neighbours=neighbours,
        cards=cards,
        card_sources=card_sources,
        tiles=tiles,
        windmill_tiles=windmill_tiles,
        tile_sources=tile_sources,
        rangers=rangers,
        windmill_start=start,
        windmill_max=top,
        tile_areas=tile_areas,
        ranger_areas=ranger_areas,
        sources=sources,
    )


def _parse_map(doc: Any, fail: Fail) -> tuple[tuple[Region, ...], tuple[Location, ...]]:
    _header(doc, {"schema_version", "name", "region", "location"}, fail)
    raw_regions = doc.get("region")
    if not isinstance(raw_regions, list) or len(raw_regions) != NUM_REGIONS:
        found = len(raw_regions) if isinstance(raw_regions, list) else type(raw_regions).__name__
        raise fail("[[region]]", "(list)", f"expected {NUM_REGIONS} [[region]] entries, "
                   f"found {found}")  # fmt: skip
    regions: list[Region] = []
    index: dict[str, int] = {}
    allowed = {"id", "name", "territory", "kind", "colour", "x", "y", "source"}
    for position, raw in enumerate(raw_regions):
        entry = f"region #{position + 1}"
        raw = _check_keys(raw, entry, allowed, fail)
        region_id = _text(raw, entry, "id", fail)
        entry = f"region {region_id!r}"
        if region_id in index:
            raise fail(entry, "id", "duplicate region id")
        kind = raw.get("kind")
        if kind not in ("land", "water"):
            raise fail(entry, "kind", f"expected 'land' or 'water', found {kind!r}")
        colour = raw.get("colour")
        if colour not in COLOURS:
            raise fail(entry, "colour", f"expected one of {list(COLOURS)}, found {colour!r}")
        if kind == "water" and colour != "blue":
            raise fail(entry, "colour", f"a water region is blue, found {colour!r}")
        index[region_id] = position
        regions.append(
            Region(
                id=region_id,
                name=_text(raw, entry, "name", fail),
                territory=_text(raw, entry, "territory", fail),
                water=kind == "water",
                colour=COLOURS.index(colour),
                x=_int(raw, entry, "x", 0, 40, fail),
                y=_int(raw, entry, "y", 0, 40, fail),
                source=_source(raw, entry, fail),
            )
        )
    water = sum(r.water for r in regions)
    if water != NUM_WATER:
        raise fail("[[region]]", "kind", f"expected {NUM_LAND} land and {NUM_WATER} water "
                   f"regions, found {NUM_REGIONS - water} and {water}")  # fmt: skip
    raw_locations = doc.get("location")
    if not isinstance(raw_locations, list) or not 1 <= len(raw_locations) <= MAX_LOCATIONS:
        found = len(raw_locations) if isinstance(raw_locations, list) else repr(raw_locations)
        raise fail("[[location]]", "(list)", f"expected 1..{MAX_LOCATIONS} [[location]] "
                   f"entries, found {found}")  # fmt: skip
    locations: list[Location] = []
    seen: set[str] = set()
    for position, raw in enumerate(raw_locations):
        entry = f"location #{position + 1}"
        raw = _check_keys(raw, entry, {"id", "kind", "regions", "source"}, fail)
        location_id = _text(raw, entry, "id", fail)
        entry = f"location {location_id!r}"
        if location_id in seen:
            raise fail(entry, "id", "duplicate location id")
        seen.add(location_id)
        kind = raw.get("kind")
        if kind not in LOCATION_KINDS:
            raise fail(entry, "kind", f"expected 'camp' or 'ship', found {kind!r}")
        names = raw.get("regions")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise fail(entry, "regions", f"expected a list of region ids, found {names!r}")
        for name in names:
            if name not in index:
                raise fail(entry, "regions", f"unknown region {name!r}")
        members = sorted(index[n] for n in names)
        if len(set(members)) != len(members):
            raise fail(entry, "regions", f"a region is listed twice: {names!r}")
        if kind == "camp":
            if not 2 <= len(members) <= 4:
                raise fail(entry, "regions", f"a camp borders 2-4 regions, found {len(members)}")
            if any(regions[r].water for r in members):
                raise fail(entry, "regions", "a camp borders land regions only")
        else:
            if len(members) != 2 or not all(regions[r].water for r in members):
                raise fail(entry, "regions", f"a ship lies between exactly 2 water regions, "
                           f"found {names!r}")  # fmt: skip
        locations.append(
            Location(
                location_id, LOCATION_KINDS.index(kind), tuple(members), _source(raw, entry, fail)
            )
        )
    return tuple(regions), tuple(locations)


def _parse_cards(raw_cards: Any, fail: Fail) -> tuple[tuple[tuple[int, ...], ...], tuple[str, ...]]:
    if not isinstance(raw_cards, list) or len(raw_cards) != NUM_BACKS:
        found = len(raw_cards) if isinstance(raw_cards, list) else type(raw_cards).__name__
        raise fail("[[card]]", "(list)", f"expected {NUM_BACKS} [[card]] entries (one per back "
                   f"{', '.join(BACKS)}), found {found}")  # fmt: skip
    cards: list[tuple[int, ...]] = []
    sources: list[str] = []
    for position, raw in enumerate(raw_cards):
        entry = f"card #{position + 1}"
        raw = _check_keys(raw, entry, {"back", "counts", "source"}, fail)
        if raw.get("back") != BACKS[position]:
            raise fail(entry, "back", f"expected {BACKS[position]!r} (the backs are fixed, in "
                       f"order {', '.join(BACKS)}), found {raw.get('back')!r}")  # fmt: skip
        entry = f"card {BACKS[position]!r}"
        counts = _check_keys(raw.get("counts"), entry, set(COLOURS), fail)
        cards.append(tuple(_int(counts, entry, c, 0, MAX_CARDS_PER_TYPE, fail) for c in COLOURS))
        if sum(cards[-1]) < 3:
            raise fail(entry, "counts", "a stack needs at least 3 cards")
        sources.append(_source(raw, entry, fail))
    return tuple(cards), tuple(sources)


def _parse_tiles(
    raw_tiles: Any, fail: Fail
) -> tuple[tuple[int, ...], tuple[bool, ...], tuple[str, ...]]:
    if not isinstance(raw_tiles, list) or len(raw_tiles) != len(TILE_VALUES):
        found = len(raw_tiles) if isinstance(raw_tiles, list) else type(raw_tiles).__name__
        raise fail("[[tile]]", "(list)", f"expected {len(TILE_VALUES)} [[tile]] entries (values "
                   f"{TILE_VALUES}), found {found}")  # fmt: skip
    counts: list[int] = []
    windmill: list[bool] = []
    sources: list[str] = []
    for position, raw in enumerate(raw_tiles):
        entry = f"tile #{position + 1}"
        raw = _check_keys(raw, entry, {"value", "count", "windmill", "source"}, fail)
        if raw.get("value") != TILE_VALUES[position]:
            raise fail(entry, "value", f"expected {TILE_VALUES[position]} (values in order "
                       f"{TILE_VALUES}), found {raw.get('value')!r}")  # fmt: skip
        entry = f"tile {TILE_VALUES[position]}"
        counts.append(_int(raw, entry, "count", 0, NUM_REGIONS, fail))
        flag = raw.get("windmill")
        if not isinstance(flag, bool):
            raise fail(entry, "windmill", f"expected true or false, found {flag!r}")
        windmill.append(flag)
        sources.append(_source(raw, entry, fail))
    if sum(counts) != NUM_REGIONS:
        raise fail("[[tile]]", "count", f"one tile per region: expected {NUM_REGIONS} tiles in "
                   f"all, found {sum(counts)}")  # fmt: skip
    return tuple(counts), tuple(windmill), tuple(sources)
