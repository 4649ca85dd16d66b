"""The game protocol every game implements.

A :class:`Game` is a stateless rules object; all mutable facts live in a state value owned by the
engine. The checked path (:meth:`Game.apply`) is the only one reachable from outside: it validates
the seat and the action and raises a typed error *before* anything changes. The unchecked path
(:meth:`Game.apply_unchecked`) is for search and playouts that take actions from
:meth:`Game.legal_actions` (as ``push`` is to ``push_san`` in python-chess), and :meth:`Game.advance`
is the same without events, for playouts that never read them.

Information leaves the engine only through :meth:`Game.view`. Worlds for search are rebuilt from a
view (:meth:`Game.world_from_view`), so a bot that plans on sampled worlds cannot see more than its
seat, by construction.
"""

from __future__ import annotations

import dataclasses
import itertools
import operator
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, Generic, SupportsIndex, TypeAlias, TypeVar

from coven.core.codec import Codec, TaggedCodec
from coven.core.errors import (
    GameOverError,
    IllegalActionError,
    InvalidOptionError,
    NotYourTurnError,
    short_repr,
)
from coven.core.events import Event
from coven.core.refusals import CORE
from coven.core.spec import Bounds, GameSpec
from coven.core.texts import Texts
from coven.core.types import JSONValue, Options, Seat

if TYPE_CHECKING:
    from coven.core.bot import BotFactory
    from coven.core.explain import Explanation, Moment
    from coven.core.metrics import Metrics

S = TypeVar("S")
A = TypeVar("A", bound=Hashable)
V = TypeVar("V")


class FixedActions(Sequence[A]):
    """A legal sequence that never changes once made. A game may give the same one wherever the same
    actions are legal (a constant), and a reader may keep what it read of it: the server lists its first
    actions once, not at every move. A tuple is one by nature; a lazy sequence (Amulets' millions of
    placements) says so by deriving from this class, and must then never change."""

    __slots__ = ()


def is_fixed(actions: Sequence[Hashable]) -> bool:
    """Whether ``actions`` can never change (a tuple, or a :class:`FixedActions`): what was read of it
    may be kept for as long as the sequence itself is."""
    return type(actions) is tuple or isinstance(actions, FixedActions)


def check_seat(seat: object, players: int, spectator: bool = True) -> None:
    """Raise :class:`NotYourTurnError` unless ``seat`` is a seat of a game of ``players`` (0 to
    ``players - 1``; ``None``, the spectator, where ``spectator``). Whatever a seat indexes must never be
    reached with another number: a view asked for seat -1 was the last seat's, hand and all."""
    if seat is None:
        if spectator:
            return
    elif type(seat) is int and 0 <= seat < players:
        return
    raise NotYourTurnError(CORE("refusal.core.not_a_seat", value=short_repr(seat)))


def check_seed(seed: object) -> int:
    """``seed`` as a whole number, or :class:`InvalidOptionError`: a seed is an ``int`` or a number that
    is one (a numpy integer: :func:`operator.index` takes it), never a ``bool``, a text or a float (a
    deal that ``"7"``, ``1.5`` or ``True`` silently stood for would not be the one asked for)."""
    if type(seed) is int:
        return seed
    if not isinstance(seed, bool):
        try:
            return operator.index(seed)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise InvalidOptionError(CORE("refusal.core.seed", value=short_repr(seed)))


def same_action(given: object, read: object) -> bool:
    """Whether ``given`` is ``read`` field for field, each of the very same type: ``Roll(True)`` is not
    ``Roll(1)``, nor ``Ask([0, 1])`` ``Ask((0, 1))``, though Python finds them equal."""
    kind = type(given)
    if kind is not type(read):
        return False
    if kind is str or kind is int:
        return given == read
    if kind is tuple:
        assert isinstance(given, tuple) and isinstance(read, tuple)
        return len(given) == len(read) and all(same_action(a, b) for a, b in zip(given, read, strict=True))
    names = _FIELD_NAMES.get(kind)
    if names is None:
        names = tuple(f.name for f in dataclasses.fields(kind)) if dataclasses.is_dataclass(kind) else ()
        _FIELD_NAMES[kind] = names
    if names:
        return all(same_action(getattr(given, name), getattr(read, name)) for name in names)
    return given == read


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
"""The field names of each dataclass :func:`same_action` met (``()``: not a dataclass)."""


