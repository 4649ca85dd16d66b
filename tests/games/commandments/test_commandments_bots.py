"""Bots: they play legal, deterministic games from their views; the best novice reads the markers."""

from __future__ import annotations

import dataclasses
import random
import time
from typing import Any

import pytest

from coven.bots.arena import make_bot, play_game
from coven.bots.search import SearchBot
from coven.games.commandments import GAME, worlds
from coven.games.commandments.bots import BestBot, GreedyBot, _miss_rate, _perf_totals, imitate
from coven.games.commandments.cards import deck_for
from coven.games.commandments.inference import ritual_posterior
from coven.games.commandments.notation import MOVE_FAMILY, Move, Ordain, Perf, Place
from coven.games.commandments.rules import CommandmentsState, karma_total, move_context

from .helpers import play, table


def _bots(names: list[str]) -> list[object]:
    factories = GAME.bots()
    return [factories[n](GAME, seat, 100 + seat) for seat, n in enumerate(names)]


def test_every_bot_finishes_games_at_every_table_size() -> None:
    for players, names in (
        (3, ["best", "greedy", "random"]),
        (5, ["greedy", "random", "best", "greedy", "random"]),
    ):
        result = play_game(GAME, _bots(names), players, {}, seed=players)  # type: ignore[arg-type]
        assert GAME.is_over(result.state)
        assert len(result.state.rituals) == players


def test_bots_play_the_expert_and_human_judge_variants() -> None:
    for options in ({"expert": True}, {"judge": "priestess"}):
        result = play_game(GAME, _bots(["best", "greedy", "greedy"]), 3, options, seed=4)  # type: ignore[arg-type]
        assert GAME.is_over(result.state)


def test_bots_are_deterministic_given_their_seed() -> None:
    a = play_game(GAME, _bots(["best", "greedy", "greedy", "random"]), 4, {}, seed=9)  # type: ignore[arg-type]
    b = play_game(GAME, _bots(["best", "greedy", "greedy", "random"]), 4, {}, seed=9)  # type: ignore[arg-type]
    assert a.moves == b.moves and a.scores == b.scores


def test_greedy_imitates_the_best_paid_move() -> None:
    state = table(4, ["A21", "A13", "P03", "P05"])
    play(state, 0, "ordain discard=A13 taboo=P05")
    play(state, 0, "place wh=C,C,C,C,C bk=R,R,R,R,R br=T1,T2,T3,T4,T5")
    play(state, 1, "wh1>C +dance")  # put back and dance: 6
    move = imitate(GAME.view(state, 2), random.Random(1))
    assert move is not None and move.to == 0 and move.gestures == ("dance",) and move.artefact < 5
    chosen = GreedyBot(GAME, 2, 1).act(GAME.view(state, 2), GAME.legal_actions(state, 2), True)
    assert isinstance(chosen, Move) and chosen.gestures == ("dance",)


def test_the_best_novice_narrows_the_cards_from_the_markers_and_exploits_them() -> None:
    state = table(4, ["A01", "A02", "P02", "P03"])
    play(state, 0, "ordain discard=P02 taboo=A01")
    play(state, 0, "place wh=R,R,R,R,R bk=T1,T1,H2,H2,H2 br=T1,T1,H3,H3,H3")
    play(state, 1, 'bk1>C +stand +smile "hello little one"')  # 3 karma, marks 0 1 0
    play(state, 2, "wh1>C +dance")  # dance marked, white taboo marked
    deck = deck_for("")
    view = GAME.view(state, 3)
    post = ritual_posterior(view, deck)
    hyps = post.hypotheses(random.Random(1), 10**6)
    assert len(hyps) == post.total < 2000
    ids = {deck.cards[c].id for h in hyps for c in h}
    assert all(deck.cards[h[0]].id != "A02" for h in hyps) and "A02" in ids
    move = BestBot(GAME, 3, 5).act(view, GAME.legal_actions(state, 3), True)
    assert isinstance(move, Move)
    events = play(state, 3, GAME.format_action(move))
    assert next(e for e in events if e.kind == "karma").data["total"] > 0  # type: ignore[operator]


def test_the_best_priestess_ordains_and_places_from_her_view() -> None:
    state = GAME.new_game(4, {}, 3)
    bot = BestBot(GAME, 0, 1)
    ordain = bot.act(GAME.view(state, 0), GAME.legal_actions(state, 0), True)
    assert isinstance(ordain, Ordain)
    GAME.apply(state, 0, ordain)
    place = bot.act(GAME.view(state, 0), GAME.legal_actions(state, 0), True)
    assert isinstance(place, Place) and len(place.areas) == 15
    GAME.apply(state, 0, place)


