"""The page in French: a browser whose language is French gets the lobby and every game's table in French,
with no missing text (t() shows a missing key as ⟦key⟧); the EN/FR switch changes the language and is
remembered. Screenshots of the French lobby and a French table, desktop and phone."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import Server, watched_context
from tests.e2e.helpers import table_id
from tests.e2e.test_screens import FITS, SCREENS, TABLES, seats_cut, shoot

pytestmark = pytest.mark.browser

MISSING = "() => document.documentElement.outerHTML.includes('\u27e6')"
CATALOGUES = Path(__file__).resolve().parents[2] / "src" / "coven" / "web" / "i18n"
# Texts the boards used to write in English whatever the language (kept here even if the catalogue
# changes: any of them on a French page means a text bypasses the catalogue).
KNOWN_ENGLISH = [
    "Spell book",
    "Ask the spirits",
    "Cast the freeing spell",
    "Deduction assistant",
    "No question yet",
    "Your secret",
    "Questions so far",
    "Drag each amulet",
    "Amulets to place",
    "The altar",
    "Karma pad",
    "Your performance",
    "Forfeit this move",
    "Ordain your cards",
    "Place the artefacts",
    "The Holy Circle",
    "is High Priestess",
    "Standard rules",
    "The engine judges every card",
    "Cards revealed when a ritual ends",
    "Destiny:",
    "The deck: every card",
    "This ritual's moves",
    "Your four cards",
    "Your moves",
    "move number",
    "Loading the deck",
    "Add this card",
    "The card language",
]
# What a page shows or says: every text in it (shown now or not), and the labels, titles and placeholders
# of its elements; but not a card's own English words, marked lang=en (the cards are printed in both).
SHOWN = """() => {
  const main = document.querySelector('main');
  const english = (node) => {
    const marked = node.closest && node.closest('[lang]');
    return Boolean(marked) && main.contains(marked) && marked.lang === 'en';
  };
  const parts = [];
  const walk = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    if (!english(n.parentElement) && !n.parentElement.closest('style, script')) parts.push(n.textContent);
  }
  for (const el of main.querySelectorAll('[aria-label], [title], [placeholder]')) {
    if (english(el)) continue;
    for (const a of ['aria-label', 'title', 'placeholder']) {
      if (el.hasAttribute(a)) parts.push(el.getAttribute(a));
    }
  }
  return parts.join('\\n');
}"""


def english_only() -> list[str]:
    """The catalogue's English texts that French never says: each text's literal pieces (between
    placeholders) of at least two words, found in no French text; and the known English texts."""
    en = json.loads((CATALOGUES / "en.json").read_text(encoding="utf-8"))
    fr = json.loads((CATALOGUES / "fr.json").read_text(encoding="utf-8"))
    french = "\n".join(fr.values())
    pieces = set(KNOWN_ENGLISH)
    for key, text in en.items():
        if text == fr[key]:
            continue
        for part in re.split(r"\{\w+\}", text):
            piece = part.strip(" :;,.—()")
            if len(piece) >= 10 and len(piece.split()) >= 2 and piece not in french:
                pieces.add(piece)
    return sorted(pieces)


def leaks(page: Any) -> list[str]:
    shown = page.evaluate(SHOWN)
    return [piece for piece in english_only() if piece in shown]


BOT_LEVELS = {
    "greedy": "glouton",
    "random": "hasard",
    "best": "meilleur",
    "casual": "amateur",
    "beginner": "débutant",
}
"""The bot levels' French names."""

# Texts of each game's board that only the French catalogue has.
BOARD_TEXTS = {
    "namaste": ["Comment jouer", "mauvais karma"],
    "brujas": ["Colonne des sorcières", "Le pli"],
    "amulets": ["Comment jouer", "placez les cinq amulettes"],
    "commandments": ["Comment jouer", "Grande Prêtresse"],
}


@contextmanager
def french(browser: Any, kind: str) -> Iterator[Any]:
    with watched_context(browser, locale="fr-FR", **SCREENS[kind]) as ctx:
        yield ctx


