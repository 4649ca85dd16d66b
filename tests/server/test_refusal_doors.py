"""Refused moves tell a seat nothing it may not know: all four games, every seat a person.

At each step every seat sends moves it may not make (other seats' legal moves, and moves naming facts
hidden from it: another hand's cards, another wizard's home, a priestess's discard), and every frame it is
sent back, refusals included, is read as raw text for facts hidden from it (``Game.hidden_facts``), the
words it sent itself and the notation's own fixed examples (``R3``, ``14@c3``) set aside. Then a random
legal move is made and every seat's frames are read the same way.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from rich.text import Text

from coven.games import REGISTRY
from tests.server.conftest import TestClient
from tests.server.helpers import create, drain, hello, ws_url

CASES = [
    ("brujas", 3, {"silent": True}, 41),
    ("brujas", 4, {}, 47),
    ("namaste", 3, {}, 43),
    ("commandments", 3, {}, 44),
    ("commandments", 4, {"reveal": "never", "expert": True, "judge": "priestess"}, 45),
    ("amulets", 3, {}, 42),
]
HINTS = ("(R3), a pick (xR3)", "'14@c3'")
"""Fixed examples in the games' notation help (not facts of any deal)."""


def hidden(game: Any, state: Any, seat: int) -> set[str]:
    """Facts hidden from ``seat`` that its own picture does not show anyway (two copies of a card)."""
    own = Text.from_markup(game.render(game.view(state, seat))).plain
    return {f for f in game.hidden_facts(state, seat) if f not in own}


def found(facts: set[str], text: str) -> list[str]:
    """The facts written in ``text`` as whole words (``4@c3`` is not in ``14@c3``)."""
    for h in HINTS:
        text = text.replace(h, "")
    return [f for f in facts if re.search(r"(?<![\w@])" + re.escape(f) + r"(?![\w@])", text)]


@pytest.mark.parametrize(("game_id", "players", "options", "seed"), CASES)
def test_a_refused_move_tells_a_seat_nothing_hidden_from_it(
    make_client: Callable[..., TestClient], game_id: str, players: int, options: dict[str, Any], seed: int
) -> None:
    client = make_client(games=REGISTRY)
    game = REGISTRY.get(game_id)
    seats = [{"kind": "human", "name": f"P{i}"} for i in range(players)]
    created = create(client, game=game_id, players=players, options=options, seats=seats, seed=seed)
    tid = created["table"]["id"]
    tokens = [i["token"] for i in created["invites"]]
    rng = random.Random(seed)
    problems: list[str] = []
    socks = [client.websocket_connect(ws_url(tid)) for _ in range(players)]
    wss = [s.__enter__() for s in socks]
    try:
        for ws, tok in zip(wss, tokens, strict=True):
            hello(ws, tok)
        table = client.app.state.service.tables[tid]  # type: ignore[attr-defined]
        for _round in range(60):
            state = table.state
            if game.is_over(state):
                break
            number = table.number
            legal = {
                s: [game.format_action(a) for a in itertools.islice(game.legal_actions(state, s), 60)]
                for s in range(players)
            }
            facts = {s: hidden(game, state, s) for s in range(players)}
            for s in range(players):
                drain(wss[s])
            for s in range(players):
                probes: list[str] = []
                for o in range(players):
                    # (Namaste's passive seats decide together: another's move is often the prober's own)
                    if o != s and game_id != "namaste":
                        probes += rng.sample(legal[o], min(4, len(legal[o])))
                for f in rng.sample(sorted(facts[s]), min(5, len(facts[s]))):
                    probes += [f, f"x{f}", f"ordain {f} {f}"]
                for k, p in enumerate(probes):
                    wss[s].send_json({"type": "act", "number": number, "action": p, "id": f"p{k}"})
                for fr in drain(wss[s]):
                    raw = json.dumps(fr)
                    if fr.get("type") == "error" and str(fr.get("id", "")).startswith("p"):
                        sent = probes[int(fr["id"][1:])]
                        for t in re.split(r"[\s,]+", sent):  # its own words said back: B1 of xB1 too
                            if t:
                                raw = raw.replace(t, "").replace(t.removeprefix("x"), "")
                    bad = found(facts[s], raw)
                    if bad:
                        problems.append(f"seat {s} n{number}: {bad} in {json.dumps(fr)[:500]}")
            if table.number != number:  # a probe was a move this seat could make (an Amulets cast)
                continue
            s = sorted(game.to_act(state))[0]
            wss[s].send_json({"type": "act", "number": number, "action": rng.choice(legal[s]), "id": "go"})
            for o in range(players):
                for fr in drain(wss[o]):
                    bad = found(hidden(game, table.state, o), json.dumps(fr))
                    if bad:
                        problems.append(f"seat {o} frame {fr.get('type')}: {bad} in {json.dumps(fr)[:500]}")
    finally:
        for sock in socks:
            sock.__exit__(None, None, None)
    assert not problems, "\n".join(problems[:10])
