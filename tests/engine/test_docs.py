"""The documents in docs/ against the code: they must never drift apart.

* docs/airships/CARDS.md: every table (expansions, airships, Hindenburg phases, entrepreneur) is parsed
  from its text and compared, value by value and in order, with the default card set the engine
  loads (``load_cards(None)``, i.e. ``airships_env/engine/data/cards_default.toml``).
* docs/airships/RULES.md: every rule id is defined once (at the start of a bullet or a heading), every id
  the text mentions is defined, the original ids are all there, and the "Rules options" table
  names every ``RulesOptions`` field with its default.
"""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from airships_env.engine import RulesOptions
from airships_env.engine.cards import BONUS_COLOURS, COLOURS, DEPARTMENTS, CardSet, load_cards

DOCS = Path(__file__).resolve().parents[2] / "docs" / "airships"
CARDS_MD = DOCS / "CARDS.md"
RULES_MD = DOCS / "RULES.md"

# ---------------------------------------------------------------------------------------------
# Markdown helpers
# ---------------------------------------------------------------------------------------------


def sections(path: Path) -> dict[str, list[str]]:
    """The lines of each '## ' section, by its heading text."""
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            current = found.setdefault(line[3:].strip(), [])
        elif current is not None:
            current.append(line)
    return found


def first_table(lines: list[str], where: str) -> list[dict[str, str]]:
    """The first Markdown table in ``lines`` as a list of {column: cell} rows."""
    table: list[str] = []
    for line in lines:
        if line.startswith("|"):
            table.append(line)
        elif table:
            break
    assert len(table) >= 2, f"{where}: no table found"

    def cells(row: str) -> list[str]:
        return [cell.strip() for cell in row.strip().strip("|").split("|")]

    header = cells(table[0])
    assert set(table[1].replace("|", "").replace(" ", "")) <= {"-", ":"}, f"{where}: bad separator"
    rows = []
    for row in table[2:]:
        values = cells(row)
        assert len(values) == len(header), f"{where}: row {row!r} has {len(values)} cells"
        rows.append(dict(zip(header, values, strict=True)))
    return rows


def section_table(name: str) -> list[dict[str, str]]:
    """The first table of the CARDS.md section whose heading starts with ``name``."""
    matches = [lines for heading, lines in sections(CARDS_MD).items() if heading.startswith(name)]
    assert len(matches) == 1, f"docs/airships/CARDS.md: expected one section '{name}...'"
    return first_table(matches[0], f"docs/airships/CARDS.md '{name}'")


# ---------------------------------------------------------------------------------------------
# Parsing the card notation of CARDS.md ("2 white + 1 red", "dice 1 red; 2 chip(s) on acquiring")
# ---------------------------------------------------------------------------------------------


def parse_dice(text: str) -> tuple[int, int, int]:
    """'2 white + 1 red' -> (2, 1, 0)."""
    counts = [0, 0, 0]
    for part in text.split("+"):
        match = re.fullmatch(r"\s*(\d+) (white|red|black)\s*", part)
        assert match, f"not a dice text: {text!r}"
        colour = COLOURS.index(match.group(2))
        assert counts[colour] == 0, f"colour named twice in {text!r}"
        counts[colour] = int(match.group(1))
    return (counts[0], counts[1], counts[2])


def parse_effect(text: str) -> dict[str, object]:
    """An effect cell as the Expansion fields it stands for."""
    effect: dict[str, object] = {
        "dice": (0, 0, 0),
        "chips": 0,
        "fixed_die": None,
        "engine_bonuses": [],
        "exchange": None,
    }
    bonuses: list[tuple[int, int]] = []
    for part in (p.strip() for p in text.split(";")):
        if match := re.fullmatch(r"dice (.+)", part):
            effect["dice"] = parse_dice(match.group(1))
        elif match := re.fullmatch(r"(\d+) chip\(s\) on acquiring", part):
            effect["chips"] = int(match.group(1))
        elif match := re.fullmatch(r"fixed (white|red|black) (\d+)", part):
            effect["fixed_die"] = (COLOURS.index(match.group(1)), int(match.group(2)))
        elif match := re.fullmatch(r"\+(\d+) (white|red|black|any)", part):
            bonuses.append((BONUS_COLOURS.index(match.group(2)), int(match.group(1))))
        elif match := re.fullmatch(r"exchange (.+) -> (.+)", part):
            effect["exchange"] = (parse_dice(match.group(1)), parse_dice(match.group(2)))
        else:
            raise AssertionError(f"unknown effect {part!r} in {text!r}")
    effect["engine_bonuses"] = bonuses
    return effect


def whole(text: str) -> int:
    assert re.fullmatch(r"\d+", text), f"not a whole number: {text!r}"
    return int(text)


@pytest.fixture(scope="module")
def card_set() -> CardSet:
    return load_cards(None)


# ---------------------------------------------------------------------------------------------
# docs/airships/CARDS.md
# ---------------------------------------------------------------------------------------------


def test_cards_md_expansion_table_equals_the_default_card_data(card_set: CardSet) -> None:
    rows = section_table("Expansion cards")
    assert [row["id"] for row in rows] == [e.id for e in card_set.expansions], (
        "the expansion rows must list the card file's expansions, in file order"
    )
    for row, card in zip(rows, card_set.expansions, strict=True):
        where = f"docs/airships/CARDS.md expansion {card.id}"
        era = 0 if row["era"] == "start" else whole(row["era"])
        assert era == card.era, where
        assert row["department"] == DEPARTMENTS[card.department], where
        assert parse_dice(row["cost"]) == card.cost, where
        assert whole(row["target"]) == card.target, where
        assert whole(row["stars"]) == card.stars, where
        assert row["source"] == card.source, where
        effect = parse_effect(row["effect"])
        assert effect["dice"] == card.dice, where
        assert effect["chips"] == card.chips, where
        fixed, exchange = card.fixed_die, card.exchange
        fixed_die = None if fixed is None else (fixed.colour, fixed.value)
        bonuses = [(bonus.colour, bonus.amount) for bonus in card.engine_bonuses]
        assert effect["fixed_die"] == fixed_die, where
        assert effect["engine_bonuses"] == bonuses, where
        trade = None if exchange is None else (exchange.give, exchange.get)
        assert effect["exchange"] == trade, where


