"""A table with a pace: a person who lets their time run out sees a bot take their seat, labelled as
such; they come back (reload the page) and play on in their own seat."""

from __future__ import annotations

import contextlib
import json
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import Server
from tests.e2e.helpers import said
from tests.e2e.test_games import namaste_move
from tests.e2e.test_i18n import french

pytestmark = pytest.mark.browser

AWAY = "Your time ran out, so a bot is playing your seat until you take it back. Take my seat back"


def _paced_namaste(server: Any, page: Any) -> None:
    """Ana's seat at a new Namaste table against a random bot, 5 s a move, made in the lobby; the page at
    her seat."""
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
    page.goto(page.eval_on_selector(".invite-link", "e => e.href"))
    page.wait_for_selector("#pace")


@contextlib.contextmanager
def _paused_french_table(browser: Any, tmp_path: Path) -> Iterator[tuple[Server, Any, Any]]:
    """Ana's paced Namaste table (see :func:`_paced_namaste`) on a server of its own whose bots pause, so
    that the game is still on when she comes back, opened in French on a phone: the server, the browser
    context and her page."""
    srv = Server(tmp_path, env={"COVEN_BOT_PAUSE": "3"})
    srv.start()
    try:
        with french(browser, "phone") as ctx:
            page = ctx.new_page()
            _paced_namaste(srv, page)
            yield srv, ctx, page
    finally:
        srv.stop()


def test_a_player_times_out_a_bot_stands_in_and_the_player_returns(server: Any, context: Any) -> None:
    page = context.new_page()
    _paced_namaste(server, page)
    assert "5 s a move" in page.inner_text("#pace")
    page.wait_for_selector("main[data-myturn=yes]", timeout=20_000)
    assert "left)" in page.inner_text("#turn")  # the turn line counts Ana's time down
    # Ana lets her time run out: a bot plays for her, and the table says so; the turn line tells her what
    # happened and how to take her seat back, without a countdown (read at once: the bot plays on quickly,
    # and she must be back before the game ends).
    page.wait_for_selector(".stand-in", timeout=20_000)
    turn = page.evaluate(
        "() => document.querySelector('#turn').className + '|' + document.querySelector('#turn').textContent"
    )
    assert turn == f"turn mine away|{AWAY}", turn
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
    assert not page.locator("#turn.away").count()


def test_a_player_back_at_the_open_page_takes_the_seat_back_with_one_click(
    browser: Any, tmp_path: Path
) -> None:
    # Ana's page stayed open while a bot played her seat; she is back at it (French, on a phone). The bot
    # answers each of her turns within a second on `coven serve`, too quick to "make any move" first: the
    # turn line says what happened and gives her a button that takes the seat back at once, without
    # reloading the page. (A server whose bots pause, so that the game is still on when she clicks.)
    with _paused_french_table(browser, tmp_path) as (_, _, page):
        # (the page reads the turn line and clicks the button as soon as it is drawn)
        page.evaluate(
            """() => { const seen = new MutationObserver(() => {
                         const back = document.getElementById('take-back');
                         if (!back || window.awayLine) return;
                         window.awayLine = document.getElementById('turn').textContent;
                         back.click(); seen.disconnect(); });
                       seen.observe(document.body, { childList: true, subtree: true }); }"""
        )
        page.wait_for_function("() => window.awayLine", timeout=20_000)
        assert " ".join(page.evaluate("() => window.awayLine").split()) == (
            "Votre temps est écoulé : un bot joue à votre place jusqu'à ce que vous la repreniez. "
            "Reprendre ma place"
        )
        page.wait_for_function("() => !document.querySelector('.stand-in')", timeout=10_000)
        assert not page.locator("#take-back").count()
        assert page.evaluate("() => window.awayLine")  # the same page: not reloaded
        page.wait_for_selector("main[data-myturn=yes]", timeout=20_000)
        number = int(page.get_attribute("main", "data-number") or "0")
        namaste_move(page, random.Random(5))
        page.wait_for_function(
            "n => Number(document.querySelector('main').dataset.number) > n", arg=number, timeout=10_000
        )
        assert not page.locator(".stand-in").count()


