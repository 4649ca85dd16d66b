"""The rulebooks as readable pages: ``GET /rules/{game}`` renders each game's Markdown to HTML."""

from __future__ import annotations

import re
from collections.abc import Callable
from html.parser import HTMLParser

import pytest

from coven.games import REGISTRY
from coven.server.rules_page import markdown_to_html
from tests.server.conftest import TestClient

GAMES = ("commandments", "brujas", "namaste", "amulets")


class _Outline(HTMLParser):
    """The tags of a page and the text inside its ``article``, line by line."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.depth = 0
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag == "article" or self.depth:
            self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        if self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.text.append(data)


def outline(html: str) -> _Outline:
    parser = _Outline()
    parser.feed(html)
    return parser


@pytest.fixture
def real(make_client: Callable[..., TestClient]) -> TestClient:
    return make_client(games=REGISTRY)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_its_rules_as_a_page_with_headings(real: TestClient, game: str) -> None:
    assert real.get(f"/api/games/{game}").json()["has_rules"] is True
    response = real.get(f"/rules/{game}")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    page = outline(response.text)
    assert "article" in page.tags and "h1" in page.tags
    assert {"ul", "ol", "table"} & set(page.tags), "no list and no table: the Markdown was not rendered"
    lines = "".join(page.text).splitlines()
    assert not [line for line in lines if re.match(r"\s*#", line)], "raw Markdown headings left"
    assert not [line for line in lines if "**" in line], "raw Markdown emphasis left"


def test_tables_in_the_rules_become_html_tables(real: TestClient) -> None:
    for game in ("amulets", "brujas"):
        page = outline(real.get(f"/rules/{game}").text)
        assert {"table", "th", "td"} <= set(page.tags)
        assert not any(line.strip().startswith("| ---") for line in "".join(page.text).splitlines())


def test_the_markdown_route_still_serves_the_source(real: TestClient) -> None:
    response = real.get("/api/games/brujas/rules")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/markdown")
    assert response.text.startswith("# Brujas del Sábado")


def test_raw_html_in_a_rulebook_is_shown_as_text_never_run() -> None:
    source = '# Hi\n\n<script>alert(1)</script>\n\n<b onclick="x()">bold</b>\n\n[a](javascript:alert(1))'
    html = markdown_to_html(source)
    assert "<script" not in html and "<b " not in html and 'href="javascript' not in html
    assert "&lt;script&gt;" in html
    assert "<h1>Hi</h1>" in html


def test_a_game_without_rules_and_an_unknown_game_get_a_page_that_says_so(client: TestClient) -> None:
    response = client.get("/rules/toy")
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/html")
    assert "Toy" in response.text and "ships no rulebook" in response.text
    response = client.get("/rules/chess")
    assert response.status_code == 404
    assert "There is no game &#x27;chess&#x27; on this server." in response.text
    long = "x" * 500 + "<script>"
    response = client.get(f"/rules/{long}")
    assert response.status_code == 404
    assert "<script>" not in response.text and "x" * 100 not in response.text
