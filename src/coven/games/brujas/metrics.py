"""Figures for ``coven simulate brujas``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from coven.core import Event, JSONValue


class BrujasMetrics:
    def add(self, state: Any, events: Sequence[Event], bot_of_seat: Sequence[int]) -> None:
        return None

    def result(self) -> dict[str, JSONValue]:
        return {}
