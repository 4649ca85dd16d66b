"""Brujas del Sábado: the rules (setup, whose turn, legal actions, applying them, scores).

Rulebook: ``shared/rules/002_e2f40874684fffc0.txt`` (English fan translation); the project's rulings in
``shared/rules/README.md`` (section "Brujas del Sábado") stand over it. What this module implements:

- 40 devil cards (R, B, Y, G x 1-5 x 2); hands of 13 / 10 / 8 for 3 / 4 / 5 players; with three players
  the 40th card is set aside unseen by anyone. The witch column starts in random order; the score
  values beside it are data (:data:`SCORE_VALUES`): basic side 5, 3, 2, 1, conflict side 8, 5, 3, 1.
- First leader random (the "who last saw a witch" rule cannot be asked of a bot); then the previous
  trick's winner leads.
- The Lead: every player after the first must match the first card's colour or number if able; the
  attribute matched sets the Lead; an identical card or (when unable) a card matching neither leaves it
  open and the next player decides, still matching the first card. Once set, players follow it if able;
  a card that does not follow never wins. Winner: colour Lead, the highest number of the first card's
  colour; number Lead, the card of that number whose witch stands highest; ties (identical cards) go to
  the later card (exception 1); no Lead at all: the first card or its later twin (exceptions 2, 3).
- The winner moves the witch of the winning card's colour one step up or down (swapping it with its
  neighbour). Then, from the winner clockwise, every player picks one card of the trick.
- Scoring: witch score = the value beside the witch of the colour you collected most of (ties: the
  higher witch); devil score = 2 to every player tied for the most cards of each number. Shared wins.
- Options: ``conflict`` ("Devils in Conflict": conflict side; a witch colour also chosen by another
  player scores half, rounded up) and ``silent`` ("Witches refrain from speaking": a card played because
  its player could not follow is face down, hidden from everyone else, until the witch has moved; it
  never sets the Lead and never wins -- it cannot anyway, as it matches nothing the rules asked for).

Choices where rulebook and rulings are silent:
- Every step is a decision of a seat, even when only one choice exists: a witch beside the top or the
  bottom score card can move only one way, and the last picker takes the last card; the rulebook makes
  each player perform those steps, so they stay actions (a client may auto-confirm them). Identical
  copies are one choice, so a decision offers each distinct card once.
- Face-down cards are revealed after the witch move, right before collecting (Step 3).
- There is no chance after the deal, so the state keeps no generator: ``setup`` draws the deal, the witch
  column and the first leader from the deal's :class:`~coven.core.chance.Chance` and nothing else is
  random. A position (:mod:`~coven.games.brujas.notation`) therefore holds the whole future: the hands.

The package's other modules: the state and scoring in :mod:`~coven.games.brujas.state` (below this one,
since the view and the notation read it too), the view and events in :mod:`~coven.games.brujas.view`,
actions and positions as text in :mod:`~coven.games.brujas.notation`, sampled worlds in
:mod:`~coven.games.brujas.worlds`; the package's ``__init__`` hands bots, text, metrics and the sampler to
:class:`BrujasGame` (:class:`~coven.core.Parts`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import permutations
from typing import Final

from coven.core import Bounds, Event, Game, Options, Seat, check_seat, checked_seats
from coven.core.chance import Chance
from coven.core.codec import through_notation
from coven.core.errors import short_repr
from coven.core.refusals import CORE
from coven.core.texts import Message, Texts
from coven.games.brujas.cards import (
    BIT,
    BIT2,
    COLOUR,
    COLOUR_MASK,
    COLOURS,
    KIND,
    KINDS,
    LOW,
    MATCH,
    NAME,
    NOTATION_REFUSALS,
    NUMBER,
    NUMBER_MASK,
)
from coven.games.brujas.notation import (
    DOWN,
    PLAY_ACTION,
    TAKE_ACTION,
    UP,
    Action,
    MoveWitch,
    Play,
    Take,
    format_action,
    format_position,
    parse_action,
    parse_position,
)
from coven.games.brujas.state import (
    COLOUR_LEAD,
    DEVIL_POINTS,
    HAND_SIZE,
    NO_LEAD,
    NOBODY,
    NUMBER_LEAD,
    OVER,
    PLAY,
    SCORE_VALUES,
    SPEC,
    TAKE,
    WITCH,
    BrujasState,
    new_state,
    score_list,
    set_witches,
)
from coven.games.brujas.view import (
    EV_DOWN,
    EV_DOWN_OWN,
    EV_PLAY,
    EV_TAKE,
    EV_WITCH,
    EV_WON,
    BrujasView,
    game_over,
    reveal,
    view_of,
    views_of,
)

__all__ = [
    "BrujasGame",
    "BrujasState",
    "BrujasView",
    "MoveWitch",
    "Play",
    "Take",
]

REFUSALS: Final = (
    CORE
    | NOTATION_REFUSALS
    | Texts(
        {
            "refusal.brujas.task.play": "play a card",
            "refusal.brujas.task.witch": "move the witch",
            "refusal.brujas.task.take": "pick cards from the trick",
            "refusal.brujas.task.over": "stop",
            "refusal.brujas.no_play_now": "no card is played now: it is time to {task}",
            "refusal.brujas.not_a_card": "{card} is not a devil card",
            "refusal.brujas.not_in_hand": "you hold no {card}",
            "refusal.brujas.match_first": "you must match the colour or the number of the first card {first}",
            "refusal.brujas.follow_colour": "you must follow the Lead (colour of {first})",
            "refusal.brujas.follow_number": "you must follow the Lead (number of {first})",
            "refusal.brujas.no_witch_now": "the witch is moved only after a trick: it is time to {task}",
            "refusal.brujas.direction": "a witch moves up or down, not {direction}",
            "refusal.brujas.witch_at_top": "the {colour} witch stands at the top and cannot move up",
            "refusal.brujas.witch_at_bottom": "the {colour} witch stands at the bottom and cannot move down",
            "refusal.brujas.no_take_now": "no card is picked now: it is time to {task}",
            "refusal.brujas.not_in_trick": "no {card} is left in the trick",
        }
    )
)
"""Why the rules refuse an action (:mod:`coven.core.refusals`): cards and colours as the notation writes
them (``R3``, ``R``), ``task`` what the phase asks for; and why a move's notation cannot be read
(:data:`~coven.games.brujas.cards.NOTATION_REFUSALS`)."""
_TASKS: Final = ("play", "witch", "take", "over")

WITCH_CHOICES = ((DOWN,), (UP, DOWN), (UP, DOWN), (UP,))
"""Legal witch moves by the witch's position (0 = beside the top score card)."""