def test_the_best_novice_disempowers_a_priestess_whose_last_destiny_card_is_left() -> None:
    state = table(4, ["A13", "A21", "P03", "P05"])
    play(state, 0, "ordain discard=P05 taboo=P03")  # taboo: dance; centre 3, put back 4
    play(state, 0, "place wh=R,R,R,R,R bk=T1,T1,H2,H2,H2 br=T1,T1,H3,H3,H3")
    for seat, text in ((1, "wh1>H1"), (2, "bk1>H4"), (3, "br1>H5")):  # three moves earn nothing
        play(state, seat, text)
    assert state.flips == 3
    move = BestBot(GAME, 1, 5).act(GAME.view(state, 1), GAME.legal_actions(state, 1), True)
    assert isinstance(move, Move)
    events = play(state, 1, GAME.format_action(move))
    assert any(e.kind == "disempowered" for e in events)  # every novice gets 20, more than a move


def test_the_priestess_counts_the_random_moves_that_miss_exactly() -> None:
    deck = deck_for("")
    slots = [deck.cards[deck.index[c]] for c in ("P03", "A13", "A02")]
    placement = (0, 0, 11, 11, 6, 1, 1, 2, 2, 7, 11, 11, 3, 4, 5)
    verdicts: dict[tuple[int, Perf], int] = {}
    pairs = [(a, to) for a in range(15) for to in range(12)]
    got = _miss_rate(slots, placement, pairs, _perf_totals(slots, verdicts))
    misses = sum(
        1 for m in MOVE_FAMILY if karma_total([c.judge(move_context(list(placement), m)) for c in slots]) <= 0
    )
    assert got == misses / len(MOVE_FAMILY)
    assert 0 < got < 1


EVERY_OPTION = {"expert": True, "judge": "priestess", "reveal": "never"}
"""The options that hide the most: no markers, her verdicts by hand, no card ever revealed."""


def _last_ritual_novice(options: dict[str, object], players: int, seed: int) -> tuple[CommandmentsState, int]:
    """A position of a game between ``greedy`` bots: the last ritual, six moves made, a novice to move."""
    bots = [make_bot(GAME, "greedy", s, 30 + s) for s in range(players)]
    result = play_game(GAME, bots, players, options, seed)
    state = GAME.new_game(players, options, seed)
    for seat, action in result.moves:
        view = GAME.view(state, seat)
        ritual = view.rituals[-1]
        if len(view.rituals) == players and view.phase == "move" and len(ritual.moves) >= 6:
            return state, seat
        GAME.apply(state, seat, action)  # type: ignore[arg-type]
    raise AssertionError("the game never reached its last ritual's seventh move")


def test_a_search_decision_works_out_the_hidden_cards_once_and_keeps_its_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With ``reveal=never`` every earlier ritual stays hidden: their posteriors (a function of the
    view; with a human judge in the expert variant, the costly join) are worked out once a decision,
    not once for each of the search's worlds (40 a decision: 120 posteriors here before, and about
    20 times the CPU)."""
    state, seat = _last_ritual_novice(EVERY_OPTION, 4, 7)
    view = GAME.view(state, seat)
    hidden = [rv for rv in view.rituals if not rv.hand and any(not s.card for s in rv.slots)]
    assert len(hidden) == 3
    worked_out: list[int] = []
    posterior = worlds.ritual_posterior

    def counted(*args: Any, **kwargs: Any) -> Any:
        worked_out.append(1)
        return posterior(*args, **kwargs)

    monkeypatch.setattr(worlds, "ritual_posterior", counted)
    bot = make_bot(GAME, "search", seat, 3)
    assert isinstance(bot, SearchBot)
    started = time.process_time()
    action = bot.act(view, GAME.legal_actions(state, seat), True)
    cpu = time.process_time() - started
    assert len(worked_out) == len(hidden)
    assert bot.iterations_done == bot.plan.iterations == 40
    assert isinstance(action, Move) and GAME.illegal_reason(state, seat, action) is None
    assert cpu < 10.0  # generous: about 0.05 s of CPU (about 1 s with a posterior per world)


def test_the_search_plays_legal_games_with_every_option() -> None:
    for players, seed in ((4, 2),):
        bots: list[Any] = [make_bot(GAME, "greedy", s, 60 + s) for s in range(players)]
        search = make_bot(GAME, "search", 1, 61)
        assert isinstance(search, SearchBot)
        search.plan = dataclasses.replace(search.plan, iterations=4)
        bots[1] = search
        result = play_game(GAME, bots, players, EVERY_OPTION, seed)  # checked: an illegal answer raises
        assert GAME.is_over(result.state)
        assert any(s == 1 and isinstance(a, Move) for s, a in result.moves)
