"""Nippon engine: invariants over seeded random games, dict round trip, clone, replay,
view/determinize (the bag's order never leaks), typed errors and bad data files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from airships_env.games.nippon.engine import (
    ActionRecord,
    IllegalActionError,
    LogError,
    NipponDataError,
    State,
    ViewError,
    default_data,
    load_data,
    new_game,
    replay,
    state_from_dict,
)
from airships_env.games.nippon.engine.data import default_data_path
from tests.nippon.helpers import random_game

DATA = default_data()


def check_invariants(s: State) -> None:
    """Everything the rules conserve (docs/nippon/RULES.md K1-K9)."""
    n = s.num_players
    assert min(s.yen) >= 0 and min(s.coal) >= 0 and min(s.blueprints) >= 0
    for c in range(6):  # workers: bag + board + player boards
        where = s.bag[c] + sum(p[c] for p in s.spaces + s.rows)
        where += sum(w.count(c) for w in s.workers)
        assert where == DATA.per_colour, ("workers", c)
    assert all(sum(p) <= DATA.per_space for p in s.spaces + s.rows)
    assert all(len(w) <= 6 for w in s.workers)
    for p in range(n):  # influence tiles
        on_board = [0] * 6
        for city in range(8):
            for i in range(4):
                if s.influence_owner[city][i] == p:
                    on_board[s.influence_value[city][i] - 1] += 1
        total = [a + b for a, b in zip(s.tiles_supply[p], on_board, strict=True)]
        assert sum(total) + s.tiles_removed[p] == 10, ("tiles", p)
        assert min(s.tiles_supply[p]) >= 0
    for city in range(8):
        assert sum(1 for o in s.influence_owner[city] if o >= 0) <= n
    machines = sum(1 for p in range(n) for m in s.machine[p] if m > 0)
    assert s.machinery_supply + machines + sum(s.machine_reserve) == DATA.machinery_tiles
    for t, owner in enumerate(s.factory_owner):
        if owner >= 0:
            assert s.factory_tile[owner][DATA.factories[t].good] == t
    for p in range(n):
        assert sum(s.trains_in[r][p] for r in range(4)) == s.trains_placed[p] <= DATA.trains
        assert sum(s.ships_in[r][p] for r in range(4)) == s.ships_placed[p] <= DATA.ships
        assert all(0 <= c <= DATA.factory_capacity for c in s.cubes[p])
        for g in range(6):
            if s.factory_tile[p][g] < 0:
                assert s.cubes[p][g] == 0 and s.machine[p][g] == 0
    for r in range(4):
        assert sum(s.trains_in[r]) + sum(s.ships_in[r]) <= DATA.region_spaces(n)
    assert 0 <= s.marker < DATA.track_spaces


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_invariants_over_random_games(num_players: int) -> None:
    for seed in range(12):
        s = new_game(num_players, seed)
        rng = np.random.default_rng(seed)
        steps = 0
        while not s.is_terminal():
            legal = s.legal_actions()
            assert legal and legal == sorted(set(legal))
            s.apply_action(legal[int(rng.integers(len(legal)))])
            check_invariants(s)
            steps += 1
            assert steps < 5000
        out = s.outcome()
        assert out is not None and len(out.winners) == 1
        assert 20 <= s.turn_count / num_players <= 45
        assert s.legal_actions() == []


@pytest.mark.slow
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_invariants_over_many_random_games(num_players: int) -> None:
    for seed in range(1000, 1400):
        s, _ = random_game(num_players, seed)
        check_invariants(s)


def test_dict_round_trip_continues_identically() -> None:
    s = new_game(3, 21)
    rng = np.random.default_rng(0)
    for _ in range(150):
        legal = s.legal_actions()
        s.apply_action(legal[int(rng.integers(len(legal)))])
    text = json.dumps(s.to_dict())
    back = state_from_dict(json.loads(text))
    assert back.to_dict() == s.to_dict()
    a_rng, b_rng = np.random.default_rng(5), np.random.default_rng(5)
    while not s.is_terminal():
        la, lb = s.legal_actions(), back.legal_actions()
        assert la == lb
        ra = s.apply_action(la[int(a_rng.integers(len(la)))])
        rb = back.apply_action(lb[int(b_rng.integers(len(lb)))])
        assert ra == rb
    assert back.to_dict() == s.to_dict()


def test_clone_is_independent() -> None:
    s = new_game(2, 3)
    c = s.clone()
    c.apply_action(c.legal_actions()[0])
    assert c.to_dict() != s.to_dict()
    assert s.to_dict() == new_game(2, 3).to_dict()
    d = s.clone()
    assert d.to_dict() == s.to_dict()


def test_replay_reproduces_the_game_with_and_without_generator() -> None:
    start = new_game(4, 8)
    end, records = random_game(4, 8)
    assert replay(start, records).to_dict() == end.to_dict()
    blind = start.clone()
    blind.rng = None
    replayed = replay(blind, records)
    assert replayed.vp == end.vp and replayed.bag == end.bag and replayed.spaces == end.spaces
    dicts = [ActionRecord.from_dict(json.loads(json.dumps(r.to_dict()))) for r in records]
    assert dicts == records


def test_replay_refuses_a_tampered_record() -> None:
    start = new_game(2, 8)
    _, records = random_game(2, 8)
    k = next(i for i, r in enumerate(records) if r.draws)
    bad = list(records)
    bad[k] = ActionRecord(records[k].action, records[k].seat, (5,) * len(records[k].draws))
    blind = start.clone()
    blind.rng = None
    with pytest.raises(LogError, match=f"log entry {k + 1}"):
        replay(blind, bad)


def test_view_hides_only_the_bag_order_and_determinize_plays() -> None:
    """Leak test: two states that differ only in the bag's future draws give equal views."""
    a = new_game(3, 11)
    b = a.clone()
    b.rng = np.random.default_rng(12345)
    for seat in range(3):
        va, vb = a.view(seat), b.view(seat)
        assert va.to_dict() == vb.to_dict()
        assert va.rng is None
    v = a.view(0)
    with pytest.raises(ViewError):
        v.apply_action(v.legal_actions()[0])
    d1 = v.determinize(np.random.default_rng(1))
    d2 = v.determinize(np.random.default_rng(2))
    pub = {k: x for k, x in d1.to_dict().items() if k not in ("rng", "is_view")}
    assert pub == {k: x for k, x in a.to_dict().items() if k not in ("rng", "is_view")}
    assert d1.to_dict()["rng"] != d2.to_dict()["rng"]
    rng = np.random.default_rng(0)
    while not d1.is_terminal():
        legal = d1.legal_actions()
        d1.apply_action(legal[int(rng.integers(len(legal)))])


