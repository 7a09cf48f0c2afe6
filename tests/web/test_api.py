"""The web app without a browser: games by URL, the log format, and every refusal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents.session import SERVE_TOOL
from agents.web import create_app
from agents.web.games import checked_opponents, checked_spec
from airships_env.engine import read_log, replay

JSON = {"accept": "application/json"}


def new_game(client, query: str = "players=2&opponents=heuristic&seat=0&seed=7") -> str:
    """Start a game by URL and return its id."""
    response = client.get(f"/play?{query}")
    assert response.status_code == 303, response.text
    location = response.headers["location"]
    assert location.startswith("/game/")
    return location.removeprefix("/game/")


def state(client, game_id: str) -> dict:
    """The game as JSON."""
    response = client.get(f"/api/game/{game_id}")
    assert response.status_code == 200
    return response.json()


def play_to_the_end(client, game_id: str, limit: int = 2000) -> dict:
    """The person takes the first legal action; the bots play in between."""
    for _ in range(limit):
        now = state(client, game_id)
        if now["game_over"]:
            return now
        if now["to_act"] == now["your_seat"]:
            action = now["legal_actions"][0]["action"]
            response = client.post(
                f"/game/{game_id}/act", data={"action": action, "step": now["step"]}
            )
        else:
            response = client.post(
                f"/game/{game_id}/advance", data={"step": now["step"], "all": "1"}
            )
        assert response.status_code == 303, response.text
    raise AssertionError("the game did not end")


def test_play_by_url_writes_a_resumable_log(client, folders) -> None:
    """/play opens a new game whose log records what it takes to resume it anywhere."""
    games, _ = folders
    game_id = new_game(client)
    assert game_id == "web-7"
    log = read_log(games / "web-7.jsonl")
    assert log.meta["tool"] == SERVE_TOOL
    assert log.meta["seed"] == 7 and log.meta["seat"] == 0
    assert log.meta["agents"] == ["human", "heuristic"]
    page = client.get("/game/web-7")
    assert page.status_code == 200
    assert 'data-testid="to-act"' in page.text and 'data-seat="0"' in page.text
    assert page.text.count("data-action=") == len(state(client, game_id)["legal_actions"])
    assert new_game(client) == "web-7-2"  # the same seed again: a new game beside it


def test_a_whole_game_and_the_scores(client, folders) -> None:
    """A 2-player game against heuristic, played to the end through the routes."""
    games, _ = folders
    game_id = new_game(client, "players=2&opponents=heuristic&seat=1&seed=11")
    final = play_to_the_end(client, game_id)
    assert final["winners"] and len(final["scores"]) == 2
    page = client.get(f"/game/{game_id}").text
    assert 'data-testid="game-over"' in page and "data-score=" in page
    assert replay(read_log(games / f"{game_id}.jsonl")).final_scores == tuple(final["scores"])


def test_a_restart_loses_nothing(folders) -> None:
    """A new server over the same folder continues the game where it was."""
    from starlette.testclient import TestClient

    games, results = folders
    with TestClient(create_app(games, results, pace_ms=0), follow_redirects=False) as first:
        game_id = new_game(first, "players=3&opponents=greedy,random&seat=2&seed=5")
        first.post(f"/game/{game_id}/advance", data={"step": 0, "all": "1"})
        before = state(first, game_id)
        action = before["legal_actions"][-1]["action"]
        first.post(f"/game/{game_id}/act", data={"action": action, "step": before["step"]})
        middle = state(first, game_id)
    with TestClient(create_app(games, results, pace_ms=0), follow_redirects=False) as second:
        again = state(second, game_id)
        assert again["step"] == middle["step"] and again["legal_actions"] == middle["legal_actions"]
        play_to_the_end(second, game_id)


def test_unknown_game_is_404(client) -> None:
    """Unknown ids, and ids that try to leave the folder, are not found (as a page or JSON)."""
    assert client.get("/game/nothing-here").status_code == 404
    response = client.get("/api/game/nothing-here", headers=JSON)
    assert response.status_code == 404 and "no game" in response.json()["error"]
    for path in (
        "/replay/..%2F..%2Fetc%2Fpasswd",
        "/replay/../../etc/passwd",
        "/replay/uploads/../../secret",
        "/replay/%2Fetc%2Fpasswd",
        "/game/.hidden",
    ):
        assert client.get(path).status_code == 404, path
    assert client.post("/game/nothing/act", data={"action": 0, "step": 0}).status_code == 404


def test_illegal_and_stale_actions_are_refused_and_change_nothing(client, folders) -> None:
    """409 names the legal actions; the log and the game stay as they were."""
    games, _ = folders
    game_id = new_game(client)
    path = games / f"{game_id}.jsonl"
    size = path.stat().st_size
    legal = [item["action"] for item in state(client, game_id)["legal_actions"]]
    illegal = next(a for a in range(83) if a not in legal)
    response = client.post(
        f"/game/{game_id}/act", data={"action": illegal, "step": 0}, headers=JSON
    )
    assert response.status_code == 409
    body = response.json()
    assert "not legal" in body["error"]
    assert [item["action"] for item in body["legal_actions"]] == legal
    page = client.post(f"/game/{game_id}/act", data={"action": illegal, "step": 0})
    assert page.status_code == 409 and "The legal actions now" in page.text
    stale = client.post(f"/game/{game_id}/act", data={"action": legal[0], "step": 5}, headers=JSON)
    assert stale.status_code == 409 and "stale" in stale.json()["error"]
    assert stale.json()["legal_actions"]
    for data in ({"action": "x", "step": 0}, {"step": 0}, {"action": 99999999999999999999}):
        assert client.post(f"/game/{game_id}/act", data=data).status_code == 400
    outside = client.post(f"/game/{game_id}/act", data={"action": -1, "step": 0}, headers=JSON)
    assert outside.status_code == 400 and "action must be 0 to 82" in outside.json()["error"]
    assert client.post(f"/game/{game_id}/advance", data={"step": 0}).status_code == 409
    assert path.stat().st_size == size
    assert state(client, game_id)["step"] == 0
    # The same action, right, goes through once; sent again it is stale.
    ok = client.post(f"/game/{game_id}/act", data={"action": legal[0], "step": 0})
    assert ok.status_code == 303
    again = client.post(f"/game/{game_id}/act", data={"action": legal[0], "step": 0})
    assert again.status_code == 409


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("players=2&opponents=nobody", "unknown agent"),
        ("players=2&opponents=agents.bots.greedy.GreedyAgent", "registered agents"),
        ("players=2&opponents=ppo:path=/etc/passwd", "numbers and true/false only"),
        ("players=2&opponents=mcts:seconds=600", "over"),
        ("players=2&opponents=heuristic:config=x.yaml", "numbers and true/false only"),
        ("players=5&opponents=random", "players must be 2 to 4"),
        ("players=2&opponents=random&seat=3", "seat must be 0 to 1, got 3"),
        ("players=2&opponents=random,greedy", "do not fit"),
        ("players=two", "field 'players' must be a whole number"),
        ("players=2&opponents=random&seed=-4", "seed must be"),
        ("players=99999999999999999999&opponents=random", "players must be 2 to 4, got a 20-"),
        ("players=3&seat=" + "9" * 5000, "seat must be 0 to 2, got a 5000-digit number"),
        ("players=2&opponents=mcts:z=nan", "option z=nan: expected a finite number"),
        ("players=2&opponents=mcts:seconds=inf", "option seconds=inf: expected a finite"),
        ("players=2&opponents=mcts:seconds=4", "at most 3 s"),
        ("players=2&opponents=ismcts:ms=3500", "at most 3 s"),
        ("game=chess&players=2&opponents=random", "unknown game 'chess': the known games are"),
    ],
)
def test_bad_new_games_are_refused(client, folders, query: str, words: str) -> None:
    """400 with the reason; no game is written and nothing is imported from a request."""
    games, _ = folders
    response = client.get(f"/play?{query}", headers=JSON)
    assert response.status_code == 400
    assert words in response.json()["error"]
    assert not list(games.glob("*.jsonl"))


def test_opponent_specs() -> None:
    """Registered names with numeric options pass; anything else is refused."""
    assert checked_spec("mcts:sims=50") == "mcts:sims=50"
    assert checked_opponents("random,mcts:sims=50,seconds=0.5") == [
        "random",
        "mcts:sims=50,seconds=0.5",
    ]
    assert checked_spec("ismcts:ms=200") == "ismcts:ms=200"
    for spec in ("os.system", "ppo:path=model.zip", "greedy:name=x", "x:y", "ismcts:ms=60000"):
        with pytest.raises(ValueError):
            checked_spec(spec)


def test_browser_and_terminal_share_games(client, folders, cli) -> None:
    """A browser game resumes with 'airships play --resume'; a terminal game opens here."""
    games, _ = folders
    game_id = new_game(client, "players=2&opponents=random&seat=0&seed=3")
    now = state(client, game_id)
    client.post(
        f"/game/{game_id}/act",
        data={"action": now["legal_actions"][0]["action"], "step": 0},
    )
    step = state(client, game_id)["step"]
    run = cli(["play", "--resume", str(games / f"{game_id}.jsonl"), "--no-color"], stdin="1\nq\n")
    assert run.code == 0, run.err
    assert "Resuming" in run.out
    assert state(client, game_id)["step"] > step  # the server reads the file again

    terminal = games / "terminal.jsonl"
    run = cli(
        ["play", "--opponents", "greedy", "--seed", "4", "--log", str(terminal), "--no-color"],
        stdin="1\nq\n",
    )
    assert run.code == 0, run.err
    opened = state(client, "terminal")
    assert opened["agents"] == ["human", "greedy"]
    play_to_the_end(client, "terminal")


def test_uploads(client, folders) -> None:
    """A log replays after its upload; a file that is no game log gets the line and the field,
    as 'airships replay' says; an upload over the limit is refused (413)."""
    games, _ = folders
    game_id = new_game(client)
    good = (games / f"{game_id}.jsonl").read_bytes()
    response = client.post("/replays", files={"log": ("mine.jsonl", good)})
    assert response.status_code == 303
    assert client.get(response.headers["location"]).status_code == 200

    bad = client.post("/replays", files={"log": ("notes.txt", b"hello\n")}, headers=JSON)
    assert bad.status_code == 400 and "notes.txt: line 1: not valid JSON" in bad.json()["error"]
    lines = good.decode().splitlines()
    header = json.loads(lines[0])
    record = {"type": "action", "step": 0, "colour": "blue"}
    broken = "\n".join([json.dumps(header), json.dumps(record)]).encode()
    response = client.post("/replays", files={"log": ("broken.jsonl", broken)}, headers=JSON)
    assert response.status_code == 400
    assert "line 2" in response.json()["error"] and "colour" in response.json()["error"]
    huge = good + b" " * (70 * 1024)
    response = client.post("/replays", files={"log": ("huge.jsonl", huge)}, headers=JSON)
    assert response.status_code == 413
    assert client.post("/replays", data={"x": "1"}).status_code == 400


def test_replay_steps(client, folders) -> None:
    """A replay opens at any step or turn; out of range is a 400 naming the range."""
    game_id = new_game(client, "players=2&opponents=greedy&seat=0&seed=9")
    play_to_the_end(client, game_id)
    first = client.get(f"/replay/{game_id}")
    assert first.status_code == 200 and 'data-position="0"' in first.text
    third = client.get(f"/replay/{game_id}?step=3")
    assert 'data-position="3"' in third.text and "Step 3: the last action" in third.text
    assert client.get(f"/replay/{game_id}?turn=2").status_code == 200
    assert client.get(f"/replay/{game_id}?step=100000").status_code == 400
    assert client.get(f"/replay/{game_id}?turn=9999").status_code == 400
    assert client.get(f"/replay/{game_id}?step=x").status_code == 400
    assert client.get("/").status_code == 200


def test_tournament_results(client) -> None:
    """The leaderboard, the pairwise matrix and the plots of a results folder."""
    assert "smoke" in client.get("/results").text
    page = client.get("/results/smoke")
    assert page.status_code == 200
    assert 'data-testid="leaderboard"' in page.text and "greedy" in page.text
    assert 'data-testid="pairwise"' in page.text
    plot = client.get("/results/smoke/ratings.png")
    assert plot.status_code == 200 and plot.content[:4] == b"\x89PNG"
    assert client.get("/results/smoke/secret.png").status_code == 404
    assert client.get("/results/nothing").status_code == 404
    assert client.get("/results/%2E%2E").status_code == 404


def test_serve_command_help(cli) -> None:
    """airships serve is a command with its options."""
    run = cli(["serve", "--help"])
    assert run.code == 0 and "--games" in run.out and "127.0.0.1" in run.out


def test_log_folder_listing(client, folders: tuple[Path, Path]) -> None:
    """The home page lists the folder's games, and a broken log says what is wrong with it."""
    games, _ = folders
    new_game(client)
    (games / "broken.jsonl").write_text("not json\n", encoding="utf-8")
    page = client.get("/").text
    assert "web-7" in page and "line 1: not valid JSON" in page
    assert client.get("/game/broken").status_code == 422


