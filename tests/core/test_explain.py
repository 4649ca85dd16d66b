"""Explained results: for every game, over seeds and player counts, played to the end by bots, every
seat's lines add up to the engine's score, from every seat's final view and the spectator's, and the
steps they cite are moments that seat saw."""

from __future__ import annotations

import json
import pickle
import re
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any

import pytest

from coven.core import Driver, Event, Game, Seat
from coven.core.explain import CORE, Explanation, Message, Moment, Texts, fill, seat_list, translate
from coven.core.lang import EXPLANATIONS_FR, explanation_catalogue
from coven.games import REGISTRY
from coven.games.amulets.explain import TEXTS as AMULETS
from coven.games.brujas.explain import TEXTS as BRUJAS
from coven.games.commandments.explain import TEXTS as COMMANDMENTS
from coven.games.namaste.explain import TEXTS as NAMASTE

AnyGame = Game[Any, Any, Any]

OPTIONS: dict[str, list[dict[str, Any]]] = {
    "brujas": [{}, {"conflict": True}, {"conflict": True, "silent": True}],
    "namaste": [{}],
    "commandments": [{}, {"reveal": "never", "expert": True}, {"judge": "priestess"}],
    "amulets": [{}, {"question_cap": 6}],
}
BOTS = {"brujas": "random", "namaste": "random", "commandments": "random", "amulets": "greedy"}


class Moments:
    """The observer of one seat: the events it saw, numbered by the step that made them."""

    def __init__(self, driver_moves: list[tuple[Seat, Hashable]]) -> None:
        self.moves = driver_moves
        self.seen: list[Moment] = []

    def observe(self, view: Any, events: Sequence[Event], action: Hashable | None) -> None:
        self.seen.extend((len(self.moves), e) for e in events)


def play(
    game: AnyGame, players: int, options: dict[str, Any], seed: int
) -> tuple[Driver, dict[Seat | None, Moments]]:
    state = game.new_game(players, options, seed)
    factory = game.bots()[BOTS[game.spec.id]]
    actors = {s: factory(game, s, seed * 10 + s) for s in range(players)}
    driver = Driver(game, state, actors)
    watchers: dict[Seat | None, Moments] = {w: Moments(driver.moves) for w in [None, *range(players)]}
    driver.observers = dict(watchers)
    driver.run()
    return driver, watchers


def cases() -> list[tuple[str, int, int, dict[str, Any]]]:
    out = []
    for game_id, variants in OPTIONS.items():
        game: AnyGame = REGISTRY.get(game_id)
        for players in game.spec.player_counts:
            for seed in range(3):
                out.append((game_id, players, seed, variants[seed % len(variants)]))
    return out


def _points(ex: Explanation) -> list[list[float]]:
    return [[ln.points for ln in s.lines] for s in ex.seats]


@pytest.mark.parametrize(("game_id", "players", "seed", "options"), cases())
def test_lines_add_up_to_the_scores(game_id: str, players: int, seed: int, options: dict[str, Any]) -> None:
    game: AnyGame = REGISTRY.get(game_id)
    driver, watchers = play(game, players, options, seed)
    state = driver.state
    scores = list(game.scores(state))
    winners = sorted(game.winners(state))
    steps = len(driver.moves)
    for viewer, seen in watchers.items():
        view = game.view(state, viewer)
        # the view alone, through its JSON form: nothing but what the seat may know goes in
        view = game.view_from_json(json.loads(json.dumps(game.view_to_json(view))))
        ex = game.explain(view, seen.seen)
        assert ex is not None
        assert ex.viewer == viewer and ex.game == game_id
        assert [s.seat for s in ex.seats] == list(range(players))
        assert [sum(ln.points for ln in s.lines) for s in ex.seats] == scores
        assert [s.score for s in ex.seats] == scores
        assert sorted(ex.winners) == winners
        assert ex.summary
        json.dumps(ex.to_json())
        # moments say when, never how much
        assert _points(game.explain(view)) == _points(ex)  # type: ignore[arg-type]
        saw = {step for step, _ in seen.seen}
        for s in ex.seats:
            for line in s.lines:
                assert all(1 <= st <= steps and st in saw for st in line.steps), (line, steps)
                assert fill(line.label, lambda k: f"<{k}>").count("{s") == 0


@pytest.mark.parametrize("game_id", sorted(OPTIONS))
def test_cited_steps_are_the_seats_own_moments(game_id: str) -> None:
    """Each line that earned points cites steps whose events concern that seat (or its ritual)."""
    game: AnyGame = REGISTRY.get(game_id)
    players = game.spec.min_players
    driver, watchers = play(game, players, OPTIONS[game_id][0], 1)
    events_at: dict[int, list[Event]] = {}
    for step, event in watchers[None].seen:
        events_at.setdefault(step, []).append(event)
    ex = game.explain(game.view(driver.state, None), watchers[None].seen)
    assert ex is not None
    cited = 0
    for s in ex.seats:
        for line in s.lines:
            if line.points <= 0:
                continue
            for step in line.steps:
                cited += 1
                kinds = {e.kind for e in events_at[step]}
                seats = {e.data.get("seat") for e in events_at[step]} | {
                    e.data.get("priestess") for e in events_at[step]
                }
                entries = [e.data.get("entries") for e in events_at[step] if e.kind == "entries"]
                by_seat = any(isinstance(x, dict) and str(s.seat) in x for x in entries)
                assert s.seat in seats or by_seat or "disempowered" in kinds or "witch" in kinds, (
                    line,
                    events_at[step],
                )
    assert cited > 0


def test_brujas_witch_and_devil_lines_on_a_known_game() -> None:
    game: AnyGame = REGISTRY.get("brujas")
    driver, _ = play(game, 4, {"conflict": True}, 4)
    ex = game.explain(game.view(driver.state, 0))
    assert ex is not None
    for s in ex.seats:
        witch = [ln for ln in s.lines if ln.label.startswith("Witch score")]
        assert len(witch) == 1 and witch[0].points in {8, 5, 3, 1}
        devils = [ln for ln in s.lines if ln.label.startswith("Devil score")]
        assert all(ln.points == 2 for ln in devils)
        halved = [ln for ln in s.lines if ln.label.startswith("Devils in Conflict")]
        assert all(ln.points < 0 for ln in halved)


def test_amulets_winner_cast_is_the_point() -> None:
    game: AnyGame = REGISTRY.get("amulets")
    won_games = 0
    for seed in range(6):
        driver, _ = play(game, 3, {}, seed)
        ex = game.explain(game.view(driver.state, None))
        assert ex is not None
        for s in ex.seats:
            won = [ln for ln in s.lines if ln.points == 1]
            assert len(won) == (1 if s.seat in ex.winners else 0)
            if won:
                assert won[0].steps == (len(driver.moves),)
                won_games += 1
    assert won_games > 0


# ------------------------------------------------------------------ texts in every language
WEB_I18N = Path(__file__).resolve().parents[2] / "src" / "coven" / "web" / "i18n"


def web_catalogue(lang: str) -> dict[str, str]:
    data = json.loads((WEB_I18N / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def texts_of(ex: Explanation) -> list[str]:
    """Every text of an explanation: the summary, the table's notes, each seat's lines and notes."""
    out: list[str] = [ex.summary, *ex.notes]
    for s in ex.seats:
        out.extend(ln.message for ln in s.lines)
        out.extend(s.notes)
    return out


def keys_of(text: str) -> set[str]:
    """The message keys of a text and of every message nested in its parameters."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, Message):
            found.add(value.key)
            for v in value.params.values():
                walk(v)
        elif isinstance(value, tuple):
            for v in value:
                walk(v)

    walk(text)
    return found


GAME_TEXTS = {"amulets": AMULETS, "brujas": BRUJAS, "commandments": COMMANDMENTS, "namaste": NAMASTE}


def test_the_templates_are_the_same_in_python_and_in_the_catalogues() -> None:
    en, fr = web_catalogue("en"), web_catalogue("fr")
    english: dict[str, str] = {}
    for texts in GAME_TEXTS.values():
        english.update(texts.templates)
    assert len(english) > 80
    for key, text in english.items():
        assert en.get(key) == text, key
        assert fr.get(key) == EXPLANATIONS_FR[key], key
    assert set(EXPLANATIONS_FR) == set(english)
    # no explanation text in the catalogues that the engine does not send
    assert {k for k in en if k.startswith("why.")} == {k for k in fr if k.startswith("why.")} == set(english)
    assert explanation_catalogue("fr") is EXPLANATIONS_FR and explanation_catalogue("en") == {}


@pytest.mark.parametrize(("game_id", "players", "seed", "options"), cases())
def test_every_text_has_a_key_and_reads_in_french(
    game_id: str, players: int, seed: int, options: dict[str, Any]
) -> None:
    game: AnyGame = REGISTRY.get(game_id)
    driver, watchers = play(game, players, options, seed)
    en, fr = web_catalogue("en"), web_catalogue("fr")
    for viewer, seen in watchers.items():
        ex = game.explain(game.view(driver.state, viewer), seen.seen)
        assert ex is not None
        for text in texts_of(ex):
            assert isinstance(text, Message) and text.key, text
            known = GAME_TEXTS[game_id].templates
            assert all(k in known or f"{k}.other" in known for k in keys_of(text)), text
            # the browser's English catalogue gives the same text as the engine
            assert translate(text, en, "en") == text
            french = translate(text, fr, "fr")
            assert french == translate(text, EXPLANATIONS_FR, "fr")
            assert french != str(text), text
            # seat references survive, nothing else is left unfilled
            assert re.findall(r"\{s\d+\}", french) == re.findall(r"\{s\d+\}", str(text))
            assert not re.search(r"\{(?!s\d+\})", french), french
            named = fill(french, lambda k: f"Joueuse{k}")
            assert "{" not in named
        data: Any = json.loads(json.dumps(ex.to_json()))
        assert isinstance(ex.summary, Message)
        assert data["summary"] == ex.summary and data["summary_key"] == ex.summary.key
        assert [n["key"] for n in data["note_keys"]] == [n.key for n in ex.notes if isinstance(n, Message)]


def test_a_french_brujas_explanation_reads_as_french() -> None:
    game: AnyGame = REGISTRY.get("brujas")
    driver, _ = play(game, 4, {"conflict": True}, 4)
    ex = game.explain(game.view(driver.state, 0))
    assert ex is not None
    for s in ex.seats:
        witch = [
            translate(ln.message, EXPLANATIONS_FR, "fr") for ln in s.lines if ln.key == "why.brujas.witch"
        ]
        assert len(witch) == 1
        assert witch[0].startswith("Score de sorcière : le plus de cartes en ")
        assert re.search(
            r"la sorcière (rouge|bleue|jaune|verte) est (en haut|deuxième|troisième|en bas)", witch[0]
        )
    summary = translate(ex.summary, EXPLANATIONS_FR, "fr")
    assert " : victoire" in summary and "wins" not in summary


def test_plural_forms_and_unknown_keys() -> None:
    texts = CORE | Texts(
        {"t.q.one": "{n} question", "t.q.other": "{n} questions", "t.say": "{who} asked {q}"}
    )
    for n, en_text, fr_text in (
        (0, "0 questions", "0 question"),
        (1, "1 question", "1 question"),
        (2, "2 questions", "2 questions"),
        (1.5, "1.5 questions", "1.5 question"),
    ):
        msg = texts("t.say", who="{s1}", q=texts("t.q", n=n))
        assert msg == f"{{s1}} asked {en_text}"
        french = {"t.say": "{who} a posé {q}", "t.q.one": "{n} question", "t.q.other": "{n} questions"}
        assert translate(msg, french, "fr") == f"{{s1}} a posé {fr_text}"
    msg = texts("t.say", who=seat_list([0, 2, 3]), q=texts("t.q", n=2))
    assert msg == "{s0}, {s2} and {s3} asked 2 questions"
    french = {"t.say": "{who} a posé {q}", "why.and": "{first} et {last}", "t.q.other": "{n} questions"}
    assert translate(msg, french, "fr") == "{s0}, {s2} et {s3} a posé 2 questions"
    # a key (or a nested key) the catalogue lacks: the English text, whole
    assert translate(msg, {"t.say": "{who} a posé {q}"}, "fr") == str(msg)
    assert translate(msg, {}, "fr") == str(msg)
    assert translate("plain English", EXPLANATIONS_FR, "fr") == "plain English"
    # a text in each language picks the language's, else English
    card = texts("t.say", who="{s0}", q={"en": "a feather", "fr": "une plume"})
    assert card == "{s0} asked a feather"
    assert translate(card, {"t.say": "{who} a demandé {q}"}, "fr") == "{s0} a demandé une plume"
    assert translate(card, {"t.say": "{who} asked for {q}"}, "de") == "{s0} asked for a feather"
    with pytest.raises(KeyError):
        texts("no.such.key")
    assert pickle.loads(pickle.dumps(msg)).key == "t.say"
