"""What the server writes on the wire: views straight from the engine's objects, and acks inside updates.

The server writes a game's view object directly (msgspec reads a dataclass's fields), without building
its JSON form first; that must be exactly the codec's form, ``Game.view_to_json``, for every game and
every kind of position, or a client would see something other than what the rules define.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from coven.games import REGISTRY
from coven.server.messages import dumps, with_ack

GAMES = sorted(REGISTRY.ids())


def _positions(game_id: str, seed: int, limit: int = 400) -> list[tuple[Any, Any]]:
    """(game, state) after every action of a random game."""
    game = REGISTRY.get(game_id)
    rng = random.Random(seed)
    players = game.spec.min_players + seed % (game.spec.max_players - game.spec.min_players + 1)
    state = game.setup(players, game.spec.resolve_options({}), seed)
    out = [(game, game.clone(state))]
    while not game.is_over(state) and len(out) < limit:
        seat = sorted(game.to_act(state))[0]
        actions = game.legal_actions(state, seat)
        game.apply(state, seat, actions[rng.randrange(min(len(actions), 200))])
        out.append((game, game.clone(state)))
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_a_view_on_the_wire_is_its_codec_form(game_id: str) -> None:
    checked = 0
    for seed in range(3):
        for game, state in _positions(game_id, seed)[::3]:
            for seat in [None, *range(game.num_players(state))]:
                view = game.view(state, seat)
                wire = json.loads(dumps({"type": "update", "view": view}))["view"]
                assert wire == game.view_to_json(view), (game_id, seed, seat)
                checked += 1
    assert checked > 100


def test_the_ack_travels_inside_the_update() -> None:
    update = dumps({"type": "update", "number": 3, "view": {"x": "é"}})
    acked = json.loads(with_ack(update, {"id": "m1", "number": 3, "action": "R3"}))
    assert acked == {
        "type": "update",
        "ack": {"id": "m1", "number": 3, "action": "R3"},
        "number": 3,
        "view": {"x": "é"},
    }
    with pytest.raises(ValueError):
        with_ack(dumps({"type": "sync"}), {"id": 1})


def test_text_that_is_not_unicode_is_written_as_the_standard_library_would() -> None:
    # a lone surrogate cannot be UTF-8; the fast writer refuses it, the fallback writes it as json does
    message = {"type": "chat", "line": {"text": "a\ud800b"}, "set": frozenset({1})}
    assert json.loads(dumps(message)) == {"type": "chat", "line": {"text": "a\ud800b"}, "set": [1]}


def _table(game_id: str, players: int, seed: int = 3) -> Any:
    from datetime import UTC, datetime

    from coven.server.table import Table
    from coven.store import StoredSeat

    game = REGISTRY.get(game_id)
    options = game.spec.resolve_options({})
    state = game.setup(players, options, seed)
    seats = [StoredSeat(i, "human", f"P{i}", claimed=True) for i in range(players)]  # (one per player)
    return Table("t", game, players, options, seed, "playing", seats, datetime.now(UTC), state)


def test_a_huge_legal_space_is_sampled_not_listed() -> None:
    """A seat the game waits for with more legal actions than the cap (Amulets' millions of questions)
    gets the first OPTIONAL_LISTED of them, in the game's order, with the true count; with the cap or
    fewer it gets every one."""
    from coven.server.table import OPTIONAL_LISTED

    table = _table("amulets", 3)
    game, state = table.game, table.state
    seat = sorted(game.to_act(state))[0]
    actions = game.legal_actions(state, seat)
    assert len(actions) > 60
    legal = table.legal(seat, 60)
    assert legal["required"] is True and legal["count"] == len(actions)
    assert legal["truncated"] is True and legal["free_form"] is True
    first = [game.format_action(a) for _, a in zip(range(OPTIONAL_LISTED), actions, strict=False)]
    assert [e["notation"] for e in legal["actions"]] == first
    brujas = _table("brujas", 3)
    seat = sorted(brujas.game.to_act(brujas.state))[0]
    every = [brujas.game.format_action(a) for a in brujas.game.legal_actions(brujas.state, seat)]
    assert 1 < len(every) <= 60
    listed = brujas.legal(seat, 60)
    assert [e["notation"] for e in listed["actions"]] == every and listed["truncated"] is False
    cut = brujas.legal(seat, len(every) - 1)  # one over the cap: a sample (the cap, if under 8)
    assert len(cut["actions"]) == min(len(every) - 1, OPTIONAL_LISTED) and cut["truncated"] is True


def test_a_legal_list_is_written_once_and_reads_as_listed() -> None:
    """A frame's ``legal`` member is the JSON of :meth:`Table.legal`, written once per listing: a listing
    that lasts (Amulets' questions, a constant of the game) is the same written text for the next table
    at the same point; any other is written for the frame that needs it."""
    first = _table("amulets", 3)
    seat = sorted(first.game.to_act(first.state))[0]
    written = first.legal_written(seat, 60)
    assert written is not None and json.loads(bytes(written)) == first.legal(seat, 60)
    other = _table("amulets", 3, seed=4)  # another deal, the same questions: the same text, not written again
    assert other.legal_written(seat, 60) is written
    others = [s for s in range(3) if s != seat]  # they may cast: a shorter, optional list
    cast = first.legal_written(others[0], 60)
    assert cast is not None and cast is not written
    optional = json.loads(bytes(cast))
    assert optional == first.legal(others[0], 60) and optional["required"] is False

    brujas = _table("brujas", 3)
    mover = sorted(brujas.game.to_act(brujas.state))[0]
    once = brujas.legal_written(mover, 60)
    assert once is not None
    frame = json.loads(dumps(brujas.sync_message(mover, None, 60)))
    assert frame["legal"] == brujas.legal(mover, 60) == json.loads(bytes(once))
    assert brujas.legal_written(next(s for s in range(3) if s != mover), 60) is None  # not its turn
    # the standard library's writer (text that is not Unicode elsewhere in a frame) reads it back too
    assert json.loads(dumps({"legal": once, "text": "a\ud800"}))["legal"] == brujas.legal(mover, 60)


class _Frames:
    """A listener that keeps what it is sent."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.frames: list[str] = []

    def send_text(self, text: str) -> None:
        self.frames.append(text)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_update_shows_each_seat_its_view_exactly(game_id: str) -> None:
    """A table's ``update`` frames, step after step of whole games, carry each seat's (and a spectator's)
    view exactly as the codec writes it, whatever the server wrote only once for several seats or kept
    from the step before (the game's ``shared_view_members``)."""
    from coven.server.tables import checked_text_action

    shown = 0
    for seed in range(2):
        table = _table(game_id, 3, seed=seed)
        game = table.game
        listeners = [_Frames(seat) for seat in (0, 1, 2, None)]
        table.listeners.update(listeners)
        rng = random.Random(seed)
        while table.status == "playing" and table.number < 150:
            seat = min(game.to_act(table.state))
            actions = game.legal_actions(table.state, seat)
            text = game.format_action(actions[rng.randrange(min(len(actions), 50))])
            table.advance(table.take(seat, table.number, checked_text_action(text), text, 0), 60)
            for listener in listeners:
                frame = json.loads(listener.frames[-1])
                assert frame["number"] == table.number
                assert frame["view"] == game.view_to_json(game.view(table.state, listener.seat)), (
                    game_id,
                    seed,
                    table.number,
                    listener.seat,
                )
                shown += 1
    assert shown > 100


def test_a_shared_member_is_written_once_and_then_only_what_it_gained() -> None:
    """``written_view`` writes a shared member (Amulets' spell book) once for every view holding that very
    object, and a book one line longer as the last one's JSON with only the new line written; a book that
    is not the last one grown (another table's, a shorter one) is written whole."""
    from coven.server.messages import encode_json
    from coven.server.table import written_view

    table = _table("amulets", 3)
    game, state = table.game, table.state
    assert game.shared_view_members == ("book",)
    rng = random.Random(5)
    books = []
    for _ in range(4):
        seat = min(game.to_act(state))
        actions = game.legal_actions(state, seat)
        game.apply(state, seat, actions[rng.randrange(60)])
        books.append(game.views(state, [0, 1]))
    kept: dict[str, tuple[object, bytes]] = {}
    first = books[0]
    assert first[0].book is first[1].book  # one object for both seats
    for views in books:
        for view in views.values():
            assert bytes(written_view(view, ("book",), kept)) == encode_json(view)
    last = books[-1][0].book
    assert kept["book"][0] is last and kept["book"][1] == encode_json(last)

    # what was written is used as it is: a marked copy of the last JSON shows through
    grown_from = books[-2][0].book
    marked = encode_json(grown_from)[:-1] + b',"marked"]'
    kept = {"book": (grown_from, marked)}
    shown = json.loads(bytes(written_view(books[-1][0], ("book",), kept)))
    assert shown["book"][: len(grown_from) + 1][-1] == "marked"
    assert len(shown["book"]) == len(last) + 1
    kept = {"book": (last, b'"marked"')}
    assert json.loads(bytes(written_view(books[-1][1], ("book",), kept)))["book"] == "marked"
    same_lines = tuple(list(last))  # another tuple of the very same lines
    assert same_lines is not last
    kept = {"book": (same_lines, b'"marked"')}
    assert json.loads(bytes(written_view(books[-1][1], ("book",), kept)))["book"] == "marked"

    # not the last book grown (another table's of the same length, a longer one, the book reversed, an
    # empty one): written whole
    elsewhere = _table("amulets", 3, seed=9)
    for _ in range(len(last) + 1):
        seat = min(elsewhere.game.to_act(elsewhere.state))
        elsewhere.game.apply(elsewhere.state, seat, elsewhere.game.legal_actions(elsewhere.state, seat)[7])
    theirs = game.views(elsewhere.state, [0])[0].book
    assert len(theirs) == len(last) + 1
    for other in (theirs[: len(last)], theirs, tuple(reversed(last)), ()):
        for view in books[-1].values():
            kept = {"book": (other, b'"stale"')}
            assert bytes(written_view(view, ("book",), kept)) == encode_json(view)
    kept = {"book": (last, encode_json(last))}  # shorter than the last one
    assert bytes(written_view(books[1][0], ("book",), kept)) == encode_json(books[1][0])
    # no shared members: the view as it is
    assert bytes(written_view(books[0][0], (), {})) == encode_json(books[0][0])


def test_reused_items_are_written_once_while_they_are_given_again() -> None:
    """``written_view`` writes each item of a reused member (a Commandments view's finished rituals and its
    cards' words) once, by identity, for every seat and step that is given that very object: what was
    kept is used as it is (a marked entry shows through), an entry of another object is written anew, and
    the kept items are bounded."""
    from coven.server import table as table_module
    from coven.server.messages import encode_json
    from coven.server.table import written_view

    table = _table("commandments", 4)
    game, state = table.game, table.state
    assert game.reused_view_items == ("rituals", "cards")
    rng = random.Random(3)
    while len(state.rituals) < 2:  # a finished ritual, and one in play
        seat = min(game.to_act(state))
        actions = game.legal_actions(state, seat)
        game.apply(state, seat, actions[rng.randrange(len(actions))])
    views = game.views(state, [0, 1, 2, 3, None])
    finished = views[1].rituals[0]
    assert finished is views[2].rituals[0] or finished is views[3].rituals[0]  # given again
    items: dict[int, tuple[object, bytes]] = {}
    for view in views.values():
        assert bytes(written_view(view, (), {}, game.reused_view_items, items)) == encode_json(view)
    assert items[id(finished)] == (finished, encode_json(finished))
    texts = {id(card) for view in views.values() for card in view.cards}
    assert texts <= items.keys()

    # what was kept is used as it is
    items[id(finished)] = (finished, b'"marked"')
    shown = json.loads(bytes(written_view(views[1], (), {}, game.reused_view_items, items)))
    assert shown["rituals"][0] == "marked"
    # an entry that holds another object under that identity is not used
    items[id(finished)] = (views[1].rituals[-1], b'"stale"')
    assert bytes(written_view(views[1], (), {}, game.reused_view_items, items)) == encode_json(views[1])
    assert items[id(finished)][0] is finished
    # without a table's items, or declared nothing: the view as it is
    assert bytes(written_view(views[1], (), {}, game.reused_view_items, None)) == encode_json(views[1])
    assert bytes(written_view(views[1], (), {})) == encode_json(views[1])
    # bounded: full, the kept items start again
    full = {i: (None, b"0") for i in range(-table_module.WRITTEN_ITEMS_BOUND, 0)}
    items = dict(full)
    assert bytes(written_view(views[1], (), {}, game.reused_view_items, items)) == encode_json(views[1])
    assert not items.keys() & full.keys()
    assert len(items) == len({id(x) for x in (*views[1].rituals, *views[1].cards)})
