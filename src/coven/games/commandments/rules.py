"""The rules of The 3 Commandments: the state, setup, legal actions and apply (rituals, karma, destiny
cards). Views and the events' audiences are in :mod:`.view`, actions and positions as text in
:mod:`.notation`; the package's ``__init__`` hands the bots, the terminal's text, explanations, metrics
and the world sampler to :class:`CommandmentsGame` (this module never imports them).

Rulebook reading: the English rulebook (000_708e26b8f05d0e2f.txt, pages 5-6 first) checked against
the complete French one (001_59840cbc350a48b0.txt), with the project's rulings (shared/rules/README.md,
"The 3 Commandments") standing where they speak:

- Seat 0 is the first High Priestess; the office passes to the left (seat + 1). Novices move in turn
  clockwise from her left; rounds per ritual: 3 players 4, 4-5 players 3, 6-7 players 2.
- She draws the top two artefact (red) and two action (green) cards, discards one unseen
  (:class:`Ordain`), the rest being the taboo (slot 0) and two commandments (slots 1-2), then places
  all fifteen artefacts (:class:`Place`). Novices see each slot's card type, never its text.
- After a move every matched card is marked (markers are hidden from novices in the expert variant);
  only the total is announced. Total > 0: recorded, destiny cards back to neutral. Total <= 0: one
  destiny card flips; the fourth flip disempowers her: the ritual ends at once, every novice gets 20
  karma and she gets nothing for this ritual.
- A ritual that ends regularly gives her the karma of the best novice of this ritual. Our choice where
  rulebook and rulings are silent: "karma of this ritual" is everything tallied for the novice in it,
  including the 2 karma from other novices' forfeits.
- A forfeit (an illegal move, e.g. on a timeout, as an explicit :class:`Forfeit` action) gives the
  mover nothing and every other novice 2 karma; the board is unchanged. The mover received no karma,
  so one destiny card flips, as for every novice who receives none (revised ruling; a fourth flip
  disempowers her as usual).
- Cards used in a ritual go back into the box (never reshuffled). The three cards are revealed to all
  when the ritual ends, unless the ``reveal`` option says ``never`` (as in the box).
- With ``judge=priestess`` the High Priestess judges her action cards herself after each move, a yes
  or no per card in slot order (:class:`Judge`, ``judge yes,no``: at most four choices, whatever the
  cards); a "?" action card she says yes to counts what the engine counts on the performance (so
  "yes" to a card that counts nothing leaves it unmarked). Artefact cards are always judged by the
  engine. Bots judge by the engine's reading.
- The highest total wins; ties share the victory.

Choices of ours where rulebook and rulings are silent:

- Chance: the state holds a :class:`~coven.core.chance.Chance` (a key and a counter). At setup it deals
  both piles, drawing only the cards a game can ever take from them (two of each kind per ritual) to
  the top; the piles, in the state and in its position, are the game's whole future chance.

- A move's performance (:class:`~coven.games.commandments.notation.Move`) carries gestures and
  touches from fixed vocabularies, free words (judged by the bilingual lexicon,
  :mod:`~coven.games.commandments.lexicon`), the path (areas carried over, ``X`` = out of the Holy
  Circle and back; the artefact is lifted, so a path need not follow adjacency; at most 12 entries,
  never the same area twice in a row) and the seconds taken.
- A performance has a cost in beats (2 per gesture, 2 per touch, 1 per word, 1 per area carried
  over) and a move may cost at most 10 (:data:`~coven.games.commandments.notation.BUDGET`); a costlier
  move is refused with an IllegalActionError that says what it costs.
- The seconds of a move are never the novice's to type: they are measured by a trusted front end.
  **Server hook**: for a person's move, call :meth:`CommandmentsGame.stamp_time` with the parsed action
  and the seconds measured, then apply what it returns::

      action = game.stamp_time(action, measured)   # before game.apply(state, seat, action)

  ``measured`` is the time in seconds (a float) from the moment the seat was told it is to move (the
  update that made it the mover was sent) to the moment its move arrived, less the time the page spent
  on its own animations. ``stamp_time`` returns a :class:`Move` with ``seconds`` replaced by the
  measurement rounded to the nearest whole second and clamped to 0-3600 (a NaN or negative value
  gives 0), and returns any other action unchanged; the record then holds the measured seconds, so
  replays judge the same. Whatever seconds the novice typed (``12s``) are overwritten. Bots and tests,
  in the engine API, set ``Move.seconds`` themselves; a typed move that gives none takes 10.
- Novices learn "bad karma" without its amount: a move's log records the announced total as the
  karma (> 0), 0 ("no karma") or -1 ("bad karma").
- A "?" card gives at most 20 karma on one move (bounds karma for custom cards); a human priestess
  marks a "?" action card with its count.
- Custom cards (option ``custom_cards``) must be cheap to judge: their expressions are bounded when
  the table is created (InvalidOptionError otherwise, see :mod:`~coven.games.commandments.cards`), and
  a custom card whose judgement still ran past its step budget would count as not matched on that
  move (0 karma, unmarked), for the engine, the bots and replays alike.
- ``legal_actions`` lists a representative family for novices (every artefact to every area with
  the canonical performances of :data:`~coven.games.commandments.notation.PERFORMANCES`, and
  ``forfeit``) and 24 placements for the priestess; any well-formed move within the budget, or
  placement, is legal and :meth:`CommandmentsGame.illegal_reason` says what is wrong otherwise.
"""

from __future__ import annotations

import dataclasses
import math
import random
import struct
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, Final, cast, final

from coven.core import (
    Bounds,
    Event,
    Game,
    GameSpec,
    InvalidOptionError,
    JSONValue,
    Option,
    Options,
    Seat,
    check_seat,
    check_seed,
    checked_seats,
    public,
)
from coven.core.chance import _GOLDEN, _MASK, _MIX1, _MIX2, COMPILED, Chance
from coven.core.codec import through_notation
from coven.core.errors import short_repr
from coven.core.events import slot_setters
from coven.core.refusals import CORE
from coven.core.texts import Texts
from coven.games.commandments import notation
from coven.games.commandments.board import (
    AREA_NAMES,
    CODE_STEP,
    COLOUR_OF,
    NUM_AREAS,
    NUM_ARTEFACTS,
    Codes,
    codes_of,
    counts_of,
    rows_of,
)
from coven.games.commandments.cards import (
    ACTION,
    ARTEFACT,
    BOARDLESS_SIZE,
    BUILTIN,
    CARD_REFUSALS,
    COUNT_CAP,
    MAX_FIXED,
    Card,
    Deck,
    PlanPart,
    SlotJudging,
    deck_for,
)
from coven.games.commandments.lang import BoardFn, Ctx, packed_function
from coven.games.commandments.notation import (
    ACTION_CLASSES,
    FORFEIT,
    JUDGE,
    MAX_SECONDS,
    MOVE,
    MOVE_FAMILY,
    MOVE_REFUSALS,
    NOTATION_REFUSALS,
    ORDAIN,
    OVER,
    PHASE_NAMES,
    PLACE,
    Action,
    Forfeit,
    Judge,
    Move,
    MoveLog,
    Ordain,
    Place,
    budget_problem,
    format_action,
    move_problem,
    parse_action,
)
from coven.games.commandments.view import (
    KARMA_EVENTS,
    KARMA_TOP,
    MARKS,
    TABOO,
    CommandmentsView,
    build_view,
    build_views,
    disempowered_event,
    forfeit_event,
    game_over_event,
    karma_event,
    move_event,
    ordained_events,
    revealed_event,
    ritual_end_event,
    ritual_events,
    shared_karma_event,
)

JUDGE_SECONDS: Final = 120.0
"""How long a human High Priestess may take to judge one move (``judge=priestess``)."""
DESTINY_CARDS: Final = 4
DISEMPOWER_BONUS: Final = 20
FORFEIT_BONUS: Final = 2


def rounds_for(players: int) -> int:
    return 4 if players == 3 else 3 if players <= 5 else 2


