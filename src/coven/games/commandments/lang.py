"""A small, safe expression language for the cards of The 3 Commandments.

A card's condition (fixed-value cards) or count ("?" cards) is a text in this language. It is parsed
here by a hand-written recursive-descent parser into a tree, type-checked, and compiled into Python
closures; nothing is ever passed to ``eval`` or ``exec``. Grammar::

    expr    := disj
    disj    := conj ("or" conj)*
    conj    := neg ("and" neg)*
    neg     := "not" neg | cmp
    cmp     := sum (("==" | "!=" | "<" | "<=" | ">" | ">=") sum)?
    sum     := prod (("+" | "-") prod)*
    prod    := atom ("*" atom)*
    atom    := NUMBER | STRING | NAME | NAME "(" [expr ("," expr)*] ")" | "(" expr ")"

Values are whole numbers, truth values, areas ("C", "H1".."H5", "T1".."T5", "R"; "X" = outside the
Holy Circle, in paths only), colours ("white", "black", "brown") and kinds of area ("centre",
"hexagon", "triangle", "ring"). A quoted word becomes an area, a colour or a kind where one is
expected, and is checked then.

Board words (artefact cards; the board is the one after the move unless inside ``before(...)``):
``colour`` (of the moved artefact), ``from``, ``to`` (areas), ``kind(a)``, ``adjacent(a, b)``,
``count(a)``, ``count(a, colour)``, ``colours(a)`` (distinct colours in a), ``total(kind)``,
``total(kind, colour)`` (artefacts in all areas of a kind), ``areas(cond)`` (how many areas satisfy
cond, with ``area`` standing for each in turn), ``sum(n)``, ``sum(cond, n)``, ``max(n)`` (over areas,
binding ``area`` the same way), ``before(e)`` (e on the board before the move).

Performance words (action cards): ``did(gesture)``, ``said(kind)`` (the free words say that kind of
thing, in English or French: see :mod:`coven.games.commandments.lexicon`), ``touched(what)``,
``mentions("text")`` (in the free words, on word boundaries, any case or accents), ``silent`` (no word
said at all), ``gestures`` (how many), ``touches`` (how many), ``words`` (words said, counted as the
lexicon cuts them), ``via(area)`` (the path passes over it; "X" = out of the circle), ``out``
(= via("X")), ``steps`` (areas of the circle the path passes over), ``seconds``.

Either kind of card: ``min(a, b)`` (the smaller number; it caps what a "?" card counts).

Bounds. Anyone creating a table may write cards, and cards are judged on the server's event loop and
millions of times by the bots, so every expression is bounded before it is compiled; each bound
refuses with a :class:`CardError` saying why (and where), never with another exception:

- at most :data:`MAX_TEXT` (400) characters and :data:`MAX_TOKENS` (150) tokens (words, numbers,
  quoted words, signs); numbers are written with the digits 0-9 and are at most :data:`MAX_NUMBER`
  (9999);
- the tree nests at most :data:`MAX_DEPTH` (32) deep: brackets, calls, ``not`` and each operator of
  a chain add a level. The parser counts while it descends and stops at the 33rd level, long before
  Python's recursion limit (ten thousand ``(`` do not even get that far: the length bound refuses
  them);
- the counting functions ``areas``, ``sum`` and ``max`` (the only words that repeat work: they judge
  what is inside them once per area, twelve times) nest at most :data:`MAX_COUNTING_NESTING` (2)
  deep. ``before(e)`` only switches boards and adds no repetition;
- the static cost (:func:`estimate_cost`: one unit per node, a few for the words that scan a board
  row or the performance, and twelve times the inside of each counting function) is at most
  :data:`MAX_COST` (1500; a unit is about 50 ns of judging). The costliest card of the box costs 159;
  the costliest cards accepted judge in under 0.1 ms (80 µs measured when the bounds were chosen).

At run time a custom card is also guarded (``compile_card_expr(..., guarded=True)``, the default):
each counting function charges its twelve rounds of work to a per-judgement step counter on the
:class:`Ctx` before it runs, and past :data:`MAX_STEPS` (twice the static budget, so only a mistake
in the estimate can reach it) raises :class:`CardBudgetError`. The card's owner decides what that
means (:meth:`coven.games.commandments.cards.Card.judge`: the card is not marked on that move). The
built-in deck is compiled unguarded: it passes the same static bounds and is the bots' hot path;
its artefact cards are compiled further, each to one Python function (:func:`emit_board_card`,
written from the checked tree with only numbers and table indices in its source: no call per node),
which the tests hold to the closures on every card and on random expressions.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, Final

from coven.core.texts import Message, Param, Texts
from coven.games.commandments.board import (
    ADJACENT,
    AREA_INDEX,
    CODE_COLOURS,
    CODE_COUNT,
    CODE_TOTAL,
    COLOUR_INDEX,
    COLOURS,
    KIND_OF,
    KINDS,
    NEIGHBOURS,
    NUM_AREAS,
    NUM_CODES,
    OUTSIDE,
)
from coven.games.commandments.lexicon import KINDS_SAID, analyse, tokens

GESTURES: Final[tuple[str, ...]] = (
    "stand",
    "dance",
    "sing",
    "bow",
    "kneel",
    "clap",
    "macho",
    "pray",
    "laugh",
    "whistle",
    "close_eyes",
    "wave",
    "jump",
    "hum",
    "stretch",
    "stamp",
    "smile",
)
"""What a novice may do with her body during a move (a fixed vocabulary)."""

SAYINGS: Final[tuple[str, ...]] = KINDS_SAID
"""Kinds of things said, found in the free words by the bilingual lexicon: ask the High Priestess for
permission, thank her, name a colour, call her an animal's name, offend a novice, curse, compliment
her, talk to the artefact."""

TOUCHES: Final[tuple[str, ...]] = ("hp", "hp_art", "novice", "artefact")
"""Touching the High Priestess (by hand), the High Priestess with the moved artefact, another novice,
another artefact."""

UPPER_BODY: Final[frozenset[str]] = frozenset(
    {"stand", "dance", "bow", "kneel", "clap", "macho", "pray", "wave", "jump", "stretch"}
)


MAX_TEXT: Final = 400
"""The longest expression, in characters."""
MAX_TOKENS: Final = 150
"""The most tokens in an expression (the longest card of the box has 53)."""
MAX_NUMBER: Final = 9999
"""The largest number written in an expression (the box uses at most 30; a move lasts 3600 s)."""
MAX_DEPTH: Final = 32
"""How deep an expression may nest (the deepest card of the box nests 12, a chain of ten "or")."""
MAX_COUNTING_NESTING: Final = 2
"""How deep the counting functions (areas, sum, max) may nest (the box nests them 1 deep)."""
COUNTING: Final = frozenset({"areas", "sum", "max"})
"""The words that judge what is inside them once per area."""
MAX_COST: Final = 1500
"""The highest static cost (:func:`estimate_cost`) of an expression; the box's costliest is 159."""
MAX_STEPS: Final = 2 * MAX_COST
"""The run-time budget of a guarded card on one judgement, in the units of :func:`estimate_cost`."""


