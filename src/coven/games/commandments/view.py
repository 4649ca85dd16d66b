"""What leaves the engine in The 3 Commandments: each seat's view, and who sees each event.

Rulebook reading (English rulebook, pages 5-6, with the project's rulings): novices see each slot's
card type (its back), never its text; a High Priestess sees her own four cards and her discard; the
markers on matched cards are public unless the expert variant hides them (only the total is
announced, and "bad karma" without its amount); the three cards are revealed to all when a ritual
ends, unless the table says ``reveal=never`` (then only she sees them again).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, TypeVar

from coven.core import Event, JSONValue, Seat
from coven.core.events import fast_event, slot_setters
from coven.core.native import mypyc_attr, native_dataclasses
from coven.games.commandments.notation import PHASE_NAMES, Move, MoveLog

if TYPE_CHECKING:
    from coven.games.commandments.cards import Card, Deck
    from coven.games.commandments.rules import CommandmentsState, Ritual

TABOO: Final = 0
"""The slot of the taboo (slots 1-2 hold the commandments)."""


# The classes of the views are compiled (setup.py), with their ``__init__`` written out: see
# coven.core.native.
@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True, slots=True)
class SlotView:
    type: str
    """``artefact`` (red back) or ``action`` (green back)."""
    role: str
    """``taboo`` or ``commandment``."""
    card: str
    """The card's id when this seat knows it, else ``""``."""

    def __init__(
        self,
        type: str,
        role: str,
        card: str,
    ) -> None:
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "role", role)
        object.__setattr__(self, "card", card)


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True, slots=True)
class RitualView:
    priestess: int
    hand: tuple[str, ...]
    """Her four cards: only in her own view."""
    discard: str
    slots: tuple[SlotView, ...]
    placement: tuple[int, ...]
    moves: tuple[MoveLog, ...]
    gains: tuple[int, ...]
    disempowered: bool
    ended: bool

    def __init__(
        self,
        priestess: int,
        hand: tuple[str, ...],
        discard: str,
        slots: tuple[SlotView, ...],
        placement: tuple[int, ...],
        moves: tuple[MoveLog, ...],
        gains: tuple[int, ...],
        disempowered: bool,
        ended: bool,
    ) -> None:
        object.__setattr__(self, "priestess", priestess)
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "discard", discard)
        object.__setattr__(self, "slots", slots)
        object.__setattr__(self, "placement", placement)
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "gains", gains)
        object.__setattr__(self, "disempowered", disempowered)
        object.__setattr__(self, "ended", ended)


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True, slots=True)
class CardText:
    """The words of a card this seat knows (its hand, her discard, revealed slots), for the page."""

    id: str
    type: str
    value: str
    """The karma, or ``?`` for a card that counts."""
    en: str
    fr: str

    def __init__(
        self,
        id: str,
        type: str,
        value: str,
        en: str,
        fr: str,
    ) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "en", en)
        object.__setattr__(self, "fr", fr)


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True, slots=True)
class CommandmentsView:
    seat: int | None
    players: int
    options: dict[str, bool | int | str]
    phase: str
    to_move: int
    """The seat the game waits for, -1 when it is over."""
    rituals: tuple[RitualView, ...]
    board: tuple[int, ...]
    flips: int
    karma: tuple[int, ...]
    pending: Move | None
    """Judge mode: the move waiting for the High Priestess's marks."""
    pending_start: int
    cards: tuple[CardText, ...] = ()
    """The texts of every card named in this view, in order of first mention."""

    def __init__(
        self,
        seat: int | None,
        players: int,
        options: dict[str, bool | int | str],
        phase: str,
        to_move: int,
        rituals: tuple[RitualView, ...],
        board: tuple[int, ...],
        flips: int,
        karma: tuple[int, ...],
        pending: Move | None,
        pending_start: int,
        cards: tuple[CardText, ...] = (),
    ) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "options", options)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "to_move", to_move)
        object.__setattr__(self, "rituals", rituals)
        object.__setattr__(self, "board", board)
        object.__setattr__(self, "flips", flips)
        object.__setattr__(self, "karma", karma)
        object.__setattr__(self, "pending", pending)
        object.__setattr__(self, "pending_start", pending_start)
        object.__setattr__(self, "cards", cards)


