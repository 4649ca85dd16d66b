"""A compact text form of a whole position, for rule tests and debugging (like FEN for chess).

    <witches> <hands> <piles> <leader> <trick> <phase> [<aside>]

- ``witches``: the witch column top to bottom, e.g. ``RBYG`` (red beside the top score card).
- ``hands`` / ``piles``: one card list per seat, seat 0 first, separated by ``/``; a card list is cards
  written back to back (``G3G4B1``) or ``-`` for none.
- ``leader``: the seat that led the current trick.
- ``trick``: the cards played so far from the leader clockwise (``-`` for none); a face-down card (silent
  variant) is written in lower case (``y2``).
- ``phase``: ``play`` (the next seat clockwise plays), ``witch`` (the winner moves the witch),
  ``take/<winner>/<up|down>/<picked>`` (collecting: the trick's winner, the witch move made and the cards
  picked so far, from the winner clockwise), or ``over``.
- ``aside``: with three players, the card set aside (optional).

Example: ``RBYG G5B1Y4/R2R3/B2B3/Y1Y2 -/-/-/- 3 G3G4 play`` -- seat 3 led Green 3, seat 0 played Green 4,
and seat 1 is to play.
"""

from __future__ import annotations

import re

from coven.core import NotationError, Options
from coven.core.errors import short_repr
from coven.games.brujas.cards import COLOURS, KINDS, NAME, add, cards_text, from_kinds, parse_cards, remove
from coven.games.brujas.game import (
    GAME,
    HAND_SIZE,
    NOBODY,
    OVER,
    PLAY,
    TAKE,
    WITCH,
    BrujasState,
    new_state,
    set_witches,
    trick_status,
)

_SEAT = re.compile(r"[0-9]")
"""A seat: one ASCII digit (``str.isdigit()`` also takes "²", which ``int()`` refuses)."""


def _seat(text: str, players: int, what: str) -> int:
    if not _SEAT.fullmatch(text) or int(text) >= players:
        raise NotationError(f"{what} is a seat 0-{players - 1}, not {short_repr(text)}")
    return int(text)


def format_position(s: BrujasState) -> str:
    witches = "".join(COLOURS[c] for c in s.witches)
    hands = "/".join(cards_text(h) for h in s.hands)
    piles = "/".join(cards_text(p) for p in s.piles)
    trick = "".join(NAME[k].lower() if s.down >> i & 1 else NAME[k] for i, k in enumerate(s.trick)) or "-"
    if s.phase == PLAY:
        phase = "play"
    elif s.phase == WITCH:
        phase = "witch"
    elif s.phase == TAKE:
        picked = "".join(NAME[k] for k in s.picks) or "-"
        phase = f"take/{s.winner}/{('up', 'down')[s.moved]}/{picked}"
    else:
        phase = "over"
    parts = [witches, hands, piles, str(s.leader), trick, phase]
    if s.aside >= 0:
        parts.append(NAME[s.aside])
    return " ".join(parts)


def parse_position(text: str, options: dict[str, object] | None = None) -> BrujasState:
    """The state a position describes (with no history of earlier tricks); raises NotationError."""
    if not isinstance(text, str):
        raise NotationError(f"a position is text, not {short_repr(text)}")
    parts = text.split()
    if len(parts) not in (6, 7):
        raise NotationError(f"a position has 6 or 7 fields, not {len(parts)}: {short_repr(text)}")
    witches_text, hands_text, piles_text, leader_text, trick_text, phase_text = parts[:6]
    if sorted(witches_text.upper()) != sorted(COLOURS):
        raise NotationError(f"the witch column lists R, B, Y and G once each, not {short_repr(witches_text)}")
    hands = [from_kinds(parse_cards(h)) for h in hands_text.split("/")]
    piles = [from_kinds(parse_cards(p)) for p in piles_text.split("/")]
    n = len(hands)
    if n not in HAND_SIZE or len(piles) != n:
        raise NotationError(f"a position has 3 to 5 hands and as many piles, not {n} and {len(piles)}")
    resolved: Options = GAME.spec.resolve_options(options)
    s = new_state(n, resolved)
    set_witches(s, [COLOURS.index(c) for c in witches_text.upper()])
    s.hands = hands
    s.piles = piles
    s.leader = _seat(leader_text, n, "the leader")
    trick: list[int] = []
    if trick_text != "-":
        for i in range(0, len(trick_text), 2):
            name = trick_text[i : i + 2]
            trick += parse_cards(name.upper())
            if name[0].islower():
                s.down |= 1 << (len(trick) - 1)
    if len(trick) > n:
        raise NotationError(f"a trick holds at most {n} cards")
    s.trick = trick
    if trick:
        s.first = trick[0]
        s.lead, s.follow, s.win_index, s.win_val = trick_status(trick, s.rank)
    phase, _, rest = phase_text.partition("/")
    if phase == "play":
        if len(trick) == n:
            raise NotationError("a full trick is not in the play phase")
        s.phase = PLAY
        s.turn = (s.leader + len(trick)) % n
        if not any(hands) and not trick:
            s.phase, s.turn = OVER, NOBODY
    elif phase == "witch":
        if len(trick) != n:
            raise NotationError("the witch moves only after a full trick")
        s.phase = WITCH
        s.winner = s.turn = (s.leader + s.win_index) % n
    elif phase == "take":
        fields = rest.split("/")
        if len(trick) != n or len(fields) != 3 or fields[1] not in ("up", "down"):
            raise NotationError(
                f"collecting is take/<winner>/<up|down>/<picked> after a full trick: {short_repr(phase_text)}"
            )
        s.phase = TAKE
        s.winner = _seat(fields[0], n, "the trick's winner")
        s.win_index = (s.winner - s.leader) % n
        s.moved = 0 if fields[1] == "up" else 1
        s.down = 0
        s.picks = parse_cards(fields[2])
        pool = 0
        for k in trick:
            pool = add(pool, k)
        for k in s.picks:
            if not pool >> k & 1:
                raise NotationError(f"{NAME[k]} was picked but is not in the trick")
            pool = remove(pool, k)
        s.pool = pool
        if len(s.picks) >= n:
            raise NotationError("every card of the trick is already picked")
        s.turn = (s.winner + len(s.picks)) % n
    elif phase == "over":
        s.phase, s.turn = OVER, NOBODY
    else:
        raise NotationError(f"the phase is play, witch, take/... or over, not {short_repr(phase_text)}")
    if len(parts) == 7:
        aside = parse_cards(parts[6])
        if n != 3 or len(aside) != 1:
            raise NotationError(f"only three players set one card aside, not {short_repr(parts[6])}")
        s.aside = aside[0]
    counts = [0] * KINDS
    for cards in (*hands, *piles):
        for k in range(KINDS):
            counts[k] += (cards >> k & 1) + (cards >> (k + KINDS) & 1)
    for k in trick:
        counts[k] += 1
    for k in s.picks:  # picked cards sit in a pile and are still listed in the trick
        counts[k] -= 1
    if s.aside >= 0:
        counts[s.aside] += 1
    for k, c in enumerate(counts):
        if c > 2:
            raise NotationError(f"the position holds {c} copies of {NAME[k]}")
    return s
