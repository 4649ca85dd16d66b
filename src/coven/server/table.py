"""One live table: its state, its numbered log and listeners, and what it shows each seat after each step.

A table's frames are made here, each part once per action number for every seat that asks (who acts,
the pace, each seat's view, legal list and ``update`` frame); :mod:`coven.server.tables` owns the
tables, applies actions under each table's lock, commits them and runs the bots. This module does no
I/O of its own (a frame goes to a :class:`Listener`, the connection's writer) and nothing patches it in
tests: it is compiled with mypyc where the machine can (``setup.py``), as the engine's hot modules are,
since its work is done for every seat after every move (compiled, a move cost about a tenth less CPU in
``coven bench server``, measured for issue 12).
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import hmac
import operator
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final, Protocol

import msgspec

from coven.core import Bot, Event, GameError, Options, Seat, is_fixed
from coven.core.game import AnyGame
from coven.server.messages import ErrorCode, ProtocolError, dumps, encode_json, reason_json, with_ack
from coven.store import ChatLine, StoredSeat, hash_token

_MISSING: Any = object()


class Listener(Protocol):
    """A connection watching a table (``seat`` None: a spectator)."""

    seat: Seat | None

    def send_text(self, text: str) -> None: ...


LAST_SECONDS = 15.0
"""With a clock, what a person whose bank is empty still has for each move before a bot stands in."""

OPTIONAL_LISTED = 8
"""Legal actions listed for a seat that may act without having to (an Amulets cast), and for a seat the
game waits for whose actions outnumber the cap (a huge space: Amulets' millions of questions, a
Commandments novice's thousands of performances): a sample, enough for the page to offer the moment and
its board to know which kinds of action it holds; the seat types or builds its action (``free_form``)
and the server validates it. Listing 60 of 6.4 million questions on every move cost more CPU than the
rules' whole step (measured for issue 12), and told the page nothing more."""


LEGAL_ENTRIES_BOUND = 2048
"""Legal-list entries kept (see :func:`legal_entry`)."""


@functools.lru_cache(maxsize=LEGAL_ENTRIES_BOUND)
def legal_entry(game: AnyGame, action: Hashable) -> dict[str, Any]:
    """An action as a legal list shows it, built once: the same actions are offered move after move, and a
    list may hold dozens. Only the notation travels (what a page shows and sends back; the JSON form of
    an action would triple a list's size, and a client that wants it builds it). Shared: never mutate.

    The least recently offered go past :data:`LEGAL_ENTRIES_BOUND`: Namaste offers about 700 actions in
    all, but The 3 Commandments' ordainments are pairs of a priestess's cards, thousands of them, seldom
    offered twice (with 16,384 kept, their entries grew the server by about 7 MB over its first thousand
    games, measured for issue 12)."""
    return {"notation": game.format_action(action)}


@dataclass(slots=True)
class LoggedStep:
    number: int
    actor: Seat
    action: str
    events: list[Event]
    together: frozenset[Seat] = frozenset()
    """The seats the game waited for when this step was taken (a simultaneous decision: several)."""
    _shown: list[tuple[frozenset[Seat] | None, dict[str, Any]]] | None = field(
        default=None, repr=False, compare=False
    )
    """Each event's audience and JSON form, made once for every seat that is sent the step."""

    def __init__(
        self,
        number: int,
        actor: Seat,
        action: str,
        events: list[Event],
        together: frozenset[Seat] = frozenset(),
        _shown: list[tuple[frozenset[Seat] | None, dict[str, Any]]] | None = None,
    ) -> None:
        # written out (not the dataclass's, which is interpreted code): compiled, each field is a slot
        # store, and a step is made for every move (see the note above Taken)
        self.number = number
        self.actor = actor
        self.action = action
        self.events = events
        self.together = together
        self._shown = _shown

    def events_json(self, seat: Seat | None) -> list[dict[str, Any]]:
        """The JSON forms of the events ``seat`` sees (:meth:`Event.visible_to`). Shared between the
        seats' frames: never mutate."""
        shown = self._shown
        if shown is None:
            shown = self._shown = [(e.audience, e.to_json()) for e in self.events]
        return [
            made for audience, made in shown if audience is None or (seat is not None and seat in audience)
        ]


@dataclass(slots=True, eq=False)
class _Listing:
    """A legal sequence a game gave, and its first ``len(entries)`` actions as a seat's legal list shows
    them. A listing that lasts (:data:`_FIXED_LISTINGS`) also reads its entries back: see :meth:`read`."""

    actions: Sequence[Hashable]
    entries: list[dict[str, Any]]
    _read: dict[str, Hashable] | None = None
    """Listed notations read back, each once, to the listed action the game reads from it (None: the game
    reads it otherwise); never a text the listing does not hold."""
    _written: dict[bool, msgspec.Raw] | None = None
    """The ``legal`` member as JSON, by whether the seat must act (see :meth:`written`)."""

    def member(self, required: bool) -> dict[str, Any]:
        """The ``legal`` member of a seat given this listing (``required``: the game waits for it)."""
        count = len(self.actions)
        truncated = len(self.entries) < count
        return {
            "required": required,
            "actions": self.entries,
            "count": count,
            "truncated": truncated,
            "free_form": truncated,
        }

    def written(self, required: bool) -> msgspec.Raw:
        """:meth:`member` as JSON, written once per listing: a listing that lasts (a Commandments
        novice's 2,521 performances, Amulets' casts and questions) is written once for every seat, move
        and table given it, not once per frame (its 60 entries took 5.5 µs a frame to write, the written
        text 0.5 µs to copy, measured for issue 12)."""
        written = self._written
        if written is None:
            written = self._written = {}
        made = written.get(required)
        if made is None:
            made = written[required] = msgspec.Raw(encode_json(self.member(required)))
        return made

    def read(self, game: AnyGame, text: str) -> Hashable | None:
        """The listed action written ``text``, if the game reads ``text`` as that very action (None: not
        listed, or not read so). A person mostly sends an action their page was offered: a listing kept
        from move to move and table to table finds it without reading the text, once the game has read
        it once (the action applied must be the one a replay of the log will read).

        Only listed notations are remembered (at most one per entry): a listing lasts from move to move
        and table to table, and a client may send any number of other texts (refused, each, by the
        usual path), which remembered would grow the server without bound."""
        known = self._read
        if known is None:
            known = self._read = {}
        action = known.get(text)
        if action is not None or text in known:
            return action
        listed = next(
            (a for e, a in zip(self.entries, self.actions, strict=False) if e["notation"] == text), None
        )
        if listed is None:
            return None
        try:
            read_so = game.parse_action(text) == listed
        except Exception:  # the generic path reads it again, and says why it cannot
            read_so = False
        known[text] = listed if read_so else None
        return known[text]


_FIXED_LISTINGS: OrderedDict[tuple[AnyGame, int, int], _Listing] = OrderedDict()
"""Listings of legal sequences that never change (:func:`coven.core.is_fixed`), kept from move to move
and from table to table: a game gives the same constant wherever the same actions are legal (Amulets'
casts and questions, a Commandments novice's performances), so its first actions are listed once. Each
entry holds its sequence, so the identity in its key names no other; the least recently listed go first
(past :data:`FIXED_LISTINGS_BOUND`)."""
FIXED_LISTINGS_BOUND = 1024
"""At most this many listings are kept. A tuple never changes, but not every tuple lasts: Namaste gives
a new one for most writes it offers (its chunks of writes added together), each listed once, and with
4,096 kept (all dropped at once when full) those grew the server by several MB over its first thousand
games (measured for issue 12). The constants, listed at every move, stay at the recent end."""


_VIEW_FIELDS: dict[type, tuple[str, ...] | None] = {}
"""The members of each class of views, as msgspec writes them (a dataclass's fields; None: not one)."""


def _view_fields(kind: type) -> tuple[str, ...] | None:
    if kind not in _VIEW_FIELDS:
        is_view = dataclasses.is_dataclass(kind)
        _VIEW_FIELDS[kind] = tuple(f.name for f in dataclasses.fields(kind)) if is_view else None
    return _VIEW_FIELDS[kind]


def written_view(
    view: object,
    shared: tuple[str, ...],
    written: dict[str, tuple[object, bytes]],
    reused: tuple[str, ...] = (),
    items: dict[int, tuple[object, bytes]] | None = None,
) -> msgspec.Raw:
    """``view`` as JSON, its codec's form (as :func:`~coven.server.messages.dumps` writes a view), where
    each of its ``shared`` members (:attr:`Game.shared_view_members`: one object for every seat, such as
    a public history) is not written again if it was written last (``written``: the last object and JSON
    of each member, kept by the table): the same object is its JSON again (the other seats' views of one
    number), a tuple of the last one's very items is its JSON too, and a tuple that holds them first and
    more after them (a history one step longer) is the last one's JSON with only the new items written.

    Each of its ``reused`` members (:attr:`Game.reused_view_items`: a tuple of values the game makes once
    and gives again, the very objects, to other seats and at later steps, such as a finished ritual) is
    written item by item, an item written before (``items``: JSON by identity, kept by the table) not
    written again.

    An Amulets spell book of forty lines took 5 µs to write, for each seat, after every move: a game's
    table work grew with its length; the finished rituals in a Commandments view were 7 of its 12 µs
    (measured for issue 12)."""
    names = _view_fields(type(view)) if shared or reused else None
    if names is None:
        return msgspec.Raw(encode_json(view))
    members: dict[str, object] = {}
    for name in names:
        value = getattr(view, name)
        if name in shared:
            text = _written_member(value, written.get(name))
            written[name] = (value, text)
            value = msgspec.Raw(text)
        elif name in reused and items is not None and type(value) is tuple:
            value = msgspec.Raw(_written_items(value, items))
        members[name] = value
    return msgspec.Raw(encode_json(members))


WRITTEN_ITEMS_BOUND: Final = 512
"""At most this many items' JSON is kept by a table (:func:`written_view`'s ``items``; then it starts
again): a Commandments game makes two new views of its ritual in play at each move."""


def _written_items(value: tuple[object, ...], items: dict[int, tuple[object, bytes]]) -> bytes:
    """The JSON array of ``value``'s items, each written once while it lasts (``items``: by identity, each
    entry holding its item, so that the identity names no other)."""
    parts: list[bytes] = []
    for item in value:
        hit = items.get(id(item))
        if hit is None or hit[0] is not item:
            if len(items) >= WRITTEN_ITEMS_BOUND:
                items.clear()
            hit = items[id(item)] = (item, encode_json(item))
        parts.append(hit[1])
    return b"[%s]" % b",".join(parts)


def _written_member(value: object, last: tuple[object, bytes] | None) -> bytes:
    """``value`` as JSON, knowing ``last`` (the object written before it, and its JSON)."""
    if last is None:
        return encode_json(value)
    before, text = last
    if before is value:
        return text
    if type(value) is tuple and type(before) is tuple:
        old: tuple[object, ...] = before
        new: tuple[object, ...] = value
        kept = len(old)
        if 0 < kept <= len(new) and all(map(operator.is_, old, new)):  # (map stops at the end of old)
            return text if kept == len(new) else b"%s,%s" % (text[:-1], encode_json(new[kept:])[1:])
    return encode_json(value)


@dataclass(slots=True)
class _Shown:
    """What a table shows at one action number, each part made once for every seat that asks: who acts,
    the pace, the result, and each seat's snapshot and ``update`` frame."""

    number: int
    turn: tuple[list[Seat], list[Seat]] | None = None
    pace: dict[str, Any] | None = None
    result: Any = _MISSING
    views: dict[Seat | None, Any] = field(default_factory=dict)
    derived: set[Seat | None] = field(default_factory=set)
    """At a table whose game derives part of its views (:meth:`Game.derives_views`): the seats whose
    view in :attr:`views` is the derived one (or given up: see :meth:`Table.derived`); the others are
    bare."""
    snapshots: dict[Seat | None, dict[str, Any]] = field(default_factory=dict)
    updates: dict[Seat | None, str] = field(default_factory=dict)
    syncs: dict[Seat | None, str] = field(default_factory=dict)
    """Each seat's full ``sync`` frame (see :meth:`Table.sync_text`)."""
    shared: str | None = None
    """The members of an ``update`` every seat is sent alike, as JSON text (see
    :meth:`Table._shared_members`)."""
    listed: dict[Seat, _Listing] = field(default_factory=dict)
    """The listing each seat was given at this number (see :meth:`Table.listed_action`)."""
    written: dict[Seat | None, msgspec.Raw] = field(default_factory=dict)
    """Each seat's view as JSON (see :func:`written_view`)."""
    listings: dict[tuple[AnyGame, int, int], _Listing] = field(default_factory=dict)
    """Listed legal actions by the game, the identity of the sequence it gave and the length listed, for
    sequences that may change (those that cannot are kept longer, in :data:`_FIXED_LISTINGS`): seats given
    the same sequence at one number share one listing. The entry holds the sequence, so its identity
    names no other while the number lasts."""

    def __init__(
        self,
        number: int,
        views: dict[Seat | None, Any] | None = None,
        derived: set[Seat | None] | None = None,
        written: dict[Seat | None, msgspec.Raw] | None = None,
    ) -> None:
        self.number = number
        self.turn = None
        self.pace = None
        self.result = _MISSING
        self.views = {} if views is None else views
        self.derived = set() if derived is None else derived
        self.snapshots = {}
        self.updates = {}
        self.syncs = {}
        self.shared = None
        self.listed = {}
        self.written = {} if written is None else written
        self.listings = {}


# The classes made at every move (a step taken, logged and shown) have their ``__init__`` written out: a
# dataclass's own is interpreted code even in a compiled module (mypyc keeps the generated method);
# compiled, each field is a slot store. A move's work at a table (take, advance, three seats' frames) went
# from 43.0 to 39.2 µs in Brujas, 83.1 to 78.6 in The 3 Commandments (measured for issue 12).
@dataclass(frozen=True, slots=True)
class Taken:
    """An action checked and applied to a copy of a table's state (:meth:`Table.take`), to be committed
    as step ``step``, then shown (:meth:`Table.advance`)."""

    seat: Seat
    step: int
    notation: str
    status: str
    """The table's status after it: ``playing`` or ``over``."""
    state: Any
    events: list[Event]
    took: float | None
    """A person's move: the seconds it took (None: a bot's, or one replayed)."""
    bank: float | None = None
    """With a clock, a step in a person's seat: the time left on their clock after it, kept with the step
    (None: no clock, a bot's seat, or a step replayed); see :meth:`bank_after`."""

    def __init__(
        self,
        seat: Seat,
        step: int,
        notation: str,
        status: str,
        state: Any,
        events: list[Event],
        took: float | None,
        bank: float | None = None,
    ) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "step", step)
        object.__setattr__(self, "notation", notation)
        object.__setattr__(self, "status", status)
        object.__setattr__(self, "state", state)
        object.__setattr__(self, "events", events)
        object.__setattr__(self, "took", took)
        object.__setattr__(self, "bank", bank)


