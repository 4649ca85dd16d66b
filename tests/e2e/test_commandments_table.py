"""The 3 Commandments in the browser: a human High Priestess judges a human novice card by card, a novice
forfeits in one click, the deck browser filters, custom cards are made in the lobby with a live preview,
and screenshots of the table and the deck page at desktop and phone sizes."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from coven.games import get_game
from coven.games.commandments.cards import BUILTIN
from coven.games.commandments.notation import Judge
from tests.e2e.conftest import watch_errors
from tests.e2e.helpers import create_table
from tests.e2e.test_screens import FITS, SCREENS, no_stray_objects, shoot

pytestmark = pytest.mark.browser

GAME = get_game("commandments")


def _seats(*kinds: str) -> list[dict[str, Any]]:
    return [
        {"kind": "human", "name": f"Person {i + 1}"}
        if k == "human"
        else {"kind": "bot", "bot": k, "name": None}
        for i, k in enumerate(kinds)
    ]


def _myturn(page: Any) -> None:
    page.wait_for_selector("main[data-myturn=yes]")


def _ordain_and_place(page: Any) -> None:
    """As High Priestess: discard an artefact card and name an artefact card the taboo (so both action
    cards are commandments she will judge), then place the artefacts as first suggested."""
    _myturn(page)
    page.locator('.ordain button[data-action^="ordain discard=A"][data-action*="taboo=A"]').first.click()
    page.wait_for_selector("#place-confirm:not([disabled])")
    page.click("#place-confirm")


def move_bowing(page: Any, words: str, touch: str | None = None) -> None:
    """As a novice: pick white 1 by keyboard, carry it over the centre to H2, bow, say ``words`` (and
    touch ``touch``: "novice", "artefact"...)."""
    _myturn(page)
    board = page.locator("#board")
    start = board.locator("g.token[data-artefact=wh1]").get_attribute("data-area")
    board.locator("g.token[data-artefact=wh1]").focus()
    page.keyboard.press("Enter")
    for name in ["H2"] if start == "C" else ["C", "H2"]:
        board.locator(f".holy-circle .area[data-area={name}]").focus()
        page.keyboard.press("Enter")
    board.locator("#perf-g-bow").check()
    if touch is not None:
        board.locator(f"#perf-t-{touch}").check()
    board.locator("#perf-words").fill(words)
    assert int(page.locator("#perf-beats").inner_text().split()[0]) <= 10
    board.locator("#perform").click()


def test_a_human_priestess_judges_a_human_novice_card_by_card(server: Any, browser: Any) -> None:
    created = server.post(
        "/api/tables",
        {
            "game": "commandments",
            "players": 3,
            "options": {"judge": "priestess"},
            "seats": _seats("human", "human", "greedy"),
        },
    )
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    errors = [watch_errors(c) for c in contexts]
    try:
        priestess, novice = (c.new_page() for c in contexts)
        priestess.goto(created["invites"][0]["url"])
        novice.goto(created["invites"][1]["url"])
        assert "The High Priestess judges" in priestess.locator("#cmd-variant").inner_text()
        _ordain_and_place(priestess)
        move_bowing(novice, "May I, oh great one")

        # She sees the performance as it happened, the time measured by the server.
        priestess.wait_for_selector("#judge-send")
        seen = priestess.locator("#performance-seen").inner_text()
        assert "“May I, oh great one”" in seen and "bow" in seen and "(wh1)" in seen
        assert "→ H2" in seen and "measured by the server" in seen
        cards = priestess.locator(".judge-card")
        assert cards.count() == 2
        assert priestess.locator("#judge-send").is_disabled(), "no verdict before every card is answered"
        view = priestess.evaluate("() => window.coven.view")
        pending = view["pending"]
        assert pending["words"] == "May I, oh great one" and pending["gestures"] == ["bow"]
        # Yes to the first action card, no to the second.
        cards.nth(0).locator("input[value=yes]").check()
        assert priestess.locator("#judge-send").is_disabled()
        cards.nth(1).locator("input[value=no]").check()
        assert priestess.get_attribute("#judge-send", "data-action") == "judge yes,no"
        shoot(priestess, "commandments-judge-desktop")

        # What the engine gives for this verdict, from her view of the table.
        world = GAME.world_from_view(GAME.view_from_json(view), random.Random(1))
        GAME.apply(world, 0, Judge((1, 0)))
        expected = list(world.karma)
        marks = list(world.rituals[-1].moves[-1].marks)
        number = int(priestess.get_attribute("main", "data-number") or "0")
        priestess.click("#judge-send")

        for page in (novice, priestess):
            page.wait_for_function(
                "n => Number(document.querySelector('main').dataset.number) > n", arg=number
            )
            page.wait_for_function(
                "k => document.querySelector('#karma-pad td.pad-total[data-seat=\"1\"]').textContent === k",
                arg=str(expected[1]),
            )
            totals = page.eval_on_selector_all(
                "#karma-pad td.pad-total", "els => els.map(e => Number(e.textContent))"
            )
            assert totals == expected
            # The markers sit on the cards the move matched (the novice's view: standard rules).
            flags = page.eval_on_selector_all(
                ".slot-card", "els => els.map(e => e.dataset.marked === 'yes' ? 1 : 0)"
            )
            assert flags == marks
        assert novice.locator("#karma-pad tr[data-seat='0'] td.hp-cell").count() == 1
        shoot(novice, "commandments-novice-desktop")
    finally:
        for c in contexts:
            c.close()
    assert not any(errors), f"script errors in the pages: {errors}"


def test_a_novice_forfeits_in_one_click_and_the_expert_variant_is_named(server: Any, context: Any) -> None:
    page = context.new_page()
    links = create_table(
        page, server.base, "commandments", ["bot:greedy", "human", "bot:greedy"], options={"expert": True}
    )
    assert "expert variant" in page.locator("#links").inner_text()
    page.goto(links["invites"][0])
    _myturn(page)
    assert "Expert variant" in page.locator("#cmd-variant").inner_text()
    forfeit = page.locator("#forfeit")
    assert forfeit.is_visible() and forfeit.is_enabled()
    number = int(page.get_attribute("main", "data-number") or "0")
    flips = int(page.get_attribute("#destiny", "data-flips") or "0")
    forfeit.click()
    page.wait_for_function("n => Number(document.querySelector('main').dataset.number) > n", arg=number)
    log = page.locator(".cmd-moves li").first.inner_text()
    assert log.startswith("Person 2 (you): forfeit"), log
    # The pad's row says so; the engine's log: no move, one more destiny card flipped.
    cell = page.locator("#karma-pad tr[data-seat='1'] td").nth(0).inner_text()
    assert "forfeit" in cell
    after = page.evaluate("() => window.coven.view.rituals[0].moves[0]")
    assert after["move"] is None and after["flips"] == flips + 1
    # Expert variant: a novice sees no markers.
    assert page.locator(".slot-card .marker").count() == 0
    page.goto(server.base + "/")
    page.wait_for_selector(".recent-list")
    assert "expert variant" in page.locator(".recent-list").inner_text()


def test_the_deck_browser_filters(server: Any, context: Any) -> None:
    page = context.new_page()
    page.goto(server.base + "/deck.html")
    page.wait_for_selector(".deck-browser[data-ready=yes]")
    cards = page.locator(".deck-list .deck-card")
    assert cards.count() == len(BUILTIN)
    page.fill("#deck-filter", "blanc")  # French words find cards too
    page.wait_for_function("() => document.querySelectorAll('.deck-list .deck-card').length < 40")
    texts = page.eval_on_selector_all(
        ".deck-list .deck-card", "els => els.map(e => e.textContent.toLowerCase())"
    )
    assert texts and all("blanc" in t for t in texts)
    assert "A01" in page.eval_on_selector_all(".deck-list .deck-card", "els => els.map(e => e.dataset.id)")
    page.fill("#deck-filter", "")
    page.select_option("#deck-type", "action")
    types = page.eval_on_selector_all(".deck-list .deck-card", "els => els.map(e => e.dataset.type)")
    assert set(types) == {"action"} and len(types) == sum(c.type == "action" for c in BUILTIN)
    page.select_option("#deck-value", "?")
    values = page.eval_on_selector_all(".deck-list .deck-value", "els => els.map(e => e.textContent)")
    assert values and set(values) == {"?"}
    page.fill("#deck-filter", "no such card at all")
    page.wait_for_selector(".deck-none")
    assert "0 of" in page.locator("#deck-count").inner_text()
    # In the lobby too, with both languages on each card.
    page.goto(server.base + "/")
    page.click("#deck-commandments summary")
    page.wait_for_selector("#deck-commandments .deck-browser[data-ready=yes]")
    page.fill("#lobby-deck-filter", "P10")
    page.wait_for_function("() => document.querySelectorAll('#lobby-deck-list .deck-card').length === 1")
    card = page.locator("#lobby-deck-list .deck-card")
    assert "animal" in card.locator(".deck-en").inner_text() and card.locator(".deck-fr").inner_text()


def test_custom_cards_are_made_with_a_live_preview(server: Any, context: Any) -> None:
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#game-commandments")
    page.select_option("#new-game", "commandments")
    page.fill("#cc-en", "If you bow")
    page.fill("#cc-fr", "Si vous vous inclinez")
    page.fill("#cc-expr", 'did("fly")')
    page.wait_for_selector("#cc-error")
    assert "fly" in page.locator("#cc-error").inner_text()
    assert page.locator("#cc-add").is_disabled()
    page.fill("#cc-expr", 'did("bow")')
    page.wait_for_selector("#cc-sample")
    rows = page.eval_on_selector_all(
        "#cc-sample tbody tr",
        "els => els.map(e => [e.querySelector('code').textContent, e.classList.contains('marked')])",
    )
    assert rows and all(marked == ("+bow" in move) for move, marked in rows)
    assert any(marked for _, marked in rows)
    page.click("#cc-add")
    assert '"expr":"did(\\"bow\\")"' in page.input_value("#opt-custom_cards")
    page.click("#create-table")
    page.wait_for_selector(".invites")
    table = page.locator(".invite-link").first.get_attribute("href") or ""
    info = server.get("/api/tables/" + table.split("/t/")[1].split("#")[0])
    assert "MY1" in str(info["options"]["custom_cards"])


@pytest.fixture(params=list(SCREENS))
def screen(request: pytest.FixtureRequest, browser: Any) -> Iterator[tuple[str, Any]]:
    ctx = browser.new_context(**SCREENS[request.param])
    ctx.set_default_timeout(15_000)
    errors = watch_errors(ctx)
    try:
        yield request.param, ctx
    finally:
        ctx.close()
    assert not errors, f"script errors in the page: {errors}"


def test_the_commandments_table_and_deck_page_fit_the_screen(server: Any, screen: tuple[str, Any]) -> None:
    kind, ctx = screen
    created = server.post(
        "/api/tables",
        {"game": "commandments", "players": 4, "seats": _seats("greedy", "human", "greedy", "greedy")},
    )
    page = ctx.new_page()
    page.goto(created["invites"][0]["url"])
    _myturn(page)
    page.click("#cmd-deck summary")
    page.wait_for_selector("#cmd-deck .deck-browser[data-ready=yes]")
    page.fill("#table-deck-filter", "white")
    no_stray_objects(page)
    assert page.locator("#forfeit").is_visible()
    assert page.locator("#karma-pad tbody tr").count() == 4
    shoot(page, f"commandments-table-{kind}")
    assert page.evaluate(FITS), f"the Commandments table scrolls sideways on the {kind}"
    page.goto(server.base + "/deck.html")
    page.wait_for_selector(".deck-browser[data-ready=yes]")
    no_stray_objects(page)
    shoot(page, f"commandments-deck-{kind}")
    assert page.evaluate(FITS), f"the deck page scrolls sideways on the {kind}"
    page.goto(server.base + "/")
    page.select_option("#new-game", "commandments")
    page.fill("#cc-en", "If you stay silent and bow")
    page.fill("#cc-expr", 'silent and did("bow")')
    page.wait_for_selector("#cc-sample")
    page.locator(".custom-cards").scroll_into_view_if_needed()
    shoot(page, f"commandments-custom-cards-{kind}")
    assert page.evaluate(FITS), f"the lobby with the card maker scrolls sideways on the {kind}"