@dataclass(slots=True, init=False)
class Ritual:
    priestess: int
    hand: list[int]
    discard: int = -1
    slots: list[int] = field(default_factory=list)
    placement: tuple[int, ...] = ()
    log: list[Any] = field(default_factory=list)
    """The novices' turns so far, read as :attr:`moves`: a :class:`MoveLog` each, or the tuple the rules
    append (:data:`LogEntry` or :data:`PackedEntry`), made a MoveLog when someone reads :attr:`moves`."""
    gains: list[int] = field(default_factory=list)
    disempowered: bool = False
    ended: bool = False
    made: int = field(default=0, compare=False, repr=False)
    """How many of the first entries of :attr:`log` are known to be MoveLog already."""
    shown: dict[tuple[bool, bool, bool], Any] | None = field(default=None, compare=False, repr=False)
    """Once the ritual is over: its view for each kind of seat, made once (see
    :func:`coven.games.commandments.view.build_views`). A finished ritual is shared, unchanged, by every
    later state of its table, so its views live with it and go with the table (a copy starts without)."""

    def __init__(
        self,
        priestess: int,
        hand: list[int],
        discard: int = -1,
        slots: list[int] | None = None,
        placement: tuple[int, ...] = (),
        log: list[Any] | None = None,
        gains: list[int] | None = None,
        disempowered: bool = False,
        ended: bool = False,
        made: int = 0,
    ) -> None:
        # The dataclass's own __init__, written out: compiled (see setup.py), a generated one would be
        # interpreted, and a ritual starts three to seven times a game. None stands for a new list.
        self.priestess = priestess
        self.hand = hand
        self.discard = discard
        self.slots = [] if slots is None else slots
        self.placement = placement
        self.log = [] if log is None else log
        self.gains = [] if gains is None else gains
        self.disempowered = disempowered
        self.ended = ended
        self.made = made
        self.shown = None

    @property
    def moves(self) -> list[MoveLog]:
        """The novices' turns so far (the list itself: the rules append to it), each a MoveLog."""
        log = self.log
        for i in range(self.made, len(log)):
            entry = log[i]
            if type(entry) is tuple:
                log[i] = MoveLog(*entry) if len(entry) == 6 else MoveLog(*unpacked_entry(entry))
        self.made = len(log)
        return cast(list[MoveLog], log)

    def copy(self) -> Ritual:
        """A copy for a clone: ``hand`` and ``slots`` are shared (the rules replace them, never change
        them in place); the log and gains are copied."""
        return Ritual(
            self.priestess,
            self.hand,
            self.discard,
            self.slots,
            self.placement,
            list(self.log),
            list(self.gains),
            self.disempowered,
            self.ended,
            self.made,
        )


LogEntry = tuple[int, Move | None, int, tuple[int, ...], int, int]
"""A :class:`MoveLog`'s fields in order (seat, move, start, marks, total, flips), as the rules log a
turn: the MoveLog is made only when the turn is read (:attr:`Ritual.moves`)."""
PackedEntry = tuple[int, Move, int, int, int]
"""A move judged by its ritual's :func:`judging_plan`, as :meth:`CommandmentsGame.advance` logs it: seat,
move, start, its slots' packed values added up (the total times 8 plus the markers' bits, see
:func:`packed_slot`) and flips (:func:`unpacked_entry` gives its :data:`LogEntry`)."""


def unpacked_entry(entry: PackedEntry) -> LogEntry:
    """The :data:`LogEntry` of a :data:`PackedEntry`: its markers and its total as announced."""
    seat, move, start, packed, flips = entry
    return seat, move, start, MARKS[packed & 7], announce(packed >> 3), flips


@dataclass(slots=True, init=False)
class CommandmentsState:
    players: int
    options: Options
    deck: Deck
    chance: Chance
    """The deal's chance source: it dealt both piles at the start (:func:`deal`); the piles are the
    future from then on (see :mod:`.notation`)."""
    red: tuple[int, ...]
    """The artefact (red) pile still face down, the top card last; never changed in place (a ritual's
    draw makes a shorter tuple), so clones share it."""
    green: tuple[int, ...]
    rituals: list[Ritual]
    phase: int
    board: list[int]
    flips: int
    karma: list[int]
    turn: int
    pending: Move | None = None
    pending_start: int = -1
    codes: Codes | None = None
    """Per area, the code of its artefacts on ``board`` (:func:`~coven.games.commandments.board.codes_of`),
    kept up to date by the moves while a card of the ritual reads the board (a derived cache, the
    state's own: a move of the family changes it in place, a clone copies it; None when not kept:
    counted again when needed). Code that sets ``board`` by hand sets this back to ``None``."""
    mover: int = -2
    """The seat the game waits for (-1: nobody, the game is over), kept by the rules after each action
    (a derived cache; -2 when not known: worked out when needed). Code that sets the phase, the turn or
    the rituals by hand sets this back to -2."""
    judging: Judging | None = None
    """How the engine judges the current ritual's slots on a move of the family (:func:`judging_plan`,
    made when she ordains, or on the first move when ``None``; shared by clones). Code that sets the
    slots by hand sets this back to ``None``."""

    def __init__(
        self,
        players: int,
        options: Options,
        deck: Deck,
        chance: Chance,
        red: tuple[int, ...],
        green: tuple[int, ...],
        rituals: list[Ritual],
        phase: int,
        board: list[int],
        flips: int,
        karma: list[int],
        turn: int,
        pending: Move | None = None,
        pending_start: int = -1,
        codes: Codes | None = None,
        mover: int = -2,
        judging: Judging | None = None,
    ) -> None:
        # The dataclass's own __init__, written out: compiled (see setup.py), a generated one would be
        # interpreted, and every new game and every clone makes a state.
        self.players = players
        self.options = options
        self.deck = deck
        self.chance = chance
        self.red = red
        self.green = green
        self.rituals = rituals
        self.phase = phase
        self.board = board
        self.flips = flips
        self.karma = karma
        self.turn = turn
        self.pending = pending
        self.pending_start = pending_start
        self.codes = codes
        self.mover = mover
        self.judging = judging

    @property
    def ritual(self) -> Ritual:
        return self.rituals[-1]


Followers = tuple[int, ...]
"""Per seat, the novice who moves after it in a ritual (its High Priestess never moves)."""


@final
class Plan:
    """A ritual's :func:`judging_plan`, its slots' karma *packed* (see :data:`SlotJudging`: a move's
    packed values add up to its total times 8 plus its markers' bits): the packed values of each of its
    (at most two) action cards by the move's performance (kept apart: adding the two tables up when she
    ordains costs more than one more lookup on each of a ritual's moves), of each of its (at most two)
    artefact cards that never read the board by the move's colour and areas (:attr:`Deck.boardless`; a
    table of zeros for none), the functions that give the packed value of its cards that read the board
    (the first two, in slot order; None for none), whether one of them reads the board before the move,
    the turns of a ritual, and the novice who follows each seat in this ritual. A class, not a tuple:
    compiled, the hot path reads its fields without unpacking the whole."""

    __slots__ = ("art", "art2", "before", "following", "on_board", "on_board2", "p1", "p2", "turns")

    def __init__(
        self,
        p1: tuple[int, ...],
        p2: tuple[int, ...],
        art: tuple[int, ...],
        art2: tuple[int, ...],
        on_board: BoardFn | None,
        on_board2: BoardFn | None,
        before: bool,
        turns: int,
        following: Followers,
    ) -> None:
        self.p1 = p1
        self.p2 = p2
        self.art = art
        self.art2 = art2
        self.on_board = on_board
        self.on_board2 = on_board2
        self.before = before
        self.turns = turns
        self.following = following


Judging = Plan | tuple[()]
"""A ritual's :class:`Plan`, or ``()``: the engine does not judge this ritual's moves alone (a judging
priestess, not three slots)."""


def deal(chance: Chance, cards: Sequence[int], draws: int) -> tuple[int, ...]:
    """A pile of ``cards`` whose top ``draws`` cards (the end of the tuple) are drawn uniformly at random
    from all of them, by the last ``draws`` steps of a Fisher-Yates shuffle: the cards below are never
    drawn (every ritual draws two of each kind), so their order is left as it was.

    Each step draws ``chance.below(i + 1)`` (the tests hold it to the plain loop): compiled, by that
    call; interpreted, from draws mixed at once (:func:`_draws`, see
    :data:`~coven.core.chance.COMPILED`)."""
    pile = list(cards)
    top = len(pile) - 1
    steps = range(top, max(top - draws, 0), -1)
    if COMPILED:  # a draw costs less alone than mixed with others (see Chance.below)
        for i in steps:
            j = chance.below(i + 1)
            pile[i], pile[j] = pile[j], pile[i]
        return tuple(pile)
    mixed = _draws(chance.key, chance.counter + 1, len(steps))
    for i, z in zip(steps, mixed, strict=True):  # Chance.below(i + 1): Lemire's multiply-shift
        j = (z * (i + 1)) >> 64
        pile[i], pile[j] = pile[j], pile[i]
    chance.counter += len(steps)
    return tuple(pile)


