"""Games for the server tests: the core's toy game and a variant with private events."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from coven.core import (
    BotFactory,
    Event,
    GameSpec,
    Option,
    Options,
    RandomBot,
    Registry,
    Seat,
    private,
    public,
)
from tests.core.toygame import GAME as TOY
from tests.core.toygame import Play, ToyGame, ToyState, ToyView


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


@dataclass(frozen=True, slots=True)
class Knock:
    """An optional action: any seat whose turn it is not may knock, once a game."""


@dataclass(slots=True)
class KnockState(ToyState):
    knocked: list[bool] = field(default_factory=list)


class KnockToy(ToyGame):
    """The toy game with an optional actor (like Amulets' casts between answers)."""

    spec = GameSpec(
        id="knock-toy",
        title="Knock toy",
        summary="The toy game; the others may knock once.",
        min_players=2,
        max_players=3,
        options=(Option("hand", 3, "cards per hand", minimum=1, maximum=3),),
        optional_actors=True,
    )
    action_classes = (Play, Knock)

    def setup(self, players: int, options: Options, seed: int) -> KnockState:
        base = super().setup(players, options, seed)
        return KnockState(
            base.players, base.options, base.hands, base.played, base.turn, base.chance, [False] * players
        )

    def clone(self, state: ToyState) -> KnockState:
        assert isinstance(state, KnockState)
        base = super().clone(state)
        return KnockState(
            base.players, base.options, base.hands, base.played, base.turn, base.chance, list(state.knocked)
        )

    def may_act(self, state: ToyState) -> frozenset[Seat]:
        assert isinstance(state, KnockState)
        if not self.to_act(state):
            return frozenset()
        return frozenset(s for s in range(state.players) if s != state.turn and not state.knocked[s])

    def legal_actions(self, state: ToyState, seat: Seat) -> Sequence[Any]:
        if seat in self.may_act(state):
            return [Knock()]
        return super().legal_actions(state, seat)

    def illegal_reason(self, state: ToyState, seat: Seat, action: Any) -> str | None:
        if isinstance(action, Knock):
            return None if seat in self.may_act(state) else "you cannot knock now"
        if seat != state.turn:
            return "it is not your turn to play"
        return super().illegal_reason(state, seat, action)

    def apply_unchecked(self, state: ToyState, seat: Seat, action: Any) -> list[Event]:
        assert isinstance(state, KnockState)
        if isinstance(action, Knock):
            state.knocked[seat] = True
            return [public("knock", seat=seat)]
        return super().apply_unchecked(state, seat, action)

    def format_action(self, action: Any) -> str:
        return "knock" if isinstance(action, Knock) else super().format_action(action)

    def parse_action(self, text: str) -> Any:
        return Knock() if text.strip() == "knock" else super().parse_action(text)

    def bots(self) -> Mapping[str, BotFactory]:
        return {"random": RandomBot, "knocker": Knocker}


class Knocker(RandomBot):
    """Knocks at the first chance; otherwise plays at random."""

    def act(self, view: Any, legal: Sequence[Hashable], required: bool) -> Hashable | None:
        if not required:
            return next((a for a in legal if isinstance(a, Knock)), None)
        return super().act(view, legal, required)


KNOCK_TOY = KnockToy()


class DerivedToy(ToyGame):
    """The toy game whose views carry a derived part (as Amulets' assistant does): the bare view's
    options lack ``derived``, which :meth:`derive_view` adds. What the derivation does is the test's to
    set (:attr:`how`: ``ok``, ``fail``, or seconds to sleep first); every derivation notes the thread it
    ran on (:attr:`threads`)."""

    spec = GameSpec(
        id="derived-toy",
        title="Derived toy",
        summary="The toy game whose views are finished apart.",
        min_players=2,
        max_players=3,
        options=(Option("hand", 3, "cards per hand", minimum=1, maximum=3),),
    )
    how: str | float = "ok"
    threads: list[str] = []  # noqa: RUF012  (shared with the test on purpose)

    def derives_views(self, options: Options) -> bool:
        return True

    def bare_views(self, state: ToyState, seats: Iterable[Seat | None]) -> dict[Seat | None, ToyView]:
        return {seat: self.view(state, seat) for seat in seats}

    def views(self, state: ToyState, seats: Iterable[Seat | None]) -> dict[Seat | None, ToyView]:
        return {seat: self.derive_view(view) for seat, view in self.bare_views(state, seats).items()}

    def derive_view(self, view: ToyView) -> ToyView:
        DerivedToy.threads.append(threading.current_thread().name)
        if DerivedToy.how == "fail":
            raise RuntimeError("the derivation failed")
        if isinstance(DerivedToy.how, float):
            time.sleep(DerivedToy.how)
        return dataclasses.replace(view, options={**view.options, "derived": "yes"})


DERIVED_TOY = DerivedToy()


def test_registry() -> Registry:
    registry = Registry()
    registry.register(TOY)
    registry.register(SECRET_TOY)
    registry.register(GATED_TOY)
    registry.register(KNOCK_TOY)
    registry.register(DERIVED_TOY)
    return registry


test_registry.__test__ = False  # type: ignore[attr-defined]
