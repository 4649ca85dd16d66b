"""A move the rules refuse is explained in French on a French page, from the refusal's reason (its key and
params: PROTOCOL.md "Refusals"), with no English in it: a typed move at each game's table, the card
maker's card; a reason the page does not know falls back to the code's French text, never to English."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.helpers import said, seated
from tests.e2e.test_i18n import english_only
from tests.e2e.test_screens import shoot

pytestmark = pytest.mark.browser


def english_in(text: str) -> list[str]:
    """The catalogue's English-only pieces found in ``text`` (the refusals' English templates among them)."""
    return [piece for piece in english_only() if piece in text]


# game -> (the seats after Ana's, a move the rules refuse when Ana first acts, what the page says)
REFUSED: dict[str, tuple[list[str], str, str]] = {
    "namaste": (
        ["greedy"],
        "14@c3",  # before rolling the dice
        "14@c3 : choisissez d'abord combien de dés blancs lancer (roll 1-3)",
    ),
    "amulets": (
        ["greedy", "greedy"],
        "ask RA1 YA1 GB2 BD4 KE2",
        "deux amulettes sur A1 : une amulette au plus par champ",
    ),
    "commandments": (
        ["greedy", "greedy"],
        "wh1>C",  # Ana is the first High Priestess: she ordains her cards first
        "ce n'est pas le moment d'un coup de novice (la Grande Prêtresse doit ordonner ses cartes)",
    ),
    "brujas": (["greedy", "greedy"], "", "vous n'avez pas de {card} en main"),  # a card she does not hold
}

NOT_HELD = """() => {
    const held = new Set(window.coven.view.hand);
    for (const colour of "RBYG") for (let n = 1; n <= 5; n += 1) if (!held.has(colour + n)) return colour + n;
    return null;
}"""


@pytest.mark.parametrize("game", list(REFUSED))
def test_a_refused_typed_move_is_explained_in_french(server: Any, fr: Any, game: str) -> None:
    bots, text, expected = REFUSED[game]
    page = fr.new_page()
    seated(server, page, game, bots)
    page.wait_for_selector("main[data-myturn=yes]")
    if game == "brujas":
        card = page.evaluate(NOT_HELD)
        text, expected = card, expected.format(card=card)
    number = page.get_attribute("main", "data-number")
    if not page.locator("#all-moves").evaluate("el => el.open"):
        page.click("#all-moves summary")
    page.fill("#notation", text)
    page.click("#notation-play")
    error = page.locator("#move-error")
    error.wait_for(state="visible")
    shown = said(error)
    assert shown == f"Ce coup n'est pas permis : {expected} Fermer", shown
    assert not english_in(shown), english_in(shown)
    assert page.get_attribute("main", "data-number") == number  # refused: nothing was played
    assert page.input_value("#notation") == text  # kept, to be corrected
    shoot(page, f"refused-fr-{game}")


def test_a_reason_names_the_seat_and_an_unknown_one_falls_back_to_french(server: Any, fr: Any) -> None:
    page = fr.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#create-table")
    texts = page.evaluate(
        """async () => {
            const { errorText } = await import('/i18n.js');
            const english = "only the asker (seat 0) may ask now; you may cast";
            const names = (i) => ["Ana", "Bob"][i];
            return [
                errorText("illegal_action", english, "amulets",
                    { key: "refusal.amulets.not_asker", params: { seat: 1 } }, names),
                errorText("illegal_action", english, "amulets",
                    { key: "refusal.amulets.no_such_reason", params: {} }, names),
                errorText("illegal_action", "no card is played now: it is time to stop", "brujas",
                    { key: "refusal.brujas.no_play_now",
                      params: { task: { key: "refusal.brujas.task.dance", params: {} } } }),
                errorText("illegal_action", "you hold no R3", "brujas"),
            ];
        }"""
    )
    assert texts == [
        "seul le sorcier qui interroge (Bob) peut poser une question maintenant ; vous pouvez lancer le sort",
        "Les règles n'autorisent pas ce coup.",  # a key this page does not know: the code's text alone
        "Les règles n'autorisent pas ce coup.",  # nor a nested one: no sentence half in English
        "Les règles n'autorisent pas ce coup.",  # no reason at all (an older server)
    ]


def test_the_card_maker_says_in_french_what_is_wrong_with_a_card(server: Any, fr: Any) -> None:
    page = fr.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#create-table")
    page.select_option("#new-game", "commandments")
    page.wait_for_selector("#cc-add")
    page.fill("#cc-en", "If you moonwalk")
    page.fill("#cc-expr", "did('moonwalk')")
    error = page.locator("#cc-error")
    error.wait_for(state="visible")
    shown = said(error)
    assert shown.startswith(
        "Carte non valide : la carte (MY1) : l'expression \"did('moonwalk')\" : "
        "'moonwalk' n'est pas un geste (stand, dance, "
    ), shown
    assert shown.endswith("smile) (position 4)"), shown
    assert not english_in(shown), english_in(shown)
    shoot(page, "card-maker-refused-fr")
