"""Events: what happened, and who may learn of it."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from coven.core.errors import NotationError
from coven.core.types import JSONValue, Seat


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened in a game.

    ``data`` holds only JSON values (cards and actions in the game's notation). ``audience`` is
    ``None`` when everyone, spectators included, may see the event; otherwise the seats that may.
    Logs and notifications are filtered with :meth:`visible_to`, exactly like views.
    """

    kind: str
    data: Mapping[str, JSONValue] = field(default_factory=dict)
    audience: frozenset[Seat] | None = None

    def visible_to(self, seat: Seat | None) -> bool:
        return self.audience is None or (seat is not None and seat in self.audience)

    def to_json(self) -> dict[str, JSONValue]:
        out: dict[str, JSONValue] = {"kind": self.kind, "data": dict(self.data)}
        if self.audience is not None:
            out["audience"] = [int(s) for s in sorted(self.audience)]
        return out

    @classmethod
    def from_json(cls, raw: Any) -> Event:
        if not isinstance(raw, dict) or not isinstance(raw.get("kind"), str):
            raise NotationError(f"not an event: {raw!r}")
        data = raw.get("data", {})
        if not isinstance(data, dict):
            raise NotationError(f"event data must be an object: {raw!r}")
        audience = raw.get("audience")
        if audience is not None and not (
            isinstance(audience, list) and all(isinstance(s, int) for s in audience)
        ):
            raise NotationError(f"event audience must be a list of seats: {raw!r}")
        return cls(raw["kind"], data, None if audience is None else frozenset(audience))


def public(kind: str, **data: JSONValue) -> Event:
    """An event everyone sees."""
    return Event(kind, data)


def private(kind: str, seats: Iterable[Seat], **data: JSONValue) -> Event:
    """An event only ``seats`` see."""
    return Event(kind, data, frozenset(seats))


def slot_setters(cls: type) -> tuple[Callable[[Any, Any], None], ...]:
    """The setters of a frozen, slotted dataclass's fields, in field order. A hot path (a playout makes
    events, log entries and actions at every decision) fills such a value's slots directly, on
    ``object.__new__(cls)``, instead of through the frozen ``__init__`` (one ``object.__setattr__`` per
    field); it must then fill every field, and tests pin the result to the plain constructor's."""
    return tuple(vars(cls)[f.name].__set__ for f in dataclasses.fields(cls))


_new = object.__new__
_set_kind, _set_data, _set_audience = slot_setters(Event)


def fast_event(kind: str, data: Mapping[str, JSONValue], audience: frozenset[Seat] | None = None) -> Event:
    """``Event(kind, data, audience)``, its slots filled directly (see :func:`slot_setters`)."""
    event: Event = _new(Event)
    _set_kind(event, kind)
    _set_data(event, data)
    _set_audience(event, audience)
    return event


def filter_events(events: Iterable[Event], seat: Seat | None) -> list[Event]:
    return [e for e in events if e.visible_to(seat)]