def test_the_dice_legend_is_on_the_game_and_replay_pages(client) -> None:
    """The pages explain the dice they draw, with the terminal's meanings (one owner)."""
    from html import escape

    from airships_env.engine.text import DICE_NOTATION

    game_id = new_game(client)
    pages = (client.get(f"/game/{game_id}").text, client.get(f"/replay/{game_id}").text)
    for page in pages:
        assert 'id="dice-legend"' in page
        legend = page[page.index('id="dice-legend"') :]
        for _, notation, meaning in DICE_NOTATION:
            assert f'aria-label="{escape(notation)}"' in legend
            assert escape(meaning) in legend


def test_bot_moves_wait_in_a_bounded_queue() -> None:
    """Moves beyond the queue are refused (503) instead of piling up; the others finish."""
    import asyncio
    import threading

    from agents.web.app import BotWorkers
    from agents.web.games import GameError

    release = threading.Event()
    workers = BotWorkers(workers=1, queue=2)

    async def main() -> tuple[list[object], str]:
        held = [asyncio.ensure_future(workers.run(lambda: release.wait(10))) for _ in range(2)]
        await asyncio.sleep(0.05)
        with pytest.raises(GameError) as refused:
            await workers.run(lambda: True)
        release.set()
        done = await asyncio.gather(*held)
        again = await workers.run(lambda: "free again")
        return [*done, again], f"{refused.value.status} {refused.value.message}"

    try:
        results, refusal = asyncio.run(main())
    finally:
        release.set()
        workers.close()
    assert results == [True, True, "free again"]
    assert refusal.startswith("503 the bots are busy (2 moves waiting)")


