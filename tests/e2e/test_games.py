"""A person creates a table with bots in the other seats and plays a whole game by clicking (and
dragging where the board uses it) in the page; the page's final scores equal the engine's replay of
the table's record."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.conftest import Server
from tests.e2e.helpers import (
    create_table,
    engine_scores,
    page_final_scores,
    page_live_scores,
    play_until_over,
    table_id,
)

pytestmark = pytest.mark.browser


def namaste_move(page: Any, rng: random.Random) -> None:
    board = page.locator("#board")
    rolls = board.locator("button[data-action^='roll ']")
    if rolls.count():
        # By keyboard: focus the button and press Enter (Space works as well on real buttons).
        button = rolls.nth(rng.randrange(rolls.count()))
        button.focus()
        page.keyboard.press(rng.choice(["Enter", "Space"]))
        return
    chips = board.locator(".value-chip")
    if chips.count() > 1:
        chips.nth(rng.randrange(chips.count())).click()
    lit = board.locator("button.cell.lit")
    others = board.locator("button[data-action=karma], button[data-action=pass]")
    if lit.count() and (not others.count() or rng.random() < 0.85):
        lit.nth(rng.randrange(lit.count())).click()
    else:
        others.first.click()


def test_namaste_against_bots(server: Any, context: Any) -> None:
    page = context.new_page()
    links = create_table(page, server.base, "namaste", ["human", "bot:greedy"])
    assert len(links["invites"]) == 1
    page.goto(links["invites"][0])
    moves = play_until_over(page, namaste_move, random.Random(1))
    assert moves > 20
    shown = page_final_scores(page)
    assert shown == engine_scores(server, table_id(links["invites"][0]))
    assert page_live_scores(page) == shown  # the players panel agrees with the result
    # The chart and the replay are there.
    assert page.locator("#chart svg path.series").count() == 2
    page.click("#replay-last")
    page.click("#replay-reveal")
    page.wait_for_selector("#replay-reveal:has-text('Revealed')")


def brujas_move(page: Any, rng: random.Random) -> None:
    board = page.locator("#board")
    lit = board.locator("button.bcard.lit, .witch.moving button")
    n = lit.count()
    assert n, "the page offers no move although it is our turn"
    pick = lit.nth(rng.randrange(n))
    if rng.random() < 0.3 and pick.evaluate("el => el.closest('.hand') !== null"):
        pick.drag_to(board.locator(".trick-box"))
    else:
        pick.click()


def test_brujas_against_bots(server: Any, context: Any) -> None:
    page = context.new_page()
    links = create_table(
        page, server.base, "brujas", ["human", "bot:greedy", "bot:random"], options={"conflict": True}
    )
    page.goto(links["invites"][0])
    moves = play_until_over(page, brujas_move, random.Random(2))
    assert moves >= 13
    assert page_final_scores(page) == engine_scores(server, table_id(links["invites"][0]))


def amulets_move(page: Any, rng: random.Random) -> None:
    board = page.locator("#board")
    fields = rng.sample(range(25), 5)
    for a, f in zip("RYGBK", fields, strict=True):
        name = f"{'ABCDE'[f // 5]}{f % 5 + 1}"
        target = board.locator(f".altar .field[data-field={name}]")
        source = board.locator(f".tray .amulet-btn[data-amulet={a}]")
        how = rng.randrange(3)
        if how == 0:
            source.drag_to(target)
        elif how == 1:
            source.click()
            target.click()
        else:  # by keyboard
            source.focus()
            page.keyboard.press("Enter")
            board.locator(f".altar .field[data-field={name}]").focus()
            page.keyboard.press("Enter")
    ask = board.locator("#amulets-ask")
    if ask.count() and ask.is_enabled():
        ask.click()
    else:
        board.locator("#amulets-cast").click()


def test_amulets_against_bots(solo_server: Any, context: Any) -> None:
    server = solo_server
    page = context.new_page()
    links = create_table(
        page,
        server.base,
        "amulets",
        ["human", "bot:greedy", "bot:greedy", "bot:random"],
        options={"question_cap": 8, "assistant": True},
    )
    page.goto(links["invites"][0])
    play_until_over(page, amulets_move, random.Random(3))
    assert page.locator("#board .assistant .assist-wizard").count() == 3
    # The assistant draws the engine's exact deduction: a count of joint worlds from the server.
    # (said as one or many: "1 joint assignment of the secrets remains", "6 joint assignments … remain")
    assistant = page.locator("#board .assistant").inner_text()
    assert re.search(
        r"\b1 joint assignment of the secrets remains|\d+ joint assignments of the secrets remain", assistant
    )
    assert "pairs possible" in assistant or "1 pair possible" in assistant
    assert page_final_scores(page) == engine_scores(server, table_id(links["invites"][0]))


def test_amulets_says_when_its_assistant_ran_out_of_time(tmp_path: Path, context: Any) -> None:
    """A server whose deriver has no time (its budget is the bots', here a millisecond) shows the views
    bare: the assistant's box says why it is empty, and the game goes on."""
    server = Server(tmp_path, env={"COVEN_BOT_BUDGET": "0.001"})
    server.start()
    try:
        page = context.new_page()
        links = create_table(
            page, server.base, "amulets", ["human", "human", "human"], options={"assistant": True}
        )
        page.goto(links["invites"][0])
        page.wait_for_selector("#board .assistant .assistant-late")
        note = page.locator("#board .assistant").inner_text()
        assert "could not work this position out in time" in note
        assert page.locator("#board .assistant .assist-wizard").count() == 0
    finally:
        server.stop()


def _circle_point(page: Any, area: str, rng: random.Random) -> tuple[float, float]:
    """Screen coordinates of a point inside ``area`` of the Holy Circle (X: outside it)."""
    import math

    box = page.locator("#board .holy-circle").bounding_box()
    k = box["width"] / 540
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    if area == "C":
        r, deg = 0.0, 0.0
    elif area == "R":
        r, deg = 224.0, rng.uniform(0, 360)
    elif area == "X":
        return box["x"] + 4, box["y"] + 4
    else:
        i = int(area[1]) - 1
        r, deg = (100.0, -90 + 72 * i) if area[0] == "H" else (150.0, -90 + 72 * i + 36)
    return cx + k * r * math.cos(math.radians(deg)), cy + k * r * math.sin(math.radians(deg))


def commandments_move(page: Any, rng: random.Random) -> None:
    board = page.locator("#board")
    ordain = board.locator(".ordain button")
    if ordain.count():
        # She reads her four cards' words before she ordains them.
        assert board.locator(".card-texts dd").count() == 4
        from coven.games.commandments.cards import BUILTIN

        texts = board.locator(".card-texts dd").all_inner_texts()
        assert all(any(card.en in text or card.fr in text for card in BUILTIN) for text in texts)
        ordain.nth(rng.randrange(ordain.count())).click()
        return
    if board.locator("#place-confirm").count():
        # Start from a suggestion, drag one artefact elsewhere, confirm.
        board.locator(".place .actions-row button").nth(rng.randrange(3)).click()
        token = board.locator("g.token[data-artefact=bk2]")
        tb = token.bounding_box()
        page.mouse.move(tb["x"] + tb["width"] / 2, tb["y"] + tb["height"] / 2)
        page.mouse.down()
        x, y = _circle_point(page, rng.choice(["C", "H1", "T3", "R"]), rng)
        page.mouse.move(x, y, steps=8)
        page.mouse.up()
        board.locator("#place-confirm").click()
        return
    judge = board.locator(".judge button")
    if judge.count():
        judge.nth(rng.randrange(judge.count())).click()
        return
    # A novice: drag an artefact over a few areas (the path), pick a performance, perform.
    art = f"{rng.choice(['wh', 'bk', 'br'])}{rng.randint(1, 5)}"
    token = board.locator(f"g.token[data-artefact={art}]")
    route = rng.sample(
        ["C", "H1", "H2", "H3", "H4", "H5", "T1", "T2", "T3", "T4", "T5", "R"], rng.randint(1, 2)
    )
    if rng.random() < 0.15:
        route.insert(0, "X")  # carried out of the circle and back

    def by_keyboard() -> None:
        # Pick the artefact, then each area of its path in order (the last is where it stays).
        token.focus()
        page.keyboard.press("Enter")
        for area in [a for a in route if a != "X"]:
            board.locator(f".holy-circle .area[data-area={area}]").focus()
            page.keyboard.press("Enter")

    if rng.random() < 0.25:
        by_keyboard()
    else:
        tb = token.bounding_box()
        page.mouse.move(tb["x"] + tb["width"] / 2, tb["y"] + tb["height"] / 2)
        page.mouse.down()
        for area in route:
            x, y = _circle_point(page, area, rng)
            page.mouse.move(x, y, steps=6)
        page.mouse.up()
        try:
            page.wait_for_selector("#board #perform:not([disabled])", timeout=5_000)
        except PlaywrightTimeout:
            # A random drag can end where the page reads no area (on the edge between two, under a
            # token): a person would see nothing picked up and try again, here with the keyboard.
            board.get_by_role("button", name=re.compile("Start over|Recommencer")).click()
            by_keyboard()
    page.wait_for_selector("#board #perform:not([disabled])")
    # A performance costs beats (at most 10 a move, the page counts them): add gestures, touches and
    # words only while the move stays within its budget; the path alone stays well inside it.
    for _ in range(rng.randint(0, 3)):
        chips = board.locator(".performance .chip input")
        chip = chips.nth(rng.randrange(chips.count()))
        if chip.is_checked():
            continue
        chip.check()
        if _beats(page) > 10:
            chip.uncheck()
    if rng.random() < 0.3:
        board.locator("#perf-words").fill("oh great one")
        if _beats(page) > 10:
            board.locator("#perf-words").fill("")
    assert _beats(page) <= 10, page.locator("#perf-beats").inner_text()
    board.locator("#perform").click()


def _beats(page: Any) -> int:
    """What the page says the performance being built costs ("7 of 10 beats")."""
    return int(page.locator("#perf-beats").inner_text().split()[0])


def test_commandments_against_bots(server: Any, context: Any) -> None:
    page = context.new_page()
    links = create_table(page, server.base, "commandments", ["human", "bot:random", "bot:random"])
    page.goto(links["invites"][0])
    # A move the rules refuse (typed as text): a clear error, and nothing changes.
    page.wait_for_selector("main[data-myturn=yes]")
    number = page.get_attribute("main", "data-number")
    if not page.locator("#all-moves").evaluate("el => el.open"):
        page.click("#all-moves summary")
    page.fill("#notation", "wh1>C 10s")
    page.press("#notation", "Enter")
    error = page.locator("#move-error")
    error.wait_for(state="visible")
    assert "not allowed" in error.inner_text() and "novice" in error.inner_text()
    assert page.get_attribute("main", "data-number") == number
    page.click("#move-error .dismiss")
    page.fill("#notation", "hocus pocus")
    page.click("#notation-play")
    error.wait_for(state="visible")
    assert "cannot be read" in error.inner_text()
    page.click("#move-error .dismiss")
    moves = play_until_over(page, commandments_move, random.Random(4))
    assert moves > 5
    shown = page_final_scores(page)
    assert shown == engine_scores(server, table_id(links["invites"][0]))
    assert page_live_scores(page) == shown


def generic_move(page: Any, rng: random.Random) -> None:
    moves = page.locator("#board .generic-actions button.move")
    moves.nth(rng.randrange(moves.count())).click()


def test_generic_board_plays_any_game(server: Any, context: Any) -> None:
    """Every game is playable before (or without) its own board: the view as panels, moves as buttons."""
    page = context.new_page()
    links = create_table(page, server.base, "namaste", ["human", "bot:random"])
    url = links["invites"][0]
    page.goto(url.replace("#", "?board=generic#"))
    page.wait_for_selector("#board .generic-view .kv")
    play_until_over(page, generic_move, random.Random(6))
    assert page_final_scores(page) == engine_scores(server, table_id(url))


def test_a_wrong_invite_link_says_so(server: Any, context: Any) -> None:
    page = context.new_page()
    links = create_table(page, server.base, "namaste", ["human", "bot:random"])
    page.goto(links["invites"][0].split("#token=")[0] + "#token=not-the-token")
    page.wait_for_selector("#bad-link:has-text('not valid for this table')")
    assert page.get_attribute("main", "data-myturn") != "yes"
    # no empty board, chat or log: what went wrong, and what the page can do instead
    assert page.locator("#board").count() == 0 and page.locator("#move-error").count() == 0
    watch = page.locator("#bad-link #watch-instead")
    assert watch.get_attribute("href") == links["spectator"]
    assert page.locator("#bad-link #back-to-lobby").get_attribute("href") == "/"
    watch.click()
    page.wait_for_selector("#board")
    page.wait_for_selector("#who:has-text('Watching')")
    page.goto(server.base + "/t/no-such-table")
    page.wait_for_selector("#table-missing:has-text('This table does not exist')")
