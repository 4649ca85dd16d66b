"""A step's events as the server sends them to each seat: made once, shown to each seat as it may see them."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from dataclasses import replace
from itertools import islice
from pathlib import Path
from typing import Any

import pytest

from coven.core import Registry, Seat, is_fixed, private, public
from coven.games import REGISTRY
from coven.server.messages import MAX_ACTION_CHARS, ProtocolError
from coven.server.table import LoggedStep, _Listing
from coven.server.tables import SeatRequest, checked_text_action
from tests.core.toygame import Play, ToyGame, ToyState
from tests.server.helpers import running_service


def test_each_seat_gets_the_events_it_may_see_and_no_other() -> None:
    events = [public("play", seat=0), private("hand", [1], cards="secret"), private("both", [0, 2], n=1)]
    step = LoggedStep(1, 0, "x", events)
    shown = {seat: [e["kind"] for e in step.events_json(seat)] for seat in (None, 0, 1, 2)}
    assert shown == {None: ["play"], 0: ["play", "both"], 1: ["play", "hand"], 2: ["play", "both"]}
    assert step.events_json(0)[0] is step.events_json(1)[0]  # one JSON form for every seat


@pytest.mark.parametrize("game_id", sorted(REGISTRY.ids()))
def test_a_steps_events_match_what_each_event_says_of_its_audience(game_id: str) -> None:
    game = REGISTRY.get(game_id)
    rng = random.Random(11)
    players = game.spec.player_counts[-1]
    state = game.new_game(players, None, 11)
    private_seen = 0
    for number in range(1, 120):
        if game.is_over(state):
            break
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        events = game.apply(state, seat, legal[rng.randrange(min(len(legal), 60))])
        step = LoggedStep(number, seat, "", events)
        private_seen += sum(e.audience is not None for e in events)
        for viewer in (None, *range(players)):
            expected = [e.to_json() for e in events if e.visible_to(viewer)]
            assert step.events_json(viewer) == expected
    if game_id in {"commandments", "namaste"}:
        assert private_seen > 0  # the games that deal private events did: the filter was put to work


def test_seats_given_the_same_legal_sequence_share_one_listing(tmp_path: Path) -> None:
    """Amulets gives every wizard but the asker the same sequence of casts: it is listed once a number,
    and the listing is what each seat would get alone."""

    async def run() -> None:
        async with running_service(tmp_path / "l.sqlite3") as service:
            table, _ = await service.create("amulets", 3, {}, [SeatRequest("human")] * 3)
            for seat in range(3):
                await service.claim(table, seat)
            game = table.game
            for _ in range(3):
                asker = table.turn()[0][0]
                others = [s for s in range(3) if s != asker]
                lists = {s: table.legal(s, 60) for s in range(3)}
                for s, legal in lists.items():
                    assert legal is not None
                    alone = [
                        {"notation": game.format_action(a)}
                        for a in islice(game.legal_actions(table.state, s), 8)
                    ]
                    assert legal["actions"] == alone and legal["required"] == (s == asker)
                first, second = (lists[s]["actions"] for s in others)  # type: ignore[index]
                assert first is second
                assert lists[asker]["actions"] is not first  # type: ignore[index]  # the asker has another
                notation = lists[asker]["actions"][0]["notation"]  # type: ignore[index]
                await service.act(table, asker, table.number, checked_text_action(notation))

    asyncio.run(run())


class ReusedList(ToyGame):
    """The toy game, giving its legal plays in one list it refills in place: a sequence that changes."""

    spec = replace(ToyGame.spec, id="reused-list")

    def __init__(self) -> None:
        super().__init__()
        self.shared: list[Play] = []

    def legal_actions(self, state: ToyState, seat: Seat) -> Sequence[Play]:
        self.shared[:] = super().legal_actions(state, seat)
        return self.shared


def test_a_listing_is_kept_across_moves_only_for_a_sequence_that_cannot_change(tmp_path: Path) -> None:
    amulets = REGISTRY.get("amulets")
    assert is_fixed(()) and is_fixed((1, 2)) and not is_fixed([1, 2])
    assert is_fixed(amulets.legal_actions(amulets.new_game(3, None, 1), 0))

    async def run() -> None:
        registry = Registry()
        registry.register(ReusedList())
        registry.register(amulets)
        async with running_service(tmp_path / "k.sqlite3", games=registry) as service:
            for game_id, players, shown in (("reused-list", 2, 60), ("amulets", 3, 8)):
                table, _ = await service.create(game_id, players, {}, [SeatRequest("human")] * players)
                for seat in range(players):
                    await service.claim(table, seat)
                game = table.game
                seen: dict[int, list[tuple[Sequence[object], list[Any]]]] = {
                    seat: [] for seat in range(players)
                }
                for _ in range(4):
                    if table.status != "playing":
                        break
                    for seat in range(players):
                        legal = table.legal(seat, 60)
                        if legal is None:
                            continue
                        alone = [
                            {"notation": game.format_action(a)}
                            for a in islice(game.legal_actions(table.state, seat), shown)
                        ]
                        assert legal["actions"] == alone  # never what the sequence held before
                        seen[seat].append((game.legal_actions(table.state, seat), legal["actions"]))
                    mover = table.turn()[0][0]
                    notation = game.format_action(game.legal_actions(table.state, mover)[0])
                    await service.act(table, mover, table.number, checked_text_action(notation))
                pairs = [pair for seat in seen for pair in seen[seat]]
                if game_id == "amulets":  # casts and questions: two constant sequences, each listed once
                    assert len(pairs) >= 8 and len({id(actions) for actions, _ in pairs}) == 2
                    assert all(
                        listed is next(m for a, m in pairs if a is actions) for actions, listed in pairs
                    )
                else:  # one list refilled: listed anew each move, as the hand shrinks
                    assert len({len(listed) for _, listed in pairs}) > 1

    asyncio.run(run())


class FreshTuples(ToyGame):
    """The toy game, giving its legal plays in a new tuple at each call: fixed, but never given again."""

    spec = replace(ToyGame.spec, id="fresh-tuples")

    def legal_actions(self, state: ToyState, seat: Seat) -> Sequence[Play]:
        return tuple(super().legal_actions(state, seat))


def test_kept_listings_stay_bounded_and_the_constants_listed_often_stay(tmp_path: Path) -> None:
    """Tuples given once (Namaste's writes) go past the bound, least recently listed first, while a
    constant listed all along (Amulets' casts) keeps its one listing."""
    from coven.server import table as table_module

    async def run() -> None:
        registry = Registry()
        registry.register(FreshTuples())
        registry.register(REGISTRY.get("amulets"))
        async with running_service(tmp_path / "b.sqlite3", games=registry) as service:
            fresh, _ = await service.create("fresh-tuples", 2, {}, [SeatRequest("human")] * 2)
            amulets, _ = await service.create("amulets", 3, {}, [SeatRequest("human")] * 3)
            for table, players in ((fresh, 2), (amulets, 3)):
                for seat in range(players):
                    await service.claim(table, seat)
            caster = next(s for s in range(3) if s not in amulets.turn()[0])  # may cast: the constant
            first = amulets.legal(caster, 60)
            assert first is not None
            kept = table_module._FIXED_LISTINGS
            bound = table_module.FIXED_LISTINGS_BOUND
            mover = fresh.turn()[0][0]
            for i in range(bound + 200):
                fresh.forget()  # asked afresh: the game gives a new tuple
                assert fresh.legal(mover, 60) is not None
                assert len(kept) <= bound
                if i % 50 == 0:
                    amulets.forget()
                    again = amulets.legal(caster, 60)
                    assert again is not None and again["actions"] is first["actions"]  # the same listing

    asyncio.run(run())


class Shifted(ToyGame):
    """The toy game with a fixed tuple of plays per hand, counting the texts it reads; ``shift`` makes it
    read a notation as another play than the one it writes so (a notation that does not round-trip)."""

    spec = replace(ToyGame.spec, id="shifted")

    def __init__(self, shift: int = 0) -> None:
        super().__init__()
        self.shift = shift
        self.read: list[str] = []
        self._tuples: dict[tuple[int, ...], tuple[Play, ...]] = {}

    def legal_actions(self, state: ToyState, seat: Seat) -> Sequence[Play]:
        hand = tuple(state.hands[seat]) if state.hands[seat] and seat == state.turn else ()
        return self._tuples.setdefault(hand, tuple(Play(c) for c in hand))

    def parse_action(self, text: str) -> Play:
        self.read.append(text)
        play = super().parse_action(text)
        return Play(play.card + self.shift) if self.shift else play


def test_a_kept_listing_reads_a_listed_notation_once_and_only_as_the_game_reads_it() -> None:
    game = Shifted()
    actions = (Play(1), Play(2), Play(3))
    listing = _Listing(actions, [{"notation": game.format_action(a)} for a in actions[:2]])
    assert listing.read(game, "2") is actions[1] and game.read == ["2"]
    assert listing.read(game, "2") is actions[1] and game.read == ["2"]  # read once, then known
    assert listing.read(game, "3") is None  # not listed (the list showed two): the text is read as usual
    assert listing.read(game, "x") is None and game.read == ["2"]
    # a listed notation the game cannot read: not used (the usual path reads it again and says why)
    assert _Listing(actions, [{"notation": "one"}]).read(game, "one") is None and game.read[-1] == "one"
    aliasing = Shifted(shift=1)
    assert _Listing(actions, [{"notation": "1"}]).read(aliasing, "1") is None  # read as Play(2): not used


def test_a_kept_listing_remembers_no_text_it_does_not_list() -> None:
    """A kept listing lasts from move to move and table to table (up to ``FIXED_LISTINGS_BOUND`` of
    them), so what it remembers must not grow with what clients send: a seat to act may send any number
    of distinct texts of up to ``MAX_ACTION_CHARS`` (each then refused as ``bad_notation``). It used to
    remember every one: 1,024 texts of 4 KB in each of 1,024 listings, gigabytes on one process."""
    game = Shifted()
    actions = (Play(1), Play(2), Play(3))
    listing = _Listing(actions, [{"notation": game.format_action(a)} for a in actions])
    for i in range(2_000):
        assert listing.read(game, f"{i:04d}" + "x" * MAX_ACTION_CHARS) is None
    assert listing.read(game, "2") is actions[1] and listing.read(game, "9") is None
    assert game.read == ["2"]  # (an unlisted text is never read here: the usual path reads it)
    remembered = listing._read or {}
    assert set(remembered) <= {"1", "2", "3"}, f"{len(remembered)} texts remembered"


def test_an_action_found_in_a_kept_listing_is_the_step_the_text_would_make(tmp_path: Path) -> None:
    async def run() -> None:
        registry = Registry()
        plain, aliasing = Shifted(), replace_id(Shifted(shift=1), "shifted-alias")
        registry.register(plain)
        registry.register(aliasing)
        async with running_service(tmp_path / "f.sqlite3", deal_seeds=lambda: 5, games=registry) as service:
            logs = []
            for deal in ("first", "same again"):  # two tables dealt alike: their lists are the same tuples
                table, _ = await service.create("shifted", 2, {}, [SeatRequest("human")] * 2)
                for seat in range(2):
                    await service.claim(table, seat)
                before = len(plain.read)
                while table.status == "playing":
                    mover = table.turn()[0][0]
                    legal = table.legal(mover, 60)
                    assert legal is not None
                    notation = legal["actions"][-1]["notation"]
                    await service.act(table, mover, table.number, checked_text_action(notation))
                    assert table.steps[-1].action == notation
                read = plain.read[before:]
                if deal == "first":  # each notation read once (never twice: the listing knows it then)
                    assert len(read) == table.number > 2
                else:
                    assert read == []  # every action found in a kept listing
                stored = service.store.load_table(table.id)
                assert stored is not None
                logs.append(stored.actions)
                assert plain.write_position(service._replay(stored).state) == plain.write_position(
                    table.state
                )
            assert logs[0] == logs[1]

            # a game that reads its own notation as another action: refused, listed or not
            odd, _ = await service.create("shifted-alias", 2, {}, [SeatRequest("human")] * 2)
            for seat in range(2):
                await service.claim(odd, seat)
            mover = odd.turn()[0][0]
            legal = odd.legal(mover, 60)
            assert legal is not None
            with pytest.raises(ProtocolError) as refused:
                await service.act(odd, mover, 0, checked_text_action(legal["actions"][0]["notation"]))
            assert refused.value.code == "bad_notation" and odd.number == 0

    asyncio.run(run())


def replace_id(game: Shifted, game_id: str) -> Shifted:
    game.spec = replace(game.spec, id=game_id)
    return game
