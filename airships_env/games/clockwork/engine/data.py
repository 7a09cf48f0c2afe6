"""Components and track: frozen dataclasses, the TOML loader and its validation.

The card counts and the track's shape are data (docs/clockwork/RULES.md "Components", S1). The
default ships as ``data/clockwork_default.toml``; another file with the same schema may be loaded.
Every problem is a :class:`ClockworkDataError` naming the file, the entry and the field.

The 14 card types and their order are fixed by the rules and the action table
(:data:`TYPE_IDS`); the file gives their counts per player count and the track.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from airships_env.games.clockwork.engine.errors import ClockworkDataError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10 only
    import tomli as tomllib

SCHEMA_VERSION = 1
DEFAULT_DATA_FILE = "clockwork_default.toml"

TYPE_IDS: tuple[str, ...] = (
    "FM1", "FM2", "FM3", "FM4", "FM5", "FM6",
    "CB1", "CB2", "CB3", "CB4",
    "AS", "FUEL", "POWER", "SCRAP",
)  # fmt: skip
NUM_TYPES = len(TYPE_IDS)
FM_TYPES: tuple[int, ...] = (0, 1, 2, 3, 4, 5)
CB_TYPES: tuple[int, ...] = (6, 7, 8, 9)
AS, FUEL, POWER, SCRAP = 10, 11, 12, 13
KINDS: tuple[str, ...] = (
    *(["flying_machine"] * 6),
    *(["code_breaker"] * 4),
    "airship", "fuel", "power", "scrap",
)  # fmt: skip
PLAYER_COUNTS: tuple[int, ...] = (2, 3, 4)
NUM_SCRAPYARDS = 6
NUM_PLACES = 58  # face-down discard places on the board: the most cards a game can hold
MACHINE_PARTS = 4  # a Flying Machine or a Code Breaker has 4 parts
MAX_TYPE_COUNT = 8
MIN_TRACK, MAX_TRACK = 26, 200  # > 24: a move of at most 12 never meets itself both ways
HAND_LIMIT = 7
MAX_DECK = NUM_TYPES * MAX_TYPE_COUNT


@dataclass(frozen=True, slots=True)
class Track:
    """The ring of fields: its length, the Towers' field and the six Scrapyards' fields."""

    length: int
    towers: int
    scrapyards: tuple[int, ...]  # field of Scrapyard 1..6
    source: str

    def is_white(self, field: int) -> bool:
        """True for the Towers and the Scrapyards' white fields."""
        return field == self.towers or field in self.scrapyards

    def scrapyard_at(self, field: int) -> int:
        """The Scrapyard index 0..5 on ``field``, or -1."""
        return self.scrapyards.index(field) if field in self.scrapyards else -1


@dataclass(frozen=True, slots=True)
class ClockworkData:
    """A validated components-and-track set."""

    name: str
    path: str  # "" for the default file
    digest: str  # sha256 of the file's bytes
    counts: Mapping[int, tuple[int, ...]]  # player count -> 14 counts by type
    sources: tuple[str, ...]  # per type
    track: Track

    def deck_size(self, num_players: int) -> int:
        """The number of cards in play for ``num_players`` (34 / 46 / 58 by default)."""
        return sum(self.counts[num_players])


def default_data_path() -> Path:
    """The path of the data file that ships with the package."""
    root = resources.files("airships_env.games.clockwork.engine")
    return Path(str(root.joinpath("data").joinpath(DEFAULT_DATA_FILE)))


@lru_cache(maxsize=1)
def default_data() -> ClockworkData:
    """The default components and track, loaded once."""
    data = _load(default_data_path())
    return ClockworkData(data.name, "", data.digest, data.counts, data.sources, data.track)


def load_data(path: str | Path | None = None) -> ClockworkData:
    """Load and validate a components/track file (TOML); ``None`` gives the default."""
    if path is None or str(path) == "":
        return default_data()
    return _load(Path(path))


def _load(path: Path) -> ClockworkData:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ClockworkDataError(
            f"{path}: cannot read the data file: {exc.strerror or exc}"
        ) from exc
    try:
        doc = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ClockworkDataError(f"{path}: not a valid TOML file: {exc}") from exc
    return parse_data(doc, source=str(path), digest=hashlib.sha256(raw).hexdigest())