def deal_piles(
    chance: Chance, red: Sequence[int], green: Sequence[int], draws: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(deal(chance, red, draws), deal(chance, green, draws))``: that, compiled; interpreted, their draws
    mixed at once (the steps of both deals by the piles' sizes: :func:`_deal_steps`)."""
    if COMPILED:  # a draw costs less alone than mixed with others (see Chance.below): deal, twice
        return deal(chance, red, draws), deal(chance, green, draws)
    sizes = (len(red), len(green), draws)
    steps, steps2, n, k = _DEAL_STEPS.get(sizes) or _deal_steps(*sizes)
    mixed = _draws(chance.key, chance.counter + 1, k)
    pile = list(red)
    for i, z in zip(steps, mixed, strict=False):  # the first n draws; below(i + 1), as in deal
        j = (z * (i + 1)) >> 64
        pile[i], pile[j] = pile[j], pile[i]
    other = list(green)
    for i, z in zip(steps2, mixed[n:], strict=True):
        j = (z * (i + 1)) >> 64
        other[i], other[j] = other[j], other[i]
    chance.counter += k
    return tuple(pile), tuple(other)


_DEAL_STEPS: Final[dict[tuple[int, int, int], tuple[range, range, int, int]]] = {}
""":func:`_deal_steps` by the sizes of the two piles and the draws (a handful: one per player count)."""


def _deal_steps(reds: int, greens: int, draws: int) -> tuple[range, range, int, int]:
    """The positions :func:`deal_piles` draws for, top first, in a pile of ``reds`` cards and in one of
    ``greens`` (the last ``draws`` steps of a Fisher-Yates shuffle of each), how many draws the first
    takes and both."""
    steps = range(reds - 1, max(reds - 1 - draws, 0), -1)
    steps2 = range(greens - 1, max(greens - 1 - draws, 0), -1)
    found = _DEAL_STEPS[reds, greens, draws] = (steps, steps2, len(steps), len(steps) + len(steps2))
    return found


_LANE: Final = 128
"""Bits per draw in :func:`_draws`'s integer: a 64-bit value times a 64-bit constant stays in its lane."""
_LANES: dict[int, tuple[int, int, int, struct.Struct]] = {}
"""Per number of draws ``k``: 1 in every lane, the low 64 bits of every lane, ``i * golden`` in lane i,
and the struct that reads the low 64-bit word of every lane of ``k`` lanes' little-endian bytes."""


def _lanes(k: int) -> tuple[int, int, int, struct.Struct]:
    one = sum(1 << (_LANE * i) for i in range(k))
    found = _LANES[k] = (
        one,
        _MASK * one,
        sum((i * _GOLDEN) << (_LANE * i) for i in range(k)),
        struct.Struct("<" + "Q8x" * k),
    )
    return found


def _draws(key: int, counter: int, k: int) -> tuple[int, ...]:
    """The 64-bit draws ``counter`` to ``counter + k - 1`` of the chance of ``key`` (each
    :meth:`Chance.bits64`'s, the SplitMix64 finaliser of ``key + n * golden``), mixed at once: lane i
    of one integer starts as ``key + (counter + i) * golden`` (below 2**64 after the mask) and each step
    (an xor with a right shift, a product with a 64-bit constant) is masked back to the low 64 bits of
    every lane, so nothing reaches another lane's bits; the lanes are read back as the low words of the
    integer's little-endian bytes. A few draws are mixed one by one (cheaper below four)."""
    if k < 4:
        out = []
        step = key + (counter - 1) * _GOLDEN
        for _ in range(k):
            step += _GOLDEN
            z = step & _MASK
            z = ((z ^ (z >> 30)) * _MIX1) & _MASK
            z = ((z ^ (z >> 27)) * _MIX2) & _MASK
            out.append(z ^ (z >> 31))
        return tuple(out)
    one, lanes, steps, words = _LANES.get(k) or _lanes(k)
    z = (((key + counter * _GOLDEN) & _MASK) * one + steps) & lanes
    z = (((z ^ (z >> 30)) & lanes) * _MIX1) & lanes
    z = (((z ^ (z >> 27)) & lanes) * _MIX2) & lanes
    z ^= z >> 31
    mixed: tuple[int, ...] = words.unpack(z.to_bytes(k * 16, "little"))
    return mixed


def novice_order(players: int, priestess: int) -> list[int]:
    return [(priestess + k) % players for k in range(1, players)]


def mover_of(players: int, priestess: int, turn: int) -> int:
    return (priestess + 1 + turn % (players - 1)) % players


def move_context(board: Sequence[int], move: Move) -> Ctx:
    """The context a card judges ``move`` in, on ``board`` (the areas before the move)."""
    before = counts_of(board)
    after = [row[:] for row in before]
    start = board[move.artefact]
    colour = COLOUR_OF[move.artefact]
    after[start][colour] -= 1
    after[move.to][colour] += 1
    return Ctx(
        colour,
        start,
        move.to,
        before,
        after,
        frozenset(move.gestures),
        frozenset(move.touches),
        move.words,
        move.path,
        move.seconds,
    )


def judge_cards(cards: Sequence[Card], ctx: Ctx) -> list[int]:
    """Each card's karma on this move (0 = unmarked)."""
    return [card.judge(ctx) for card in cards]


def announce(total: int) -> int:
    """What the novices learn of a total: the karma when positive, 0 for "no karma", -1 for "bad
    karma" (its amount is never announced)."""
    return total if total > 0 else (0 if total == 0 else -1)


def karma_total(values: Sequence[int]) -> int:
    """Slot 0 is the taboo."""
    return sum(values[1:]) - values[0]


REFUSALS: Final = (
    CORE
    | MOVE_REFUSALS
    | NOTATION_REFUSALS
    | CARD_REFUSALS
    | Texts(
        {
            "refusal.commandments.task.ordain": "ordain",
            "refusal.commandments.task.place": "place",
            "refusal.commandments.task.move": "move",
            "refusal.commandments.task.judge": "judge",
            "refusal.commandments.task.over": "over",
            "refusal.commandments.not_move_time": (
                "it is not a novice's move now (the High Priestess must {task})"
            ),
            "refusal.commandments.ordained": "the cards have already been ordained for this ritual",
            "refusal.commandments.discard_not_held": "you do not hold {card} to discard (your hand: {hand})",
            "refusal.commandments.taboo_not_held": "you do not hold {card} to taboo (your hand: {hand})",
            "refusal.commandments.discard_is_taboo": "the discarded card cannot also be the taboo",
            "refusal.commandments.placed": "the artefacts are placed once, after ordaining the cards",
            "refusal.commandments.place_all": "place all {count} artefacts, not {given}",
            "refusal.commandments.place_area": (
                "every artefact goes into an area of the Holy Circle (C, H1-H5, T1-T5, R)"
            ),
            "refusal.commandments.no_judgement": "there is no move waiting for your judgement",
            "refusal.commandments.judge_count": (
                "say yes or no for each of your {count} action card(s), in slot order"
            ),
            "refusal.commandments.judge_mark": "{card} is judged yes (1) or no (0), not {mark}",
            "refusal.commandments.players": "The 3 Commandments takes 3 to 7 players",
        }
    )
)
"""Why the rules refuse an action or a table (:mod:`coven.core.refusals`): a novice's move
(:data:`~coven.games.commandments.notation.MOVE_REFUSALS`), a move's notation that cannot be read
(:data:`~coven.games.commandments.notation.NOTATION_REFUSALS`), the custom cards
(:data:`~coven.games.commandments.cards.CARD_REFUSALS`) and the High Priestess's decisions; cards by id,
``task`` what the phase asks of her."""


class CommandmentsGame(Game[CommandmentsState, Action, CommandmentsView]):
    spec = GameSpec(
        id="commandments",
        title="The 3 Commandments",
        summary="Each player is High Priestess once, secretly sets two commandments and a taboo; "
        "the novices guess them from the karma their moves earn.",
        min_players=3,
        max_players=7,
        options=(
            Option("expert", False, "expert variant: no markers on the matched cards, only the total"),
            Option(
                "judge",
                "engine",
                "who judges the action cards: the engine, or the High Priestess herself after each move",
                choices=("engine", "priestess"),
            ),
            Option(
                "reveal",
                "ritual_end",
                "when the priestess's three cards are shown to all: at the end of her ritual, or never",
                choices=("ritual_end", "never"),
            ),
            Option(
                "custom_cards",
                "",
                'extra cards as a JSON list of {"id","type","value","en","fr","expr"} '
                '(type artefact/action, value 1-9 or "?", expr in the cards\' expression language)',
            ),
        ),
        hidden_information=True,
        rules_file="rules.md",
    )
    action_classes = ACTION_CLASSES
    view_class = CommandmentsView
    reused_view_items = ("rituals", "cards")  # a finished ritual's views, the cards' words (see views)
    refusals = REFUSALS

    # ------------------------------------------------------------------------------------- setup
    def new_game(
        self, players: object, options: Mapping[str, object] | None = None, seed: object = 0
    ) -> CommandmentsState:
        """As :meth:`Game.new_game`; without options, the defaults (resolved and valid for every player
        count) are not resolved again."""
        if options is None and type(players) is int and 3 <= players <= 7 and type(seed) is int:
            return self.setup(players, _DEFAULTS, seed)
        # ``players`` and ``seed`` are ``object``: compiled, a method refuses an argument of another type
        # than it declares with a TypeError; a count or a seed that is no whole number gets an
        # InvalidOptionError (a numpy integer seed is taken: check_seed)
        self.spec.check_players(players)
        assert isinstance(players, int)
        return super().new_game(players, options, check_seed(seed))

    def validate_options(self, players: int, options: Options) -> None:
        deck_for(str(options["custom_cards"]))  # raises InvalidOptionError
        if players < 3:
            raise InvalidOptionError(REFUSALS("refusal.commandments.players"))

    def setup(self, players: int, options: Options, seed: int) -> CommandmentsState:
        deck = deck_for(str(options["custom_cards"]))
        chance = Chance(seed)
        red, green = deal_piles(chance, deck.artefact, deck.action, 2 * players)
        # the fields _start_ritual sets come as placeholders (phase, board, flips, turn)
        state = CommandmentsState(
            players, dict(options), deck, chance, red, green, [], ORDAIN, [], 0, [0] * players, 0
        )
        self._start_ritual(state, 0)  # nobody reads the first ritual's events here
        return state

    def _start_ritual(self, state: CommandmentsState, priestess: int) -> None:
        """Her ritual begins: she draws her hand (its events: :meth:`_closing_events`)."""
        red, green = state.red, state.green
        hand = [red[-1], red[-2], green[-1], green[-2]]
        state.red, state.green = red[:-2], green[:-2]
        rituals = state.rituals
        ritual = Ritual(priestess, hand, -1, [], (), [], [0] * state.players, False, False, 0)
        rituals.append(ritual)
        state.phase = ORDAIN
        state.board = []
        state.codes = None
        state.judging = None
        state.flips = 0
        state.turn = 0
        state.mover = priestess

    def bounds(self, players: int, options: Options) -> Bounds:
        rounds = rounds_for(players)
        moves = (players - 1) * rounds
        per_ritual = 2 + moves * (2 if options.get("judge") == "priestess" else 1)
        per_move = 2 * max(COUNT_CAP, MAX_FIXED) + FORFEIT_BONUS * (players - 2)
        top = players * (rounds * per_move + DISEMPOWER_BONUS)
        return Bounds(max_decisions=players * per_ritual, min_score=0, max_score=top)

    def num_players(self, state: CommandmentsState) -> int:
        return state.players

    def options(self, state: CommandmentsState) -> Options:
        return state.options

    def clone(self, state: CommandmentsState) -> CommandmentsState:
        rituals = state.rituals[:-1]
        rituals.append(state.rituals[-1].copy())
        return CommandmentsState(
            state.players,
            state.options,
            state.deck,
            state.chance.copy(),
            state.red,
            state.green,
            rituals,
            state.phase,
            list(state.board),
            state.flips,
            list(state.karma),
            state.turn,
            state.pending,
            state.pending_start,
            None if state.codes is None else state.codes[:],
            state.mover,
            state.judging,
        )

    # --------------------------------------------------------------------------------- positions
    def write_position(self, state: CommandmentsState) -> str:
        """The whole state on one line (the format: :mod:`coven.games.commandments.notation`)."""
        return notation.write_position(state)

    def read_position(self, text: object) -> CommandmentsState:
        p = notation.read_position(text)
        rituals = [Ritual(*fields) for fields in p.rituals]
        return CommandmentsState(
            p.players,
            p.options,
            p.deck,
            p.chance,
            tuple(p.red),
            tuple(p.green),
            rituals,
            p.phase,
            p.board,
            p.flips,
            p.karma,
            p.turn,
            p.pending,
            p.pending_start,
        )

    # ------------------------------------------------------------------------------------- turns
    def current_seat(self, state: CommandmentsState) -> int:
        phase = state.phase
        if phase == MOVE:  # mover_of, inlined: the hot path
            players = state.players
            return (state.rituals[-1].priestess + 1 + state.turn % (players - 1)) % players
        return -1 if phase == OVER else state.rituals[-1].priestess

    def to_act(self, state: CommandmentsState) -> frozenset[Seat]:
        mover = state.mover
        if mover < -1:
            mover = state.mover = self.current_seat(state)
        return _TO_ACT[mover]

    def first_to_act(self, state: CommandmentsState) -> Seat | None:
        mover = state.mover
        if mover >= 0:  # known, and someone: every decision of a playout
            return mover
        if mover < -1:
            mover = state.mover = self.current_seat(state)
        return None if mover == -1 else mover

    def legal_actions(self, state: CommandmentsState, seat: Seat) -> Sequence[Action]:
        if not 0 <= seat < state.players:  # (compared here: the call only where it refuses)
            check_seat(seat, state.players, spectator=False)
        if seat != state.mover or seat < 0:  # not the seat to act, or it is not known yet
            mover = state.mover
            if mover < -1:
                mover = state.mover = self.current_seat(state)
            if seat != mover or mover < 0:
                return ()
        phase = state.phase
        if phase == MOVE:  # the novice to move: the hot path
            return _NOVICE_ACTIONS
        if phase == ORDAIN:
            hand = state.rituals[-1].hand
            if len(hand) == 4 and max(hand) < _BUILTIN_CARDS:  # the box's (a custom deck's come after)
                return ordainments(hand)
            ids = [state.deck.cards[c].id for c in hand]
            return [_ordain(d, t) for d in ids for t in ids if t != d]
        if phase == PLACE:
            return _PLACEMENTS
        return [Judge(m) for m in _judge_choices(self.action_slots(state))]

    def action_slots(self, state: CommandmentsState) -> list[Card]:
        """The action cards among the slots, in slot order (what :class:`Judge` marks)."""
        cards = state.deck.cards
        return [cards[c] for c in state.ritual.slots if cards[c].type == ACTION]

    def illegal_reason(self, state: CommandmentsState, seat: Seat, action: Action) -> str | None:
        phase = state.phase
        ritual = state.ritual
        if isinstance(action, (Move, Forfeit)):
            if phase != MOVE:
                task = REFUSALS(f"refusal.commandments.task.{PHASE_NAMES[phase]}")
                return REFUSALS("refusal.commandments.not_move_time", task=task)
            if isinstance(action, Forfeit):
                return None
            return move_problem(action) or budget_problem(action)
        if isinstance(action, Ordain):
            if phase != ORDAIN:
                return REFUSALS("refusal.commandments.ordained")
            ids = [state.deck.cards[c].id for c in ritual.hand]
            hand = ", ".join(ids)
            if action.discard not in ids:
                return REFUSALS(
                    "refusal.commandments.discard_not_held", card=short_repr(action.discard), hand=hand
                )
            if action.taboo not in ids:
                return REFUSALS(
                    "refusal.commandments.taboo_not_held", card=short_repr(action.taboo), hand=hand
                )
            if action.discard == action.taboo:
                return REFUSALS("refusal.commandments.discard_is_taboo")
            return None
        if isinstance(action, Place):
            if phase != PLACE:
                return REFUSALS("refusal.commandments.placed")
            if len(action.areas) != NUM_ARTEFACTS:
                return REFUSALS(
                    "refusal.commandments.place_all", count=NUM_ARTEFACTS, given=len(action.areas)
                )
            if any(not 0 <= a < NUM_AREAS for a in action.areas):
                return REFUSALS("refusal.commandments.place_area")
            return None
        if phase != JUDGE:
            return REFUSALS("refusal.commandments.no_judgement")
        slots = self.action_slots(state)
        if len(action.marks) != len(slots):
            return REFUSALS("refusal.commandments.judge_count", count=len(slots))
        for slot_card, mark in zip(slots, action.marks, strict=True):
            if mark not in (0, 1):
                return REFUSALS("refusal.commandments.judge_mark", card=slot_card.id, mark=mark)
        return None

    # ------------------------------------------------------------------------------- front ends
    def stamp_time(self, action: Action, seconds: float) -> Action:
        """The action with the time a trusted front end measured (the server's hook, see the module's
        documentation): a :class:`Move` gets ``seconds`` rounded to the nearest whole second and
        clamped to 0-3600 (NaN or negative: 0); any other action is returned unchanged."""
        if not isinstance(action, Move):
            return action
        if not isinstance(seconds, (int, float)) or math.isnan(seconds) or seconds <= 0:
            whole = 0
        elif seconds >= MAX_SECONDS:
            whole = MAX_SECONDS
        else:
            whole = math.floor(seconds + 0.5)
        return dataclasses.replace(action, seconds=whole)

    # ------------------------------------------------------------------------------------- apply
    def _apply_ordain(
        self, state: CommandmentsState, seat: Seat, action: Ordain, events: bool
    ) -> list[Event]:
        """She discards one card and names the taboo (and :attr:`CommandmentsState.mover` after it); the
        events when ``events`` is true, else none."""
        ritual = state.rituals[-1]
        known = _ORDAINED.get(id(action))  # one that legal_actions offers: its cards' positions
        if known is None:
            # her hand's cards by id (ids are unique in a deck, and the checked path holds her to her hand)
            index = state.deck.index
            known = index[action.discard], index[action.taboo]
        ritual.discard, taboo = known
        slots = ritual.hand[:]  # the taboo, then the other two cards of her hand in hand order
        slots.remove(ritual.discard)
        slots.remove(taboo)
        slots.insert(0, taboo)
        ritual.slots = slots
        state.judging = judging_plan(state)
        state.phase = PLACE
        state.mover = ritual.priestess  # she places the artefacts
        if not events:
            return []
        cards = state.deck.cards
        types: list[JSONValue] = [cards[slots[0]].type, cards[slots[1]].type, cards[slots[2]].type]
        return ordained_events(seat, types, action.discard)

    def _apply_place(self, state: CommandmentsState, seat: Seat, action: Place, events: bool) -> list[Event]:
        """She places the artefacts (and :attr:`CommandmentsState.mover` after it)."""
        ritual = state.rituals[-1]
        areas = action.areas
        state.board = list(areas)
        ritual.placement = tuple(areas)
        state.phase = MOVE
        players = state.players  # the mover: current_seat, inlined
        state.mover = (ritual.priestess + 1 + state.turn % (players - 1)) % players
        known = _PLACED.get(id(action))
        if known is not None:  # one of the placements legal_actions offers: made once
            codes, event = known
            state.codes = codes[:]  # the state's own: the moves change it in place
            return [event] if events else []
        state.codes = codes_of(areas)
        return [public("placed", action=format_action(action))] if events else []

    def _apply_forfeit(
        self, state: CommandmentsState, seat: Seat, action: Forfeit, events: bool
    ) -> list[Event]:
        """A novice forfeits (and :attr:`CommandmentsState.mover` after it)."""
        ritual = state.rituals[-1]
        for novice in novice_order(state.players, ritual.priestess):
            if novice != seat:
                state.karma[novice] += FORFEIT_BONUS
                ritual.gains[novice] += FORFEIT_BONUS
        state.flips += 1
        ritual.log.append((seat, None, -1, (), 0, state.flips))
        out = [forfeit_event(seat, FORFEIT_BONUS, state.flips)] if events else []
        self._after_flip(state)
        if events and ritual.ended:
            out += self._closing_events(state, ritual)
        state.mover = self.current_seat(state)
        return out

    def _apply_judge(self, state: CommandmentsState, seat: Seat, action: Judge, events: bool) -> list[Event]:
        """She judges her action cards on the pending move (and :attr:`CommandmentsState.mover` after it)."""
        ritual = state.rituals[-1]
        cards = state.deck.cards
        move = state.pending
        assert move is not None
        board = list(state.board)
        board[move.artefact] = state.pending_start
        ctx = move_context(board, move)
        marks = iter(action.marks)
        values = []
        for c in ritual.slots:
            card = cards[c]
            if card.type == ARTEFACT:
                values.append(card.judge(ctx))
            elif next(marks):
                values.append(card.judge(ctx) if card.counting else card.value or 0)
            else:
                values.append(0)
        start = state.pending_start
        state.pending = None
        state.pending_start = -1
        state.phase = MOVE
        mover = mover_of(state.players, ritual.priestess, state.turn)
        out = self._resolve(state, mover, move, start, values, None, events)
        state.mover = self.current_seat(state)
        return out

    def advance(self, state: CommandmentsState, seat: Seat, action: Action) -> None:
        """Apply a legal action and build no events (nor any notation). A novice's move is the hot path
        of every playout: a move of the interned family (:data:`MOVE_FAMILY`) judged by the engine goes
        by the ritual's :func:`judging_plan` (each slot's karma packed with its marker: an action card's
        by the move's performance, an artefact card's that does not read the board by its colour and
        areas, from tables; a card that reads the board by its function on the board's codes, which the
        state keeps up to date in place while such a card is in the slots); any other action by
        :meth:`_apply`, which :meth:`apply_unchecked` also takes (it reads the events of a move of the
        family off what this did), so the two cannot drift apart."""
        hot = _HOT.get(id(action))  # a move of the family (by identity), or None
        plan = state.judging
        if hot is None or not isinstance(plan, Plan):
            if hot is not None and plan is None:
                plan = state.judging = judging_plan(state)
            if hot is None or not isinstance(plan, Plan):  # the method of its kind, called directly
                _APPLY[type(action)](self, state, seat, action, False)  # (as _apply does)
                return
        artefact, colour, step, to = hot.artefact, hot.colour, hot.step, hot.to
        performance = hot.performance
        board = state.board
        start = board[artefact]
        at = hot.at + start * NUM_AREAS  # (colour * 12 + start) * 12 + to
        x = plan.p1[performance] + plan.p2[performance] + plan.art[at] + plan.art2[at]  # total * 8 + bits
        f1 = plan.on_board
        if f1 is not None:
            after = state.codes
            if after is None:
                after = state.codes = codes_of(board)
            before = after[:] if plan.before else after  # a copy only for a card that reads it
            after[start] -= step
            after[to] += step
            x += f1(after, before, colour, start, to)
            f2 = plan.on_board2
            if f2 is not None:
                x += f2(after, before, colour, start, to)
        else:
            state.codes = None  # not kept: no card of the ritual reads the board
        board[artefact] = to
        total = x >> 3
        ritual = state.rituals[-1]
        if total > 0:
            state.karma[seat] += total
            ritual.gains[seat] += total
            state.flips = flips = 0
        else:
            state.flips = flips = state.flips + 1
        ritual.log.append((seat, action, start, x, flips))  # a PackedEntry: a MoveLog when read
        turn = state.turn + 1
        if flips < DESTINY_CARDS:
            state.turn = turn
            if turn < plan.turns:  # the next novice's turn (_next_turn's common case, inlined)
                state.mover = plan.following[seat]
                return
            # her ritual ends regularly (_next_turn and _end_ritual, inlined)
            priestess = ritual.priestess
            gains = ritual.gains
            best = max(gains[:priestess] + gains[priestess + 1 :])  # the best novice of this ritual
            state.karma[priestess] += best
            gains[priestess] += best
            ritual.ended = True
            if priestess + 1 < state.players:
                self._start_ritual(state, priestess + 1)  # the next priestess is to act
            else:
                state.phase = OVER
                state.mover = -1
            return
        self._after_flip(state)
        state.mover = self.current_seat(state)

    def apply_unchecked(
        self, state: CommandmentsState, seat: Seat, action: Action, events: bool = True
    ) -> list[Event]:
        """Apply a legal action; with ``events`` false, build no events and return an empty list (as
        :meth:`advance`). A move of the family judged by the engine goes by :meth:`advance` and its
        events are read off the turn it logged (and :meth:`_closing_events` when it ended the ritual)."""
        if not events:
            self.advance(state, seat, action)
            return []
        known = _FAMILY_INFO.get(id(action))
        if known is None:
            return self._apply(state, seat, action, True)
        plan = state.judging
        if plan is None:
            plan = state.judging = judging_plan(state)
        if not isinstance(plan, Plan):
            return self._apply(state, seat, action, True)
        ritual = state.rituals[-1]
        self.advance(state, seat, action)
        _, _, start, x, flips = ritual.log[-1]  # the PackedEntry advance logged
        bits = x & 7
        announced = announce(x >> 3)
        event: Event = _new(Event)  # move_event, inlined
        _set_kind(event, "move")
        _set_data(event, {"seat": seat, "action": known[2], "start": AREA_NAMES[start]})
        _set_audience(event, None)
        karma_events = _EXPERT_KARMA if state.options["expert"] else _KARMA
        karma = None
        if flips < 8 and announced <= KARMA_TOP:
            karma = karma_events[seat][((announced + 1) * 8 + flips) * 8 + bits]  # karma_slot
        if karma is None:
            karma = shared_karma_event(seat, announced, flips, bits, karma_events is _EXPERT_KARMA)
        if ritual.ended:
            return [event, karma, *self._closing_events(state, ritual)]
        return [event, karma]

    def _apply(self, state: CommandmentsState, seat: Seat, action: Action, events: bool) -> list[Event]:
        """Any action but a move of the family judged by the engine alone (its events when ``events``
        is true, else none), and :attr:`CommandmentsState.mover` after it: the method of its kind
        (:data:`_APPLY`, by the action's class)."""
        return _APPLY[type(action)](self, state, seat, action, events)

    def _apply_move(self, state: CommandmentsState, seat: Seat, action: Move, events: bool) -> list[Event]:
        """A novice's move by :meth:`_any_move` (and :attr:`CommandmentsState.mover` after it)."""
        out = self._any_move(state, seat, action, events)
        state.mover = self.current_seat(state)
        return out

    def _any_move(self, state: CommandmentsState, seat: int, move: Move, events: bool = True) -> list[Event]:
        """A novice's move, whatever it is and whoever judges it. When a card reads the board, its
        counts are updated from the last move's (not recounted); an artefact card that never reads the
        board is judged by its table (:attr:`Deck.boardless`)."""
        deck = state.deck
        cards = deck.cards
        slots = state.rituals[-1].slots
        board = state.board
        artefact, to = move.artefact, move.to
        start = board[artefact]
        colour = COLOUR_OF[artefact]
        by_priestess = _by_priestess(state)
        values: list[int] = []
        reads = False
        if not by_priestess:
            # Judged before the state changes: judging never raises (a custom card past its step
            # budget is unmarked, see Card.judge), and if it ever did the state would stay whole.
            on_board: Ctx | None = None
            before = after = bytearray()  # made when a card reads the board (below)
            tables, emitted = deck.boardless, deck.on_board
            at = (colour * NUM_AREAS + start) * NUM_AREAS + to
            for c in slots:
                table = tables[c]
                if table is not None:  # an artefact card that looks at the colour and the areas alone
                    values.append(table[at])
                    continue
                card = cards[c]
                if card.type == ARTEFACT:  # looks at the board alone
                    if not reads:
                        reads = True
                        before = state.codes or codes_of(board)
                        after = before[:]
                        after[start] -= CODE_STEP[colour]
                        after[to] += CODE_STEP[colour]
                    judged = emitted[c]
                    if judged is not None:  # a built-in card: its expression, without a Ctx
                        result = judged(after, before, colour, start, to)
                        fixed = card.value  # Card.karma_of, inlined
                        if fixed is None:
                            values.append(max(0, min(COUNT_CAP, int(result))))
                        else:
                            values.append(fixed if result else 0)
                        continue
                    if on_board is None:
                        on_board = Ctx(colour, start, to, rows_of(before), rows_of(after))
                    values.append(card.judge(on_board))
                else:  # looks at the performance alone
                    values.append(card.judge(move_context(board, move)))
        board[artefact] = to
        # the counts are kept up to date while a card reads them (the slots are the ritual's: on every
        # move, or on none), else left to be counted again when needed
        state.codes = after if reads else None
        event = None
        if events:
            known = _FAMILY_INFO.get(id(move))
            text = known[2] if known is not None else format_action(move)
            event = move_event(seat, text, AREA_NAMES[start])
        if by_priestess:
            state.pending = move
            state.pending_start = start
            state.phase = JUDGE
            return [] if event is None else [event]
        return self._resolve(state, seat, move, start, values, event, events)

    def _resolve(
        self,
        state: CommandmentsState,
        seat: int,
        move: Move,
        start: int,
        values: list[int],
        first: Event | None = None,
        events: bool = True,
    ) -> list[Event]:
        """The karma of a judged move, after ``first`` (the move's own event), and what follows (its
        events when ``events`` is true, else none)."""
        ritual = state.rituals[-1]
        if len(values) == 3:  # every ritual's slots (read_position holds a position to them)
            v0, v1, v2 = values
            total = v1 + v2 - v0  # karma_total: the taboo counts against
            bits = (v0 > 0) | (v1 > 0) << 1 | (v2 > 0) << 2
            marks = MARKS[bits]
        else:
            total = sum(values) - 2 * values[TABOO]
            bits = -1
            marks = tuple([1 if v > 0 else 0 for v in values])
        if total > 0:
            state.karma[seat] += total
            ritual.gains[seat] += total
            state.flips = flips = 0
            announced = total
        else:
            state.flips = flips = state.flips + 1
            announced = 0 if total == 0 else -1  # announce, inlined
        ritual.log.append((seat, move, start, marks, announced, flips))  # a MoveLog when read
        out: list[Event] = []
        if events:
            expert = bool(state.options["expert"])
            if bits >= 0:
                karma = shared_karma_event(seat, announced, flips, bits, expert)
            else:
                verdict = "karma" if total > 0 else "no karma" if total == 0 else "bad karma"
                karma = karma_event(seat, verdict, announced, flips, marks, expert)
            out = [karma] if first is None else [first, karma]
        if flips < DESTINY_CARDS and state.turn + 1 < (state.players - 1) * _ROUNDS[state.players]:
            state.turn += 1  # the next novice's turn (_next_turn's common case, inlined)
        else:
            self._after_flip(state)
            if events and ritual.ended:
                out += self._closing_events(state, ritual)
        return out

    def _after_flip(self, state: CommandmentsState) -> None:
        """After a move: the fourth negative destiny card disempowers her, else the next turn (the events
        of a ritual's end: :meth:`_closing_events`)."""
        if state.flips < DESTINY_CARDS:
            self._next_turn(state)
            return
        ritual = state.rituals[-1]
        ritual.disempowered = True
        priestess = ritual.priestess
        karma, gains = state.karma, ritual.gains
        for novice in range(state.players):
            if novice != priestess:
                karma[novice] += DISEMPOWER_BONUS
                gains[novice] += DISEMPOWER_BONUS
        self._end_ritual(state)

    def _next_turn(self, state: CommandmentsState) -> None:
        state.turn += 1
        if state.turn >= (state.players - 1) * _ROUNDS[state.players]:
            ritual = state.rituals[-1]
            priestess = ritual.priestess
            gains = ritual.gains
            best = max(gains[:priestess] + gains[priestess + 1 :])  # the best novice of this ritual
            state.karma[priestess] += best
            gains[priestess] += best
            self._end_ritual(state)

    def _end_ritual(self, state: CommandmentsState) -> None:
        ritual = state.rituals[-1]
        ritual.ended = True
        nxt = ritual.priestess + 1
        if nxt >= state.players:
            state.phase = OVER
            return
        self._start_ritual(state, nxt)

    def _closing_events(self, state: CommandmentsState, ritual: Ritual) -> list[Event]:
        """The events of the end of ``ritual``, which the action just applied ended (:meth:`_after_flip`),
        read off the state: she was disempowered or gained the best novice's karma (her only gain of a
        ritual), her cards are revealed, then the game is over or the next ritual begins."""
        priestess = ritual.priestess
        if ritual.disempowered:
            first = disempowered_event(priestess, DISEMPOWER_BONUS)
        else:
            first = ritual_end_event(priestess, ritual.gains[priestess])
        cards = state.deck.cards
        ids: list[JSONValue] = [cards[c].id for c in ritual.slots]
        out = [first, revealed_event(priestess, ids, state.options["reveal"] == "never")]
        if state.phase == OVER:
            out.append(game_over_event(list(state.karma)))
            return out
        new = state.rituals[-1]
        hand: list[JSONValue] = [cards[c].id for c in new.hand]
        out += ritual_events(new.priestess, len(state.rituals), hand)
        return out

    # ------------------------------------------------------------------------------- information
    def view(self, state: CommandmentsState, seat: Seat | None) -> CommandmentsView:
        if seat is not None and not 0 <= seat < state.players:
            check_seat(seat, state.players)
        return build_view(state, seat, self.current_seat(state))

    def views(
        self, state: CommandmentsState, seats: Iterable[Seat | None]
    ) -> dict[Seat | None, CommandmentsView]:
        return build_views(state, checked_seats(seats, state.players), self.current_seat(state))

    # ----------------------------------------------------------------------------------- outcome
    def scores(self, state: CommandmentsState) -> tuple[float, ...]:
        return tuple(float(k) for k in state.karma)

    # ---------------------------------------------------------------------------------- notation
    def format_action(self, action: Action) -> str:
        return format_action(action)

    def parse_action(self, text: object) -> Action:
        # ``object``, as the notation reads it: compiled (see setup.py), a method refuses an argument of
        # another type than it declares with a TypeError, and what is no text must get a NotationError
        return parse_action(text)

    def action_from_json(self, raw: object) -> Action:
        """The action a JSON value describes, held to the notation (a Move of artefact 99 is no action)."""
        return through_notation(super().action_from_json(raw), format_action, parse_action)

    def decision_seconds(self, state: CommandmentsState, seat: Seat) -> float | None:
        """A High Priestess judging a move has :data:`JUDGE_SECONDS` (the novices wait on her); past it the
        engine's reading stands in for her verdict (a front end lets a bot judge, by that reading)."""
        return JUDGE_SECONDS if state.phase == JUDGE and seat == self.current_seat(state) else None

    def timeout_action(self, state: CommandmentsState, seat: Seat) -> Action | None:
        """A novice who runs out of time has made an illegal move (the rulebook's own example of one):
        she forfeits. The priestess's decisions have no such rule."""
        if state.phase == MOVE and seat == self.current_seat(state):
            return FORFEIT
        return None

    def reveals_at_end(self, options: Options) -> bool:
        return options.get("reveal") != "never"


_APPLY: Final[dict[type, Callable[[CommandmentsGame, CommandmentsState, Seat, Any, bool], list[Event]]]] = {
    Ordain: CommandmentsGame._apply_ordain,
    Place: CommandmentsGame._apply_place,
    Move: CommandmentsGame._apply_move,
    Forfeit: CommandmentsGame._apply_forfeit,
    Judge: CommandmentsGame._apply_judge,
}
"""How :meth:`CommandmentsGame._apply` applies each kind of action, by its class (the action classes
are final: :data:`ACTION_CLASSES`)."""


def _judge_choices(slots: Sequence[Card]) -> list[tuple[int, ...]]:
    """A yes or no per action card: at most 4 choices (two action cards)."""
    choices: list[tuple[int, ...]] = [()]
    for _ in slots:
        choices = [(*c, m) for c in choices for m in (1, 0)]
    return choices


def _placements() -> tuple[Place, ...]:
    """A representative family of placements (the space is 12^15): structured and seeded ones."""
    out: list[Place] = []
    out.append(Place(tuple([0] * 5 + [11] * 5 + [6, 7, 8, 9, 10])))
    out.append(Place(tuple(1 + i % 5 for i in range(5)) * 3))
    out.append(Place(tuple(6 + i % 5 for i in range(5)) + (0,) * 5 + (11,) * 5))
    out.append(Place(tuple(i % 12 for i in range(15))))
    out.append(Place(tuple(1 + i % 5 if i < 10 else 6 + i % 5 for i in range(15))))
    rng = random.Random(3)
    while len(out) < 24:
        out.append(Place(tuple(rng.randrange(NUM_AREAS) for _ in range(NUM_ARTEFACTS))))
    return tuple(out)


_new = object.__new__
_set_discard, _set_taboo = slot_setters(Ordain)


def _ordain(discard: str, taboo: str) -> Ordain:
    """``Ordain(discard, taboo)``, its slots filled directly (legal_actions makes twelve a ritual)."""
    action: Ordain = _new(Ordain)
    _set_discard(action, discard)
    _set_taboo(action, taboo)
    return action


_BUILTIN_CARDS: Final = len(BUILTIN)
_ORDAIN_ROWS: Final[list[list[Ordain] | None]] = [None] * _BUILTIN_CARDS
"""``Ordain(discard, taboo)`` of two cards of the box by their positions, a row per discard (made on
first need, every taboo at once; the row's own card there too, never offered): actions are values, so
every ritual offers the same ones."""


_ORDAINED: Final[dict[int, tuple[int, int]]] = {}
"""The actions of :data:`_ORDAIN_ROWS` by identity (they live as long as the module): the positions of
their discard and taboo, in the box and so in every deck (a custom deck's cards come after the box's)."""


def _ordain_row(discard: int) -> list[Ordain]:
    row = _ORDAIN_ROWS[discard]
    if row is None:
        ident = BUILTIN[discard].id
        row = _ORDAIN_ROWS[discard] = [_ordain(ident, card.id) for card in BUILTIN]
        for taboo, action in enumerate(row):
            _ORDAINED[id(action)] = (discard, taboo)
    return row


def ordainments(hand: Sequence[int]) -> list[Ordain]:
    """Her twelve ordainments of a hand of four cards of the box (positions below
    :data:`_BUILTIN_CARDS`), ``Ordain(discard, taboo)`` for each two of her cards in hand order (as
    ``[Ordain(d, t) for d in ids for t in ids if t != d]``), from the rows of :data:`_ORDAIN_ROWS`."""
    a, b, c, d = hand
    rows = _ORDAIN_ROWS
    ra = rows[a] or _ordain_row(a)
    rb = rows[b] or _ordain_row(b)
    rc = rows[c] or _ordain_row(c)
    rd = rows[d] or _ordain_row(d)
    return [ra[b], ra[c], ra[d], rb[a], rb[c], rb[d], rc[a], rc[b], rc[d], rd[a], rd[b], rd[c]]


_DEFAULTS: Final = CommandmentsGame.spec.resolve_options(None)
"""The default options, resolved once (:meth:`CommandmentsGame.new_game`; ``setup`` copies them)."""
_PLACEMENTS: Final[tuple[Place, ...]] = _placements()
_PLACED: Final[dict[int, tuple[Codes, Event]]] = {
    id(place): (codes_of(place.areas), public("placed", action=format_action(place))) for place in _PLACEMENTS
}
"""Each offered placement's codes and event, by identity (they live as long as the module)."""
_ROUNDS: Final[tuple[int, ...]] = tuple(rounds_for(players) if players >= 3 else 0 for players in range(8))
_TO_ACT: Final[tuple[frozenset[int], ...]] = (*(frozenset((s,)) for s in range(7)), frozenset())
"""The seats to act by the one who acts (0-6), -1 (the last) for nobody."""


def _family_performances() -> tuple[int, tuple[int, ...]]:
    distinct: dict[tuple[object, ...], int] = {}
    of = [
        distinct.setdefault((m.path, m.gestures, m.touches, m.words, m.seconds), len(distinct))
        for m in MOVE_FAMILY
    ]
    return len(distinct), tuple(of)


_PERFORMANCES, _FAMILY_PERFORMANCE = _family_performances()
"""How many distinct performances the family has, and each family move's."""
_PERFORMANCE_MOVES: Final[tuple[Move, ...]] = tuple(
    MOVE_FAMILY[_FAMILY_PERFORMANCE.index(p)] for p in range(_PERFORMANCES)
)
"""A family move with each distinct performance (an action card judges the performance alone)."""
_FAMILY_INFO: Final[dict[int, tuple[Move, int, str, int, int, int, int]]] = {
    id(move): (
        move,
        _FAMILY_PERFORMANCE[f],
        format_action(move),
        move.artefact,
        COLOUR_OF[move.artefact],
        move.to,
        COLOUR_OF[move.artefact] * NUM_AREAS * NUM_AREAS + move.to,
    )
    for f, move in enumerate(MOVE_FAMILY)
}
"""A move of the family by identity (they live as long as the module, so no other object has their id):
the move, its performance, its notation, its artefact, colour and target, and where its colour and
target put it in a :attr:`Deck.boardless` table (the starting area adds ``start * 12``)."""


@final
class _Hot:
    """A move of the family as :meth:`CommandmentsGame.advance` reads it: its performance, where its
    colour and target put it in a table of :attr:`Deck.boardless` (the starting area adds
    ``start * 12``), its artefact, colour, the step of its colour in a code (:data:`CODE_STEP`) and
    target (a class, not a tuple: compiled, its fields are read without unpacking the whole)."""

    __slots__ = ("artefact", "at", "colour", "performance", "step", "to")

    def __init__(self, performance: int, at: int, artefact: int, colour: int, to: int) -> None:
        self.performance = performance
        self.at = at
        self.artefact = artefact
        self.colour = colour
        self.step: int = CODE_STEP[colour]
        self.to = to


_HOT: Final[dict[int, _Hot]] = {
    id(move): _Hot(performance, at, artefact, colour, to)
    for move, performance, _, artefact, colour, to, at in _FAMILY_INFO.values()
}
"""The moves of the family by identity, as :meth:`CommandmentsGame.advance` reads them (:class:`_Hot`)."""


def _by_priestess(state: CommandmentsState) -> bool:
    """Whether the High Priestess judges the moves of the current ritual herself (she has action cards)."""
    cards = state.deck.cards
    return state.options["judge"] == "priestess" and any(
        cards[c].type == ACTION for c in state.rituals[-1].slots
    )


def verdicts(deck: Deck, card: int) -> tuple[int, ...]:
    """An action card's karma on each distinct performance of the family (made once per deck)."""
    found = deck.verdicts.get(card)
    if found is None:
        judge = deck.cards[card].judge
        found = deck.verdicts[card] = tuple(judge(move_context(_ANY_BOARD, m)) for m in _PERFORMANCE_MOVES)
    return found


_ANY_BOARD: Final = (0,) * NUM_ARTEFACTS
"""A board for the context of an action card, which never reads it."""
_ZERO_TABLE: Final = (0,) * max(BOARDLESS_SIZE, _PERFORMANCES)
"""The packed values of no card (a slot whose card reads the board is judged apart)."""


def packed_slot(deck: Deck, card: int, slot: int) -> SlotJudging:
    """How the rules judge ``card`` in ``slot`` on a move of the family, its karma ``k`` packed as
    ``k * 8 + 2**slot`` (``-k * 8 + 1`` in the taboo's slot; 0 when ``k`` is 0), made once per deck: an
    action card by its :func:`verdicts`, an artefact card that never reads the board by its table
    (:attr:`Deck.boardless`), one that does by its packed function
    (:func:`~coven.games.commandments.lang.packed_function`, fixed or "?") or, if it has none (a custom
    card), by the card itself. The packed values of the three slots of a move add up to its total
    (:func:`karma_total`) times 8 plus its markers' bits (see :data:`MARKS`), a total below 0
    included (``x >> 3`` and ``x & 7``)."""
    found = deck.judging.get(card * 3 + slot)
    if found is None:
        the = deck.cards[card]
        scale = -8 if slot == TABOO else 8
        bit = 1 << slot
        table = deck.boardless[card]
        if the.type == ACTION:
            found = (tuple(k * scale + bit if k > 0 else 0 for k in verdicts(deck, card)), True, None, False)
        elif table is not None:
            found = (tuple(k * scale + bit if k > 0 else 0 for k in table), False, None, False)
        else:
            made = packed_function(the.fn, the.value, COUNT_CAP, scale, bit)
            if made is None:  # a custom card: its karma, packed
                made = (_packed(deck.karma[card] or _judged_on_codes(the), scale, bit), True)
            found = (_ZERO_TABLE, False, made[0], made[1])
        deck.judging[card * 3 + slot] = found
    return found


def _packed(karma: BoardFn, scale: int, bit: int) -> BoardFn:
    """The packed value of the karma ``karma`` gives (see :func:`packed_slot`)."""

    def packed(after: bytes | bytearray, before: bytes | bytearray, colour: int, frm: int, to: int) -> int:
        k: int = karma(after, before, colour, frm, to)
        return k * scale + bit if k > 0 else 0

    return packed


def _judged_on_codes(card: Card) -> BoardFn:
    """A board card with no compiled :attr:`Deck.karma` function (a custom card), judged by the card on
    the :class:`Ctx` of the move (``after``, ``before``, colour, from, to; the boards as codes)."""

    def judged(after: bytes | bytearray, before: bytes | bytearray, colour: int, frm: int, to: int) -> int:
        return card.judge(Ctx(colour, frm, to, rows_of(before), rows_of(after)))

    return judged


def judging_plan(state: CommandmentsState) -> Judging:
    """How the engine judges moves of the family on the current ritual's slots (see :data:`Judging`);
    ``()`` when it does not judge them alone (she judges her action cards) or there are not three.
    Each slot's :data:`~coven.games.commandments.cards.PlanPart` gives its kind, and the pattern of the
    three kinds the plan's order (:data:`_PLAN_PICKS`): the tables of each kind in slot order, padded with
    a table of zeros and no function."""
    deck = state.deck
    ritual = state.rituals[-1]
    slots = ritual.slots
    if len(slots) != 3 or (state.options["judge"] == "priestess" and _by_priestess(state)):
        return ()
    parts = deck.parts
    c0, c1, c2 = slots
    k0, x0, b0 = parts.get(c0 * 3) or plan_part(deck, c0, 0)
    k1, x1, b1 = parts.get(c1 * 3 + 1) or plan_part(deck, c1, 1)
    k2, x2, b2 = parts.get(c2 * 3 + 2) or plan_part(deck, c2, 2)
    pick = _PLAN_PICKS[k0 + k1 + k2]
    if pick is None:  # three cards of a kind
        return ()
    turns, following = _SEATING[state.players][ritual.priestess]
    return Plan(*pick((x0, x1, x2, _ZERO_TABLE, None, b0 or b1 or b2, turns, following)))


_BY_PERFORMANCE, _BY_AREAS, _ON_BOARD = range(3)
"""The kinds of a :data:`~coven.games.commandments.cards.PlanPart`: a table by performance, a table by
colour and areas, a function on the board."""


def plan_part(deck: Deck, card: int, slot: int) -> PlanPart:
    """``card`` in ``slot`` as :func:`judging_plan` takes it (its
    :data:`~coven.games.commandments.cards.PlanPart`, from its :func:`packed_slot`), made once per deck."""
    table, by_performance, fn, before = packed_slot(deck, card, slot)
    scale = 3**slot
    if fn is not None:
        found: PlanPart = (_ON_BOARD * scale, fn, before)
    else:
        found = ((_BY_PERFORMANCE if by_performance else _BY_AREAS) * scale, table, False)
    deck.parts[card * 3 + slot] = found
    return found


def _plan_pick(kinds: tuple[int, int, int]) -> Callable[[tuple[object, ...]], Any] | None:
    """What :func:`judging_plan` takes from ``(x0, x1, x2, a table of zeros, None, before, turns,
    following)`` for slots of these kinds: the two tables by performance, the two by colour and areas,
    the two functions (each kind in slot order, padded), then the rest; None for three of a kind."""
    picked: list[int] = []
    for kind, pad in ((_BY_PERFORMANCE, 3), (_BY_AREAS, 3), (_ON_BOARD, 4)):
        of_kind = [slot for slot in range(3) if kinds[slot] == kind]
        if len(of_kind) > 2:
            return None
        picked += [*of_kind, pad, pad][:2]
    return itemgetter(*picked, 5, 6, 7)


_PLAN_PICKS: Final = tuple(_plan_pick((p % 3, p // 3 % 3, p // 9)) for p in range(27))
""":func:`_plan_pick` by the pattern of the slots' kinds (slot 0's kind + 3 * slot 1's + 9 * slot 2's)."""


def _followers(players: int, priestess: int) -> Followers:
    after = [(s + 1) % players for s in range(players)]
    return tuple(n if n != priestess else (n + 1) % players for n in after)


_KARMA: Final = KARMA_EVENTS[0::2]
_EXPERT_KARMA: Final = KARMA_EVENTS[1::2]
"""The shared karma events by seat, without and with the expert variant (:data:`KARMA_EVENTS`)."""
_FOLLOWERS: Final = tuple(tuple(_followers(players, p) for p in range(players)) for players in range(8))
"""The :data:`Followers` of a ritual by the player count and her seat."""
_SEATING: Final = tuple(
    tuple(((players - 1) * _ROUNDS[players], _FOLLOWERS[players][p]) for p in range(players))
    for players in range(8)
)
"""A ritual's turns and :data:`Followers` (the end of its :func:`judging_plan`) by the player count and her
seat."""


_NOVICE_ACTIONS: Final[tuple[Action, ...]] = (FORFEIT, *MOVE_FAMILY)
"""Forfeit first: a front end that shows only the first few legal actions still offers it."""
_set_kind, _set_data, _set_audience = slot_setters(Event)
