"""Nippon's SVG board (text.svg_table): well-formed, one element per thing on the table, drawn
from a view that hides nothing more than the bag's order, every text escaped."""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from airships_env.game_log import read_game_log, replay_log
from airships_env.games.nippon import GAME
from airships_env.games.nippon.engine import State
from airships_env.games.nippon.engine.model import Phase
from airships_env.games.nippon.engine.rules import achievement_base
from airships_env.games.nippon.text import record_text, svg_table

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "nippon"
NS = "{http://www.w3.org/2000/svg}"
MID_GAMES = [
    ("2p_heuristic-greedy", 0.5),
    ("3p_heuristic-greedy-random", 0.5),
    ("4p_heuristic-greedy-random-greedy", 2 / 3),
]


def golden_state(stem: str, fraction: float) -> tuple[State, Any]:
    """The state after ``fraction`` of a golden game's records, and its last record."""
    log = read_game_log(GOLDEN / f"{stem}.jsonl")
    replayed = replay_log(log, GAME, upto=round(len(log.records) * fraction))
    return replayed.state, replayed.records[-1]


def classes(element: ET.Element) -> list[str]:
    """The element's class names."""
    return (element.get("class") or "").split()


def groups(root: ET.Element, name: str) -> list[ET.Element]:
    """The ``<g>`` elements of class ``name``, in document order."""
    return [g for g in root.iter(f"{NS}g") if name in classes(g)]


def shapes(root: ET.Element, name: str) -> list[ET.Element]:
    """The elements of class ``name`` below ``root``."""
    return [e for e in root.iter() if name in classes(e)]


def texts(root: ET.Element) -> list[str]:
    """Every text element's text, in document order."""
    return [t.text or "" for t in root.iter(f"{NS}text")]


def titles(root: ET.Element) -> list[str]:
    """Every title's text below ``root``."""
    return [t.text or "" for t in root.iter(f"{NS}title")]


@pytest.mark.parametrize(("stem", "fraction"), MID_GAMES)
def test_svg_is_one_scalable_document_without_scripts_or_the_page_contract(
    stem: str, fraction: float
) -> None:
    state, record = golden_state(stem, fraction)
    svg = svg_table(state.view(0), 0, record)
    root = ET.fromstring(svg)  # well-formed XML
    assert root.tag == f"{NS}svg" and "nippon-board" in classes(root)
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    assert not list(root.iter(f"{NS}script")) and not list(root.iter(f"{NS}foreignObject"))
    for element in root.iter():
        for attribute in element.attrib:
            assert not attribute.startswith("on"), (element.tag, attribute)
            assert not attribute.startswith("data-"), (element.tag, attribute)  # the page's


@pytest.mark.parametrize(("stem", "fraction"), MID_GAMES)
def test_svg_draws_every_space_worker_city_tile_and_player(stem: str, fraction: float) -> None:
    state, record = golden_state(stem, fraction)
    n, d = state.num_players, state.data
    root = ET.fromstring(svg_table(state.view(1), 1, record))
    # the action board and the column: each worker in its place, by colour
    spaces = groups(root, "action-space")
    assert len(spaces) == len(d.action_spaces)
    for space, counts in zip(spaces, state.spaces, strict=True):
        drawn = [w.find(f"{NS}title").text for w in shapes(space, "worker")]
        assert sorted(drawn) == sorted(
            f"{d.colours[c]} worker" for c, k in enumerate(counts) for _ in range(k)
        )
    rows = groups(root, "column-row")
    assert len(rows) == len(state.rows)
    for row, counts in zip(rows, state.rows, strict=True):
        assert len(shapes(row, "worker")) == sum(counts)
    bag = groups(root, "bag")[0]
    assert [t for t in texts(bag) if t.startswith("×")] == [f"×{k}" for k in state.bag]
    marker = shapes(groups(root, "turn-track")[0], "marker")
    assert len(marker) == 1 and len(shapes(root, "track-space")) == d.track_spaces
    assert float(marker[0].get("cx") or 0) == 12 + state.marker * 48 + 21
    assert len(shapes(root, "reward-tile")) == len(state.rewards_left)
    # the map: 4 regions, 8 cities of 4 influence spaces, each placed tile in its owner's name
    assert len(groups(root, "region")) == 4
    cities = groups(root, "city")
    assert len(cities) == 8
    placed = 0
    for city, element in enumerate(cities):
        assert f"City {city}" in texts(element)
        assert len(shapes(element, "influence-space")) == 4
        for i in range(4):
            owner = state.influence_owner[city][i]
            if owner >= 0:
                placed += 1
                tile = f"seat {owner}'s tile {state.influence_value[city][i]}"
                assert any(tile in t for t in titles(element))
    assert placed > 0 and len(shapes(root, "tile")) == placed
    # one panel per player: its VP, workers, factories, contracts; the seat to act and "you"
    players = groups(root, "player")
    assert len(players) == n
    for p, panel in enumerate(players):
        assert f"{state.vp[p]} VP" in texts(panel)
        assert len(shapes(panel, "worker")) == len(state.workers[p])
        assert len(shapes(panel, "factory")) == sum(t >= 0 for t in state.factory_tile[p])
        assert len(shapes(panel, "cube")) == sum(state.cubes[p])
        assert len(shapes(panel, "contract")) == len(d.contracts)
        assert len(shapes(panel, "done")) == sum(state.contracts_done[p])
        achievements = shapes(panel, "achievement")
        assert len(achievements) == len(d.achievements)
        for element, ach in zip(achievements, d.achievements, strict=True):
            count = achievement_base(state, p, ach.kind)
            assert f"{ach.kind}, counts {count} now" in element.find(f"{NS}title").text
        assert ("current" in classes(panel)) == (p == state.current)
        assert ("you" in classes(panel)) == (p == 1)
    title = texts(root)[0]
    assert f"seat {state.current} to act ({Phase.NAMES[state.phase]})" in title
    assert "Last: " + record_text(record, state) in texts(root)
    legend = groups(root, "legend")[0]
    assert all(f"{name} worker" in texts(legend) for name in d.colours)


