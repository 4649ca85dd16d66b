"""Every door of the server shows a seat its own view and its own events, and nothing else.

For each of the four games (and The 3 Commandments with ``reveal=never``), a person plays seat 0 over
the websocket against random bots while a spectator watches; then the HTTP doors are read (the table,
the lobby's list, the replays, the record). The deal is fixed through the server's settings, so the test
rebuilds every state of the game with the engine and checks each door against it:

- every ``update``/``sync`` frame carries exactly ``view(state, seat)`` and exactly the events visible to
  the seat (the spectator: ``view(state, None)`` and public events), at the frame's number;
- no frame or response holds a fact hidden from seat 0 at that moment (``Game.hidden_facts``), besides
  those its own picture shows anyway (Brujas deals two copies of each card);
- a replay shows a seat its own views and events step by step, its own actions only, and the revealed
  replay and the record exist only for tables that reveal their secrets at the end: with
  ``reveal=never`` they are refused, and a seat's replay is shown only to that seat's token.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from rich.text import Text

from coven.core import Event, Game
from coven.games import REGISTRY
from tests.server.conftest import TestClient, WebSocketTestSession
from tests.server.helpers import create, drain, hello, wait_for, ws_url

AnyGame = Game[Any, Any, Any]

UPDATE_KEYS = {
    *("type", "number", "actor", "events", "status", "view", "to_act", "may_act", "pace", "legal", "result")
}
SYNC_KEYS = {
    "elapsed",
    "pace",
    "type",
    "full",
    "since",
    "number",
    "steps",
    "status",
    "view",
    "to_act",
    "may_act",
    "legal",
    "result",
}

CASES = [
    pytest.param("brujas", 3, {"silent": True}, 41, id="brujas-silent"),
    pytest.param("amulets", 3, {}, 42, id="amulets"),
    pytest.param("namaste", 2, {}, 43, id="namaste"),
    pytest.param("commandments", 3, {}, 44, id="commandments"),
    pytest.param("commandments", 3, {"reveal": "never", "expert": True}, 45, id="commandments-never"),
]


@dataclass
class Timeline:
    """Every state of a finished table as the engine rebuilds it from the deal and the server's log."""

    game: AnyGame
    states: list[Any] = field(default_factory=list)
    events: list[list[Event]] = field(default_factory=list)
    actors: list[int | None] = field(default_factory=list)
    actions: list[str | None] = field(default_factory=list)

    def view(self, number: int, seat: int | None) -> Any:
        return self.game.view_to_json(self.game.view(self.states[number], seat))

    def seen(self, number: int, seat: int | None) -> list[Any]:
        return [e.to_json() for e in self.events[number] if e.visible_to(seat)]

    def hidden(self, number: int, seat: int) -> set[str]:
        """Facts hidden from ``seat`` after step ``number`` that its own picture does not show anyway."""
        state = self.states[number]
        own = Text.from_markup(self.game.render(self.game.view(state, seat))).plain
        return {fact for fact in self.game.hidden_facts(state, seat) if fact not in own}


def rebuild(game: AnyGame, players: int, options: dict[str, Any], seed: int, log: list[Any]) -> Timeline:
    state = game.new_game(players, options, seed)
    line = Timeline(game, [game.clone(state)], [[]], [None], [None])
    for step in log:
        events = game.apply(state, step.actor, game.parse_action(step.action))
        line.states.append(game.clone(state))
        line.events.append(events)
        line.actors.append(step.actor)
        line.actions.append(step.action)
    return line


def play_seat(ws: WebSocketTestSession, token: str, rng: random.Random) -> list[dict[str, Any]]:
    """Say hello with ``token`` and play that seat with random legal actions whenever the game waits for
    it; every frame received is returned (a ``pong`` closes each batch and is left out)."""
    frames: list[dict[str, Any]] = []
    status, number, legal = "waiting", 0, None
    batch = hello(ws, token)
    deadline = time.monotonic() + 120  # bots think in threads: wait for them, however busy the machine
    while time.monotonic() < deadline:
        frames.extend(batch)
        for message in batch:
            if message["type"] in {"update", "sync"}:
                status, number, legal = message["status"], message["number"], message["legal"]
        if status == "over":
            return frames
        if status == "playing" and legal is not None and legal["required"] and legal["actions"]:
            choice = rng.choice(legal["actions"])["notation"]
            ws.send_json({"type": "act", "number": number, "action": choice, "id": f"n{number}"})
        elif not batch:
            time.sleep(0.002)
        batch = drain(ws)
    raise AssertionError(f"the game did not end; last frames: {frames[-3:]}")