def parse_data(doc: Mapping[str, Any], source: str = "<data>", digest: str = "") -> ClockworkData:
    """Validate a parsed document and build the :class:`ClockworkData`."""
    if not digest:
        canonical = json.dumps(doc, sort_keys=True, default=str, separators=(",", ":"))
        digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()

    def fail(entry: str, field: str, message: str) -> ClockworkDataError:
        return ClockworkDataError(f"{source}: entry {entry}, field '{field}': {message}")

    if not isinstance(doc, Mapping):
        raise fail("(top level)", "(document)", "expected a table")
    allowed_top = {"schema_version", "name", "card", "track"}
    for key in doc:
        if key not in allowed_top:
            raise fail(
                "(top level)", str(key), f"unknown key; expected one of {sorted(allowed_top)}"
            )
    if doc.get("schema_version") != SCHEMA_VERSION:
        raise fail(
            "(top level)",
            "schema_version",
            f"expected {SCHEMA_VERSION}, found {doc.get('schema_version')!r}",
        )
    name = doc.get("name")
    if not isinstance(name, str) or not name:
        raise fail("(top level)", "name", f"expected a non-empty string, found {name!r}")
    cards = doc.get("card")
    if not isinstance(cards, list) or len(cards) != NUM_TYPES:
        found = len(cards) if isinstance(cards, list) else type(cards).__name__
        raise fail("[[card]]", "(list)", f"expected {NUM_TYPES} [[card]] entries, found {found}")
    per_count: dict[int, list[int]] = {n: [] for n in PLAYER_COUNTS}
    sources: list[str] = []
    for position, card in enumerate(cards):
        entry = f"card #{position + 1}"
        if not isinstance(card, Mapping):
            raise fail(entry, "(entry)", "expected a table")
        for key in card:
            if key not in {"id", "kind", "count", "source"}:
                raise fail(entry, str(key), "unknown field; expected id, kind, count, source")
        card_id = card.get("id")
        if card_id != TYPE_IDS[position]:
            raise fail(
                entry,
                "id",
                f"expected {TYPE_IDS[position]!r} (the types are fixed, in "
                f"order {', '.join(TYPE_IDS)}), found {card_id!r}",
            )
        entry = f"card {card_id!r}"
        if card.get("kind") != KINDS[position]:
            raise fail(entry, "kind", f"expected {KINDS[position]!r}, found {card.get('kind')!r}")
        count = card.get("count")
        if not isinstance(count, Mapping):
            raise fail(
                entry, "count", f"expected a table {{p2 = .., p3 = .., p4 = ..}}, found {count!r}"
            )
        for key in count:
            if key not in {"p2", "p3", "p4"}:
                raise fail(entry, f"count.{key}", "unknown key; expected p2, p3, p4")
        for players in PLAYER_COUNTS:
            value = count.get(f"p{players}")
            if not isinstance(value, int) or isinstance(value, bool):
                raise fail(entry, f"count.p{players}", f"expected an integer, found {value!r}")
            if not 0 <= value <= MAX_TYPE_COUNT:
                raise fail(
                    entry, f"count.p{players}", f"expected 0..{MAX_TYPE_COUNT}, found {value}"
                )
            if position < 10 and value not in (0, MACHINE_PARTS):
                raise fail(
                    entry,
                    f"count.p{players}",
                    f"a machine is in play complete or not at "
                    f"all: expected 0 or {MACHINE_PARTS}, found {value}",
                )
            per_count[players].append(value)
        card_source = card.get("source")
        if not isinstance(card_source, str) or not card_source:
            raise fail(entry, "source", f"expected a non-empty string, found {card_source!r}")
        sources.append(card_source)
    for players in PLAYER_COUNTS:
        total = sum(per_count[players])
        needed = HAND_LIMIT * players + NUM_SCRAPYARDS
        if total < needed:
            raise fail(
                "[[card]]",
                f"count.p{players}",
                f"{total} cards cannot deal 7 to each of "
                f"{players} players and one to each Scrapyard (at least {needed})",
            )
        if total > NUM_PLACES:
            raise fail(
                "[[card]]",
                f"count.p{players}",
                f"{total} cards: every card must fit face down on the board's "
                f"{NUM_PLACES} discard places (at most {NUM_PLACES})",
            )
    track = _parse_track(doc.get("track"), fail)
    counts = {n: tuple(per_count[n]) for n in PLAYER_COUNTS}
    return ClockworkData(name, source, digest, counts, tuple(sources), track)


def _parse_track(raw: Any, fail: Any) -> Track:
    entry = "[track]"
    if not isinstance(raw, Mapping):
        raise fail(entry, "(table)", f"expected a [track] table, found {raw!r}")
    for key in raw:
        if key not in {"length", "towers", "scrapyards", "source"}:
            raise fail(
                entry, str(key), "unknown field; expected length, towers, scrapyards, source"
            )
    length = raw.get("length")
    if (
        not isinstance(length, int)
        or isinstance(length, bool)
        or not MIN_TRACK <= length <= MAX_TRACK
    ):
        raise fail(
            entry, "length", f"expected an integer {MIN_TRACK}..{MAX_TRACK}, found {length!r}"
        )
    towers = raw.get("towers")
    if not isinstance(towers, int) or isinstance(towers, bool) or not 0 <= towers < length:
        raise fail(entry, "towers", f"expected a field 0..{length - 1}, found {towers!r}")
    yards = raw.get("scrapyards")
    if not isinstance(yards, list) or len(yards) != NUM_SCRAPYARDS:
        raise fail(
            entry, "scrapyards", f"expected a list of {NUM_SCRAPYARDS} fields, found {yards!r}"
        )
    for k, field in enumerate(yards):
        if not isinstance(field, int) or isinstance(field, bool) or not 0 <= field < length:
            raise fail(
                entry, f"scrapyards[{k}]", f"expected a field 0..{length - 1}, found {field!r}"
            )
    if len({towers, *yards}) != NUM_SCRAPYARDS + 1:
        raise fail(
            entry, "scrapyards", "the Towers and the six Scrapyards need seven distinct fields"
        )
    source = raw.get("source")
    if not isinstance(source, str) or not source:
        raise fail(entry, "source", f"expected a non-empty string, found {source!r}")
    return Track(length, towers, tuple(yards), source)
