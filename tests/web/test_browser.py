"""End to end in headless Chromium (Playwright, the system's browser): play games by clicking,
reload in the middle, step through a replay, read tournament results; screenshots on the way.

Skipped with a message saying how to install Chromium when there is none, unless
AIRSHIPS_REQUIRE_BROWSER=1 (CI) turns that into a failure.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from airships_env.registry import games, get_game

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
TIMEOUT_MS = 15_000


def next_state(page) -> str:
    """Wait until the person can choose or the game is over; which of the two."""
    page.wait_for_selector("[data-action], [data-testid=game-over]", timeout=TIMEOUT_MS)
    return "over" if page.locator("[data-testid=game-over]").count() else "choose"


def click_a_legal_button(page, index: int) -> None:
    """Click one of the legal-action buttons (the best odds first, then the others in turn)."""
    buttons = page.locator("button[data-action]")
    count = buttons.count()
    step = page.locator("input[name=step]").first.get_attribute("value")
    buttons.nth(index % count).click()
    # The page is replaced once the server has answered; wait for the step to move on.
    page.wait_for_function(
        "step => !document.querySelector('input[name=step]') ||"
        " document.querySelector('input[name=step]').value !== step",
        arg=step,
        timeout=TIMEOUT_MS,
    )


def play_to_the_end(
    page, reload_after: int | None = None, shot: Path | None = None, limit: int = 400
) -> int:
    """Click legal buttons until the game-over panel shows; returns the number of clicks.
    ``reload_after`` clicks the page is reloaded, and ``shot`` taken after 8 clicks."""
    clicks = 0
    while next_state(page) == "choose":
        if shot is not None and clicks == 8:
            page.screenshot(path=str(shot))
        to_act = page.get_by_test_id("to-act")
        assert to_act.count() == 1
        click_a_legal_button(page, clicks)
        clicks += 1
        if reload_after is not None and clicks == reload_after:
            page.reload()
        assert clicks < limit, "the game did not end"
    return clicks


def test_two_players_against_heuristic_with_a_reload(browser, server, screenshots: Path) -> None:
    """A whole 2-player game by clicking; a reload in the middle changes nothing."""
    page = browser.new_page(viewport=DESKTOP)
    started = time.monotonic()
    page.goto(f"{server.url}/play?players=2&opponents=heuristic&seat=0&seed=7")
    assert "/game/web-7" in page.url
    next_state(page)
    seat = page.get_by_test_id("to-act").get_attribute("data-seat")
    assert seat == "0"
    clicks = play_to_the_end(page, reload_after=5, shot=screenshots / "web_game_1280.png")
    assert clicks > 5
    over = page.get_by_test_id("game-over")
    assert "Game over" in over.inner_text()
    assert over.locator("tr[data-score]").count() == 2
    assert page.get_by_test_id("to-act").get_attribute("data-seat") == ""
    page.screenshot(path=str(screenshots / "web_game_over_1280.png"), full_page=True)
    assert time.monotonic() - started < 60
    page.close()


def test_four_players_against_bots_on_a_phone(browser, server, screenshots: Path) -> None:
    """A 4-player game against three different bots on a phone-sized screen."""
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{server.url}/play?players=4&opponents=random,greedy,heuristic&seat=2&seed=21")
    clicks = play_to_the_end(page, shot=screenshots / "web_game_390.png")
    assert clicks > 3
    assert page.get_by_test_id("game-over").locator("tr[data-score]").count() == 4
    page.close()


def test_replay_steps_and_plays(browser, server, screenshots: Path) -> None:
    """A replay: next, previous, jump to a turn, play and pause."""
    from tests.cli.conftest import record_game

    record_game(server.games / "replayed.jsonl", num_players=3, seed=5)
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{server.url}/replay/replayed")
    position = page.get_by_test_id("position")
    assert position.get_attribute("data-position") == "0"
    for expected in ("1", "2", "3"):
        page.click("a[rel=next]")
        page.wait_for_selector(f"[data-testid=position][data-position='{expected}']")
    page.click("a[rel=prev]")
    page.wait_for_selector("[data-testid=position][data-position='2']")
    page.fill("input[name=turn]", "6")
    page.click(".jump button")
    page.wait_for_function("() => new URL(location.href).searchParams.get('turn') === '6'")
    jumped = int(page.get_by_test_id("position").get_attribute("data-position"))
    assert jumped > 2
    page.screenshot(path=str(screenshots / "web_replay_1280.png"))
    page.get_by_test_id("play").click()
    page.wait_for_selector(
        f"[data-testid=position]:not([data-position='{jumped}'])", timeout=TIMEOUT_MS
    )
    page.get_by_test_id("play").click()  # pause
    page.click("a[rel=last]")
    page.wait_for_selector("[data-testid=game-over]")
    page.close()


def test_tournament_results(browser, server, screenshots: Path) -> None:
    """The leaderboard, the pairwise matrix and both plots show."""
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{server.url}/results/smoke")
    rows = page.get_by_test_id("leaderboard").locator("tbody tr")
    assert rows.count() == 2
    assert "greedy" in page.get_by_test_id("pairwise").inner_text()
    for plot in ("ratings", "pairwise"):
        image = page.get_by_test_id(f"plot-{plot}")
        image.wait_for()
        assert page.evaluate("img => img.naturalWidth", image.element_handle()) > 100
    page.screenshot(path=str(screenshots / "web_results_1280.png"), full_page=True)
    page.close()


def test_a_refused_action_shows_why(browser, server) -> None:
    """A stale click (the game moved on in another tab) is refused and the page says why."""
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{server.url}/play?players=2&opponents=random&seat=0&seed=99")
    next_state(page)
    other = browser.new_page(viewport=DESKTOP)
    other.goto(page.url)
    click_a_legal_button(other, 0)
    other.close()
    page.locator("button[data-action]").first.click()
    page.wait_for_selector("#flash:not([hidden])", timeout=TIMEOUT_MS)
    assert "stale" in page.locator("#flash").inner_text()
    page.close()


def test_new_game_form(browser, server) -> None:
    """The chooser's Airships form starts a game with the chosen seat and opponents."""
    page = browser.new_page(viewport=PHONE)
    page.goto(server.url)
    form = page.locator("form[data-chooser=airships]")
    form.locator("select[name=players]").select_option("3")
    assert form.locator("[data-opponent='3']").is_hidden()
    assert form.locator("[data-opponent='2']").is_visible()
    form.locator("select[name=seat]").select_option("1")
    form.locator("input[name=opponent1]").fill("random")
    form.locator("input[name=opponent2]").fill("greedy")
    form.locator("input[name=seed]").fill("12")
    form.locator("button[type=submit]").click()
    page.wait_for_url("**/game/web-12")
    next_state(page)
    assert "P1 (you)" in page.content()
    page.close()


