"""Chat at the table: a line one person says reaches the other seat and the spectator, shown as text
(markup stays text); the spectator reads but has nothing to write with; the silent Brujas variant shows
its reminder. A line is "sending…" until the server acknowledges it; refused, its text goes back in the
input with the reason in the page's language; unanswered (a connection gone quiet), it is said "not sent",
its text kept, and the page never says it twice on its own."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from coven.store import Store
from tests.e2e.conftest import Server, watch_errors
from tests.e2e.helpers import against_bots, create_table, said
from tests.e2e.test_i18n import limited_server
from tests.e2e.test_screens import SHOTS

pytestmark = pytest.mark.browser

# Short waits for the tests (the page's own: a ping after 15 s of silence, 5 s for its answer, 8 s for an
# acknowledgement).
QUICK = "window.covenTimeouts = { quiet: 1500, answer: 1500, ack: 2500 };"


class Wire:
    """The page's table sockets, through the test. ``hold()`` keeps the server's frames back until
    ``release()`` (then they go, in order). ``cut()`` is a network gone quiet: the sockets open now deliver
    nothing more to the page (and, with ``both``, nothing more from it: else what the page sends still
    arrives), and any socket made before ``mend()`` is dead both ways, as on a network that is gone."""

    def __init__(self) -> None:
        self.sockets: list[dict[str, bool]] = []
        self.out = False
        self.holding = False
        self.held: list[tuple[Any, Any]] = []

    def route(self, ws: Any) -> None:
        upstream = ws.connect_to_server()
        alive = {"up": not self.out, "down": not self.out}
        self.sockets.append(alive)

        def down(message: Any) -> None:
            if not alive["down"]:
                return
            if self.holding:
                self.held.append((ws, message))
            else:
                ws.send(message)

        ws.on_message(lambda message: upstream.send(message) if alive["up"] else None)
        upstream.on_message(down)

    def hold(self) -> None:
        self.holding = True

    def release(self) -> None:
        self.holding = False
        for ws, message in self.held:
            ws.send(message)
        self.held.clear()

    def cut(self, both: bool = True) -> None:
        self.out = True
        for alive in self.sockets:
            alive["down"] = False
            alive["up"] = alive["up"] and not both

    def mend(self) -> None:
        self.out = False


@contextmanager
def seated(server: Server, browser: Any, locale: str, init: str = "") -> Iterator[tuple[Any, Wire, str]]:
    """Ana's page (in ``locale``) at a table of Brujas against two bots, its socket through a
    :class:`Wire`: (page, wire, table id)."""
    ctx = browser.new_context(locale=locale, viewport={"width": 1280, "height": 900})
    ctx.set_default_timeout(15_000)
    if init:
        ctx.add_init_script(init)
    errors = watch_errors(ctx)
    created = against_bots(server, "brujas", ["greedy", "greedy"])
    page = ctx.new_page()
    wire = Wire()
    page.route_web_socket(re.compile(r"/ws/tables/"), wire.route)
    page.goto(created["invites"][0]["url"])
    page.wait_for_selector("#chat-input")
    try:
        yield page, wire, created["table"]["id"]
    finally:
        ctx.close()
    assert not errors, f"script errors in the page: {errors}"


def kept(server: Server, table: str) -> list[str]:
    """What the server kept of the table's chat (its store, read apart from the server)."""
    store = Store(server.database)
    try:
        return [line.text for line in store.chat(table)]
    finally:
        store.dispose()


def test_chat_reaches_the_other_seat_and_the_spectator_reads_it(server: Any, browser: Any) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(3)]
    try:
        ana, ben, watcher = (c.new_page() for c in contexts)
        links = create_table(
            ana, server.base, "brujas", ["human", "human", "bot:random"], options={"silent": True}
        )
        ana.goto(links["invites"][0])
        ben.goto(links["invites"][1])
        watcher.goto(links["spectator"])
        for page in (ana, ben, watcher):
            page.wait_for_selector("#chat-h")
        assert ana.locator("#chat-silent").count() == 1  # the variant's reminder, not enforced
        ana.fill("#chat-input", "good luck <b>both</b>")
        ana.press("#chat-input", "Enter")
        for page in (ana, ben, watcher):
            page.wait_for_selector("#chat-lines li .chat-text")
            assert page.inner_text("#chat-lines li .chat-text") == "good luck <b>both</b>"
            assert page.locator("#chat-lines b").count() == 0  # text, never markup
        assert watcher.locator("#chat-input").count() == 0
        assert "Spectators read the chat" in watcher.inner_text("#chat")
        assert ana.input_value("#chat-input") == ""
    finally:
        for c in contexts:
            c.close()


