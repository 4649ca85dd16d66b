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

A position holds together as a game's always does, or it is refused (a NotationError: it could come from
no game, and a state read from it could leave a seat to act with nothing to do): every hand holds as many
cards between tricks and once a trick is full, and while a trick is played the seats from the leader on
that have played into it hold one card fewer than the seats still to play (so the seat to play holds a
card); a finished game (``over``) has no card in hand, and with every hand empty the game is over, not in
``play``; every card of the trick and of the past tricks was legal given the hand it came from (the hand
now plus the cards that seat played since): a card matching the first card (or following the Lead) was
played if held; in the silent variant a card of the trick lies face down exactly when it did not follow,
and every card is face up once collecting starts; each winner is the trick's under the witch column of its
time (the witch moves undone, newest first), each move possible from where that witch stood; each trick
is led by the winner of the one before; every card picked (past tricks and the current one) is in the
picker's pile.

There is no chance after the deal (hands, the witch column and the first leader are drawn by ``setup``),
so the deal *is* the future chance: a position fixes it whole, and a test that writes the hands by hand
fixes every card anyone will play. Hand-made positions may hold fewer than the 40 cards (the rest are out
of the game); no position holds more than two copies of a card.

Example: ``RBYG B1Y4/R2R3G5/B2B3Y5/Y1Y2 -/-/-/- 3 G3G4 play`` -- seat 3 led Green 3, seat 0 played Green 4,
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
    BIT,
    COLOUR,
    COLOURS,
    KIND,
    KINDS,
    LOW,
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


_CARD_SHAPED = re.compile(r"[A-Za-z][0-9]+")
"""What a pick's card looks like when it is written wrong (``xZ9``: a letter and a number)."""


