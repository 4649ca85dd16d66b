"""Games for the server tests: the core's toy game and a variant with private events."""

from __future__ import annotations

from coven.core import Event, GameSpec, Option, Registry, Seat, private
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


def test_registry() -> Registry:
    registry = Registry()
    registry.register(TOY)
    registry.register(SECRET_TOY)
    return registry


test_registry.__test__ = False  # type: ignore[attr-defined]
