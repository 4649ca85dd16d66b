"""What a new player notices: the labels say what they mean (the connection, a spectator's waiting line),
the language switch shows its language, the pace's rules are said, the result can be reached from the top
of a long phone page, The 3 Commandments' board lets a phone scroll and its artefacts can be tapped, the
karma pad keeps its names and totals in sight, and the logs say moves in words, in French too."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any, Final

import pytest

from tests.e2e.conftest import watched_context
from tests.e2e.test_screens import SCREENS, shoot

pytestmark = pytest.mark.browser


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    with watched_context(browser, **SCREENS["phone"]) as ctx:
        yield ctx


def test_the_connection_pill_says_connected(server: Any, context: Any, fr: Any) -> None:
    # "open" said nothing to a player: the pill says the page is connected, in either language
    seats = [{"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "random"}]
    created = server.post("/api/tables", {"game": "namaste", "players": 2, "seats": seats})
    for ctx, word in ((context, "connected"), (fr, "connecté")):
        page = ctx.new_page()
        page.goto(created["invites"][0]["url"])
        page.wait_for_selector("#conn.connected")
        assert page.inner_text("#conn") == word


def test_a_spectator_of_a_waiting_table_is_not_told_to_send_links(server: Any, context: Any) -> None:
    seats = [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bea"}]
    created = server.post("/api/tables", {"game": "namaste", "players": 2, "seats": seats})
    watcher = context.new_page()
    watcher.goto(created["spectator_url"])
    watcher.wait_for_function("() => document.querySelector('main').dataset.status === 'waiting'")
    watcher.wait_for_selector("#who:has-text('Watching')")
    turn = watcher.inner_text("#turn")
    assert "Ana" in turn and "Bea" in turn and "invite" not in turn, turn
    assert "starts as soon as" in turn, turn
    # the player still is told to send the links
    player = context.new_page()
    player.goto(created["invites"][0]["url"])
    player.wait_for_selector("#turn:has-text('invite links')")


def novice_table(server: Any, page: Any, bots: int = 2) -> dict[str, Any]:
    """A table of The 3 Commandments where a bot is the first High Priestess and Ana (the last seat) a
    novice: ``page`` opens her invite and waits for her first move."""
    seats = [*({"kind": "bot", "bot": "random"} for _ in range(bots)), {"kind": "human", "name": "Ana"}]
    created: dict[str, Any] = server.post(
        "/api/tables", {"game": "commandments", "players": len(seats), "seats": seats}
    )
    page.goto(next(i["url"] for i in created["invites"] if i["seat"] == bots))
    page.wait_for_selector("main[data-myturn=yes] #perf-words")
    return created


def test_the_option_s_name_is_not_said_twice(server: Any, context: Any, fr: Any) -> None:
    for ctx, name in ((context, "expert variant"), (fr, "variante experte")):
        page = ctx.new_page()
        page.goto(server.base + "/")
        page.wait_for_selector("#create-table")
        page.select_option("#new-game", "commandments")
        label = page.locator("fieldset.options .field", has=page.locator("#opt-expert")).inner_text()
        assert label.lower().count(name) == 1, label
        assert "total" in label, label


def test_the_words_field_s_placeholder_fits_a_phone(server: Any, phone: Any) -> None:
    page = phone.new_page()
    novice_table(server, page)
    room = page.evaluate(
        """() => { const el = document.getElementById('perf-words'); const style = getComputedStyle(el);
          const pen = document.createElement('canvas').getContext('2d');
          pen.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
          return [pen.measureText(el.placeholder).width,
                  el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)]; }"""
    )
    assert room[0] <= room[1], f"the placeholder needs {room[0]:.0f} px, the field has {room[1]:.0f}"


@pytest.mark.parametrize(("pace", "seconds"), [("move", 120), ("clock", 600)])
def test_an_empty_pace_field_says_the_seconds_it_stands_for(
    server: Any, context: Any, fr: Any, pace: str, seconds: int
) -> None:
    # choosing a pace and leaving the seconds empty makes the table at the server's default: the field and
    # its hint say which before the table is made, and the table has it
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#create-table")
    assert page.get_attribute("#new-pace-seconds", "placeholder") == "seconds"
    page.select_option("#new-game", "namaste")
    page.select_option("#new-pace", pace)
    assert page.get_attribute("#new-pace-seconds", "placeholder") == f"{seconds} (default)"
    assert f"left empty, {seconds}" in page.inner_text("#new-pace-hint")
    page.click("#create-table")
    page.wait_for_selector(".invite-link")
    page.goto(page.eval_on_selector(".invite-link", "e => e.href"))
    page.wait_for_selector("#pace")
    minutes = f"{seconds // 60}:00"
    assert minutes in page.inner_text("#pace"), page.inner_text("#pace")
    french = fr.new_page()
    french.goto(server.base + "/")
    french.wait_for_selector("#create-table")
    french.select_option("#new-pace", pace)
    assert french.get_attribute("#new-pace-seconds", "placeholder") == f"{seconds} (par défaut)"


def test_a_clock_says_a_move_always_has_its_last_seconds(server: Any, context: Any, fr: Any) -> None:
    # an 8 s clock counts a move down from 15 s (the server's LAST_SECONDS): the lobby and the table say so
    from coven.server.table import LAST_SECONDS

    last = f"{int(LAST_SECONDS)} s"
    for ctx, words in ((context, f"at least {last}"), (fr, f"au moins {last}")):
        page = ctx.new_page()
        page.goto(server.base + "/")
        page.wait_for_selector("#create-table")
        page.select_option("#new-game", "namaste")
        page.select_option("#new-pace", "clock")
        hint = page.inner_text("#new-pace-hint")
        assert f"{int(LAST_SECONDS)}" in hint and ("at least" in hint or "au moins" in hint), hint
        page.select_option("#seat-1-kind", "bot:random")
        page.fill("#new-pace-seconds", "8")
        page.click("#create-table")
        page.wait_for_selector(".invite-link")
        page.goto(page.eval_on_selector(".invite-link", "e => e.href"))
        page.wait_for_selector("#pace")
        line = page.inner_text("#pace")
        assert "8 s" in line and words in line, line


def test_namaste_s_log_says_lines_and_choices_in_words(server: Any, fr: Any) -> None:
    # the log named a completed line in the server's English ("column 6") and a choice in notation
    # ("Vous avez choisi 8@a4"): the page's words say both, the notation stays in the tooltip
    page = fr.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#create-table")
    rendered = page.evaluate(
        """async () => {
          const board = await import('/games/namaste.js');
          const ctx = { names: ['Ana', 'Bea'] };
          const ev = (kind, data) => board.describe({ kind, data }, ctx);
          const line = ev('line', { seat: 0, line: 'column 6', points: 5, first: true });
          const row = ev('line', { seat: 1, line: 'row b', points: 3, first: false });
          const chose = ev('decided', { action: '8@a4' });
          const wrote = ev('entries', { entries: { 0: '8@a4', 1: 'karma' } });
          const text = (x) => (x instanceof Node ? x.textContent : x);
          return [text(line), text(row), text(chose), chose.title, text(wrote), wrote.title];
        }"""
    )
    line, row, chose, chose_title, wrote, wrote_title = rendered
    assert "colonne 6" in line and "column" not in line, line
    assert "ligne b" in row and "row" not in row, row
    assert chose == "Vous avez choisi : 8 en a4" and chose_title == "8@a4", (chose, chose_title)
    assert "Ana : 8 en a4" in wrote and "Bea : mauvais karma" in wrote and "@" not in wrote, wrote
    assert "8@a4" in wrote_title, wrote_title


LOG_LINES = """async () => {
  const amulets = await import('/games/amulets.js');
  const cmd = await import('/games/commandments.js');
  const ctx = { names: ['Ana', 'Bea', 'Cy'] };
  const text = (x) => (x instanceof Node ? x.textContent : x);
  const asked = amulets.describe({ kind: 'question', data: { seat: 0, placement: 'RD4 YC3 GA2 BB3 KA3',
    answers: [[1, '-'], [2, 'o']] } }, ctx);
  const cast = amulets.describe({ kind: 'cast', data: { seat: 2, placement: 'RA1 YD4 GA2 BC4 KA4',
    success: true, checks: [[0, 'y'], [1, 'y']] } }, ctx);
  const moved = cmd.describe({ kind: 'move',
    data: { seat: 1, action: 'wh5>C>H2 +bow 4s', start: 'H1' } }, ctx);
  return [text(asked), asked.title, text(cast), cast.title, text(moved), moved.title];
}"""


def test_the_logs_say_moves_in_words_with_their_notation_at_hand(server: Any, context: Any, fr: Any) -> None:
    # "a demandé RD4 YC3…", "… y — réussi !", "a joué wh5>C>H2": a newcomer reads words, the notation
    # stays in the line's tooltip
    for ctx in (context, fr):
        page = ctx.new_page()
        page.goto(server.base + "/")
        page.wait_for_selector("#create-table")
        asked, asked_title, cast, cast_title, moved, moved_title = page.evaluate(LOG_LINES)
        assert asked_title.startswith("RD4 YC3 GA2 BB3 KA3") and cast_title == "RA1 YD4 GA2 BC4 KA4"
        assert moved_title == "wh5>C>H2 +bow 4s"
        for line in (asked, cast, moved):
            assert "RD4" not in line and "YC3" not in line and "wh5" not in line and ">" not in line, line
        if ctx is context:
            assert asked == (
                "Ana asked red D4, yellow C3, green A2, blue B3, black A3: "
                "Bea: none of these; Cy: another amulet is on my field"
            ), asked
            assert (
                cast
                == "Cy cast red A1, yellow D4, green A2, blue C4, black A4: Ana: yes; Bea: yes — it worked!"
            ), cast
            assert moved.startswith("Bea moved white 5 from H1 over C to H2 (bow; 4 s)"), moved
        else:
            assert asked.startswith("Ana a demandé rouge D4, jaune C3, vert A2, bleu B3, noir A3 : Bea : "), (
                asked
            )
            assert "Ana : oui ; Bea : oui — réussi !" in cast, cast
            assert moved.startswith("Bea a déplacé blanc 5 de H1 par C vers H2 ("), moved


def test_amulets_in_french_shows_french_letters_and_words(server: Any, fr: Any) -> None:
    # the pieces showed the English initials (Y, G, K) and a spell's checks "y"/"n": in French the pieces
    # carry French initials (Rouge, Jaune, Vert, Bleu, Noir) and the checks say oui/non
    seats = [
        {"kind": "human", "name": "Ana"},
        {"kind": "bot", "bot": "random"},
        {"kind": "bot", "bot": "random"},
    ]
    created = server.post("/api/tables", {"game": "amulets", "players": 3, "seats": seats})
    page = fr.new_page()
    page.goto(created["invites"][0]["url"])
    page.wait_for_selector("main[data-myturn=yes] .tray .amulet")
    assert page.locator(".tray .amulet").all_inner_texts() == ["R", "J", "V", "B", "N"]
    assert "oui/non" in page.inner_text(".book .legend")
    assert page.locator(".secret .amulet").inner_text() in "RJVBN"


def test_the_language_switch_shows_the_language_in_use(server: Any, phone: Any, fr: Any) -> None:
    for ctx, shown in ((phone, "en"), (fr, "fr")):
        page = ctx.new_page()
        page.goto(server.base + "/")
        page.wait_for_selector("header.site .lang-switch button")
        looks = page.evaluate(
            """() => [...document.querySelectorAll('header.site .lang-switch button')].map((b) => {
                 const s = getComputedStyle(b); const r = b.getBoundingClientRect();
                 return { code: b.lang, pressed: b.getAttribute('aria-pressed'), bg: s.backgroundColor,
                          weight: Number(s.fontWeight), height: r.height, width: r.width }; })"""
        )
        on = [x for x in looks if x["pressed"] == "true"]
        off = [x for x in looks if x["pressed"] != "true"]
        assert [x["code"] for x in on] == [shown] and len(off) == 1, looks
        assert on[0]["bg"] != off[0]["bg"] and on[0]["weight"] > off[0]["weight"], looks
        if ctx is phone:
            assert all(x["height"] >= 44 and x["width"] >= 44 for x in looks), looks


def test_the_result_is_one_tap_away_on_a_phone(server: Any, phone: Any) -> None:
    # a finished game's page is long on a phone: the "Game over" line links to the result
    seats = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    created = server.post("/api/tables", {"game": "namaste", "players": 2, "seats": seats})
    page = phone.new_page()
    page.goto(created["spectator_url"])
    page.wait_for_selector("#result[data-ready=yes]", timeout=60_000)
    link = page.locator("#turn #to-result")
    assert link.is_visible() and "result" in link.inner_text()
    assert page.evaluate("() => document.getElementById('result').getBoundingClientRect().top") > 844
    link.click()
    page.wait_for_function(
        "() => Math.abs(document.getElementById('result').getBoundingClientRect().top) < 40"
    )
    assert page.evaluate("() => document.activeElement.id") == "result"


def test_the_karma_pad_keeps_names_and_totals_in_sight_on_a_phone(server: Any, phone: Any) -> None:
    page = phone.new_page()
    novice_table(server, page, bots=4)
    page.wait_for_selector(".pad-scroll[data-scrolls=more]")
    page.evaluate("() => { const pad = document.querySelector('.pad-scroll'); pad.scrollLeft = 60; }")
    edges = page.evaluate(
        """() => { const pad = document.querySelector('.pad-scroll').getBoundingClientRect();
             const name = document.querySelector('#karma-pad tbody th').getBoundingClientRect();
             const total = document.querySelector('#karma-pad td.pad-total').getBoundingClientRect();
             return { pad: [pad.left, pad.right], name: [name.left, name.right],
                      total: [total.left, total.right] }; }"""
    )
    assert abs(edges["name"][0] - edges["pad"][0]) <= 2, edges  # the names stay at the left edge
    assert edges["total"][1] <= edges["pad"][1] + 1 and edges["total"][0] >= edges["pad"][0], edges
    shoot(page, "commandments-pad-phone")


def test_the_commandments_result_page_has_each_id_once(server: Any, context: Any) -> None:
    # the replay draws the board again under the result: the live board keeps its ids, the replay's
    # copies have none
    seats = [{"kind": "bot", "bot": "random"} for _ in range(3)]
    created = server.post("/api/tables", {"game": "commandments", "players": 3, "seats": seats})
    page = context.new_page()
    page.goto(created["spectator_url"])
    page.wait_for_selector("#result[data-ready=yes] .replay-view .karma-table", timeout=120_000)
    twice = page.evaluate(
        """() => { const seen = {};
             for (const el of document.querySelectorAll('[id]')) seen[el.id] = (seen[el.id] || 0) + 1;
             return Object.entries(seen).filter(([, n]) => n > 1).map(([id]) => id); }"""
    )
    assert not twice, twice
    assert page.locator("#board #karma-pad").count() == 1 and page.locator("#board #destiny").count() == 1


TOUCH = """() => {
  const circle = document.querySelector('#board .holy-circle');
  const held = [...circle.querySelectorAll('*')].filter((el) => getComputedStyle(el).touchAction === 'none');
  const hits = [...circle.querySelectorAll('.token.draggable')].map((g) => {
    const r = g.querySelector('circle.hit').getBoundingClientRect();
    return [r.left + r.width / 2, r.top + r.height / 2, Math.min(r.width, r.height)]; });
  return { circle: getComputedStyle(circle).touchAction, held: held.map((el) => el.tagName + '.' +
    el.getAttribute('class')), hits };
}"""
"""The holy circle's touch: its own ``touch-action``, the elements that keep a touch for dragging, and each
draggable artefact's finger target (its centre and diameter on the screen, in CSS px). Measure it once no
artefact travels (``main:not([data-animating=yes])``): the last move's crosses its neighbours on its way."""

