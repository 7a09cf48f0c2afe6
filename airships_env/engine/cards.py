"""Card data: frozen dataclasses, the TOML loader and its validation.

The card values are data, not code (docs/airships/RULES.md "Components"). The default set ships as
``data/cards_default.toml``; a user may load another file with the same schema. Every problem in
a file is reported as a :class:`CardDataError` naming the file, the entry (card id) and the field.

Dice counts are tuples ``(white, red, black)`` indexed by the colour constants below.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from airships_env.engine.errors import CardDataError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

WHITE, RED, BLACK = 0, 1, 2
ANY = 3  # the grey Engine symbol: a bonus for every attempt
COLOURS: tuple[str, ...] = ("white", "red", "black")
BONUS_COLOURS: tuple[str, ...] = (*COLOURS, "any")

FINANCIER, HANGAR, CAPTAIN, ENGINEER, ENGINE, MATERIALS = range(6)
DEPARTMENTS: tuple[str, ...] = ("financier", "hangar", "captain", "engineer", "engine", "materials")

STARTER_ERA = 0
SCHEMA_VERSION = 1
DEFAULT_CARD_FILE = "cards_default.toml"

# Counts fixed by the rules (docs/airships/RULES.md "Components", docs/airships/CARDS.md).
EXPANSIONS_PER_ERA = {0: 6, 1: 18, 2: 24}
EXPANSIONS_PER_DEPARTMENT = 8
AIRSHIPS_PER_TIER = 6
AIRSHIP_TIERS = (1, 2, 3)
HINDENBURG_PHASES = 4
MAX_COST_PER_COLOUR = 3  # at most 3 dice of a colour are rolled (T4)
# Limits of the card-file schema (docs/airships/CARDS.md): generous for any real card set, and what the
# native core's compact tables hold.
MAX_DICE_PER_COLOUR = 3  # dice of a colour on one card, an entrepreneur side, or an exchange
MAX_TARGET = 99  # a target number (the best possible roll stays far below)
MAX_POINTS = 99  # stars, Hindenburg values
MAX_FIXED_VALUE = 20  # an Engineer's fixed die
MAX_BONUS_AMOUNT = 9  # one Engine bonus
MAX_ENGINE_BONUSES = 4  # Engine bonuses on one card

DiceCounts = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class FixedDie:
    """An Engineer's fixed die: never rolled, counts as a die of its colour (docs/airships/RULES.md)."""

    colour: int
    value: int


@dataclass(frozen=True, slots=True)
class EngineBonus:
    """One Engine bonus: ``amount`` for attempts whose cost asks for ``colour`` (or any, if ANY)."""

    colour: int
    amount: int


@dataclass(frozen=True, slots=True)
class Exchange:
    """A Materials exchange: give these dice, receive those, for one attempt (T3)."""

    give: DiceCounts
    get: DiceCounts


@dataclass(frozen=True, slots=True)
class Expansion:
    """An expansion card (starter, Era 1 or Era 2)."""

    index: int
    id: str
    era: int
    department: int
    cost: DiceCounts
    target: int
    stars: int
    dice: DiceCounts
    chips: int
    fixed_die: FixedDie | None
    engine_bonuses: tuple[EngineBonus, ...]
    exchange: Exchange | None
    source: str


@dataclass(frozen=True, slots=True)
class Airship:
    """An airship card; ``tier`` 1 is the top of each stack, 3 the bottom (S2)."""

    index: int
    id: str
    tier: int
    cost: DiceCounts
    target: int
    stars: int
    source: str


@dataclass(frozen=True, slots=True)
class HindenburgPhase:
    """A construction phase of the Hindenburg with its low and high values (H2, E2)."""

    index: int
    id: str
    cost: DiceCounts
    target: int
    low: int
    high: int
    source: str


