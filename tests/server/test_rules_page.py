"""The rulebooks as readable pages: ``GET /rules/{game}`` renders each game's Markdown to HTML."""

from __future__ import annotations

import re
from collections.abc import Callable
from html.parser import HTMLParser

import pytest

from coven.games import REGISTRY
from coven.server.rules_page import localized_name, markdown_to_html
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
    # in French, the whole page is French: its title, what is missing and the way back
    response = client.get("/rules/chess?lang=fr")
    assert response.status_code == 404
    assert "<title>Pas de règles ici · Coven</title>" in response.text and '<html lang="fr">' in response.text
    assert "Il n&#x27;y a pas de jeu « chess » sur ce serveur." in response.text
    assert "Back to the lobby" not in response.text and "Retour à l'accueil" in response.text
    response = client.get("/rules/toy?lang=fr")
    assert response.status_code == 404 and "Toy n&#x27;a pas de règles sur ce serveur." in response.text


def test_every_rules_page_names_the_site_s_icon(real: TestClient, client: TestClient) -> None:
    # (without one, a browser asks for /favicon.ico, which is not found: an error in its console)
    for response in (
        real.get("/rules/namaste"),
        real.get("/rules/namaste?lang=fr"),
        client.get("/rules/chess"),
    ):
        assert '<link rel="icon" href="data:image/svg+xml,' in response.text


# A French word in each game's first heading or its section headings (none of them in the English text).
FRENCH_HEADINGS = {
    "commandments": "Les 3 Commandements — comment jouer",
    "brujas": "Brujas del Sábado — comment jouer",
    "namaste": "Namaste — comment jouer",
    "amulets": "Amulets — comment jouer",
}


class _Structure(HTMLParser):
    """Inside the ``article``: how many of each structural tag, and each heading's text."""

    COUNTED = ("h1", "h2", "h3", "table", "ul", "ol", "li", "tr", "strong", "code")

    def __init__(self) -> None:
        super().__init__()
        self.counts: dict[str, int] = dict.fromkeys(self.COUNTED, 0)
        self.headings: list[str] = []
        self.lang: str | None = None
        self.article_lang: str | None = None
        self._heading: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "html":
            self.lang = dict(attrs).get("lang")
        if tag == "article":
            self.article_lang = dict(attrs).get("lang")
        if tag in self.counts:
            self.counts[tag] += 1
        if tag in ("h1", "h2", "h3"):
            self._heading = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("h1", "h2", "h3") and self._heading is not None:
            self.headings.append("".join(self._heading).strip())
            self._heading = None

    def handle_data(self, data: str) -> None:
        if self._heading is not None:
            self._heading.append(data)


def structure(html: str) -> _Structure:
    parser = _Structure()
    parser.feed(html)
    return parser


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_its_rules_in_french_with_the_english_structure(real: TestClient, game: str) -> None:
    response = real.get(f"/rules/{game}?lang=fr")
    assert response.status_code == 200
    french, english = structure(response.text), structure(real.get(f"/rules/{game}").text)
    assert french.lang == "fr" and french.article_lang == "fr"
    assert english.lang == "en" and english.article_lang == "en"
    assert french.headings[0] == FRENCH_HEADINGS[game]
    # the page's title names the game as its French rulebook does
    name = FRENCH_HEADINGS[game].partition(" — ")[0]
    assert f"<title>{name} — règles · Coven</title>" in response.text
    assert french.headings != english.headings, "the French page shows the English headings"
    assert french.counts == english.counts, "the translation lost or added headings, lists or tables"
    assert french.counts["h1"] == 1
    page = outline(response.text)
    lines = "".join(page.text).splitlines()
    assert not [line for line in lines if re.match(r"\s*#", line)], "raw Markdown headings left"
    assert not [line for line in lines if "**" in line or line.strip().startswith("| ---")], (
        "raw Markdown left"
    )
    assert "Retour à l'accueil" in response.text and "Back to the lobby" not in response.text
    assert 'data-langs="en fr"' in response.text


@pytest.mark.parametrize(
    ("lang", "allowed"), [("en", "the one it came from is allowed"), ("fr", "celui d'où il vient est permis")]
)
def test_the_commandments_page_lets_an_artefact_go_back_where_it_came_from(
    real: TestClient, lang: str, allowed: str
) -> None:
    # the rulebook: "The player may place it back on the same area where he took it from" (the engine
    # allows it, and card A21 rewards it); the page said "move it to another area"
    text = " ".join("".join(outline(real.get(f"/rules/commandments?lang={lang}").text).text).split())
    assert allowed in text
    assert "another area" not in text and "autre secteur" not in text


def test_english_is_the_default_and_an_unknown_language_falls_back_to_it(real: TestClient) -> None:
    english = real.get("/rules/namaste").text
    assert structure(english).headings[0] == "Namaste — how to play"
    for asked in ("de", "", "FR-fr-x", "<script>", "en"):
        response = real.get("/rules/namaste", params={"lang": asked})
        assert response.status_code == 200
        assert response.text == english
    assert structure(real.get("/rules/namaste", params={"lang": "FR"}).text).lang == "fr"


def test_a_game_without_french_rules_serves_english_when_french_is_asked(
    real: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from coven.server import app

    assert localized_name("rules.md", "fr") == "rules.fr.md"
    assert localized_name("rules.md", "en") == "rules.md"
    english_only = app.rules_text
    monkeypatch.setattr(
        app, "rules_text", lambda game, lang="en": english_only(game) if lang == "en" else None
    )
    response = real.get("/rules/brujas?lang=fr")
    assert response.status_code == 200
    page = structure(response.text)
    assert page.lang == "en" and page.article_lang == "en"
    assert page.headings[0] == "Brujas del Sábado — how to play"
    assert 'data-langs="en"' in response.text


def test_a_rules_page_is_made_once_per_language(real: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    # a rulebook does not change while the server runs: a flood of requests for it is a flood of copies,
    # not of renderings (each about 1 ms, every table waiting meanwhile)
    from coven.server import app

    made: list[str] = []
    render = app.rules_document

    def counted(game_id: str, *args: object, **kwargs: object) -> str:
        made.append(game_id)
        return render(game_id, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(app, "rules_document", counted)
    pages = {lang: [real.get(f"/rules/amulets?lang={lang}") for _ in range(3)] for lang in ("en", "fr")}
    assert made == ["amulets", "amulets"]  # one English, one French
    for lang, answers in pages.items():
        assert all(a.status_code == 200 and a.text == answers[0].text for a in answers)
        assert structure(answers[0].text).lang == lang
    assert pages["en"][0].text != pages["fr"][0].text