@pytest.fixture(params=list(SCREENS))
def fr_screen(request: pytest.FixtureRequest, browser: Any) -> Iterator[tuple[str, Any]]:
    with french(browser, request.param) as ctx:
        yield request.param, ctx


OPTION_NAMES = {
    "commandments": ["Variante experte", "Qui juge", "Cartes montrées", "Cartes personnalisées"],
    "brujas": ["Diables en conflit", "Sorcières silencieuses"],
    "amulets": ["Limite de questions", "Assistant de déduction"],
    "namaste": [],
}


def test_the_lobby_in_french(server: Any, fr_screen: tuple[str, Any]) -> None:
    kind, ctx = fr_screen
    # a recent table whose seats nobody named: the server names them in English ("greedy bot", "Player 1")
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    server.post("/api/tables", {"game": "namaste", "players": 2, "seats": seats})
    page = ctx.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#game-brujas")
    page.wait_for_selector("#create-table")
    recent = page.locator(".recent-list li").first.inner_text()
    assert "Joueur 1, bot glouton" in recent, recent
    assert page.evaluate("() => navigator.language").startswith("fr")
    assert page.get_attribute("html", "lang") == "fr"
    assert page.inner_text("#games-h") == "Les jeux"
    assert page.inner_text("#create-h") == "Nouvelle table"
    assert page.inner_text("#yours-h") == "Vos tables"
    assert page.inner_text("#create-table") == "Créer la table"
    assert "Règles de Namaste" in page.inner_text("#game-namaste")
    # "de" and "à" contract with a title's or a name's article, "de" and "que" elide before a vowel ("de Les"
    # and "de Amulets" are no French)
    assert "Règles des 3 Commandements" in page.inner_text("#game-commandments")
    assert "Règles d'Amulets" in page.inner_text("#game-amulets")
    contract = "async (text) => (await import('/i18n.js')).contracted(text)"
    said = "Feuille de Le Mage, à Les Arcs, De Les Sorcières, de La Rochelle, de Leo, place de Lesna"
    assert page.evaluate(contract, said) == (
        "Feuille du Mage, aux Arcs, Des Sorcières, de La Rochelle, de Leo, place de Lesna"
    )
    said = "Feuille de Ana, que Éric rejoigne, De Inès, de Hugo, de bot greedy, de 8, monde Ouvert, de Yves"
    assert page.evaluate(contract, said) == (
        "Feuille d'Ana, qu'Éric rejoigne, D'Inès, de Hugo, de bot greedy, de 8, monde Ouvert, de Yves"
    )
    assert not page.evaluate(MISSING), "a text is missing from the French catalogue"
    page.click("#bot-levels summary")
    levels = page.locator("#bot-levels dt").all_inner_texts()
    assert {"hasard", "glouton", "meilleur"} <= set(levels) and "greedy" not in levels, levels
    assert page.locator(".seat-row select option[value='bot:greedy']").first.inner_text() == "bot : glouton"
    # every option of every game is named in French, its choices too (never by its key)
    for game, names in OPTION_NAMES.items():
        page.select_option("#new-game", game)
        shown = [name for name in page.locator("fieldset.options strong").all_inner_texts() if name]
        assert shown == names, shown
    page.select_option("#new-game", "commandments")
    judge = page.locator("#opt-judge option").all_inner_texts()
    assert judge == ["le moteur", "la Grande Prêtresse"], judge
    assert not leaks(page), f"English in the French lobby: {leaks(page)}"
    shoot(page, f"lobby-fr-{kind}")
    assert page.evaluate(FITS), f"the French lobby scrolls sideways on the {kind}"
    # the seats' choices and names are longer in French ("bot : greedy", "nom (facultatif)"): none is cut
    cut = seats_cut(page)
    assert not cut, f"the seats or the pace of a new table are cut in French on the {kind}: {cut[:6]}"
    # a new table is described by its game's French name, not by its id
    page.select_option("#new-game", "commandments")
    page.click("#create-table")
    page.wait_for_selector("#links .invite-link")
    line = page.locator("#links p.muted").last.inner_text()
    assert line.startswith("Table ") and "· Les 3 Commandements ·" in line and "commandments" not in line, (
        line
    )


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
        # A bot nobody named is named by the server ("greedy bot"): the page says it in French, its level
        # too ("bot glouton").
        bot = TABLES[game][0]
        players = page.inner_text("#score-table")
        assert f"bot {BOT_LEVELS[bot]}" in players and bot not in players, players
        text = page.locator("main").inner_text()
        for phrase in BOARD_TEXTS[game]:
            assert phrase in text, f"{phrase!r} not on the French {game} table"
        assert not page.evaluate(MISSING), f"a text of the {game} table is missing from the French catalogue"
        assert page.locator("#board > p.error").count() == 0, "the board failed to draw"
        # A witch and an amulet are feminine: their names agree ("sorcière verte", not "sorcière vert").
        if game == "brujas":
            badges = sorted(page.locator(".witch-badge").all_inner_texts())
            assert badges == ["sorcière bleue", "sorcière jaune", "sorcière rouge", "sorcière verte"], badges
        if game == "namaste":  # who is deciding, said in the page's language (not by the style sheet)
            assert "· décide" in page.locator(".sheet.mine h3").inner_text()
            shown = "h => getComputedStyle(h, '::after').content"
            assert all(
                c in ("none", "normal")
                for c in page.locator(".sheet h3").evaluate_all(f"hs => hs.map({shown})")
            )
        if game == "amulets":
            tokens = page.locator(".tray .amulet").evaluate_all("tokens => tokens.map((e) => e.title)")
            assert sorted(tokens) == [f"Amulette {c}" for c in ("bleue", "jaune", "noire", "rouge", "verte")]
            labels = page.locator(".tray .amulet-btn").evaluate_all("bs => bs.map((e) => e.ariaLabel)")
            assert "Amulette verte : prenez-la, puis un champ" in labels, labels
        # Card texts (The 3 Commandments) are shown in French only: no English text is marked as such.
        assert page.locator("#board [lang=en]").count() == 0
        # No English text of the interface: not on the board, not in a label, a title or a placeholder.
        page.click("#board details.how summary")
        assert not leaks(page), f"English on the French {game} table: {leaks(page)}"
        if game == "commandments":
            # The game's French title (the others keep theirs).
            assert page.inner_text(".topbar h1") == "Les 3 Commandements"
            # The deck at the table, in French (its cards are printed in both languages).
            page.click("#cmd-deck summary")
            page.wait_for_selector("#cmd-deck .deck-browser[data-ready=yes]")
            assert "cartes d'artefact" in page.inner_text("#cmd-deck")
            assert not leaks(page), f"English in the French deck: {leaks(page)}"
            assert not page.evaluate(MISSING)


