"""Amulets ``best``: what it reads from the rivals' own deductions (who is offered a cast before it, who
is sure of a cast, which worlds a rival's pass rules out) checked against the driver and the engine."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence

import pytest

from coven.core.driver import Driver, decisions
from coven.games.amulets import GAME, AmuletsState, Ask
from coven.games.amulets.board import ANSWERS, FIELDS, answer, cast_pairs, parse_field
from coven.games.amulets.bots import (
    OWN_AMULET_ODDS,
    BestBot,
    GreedyBot,
    _after_question,
    _entropy_score,
    _hedgeable,
    _weighted_entropy_score,
    best_cast,
    pair_plausibility,
    weighted_cast,
)
from coven.games.amulets.deduction import Knowledge, public_domains
from coven.games.amulets.view import AmuletsView, knowledge_of

from .helpers import play, table


def _pairs(text: str) -> int:
    mask = 0
    for token in text.split():
        mask |= 1 << ("RYGBK".index(token[0]) * FIELDS + parse_field(token[2:]))
    return mask


def test_pairs_fit_in_one_placement_only_with_distinct_amulets_and_fields() -> None:
    assert _hedgeable(0)
    assert _hedgeable(_pairs("R@A1"))
    assert _hedgeable(_pairs("R@A1 Y@B2 K@E5"))
    assert not _hedgeable(_pairs("R@A1 R@B2"))  # one amulet on two fields
    assert not _hedgeable(_pairs("R@A1 Y@A1"))  # two amulets on one field
    assert not _hedgeable(_pairs("R@A1 Y@B2 G@B2"))


@pytest.mark.parametrize("out", [(), (1,), (2,), (1, 3)])
def test_the_offers_after_a_question_follow_the_driver(out: tuple[int, ...]) -> None:
    state = table("R@A1 Y@B2 G@C3 B@D4")
    for seat in out:  # a wrong cast puts a wizard out (each casts out of turn)
        play(state, seat, "cast RE1 YE2 GE3 BE4 KE5")
    asker = state.turn
    play(state, asker, "ask RA2 YB3 GC4 BD5 KE1")
    offered = [seat for seat, _ in decisions(GAME, state, asker)]
    assert _after_question(4, asker, state.out) == offered


def _play_to_decision(seed: int, moves: int) -> AmuletsState:
    """A 4-player game of greedy wizards, ``moves`` questions in (stopped early if it ends)."""
    state = GAME.new_game(4, None, seed)
    bots = [GreedyBot(GAME, s, seed * 10 + s) for s in range(4)]
    for _ in range(moves):
        seat = state.turn
        action = bots[seat].act(GAME.view(state, seat), GAME.legal_actions(state, seat), True)
        if not isinstance(action, Ask):
            break
        GAME.apply(state, seat, action)
    return state


def test_a_rival_is_sure_exactly_when_its_own_deduction_is() -> None:
    seen = set()
    for seed in range(6):
        state = _play_to_decision(seed, 4)
        me = state.turn
        bot = BestBot(GAME, me, seed)
        view = GAME.view(state, me)
        knowledge = bot.knowledge(view)
        rng = random.Random(seed)
        for _ in range(30):
            world = bot._world_of(view, knowledge.sample(rng))
            for rival in knowledge.seats:
                worlds = Knowledge.from_public(bot._public, rival, world[rival]).worlds(64) or []
                sure = bool(worlds) and best_cast(worlds, world[rival])[1] == len(worlds)
                assert bot.rival_sure(tuple(bot._public), rival, world) == sure
                seen.add(sure)
    assert seen == {True, False}  # both kinds of rival were compared


class _Checked:
    """A greedy wizard which, at every decision offered, has ``best`` in its seat read the passes and
    checks that the true world is still among the worlds ``best`` keeps."""

    def __init__(self, driver: list[Driver], seat: int, seed: int) -> None:
        self.driver = driver
        self.seat = seat
        self.greedy = GreedyBot(GAME, seat, seed)
        self.checked = 0

    def act(self, view: AmuletsView, legal: Sequence[Hashable], required: bool) -> Hashable | None:
        state = self.driver[0].state
        worlds = BestBot(GAME, self.seat, 0).worlds(view, 400)
        if worlds is not None:
            seats = knowledge_of(view).seats
            assert tuple(state.amulets[s] * FIELDS + state.fields[s] for s in seats) in worlds
            self.checked += 1
        return self.greedy.act(view, legal, required)


@pytest.mark.parametrize("seed", range(30))
def test_the_true_world_survives_the_reading_of_greedy_rivals_passes(seed: int) -> None:
    holder: list[Driver] = []
    wizards = [_Checked(holder, s, seed * 10 + s) for s in range(4)]
    holder.append(Driver(GAME, GAME.new_game(4, None, seed), dict(enumerate(wizards))))
    holder[0].run()
    assert sum(w.checked for w in wizards) > 0


def _judged_by_hand(bot: BestBot, view: AmuletsView, question: tuple[int, ...], asker: int) -> float:
    """``judged`` from its definition, without caches or quick refusals: in every world, the rivals
    offered a cast before me after the question (the driver's order) rebuild their deduction from the
    public book plus the answers; the first sure one wins; else my best cast's chance in my class."""
    knowledge = knowledge_of(view)
    worlds = bot.worlds(view, 400) or []
    me = view.seat
    assert me is not None
    players = view.players
    offered = _after_question(players, asker, view.out)
    ahead = offered[: offered.index(me)]
    book = [e.as_tuple() for e in view.book]

    def secrets(world: tuple[int, ...]) -> dict[int, int]:
        out = dict(zip(knowledge.seats, world, strict=True))
        out[me] = view.amulet * FIELDS + view.field
        return out

    def said(world: tuple[int, ...]) -> str:
        pairs = secrets(world)
        return "".join(
            "." if s == asker else answer(question, pairs[s] % FIELDS, pairs[s] // FIELDS)
            for s in range(players)
        )

    total = 0.0
    for world in worlds:
        line = said(world)
        mine = [w for w in worlds if said(w) == line]
        if len(mine) > 24:
            continue
        chance = best_cast(mine, None)[1] / len(mine)
        domains = public_domains(players, [*book, ("ask", asker, question, line)])
        pairs = secrets(world)
        lost = False
        for rival in ahead:
            theirs = Knowledge.from_public(domains, rival, pairs[rival]).worlds(64) or []
            if theirs and best_cast(theirs, pairs[rival])[1] == len(theirs):
                lost = True
                break
        assert all(ch in ANSWERS or ch == "." for ch in line)
        total += 0.0 if lost else chance
    return total / len(worlds)


def test_judged_follows_its_definition() -> None:
    compared = 0
    for seed in range(12):
        state = _play_to_decision(seed, 4)
        if GAME.is_over(state):
            continue
        for me in range(4):
            bot = BestBot(GAME, me, seed)
            view = GAME.view(state, me)
            worlds = bot.worlds(view, 400)
            if not worlds or len(worlds) > 150:
                continue
            for asker in {me, state.turn}:
                question = bot.world_placement(worlds[0])
                got = bot.judged(question, asker, worlds, view)
                assert got == pytest.approx(_judged_by_hand(bot, view, question, asker))
                compared += got > 0
    assert compared >= 5  # enough positions give a chance to win


def test_a_rivals_failed_cast_makes_best_expect_gambles() -> None:
    state = table("R@A1 Y@B2 G@C3 B@D4")
    play(state, 0, "ask RA2 YB3 GC4 BD5 KE1")
    seat_0, seat_1 = BestBot(GAME, 0, 0), BestBot(GAME, 1, 0)
    seat_0.knowledge(GAME.view(state, 0))
    assert seat_0._dare == BestBot.rival_dare == 1.0
    play(state, 0, "cast RE1 YE2 GE3 BE4 KE5")  # seat 0 casts out of turn and fails
    seat_0.knowledge(GAME.view(state, 0))
    seat_1.knowledge(GAME.view(state, 1))
    assert seat_0._dare == BestBot.rival_dare  # its own failure says nothing about the rivals
    assert seat_1._dare == BestBot.rival_dare_seen < 1.0


def _brute_heaviest(worlds: list[tuple[int, ...]], weights: list[float]) -> float:
    """The heaviest set of worlds one placement satisfies, by trying every subset (small lists only)."""
    best = 0.0
    for mask in range(1, 1 << len(worlds)):
        chosen = [i for i in range(len(worlds)) if mask >> i & 1]
        pairs = [p for i in chosen for w in (worlds[i],) for p in w]
        placed: dict[int, int] = {}
        fields: dict[int, int] = {}
        if all(
            placed.setdefault(p // FIELDS, p % FIELDS) == p % FIELDS
            and fields.setdefault(p % FIELDS, p // FIELDS) == p // FIELDS
            for p in pairs
        ):
            best = max(best, sum(weights[i] for i in chosen))
    return best


def test_the_weighted_cast_is_the_heaviest_and_equals_the_plain_one_when_weights_are_equal() -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(80):
        state = _play_to_decision(seed, 3 + seed % 2)
        if GAME.is_over(state):
            continue
        me = state.turn
        worlds = knowledge_of(GAME.view(state, me)).worlds(13)
        if not worlds or len(worlds) < 2:
            continue
        own = state.amulets[me] * FIELDS + state.fields[me]
        placement, covered = best_cast(worlds, own)
        assert weighted_cast(worlds, [1.0] * len(worlds), own) == (placement, float(covered))
        weights = [rng.choice((1.0, 0.15, 0.0225)) for _ in worlds]
        placement, weight = weighted_cast(worlds, weights, own)
        assert weight == pytest.approx(_brute_heaviest(worlds, weights))
        satisfied = cast_pairs(placement)
        assert weight == pytest.approx(
            sum(x for w, x in zip(worlds, weights, strict=True) if all(satisfied >> p & 1 for p in w))
        )
        checked += 1
    assert checked >= 8


def test_a_rival_question_on_its_own_home_weighs_its_world_down() -> None:
    state = table("R@A1 Y@B2 G@C3 B@D4")
    play(state, 0, "ask RA2 YB3 GC4 BD5 KE1")
    play(state, 1, "ask RB2 YA5 GE3 BD1 KC5")  # seat 1 puts Red on its own home B2
    play(state, 2, "ask RA3 YB1 GC2 BE5 KD3")
    bot = BestBot(GAME, 0, 0)
    bot.amulet_evidence = 0.0  # the home evidence alone
    view = GAME.view(state, 0)
    worlds = bot.worlds(view, 20000)
    assert worlds is not None
    weights = bot.weights(worlds)
    assert weights is not None
    seats = knowledge_of(view).seats
    for world, weight in zip(worlds, weights, strict=True):
        homes = dict(zip(seats, (p % FIELDS for p in world), strict=True))
        asked = [(1, "RB2 YA5 GE3 BD1 KC5"), (2, "RA3 YB1 GC2 BE5 KD3")]
        on_home = sum(homes[s] in [parse_field(t[1:]) for t in q.split()] for s, q in asked)
        assert weight == pytest.approx(BestBot.home_weight**on_home)
    assert min(weights) < 1.0 == max(weights)  # both kinds of world were weighed


def test_judged_with_equal_weights_is_judged() -> None:
    compared = 0
    for seed in range(8):
        state = _play_to_decision(seed, 4)
        if GAME.is_over(state):
            continue
        me = state.turn
        bot = BestBot(GAME, me, seed)
        view = GAME.view(state, me)
        worlds = bot.worlds(view, 400)
        if not worlds or len(worlds) > 150:
            continue
        question = bot.world_placement(worlds[0])
        plain = bot.judged(question, me, worlds, view)
        assert bot.judged(question, me, worlds, view, None, [1.0] * len(worlds)) == pytest.approx(plain)
        compared += plain > 0
    assert compared >= 2


def test_the_weighted_entropy_is_the_plain_one_under_equal_weights() -> None:
    rng = random.Random(3)
    for _ in range(20):
        keys = [rng.randrange(6) for _ in range(rng.randrange(1, 40))]
        assert _weighted_entropy_score(keys, [1.0] * len(keys)) == pytest.approx(_entropy_score(keys))
    assert _weighted_entropy_score([0, 0, 1], [0.5, 0.5, 1.0]) == pytest.approx(0.0)  # two classes of 1


def test_worlds_drawn_for_questions_avoid_a_rival_home_its_question_occupied() -> None:
    state = table("R@A1 Y@B2 G@C3 B@D4")
    play(state, 0, "ask RA2 YB3 GC4 BD5 KE1")
    play(state, 1, "ask RB2 YA5 GE3 BD1 KC5")  # seat 1 puts Red on its own home B2
    bot = BestBot(GAME, 2, 0)
    view = GAME.view(state, 2)
    assert bot.worlds(view, 3 * 400) is None  # too many worlds to list: they are drawn
    seats = knowledge_of(view).seats
    occupied = {parse_field(t[1:]) for t in ["RB2", "YA5", "GE3", "BD1", "KC5"]}
    drawn = bot.sample_worlds(view, 400)
    plain = [knowledge_of(view).sample(random.Random(i)) for i in range(400)]

    def on_home(worlds: list[tuple[int, ...]]) -> float:
        return sum(w[seats.index(1)] % FIELDS in occupied for w in worlds) / len(worlds)

    assert len(drawn) == 400
    assert on_home(drawn) < 0.5 * on_home(plain)  # the weight 0.15 shows against uniform draws


def test_a_rivals_failed_cast_narrows_its_pair_to_the_cast_for_best_only() -> None:
    state = table("R@A1 Y@B2 G@C3 B@D4")
    play(state, 0, "ask RA2 YB3 GC4 BD5 KE1")
    play(state, 1, "cast RE1 YB2 GE3 BE4 KE5")  # seat 1 casts with its own Yellow at home B2, fails
    bot = BestBot(GAME, 2, 0)
    view = GAME.view(state, 2)
    knowledge = bot.knowledge(view)
    cast = cast_pairs(GAME.parse_action("cast RE1 YB2 GE3 BE4 KE5").fields)
    seat_1 = knowledge.seats.index(1)
    assert knowledge.domains[seat_1] & ~cast == 0
    assert knowledge.domains[seat_1] >> (1 * FIELDS + parse_field("B2")) & 1  # the true pair stays
    assert 0 < knowledge.count() < knowledge_of(view).count()
    assert tuple(bot._public) == tuple(public_domains(4, (e.as_tuple() for e in state.book)))  # rivals read
    # the public record only
    plain = BestBot(GAME, 2, 0)
    plain.reads_casts = False
    assert plain.knowledge(view).count() == knowledge_of(view).count()


def test_a_cast_leaving_no_world_is_not_read() -> None:
    state = table("R@A1 Y@B2 G@C3 B@D4")
    play(state, 0, "ask RA2 YB3 GC4 BD5 KE1")  # seat 1 answers "+"
    play(state, 1, "cast RE5 YA1 GA3 BE2 KC2")  # each of these pairs would have answered "-"
    view = GAME.view(state, 3)
    knowledge = BestBot(GAME, 3, 0).knowledge(view)
    assert knowledge.count() == knowledge_of(view).count() > 0


def test_a_rivals_own_amulet_is_read_from_how_plausible_its_questions_pair_for_it_was() -> None:
    state = table("R@A1 Y@B2 G@C3 B@D4")
    play(state, 0, "ask RA2 YB3 GC4 BD5 KE1")
    play(state, 1, "ask RA3 YC2 GE3 BA1 KC5")
    view = GAME.view(state, 2)
    bot = BestBot(GAME, 2, 0)
    odds = bot._own_amulet_weights(view, 1)
    domains = public_domains(4, [e.as_tuple() for e in state.book[:1]])
    plausible = pair_plausibility(domains, 1, state.book[1].fields)
    total = Knowledge.from_public(domains, None, 0).count()
    for a, f in enumerate(state.book[1].fields):  # by hand: the worlds where another wizard holds it
        held = 0
        for seat in (0, 2, 3):
            only = [d & (1 << (a * FIELDS + f)) if s == seat else d for s, d in enumerate(domains)]
            held += Knowledge.from_public(only, None, 0).count()
        assert plausible[a] == pytest.approx(held / total)
    expected = [
        next(x for bound, x in OWN_AMULET_ODDS if (m <= 0 if bound == 0 else m < bound)) for m in plausible
    ]
    assert odds == pytest.approx([x / max(expected) for x in expected])
    assert len(set(expected)) > 1  # the question's pairs were not all as plausible
    # a world weighs the odds of each asker's amulet and the home evidence
    worlds = bot.worlds(view, 20000)
    assert worlds is not None
    weights = bot.weights(worlds)
    assert weights is not None
    seats = knowledge_of(view).seats
    assert bot._own_amulet_weights(view, 0) == (1.0,) * 5  # nothing to tell the amulets apart before
    first = [parse_field(t[1:]) for t in ["RA2", "YB3", "GC4", "BD5", "KE1"]]
    asked = [parse_field(t[1:]) for t in ["RA3", "YC2", "GE3", "BA1", "KC5"]]
    for world, weight in zip(worlds, weights, strict=True):
        pair = world[seats.index(1)]
        home = BestBot.home_weight ** ((world[seats.index(0)] % FIELDS in first) + (pair % FIELDS in asked))
        assert weight == pytest.approx(home * odds[pair // FIELDS])