native_dataclasses(SlotView, RitualView, CardText, CommandmentsView)


def ritual_view(ritual: Ritual, cards: tuple[Card, ...], own: bool, known: bool, hide: bool) -> RitualView:
    """A ritual as a seat sees it: ``own`` (she is the seat), ``known`` (its cards are shown), ``hide``
    (the expert variant hides the markers from this seat)."""
    slots = tuple(
        SlotView(cards[c].type, "taboo" if i == TABOO else "commandment", cards[c].id if known else "")
        for i, c in enumerate(ritual.slots)
    )
    moves = tuple(ritual.moves)
    if hide:
        moves = tuple(MoveLog(m.seat, m.move, m.start, (), m.total, m.flips) for m in moves)
    return RitualView(
        ritual.priestess,
        tuple(cards[c].id for c in ritual.hand) if own else (),
        cards[ritual.discard].id if own and ritual.discard >= 0 else "",
        slots,
        tuple(ritual.placement),
        moves,
        tuple(ritual.gains),
        ritual.disempowered,
        ritual.ended,
    )


T = TypeVar("T")


def _kept(
    cache: dict[Any, tuple[Any, T]], key: Hashable, owner: object, make: Callable[[], T], bound: int
) -> T:
    """``make()`` for ``owner``, made once: ``key`` holds ``owner``'s identity, and the entry keeps
    ``owner`` alive, so its id names no other object while the entry lasts (at most ``bound`` entries;
    then the cache starts again)."""
    hit = cache.get(key)
    if hit is None or hit[0] is not owner:
        if len(cache) >= bound:
            cache.clear()
        hit = cache[key] = (owner, make())
    value: T = hit[1]
    return value


def build_view(state: CommandmentsState, seat: Seat | None, to_move: int) -> CommandmentsView:
    """Everything ``seat`` knows in ``state`` (``None``: a spectator); ``to_move`` as the rules say."""
    return build_views(state, (seat,), to_move)[seat]


def build_views(
    state: CommandmentsState, seats: Iterable[Seat | None], to_move: int
) -> dict[Seat | None, CommandmentsView]:
    """:func:`build_view` of several seats of one state: what they see alike (the board, the karma) is
    made once, and so is the ritual in play for each kind of seat (its High Priestess, and everyone
    else): the server asks for every seat at the table after each move."""
    cards = state.deck.cards
    expert = bool(state.options["expert"])
    never = state.options["reveal"] == "never"
    last = len(state.rituals) - 1
    texts = card_texts(state.deck)
    phase = PHASE_NAMES[state.phase]
    board, karma = tuple(state.board), tuple(state.karma)
    now: dict[tuple[bool, bool, bool], RitualView] = {}  # the ritual in play, by kind of seat
    out: dict[Seat | None, CommandmentsView] = {}
    for seat in seats:
        rituals = []
        for i, ritual in enumerate(state.rituals):
            own = seat == ritual.priestess
            known = own or (ritual.ended and not never)
            hide = expert and not own
            key = (own, known, hide)
            if i == last:  # the ritual in play: copied at each clone, changed by each move
                view = now.get(key)
                if view is None:
                    view = now[key] = ritual_view(ritual, cards, own, known, hide)
                rituals.append(view)
                continue
            # An earlier ritual is over and shared, unchanged, by every later state (copy on write): its
            # view for this kind of seat is made once, and kept with it.
            shown = ritual.shown
            if shown is None:
                shown = ritual.shown = {}
            past: RitualView | None = shown.get(key)
            if past is None:
                past = shown[key] = ritual_view(ritual, cards, own, known, hide)
            rituals.append(past)
        named = dict.fromkeys(
            cid for r in rituals for cid in (*r.hand, r.discard, *(slot.card for slot in r.slots)) if cid
        )
        out[seat] = CommandmentsView(
            seat,
            state.players,
            dict(state.options),  # each view its own (a view is a value: it shares nothing mutable)
            phase,
            to_move,
            tuple(rituals),
            board,
            state.flips,
            karma,
            state.pending,
            state.pending_start,
            tuple(texts[cid] for cid in named),
        )
    return out


_TEXTS: Final[dict[int, tuple[Deck, dict[str, CardText]]]] = {}


