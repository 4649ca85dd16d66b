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
# Elements of the page whose right edge passes the screen's, but for those inside a box that scrolls
# sideways on purpose (``inside``: a selector).
PAST_THE_EDGE = """(inside) => [...document.querySelectorAll('main *')]
  .filter((el) => !el.closest(inside) && el.getBoundingClientRect().right > window.innerWidth + 1)
  .map((el) => `${el.tagName.toLowerCase()}.${el.className} ${el.textContent.slice(0, 40)}`)"""
# The seat rows of the lobby's form whose select (any of its choices) or name (its placeholder) would be
# cut: the text's width against the room inside the control (a select's arrow takes about 20 px).
SEATS_CUT = """() => {
  const pen = document.createElement('canvas').getContext('2d');
  const cut = [];
  const controls = '.seat-row select, .seat-row input, #new-pace, #new-pace-seconds';
  for (const el of document.querySelectorAll(controls)) {
    const style = getComputedStyle(el);
    pen.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const texts = el.tagName === 'SELECT' ? [...el.options].map((o) => o.text) : [el.placeholder];
    const need = Math.max(...texts.map((text) => pen.measureText(text).width));
    const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
      - (el.tagName === 'SELECT' ? 20 : 0);
    if (need > room) cut.push(`${el.id}: ${Math.ceil(need)} px of text in ${Math.floor(room)} px`);
  }
  return cut;
}"""


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
    cut = seats_cut(page)
    assert not cut, f"the seats or the pace of a new table are cut on the {kind}: {cut[:6]}"
    page.goto(server.base + "/rules/brujas")
    page.wait_for_selector("article.rulebook h1")
    shoot(page, f"rules-brujas-{kind}")
    assert page.evaluate(FITS), f"the rules page scrolls sideways on the {kind}"


def seats_cut(page: Any) -> list[str]:
    """The seat rows' controls and the pace's cut in the lobby's form, for each game at its largest table."""
    cut: list[str] = []
    for game in page.eval_on_selector_all("#new-game option", "os => os.map((o) => o.value)"):
        page.select_option("#new-game", game)
        most = page.eval_on_selector("#new-players", "s => s.options[s.options.length - 1].value")
        page.select_option("#new-players", most)
        cut += [f"{game} {c}" for c in page.evaluate(SEATS_CUT)]
    return cut


@pytest.mark.parametrize(("lang", "players"), [("en", 3), ("fr", 5)])
def test_the_amulets_spell_book_scrolls_in_its_own_box_on_a_phone(
    server: Any, browser: Any, lang: str, players: int
) -> None:
    # The spell book has a column per player: wider than a phone, it scrolls sideways in its own box, and
    # the rest of the table (the rules, the secret, the players, the chat, the log) stays on the screen.
    ctx = browser.new_context(locale="fr-FR" if lang == "fr" else "en-US", **SCREENS["phone"])
    ctx.set_default_timeout(15_000)
    errors = watch_errors(ctx)
    try:
        bots = [{"kind": "bot", "bot": "random", "name": None}] * (players - 1)
        created = server.post(
            "/api/tables",
            {"game": "amulets", "players": players, "seats": [{"kind": "human", "name": "Ana"}, *bots]},
        )
        page = ctx.new_page()
        page.goto(created["invites"][0]["url"])
        page.wait_for_selector("main[data-myturn=yes]")
        assert page.evaluate(FITS)
        for amulet, field in zip("RYGBK", ("A1", "B2", "C3", "D4", "E5"), strict=True):
            page.click(f"#board .tray .amulet-btn[data-amulet={amulet}]")
            page.click(f"#board .altar .field[data-field={field}]")
        page.click("#amulets-ask")
        page.wait_for_selector("#board .spell-book tbody tr.entry")
        page.wait_for_selector("main:not([data-animating=yes])")
        shoot(page, f"amulets-book-{lang}-{players}-phone")
        assert page.eval_on_selector("#board .book-scroll", "el => el.scrollWidth > el.clientWidth"), (
            "the spell book fits the phone: this test no longer shows what it should"
        )
        assert page.evaluate(FITS), (
            f"the Amulets table scrolls sideways on a phone ({lang}, {players} players)"
        )
        past = page.evaluate(PAST_THE_EDGE, ".book-scroll")
        assert not past, f"cut on the right: {past[:5]}"
    finally:
        ctx.close()
    assert not errors, f"script errors in the page: {errors}"


def test_a_box_that_scrolls_sideways_shows_there_is_more(server: Any, browser: Any) -> None:
    # On a phone, The 3 Commandments' karma pad at five players is wider than the screen: its right edge
    # fades (data-scrolls="more") while there is more to see, and no longer once scrolled to the end; a
    # box that fits is not marked.
    ctx = browser.new_context(**SCREENS["phone"])
    try:
        seats = [{"kind": "human", "name": "Ana"}, *({"kind": "bot", "bot": "random"} for _ in range(4))]
        created = server.post("/api/tables", {"game": "commandments", "players": 5, "seats": seats})
        page = ctx.new_page()
        page.goto(created["invites"][0]["url"])
        page.wait_for_selector(".pad-scroll[data-scrolls=more]")
        mask = page.evaluate("() => getComputedStyle(document.querySelector('.pad-scroll')).maskImage")
        assert "linear-gradient" in mask, mask
        page.evaluate(
            "() => { const pad = document.querySelector('.pad-scroll'); pad.scrollLeft = pad.scrollWidth; }"
        )
        page.wait_for_selector(".pad-scroll:not([data-scrolls])")
        fits = page.evaluate(
            "() => [...document.querySelectorAll('.board, .pad-scroll')]"
            ".filter((el) => el.scrollWidth <= el.clientWidth).map((el) => el.dataset.scrolls || '')"
        )
        assert fits and not any(fits), fits
    finally:
        ctx.close()