@pytest.mark.parametrize("game", list(TABLES))
def test_the_english_list_finds_english(server: Any, context: Any, game: str) -> None:
    # The same table in English: the list of English-only texts does find the board's texts (the check
    # above is not vacuous), and nothing is missing from the English catalogue.
    bots = [{"kind": "bot", "bot": b, "name": None} for b in TABLES[game]]
    seats = [{"kind": "human", "name": "Ana"}, *bots]
    created = server.post("/api/tables", {"game": game, "players": len(seats), "seats": seats})
    page = context.new_page()
    page.goto(created["invites"][0]["url"])
    page.wait_for_selector("main[data-myturn=yes]")
    page.wait_for_selector("#board > :not(details)")
    page.click("#board details.how summary")
    found = leaks(page)
    assert len(found) >= 5, found
    assert not page.evaluate(MISSING)


def test_the_deck_page_and_the_card_maker_in_french(server: Any, browser: Any) -> None:
    with french(browser, "desktop") as ctx:
        page = ctx.new_page()
        page.goto(server.base + "/deck.html")
        page.wait_for_selector(".deck-browser[data-ready=yes]")
        assert page.inner_text("h1") == "Le paquet des 3 Commandements"
        assert page.get_attribute("html", "lang") == "fr"
        assert "cartes d'artefact" in page.inner_text("#deck-count")
        assert not page.evaluate(MISSING)
        assert not leaks(page), f"English on the French deck page: {leaks(page)}"
        page.goto(server.base + "/")
        page.wait_for_selector("#create-table")
        page.select_option("#new-game", "commandments")
        page.wait_for_selector("#cc-add")
        page.click(".cc-help summary")
        page.wait_for_selector(".cc-words p")
        assert "Ajouter cette carte" in page.inner_text(".custom-cards")
        assert not page.evaluate(MISSING)
        assert not leaks(page), f"English in the French card maker: {leaks(page)}"