FINGER: Final = 24
"""A finger's target on a phone, in CSS px (the least the page gives an artefact with room round it)."""


def finger_targets_problems(hits: list[list[float]]) -> list[str]:
    """Where the artefacts' targets break the page's rule: each is :data:`FINGER` px across, or, in a
    crowded area, as wide as the way to its nearest neighbour allows (less than half of it each), and no
    two overlap. (Which board a test gets depends on the deal; the rule holds on every board.)"""
    problems = []
    for i, (x, y, wide) in enumerate(hits):
        others = [(math.hypot(u - x, v - y), w) for j, (u, v, w) in enumerate(hits) if j != i]
        near = min(d for d, _ in others)
        if wide < min(FINGER, near - 1.0) - 0.5:  # (the page leaves a quarter unit between neighbours)
            problems.append(f"artefact {i}: {wide:.1f} px wide, its nearest neighbour {near:.1f} px away")
        if any(wide / 2 + w / 2 > d + 0.5 for d, w in others):
            problems.append(f"artefact {i}: its target covers a neighbour's")
    return problems


def swipe_scrolls(page: Any, x: float, y: float) -> bool:
    """Whether a finger's swipe up from (x, y) scrolls the page."""
    before = page.evaluate("() => window.scrollY")
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for k in range(1, 11):
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y - 25 * k}]}
        )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_timeout(300)
    return bool(page.evaluate("() => window.scrollY") > before + 50)


