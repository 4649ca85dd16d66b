"""Feel: moves are drawn in motion (a card slides into the trick, the dice roll, an artefact travels its
path), unless the person asked for reduced motion; the page sends how long it animated with each move
(``animation_ms``) so that the server does not charge a timed move for it; a live region says whose
turn it is, in words, at every step."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tests.e2e.conftest import watch_errors
from tests.e2e.helpers import seated
from tests.e2e.test_games import brujas_move, commandments_move, namaste_move

pytestmark = pytest.mark.browser

# Animations the page counts as a move being shown (CSS animations and the boards' own, named "move-…").
MOVE_ANIMATIONS = """() => document.getAnimations()
  .map((a) => a.animationName || a.id || '').filter((n) => n.startsWith('move-'))"""
# Every page of the test records, at each frame, the move animations running (bots play without a pause
# in the tests, so a check made afterwards could miss one).
RECORDER = """(() => {
  window.__moves = new Set();
  const tick = () => {
    for (const a of document.getAnimations()) {
      const name = a.animationName || a.id || '';
      if (name.startsWith('move-')) window.__moves.add(name);
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})()"""
RECORDED = "() => [...window.__moves].sort()"


@contextmanager
def browser_page(browser: Any, **options: Any) -> Iterator[tuple[Any, list[dict[str, Any]]]]:
    """A page whose websocket messages to the server are recorded (parsed JSON, in order)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, **options)
    ctx.set_default_timeout(15_000)
    errors = watch_errors(ctx)
    sent: list[dict[str, Any]] = []
    ctx.add_init_script(RECORDER)
    page = ctx.new_page()

    def on_socket(ws: Any) -> None:
        ws.on(
            "framesent",
            lambda payload: sent.append(json.loads(payload)) if isinstance(payload, str) else None,
        )

    page.on("websocket", on_socket)
    try:
        yield page, sent
    finally:
        ctx.close()
    assert not errors, f"script errors in the page: {errors}"


def play_moves(page: Any, choose: Any, rng: random.Random, count: int) -> list[str]:
    """Play ``count`` of our moves as a person would (waiting for the last move to be shown); the live
    region's text at each of our turns."""
    said = []
    for _ in range(count):
        page.wait_for_selector("main[data-myturn=yes], main[data-status=over]", timeout=30_000)
        if page.get_attribute("main", "data-status") == "over":
            break
        page.wait_for_selector("main:not([data-animating=yes])")
        number = page.get_attribute("main", "data-number")
        page.wait_for_function("n => document.querySelector('main').dataset.announced === n", arg=number)
        said.append(page.inner_text("#turn-live"))
        choose(page, rng)
        page.wait_for_function(
            "n => document.querySelector('main').dataset.number !== n", arg=number, timeout=30_000
        )
    return said


def acts(sent: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in sent if m.get("type") == "act"]


def test_moves_animate_and_the_page_says_how_long(server: Any, browser: Any) -> None:
    with browser_page(browser) as (page, sent):
        seated(server, page, "brujas", ["greedy", "greedy"])
        said = play_moves(page, brujas_move, random.Random(11), 6)
        assert len(said) == 6
        mine = acts(sent)
        assert len(mine) == 6
        times = [m["animation_ms"] for m in mine]
        assert all(isinstance(x, int) and 0 <= x <= 5000 for x in times), times
        assert "move-slide" in page.evaluate(RECORDED)
        # Moves that follow a bot's card sliding in (the page waited for it, as a person would) report
        # the time it took; a card slides for under a second.
        assert any(x > 0 for x in times), times
        assert max(times) < 1000, times
        # The live region says whose turn it is at every step, in words, with the step's number.
        region = page.locator("#turn-live")
        assert region.get_attribute("role") == "status" and region.get_attribute("aria-live") == "polite"
        for text in said:
            assert re.match(r"Step \d+: Your turn", text), text
        numbers = [int(re.match(r"Step (\d+)", text).group(1)) for text in said]  # type: ignore[union-attr]
        assert numbers == sorted(set(numbers)), "the region is said again at every step"
        # The visible turn line counts no clock into the region (it is said once per step).
        assert "left" not in " ".join(said)


def test_reduced_motion_means_no_animation_and_nothing_to_discount(server: Any, browser: Any) -> None:
    with browser_page(browser, reduced_motion="reduce") as (page, sent):
        seated(server, page, "brujas", ["greedy", "greedy"])
        seen: list[list[str]] = []
        rng = random.Random(12)
        for _ in range(4):
            page.wait_for_selector("main[data-myturn=yes]", timeout=30_000)
            seen.append(page.evaluate(MOVE_ANIMATIONS))
            number = page.get_attribute("main", "data-number")
            brujas_move(page, rng)
            page.wait_for_function("n => document.querySelector('main').dataset.number !== n", arg=number)
        assert seen == [[]] * 4
        assert page.evaluate(RECORDED) == []
        assert [m["animation_ms"] for m in acts(sent)] == [0, 0, 0, 0]
        assert page.locator(".trick figure.fresh").count() == 0


def test_the_dice_roll(server: Any, browser: Any) -> None:
    with browser_page(browser) as (page, _sent):
        seated(server, page, "namaste", ["greedy"])
        # A few moves of ours (and the bot's): the dice are rolled, and a number is written in a circle.
        play_moves(page, namaste_move, random.Random(14), 4)
        assert {"move-roll", "move-write"} <= set(page.evaluate(RECORDED))


def test_an_artefact_travels_its_path(server: Any, browser: Any) -> None:
    with browser_page(browser) as (page, _sent):
        seated(server, page, "commandments", ["random", "random"])
        rng = random.Random(13)
        page.wait_for_selector("main[data-myturn=yes]")
        # Ana is the first High Priestess: she ordains and places; then the novices move.
        for _ in range(2):
            page.wait_for_selector("main[data-myturn=yes]")
            number = page.get_attribute("main", "data-number")
            commandments_move(page, rng)
            page.wait_for_function("n => document.querySelector('main').dataset.number !== n", arg=number)
        page.wait_for_function("() => window.__moves.has('move-travel')", timeout=30_000)
