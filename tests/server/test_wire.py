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
