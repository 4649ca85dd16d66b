"""Engine invariants on random play: the fast path agrees with the slow one, positions round-trip, the
variants keep every promise of the conformance suite, and sampled worlds respect what play revealed."""

from __future__ import annotations

import math
import random

import pytest

from coven.games.brujas import GAME, BrujasState
from coven.games.brujas.cards import COLOUR40, KINDS, LOW, NAME, count, from_kinds
from coven.games.brujas.notation import Action, parse_position
from coven.games.brujas.state import (
    PLAY,
    SCORE_VALUES,
    WITCH,
    trick_status,
    trick_winner,
    witch_colours,
    witch_scores,
)
from coven.games.brujas.worlds import Sampler, voids_of
from coven.testing.conformance import check_game


def random_states(players: int, seed: int, options: dict[str, object] | None = None) -> list[BrujasState]:
    """Every state of one random game (clones)."""
    rng = random.Random(seed)
    state = GAME.new_game(players, options, seed)
    out = [GAME.clone(state)]
    while GAME.to_act(state):
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        GAME.apply(state, seat, legal[rng.randrange(len(legal))])
        out.append(GAME.clone(state))
    return out


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("options", [{}, {"silent": True}, {"conflict": True}])
def test_conformance_with_variants(players: int, options: dict[str, object]) -> None:
    report = check_game(GAME, players, 11, options)
    assert (
        report.decisions == GAME.bounds(players, GAME.options(GAME.new_game(players, options))).max_decisions
    )
    assert report.hidden_varied


def test_every_decision_counts_and_forced_steps_are_actions() -> None:
    # 4 players, 10 tricks: 4 plays + 1 witch move + 4 picks each.
    states = random_states(4, 3)
    assert len(states) == 91
    assert sum(1 for s in states if s.phase == WITCH) == 10


@pytest.mark.parametrize("seed", range(4))
def test_incremental_winner_matches_the_rule(seed: int) -> None:
    for players in (3, 4, 5):
        for state in random_states(players, seed):
            if state.phase == WITCH:
                assert state.win_index == trick_winner(state.trick, state.lead, state.rank)
            if state.trick and state.phase == PLAY:
                lead, follow, best, _ = trick_status(state.trick, state.rank)
                assert (lead, follow, best) == (state.lead, state.follow, state.win_index)


@pytest.mark.parametrize("options", [{}, {"silent": True}, {"conflict": True, "silent": True}])
def test_positions_round_trip_and_play_on_identically(options: dict[str, object]) -> None:
    for players in (3, 4, 5):
        states = random_states(players, 5, options)
        for i, state in enumerate(states):
            text = GAME.write_position(state)
            again = GAME.read_position(text)
            assert GAME.write_position(again) == text
            # The options and the past tricks travel in the text: every view is the same, perfect recall
            # included.
            for seat in [*range(players), None]:
                assert GAME.view(state, seat) == GAME.view(again, seat)
            for seat in range(players):
                assert GAME.legal_actions(state, seat) == GAME.legal_actions(again, seat)
            if i + 1 < len(states):  # and it plays on to the same next position as the game did
                (seat,) = GAME.to_act(again)
                nxt = GAME.write_position(states[i + 1])
                legal = GAME.legal_actions(again, seat)
                assert any(GAME.write_position(_after(again, seat, a)) == nxt for a in legal)


def _after(state: BrujasState, seat: int, action: Action) -> BrujasState:
    copy = GAME.clone(state)
    GAME.apply(copy, seat, action)
    return copy


def test_positions_carry_the_variants_and_the_past() -> None:
    state = GAME.new_game(4, {"silent": True}, 3)
    assert GAME.write_position(state).endswith(" silent")
    while not state.history:
        (seat,) = GAME.to_act(state)
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    leader, cards, winner, move, picks = state.history[0]
    text = GAME.write_position(state)
    past = f"past={leader}/{''.join(NAME[k] for k in cards)}/{winner}/{('up', 'down')[move]}/"
    assert text.endswith(" silent " + past + "".join(NAME[k] for k in picks))
    assert GAME.view(GAME.read_position(text), 0).past == GAME.view(state, 0).past
    assert GAME.options(GAME.read_position(text)) == {"conflict": False, "silent": True}


def test_the_card_set_aside_is_seen_by_nobody() -> None:
    state = GAME.new_game(3, None, 2)
    aside = state.aside
    seen = [c for seat in range(3) for c in GAME.view(state, seat).hand]
    assert len(seen) == 39
    assert 0 <= aside < KINDS
    assert seen.count(NAME[aside]) == 1  # its twin is in some hand; the card itself in none


