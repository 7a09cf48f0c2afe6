"""Card data: the default file loads with the counts the rules fix; bad files fail clearly.

Bad files are the default TOML text with one edit, written to ``tmp_path``: the error must name
the file, the card (id) and the field.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from airships_env.engine import CardDataError, default_cards, load_cards, new_game
from airships_env.engine.cards import DEPARTMENTS, default_card_path
from airships_env.engine.text import effect_text

from .helpers import DEFAULT_TOML, edit_card, write_cards

EXTRA_STARTER = """
[[expansion]]
id = "financier-S3"
era = 0
department = "financier"
cost = { white = 2 }
target = 4
dice = { white = 1 }
"""

EXTRA_AIRSHIP = """
[[airship]]
id = "airship-L7"
tier = 1
cost = { white = 2 }
target = 6
stars = 1
"""


def test_default_cards_load_with_the_counts_of_the_rules() -> None:
    cards = default_cards()
    assert load_cards(None) is cards
    assert len(cards.expansions) == 48
    assert Counter(e.era for e in cards.expansions) == {0: 6, 1: 18, 2: 24}
    assert Counter(e.department for e in cards.expansions) == {d: 8 for d in range(6)}
    assert len(cards.airships) == 18
    assert Counter(a.tier for a in cards.airships) == {1: 6, 2: 6, 3: 6}
    assert len(cards.hindenburg) == 4
    ids = [c.id for c in (*cards.expansions, *cards.airships, *cards.hindenburg)]
    assert len(set(ids)) == len(ids)
    assert cards.entrepreneur_side_1 == (1, 0, 0) and cards.entrepreneur_side_2 == (1, 1, 0)
    for starter in cards.expansions[:6]:
        assert starter.era == 0 and starter.dice == (1, 0, 0)  # S5: 2 white dice each
    for index, card in enumerate(cards.expansions):
        assert card.index == index and cards.expansion_index[card.id] == index
        assert sum(card.cost) >= 1 and max(card.cost) <= 3
    for phase in cards.hindenburg:
        assert phase.low <= phase.high


def test_default_card_effects_match_their_departments() -> None:
    for card in default_cards().expansions:
        department = DEPARTMENTS[card.department]
        assert (sum(card.dice) > 0) == (department in ("financier", "hangar", "captain"))
        assert (card.chips > 0) == (department == "captain")
        assert (card.fixed_die is not None) == (department == "engineer")
        assert bool(card.engine_bonuses) == (department == "engine")
        assert (card.exchange is not None) == (department == "materials")
        assert effect_text(card)


def test_a_copy_of_the_default_file_loads_equal(tmp_path: Path) -> None:
    cards = load_cards(write_cards(tmp_path, DEFAULT_TOML))
    default = default_cards()
    assert cards.path != default.path and cards.name == default.name
    assert (cards.expansions, cards.airships, cards.hindenburg) == (
        default.expansions,
        default.airships,
        default.hindenburg,
    )
    assert cards.digest == default_cards().digest
    assert new_game(2, seed=3, cards=str(tmp_path / "cards.toml")).cards.digest == cards.digest


def _error(tmp_path: Path, text: str) -> str:
    path = write_cards(tmp_path, text)
    with pytest.raises(CardDataError) as info:
        load_cards(path)
    message = str(info.value)
    assert str(path) in message
    return message


def _edited(card_id: str, field: str, value: str | None) -> str:
    return edit_card(DEFAULT_TOML, card_id, field, value)


@pytest.mark.parametrize(
    ("text", "card", "field"),
    [
        (DEFAULT_TOML + EXTRA_STARTER, "financier-S3", "era"),  # 7 starters
        (DEFAULT_TOML + EXTRA_AIRSHIP, "airship-L7", "tier"),  # 7 tier-1 airships
        (_edited("financier-12", "department", '"hangar"'), "financier-S1", "department"),
        (
            DEFAULT_TOML[: DEFAULT_TOML.rindex("[[hindenburg]]")],  # 3 phases
            "hindenburg-3",
            "count",
        ),
    ],
    ids=["starters", "tier-1", "department", "phases"],
)
def test_bad_file_wrong_counts(tmp_path: Path, text: str, card: str, field: str) -> None:
    message = _error(tmp_path, text)
    # the ids found are listed: the card in excess (or the cards present) are named
    assert card in message and f"'{field}'" in message and "expected" in message


@pytest.mark.parametrize(
    ("card", "field", "value", "named_field", "words"),
    [
        ("financier-11", "department", '"bank"', "department", "unknown department"),
        ("financier-11", "cost", "{ green = 2 }", "cost", "unknown colour"),
        ("hangar-12", "dice", "{ purple = 1 }", "dice", "unknown colour"),
        ("engineer-13", "fixed_die", '{ colour = "blue", value = 4 }', "fixed_die.colour", "blue"),
        (
            "engine-13",
            "engine_bonuses",
            '[ { colour = "gold", amount = 1 } ]',
            "engine_bonuses.colour",
            "gold",
        ),
        ("airship-L3", "cost", "{ white = 1, pink = 1 }", "cost", "unknown colour"),
        ("financier-11", "target", "-1", "target", "at least 0"),
        ("airship-M2", "target", "-3", "target", "at least 0"),
        ("hindenburg-2", "target", "-16", "target", "at least 0"),
        (
            "materials-11",
            "exchange",
            "{ give = { white = 2 }, get = {} }",
            "exchange.get",
            "gives nothing",
        ),
        ("financier-11", "colour", '"purple"', "colour", "unknown field"),
        ("airship-L1", "crew", "12", "crew", "unknown field"),
        ("hindenburg-1", "bonus", "1", "bonus", "unknown field"),
        ("financier-11", "cost", "{ white = 4 }", "cost", "at most 3"),
        ("financier-11", "stars", "1.5", "stars", "whole number"),
        ("financier-11", "chips", "2", "chips", "not allowed"),
        ("captain-11", "chips", None, "chips", "missing"),
    ],
)
def test_bad_file_names_file_card_and_field(
    tmp_path: Path, card: str, field: str, value: str | None, named_field: str, words: str
) -> None:
    message = _error(tmp_path, _edited(card, field, value))
    assert f"'{card}'" in message
    assert f"field '{named_field}'" in message
    assert words in message


@pytest.mark.parametrize("colour", ["white", "red", "black"])
def test_D1_a_cost_asks_for_at_most_three_dice_of_a_colour(tmp_path: Path, colour: str) -> None:
    three = load_cards(
        write_cards(tmp_path, _edited("financier-11", "cost", f"{{ {colour} = 3 }}"))
    )
    assert (
        three.expansions[three.expansion_index["financier-11"]].cost[
            ("white", "red", "black").index(colour)
        ]
        == 3
    )
    message = _error(tmp_path, _edited("financier-11", "cost", f"{{ {colour} = 4 }}"))
    assert "'financier-11'" in message and "field 'cost'" in message and "at most 3" in message


def test_bad_file_duplicate_id(tmp_path: Path) -> None:
    text = DEFAULT_TOML.replace('id = "financier-12"', 'id = "financier-11"')
    message = _error(tmp_path, text)
    assert "'financier-11'" in message and "field 'id'" in message and "duplicate" in message
    text = DEFAULT_TOML.replace('id = "airship-L2"', 'id = "engine-11"')  # across kinds too
    message = _error(tmp_path, text)
    assert "'engine-11'" in message and "duplicate" in message
    assert "already used by an expansion entry" in message  # "an", not "a expansion"


def test_a_target_out_of_range_says_what_is_allowed(tmp_path: Path) -> None:
    card = DEFAULT_TOML[DEFAULT_TOML.index('id = "') + 6 :].split('"')[0]
    message = _error(tmp_path, edit_card(DEFAULT_TOML, card, "target", "1000"))
    assert f"'{card}'" in message and "field 'target'" in message
    assert "must be at most 99, got 1000" in message


@pytest.mark.parametrize(
    "content",
    [b"this is not [toml at all", b"\xff\xfe\x00binary", b'name = "x"\n[[expansion]\n'],
    ids=["text", "binary", "broken-table"],
)
def test_bad_file_not_toml(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "cards.toml"
    path.write_bytes(content)
    with pytest.raises(CardDataError, match="not a valid TOML file") as info:
        load_cards(path)
    assert str(path) in str(info.value)


def test_bad_file_missing_file_and_new_game_passes_the_error_on(tmp_path: Path) -> None:
    with pytest.raises(CardDataError, match="cannot read"):
        load_cards(tmp_path / "absent.toml")
    path = write_cards(tmp_path, _edited("financier-11", "target", "-1"))
    with pytest.raises(CardDataError, match="financier-11"):
        new_game(2, seed=0, cards=str(path))
    assert isinstance(CardDataError("x"), ValueError)


def test_default_card_path_is_inside_the_package() -> None:
    path = default_card_path()
    assert path.is_file() and path.parts[-3:] == ("engine", "data", "cards_default.toml")