@dataclass(eq=False)
class Table:
    id: str
    game: AnyGame
    players: int
    options: Options
    seed: int
    status: str
    seats: list[StoredSeat]
    created_at: datetime
    state: Any
    number: int = 0
    steps: list[LoggedStep] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: set[Listener] = field(default_factory=set)
    bots: dict[Seat, Bot] = field(default_factory=dict)
    bot_seeds: dict[Seat, int] = field(default_factory=dict)
    """Each bot's own seed (drawn apart from the deal), so a worker process can build the same bot."""
    declined: dict[Seat, int] = field(default_factory=dict)
    """Bot seats that let an optional moment pass, and at which number (asked again after it)."""
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    pace: str = "none"
    """``none``, ``move`` (``pace_seconds`` for each move) or ``clock`` (``pace_seconds`` per player)."""
    pace_seconds: int = 0
    banks: dict[Seat, float] = field(default_factory=dict)
    """With a clock: each person's time left, kept with each of their steps (:meth:`bank_after`): a process
    that loads the table again, after a restart or to adopt it, gives each the time their last step left."""
    grace: dict[Seat, tuple[int, float]] = field(default_factory=dict)
    """People back from a bot's stand-in during a move: the number of that move, and the seconds from
    :attr:`changed_at` they have for it at least (see :meth:`give_grace`)."""
    changed_at: float = field(default_factory=time.monotonic)
    """When the table last changed for its people (a step sent out, the start): a move's time is
    measured from here (see :meth:`Game.stamp_time`)."""
    driver: asyncio.Task[None] | None = None
    chat: list[ChatLine] | None = None
    """The last :data:`~coven.server.tables.CHAT_KEPT` lines said at the table, as the store has them
    (None: not read yet, or maybe stale: read again when asked; see
    :meth:`~coven.server.tables.TableService.chat_log`)."""
    chat_said: int = 0
    """Lines said at the table since it was loaded here (this process's and the bus's): a read of the
    store that began before one of them may miss it, and is not kept."""
    creator: str | None = None
    """Who made the table (their address's key, :func:`coven.server.limits.client_key`), known only to the
    process that made it (None: loaded from the store): bots' thinking is shared fairly between creators."""
    _now: _Shown | None = None
    """What the table shows at its current number, each part made once (see :meth:`forget`)."""
    _members: dict[str, tuple[object, bytes]] = field(default_factory=dict)
    """The game's shared view members last written, and their JSON (see :func:`written_view`)."""
    _items: dict[int, tuple[object, bytes]] = field(default_factory=dict)
    """The items of the game's reused view members written lately, and their JSON (see
    :func:`written_view`)."""

    @property
    def last_mover(self) -> Seat:
        """The seat that moved last (before any move: the seat before seat 0), as the core driver counts
        for its order of optional actors."""
        return self.steps[-1].actor if self.steps else self.players - 1

    # ------------------------------------------------------------ taking a step
    def take(
        self,
        seat: Seat,
        number: int,
        source: Callable[[AnyGame], Hashable],
        text: str | None,
        animation_ms: int | None,
    ) -> Taken:
        """``seat``'s action (read by ``source``; ``text``: the notation it was sent as, if it was) for
        step ``number``, checked and applied to a copy of the state; raises ProtocolError, and changes
        nothing, if it is refused. The caller commits the step, then :meth:`advance` shows it.

        ``animation_ms`` (a person's move, not a bot's): the move's time is measured from the moment the
        table last changed for its people to now, less the page's animations, and stamped on the action
        (:meth:`Game.stamp_time`; what the mover typed as a time never counts)."""
        if self.status == "waiting":
            raise ProtocolError(ErrorCode.NOT_STARTED, "the table is waiting for people to join")
        if self.status == "over":
            raise ProtocolError(ErrorCode.GAME_OVER, "the game is over")
        if number != self.number and not self.decided_together(seat, number):
            raise ProtocolError(
                ErrorCode.STALE, f"the table is at number {self.number}, the action was for {number}"
            )
        game = self.game
        try:
            action = self.listed_action(seat, text) if text is not None else None
            if action is None:
                action = source(game)
            took: float | None = None
            if animation_ms is not None:
                took = max(0.0, time.monotonic() - self.changed_at - animation_ms / 1000)
                action = game.stamp_time(action, took)
            state = game.clone(self.state)
            # an action read from its notation (or listed) is the game's own making: its form is not
            # checked again (Game.check's ``offered``); one sent as JSON is
            events = game.apply(state, seat, action, (action,) if text is not None else None)
        except GameError as exc:
            raise ProtocolError(exc.code, str(exc), reason=reason_json(exc)) from None
        status = "over" if game.is_over(state) else "playing"
        notation = game.format_action(action)
        return Taken(
            seat, self.number + 1, notation, status, state, events, took, self.bank_after(seat, took)
        )

    def bank_after(self, seat: Seat, took: float | None) -> float | None:
        """With a clock, a step in a person's seat: the time left on their clock after a step that took
        them ``took`` seconds (None: a bot standing in for them, or the rules answering for them when time
        ran out, which charges nothing more), as :meth:`record` leaves it; None at a table without a clock
        or in a bot's seat."""
        if self.pace != "clock" or self.seats[seat].kind != "human":
            return None
        bank = self.banks.get(seat, float(self.pace_seconds))
        return bank if took is None else max(0.0, bank - took)

    def replayed(self, seat: Seat, notation: str) -> Taken:
        """``seat``'s step ``notation`` as the log has it, committed already (by this process or another):
        read and applied to a copy of the state, not checked, to be made the table's by :meth:`record`
        or :meth:`advance`. Raises GameError if the game cannot read or apply it."""
        game = self.game
        state = game.clone(self.state)  # never mutate a state a thinking bot may still be reading
        action = game.parse_action(notation)
        events = game.apply(state, seat, action, (action,))  # (read from its notation: see take)
        status = "over" if game.is_over(state) else "playing"
        return Taken(seat, self.number + 1, notation, status, state, events, None)

    def record(self, taken: Taken) -> None:
        """Make the committed step ``taken`` the table's (its state, number, status and log, and with a
        clock the mover's bank), without showing it to anyone (see :meth:`advance`)."""
        seat = taken.seat
        if taken.took is not None and taken.bank is not None:  # (the clock as the store keeps it)
            self.banks[seat] = taken.bank
        together = frozenset(self.turn()[0])  # who the game waited for, before this step
        self.state = taken.state
        self.number = taken.step
        self.status = taken.status
        self.steps.append(LoggedStep(taken.step, seat, taken.notation, taken.events, together))

    def advance(self, taken: Taken, cap: int, ack: Ack | None = None) -> None:
        """Make the committed step ``taken`` the table's (:meth:`record`), and send it to every listener
        (``ack``: the mover's connection, acknowledged inside its update)."""
        self.record(taken)
        self.broadcast_update(cap, ack)

    # ------------------------------------------------------------ what a seat sees
    def _shown(self) -> _Shown:
        """The parts shown at the current number (a new number starts afresh: the old ones go)."""
        now = self._now
        if now is None or now.number != self.number:
            now = self._now = _Shown(self.number)
        return now

    def forget(self) -> None:
        """Drop what was made for the current number (the seats or the status changed under it), but the
        views, which the state alone makes, and their JSON."""
        now = self._now
        self._now = None
        if now is not None and now.number == self.number:
            self._now = _Shown(self.number, views=now.views, derived=now.derived, written=now.written)

    def derives(self) -> bool:
        """Whether this table's views carry a part derived from the view alone, costly to work out
        (:meth:`Game.derives_views`): then they are shown once :meth:`derived` has them."""
        return self.game.derives_views(self.options)

    def underived(self, seats: Iterable[Seat | None]) -> dict[Seat | None, Any]:
        """At a table that :meth:`derives` its views: the bare views (:meth:`Game.bare_views`) at this
        number of those of ``seats`` that are not derived yet, to be derived elsewhere and handed back
        to :meth:`derived`. Empty at other tables."""
        if not self.derives():
            return {}
        now = self._shown()
        wanted = set(seats) - now.derived
        missing = wanted - now.views.keys()
        if missing:
            now.views.update(self.game.bare_views(self.state, missing))
        return {seat: now.views[seat] for seat in wanted}

    def derived(self, number: int, views: dict[Seat | None, Any]) -> None:
        """The views of their seats at step ``number``, derived (or, when that failed, the bare ones given
        up on: not asked for again at this number). Nothing if the table has moved on; what was made from
        the bare views for those seats goes."""
        if number != self.number:
            return
        now = self._shown()
        now.views.update(views)
        now.derived.update(views)
        for seat in views:
            now.written.pop(seat, None)
            now.snapshots.pop(seat, None)
            now.updates.pop(seat, None)
            now.syncs.pop(seat, None)

    def listening_seats(self) -> set[Seat | None]:
        """The seats of the connections listening (None: a spectator's)."""
        return {listener.seat for listener in self.listeners}

    def result(self) -> dict[str, Any] | None:
        if self.status != "over":
            return None
        return {
            "scores": [float(s) for s in self.game.scores(self.state)],
            "winners": sorted(int(s) for s in self.game.winners(self.state)),
        }

    def allowance(self, seat: Seat) -> float | None:
        """Seconds ``seat`` has for the move the game waits for, from :attr:`changed_at` (None: no limit):
        the table's pace, or the game's own limit for this decision if shorter.

        With a clock, a person whose bank is empty still has :data:`LAST_SECONDS` for each move; a person
        back from a bot's stand-in has at least that from their return (:meth:`give_grace`)."""
        paced: float | None = None
        if self.pace == "move":
            paced = float(self.pace_seconds)
        elif self.pace == "clock":
            paced = max(self.banks.get(seat, float(self.pace_seconds)), LAST_SECONDS)
        rule = self.game.decision_seconds(self.state, seat)
        limit = paced if rule is None else rule if paced is None else min(paced, rule)
        granted = self.grace.get(seat)
        if limit is not None and granted is not None and granted[0] == self.number:
            limit = max(limit, granted[1])
        return limit

    def give_grace(self, seat: Seat) -> None:
        """``seat``'s person is back from a bot's stand-in: they have at least :data:`LAST_SECONDS` from now
        for the move under way (more if its limit leaves more). Back during the very move their time ran
        out on, they had nothing left: the pace, already past, let the bot take the seat again the moment
        its pause was over, and "Take my seat back" held for half a second."""
        kept = {s: given for s, given in self.grace.items() if given[0] == self.number}
        # (from the elapsed seconds as frames give them, rounded: a page counting down from a frame's
        # ``elapsed`` shows LAST_SECONDS at most, never one more)
        kept[seat] = (self.number, self.elapsed() + LAST_SECONDS)
        self.grace = kept

    def pace_json(self) -> dict[str, Any]:
        """The pace as the table shows it: for each seat the game waits for whose time runs (a person
        playing their own seat), the seconds it has. A bot's seat, or a person's a bot stands in for,
        has none: the server holds no bot to a pace."""
        to_act, _ = self.turn()
        timed = [s for s in to_act if self.seats[s].kind == "human" and not self.seats[s].stand_in]
        limits = {} if self.status != "playing" else {str(s): self.allowance(s) for s in timed}
        return {
            "kind": self.pace,
            "seconds": self.pace_seconds,
            "limits": {k: v for k, v in limits.items() if v is not None},
            "banks": {str(k): round(v, 1) for k, v in self.banks.items()} if self.pace == "clock" else {},
        }

    def turn(self) -> tuple[list[Seat], list[Seat]]:
        """Who must act and who may (sorted), computed once per number for every seat that asks."""

        now = self._shown()
        turn = now.turn
        if turn is None:
            turn = now.turn = (sorted(self.game.to_act(self.state)), sorted(self.game.may_act(self.state)))
        return turn

    def legal(self, seat: Seat | None, cap: int) -> dict[str, Any] | None:
        """The ``legal`` member of ``seat``'s frames: what it may do now, its first ``cap`` actions listed
        (fewer, :data:`OPTIONAL_LISTED`, if acting is optional or they are more than ``cap``); None if it
        may do nothing. Shared with other seats and frames: never mutate."""
        listed = self._listed(seat, cap)
        return None if listed is None else listed[0].member(listed[1])

    def legal_written(self, seat: Seat | None, cap: int) -> msgspec.Raw | None:
        """:meth:`legal` as JSON (written once per listing, see :meth:`_Listing.written`), for a frame."""
        listed = self._listed(seat, cap)
        return None if listed is None else listed[0].written(listed[1])

    def _listed(self, seat: Seat | None, cap: int) -> tuple[_Listing, bool] | None:
        """The listing of ``seat``'s legal actions now, and whether the game waits for it (None: it may
        do nothing)."""
        if seat is None or self.status != "playing":
            return None
        game, state = self.game, self.state
        to_act, may_act = self.turn()
        if seat in to_act:
            required = True
        elif seat in may_act:
            required = False
        else:
            return None
        actions = game.legal_actions(state, seat)  # possibly lazy: only the listed ones are built
        count = len(actions)
        limit = cap if required and count <= cap else min(cap, OPTIONAL_LISTED)
        now = self._shown()
        key = (game, id(actions), limit)  # a game's own notation writes the entries
        fixed = is_fixed(actions)
        listings = _FIXED_LISTINGS if fixed else now.listings
        made = listings.get(key)
        if made is None or made.actions is not actions:
            made = _Listing(
                actions, [legal_entry(game, a) for _, a in zip(range(limit), actions, strict=False)]
            )
            listings[key] = made
            if fixed and len(_FIXED_LISTINGS) > FIXED_LISTINGS_BOUND:
                _FIXED_LISTINGS.popitem(last=False)
        elif fixed:
            _FIXED_LISTINGS.move_to_end(key)
        now.listed[seat] = made
        return made, required

    def listed_action(self, seat: Seat, text: str) -> Hashable | None:
        """The action written ``text`` in the legal list ``seat`` was sent at this number, if that list is
        one that lasts (None: read the text; see :meth:`_Listing.read`)."""
        listing = self._shown().listed.get(seat)
        if listing is None or not is_fixed(listing.actions):
            return None
        return listing.read(self.game, text)

    def snapshot(self, seat: Seat | None, cap: int) -> dict[str, Any]:
        """The current ``view``/``legal``/turn fields for ``seat`` (cached per number)."""

        now = self._shown()
        snap = now.snapshots.get(seat)
        if snap is None:
            snap = now.snapshots[seat] = {
                **self._common(now),
                "view": self._written_view(now, seat),
                "legal": self.legal_written(seat, cap),
            }
        return snap

    def _view(self, now: _Shown, seat: Seat | None) -> Any:
        """``seat``'s view at this number: the views of every seat watching are made together (they share
        the table's public part)."""
        view = now.views.get(seat, _MISSING)
        if view is _MISSING:
            wanted = self.listening_seats() - now.views.keys()
            wanted.add(seat)
            game = self.game  # a table that derives shows a view bare until it is derived (see underived)
            now.views.update(
                game.bare_views(self.state, wanted) if self.derives() else game.views(self.state, wanted)
            )
            view = now.views[seat]
        return view

    def _written_view(self, now: _Shown, seat: Seat | None) -> msgspec.Raw:
        """``seat``'s view at this number as JSON (:func:`written_view`), made once."""
        written = now.written.get(seat)
        if written is None:
            game = self.game
            written = now.written[seat] = written_view(
                self._view(now, seat),
                game.shared_view_members,
                self._members,
                game.reused_view_items,
                self._items,
            )
        return written

    def _pace(self, now: _Shown) -> dict[str, Any]:
        if now.pace is None:
            now.pace = self.pace_json()  # the same for every seat
        return now.pace

    def _result(self, now: _Shown) -> Any:
        if now.result is _MISSING:
            now.result = self.result()
        return now.result

    def _common(self, now: _Shown) -> dict[str, Any]:
        """What every seat is shown alike at this number: the status, who acts, the pace, the result."""
        to_act, may_act = self.turn()
        return {
            "status": self.status,
            "to_act": to_act,
            "may_act": may_act,
            "pace": self._pace(now),
            "result": self._result(now),
        }

    def _shared_members(self, now: _Shown) -> str:
        """The members of an ``update`` that every seat is sent alike (:meth:`_common`), as JSON text,
        encoded once per number."""
        shared = now.shared
        if shared is None:
            shared = now.shared = dumps(self._common(now))[1:-1]
        return shared

    def decided_together(self, seat: Seat, number: int) -> bool:
        """Whether an action ``seat`` chose at ``number``, behind the table now, is still one it could
        choose: it was deciding at the same time as the others (a simultaneous decision), and every step
        since was another seat's part of that same decision, so nothing it could have seen has changed
        but who has chosen. Then it need not be refused as stale and sent again."""
        if not 0 <= number < self.number:
            return False
        since = self.steps[number:]
        return all(s.actor != seat and seat in s.together and s.actor in s.together for s in since)

    def step_json(self, step: LoggedStep, seat: Seat | None) -> dict[str, Any]:
        return {"number": step.number, "actor": step.actor, "events": step.events_json(seat)}

    def update_text(self, seat: Seat | None, cap: int) -> str:
        """The ``update`` message of the latest step for ``seat`` (serialised once per seat; what every seat
        is sent alike is encoded once, see :meth:`_shared_members`)."""

        now = self._shown()
        text = now.updates.get(seat)
        if text is None:
            step = self.steps[-1]
            own = {
                "type": "update",
                "number": self.number,
                "actor": step.actor,
                "events": step.events_json(seat),
                "view": self._written_view(now, seat),
                "legal": self.legal_written(seat, cap),
            }
            text = now.updates[seat] = f"{dumps(own)[:-1]},{self._shared_members(now)}}}"
        return text

    def sync_message(self, seat: Seat | None, last: int | None, cap: int) -> dict[str, Any]:
        full = last is None or not 0 <= last <= self.number
        since = 0 if full or last is None else last
        return {
            "type": "sync",
            "full": full,
            "since": since,
            "number": self.number,
            "steps": [self.step_json(s, seat) for s in self.steps[since:]],
            **self.snapshot(seat, cap),
            "elapsed": self.elapsed(),
        }

    def elapsed(self) -> float:
        """Seconds since the table last changed for its people (the move under way began): the pace's
        limits count from then, so a page that syncs in the middle of a move (a reload, a return, a
        reconnection) counts down what is left, not the whole limit again."""
        return round(max(0.0, time.monotonic() - self.changed_at), 2)

    def sync_text(self, seat: Seat | None, last: int | None, cap: int) -> str:
        """:meth:`sync_message` as JSON. A full one (every step so far: the longest frame a table sends,
        33 KB at the end of a long game) is made once per seat and number: made again for each request,
        it cost 0.3 ms of the loop every table shares, and a client could ask at the message rate on each
        of its sockets (found by an attacker's pass)."""
        if last is not None and 0 <= last <= self.number:
            return dumps(self.sync_message(seat, last, cap))
        return f'{self.full_sync_text(seat, cap)[:-1]},"elapsed":{self.elapsed()!r}}}'

    def full_sync_text(self, seat: Seat | None, cap: int) -> str:
        """``seat``'s full ``sync`` as JSON but its ``elapsed`` (each answer's own, which
        :meth:`sync_text` adds), made once per number."""
        now = self._shown()
        text = now.syncs.get(seat)
        if text is None:
            message = self.sync_message(seat, None, cap)
            del message["elapsed"]
            text = now.syncs[seat] = dumps(message)
        return text

    def seats_json(self) -> list[dict[str, Any]]:
        return [
            {
                "seat": s.seat,
                "kind": s.kind,
                "name": s.name,
                "bot": s.bot,
                "claimed": s.claimed,
                "stand_in": s.stand_in,
            }
            for s in self.seats
        ]

    def table_message(self) -> str:
        """The ``table`` frame, made once for every listener after the seats or the status changed (made
        after :meth:`forget`): the seats, and the pace as it is now with the seconds since the move under
        way began, as a sync has them. A bot standing in for a person, or stepping aside, changes whose
        time runs (:meth:`pace_json`): without the pace here, every other page counted the move's old
        limits down until the next move (a spectator read 'Waiting for Ana (0 s left)' while a bot played
        her seat, and no countdown once she had it back although her time ran again)."""
        message = {
            "type": "table",
            "status": self.status,
            "seats": self.seats_json(),
            "number": self.number,
            "pace": self._pace(self._shown()),
            "elapsed": self.elapsed(),
        }
        return dumps(message)

    def seat_of_token(self, token: str) -> Seat | None:
        digest = hash_token(token)
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                return s.seat
        return None

    def token_matches(self, seat: Seat, token: str) -> bool:
        stored = self.seats[seat].token_hash
        return stored is not None and hmac.compare_digest(stored, hash_token(token))

    def broadcast(self, text: str) -> None:
        for listener in list(self.listeners):
            listener.send_text(text)

    def broadcast_update(self, cap: int, ack: Ack | None = None) -> None:
        """Send every listener its seat's ``update`` of the latest step; the one that sent its action
        (``ack``) gets it with the acknowledgement inside (one frame, not two)."""
        self.changed_at = time.monotonic()
        pending = ack
        for listener in list(self.listeners):
            text = self.update_text(listener.seat, cap)
            if pending is not None and listener is pending.listener:
                text = with_ack(text, pending.json(self.steps[-1]))
                pending = None
            listener.send_text(text)
        if pending is not None:  # not listening (any more): the acknowledgement alone
            pending.send_alone(self.steps[-1].number, self.steps[-1].action)


@dataclass(frozen=True, slots=True)
class Ack:
    """Who to acknowledge an action or a chat line to, and with which ``id`` (the one its ``act`` or
    ``chat`` carried)."""

    listener: Listener
    id: str | int | None

    def json(self, step: LoggedStep) -> dict[str, Any]:
        """The acknowledgement of ``step``, the action this ack is for."""
        return {"id": self.id, "number": step.number, "action": step.action}

    def send_alone(self, number: object, action: object) -> None:
        """The acknowledgement of step ``number`` (``action``) as a message of its own, for when no
        update carries it."""
        self.listener.send_text(dumps({"type": "ack", "id": self.id, "number": number, "action": action}))


__all__ = [
    "FIXED_LISTINGS_BOUND",
    "LAST_SECONDS",
    "OPTIONAL_LISTED",
    "Ack",
    "Listener",
    "LoggedStep",
    "Table",
    "Taken",
    "legal_entry",
]
