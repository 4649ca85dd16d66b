"""Shared steps of the end-to-end tests: create a table in the lobby, play in the page, check the result."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from coven.core import Record
from coven.core.record import replay
from coven.games import get_game

Page = Any
Chooser = Callable[[Page, random.Random], None]

TURN = "main[data-myturn=yes], main[data-status=over]"


def create_table(
    page: Page,
    base: str,
    game: str,
    seats: list[str],
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Fill the lobby form: ``seats`` holds "human" or "bot:<name>" per seat. Returns the links shown."""
    page.goto(base + "/")
    page.wait_for_selector(f"#game-{game}")
    page.select_option("#new-game", game)
    page.select_option("#new-players", str(len(seats)))
    for i, kind in enumerate(seats):
        page.select_option(f"#seat-{i}-kind", kind)
        if kind == "human":
            page.fill(f"#seat-{i}-name", f"Person {i + 1}")
    for key, value in (options or {}).items():
        field = page.locator(f"#opt-{key}")
        if isinstance(value, bool):
            field.set_checked(value)
        elif field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    page.click("#create-table")
    page.wait_for_selector(".invites, .spectator-link")
    invites = page.eval_on_selector_all(".invite-link", "els => els.map(e => e.href)")
    spectator = page.get_attribute(".spectator-link", "href")
    return {"invites": invites, "spectator": spectator}


def against_bots(server: Any, game: str, bots: list[str]) -> dict[str, Any]:
    """A new table of ``game`` made through the API: Ana's seat first, then a seat for each of ``bots``
    (their names). Returns the server's answer (the table, its invites)."""
    seats = [{"kind": "human", "name": "Ana"}, *({"kind": "bot", "bot": b, "name": None} for b in bots)]
    body = {"game": game, "players": len(seats), "seats": seats}
    created: dict[str, Any] = server.post("/api/tables", body)
    return created


def seated(server: Any, page: Page, game: str, bots: list[str]) -> dict[str, Any]:
    """:func:`against_bots`, and ``page`` opens Ana's invite. Returns the server's answer."""
    created = against_bots(server, game, bots)
    page.goto(created["invites"][0]["url"])
    return created


def table_id(url: str) -> str:
    return url.split("/t/")[1].split("#", maxsplit=1)[0]


def play_until_over(page: Page, choose: Chooser, rng: random.Random, max_moves: int = 2000) -> int:
    """Whenever the page says we must move, let ``choose`` click a move; stop at the result screen.

    When we only *may* act (an optional actor), we let the moment pass and wait for the table to move.
    """
    moves = 0
    while True:
        d = page.evaluate("() => ({...document.querySelector('main').dataset})")
        if d.get("status") == "over":
            return moves
        if d.get("myturn") != "yes":
            # Others play (or we may act but let the moment pass): wait for the table to move.
            page.wait_for_function(
                """n => { const d = document.querySelector('main').dataset;
                          return d.status === 'over' || d.myturn === 'yes' || d.number !== n; }""",
                arg=d.get("number"),
                timeout=30_000,
            )
            continue
        # A person sees the last move drawn in motion (a card sliding, an artefact travelling) before
        # acting: wait until the page has shown it.
        page.wait_for_selector("main:not([data-animating=yes])")
        choose(page, rng)
        moves += 1
        assert moves <= max_moves, "the game does not end"
        # Wait until our move was applied (the number moved on) or refused (an error is shown).
        page.wait_for_function(
            """n => document.querySelector('main').dataset.number !== n
                   || !document.getElementById('move-error').hidden""",
            arg=d.get("number"),
            timeout=30_000,
        )
        error = page.locator("#move-error")
        if error.is_visible():
            raise AssertionError(f"the page refused a move it offered: {error.inner_text()}")


def page_final_scores(page: Page) -> list[float]:
    page.wait_for_selector("#result[data-ready=yes]", timeout=30_000)
    items = page.eval_on_selector_all(
        "#final-scores li", "els => els.map(e => [Number(e.dataset.seat), Number(e.dataset.score)])"
    )
    out = [0.0] * len(items)
    for seat, score in items:
        out[seat] = score
    return out


def page_live_scores(page: Page) -> list[float] | None:
    """The scores in the always-visible players panel (None where the page shows none: "—")."""
    cells = page.eval_on_selector_all("#score-table td.score", "els => els.map(e => e.textContent.trim())")
    if any(c == "—" for c in cells):
        return None
    return [float(c) for c in cells]


def engine_scores(server: Any, table: str) -> list[float]:
    """The scores the engine gives when it replays the table's record from the API."""
    record = Record.from_json(server.get(f"/api/tables/{table}/record"))
    game = get_game(record.game)
    return [float(x) for x in game.scores(replay(game, record))]


def said(locator: Any) -> str:
    """What ``locator`` shows, its white space squeezed to single spaces."""
    return " ".join(locator.inner_text().split())
