"""Replays of finished games: made off the event loop, a few at a time, and kept (coven.server.replays)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from coven.server import replays, schemas
from coven.server.replays import Replays
from tests.server.conftest import TestClient
from tests.server.test_http import _finished_table


def _replays(client: TestClient) -> Replays:
    made: Replays = client.app.state.lobby.replays  # type: ignore[attr-defined]
    return made


class Gate:
    """Holds every replay being made until it is opened (and tells when one has begun)."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.open = threading.Event()


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    held = Gate()
    made = replays.replay_json

    def waiting(*args: Any) -> list[dict[str, Any]]:
        held.entered.set()
        held.open.wait(10)
        return made(*args)

    monkeypatch.setattr(replays, "replay_json", waiting)
    yield held
    held.open.set()


def _in_thread(call: Callable[[], httpx.Response]) -> tuple[threading.Thread, list[httpx.Response]]:
    answers: list[httpx.Response] = []
    thread = threading.Thread(target=lambda: answers.append(call()), daemon=True)
    thread.start()
    return thread, answers


def test_a_replay_is_made_once_and_kept(client: TestClient) -> None:
    table_id = _finished_table(client)
    made = _replays(client)
    first = client.get(f"/api/tables/{table_id}/replay?seat=0")
    again = client.get(f"/api/tables/{table_id}/replay?seat=0")
    assert first.status_code == again.status_code == 200
    assert first.headers["content-type"] == "application/json"
    assert first.content == again.content and made.made == 1
    body = schemas.ReplayOut.model_validate_json(first.content)  # the documented shape
    assert body.seat == 0 and len(body.steps) == 7 and body.steps[-1].scores == body.result.scores
    # another seat, the revealed one: each made once, each its own
    spectator = client.get(f"/api/tables/{table_id}/replay").json()
    revealed = client.get(f"/api/tables/{table_id}/replay?reveal=true").json()
    assert made.made == 3
    assert [s["action"] for s in spectator["steps"][1:]] == [None] * 6
    assert all(s["action"] is not None for s in revealed["steps"][1:])
    assert made.kept_bytes > 0


def test_other_requests_are_served_while_a_replay_is_made(client: TestClient, gate: Gate) -> None:
    """A replay can cost seconds of CPU: it is made beside the event loop, never on it."""
    table_id = _finished_table(client)
    thread, answers = _in_thread(lambda: client.get(f"/api/tables/{table_id}/replay?seat=1"))
    assert gate.entered.wait(10)
    assert client.get("/api/health").status_code == 200  # (on the loop, this waited for the gate)
    assert client.get(f"/api/tables/{table_id}").json()["status"] == "over"
    assert not answers  # the replay is still being made
    gate.open.set()
    thread.join(10)
    assert answers[0].status_code == 200 and answers[0].json()["seat"] == 1


def test_past_its_queue_a_replay_is_refused_at_once(client: TestClient, gate: Gate) -> None:
    table_id = _finished_table(client)
    client.app.state.lobby.replays = Replays(workers=1, waiting=0)  # type: ignore[attr-defined]
    url = f"/api/tables/{table_id}/replay?seat=0"
    first, first_answer = _in_thread(lambda: client.get(url))
    assert gate.entered.wait(10)
    # the same replay again waits for the one being made; another one is refused, and says when to ask again
    same, same_answer = _in_thread(lambda: client.get(url))
    refused = client.get(f"/api/tables/{table_id}/replay?seat=1")
    assert refused.status_code == 503 and refused.headers["retry-after"] == "1"
    assert refused.json()["error"]["code"] == "busy"
    gate.open.set()
    first.join(10)
    same.join(10)
    assert first_answer[0].status_code == same_answer[0].status_code == 200
    assert first_answer[0].content == same_answer[0].content
    assert _replays(client).made == 1
    assert client.get(f"/api/tables/{table_id}/replay?seat=1").status_code == 200  # room again


def test_what_is_kept_stays_within_its_budget(client: TestClient) -> None:
    table_id = _finished_table(client)
    kept = Replays(budget=0)  # nothing fits: every request makes it again
    client.app.state.lobby.replays = kept  # type: ignore[attr-defined]
    for _ in range(2):
        assert client.get(f"/api/tables/{table_id}/replay?seat=0").status_code == 200
    assert kept.made == 2 and kept.kept_bytes == 0
    one = Replays()
    client.app.state.lobby.replays = one  # type: ignore[attr-defined]
    client.get(f"/api/tables/{table_id}/replay?seat=0")
    room = one.kept_bytes
    roomy = Replays(budget=room + room // 2)  # room for one of two alike: the older one goes
    client.app.state.lobby.replays = roomy  # type: ignore[attr-defined]
    client.get(f"/api/tables/{table_id}/replay?seat=0")
    client.get(f"/api/tables/{table_id}/replay?seat=1")
    assert roomy.made == 2 and roomy.kept_bytes <= roomy.budget
    client.get(f"/api/tables/{table_id}/replay?seat=1")  # kept
    assert roomy.made == 2
    client.get(f"/api/tables/{table_id}/replay?seat=0")  # had gone
    assert roomy.made == 3
