"""A connection that dies in silence (the network gone, the socket still open, nothing arriving: what
Playwright's ``set_offline`` does): the page notices, says so in French, reconnects when the network is
back, says whether a move in flight was played, and lets the person play it again (never twice). A move
refused for want of a connection is said as "not sent", and that goes once the connection is back. Chat
typed or sent while the connection is down is kept."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tests.e2e.conftest import watch_errors
from tests.e2e.helpers import against_bots, said
from tests.e2e.test_screens import SCREENS, SHOTS, shoot

pytestmark = pytest.mark.browser

# Short waits for the test (the page's own are seconds: a ping after 15 s of silence, 5 s for its answer,
# 8 s for a move's ack).
TIMEOUTS = "window.covenTimeouts = { quiet: 1500, answer: 1500, ack: 2500 };"
MOVE = "#board [data-action]:not([disabled])"


def number(page: Any) -> int:
    return int(page.get_attribute("main", "data-number") or "0")


@pytest.fixture(params=list(SCREENS))
def screen(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@contextmanager
def _ana(server: Any, browser: Any, kind: str, dark: bool) -> Iterator[tuple[str, Any, Any, dict[str, bool]]]:
    """Ana's page, in French, at her turn at a table of Brujas against two bots: (screen, context, page,
    switch). With ``dark``, her socket goes through the test: while ``switch["dark"]`` nothing passes
    either way and the socket stays open (a network gone quiet that never delivers what was sent)."""
    ctx = browser.new_context(locale="fr-FR", **SCREENS[kind])
    ctx.set_default_timeout(15_000)
    ctx.add_init_script(TIMEOUTS)
    errors = watch_errors(ctx)
    created = against_bots(server, "brujas", ["greedy", "greedy"])
    page = ctx.new_page()
    switch = {"dark": False}
    if dark:

        def through(ws: Any) -> None:
            upstream = ws.connect_to_server()
            ws.on_message(lambda m: None if switch["dark"] else upstream.send(m))
            upstream.on_message(lambda m: None if switch["dark"] else ws.send(m))

        page.route_web_socket(re.compile(r"/ws/tables/"), through)
    page.goto(created["invites"][0]["url"])
    page.wait_for_selector("main[data-myturn=yes]")
    page.wait_for_selector("main:not([data-animating=yes])")
    try:
        yield kind, ctx, page, switch
    finally:
        ctx.set_offline(False)
        ctx.close()
    assert not errors, f"script errors in the page: {errors}"


@pytest.fixture
def ana(server: Any, browser: Any, screen: str) -> Iterator[tuple[str, Any, Any, dict[str, bool]]]:
    """Ana's page; the test cuts her network with ``set_offline``."""
    with _ana(server, browser, screen, dark=False) as made:
        yield made


@pytest.fixture
def ana_dark(server: Any, browser: Any, screen: str) -> Iterator[tuple[str, Any, Any, dict[str, bool]]]:
    """Ana's page, her socket through the test's switch."""
    with _ana(server, browser, screen, dark=True) as made:
        yield made


def mine(page: Any) -> int:
    """How many steps of the log are Ana's."""
    return int(page.evaluate("() => window.coven.steps.filter((s) => s.actor === 0).length"))


def test_a_move_lost_in_a_silent_connection_is_said_and_played_again_once(
    ana_dark: tuple[str, Any, Any, dict[str, bool]],
) -> None:
    kind, _, page, switch = ana_dark
    before = number(page)
    switch["dark"] = True
    move = page.locator(MOVE).first
    action = move.get_attribute("data-action")
    move.click()
    assert page.inner_text("#turn") == "Envoi de votre coup…"
    # No ack: the page stops saying "Sending", says why, and finds the socket dead (no answer to its ping).
    error = page.locator("#move-error")
    error.wait_for(state="visible")
    assert said(error).startswith("Pas de réponse : Le serveur n'a pas confirmé votre coup"), said(error)
    assert page.inner_text("#turn") != "Envoi de votre coup…"
    page.wait_for_selector("#conn.reconnecting:has-text('Connexion perdue ; nouvel essai dans')")
    shoot(page, f"connection-lost-fr-{kind}")
    switch["dark"] = False
    page.wait_for_selector("#conn.connected", timeout=20_000)
    # Back: the sync says the move was not played; the person plays it again, at the same position.
    page.wait_for_selector("#move-error:has-text('Coup non joué')")
    assert "Rejouez-le si c'est encore à vous" in said(error)
    assert number(page) == before and mine(page) == 0
    page.wait_for_selector("main[data-myturn=yes]")
    shoot(page, f"connection-back-fr-{kind}")
    page.locator(f"{MOVE}[data-action='{action}']").first.click()
    page.wait_for_function("n => Number(document.querySelector('main').dataset.number) > n", arg=before)
    error.wait_for(state="hidden")  # the new position supersedes the old message
    assert mine(page) == 1, "Ana's move was played once"


