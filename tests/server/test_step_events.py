"""A step's events as the server sends them to each seat: made once, shown to each seat as it may see them."""

from __future__ import annotations

import asyncio
import random
from itertools import islice
from pathlib import Path

import pytest

from coven.core import private, public
from coven.games import REGISTRY
from coven.server.settings import Settings
from coven.server.tables import LoggedStep, SeatRequest, TableService, checked_text_action


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
        settings = Settings(
            database_url=f"sqlite:///{tmp_path / 'l.sqlite3'}", bot_processes=0, ping_interval=0
        )
        service = TableService(settings)
        await service.start()
        try:
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
        finally:
            await service.stop()

    asyncio.run(run())
