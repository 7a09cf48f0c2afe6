"""The markup contract every game page keeps, read from its HTML by the web tests: one element
with ``data-game``, each legal choice a ``data-action`` button in a form, ``data-testid=game-over``
at the end."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any


class Page(HTMLParser):
    """What a game page offers by the markup contract: its game, the legal choices (with their
    form), the other forms, and whether the game is over."""

    def __init__(self, html: str):
        super().__init__()
        self.games: list[str] = []
        self.actions: list[tuple[int, str, str, dict[str, str]]] = []  # index, label, URL, hidden
        self.forms: list[tuple[str, dict[str, str]]] = []
        self.over = False
        self._form: tuple[str, dict[str, str]] | None = None
        self._button: list[Any] | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Note the contract's attributes and the forms they sit in."""
        found = {name: value or "" for name, value in attrs}
        if "data-game" in found:
            self.games.append(found["data-game"])
        if found.get("data-testid") == "game-over":
            self.over = True
        if tag == "form" and found.get("method") == "post":
            self._form = (found.get("action", ""), {})
            self.forms.append(self._form)
        if tag == "input" and found.get("type") == "hidden" and self._form is not None:
            self._form[1][found.get("name", "")] = found.get("value", "")
        if "data-action" in found:
            assert self._form is not None, "a data-action outside a form"
            self._button = [int(found["data-action"]), "", self._form[0], self._form[1]]

    def handle_data(self, data: str) -> None:
        """A choice's label."""
        if self._button is not None:
            self._button[1] += data

    def handle_endtag(self, tag: str) -> None:
        """A choice or a form ends."""
        if tag == "button" and self._button is not None:
            index, label, url, hidden = self._button
            self.actions.append((index, label.strip(), url, hidden))
            self._button = None
        if tag == "form":
            self._form = None