def test_a_move_sent_as_the_network_goes_is_settled_when_it_comes_back(
    ana: tuple[str, Any, Any, dict[str, bool]],
) -> None:
    # Chromium's offline mode holds what the socket sent and may deliver it when the network is back:
    # then the move was played, and the page says nothing more; if not, it says so and Ana plays again.
    _, ctx, page, _ = ana
    before = number(page)
    ctx.set_offline(True)
    page.locator(MOVE).first.click()
    error = page.locator("#move-error")
    error.wait_for(state="visible")
    assert said(error).startswith("Pas de réponse"), said(error)
    page.wait_for_selector("#conn.reconnecting:has-text('Connexion perdue')")
    ctx.set_offline(False)
    page.wait_for_selector("#conn.connected", timeout=20_000)
    page.wait_for_function(
        """n => { const e = document.getElementById('move-error');
                  return (e.hidden && Number(document.querySelector('main').dataset.number) > n)
                      || e.textContent.includes('Coup non joué'); }""",
        arg=before,
    )
    if not error.is_hidden():
        page.wait_for_selector("main[data-myturn=yes]")
        page.locator(MOVE).first.click()
        page.wait_for_function("n => Number(document.querySelector('main').dataset.number) > n", arg=before)
    page.wait_for_timeout(500)
    assert mine(page) == 1, "Ana's move was played once"


def test_a_move_without_a_connection_is_not_sent_and_the_message_goes_when_it_is_back(
    ana: tuple[str, Any, Any, dict[str, bool]],
) -> None:
    kind, ctx, page, _ = ana
    ctx.set_offline(True)
    # Idle and offline: the page's ping gets no answer, and the pill no longer says "connecté".
    page.wait_for_selector("#conn.reconnecting:has-text('Connexion perdue')")
    page.locator(MOVE).first.click()
    error = page.locator("#move-error")
    error.wait_for(state="visible")
    text = said(error)
    assert text.startswith("Non envoyé : Il n'y a pas de connexion."), text
    assert "Refusé" not in text
    shoot(page, f"connection-not-sent-fr-{kind}")
    ctx.set_offline(False)
    page.wait_for_selector("#conn.connected", timeout=20_000)
    error.wait_for(state="hidden")
    page.wait_for_selector("main[data-myturn=yes]")
    before = number(page)
    page.locator(MOVE).first.click()
    page.wait_for_function("n => Number(document.querySelector('main').dataset.number) > n", arg=before)


def test_chat_typed_or_sent_without_a_connection_is_kept(ana: tuple[str, Any, Any, dict[str, bool]]) -> None:
    kind, ctx, page, _ = ana
    ctx.set_offline(True)
    page.wait_for_selector("#conn.reconnecting:has-text('Connexion perdue')")
    page.fill("#chat-input", "allô ?")
    page.click("#chat-send")
    note = page.locator("#chat-note")
    note.wait_for(state="visible")
    assert said(note).startswith("Non envoyé : pas de connexion")
    assert page.input_value("#chat-input") == "allô ?"
    assert page.locator("#chat-lines li").count() == 0
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#chat").screenshot(path=str(SHOTS / f"chat-not-sent-fr-{kind}.png"))
    page.fill("#chat-input", "allô ? vous m'entendez ?")
    ctx.set_offline(False)
    page.wait_for_selector("#conn.connected", timeout=20_000)
    # The chat is drawn again on reconnecting: the text typed meanwhile is still there, the note gone.
    note.wait_for(state="hidden")
    assert page.input_value("#chat-input") == "allô ? vous m'entendez ?"
    page.click("#chat-send")
    page.wait_for_selector("#chat-lines li .chat-text")
    assert page.inner_text("#chat-lines li .chat-text") == "allô ? vous m'entendez ?"
    assert page.input_value("#chat-input") == ""
