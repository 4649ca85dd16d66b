"""Brujas del Sábado: what leaves the engine -- the per-seat view and the events with their audiences.

A seat sees its own hand, every hand's size, the witch column, every score pile (collected cards are
face up), the current trick (a face-down card of the silent variant shows as ``"?"`` to everyone but its
player until the witch has moved) and every finished trick (perfect recall). Nobody sees the other hands
or, with three players, the card set aside. Events are built once at import (one per seat and card) and
shared: applying a move only picks them; the rare ones with changing content (the reveal of face-down
cards, the game's end) are made by :func:`reveal` and :func:`game_over`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from coven.core import Event, Seat, private, public
from coven.core.native import mypyc_attr, native_dataclasses
from coven.games.brujas.cards import COLOURS, KINDS, NAME, kinds_of
from coven.games.brujas.state import (
    LEAD_NAME,
    OVER,
    PHASE_NAME,
    PLAY,
    TAKE,
    WITCH,
    BrujasState,
    pile_scores,
)

# ---------------------------------------------------------------------------------------------- events
EV_PLAY: Final = tuple(tuple(public("play", seat=s, card=NAME[k]) for k in range(KINDS)) for s in range(5))
EV_DOWN: Final = tuple(public("play", seat=s, card="?", face_down=True) for s in range(5))
EV_DOWN_OWN: Final = tuple(
    tuple(private("face_down", (s,), seat=s, card=NAME[k]) for k in range(KINDS)) for s in range(5)
)
EV_WON: Final = tuple(
    tuple(
        tuple(public("trick", winner=s, card=NAME[k], lead=LEAD_NAME[ld]) for ld in range(3))
        for k in range(20)
    )
    for s in range(5)
)
EV_WITCH: Final = tuple(
    tuple(
        (
            public("witch", seat=s, colour=COLOURS[c], direction="up"),
            public("witch", seat=s, colour=COLOURS[c], direction="down"),
        )
        for c in range(4)
    )
    for s in range(5)
)
EV_TAKE: Final = tuple(tuple(public("take", seat=s, card=NAME[k]) for k in range(KINDS)) for s in range(5))


def reveal(trick: Sequence[int]) -> Event:
    """Face-down cards turn up after the witch move (silent variant): the whole trick, to everyone."""
    return public("reveal", cards=[NAME[k] for k in trick])


def game_over(scores: Sequence[int]) -> Event:
    return public("game_over", scores=list(scores))


# ------------------------------------------------------------------------------------------------ view
# The views' classes are compiled (setup.py), with their ``__init__`` written out: see coven.core.native.
@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True, slots=True)
class PastTrick:
    """A finished trick as everyone saw it (face-down cards were revealed before collecting)."""

    leader: int
    cards: tuple[str, ...]
    winner: int
    witch: str
    """The witch move: "up" or "down"."""
    picks: tuple[str, ...]
    """Cards picked, from the winner clockwise."""

    def __init__(
        self, leader: int, cards: tuple[str, ...], winner: int, witch: str, picks: tuple[str, ...]
    ) -> None:
        object.__setattr__(self, "leader", leader)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "winner", winner)
        object.__setattr__(self, "witch", witch)
        object.__setattr__(self, "picks", picks)


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True, slots=True)
class BrujasView:
    seat: int | None
    players: int
    options: dict[str, bool | int | str]
    hand: tuple[str, ...]
    """Your hand in kind order (red 1 .. green 5); empty for a spectator."""
    hand_sizes: tuple[int, ...]
    witches: tuple[str, ...]
    """Witch colours top to bottom, beside :attr:`score_values`."""
    score_values: tuple[int, ...]
    piles: tuple[tuple[str, ...], ...]
    leader: int
    trick: tuple[str, ...]
    """The current trick in play order; ``"?"`` for a face-down card that is not yours."""
    face_down: tuple[bool, ...]
    lead: str
    """``""`` (not set), ``"colour"`` or ``"number"``."""
    phase: str
    """``play``, ``witch``, ``take`` or ``over``."""
    to_act: int | None
    winner: int | None
    """The current trick's winner once it is complete."""
    moved: str
    """The witch move of the current trick once made ("up" / "down"), else ``""``."""
    taken: tuple[str, ...]
    """Cards already picked from the current trick, from the winner clockwise."""
    past: tuple[PastTrick, ...]
    scores: tuple[float, ...] = ()
    """What every face-up pile scores now (witch plus devil score): public, for the score board."""

    def __init__(
        self,
        seat: int | None,
        players: int,
        options: dict[str, bool | int | str],
        hand: tuple[str, ...],
        hand_sizes: tuple[int, ...],
        witches: tuple[str, ...],
        score_values: tuple[int, ...],
        piles: tuple[tuple[str, ...], ...],
        leader: int,
        trick: tuple[str, ...],
        face_down: tuple[bool, ...],
        lead: str,
        phase: str,
        to_act: int | None,
        winner: int | None,
        moved: str,
        taken: tuple[str, ...],
        past: tuple[PastTrick, ...],
        scores: tuple[float, ...] = (),
    ) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "options", options)
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "hand_sizes", hand_sizes)
        object.__setattr__(self, "witches", witches)
        object.__setattr__(self, "score_values", score_values)
        object.__setattr__(self, "piles", piles)
        object.__setattr__(self, "leader", leader)
        object.__setattr__(self, "trick", trick)
        object.__setattr__(self, "face_down", face_down)
        object.__setattr__(self, "lead", lead)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "to_act", to_act)
        object.__setattr__(self, "winner", winner)
        object.__setattr__(self, "moved", moved)
        object.__setattr__(self, "taken", taken)
        object.__setattr__(self, "past", past)
        object.__setattr__(self, "scores", scores)