def test_a_line_is_sending_until_the_server_acknowledges_it(server: Server, browser: Any) -> None:
    with seated(server, browser, "en-GB") as (page, wire, table):
        wire.hold()  # the server's answer waits
        page.fill("#chat-input", "good   luck")
        page.press("#chat-input", "Enter")
        pending = page.locator("#chat-lines li.chat-pending")
        pending.wait_for()
        assert said(pending) == "Ana (you): good luck sending…", said(pending)
        assert page.input_value("#chat-input") == ""
        assert page.is_disabled("#chat-send")  # one line at a time
        wire.release()
        page.wait_for_selector("#chat-lines li[data-line='1']:not(.chat-pending)")
        assert page.locator("#chat-lines li").count() == 1
        assert page.locator(".chat-sending").count() == 0
        assert page.inner_text("#chat-lines li .chat-text") == "good luck"  # as the server keeps it
        assert page.is_hidden("#chat-note") and page.is_enabled("#chat-send")
    assert kept(server, table) == ["good luck"]


def test_a_line_refused_goes_back_in_the_input_with_the_reason_in_french(
    browser: Any, tmp_path: Path
) -> None:
    with (
        limited_server(tmp_path, COVEN_CHAT_BURST="1", COVEN_CHAT_LIMIT="0.01") as limited,
        seated(limited, browser, "fr-FR") as (page, _, table),
    ):
        page.fill("#chat-input", "bonjour")
        page.press("#chat-input", "Enter")
        page.wait_for_selector("#chat-lines li[data-line='1']:not(.chat-pending)")
        page.fill("#chat-input", "bonjour encore")
        page.press("#chat-input", "Enter")  # past the seat's limit: rate_limited, with this line's id
        note = page.locator("#chat-note")
        note.wait_for(state="visible")
        assert said(note) == (
            "Non envoyé : vous écrivez plus vite que la table ne peut lire. Attendez un instant, puis "
            "renvoyez-le."
        ), said(note)
        assert page.input_value("#chat-input") == "bonjour encore"
        assert page.locator("#chat-lines li").count() == 1 and page.is_enabled("#chat-send")
        assert page.is_hidden("#move-error")  # said under the chat, not above the board
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.locator("#chat").screenshot(path=str(SHOTS / "chat-refused-fr.png"))
        assert kept(limited, table) == ["bonjour"]


def test_a_line_into_a_silent_connection_is_not_sent_and_kept_never_said_twice(
    server: Server, browser: Any
) -> None:
    with seated(server, browser, "fr-FR", QUICK) as (page, wire, table):
        wire.cut()
        page.fill("#chat-input", "allô ?")
        page.press("#chat-input", "Enter")
        assert said(page.locator("#chat-lines li.chat-pending")) == "Ana (vous) : allô ? envoi…"
        note = page.locator("#chat-note")
        note.wait_for(state="visible")  # no acknowledgement in time
        assert said(note) == "Non envoyé : le serveur n'a pas répondu. Votre texte est gardé ; renvoyez-le."
        assert page.input_value("#chat-input") == "allô ?"
        assert page.locator("#chat-lines li").count() == 0
        page.wait_for_selector("#conn.reconnecting")  # its ping got no answer either: made again
        page.press("#chat-input", "End")
        page.type("#chat-input", " vous m'entendez ?")  # typed while the page reconnects
        wire.mend()
        page.wait_for_selector("#conn.connected", timeout=20_000)
        # the line never reached the table: the note stays, the text too, and nothing was said
        assert page.input_value("#chat-input") == "allô ? vous m'entendez ?"
        assert note.is_visible() and page.locator("#chat-lines li").count() == 0
        assert kept(server, table) == []
        page.click("#chat-send")  # the person sends it again
        page.wait_for_selector("#chat-lines li[data-line='1']:not(.chat-pending)")
        assert page.is_hidden("#chat-note") and page.input_value("#chat-input") == ""
        assert kept(server, table) == ["allô ? vous m'entendez ?"]


def test_a_line_said_whose_acknowledgement_was_lost_is_found_said_after_the_reconnection(
    server: Server, browser: Any
) -> None:
    """The line reached the table but its answer did not reach the page: "not sent" at first, then the chat
    log of the new connection shows it said, and the page takes the text out of the input (never sent
    again)."""
    with seated(server, browser, "fr-FR", QUICK) as (page, wire, table):
        wire.cut(both=False)  # what the page sends still arrives; nothing comes back
        page.fill("#chat-input", "bonne   chance")
        page.press("#chat-input", "Enter")
        note = page.locator("#chat-note")
        note.wait_for(state="visible")
        assert said(note).startswith("Non envoyé : le serveur n'a pas répondu."), said(note)
        assert page.input_value("#chat-input") == "bonne   chance"
        page.wait_for_selector("#conn.reconnecting")
        wire.mend()
        page.wait_for_selector("#conn.connected", timeout=20_000)
        page.wait_for_selector("#chat-lines li[data-line='1']")
        note.wait_for(state="hidden")
        assert page.input_value("#chat-input") == ""
        assert page.locator("#chat-lines li").count() == 1
        assert page.inner_text("#chat-lines li .chat-text") == "bonne chance"
    assert kept(server, table) == ["bonne chance"]