@pytest.mark.parametrize(
    ("lang", "kind"), [("en", "desktop"), ("fr", "phone"), ("en", "phone"), ("fr", "desktop")]
)
def test_a_table_that_does_not_exist_says_so_with_a_way_back(
    server: Any, browser: Any, lang: str, kind: str
) -> None:
    # A mistyped or forgotten table link: a page saying there is no such table, in the page's language, with
    # a link back to the lobby, and none of a table's (empty) panels.
    locale = "fr-FR" if lang == "fr" else "en-US"
    with watched_context(browser, locale=locale, **SCREENS[kind]) as ctx:
        page = ctx.new_page()
        page.goto(server.base + "/t/doesnotexist")
        page.wait_for_selector("#table-missing")
        title, back = {
            "en": ("This table does not exist", "Back to the lobby"),
            "fr": ("Cette table n'existe pas", "Retour à l'accueil"),
        }[lang]
        assert page.inner_text("#table-missing h1") == title
        assert "doesnotexist" in page.inner_text("#table-missing")
        link = page.locator("#table-missing a#back-to-lobby")
        assert link.is_visible() and link.inner_text() == back
        for panel in ("#board", "#scores", "#chat", "#log", "#moves", ".table-layout", "#turn"):
            assert page.locator(panel).count() == 0, f"{panel} is on the page of a table that does not exist"
        assert not page.evaluate(MISSING)
        shoot(page, f"table-missing-{lang}-{kind}")
        assert page.evaluate(FITS)
        link.click()
        page.wait_for_selector("#game-brujas")
        assert page.url == server.base + "/"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_an_address_with_no_page_says_so_with_a_way_back(server: Any, browser: Any, lang: str) -> None:
    locale = "fr-FR" if lang == "fr" else "en-US"
    with watched_context(browser, locale=locale, **SCREENS["desktop"]) as ctx:
        page = ctx.new_page()
        response = page.goto(server.base + "/nosuchpage")
        assert response is not None and response.status == 404
        page.wait_for_selector("#not-found")
        title, back = {
            "en": ("There is no such page", "Back to the lobby"),
            "fr": ("Cette page n'existe pas", "Retour à l'accueil"),
        }[lang]
        assert page.inner_text("#not-found h1") == title
        assert "/nosuchpage" in page.inner_text("#not-found")
        assert not page.evaluate(MISSING)
        link = page.locator("#not-found a#back-to-lobby")
        assert link.inner_text() == back
        link.click()
        page.wait_for_selector("#game-brujas")


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