LANGUAGE_REFUSALS: Final = Texts(
    {
        # reading the text
        "refusal.commandments.card.empty": "the expression is empty",
        "refusal.commandments.card.too_long": "the expression is longer than {max} characters ({length})",
        "refusal.commandments.card.character": "unexpected character {char} at {at}",
        "refusal.commandments.card.character_digit": (
            "unexpected character {char} at {at} (numbers are written with the digits 0-9)"
        ),
        "refusal.commandments.card.too_many_tokens": (
            "the expression has more than {max} tokens (words, numbers, signs); "
            "the one past the limit starts at {at}"
        ),
        "refusal.commandments.card.big_number": (
            "numbers are at most {max}; the one at {at} is larger ({digits} digits)"
        ),
        "refusal.commandments.card.too_deep": (
            "the expression nests more than {max} deep at {at} "
            "(brackets, calls, 'not' and each operator of a chain add a level)"
        ),
        "refusal.commandments.card.expected": "expected {expected} at {at}, found {found}",
        "refusal.commandments.card.expected_more": "expected {expected} at {at}, found 'the end'",
        "refusal.commandments.card.unexpected": "unexpected {found} at {at}",
        "refusal.commandments.card.no_value": "expected a value at {at}, found {found}",
        "refusal.commandments.card.no_value_end": "expected a value at {at}, found 'the end'",
        # its bounds
        "refusal.commandments.card.counting_nesting": (
            "counting functions (sum, areas, max) nest at most {max} deep; "
            "this card nests {nesting} (the innermost at {at})"
        ),
        "refusal.commandments.card.too_costly": (
            "the card would take too long to judge: it costs {cost}, at most {max} "
            "(sum, areas and max judge what is inside them once for each of the {areas} areas)"
        ),
        # its meaning (each said "(at N)": refusal.commandments.card.at)
        "refusal.commandments.card.at": "{problem} (at {at})",
        "refusal.commandments.card.board_word": "{word} looks at the board: only artefact cards may use it",
        "refusal.commandments.card.performance_word": (
            "{word} looks at the performance: only action cards may use it"
        ),
        "refusal.commandments.card.not_area": "{text} is not an area ({areas})",
        "refusal.commandments.card.not_colour": "{text} is not a colour (white, black, brown)",
        "refusal.commandments.card.not_kind": "{text} is not a kind of area ({kinds})",
        "refusal.commandments.card.wrong_type": "expected {wanted} here, found {found}",
        "refusal.commandments.card.type.int": "a number",
        "refusal.commandments.card.type.bool": "a condition",
        "refusal.commandments.card.type.area": "an area",
        "refusal.commandments.card.type.colour": "a colour",
        "refusal.commandments.card.type.kind": "a kind of area",
        "refusal.commandments.card.type.lit": "a quoted word",
        "refusal.commandments.card.quoted_gesture": "gesture must be a quoted word",
        "refusal.commandments.card.quoted_saying": "thing said must be a quoted word",
        "refusal.commandments.card.quoted_touch": "touch must be a quoted word",
        "refusal.commandments.card.not_gesture": "{text} is not a gesture ({words})",
        "refusal.commandments.card.not_saying": "{text} is not a thing said ({words})",
        "refusal.commandments.card.not_touch": "{text} is not a touch ({words})",
        "refusal.commandments.card.arity": "{name}() takes {expected} argument(s), not {given}",
        "refusal.commandments.card.arity_either": (
            "{name}() takes {expected} or {other} argument(s), not {given}"
        ),
        "refusal.commandments.card.two_words": (
            "comparing two quoted words is always the same; compare a value"
        ),
        "refusal.commandments.card.area_outside": (
            "'area' only means something inside areas(), sum() or max()"
        ),
        "refusal.commandments.card.unknown_word": "unknown word {word}",
        "refusal.commandments.card.before_word": "before() of a quoted word means nothing",
        "refusal.commandments.card.mentions_text": "mentions() takes a quoted, non-empty text",
        "refusal.commandments.card.mentions_letters": (
            "mentions() takes a text with at least one letter or digit"
        ),
        "refusal.commandments.card.unknown_function": "unknown function {name}",
        "refusal.commandments.card.must_count": (
            "the expression must give a number (it is a '?' card), not {found}"
        ),
        "refusal.commandments.card.must_decide": (
            "the expression must give a condition (it has a fixed value), not {found}"
        ),
    }
)
"""Why a card's expression is refused (:mod:`coven.core.refusals`): the card language's own words,
areas and quoted texts as they are written, ``at`` a position in the expression (from 0)."""


class CardError(ValueError):
    """A card's expression or definition is malformed; the message says where and why, in a message of
    :data:`LANGUAGE_REFUSALS` (or of the cards' own, :mod:`~coven.games.commandments.cards`)."""

    def __init__(self, message: Message) -> None:
        super().__init__(message)

    @property
    def reason(self) -> Message | None:
        """The message's key and params (its text is ``str(self)``)."""
        said = self.args[0]
        return said if isinstance(said, Message) else None


class CardBudgetError(CardError):
    """Judging a guarded card went past :data:`MAX_STEPS` (only a mistake in the static bounds lets a
    card get here); :meth:`~coven.games.commandments.cards.Card.judge` counts the card as unmarked."""

    def __init__(self, message: str) -> None:  # shown to nobody: plain English
        ValueError.__init__(self, message)


class Ctx:
    """What a card is judged on. ``cur`` is the board being looked at (after the move, or before)."""

    __slots__ = (
        "after",
        "area",
        "before",
        "colour",
        "cur",
        "folded",
        "frm",
        "gestures",
        "nwords",
        "path",
        "said",
        "seconds",
        "steps",
        "to",
        "touches",
        "words",
    )

    def __init__(
        self,
        colour: int,
        frm: int,
        to: int,
        before: Sequence[Sequence[int]],
        after: Sequence[Sequence[int]],
        gestures: frozenset[str] = frozenset(),
        touches: frozenset[str] = frozenset(),
        words: str = "",
        path: tuple[int, ...] = (),
        seconds: int = 10,
    ) -> None:
        self.colour = colour
        self.frm = frm
        self.to = to
        self.before = before
        self.after = after
        self.cur = after
        self.gestures = gestures
        self.touches = touches
        self.words = words
        # the kinds of thing said (the lexicon), how many words, the words normalised
        self.said, self.nwords, self.folded = analyse(words)
        self.path = path
        self.seconds = seconds
        self.area = 0
        self.steps = 0
        """Work done so far in the current judgement of a guarded card (see :data:`MAX_STEPS`)."""


Fn = Callable[[Ctx], Any]

# -------------------------------------------------------------------------------------------- lexing
_TOKEN = re.compile(
    r"\s*(?:(?P<num>[0-9]+)|(?P<str>\"[^\"]*\"|'[^']*')|(?P<name>[A-Za-z_][A-Za-z_0-9]*)"
    r"|(?P<op>==|!=|<=|>=|<|>|\+|-|\*|\(|\)|,))"
)


@dataclass(frozen=True, slots=True)
class Tok:
    kind: str  # num, str, name, op, end
    text: str
    pos: int


