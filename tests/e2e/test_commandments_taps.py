"""The 3 Commandments' board on a phone (390 px wide) and a desktop (1280 px): no two things a finger or a
mouse may press overlap, and each is at least 24 x 24 CSS px (WCAG 2.2's minimum target size), for a
novice choosing and carrying an artefact, and for a High Priestess ordaining, placing the artefacts
(every suggested placement) and judging."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.conftest import watched_context
from tests.e2e.test_screens import SCREENS, SHOTS, shoot

pytestmark = pytest.mark.browser

MIN_SIZE = 24
"""CSS px: the smallest width or height of a target (WCAG 2.2, 2.5.8 Target Size (Minimum))."""

TARGETS = """(scope) => {
  // Everything under `scope` a pointer can press now: enabled controls, links, summaries and elements that
  // say they are buttons or take the focus, shown and not letting pointer events through. A control inside
  // a label counts as its label (the chips: the whole label is the target), the one nesting the page means.
  const PRESSABLE = 'button, input, select, textarea, summary, a[href], [role=button], '
    + '[tabindex]:not([tabindex="-1"])';
  const root = document.querySelector(scope);
  const targets = [];
  for (const el of root.querySelectorAll(PRESSABLE)) {
    if (el.disabled || el.type === 'hidden' || getComputedStyle(el).pointerEvents === 'none') continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
    const target = el.closest('label') || el;
    if (!targets.includes(target)) targets.push(target);
  }
  const name = (el) => {
    const d = el.dataset || {};
    const id = el.id || el.getAttribute('for') || d.artefact || d.area || d.action || '';
    const text = (el.textContent || '').trim().slice(0, 24);
    return `${el.tagName.toLowerCase()}${id ? '#' + id : ''} ${text}`.trim();
  };
  // Where a target takes a press: its box for an HTML element; for a drawing (an area, an artefact) the
  // fill and stroke of its shapes that take pointer events, as the browser's hit testing reads them.
  const SHAPES = 'circle, ellipse, rect, path, polygon, polyline, line';
  const shapes = (el) => (el instanceof SVGGeometryElement ? [el] : [...el.querySelectorAll(SHAPES)])
    .filter((sh) => getComputedStyle(sh).pointerEvents !== 'none');
  const presses = (el, x, y) => {
    if (!(el instanceof SVGElement)) {
      const r = el.getBoundingClientRect();
      return x > r.left && x < r.right && y > r.top && y < r.bottom;
    }
    return shapes(el).some((sh) => {
      const style = getComputedStyle(sh);
      const p = new DOMPoint(x, y).matrixTransform(sh.getScreenCTM().inverse());
      return (style.fill !== 'none' && sh.isPointInFill(p))
        || (style.stroke !== 'none' && sh.isPointInStroke(p));
    });
  };
  const boxes = targets.map((el) => el.getBoundingClientRect());
  const small = targets.map((el, i) => [name(el), Math.round(boxes[i].width), Math.round(boxes[i].height)])
    .filter(([, w, h]) => Math.min(w, h) < %(min)d);
  // Two targets overlap where one point presses both: their boxes' common part, sampled every CSS px
  // when either is a drawing (a drawing's box is not its shape). A target inside another overlaps it.
  const overlaps = [];
  for (let i = 0; i < targets.length; i++) {
    for (let j = i + 1; j < targets.length; j++) {
      const a = boxes[i], b = boxes[j];
      const left = Math.max(a.left, b.left), right = Math.min(a.right, b.right);
      const top = Math.max(a.top, b.top), bottom = Math.min(a.bottom, b.bottom);
      if (right - left <= 0.5 || bottom - top <= 0.5) continue;
      let common = 0;
      if (targets[i] instanceof SVGElement || targets[j] instanceof SVGElement) {
        for (let x = left + 0.5; x < right; x += 1) {
          for (let y = top + 0.5; y < bottom; y += 1) {
            if (presses(targets[i], x, y) && presses(targets[j], x, y)) common += 1;
          }
        }
      } else {
        common = (right - left) * (bottom - top);
      }
      if (common >= 1) overlaps.push([name(targets[i]), name(targets[j]), Math.round(common)]);
    }
  }
  return { count: targets.length, small, overlaps };
}""".replace("%(min)d", str(MIN_SIZE))


def shoot_circle(page: Any, name: str) -> None:
    """A screenshot of the Holy Circle alone, its artefacts drawn large enough to be looked at."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#board .holy-circle").screenshot(path=str(SHOTS / f"{name}.png"))


