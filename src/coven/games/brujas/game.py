"""Brujas del Sábado: the rules engine (state, actions, views, sampled worlds, scoring).

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
  column and the first leader from ``random.Random(seed)`` and nothing else is random.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from coven.core import (
    Bounds,
    Event,
    Game,
    GameSpec,
    NotationError,
    Option,
    Options,
    Seat,
    private,
    public,
)
from coven.core.bot import BotFactory
from coven.core.codec import through_notation
from coven.core.errors import short_repr
from coven.core.metrics import Metrics
from coven.games.brujas.cards import (
    BIT,
    BIT2,
    COLOUR,
    COLOUR40,
    COLOUR_MASK,
    COLOURS,
    KIND,
    KINDS,
    LOW,
    MATCH,
    NAME,
    NUMBER,
    NUMBER40,
    NUMBER_MASK,
    kinds_of,
    parse_card,
)

if TYPE_CHECKING:
    from coven.core.explain import Explanation, Moment
    from coven.games.brujas.worlds import Sampler

SCORE_VALUES = {"basic": (5, 3, 2, 1), "conflict": (8, 5, 3, 1)}
"""Score cards top to bottom; the middle values are not in our text (rulings), so they live here."""
DEVIL_POINTS = 2
HAND_SIZE = {3: 13, 4: 10, 5: 8}

# Phases
PLAY, WITCH, TAKE, OVER = 0, 1, 2, 3
PHASE_NAME = ("play", "witch", "take", "over")
# Leads
NO_LEAD, COLOUR_LEAD, NUMBER_LEAD = 0, 1, 2
LEAD_NAME = ("", "colour", "number")
NOBODY = 5
"""``turn`` once the game is over (indexes the empty set in :data:`SOLO`)."""


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
WITCH_CHOICES = ((DOWN,), (UP, DOWN), (UP, DOWN), (UP,))
"""Legal witch moves by the witch's position (0 = beside the top score card)."""


def _subset_table(items: tuple[Action, ...], offset: int) -> tuple[tuple[Action, ...], ...]:
    return tuple(tuple(items[offset + i] for i in range(10) if mask >> i & 1) for mask in range(1 << 10))


PLAYS_LO = _subset_table(PLAY_ACTION, 0)
PLAYS_HI = _subset_table(PLAY_ACTION, 10)
TAKES_LO = _subset_table(TAKE_ACTION, 0)
TAKES_HI = _subset_table(TAKE_ACTION, 10)
CARD_BIT = tuple(1 << c for c in range(2 * KINDS))
WITCH_ORDERS = tuple(itertools.permutations(range(4)))
SOLO = (*(frozenset({s}) for s in range(5)), frozenset[Seat]())
NEXT = tuple(tuple((s + 1) % n if n else 0 for s in range(5)) for n in range(6))

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


# ----------------------------------------------------------------------------------------------- state
class BrujasState:
    """The whole game; cards are kinds (ints) and card sets are 40-bit ints (see ``cards``)."""

    __slots__ = (
        "aside",
        "conflict",
        "down",
        "first",
        "follow",
        "hands",
        "history",
        "lead",
        "leader",
        "moved",
        "n",
        "nxt",
        "options",
        "phase",
        "picks",
        "piles",
        "pool",
        "rank",
        "silent",
        "trick",
        "turn",
        "values",
        "win_index",
        "win_val",
        "winner",
        "witches",
    )

    n: int
    nxt: tuple[int, ...]
    """The seat to the left of each seat (clockwise)."""
    options: Options
    conflict: bool
    silent: bool
    values: tuple[int, ...]
    hands: list[int]
    piles: list[int]
    witches: list[int]
    """Colours top to bottom."""
    rank: list[int]
    """Position of each colour's witch (0 = top, strongest)."""
    leader: int
    turn: int
    phase: int
    trick: list[int]
    """Kinds played into the current trick, in order (from the leader clockwise)."""
    down: int
    """Bit i: the i-th card of the trick lies face down (silent variant, until revealed)."""
    first: int
    lead: int
    follow: int
    """Kinds that follow now: matching the first card (no Lead yet) or following the Lead."""
    winner: int
    win_index: int
    """Index in the trick of the card winning so far / the winning card."""
    win_val: int
    """Strength of that card under the Lead: its number (colour Lead) or minus its witch's position."""
    pool: int
    """Cards of the finished trick not yet picked (a card set)."""
    picks: list[int]
    history: list[tuple[int, list[int], int, int, list[int]]]
    """Finished tricks: (leader, cards, winner, witch move 0 up / 1 down, picks from the winner on)."""
    aside: int
    """The card set aside with three players, or -1."""
    moved: int
    """The witch move of the current trick: 0 up, 1 down (meaningful in the take phase)."""