native_dataclasses(PastTrick, BrujasView)


@lru_cache(maxsize=4096)
def names_of(cards: int) -> tuple[str, ...]:
    """The names of a set of cards in kind order (hands and piles repeat from view to view: memoised)."""
    return tuple(NAME[k] for k in kinds_of(cards))


def _past_trick(entry: tuple[int, tuple[int, ...], int, int, tuple[int, ...]]) -> PastTrick:
    leader, cards, winner, move, picks = entry
    return PastTrick(
        leader=leader,
        cards=tuple(NAME[k] for k in cards),
        winner=winner,
        witch="down" if move else "up",
        picks=tuple(NAME[k] for k in picks),
    )


@lru_cache(maxsize=256)
def past_tricks(
    history: tuple[tuple[int, tuple[int, ...], int, int, tuple[int, ...]], ...],
) -> tuple[PastTrick, ...]:
    """The finished tricks as every view shows them (the same for every seat at a number: memoised)."""
    return tuple(_past_trick(entry) for entry in history)


@lru_cache(maxsize=1024)
def shown_scores(
    piles: tuple[int, ...], rank: tuple[int, ...], values: tuple[int, ...], conflict: bool
) -> tuple[float, ...]:
    """What the face-up piles score now (piles change only when a card is taken: memoised)."""
    return tuple(float(v) for v in pile_scores(piles, rank, values, conflict))


def view_of(state: BrujasState, seat: Seat | None) -> BrujasView:
    """Everything ``seat`` knows (``None``: a spectator): its hand, the face-up table, every past trick."""
    return _seat_view(state, _table(state), seat)


def views_of(state: BrujasState, seats: Iterable[Seat | None]) -> dict[Seat | None, BrujasView]:
    """The views of several seats of one state: what they all see (the table, the piles, the past, the
    scores) is made once, then each seat gets its hand and its trick (cards face down show as ``"?"``)."""
    table = _table(state)
    return {seat: _seat_view(state, table, seat) for seat in seats}


_Table = tuple[
    tuple[int, ...],
    tuple[str, ...],
    tuple[int, ...],
    tuple[tuple[str, ...], ...],
    int,
    tuple[bool, ...],
    str,
    str,
    int | None,
    int | None,
    str,
    tuple[str, ...],
    tuple[PastTrick, ...],
    tuple[float, ...],
]


def _seat_view(s: BrujasState, t: _Table, seat: Seat | None) -> BrujasView:
    # by position, in the fields' order: a view is made for every seat after every move (the server) and
    # in the bots' playouts, and keywords cost more
    return BrujasView(
        seat, s.n, dict(s.options), _hand(s, seat), t[0], t[1], t[2], t[3], t[4], _trick(s, seat),
        t[5], t[6], t[7], t[8], t[9], t[10], t[11], t[12], t[13],
    )  # fmt: skip


def _table(s: BrujasState) -> _Table:
    """What every seat sees alike, in the order of the view's fields: hand sizes, witches, score values,
    piles, leader, (here the seat's own trick) which trick cards lie face down, the lead, the phase, who
    acts, the trick's winner, the witch move, the cards taken, the past tricks, the scores."""
    phase = s.phase
    hidden = phase in (PLAY, WITCH)
    return (
        tuple(h.bit_count() for h in s.hands),
        tuple(COLOURS[c] for c in s.witches),
        s.values,
        tuple(names_of(p) for p in s.piles),
        s.leader,
        tuple(hidden and bool(s.down >> i & 1) for i in range(len(s.trick))),
        LEAD_NAME[s.lead] if s.trick else "",
        PHASE_NAME[phase],
        None if phase == OVER else s.turn,
        s.winner if phase in (WITCH, TAKE) else None,
        ("up", "down")[s.moved] if phase == TAKE else "",
        tuple(NAME[k] for k in s.picks) if phase == TAKE else (),
        past_tricks(tuple(s.history)),
        shown_scores(tuple(s.piles), tuple(s.rank), s.values, s.conflict),
    )


def _hand(s: BrujasState, seat: Seat | None) -> tuple[str, ...]:
    return names_of(s.hands[seat]) if seat is not None else ()


def _trick(s: BrujasState, seat: Seat | None) -> tuple[str, ...]:
    """The current trick as ``seat`` sees it: a card face down is ``"?"`` but to its player (only while
    the witch has not moved: then the trick is turned up)."""
    if not (s.down and s.phase in (PLAY, WITCH)):
        return tuple(NAME[k] for k in s.trick)
    n, leader, down = s.n, s.leader, s.down
    return tuple(
        "?" if down >> i & 1 and (leader + i) % n != seat else NAME[k] for i, k in enumerate(s.trick)
    )