def test_a_watchers_countdown_follows_a_bot_taking_a_seat_and_giving_it_back(
    browser: Any, tmp_path: Path
) -> None:
    # A spectator watches Ana's paced table (French, on a phone). Her time runs out: the moment a bot takes
    # her seat, the spectator's turn line stops counting her time down (it went on reading 'En attente
    # d'Ana. (encore 0 s)' until the bot's move, 3 s later on this server whose bots pause). On a later turn
    # of hers, which the bot plays, she takes her seat back: at once the spectator's line counts her time
    # again (it showed none until her next move, though a bot would take her seat when it ran out).
    with _paused_french_table(browser, tmp_path) as (srv, ctx, page):
        table = page.evaluate("() => location.pathname.split('/')[2]")
        watcher = ctx.new_page()
        watcher.goto(f"{srv.base}/t/{table}")
        watcher.wait_for_selector("#pace")
        # (each line is read in the same moment as the players' panel that shows the change)
        taken = watcher.wait_for_function(
            """() => document.querySelector('#score-table .stand-in')
                     && [document.querySelector('main').dataset.number,
                         document.getElementById('turn').textContent]""",
            timeout=20_000,
        ).json_value()
        away_at, line = int(taken[0]), " ".join(taken[1].split())
        assert line.startswith("En attente d'Ana") and "(encore" not in line, line
        page.wait_for_function(
            """n => { const c = window.coven;
                      if (!(c.standsIn() && c.number > n && c.toAct.includes(c.seat))) return false;
                      document.getElementById('take-back').click(); return true; }""",
            arg=away_at,
            timeout=30_000,
        )
        given = watcher.wait_for_function(
            """() => !document.querySelector('#score-table .stand-in')
                     && document.getElementById('turn').textContent""",
            timeout=10_000,
        ).json_value()
        line = " ".join(given.split())
        left = re.search(r"\(encore (\d+) s\)", line)
        # (the move's 5 s, or, back with less than that left, the last 15 s from her return)
        assert "Ana" in line and left and 0 < int(left[1]) <= 15, line


def test_the_log_credits_a_standing_in_bot_with_the_moves_it_made(server: Any, context: Any) -> None:
    # Ana never comes back: the bot plays her seat to the end, and every step it took in her seat says so
    # ("Ana (you) · a bot played for you"), the steps she took herself do not.
    page = context.new_page()
    _paced_namaste(server, page)
    page.wait_for_selector("main[data-myturn=yes]", timeout=20_000)
    namaste_move(page, random.Random(4))  # one move of her own
    # (the bot, without a pause here, may play her seat to the end at once: then the panel no longer says so)
    page.wait_for_selector(".stand-in, #turn.over", timeout=30_000)
    page.wait_for_selector("#turn.over", timeout=60_000)
    actors = page.locator("#log .step .actor").all_inner_texts()
    hers = [a for a in actors if a.startswith("Ana")]
    assert "Ana (you)" in hers, hers  # her own move
    credited = [a for a in hers if a != "Ana (you)"]
    assert credited and set(credited) == {"Ana (you) · a bot played for you"}, hers
    assert hers.index("Ana (you)") < hers.index(credited[0])
    # the game is over: nobody plays any more, so the players' panel no longer says a bot plays her seat
    # "until she returns"
    assert not page.locator("#score-table .stand-in").count()
    assert "away" not in said(page.locator("#score-table"))


def test_your_tables_say_a_bot_plays_the_seat_of_a_person_who_left_out_of_time(
    browser: Any, tmp_path: Path
) -> None:
    # Ana closed the page mid-game and her time ran out: a bot plays her seat. Back in the lobby (French),
    # her tables say so and that returning gives her the seat back ("your turn" or another's turn told her
    # nothing of it); the link takes it back. (A server whose bots pause, so the game is still on.)
    with _paused_french_table(browser, tmp_path) as (srv, ctx, page):
        table = page.evaluate("() => location.pathname.split('/')[2]")
        page.close()
        deadline = time.monotonic() + 30
        while not srv.get(f"/api/tables/{table}")["seats"][0]["stand_in"]:
            assert time.monotonic() < deadline, "no bot took the seat"
            time.sleep(0.2)
        lobby = ctx.new_page()
        lobby.goto(srv.base + "/")
        lobby.wait_for_selector("#your-tables[data-ready=yes]")
        row = lobby.locator(f".your-table[data-table='{table}']")
        assert row.get_attribute("data-status") == "playing"
        status = said(row.locator(".your-status"))
        assert status.startswith(
            "un bot joue à votre place (votre temps était écoulé) jusqu'à votre retour · coup "
        ), status
        row.locator(".return-link").click()
        lobby.wait_for_selector("#score-table")
        lobby.wait_for_function("() => !document.querySelector('.stand-in')", timeout=10_000)
        info = srv.get(f"/api/tables/{table}")
        assert info["status"] == "playing" and not info["seats"][0]["stand_in"], json.dumps(info)
