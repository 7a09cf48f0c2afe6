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
from airships_env.games.nippon.engine import State, new_game
from airships_env.games.nippon.engine.data import ACTION_KINDS, default_data_path, load_data
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


GEOMETRY = ("x", "y", "width", "height", "cx", "cy", "r")
SECTIONS = ("turn-track", "action-board", "worker-column", "bag", "rewards", "map", "legend")


def boxes(element: ET.Element) -> list[tuple[float, float, float, float]]:
    """The (left, top, right, bottom) of every rect and circle below ``element``."""
    out = []
    for shape in element.iter():
        at = {name: float(value) for name, value in shape.attrib.items() if name in GEOMETRY}
        if shape.tag == f"{NS}rect":
            x, y = at["x"], at["y"]
            out.append((x, y, x + at["width"], y + at["height"]))
        elif shape.tag == f"{NS}circle":
            x, y, r = at["cx"], at["cy"], at["r"]
            out.append((x - r, y - r, x + r, y + r))
    return out


def assert_laid_out(svg: str, num_players: int) -> None:
    """Every shape inside the viewBox; the board's parts (and the players' panels) apart."""
    root = ET.fromstring(svg)
    _, _, width, height = (float(v) for v in (root.get("viewBox") or "").split())
    for left, top, right, bottom in boxes(root):
        assert left >= 0 and right <= width and top >= 0 and bottom <= height
    parts = [groups(root, name)[0] for name in SECTIONS] + groups(root, "player")
    assert len(parts) == len(SECTIONS) + num_players
    spans = []
    for part in parts:
        shown = boxes(part)
        spans.append(
            (
                min(b[0] for b in shown),
                min(b[1] for b in shown),
                max(b[2] for b in shown),
                max(b[3] for b in shown),
            )
        )
    for i, a in enumerate(spans):
        for b in spans[i + 1 :]:
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            assert apart, (parts[spans.index(a)].get("class"), a, b)


def stretched_data(tmp_path: Path) -> Path:
    """A valid data file at the loader's limits where the board is drawn: 9 action spaces of 6
    workers, 12 rows, a 20-space turn track, 40-space money and coal tracks, knowledge to 30,
    12 cubes a factory, 40 reward tiles and long colour names."""
    text = Path(default_data_path()).read_text(encoding="utf-8")
    spaces = "".join(
        f'[[action_space]]\nactions = ["{kind}"]\nsource = "R"\n' for kind in ACTION_KINDS
    )
    first = text.index("[[action_space]]")
    last = text.index("[workers]")
    text = text[:first] + spaces + "\n" + text[last:]
    names = ", ".join(
        f'"{c}-{"x" * 20}"' for c in ("red", "blue", "green", "yellow", "black", "white")
    )
    money = ", ".join(str(12 + k) for k in range(40))
    coal = ", ".join(str(2 + k) for k in range(40))
    for old, new in (
        ('colours = ["red", "blue", "green", "yellow", "black", "white"]', f"colours = [{names}]"),
        ("per_colour = 7", "per_colour = 40"),
        ("per_space = 3 ", "per_space = 6 "),
        ("rows = { 2 = 2, 3 = 4, 4 = 6 }", "rows = { 2 = 12, 3 = 12, 4 = 12 }"),
        ("spaces = 8 ", "spaces = 20 "),
        ("golden_from = 5 ", "golden_from = 17 "),
        ("scoring_spaces = [3, 5, 8]", "scoring_spaces = [3, 10, 20]"),
        (
            "money_track = [12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24]",
            f"money_track = [{money}]",
        ),
        ("coal_track = [2, 3, 4, 5, 6, 7, 8, 9, 10]", f"coal_track = [{coal}]"),
        ("knowledge_max = 10", "knowledge_max = 30"),
        ("factory_capacity = 4 ", "factory_capacity = 12 "),
    ):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    reward = '[[reward]]\nlevel = 1\nmultiplier = 2\ngift = "coal"\nmin_players = 2\nsource = "R"\n'
    text += "\n" + reward * 24
    path = tmp_path / "stretched.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("stem", "fraction"), MID_GAMES)
def test_svg_parts_stay_apart_and_inside_the_view_box(stem: str, fraction: float) -> None:
    state, record = golden_state(stem, fraction)
    assert_laid_out(svg_table(state.view(0), 0, record), state.num_players)


@pytest.mark.parametrize("num_players", [2, 4])
def test_svg_fits_a_data_file_at_the_limits(tmp_path: Path, num_players: int) -> None:
    """A user's data file may have more spaces, rows, track spaces and tiles than the default:
    the board shrinks its places to fit and still draws every worker."""
    data = load_data(str(stretched_data(tmp_path)))
    state = new_game(num_players, seed=3, data=data)
    rng = np.random.default_rng(3)
    record = None
    for _ in range(60):
        legal = state.legal_actions()
        record = state.apply_action(legal[int(rng.integers(len(legal)))])
    svg = svg_table(state.view(0), 0, record)
    assert_laid_out(svg, num_players)
    root = ET.fromstring(svg)
    assert len(groups(root, "action-space")) == 9 and len(groups(root, "column-row")) == 12
    on_board = sum(map(sum, state.spaces)) + sum(map(sum, state.rows))
    drawn = sum(len(shapes(g, "worker")) for g in groups(root, "action-space"))
    drawn += sum(len(shapes(g, "worker")) for g in groups(root, "column-row"))
    assert on_board > 9 * 3 and drawn == on_board
    assert len(shapes(root, "track-space")) == 20
    assert len(shapes(root, "reward-tile")) == len(state.rewards_left) > 16