def tokenize(text: str) -> list[Tok]:
    """The tokens of ``text`` (at most :data:`MAX_TOKENS`); raises CardError saying where it fails."""
    if len(text) > MAX_TEXT:
        raise CardError(
            LANGUAGE_REFUSALS("refusal.commandments.card.too_long", max=MAX_TEXT, length=len(text))
        )
    toks: list[Tok] = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            char = text[pos:].lstrip()[:1]
            at = len(text) - len(text[pos:].lstrip())
            key = "refusal.commandments.card.character" + ("_digit" if char.isnumeric() else "")
            raise CardError(LANGUAGE_REFUSALS(key, char=repr(char), at=at))
        if len(toks) >= MAX_TOKENS:
            raise CardError(
                LANGUAGE_REFUSALS(
                    "refusal.commandments.card.too_many_tokens",
                    max=MAX_TOKENS,
                    at=m.start(m.lastgroup or "op"),
                )
            )
        kind = m.lastgroup or "op"
        raw = m.group(kind)
        start = m.start(kind)
        if kind == "str":
            raw = raw[1:-1]
        elif kind == "num" and (len(raw.lstrip("0")) > len(str(MAX_NUMBER)) or int(raw) > MAX_NUMBER):
            raise CardError(
                LANGUAGE_REFUSALS(
                    "refusal.commandments.card.big_number", max=MAX_NUMBER, at=start, digits=len(raw)
                )
            )
        toks.append(Tok(kind, raw, start))
        pos = m.end()
    toks.append(Tok("end", "", len(text)))
    return toks


# ------------------------------------------------------------------------------------------- parsing
@dataclass(frozen=True, slots=True)
class Node:
    """A parsed expression: an operator or a call with its arguments, a name, or a literal."""

    op: str  # "num", "str", "name", "call", or an operator
    value: str | int = ""
    args: tuple[Node, ...] = field(default=())
    pos: int = 0
    depth: int = field(default=1, compare=False)
    """1 for a leaf, else one more than the deepest argument."""


_CMP = ("==", "!=", "<", "<=", ">", ">=")


def _too_deep(pos: int) -> CardError:
    return CardError(LANGUAGE_REFUSALS("refusal.commandments.card.too_deep", max=MAX_DEPTH, at=pos))


class _Parser:
    """Recursive descent, with the nesting counted on the way down (:data:`MAX_DEPTH`): the Python
    stack it uses stays a few hundred frames whatever the text."""

    def __init__(self, text: str) -> None:
        self.toks = tokenize(text)
        self.i = 0
        self.level = 0

    def peek(self) -> Tok:
        return self.toks[self.i]

    def take(self) -> Tok:
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def expect(self, text: str) -> None:
        tok = self.take()
        if tok.text != text or tok.kind not in ("op", "name"):
            if not tok.text:
                raise CardError(
                    LANGUAGE_REFUSALS(
                        "refusal.commandments.card.expected_more", expected=repr(text), at=tok.pos
                    )
                )
            raise CardError(
                LANGUAGE_REFUSALS(
                    "refusal.commandments.card.expected",
                    expected=repr(text),
                    at=tok.pos,
                    found=repr(tok.text),
                )
            )

    def node(self, op: str, value: str | int, args: tuple[Node, ...], pos: int) -> Node:
        depth = 1 + max((a.depth for a in args), default=0)
        if depth > MAX_DEPTH:
            raise _too_deep(pos)
        return Node(op, value, args, pos, depth)

    def parse(self) -> Node:
        node = self.disj()
        tok = self.peek()
        if tok.kind != "end":
            raise CardError(
                LANGUAGE_REFUSALS("refusal.commandments.card.unexpected", found=repr(tok.text), at=tok.pos)
            )
        return node

    def _is_word(self, word: str) -> bool:
        tok = self.peek()
        return tok.kind == "name" and tok.text == word

    def disj(self) -> Node:
        """Every descent into brackets or call arguments passes here (and ``not`` in :meth:`neg`)."""
        self.level += 1
        if self.level > MAX_DEPTH:
            raise _too_deep(self.peek().pos)
        node = self.conj()
        while self._is_word("or"):
            pos = self.take().pos
            node = self.node("or", "", (node, self.conj()), pos)
        self.level -= 1
        return node

    def conj(self) -> Node:
        node = self.neg()
        while self._is_word("and"):
            pos = self.take().pos
            node = self.node("and", "", (node, self.neg()), pos)
        return node

    def neg(self) -> Node:
        if self._is_word("not"):
            pos = self.take().pos
            self.level += 1
            if self.level > MAX_DEPTH:
                raise _too_deep(pos)
            inner = self.neg()
            self.level -= 1
            return self.node("not", "", (inner,), pos)
        return self.cmp()

    def cmp(self) -> Node:
        node = self.sum()
        tok = self.peek()
        if tok.kind == "op" and tok.text in _CMP:
            self.take()
            node = self.node(tok.text, "", (node, self.sum()), tok.pos)
        return node

    def sum(self) -> Node:
        node = self.prod()
        while self.peek().kind == "op" and self.peek().text in ("+", "-"):
            tok = self.take()
            node = self.node(tok.text, "", (node, self.prod()), tok.pos)
        return node

    def prod(self) -> Node:
        node = self.atom()
        while self.peek().kind == "op" and self.peek().text == "*":
            tok = self.take()
            node = self.node("*", "", (node, self.atom()), tok.pos)
        return node

    def atom(self) -> Node:
        tok = self.take()
        if tok.kind == "num":
            return Node("num", int(tok.text), pos=tok.pos)
        if tok.kind == "str":
            return Node("str", tok.text, pos=tok.pos)
        if tok.kind == "name":
            if tok.text in ("and", "or", "not"):
                raise CardError(
                    LANGUAGE_REFUSALS(
                        "refusal.commandments.card.unexpected", found=repr(tok.text), at=tok.pos
                    )
                )
            if self.peek().kind == "op" and self.peek().text == "(":
                self.take()
                args: list[Node] = []
                if not (self.peek().kind == "op" and self.peek().text == ")"):
                    args.append(self.disj())
                    while self.peek().kind == "op" and self.peek().text == ",":
                        self.take()
                        args.append(self.disj())
                self.expect(")")
                return self.node("call", tok.text, tuple(args), tok.pos)
            return Node("name", tok.text, pos=tok.pos)
        if tok.kind == "op" and tok.text == "(":
            node = self.disj()
            self.expect(")")
            return node
        if not tok.text:
            raise CardError(LANGUAGE_REFUSALS("refusal.commandments.card.no_value_end", at=tok.pos))
        raise CardError(
            LANGUAGE_REFUSALS("refusal.commandments.card.no_value", at=tok.pos, found=repr(tok.text))
        )


def parse(text: str) -> Node:
    """The tree of an expression; raises CardError saying where it is malformed or too big (see the
    bounds in the module's documentation)."""
    if not isinstance(text, str) or not text.strip():
        raise CardError(LANGUAGE_REFUSALS("refusal.commandments.card.empty"))
    return _Parser(text).parse()


# ------------------------------------------------------------------------------------------- bounds
_WORD_COST: Final[dict[str, int]] = {"steps": 16, "out": 12, "words": 2, "silent": 2, "touches": 2}
"""Extra cost of the names that scan the path or the free words (every node costs 1)."""
_CALL_COST: Final[dict[tuple[str, int], int]] = {
    ("count", 1): 3,
    ("colours", 1): 8,
    ("total", 1): 22,
    ("total", 2): 18,
    ("via", 1): 12,
    ("mentions", 1): 20,
    ("min", 2): 2,
}
"""Extra cost of the calls that scan a board row, a kind of area, the path or the free words
(measured: one unit is about 50 ns of judging on the machine the bounds were chosen on)."""