@dataclass(frozen=True, slots=True)
class CardSet:
    """A complete, validated card set."""

    name: str
    path: str
    digest: str  # sha256 of the file's bytes: logs and saved states name the exact card set
    entrepreneur_side_1: DiceCounts
    entrepreneur_side_2: DiceCounts
    expansions: tuple[Expansion, ...]
    airships: tuple[Airship, ...]
    hindenburg: tuple[HindenburgPhase, ...]
    expansion_index: Mapping[str, int] = field(repr=False, compare=False)
    airship_index: Mapping[str, int] = field(repr=False, compare=False)

    def expansions_of_era(self, era: int) -> list[int]:
        """Indices of the expansions of one era (0 = starters), in file order (a fresh list)."""
        return [e.index for e in self.expansions if e.era == era]

    def airships_of_tier(self, tier: int) -> list[int]:
        """Indices of the airships of one tier, in file order (a fresh list)."""
        return [a.index for a in self.airships if a.tier == tier]


def default_card_path() -> Path:
    """The path of the card file that ships with the package."""
    return Path(
        str(resources.files("airships_env.engine").joinpath("data").joinpath(DEFAULT_CARD_FILE))
    )


@lru_cache(maxsize=1)
def default_cards() -> CardSet:
    """The default card set (docs/airships/CARDS.md), loaded once."""
    return load_cards(default_card_path())


