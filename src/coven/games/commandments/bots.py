"""Bots for The 3 Commandments: ``random``, ``beginner``, ``casual``, ``greedy`` and ``best``.

Every bot decides from its view alone. Novice moves may carry any performance the rules allow, not
only the representative family that ``legal_actions`` lists (a person may type any performance too);
each one is legal by :meth:`CommandmentsGame.illegal_reason`.

- ``greedy``: as a novice, imitates the move of this ritual that earned the most karma (same
  performance, an artefact of the same colour from a like area to the same target), else moves at
  random from the family; as High Priestess, discards the card least often matched by a random move,
  makes the next least matched one the taboo, and places the artefacts in the first family placement.
- ``best``: as a novice, keeps the exact posterior over the priestess's cards
  (:mod:`~coven.games.commandments.inference`: each slot's type, every marker and total of this
  ritual, the cards seen elsewhere), and chooses the move and performance of
  most expected karma (the floor at zero included) plus a bonus for what the markers will teach while
  moves remain; when a move that earns nothing would flip her last destiny card, it counts that
  outcome as the 20 karma the disempowerment gives every novice (so it prefers a move that earns
  nothing). As High Priestess, it simulates each choice of cards and a few placements with imitating
  novices (30 imagined rituals per choice when ordaining, 48 when placing) and keeps the one that
  gives the best novice much, the others little, and keeps her from being disempowered; the chance
  that the first four moves (random ones: no karma yet to imitate) all miss, the commonest way to be
  disempowered, is computed from the share of the family's moves that miss on the placement instead
  of being sampled. As the game's last High Priestess she knows every score and plays for her share
  of the victory, the margin breaking ties.

  Measured against three ``greedy`` (400 games each, 4 players; chairs rotate over duplicate deals):
  ``coven simulate commandments -p 4 -b best,greedy,greedy,greedy -n 400 --seed 21`` gave 48.1% before
  these three changes and 50.6% with the first two; with all three it gave 54.0% at seed 21, 52.9% at
  ``--seed 23`` (52.0% before) and 55.5% at ``--seed 25`` (50.8% before); with ``-o expert=true
  --seed 22``, 48.8% before and 51.4% after. Decision times (``--timing --json``, p95): 224 ms of CPU
  at seed 21; 353 ms of CPU and 624 ms of wall clock in the expert run, on two heavily shared cores
  (the priestess's two decisions are the slow ones).

``search``: the generic IS-MCTS of :mod:`coven.bots.search`, over a :class:`Shortlist` of novice
moves (``best``'s, an imitation, a family move) judged by short playouts between ``greedy`` players on
worlds drawn from the view; as High Priestess it chooses as ``best`` does. It does not beat ``best``:
``coven simulate commandments --players 4 --bots search,best,best,best --games 40`` gave it 10 wins at
seed 0 (best: 8.3, 10.8, 10.8; mean score 87.2 against 87.8) and 5 at seed 1 (best: 13, 13.5, 8.5;
81.2 against 81.4). Its budget is 40 worlds a decision; the posteriors they are drawn from are worked
out once a decision (``Game.world_sampler``: a :class:`~coven.games.commandments.worlds.Sampler`).
When they were worked out for every world, a novice's decision against three ``greedy`` took 47 ms of
CPU on average with the default options and 558 ms with ``expert``, ``judge=priestess`` and
``reveal=never`` (4 players, 6 games; at 7 players 1.4 s, at most 2.7 s): with ``reveal=never`` every
earlier ritual stays hidden, and a hidden human judge leaves the costliest join. Since, 23 ms and 44
ms (7 players: 67 ms, at most 0.2 s), with the very same choices.

``beginner`` and ``casual`` (:mod:`coven.bots.levels`): ``greedy`` with random slips, a uniformly random
legal choice instead of greedy's on 60% (beginner) and 10% (casual) of the decisions (``LEVEL_SLIP``).
Measured with ``coven simulate commandments --players 4 --bots LEVEL,greedy,greedy,greedy --seed 1``:
beginner won 10.8% of 60 games, casual 24.2% of 60 (a fair share is 25%).
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Sequence
from functools import lru_cache, partial
from typing import Any, Final

from coven.bots.levels import level_factories
from coven.bots.search import SearchBot, SearchPlan, bots_policy
from coven.core import Bot, BotFactory, Game, RandomBot, Seat
from coven.games.commandments.board import COLOUR_OF, KIND_OF, NUM_AREAS, NUM_ARTEFACTS, OUTSIDE, counts_of
from coven.games.commandments.cards import ACTION, ARTEFACT, Card, Deck, deck_for
from coven.games.commandments.inference import Posterior, ritual_posterior
from coven.games.commandments.lang import GESTURES, TOUCHES, Ctx
from coven.games.commandments.lexicon import KINDS_SAID, shortest
from coven.games.commandments.notation import (
    BUDGET,
    MOVE_FAMILY,
    PERFORMANCES,
    Judge,
    Move,
    Ordain,
    Perf,
    Place,
    beats,
)
from coven.games.commandments.rules import (
    DESTINY_CARDS,
    DISEMPOWER_BONUS,
    karma_total,
    move_context,
    rounds_for,
)
from coven.games.commandments.view import CommandmentsView

# ------------------------------------------------------------------------------------ card statistics
_SAMPLE_CONTEXTS: Final = 240


@lru_cache(maxsize=8)
def base_rates(custom: str) -> tuple[tuple[float, float], ...]:
    """Per card of the deck: how often a random family move on a random board matches it, and the
    mean karma it then gives (a fixed sample, seeded)."""
    deck = deck_for(custom)
    rng = random.Random(20080)
    contexts: list[Ctx] = []
    for _ in range(_SAMPLE_CONTEXTS):
        board = [rng.randrange(NUM_AREAS) for _ in range(NUM_ARTEFACTS)]
        move = MOVE_FAMILY[rng.randrange(len(MOVE_FAMILY))]
        contexts.append(move_context(board, move))
    out = []
    for card in deck.cards:
        values = [card.judge(c) for c in contexts]
        hits = [v for v in values if v > 0]
        out.append((len(hits) / len(values), sum(hits) / len(hits) if hits else 0.0))
    return tuple(out)


def engine_marks(view: CommandmentsView, deck: Deck) -> tuple[int, ...]:
    """The engine's verdicts (yes 1, no 0) on the action cards of a pending move: a priestess bot
    judges honestly by the engine's reading."""
    rv = view.rituals[-1]
    move = view.pending
    assert move is not None
    board = list(view.board)
    board[move.artefact] = view.pending_start
    ctx = move_context(board, move)
    marks = []
    for slot in rv.slots:
        card = deck.cards[deck.index[slot.card]]
        if card.type == ACTION:
            marks.append(int(card.judge(ctx) > 0))
    return tuple(marks)


