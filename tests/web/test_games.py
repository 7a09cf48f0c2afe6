"""Every registered game in the web app: the game chooser, the generic pages over the game
protocol, generic logs and replays, and the input checks against the game's own facts.

The conformance toy game (Hidden Tricks, ``tests/conformance/toy_game.py``, private hands) is
registered for each test's duration only (:func:`toy`), as a game with no web code of its own;
so is a variant played by 2 or 4 players (a gap in the counts).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from agents.web import create_app
from agents.web.generic import strip_ansi, table_view
from airships_env import registry
from airships_env.game_log import parse_game_log, replay_log
from airships_env.registry import games as registry_games
from tests.conformance.toy_game import GAME as TOY
from tests.conformance.toy_game import TricksGame, TricksPresenter
from tests.web.contract import Page

JSON = {"accept": "application/json"}
TOY_TARGET = "tests.conformance.toy_game:GAME"


class GappedTricks(TricksGame):
    """Hidden Tricks for 2 or 4 players (no 3): a game whose counts have a gap."""

    name = "gapped"
    title = "Gapped Tricks"
    player_counts = (2, 4)


GAPPED = GappedTricks()


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The toy games registered (through ``registry.register``) for one test; the registry's
    tables, and Gymnasium's ids when gymnasium is loaded, are restored afterwards."""
    monkeypatch.setattr(registry, "_TARGETS", dict(registry._TARGETS))
    monkeypatch.setattr(registry, "_LOADED", dict(registry._LOADED))
    registry.register(TOY.name, TOY_TARGET)
    registry.register(GAPPED.name, f"{__name__}:GAPPED")
    yield TOY.name
    gymnasium = sys.modules.get("gymnasium")
    if gymnasium is not None:
        for game in (TOY, GAPPED):
            gymnasium.registry.pop(registry.gym_id(game.name, game.version), None)


def play_by_the_markup(client, location: str, limit: int = 500) -> tuple[int, Page]:
    """Click data-action choices (by posting their form) and let the bots move, until the page
    shows data-testid=game-over; the number of choices made and the last page."""
    clicks = 0
    for _ in range(limit):
        page = Page(client.get(location).text)
        assert len(page.games) == 1, page.games  # one element names the game
        if page.over:
            assert not page.actions
            return clicks, page
        if page.actions:
            index, label, url, hidden = page.actions[clicks % len(page.actions)]
            assert label, f"action {index} has no label"
            response = client.post(url, data={**hidden, "action": str(index)})
            clicks += 1
        else:  # a bot is to act: the page's advance form
            ((url, hidden),) = page.forms
            assert url.endswith("/advance")
            response = client.post(url, data={**hidden, "all": "1"})
        assert response.status_code == 303, response.text
    raise AssertionError("the game did not end")


def test_a_whole_toy_game_through_the_markup(client, folders, toy: str) -> None:
    """/play?game=<toy> starts a game of a game with no web code; clicking data-action choices
    ends in game-over; the generic log replays to the same end through GAME.replay_action."""
    games, _ = folders
    start = client.get(f"/play?game={toy}&players=2&opponents=random&seat=0&seed=7")
    assert start.status_code == 303, start.text
    location = start.headers["location"]
    assert location == "/game/web-7"
    first = Page(client.get(location).text)
    assert first.games == [toy]
    legal = TOY.new_state(2, seed=7).legal_actions()
    assert [index for index, _, _, _ in first.actions] == legal
    assert [label for _, label, _, _ in first.actions] == [TOY.action_name(a) for a in legal]
    clicks, last = play_by_the_markup(client, location)
    assert clicks >= 3  # three cards in hand at least
    assert last.games == [toy]
    final = client.get("/api/game/web-7").json()
    assert final["game"] == toy and final["game_over"] and final["legal_actions"] == []
    lines = (games / "web-7.jsonl").read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert (header["format"], header["game"], header["num_players"]) == ("game-log", toy, 2)
    assert header["seed"] == 7 and header["options"] is None
    assert header["meta"]["agents"] == ["human", "random"] and header["meta"]["seat"] == 0
    replayed = replay_log(parse_game_log(lines, "web-7.jsonl"), TOY)
    assert replayed.state.is_terminal()
    assert list(replayed.state.outcome().scores) == final["scores"]
    assert sum(1 for seat in replayed.players if seat == 0) == clicks
    # Dealt again from the header's seed alone, the records replay the same game.
    bare = {k: v for k, v in header.items() if k != "initial_state"}
    again = replay_log(parse_game_log([json.dumps(bare), *lines[1:]], "bare"), TOY)
    assert again.state.to_dict() == replayed.state.to_dict()