WELL_FORMED_KEPT = 1 << 14
"""How many well-formed actions a game remembers (:meth:`Game.check_well_formed`): most games' actions
are a few hundred values, met again and again; a game of more (Amulets' placements) forgets them all
when it has this many."""


def checked_seats(seats: Iterable[Seat | None], players: int) -> tuple[Seat | None, ...]:
    """``seats`` (one pass over them), each checked by :func:`check_seat` (the spectator allowed)."""
    chosen = tuple(seats)
    for seat in chosen:
        check_seat(seat, players)
    return chosen


@dataclass(frozen=True)
class Parts(Generic[S, V]):
    """What a game package's ``__init__`` hands to its rules when it assembles the game: everything
    that is not rules (bots, the terminal's text, explanations, metrics) and the world sampler. The
    rules module never imports these, so no game package has an import circle."""

    bots: Mapping[str, BotFactory] = field(default_factory=dict)
    """Bots by name; every game offers ``random``, ``greedy`` and ``best``."""
    render: Callable[[V], str] | None = None
    describe_event: Callable[[Event, Seat | None], str] | None = None
    explain: Callable[[V, Sequence[Moment]], Explanation | None] | None = None
    metrics: Callable[[], Metrics] | None = None
    world_from_view: Callable[[V, random.Random], S] | None = None
    world_sampler: Callable[[V], Callable[[random.Random], S]] | None = None
    """A view's sampler, made once for many worlds (a search's, a reference bot's): what the view fixes
    (the posteriors of what it hides) worked out once, each draw dealing the hidden parts anew. None:
    :attr:`world_from_view` for every world."""
    hidden_facts: Callable[[S, Seat], frozenset[str]] | None = None


