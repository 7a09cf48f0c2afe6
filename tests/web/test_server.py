"""Against a running server: ``airships serve --port 0`` in a subprocess on 127.0.0.1.

Hostile requests (huge numbers, huge or malformed bodies, a slow bot, a link out of the games
folder, a busy port) and a whole game played through the markup contract (``data-game``,
``data-action``, ``data-testid="game-over"``) by parsing the pages, as a browser would click them.
Every request loop is bounded; only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import http.client
import json
import queue
import select
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

import pytest

pytest.importorskip("uvicorn")

from tests.web.contract import Page

HOST = "127.0.0.1"
START_SECONDS = 60
CLI = "import sys; from agents.cli import main; sys.exit(main())"
JSON = {"accept": "application/json"}


@dataclass
class Answer:
    """An HTTP answer: status, headers, body as text."""

    status: int
    headers: dict[str, str]
    text: str

    def json(self) -> dict:
        """The body as JSON."""
        return json.loads(self.text)


class Served:
    """A running ``airships serve`` process and its URL."""

    def __init__(self, process: subprocess.Popen[str], url: str, games: Path):
        self.process = process
        self.url = url
        self.port = int(url.rsplit(":", 1)[1].rstrip("/"))
        self.games = games

    def get(self, path: str, headers: dict[str, str] | None = None, timeout: float = 10) -> Answer:
        """GET a path (redirects are answers, not followed)."""
        return call(self.port, "GET", path, None, headers, timeout)

    def post(
        self,
        path: str,
        data: dict[str, str] | None = None,
        content: str | None = None,
        headers: dict[str, str] | None = None,
        timeout: float = 10,
    ) -> Answer:
        """POST a form (``data``) or a raw body (``content``, with its content-type header)."""
        headers = dict(headers or {})
        if data is not None:
            content = urlencode(data)
            headers["content-type"] = "application/x-www-form-urlencoded"
        return call(self.port, "POST", path, content, headers, timeout)

    def rss_kib(self) -> int:
        """The server's resident memory (KiB), from /proc."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise AssertionError("no VmRSS for the server")


def serve_command(games: Path, results: Path, port: int = 0) -> list[str]:
    """``airships serve`` as a command line for this interpreter (PYTHONPATH is inherited)."""
    return [
        sys.executable, "-c", CLI, "serve", "--host", HOST, "--port", str(port),
        "--games", str(games), "--results", str(results), "--pace", "0",
    ]  # fmt: skip


def call(
    port: int,
    method: str,
    path: str,
    body: str | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 10,
) -> Answer:
    """One request to 127.0.0.1:port on a fresh connection."""
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        conn.request(method, path, body=body.encode() if body is not None else None,
                     headers=headers or {})  # fmt: skip
        response = conn.getresponse()
        text = response.read().decode("utf-8", "replace")
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, text)
    finally:
        conn.close()


@contextmanager
def serving(games: Path, results: Path) -> Iterator[Served]:
    """Start a server on a free port (the banner names it) and stop it afterwards."""
    process = subprocess.Popen(
        serve_command(games, results),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    assert process.stdout is not None
    threading.Thread(target=lambda: lines.put(process.stdout.readline()), daemon=True).start()
    try:
        try:
            banner = lines.get(timeout=START_SECONDS)
        except queue.Empty:
            raise AssertionError("airships serve printed no banner") from None
        assert banner.startswith("Airships: http://127.0.0.1:"), (banner, process.poll())
        running = Served(process, banner.split()[1].rstrip("/"), games)
        deadline = time.monotonic() + START_SECONDS
        while True:  # the socket listens before the banner; wait for the app to answer
            try:
                if running.get("/", timeout=5).status == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the server does not answer"
            time.sleep(0.1)
        yield running
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
        if process.stdout is not None:
            process.stdout.close()
        if process.stderr is not None:
            process.stderr.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory, tournament_results: Path) -> Iterator[Served]:
    """One server for this module's tests."""
    games = tmp_path_factory.mktemp("served-games")
    with serving(games, tournament_results) as running:
        yield running