def test_the_game_page_shows_the_presenter_and_the_records(client, folders, toy: str) -> None:
    """The table is the presenter's SVG of the person's view; a bot's move is its record text."""
    games, _ = folders
    client.get(f"/play?game={toy}&players=3&opponents=random&seat=1&seed=4")
    waiting = client.get("/game/web-4").text
    assert 'data-testid="to-act" data-seat="0"' in waiting and "data-action=" not in waiting
    assert client.post("/game/web-4/advance", data={"step": 0}).status_code == 303
    page = client.get("/game/web-4").text
    state = TOY.new_state(3, seed=4)
    logged = json.loads((games / "web-4.jsonl").read_text().splitlines()[1])
    record = state.apply_action(logged["action"])
    assert record.to_dict() == logged
    # Another seat's record is told by its action's name: the toy's record_text, like the
    # games' presenters, writes the true log (it has no seat to tell it for).
    text = TOY.action_name(record.action)
    assert f'<span class="what">{text}</span>' in page
    assert TOY.presenter().svg(state.view(1), 1, record) in page  # the seat's own view
    game = client.get("/api/game/web-4").json()
    assert (game["to_act"], game["step"], game["last"]) == (1, 1, text)
    assert len(Page(page).actions) == len(state.legal_actions())


def test_bad_games_and_player_counts_are_400(client, folders, toy: str) -> None:
    """An unregistered game, a player count the game does not have (naming the allowed ones),
    a seat off the table, an agent the game does not have: 400, and nothing is written."""
    games, _ = folders
    cases = [
        ("game=chess&players=2&opponents=random", "unknown game 'chess'"),
        (f"game={toy}&players=5&opponents=random", "players must be 2 to 4, got 5"),
        (f"game={toy}&players=1&opponents=random", "players must be 2 to 4, got 1"),
        ("game=gapped&players=3&opponents=random", "played by 2 or 4 players"),
        ("game=gapped&players=3&opponents=random", "one of 2, 4, got 3"),
        ("game=gapped&players=5&opponents=random", "players must be 2 to 4, got 5"),
        (f"game={toy}&players=2&opponents=random&seat=2", "seat must be 0 to 1, got 2"),
        (f"game={toy}&players=2&opponents=random&seed=-1", "seed must be"),
        (f"game={toy}&players=2&opponents=heuristic", "unknown agent 'heuristic'"),
        (f"game={toy}&players=2&opponents=ismcts:ms=4000", "at most 3 s"),
        (f"game={toy}&players=2&opponents=mcts:sims=nan", "expected a finite number"),
    ]
    for query, words in cases:
        response = client.get(f"/play?{query}", headers=JSON)
        assert response.status_code == 400, (query, response.text)
        assert words in response.json()["error"], (query, response.json())
    known = ", ".join(registry_games())  # airships, the registered games, gapped, tricks
    assert "gapped" in known and "tricks" in known
    assert (
        f"known games are {known}" in client.get("/play?game=chess", headers=JSON).json()["error"]
    )
    assert not list(games.glob("*.jsonl"))
    assert client.get("/play?game=gapped&players=4&opponents=random&seed=1").status_code == 303


def test_actions_are_checked_against_the_game(client, toy: str) -> None:
    """An action index beyond the game's table is 400; an illegal one 409 naming the legal ones
    by the game's names; a stale step 409."""
    client.get(f"/play?game={toy}&players=2&opponents=random&seat=0&seed=7")
    legal = TOY.new_state(2, seed=7).legal_actions()
    beyond = client.post("/game/web-7/act", data={"action": "9", "step": "0"}, headers=JSON)
    assert beyond.status_code == 400 and "action must be 0 to 8" in beyond.json()["error"]
    illegal = next(a for a in range(TOY.num_actions) if a not in legal)
    refused = client.post(
        "/game/web-7/act", data={"action": str(illegal), "step": "0"}, headers=JSON
    )
    assert refused.status_code == 409
    assert f"action {illegal} ({TOY.action_name(illegal)}) is not legal" in refused.json()["error"]
    assert [a["action"] for a in refused.json()["legal_actions"]] == legal
    assert client.post("/game/web-7/act", data={"action": legal[0], "step": 0}).status_code == 303
    stale = client.post("/game/web-7/act", data={"action": legal[0], "step": 0}, headers=JSON)
    assert stale.status_code == 409


