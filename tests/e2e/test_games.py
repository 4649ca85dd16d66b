"""A person creates a table with bots in the other seats and plays a whole game by clicking (and
dragging where the board uses it) in the page; the page's final scores equal the engine's replay of
the table's record."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.e2e.helpers import create_table, engine_scores, page_final_scores, play_until_over, table_id

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
    links = create_table(page, server.base, "namaste", ["human", "bot:greedy", "bot:random"], seed=7)
    assert len(links["invites"]) == 1
    page.goto(links["invites"][0])
    moves = play_until_over(page, namaste_move, random.Random(1))
    assert moves > 20
    shown = page_final_scores(page)
    assert shown == engine_scores(server, table_id(links["invites"][0]))
    # The chart and the replay are there.
    assert page.locator("#chart svg path.series").count() == 3
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
    links = create_table(page, server.base, "brujas", ["human", "bot:greedy", "bot:random"],
                         options={"conflict": True}, seed=3)
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


def test_amulets_against_bots(server: Any, context: Any) -> None:
    page = context.new_page()
    links = create_table(page, server.base, "amulets", ["human", "bot:greedy", "bot:greedy", "bot:random"],
                         options={"question_cap": 8, "assistant": True}, seed=11)
    page.goto(links["invites"][0])
    play_until_over(page, amulets_move, random.Random(3))
    assert page.locator("#board .assistant .assist-wizard").count() == 3
    assert page_final_scores(page) == engine_scores(server, table_id(links["invites"][0]))
