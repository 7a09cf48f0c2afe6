"""Helpers for the web app's tests: an app over temporary folders, a tournament result, and a
real server in a thread for the browser tests (on a free port from the OS)."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("jinja2")

from agents.web import create_app
from tests.cli.conftest import cli  # noqa: F401 - the `airships` command in-process

REQUIRE_BROWSER = os.environ.get("AIRSHIPS_REQUIRE_BROWSER", "") not in ("", "0")
BROWSER_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
INSTALL_HINT = (
    "install Chromium to run them: 'sudo apt-get install chromium' (Debian/Ubuntu), or set "
    "AIRSHIPS_CHROMIUM to a Chromium or Chrome binary; the Python package comes with "
    "pip install -e '.[dev]'"
)


def chromium_path() -> str | None:
    """The system Chromium: $AIRSHIPS_CHROMIUM, else chromium or chromium-browser on PATH."""
    given = os.environ.get("AIRSHIPS_CHROMIUM")
    if given:
        return given if Path(given).is_file() else None
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def no_browser(reason: str) -> None:
    """Skip the browser tests here; fail them where they are required (CI)."""
    message = f"browser tests: {reason}; {INSTALL_HINT}"
    if REQUIRE_BROWSER:
        pytest.fail(message + " (AIRSHIPS_REQUIRE_BROWSER is set)", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def tournament_results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A results folder with one small real tournament (random vs greedy, plots included)."""
    from agents.tournament import config_from_dict, run_tournament

    results = tmp_path_factory.mktemp("results")
    config = config_from_dict(
        {
            "name": "smoke",
            "agents": ["random", "greedy"],
            "players": 2,
            "games": 2,
            "seed": 3,
            "workers": 1,
            "output": str(results / "smoke"),
        }
    )
    run_tournament(config, workers=1)
    return results


@pytest.fixture
def folders(tmp_path: Path, tournament_results: Path) -> tuple[Path, Path]:
    """A fresh games folder and the results folder."""
    games = tmp_path / "games"
    games.mkdir()
    return games, tournament_results


@pytest.fixture
def client(folders: tuple[Path, Path]):
    """A TestClient of an app over a fresh games folder (bots without pauses, 64 KiB uploads)."""
    from starlette.testclient import TestClient

    games, results = folders
    app = create_app(games, results, pace_ms=0, max_upload=64 * 1024)
    with TestClient(app, follow_redirects=False) as test_client:
        yield test_client


class Server:
    """A uvicorn server in a thread, on a socket the OS gave a free port."""

    def __init__(self, games: Path, results: Path):
        import uvicorn

        self.games = games
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.socket.bind(("127.0.0.1", 0))
        self.port = self.socket.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(create_app(games, results, pace_ms=0), log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True
        )

    def __enter__(self) -> Server:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the web server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.socket.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, tournament_results: Path) -> Iterator[Server]:
    """The app served over HTTP for the browser tests."""
    pytest.importorskip("uvicorn")
    games = tmp_path_factory.mktemp("games")
    with Server(games, tournament_results) as running:
        yield running


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium (the system's) driven by Playwright."""
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        no_browser("the playwright package is not installed")
    path = chromium_path()
    if path is None:
        no_browser("no Chromium found")
    with sync_playwright() as playwright:
        try:
            chromium = playwright.chromium.launch(executable_path=path, args=BROWSER_ARGS)
        except Error as exc:
            no_browser(f"Chromium at {path} does not start: {exc}")
        yield chromium
        chromium.close()


@pytest.fixture
def screenshots(tmp_path: Path) -> Path:
    """Where the tests save screenshots: $AIRSHIPS_SCREENSHOTS, else a temporary folder."""
    folder = Path(os.environ.get("AIRSHIPS_SCREENSHOTS", tmp_path / "screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder
