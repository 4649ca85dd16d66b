"""Amulets bots: legal, hedged casts, casting when certain, tournaments that finish."""

from __future__ import annotations

import random

import pytest

from coven.bots.arena import run_tournament
from coven.games.amulets import GAME, AmuletsState, Ask, Cast
from coven.games.amulets.board import parse_field, placement_at
from coven.games.amulets.bots import (
    AmuletsBot,
    BeginnerBot,
    BestBot,
    CasualBot,
    GreedyBot,
    RandomBot,
    best_cast,
    cast_cover,
)
from coven.games.amulets.view import knowledge_of

from .helpers import play, table


def _pair(text: str) -> int:
    return "RYGBK".index(text[0]) * 25 + parse_field(text[2:])


def _world(text: str) -> tuple[int, ...]:
    return tuple(_pair(t) for t in text.split())


def test_a_cast_hedges_with_the_amulet_nobody_holds() -> None:
    # seat 1 holds Yellow on B2 or Black on E5; whichever it is, the other amulet is nobody's
    worlds = [_world("Y@B2 G@C3 B@D4"), _world("K@E5 G@C3 B@D4")]
    placement, covered = best_cast(worlds, _pair("R@A1"))
    assert covered == 2 == cast_cover(worlds)
    assert GAME.format_action(Cast(placement)) == "cast RA1 YB2 GC3 BD4 KE5"
    for secrets in ("R@A1 Y@B2 G@C3 B@D4", "R@A1 K@E5 G@C3 B@D4"):
        state = table(secrets)
        GAME.apply(state, 0, Cast(placement))
        assert GAME.winners(state) == {0}


def test_a_cast_cannot_hedge_one_amulet_on_two_fields() -> None:
    worlds = [_world("Y@B2 G@C3 B@D4"), _world("Y@E5 G@C3 B@D4"), _world("Y@E5 G@C3 K@D1")]
    placement, covered = best_cast(worlds, _pair("R@A1"))
    assert covered == 2 == cast_cover(worlds)
    assert placement[1] == parse_field("E5")


def _position_where_seat_is_certain(players: int, seed: int) -> tuple[AmuletsState, int]:
    rng = random.Random(seed)
    state = GAME.new_game(players, None, seed)
    while True:
        for seat in range(players):
            if knowledge_of(GAME.view(state, seat)).count() == 1:
                return state, seat
        GAME.apply(state, state.turn, Ask(placement_at(rng.randrange(6_375_600))))


@pytest.mark.parametrize("name", ["random", "greedy", "best", "reference"])
def test_every_bot_casts_when_certain_even_out_of_turn(name: str) -> None:
    state, seat = _position_where_seat_is_certain(4, 3)
    bot = GAME.bots()[name](GAME, seat, 0)
    action = bot.act(GAME.view(state, seat), GAME.legal_actions(state, seat), seat == state.turn)
    assert isinstance(action, Cast)
    GAME.apply(state, seat, action)
    assert GAME.winners(state) == {seat}


@pytest.mark.parametrize("name", ["random", "greedy", "best"])
def test_bots_ask_legal_questions_and_pass_when_they_may(name: str) -> None:
    state = table("R@A1 Y@B2 G@C3 B@D4")
    play(state, 0, "ask RA2 YB3 GC4 BD5 KE1")
    for seat in range(4):
        bot = GAME.bots()[name](GAME, seat, seat)
        legal = GAME.legal_actions(state, seat)
        required = seat == state.turn
        action = bot.act(GAME.view(state, seat), legal, required)
        if required:
            assert isinstance(action, Ask) and action in legal
            assert GAME.illegal_reason(state, seat, action) is None
        else:
            assert action is None  # one question says too little to risk a cast


@pytest.mark.parametrize(
    "kind", [RandomBot, BeginnerBot, CasualBot, GreedyBot, BestBot], ids=lambda kind: kind.__name__
)
def test_a_kept_bot_reasons_from_the_book_it_is_shown_not_an_earlier_one_of_the_same_length(
    kind: type[AmuletsBot],
) -> None:
    # A search's playout policy keeps one bot per seat across its worlds (bots_policy): the same seat,
    # the same own amulet, books of one length that differ. The knowledge was cached by the book's
    # length, so the second book was read as the first (the search's playouts cast on stale worlds).
    first, second = table("R@A1 Y@B2 G@C3"), table("R@A1 Y@B2 G@C3")
    play(first, 0, "ask RA2 YB3 GC4 BD5 KE1")
    play(second, 0, "ask RB2 YA1 GC3 BD4 KE5")
    views = [GAME.view(state, 1) for state in (first, second)]
    counts = [knowledge_of(view).count() for view in views]
    assert counts[0] != counts[1] and len(views[0].book) == len(views[1].book)
    kept = kind(GAME, 1, 0)
    for view, count in zip([*views, views[0]], [*counts, counts[0]], strict=True):
        assert kept.knowledge(view).count() == kind(GAME, 1, 0).knowledge(view).count()
        assert kept.knowledge(view).count() <= count


def test_forced_cast_under_the_question_cap() -> None:
    state = table("R@A1 Y@B2 G@C3", question_cap=1)
    play(state, 0, "ask RA2 YB3 GC4 BD5 KE1")
    bot = GAME.bots()["best"](GAME, 1, 0)
    action = bot.act(GAME.view(state, 1), GAME.legal_actions(state, 1), True)
    assert isinstance(action, Cast)


def test_a_small_tournament_finishes_with_metrics() -> None:
    result = run_tournament(GAME, ["random", "greedy", "best"], 3, 6, seed=1)
    metrics = result.metrics
    assert result.games == 6 and sum(result.wins) <= 6
    assert 1 <= float(metrics["mean_questions"]) <= 60  # type: ignore[arg-type]
    assert 0 < float(metrics["cast_success_rate"]) <= 1  # type: ignore[arg-type]
    assert {"casts_per_game", "no_winner_rate", "out_of_turn_casts"} <= set(metrics)


def test_random_spectator_render_has_the_book() -> None:
    state = table("R@A1 Y@B2 G@C3", assistant=True)
    play(state, 0, "ask RA2 YB3 GC4 BD5 KE1")
    text = GAME.render(GAME.view(state, None))
    assert "ask " in text and "RA2" not in text and "A2 B3 C4 D5 E1" in text
    assert "wizard 0" in text  # a spectator's assistant covers every wizard