def test_a_restart_continues_a_toy_game(folders, toy: str) -> None:
    """A new server over the same folder opens the generic log where it was, bots included."""
    from starlette.testclient import TestClient

    games, results = folders
    with TestClient(create_app(games, results, pace_ms=0), follow_redirects=False) as first:
        first.get(f"/play?game={toy}&players=3&opponents=ismcts:sims=20,random&seat=2&seed=5")
        first.post("/game/web-5/advance", data={"step": 0, "all": "1"})
        before = first.get("/api/game/web-5").json()
        action = before["legal_actions"][-1]["action"]
        first.post("/game/web-5/act", data={"action": action, "step": before["step"]})
        middle = first.get("/api/game/web-5").json()
    with TestClient(create_app(games, results, pace_ms=0), follow_redirects=False) as second:
        again = second.get("/api/game/web-5").json()
        assert again == middle
        assert "did not repeat" not in second.get("/game/web-5").text
        clicks, _ = play_by_the_markup(second, "/game/web-5")
        assert clicks >= 1


def test_a_generic_replay_steps_through_the_log(client, folders, toy: str) -> None:
    """/replay of a generic log: the table at any step, the list of steps, the end; an upload
    of the same log replays too, a broken one is refused naming its line."""
    games, _ = folders
    client.get(f"/play?game={toy}&players=2&opponents=random&seat=0&seed=7")
    play_by_the_markup(client, "/game/web-7")
    lines = (games / "web-7.jsonl").read_text(encoding="utf-8").splitlines()
    size = len(lines) - 1
    start = client.get("/replay/web-7")
    assert start.status_code == 200 and Page(start.text).games == [toy]
    assert 'data-position="0"' in start.text and f'data-size="{size}"' in start.text
    assert start.text.count('class="move"') == 0 and start.text.count("<li data-step=") == size
    middle = client.get("/replay/web-7?step=2").text
    assert 'aria-current="step"' in middle and "Step 2: the last action" in middle
    end = Page(client.get(f"/replay/web-7?step={size}").text)
    assert end.over and not end.actions
    assert client.get(f"/replay/web-7?step={size + 1}").status_code == 400
    assert client.get("/replay/web-7?turn=2").status_code == 400
    upload = client.post("/replays", files={"log": ("toy.jsonl", "\n".join(lines).encode())})
    assert upload.status_code == 303
    assert client.get(upload.headers["location"]).status_code == 200
    broken = [*lines[:2], json.dumps({**json.loads(lines[2]), "action": 99}), *lines[3:]]
    refused = client.post(
        "/replays", files={"log": ("bad.jsonl", "\n".join(broken).encode())}, headers=JSON
    )
    assert refused.status_code == 400 and "bad.jsonl: line 3" in refused.json()["error"]


def test_the_chooser_lists_every_registered_game(client, toy: str) -> None:
    """The home page has a form per registered game: its title, its player counts, its agents."""
    page = client.get("/").text
    for name in registry.games():
        game = registry.get_game(name)
        assert f'data-chooser="{name}"' in page
        assert game.title in page
    assert "Hidden Tricks" in page and "2 to 4 players" in page and "2 or 4 players" in page
    form = page[page.index('data-chooser="tricks"') :]
    form = form[: form.index("</form>")]
    assert '<input type="hidden" name="game" value="tricks">' in form
    options = [chunk.split('"')[0] for chunk in form.split('<option value="')[1:]]
    assert options[:3] == ["2", "3", "4"]  # players
    assert {"random", "mcts", "ismcts"} <= set(options)
    assert "heuristic" not in options
    assert 'value="random"' in form  # its default opponent
    assert "data-game=" not in page  # the contract's attribute is for a game's page only
    started = client.post(
        "/new", data={"game": "tricks", "players": "3", "seat": "1", "opponent1": "random",
                      "opponent2": "mcts:sims=10", "seed": "12"},
    )  # fmt: skip
    assert started.status_code == 303 and started.headers["location"] == "/game/web-12"
    assert client.get("/api/game/web-12").json()["agents"] == ["random", "human", "mcts:sims=10"]
    listed = client.get("/").text
    assert "web-12" in listed and 'href="/game/web-12">open</a>' in listed


