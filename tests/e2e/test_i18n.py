"""The page in French: a browser whose language is French gets the lobby and every game's table in French,
with no missing text (t() shows a missing key as ⟦key⟧); the EN/FR switch changes the language and is
remembered. Screenshots of the French lobby and a French table, desktop and phone."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tests.e2e.conftest import watch_errors
from tests.e2e.test_screens import FITS, SCREENS, TABLES, shoot

pytestmark = pytest.mark.browser

MISSING = "() => document.documentElement.outerHTML.includes('\u27e6')"
# Texts of each game's board that only the French catalogue has.
BOARD_TEXTS = {
    "namaste": ["Comment jouer", "mauvais karma"],
    "brujas": ["Colonne des sorcières", "Le pli"],
    "amulets": ["Comment jouer", "placez les cinq amulettes"],
    "commandments": ["Comment jouer", "Grande Prêtresse"],
}


@contextmanager
def french(browser: Any, kind: str) -> Iterator[Any]:
    ctx = browser.new_context(locale="fr-FR", **SCREENS[kind])
    ctx.set_default_timeout(15_000)
    errors = watch_errors(ctx)
    try:
        yield ctx
    finally:
        ctx.close()
    assert not errors, f"script errors in the page: {errors}"


@pytest.fixture(params=list(SCREENS))
def fr_screen(request: pytest.FixtureRequest, browser: Any) -> Iterator[tuple[str, Any]]:
    with french(browser, request.param) as ctx:
        yield request.param, ctx


def test_the_lobby_in_french(server: Any, fr_screen: tuple[str, Any]) -> None:
    kind, ctx = fr_screen
    page = ctx.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#game-brujas")
    page.wait_for_selector("#create-table")
    assert page.evaluate("() => navigator.language").startswith("fr")
    assert page.get_attribute("html", "lang") == "fr"
    assert page.inner_text("#games-h") == "Les jeux"
    assert page.inner_text("#create-h") == "Nouvelle table"
    assert page.inner_text("#yours-h") == "Vos tables"
    assert page.inner_text("#create-table") == "Créer la table"
    assert "Règles de Namaste" in page.inner_text("#game-namaste")
    assert not page.evaluate(MISSING), "a text is missing from the French catalogue"
    shoot(page, f"lobby-fr-{kind}")
    assert page.evaluate(FITS), f"the French lobby scrolls sideways on the {kind}"


def test_the_switch_changes_the_language_and_is_remembered(server: Any, browser: Any) -> None:
    with french(browser, "desktop") as ctx:
        page = ctx.new_page()
        page.goto(server.base + "/")
        page.wait_for_selector("#games-h:has-text('Les jeux')")
        assert page.get_attribute(".lang-switch .lang-fr", "aria-pressed") == "true"
        page.click(".lang-switch .lang-en")
        page.wait_for_selector("#games-h:has-text('The games')")
        assert page.get_attribute("html", "lang") == "en"
        page.reload()
        page.wait_for_selector("#games-h:has-text('The games')")
        page.click(".lang-switch .lang-fr")
        page.wait_for_selector("#games-h:has-text('Les jeux')")


@pytest.mark.parametrize("game", list(TABLES))
def test_each_game_s_table_in_french(server: Any, browser: Any, game: str) -> None:
    with french(browser, "desktop") as ctx:
        bots = [{"kind": "bot", "bot": b, "name": None} for b in TABLES[game]]
        seats = [{"kind": "human", "name": "Ana"}, *bots]
        created = server.post("/api/tables", {"game": game, "players": len(seats), "seats": seats})
        page = ctx.new_page()
        page.goto(created["invites"][0]["url"])
        page.wait_for_selector("main[data-myturn=yes]")
        page.wait_for_selector("#board > :not(details)")
        page.wait_for_selector("#turn:has-text('À vous de jouer')")
        assert page.inner_text("#scores-h") == "Joueurs et scores"
        assert page.inner_text("#log-h") == "Ce qui s'est passé"
        assert page.inner_text("#chat-h") == "Discussion"
        assert "Vous êtes à la place 1" in page.inner_text("#who")
        text = page.locator("main").inner_text()
        for phrase in BOARD_TEXTS[game]:
            assert phrase in text, f"{phrase!r} not on the French {game} table"
        assert not page.evaluate(MISSING), f"a text of the {game} table is missing from the French catalogue"
        assert page.locator("#board > p.error").count() == 0, "the board failed to draw"
        # Card texts (The 3 Commandments) are shown in French only: no English text is marked as such.
        assert page.locator("#board [lang=en]").count() == 0


def test_a_french_table_on_desktop_and_phone(server: Any, fr_screen: tuple[str, Any]) -> None:
    kind, ctx = fr_screen
    bots = [{"kind": "bot", "bot": b, "name": None} for b in TABLES["brujas"]]
    seats = [{"kind": "human", "name": "Ana"}, *bots]
    created = server.post("/api/tables", {"game": "brujas", "players": len(seats), "seats": seats})
    page = ctx.new_page()
    page.goto(created["invites"][0]["url"])
    page.wait_for_selector("main[data-myturn=yes]")
    page.wait_for_selector("#board > :not(details)")
    assert "Votre main" in page.locator("#board").inner_text()
    assert not page.evaluate(MISSING)
    shoot(page, f"brujas-fr-{kind}")
    assert page.evaluate(FITS), f"the French table scrolls sideways on the {kind}"


def test_a_refused_move_is_explained_in_french(server: Any, browser: Any) -> None:
    with french(browser, "desktop") as ctx:
        seats = [{"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "greedy", "name": None}]
        created = server.post("/api/tables", {"game": "namaste", "players": 2, "seats": seats})
        page = ctx.new_page()
        page.goto(created["invites"][0]["url"])
        page.wait_for_selector("main[data-myturn=yes]")
        if not page.locator("#all-moves").evaluate("el => el.open"):
            page.click("#all-moves summary")
        page.fill("#notation", "hocus pocus")
        page.click("#notation-play")
        page.wait_for_selector("#move-error:has-text('Ce coup ne peut pas être lu')")
        assert page.inner_text("#move-error .dismiss") == "Fermer"
