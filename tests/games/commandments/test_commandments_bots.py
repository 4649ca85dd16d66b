"""Bots: they play legal, deterministic games from their views; the best novice reads the markers."""

from __future__ import annotations

import random

from coven.bots.arena import play_game
from coven.games.commandments import GAME
from coven.games.commandments.bots import BestBot, GreedyBot, _miss_rate, _perf_totals, imitate
from coven.games.commandments.cards import deck_for
from coven.games.commandments.inference import ritual_posterior
from coven.games.commandments.notation import MOVE_FAMILY, Move, Ordain, Perf, Place
from coven.games.commandments.rules import karma_total, move_context

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