def card_texts(deck: Deck) -> dict[str, CardText]:
    """Each card's words by id, made once per deck (a table's deck lives as long as the table; views are
    made at every move)."""

    def make() -> dict[str, CardText]:
        return {c.id: CardText(c.id, c.type, c.value_text, c.en, c.fr) for c in deck.cards}

    return _kept(_TEXTS, id(deck), deck, make, 256)


# ------------------------------------------------------------------------------------ event audiences
# Events (a novice's move makes a ``move`` event and a ``karma`` event, and a log entry, see the rules) are
# made with their slots filled directly, not through the frozen dataclasses' ``__init__`` (one
# ``object.__setattr__`` per field, a good part of a move's cost in a playout), and a karma event, which
# depends on a few small numbers only, is made once per value and shared (events are values: frozen,
# their data never changed). The tests check they equal the plain values.
_new = object.__new__
_set_kind, _set_data, _set_audience = slot_setters(Event)
_ONLY: Final[tuple[frozenset[Seat], ...]] = tuple(frozenset((s,)) for s in range(8))


_event = fast_event


_SHARED: Final[dict[tuple[object, ...], Event]] = {}
"""Events that depend on a few small values only (who leads the ritual, its number, the slots' backs,
her discard, her gain), made once per value and shared (bounded: seats, cards and karma are)."""


def _shared(
    key: tuple[object, ...], data: dict[str, JSONValue], audience: frozenset[Seat] | None = None
) -> Event:
    """The event of kind ``key[0]`` with ``data`` (to ``audience``), made once per ``key`` (see
    :data:`_SHARED`)."""
    event = _SHARED.get(key)
    if event is None:
        event = _SHARED[key] = _event(str(key[0]), data, audience)
    return event


_BY_SEAT: Final[tuple[dict[object, Event], ...]] = tuple({} for _ in range(8))
"""Per seat (0-7), the shared events of the helpers below by a small key of their own, looked up before
any key or data is made: a ritual's number (positive), the slots' backs as bits (negative: ``-1 -
bits``), her discard's id (a string), ``(kind, value)`` for the others."""


def ritual_events(priestess: int, number: int, hand: list[JSONValue]) -> list[Event]:
    """A ritual begins: everyone learns who leads it; only she sees the four cards she drew."""
    found = _BY_SEAT[priestess].get(number) if 0 <= priestess < 8 else None
    if found is None:
        found = _shared(("ritual", priestess, number), {"priestess": priestess, "number": number})
        if 0 <= priestess < 8:
            _BY_SEAT[priestess][number] = found
    hand_event: Event = _new(Event)  # _event("hand", ...), inlined
    _set_kind(hand_event, "hand")
    _set_data(hand_event, {"cards": hand})
    _set_audience(hand_event, _ONLY[priestess])
    return [found, hand_event]


_SLOT_TYPES: Final = ("artefact", "action")


def ordained_events(priestess: int, types: list[JSONValue], discard: str) -> list[Event]:
    """Everyone sees the slots' backs; only she knows which card she discarded."""
    if (
        0 <= priestess < 8
        and len(types) == 3
        and types[0] in _SLOT_TYPES
        and types[1] in _SLOT_TYPES
        and types[2] in _SLOT_TYPES
    ):
        by_seat = _BY_SEAT[priestess]
        # a negative key: the slots' backs, as bits (a ritual's number is its positive key)
        key = -1 - ((types[0] == "action") | (types[1] == "action") << 1 | (types[2] == "action") << 2)
        ordained = by_seat.get(key)
        if ordained is None:
            ordained = by_seat[key] = _shared(
                ("ordained", priestess, *types), {"priestess": priestess, "slots": types}
            )
        discarded = by_seat.get(discard)
        if discarded is None:
            discarded = by_seat[discard] = _shared(
                ("discarded", priestess, discard), {"card": discard}, _ONLY[priestess]
            )
        return [ordained, discarded]
    return [
        _shared(("ordained", priestess, *types), {"priestess": priestess, "slots": types}),
        _shared(("discarded", priestess, discard), {"card": discard}, _ONLY[priestess]),
    ]


def karma_event(
    seat: int, verdict: str, announced: int, flips: int, marks: tuple[int, ...], expert: bool
) -> Event:
    """The announced result of a move: public; the markers only outside the expert variant."""
    data: dict[str, JSONValue] = {"seat": seat, "verdict": verdict, "total": announced, "flips": flips}
    if not expert:
        data["marks"] = list(marks)
    return Event("karma", data)