def new_state(n: int, options: Options) -> BrujasState:
    s = BrujasState()
    s.n = n
    s.nxt = NEXT[n]
    s.options = options
    s.conflict = bool(options.get("conflict", False))
    s.silent = bool(options.get("silent", False))
    s.values = SCORE_VALUES["conflict" if s.conflict else "basic"]
    s.hands = [0] * n
    s.piles = [0] * n
    s.witches = [0, 1, 2, 3]
    s.rank = [0, 1, 2, 3]
    s.leader = 0
    s.turn = 0
    s.phase = PLAY
    s.trick = []
    s.down = 0
    s.first = -1
    s.lead = NO_LEAD
    s.follow = LOW
    s.winner = -1
    s.win_index = -1
    s.win_val = 0
    s.pool = 0
    s.picks = []
    s.history = []
    s.aside = -1
    s.moved = 0
    return s


def set_witches(s: BrujasState, witches: Sequence[int]) -> None:
    s.witches = list(witches)
    s.rank = [0] * 4
    for pos, c in enumerate(witches):
        s.rank[c] = pos


def trick_winner(trick: Sequence[int], lead: int, rank: Sequence[int]) -> int:
    """Index in ``trick`` of the winning card (exceptions 1-3: later identical cards win)."""
    f = trick[0]
    best = 0
    if lead == NO_LEAD:
        for i in range(1, len(trick)):
            if trick[i] == f:
                best = i
    elif lead == COLOUR_LEAD:
        c = COLOUR[f]
        top = NUMBER[f]
        for i in range(1, len(trick)):
            k = trick[i]
            if COLOUR[k] == c and NUMBER[k] >= top:
                top = NUMBER[k]
                best = i
    else:
        num = NUMBER[f]
        top = rank[COLOUR[f]]
        for i in range(1, len(trick)):
            k = trick[i]
            if NUMBER[k] == num and rank[COLOUR[k]] <= top:
                top = rank[COLOUR[k]]
                best = i
    return best


def trick_status(trick: Sequence[int], rank: Sequence[int]) -> tuple[int, int, int, int]:
    """(Lead, follow mask, index of the card winning so far, its strength) after ``trick`` (non-empty).

    The same bookkeeping as :meth:`BrujasGame.apply_unchecked` does card by card.
    """
    f = trick[0]
    lead, follow, best, val = NO_LEAD, MATCH[f], 0, 0
    for i in range(1, len(trick)):
        k = trick[i]
        if not BIT[k] & follow:
            continue
        if lead == NO_LEAD:
            if k == f:
                best = i
                continue
            if COLOUR[k] == COLOUR[f]:
                lead, follow = COLOUR_LEAD, COLOUR_MASK[COLOUR[f]]
                val = NUMBER[f]
            else:
                lead, follow = NUMBER_LEAD, NUMBER_MASK[NUMBER[f]]
                val = -rank[COLOUR[f]]
        v = NUMBER[k] if lead == COLOUR_LEAD else -rank[COLOUR[k]]
        if v >= val:  # equal strength means an identical card: the later one wins
            best, val = i, v
    return lead, follow, best, val


def witch_colours(piles: Sequence[int], rank: Sequence[int]) -> list[int]:
    """Each seat's witch colour: the colour it collected most of, ties to the higher witch."""
    out: list[int] = []
    for pile in piles:
        best, best_count, best_rank = 0, -1, 9
        for c in range(4):
            cnt = (pile & COLOUR40[c]).bit_count()
            if cnt > best_count or (cnt == best_count and rank[c] < best_rank):
                best, best_count, best_rank = c, cnt, rank[c]
        out.append(best)
    return out


def witch_scores(
    piles: Sequence[int], rank: Sequence[int], values: Sequence[int], conflict: bool
) -> list[int]:
    colours = witch_colours(piles, rank)
    out: list[int] = []
    for seat, c in enumerate(colours):
        value = values[rank[c]]
        if conflict and any(o == c for i, o in enumerate(colours) if i != seat):
            value = (value + 1) // 2
        out.append(value)
    return out


def devil_scores(piles: Sequence[int]) -> list[int]:
    out = [0] * len(piles)
    for num in range(1, 6):
        mask = NUMBER40[num]
        counts = [(p & mask).bit_count() for p in piles]
        top = max(counts)
        if top:
            for seat, cnt in enumerate(counts):
                if cnt == top:
                    out[seat] += DEVIL_POINTS
    return out


def score_list(s: BrujasState) -> list[int]:
    if not any(s.piles):
        return [0] * s.n
    w = witch_scores(s.piles, s.rank, s.values, s.conflict)
    d = devil_scores(s.piles)
    return [a + b for a, b in zip(w, d, strict=True)]


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