def test_table_view_falls_back_to_text() -> None:
    """A presenter that draws no SVG is shown as its terminal text, colour codes stripped."""

    class TextOnly(TricksPresenter):
        def svg(self, view: Any, seat: int | None, last_record: Any) -> str:
            raise NotImplementedError

        def ansi(self, view: Any, seat: int | None, last_record: Any) -> str:
            return "\x1b[1;31mtrick\x1b[0m <b>" + super().ansi(view, seat, last_record)

    class TextGame(TricksGame):
        def presenter(self) -> TextOnly:
            return TextOnly()

    state = TOY.new_state(2, seed=1)
    shown = table_view(TextGame(), state.view(0), 0, None)
    assert shown["svg"] == "" and shown["text"].startswith("trick <b>trick")
    assert "\x1b" not in shown["text"] and "your hand" in shown["text"]
    assert strip_ansi("\x1b[38;5;208mx\x1b[0m\x1b[2Ky") == "xy"
    drawn = table_view(TOY, state.view(0), 0, None)
    assert str(drawn["svg"]).startswith("<svg") and drawn["text"] == ""


def test_search_bots_of_any_game_are_capped(toy: str) -> None:
    """A search bot of a game other than Airships thinks for at most MOVE_SECONDS a move: a
    count budget gets the time option added; no budget keeps its default count, capped too."""
    from agents.web.games import MOVE_SECONDS, bot_spec, make_web_bot, search_budget

    assert search_budget("ismcts", toy) == ("ms", 1000.0, ("sims",))
    assert search_budget("random", toy) is None
    assert bot_spec("ismcts:sims=50", toy) == f"ismcts:sims=50,ms={MOVE_SECONDS * 1000:g}"
    assert bot_spec("mcts:ms=100", toy) == "mcts:ms=100"
    default = make_web_bot("mcts", toy)
    assert (default.sims, default.ms) == (200, MOVE_SECONDS * 1000)
    counted = make_web_bot("ismcts:sims=7", toy)
    assert (counted.sims, counted.ms) == (7, MOVE_SECONDS * 1000)
    timed = make_web_bot("ismcts:ms=250", toy)
    assert (timed.sims, timed.ms) == (None, 250)


def test_records_are_told_as_the_person_may_read_them(toy: str) -> None:
    """Another seat's record is its action's name unless the presenter's record_text takes a
    seat; the person's own records and the referee's log are told in full."""
    from agents.web.generic import seat_record_text

    class Telling(TricksPresenter):
        def record_text(self, record: Any, state: Any) -> str:
            return f"P{record.player} plays {record.action + 1}, draws {list(record.drawn)}"

    class SeatTelling(TricksPresenter):
        def record_text(self, record: Any, state: Any, seat: int | None = None) -> str:
            return f"seen by {seat}: {state.observer}"

    class TellingGame(TricksGame):
        presenter_class: type = Telling

        def presenter(self) -> Any:
            return self.presenter_class()

    state = TOY.new_state(2, seed=3)
    state.apply_action(state.legal_actions()[0])
    record = state.apply_action(state.legal_actions()[0])  # seat 1 ends the trick: draws
    assert record.drawn, "the trick's end draws a card for each seat"
    telling = TellingGame()
    full = telling.presenter().record_text(record, state)
    assert seat_record_text(telling, record, state, 1, 0) == TOY.action_name(record.action)
    assert seat_record_text(telling, record, state, 1, 1) == full
    assert seat_record_text(telling, record, state, 1, None) == full
    telling.presenter_class = SeatTelling
    assert seat_record_text(telling, record, state, 1, 0) == "seen by 0: 0"


def test_a_replay_of_a_game_in_progress_tells_no_more_than_its_page(client, toy: str) -> None:
    """While the person plays, the replay draws and tells the game as that person sees it; once
    it is over, the replay is the referee's log (every record in full)."""
    client.get(f"/play?game={toy}&players=2&opponents=random&seat=0&seed=7")
    legal = client.get("/api/game/web-7").json()["legal_actions"]
    client.post("/game/web-7/act", data={"action": legal[0]["action"], "step": 0})
    client.post("/game/web-7/advance", data={"step": 1})
    during = client.get("/replay/web-7?step=2").text
    assert "P0 plays" in during  # the person's own record, in full
    assert "P1 plays" not in during and "P1 random: play " in during
    assert "your hand" in during  # drawn from the person's view
    play_by_the_markup(client, "/game/web-7")
    after = client.get("/replay/web-7?step=2").text
    assert "P1 plays" in after and "your hand" not in after