def counting_nesting(node: Node) -> tuple[int, int]:
    """How deep the counting functions nest in ``node``, and where the innermost one is."""
    best = (0, node.pos)
    for arg in node.args:
        best = max(best, counting_nesting(arg), key=lambda x: x[0])
    if node.op == "call" and node.value in COUNTING:
        return best[0] + 1, best[1] if best[0] else node.pos
    return best


def estimate_cost(node: Node) -> int:
    """An upper bound of the work judging ``node`` takes, in units of about 50 ns (a closure call): one
    per node, a few more for the words that scan something, and for a counting function its inside
    twelve times (once per area), plus one per round."""
    return _cost(node, flat=False)


def _cost(node: Node, flat: bool) -> int:
    """``flat``: count a counting function inside as 1 (its own rounds are charged when it runs)."""
    if node.op == "name":
        return 1 + _WORD_COST.get(str(node.value), 0)
    if node.op != "call":
        return 1 + sum(_cost(a, flat) for a in node.args)
    name = str(node.value)
    if name in COUNTING:
        return 1 if flat else 1 + NUM_AREAS * _round_cost(node)
    return 1 + _CALL_COST.get((name, len(node.args)), 0) + sum(_cost(a, flat) for a in node.args)


def _round_cost(node: Node, flat: bool = False) -> int:
    """The cost of one round (one area) of a counting function."""
    return 1 + sum(_cost(a, flat) for a in node.args)


def check_bounds(node: Node) -> None:
    """Refuse (CardError) a tree whose counting functions nest too deep or that costs too much."""
    nesting, pos = counting_nesting(node)
    if nesting > MAX_COUNTING_NESTING:
        raise CardError(
            LANGUAGE_REFUSALS(
                "refusal.commandments.card.counting_nesting",
                max=MAX_COUNTING_NESTING,
                nesting=nesting,
                at=pos,
            )
        )
    cost = estimate_cost(node)
    if cost > MAX_COST:
        raise CardError(
            LANGUAGE_REFUSALS(
                "refusal.commandments.card.too_costly", cost=cost, max=MAX_COST, areas=NUM_AREAS
            )
        )


# ------------------------------------------------------------------------------- checking & compiling
# Types: "int", "bool", "area", "colour", "kind", "lit" (a quoted word not yet given a type).

BOARD_WORDS: Final = frozenset(
    {"colour", "from", "to", "area", "kind", "adjacent", "count", "colours", "total", "areas", "sum"}
    | {"max", "before"}
)
PERFORMANCE_WORDS: Final = frozenset(
    {"did", "said", "touched", "mentions", "silent", "gestures", "words", "via", "out", "steps"}
    | {"seconds", "touches"}
)