def _family_move(rng: random.Random) -> Move:
    return MOVE_FAMILY[rng.randrange(len(MOVE_FAMILY))]


def imitate(view: CommandmentsView, rng: random.Random) -> Move | None:
    """A move copying the best-paid move of this ritual (None if none paid)."""
    rv = view.rituals[-1]
    best = None
    for log in rv.moves:
        if log.move is not None and log.total > 0 and (best is None or log.total >= best.total):
            best = log
    if best is None or best.move is None:
        return None
    model = best.move
    colour = COLOUR_OF[model.artefact]
    same = [a for a in range(NUM_ARTEFACTS) if COLOUR_OF[a] == colour]
    board = view.board
    exact = [a for a in same if board[a] == best.start]
    alike = [a for a in same if KIND_OF[board[a]] == KIND_OF[best.start]]
    pool = exact or alike or same
    artefact = pool[rng.randrange(len(pool))]
    return Move(artefact, model.to, model.path, model.gestures, model.touches, model.words, model.seconds)


def simple_ordain(hand: Sequence[Card], rates: Sequence[tuple[float, float]], deck: Deck) -> Ordain:
    ranked = sorted(hand, key=lambda c: (rates[deck.index[c.id]][0], c.id))
    return Ordain(ranked[0].id, ranked[1].id)


