"""The lobby as a person uses it: coming back to a seat from "Your tables", creating exactly one table
however the button is clicked, readable rules; and at the table, keyboard focus that survives a move and
Namaste's roll drawn as dice."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from tests.e2e.helpers import (
    create_table,
    engine_scores,
    page_final_scores,
    play_until_over,
    table_id,
)
from tests.e2e.test_games import namaste_move

pytestmark = pytest.mark.browser

GAMES = ("commandments", "brujas", "namaste", "amulets")
MOVED = """n => { const d = document.querySelector('main').dataset;
                  return d.myturn === 'yes' && d.number !== n; }"""


def kept(page: Any) -> dict[str, Any]:
    return dict(page.evaluate("() => JSON.parse(localStorage.getItem('coven.seats.v1') || '{}')"))


def seated_at_namaste(server: Any, context: Any) -> tuple[Any, dict[str, Any], str]:
    """A person at a new table of Namaste against a greedy bot, their turn: (page, links, table id)."""
    page = context.new_page()
    links = create_table(page, server.base, "namaste", ["human", "bot:greedy"])
    page.goto(links["invites"][0])
    page.wait_for_selector("main[data-myturn=yes]")
    return page, links, table_id(links["invites"][0])


def test_a_person_leaves_and_returns_to_their_seat_from_your_tables(server: Any, context: Any) -> None:
    page, links, table = seated_at_namaste(server, context)
    invite = links["invites"][0]
    rng = random.Random(11)
    for _ in range(3):  # a few moves, then the person leaves in the middle of the game
        number = page.get_attribute("main", "data-number")
        namaste_move(page, rng)
        page.wait_for_function(MOVED, arg=number)
    number = int(page.get_attribute("main", "data-number") or "0")
    assert kept(page)[table]["seat"] == 0 and kept(page)[table]["game"] == "namaste"
    page.close()

    lobby = context.new_page()
    lobby.goto(server.base + "/")
    lobby.wait_for_selector("#your-tables[data-ready=yes]")
    row = lobby.locator(f".your-table[data-table='{table}']")
    assert row.get_attribute("data-status") == "playing"
    assert "Namaste" in row.inner_text() and "seat 1 (Person 1)" in row.inner_text()
    assert f"move {number}" in row.inner_text()
    # The seat and the spectator link are two different links, both visible.
    back = row.locator(".return-link")
    assert back.get_attribute("href") == invite
    watch = row.locator(".watch-link").get_attribute("href")
    assert watch == links["spectator"] and "token" not in watch
    assert row.locator(".forget").count() == 0  # a table still being played stays in the list
    # The recent tables open this one in the seat too, not as a spectator.
    lobby.wait_for_selector("section.recent[data-ready=yes]")
    assert lobby.locator(f".recent-list a[href='{invite}']").count() == 1

    back.click()
    lobby.wait_for_selector("#who:has-text('You are seat 1')")
    lobby.wait_for_selector("main[data-myturn=yes]")
    assert int(lobby.get_attribute("main", "data-number") or "0") >= number
    play_until_over(lobby, namaste_move, rng)
    assert page_final_scores(lobby) == engine_scores(server, table)

    lobby.goto(server.base + "/")
    lobby.wait_for_selector("#your-tables[data-ready=yes]")
    row = lobby.locator(f".your-table[data-table='{table}']")
    assert row.get_attribute("data-status") == "over"
    assert re.search(r"over · (you won|you share the win|greedy bot won)", row.inner_text())
    row.locator(".forget").click()
    assert lobby.locator(f".your-table[data-table='{table}']").count() == 0
    assert table not in kept(lobby)
    lobby.reload()
    lobby.wait_for_selector("#your-tables h2")
    assert lobby.locator(f".your-table[data-table='{table}']").count() == 0


def test_the_lobby_tells_seats_of_the_same_name_apart_as_the_table_does(server: Any, context: Any) -> None:
    page = context.new_page()
    links = create_table(page, server.base, "namaste", ["human", "bot:greedy", "bot:greedy"])
    table = table_id(links["invites"][0])
    page.goto(links["invites"][0])
    page.wait_for_selector("main[data-myturn=yes]")
    assert "greedy bot 2" in page.inner_text("#scores") and "greedy bot 3" in page.inner_text("#scores")
    page.goto(server.base + "/")
    page.wait_for_selector("section.recent[data-ready=yes]")
    row = page.locator(".recent-list li", has=page.locator(f"a[href*='{table}']"))
    assert row.inner_text().endswith("Person 1, greedy bot 2, greedy bot 3")


def test_a_seat_in_play_is_never_lost_among_many_ended_ones(server: Any, context: Any) -> None:
    """A browser that kept many seats: the one at a table still in play is listed (first), however many
    newer seats of ended or vanished tables there are; only the newest ended ones are kept."""
    page, links, table = seated_at_namaste(server, context)
    invite = links["invites"][0]
    mine = kept(page)[table]
    assert not mine["ended"]
    # 40 newer seats, at tables this server never had (as if long gone); the one in play is the oldest
    gone = {
        f"gone{i:08d}": {**mine, "table": f"gone{i:08d}", "token": f"t{i}", "saved": mine["saved"] + 1000 + i}
        for i in range(40)
    }
    page.evaluate(
        "seats => localStorage.setItem('coven.seats.v1', JSON.stringify(seats))",
        {**gone, table: {**mine, "saved": mine["saved"] - 10_000}},
    )
    page.goto(server.base + "/")
    page.wait_for_selector("#your-tables[data-ready=yes]")
    row = page.locator(f".your-table[data-table='{table}']")  # the 41st, and still listed
    assert row.get_attribute("data-status") == "playing"
    assert row.locator(".return-link").get_attribute("href") == invite
    assert page.locator(".your-table[data-status=gone]").count() == 40
    # seen gone, they are ended seats now: the newest 20 are kept, the seat in play stays
    left = kept(page)
    assert table in left and not left[table]["ended"]
    ended = sorted(k for k, v in left.items() if v["ended"])
    assert ended == sorted(f"gone{i:08d}" for i in range(20, 40))
    page.reload()
    page.wait_for_selector("#your-tables[data-ready=yes]")
    assert page.locator(".your-table").count() == 21
    # known to be in play, it comes first, before the newer ended ones
    assert page.locator(".your-table").first.get_attribute("data-table") == table


def test_a_spectator_keeps_no_seat(server: Any, context: Any) -> None:
    page = context.new_page()
    links = create_table(page, server.base, "brujas", ["human", "bot:random", "bot:random"])
    page.goto(links["spectator"])
    page.wait_for_selector("#who:has-text('Watching')")
    assert page.locator("#watch-url").inner_text() == links["spectator"]
    assert table_id(links["spectator"]) not in kept(page)


def test_double_clicking_create_makes_one_table(server: Any, context: Any) -> None:
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#game-namaste")
    page.select_option("#new-game", "namaste")
    before = {t["id"] for t in server.get("/api/tables")}
    page.locator("#create-table").scroll_into_view_if_needed()
    box = page.locator("#create-table").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.dblclick(x, y)
    page.wait_for_selector(".invites")
    # A slow double click: the second click lands after the first table came back; and Enter in a field.
    page.mouse.click(x, y)
    page.locator("#seat-0-name").press("Enter")
    page.wait_for_load_state("networkidle")
    made = [t for t in server.get("/api/tables") if t["id"] not in before]
    assert len(made) == 1, f"{len(made)} tables were created"
    assert page.locator("#create-table").is_disabled()
    # Another table is one deliberate click away.
    page.click("#create-another")
    page.click("#create-table")
    page.wait_for_function(
        "id => { const a = document.querySelector('.invite-link'); return a && !a.href.includes(id); }",
        arg=made[0]["id"],
    )
    assert len([t for t in server.get("/api/tables") if t["id"] not in before]) == 2


def test_a_hovered_primary_button_stays_readable(server: Any, context: Any) -> None:
    """The general hover's pale background once took over the primary button: its white text on lilac."""
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#game-namaste")
    button = page.locator("#create-table")
    rest = button.evaluate("el => getComputedStyle(el).backgroundColor")
    button.hover()
    hovered = button.evaluate("el => [getComputedStyle(el).backgroundColor, getComputedStyle(el).color]")
    assert hovered == [rest, "rgb(255, 255, 255)"] and rest == "rgb(107, 63, 160)"