def parse_action(text: object) -> Action:
    if not isinstance(text, str):
        raise NotationError(f"an action is text, not {short_repr(text)}")
    t = text.strip()
    low = t.lower()
    if low in MOVES:
        return UP if low == "up" else DOWN
    picked = t[4:] if low.startswith("take") else t[1:] if low.startswith("x") else None
    if picked is not None and _CARD_SHAPED.fullmatch(picked.strip()):
        return TAKE_ACTION[parse_card(picked.strip())]  # (a pick of no card says what a card is)
    try:
        if picked is not None:
            return TAKE_ACTION[parse_card(picked)]
        return PLAY_ACTION[parse_card(t)]
    except NotationError:  # the whole text quoted: "xyzzy" is no pick of "yzzy"
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
        if s.down:
            raise NotationError(
                "face-down cards are turned face up before collecting: write them in capitals"
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
    for seat, pile in enumerate(piles):
        for k in range(KINDS):
            if count(collected[seat], k) > count(pile, k):
                raise NotationError(f"seat {seat} picked {NAME[k]} in a past trick but its pile lacks it")
    for i, k in enumerate(s.picks):
        seat = (s.winner + i) % n
        if count(piles[seat], k) <= count(collected[seat], k):
            raise NotationError(f"seat {seat} picked {NAME[k]} from the trick but its pile lacks it")
        collected[seat] = add(collected[seat], k)
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
    _check_hands(s)
    _check_play(s)
    return s


# ------------------------------------------------------------------------------- a position's coherence
# What write_position writes always holds together: the hands against the trick, every card played
# against the hand it came from, every winner against the witch column of its time, the leaders against
# the winners before them. A text that breaks one of these could come from no game, and a state read from
# it could deadlock (a seat to act with no card while others still hold some): it is refused.


def _cards(number: int) -> str:
    return f"{number} card" if number == 1 else f"{number} cards"


def _check_hands(s: BrujasState) -> None:
    """The hand sizes fit the phase and the trick: between tricks and once a trick is full every hand
    holds as many cards; while a trick is played, each seat that has played into it holds one card fewer
    than each seat still to play; a finished game has no card in hand."""
    n = s.n
    sizes = [h.bit_count() for h in s.hands]
    if s.phase == OVER:
        for seat, size in enumerate(sizes):
            if size:
                raise NotationError(
                    f"the game is over only once every hand is empty, but seat {seat} holds {_cards(size)}"
                )
        return
    played = len(s.trick) if s.phase == PLAY else n
    if played in (0, n):
        if len(set(sizes)) > 1:
            when = "between tricks" if played == 0 else "once the trick is full"
            raise NotationError(
                f"{when} every hand holds as many cards, not {'/'.join(map(str, sizes))} (seat 0 first)"
            )
        if not sizes[0] and s.phase == PLAY:
            raise NotationError("every hand is empty: the game is over (phase over), not in play")
        return
    m = sizes[s.turn]
    if not m:
        raise NotationError(f"seat {s.turn} is to play into the trick but holds no card")
    for i in range(n):
        seat = (s.leader + i) % n
        want = m - 1 if i < played else m
        if sizes[seat] != want:
            raise NotationError(
                f"seat {seat} holds {_cards(sizes[seat])}, not {want}: seat {s.turn}, next to play, "
                f"holds {m}, and the {played} seats from the leader (seat {s.leader}) on have played into "
                "the trick, so hold one card fewer"
            )


def _follow_masks(trick: list[int] | tuple[int, ...]) -> list[int]:
    """Before each card of ``trick``, the kinds that followed: anything for the first card, then the follow
    mask :func:`trick_status` gives after the cards before it (the witch column does not change it)."""
    return [LOW, *(trick_status(trick[:i], _ANY_RANK)[1] for i in range(1, len(trick)))]


_ANY_RANK = (0, 1, 2, 3)
"""A witch column for :func:`trick_status` where only the follow mask is wanted."""


def _check_trick(
    cards: list[int] | tuple[int, ...], leader: int, hands: list[int], n: int, where: str
) -> list[int]:
    """Every card of a trick was legal: a card that does not follow was played by a seat that held
    nothing that follows (``hands``: each seat's hand when it played). The follow masks."""
    masks = _follow_masks(cards)
    for i, k in enumerate(cards):
        seat = (leader + i) % n
        could = hands[seat] & LOW & masks[i]
        if not BIT[k] & masks[i] and could:
            other = NAME[(could & -could).bit_length() - 1]
            raise NotationError(
                f"seat {seat} played {NAME[k]} into {where} though it held {other}, which follows: a card "
                "that matches the first card (or follows the Lead) must be played if held"
            )
    return masks


def _undo_move(rank: list[int], colour: int, move: int, where: str) -> list[int]:
    """The witch column's ranks before ``colour``'s witch moved (``move`` 0 up, 1 down)."""
    now = rank[colour]
    was = now + 1 if move == 0 else now - 1
    if not 0 <= was < 4:
        raise NotationError(
            f"the {COLOURS[colour]} witch, now {'top' if now == 0 else 'bottom'}, cannot have moved "
            f"{MOVES[move]} after {where}"
        )
    before = rank[:]
    other = rank.index(was)
    before[colour], before[other] = was, now
    return before


def _check_winner(
    cards: list[int] | tuple[int, ...], leader: int, winner: int, rank: list[int], n: int, where: str
) -> None:
    best = trick_status(cards, rank)[2]
    if (leader + best) % n != winner:
        raise NotationError(
            f"{NAME[cards[best]]} of seat {(leader + best) % n} won {where}, not seat {winner}'s "
            f"{NAME[cards[(winner - leader) % n]]}"
        )


def _check_play(s: BrujasState) -> None:
    """The trick on the table and the past tricks could have been played: each card legal given the
    hand it came from (the hand now plus the cards the seat played since), face down in the silent
    variant exactly when it did not follow, each winner the trick's under the witch column of its time
    (the witch moves undone, newest first), each trick led by the winner of the one before."""
    n = s.n
    held = s.hands[:]
    trick = s.trick
    if trick:
        where = "the trick"
        masks = _check_trick(trick, s.leader, held, n, where)
        if s.silent and s.phase != TAKE:
            for i, k in enumerate(trick):
                follows = bool(BIT[k] & masks[i])
                if follows == bool(s.down >> i & 1):
                    how = f"followed: it lies face up ({NAME[k]})"
                    if not follows:
                        how = f"did not follow: it lies face down ({NAME[k].lower()})"
                    raise NotationError(f"{NAME[k]} {how} in the silent variant")
        for i, k in enumerate(trick):
            held[(s.leader + i) % n] = add(held[(s.leader + i) % n], k)
    rank = s.rank[:]
    if s.phase == TAKE:
        colour = COLOUR[trick[s.win_index]]
        rank = _undo_move(rank, colour, s.moved, "the trick")
        _check_winner(trick, s.leader, s.winner, rank, n, "the trick")
    following = s.leader
    for j in range(len(s.history) - 1, -1, -1):
        leader, cards, winner, move, _ = s.history[j]
        where = f"past trick {j + 1}"
        if winner != following:
            raise NotationError(
                f"seat {winner} won {where}, so it led the trick after it, not seat {following}"
            )
        for i, k in enumerate(cards):
            held[(leader + i) % n] = add(held[(leader + i) % n], k)
        _check_trick(cards, leader, held, n, where)
        rank = _undo_move(rank, COLOUR[cards[(winner - leader) % n]], move, where)
        _check_winner(cards, leader, winner, rank, n, where)
        following = leader