@pytest.mark.parametrize("options", [{}, {"silent": True}])
def test_sampled_worlds_respect_revealed_voids(options: dict[str, object]) -> None:
    rng = random.Random(9)
    for players in (3, 4):
        for state in random_states(players, 21, options)[::3]:
            # The voids the true play revealed (from the true history and trick).
            voids = [0] * players
            for leader, cards, *_ in state.history:
                voids_of(players, leader, list(cards), voids)
            if state.trick:
                voids_of(players, state.leader, list(state.trick), voids)
            for me in range(players):
                view = GAME.view(state, me)
                for _ in range(3):
                    world = GAME.world_from_view(view, rng)
                    assert GAME.view(world, me) == view
                    for other in range(players):
                        if other != me:
                            assert world.hands[other] & LOW & voids[other] == 0
                    total = sum(count(h, k) for h in (*world.hands, *world.piles) for k in range(KINDS))
                    in_trick = len(world.trick) - (len(world.picks) if world.phase == 2 else 0)
                    assert total + in_trick + (world.aside >= 0) == 40


def test_true_voids_of_a_hidden_face_down_card_constrain_it() -> None:
    # Seat 1 could not match Green 3 and played face down: in every world its card is neither green nor a 3.
    state = parse_position("RBYG R1/B1B4/R2R4/Y1Y2 -/-/-/- 0 G3 play", {"silent": True})
    GAME.apply(state, 1, GAME.parse_action("B4"))
    view = GAME.view(state, 0)
    assert view.trick == ("G3", "?")
    rng = random.Random(1)
    for _ in range(30):
        world = GAME.world_from_view(view, rng)
        hidden = world.trick[1]
        assert hidden // 5 != 3 and hidden % 5 != 2


def test_the_exact_deal_holds_under_tight_voids() -> None:
    # A hand-made position (no history): 38 unseen physical cards, four hands of two, the rest out.
    state = parse_position("RBYG R1R2/B1B2/Y1Y2/G1G2 -/-/-/- 0 - play")
    view = GAME.view(state, 0)
    sampler = Sampler(view)
    dealt = sampler.deal(random.Random(3))
    assert sorted(k for cards in dealt.values() for k in cards) == sorted(sampler.unseen)
    assert sampler.total == 1  # no voids: one group, so one way to fill it; the split is a shuffle


def test_views_show_every_piles_current_score() -> None:
    from coven.games.brujas import GAME as G

    state = G.new_game(4, None, 8)
    assert G.view(state, 0).scores == (0.0,) * 4  # nothing collected yet
    while not G.is_over(state) and not any(G.view(state, None).piles):
        seat = min(G.to_act(state))
        G.apply(state, seat, G.legal_actions(state, seat)[0])
    for seat in (0, 1, None):
        assert G.view(state, seat).scores == G.scores(state)
    assert any(G.scores(state))


def test_deals_from_the_chance_are_even() -> None:
    """Over many seeds each seat gets each card, leads first and sees each witch column about equally
    often (within six standard deviations: a biased decoding of the deal's random integer would not)."""
    games = 2400
    cards = [[0] * KINDS for _ in range(4)]
    leaders = [0] * 4
    columns: dict[tuple[int, ...], int] = {}
    for seed in range(games):
        state = GAME.new_game(4, None, seed)
        for seat in range(4):
            for k in range(KINDS):
                cards[seat][k] += count(state.hands[seat], k)
        leaders[state.leader] += 1
        columns[tuple(state.witches)] = columns.get(tuple(state.witches), 0) + 1

    def near(seen: int, trials: int, p: float) -> bool:
        return abs(seen - trials * p) <= 6 * math.sqrt(trials * p * (1 - p))

    assert all(near(cards[seat][k], 2 * games, 1 / 4) for seat in range(4) for k in range(KINDS))
    assert all(near(n, games, 1 / 4) for n in leaders)
    assert len(columns) == 24
    assert all(near(n, games, 1 / 24) for n in columns.values())


def test_witch_colours_and_scores_follow_their_definition() -> None:
    """The unrolled scoring against the rule read plainly: the colour collected most, ties to the higher
    witch; in Devils in Conflict a colour another seat also scores counts half, rounded up."""
    rng = random.Random(5)
    for _ in range(3000):
        piles = [from_kinds(rng.sample([k for k in range(KINDS) for _ in range(2)], 9)) for _ in range(4)]
        rank = rng.sample(range(4), 4)
        expected = [max(range(4), key=lambda c: ((p & COLOUR40[c]).bit_count(), -rank[c])) for p in piles]
        assert witch_colours(piles, rank) == expected
        values = SCORE_VALUES["conflict"]
        halved = [(values[rank[c]] + 1) // 2 if expected.count(c) > 1 else values[rank[c]] for c in expected]
        assert witch_scores(piles, rank, values, True) == halved
        assert witch_scores(piles, rank, values, False) == [values[rank[c]] for c in expected]
