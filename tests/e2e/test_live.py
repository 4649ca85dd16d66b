"""Two people in two browsers at one table; and a server restart in the middle of a game."""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from typing import Any

import pytest

from tests.e2e.conftest import watch_errors
from tests.e2e.helpers import create_table, engine_scores, page_final_scores, play_until_over, table_id
from tests.e2e.test_games import namaste_move

pytestmark = pytest.mark.browser


def dataset(page: Any) -> dict[str, str]:
    return dict(page.evaluate("() => ({...document.querySelector('main').dataset})"))


def capture(page: Any) -> list[dict[str, Any]]:
    """Every websocket message the page receives, parsed."""
    frames: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        ws.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    page.on("websocket", on_socket)
    return frames


def events_of(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for f in frames:
        if f.get("type") == "update":
            out.extend(f["events"])
        elif f.get("type") == "sync":
            for step in f["steps"]:
                out.extend(step["events"])
    return out


def test_two_people_see_each_other_live_and_keep_their_secrets(server: Any, browser: Any) -> None:
    ctx_a = browser.new_context(viewport={"width": 1200, "height": 900})
    # The second person is on a phone.
    ctx_b = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    errors = watch_errors(ctx_a)
    errors_b = watch_errors(ctx_b)
    try:
        a, b = ctx_a.new_page(), ctx_b.new_page()
        for p in (a, b):
            p.set_default_timeout(15_000)
        frames_a, frames_b = capture(a), capture(b)
        links = create_table(
            a,
            server.base,
            "brujas",
            ["human", "bot:random", "human", "bot:greedy"],
            options={"silent": True},
        )
        url_a, url_b = links["invites"]
        token_a, token_b = url_a.split("#token=")[1], url_b.split("#token=")[1]
        a.goto(url_a)
        a.wait_for_selector("#turn:has-text('Waiting for people to join')")
        b.goto(url_b)
        for p in (a, b):
            p.wait_for_selector("main[data-status=playing]")
        # A spectator watches from the read-only link.
        c = ctx_a.new_page()
        frames_c = capture(c)
        c.goto(links["spectator"])
        c.wait_for_selector("#who:has-text('Watching')")
        # The phone's page fits its screen (no sideways scrolling).
        assert b.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        hand_a = a.evaluate("() => window.coven.view.hand")
        hand_b = b.evaluate("() => window.coven.view.hand")
        assert hand_a and hand_b and len(hand_a) == len(hand_b) == 10
        # On screen each person sees one hand, their own (the others' only as counts).
        for page, own in ((a, hand_a), (b, hand_b)):
            assert page.locator("#board .hand-box").count() == 1
            shown = page.eval_on_selector_all("#board .hand .bcard", "els => els.map(e => e.title)")
            colours = {"R": "red", "B": "blue", "Y": "yellow", "G": "green"}
            assert shown == [f"{colours[c[0]]} {c[1:]}" for c in own]

        rng = random.Random(5)
        pages = {0: a, 2: b}
        seen_live = 0
        deadline = time.monotonic() + 120
        while True:
            states = {s: dataset(p) for s, p in pages.items()}
            if all(st["status"] == "over" for st in states.values()):
                break
            assert time.monotonic() < deadline, "the game did not end"
            mover = next((s for s, st in states.items() if st["myturn"] == "yes"), None)
            if mover is None:
                time.sleep(0.05)
                continue
            me, other = pages[mover], pages[2 - mover]
            before = int(states[mover]["number"])
            lit = me.locator("#board button.bcard.lit, #board .witch.moving button")
            lit.nth(rng.randrange(lit.count())).click()
            me.wait_for_function("n => Number(document.querySelector('main').dataset.number) > n", arg=before)
            # The other person's page shows the move live, in its log, without reloading.
            other.wait_for_selector(f"#log li.step[data-number='{before + 1}']")
            seen_live += 1
        assert seen_live >= 15
        scores_a, scores_b = page_final_scores(a), page_final_scores(b)
        assert scores_a == scores_b == engine_scores(server, table_id(url_a))
        # The spectator followed the whole game and never got a hand, a private event or a move to play.
        assert page_final_scores(c) == scores_a
        assert c.locator("#board .hand-box").count() == 0 and c.locator("#moves button").count() == 0
        views_c = [f for f in frames_c if "view" in f]
        assert views_c and all(f["view"]["seat"] is None and f["legal"] is None for f in views_c)
        assert all("audience" not in ev for ev in events_of(frames_c))
        assert token_a not in json.dumps(frames_c) and token_b not in json.dumps(frames_c)

        # Secrets: each page only ever received its own seat's view and legal moves, events meant for it,
        # and never the other's token; the other's starting hand is in neither the messages nor the page.
        for seat, frames, own_hand, other_hand, other_token, page in (
            (0, frames_a, hand_a, hand_b, token_b, a),
            (2, frames_b, hand_b, hand_a, token_a, b),
        ):
            assert frames, "no websocket message captured"
            for f in frames:
                text = json.dumps(f)
                assert other_token not in text
                if "view" in f and f["view"] is not None:
                    assert f["view"]["seat"] == seat
                    # Only ever (what is left of) its own hand.
                    assert not Counter(f["view"]["hand"]) - Counter(own_hand)
                if f.get("type") == "welcome":
                    assert f["seat"] == seat
            for ev in events_of(frames):
                assert "audience" not in ev or seat in ev["audience"], ev
            first_view = next(f["view"] for f in frames if f.get("view"))
            assert first_view["hand"] == own_hand
            assert json.dumps(other_hand) not in json.dumps(frames)
            assert other_token not in page.content()
            assert page.evaluate("() => window.coven.seat") == seat
    finally:
        ctx_a.close()
        ctx_b.close()
    assert not errors and not errors_b


def test_server_restart_mid_game(server: Any, context: Any) -> None:
    page = context.new_page()
    links = create_table(page, server.base, "namaste", ["human", "bot:greedy"])
    page.goto(links["invites"][0])
    rng = random.Random(8)
    # Play a few moves, then stop the server under the page.
    for _ in range(6):
        page.wait_for_selector("main[data-myturn=yes]")
        number = dataset(page)["number"]
        namaste_move(page, rng)
        page.wait_for_function("n => document.querySelector('main').dataset.number !== n", arg=number)
    page.wait_for_selector("main[data-myturn=yes]")
    number_before = int(dataset(page)["number"])
    server.stop()
    page.wait_for_selector("#conn:not(.connected)")
    server.start()  # same port, same database
    page.wait_for_selector("#conn.connected", timeout=30_000)
    page.wait_for_selector("main[data-myturn=yes]")
    assert int(dataset(page)["number"]) == number_before
    play_until_over(page, namaste_move, rng)
    steps = page.eval_on_selector_all("#log li.step", "els => els.map(e => Number(e.dataset.number))")
    assert steps == list(range(1, len(steps) + 1)), "the log has gaps or repeats after the restart"
    assert page_final_scores(page) == engine_scores(server, table_id(links["invites"][0]))


HOLD_UPDATES = """() => {
    // Make this page late: keep the updates it receives for a moment (a slow network).
    const t = window.coven;
    if (!t._deliver) {
        t._deliver = t.onMessage.bind(t);
        t._held = [];
        t.onMessage = (m) => (t._hold && m.type === "update" ? t._held.push(m) : t._deliver(m));
    }
    t._hold = true;
}"""
RELEASE_UPDATES = """() => {
    const t = window.coven;
    t._hold = false;
    for (const m of t._held.splice(0)) t._deliver(m);
}"""


def _decide(page: Any, rng: random.Random) -> None:
    lit = page.locator("#board button.cell.lit")
    if lit.count():
        lit.nth(rng.randrange(lit.count())).click()
    else:
        page.locator("#board [data-action=karma], #board [data-action=pass]").first.click()


def _stale(frames: list[dict[str, Any]]) -> int:
    return sum(1 for f in frames if f.get("type") == "error" and f.get("code") == "stale")


def _acked(frames: list[dict[str, Any]]) -> int:
    return sum(1 for f in frames if f.get("type") == "update" and "ack" in f)


def _number(page: Any) -> int:
    return int(page.evaluate("() => document.querySelector('main').dataset.number"))


def test_simultaneous_decisions_from_two_browsers(server: Any, browser: Any) -> None:
    """Namaste asks both people at once. When one's move lands first, the other's (decided on the older
    position, before its page heard of the first) is still taken: it was part of the same simultaneous
    decision, so the server does not refuse it as stale, and nobody sees an error."""
    ctxs = [browser.new_context(viewport={"width": 1000, "height": 800}) for _ in range(2)]
    errors = [watch_errors(c) for c in ctxs]
    try:
        a, b = (c.new_page() for c in ctxs)
        frames_b = capture(b)
        links = create_table(a, server.base, "namaste", ["human", "human"])
        a.goto(links["invites"][0])
        b.goto(links["invites"][1])
        for page in (a, b):
            page.wait_for_selector("main[data-status=playing]")
        rng = random.Random(9)
        races = 0
        while races < 3:
            da, db = dataset(a), dataset(b)
            if da["myturn"] == "yes" and db["myturn"] == "yes":
                # Both asked on the same roll: B's page is late, so B decides on the old position.
                before = _number(b)
                b.evaluate(HOLD_UPDATES)
                _decide(a, rng)
                a.wait_for_function(
                    "n => Number(document.querySelector('main').dataset.number) > n", arg=before
                )
                stale_before, acked_before = _stale(frames_b), _acked(frames_b)
                _decide(b, rng)
                deadline = time.monotonic() + 15
                while _acked(frames_b) == acked_before:  # the server takes B's late move ...
                    assert time.monotonic() < deadline, "B's late move was not acknowledged"
                    b.wait_for_timeout(20)
                assert _stale(frames_b) == stale_before  # ... without refusing it first
                b.evaluate(RELEASE_UPDATES)
                # both decisions are in, and B's page catches up with them
                b.wait_for_function(
                    "n => Number(document.querySelector('main').dataset.number) >= n + 2", arg=before
                )
                races += 1
            elif da["myturn"] == "yes" or db["myturn"] == "yes":
                page = a if da["myturn"] == "yes" else b
                before = _number(page)
                namaste_move(page, rng)
                page.wait_for_function(
                    "n => Number(document.querySelector('main').dataset.number) > n", arg=before
                )
            else:
                time.sleep(0.05)
                continue
            for page in (a, b):
                assert not page.locator("#move-error").is_visible(), page.locator("#move-error").inner_text()
        assert _stale(frames_b) == 0  # no late move was refused
    finally:
        for c in ctxs:
            c.close()
    assert not any(errors)