def check_frames(line: Timeline, frames: list[dict[str, Any]], seat: int | None) -> int:
    """Each frame against the engine; returns how many (frame, hidden fact) pairs were checked."""
    checked = 0
    for frame in frames:
        kind = frame["type"]
        if kind not in {"update", "sync"}:
            assert kind in {"welcome", "ack", "table", "error", "pong", "ping"}, frame
            continue
        number = frame["number"]
        if kind == "update" and "ack" in frame:  # the seat's own action, acknowledged: its id and notation
            assert frame["actor"] == seat and frame["ack"]["number"] == number, frame["ack"]
            assert set(frame["ack"]) == {"id", "number", "action"}
        keys = set(frame) - {"ack"} if kind == "update" else set(frame)
        assert keys == (UPDATE_KEYS if kind == "update" else SYNC_KEYS), frame.keys()
        assert frame["view"] == line.view(number, seat), f"{kind} {number}: not the seat's view"
        if kind == "update":
            assert frame["actor"] == line.actors[number]
            assert frame["events"] == line.seen(number, seat), f"update {number}: not the seat's events"
        else:
            for step in frame["steps"]:
                assert step["events"] == line.seen(step["number"], seat)
        if seat is not None:
            text = json.dumps(frame)
            for fact in line.hidden(number, seat):
                checked += 1
                assert fact not in text, f"seat {seat} was sent {fact!r}, hidden from it, in {kind} {number}"
    return checked


def check_replay(line: Timeline, replay: dict[str, Any], seat: int | None) -> None:
    steps = replay["steps"]
    assert [s["number"] for s in steps] == list(range(len(line.states)))
    for step in steps:
        n = step["number"]
        assert step["view"] == line.view(n, seat)
        assert step["events"] == line.seen(n, seat)
        mine = seat is not None and line.actors[n] == seat
        assert step["action"] == (line.actions[n] if mine else None), f"step {n}: another seat's notation"


