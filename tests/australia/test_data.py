"""The data files: every stated fact holds, every region reachable and every project completable,
and a bad file is refused naming the file, the entry and the field (docs/australia/DATA.md)."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from airships_env.games.australia import GAME
from airships_env.games.australia.engine import (
    AustraliaDataError,
    LogError,
    default_data,
    load_data,
    state_from_dict,
)
from airships_env.games.australia.engine.data import (
    CAMP,
    COLOURS,
    NUM_BACKS,
    SHIP,
    TILE_VALUES,
    default_data_dir,
)
from airships_env.games.australia.engine.state import ACTION
from tests.australia.helpers import act, hand, table

DATA = default_data()


def test_the_map_holds_every_stated_fact() -> None:
    assert len(DATA.regions) == 24
    assert sum(r.water for r in DATA.regions) == 6
    assert {COLOURS[r.colour] for r in DATA.regions} == set(COLOURS)
    assert all(COLOURS[r.colour] == "blue" for r in DATA.regions if r.water)
    for loc in DATA.locations:
        members = [DATA.regions[r] for r in loc.regions]
        assert len(set(loc.regions)) == len(loc.regions)
        if loc.kind == CAMP:
            assert 2 <= len(members) <= 4 and not any(m.water for m in members)
        else:
            assert loc.kind == SHIP and len(members) == 2 and all(m.water for m in members)
    sizes = Counter(len(loc.regions) for loc in DATA.locations if loc.kind == CAMP)
    assert set(sizes) == {2, 3, 4}  # every kind of camp the rulebook names occurs
    assert all(entry.source in ("S", "P", "R") for entry in (*DATA.regions, *DATA.locations))


def test_the_components_hold_every_stated_fact() -> None:
    by_colour = [sum(DATA.cards[b][c] for b in range(NUM_BACKS)) for c in range(6)]
    assert by_colour == [10, 8, 7, 6, 6, 5]
    assert sum(by_colour) == 42
    assert all(sum(DATA.cards[b]) >= 9 for b in range(NUM_BACKS))
    assert dict(zip(TILE_VALUES, DATA.tiles, strict=True)) == {4: 3, 5: 4, 6: 5, 7: 5, 8: 4, 9: 3}
    assert [v for v in TILE_VALUES if DATA.has_windmill(v)] == [6, 7]
    assert dict(DATA.rangers) == {2: 20, 3: 14, 4: 11, 5: 10}
    assert DATA.tile_sources == ("S",) * 6 and DATA.sources["rangers"] == "S"


def test_every_region_is_reachable() -> None:
    for r, region in enumerate(DATA.regions):
        assert len(DATA.region_locations[r]) >= 2, region.id
        assert sum(DATA.cards[b][region.colour] for b in range(NUM_BACKS)) > 0
    state = table(2)
    assert sorted(a for a in state.legal_actions() if a < 24) == list(range(24))


@pytest.mark.parametrize("value", TILE_VALUES)
def test_every_industrialization_project_is_completable(value: int) -> None:
    """One card at a time on one location of the region, until the region holds ``value``."""
    for r, region in enumerate(DATA.regions):
        state = table(2)
        state.tile_value = [0] * 24
        state.tile_value[r], state.tile_up[r] = value, 1
        state.conservation = [0] * 24  # only this project
        state.plane[0] = r
        location = DATA.region_locations[r][0]
        scored = []
        while not scored:
            assert state.supply[0] > 0, region.id
            state.current, state.phase, state.actions_left = 0, ACTION, 2
            state.hands[0] = hand(("1+3", COLOURS[region.colour]))
            state.stacks = [[], [], [], []]
            act(state, f"play 1+3 {COLOURS[region.colour]}")
            record = act(state, f"place 1 at location {location}")
            scored = [s for s in record.scorings if s.kind == "industrialization"]
        assert scored[0].region == r and sum(state.rangers[location]) == value


def test_every_conservation_project_is_completable() -> None:
    for r, region in enumerate(DATA.regions):
        state = table(2)
        state.tile_value = [0] * 24
        state.plane[0] = r
        colour = COLOURS[region.colour]
        kinds: list[tuple[str, int]] = []
        for location in DATA.region_locations[r]:
            state.current, state.phase, state.actions_left = 0, ACTION, 2
            state.hands[0] = hand(("1+3", colour))
            state.stacks = [[], [], [], []]
            act(state, f"play 1+3 {colour}")
            kinds += [
                (s.kind, s.region) for s in act(state, f"place 1 at location {location}").scorings
            ]
        assert ("conservation", r) in kinds, region.id


# ---------------------------------------------------------------- bad files


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(default_data_dir(), folder)
    return folder


def _edit(folder: Path, name: str, old: str, new: str, count: int = 1) -> None:
    path = folder / name
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, count))


@pytest.mark.parametrize(
    ("name", "old", "new", "expected"),
    [
        ("map.toml", 'colour = "green"', 'colour = "purple"', "region 'kimberley', field 'colour'"),
        ("map.toml", 'kind = "water"\ncolour = "blue"', 'kind = "water"\ncolour = "red"',
         "region 'indian_ocean', field 'colour'"),
        ("map.toml", 'regions = ["kimberley", "top_end", "pilbara", "red_centre"]',
         'regions = ["kimberley", "atlantis"]', "location 'camp01', field 'regions'"),
        ("map.toml", 'regions = ["indian_ocean", "timor_sea"]', 'regions = ["indian_ocean"]',
         "location 'ship01', field 'regions'"),
        ("map.toml", 'kind = "camp"', 'kind = "tent"', "location 'camp01', field 'kind'"),
        ("map.toml", 'x = 1\ny = 1\nsource = "R"', 'x = 1\ny = 1\nsource = "X"',
         "region 'kimberley', field 'source'"),
        ("map.toml", 'id = "camp02"', 'id = "camp01"', "location 'camp01', field 'id'"),
        ("map.toml", "schema_version = 1", "schema_version = 2", "field 'schema_version'"),
        ("components.toml", "blue = 3, green = 2, orange = 2, grey = 2",
         "blue = 3, green = -2, orange = 2, grey = 2", "card '4+0', field 'green'"),
        ("components.toml", 'back = "3+1"', 'back = "3+2"', "card #2, field 'back'"),
        ("components.toml", "value = 9\ncount = 3", "value = 9\ncount = 4",
         "entry [[tile]], field 'count'"),
        ("components.toml", "windmill = true", 'windmill = "yes"', "tile 6, field 'windmill'"),
        ("components.toml", "p5 = 10", "p5 = 0", "entry [rangers], field 'p5'"),
        ("components.toml", "ranger_areas = 12", "ranger_areas = 12\nextra = 1",
         "entry [tracks], field 'extra'"),
    ],
)  # fmt: skip
def test_a_bad_file_names_the_file_the_entry_and_the_field(
    tmp_path: Path, name: str, old: str, new: str, expected: str
) -> None:
    folder = _copy(tmp_path)
    _edit(folder, name, old, new)
    with pytest.raises(AustraliaDataError) as caught:
        load_data(folder)
    message = str(caught.value)
    assert str(folder / name) in message and expected in message, message


def test_a_region_without_locations_and_a_broken_toml_are_refused(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    text = (folder / "map.toml").read_text()
    for loc in ("camp06", "camp20"):  # goldfields' two camps
        start = text.index(f'id = "{loc}"')
        end = text.index("[[location]]", start)
        text = text[: text.rindex("[[location]]", 0, start)] + text[end:]
    (folder / "map.toml").write_text(text)
    with pytest.raises(AustraliaDataError, match="region 'goldfields'"):
        load_data(folder)
    (folder / "components.toml").write_text("this is = = not toml")
    with pytest.raises(AustraliaDataError, match="not a valid TOML file"):
        load_data(
            map_path=default_data_dir() / "map.toml", components_path=folder / "components.toml"
        )
    with pytest.raises(AustraliaDataError, match="cannot read"):
        load_data(map_path=tmp_path / "missing.toml")


def test_a_users_files_replace_the_default_and_a_saved_state_checks_them(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, "components.toml", "p2 = 20", "p2 = 15")
    state = GAME.new_state(2, seed=1, data=folder)
    assert state.supply == [15, 15]
    saved = state.to_dict()
    assert state_from_dict(saved).to_dict() == saved
    _edit(folder, "components.toml", "p2 = 15", "p2 = 16")
    with pytest.raises(LogError, match="digest"):
        state_from_dict(saved)