# ---------------------------------------------------------------------------------------------
# The markup contract, read from the HTML
# ---------------------------------------------------------------------------------------------
def test_the_markup_contract_plays_a_whole_game(served: Served) -> None:
    """/play?game=airships... then click data-action choices until data-testid=game-over."""
    start = served.get("/play?game=airships&players=2&opponents=heuristic&seat=0&seed=7")
    assert start.status == 303
    location = start.headers["location"]
    game_id = location.removeprefix("/game/")
    header = json.loads((served.games / f"{game_id}.jsonl").read_text().splitlines()[0])
    assert header["meta"]["game"] == "airships"
    clicks = 0
    for _ in range(3000):
        page = Page(served.get(location).text)
        assert page.games == ["airships"]  # one element names the game
        if page.over:
            break
        if page.actions:
            index, _label, url, hidden = page.actions[clicks % len(page.actions)]
            response = served.post(url, data={**hidden, "action": str(index)})
            clicks += 1
        else:  # a bot is to act: the page's advance form
            ((url, hidden),) = page.forms
            assert url.endswith("/advance")
            response = served.post(url, data={**hidden, "all": "1"})
        assert response.status == 303, response.text
    else:
        raise AssertionError("the game did not end")
    assert clicks > 5
    final = served.get(f"/api/game/{game_id}").json()
    assert final["game_over"] and final["legal_actions"] == []


# ---------------------------------------------------------------------------------------------
# Issue 27: hostile requests
# ---------------------------------------------------------------------------------------------
def test_huge_numbers_are_refused_before_use(served: Served) -> None:
    """A 20-digit player count (it once built a list that long) and a billion players answer
    400 at once, and the server does not grow."""
    before = served.rss_kib()
    for _ in range(3):
        started = time.monotonic()
        response = served.post(
            "/new", data={"players": "99999999999999999999", "seat": "0"}, headers=JSON
        )
        assert response.status == 400
        assert "players must be 2 to 4, got a 20-digit number" in response.json()["error"]
        response = served.get("/play?players=1000000000", headers=JSON)
        assert response.status == 400
        assert "players must be 2 to 4, got 1000000000" in response.json()["error"]
        response = served.get("/play?players=2&seed=" + "7" * 5000, headers=JSON)
        assert response.status == 400 and "seed" in response.json()["error"]
        assert time.monotonic() - started < 5
    assert served.rss_kib() - before < 50 * 1024


def test_a_slow_bot_does_not_stop_the_server(served: Served) -> None:
    """While a search bot asked for 100,000 simulations thinks, the home page answers within a
    second, and the move stops at the server's cap (3 s) instead of taking minutes."""
    opponents = "mcts:sims=100000,search_turns=0"
    start = served.get(f"/play?players=2&opponents={opponents}&seat=1&seed=5")
    assert start.status == 303, start.text
    game_id = start.headers["location"].removeprefix("/game/")
    now = served.get(f"/api/game/{game_id}").json()
    assert now["to_act"] == 0 and now["step"] == 0  # the bot moves first
    answered: dict[str, object] = {}

    def advance() -> None:
        started = time.monotonic()
        response = served.post(
            f"/game/{game_id}/advance", data={"step": "0"}, headers=JSON, timeout=60
        )
        answered["status"] = response.status
        answered["seconds"] = time.monotonic() - started

    thinking = threading.Thread(target=advance)
    thinking.start()
    probes = []
    time.sleep(0.3)
    for _ in range(200):
        if not thinking.is_alive():
            break
        started = time.monotonic()
        assert served.get("/", timeout=5).status == 200
        probes.append(time.monotonic() - started)
        time.sleep(0.05)
    thinking.join(60)
    assert answered.get("status") == 200, answered
    assert probes, "the bot's move ended before the server could be asked"
    assert max(probes) < 1.0, probes
    assert answered["seconds"] < 15, answered  # the cap is 3 s; this machine may be busy


def raw_request(port: int, head: str, chunks: Iterator[bytes]) -> tuple[bytes, int]:
    """Send a request's head and then body chunks until the server answers; the answer's first
    bytes and how many body bytes went out before it."""
    sent = 0
    with socket.create_connection((HOST, port), timeout=10) as conn:
        conn.sendall(head.encode())
        for chunk in chunks:
            readable, _, _ = select.select([conn], [], [], 0)
            if readable:
                break
            try:
                conn.sendall(chunk)
            except OSError:  # the server answered and closed
                break
            sent += len(chunk)
        conn.settimeout(10)
        return conn.recv(4096), sent