@pytest.mark.parametrize(("game_id", "players", "options", "seed"), CASES)
def test_every_door_shows_a_seat_only_its_own(
    make_client: Callable[..., TestClient], game_id: str, players: int, options: dict[str, Any], seed: int
) -> None:
    client = make_client(games=REGISTRY)
    game: AnyGame = REGISTRY.get(game_id)
    seats = [{"kind": "human", "name": "Person"}] + [{"kind": "bot", "bot": "random"}] * (players - 1)
    created = create(client, game=game_id, players=players, options=options, seats=seats, seed=seed)
    table_id, token = created["table"]["id"], created["invites"][0]["token"]
    reveals = game.reveals_at_end(game.spec.resolve_options(options))
    assert created["table"]["reveals"] is reveals

    with (
        client.websocket_connect(ws_url(table_id)) as watcher,
        client.websocket_connect(ws_url(table_id)) as ws,
    ):
        hello(watcher)
        frames = play_seat(ws, token, random.Random(seed))
        watched = drain(watcher)
        # (held while watched: a finished table leaves memory once its last connection closes)
        table = client.app.state.service.tables[table_id]  # type: ignore[attr-defined]

    line = rebuild(game, players, options, seed, table.steps)
    assert game.is_over(line.states[-1])
    checked = check_frames(line, frames, 0)
    check_frames(line, watched, None)
    if game.spec.hidden_information:
        assert checked > 0, "nothing was hidden from seat 0: the check looked for nothing"

    last = len(line.states) - 1
    final_hidden = line.hidden(last, 0)
    bearer = {"Authorization": f"Bearer {token}"}
    for url in (f"/api/tables/{table_id}", "/api/tables"):
        text = client.get(url).text
        assert "seed" not in json.loads(text) if url.endswith(table_id) else True
        assert not [fact for fact in final_hidden if fact in text], url

    mine = client.get(f"/api/tables/{table_id}/replay?seat=0", headers=bearer)
    assert mine.status_code == 200, mine.text
    check_replay(line, mine.json(), 0)
    assert not [fact for fact in final_hidden if fact in mine.text]
    spectator = client.get(f"/api/tables/{table_id}/replay")
    check_replay(line, spectator.json(), None)
    assert not [fact for fact in final_hidden if fact in spectator.text]

    for url, headers in (
        (f"/api/tables/{table_id}/explanation?seat=0", bearer),
        (f"/api/tables/{table_id}/explanation", {}),
    ):
        explained = client.get(url, headers=headers)
        assert explained.status_code in {200, 404}, explained.text
        assert not [fact for fact in final_hidden if fact in explained.text], url
        assert token not in explained.text

    record = client.get(f"/api/tables/{table_id}/record")
    revealed = client.get(f"/api/tables/{table_id}/replay?reveal=true")
    others = [
        client.get(f"/api/tables/{table_id}/replay?seat={k}", headers=bearer) for k in range(1, players)
    ]
    anonymous = client.get(f"/api/tables/{table_id}/replay?seat=0")
    others += [
        client.get(f"/api/tables/{table_id}/explanation?seat={k}", headers=bearer) for k in range(1, players)
    ]
    anonymous_explained = client.get(f"/api/tables/{table_id}/explanation?seat=0")
    if reveals:
        assert record.status_code == 200 and record.json()["seed"] == seed
        assert revealed.status_code == 200
        assert all(r.status_code == 200 for r in others) and anonymous.status_code == 200
        assert anonymous_explained.status_code == 200
    else:
        assert final_hidden, "reveal=never hid nothing from seat 0 at the end: the check looked for nothing"
        for refused in (record, revealed, *others, anonymous, anonymous_explained):
            assert refused.status_code == 403, refused.text
            assert refused.json()["error"]["code"] == "secret"
            assert str(seed) not in refused.text


def test_a_request_naming_a_seed_is_refused(client: TestClient) -> None:
    response = client.post("/api/tables", json={"game": "toy", "players": 2, "seed": 5})
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "seed_not_allowed"
    assert "operating system" in error["message"]
    assert client.get("/api/tables").json() == []


def test_deals_and_bots_draw_from_separate_sources(make_client: Callable[..., TestClient]) -> None:
    """The deal comes from ``deal_seeds``, each bot's randomness from ``bot_seeds``: neither from the
    other, and neither from the request."""
    from coven.core import RandomBot, Registry
    from tests.core.toygame import ToyGame

    given: list[int] = []

    class Recorder(RandomBot):
        def __init__(self, game: Any, seat: int, seed: int) -> None:
            given.append(seed)
            super().__init__(game, seat, seed)

    class RecordingToy(ToyGame):
        def bots(self) -> dict[str, Any]:
            return {"random": Recorder}

    registry = Registry()
    registry.register(RecordingToy())
    bot_seeds = iter([1001, 1002])
    client = make_client(games=registry, deal_seeds=lambda: 77, bot_seeds=lambda: next(bot_seeds))
    created = create(client, seats=[{"kind": "bot", "bot": "random"}] * 2)
    table_id = created["table"]["id"]
    with client.websocket_connect(ws_url(table_id)) as ws:
        greeting = hello(ws)
        wait_for(ws, lambda m: m.get("status") == "over", already=greeting)
    assert given == [1001, 1002]
    assert client.get(f"/api/tables/{table_id}/record").json()["seed"] == 77


def test_the_default_sources_are_the_operating_systems() -> None:
    from coven.server import Settings
    from coven.server.settings import secure_seed

    settings = Settings()
    assert settings.deal_seeds is secure_seed and settings.bot_seeds is secure_seed
    draws = {secure_seed() for _ in range(8)}
    assert len(draws) == 8 and all(0 <= d < 2**62 for d in draws)
