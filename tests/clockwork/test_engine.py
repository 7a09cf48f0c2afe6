"""Invariants over many seeded games, serialization, clone, replay, views, data files, layout."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from airships_env.games.clockwork import GAME
from airships_env.games.clockwork.engine import (
    ACTION_NAMES,
    ActionRecord,
    ClockworkDataError,
    LogError,
    RulesOptions,
    State,
    load_data,
    new_game,
    replay,
    state_from_dict,
)
from airships_env.games.clockwork.engine.actions import DRAW
from airships_env.games.clockwork.engine.chance import uniform_below
from airships_env.games.clockwork.engine.data import default_data_path
from airships_env.games.clockwork.observation import encode_observation, observation_layout

PHASE_DISCARD, PHASE_GIVE_BACK = "discard", "give back"


def check_invariants(state: State) -> None:
    """Cards conserved by type; hand limit; two pawns a field; knowledge true; a legal action."""
    n = state.num_players
    counts = state.data.counts[n]
    hands = np.array(state.hands)
    assert (hands >= 0).all()
    assert (np.array(state.known) <= hands[None, :, :]).all()  # K: true lower bounds
    where = hands.sum(axis=0).tolist()
    for pile in state.piles:
        for card in pile:
            where[card] += 1
    for card in state.places:
        if card >= 0:
            where[card] += 1
    for laid in (*state.laid_fm, *state.laid_cb):
        if laid >= 0:
            where[laid] += counts[laid]
    where[13] += state.removed_scrap
    assert where == list(counts), (where, counts)
    for seat in range(n):
        over = state.phase_name in (PHASE_DISCARD, PHASE_GIVE_BACK) and seat == state.actor
        over = over or seat == state.winner  # W2 comes before H1: a win with an eighth card
        assert state.hand_size(seat) <= (8 if over else 7)
    towers = state.data.track.towers
    for field in set(state.pawns):
        assert field == towers or state.pawns.count(field) <= 2
    assert state.is_terminal() or state.legal_actions()


def play(state: State, rng: np.random.Generator, check: bool = True) -> list[ActionRecord]:
    """Random play (drawing preferred half the time, so piles empty and endgames happen)."""
    records = []
    while not state.is_terminal():
        legal = state.legal_actions()
        if DRAW in legal and uniform_below(rng, 2) == 0:
            action = DRAW
        else:
            action = legal[uniform_below(rng, len(legal))]
        records.append(state.apply_action(action))
        if check:
            check_invariants(state)
    return records


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_invariants_over_thousands_of_short_games(num_players: int) -> None:
    for seed in range(1000):
        state = new_game(num_players, seed, options=RulesOptions(max_turns=4))
        check_invariants(state)
        play(state, np.random.default_rng(seed))
        assert state.is_terminal() and state.outcome() is not None
        assert state.turn <= 4 * num_players


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_invariants_over_full_games(num_players: int) -> None:
    endgames = 0
    for seed in range(30):
        state = new_game(num_players, 10_000 + seed)
        play(state, np.random.default_rng(seed))
        endgames += state.endgame
    assert endgames > 0  # the F rules were exercised


@pytest.mark.slow
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_invariants_over_thousands_of_full_games(num_players: int) -> None:
    for seed in range(3000):
        state = new_game(num_players, 20_000 + seed)
        play(state, np.random.default_rng(seed))
        assert state.outcome() is not None


@pytest.mark.parametrize("options", [
    RulesOptions(),
    RulesOptions(white_field_exact=True, lucky_rolls="from_scrapyard", scrap_to="discards",
                 discard_recall="none", first_player="seat0"),
])  # fmt: skip
def test_dict_round_trip_and_replay(options: RulesOptions) -> None:
    for n in (2, 3, 4):
        state = new_game(n, 77, options=options)
        records = play(state, np.random.default_rng(1), check=False)
        text = json.dumps(state.to_dict())
        restored = state_from_dict(json.loads(text))
        assert restored.to_dict() == state.to_dict()
        logged = [GAME.record_from_dict(json.loads(json.dumps(r.to_dict()))) for r in records]
        assert logged == records
        again = replay(n, 77, logged, options=options)
        assert again.to_dict()["hands"] == state.to_dict()["hands"]
        assert again.winner == state.winner and again.places == state.places


def test_a_restored_state_continues_identically() -> None:
    state = new_game(3, 5)
    rng = np.random.default_rng(2)
    for _ in range(60):
        legal = state.legal_actions()
        state.apply_action(legal[uniform_below(rng, len(legal))])
    restored = state_from_dict(json.loads(json.dumps(state.to_dict())))
    for _ in range(200):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        assert restored.legal_actions() == legal
        action = legal[uniform_below(rng, len(legal))]
        assert state.apply_action(action) == restored.apply_action(action)


def test_a_bad_log_is_refused() -> None:
    state = new_game(2, 3)
    records = play(state, np.random.default_rng(0), check=False)
    bad = [*records[:5], ActionRecord(**{**_fields(records[5]), "drawn": 99})]
    with pytest.raises(LogError, match=r"does not (match|replay)"):
        replay(2, 3, bad)
    with pytest.raises(LogError):
        ActionRecord.from_dict({"step": 1})
    with pytest.raises(LogError):
        state_from_dict({"game": "airships"})


def _fields(record: ActionRecord) -> dict[str, object]:
    return {name: getattr(record, name) for name in record.__dataclass_fields__}


def test_clone_is_independent() -> None:
    state = new_game(4, 8)
    copy = state.clone()
    play(copy, np.random.default_rng(3), check=False)
    assert state.to_dict() == new_game(4, 8).to_dict()
    assert copy.to_dict() != state.to_dict()
    a, b = state.clone(), state.clone()
    assert a.apply_action(0) == b.apply_action(0)  # the generator's state was copied


def test_determinize_agrees_with_the_view_and_is_playable() -> None:
    for n in (2, 3, 4):
        state = new_game(n, 4)
        rng = np.random.default_rng(0)
        for step in range(400):
            if state.is_terminal():
                break
            if step % 37 == 0:
                seat = state.actor
                view = state.view(seat)
                for k in range(3):
                    dealt = view.determinize(np.random.default_rng(k))
                    assert dealt.view(seat).to_dict() == view.to_dict()
                    assert dealt.legal_actions() == state.legal_actions()
                    check_invariants(dealt)
                    play(dealt, np.random.default_rng(k), check=False)
            legal = state.legal_actions()
            state.apply_action(legal[uniform_below(rng, len(legal))])


def test_views_do_not_leak_the_hidden_cards() -> None:
    """Two states that differ only in what a seat cannot see give it equal views/observations."""
    for n in (2, 3, 4):
        state = new_game(n, 21)
        rng = np.random.default_rng(5)
        for step in range(300):
            if state.is_terminal():
                break
            if step % 23 == 0:
                for seat in range(n):
                    view = state.view(seat)
                    twin = view.determinize(np.random.default_rng(step))
                    assert twin.view(seat).to_dict() == view.to_dict()
                    assert np.array_equal(
                        encode_observation(twin.view(seat), seat),
                        encode_observation(state.view(seat), seat),
                    )
                    assert np.array_equal(
                        encode_observation(state, seat), encode_observation(view, seat)
                    )
            legal = state.legal_actions()
            state.apply_action(legal[uniform_below(rng, len(legal))])


def test_observation_layout_and_perspective() -> None:
    for n in (2, 3, 4):
        layout = observation_layout(n)
        assert GAME.observation_size(n) == sum(size for _, size in layout)
        state = new_game(n, 2)
        vector = GAME.observe(state.view(1), 1)
        assert vector.dtype == np.float32 and vector.shape == (GAME.observation_size(n),)
        offsets, start = {}, 0
        for name, size in layout:
            offsets[name] = (start, start + size)
            start += size
        lo, hi = offsets["hand"]
        assert np.allclose(vector[lo:hi] * 8, state.hands[1])  # self first
        lo, hi = offsets["my_turn"]
        assert vector[lo] == float(state.current == 1)


def test_action_table_names() -> None:
    assert GAME.num_actions == len(ACTION_NAMES) == 149
    assert len(set(ACTION_NAMES)) == 149
    assert GAME.action_name(0) == "roll" and GAME.action_name(148) == "turn place 57"


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('id = "FM2"', 'id = "FM9"', "card #2, field 'id'"),
        ("count = { p2 = 4, p3 = 4, p4 = 4 }", "count = { p2 = 3, p3 = 4, p4 = 4 }",
         "card 'FM1', field 'count.p2'"),
        ('kind = "airship"', 'kind = "zeppelin"', "card 'AS', field 'kind'"),
        ("length = 49", "length = 20", r"\[track\], field 'length'"),
        ("scrapyards = [7, 14, 21, 28, 35, 42]", "scrapyards = [7, 14, 21, 28, 35, 0]",
         r"\[track\], field 'scrapyards'"),
        ("towers = 0", "towers = 0\ncolour = 3", r"\[track\], field 'colour'"),
        ("schema_version = 1", "schema_version = 2", "field 'schema_version'"),
    ],
)  # fmt: skip
def test_bad_data_files_name_the_file_the_entry_and_the_field(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    text = default_data_path().read_text(encoding="utf-8")
    assert old in text
    path = _write(tmp_path, text.replace(old, new, 1))
    with pytest.raises(ClockworkDataError, match=message) as info:
        load_data(path)
    assert str(path) in str(info.value)


def test_unreadable_data_files(tmp_path: Path) -> None:
    with pytest.raises(ClockworkDataError, match="cannot read"):
        load_data(tmp_path / "missing.toml")
    with pytest.raises(ClockworkDataError, match="not a valid TOML"):
        load_data(_write(tmp_path, "length = = 3"))


def test_another_track_file_plays(tmp_path: Path) -> None:
    text = default_data_path().read_text(encoding="utf-8")
    text = text.replace("length = 49", "length = 30").replace(
        "scrapyards = [7, 14, 21, 28, 35, 42]", "scrapyards = [4, 9, 13, 18, 22, 27]"
    )
    data = load_data(_write(tmp_path, text))
    state = GAME.new_state(3, 1, data=data)
    play(state, np.random.default_rng(0))
    restored = state_from_dict(json.loads(json.dumps(state.to_dict())))
    assert restored.data.track.length == 30