def _subset_table(items: tuple[Action, ...], offset: int) -> tuple[tuple[Action, ...], ...]:
    return tuple(tuple(items[offset + i] for i in range(10) if mask >> i & 1) for mask in range(1 << 10))


PLAYS_LO = _subset_table(PLAY_ACTION, 0)
PLAYS_HI = _subset_table(PLAY_ACTION, 10)
TAKES_LO = _subset_table(TAKE_ACTION, 0)
TAKES_HI = _subset_table(TAKE_ACTION, 10)
"""Legal plays (picks) by the kinds held, ten kinds at a time: ``PLAYS_LO[m & 1023] + PLAYS_HI[m >> 10]``."""
WITCH_ORDERS = tuple(permutations(range(4)))
SOLO = (*(frozenset({s}) for s in range(5)), frozenset[Seat]())


def _shuffle_digits() -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The radices of a Fisher-Yates shuffle of the 40 cards (40, 39, .., 2) in runs whose product stays
    below 2**32, each run with that product: one :meth:`Chance.below` draw gives a run's digits."""
    runs: list[tuple[int, tuple[int, ...]]] = []
    product, run = 1, list[int]()
    for radix in range(2 * KINDS, 1, -1):
        if product * radix >= 1 << 32:
            runs.append((product, tuple(run)))
            product, run = 1, list[int]()
        product *= radix
        run.append(radix)
    runs.append((product, tuple(run)))
    return tuple(runs)


