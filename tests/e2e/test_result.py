"""The result screen explains each player's score: its lines add up to the scores shown (and the engine's),
its step links move the replay there; screenshots of the result screen, desktop and phone."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from tests.e2e.helpers import create_table, engine_scores, page_final_scores, play_until_over, said, table_id
from tests.e2e.test_games import brujas_move
from tests.e2e.test_screens import FITS, SCREENS, SHOTS, no_stray_objects, shoot

pytestmark = pytest.mark.browser

EXPLAINED = """() => [...document.querySelectorAll('#explanation .why-seat')].map((el) => ({
  seat: Number(el.dataset.seat),
  total: Number(el.dataset.total),
  lines: [...el.querySelectorAll('.why-line')].map((tr) => Number(tr.dataset.points)),
}))"""


def test_the_result_screen_explains_the_scores(server: Any, browser: Any) -> None:
    ctx = browser.new_context(**SCREENS["desktop"])
    ctx.set_default_timeout(15_000)
    errors: list[str] = []
    ctx.on("page", lambda p: p.on("pageerror", lambda exc: errors.append(str(exc))))
    page = ctx.new_page()
    links = create_table(
        page, server.base, "brujas", ["human", "bot:greedy", "bot:greedy"], options={"conflict": True}
    )
    url = links["invites"][0]
    page.goto(url)
    play_until_over(page, brujas_move, random.Random(5))
    shown = page_final_scores(page)
    assert shown == engine_scores(server, table_id(url))
    page.wait_for_selector("#explanation .why-seat")
    explained = page.evaluate(EXPLAINED)
    assert sorted(e["seat"] for e in explained) == [0, 1, 2]
    for e in explained:
        assert sum(e["lines"]) == e["total"] == shown[e["seat"]], e
        assert e["lines"], "every Brujas player has a witch score"
    summary = page.inner_text("#why-summary")
    assert "{s" not in summary
    assert "wins" in summary or "share the win" in summary
    assert "Witch score" in page.inner_text("#explanation")
    no_stray_objects(page)
    # a moment that made the difference: its link moves the replay slider to that step
    link = page.locator("#explanation .step-link").first
    step = int(link.get_attribute("data-step"))
    link.click()
    assert page.input_value("#replay-slider") == str(step)
    assert page.inner_text(".replay-head").startswith(f"Step {step} of")
    page.locator("#result").scroll_into_view_if_needed()
    shoot(page, "result-brujas-seat-desktop")
    ctx.close()
    # the same seat's result on a phone: it fits, and the explanation is the same
    phone = browser.new_context(**SCREENS["phone"])
    phone.set_default_timeout(15_000)
    phone.on("page", lambda p: p.on("pageerror", lambda exc: errors.append(str(exc))))
    page = phone.new_page()
    page.goto(url)
    page.wait_for_selector("#result[data-ready=yes]", timeout=30_000)
    assert page.evaluate(EXPLAINED) == explained
    no_stray_objects(page)
    shoot(page, "result-brujas-seat-phone")
    page.locator("#explanation").screenshot(path=str(SHOTS / "result-brujas-seat-phone-explanation.png"))
    assert page.evaluate(FITS), "the result screen scrolls sideways on the phone"
    phone.close()
    assert not errors, f"script errors in the page: {errors}"


def test_a_replay_the_server_is_too_busy_to_make_is_asked_for_again(server: Any, browser: Any) -> None:
    """A server making many replays answers 503 ``busy`` with ``Retry-After``: the result screen asks again
    and shows the replay, without an error."""
    ctx = browser.new_context(**SCREENS["phone"], locale="fr-FR")
    ctx.set_default_timeout(20_000)
    page = ctx.new_page()
    bots = [{"kind": "bot", "bot": "random"}] * 3
    created = server.post("/api/tables", {"game": "brujas", "players": 3, "seats": bots})
    table = created["table"]["id"]
    deadline = time.monotonic() + 20
    while server.get(f"/api/tables/{table}")["status"] != "over" and time.monotonic() < deadline:
        time.sleep(0.1)
    refused: list[str] = []

    def busy_once(route: Any) -> None:
        if refused:
            route.continue_()
            return
        refused.append(route.request.url)
        body = '{"error":{"code":"busy","message":"the server is making other replays"}}'
        route.fulfill(status=503, headers={"Retry-After": "1"}, content_type="application/json", body=body)

    page.route("**/replay*", busy_once)
    page.goto(f"{server.base}/t/{table}")
    page.wait_for_selector("#replay-slider")
    assert len(refused) == 1
    assert "Pas de relecture" not in page.inner_text("#result")
    ctx.close()


def test_the_result_leads_to_a_new_table_of_the_same_game(server: Any, browser: Any) -> None:
    # The game is over (French, on a phone): the result says where to go next, a new table of the same game
    # for as many players, which the lobby's form opens on (the only way on was the lobby link at the top,
    # a whole page up, and its form started on the first game).
    from tests.e2e.test_i18n import french

    seats = [{"kind": "bot", "bot": "random"} for _ in range(4)]
    created = server.post("/api/tables", {"game": "brujas", "players": 4, "seats": seats})
    with french(browser, "phone") as ctx:
        page = ctx.new_page()
        page.goto(created["spectator_url"])
        page.wait_for_selector("#result[data-ready=yes]", timeout=60_000)
        link = page.locator("#result #new-table")
        assert said(link) == "Nouvelle table : Brujas del Sábado"
        link.click()
        page.wait_for_selector("#create-table")
        assert page.input_value("#new-game") == "brujas"
        assert page.input_value("#new-players") == "4"
        assert page.locator(".seat-row").count() == 4
        assert page.evaluate("() => document.activeElement.id") == "new-game"
        # a link of another shape (a game or a count that is none) leaves the form as it always opens
        page.goto(server.base + "/?game=chess&players=99")
        page.wait_for_selector("#create-table")
        assert page.input_value("#new-game") == page.eval_on_selector("#new-game option", "o => o.value")