def test_the_holy_circle_lets_a_phone_scroll_and_its_artefacts_be_tapped(server: Any, phone: Any) -> None:
    page = phone.new_page()
    created = novice_table(server, page)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_selector("main:not([data-animating=yes])")
    # the novice's turn: each artefact is a finger's target, and only the artefacts keep a touch for dragging
    mine = page.evaluate(TOUCH)
    assert mine["circle"] == "auto", mine
    assert len(mine["hits"]) == 15, mine["hits"]
    problems = finger_targets_problems(mine["hits"])
    assert not problems, problems
    assert any(wide >= FINGER for _, _, wide in mine["hits"]), mine["hits"]
    assert mine["held"] and all(x.startswith("g.token") for x in mine["held"]), mine["held"]
    box = page.locator("#board .holy-circle .area[data-area=R]").bounding_box()
    assert box is not None
    # a swipe from the ring's top (no artefact there) scrolls the page
    top = page.evaluate(
        "() => { const r = document.querySelector('#board .holy-circle').getBoundingClientRect();"
        " return [r.left + r.width / 2, r.top + r.height * 0.06]; }"
    )
    assert swipe_scrolls(page, top[0], top[1]), "a swipe on the circle did not scroll the page"
    shoot(page, "commandments-circle-phone")
    # a spectator (nobody's turn to move on this page): nothing on the circle holds a touch
    watcher = phone.new_page()
    watcher.goto(created["spectator_url"])
    watcher.wait_for_selector("#board .holy-circle .token")
    theirs = watcher.evaluate(TOUCH)
    assert theirs["circle"] == "auto" and not theirs["held"] and not theirs["hits"], theirs