def test_svg_of_a_finished_game_names_the_winner_and_highlights_no_seat() -> None:
    state, record = golden_state("2p_heuristic-greedy", 1.0)
    assert state.is_terminal()
    root = ET.fromstring(svg_table(state, None, record))
    outcome = state.outcome()
    assert outcome is not None
    winners = ", ".join(f"seat {p}" for p in outcome.winners)
    assert texts(root)[0].endswith(f"game over, won by {winners}")
    assert not [g for g in groups(root, "player") if "current" in classes(g)]
    assert "public view" in texts(root)


@pytest.mark.parametrize(("stem", "fraction"), MID_GAMES)
def test_svg_reveals_nothing_hidden(stem: str, fraction: float) -> None:
    """V1: two states that differ only in the bag's order (their generators) draw the same
    board for seat 0, and the public board drawn from the full state is the one a view gives."""
    state, record = golden_state(stem, fraction)
    other = state.clone()
    other.rng = np.random.Generator(np.random.PCG64(12345))
    assert state.rng is not None
    assert state.rng.bit_generator.state != other.rng.bit_generator.state
    first, again = state.clone(), other.clone()  # the same play draws differently
    for _ in range(500):
        action = first.legal_actions()[0]
        if first.apply_action(action).draws != again.apply_action(action).draws:
            break
    else:
        pytest.fail("the two generators never drew differently")
    seen = svg_table(state.view(0), 0, record)
    assert svg_table(other.view(0), 0, record) == seen
    public = svg_table(state, None, record)
    assert svg_table(other, None, record) == public
    assert svg_table(state.view(0), None, record) == public


def test_svg_escapes_every_text() -> None:
    """A data file's names are text, never markup: a colour named like a tag stays text."""
    state, record = golden_state("3p_heuristic-greedy-random", 0.5)
    evil = '<script>alert("x")</script> & red'
    state.data = dataclasses.replace(state.data, colours=(evil, *state.data.colours[1:]))
    svg = svg_table(state.view(0), 0, record)
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    root = ET.fromstring(svg)
    assert not list(root.iter(f"{NS}script"))
    assert f"{evil} worker" in texts(groups(root, "legend")[0])
    assert any(t == f"{evil} workers in the bag: {state.bag[0]}" for t in titles(root))


def test_presenter_keeps_its_text_and_picture() -> None:
    state, record = golden_state("4p_heuristic-greedy-random-greedy", 2 / 3)
    presenter = GAME.presenter()
    view = state.view(2)
    assert presenter.svg(view, 2, record) == svg_table(view, 2, record)
    assert "order hidden" in presenter.ansi(view, 2, record)
    picture = presenter.rgb(view, 2, record)
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
