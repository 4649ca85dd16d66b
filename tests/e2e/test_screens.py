"""Every game's table on a desktop (1280 wide) and a phone (390 wide): drawn without a stray object, no
sideways scrolling on the phone, and a screenshot of each in ``screenshots/`` (or ``$COVEN_SCREENSHOTS``)
so that anyone can look at them."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import watch_errors

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("COVEN_SCREENSHOTS") or Path(__file__).resolve().parents[2] / "screenshots")
SCREENS = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}
TABLES = {
    "namaste": ["greedy"],
    "brujas": ["greedy", "random", "greedy"],
    "amulets": ["greedy", "random", "greedy"],
    "commandments": ["random", "random"],
}
FITS = "() => document.documentElement.scrollWidth <= window.innerWidth"


@pytest.fixture(params=list(SCREENS))
def screen(request: pytest.FixtureRequest, browser: Any) -> Iterator[tuple[str, Any]]:
    ctx = browser.new_context(**SCREENS[request.param])
    ctx.set_default_timeout(15_000)
    errors = watch_errors(ctx)
    try:
        yield request.param, ctx
    finally:
        ctx.close()
    assert not errors, f"script errors in the page: {errors}"


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def no_stray_objects(page: Any) -> None:
    text = page.locator("main").inner_text()
    assert "[object" not in text and "undefined" not in text and "NaN" not in text


@pytest.mark.parametrize("game", list(TABLES))
def test_each_game_s_table_fits_the_screen(server: Any, screen: tuple[str, Any], game: str) -> None:
    kind, ctx = screen
    bots = [{"kind": "bot", "bot": b, "name": None} for b in TABLES[game]]
    seats = [{"kind": "human", "name": "Ana"}, *bots]
    created = server.post("/api/tables", {"game": game, "players": len(seats), "seats": seats})
    page = ctx.new_page()
    page.goto(created["invites"][0]["url"])
    page.wait_for_selector("main[data-myturn=yes]")
    page.wait_for_selector("#board > :not(details)")
    no_stray_objects(page)
    shoot(page, f"{game}-{kind}")
    assert page.evaluate(FITS), f"the {game} table scrolls sideways on the {kind}"


def test_the_lobby_and_a_rules_page_fit_the_screen(server: Any, screen: tuple[str, Any]) -> None:
    kind, ctx = screen
    page = ctx.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#game-brujas")
    page.click("#rules-amulets summary")
    page.wait_for_selector("#rules-amulets article h1")
    no_stray_objects(page)
    shoot(page, f"lobby-{kind}")
    assert page.evaluate(FITS), f"the lobby scrolls sideways on the {kind}"
    page.goto(server.base + "/rules/brujas")
    page.wait_for_selector("article.rulebook h1")
    shoot(page, f"rules-brujas-{kind}")
    assert page.evaluate(FITS), f"the rules page scrolls sideways on the {kind}"
