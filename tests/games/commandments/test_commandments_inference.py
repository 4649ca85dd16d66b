"""Exact inference: the posterior holds exactly the hypotheses consistent with what a seat saw, and
every sampled world reproduces every announced total and marker the seat saw."""

from __future__ import annotations

import random
from itertools import permutations, product
from typing import Any

import pytest

from coven.bots.arena import play_game
from coven.games.commandments import GAME
from coven.games.commandments.cards import ARTEFACT, deck_for
from coven.games.commandments.inference import consistent, judged_moves, ritual_posterior, seen_cards
from coven.games.commandments.rules import (
    CommandmentsState,
    announce,
    judge_cards,
    karma_total,
)

from .helpers import play, table


def _replayed_marks_and_totals(state: CommandmentsState, ritual: int) -> list[tuple[tuple[int, ...], int]]:
    """Judge the ritual's moves again with the world's own slot cards, as the engine does."""
    r = state.rituals[ritual]
    cards = [state.deck.cards[c] for c in r.slots]
    out = []
    for _, ctx in judged_moves(r.placement, r.moves):
        values = judge_cards(cards, ctx)
        out.append((tuple(1 if v > 0 else 0 for v in values), announce(karma_total(values))))
    return out


def _states(players: int, options: dict[str, Any], seed: int, every: int) -> list[CommandmentsState]:
    """Positions along a game between bots: after every ``every`` actions."""
    factories = GAME.bots()
    bots = [factories["greedy" if s % 2 else "random"](GAME, s, 50 + s) for s in range(players)]
    result = play_game(GAME, bots, players, options, seed)
    state = GAME.new_game(players, options, seed)
    out = []
    for k, (seat, action) in enumerate(result.moves):
        GAME.apply(state, seat, action)  # type: ignore[arg-type]
        if k % every == every - 1:
            out.append(GAME.clone(state))
    return out


@pytest.mark.parametrize(
    "options",
    [{}, {"expert": True}, {"reveal": "never"}, {"expert": True, "reveal": "never"}],
    ids=["standard", "expert", "never", "expert-never"],
)
def test_every_sampled_world_reproduces_every_total_and_marker_the_seat_saw(options: dict[str, Any]) -> None:
    checked = 0
    for state in _states(4, options, seed=3, every=5):
        for seat in range(4):
            view = GAME.view(state, seat)
            for k in range(3):
                world = GAME.world_from_view(view, random.Random(k))
                assert GAME.view(world, seat) == view
                ids = [c.id for c in world.deck.cards]
                used = [c for r in world.rituals for c in r.hand]
                assert len(set(used)) == len(used)  # no card in two hands
                for number, rv in enumerate(view.rituals):
                    if not world.rituals[number].slots:
                        continue
                    seen = [(m.marks, m.total) for m in rv.moves if m.move is not None]
                    again = _replayed_marks_and_totals(world, number)
                    assert [t for _, t in again] == [t for _, t in seen], (ids, number)
                    for (marks, _), (shown, _) in zip(again, seen, strict=True):
                        assert not shown or marks == shown
                    checked += 1
    assert checked > 100


def test_a_human_judges_worlds_agree_with_her_visible_and_hidden_verdicts() -> None:
    for options in ({"judge": "priestess"}, {"judge": "priestess", "expert": True}):
        for state in _states(3, options, seed=5, every=4):
            for seat in range(3):
                view = GAME.view(state, seat)
                world = GAME.world_from_view(view, random.Random(seat))
                assert GAME.view(world, seat) == view
                for number, rv in enumerate(view.rituals):
                    if world.rituals[number].slots:
                        assert consistent(world.rituals[number].slots, world.deck, rv, True)


def test_the_posterior_is_exactly_the_consistent_hypotheses() -> None:
    """Against brute force: every ordered triple of unseen cards of the slots' types, judged."""
    state = table(4, ["A01", "A02", "P02", "P03"], {"expert": True})
    play(state, 0, "ordain discard=P02 taboo=A01")
    play(state, 0, "place wh=R,R,R,R,R bk=T1,T1,H2,H2,H2 br=T1,T1,H3,H3,H3")
    play(state, 1, 'bk1>C +stand +smile "hello little one"')
    play(state, 2, "wh1>C +dance")
    play(state, 3, "br1>T2")
    view = GAME.view(state, 1)
    deck = deck_for("")
    post = ritual_posterior(view, deck)
    seen = seen_cards(view, deck)
    rv = view.rituals[-1]
    arts = [c for c in deck.artefact if c not in seen]
    acts = [c for c in deck.action if c not in seen]
    brute = set()
    for a0, a1 in permutations(arts, 2):
        for p in acts:
            if consistent((a0, a1, p), deck, rv, False):
                brute.add((a0, a1, p))
    assert [s.type for s in rv.slots] == [ARTEFACT, ARTEFACT, "action"]
    assert post.total == len(brute) > 0
    assert set(post.hypotheses(random.Random(0), len(brute))) == brute
    truth = tuple(state.ritual.slots)
    assert truth in brute
    assert abs(sum(post.marginals[0].values()) - 1.0) < 1e-9
    drawn = post.sample(random.Random(4))
    assert drawn in brute


def test_a_hidden_human_judges_posterior_is_exactly_the_consistent_hypotheses() -> None:
    """Her yes and no are hidden: a total only has to be reachable by some verdict on each of her
    action cards (the join over each move's possible values), against brute force."""
    state = table(4, ["A01", "A02", "P23", "P03"], {"expert": True, "judge": "priestess"})
    play(state, 0, "ordain discard=A02 taboo=A01")  # taboo: white; do: areas carried over, dance
    play(state, 0, "place wh=R,R,R,R,R bk=T1,T1,H2,H2,H2 br=T1,T1,H3,H3,H3")
    for seat, move, verdict in (
        (1, "bk1>H1>H2>C +dance", "yes,yes"),
        (2, "bk2>C +dance", "yes,no"),
        (3, "wh1>T2 +stand", "no,no"),
        (1, "br3>C +bow", "no,yes"),
    ):
        play(state, seat, move)
        play(state, 0, f"judge {verdict}")
    view = GAME.view(state, 2)
    deck = deck_for("")
    post = ritual_posterior(view, deck)
    seen = seen_cards(view, deck)
    rv = view.rituals[-1]
    pools = {
        kind: [c for c in (deck.artefact if kind == ARTEFACT else deck.action) if c not in seen]
        for kind in (ARTEFACT, "action")
    }
    every = [h for h in product(*(pools[s.type] for s in rv.slots)) if len(set(h)) == 3]
    brute = {h for h in every if consistent(h, deck, rv, True)}
    assert len(brute) < len(every) / 4  # the totals tell much, though her verdicts are hidden
    assert post.total == len(brute) > 0
    assert set(post.hypotheses(random.Random(0), len(brute))) == brute
    assert tuple(state.ritual.slots) in brute
