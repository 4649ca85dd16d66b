"""Brujas del Sábado in text: the actions and their notation, and whole positions (as FEN is to chess).

Actions: ``R3`` plays Red 3, ``xR3`` (or ``take R3``) picks Red 3 from the finished trick, ``up`` /
``down`` moves the winning colour's witch. Each action is one shared frozen value (:data:`PLAY_ACTION`,
:data:`TAKE_ACTION`, :data:`UP`, :data:`DOWN`), so the engine compares and hashes no fresh objects.

A position is one line, the whole state (:meth:`BrujasGame.write_position` / ``read_position``)::

    <witches> <hands> <piles> <leader> <trick> <phase> [<aside>] [conflict] [silent] [past=<tricks>]

- ``witches``: the witch column top to bottom, e.g. ``RBYG`` (red beside the top score card).
- ``hands`` / ``piles``: one card list per seat, seat 0 first, separated by ``/``; a card list is cards
  written back to back (``G3G4B1``) or ``-`` for none. Hands and piles are sets: written in kind order.
- ``leader``: the seat that led the current trick.
- ``trick``: the cards played so far from the leader clockwise (``-`` for none); a face-down card (silent
  variant) is written in lower case (``y2``).
- ``phase``: ``play`` (the next seat clockwise plays), ``witch`` (the winner moves the witch),
  ``take/<winner>/<up|down>/<picked>`` (collecting: the trick's winner, the witch move made and the cards
  picked so far, from the winner clockwise), or ``over``.
- ``aside``: with three players, the card set aside (unseen by all; optional in hand-made positions).
- ``conflict``, ``silent``: the variants in play ("Devils in Conflict", "Witches refrain from
  speaking"); absent, the basic game.
- ``past``: the finished tricks, oldest first, separated by ``,``, each
  ``<leader>/<cards>/<winner>/<up|down>/<picks>`` (cards from the leader on, picks from the winner on),
  as every seat remembers them (views carry them). Absent: no trick is finished, or a hand-made position
  that starts mid-game without history. Every card a seat picked in these tricks (and in the current
  one) must be in its score pile; a hand-made pile may hold more (cards collected before the history
  starts).

There is no chance after the deal (hands, the witch column and the first leader are drawn by ``setup``),
so the deal *is* the future chance: a position fixes it whole, and a test that writes the hands by hand
fixes every card anyone will play. Hand-made positions may hold fewer than the 40 cards (the rest are out
of the game); no position holds more than two copies of a card.

Example: ``RBYG B1Y4G5/R2R3/B2B3/Y1Y2 -/-/-/- 3 G3G4 play`` -- seat 3 led Green 3, seat 0 played Green 4,
and seat 1 is to play. A hand-made four-player position in the silent variant after one trick, where seat
1 led Red 2, seat 3 could not follow (its Green 1 lay face down until the witch moved), seat 0's Red 5
won, the red witch went down and the cards were picked from seat 0 clockwise:
``BRYG B1Y3/G2G4/B5Y1/B2Y2 R5/R4/G1/R2 0 - play silent past=1/R2R4G1R5/0/down/R5R4G1R2``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from coven.core import InvalidOptionError, NotationError, Options
from coven.core.errors import short_repr
from coven.games.brujas.cards import (
    COLOURS,
    KIND,
    KINDS,
    NAME,
    NOTATION_REFUSALS,
    add,
    cards_text,
    count,
    from_kinds,
    parse_card,
    parse_cards,
    remove,
)
from coven.games.brujas.state import (
    HAND_SIZE,
    NOBODY,
    OVER,
    PLAY,
    SPEC,
    TAKE,
    WITCH,
    BrujasState,
    new_state,
    set_witches,
    trick_status,
)


# --------------------------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class Play:
    """Play a devil card from your hand into the trick (notation ``R3``)."""

    card: str


@dataclass(frozen=True, slots=True)
class MoveWitch:
    """The trick's winner moves the witch of the winning colour ``up`` or ``down`` one step."""

    direction: str


@dataclass(frozen=True, slots=True)
class Take:
    """Pick one card of the finished trick into your score pile (notation ``xR3``)."""

    card: str


Action = Play | MoveWitch | Take

PLAY_ACTION = tuple(Play(NAME[k]) for k in range(KINDS))
TAKE_ACTION = tuple(Take(NAME[k]) for k in range(KINDS))
UP = MoveWitch("up")
DOWN = MoveWitch("down")
MOVES = ("up", "down")
"""The witch moves by number: 0 up, 1 down (as the state keeps them)."""


def format_action(action: Action) -> str:
    if isinstance(action, Play):
        return action.card
    if isinstance(action, Take):
        return "x" + action.card
    return action.direction


def parse_action(text: object) -> Action:
    if not isinstance(text, str):
        raise NotationError(f"an action is text, not {short_repr(text)}")
    t = text.strip()
    low = t.lower()
    if low in MOVES:
        return UP if low == "up" else DOWN
    if low.startswith("take"):
        return TAKE_ACTION[parse_card(t[4:])]
    if low.startswith("x"):
        return TAKE_ACTION[parse_card(t[1:])]
    try:
        return PLAY_ACTION[parse_card(t)]
    except NotationError:
        raise NotationError(
            NOTATION_REFUSALS("refusal.brujas.notation.unknown", text=short_repr(text))
        ) from None


# ------------------------------------------------------------------------------------------- positions
_SEAT = re.compile(r"[0-9]")
"""A seat: one ASCII digit (``str.isdigit()`` also takes "²", which ``int()`` refuses)."""
FLAGS = ("conflict", "silent")
"""The options written as words in a position, in this order."""
PAST = "past="