def test_illegal_action_names_the_action_and_the_legal_ones() -> None:
    s = new_game(2, 0)
    with pytest.raises(IllegalActionError) as err:
        s.apply_action(58)  # stop, not legal at a turn's start
    assert "stop" in str(err.value) and "Legal actions" in str(err.value)
    assert err.value.legal == s.legal_actions()
    for bad in (-1, 176, True, "3", 2.0):
        with pytest.raises(IllegalActionError):
            s.apply_action(bad)
    s.apply_action(np.int64(s.legal_actions()[0]))


def test_state_from_dict_refuses_other_components(tmp_path: Path) -> None:
    s = new_game(2, 0)
    d = s.to_dict()
    d["data"]["digest"] = "0" * 64
    with pytest.raises(LogError, match="digest"):
        state_from_dict(d)
    d = s.to_dict()
    del d["bag"]
    with pytest.raises(LogError, match="'bag'"):
        state_from_dict(d)


# --------------------------------------------------------------------------- bad data files
def _edited(tmp_path: Path, old: str, new: str, count: int = 1) -> Path:
    text = default_data_path().read_text()
    assert old in text, old
    path = tmp_path / "edited.toml"
    path.write_text(text.replace(old, new, count))
    return path


@pytest.mark.parametrize(
    ("old", "new", "entry", "field"),
    [
        (
            'good = "silk"\ncoal = 1\npower = "coal_track"',
            'good = "rice"\ncoal = 1\npower = "coal_track"',
            "factory 1",
            "good",
        ),
        (
            'coal = 1\npower = "money_track"',
            'coal = "one"\npower = "money_track"',
            "factory 2",
            "coal",
        ),
        ("demands = [2, 1]", "demands = [1, 2]", "contract 3", "demands"),
        ("tiles = [1, 1, 2, 2, 3, 3, 4, 4, 5, 6]", "tiles = [1, 1, 2]", "[influence]", "tiles"),
        (
            'gift = "blueprints"\nmin_players = 2',
            'gift = "gold"\nmin_players = 2',
            "reward 1",
            "gift",
        ),
        ('actions = ["PRODUCE"]', 'actions = ["PRODUCE", "MINE"]', "action_space 3", "actions"),
        ("per_colour = 7", "per_colour = -1", "[workers]", "per_colour"),
        ("rows = { 2 = 2, 3 = 4, 4 = 6 }", "rows = { 2 = 2, 3 = 4 }", "[workers]", "rows"),
        ('kind = "yen"  ', 'kind = "contracts"  ', "[[achievement]]", "kind"),
        (
            "scoring_spaces = [3, 5, 8]",
            "scoring_spaces = [3, 5, 7]",
            "[turn_track]",
            "scoring_spaces",
        ),
        ('source = "S"\ninvest', 'source = "Q"\ninvest', "[costs]", "source"),
        ("golden_from = 5", "golden_from = 4", "[turn_track]", "golden_from"),
        # a contract's or a region's bonus cannot be "machine" (a factory's power: it improves
        # that factory), which the rules had failed on when gained
        ('bonus = "knowledge_track"', 'bonus = "machine"', "contract 1", "bonus"),
        (
            'region_bonus = [{ kind = "coal"',
            'region_bonus = [{ kind = "machine"',
            "region 1",
            "kind",
        ),
        # a track of 3 or 4 spaces passed and its marker never moved: the game never ended
        ("spaces = 8 ", "spaces = 4 ", "[turn_track]", "spaces"),
    ],
)
def test_bad_data_file_names_file_entry_and_field(
    tmp_path: Path, old: str, new: str, entry: str, field: str
) -> None:
    path = _edited(tmp_path, old, new)
    with pytest.raises(NipponDataError) as err:
        load_data(path)
    message = str(err.value)
    assert str(path) in message and entry in message and f"'{field}'" in message


def test_bad_data_file_not_toml_or_missing(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("schema = [")
    with pytest.raises(NipponDataError, match=r"broken\.toml: not a valid TOML"):
        load_data(path)
    with pytest.raises(NipponDataError, match="cannot read"):
        load_data(tmp_path / "absent.toml")


def test_user_data_file_is_used(tmp_path: Path) -> None:
    path = _edited(tmp_path, "invest = 6", "invest = 7")
    data = load_data(path)
    assert data.invest_cost == 7 and data.path == str(path)
    s = new_game(2, 0, data=data)
    back = state_from_dict(json.loads(json.dumps(s.to_dict())))
    assert back.data.invest_cost == 7


def test_a_state_without_generator_refuses_to_play_and_changes_nothing() -> None:
    s = new_game(2, 1)
    s.rng = None
    before = s.to_dict()
    with pytest.raises(ViewError, match="only replays records"):
        s.apply_action(s.legal_actions()[0])
    assert s.to_dict() == before
