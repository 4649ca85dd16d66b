"""A refusal reaches the client with its reason (PROTOCOL.md "Refusals"): beside the error's code and
English message, the key and params the page says in its own language. Over the websocket (a refused
move, a move that is not the seat's, a Commandments move wrong in itself) and over HTTP (an option, the
seats of a new table, a custom card on the deck page)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from coven.core.texts import render
from coven.games import REGISTRY
from tests.server.conftest import TestClient, WebSocketTestSession
from tests.server.helpers import create, drain, hello, humans, ws_url

FR = json.loads(
    (Path(__file__).resolve().parents[2] / "src/coven/web/i18n/fr.json").read_text(encoding="utf-8")
)


@pytest.fixture
def real(make_client: Callable[..., TestClient]) -> TestClient:
    return make_client(games=REGISTRY)


def in_french(reason: dict[str, Any]) -> str:
    """A reason as the page's French catalogue says it (nested reasons first), as the engine renders."""

    params = {k: in_french(v) if isinstance(v, dict) else v for k, v in reason["params"].items()}
    text = render(reason["key"], params, FR, "fr")
    assert text is not None, reason
    return text


def act(ws: WebSocketTestSession, number: int, action: str) -> dict[str, Any]:
    """Send a move; the error the server answers it with."""
    ws.send_json({"type": "act", "number": number, "action": action, "id": "m"})
    (error,) = [m for m in drain(ws) if m["type"] == "error"]
    assert error["id"] == "m" and error["number"] == number
    return error


def seated(client: TestClient, game: str, players: int) -> tuple[list[WebSocketTestSession], dict[str, Any]]:
    created = create(client, game, players, seats=humans(players), seed=3)
    sockets = []
    for invite in created["invites"]:
        ws = client.websocket_connect(ws_url(created["table"]["id"])).__enter__()
        hello(ws, invite["token"])
        sockets.append(ws)
    for ws in sockets:
        drain(ws)
    ws = sockets[0]
    ws.send_json({"type": "sync", "last": None})
    (sync,) = [m for m in drain(ws) if m["type"] == "sync"]
    return sockets, sync


def test_a_refused_move_comes_with_its_reason(real: TestClient) -> None:
    sockets, sync = seated(real, "brujas", 3)
    try:
        (mover,) = sync["to_act"]
        other = (mover + 1) % 3
        mine = sockets[mover]
        mine.send_json({"type": "sync", "last": None})
        (own,) = [m for m in drain(mine) if m["type"] == "sync"]
        missing = next(f"{c}{n}" for c in "RBYG" for n in range(1, 6) if f"{c}{n}" not in own["view"]["hand"])
        error = act(mine, 0, missing)
        assert error["code"] == "illegal_action" and error["message"] == f"you hold no {missing}"
        assert error["reason"] == {"key": "refusal.brujas.not_in_hand", "params": {"card": missing}}
        assert in_french(error["reason"]) == f"vous n'avez pas de {missing} en main"
        error = act(mine, 0, "xR3")  # a card picked from a trick while cards are played
        assert error["reason"] == {
            "key": "refusal.brujas.no_take_now",
            "params": {"task": {"key": "refusal.brujas.task.play", "params": {}}},
        }
        assert in_french(error["reason"]).endswith("c'est le moment de jouer une carte")
        error = act(sockets[other], 0, missing)
        assert error["code"] == "not_your_turn"
        assert error["reason"] == {"key": "refusal.core.not_your_turn", "params": {"seat": other}}
        # nothing was played
        assert all(m["type"] != "update" for ws in sockets for m in drain(ws))
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)


def test_a_commandments_move_wrong_in_itself_says_why_as_it_is_read(real: TestClient) -> None:
    sockets, _ = seated(real, "commandments", 3)
    try:
        error = act(sockets[0], 0, "bk1>C +moonwalk")
        assert error["code"] == "bad_notation"
        assert error["reason"]["key"] == "refusal.commandments.not_gesture"
        assert error["reason"]["params"]["value"] == "'moonwalk'"
        assert in_french(error["reason"]).startswith("'moonwalk' n'est pas un geste (au choix : stand, dance")
        # a move that cannot be read says why too (the page answers a text that is no move at all,
        # *.notation.unknown, with its own account of how moves are written)
        error = act(sockets[0], 0, "bk3>Q")
        assert error["code"] == "bad_notation"
        assert error["reason"] == {"key": "refusal.commandments.notation.area", "params": {"text": "'Q'"}}
        assert (
            in_french(error["reason"]) == "'Q' n'est pas une zone (C, H1-H5, T1-T5, R ; X = hors du cercle)"
        )
        error = act(sockets[0], 0, "zzz")
        assert error["code"] == "bad_notation"
        assert error["reason"] == {
            "key": "refusal.commandments.notation.unknown",
            "params": {"text": "'zzz'"},
        }
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)


def test_an_option_the_game_refuses_comes_with_its_reason(real: TestClient) -> None:
    response = real.post(
        "/api/tables", json={"game": "amulets", "players": 3, "options": {"question_cap": 999}}
    )
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "invalid_option"
    assert error["message"] == "option question_cap is at most 60, not 999"
    assert error["reason"] == {
        "key": "refusal.option.maximum",
        "params": {"option": "question_cap", "max": 60, "value": "999"},
    }
    assert in_french(error["reason"]) == "l'option question_cap vaut au plus 60, pas 999"
    seats = [{"kind": "human", "name": None}]
    response = real.post("/api/tables", json={"game": "brujas", "players": 3, "seats": seats})
    assert response.status_code == 422
    assert response.json()["error"]["reason"] == {
        "key": "refusal.table.seats",
        "params": {"players": 3, "seats": 1},
    }
    # an error the engine did not give has no reason
    response = real.post("/api/tables", json={"game": "nope", "players": 3})
    assert response.status_code == 404 and set(response.json()["error"]) == {"code", "message"}


def test_a_card_the_deck_page_makes_is_refused_with_its_reason(real: TestClient) -> None:
    card = {"id": "MY1", "type": "action", "value": 3, "en": "If you bow", "expr": "did('bow') and"}
    response = real.post("/api/games/commandments/cards/preview", json={"card": card})
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "invalid_card"
    assert (
        error["message"] == "the card (MY1): expr \"did('bow') and\": expected a value at 14, found 'the end'"
    )
    assert error["reason"] == {
        "key": "refusal.commandments.cards.bad_card",
        "params": {
            "card": {"key": "refusal.commandments.cards.the_card_id", "params": {"n": 1, "id": "MY1"}},
            "problem": {
                "key": "refusal.commandments.card.expr",
                "params": {
                    "expr": "\"did('bow') and\"",
                    "problem": {"key": "refusal.commandments.card.no_value_end", "params": {"at": 14}},
                },
            },
        },
    }
    assert in_french(error["reason"]) == (
        "la carte (MY1) : l'expression \"did('bow') and\" : il faut une valeur en position 14, "
        "mais l'expression s'arrête là"
    )