class Game(ABC, Generic[S, A, V]):
    """Rules of one game. Subclasses set the class attributes and implement the abstract methods;
    the game package's ``__init__`` assembles the rest (:class:`Parts`)."""

    spec: ClassVar[GameSpec]
    action_classes: ClassVar[tuple[type, ...]]
    """Every concrete action class; their union is the action type ``A``."""
    view_class: ClassVar[type]
    """The (frozen dataclass) type that :meth:`view` returns."""
    shared_view_members: ClassVar[tuple[str, ...]] = ()
    """Members of :attr:`view_class` that :meth:`views` makes one object for every seat it is asked for
    (what the seats all see alike, such as a public history): a server writes each to JSON once for all
    of them. The conformance suite checks the objects are one."""
    reused_view_items: ClassVar[tuple[str, ...]] = ()
    """Members of :attr:`view_class` that are tuples of values :meth:`views` makes once and gives again,
    the very objects, to other seats and at later steps (never changed: a finished ritual): a server
    writes each such item to JSON once while it is given again. The conformance suite checks each is a
    tuple, and that an item met again is unchanged."""
    refusals: ClassVar[Texts] = CORE
    """Every refusal this game's rules can give (:mod:`coven.core.refusals`): the engine's own, joined with
    the game's (``CORE | Texts({...})``), whose messages :meth:`illegal_reason` and the game's option checks
    raise. The page's catalogues hold each of them, in every language (a test checks)."""

    def __init__(self, parts: Parts[S, V] | None = None) -> None:
        self._action_codec: TaggedCodec[A] = TaggedCodec(self.action_classes)
        self._view_codec: Codec[V] = Codec(self.view_class)
        self.parts: Parts[S, V] = parts if parts is not None else Parts()
        self._well_formed: dict[object, object] = {}
        """Action objects :meth:`check_well_formed` found well formed, each its own value (see there)."""

    # ------------------------------------------------------------------ setup
    def new_game(
        self, players: int, options: Mapping[str, object] | None = None, seed: SupportsIndex = 0
    ) -> S:
        """A fresh state; validates the player count, the options and the seed first (a whole number:
        an ``int`` or a numpy integer, not a ``bool``; see :func:`check_seed`)."""
        self.spec.check_players(players)
        resolved = self.spec.resolve_options(options)
        self.validate_options(players, resolved)
        return self.setup(players, resolved, check_seed(seed))

    def validate_options(self, players: int, options: Options) -> None:
        """Checks that need several options or the player count; raise InvalidOptionError."""

    @abstractmethod
    def setup(self, players: int, options: Options, seed: int) -> S:
        """The initial state; ``options`` are resolved and valid. All chance flows from ``seed``."""

    @abstractmethod
    def bounds(self, players: int, options: Options) -> Bounds: ...

    @abstractmethod
    def num_players(self, state: S) -> int: ...

    @abstractmethod
    def options(self, state: S) -> Options: ...

    @abstractmethod
    def clone(self, state: S) -> S:
        """An independent copy (cheap: search clones often)."""

    # -------------------------------------------------------------- positions
    @abstractmethod
    def write_position(self, state: S) -> str:
        """The whole state as one compact line of text (as FEN is to chess): everything the rules need
        to go on, hidden parts and the future chance included (the chance source's ``key:counter``, and
        whatever the game has already fixed, like the rest of a deck), so that
        ``read_position(write_position(s))`` plays on exactly as ``s`` would. Secret: for tests, analysis
        and debugging, never for a seat (a seat gets its view)."""

    @abstractmethod
    def read_position(self, text: str) -> S:
        """The state a :meth:`write_position` text describes; any other text raises
        :class:`~coven.core.errors.NotationError` saying what is wrong. Tests may write positions by hand
        to fix future chance (later dice, the rest of a deck)."""

    # ------------------------------------------------------------------ turns
    @abstractmethod
    def to_act(self, state: S) -> frozenset[Seat]:
        """The seats the game waits for; empty exactly when the game is over."""

    def first_to_act(self, state: S) -> Seat | None:
        """The lowest seat of :meth:`to_act`, None when the game is over: the one question of a loop that
        takes one decision at a time (a random playout, as OpenSpiel's ``current_player``). Games with a
        turn answer it without the set; the conformance suite checks it against :meth:`to_act`."""
        seats = self.to_act(state)
        return min(seats) if seats else None

    def may_act(self, state: S) -> frozenset[Seat]:
        """Seats that may act now without having to (disjoint from :meth:`to_act`)."""
        return frozenset()

    def is_over(self, state: S) -> bool:
        return not self.to_act(state)

    @abstractmethod
    def legal_actions(self, state: S, seat: Seat) -> Sequence[A]:
        """The legal actions of ``seat`` (empty if it may not act).

        Where the action space is open-ended (free words, huge placements), this enumerates a
        representative family and :meth:`illegal_reason` decides the rest. A sequence that never changes
        (a tuple, or a :class:`FixedActions`) may be given again wherever the same actions are legal: its
        readers may keep what they read of it (the server lists it once).
        """

    def illegal_reason(self, state: S, seat: Seat, action: A) -> str | None:
        """Why ``action`` is illegal for ``seat`` now, or ``None`` if it is legal.

        Called only for a seat that may act. The default checks membership in the legal actions;
        games override it to explain *why* (e.g. which neighbour an entry fails to exceed). The text is
        English; a game that returns one of its :attr:`refusals`' messages (a ``str`` too) says it with a
        stable key and params besides, which :meth:`check` passes on as the error's ``reason``.
        """
        if action in self.legal_actions(state, seat):
            return None
        return CORE("refusal.core.not_legal", action=self.format_action(action))

    def check(self, state: S, seat: Seat, action: object, offered: Sequence[Hashable] | None = None) -> None:
        """Raise the typed error that applying ``action`` would raise; change nothing.

        ``offered``: the legal actions (:meth:`legal_actions`, a tuple or a list) the caller chose
        ``action`` from, as a bot does: if ``action`` is the very object of one of them, the game made it
        and its form is not checked again (:meth:`check_well_formed`); its legality still is."""
        if self.is_over(state):
            raise GameOverError(CORE("refusal.core.game_over"))
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise NotYourTurnError(CORE("refusal.core.not_a_seat", value=short_repr(seat)))
        if seat not in self.to_act(state) and seat not in self.may_act(state):
            raise NotYourTurnError(CORE("refusal.core.not_your_turn", seat=seat))
        if not isinstance(action, self.action_classes):
            refused = CORE("refusal.core.not_an_action", value=short_repr(action), game=self.spec.title)
            raise IllegalActionError(refused)
        if (type(offered) is tuple or type(offered) is list) and any(
            map(operator.is_, offered, itertools.repeat(action))
        ):
            reason = self.illegal_reason(state, seat, action)  # type: ignore[arg-type]
        else:
            reason = self.check_well_formed(state, seat, action)
        if reason is not None:
            raise IllegalActionError(reason)

    def check_well_formed(self, state: S, seat: Seat, action: object) -> str | None:
        """Raise :class:`IllegalActionError` unless ``action`` (of one of :attr:`action_classes`) is exactly
        what its notation says: written (:meth:`format_action`) and read back (:meth:`parse_action`), it
        must give the same action, field for field and of the same types (:func:`same_action`). Otherwise
        return why the rules refuse it (:meth:`illegal_reason`), or None if they take it.

        An action made outside the engine may hold fields of another type than the rules' (``Roll("2")``,
        ``Play(3)``, a list for a tuple), which the rules (compiled: see setup.py) would meet with a bare
        TypeError, or take and record in a notation nothing reads back (``Roll(True)``, ``roll True``).
        An action its notation does not write as itself (a card of no deck; ``Judge((2,))``, written
        ``judge yes``) is still the rules' to refuse, with their own reason, if they have one for it; if
        they would take it, or fail on it, it is refused as ill formed.

        Written and read once per value: the action is kept (at most :data:`WELL_FORMED_KEPT` of them), and
        an action equal to a kept one is well formed if its fields are of the same types (Python finds
        ``Roll(True)`` equal to ``Roll(1)``): the actions a game gives again and again (those a bot or the
        driver passes on) cost a dictionary look-up more, and a comparison of their fields. The unchecked
        paths (:meth:`apply_unchecked`, :meth:`advance`) skip it all."""
        kept = self._well_formed
        try:
            known = kept.get(action)
            hashable = True
        except TypeError:  # a field that is a list, a dict: no action holds one
            known, hashable = None, False
        if known is action or (known is not None and same_action(action, known)):
            return self.illegal_reason(state, seat, action)  # type: ignore[arg-type]
        try:
            read: object = self.parse_action(self.format_action(action))  # type: ignore[arg-type]
        except Exception:  # whatever writing or reading an ill-formed action raises
            read = None
        if read is not None and same_action(action, read):
            if hashable:
                if len(kept) >= WELL_FORMED_KEPT:
                    kept.clear()
                kept[action] = action
            return self.illegal_reason(state, seat, action)  # type: ignore[arg-type]
        try:  # not its notation's: the rules may still say why they refuse it (a card of no deck)
            reason = self.illegal_reason(state, seat, action)  # type: ignore[arg-type]
        except Exception:  # compiled rules meeting a field of another type
            reason = None
        if reason is not None:
            return reason
        raise IllegalActionError(
            CORE("refusal.core.ill_formed", value=short_repr(action), game=self.spec.title)
        )

    def apply(
        self, state: S, seat: Seat, action: A, offered: Sequence[Hashable] | None = None
    ) -> list[Event]:
        """Apply a checked action: returns its events, or raises and leaves ``state`` untouched.
        ``offered``: the legal actions ``action`` was chosen from, if it was (see :meth:`check`)."""
        self.check(state, seat, action, offered)
        return self.apply_unchecked(state, seat, action)

    @abstractmethod
    def apply_unchecked(self, state: S, seat: Seat, action: A) -> list[Event]:
        """Apply an action known to be legal (from :meth:`legal_actions`)."""

    def advance(self, state: S, seat: Seat, action: A) -> None:
        """Apply an action known to be legal and build no events: the path of playouts, searches and
        benchmarks, where nobody reads what happened (as OpenSpiel's ``apply_action`` returns nothing).

        It must leave ``state`` exactly as :meth:`apply_unchecked` would (the conformance suite compares
        the two positions after every step of random playouts). A game whose events cost real work
        overrides it; the default simply drops them."""
        self.apply_unchecked(state, seat, action)

    # ------------------------------------------------------------ information
    @abstractmethod
    def view(self, state: S, seat: Seat | None) -> V:
        """Everything ``seat`` knows (perfect recall); ``None`` is a spectator."""

    def views(self, state: S, seats: Iterable[Seat | None]) -> dict[Seat | None, V]:
        """Each of ``seats``' :meth:`view` of one state (``None``: the spectator), equal to asking one seat
        at a time. The server asks this for every seat at the table after each move: a game whose seats
        share most of what they see (the table, the scores, the past) overrides it to build the shared
        part once. The conformance suite checks the two agree."""
        return {seat: self.view(state, seat) for seat in seats}

    def derives_views(self, options: Options) -> bool:
        """Whether the views of a game with these options carry a part worked out from the view alone that
        may cost much CPU (Amulets' deduction assistant counts the worlds left: up to tens of milliseconds
        a view). A server then makes the views without it (:meth:`bare_views`) where it serves its tables,
        and has the rest worked out elsewhere (:meth:`derive_view`), so one such table never holds up the
        others. Default: no such part."""
        return False

    def bare_views(self, state: S, seats: Iterable[Seat | None]) -> dict[Seat | None, V]:
        """:meth:`views` without the part :meth:`derive_view` adds: ``views(state, seats)`` is
        ``{s: derive_view(v) for s, v in bare_views(state, seats).items()}`` (the conformance suite checks
        it). A bare view is a view as its seat could have it: bots may be given it."""
        return self.views(state, seats)

    def derive_view(self, view: V) -> V:
        """``view`` (a :meth:`bare_views` one) with the part that is worked out from the view alone; a pure
        function of the view, so it may run in another process. Default: the view itself."""
        return view

    def world_from_view(self, view: V, rng: random.Random) -> S:
        """A full state consistent with ``view``, hidden parts and future chance drawn from ``rng``
        (the package's worlds module, handed over in :class:`Parts`)."""
        if self.parts.world_from_view is None:
            raise NotImplementedError(f"{self.spec.id}: no world sampler was assembled")
        return self.parts.world_from_view(view, rng)

    def world_sampler(self, view: V) -> Callable[[random.Random], S]:
        """Draws of worlds consistent with ``view``, each as :meth:`world_from_view` would draw it, for
        many draws from one view: what the view fixes is worked out once (the package's sampler, in
        :class:`Parts`), not once a world."""
        made = self.parts.world_sampler
        if made is not None:
            return made(view)
        return partial(self.world_from_view, view)

    def sample_world(self, state: S, seat: Seat, rng: random.Random) -> S:
        """A world consistent with what ``seat`` knows in ``state``; built from its view alone."""
        return self.world_from_view(self.view(state, seat), rng)

    # ---------------------------------------------------------------- outcome
    @abstractmethod
    def scores(self, state: S) -> tuple[float, ...]:
        """Each seat's score (final once the game is over)."""

    def winners(self, state: S) -> frozenset[Seat]:
        """The seats that share the victory (default: highest score). Empty if nobody wins."""
        scores = self.scores(state)
        best = max(scores)
        return frozenset(s for s, v in enumerate(scores) if v == best)

    # --------------------------------------------------------------- notation
    @abstractmethod
    def format_action(self, action: A) -> str:
        """The compact text notation of an action."""

    @abstractmethod
    def parse_action(self, text: str) -> A:
        """The inverse of :meth:`format_action`; raises NotationError."""

    def action_to_json(self, action: A) -> dict[str, JSONValue]:
        return self._action_codec.to_json(action)

    def action_from_json(self, raw: object) -> A:
        return self._action_codec.from_json(raw)

    def view_to_json(self, view: V) -> JSONValue:
        return self._view_codec.to_json(view)

    def view_from_json(self, raw: object) -> V:
        return self._view_codec.from_json(raw)

    # ----------------------------------------------------------- presentation
    def render(self, view: V) -> str:
        """A text picture of a view for the terminal (Rich markup allowed)."""
        if self.parts.render is not None:
            return self.parts.render(view)
        return repr(view)

    def describe_event(self, event: Event, seat: Seat | None = None) -> str:
        """An event in words (plain text) for ``seat``, who may see it (``None``: a spectator).

        The default prints ``kind key=value ...``: games whose events read badly that way override it.
        Whatever it returns comes from the event alone, which carries only what its audience may know.
        """
        if self.parts.describe_event is not None:
            return self.parts.describe_event(event, seat)
        details = " ".join(f"{key}={value}" for key, value in event.data.items())
        return f"{event.kind} {details}".strip()

    def stamp_time(self, action: A, seconds: float) -> A:
        """``action`` carrying the time its mover took, as a trusted front end measured it (the server:
        from the update that made the seat the mover to the move's arrival). Games whose rules judge time
        (The 3 Commandments' quick or slow moves) override this; others return ``action`` unchanged."""
        return action

    def decision_seconds(self, state: S, seat: Seat) -> float | None:
        """The longest ``seat`` may take over the decision the game waits for, whatever the table's pace
        (None: the table's pace alone decides). The 3 Commandments limits a judging priestess."""
        return None

    def timeout_action(self, state: S, seat: Seat) -> A | None:
        """What the rules make of ``seat`` running out of time, if they say (The 3 Commandments: a
        novice's timeout is an illegal move, a forfeit); ``None``: the rules are silent, and a front end
        lets a bot stand in for the absent player instead."""
        return None

    def reveals_at_end(self, options: Options) -> bool:
        """Whether a finished game may be shown in full (every hand, every secret choice, the deal's
        seed): a front end offers the record and the revealed replay only if so. Games with an option
        that keeps secrets for ever (The 3 Commandments' ``reveal=never``) say no for it."""
        return True

    def explain(self, view: V, moments: Sequence[Moment] = ()) -> Explanation | None:
        """Why each seat scored what it scored, from a final ``view`` alone (a seat's or the
        spectator's), in the game's own terms: per seat, labelled lines whose points add up to
        :meth:`scores`, and a sentence on why the winner won. ``moments`` are the ``(step, event)``
        pairs the same viewer saw; they only say at which step a line's points were made (for links to
        the replay). ``None``: this game does not explain its results."""
        if self.parts.explain is not None:
            return self.parts.explain(view, moments)
        return None

    def hidden_facts(self, state: S, seat: Seat) -> frozenset[str]:
        """Texts that ``seat`` does not know in ``state``, as a front end would print them (card names,
        secret choices, future dice): the conformance suite checks that nothing shown to the seat
        holds one. Each must be distinctive; games with hidden information override this."""
        if self.parts.hidden_facts is not None:
            return self.parts.hidden_facts(state, seat)
        return frozenset()

    # ------------------------------------------------------------------- bots
    def bots(self) -> Mapping[str, BotFactory]:
        """Bots by name; every game offers ``random``, ``greedy`` and ``best``."""
        if self.parts.bots:
            return self.parts.bots
        from coven.core.bot import RandomBot

        return {"random": RandomBot}

    def new_metrics(self) -> Metrics:
        """An accumulator of game-specific figures for ``coven simulate``."""
        if self.parts.metrics is not None:
            return self.parts.metrics()
        from coven.core.metrics import NoMetrics

        return NoMetrics()


AnyGame: TypeAlias = Game[Any, Any, Any]
"""A game of any state, action and view types: what code that serves every game (the server, the bots'
arena, the conformance suite) holds."""
