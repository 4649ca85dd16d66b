"""GET /api/tables/{id}/explanation: explained results of a finished table, with the replay's secrecy."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from coven.core import Game, Record, replay_steps
from coven.core.explain import moments_from_steps
from coven.games import REGISTRY
from tests.server.conftest import TestClient
from tests.server.helpers import create, hello, latest, wait_for, ws_url

AnyGame = Game[Any, Any, Any]
WEB = Path(__file__).resolve().parents[2] / "src" / "coven" / "web" / "i18n"


def _finish(client: TestClient, game: str, players: int, seed: int, **options: Any) -> dict[str, Any]:
    bots = [{"kind": "bot", "bot": "greedy"}] * players
    created = create(client, game=game, players=players, seats=bots, seed=seed, options=options)
    with client.websocket_connect(ws_url(created["table"]["id"])) as ws:
        greeting = hello(ws)
        wait_for(ws, lambda m: m.get("status") == "over", already=greeting)
    return created


def _sums(body: dict[str, Any]) -> list[float]:
    return [sum(line["points"] for line in seat["lines"]) for seat in body["seats"]]


@pytest.mark.parametrize("game_id", ["brujas", "namaste", "amulets", "commandments"])
def test_explanation_adds_up_to_the_result(make_client: Callable[..., TestClient], game_id: str) -> None:
    client = make_client(games=REGISTRY)
    game: AnyGame = REGISTRY.get(game_id)
    players = game.spec.min_players
    table_id = _finish(client, game_id, players, seed=5)["table"]["id"]
    result = client.get(f"/api/tables/{table_id}").json()["result"]
    replay = client.get(f"/api/tables/{table_id}/replay?seat=0").json()
    last = len(replay["steps"]) - 1
    for query in ("", "?seat=0", f"?seat={players - 1}"):
        response = client.get(f"/api/tables/{table_id}/explanation{query}")
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["game"] == game_id and body["scores"] == result["scores"]
        assert _sums(body) == result["scores"] == [s["score"] for s in body["seats"]]
        assert body["winners"] == result["winners"]
        assert body["summary"]
        steps = [st for seat in body["seats"] for line in seat["lines"] for st in line["steps"]]
        assert all(1 <= st <= last for st in steps)
    # the same explanation the engine gives from the final view and the events the seat saw
    record = Record.from_json(client.get(f"/api/tables/{table_id}/record").json())
    numbered = [(number, step) for number, step in enumerate(replay_steps(game, record))]
    moments = moments_from_steps(((number, step.events) for number, step in numbered), 0)
    expected = game.explain(game.view(numbered[-1][1].state, 0), moments)
    assert expected is not None
    body = client.get(f"/api/tables/{table_id}/explanation?seat=0").json()
    assert body["summary"] == expected.summary
    assert [[ln["label"] for ln in s["lines"]] for s in body["seats"]] == [
        [ln.label for ln in s.lines] for s in expected.seats
    ]


def test_explanation_refusals(make_client: Callable[..., TestClient]) -> None:
    client = make_client(games=REGISTRY)
    waiting = create(client, game="brujas", players=3)["table"]["id"]
    response = client.get(f"/api/tables/{waiting}/explanation")
    assert (response.status_code, response.json()["error"]["code"]) == (409, "not_over")
    assert client.get("/api/tables/nope/explanation").status_code == 404
    table_id = _finish(client, "brujas", 3, seed=2)["table"]["id"]
    assert client.get(f"/api/tables/{table_id}/explanation?seat=3").status_code == 422
    assert client.get(f"/api/tables/{table_id}/explanation?seat=x").status_code == 422


def test_a_table_that_keeps_its_secrets_explains_a_seat_only_to_that_seat(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(games=REGISTRY)
    seats = [{"kind": "human", "name": "Ana"}] + [{"kind": "bot", "bot": "greedy"}] * 2
    created = create(client, game="commandments", players=3, seats=seats, seed=9, options={"reveal": "never"})
    table_id = created["table"]["id"]
    token = created["invites"][0]["token"]
    with client.websocket_connect(ws_url(table_id)) as ws:
        current = latest(hello(ws, token))
        while current.get("status") != "over":
            if current.get("legal"):
                notation = current["legal"]["actions"][0]["notation"]
                ws.send_json({"type": "act", "number": current["number"], "action": notation})
            number = current["number"]
            seen = wait_for(
                ws, lambda m, after=number: m["type"] in {"sync", "update"} and m["number"] > after
            )
            current = latest(seen)
    denied = client.get(f"/api/tables/{table_id}/explanation?seat=0")
    assert (denied.status_code, denied.json()["error"]["code"]) == (403, "secret")
    wrong = client.get(
        f"/api/tables/{table_id}/explanation?seat=0", headers={"Authorization": "Bearer not-the-token"}
    )
    assert wrong.status_code == 403
    mine = client.get(
        f"/api/tables/{table_id}/explanation?seat=0", headers={"Authorization": f"Bearer {token}"}
    )
    assert mine.status_code == 200
    spectator = client.get(f"/api/tables/{table_id}/explanation")
    assert spectator.status_code == 200
    # her own ritual's cards are named to her; the spectator learns only that they stay secret
    assert any("taboo" in note for note in mine.json()["notes"])
    assert not any("taboo" in note for note in spectator.json()["notes"])
    assert _sums(mine.json()) == _sums(spectator.json()) == mine.json()["scores"]


def _render(key: str, params: dict[str, Any], catalogue: dict[str, str], lang: str) -> str | None:
    """What the page does with a text's key and params (result.js): the catalogue's template, nested
    messages first, a count's .one/.other form, a text in each language picked; None if a key is unknown."""

    def value(v: Any) -> str | None:
        if isinstance(v, list):
            parts = [value(x) for x in v]
            return None if None in parts else ", ".join(str(p) for p in parts)
        if isinstance(v, dict):
            return _render(v["key"], v["params"], catalogue, lang) if "key" in v else v.get(lang, v["en"])
        return f"{v:g}" if isinstance(v, float) else str(v)

    values = {name: value(v) for name, v in params.items()}
    if None in values.values():
        return None
    template = catalogue.get(key)
    n = params.get("n")
    if template is None and isinstance(n, int | float):
        one = abs(n) < 2 if lang == "fr" else n == 1
        template = catalogue.get(f"{key}.{'one' if one else 'other'}")
    if template is None:
        return None
    return re.sub(r"\{(\w+)\}", lambda m: str(values.get(m.group(1), m.group(0))), template)


