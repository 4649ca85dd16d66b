"""The action deck's balance: no performance within the budget matches more than a third of the
action cards, and the empty move only a few (see src/coven/games/commandments/DECK.md).

The enumeration is exhaustive, channel by channel. Every action card of the box reads exactly one
channel of the performance (gestures, touches, words, path, seconds: checked below from the cards'
expression trees), and a move's cost is the sum of its channels' costs, so the most cards one move
can match is a knapsack over the channels: for each channel and each cost, the most cards any value
of that channel matches, combined by max-plus convolution under the budget. Each channel's values are
enumerated in full, or up to an equivalence the cards cannot tell apart:

- gestures: every set of gestures the budget allows; touches: every set;
- words: the cards about words read only ``said(kind)``, ``silent`` and ``words`` (checked), that is
  the kinds said and the number of words. No word belongs to two kinds (checked), so saying a set of
  kinds takes at least their shortest entries' words; every (kinds, number of words) so reachable is
  tried, as the shortest entries padded with a word of no kind;
- path: the cards read only ``via(area)``, ``out`` and ``steps`` (checked); areas no card names are
  interchangeable, and two of them suffice to keep a path free of repeats, so every path over the
  named areas, X and two others, of every length the budget allows, is tried;
- seconds: every whole second from 0 to 3600.

A direct check then builds the best performance found as a real move and judges every action card on
it, so the decomposition cannot silently drift from the engine.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

import pytest

from coven.games.commandments.board import AREA_INDEX, OUTSIDE
from coven.games.commandments.cards import BUILTIN, Card
from coven.games.commandments.lang import GESTURES, TOUCHES, Node, parse
from coven.games.commandments.lexicon import KINDS_SAID, LEXICON, shortest, tokens
from coven.games.commandments.notation import (
    BUDGET,
    GESTURE_BEATS,
    MAX_SECONDS,
    PATH_BEATS,
    TOUCH_BEATS,
    WORD_BEATS,
    Move,
    beats,
)
from coven.games.commandments.rules import move_context

ACTION_CARDS = [c for c in BUILTIN if c.type == "action"]
CHANNEL_OF = {
    "did": "gestures",
    "gestures": "gestures",
    "touched": "touches",
    "touches": "touches",
    "said": "words",
    "silent": "words",
    "words": "words",
    "mentions": "words",
    "via": "path",
    "out": "path",
    "steps": "path",
    "seconds": "seconds",
}
FILLER = "la"
"""A word of no kind (checked below)."""
BOARD = (*(0, 1, 1, 6, 11), *(0, 2, 4, 11, 11), *(4, 4, 8, 11, 11))


def _words_used(node: Node) -> Iterator[str]:
    if node.op in ("name", "call"):
        yield str(node.value)
    for arg in node.args:
        yield from _words_used(arg)


def _channels(card: Card) -> set[str]:
    return {CHANNEL_OF[w] for w in _words_used(parse(card.expr)) if w in CHANNEL_OF}


def _judge(cards: list[Card], move: Move) -> int:
    ctx = move_context(BOARD, move)
    return sum(1 for c in cards if c.judge(ctx) > 0)


def _named_areas() -> list[int]:
    named: set[int] = set()
    for card in ACTION_CARDS:
        stack = [parse(card.expr)]
        while stack:
            node = stack.pop()
            if node.op == "call" and node.value == "via":
                named.add(AREA_INDEX[str(node.args[0].value).upper()])
            stack.extend(node.args)
    return sorted(named - {OUTSIDE})


def _values(channel: str) -> Iterator[tuple[int, Move]]:
    """(cost, a move holding this value of ``channel`` and nothing else) for every value to try."""
    if channel == "gestures":
        for k in range(BUDGET // GESTURE_BEATS + 1):
            for chosen in itertools.combinations(GESTURES, k):
                yield GESTURE_BEATS * k, Move(0, 0, gestures=chosen)
    elif channel == "touches":
        for k in range(len(TOUCHES) + 1):
            for touched in itertools.combinations(TOUCHES, k):
                yield TOUCH_BEATS * k, Move(0, 0, touches=touched)
    elif channel == "words":
        for k in range(len(KINDS_SAID) + 1):
            for kinds in itertools.combinations(KINDS_SAID, k):
                core = [w for kind in kinds for w in shortest(kind)]
                for extra in range(BUDGET // WORD_BEATS - len(core) + 1):
                    text = " ".join(core + [FILLER] * extra)
                    yield WORD_BEATS * (len(core) + extra), Move(0, 0, words=text)
    elif channel == "path":
        others = [a for a in range(OUTSIDE) if a not in _named_areas()][:2]
        alphabet = [*_named_areas(), OUTSIDE, *others]
        yield 0, Move(0, 0)
        paths: list[tuple[int, ...]] = [(a,) for a in alphabet]
        while paths and len(paths[0]) * PATH_BEATS <= BUDGET:
            for path in paths:
                yield PATH_BEATS * len(path), Move(0, 0, path=path)
            paths = [(*p, a) for p in paths for a in alphabet if a != p[-1]]
    else:
        for seconds in range(MAX_SECONDS + 1):
            yield 0, Move(0, 0, seconds=seconds)


def _best_per_cost(channel: str, cards: list[Card]) -> dict[int, tuple[int, Move]]:
    best: dict[int, tuple[int, Move]] = {}
    for cost, move in _values(channel):
        assert beats(move) == cost
        matched = _judge(cards, move)
        if cost not in best or matched > best[cost][0]:
            best[cost] = (matched, move)
    return best


def _merge(a: Move, b: Move) -> Move:
    return Move(
        0,
        0,
        a.path or b.path,
        a.gestures or b.gestures,
        a.touches or b.touches,
        a.words or b.words,
        a.seconds if a.seconds != Move(0, 0).seconds else b.seconds,
    )


def _most_matched(
    select: Callable[[int, Move], bool] = lambda cost, move: True,
) -> tuple[int, Move]:
    by_channel: dict[str, list[Card]] = {}
    for card in ACTION_CARDS:
        (channel,) = _channels(card)
        by_channel.setdefault(channel, []).append(card)
    # max-plus convolution over the channels, under the budget
    table: dict[int, tuple[int, Move]] = {0: (0, Move(0, 0))}
    for channel in ("gestures", "touches", "words", "path", "seconds"):
        options = _best_per_cost(channel, by_channel.get(channel, []))
        merged: dict[int, tuple[int, Move]] = {}
        for c1, (m1, move1) in table.items():
            for c2, (m2, move2) in options.items():
                if c1 + c2 > BUDGET or not select(c2, move2):
                    continue
                if c1 + c2 not in merged or m1 + m2 > merged[c1 + c2][0]:
                    merged[c1 + c2] = (m1 + m2, _merge(move1, move2))
        table = merged
    return max(table.values(), key=lambda t: t[0])


def test_every_action_card_reads_exactly_one_channel_of_the_performance() -> None:
    for card in ACTION_CARDS:
        assert len(_channels(card)) == 1, (card.id, _channels(card))
        assert "mentions" not in set(_words_used(parse(card.expr))), card.id  # words: kinds and counts only


def test_no_word_belongs_to_two_kinds_and_the_filler_to_none() -> None:
    owner: dict[str, str] = {}
    for kind, entries in LEXICON.items():
        for entry in entries:
            for word in entry:
                assert owner.setdefault(word, kind) == kind, (word, owner[word], kind)
    assert tokens(FILLER) == (FILLER,) and FILLER not in owner


def test_no_performance_within_the_budget_matches_more_than_a_third_of_the_action_cards() -> None:
    most, move = _most_matched()
    assert beats(move) <= BUDGET
    assert _judge(ACTION_CARDS, move) == most  # the decomposition agrees with the engine
    assert 3 * most <= len(ACTION_CARDS), (most, len(ACTION_CARDS), move)


def test_the_empty_move_matches_only_a_few_action_cards() -> None:
    most, move = _most_matched(lambda cost, move: cost == 0)
    assert beats(move) == 0 and move.gestures == move.touches == () and not move.words and not move.path
    assert _judge(ACTION_CARDS, move) == most
    assert most <= 5, (most, move)
    assert all(_judge(ACTION_CARDS, Move(0, 0, seconds=s)) <= most for s in (0, 5, 10, 20, 45))


def test_a_stuffed_performance_is_refused_and_matches_no_more_cards_than_the_bound() -> None:
    stuffed = Move(0, 0, (0, OUTSIDE), GESTURES, TOUCHES, "may I thank you white cow idiot damn lovely stone")
    assert beats(stuffed) > BUDGET


@pytest.mark.parametrize("kind", KINDS_SAID)
def test_every_kind_said_has_a_card(kind: str) -> None:
    assert any(f'said("{kind}")' in c.expr for c in ACTION_CARDS)