def test_cards_md_airship_table_equals_the_default_card_data(card_set: CardSet) -> None:
    rows = section_table("Airship cards")
    assert [row["id"] for row in rows] == [a.id for a in card_set.airships]
    for row, card in zip(rows, card_set.airships, strict=True):
        where = f"docs/airships/CARDS.md airship {card.id}"
        assert whole(row["tier"]) == card.tier, where
        assert parse_dice(row["cost"]) == card.cost, where
        assert whole(row["target"]) == card.target, where
        assert whole(row["VP"]) == card.stars, where
        assert row["source"] == card.source, where


def test_cards_md_hindenburg_table_equals_the_default_card_data(card_set: CardSet) -> None:
    rows = section_table("Hindenburg phases")
    assert [row["id"] for row in rows] == [h.id for h in card_set.hindenburg]
    for row, phase in zip(rows, card_set.hindenburg, strict=True):
        where = f"docs/airships/CARDS.md {phase.id}"
        assert parse_dice(row["cost"]) == phase.cost, where
        assert whole(row["target"]) == phase.target, where
        assert whole(row["VP if unfinished"]) == phase.low, where
        assert whole(row["VP if all 4 done"]) == phase.high, where
        assert row["source"] == phase.source, where


def test_cards_md_entrepreneur_table_equals_the_default_card_data(card_set: CardSet) -> None:
    rows = section_table("Entrepreneur")
    sides = {row["side"]: parse_dice(row["dice"]) for row in rows}
    assert sides == {"I": card_set.entrepreneur_side_1, "II": card_set.entrepreneur_side_2}


def test_cards_md_parser_reads_every_kind_of_effect() -> None:
    """The parser itself: one cell of each kind, so a table check cannot pass vacuously."""
    assert parse_effect("dice 1 white + 1 red; 2 chip(s) on acquiring") == {
        "dice": (1, 1, 0),
        "chips": 2,
        "fixed_die": None,
        "engine_bonuses": [],
        "exchange": None,
    }
    assert parse_effect("fixed black 7")["fixed_die"] == (COLOURS.index("black"), 7)
    assert parse_effect("+2 any")["engine_bonuses"] == [(BONUS_COLOURS.index("any"), 2)]
    assert parse_effect("exchange 3 red -> 2 black")["exchange"] == ((0, 3, 0), (0, 0, 2))
    with pytest.raises(AssertionError):
        parse_effect("dice 1 purple")


# ---------------------------------------------------------------------------------------------
# docs/airships/RULES.md
# ---------------------------------------------------------------------------------------------

RULE_ID = r"[SPTHEVXCD]\d+[a-z]?"
# A rule is defined where its id starts a bullet ("- T3 ...", "- **T3** ...") or a heading.
DEFINITION = re.compile(rf"^\s*(?:[-*]|#+)\s+(?:\*\*)?({RULE_ID})(?:\*\*)?(?=\s|$)")
REFERENCE = re.compile(rf"(?<![\w-])({RULE_ID})(?![\w-])")
ORIGINAL_IDS = (
    [f"S{i}" for i in range(1, 7)]
    + ["P1"]
    + [f"T{i}" for i in range(1, 10)]
    + ["T2a", "H1", "H2", "H3", "E1", "E2", "E3", "V1", "V2", "X1", "X2", "X3"]
)


def rule_definitions() -> list[str]:
    lines = RULES_MD.read_text(encoding="utf-8").splitlines()
    return [m.group(1) for line in lines if (m := DEFINITION.match(line))]


def test_rules_md_every_rule_id_is_defined_once() -> None:
    ids = rule_definitions()
    duplicates = sorted({rule for rule in ids if ids.count(rule) > 1})
    assert not duplicates, f"docs/airships/RULES.md defines these ids more than once: {duplicates}"


def test_rules_md_keeps_the_original_ids_and_the_added_ones() -> None:
    ids = set(rule_definitions())
    missing = [rule for rule in ORIGINAL_IDS if rule not in ids]
    assert not missing, f"docs/airships/RULES.md lost rule ids: {missing}"
    added = ["D1", "P2", "T1a", "T8a", "H3a", "E4", "X4", "C1", "C2", "C3", "C4"]
    missing = [rule for rule in added if rule not in ids]
    assert not missing, f"docs/airships/RULES.md lost rule ids: {missing}"


def test_rules_md_every_mentioned_id_is_defined() -> None:
    defined = set(rule_definitions())
    text = RULES_MD.read_text(encoding="utf-8")
    undefined = sorted(set(REFERENCE.findall(text)) - defined)
    assert not undefined, f"docs/airships/RULES.md mentions ids it never defines: {undefined}"


def test_rules_md_names_every_rules_option_with_its_default() -> None:
    lines = sections(RULES_MD)["Rules options"]
    rows = first_table(lines, "docs/airships/RULES.md 'Rules options'")
    documented = {row["option"].strip("`"): row["default"].strip("`") for row in rows}
    defaults = RulesOptions()
    expected = {f.name: str(getattr(defaults, f.name)) for f in fields(RulesOptions)}
    assert documented == expected