def test_the_rules_page_in_french(server: Any, browser: Any) -> None:
    # A French browser gets the French rulebook (the page follows the interface's language to ?lang=fr),
    # in a French frame, with no note that the rules are in English; the lobby's panel shows it too.
    with french(browser, "desktop") as ctx:
        page = ctx.new_page()
        page.goto(server.base + "/rules/namaste")
        page.wait_for_url("**/rules/namaste?lang=fr")
        page.wait_for_selector("article.rulebook[lang=fr] h1")
        assert page.inner_text("article.rulebook h1") == "Namaste — comment jouer"
        assert page.evaluate("document.documentElement.lang") == "fr"
        assert page.locator("#rules-language").count() == 0
        assert page.inner_text("main a.button[href='/']") == "Retour à l'accueil"
        assert page.title() == "Namaste — règles · Coven"
        assert page.locator("header.site .lang-switch .lang-fr[aria-pressed=true]").count() == 1
        assert not page.evaluate(MISSING)
        assert not leaks(page), f"English on the French rules page: {leaks(page)}"
        page.goto(server.base + "/")
        page.click("#rules-brujas summary")
        page.wait_for_selector("#rules-brujas article h1")
        assert page.get_attribute("#rules-brujas article", "lang") == "fr"
        assert page.inner_text("#rules-brujas article h1") == "Brujas del Sábado — comment jouer"
        assert "rédigées en anglais" not in page.inner_text("#rules-brujas")
        assert page.get_attribute("#rules-brujas .rules-page-link", "href") == "/rules/brujas?lang=fr"
        # The switch to English shows the English rulebook, though the page was opened with ?lang=fr.
        page.goto(server.base + "/rules/amulets?lang=fr")
        page.wait_for_selector("article.rulebook[lang=fr] h1")
        page.click("header.site .lang-switch .lang-en")
        page.wait_for_selector("article.rulebook[lang=en] h1")
        assert page.inner_text("article.rulebook h1") == "Amulets — how to play"
        assert "lang=" not in page.url
        assert page.inner_text("main a.button[href='/']") == "Back to the lobby"
        # A game that does not exist: the page saying so follows a French interface too.
        page.click("header.site .lang-switch .lang-fr")
        page.wait_for_selector("article.rulebook[lang=fr] h1")
        page.goto(server.base + "/rules/nope")
        page.wait_for_url("**/rules/nope?lang=fr")
        assert page.inner_text("p.error") == "Il n'y a pas de jeu « nope » sur ce serveur."
        assert page.title() == "Pas de règles ici · Coven"
        assert page.inner_text("main a.button[href='/']") == "Retour à l'accueil"


@pytest.mark.parametrize("game", list(TABLES))
def test_the_result_screen_explains_in_french(server: Any, browser: Any, game: str) -> None:
    """A whole game by bots, watched in French: the explanation (summary, every line, every note) is
    French, built from each text's message key; none of its English texts is on the page."""
    with french(browser, "desktop") as ctx:
        seats = [{"kind": "bot", "bot": b, "name": None} for b in ["greedy", *TABLES[game]]]
        created = server.post("/api/tables", {"game": game, "players": len(seats), "seats": seats})
        page = ctx.new_page()
        page.goto(created["spectator_url"])
        page.wait_for_selector("#result[data-ready=yes]", timeout=60_000)
        page.wait_for_selector("#explanation .why-seat")
        shown = page.inner_text("#explanation")
        assert "Pourquoi ces scores" in shown
        assert "{s" not in shown and "\u27e6" not in shown
        body = server.get(f"/api/tables/{table_id(created['spectator_url'])}/explanation")
        english = [body["summary"], *body["notes"]]
        for seat in body["seats"]:
            english += [line["label"] for line in seat["lines"]] + seat["notes"]
        assert len(english) > len(seats)
        for text in english:
            for part in re.split(r"\{s\d+\}", text):
                piece = part.strip(" :;,.()")
                if len(piece) >= 12 and len(piece.split()) >= 2:
                    assert piece not in shown, f"English on the French {game} result: {piece!r}"
        # the catalogue's English explanation texts, none shown (and the check finds them in English)
        pieces = [p for p in english_only() if p in shown]
        assert not pieces, f"English on the French {game} result: {pieces}"
        summary = page.inner_text("#why-summary")
        assert "victoire" in summary or "Personne ne gagne" in summary, summary
        if game == "amulets":  # a cast's placement as the French spell book writes it: R J V B N
            casts = [
                p
                for p in (
                    line.get("params", {}).get("where") for seat in body["seats"] for line in seat["lines"]
                )
                if p
            ]
            assert casts, body
            french_letters = str.maketrans("YGK", "JVN")
            for placement in casts:
                assert placement.translate(french_letters) in shown, (placement, shown)