def test_logs_name_their_game(client, folders) -> None:
    """A web log's header names its game; a log without it reads as Airships, and a log of a
    game this server does not know is refused naming it."""
    games, _ = folders
    game_id = new_game(client, "game=airships&players=2&opponents=random&seat=0&seed=8")
    lines = (games / f"{game_id}.jsonl").read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert header["meta"]["game"] == "airships"
    del header["meta"]["game"]
    (games / "plain.jsonl").write_text(
        "\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8"
    )
    assert client.get("/replay/plain").status_code == 200
    assert state(client, "plain")["step"] == 0
    header["meta"]["game"] = "chess"
    other = "\n".join([json.dumps(header), *lines[1:]]) + "\n"
    (games / "other.jsonl").write_text(other, encoding="utf-8")
    for path in ("/replay/other", "/api/game/other"):
        response = client.get(path, headers=JSON)
        assert response.status_code == 422
        assert "unknown game 'chess': the known games are airships" in response.json()["error"]
    assert "unknown game &#39;chess&#39;" in client.get("/").text
    upload = client.post("/replays", files={"log": ("o.jsonl", other.encode())}, headers=JSON)
    assert upload.status_code == 400 and "unknown game 'chess'" in upload.json()["error"]


def test_the_table_says_how_many_expansions_left_the_game() -> None:
    """Issue 27 item 14: the status chip said '1 out of the game'."""
    from agents.web.app import _templates, table_context
    from airships_env.engine import new_game

    state = new_game(2, seed=1)
    state.removed.append(3)
    html = _templates().get_template("_table.html").render(**table_context(state, ["P0", "P1"]))
    assert "1 expansion out of the game" in html