def taps(page: Any, where: str) -> list[str]:
    """What is wrong with the board's targets now: pairs that overlap (by how many px²) and targets
    smaller than :data:`MIN_SIZE`; ``where`` names the moment in the messages."""
    found = page.evaluate(TARGETS, "#board")
    assert found["count"] > 0, f"{where}: no target on the board"
    return [f"{where}: {a} and {b} overlap by {n} px²" for a, b, n in found["overlaps"]] + [
        f"{where}: {n} is {w} x {h} px" for n, w, h in found["small"]
    ]


@pytest.fixture(params=list(SCREENS))
def screen(request: pytest.FixtureRequest, browser: Any) -> Iterator[tuple[str, Any]]:
    with watched_context(browser, **SCREENS[request.param]) as ctx:
        yield request.param, ctx


def _seats(kinds: list[str]) -> list[dict[str, Any]]:
    return [
        {"kind": "human", "name": "Ana"} if k == "human" else {"kind": "bot", "bot": k, "name": None}
        for k in kinds
    ]


def test_a_novice_s_targets_neither_overlap_nor_are_too_small(server: Any, screen: tuple[str, Any]) -> None:
    kind, ctx = screen
    created = server.post(
        "/api/tables", {"game": "commandments", "players": 3, "seats": _seats(["greedy", "human", "greedy"])}
    )
    page = ctx.new_page()
    page.goto(next(i["url"] for i in created["invites"] if i["seat"] == 1))
    page.wait_for_selector("main[data-myturn=yes] #perf-words")
    page.wait_for_selector("main:not([data-animating=yes])")
    wrong = taps(page, "choosing an artefact")
    shoot(page, f"commandments-taps-novice-{kind}")
    shoot_circle(page, f"commandments-taps-novice-circle-{kind}")
    # A tap on the middle of each artefact's drawing picks that artefact, not a neighbour.
    arts = page.eval_on_selector_all("#board g.token.draggable", "gs => gs.map((g) => g.dataset.artefact)")
    assert len(arts) == 15
    for art in arts:
        disc = page.locator(f"#board g.token[data-artefact={art}] circle:not(.hit)")
        disc.scroll_into_view_if_needed()
        box = disc.bounding_box()
        assert box is not None
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        picked = page.locator("#board g.token.selected").get_attribute("data-artefact")
        if picked != art:
            wrong.append(f"a tap on {art} picked {picked}")
        page.locator("#board .performance button", has_text="Start over").click()
    # Picked (by the keyboard): the areas are the targets now, the artefacts standing on them let a tap
    # through to them.
    page.locator("#board g.token[data-artefact=wh1]").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#board .holy-circle .area[role=button]")
    wrong += taps(page, "carrying an artefact")
    shoot(page, f"commandments-taps-carry-{kind}")
    shoot_circle(page, f"commandments-taps-carry-circle-{kind}")
    start = page.get_attribute("#board g.token[data-artefact=wh1]", "data-area")
    other = page.locator(f"#board g.token:not([data-area={start}]):not([data-area=R])").first
    area = other.get_attribute("data-area")
    other.scroll_into_view_if_needed()
    box = other.locator("circle:not(.hit)").bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    route = page.locator("#route").inner_text()
    if f"to {area}." not in route:
        wrong.append(f"carrying wh1, a tap on an artefact standing in {area} gave: {route}")
    assert not wrong, "\n".join(wrong)


def test_a_priestess_s_targets_neither_overlap_nor_are_too_small(
    server: Any, screen: tuple[str, Any]
) -> None:
    kind, ctx = screen
    created = server.post(
        "/api/tables",
        {
            "game": "commandments",
            "players": 3,
            "options": {"judge": "priestess"},
            "seats": _seats(["human", "greedy", "greedy"]),
        },
    )
    page = ctx.new_page()
    page.goto(created["invites"][0]["url"])
    page.wait_for_selector("main[data-myturn=yes] .ordain button")
    wrong = taps(page, "ordaining")
    page.locator('.ordain button[data-action^="ordain discard=A"][data-action*="taboo=A"]').first.click()
    page.wait_for_selector("#place-confirm:not([disabled])")
    suggestions = page.locator("#board .place .actions-row button")
    for k in range(suggestions.count()):
        suggestions.nth(k).click()
        wrong += taps(page, f"placing (suggestion {k + 1})")
        shoot_circle(page, f"commandments-taps-place-{k + 1}-{kind}")
    shoot(page, f"commandments-taps-place-{kind}")
    page.click("#place-confirm")
    page.wait_for_selector("#board .judge-card", timeout=30_000)
    wrong += taps(page, "judging")
    shoot(page, f"commandments-taps-judge-{kind}")
    assert not wrong, "\n".join(wrong)