def load_cards(path: str | Path | None = None) -> CardSet:
    """Load and validate a card file (TOML); ``None`` gives the default set."""
    if path is None:
        return default_cards()
    path = Path(path)
    try:
        raw_bytes = path.read_bytes()
    except OSError as exc:
        raise CardDataError(f"{path}: cannot read the card file: {exc.strerror or exc}") from exc
    try:
        data = tomllib.loads(raw_bytes.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CardDataError(f"{path}: not a valid TOML file: {exc}") from exc
    return parse_cards(data, source=str(path), digest=hashlib.sha256(raw_bytes).hexdigest())


def parse_cards(data: Mapping[str, Any], source: str = "<cards>", digest: str = "") -> CardSet:
    """Validate a parsed card document and build the :class:`CardSet`.

    ``digest`` names the exact card set in logs and saved states; without one it is the sha256 of
    the document's canonical JSON, so equal documents get equal digests.
    """
    if not digest:
        canonical = json.dumps(data, sort_keys=True, default=str, separators=(",", ":"))
        digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    return _Parser(source).card_set(data, digest)


class _Parser:
    """Validates one document; every error names the file, the entry and the field."""

    _TOP_KEYS = frozenset(
        {"schema_version", "name", "entrepreneur", "expansion", "airship", "hindenburg"}
    )
    _EXPANSION_KEYS = frozenset(
        {
            "id",
            "era",
            "department",
            "cost",
            "target",
            "stars",
            "dice",
            "chips",
            "fixed_die",
            "engine_bonuses",
            "exchange",
            "source",
        }
    )
    _AIRSHIP_KEYS = frozenset({"id", "tier", "cost", "target", "stars", "source"})
    _HINDENBURG_KEYS = frozenset({"id", "cost", "target", "low", "high", "source"})
    # Which effect fields each department must have (True) or must not have (absent).
    _EFFECTS: Mapping[str, frozenset[str]] = {
        "financier": frozenset({"dice"}),
        "hangar": frozenset({"dice"}),
        "captain": frozenset({"dice", "chips"}),
        "engineer": frozenset({"fixed_die"}),
        "engine": frozenset({"engine_bonuses"}),
        "materials": frozenset({"exchange"}),
    }
    _EFFECT_KEYS = frozenset({"dice", "chips", "fixed_die", "engine_bonuses", "exchange"})

    def __init__(self, source: str):
        self.source = source

    def fail(self, entry: str, field_name: str, problem: str) -> CardDataError:
        return CardDataError(f"{self.source}: {entry}: field '{field_name}': {problem}")

    # -- scalar helpers -------------------------------------------------------------------
    def integer(
        self,
        table: Mapping[str, Any],
        key: str,
        entry: str,
        minimum: int,
        maximum: int | None = None,
        default: int | None = None,
    ) -> int:
        if key not in table:
            if default is not None:
                return default
            raise self.fail(entry, key, "missing")
        value = table[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(entry, key, f"must be a whole number, got {value!r}")
        if value < minimum:
            raise self.fail(entry, key, f"must be at least {minimum}, got {value}")
        if maximum is not None and value > maximum:
            raise self.fail(entry, key, f"must be at most {maximum}, got {value}")
        return value

    def text(
        self, table: Mapping[str, Any], key: str, entry: str, default: str | None = None
    ) -> str:
        if key not in table:
            if default is not None:
                return default
            raise self.fail(entry, key, "missing")
        value = table[key]
        if not isinstance(value, str) or not value.strip():
            raise self.fail(entry, key, f"must be a non-empty string, got {value!r}")
        return value

    def dice(self, value: Any, entry: str, key: str, maximum: int | None = None) -> DiceCounts:
        if not isinstance(value, Mapping):
            raise self.fail(entry, key, f"must be a table of colour = count, got {value!r}")
        counts = [0, 0, 0]
        for colour, count in value.items():
            if colour not in COLOURS:
                raise self.fail(
                    entry, key, f"unknown colour {colour!r} (expected one of {', '.join(COLOURS)})"
                )
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise self.fail(
                    entry, key, f"count of {colour} must be a whole number >= 0, got {count!r}"
                )
            if maximum is not None and count > maximum:
                raise self.fail(
                    entry,
                    key,
                    f"count of {colour} must be at most {maximum} (docs/airships/CARDS.md limits), got {count}",
                )
            counts[COLOURS.index(colour)] = count
        return (counts[0], counts[1], counts[2])

    def cost(self, table: Mapping[str, Any], entry: str) -> DiceCounts:
        if "cost" not in table:
            raise self.fail(entry, "cost", "missing")
        cost = self.dice(table["cost"], entry, "cost", MAX_COST_PER_COLOUR)
        if sum(cost) == 0:
            raise self.fail(entry, "cost", "asks for no dice")
        return cost

    def check_keys(self, table: Any, allowed: frozenset[str], entry: str) -> None:
        if not isinstance(table, Mapping):
            raise CardDataError(f"{self.source}: {entry}: must be a table, got {table!r}")
        for key in table:
            if key not in allowed:
                raise self.fail(
                    entry, key, f"unknown field (allowed: {', '.join(sorted(allowed))})"
                )

    @staticmethod
    def label(kind: str, index: int, table: Any) -> str:
        """'expansion 'id'' when the entry has a usable id, else 'expansion #n' (1-based)."""
        if isinstance(table, Mapping):
            card_id = table.get("id")
            if isinstance(card_id, str) and card_id.strip():
                return f"{kind} '{card_id}'"
        return f"{kind} #{index + 1}"

    def entries(self, data: Mapping[str, Any], key: str) -> list[Any]:
        value = data.get(key)
        if not isinstance(value, list):
            raise CardDataError(
                f"{self.source}: top level: field '{key}': missing or not an "
                f"array of tables ([[{key}]])"
            )
        return value

    # -- entries --------------------------------------------------------------------------
    def expansion(self, index: int, table: Any) -> Expansion:
        entry = self.label("expansion", index, table)
        self.check_keys(table, self._EXPANSION_KEYS, entry)
        card_id = self.text(table, "id", entry)
        entry = f"expansion '{card_id}'"
        era = self.integer(table, "era", entry, 0, 2)
        department_name = self.text(table, "department", entry)
        if department_name not in DEPARTMENTS:
            raise self.fail(
                entry,
                "department",
                f"unknown department {department_name!r} "
                f"(expected one of {', '.join(DEPARTMENTS)})",
            )
        required = self._EFFECTS[department_name]
        for key in self._EFFECT_KEYS:
            if key in required and key not in table:
                raise self.fail(entry, key, f"missing (a {department_name} card needs it)")
            if key not in required and key in table:
                raise self.fail(entry, key, f"not allowed on a {department_name} card")
        dice = (
            self.dice(table["dice"], entry, "dice", MAX_DICE_PER_COLOUR)
            if "dice" in table
            else (0, 0, 0)
        )
        if "dice" in table and sum(dice) == 0:
            raise self.fail(entry, "dice", "gives no dice")
        chips = self.integer(table, "chips", entry, 1, 3) if "chips" in table else 0
        fixed_die = None
        if "fixed_die" in table:
            spec = table["fixed_die"]
            self.check_keys(spec, frozenset({"colour", "value"}), f"{entry} fixed_die")
            colour = self.text(spec, "colour", entry)
            if colour not in COLOURS:
                raise self.fail(entry, "fixed_die.colour", f"unknown colour {colour!r}")
            fixed_die = FixedDie(
                COLOURS.index(colour), self.integer(spec, "value", entry, 1, MAX_FIXED_VALUE)
            )
        bonuses: list[EngineBonus] = []
        if "engine_bonuses" in table:
            specs = table["engine_bonuses"]
            if not isinstance(specs, list) or not specs:
                raise self.fail(entry, "engine_bonuses", "must be a non-empty array")
            if len(specs) > MAX_ENGINE_BONUSES:
                raise self.fail(
                    entry,
                    "engine_bonuses",
                    f"at most {MAX_ENGINE_BONUSES} bonuses on one card, got {len(specs)}",
                )
            for spec in specs:
                self.check_keys(spec, frozenset({"colour", "amount"}), f"{entry} engine_bonuses")
                colour = self.text(spec, "colour", entry)
                if colour not in BONUS_COLOURS:
                    raise self.fail(entry, "engine_bonuses.colour", f"unknown colour {colour!r}")
                bonuses.append(
                    EngineBonus(
                        BONUS_COLOURS.index(colour),
                        self.integer(spec, "amount", entry, 1, MAX_BONUS_AMOUNT),
                    )
                )
        exchange = None
        if "exchange" in table:
            spec = table["exchange"]
            self.check_keys(spec, frozenset({"give", "get"}), f"{entry} exchange")
            give = self.dice(spec.get("give", {}), entry, "exchange.give", MAX_DICE_PER_COLOUR)
            get = self.dice(spec.get("get", {}), entry, "exchange.get", MAX_DICE_PER_COLOUR)
            if sum(give) == 0:
                raise self.fail(entry, "exchange.give", "the exchange takes no dice")
            if sum(get) == 0:
                raise self.fail(entry, "exchange.get", "the exchange gives nothing")
            exchange = Exchange(give, get)
        if era == STARTER_ERA and dice != (1, 0, 0):
            raise self.fail(entry, "dice", "a starter must give exactly 1 white die (S5)")
        return Expansion(
            index=index,
            id=card_id,
            era=era,
            department=DEPARTMENTS.index(department_name),
            cost=self.cost(table, entry),
            target=self.integer(table, "target", entry, 0, MAX_TARGET),
            stars=self.integer(table, "stars", entry, 0, MAX_POINTS, default=0),
            dice=dice,
            chips=chips,
            fixed_die=fixed_die,
            engine_bonuses=tuple(bonuses),
            exchange=exchange,
            source=self.text(table, "source", entry, default="unspecified"),
        )

    def airship(self, index: int, table: Any) -> Airship:
        entry = self.label("airship", index, table)
        self.check_keys(table, self._AIRSHIP_KEYS, entry)
        card_id = self.text(table, "id", entry)
        entry = f"airship '{card_id}'"
        return Airship(
            index=index,
            id=card_id,
            tier=self.integer(table, "tier", entry, 1, 3),
            cost=self.cost(table, entry),
            target=self.integer(table, "target", entry, 0, MAX_TARGET),
            stars=self.integer(table, "stars", entry, 0, MAX_POINTS),
            source=self.text(table, "source", entry, default="unspecified"),
        )

    def phase(self, index: int, table: Any) -> HindenburgPhase:
        entry = self.label("hindenburg", index, table)
        self.check_keys(table, self._HINDENBURG_KEYS, entry)
        card_id = self.text(table, "id", entry)
        entry = f"hindenburg '{card_id}'"
        low = self.integer(table, "low", entry, 0, MAX_POINTS)
        high = self.integer(table, "high", entry, 0, MAX_POINTS)
        if high < low:
            raise self.fail(entry, "high", f"must be at least low ({low}), got {high}")
        return HindenburgPhase(
            index=index,
            id=card_id,
            cost=self.cost(table, entry),
            target=self.integer(table, "target", entry, 0, MAX_TARGET),
            low=low,
            high=high,
            source=self.text(table, "source", entry, default="unspecified"),
        )

    # -- the document ---------------------------------------------------------------------
    def card_set(self, data: Mapping[str, Any], digest: str) -> CardSet:
        top = "top level"
        self.check_keys(data, self._TOP_KEYS, top)
        version = self.integer(data, "schema_version", top, SCHEMA_VERSION, SCHEMA_VERSION)
        del version
        name = self.text(data, "name", top)
        entrepreneur = data.get("entrepreneur")
        self.check_keys(entrepreneur, frozenset({"side_1", "side_2"}), "entrepreneur")
        assert isinstance(entrepreneur, Mapping)
        sides = []
        for side in ("side_1", "side_2"):
            if side not in entrepreneur:
                raise self.fail("entrepreneur", side, "missing")
            sides.append(self.dice(entrepreneur[side], "entrepreneur", side, MAX_DICE_PER_COLOUR))

        expansions = tuple(
            self.expansion(i, t) for i, t in enumerate(self.entries(data, "expansion"))
        )
        airships = tuple(self.airship(i, t) for i, t in enumerate(self.entries(data, "airship")))
        phases = tuple(self.phase(i, t) for i, t in enumerate(self.entries(data, "hindenburg")))

        seen: dict[str, str] = {}
        for kind, cards in (
            ("expansion", expansions),
            ("airship", airships),
            ("hindenburg", phases),
        ):
            for card in cards:
                if card.id in seen:
                    raise self.fail(
                        f"{kind} '{card.id}'",
                        "id",
                        f"duplicate id (already used by "
                        f"{'an' if seen[card.id][0] in 'aeiou' else 'a'} {seen[card.id]} entry)",
                    )
                seen[card.id] = kind

        for era, expected in EXPANSIONS_PER_ERA.items():
            found = [e.id for e in expansions if e.era == era]
            if len(found) != expected:
                label = "starter" if era == STARTER_ERA else f"Era {era}"
                raise self.fail(
                    "expansions",
                    "era",
                    f"expected {expected} {label} cards, found {len(found)}: {', '.join(found)}",
                )
        for department, department_name in enumerate(DEPARTMENTS):
            found = [e.id for e in expansions if e.department == department]
            if len(found) != EXPANSIONS_PER_DEPARTMENT:
                raise self.fail(
                    "expansions",
                    "department",
                    f"expected {EXPANSIONS_PER_DEPARTMENT} {department_name} cards, "
                    f"found {len(found)}: {', '.join(found)}",
                )
        for tier in AIRSHIP_TIERS:
            found = [a.id for a in airships if a.tier == tier]
            if len(found) != AIRSHIPS_PER_TIER:
                raise self.fail(
                    "airships",
                    "tier",
                    f"expected {AIRSHIPS_PER_TIER} tier-{tier} "
                    f"airships, found {len(found)}: "
                    f"{', '.join(found)}",
                )
        if len(phases) != HINDENBURG_PHASES:
            raise self.fail(
                "hindenburg",
                "count",
                f"expected {HINDENBURG_PHASES} phases, found "
                f"{len(phases)}: "
                f"{', '.join(p.id for p in phases)}",
            )
        return CardSet(
            name=name,
            path=self.source,
            digest=digest,
            entrepreneur_side_1=sides[0],
            entrepreneur_side_2=sides[1],
            expansions=expansions,
            airships=airships,
            hindenburg=phases,
            expansion_index={e.id: e.index for e in expansions},
            airship_index={a.id: a.index for a in airships},
        )