@pytest.mark.parametrize("game_id", ["brujas", "namaste", "amulets", "commandments"])
def test_explanation_texts_carry_their_message_keys(
    make_client: Callable[..., TestClient], game_id: str
) -> None:
    """The English fields stay as they were; beside each text its key and params, from which the page's
    catalogues give back the same English text, and French."""
    client = make_client(games=REGISTRY)
    game: AnyGame = REGISTRY.get(game_id)
    table_id = _finish(client, game_id, game.spec.min_players, seed=3)["table"]["id"]
    body = client.get(f"/api/tables/{table_id}/explanation?seat=0").json()
    assert {"table", "game", "seat", "summary", "notes", "winners", "scores", "seats"} <= set(body)
    en, fr = (json.loads((WEB / f"{lang}.json").read_text(encoding="utf-8")) for lang in ("en", "fr"))
    texts: list[tuple[str, str, dict[str, Any]]] = [
        (body["summary"], body["summary_key"], body["summary_params"])
    ]
    texts += [(n, k["key"], k["params"]) for n, k in zip(body["notes"], body["note_keys"], strict=True)]
    for seat in body["seats"]:
        assert {"seat", "score", "lines", "notes", "note_keys"} <= set(seat)
        for line in seat["lines"]:
            assert {"label", "points", "steps", "key", "params"} <= set(line)
            texts.append((line["label"], line["key"], line["params"]))
        texts += [(n, k["key"], k["params"]) for n, k in zip(seat["notes"], seat["note_keys"], strict=True)]
    assert len(texts) > game.spec.min_players
    for english, key, params in texts:
        assert key.startswith("why."), (english, key)
        assert _render(key, params, en, "en") == english
        in_french = _render(key, params, fr, "fr")
        assert in_french is not None and in_french != english, english
