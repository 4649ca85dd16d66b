"""Chat at the table: seated players talk, spectators read; lines are bounded, cleaned, stored with the
table and shown in the replay."""

from __future__ import annotations

from tests.server.conftest import TestClient
from tests.server.helpers import create, drain, hello, humans, wait_for, ws_url


def chats(messages: list[dict[str, object]]) -> list[object]:
    return [m["line"] for m in messages if m["type"] == "chat"]


def test_players_talk_and_spectators_read(client: TestClient) -> None:
    created = create(client, seats=humans(2))
    table_id = created["table"]["id"]
    tokens = [i["token"] for i in created["invites"]]
    with (
        client.websocket_connect(ws_url(table_id)) as a,
        client.websocket_connect(ws_url(table_id)) as b,
        client.websocket_connect(ws_url(table_id)) as watcher,
    ):
        hello(a, tokens[0])
        hello(b, tokens[1])
        hello(watcher)
        a.send_json({"type": "chat", "text": "  hello\\n<b>there</b>\x07 "})
        said = {"id": 1, "seat": 0, "number": 0, "text": "hello\\n<b>there</b>"}
        for ws in (a, b, watcher):
            assert said in chats(wait_for(ws, lambda m: m["type"] == "chat"))
        watcher.send_json({"type": "chat", "text": "I am only watching"})
        assert [m["code"] for m in drain(watcher) if m["type"] == "error"] == ["spectator"]
        b.send_json({"type": "chat", "text": "x" * 501})
        b.send_json({"type": "chat", "text": " \x00 "})
        assert [m["code"] for m in drain(b) if m["type"] == "error"] == ["bad_message", "bad_message"]
        assert chats(drain(a)) == []  # nothing refused reached anyone
    with client.websocket_connect(ws_url(table_id)) as late:  # a newcomer gets what was said
        late.send_json({"type": "hello", "token": None, "last": None})
        log = [late.receive_json() for _ in range(3)][2]
        assert log == {"type": "chat_log", "lines": [said]}


def test_chat_is_kept_with_the_table_and_shown_in_the_replay(client: TestClient) -> None:
    created = create(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}], seed=3)
    table_id = created["table"]["id"]
    with client.websocket_connect(ws_url(table_id)) as ws:
        _, sync = hello(ws, created["invites"][0]["token"])
        ws.send_json({"type": "chat", "text": "good luck"})
        wait_for(ws, lambda m: m["type"] == "chat")
        while sync["status"] != "over":
            if sync["legal"] and sync["legal"]["required"]:
                ws.send_json(
                    {
                        "type": "act",
                        "number": sync["number"],
                        "action": sync["legal"]["actions"][0]["notation"],
                    }
                )
            sync = [
                m
                for m in wait_for(ws, lambda m: m["type"] in {"update", "sync"})
                if m["type"] in {"update", "sync"}
            ][-1]
    replay = client.get(f"/api/tables/{table_id}/replay").json()
    assert replay["chat"] == [{"id": 1, "seat": 0, "number": 0, "text": "good luck"}]