def test_a_game_that_cannot_load_is_named_not_a_500(
    client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A registered game whose module is missing here: the chooser says why, /play is a 400."""
    monkeypatch.setattr(registry, "_TARGETS", dict(registry._TARGETS))
    monkeypatch.setitem(registry._TARGETS, "missing", "tests.web.no_such_game:GAME")
    home = client.get("/")
    assert home.status_code == 200
    assert 'data-chooser="missing"' in home.text and "cannot be played here" in home.text
    response = client.get("/play?game=missing&players=2&opponents=random", headers=JSON)
    assert response.status_code == 400
    assert "game 'missing' cannot be played here" in response.json()["error"]


def test_generic_logs_refuse_bad_headers_naming_the_line(toy: str) -> None:
    """A header's player count the game does not have, a record that is not the game's, a
    record after the end: GameLogError naming the source and the line."""
    from airships_env.game_log import GameLogError

    header = {"type": "header", "format": "game-log", "game": toy, "num_players": 7, "seed": 1}
    with pytest.raises(GameLogError, match=r"x.jsonl: line 1: .*num_players 7: Hidden Tricks"):
        replay_log(parse_game_log([json.dumps(header)], "x.jsonl"), TOY)
    header["num_players"] = 2
    lines = [json.dumps(header), json.dumps({"action": 0, "player": "x", "drawn": 5})]
    with pytest.raises(GameLogError, match=r"x.jsonl: line 2: not a valid tricks record"):
        replay_log(parse_game_log(lines, "x.jsonl"), TOY)
    with pytest.raises(GameLogError, match=r"x.jsonl: line 1: not a game log"):
        parse_game_log(['{"type": "header", "format": "airships-log"}'], "x.jsonl")


def test_every_game_json_names_its_game(client, toy: str) -> None:
    """/api/game/{id} says which game it is, Airships' too."""
    client.get("/play?players=2&opponents=random&seat=0&seed=3")
    client.get(f"/play?game={toy}&players=2&opponents=random&seat=0&seed=4")
    assert client.get("/api/game/web-3").json()["game"] == "airships"
    assert client.get("/api/game/web-4").json()["game"] == toy


def test_the_chooser_offers_no_agent_that_needs_a_file(toy: str) -> None:
    # The generic ppo needs ppo:path=FILE, which a request may not name, where its game ships no
    # bundled policy (the toy game): the web app leaves it out there; Airships keeps its list,
    # and Clockwork City, Australia and Nippon offer their ppo (they have bundled policies).
    from agents.registry import AGENTS, agents_for
    from agents.web.games import game_agents

    assert "ppo" in agents_for(toy) and "ppo" not in game_agents(toy)
    assert game_agents("airships") == list(AGENTS)
    for game in ("clockwork", "australia", "nippon"):  # their bundled policies need no file
        assert "ppo" in game_agents(game)


def test_the_nippon_page_draws_its_svg_board_of_the_seat_view(client) -> None:
    """Nippon's page holds its own SVG board drawn from the person's view, the last move as its
    caption; the page, not the board, carries the markup contract."""
    from airships_env.games.nippon import GAME as NIPPON

    client.get("/play?game=nippon&players=2&opponents=random&seat=0&seed=3")
    page = client.get("/game/web-3").text
    state = NIPPON.new_state(2, seed=3)
    assert state.current_player == 0
    board = NIPPON.presenter().svg(state.view(0), 0, None)
    assert 'class="nippon-board"' in board and board in page
    markup = Page(page)
    assert markup.games == ["nippon"]
    assert [index for index, _, _, _ in markup.actions] == state.legal_actions()
    index, _, url, hidden = markup.actions[0]
    assert client.post(url, data={**hidden, "action": str(index)}).status_code == 303
    record = state.apply_action(index)
    after = client.get("/game/web-3").text
    assert NIPPON.presenter().svg(state.view(0), 0, record) in after
    assert "Last: " + NIPPON.presenter().record_text(record, state) in after