def move_event(seat: int, action: str, start: str) -> Event:
    """``Event("move", {"seat": seat, "action": action, "start": start})``: a novice's move is public."""
    event: Event = _new(Event)
    _set_kind(event, "move")
    _set_data(event, {"seat": seat, "action": action, "start": start})
    _set_audience(event, None)
    return event


MARKS: Final[tuple[tuple[int, ...], ...]] = tuple(
    (bits & 1, bits >> 1 & 1, bits >> 2 & 1) for bits in range(8)
)
"""The markers of three slots from their bits (bit ``i``: slot ``i`` is marked)."""
KARMA_TOP: Final = 40
"""The highest total a move can be announced (two commandments of 20 karma at most, see the cards)."""
KARMA_SLOTS: Final = (KARMA_TOP + 2) * 64
KARMA_EVENTS: Final[tuple[list[Event | None], ...]] = tuple([None] * KARMA_SLOTS for _ in range(16))
"""The shared karma events of moves judged on three slots: per ``seat * 2 + expert`` (seats 0-7), by
:func:`karma_slot` (made on first need, by :func:`shared_karma_event`)."""


def karma_slot(announced: int, flips: int, bits: int) -> int:
    """The place of a karma event in its list of :data:`KARMA_EVENTS` (``flips`` 0-7, ``bits`` 0-7,
    ``announced`` -1 to :data:`KARMA_TOP`); the rules compute it inline."""
    return ((announced + 1) * 8 + flips) * 8 + bits


def shared_karma_event(seat: int, announced: int, flips: int, bits: int, expert: bool) -> Event:
    """:func:`karma_event` of a move judged on three slots whose markers are the bits of ``bits``
    (see :data:`MARKS`), from :data:`KARMA_EVENTS` (made on first need) when it has a place there."""
    verdict = "karma" if announced > 0 else "no karma" if announced == 0 else "bad karma"
    if not (0 <= seat < 8 and 0 <= flips < 8 and -1 <= announced <= KARMA_TOP and 0 <= bits < 8):
        return karma_event(seat, verdict, announced, flips, MARKS[bits], expert)
    events = KARMA_EVENTS[seat * 2 + expert]
    slot = karma_slot(announced, flips, bits)
    event = events[slot]
    if event is None:
        event = events[slot] = karma_event(seat, verdict, announced, flips, MARKS[bits], expert)
    return event


def _priestess_event(kind: str, priestess: int, name: str, value: int) -> Event:
    """A shared event about the priestess ``priestess`` with one more field, ``name``: ``value``
    (looked up by her seat before any key or data is made: these end every ritual)."""
    if not 0 <= priestess < 8:
        return _shared((kind, priestess, value), {"priestess": priestess, name: value})
    key = (kind, value)
    found = _BY_SEAT[priestess].get(key)
    if found is None:
        found = _BY_SEAT[priestess][key] = _shared(
            (kind, priestess, value), {"priestess": priestess, name: value}
        )
    return found


def ritual_end_event(priestess: int, gain: int) -> Event:
    """Her ritual ended regularly: she gains the karma of the best novice of this ritual."""
    return _priestess_event("ritual_end", priestess, "gain", gain)


def disempowered_event(priestess: int, bonus: int) -> Event:
    """The fourth negative destiny card: she is disempowered, every novice gets ``bonus``."""
    return _priestess_event("disempowered", priestess, "bonus", bonus)


def forfeit_event(seat: int, bonus: int, flips: int) -> Event:
    """A novice forfeits her move: the others get ``bonus`` each; one destiny card flips."""
    return _event("forfeit", {"seat": seat, "bonus": bonus, "flips": flips})


def game_over_event(karma: list[JSONValue]) -> Event:
    """The last ritual is over: everyone's karma."""
    return _event("game_over", {"karma": karma})


def revealed_event(priestess: int, cards: list[JSONValue], never: bool) -> Event:
    """Her three cards at the end of her ritual: to all, or to her alone with ``reveal=never``."""
    return _event("revealed", {"cards": cards}, _ONLY[priestess] if never else None)