# ---------------------------------------------------------------------------------------- greedy bot
class GreedyBot:
    def __init__(self, game: Any, seat: Seat, seed: int) -> None:
        self.seat = seat
        self.rng = random.Random(seed)

    def act(self, view: CommandmentsView, legal: Sequence[Hashable], required: bool) -> Hashable | None:
        if not required or not legal:
            return None
        deck = deck_for(str(view.options["custom_cards"]))
        rv = view.rituals[-1]
        if view.phase == "ordain":
            hand = [deck.cards[deck.index[c]] for c in rv.hand]
            return simple_ordain(hand, base_rates(str(view.options["custom_cards"])), deck)
        if view.phase == "place":
            return legal[0]
        if view.phase == "judge":
            return Judge(engine_marks(view, deck))
        return imitate(view, self.rng) or _family_move(self.rng)


# ------------------------------------------------------------------------------------------ best bot
_HYPOTHESES: Final = 300
_SHORTLIST_BOARD: Final = 14
_SHORTLIST_PERF: Final = 4
_SPOIL = True
_EXPLORE: Final = 0.3
"""Weight of the learning bonus (bits of marker entropy); kept small: what the markers teach, every
novice learns."""


def _entropy(p: float) -> float:
    if p <= 0.0 or p >= 1.0:
        return 0.0
    return -(p * math.log2(p) + (1 - p) * math.log2(1 - p))


def _perf_ctx(perf: Perf) -> Ctx:
    path, gestures, touches, words, seconds = perf
    empty = [[0, 0, 0] for _ in range(NUM_AREAS)]
    return Ctx(0, 0, 0, empty, empty, frozenset(gestures), frozenset(touches), words, path, seconds)


def _perf_beats(perf: Perf) -> int:
    path, gestures, touches, words, seconds = perf
    return beats(Move(0, 0, path, gestures, touches, words, seconds))


_TOKENS: Final[tuple[tuple[str, Any], ...]] = (
    *(("g", g) for g in GESTURES),
    *(("s", " ".join(shortest(kind))) for kind in KINDS_SAID),
    *(("t", t) for t in TOUCHES),
    ("path", (OUTSIDE,)),
    ("path", (0,)),
    ("path", (0, OUTSIDE)),
    ("path", (11, OUTSIDE, 11)),
    ("sec", 45),
    ("sec", 20),
    ("sec", 10),
    ("sec", 3),
    ("words", "la"),
    ("words", "la la"),
    ("words", ""),
    ("nog", ()),
)
"""The steps of the performance search: add a gesture, a kind of thing said, a touch; set the path,
the time or the words; drop the gestures."""


def _with(perf: Perf, token: tuple[str, Any]) -> Perf | None:
    """``perf`` changed by one step, or None when that goes past the budget."""
    path, gestures, touches, words, seconds = perf
    kind, value = token
    if kind == "g":
        gestures = tuple(sorted({*gestures, value}))
    elif kind == "s":
        words = f"{words} {value}".strip() if value not in words else words
    elif kind == "t":
        touches = tuple(sorted({*touches, value}))
    elif kind == "path":
        path = value
    elif kind == "sec":
        seconds = value
    elif kind == "nog":
        gestures = ()
    else:
        words = value
    out = (path, gestures, touches, words, seconds)
    return out if _perf_beats(out) <= BUDGET else None