SHUFFLE_DIGITS = _shuffle_digits()


class BrujasGame(Game[BrujasState, Action, BrujasView]):
    spec = SPEC
    action_classes = (Play, MoveWitch, Take)
    view_class = BrujasView
    refusals = REFUSALS
    shared_view_members = ("past",)
    """The finished tricks: one object for every seat, and the same from move to move within a trick
    (:func:`~coven.games.brujas.view.past_tricks` is memoised), so a server writes them once a trick rather
    than for every seat after every move (a move's table work 54.0 -> 51.4 µs, medians of ten alternating
    runs of ``table_cpu_per_move``, measured for issue 12; declaring the smaller shared members as well
    cost more than it saved)."""

    # ---------------------------------------------------------------------------------------- setup
    def setup(self, players: int, options: Options, seed: int) -> BrujasState:
        # A uniform order of the 40 physical cards (card c is kind c % 20) by Fisher-Yates, its swaps'
        # digits taken six or so at a time from one draw of the deal's Chance (cheaper than a draw per
        # swap, and each draw is as fair as ``Chance.below``); then the witch column and the first leader.
        below = Chance(seed).below
        deck = list(range(2 * KINDS))
        i = 2 * KINDS - 1
        for product, radices in SHUFFLE_DIGITS:
            x = below(product)
            for radix in radices:
                j = x % radix
                x //= radix
                deck[i], deck[j] = deck[j], deck[i]
                i -= 1
        witches = below(len(WITCH_ORDERS))
        leader = below(players)
        s = new_state(players, options)
        size = HAND_SIZE[players]
        hands = s.hands
        for seat in range(players):
            h = 0
            for c in deck[seat * size : (seat + 1) * size]:
                h |= 1 << c  # the 40 physical cards are distinct: each one's bit is set once
            low, high = h & LOW, h >> KINDS
            hands[seat] = low | high | (low & high) << KINDS
        if players * size < len(deck):
            s.aside = deck[players * size] % KINDS
        set_witches(s, WITCH_ORDERS[witches])
        s.leader = s.turn = leader
        return s

    def bounds(self, players: int, options: Options) -> Bounds:
        values = SCORE_VALUES["conflict" if options.get("conflict") else "basic"]
        return Bounds(
            max_decisions=HAND_SIZE[players] * (2 * players + 1),
            min_score=0,
            max_score=max(values) + 5 * DEVIL_POINTS,
        )

    def num_players(self, state: BrujasState) -> int:
        return state.n

    def options(self, state: BrujasState) -> Options:
        return state.options

    def clone(self, state: BrujasState) -> BrujasState:
        return state.copy()

    def write_position(self, state: BrujasState) -> str:
        """The whole state as one line (:mod:`~coven.games.brujas.notation` says how it reads)."""
        return format_position(state)

    def read_position(self, text: object) -> BrujasState:
        # ``object``, as the notation reads it: compiled (see setup.py), a method refuses an argument of
        # another type than it declares with a TypeError, and what is no text must get a NotationError
        return parse_position(text)

    # ---------------------------------------------------------------------------------------- turns
    def to_act(self, state: BrujasState) -> frozenset[Seat]:
        return SOLO[state.turn]

    def first_to_act(self, state: BrujasState) -> Seat | None:
        turn = state.turn
        return None if turn == NOBODY else turn

    def legal_actions(self, state: BrujasState, seat: Seat) -> Sequence[Action]:
        if not 0 <= seat < state.n:  # (compared here: the call only where it refuses)
            check_seat(seat, state.n, spectator=False)
        if seat != state.turn:
            return ()
        phase = state.phase
        if phase == PLAY:
            # ``follow`` is every kind while the trick is empty; otherwise a player unable to follow
            # may play any card.
            h = state.hands[seat]
            m = h & state.follow or h & LOW
            return PLAYS_LO[m & 1023] + PLAYS_HI[m >> 10]
        if phase == TAKE:
            m = state.pool & LOW
            return TAKES_LO[m & 1023] + TAKES_HI[m >> 10]
        if phase == WITCH:
            return WITCH_CHOICES[state.rank[COLOUR[state.trick[state.win_index]]]]
        return ()

    def advance(self, state: BrujasState, seat: Seat, action: Action) -> None:
        # the base's, here so that compiled (see setup.py) playouts reach apply_unchecked natively: the
        # events it returns are made at import (view's tables), so dropping them is all advance would save
        self.apply_unchecked(state, seat, action)

    def illegal_reason(self, state: BrujasState, seat: Seat, action: Action) -> str | None:
        phase = state.phase
        if isinstance(action, Play):
            if phase != PLAY:
                return REFUSALS("refusal.brujas.no_play_now", task=self._phase_task(state))
            k = KIND.get(action.card)
            if k is None:
                return REFUSALS("refusal.brujas.not_a_card", card=short_repr(action.card))
            hand = state.hands[seat]
            if not hand & BIT[k]:
                return REFUSALS("refusal.brujas.not_in_hand", card=action.card)
            if state.trick and not BIT[k] & state.follow and hand & LOW & state.follow:
                f = NAME[state.first]
                if state.lead == NO_LEAD:
                    return REFUSALS("refusal.brujas.match_first", first=f)
                if state.lead == COLOUR_LEAD:
                    return REFUSALS("refusal.brujas.follow_colour", first=f)
                return REFUSALS("refusal.brujas.follow_number", first=f)
            return None
        if isinstance(action, MoveWitch):
            if phase != WITCH:
                return REFUSALS("refusal.brujas.no_witch_now", task=self._phase_task(state))
            if action.direction not in ("up", "down"):
                return REFUSALS("refusal.brujas.direction", direction=short_repr(action.direction))
            if action not in self.legal_actions(state, seat):
                c = COLOUR[state.trick[state.win_index]]
                # at the top only "down" is legal, at the bottom only "up"
                key = (
                    "refusal.brujas.witch_at_top" if state.rank[c] == 0 else "refusal.brujas.witch_at_bottom"
                )
                return REFUSALS(key, colour=COLOURS[c])
            return None
        if phase != TAKE:
            return REFUSALS("refusal.brujas.no_take_now", task=self._phase_task(state))
        k = KIND.get(action.card)
        if k is None:
            return REFUSALS("refusal.brujas.not_a_card", card=short_repr(action.card))
        if not state.pool & BIT[k]:
            return REFUSALS("refusal.brujas.not_in_trick", card=action.card)
        return None

    @staticmethod
    def _phase_task(state: BrujasState) -> Message:
        return REFUSALS(f"refusal.brujas.task.{_TASKS[state.phase]}")

    def apply_unchecked(self, state: BrujasState, seat: Seat, action: Action) -> list[Event]:
        s = state
        phase = s.phase
        if phase == PLAY:
            k = KIND[action.card]  # type: ignore[union-attr]
            hands = s.hands
            hand = hands[seat]
            b = BIT2[k]
            hands[seat] = hand ^ b if hand & b else hand ^ BIT[k]
            trick = s.trick
            i = len(trick)
            trick.append(k)
            if i == 0:
                s.first = k
                s.lead = NO_LEAD
                s.follow = MATCH[k]
                s.win_index = 0
                s.turn = s.nxt[seat]
                return [EV_PLAY[seat][k]]
            events: list[Event]
            if BIT[k] & s.follow:
                # The winner so far is tracked as cards come (exception 1: ties go to the later card).
                lead = s.lead
                if lead == COLOUR_LEAD:
                    v = NUMBER[k]
                    if v >= s.win_val:
                        s.win_index = i
                        s.win_val = v
                elif lead == NUMBER_LEAD:
                    v = -s.rank[COLOUR[k]]
                    if v >= s.win_val:
                        s.win_index = i
                        s.win_val = v
                else:
                    f = s.first
                    if k == f:
                        s.win_index = i
                    else:
                        if COLOUR[k] == COLOUR[f]:
                            s.lead = COLOUR_LEAD
                            s.follow = COLOUR_MASK[COLOUR[f]]
                            v, fv = NUMBER[k], NUMBER[f]
                        else:
                            s.lead = NUMBER_LEAD
                            s.follow = NUMBER_MASK[NUMBER[f]]
                            v, fv = -s.rank[COLOUR[k]], -s.rank[COLOUR[f]]
                        if v > fv:
                            s.win_index = i
                            s.win_val = v
                        else:
                            s.win_val = fv
                events = [EV_PLAY[seat][k]]
            elif s.silent:
                s.down |= 1 << i
                events = [EV_DOWN[seat], EV_DOWN_OWN[seat][k]]
            else:
                events = [EV_PLAY[seat][k]]
            if i + 1 == s.n:
                w = s.win_index
                s.winner = winner = (s.leader + w) % s.n
                s.phase = WITCH
                s.turn = winner
                events.append(EV_WON[winner][trick[w]][s.lead])
            else:
                s.turn = s.nxt[seat]
            return events
        if phase == TAKE:
            k = KIND[action.card]  # type: ignore[union-attr]
            pool = s.pool
            b = BIT2[k]
            s.pool = pool ^ b if pool & b else pool ^ BIT[k]
            piles = s.piles
            pile = piles[seat]
            piles[seat] = pile | b if pile & BIT[k] else pile | BIT[k]
            picks = s.picks
            picks.append(k)
            if len(picks) < s.n:
                s.turn = s.nxt[seat]
                return [EV_TAKE[seat][k]]
            winner = s.winner
            s.history.append((s.leader, tuple(s.trick), winner, s.moved, tuple(picks)))
            s.trick = []
            s.picks = []
            s.follow = LOW
            s.leader = winner
            if s.hands[winner]:
                s.phase = PLAY
                s.turn = winner
                return [EV_TAKE[seat][k]]
            s.phase = OVER
            s.turn = NOBODY
            return [EV_TAKE[seat][k], game_over(score_list(s))]
        # WITCH
        c = COLOUR[s.trick[s.win_index]]
        pos = s.rank[c]
        up = action is UP or action.direction == "up"  # type: ignore[union-attr]
        other_pos = pos - 1 if up else pos + 1
        witches = s.witches
        other = witches[other_pos]
        witches[pos] = other
        witches[other_pos] = c
        s.rank[c] = other_pos
        s.rank[other] = pos
        s.phase = TAKE
        pool = 0
        for k in s.trick:
            pool = pool | BIT2[k] if pool & BIT[k] else pool | BIT[k]
        s.pool = pool
        s.moved = 0 if up else 1
        if s.down:
            s.down = 0
            return [EV_WITCH[seat][c][s.moved], reveal(s.trick)]
        return [EV_WITCH[seat][c][s.moved]]

    # ---------------------------------------------------------------------------------- information
    def view(self, state: BrujasState, seat: Seat | None) -> BrujasView:
        if seat is not None and not 0 <= seat < state.n:
            check_seat(seat, state.n)
        return view_of(state, seat)

    def views(self, state: BrujasState, seats: Iterable[Seat | None]) -> dict[Seat | None, BrujasView]:
        return views_of(state, checked_seats(seats, state.n))

    # -------------------------------------------------------------------------------------- outcome
    def scores(self, state: BrujasState) -> tuple[float, ...]:
        return tuple(float(v) for v in score_list(state))

    # ------------------------------------------------------------------------------------- notation
    def format_action(self, action: Action) -> str:
        return format_action(action)

    def parse_action(self, text: object) -> Action:
        # ``object``: see read_position
        return parse_action(text)

    def action_from_json(self, raw: object) -> Action:
        """The action a JSON value describes, held to the notation (a card "zz" is no card)."""
        return through_notation(super().action_from_json(raw), self.format_action, self.parse_action)