# ------------------------------------------------------------------------------------------------ game
class BrujasGame(Game[BrujasState, Action, BrujasView]):
    spec = GameSpec(
        id="brujas",
        title="Brujas del Sábado",
        summary="A 2-way trick-taking game: the second card decides whether colour or number leads.",
        min_players=3,
        max_players=5,
        options=(
            Option(
                "conflict",
                False,
                "Devils in Conflict: score cards 8/5/3/1; a witch colour shared with another player "
                "scores half (rounded up)",
            ),
            Option(
                "silent",
                False,
                "Witches refrain from speaking: a card played because you could not follow goes face "
                "down until collecting",
            ),
        ),
        hidden_information=True,
        rules_file="rules.md",
    )
    action_classes = (Play, MoveWitch, Take)
    view_class = BrujasView
    _sampler: tuple[BrujasView, Sampler] | None = None

    # ---------------------------------------------------------------------------------------- setup
    def setup(self, players: int, options: Options, seed: int) -> BrujasState:
        rng = random.Random(seed)
        # A uniform shuffle of the 40 physical cards (card c is kind c % 20), by sorting random keys:
        # as fair as ``rng.shuffle`` and twice as fast, which counts in playout benchmarks.
        r = rng.random
        keys = [r() for _ in range(2 * KINDS)]
        deck = sorted(range(2 * KINDS), key=keys.__getitem__)
        s = new_state(players, options)
        size = HAND_SIZE[players]
        hands = s.hands
        bit = CARD_BIT.__getitem__
        for seat in range(players):
            h = sum(map(bit, deck[seat * size : (seat + 1) * size]))
            low, high = h & LOW, h >> KINDS
            hands[seat] = low | high | (low & high) << KINDS
        if players * size < len(deck):
            s.aside = deck[players * size] % KINDS
        set_witches(s, WITCH_ORDERS[int(r() * 24)])
        s.leader = s.turn = int(r() * players)
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
        s = state
        c = BrujasState()
        c.n = s.n
        c.nxt = s.nxt
        c.options = s.options
        c.conflict = s.conflict
        c.silent = s.silent
        c.values = s.values
        c.hands = s.hands[:]
        c.piles = s.piles[:]
        c.witches = s.witches[:]
        c.rank = s.rank[:]
        c.leader = s.leader
        c.turn = s.turn
        c.phase = s.phase
        c.trick = s.trick[:]
        c.down = s.down
        c.first = s.first
        c.lead = s.lead
        c.follow = s.follow
        c.winner = s.winner
        c.win_index = s.win_index
        c.win_val = s.win_val
        c.pool = s.pool
        c.picks = s.picks[:]
        c.history = s.history[:]
        c.aside = s.aside
        c.moved = s.moved
        return c

    # ---------------------------------------------------------------------------------------- turns
    def to_act(self, state: BrujasState) -> frozenset[Seat]:
        return SOLO[state.turn]

    def legal_actions(self, state: BrujasState, seat: Seat) -> Sequence[Action]:
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

    def illegal_reason(self, state: BrujasState, seat: Seat, action: Action) -> str | None:
        phase = state.phase
        if isinstance(action, Play):
            if phase != PLAY:
                return f"no card is played now: it is time to {self._phase_task(state)}"
            k = KIND.get(action.card)
            if k is None:
                return f"{action.card!r} is not a devil card"
            hand = state.hands[seat]
            if not hand & BIT[k]:
                return f"you hold no {action.card}"
            if state.trick and not BIT[k] & state.follow and hand & LOW & state.follow:
                f = NAME[state.first]
                if state.lead == NO_LEAD:
                    return f"you must match the colour or the number of the first card {f}"
                what = "colour" if state.lead == COLOUR_LEAD else "number"
                return f"you must follow the Lead ({what} of {f})"
            return None
        if isinstance(action, MoveWitch):
            if phase != WITCH:
                return f"the witch is moved only after a trick: it is time to {self._phase_task(state)}"
            if action.direction not in ("up", "down"):
                return f"a witch moves up or down, not {action.direction!r}"
            if action not in self.legal_actions(state, seat):
                c = COLOUR[state.trick[state.win_index]]
                where = "top" if state.rank[c] == 0 else "bottom"
                return f"the {COLOURS[c]} witch stands at the {where} and cannot move {action.direction}"
            return None
        if phase != TAKE:
            return f"no card is picked now: it is time to {self._phase_task(state)}"
        k = KIND.get(action.card)
        if k is None:
            return f"{action.card!r} is not a devil card"
        if not state.pool & BIT[k]:
            return f"no {action.card} is left in the trick"
        return None

    @staticmethod
    def _phase_task(state: BrujasState) -> str:
        return ("play a card", "move the witch", "pick cards from the trick", "stop")[state.phase]

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
            s.history.append((s.leader, s.trick, winner, s.moved, picks))
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
            return [EV_TAKE[seat][k], public("game_over", scores=list(score_list(s)))]
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
            return [EV_WITCH[seat][c][s.moved], public("reveal", cards=[NAME[k] for k in s.trick])]
        return [EV_WITCH[seat][c][s.moved]]

    # ---------------------------------------------------------------------------------- information
    def view(self, state: BrujasState, seat: Seat | None) -> BrujasView:
        s = state
        n = s.n
        trick: list[str] = []
        down: list[bool] = []
        hidden_phase = s.phase in (PLAY, WITCH)
        for i, k in enumerate(s.trick):
            face_down = hidden_phase and bool(s.down >> i & 1)
            down.append(face_down)
            trick.append("?" if face_down and (s.leader + i) % n != seat else NAME[k])
        past = tuple(
            PastTrick(
                leader=leader,
                cards=tuple(NAME[k] for k in cards),
                winner=winner,
                witch="down" if move else "up",
                picks=tuple(NAME[k] for k in picks),
            )
            for leader, cards, winner, move, picks in s.history
        )
        return BrujasView(
            seat=seat,
            players=n,
            options=dict(s.options),
            hand=tuple(NAME[k] for k in kinds_of(s.hands[seat])) if seat is not None else (),
            hand_sizes=tuple(h.bit_count() for h in s.hands),
            witches=tuple(COLOURS[c] for c in s.witches),
            score_values=s.values,
            piles=tuple(tuple(NAME[k] for k in kinds_of(p)) for p in s.piles),
            leader=s.leader,
            trick=tuple(trick),
            face_down=tuple(down),
            lead=LEAD_NAME[s.lead] if s.trick else "",
            phase=PHASE_NAME[s.phase],
            to_act=None if s.phase == OVER else s.turn,
            winner=s.winner if s.phase in (WITCH, TAKE) else None,
            moved=("up", "down")[s.moved] if s.phase == TAKE else "",
            taken=tuple(NAME[k] for k in s.picks) if s.phase == TAKE else (),
            past=past,
            scores=self.scores(s),
        )

    def world_from_view(self, view: BrujasView, rng: random.Random) -> BrujasState:
        from coven.games.brujas.worlds import Sampler

        # The sampler parses a view and counts its deals once; asked again for the very same (frozen)
        # view object, it draws at once.
        cached = self._sampler
        if cached is None or cached[0] is not view:
            cached = self._sampler = (view, Sampler(view))
        return cached[1].draw(rng)

    # -------------------------------------------------------------------------------------- outcome
    def scores(self, state: BrujasState) -> tuple[float, ...]:
        return tuple(float(v) for v in score_list(state))

    # ------------------------------------------------------------------------------------- notation
    def format_action(self, action: Action) -> str:
        if isinstance(action, Play):
            return action.card
        if isinstance(action, Take):
            return "x" + action.card
        return action.direction

    def parse_action(self, text: str) -> Action:
        if not isinstance(text, str):
            raise NotationError(f"an action is text, not {short_repr(text)}")
        t = text.strip()
        low = t.lower()
        if low in ("up", "down"):
            return UP if low == "up" else DOWN
        if low.startswith("take"):
            return TAKE_ACTION[parse_card(t[4:])]
        if low.startswith("x"):
            return TAKE_ACTION[parse_card(t[1:])]
        try:
            return PLAY_ACTION[parse_card(t)]
        except NotationError:
            raise NotationError(
                "an action is a card to play (R3), a pick (xR3) or a witch move (up, down), "
                f"not {short_repr(text)}"
            ) from None

    def action_from_json(self, raw: object) -> Action:
        """The action a JSON value describes, held to the notation (a card "zz" is no card)."""
        return through_notation(super().action_from_json(raw), self.format_action, self.parse_action)

    # -------------------------------------------------------------------------------- presentation
    def render(self, view: BrujasView) -> str:
        from coven.games.brujas.render import render

        return render(view)

    def explain(self, view: BrujasView, moments: Sequence[Moment] = ()) -> Explanation:
        from coven.games.brujas.explain import explain

        return explain(view, moments)

    def describe_event(self, event: Event, seat: Seat | None = None) -> str:
        from coven.games.brujas.render import describe_event

        return describe_event(event, seat)

    def hidden_facts(self, state: BrujasState, seat: Seat) -> frozenset[str]:
        from coven.games.brujas.worlds import secrets

        return secrets(state, seat)

    def bots(self) -> dict[str, BotFactory]:
        from coven.games.brujas.bots import BOTS

        return dict(BOTS)

    def new_metrics(self) -> Metrics:
        from coven.games.brujas.metrics import BrujasMetrics

        return BrujasMetrics()


GAME = BrujasGame()