@dataclass(slots=True)
class _Checker:
    domain: str  # "board" or "performance"
    guarded: bool = True
    """Charge each counting function's rounds to :attr:`Ctx.steps` (see :data:`MAX_STEPS`)."""
    binding: int = 0
    used: set[str] = field(default_factory=set)

    def fail(self, node: Node, key: str, **params: Param) -> CardError:
        problem = LANGUAGE_REFUSALS(f"refusal.commandments.card.{key}", **params)
        return CardError(LANGUAGE_REFUSALS("refusal.commandments.card.at", problem=problem, at=node.pos))

    def word(self, node: Node, name: str) -> None:
        if name in BOARD_WORDS and self.domain != "board":
            raise self.fail(node, "board_word", word=repr(name))
        if name in PERFORMANCE_WORDS and self.domain != "performance":
            raise self.fail(node, "performance_word", word=repr(name))
        self.used.add(name)

    def coerce(self, node: Node, want: str, allow_outside: bool = False) -> Fn:
        """Compile ``node`` as a value of type ``want`` (literals are checked and converted)."""
        if node.op == "str" and want in ("area", "colour", "kind"):
            text = str(node.value)
            if want == "area":
                index = AREA_INDEX.get(text.upper())
                if index is None or (index == OUTSIDE and not allow_outside):
                    names = "C, H1-H5, T1-T5, R" + (", X" if allow_outside else "")
                    raise self.fail(node, "not_area", text=repr(text), areas=names)
                return _const(index)
            if want == "colour":
                colour = COLOUR_INDEX.get(text.lower())
                if colour is None:
                    raise self.fail(node, "not_colour", text=repr(text))
                return _const(colour)
            if text.lower() not in KINDS:
                raise self.fail(node, "not_kind", text=repr(text), kinds=", ".join(KINDS))
            return _const(KINDS.index(text.lower()))
        tp, fn = self.compile(node)
        if tp != want:
            raise self.fail(node, "wrong_type", wanted=_a(want), found=_a(tp))
        return fn

    def vocab(self, node: Node, words: tuple[str, ...], what: str) -> str:
        """``what``: ``gesture``, ``saying`` or ``touch``."""
        if node.op != "str":
            raise self.fail(node, f"quoted_{what}")
        text = str(node.value)
        if text not in words:
            raise self.fail(node, f"not_{what}", text=repr(text), words=", ".join(words))
        return text

    def arity(self, node: Node, *counts: int) -> None:
        given = len(node.args)
        if given not in counts:
            if len(counts) == 1:
                raise self.fail(node, "arity", name=str(node.value), expected=counts[0], given=given)
            raise self.fail(
                node, "arity_either", name=str(node.value), expected=counts[0], other=counts[1], given=given
            )

    def over_areas(self, node: Node, want: str) -> Fn:
        self.binding += 1
        try:
            return self.coerce(node, want)
        finally:
            self.binding -= 1

    def compile(self, node: Node) -> tuple[str, Fn]:
        op = node.op
        if op == "num":
            return "int", _const(int(node.value))
        if op == "str":
            return "lit", lambda c: node.value
        if op == "name":
            return self.name(node)
        if op == "call":
            return self.call(node)
        if op in ("and", "or"):
            left = self.coerce(node.args[0], "bool")
            right = self.coerce(node.args[1], "bool")
            if op == "and":
                return "bool", lambda c: left(c) and right(c)
            return "bool", lambda c: left(c) or right(c)
        if op == "not":
            inner = self.coerce(node.args[0], "bool")
            return "bool", lambda c: not inner(c)
        if op in ("+", "-", "*"):
            left = self.coerce(node.args[0], "int")
            right = self.coerce(node.args[1], "int")
            if op == "+":
                return "int", lambda c: left(c) + right(c)
            if op == "-":
                return "int", lambda c: left(c) - right(c)
            return "int", lambda c: left(c) * right(c)
        if op in ("<", "<=", ">", ">="):
            left = self.coerce(node.args[0], "int")
            right = self.coerce(node.args[1], "int")
            k = _CONST_VALUES.get(right)
            if k is not None:  # against a number: the cards' common case, one call fewer
                if op == "<":
                    return "bool", lambda c: left(c) < k
                if op == "<=":
                    return "bool", lambda c: left(c) <= k
                if op == ">":
                    return "bool", lambda c: left(c) > k
                return "bool", lambda c: left(c) >= k
            table: dict[str, Callable[[int, int], bool]] = {
                "<": int.__lt__,
                "<=": int.__le__,
                ">": int.__gt__,
                ">=": int.__ge__,
            }
            cmp = table[op]
            return "bool", lambda c: cmp(left(c), right(c))
        # == and !=
        a, b = node.args
        if a.op == "str" and b.op == "str":
            raise self.fail(node, "two_words")
        if a.op == "str":
            b_type, right = self.compile(b)
            left = self.coerce(a, b_type)
        else:
            a_type, left = self.compile(a)
            right = self.coerce(b, a_type)
        k = _CONST_VALUES.get(right)
        if k is not None:
            if op == "==":
                return "bool", lambda c: left(c) == k
            return "bool", lambda c: left(c) != k
        if op == "==":
            return "bool", lambda c: left(c) == right(c)
        return "bool", lambda c: left(c) != right(c)

    def name(self, node: Node) -> tuple[str, Fn]:
        name = str(node.value)
        self.word(node, name)
        if name == "colour":
            return "colour", lambda c: c.colour
        if name == "from":
            return "area", lambda c: c.frm
        if name == "to":
            return "area", lambda c: c.to
        if name == "area":
            if not self.binding:
                raise self.fail(node, "area_outside")
            return "area", _area
        if name == "silent":
            return "bool", lambda c: c.nwords == 0
        if name == "gestures":
            return "int", lambda c: len(c.gestures)
        if name == "touches":
            return "int", lambda c: len(c.touches)
        if name == "words":
            return "int", lambda c: c.nwords
        if name == "out":
            return "bool", lambda c: OUTSIDE in c.path
        if name == "steps":
            return "int", lambda c: sum(1 for a in c.path if a != OUTSIDE)
        if name == "seconds":
            return "int", lambda c: c.seconds
        raise self.fail(node, "unknown_word", word=repr(name))

    def call(self, node: Node) -> tuple[str, Fn]:
        name = str(node.value)
        self.word(node, name)
        args = node.args
        if name == "kind":
            self.arity(node, 1)
            a = self.coerce(args[0], "area")
            kind_index = tuple(KINDS.index(k) for k in KIND_OF)
            if a is _area:
                return "kind", lambda c: kind_index[c.area]
            return "kind", lambda c: kind_index[a(c)]
        if name == "adjacent":
            self.arity(node, 2)
            a = self.coerce(args[0], "area")
            b = self.coerce(args[1], "area")
            return "bool", lambda c: ADJACENT[a(c)][b(c)]
        if name == "count":
            self.arity(node, 1, 2)
            a = self.coerce(args[0], "area")
            if len(args) == 1:
                if a is _area:  # count(area) inside a counting function: the hot case
                    return "int", lambda c: sum(c.cur[c.area])
                return "int", lambda c: sum(c.cur[a(c)])
            col = self.coerce(args[1], "colour")
            fixed = _CONST_VALUES.get(col)
            if a is _area and fixed is not None:
                return "int", lambda c: c.cur[c.area][fixed]
            return "int", lambda c: c.cur[a(c)][col(c)]
        if name == "colours":
            self.arity(node, 1)
            a = self.coerce(args[0], "area")
            if a is _area:
                return "int", lambda c: _colours(c.cur[c.area])
            return "int", lambda c: _colours(c.cur[a(c)])
        if name == "total":
            self.arity(node, 1, 2)
            k = self.coerce(args[0], "kind")
            members = tuple(tuple(x for x in range(NUM_AREAS) if KIND_OF[x] == kind) for kind in KINDS)
            if len(args) == 1:
                return "int", lambda c: sum(sum(c.cur[x]) for x in members[k(c)])
            col = self.coerce(args[1], "colour")
            return "int", lambda c: sum(c.cur[x][col(c)] for x in members[k(c)])
        if name in COUNTING:
            if name == "areas":
                self.arity(node, 1)
                cond: Fn | None = self.over_areas(args[0], "bool")
                value: Fn | None = None
                how = "count"
            elif name == "max":
                self.arity(node, 1)
                cond, value, how = None, self.over_areas(args[0], "int"), "max"
            else:
                self.arity(node, 1, 2)
                cond = self.over_areas(args[0], "bool") if len(args) == 2 else None
                value, how = self.over_areas(args[-1], "int"), "sum"
            if not self.guarded:
                return "int", lambda c: _over(c, cond, value, how)
            charge = NUM_AREAS * _round_cost(node, flat=True)

            def guarded(c: Ctx) -> int:
                steps = c.steps + charge
                if steps > MAX_STEPS:
                    raise CardBudgetError(f"judging went past {MAX_STEPS} steps at {name}() (at {node.pos})")
                c.steps = steps
                return _over(c, cond, value, how)

            return "int", guarded
        if name == "before":
            self.arity(node, 1)
            tp, inner = self.compile(args[0])
            if tp == "lit":
                raise self.fail(node, "before_word")

            def before(c: Ctx) -> Any:
                saved = c.cur
                c.cur = c.before
                try:
                    return inner(c)
                finally:
                    c.cur = saved

            return tp, before
        if name == "did":
            self.arity(node, 1)
            g = self.vocab(args[0], GESTURES, "gesture")
            return "bool", lambda c: g in c.gestures
        if name == "said":
            self.arity(node, 1)
            s = self.vocab(args[0], SAYINGS, "saying")
            return "bool", lambda c: s in c.said
        if name == "touched":
            self.arity(node, 1)
            t = self.vocab(args[0], TOUCHES, "touch")
            return "bool", lambda c: t in c.touches
        if name == "mentions":
            self.arity(node, 1)
            if args[0].op != "str" or not str(args[0].value).strip():
                raise self.fail(node, "mentions_text")
            folded = " ".join(tokens(str(args[0].value)))
            if not folded:
                raise self.fail(node, "mentions_letters")
            needle = f" {folded} "
            return "bool", lambda c: needle in f" {c.folded} "
        if name == "via":
            self.arity(node, 1)
            a = self.coerce(args[0], "area", allow_outside=True)
            return "bool", lambda c: a(c) in c.path
        if name == "min":
            self.arity(node, 2)
            a = self.coerce(args[0], "int")
            b = self.coerce(args[1], "int")
            return "int", lambda c: min(a(c), b(c))
        raise self.fail(node, "unknown_function", name=repr(name))


_CONST_FNS: dict[int, Fn] = {}
_CONST_VALUES: dict[Fn, int] = {}
"""The constant functions by value and back (numbers, areas, colours, kinds: at most 10,000), so the
compiler can see a constant operand and leave its call out."""


def _const(value: int) -> Fn:
    fn = _CONST_FNS.get(value)
    if fn is None:

        def fn(c: Ctx) -> int:
            return value

        _CONST_FNS[value] = fn
        _CONST_VALUES[fn] = value
    return fn


def _area(c: Ctx) -> int:
    """The word ``area`` (the one function for it, so the compiler can recognise it)."""
    return c.area


def _colours(row: Sequence[int]) -> int:
    """How many colours a board row holds (its entries that are not 0)."""
    return len(row) - row.count(0)


_AREAS: Final = range(NUM_AREAS)


