"""Chat at the table: a line one person says reaches the other seat and the spectator, shown as text
(markup stays text); the spectator reads but has nothing to write with; the silent Brujas variant shows
its reminder."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.helpers import create_table

pytestmark = pytest.mark.browser


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