def test_focus_stays_on_the_board_after_a_move(server: Any, context: Any) -> None:
    page = context.new_page()
    links = create_table(page, server.base, "namaste", ["human", "bot:greedy"])
    page.goto(links["invites"][0])
    page.wait_for_selector("main[data-myturn=yes] #board button[data-action^='roll ']")
    inside = "() => document.getElementById('board').contains(document.activeElement)"
    for _ in range(4):
        page.wait_for_selector("main[data-myturn=yes]")
        number = page.get_attribute("main", "data-number")
        board = page.locator("#board")
        rolls = board.locator("button[data-action^='roll ']")
        others = board.locator("button.cell.lit, button[data-action=pass]")
        control = rolls.first if rolls.count() else others.first
        control.focus()
        page.keyboard.press("Enter")
        page.wait_for_function(MOVED, arg=number)
        assert page.evaluate(inside), page.evaluate("() => document.activeElement.outerHTML.slice(0, 200)")
    # Tab goes on from there, to the board's own controls.
    page.keyboard.press("Tab")
    assert page.evaluate(inside)


def test_namaste_shows_its_roll_as_dice(server: Any, context: Any) -> None:
    page = context.new_page()
    links = create_table(page, server.base, "namaste", ["human", "bot:greedy"])
    page.goto(links["invites"][0])
    page.wait_for_selector("main[data-myturn=yes] #board button[data-action='roll 2']")
    number = page.get_attribute("main", "data-number")
    page.click("#board button[data-action='roll 2']")
    page.wait_for_function(MOVED, arg=number)
    roll = page.locator("#board .roll")
    text = " ".join(roll.inner_text().split())
    assert "[object" not in page.locator("#board").inner_text()
    white = page.evaluate("() => window.coven.view.white")
    turquoise = page.evaluate("() => window.coven.view.turquoise")
    face = {1: "1/7"}
    shown = [face.get(f, str(f)) for f in white]
    assert roll.locator(".die.white").all_inner_texts() == shown
    assert roll.locator(".die.turquoise").inner_text() == face.get(turquoise, str(turquoise))
    assert f"Person 1 (you) rolled: {' '.join(shown)} + {face.get(turquoise, str(turquoise))}" in text


@pytest.mark.parametrize("game", GAMES)
def test_every_game_s_rules_read_as_a_page(server: Any, context: Any, game: str) -> None:
    page = context.new_page()
    page.goto(f"{server.base}/rules/{game}")
    article = page.locator("article.rulebook")
    assert article.locator("h1").count() == 1
    assert article.locator("h2, p strong").count() >= 1
    lines = article.inner_text().splitlines()
    assert not [line for line in lines if line.lstrip().startswith("#")], "raw Markdown headings"
    # And in the lobby, under the game's card.
    page.goto(server.base + "/")
    page.click(f"#rules-{game} summary")
    page.wait_for_selector(f"#rules-{game} article.rulebook h1")
    shown = page.locator(f"#rules-{game} .rules-text").inner_text().splitlines()
    assert not [line for line in shown if line.lstrip().startswith("#")]
    assert page.locator(f"#rules-{game} .rules-page-link").get_attribute("href") == f"/rules/{game}"