def _seat(text: str, players: int, what: str) -> int:
    if not _SEAT.fullmatch(text) or int(text) >= players:
        raise NotationError(f"{what} is a seat 0-{players - 1}, not {short_repr(text)}")
    return int(text)


def _move(text: str) -> int:
    if text not in MOVES:
        raise NotationError(f"a witch move is up or down, not {short_repr(text)}")
    return MOVES.index(text)


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
        phase = f"take/{s.winner}/{MOVES[s.moved]}/{picked}"
    else:
        phase = "over"
    parts = [witches, hands, piles, str(s.leader), trick, phase]
    if s.aside >= 0:
        parts.append(NAME[s.aside])
    parts.extend(flag for flag in FLAGS if s.options.get(flag))
    if s.history:
        parts.append(
            PAST
            + ",".join(
                f"{leader}/{''.join(NAME[k] for k in cards)}/{winner}/{MOVES[move]}/"
                + "".join(NAME[k] for k in picks)
                for leader, cards, winner, move, picks in s.history
            )
        )
    return " ".join(parts)


def _past(text: str, n: int) -> list[tuple[int, tuple[int, ...], int, int, tuple[int, ...]]]:
    history: list[tuple[int, tuple[int, ...], int, int, tuple[int, ...]]] = []
    for trick in text.split(","):
        fields = trick.split("/")
        if len(fields) != 5:
            raise NotationError(
                f"a past trick is <leader>/<cards>/<winner>/<up|down>/<picks>, not {short_repr(trick)}"
            )
        leader = _seat(fields[0], n, "a past trick's leader")
        cards = parse_cards(fields[1])
        winner = _seat(fields[2], n, "a past trick's winner")
        move = _move(fields[3])
        picks = parse_cards(fields[4])
        if len(cards) != n or sorted(picks) != sorted(cards):
            raise NotationError(f"a past trick holds {n} cards, each picked once: {short_repr(trick)}")
        history.append((leader, tuple(cards), winner, move, tuple(picks)))
    return history


def parse_position(text: object, options: Mapping[str, object] | None = None) -> BrujasState:
    """The state a position describes; raises NotationError. ``options`` (a game's options by name) are
    laid under the variants the text names: a test may write ``parse_position(text, {"silent": True})``
    or put ``silent`` in the text."""
    if not isinstance(text, str):
        raise NotationError(f"a position is text, not {short_repr(text)}")
    parts = text.split()
    if len(parts) < 6:
        raise NotationError(f"a position has at least 6 fields, not {len(parts)}: {short_repr(text)}")
    witches_text, hands_text, piles_text, leader_text, trick_text, phase_text = parts[:6]
    if sorted(witches_text.upper()) != sorted(COLOURS):
        raise NotationError(f"the witch column lists R, B, Y and G once each, not {short_repr(witches_text)}")
    hands = [from_kinds(parse_cards(h)) for h in hands_text.split("/")]
    piles = [from_kinds(parse_cards(p)) for p in piles_text.split("/")]
    n = len(hands)
    if n not in HAND_SIZE or len(piles) != n:
        raise NotationError(f"a position has 3 to 5 hands and as many piles, not {n} and {len(piles)}")
    # The optional fields, in their order, each at most once.
    aside_text: str | None = None
    flags: dict[str, object] = {}
    past_text: str | None = None
    rest = parts[6:]
    if rest and len(rest[0]) == 2 and rest[0].upper() in KIND:
        aside_text = rest.pop(0)
    for flag in FLAGS:
        if rest and rest[0] == flag:
            flags[flag] = True
            rest.pop(0)
    if rest and rest[0].startswith(PAST):
        past_text = rest.pop(0)[len(PAST) :]
    if rest:
        raise NotationError(
            "after the phase, a position may name the card set aside, conflict, silent and past=..., "
            f"in this order, not {short_repr(rest[0])}"
        )
    try:
        resolved: Options = SPEC.resolve_options({**(options or {}), **flags})
    except InvalidOptionError as exc:  # from the options a caller passed
        raise NotationError(str(exc)) from None
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
    if s.down and not s.silent:
        raise NotationError("a card lies face down only in the silent variant")
    s.trick = trick
    if trick:
        s.first = trick[0]
        s.lead, s.follow, s.win_index, s.win_val = trick_status(trick, s.rank)
    phase, _, phase_rest = phase_text.partition("/")
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
        fields = phase_rest.split("/")
        if len(trick) != n or len(fields) != 3 or fields[1] not in MOVES:
            raise NotationError(
                f"collecting is take/<winner>/<up|down>/<picked> after a full trick: {short_repr(phase_text)}"
            )
        s.phase = TAKE
        s.winner = _seat(fields[0], n, "the trick's winner")
        s.win_index = (s.winner - s.leader) % n
        s.moved = _move(fields[1])
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
        if trick:
            raise NotationError("a finished game has no trick on the table")
        s.phase, s.turn = OVER, NOBODY
    else:
        raise NotationError(f"the phase is play, witch, take/... or over, not {short_repr(phase_text)}")
    if aside_text is not None:
        if n != 3:
            raise NotationError(f"only three players set one card aside, not {short_repr(aside_text)}")
        s.aside = parse_card(aside_text)
    if past_text is not None:
        s.history = _past(past_text, n)
        collected = [0] * n
        for _, _, winner, _, picks in s.history:
            for i, k in enumerate(picks):
                collected[(winner + i) % n] = add(collected[(winner + i) % n], k)
        for i, k in enumerate(s.picks):
            collected[(s.winner + i) % n] = add(collected[(s.winner + i) % n], k)
        for seat, pile in enumerate(piles):
            for k in range(KINDS):
                if count(collected[seat], k) > count(pile, k):
                    raise NotationError(f"seat {seat} picked {NAME[k]} in a past trick but its pile lacks it")
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
