"""Every game's result screen on a desktop and a phone: a whole game played by bots (without a pause, as
the test server runs them) and watched to its end; the result screen shows the engine's scores with an
explanation per player, fits the phone without sideways scrolling, and a screenshot of each is written
to ``screenshots/`` (``result-<game>-<screen>.png``)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.helpers import engine_scores, page_final_scores, table_id
from tests.e2e.test_result import EXPLAINED
from tests.e2e.test_screens import FITS, TABLES, no_stray_objects, screen, shoot  # noqa: F401

pytestmark = pytest.mark.browser

# What a board says about the next move (whose turn, who leads or asks next): not once the game is over.
NEXT_MOVE = [
    "leads the next trick",  # Brujas
    "picks a card",
    "asks now",  # Amulets
    "— rolling",  # Namaste: the sheet of the seat to roll
    "this round is the last",
    "is about to roll",
    "one more move without karma",  # The 3 Commandments
    "is choosing her taboo",
]
# The size of the score chart's labels on the screen (the chart is an SVG: its own size times its scale).
TICK_PX = """() => { const svg = document.querySelector('#chart svg.chart');
  const scale = svg.getScreenCTM().a;
  const sizes = [...svg.querySelectorAll('text.tick')]
    .map((t) => scale * parseFloat(getComputedStyle(t).fontSize));
  return Math.min(...sizes); }"""


@pytest.mark.parametrize("game", list(TABLES))
def test_each_game_s_result_screen(server: Any, screen: tuple[str, Any], game: str) -> None:  # noqa: F811
    kind, ctx = screen
    bots = ["greedy", *TABLES[game]]
    seats = [{"kind": "bot", "bot": b, "name": None} for b in bots]
    created = server.post("/api/tables", {"game": game, "players": len(seats), "seats": seats})
    url = created["spectator_url"]
    page = ctx.new_page()
    page.goto(url)
    shown = page_final_scores(page)
    assert shown == engine_scores(server, table_id(url))
    # The explanation: one part per player, whose lines add up to the player's score.
    page.wait_for_selector("#explanation .why-seat")
    explained = page.evaluate(EXPLAINED)
    assert sorted(e["seat"] for e in explained) == list(range(len(seats)))
    for e in explained:
        assert sum(e["lines"]) == e["total"] == shown[e["seat"]], e
    no_stray_objects(page)
    board = page.inner_text("#board")
    said = [line for line in NEXT_MOVE if line in board]
    assert not said, f"the {game} board still says who moves next once the game is over: {said}"
    # The chart's labels stay readable (a chart drawn 640 wide and scaled down to a phone made them 6 px).
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    tick = page.evaluate(TICK_PX)
    assert tick >= 10.5, f"the chart's labels are {tick:.1f} px on the {kind}"
    page.locator("#result").scroll_into_view_if_needed()
    shoot(page, f"result-{game}-{kind}")
    assert page.evaluate(FITS), f"the {game} result screen scrolls sideways on the {kind}"
