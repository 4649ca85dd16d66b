"""The 3 Commandments' deck and custom-card preview routes (``/api/games/commandments/...``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from coven.games import REGISTRY
from coven.games.commandments.cards import BUILTIN
from coven.games.commandments.rules import judge_cards, move_context
from coven.server.commandments_cards import SAMPLE_BOARD, SAMPLE_MOVES
from tests.server.conftest import TestClient

DECK = "/api/games/commandments/deck"
PREVIEW = "/api/games/commandments/cards/preview"


@pytest.fixture
def real(make_client: Callable[..., TestClient]) -> TestClient:
    return make_client(games=REGISTRY)


def card(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": "MY1",
        "type": "action",
        "value": 3,
        "en": "If you bow",
        "expr": 'did("bow")',
    }
    base.update(changes)
    return base


def test_the_deck_lists_every_card_of_the_box_in_both_languages(real: TestClient) -> None:
    response = real.get(DECK)
    assert response.status_code == 200
    body = response.json()
    assert [c["id"] for c in body["cards"]] == [c.id for c in BUILTIN]
    by_id = {c["id"]: c for c in body["cards"]}
    a01 = by_id["A01"]
    assert a01 == {
        "id": "A01",
        "type": "artefact",
        "value": "2",
        "en": "If you move a white artefact",
        "fr": "Si vous déplacez un artefact blanc",
        "expr": 'colour == "white"',
    }
    assert {c["type"] for c in body["cards"]} == {"artefact", "action"}
    assert any(c["value"] == "?" for c in body["cards"])
    assert all(c["fr"] and c["en"] != "" for c in body["cards"])
    assert "bow" in body["language"]["gestures"] and "animal" in body["language"]["sayings"]


def test_the_deck_is_not_served_where_the_game_is_not_offered(client: TestClient) -> None:
    response = client.get(DECK)
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "unknown_game"
    assert client.post(PREVIEW, json={"card": card()}).status_code == 404


def test_a_preview_judges_the_card_on_every_sample_move_as_the_engine_does(real: TestClient) -> None:
    response = real.post(PREVIEW, json={"card": card(value="?", expr="words", fr="Mots")})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["ok"] is True
    assert body["card"]["value"] == "?" and body["card"]["fr"] == "Mots"
    assert 0 < body["cost"] <= body["max_cost"]
    assert len(body["sample"]) == len(SAMPLE_MOVES)
    # The same judgement as the engine's on the same board and moves, through a built-in card that
    # counts the same thing would not do: compare with a card parsed like the table's option.
    from coven.games.commandments.cards import parse_custom_cards

    (same,) = parse_custom_cards('[{"id":"MY1","type":"action","value":"?","en":"w","expr":"words"}]')
    expected = [judge_cards([same], move_context(list(SAMPLE_BOARD), m))[0] for m in SAMPLE_MOVES]
    assert [s["karma"] for s in body["sample"]] == expected
    assert [s["marked"] for s in body["sample"]] == [k > 0 for k in expected]
    assert any(expected) and not all(expected), "the sample moves tell a counting card's moves apart"


def test_a_fixed_card_matches_only_the_sample_moves_it_describes(real: TestClient) -> None:
    body = real.post(PREVIEW, json={"card": card()}).json()
    assert [s["karma"] for s in body["sample"]] == [3 if "+bow" in s["move"] else 0 for s in body["sample"]]
    board = real.post(PREVIEW, json={"card": card(type="artefact", value=2, expr='to == "C"')}).json()
    assert [s["marked"] for s in board["sample"]] == [
        s["move"].split()[0].endswith(">C") for s in board["sample"]
    ]


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        ({"expr": 'did("bow")', "type": "artefact"}, "only action cards"),
        ({"expr": "("}, "expr"),
        ({"expr": "(" * 300}, "150 tokens"),
        ({"expr": "x" * 401}, "400"),
        ({"expr": "areas(areas(areas(count(area) > 0) > 0) > 0)", "type": "artefact"}, "nest at most 2"),
        ({"expr": 'did("fly")'}, "fly"),
        ({"value": 0}, "1-9"),
        ({"value": 10}, "1-9"),
        ({"value": True}, "1-9"),
        ({"value": "x"}, "1-9"),
        ({"type": "spell"}, "artefact"),
        ({"en": "  "}, "non-empty"),
        ({"id": "A01"}, "already taken"),
        ({"id": "1bad"}, "letter"),
        ({"expr": "seconds + 1", "value": 3}, "expr"),
    ],
)
def test_a_card_the_language_refuses_gets_a_422_that_says_why(
    real: TestClient, changes: dict[str, Any], why: str
) -> None:
    response = real.post(PREVIEW, json={"card": card(**changes)})
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "invalid_card"
    assert why in error["message"]
    assert len(error["message"]) <= 500


@pytest.mark.parametrize(
    "body",
    [
        b"not json",
        b"[]",
        b'{"card": 3}',
        b'{"card": {"type": "action"}}',
        b'{"card": {"type": "action", "value": 3, "en": "x", "expr": "1", "colour": "red"}}',
        b'{"card": {"type": "action", "value": [1], "en": "x", "expr": "1"}}',
        b'{"card": {"type": "action", "value": 3, "en": "x", "expr": "' + b"a" * 3000 + b'"}}',
        b'{"card": ' + b"[" * 5000 + b"]" * 5000 + b"}",
    ],
)
def test_a_malformed_body_gets_a_422_never_a_500(real: TestClient, body: bytes) -> None:
    response = real.post(PREVIEW, content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 422, response.text
    assert response.json()["error"]["code"] == "bad_request"


def test_the_routes_are_in_the_openapi_document(real: TestClient) -> None:
    paths = real.get("/api/openapi.json").json()["paths"]
    assert "get" in paths[DECK] and "post" in paths[PREVIEW]


def test_a_box_card_as_the_deck_lists_it_is_taken_back_as_a_custom_card(real: TestClient) -> None:
    # a client that copies a card of the box to make its own sends it back as the deck wrote it ("2")
    listed = {c["id"]: c for c in real.get(DECK).json()["cards"]}
    for box_id in ("A01", next(i for i, c in listed.items() if c["value"] == "?")):
        mine = {**listed[box_id], "id": "MY" + box_id}
        answer = real.post(PREVIEW, json={"card": mine})
        assert answer.status_code == 200, answer.text
        assert answer.json()["card"]["value"] == listed[box_id]["value"]
    created = real.post(
        "/api/tables",
        json={
            "game": "commandments",
            "players": 3,
            "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 2,
            "options": {"custom_cards": json.dumps([{**listed["A01"], "id": "MYA01"}])},
        },
    )
    assert created.status_code in (200, 201), created.text
    # a value that is no digit of 1-9 is still refused, saying why
    for bad in ("0", "10", " 2", "2.0", "٢", "+2"):
        refused = real.post(PREVIEW, json={"card": card(value=bad)})
        assert refused.status_code == 422, (bad, refused.text)
        assert "value must be a whole number" in refused.text, (bad, refused.text)