def test_bodies_are_limited(served: Served) -> None:
    """A JSON body of hundreds of megabytes is refused (413) after a few kilobytes, declared
    or not, and the server does not grow."""
    before = served.rss_kib()
    declared = (
        f"POST /game/x/act HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {400 * 1024 * 1024}\r\n\r\n"
    )
    answer, sent = raw_request(served.port, declared, iter([b"[" * 65536] * 6400))
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert sent <= 8 * 1024 * 1024

    def chunked() -> Iterator[bytes]:
        yield b"10000\r\n" + b'{"action": "' + b"1" * (0x10000 - 12) + b"\r\n"
        for _ in range(6400):
            yield b"10000\r\n" + b"1" * 0x10000 + b"\r\n"
            time.sleep(0.001)

    streamed = (
        f"POST /game/x/act HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
        f"Transfer-Encoding: chunked\r\n\r\n"
    )
    answer, sent = raw_request(served.port, streamed, chunked())
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert sent <= 8 * 1024 * 1024

    # An upload sent without a length is cut at its limit (5 MiB here) too.
    upload = (
        f"POST /replays HTTP/1.1\r\nHost: {HOST}\r\n"
        f"Content-Type: multipart/form-data; boundary=b0undary\r\n"
        f"Transfer-Encoding: chunked\r\n\r\n"
    )
    part = b'--b0undary\r\nContent-Disposition: form-data; name="log"; filename="a.jsonl"\r\n\r\n'

    def upload_chunks() -> Iterator[bytes]:
        yield f"{len(part):x}\r\n".encode() + part + b"\r\n"
        for _ in range(6400):
            yield b"10000\r\n" + b"1" * 0x10000 + b"\r\n"
            time.sleep(0.001)

    answer, sent = raw_request(served.port, upload, upload_chunks())
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert sent <= 16 * 1024 * 1024
    assert served.rss_kib() - before < 50 * 1024


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ('{"action": ' + "9" * 5000 + ', "step": 0}', "action must be 0 to 82, got a 5000-digit"),
        ('{"action": 1, "step": ' + "9" * 5000 + "}", "step must be 0 to 1000000, got a 5000-"),
        ('{"action": 1.5, "step": 0}', "field 'action' must be a whole number"),
        ('{"action": NaN, "step": 0}', "field 'action' must be a whole number"),
        ('{"action": [1], "step": 0}', "field 'action' must be a whole number, text or true"),
        ('{"action": 1}', "field 'step' is missing"),
        ('{"action": 1, "step": 0', "the body is not valid JSON"),
        ("[1, 2]", "must be an object of fields"),
        ('{"action": "1", "step": "0", "all": "maybe"}', None),
    ],
)
def test_malformed_json_bodies_are_400_naming_the_field(served: Served, body: str, words) -> None:
    """Every malformed body of a move is a 400 that says what is wrong, never a 500."""
    start = served.get("/play?players=2&opponents=random&seat=0&seed=31")
    game_id = start.headers["location"].removeprefix("/game/")
    headers = {**JSON, "content-type": "application/json"}
    if words is None:  # 'all' is a flag of advance
        response = served.post(f"/game/{game_id}/advance", content=body, headers=headers)
        words = "field 'all' must be true or false"
    else:
        response = served.post(f"/game/{game_id}/act", content=body, headers=headers)
    assert response.status == 400, response.text
    assert words in response.json()["error"]


def test_the_index_does_not_read_links_out_of_the_folder(served: Served, tmp_path: Path) -> None:
    """A link in the games folder to a file elsewhere is not listed (nor read: its parse error
    would show its content); /replay and /game refuse it too."""
    secret = tmp_path / "secret.jsonl"
    secret.write_text("top-secret-line-of-another-file\n", encoding="utf-8")
    link = served.games / "elsewhere.jsonl"
    link.symlink_to(secret)
    dangling = served.games / "dangling.jsonl"
    dangling.symlink_to(tmp_path / "missing.jsonl")
    try:
        page = served.get("/")
        assert page.status == 200
        assert "top-secret" not in page.text and "elsewhere" not in page.text
        assert "dangling" not in page.text
        assert served.get("/replay/elsewhere").status == 404
        assert served.get("/game/elsewhere").status == 404
    finally:
        link.unlink()
        dangling.unlink()


def test_a_busy_port_is_one_line_before_any_banner(served: Served, tmp_path: Path) -> None:
    """A second server on the port of a running one says so in one line and prints no URL."""
    second = subprocess.run(
        serve_command(tmp_path / "games", tmp_path / "results", served.port),
        capture_output=True,
        text=True,
        timeout=START_SECONDS,
    )
    assert second.returncode == 1
    assert second.stdout == ""
    lines = second.stderr.splitlines()
    assert lines == [
        f"airships: error: port {served.port} is in use on {HOST}: stop the other server or "
        f"choose another --port"
    ]