def _over(c: Ctx, cond: Fn | None, value: Fn | None, how: str) -> int:
    """``areas(cond)`` (how="count"), ``sum([cond,] value)`` or ``max(value)`` over the twelve areas,
    ``area`` bound to each in turn (one loop per kind: this is the cards' hot path)."""
    saved = c.area
    result = 0
    try:
        if how == "count":
            for area in _AREAS:
                c.area = area
                if cond is None or cond(c):
                    result += 1
        elif how == "sum":
            assert value is not None
            for area in _AREAS:
                c.area = area
                if cond is None or cond(c):
                    result += value(c)
        else:
            assert value is not None
            for area in _AREAS:
                c.area = area
                if cond is not None and not cond(c):
                    continue
                v = value(c)
                result = v if area == 0 or v > result else result
    finally:
        c.area = saved
    return result


# --------------------------------------------------------------------------- one function per board card
class _UnsupportedError(Exception):
    """The emitter does not write this expression (the closures judge it)."""


_KIND_INDEX: Final = tuple(KINDS.index(k) for k in KIND_OF)
_MEMBERS: Final = tuple(tuple(x for x in range(NUM_AREAS) if KIND_OF[x] == kind) for kind in KINDS)
_EMITTED_GLOBALS: Final[dict[str, Any]] = {
    "__builtins__": {"sum": sum, "max": max, "min": min},
    "ADJ": ADJACENT,
    "KIND": _KIND_INDEX,
    "MEMBERS": _MEMBERS,
    "R": _AREAS,
    "NEAR": tuple(itemgetter(*NEIGHBOURS[a]) for a in range(NUM_AREAS)),
    "colours": _colours,
    "T": CODE_TOTAL,
    "K": CODE_COLOURS,
    "N": CODE_COUNT,
    "N0": CODE_COUNT[0],
    "N1": CODE_COUNT[1],
    "N2": CODE_COUNT[2],
}


def _is_area(node: Node) -> bool:
    """Whether ``node`` is the area a counting function binds."""
    return node.op == "name" and node.value == "area"


def _conjuncts(node: Node) -> list[Node]:
    """The conditions that ``node``, a chain of ``and``, holds all of (itself for anything else)."""
    if node.op == "and":
        return _conjuncts(node.args[0]) + _conjuncts(node.args[1])
    return [node]


class _NotRowError(Exception):
    """Inside a counting function: the expression reads more than the row of the area it binds."""


