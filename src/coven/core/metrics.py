"""Game-specific figures gathered over a tournament."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from coven.core.events import Event
from coven.core.types import JSONValue


class Metrics(Protocol):
    def add(self, state: Any, events: Sequence[Event], bot_of_seat: Sequence[int]) -> None:
        """Account one finished game; ``bot_of_seat[s]`` is the index (in ``--bots``) of seat s."""

    def result(self) -> dict[str, JSONValue]: ...


class NoMetrics:
    def add(self, state: Any, events: Sequence[Event], bot_of_seat: Sequence[int]) -> None:
        return None

    def result(self) -> dict[str, JSONValue]:
        return {}
