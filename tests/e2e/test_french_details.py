"""The details a French page used to say in English, or twice: a typed move that cannot be read (said
once, with the game's notation in French), a pace the lobby refuses (said in French before anything is
sent, and the server's English reason mapped), The 3 Commandments' moves on the karma sheet and in the
log (gestures and touches named as the performance panel names them), and the replay's caption (the
move as the log says it, not its notation)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.helpers import said, seated, table_id
from tests.e2e.test_commandments_table import move_bowing
from tests.e2e.test_screens import shoot

pytestmark = pytest.mark.browser

# A piece of the servers' English explanations of bad notation (every game's), or of pydantic's.
ENGLISH = re.compile(r"\b(an action is|a move is|not '|try '|Input should|greater than)\b|\(try\b")


# game -> (the seats after Ana's, a text that is no move, a piece of the French notation hint)
UNREADABLE = {
    "brujas": (["greedy", "greedy"], "zzz", "une carte à prendre dans le pli (xR3)"),
    "namaste": (["greedy"], "hocus pocus", "« 14@c3 » (écrire 14 en c3)"),
    "amulets": (["greedy", "greedy"], "zzz", "« ask » (interroger) ou « cast »"),
    "commandments": (["greedy", "greedy"], "zzz", "par exemple « bk3>C »"),
}


def typed_at_my_turn(server: Any, ctx: Any, game: str, bots: list[str], text: str) -> tuple[Any, str]:
    """A page seated at a new table of ``game`` beside ``bots`` that, at its turn, types ``text`` as a move:
    the page, and the refusal it shows."""
    page = ctx.new_page()
    seated(server, page, game, bots)
    page.wait_for_selector("main[data-myturn=yes], main[data-mayact=yes]")
    if not page.locator("#all-moves").evaluate("el => el.open"):
        page.click("#all-moves summary")
    page.fill("#notation", text)
    page.click("#notation-play")
    error = page.locator("#move-error")
    error.wait_for(state="visible")
    return page, said(error)


@pytest.mark.parametrize("game", list(UNREADABLE))
def test_a_move_that_cannot_be_read_is_said_once_in_french(server: Any, fr: Any, game: str) -> None:
    bots, text, hint = UNREADABLE[game]
    page, shown = typed_at_my_turn(server, fr, game, bots, text)
    assert shown.startswith("Ce coup ne peut pas être lu : Un coup s'écrit"), shown
    assert shown.count("ne peut pas être lu") == 1, shown
    assert hint in shown, shown
    assert not ENGLISH.search(shown), shown
    assert page.input_value("#notation") == text  # kept, to be corrected
    shoot(page, f"bad-notation-fr-{game}")


def test_a_namaste_move_with_no_such_circle_says_which_in_french(server: Any, fr: Any) -> None:
    # a move that reads but names a circle that is none: the refusal's own words, in French
    page = fr.new_page()
    seated(server, page, "namaste", ["greedy"])
    page.wait_for_selector("main[data-myturn=yes]")
    if not page.locator("#all-moves").evaluate("el => el.open"):
        page.click("#all-moves summary")
    page.fill("#notation", "7@a1")
    page.click("#notation-play")
    error = page.locator("#move-error")
    error.wait_for(state="visible")
    shown = said(error)
    assert "pas de cercle 'a1' : les cercles sont a4, b3-b5" in shown, shown
    assert not ENGLISH.search(shown) and "no circle" not in shown, shown


# game -> (the seats after Ana's, a move that reads wrong in a precise way, its refusal in French)
PRECISE = {
    "brujas": (
        ["greedy", "greedy"],
        "xZ9",
        "une carte s'écrit avec une couleur R, B, Y ou G et un nombre de 1 à 5",
    ),
    "amulets": (["greedy", "greedy"], "ask A1 B2 C3 D4 F5", "un champ va d'A1 à E5, pas 'F5'"),
    "commandments": (
        ["greedy", "greedy"],
        "bk3>Q",
        "'Q' n'est pas une zone (C, H1-H5, T1-T5, R ; X = hors du cercle)",
    ),
}


@pytest.mark.parametrize("game", list(PRECISE))
def test_a_move_that_reads_wrong_says_precisely_why_in_french(server: Any, fr: Any, game: str) -> None:
    # the notation's own refusal (a card, a field, an area that is none), in the page's words
    bots, text, expected = PRECISE[game]
    _, shown = typed_at_my_turn(server, fr, game, bots, text)
    assert expected in shown, shown
    assert not ENGLISH.search(shown), shown


def test_the_lobby_says_in_french_what_is_wrong_with_the_pace(server: Any, fr: Any) -> None:
    page = fr.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#game-brujas")
    tables = len(server.get("/api/tables"))
    page.select_option("#new-game", "brujas")
    page.select_option("#new-pace", "move")
    page.fill("#new-pace-seconds", "3")
    page.click("#create-table")
    error = page.locator("#create-table").locator("xpath=ancestor::form//p[@role='alert']")
    error.wait_for(state="visible")
    shown = said(error)
    assert shown == (
        "La table n'a pas été créée : le temps doit être un nombre entier de secondes, de 5 à 86400."
    ), shown
    assert len(server.get("/api/tables")) == tables  # refused in the page: nothing was sent
    # The server's own refusal (another page, an old one) is said in French too, from its field.
    mapped = page.evaluate(
        """async () => (await import('/i18n.js')).errorText('bad_request',
             'pace_seconds: Input should be greater than or equal to 5')"""
    )
    assert mapped == "le temps doit être un nombre entier de secondes, de 5 à 86400."
    shoot(page, "lobby-pace-fr-desktop")
    page.fill("#new-pace-seconds", "5")
    page.click("#create-table")
    page.wait_for_selector(".invites")
    assert error.is_hidden()


HOLD_OTHERS = """() => {
    // Hold the updates of the other seats' moves (the bots play at once) until _release().
    const t = window.coven;
    const deliver = t.onMessage.bind(t);
    const held = [];
    t.onMessage = (m) => (m.type === "update" && m.actor !== t.seat ? held.push(m) : deliver(m));
    t._release = () => { t.onMessage = deliver; for (const m of held.splice(0)) deliver(m); };
}"""


def test_the_commandments_moves_are_named_in_french(server: Any, fr: Any) -> None:
    seats = [
        {"kind": "bot", "bot": "greedy", "name": None},
        {"kind": "human", "name": "Ana"},
        {"kind": "bot", "bot": "random", "name": None},
    ]
    created = server.post("/api/tables", {"game": "commandments", "players": 3, "seats": seats})
    page = fr.new_page()
    page.goto(created["invites"][0]["url"])
    page.wait_for_selector("main[data-myturn=yes]")
    page.wait_for_selector("#forfeit")
    number = int(page.get_attribute("main", "data-number") or "0")
    move_bowing(page, "merci", touch="novice")  # white 1 to H2, bowing, touching a novice
    page.wait_for_function("n => Number(document.querySelector('main').dataset.number) > n", arg=number)
    page.wait_for_selector("main[data-myturn=yes]")
    page.wait_for_selector("#forfeit")
    number = int(page.get_attribute("main", "data-number") or "0")
    # The bots' next moves wait until the sheet is read (one could end the ritual, and the sheet with it).
    page.evaluate(HOLD_OTHERS)
    page.click("#forfeit")
    page.wait_for_function("n => Number(document.querySelector('main').dataset.number) > n", arg=number)
    lines = [" ".join(li.split()) for li in page.locator(".cmd-moves li").all_inner_texts()]
    ana = [line for line in lines if line.startswith("Ana (vous)")]
    assert len(ana) >= 2, lines
    # the artefact's way in words (its notation, wh1>…>H2, in the tooltip)
    performed = r"blanc 1 de \S+ (par C )?vers H2 \(s'incliner, toucher un autre novice, “merci” ; \d+ s\)"
    assert re.match(rf"Ana \(vous\) : {performed} — ", ana[-2]), ana
    assert ana[-1].startswith("Ana (vous) : renonce — "), ana
    log = page.inner_text("#log")
    assert re.search(rf"Ana \(vous\) a déplacé {performed}", log), log
    assert page.locator("#log [title^='wh1>']").count() >= 1
    for shown in (log, "\n".join(lines)):
        assert not re.search(r"(^|\s)[+@][a-z_]+\b|\bforfeit\b|\d+s\b", shown), shown
    shoot(page, "commandments-moves-fr-desktop")
    page.evaluate("() => window.coven._release()")


def test_the_replay_caption_says_the_move_in_french(server: Any, fr: Any) -> None:
    seats = [{"kind": "bot", "bot": "greedy", "name": None} for _ in range(3)]
    created = server.post("/api/tables", {"game": "brujas", "players": 3, "seats": seats})
    page = fr.new_page()
    page.goto(created["spectator_url"])
    page.wait_for_selector("#result[data-ready=yes]", timeout=60_000)
    page.click("#replay-reveal")
    page.wait_for_selector("#replay-reveal:has-text('Entièrement révélé')")
    steps = server.get(f"/api/tables/{table_id(created['spectator_url'])}/replay?reveal=true")["steps"]
    take = next(i for i, st in enumerate(steps) if (st["action"] or "").startswith("x"))
    page.click("#replay-first")
    for i in range(take + 1):
        caption = said(page.locator("#replay-caption"))
        action = steps[i]["action"]
        assert caption.startswith(f"Étape {steps[i]['number']} sur "), caption
        if action is not None:  # step 0, the deal, has none
            assert not re.search(rf"\b{re.escape(action)}\b", caption), (action, caption)
            assert " a joué " in caption or " a pris " in caption or " a déplacé " in caption, caption
        page.click("#replay-next")
    page.click("#replay-prev")
    assert " a pris " in said(page.locator("#replay-caption"))
    page.locator("#replay-caption").scroll_into_view_if_needed()
    shoot(page, "replay-caption-fr-desktop")


def test_a_french_amulets_player_types_the_letters_the_page_shows(server: Any, fr: Any) -> None:
    # the spell book shows R J V B N (Rouge, Jaune, Vert, Bleu, Noir): typed, they are read
    page = fr.new_page()
    seated(server, page, "amulets", ["greedy", "greedy"])
    page.wait_for_selector("main[data-myturn=yes]")
    number = page.get_attribute("main", "data-number")
    if not page.locator("#all-moves").evaluate("el => el.open"):
        page.click("#all-moves summary")
    page.fill("#notation", "ask RA1 JB2 VC3 BD4 NE5")
    page.click("#notation-play")
    page.wait_for_function("n => document.querySelector('main').dataset.number !== n", arg=number)
    assert page.locator("#move-error").is_hidden()
    assert "RA1 JB2 VC3 BD4 NE5" in page.inner_text("#board")  # as the spell book writes it


def test_the_commandments_typing_box_says_the_time_is_measured(server: Any, fr: Any) -> None:
    page = fr.new_page()
    seated(server, page, "commandments", ["greedy", "greedy"])
    page.wait_for_selector("main[data-myturn=yes], main[data-mayact=yes]")
    if not page.locator("#all-moves").evaluate("el => el.open"):
        page.click("#all-moves summary")
    assert "les secondes écrites dans un coup" in page.inner_text("#typing-hint")
    other = fr.new_page()
    seated(server, other, "namaste", ["greedy"])
    other.wait_for_selector("main[data-myturn=yes]")
    assert other.locator("#typing-hint").count() == 0  # where nothing is measured, nothing is said