@dataclass(slots=True)
class _Emitter:
    """A board card's expression as the source of one Python expression, the same computation as
    :class:`_Checker`'s closures without a call per node: ``A`` is the board looked at (``c.cur``),
    ``B`` the board before the move, ``colour``, ``frm`` and ``to`` the move's, ``a0``, ``a1``... the
    areas the counting functions bind. Only the
    text's numbers, and indices the checker's tables give, ever reach the source. Called on a tree the
    checker has compiled (so well typed)."""

    bound: int = 0
    board: str = "A"
    before: bool = False
    names: set[str] = field(default_factory=set)
    """The move's words the expression reads (``colour``, ``frm``, ``to``)."""
    codes: bool = False
    """Boards as :data:`~coven.games.commandments.board.Codes` (one code per area) instead of rows."""
    row: bool = False
    """Writing a function of ``r``, the code of the area a counting function binds, that reads nothing
    else of the board or the move (else :class:`_NotRowError`): its values on every code make a table."""
    tables: dict[str, bytes] = field(default_factory=dict)
    """The tables of the counting functions written as one ``bytes.translate`` (codes only)."""

    def coerce(self, node: Node, want: str) -> str:
        if node.op == "str" and want in ("area", "colour", "kind"):
            text = str(node.value)
            if want == "area":
                return str(AREA_INDEX[text.upper()])
            if want == "colour":
                return str(COLOUR_INDEX[text.lower()])
            return str(KINDS.index(text.lower()))
        tp, src = self.emit(node)
        if tp != want:
            raise _UnsupportedError(tp)
        return src

    def over(self, node: Node, want: str) -> str:
        self.bound += 1
        try:
            return self.coerce(node, want)
        finally:
            self.bound -= 1

    def emit(self, node: Node) -> tuple[str, str]:
        op = node.op
        args = node.args
        if op == "num":
            return "int", str(int(node.value))
        if op == "name":
            name = node.value
            if self.row:
                raise _NotRowError(name)
            if name == "colour":
                self.names.add("colour")
                return "colour", "colour"
            if name == "from":
                self.names.add("frm")
                return "area", "frm"
            if name == "to":
                self.names.add("to")
                return "area", "to"
            if name == "area" and self.bound:
                return "area", f"a{self.bound - 1}"
            raise _UnsupportedError(name)
        if op in ("and", "or"):
            return "bool", f"({self.coerce(args[0], 'bool')} {op} {self.coerce(args[1], 'bool')})"
        if op == "not":
            return "bool", f"(not {self.coerce(args[0], 'bool')})"
        if op in ("+", "-", "*"):
            return "int", f"({self.coerce(args[0], 'int')} {op} {self.coerce(args[1], 'int')})"
        if op in ("<", "<=", ">", ">="):
            return "bool", f"({self.coerce(args[0], 'int')} {op} {self.coerce(args[1], 'int')})"
        if op in ("==", "!="):
            a, b = args
            if a.op == "str":
                b_type, right = self.emit(b)
                left = self.coerce(a, b_type)
            else:
                a_type, left = self.emit(a)
                right = self.coerce(b, a_type)
            return "bool", f"({left} {op} {right})"
        if op == "call":
            return self.call(node)
        raise _UnsupportedError(op)

    def call(self, node: Node) -> tuple[str, str]:
        name = node.value
        args = node.args
        if self.codes:
            found = self.call_on_codes(node)
            if found is not None:
                return found
        cur = self.board
        if name == "kind" and len(args) == 1:
            return "kind", f"KIND[{self.coerce(args[0], 'area')}]"
        if name == "adjacent" and len(args) == 2:
            return "bool", f"ADJ[{self.coerce(args[0], 'area')}][{self.coerce(args[1], 'area')}]"
        if name == "count" and len(args) == 1:
            return "int", f"sum({cur}[{self.coerce(args[0], 'area')}])"
        if name == "count" and len(args) == 2:
            return "int", f"{cur}[{self.coerce(args[0], 'area')}][{self.coerce(args[1], 'colour')}]"
        if name == "colours" and len(args) == 1:
            return "int", f"colours({cur}[{self.coerce(args[0], 'area')}])"
        if name == "total" and len(args) == 1:
            return "int", f"sum([sum({cur}[x]) for x in MEMBERS[{self.coerce(args[0], 'kind')}]])"
        if name == "total" and len(args) == 2:
            kind, colour = self.coerce(args[0], "kind"), self.coerce(args[1], "colour")
            return "int", f"sum([{cur}[x][{colour}] for x in MEMBERS[{kind}]])"
        area = f"a{self.bound}"
        if name == "areas" and len(args) == 1:
            return "int", f"sum([1 for {area} in R if {self.over(args[0], 'bool')}])"
        if name == "max" and len(args) == 1:
            return "int", f"max([{self.over(args[0], 'int')} for {area} in R])"
        if name == "sum" and len(args) == 1:
            return "int", f"sum([{self.over(args[0], 'int')} for {area} in R])"
        if name == "sum" and len(args) == 2:
            cond = self.over(args[0], "bool")
            return "int", f"sum([{self.over(args[1], 'int')} for {area} in R if {cond}])"
        if name == "before" and len(args) == 1:
            self.board = "B"
            self.before = True
            try:
                return self.emit(args[0])
            finally:
                self.board = cur
        if name == "min" and len(args) == 2:
            return "int", f"min({self.coerce(args[0], 'int')}, {self.coerce(args[1], 'int')})"
        raise _UnsupportedError(name)

    def call_on_codes(self, node: Node) -> tuple[str, str] | None:
        """:meth:`call` on boards of codes: ``T``, ``K`` and ``N`` give an area's artefacts, colours and
        artefacts of a colour by its code; a counting function whose inside reads only the row of the
        area it binds is one ``bytes.translate`` of the board by a table (:meth:`row_table`). None for
        the words written as on rows (they read no row themselves)."""
        name = node.value
        args = node.args
        cur = self.board
        if self.row:
            if name in ("count", "colours") and args[0].op == "name" and args[0].value == "area":
                if name == "colours":
                    return "int", "K[r]"
                if len(args) == 1:
                    return "int", "T[r]"
                if args[1].op == "str":
                    return "int", f"N{self.coerce(args[1], 'colour')}[r]"
            if name != "min":
                raise _NotRowError(name)
        if name == "count" and len(args) == 1:
            return "int", f"T[{cur}[{self.coerce(args[0], 'area')}]]"
        if name == "count" and len(args) == 2:
            area, colour = self.coerce(args[0], "area"), self.coerce(args[1], "colour")
            counts = f"N{colour}" if colour.isdigit() else f"N[{colour}]"
            return "int", f"{counts}[{cur}[{area}]]"
        if name == "colours" and len(args) == 1:
            return "int", f"K[{cur}[{self.coerce(args[0], 'area')}]]"
        if name == "total" and len(args) in (1, 2):
            kind = self.coerce(args[0], "kind")
            colour = self.coerce(args[1], "colour") if len(args) == 2 else ""
            counts = "T" if not colour else f"N{colour}" if colour.isdigit() else f"N[{colour}]"
            if kind.isdigit():  # one term per area of that kind
                return "int", "(" + " + ".join(f"{counts}[{cur}[{x}]]" for x in _MEMBERS[int(kind)]) + ")"
            return "int", f"sum([{counts}[{cur}[x]] for x in MEMBERS[{kind}]])"
        if name in COUNTING:
            table = self.row_table(node)
            if table is not None:
                translated = f"{cur}.translate({table})"
                if name == "areas":
                    return "int", f"{translated}.count(1)"
                return "int", f"{name}({translated})"
            return self.over_picked(node)
        return None

    def over_picked(self, node: Node) -> tuple[str, str] | None:
        """``areas(cond)`` or ``sum(cond, n)`` whose condition is, or has as one of its conjuncts, a fact
        that picks some areas by who they are (:meth:`picked`: ``kind(area) == "hexagon"``,
        ``adjacent(area, to)``), the rest reading only the bound area's row: the rest's table
        (:meth:`row_table`, 1 for each area when nothing is left of ``areas``) on the translated board,
        summed over the picked areas only (a slice, or the neighbours' bytes), instead of a loop over
        the twelve areas. None otherwise."""
        name = node.value
        args = node.args
        if name == "max" or len(args) != (1 if name == "areas" else 2):
            return None
        terms = _conjuncts(args[0])
        for i, term in enumerate(terms):
            pick = self.picked(term)
            if pick is not None:
                rest = terms[:i] + terms[i + 1 :]
                break
        else:
            return None
        cond = rest[0] if rest else None
        for term in rest[1:]:
            cond = Node("and", "", (cond, term)) if cond is not None else term
        if name == "areas":
            inside = (cond,) if cond is not None else (Node("num", 1),)
            counted = Node("call", "areas" if cond is not None else "sum", inside)
        else:
            counted = Node("call", "sum", (args[1],) if cond is None else (cond, args[1]))
        table = self.row_table(counted)
        if table is None:
            return None
        return "int", pick.format(f"{self.board}.translate({table})")

    def picked(self, node: Node) -> str | None:
        """For a fact of the bound area alone that holds on some areas whatever the board
        (``kind(area) == K`` or ``adjacent(area, X)``, X the move's ``to`` or ``from`` or a named area),
        the sum of those areas' bytes of a board written ``{}``; None for anything else."""
        args = node.args
        if node.op == "==" and len(args) == 2:
            call, kind = args if args[1].op == "str" else args[::-1]
            if call.op == "call" and call.value == "kind" and _is_area(call.args[0]) and kind.op == "str":
                members = _MEMBERS[int(self.coerce(kind, "kind"))]
                if members == tuple(range(members[0], members[-1] + 1)):  # every kind's are in a row
                    return f"sum({{}}[{members[0]}:{members[-1] + 1}])"
        if node.op == "call" and node.value == "adjacent" and len(args) == 2:
            other = args[1] if _is_area(args[0]) else args[0] if _is_area(args[1]) else None
            if other is None or _is_area(other):
                return None
            named = other.op == "str" and int(self.coerce(other, "area")) < NUM_AREAS
            if named or (other.op == "name" and other.value in ("to", "from")):
                return f"sum(NEAR[{self.coerce(other, 'area')}]({{}}))"
        return None

    def row_table(self, node: Node) -> str | None:
        """A counting function over the areas whose inside reads only the bound area's row (no other
        area, nothing of the move, no counting function inside) as the name of a table of 256 bytes:
        what the inside gives on each code (``areas``: 1 or 0; ``sum(cond, n)``: n or 0). None when it
        reads more, or gives a number that is not a byte on some code."""
        name = node.value
        args = node.args
        inside = _Emitter(board="r", codes=True, row=True)
        try:
            if name == "areas":
                src = f"(1 if {inside.coerce(args[0], 'bool')} else 0)"
            elif len(args) == 1:
                src = inside.coerce(args[0], "int")
            else:
                src = f"({inside.coerce(args[1], 'int')} if {inside.coerce(args[0], 'bool')} else 0)"
        except (_NotRowError, _UnsupportedError):
            return None
        scope: dict[str, Any] = {}
        exec(
            compile(f"def on_code(r):\n    return {src}\n", "<row table>", "exec"),
            dict(_EMITTED_GLOBALS),
            scope,
        )
        values = [scope["on_code"](code) for code in range(NUM_CODES)]
        if not all(0 <= v <= 255 for v in values):
            return None
        table = f"X{len(self.tables)}"
        self.tables[table] = bytes(values) + bytes(256 - NUM_CODES)
        return table


BoardFn = Callable[[bytes | bytearray, bytes | bytearray, int, int, int], Any]
"""A board card's expression on ``(after, before, colour, from, to)``, the boards as
:data:`~coven.games.commandments.board.Codes`: what it gives on the :class:`Ctx` of that move
(:func:`board_function`)."""


