"""Games for the server tests: the core's toy game and a variant with private events."""

from __future__ import annotations

import threading
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from coven.core import BotFactory, Event, GameSpec, Option, RandomBot, Registry, Seat, private
from tests.core.toygame import GAME as TOY
from tests.core.toygame import Play, ToyGame, ToyState


class SecretToy(ToyGame):
    """The toy game, and after each play a private note to the player of what they still hold."""

    spec = GameSpec(
        id="secret-toy",
        title="Secret toy",
        summary="The toy game with private events.",
        min_players=2,
        max_players=3,
        options=(Option("hand", 3, "cards per hand", minimum=1, maximum=3),),
    )

    def apply_unchecked(self, state: ToyState, seat: Seat, action: Play) -> list[Event]:
        events = super().apply_unchecked(state, seat, action)
        held = "".join(str(c) for c in state.hands[seat])
        return [*events, private("kept", [seat], secret=f"SECRET-{seat}-{held}")]


SECRET_TOY = SecretToy()

GATE = threading.Event()
"""Opens the gate bot's thinking (a slow search stand-in that waits for the test)."""


class GateBot(RandomBot):
    def act(self, view: Any, legal: Sequence[Hashable], required: bool) -> Hashable | None:
        assert GATE.wait(timeout=20), "the gate never opened"
        return super().act(view, legal, required)


class GatedToy(ToyGame):
    spec = GameSpec(
        id="gated-toy",
        title="Gated toy",
        summary="The toy game with a bot that thinks until the test lets it.",
        min_players=2,
        max_players=3,
        options=(Option("hand", 3, "cards per hand", minimum=1, maximum=3),),
    )

    def bots(self) -> Mapping[str, BotFactory]:
        return {"random": RandomBot, "gate": GateBot}


GATED_TOY = GatedToy()


def test_registry() -> Registry:
    registry = Registry()
    registry.register(TOY)
    registry.register(SECRET_TOY)
    registry.register(GATED_TOY)
    return registry


test_registry.__test__ = False  # type: ignore[attr-defined]
