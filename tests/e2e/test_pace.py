"""A table with a pace: a person who lets their time run out sees a bot take their seat, labelled as
such; they come back (reload the page) and play on in their own seat."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.e2e.test_games import namaste_move

pytestmark = pytest.mark.browser


def test_a_player_times_out_a_bot_stands_in_and_the_player_returns(server: Any, context: Any) -> None:
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#game-namaste")
    page.select_option("#new-game", "namaste")
    page.select_option("#new-players", "2")
    page.select_option("#seat-0-kind", "human")
    page.fill("#seat-0-name", "Ana")
    page.select_option("#seat-1-kind", "bot:random")
    page.select_option("#new-pace", "move")
    page.fill("#new-pace-seconds", "5")
    page.click("#create-table")
    page.wait_for_selector(".invite-link")
    invite = page.eval_on_selector(".invite-link", "e => e.href")

    page.goto(invite)
    page.wait_for_selector("#pace")
    assert "5 s a move" in page.inner_text("#pace")
    page.wait_for_selector("main[data-myturn=yes]", timeout=20_000)
    assert "left)" in page.inner_text("#turn")  # the turn line counts Ana's time down
    # Ana lets her time run out: a bot plays for her, and the table says so.
    page.wait_for_selector(".stand-in", timeout=20_000)
    away_at = int(page.get_attribute("main", "data-number") or "0")

    page.reload()  # Ana is back: her seat is hers again
    page.wait_for_selector("#score-table")
    page.wait_for_function("() => !document.querySelector('.stand-in')", timeout=10_000)
    page.wait_for_selector("main[data-myturn=yes]", timeout=20_000)
    number = int(page.get_attribute("main", "data-number") or "0")
    assert number >= away_at
    namaste_move(page, random.Random(4))
    page.wait_for_function(
        "n => Number(document.querySelector('main').dataset.number) > n", arg=number, timeout=10_000
    )
    assert not page.locator(".stand-in").count()
