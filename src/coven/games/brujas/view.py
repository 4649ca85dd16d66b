"""Brujas del Sábado: what leaves the engine -- the per-seat view and the events with their audiences.

A seat sees its own hand, every hand's size, the witch column, every score pile (collected cards are
face up), the current trick (a face-down card of the silent variant shows as ``"?"`` to everyone but its
player until the witch has moved) and every finished trick (perfect recall). Nobody sees the other hands
or, with three players, the card set aside. Events are built once at import (one per seat and card) and
shared: applying a move only picks them; the rare ones with changing content (the reveal of face-down
cards, the game's end) are made by :func:`reveal` and :func:`game_over`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from coven.core import Event, Seat, private, public
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
EV_PLAY = tuple(tuple(public("play", seat=s, card=NAME[k]) for k in range(KINDS)) for s in range(5))
EV_DOWN = tuple(public("play", seat=s, card="?", face_down=True) for s in range(5))
EV_DOWN_OWN = tuple(
    tuple(private("face_down", (s,), seat=s, card=NAME[k]) for k in range(KINDS)) for s in range(5)
)
EV_WON = tuple(
    tuple(
        tuple(public("trick", winner=s, card=NAME[k], lead=LEAD_NAME[ld]) for ld in range(3))
        for k in range(20)
    )
    for s in range(5)
)
EV_WITCH = tuple(
    tuple(
        (
            public("witch", seat=s, colour=COLOURS[c], direction="up"),
            public("witch", seat=s, colour=COLOURS[c], direction="down"),
        )
        for c in range(4)
    )
    for s in range(5)
)
EV_TAKE = tuple(tuple(public("take", seat=s, card=NAME[k]) for k in range(KINDS)) for s in range(5))


def reveal(trick: Sequence[int]) -> Event:
    """Face-down cards turn up after the witch move (silent variant): the whole trick, to everyone."""
    return public("reveal", cards=[NAME[k] for k in trick])


def game_over(scores: Sequence[int]) -> Event:
    return public("game_over", scores=list(scores))


# ------------------------------------------------------------------------------------------------ view
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
    s = state
    n = s.n
    trick: list[str] = []
    down: list[bool] = []
    hidden_phase = s.phase in (PLAY, WITCH)
    for i, k in enumerate(s.trick):
        face_down = hidden_phase and bool(s.down >> i & 1)
        down.append(face_down)
        trick.append("?" if face_down and (s.leader + i) % n != seat else NAME[k])
    return BrujasView(
        seat=seat,
        players=n,
        options=dict(s.options),
        hand=names_of(s.hands[seat]) if seat is not None else (),
        hand_sizes=tuple(h.bit_count() for h in s.hands),
        witches=tuple(COLOURS[c] for c in s.witches),
        score_values=s.values,
        piles=tuple(names_of(p) for p in s.piles),
        leader=s.leader,
        trick=tuple(trick),
        face_down=tuple(down),
        lead=LEAD_NAME[s.lead] if s.trick else "",
        phase=PHASE_NAME[s.phase],
        to_act=None if s.phase == OVER else s.turn,
        winner=s.winner if s.phase in (WITCH, TAKE) else None,
        moved=("up", "down")[s.moved] if s.phase == TAKE else "",
        taken=tuple(NAME[k] for k in s.picks) if s.phase == TAKE else (),
        past=past_tricks(tuple(s.history)),
        scores=shown_scores(tuple(s.piles), tuple(s.rank), s.values, s.conflict),
    )