@contextmanager
def limited_server(tmp: Path, **env: str) -> Iterator[Server]:
    """A server of its own whose limits the environment ``env`` sets (the module's server has none)."""
    server = Server(tmp, env=env)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_too_many_tables_is_explained_in_french_and_english(browser: Any, tmp_path: Path) -> None:
    """The server refuses a client's tables past its creation limit (429 with Retry-After); the lobby
    says why and when another table can be made, in the page's language, and keeps the form usable."""
    with limited_server(tmp_path, COVEN_CREATE_LIMIT="1", COVEN_CREATE_BURST="1") as limited:
        with french(browser, "desktop") as ctx:
            page = ctx.new_page()
            page.goto(limited.base + "/")
            page.wait_for_selector("#game-namaste")
            page.select_option("#new-game", "namaste")
            page.click("#create-table")
            page.wait_for_selector(".invites")
            page.click("#create-another")
            page.click("#create-table")
            error = page.locator("#create-table").locator("xpath=ancestor::form//p[@role='alert']")
            error.wait_for(state="visible")
            said = error.inner_text()
            assert "La table n'a pas été créée : beaucoup de tables ont été créées" in said, said
            wait = int(re.search(r"dans (\d+) s", said).group(1))  # type: ignore[union-attr]
            assert 50 <= wait <= 60, said  # one a minute
            assert page.locator("#create-table").is_enabled()  # the form is usable again
        context = browser.new_context(locale="en-GB")
        try:
            page = context.new_page()
            page.goto(limited.base + "/")
            page.wait_for_selector("#game-namaste")
            page.click("#create-table")
            error = page.locator("#create-table").locator("xpath=ancestor::form//p[@role='alert']")
            error.wait_for(state="visible")
            assert re.search(r"from your address .* create another in \d+ s", error.inner_text())
        finally:
            context.close()
        assert len(limited.get("/api/tables")) == 1  # the refused ones made nothing


@contextmanager
def _ana_plays_in_french(browser: Any, tmp_path: Path, **limits: str) -> Iterator[tuple[Any, Any, str]]:
    """A server with ``limits`` (its environment), and Ana's page, in French, at her turn at a table of
    Namaste against a bot: the browser's context, her page and the table's spectator link."""
    with limited_server(tmp_path, **limits) as limited:
        seats = [{"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "greedy", "name": None}]
        created = limited.post("/api/tables", {"game": "namaste", "players": 2, "seats": seats})
        with french(browser, "desktop") as ctx:
            ana = ctx.new_page()
            ana.goto(created["invites"][0]["url"])
            ana.wait_for_selector("main[data-myturn=yes]")
            yield ctx, ana, created["spectator_url"]


def test_too_many_open_pages_is_explained_in_french(browser: Any, tmp_path: Path) -> None:
    """Past the sockets one address may hold open, the page the server refused says why, in French, and
    does not retry in a loop; the page that was open first plays on."""
    with _ana_plays_in_french(browser, tmp_path, COVEN_SOCKETS_PER_CLIENT="1") as (ctx, first, watch_url):
        second = ctx.new_page()
        second.goto(watch_url)
        second.wait_for_selector("#turn:has-text('Trop de pages Coven sont ouvertes depuis votre adresse')")
        assert "fermez-en quelques-unes" in second.inner_text("#turn")
        second.wait_for_timeout(1500)  # longer than the page's first reconnect delay: it does not try again
        assert "fermez-en quelques-unes" in second.inner_text("#turn")
        assert second.inner_text("#conn") == "fermé"  # said once, in the turn line
        assert second.locator("#move-error").is_hidden()
        assert first.locator("main[data-myturn=yes]").count() == 1  # the first page is still served


def test_a_crowded_table_is_explained_in_french(browser: Any, tmp_path: Path) -> None:
    """Past the spectators one table may have, the page of one more says why, in French, and does not
    retry in a loop; the player's page and the first spectator's play on."""
    with _ana_plays_in_french(browser, tmp_path, COVEN_SPECTATORS_PER_TABLE="1") as (ctx, player, watch_url):
        watcher = ctx.new_page()
        watcher.goto(watch_url)
        watcher.wait_for_selector("#conn:text-is('connecté')")
        crowd = ctx.new_page()
        crowd.goto(watch_url)
        crowd.wait_for_selector("#turn:has-text('Cette table a autant de spectateurs')")
        crowd.wait_for_timeout(1500)  # longer than the page's first reconnect delay: it does not try again
        assert "rechargez cette page un peu plus tard" in crowd.inner_text("#turn")
        assert crowd.inner_text("#conn") == "fermé"
        assert crowd.locator("#move-error").is_hidden()
        assert player.locator("main[data-myturn=yes]").count() == 1
        assert watcher.inner_text("#conn") == "connecté"