class BestBot:
    def __init__(self, game: Any, seat: Seat, seed: int) -> None:
        self.game = game
        self.seat = seat
        self.rng = random.Random(seed)
        self.cache: dict[tuple[int, int, int], int] = {}

    def act(self, view: CommandmentsView, legal: Sequence[Hashable], required: bool) -> Hashable | None:
        if not required or not legal:
            return None
        custom = str(view.options["custom_cards"])
        deck = deck_for(custom)
        if view.phase == "ordain":
            return self.ordain(view, deck)
        if view.phase == "place":
            return self.place(view, deck)
        if view.phase == "judge":
            return Judge(engine_marks(view, deck))
        return self.move(view, deck)

    # ---------------------------------------------------------------------------------- novice
    def move(self, view: CommandmentsView, deck: Deck) -> Move:
        post: Posterior = ritual_posterior(view, deck, cache=self.cache)
        rv = view.rituals[-1]
        signs = [-1.0, 1.0, 1.0]
        rounds = rounds_for(view.players)
        mine_left = rounds - sum(1 for m in rv.moves if m.seat == self.seat)
        marks_visible = not view.options["expert"]
        explore = 0.0
        # a move without karma now flips the last destiny card: she is disempowered and every novice
        # gets 20, more than a move earns; she loses the ritual's best gain too
        floor = float(DISEMPOWER_BONUS) if _SPOIL and view.flips >= DESTINY_CARDS - 1 else 0.0
        if marks_visible and mine_left > 1 and not floor:
            explore = _EXPLORE * (mine_left - 1) / (rounds - 1) if rounds > 1 else 0.0
        board_slots = [i for i, t in enumerate(post.types) if t == ARTEFACT]
        perf_slots = [i for i, t in enumerate(post.types) if t == ACTION]
        cards = deck.cards

        def judged(slots: Sequence[int], ctx: Ctx) -> tuple[float, float]:
            """Expected karma of ``ctx`` over the posterior of ``slots``, and the bonus for what the
            markers would teach (the entropy of each slot being marked)."""
            score = 0.0
            bonus = 0.0
            for slot in slots:
                exp = 0.0
                hit = 0.0
                for c, p in post.marginals[slot].items():
                    v = cards[c].judge(ctx)
                    exp += p * v
                    if v > 0:
                        hit += p
                score += signs[slot] * exp
                bonus += explore * _entropy(hit)
            return score, bonus

        # the board part: every artefact to every area
        board_moves: list[tuple[float, int, int, Ctx, float]] = []
        for artefact in range(NUM_ARTEFACTS):
            for to in range(NUM_AREAS):
                ctx = move_context(view.board, Move(artefact, to))
                score, bonus = judged(board_slots, ctx)
                board_moves.append((score + bonus, artefact, to, ctx, bonus))
        board_moves.sort(key=lambda t: -t[0])
        ties = [b for b in board_moves if b[0] >= board_moves[0][0] - 1e-9]
        self.rng.shuffle(ties)
        shortlist = (ties + [b for b in board_moves if b[0] < board_moves[0][0] - 1e-9])[:_SHORTLIST_BOARD]
        if floor:  # the moves least likely to earn anything
            shortlist += board_moves[-_SHORTLIST_BOARD // 2 :]

        # the performance part: family performances and a greedy ascent over behaviours
        perf_bonus: dict[Perf, float] = {}

        def perf_score(perf: Perf) -> float:
            score, bonus = judged(perf_slots, _perf_ctx(perf))
            perf_bonus[perf] = bonus
            return score + bonus

        empty: Perf = ((), (), (), "", 10)
        perfs: dict[Perf, float] = {empty: perf_score(empty)}
        for perf in PERFORMANCES:
            perfs[perf] = perf_score(perf)
        if perf_slots:
            current = max(perfs, key=lambda p: perfs[p])
            for _ in range(6):
                best_next = current
                for token in _TOKENS:
                    cand = _with(current, token)
                    if cand is None:
                        continue
                    if cand not in perfs:
                        perfs[cand] = perf_score(cand)
                    if perfs[cand] > perfs[best_next] + 1e-9:
                        best_next = cand
                if best_next == current:
                    break
                current = best_next
        ranked = sorted(perfs, key=lambda p: -perfs[p])
        top_perfs = ranked[:_SHORTLIST_PERF]
        if floor:
            top_perfs += [p for p in ranked[-_SHORTLIST_PERF:] if p not in top_perfs]

        # exact expectation of the karma kept (never below zero) over the hypotheses
        hyps = post.hypotheses(self.rng, _HYPOTHESES)
        board_vals = [
            [cards[h[s]].judge(b[3]) if s in board_slots else 0 for s in range(3) for h in hyps]
            for b in shortlist
        ]
        perf_ctxs = [_perf_ctx(p) for p in top_perfs]
        perf_vals = [
            [cards[h[s]].judge(pc) if s in perf_slots else 0 for s in range(3) for h in hyps]
            for pc in perf_ctxs
        ]
        n = len(hyps)
        best: tuple[float, int, int] | None = None
        for bi, b in enumerate(shortlist):
            bv = board_vals[bi]
            for pi, perf in enumerate(top_perfs):
                pv = perf_vals[pi]
                total = 0.0
                for k in range(n):
                    t = -(bv[k] + pv[k]) + bv[n + k] + pv[n + k] + bv[2 * n + k] + pv[2 * n + k]
                    total += t if t > 0 else floor
                score = total / n + b[4] + perf_bonus[perf]
                if best is None or score > best[0] + 1e-9:
                    best = (score, bi, pi)
        assert best is not None
        _, bi, pi = best
        artefact, to = shortlist[bi][1], shortlist[bi][2]
        path, gestures, touches, words, seconds = top_perfs[pi]
        return Move(artefact, to, path, gestures, touches, words, seconds)

    # ------------------------------------------------------------------------------- priestess
    def ordain(self, view: CommandmentsView, deck: Deck) -> Ordain:
        rv = view.rituals[-1]
        hand = [deck.cards[deck.index[c]] for c in rv.hand]
        best: tuple[float, Ordain] | None = None
        for d in hand:
            for t in hand:
                if t is d:
                    continue
                slots = [t] + [c for c in hand if c is not d and c is not t]
                score, _ = self.plan(view, slots, quick=True)
                if best is None or score > best[0]:
                    best = (score, Ordain(d.id, t.id))
        assert best is not None
        return best[1]

    def place(self, view: CommandmentsView, deck: Deck) -> Place:
        rv = view.rituals[-1]
        slots = [deck.cards[deck.index[s.card]] for s in rv.slots]
        _, placement = self.plan(view, slots, quick=False)
        return Place(placement)

    def plan(self, view: CommandmentsView, slots: list[Card], quick: bool) -> tuple[float, tuple[int, ...]]:
        """The best placement for these slot cards and its value, by simulating imitating novices
        (common random numbers across placements and, when ordaining, across choices of cards; then
        a short hill-climb when placing)."""
        seed_text = f"{self.seat}/{len(view.rituals)}"
        if not quick:
            seed_text += "/" + ",".join(c.id for c in slots)
        rng = random.Random(seed_text)
        players = view.players
        priestess = view.rituals[-1].priestess
        novices = [(priestess + k) % players for k in range(1, players)]
        moves_total = (players - 1) * rounds_for(players)
        sims = _SIMS_QUICK if quick else _SIMS_PLACE
        seeds = [rng.getrandbits(32) for _ in range(sims)]

        verdicts: dict[tuple[int, Perf], int] = {}

        pairs = [(a, to) for a in range(NUM_ARTEFACTS) for to in range(NUM_AREAS)]
        if quick:
            pairs = rng.sample(pairs, _PAIRS_QUICK)
        # her last ritual, the game's last: she knows every score, so she plays to win
        scores = list(view.karma) if _ENDGAME and len(view.rituals) == players else None
        cold = _outcome({n: 0 for n in novices}, True, scores, priestess)
        perf_totals = _perf_totals(slots, verdicts)

        def value(placement: tuple[int, ...]) -> float:
            """The mean imagined outcome, except that the chance of being disempowered by the first
            four moves (all random, no karma yet to imitate) is computed from the chance that a random
            move misses, and the imagined rituals that met it are left out."""
            runs = [
                _simulate(
                    slots, placement, novices, moves_total, random.Random(s), verdicts, scores, priestess
                )
                for s in seeds
            ]
            if not _EXACT_START:
                return sum(v for v, _ in runs) / len(runs)
            kept = [v for v, cold_start in runs if not cold_start]
            q = _miss_rate(slots, placement, pairs, perf_totals) ** DESTINY_CARDS
            if not kept:
                return cold
            return (1 - q) * sum(kept) / len(kept) + q * cold

        candidates = [
            tuple(rng.randrange(NUM_AREAS) for _ in range(NUM_ARTEFACTS))
            for _ in range(_RANDOM_QUICK if quick else _RANDOM_PLACE)
        ]
        candidates += list(_STRUCTURED)
        scored = [(value(p), p) for p in candidates]
        best_value, best = max(scored, key=lambda t: t[0])
        if not quick:
            for _ in range(_CLIMB):
                trial = list(best)
                for _ in range(rng.randint(1, 3)):
                    trial[rng.randrange(NUM_ARTEFACTS)] = rng.randrange(NUM_AREAS)
                placement = tuple(trial)
                v = value(placement)
                if v > best_value:
                    best_value, best = v, placement
        return best_value, best


_SIMS_QUICK = 30
"""Imagined rituals per placement when choosing the cards (common random numbers across choices)."""
_SIMS_PLACE = 48
"""Imagined rituals per placement when placing."""
_RANDOM_QUICK = 3
_RANDOM_PLACE = 10
"""Random placements tried beside the structured ones (ordaining, placing)."""
_CLIMB = 30
"""Steps of the hill-climb when placing."""
_PAIRS_QUICK = 60
"""Artefact-and-target pairs (of 180) behind the chance of a miss when choosing the cards."""
_EXACT_START = True
"""Whether the chance of a disempowerment by the first four moves is computed (else sampled)."""
_ENDGAME = True
"""Whether the game's last High Priestess plays for her share of the victory."""
_DISEMPOWER_DREAD = 40.0
"""Extra weight on an imagined disempowerment (the imagined novices are kinder than real ones)."""

_STRUCTURED: Final[tuple[tuple[int, ...], ...]] = (
    tuple([0] * 5 + [11] * 5 + [6, 7, 8, 9, 10]),
    tuple(1 + i % 5 for i in range(15)),
    tuple(6 + i % 5 if i < 5 else 1 + i % 5 if i < 10 else 11 for i in range(15)),
    tuple([11] * 15),
    tuple(i % 12 for i in range(15)),
)


def _perf_totals(slots: list[Card], verdicts: dict[tuple[int, Perf], int]) -> list[list[int]]:
    """Per target area and canonical performance, the karma the action slots give a move of the
    family (an action card looks at the performance alone)."""
    signs = (-1, 1, 1)
    per = len(PERFORMANCES)
    out = []
    for to in range(NUM_AREAS):
        row = []
        for k in range(per):
            move = MOVE_FAMILY[to * per + k]
            perf = (move.path, move.gestures, move.touches, move.words, move.seconds)
            total = 0
            for i, card in enumerate(slots):
                if card.type != ARTEFACT:
                    v = verdicts.get((i, perf))
                    if v is None:
                        v = verdicts[(i, perf)] = card.judge(_perf_ctx(perf))
                    total += signs[i] * v
            row.append(total)
        out.append(row)
    return out


def _miss_rate(
    slots: list[Card],
    placement: tuple[int, ...],
    pairs: Sequence[tuple[int, int]],
    perf_totals: list[list[int]],
) -> float:
    """The chance that a random move of the family (an artefact of ``pairs`` to its target, with
    each canonical performance) gives no karma on this placement."""
    counts = counts_of(placement)
    on_board = [(i, c) for i, c in enumerate(slots) if c.type == ARTEFACT]
    misses = 0
    for artefact, to in pairs:
        start = placement[artefact]
        colour = COLOUR_OF[artefact]
        after = list(counts)
        row = after[start][:]
        row[colour] -= 1
        after[start] = row
        row = after[to][:]
        row[colour] += 1
        after[to] = row
        ctx = Ctx(colour, start, to, counts, after)
        fixed = sum(card.judge(ctx) * (-1 if i == 0 else 1) for i, card in on_board)
        misses += sum(1 for t in perf_totals[to] if fixed + t <= 0)
    return misses / (len(pairs) * len(PERFORMANCES))


def _simulate(
    slots: list[Card],
    placement: tuple[int, ...],
    novices: list[int],
    moves_total: int,
    rng: random.Random,
    verdicts: dict[tuple[int, Perf], int] | None = None,
    scores: list[int] | None = None,
    priestess: int = 0,
) -> tuple[float, bool]:
    """One imagined ritual with novices who imitate the best-paid move (as ``greedy`` does) or try a
    random one; her gain relative to the average novice (disempowerment: -20 - their average), and
    whether she was disempowered before any karma was given.

    The counts of the board are kept up to date move by move, and an action card's verdict (it looks
    at the performance alone) is kept in ``verdicts`` by slot and performance."""
    board = list(placement)
    counts = counts_of(board)
    memo = {} if verdicts is None else verdicts
    on_board = [c.type == ARTEFACT for c in slots]
    gains = {n: 0 for n in novices}
    flips = 0
    best_move: tuple[int, Move, int] | None = None
    for turn in range(moves_total):
        seat = novices[turn % len(novices)]
        if best_move is not None:
            _, model, start = best_move
            colour = COLOUR_OF[model.artefact]
            same = [a for a in range(NUM_ARTEFACTS) if COLOUR_OF[a] == colour]
            pool = (
                [a for a in same if board[a] == start]
                or [a for a in same if KIND_OF[board[a]] == KIND_OF[start]]
                or same
            )
            move = Move(
                pool[rng.randrange(len(pool))],
                model.to,
                model.path,
                model.gestures,
                model.touches,
                model.words,
                model.seconds,
            )
        else:
            move = MOVE_FAMILY[rng.randrange(len(MOVE_FAMILY))]
        start_area = board[move.artefact]
        colour = COLOUR_OF[move.artefact]
        after = list(counts)
        row = after[start_area][:]
        row[colour] -= 1
        after[start_area] = row
        row = after[move.to][:]
        row[colour] += 1
        after[move.to] = row
        ctx: Ctx | None = None
        values = []
        for i, card in enumerate(slots):
            if on_board[i]:
                if ctx is None:
                    ctx = Ctx(colour, start_area, move.to, counts, after)
                values.append(card.judge(ctx))
                continue
            perf = (move.path, move.gestures, move.touches, move.words, move.seconds)
            v = memo.get((i, perf))
            if v is None:
                v = memo[(i, perf)] = card.judge(_perf_ctx(perf))
            values.append(v)
        board[move.artefact] = move.to
        counts = after
        total = karma_total(values)
        if total > 0:
            gains[seat] += total
            flips = 0
            if best_move is None or total >= best_move[0]:
                best_move = (total, move, start_area)
        else:
            flips += 1
            if flips >= DESTINY_CARDS:
                return _outcome(gains, True, scores, priestess), best_move is None
    return _outcome(gains, False, scores, priestess), False


def _outcome(gains: dict[int, int], disempowered: bool, scores: list[int] | None, priestess: int) -> float:
    """What an imagined ritual is worth to her: her gain relative to the average novice
    (disempowered: -20 - their average, and the dread); with the scores of the game's last ritual,
    her share of the victory, the margin breaking ties."""
    values = list(gains.values())
    mean = sum(values) / len(values)
    margin = -20.0 - mean - _DISEMPOWER_DREAD if disempowered else max(values) - mean
    if scores is None:
        return margin
    bonus = DISEMPOWER_BONUS if disempowered else 0
    mine = scores[priestess] + (0 if disempowered else max(values))
    theirs = [scores[n] + g + bonus for n, g in gains.items()]
    top = max(theirs)
    share = 0.0 if top > mine else 1.0 / (1 + theirs.count(mine))
    return share + margin / 1000.0


# ------------------------------------------------------------------------------------ search bot
class Shortlist:
    """``search``'s candidates (:mod:`coven.bots.search`): the performances are open-ended, so the
    search compares a few proposals instead of every legal action: as a novice, ``best``'s move,
    ``greedy``'s imitation of the best-paid move and a move of the family. The High Priestess's
    choices are ``best``'s alone (judged by short playouts between imitating novices, other choices of
    cards and placements fared worse than ``best``'s own simulations), and she judges by the engine's
    reading. One ``best`` per seat keeps its posterior cache."""

    def __init__(self, game: Game[Any, Any, Any], seed: int) -> None:
        self.game = game
        self.seed = seed
        self.best: dict[Seat, BestBot] = {}

    def __call__(
        self, view: CommandmentsView, legal: Sequence[Hashable], required: bool, rng: random.Random
    ) -> list[Hashable | None]:
        if not required or not legal or view.seat is None:
            return []
        best = self.best.get(view.seat)
        if best is None:
            best = self.best[view.seat] = BestBot(self.game, view.seat, self.seed)
        deck = deck_for(str(view.options["custom_cards"]))
        if view.phase == "judge":
            return [Judge(engine_marks(view, deck))]
        if view.phase == "ordain":
            return [best.ordain(view, deck)]
        if view.phase == "place":
            return [best.place(view, deck)]
        return [best.move(view, deck), imitate(view, rng) or _family_move(rng), _family_move(rng)]


def margin_rewards(game: Game[Any, Any, Any], state: Any) -> list[float]:
    """Each seat's karma margin over the best other seat, as a reward between 0 and 1."""
    scores = game.scores(state)
    out = []
    for seat, value in enumerate(scores):
        other = max(v for s, v in enumerate(scores) if s != seat)
        out.append(0.5 + 0.5 * math.tanh((value - other) / 10.0))
    return out


def _search(game: Game[Any, Any, Any], seat: Seat, seed: int) -> Bot:
    """``search``: the generic IS-MCTS (:mod:`coven.bots.search`) over the :class:`Shortlist`, worlds
    drawn from the exact posterior over the priestess's cards, eight decisions played on by ``greedy``
    players, judged by the karma margin; a flat search at the root (proposals are costly)."""
    plan = SearchPlan(
        iterations=40,
        exploration=0.3,
        candidates=Shortlist(game, seed),
        policy=bots_policy(game, GreedyBot, seed),
        evaluate=partial(margin_rewards, game),
        max_depth=1,
        playout_depth=8,
    )
    return SearchBot(game, seat, seed, plan)


LEVEL_SLIP: dict[str, float] = {"beginner": 0.6, "casual": 0.1}
"""The levels' chance of a random choice instead of ``greedy``'s (:mod:`coven.bots.levels`)."""


BOTS: Final[dict[str, BotFactory]] = {
    "random": RandomBot,
    **level_factories(GreedyBot, LEVEL_SLIP),
    "greedy": GreedyBot,
    "best": BestBot,
    "search": _search,
}
__all__ = ["BOTS", "BestBot", "GreedyBot", "base_rates", "imitate"]