def emit_board_card(node: Node) -> Fn | None:
    """A board card's expression (well typed: compiled by the checker) as one Python function, or None
    when the emitter does not write it. The same values as the closures (the tests check it); the
    same expression on boards of codes, without a :class:`Ctx`, is :func:`board_function` of it."""
    emitter = _Emitter()
    on_codes = _Emitter(codes=True)
    try:
        tp, src = emitter.emit(node)
        _, codes_src = on_codes.emit(node)
    except _UnsupportedError:
        return None
    if tp not in ("int", "bool"):
        return None
    reads = "".join(f"    {name} = c.{name}\n" for name in sorted(emitter.names))
    before = "    B = c.before\n" if emitter.before else ""
    code = (
        f"def judged(c):\n    A = c.cur\n{before}{reads}    return {src}\n"
        f"def on_board(A, B, colour, frm, to):\n    return {codes_src}\n"
    )
    scope: dict[str, Any] = {}
    exec(compile(code, "<board card>", "exec"), {**_EMITTED_GLOBALS, **on_codes.tables}, scope)
    scope["judged"].on_board = scope["on_board"]
    # its type and source on codes: karma_function (and counted_function, for a count) write from it
    scope["judged"].board_source = (tp, codes_src, on_codes.tables)
    fn: Fn = scope["judged"]
    return fn


def board_function(fn: Fn) -> BoardFn | None:
    """The function :func:`emit_board_card` wrote with ``fn``, judging on ``(after, before, colour,
    from, to)``, the boards as codes, without a :class:`Ctx` (``fn(ctx)`` is
    ``board_function(fn)(codes(ctx.after), codes(ctx.before), ctx.colour, ctx.frm, ctx.to)`` on a
    context whose ``cur`` is its ``after``); None for any other function."""
    found: BoardFn | None = getattr(fn, "on_board", None)
    return found


def counted_function(fn: Fn, cap: int) -> BoardFn | None:
    """For a count that :func:`emit_board_card` wrote (a "?" card's function): what the card earns by
    it on ``(after, before, colour, from, to)``, the boards as codes (the count from 0 to ``cap``, as
    :meth:`~coven.games.commandments.cards.Card.karma_of` takes it); None for any other function."""
    found: tuple[str, str, dict[str, bytes]] | None = getattr(fn, "board_source", None)
    if found is None or found[0] != "int":
        return None
    _, src, tables = found
    cap = int(cap)
    code = (
        f"def counted(A, B, colour, frm, to):\n    n = {src}\n"
        f"    return 0 if n <= 0 else n if n <= {cap} else {cap}\n"
    )
    scope: dict[str, Any] = {}
    exec(compile(code, "<board card>", "exec"), {**_EMITTED_GLOBALS, **tables}, scope)
    counted: BoardFn = scope["counted"]
    return counted


def karma_function(fn: Fn, value: int | None, cap: int) -> BoardFn | None:
    """For a board card that :func:`emit_board_card` wrote: the karma it gives on ``(after, before,
    colour, from, to)``, the boards as codes, as :meth:`~coven.games.commandments.cards.Card.judge`
    counts it (``value`` when its condition holds, else 0; a "?" card's count from 0 to ``cap``, see
    :func:`counted_function`); None for any other function. The rules' hot path calls it once per move
    and slot, with no test of the card's kind."""
    if value is None:
        return counted_function(fn, cap)
    found: tuple[str, str, dict[str, bytes]] | None = getattr(fn, "board_source", None)
    if found is None:
        return None
    _, src, tables = found
    code = f"def karma(A, B, colour, frm, to):\n    return {int(value)} if {src} else 0\n"
    scope: dict[str, Any] = {}
    exec(compile(code, "<board card>", "exec"), {**_EMITTED_GLOBALS, **tables}, scope)
    karma: BoardFn = scope["karma"]
    return karma


def packed_function(fn: Fn, value: int | None, cap: int, scale: int, bit: int) -> tuple[BoardFn, bool] | None:
    """For a board card that :func:`emit_board_card` wrote: its karma ``k`` on ``(after, before, colour,
    from, to)`` (as :func:`karma_function` gives it) packed for a slot as ``k * scale + bit`` when
    ``k > 0``, else 0 (the rules add up the slots of a move this way: see
    :func:`coven.games.commandments.rules.packed_slot`), and whether it reads the board before the move
    (``B``); None for any other function."""
    found: tuple[str, str, dict[str, bytes]] | None = getattr(fn, "board_source", None)
    if found is None:
        return None
    tp, src, tables = found
    if value is None:
        if tp != "int":
            return None
        cap = int(cap)
        code = (
            f"def packed(A, B, colour, frm, to):\n    n = {src}\n    if n <= 0:\n        return 0\n"
            f"    return (n if n <= {cap} else {cap}) * {int(scale)} + {int(bit)}\n"
        )
    else:
        packed_value = int(value) * int(scale) + int(bit)
        code = f"def packed(A, B, colour, frm, to):\n    return {packed_value} if {src} else 0\n"
    scope: dict[str, Any] = {}
    exec(compile(code, "<board card>", "exec"), {**_EMITTED_GLOBALS, **tables}, scope)
    packed: BoardFn = scope["packed"]
    return packed, re.search(r"\bB\b", src) is not None


def _a(tp: str) -> Message:
    """A type's name (``int``: "a number"), in words said in each language."""
    return LANGUAGE_REFUSALS(f"refusal.commandments.card.type.{tp}")


def compile_card_expr(text: str, domain: str, counting: bool, *, guarded: bool = True) -> Fn:
    """Compile a card's expression: a number for "?" cards (``counting``), else a condition.

    ``domain`` is "board" (artefact cards) or "performance" (action cards). Raises CardError when the
    text is malformed or past a bound (see the module's documentation). ``guarded`` (the default, and
    what every custom card gets) adds the run-time step budget: the function may then raise
    :class:`CardBudgetError`. The built-in deck is compiled unguarded.
    """
    node = parse(text)
    check_bounds(node)
    return compile_tree(node, domain, counting, guarded=guarded)


def compile_tree(node: Node, domain: str, counting: bool, *, guarded: bool = True) -> Fn:
    """Type-check and compile a parsed tree *without* :func:`check_bounds` (for tests of the run-time
    budget; cards go through :func:`compile_card_expr`)."""
    tp, fn = _Checker(domain, guarded).compile(node)
    want = "int" if counting else "bool"
    if tp != want:
        key = "refusal.commandments.card.must_count" if counting else "refusal.commandments.card.must_decide"
        raise CardError(LANGUAGE_REFUSALS(key, found=_a(tp)))
    if not guarded and domain == "board":
        fn = emit_board_card(node) or fn  # the built-in artefact cards: one function each
    if not guarded or counting_nesting(node)[0] == 0:
        return fn  # nothing repeats: the work is bounded by the size of the tree

    def judged(c: Ctx) -> Any:
        c.steps = 0
        return fn(c)

    return judged


__all__ = [
    "COLOURS",
    "COUNTING",
    "GESTURES",
    "MAX_COST",
    "MAX_COUNTING_NESTING",
    "MAX_DEPTH",
    "MAX_NUMBER",
    "MAX_STEPS",
    "MAX_TEXT",
    "MAX_TOKENS",
    "SAYINGS",
    "TOUCHES",
    "UPPER_BODY",
    "BoardFn",
    "CardBudgetError",
    "CardError",
    "Ctx",
    "Node",
    "board_function",
    "check_bounds",
    "compile_card_expr",
    "compile_tree",
    "counted_function",
    "counting_nesting",
    "emit_board_card",
    "estimate_cost",
    "parse",
    "tokenize",
]