@pytest.mark.parametrize("game", games())
def test_the_markup_contract_plays_a_whole_game(browser, server, game: str) -> None:
    """The contract every game's browser tests use, for every registered game: /play?game=NAME
    starts a game, the page names its game with data-game, the legal choices are data-action
    elements, and clicking them ends in data-testid=game-over."""
    rules = get_game(game)
    players = min(rules.player_counts)
    opponents = "heuristic" if game == "airships" else "random"
    page = browser.new_page(viewport=DESKTOP)
    page.goto(
        f"{server.url}/play?game={game}&players={players}&opponents={opponents}&seat=0&seed=7"
    )
    clicks = 0
    while True:
        page.wait_for_selector("[data-action], [data-testid=game-over]", timeout=TIMEOUT_MS)
        assert page.locator("[data-game]").count() == 1
        assert page.locator("[data-game]").get_attribute("data-game") == game
        if page.locator("[data-testid=game-over]").count():
            break
        choices = page.locator("[data-action]")
        before = page.locator("input[name=step]").first.get_attribute("value")
        choices.nth(clicks % choices.count()).click()
        page.wait_for_function(
            "step => !document.querySelector('input[name=step]') ||"
            " document.querySelector('input[name=step]').value !== step",
            arg=before,
            timeout=TIMEOUT_MS,
        )
        clicks += 1
        assert clicks < 2000, "the game did not end"
    assert clicks > (5 if game == "airships" else 0)
    page.close()
