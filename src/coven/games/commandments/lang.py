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

Performance words (action cards): ``did(gesture)``, ``said(word)``, ``touched(what)``,
``mentions("text")`` (in the free words, any case), ``silent`` (nothing said at all), ``gestures``
(how many), ``words`` (free words counted), ``via(area)`` (the path passes over it; "X" = out of the
circle), ``out`` (= via("X")), ``steps`` (areas of the circle the path passes over), ``seconds``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from coven.games.commandments.board import (
    ADJACENT,
    AREA_INDEX,
    COLOUR_INDEX,
    COLOURS,
    KIND_OF,
    KINDS,
    NUM_AREAS,
    OUTSIDE,
)

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

SAYINGS: Final[tuple[str, ...]] = (
    "permission",
    "thanks",
    "offend",
    "animal",
    "curse",
    "colour",
    "artefact",
    "compliment",
)
"""Kinds of things said: ask the High Priestess for permission, thank her, offend a novice, call her
an animal's name, curse, name a colour, talk to the artefact, compliment her."""

TOUCHES: Final[tuple[str, ...]] = ("hp", "hp_art", "novice", "artefact")
"""Touching the High Priestess (by hand), the High Priestess with the moved artefact, another novice,
another artefact."""

UPPER_BODY: Final[frozenset[str]] = frozenset(
    {"stand", "dance", "bow", "kneel", "clap", "macho", "pray", "wave", "jump", "stretch"}
)


class CardError(ValueError):
    """A card's expression or definition is malformed; the message says where and why."""


class Ctx:
    """What a card is judged on. ``cur`` is the board being looked at (after the move, or before)."""

    __slots__ = (
        "after",
        "area",
        "before",
        "colour",
        "cur",
        "frm",
        "gestures",
        "path",
        "said",
        "seconds",
        "to",
        "touches",
        "words",
    )

    def __init__(
        self,
        colour: int,
        frm: int,
        to: int,
        before: list[list[int]],
        after: list[list[int]],
        gestures: frozenset[str] = frozenset(),
        said: frozenset[str] = frozenset(),
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
        self.said = said
        self.touches = touches
        self.words = words
        self.path = path
        self.seconds = seconds
        self.area = 0


Fn = Callable[[Ctx], Any]

# -------------------------------------------------------------------------------------------- lexing
_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+)|(?P<str>\"[^\"]*\"|'[^']*')|(?P<name>[A-Za-z_][A-Za-z_0-9]*)"
    r"|(?P<op>==|!=|<=|>=|<|>|\+|-|\*|\(|\)|,))"
)


@dataclass(frozen=True, slots=True)
class Tok:
    kind: str  # num, str, name, op, end
    text: str
    pos: int


def tokenize(text: str) -> list[Tok]:
    toks: list[Tok] = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise CardError(f"unexpected character {text[pos:].lstrip()[:1]!r} at {pos}")
        kind = m.lastgroup or "op"
        raw = m.group(kind)
        start = m.start(kind)
        if kind == "str":
            raw = raw[1:-1]
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


_CMP = ("==", "!=", "<", "<=", ">", ">=")


class _Parser:
    def __init__(self, text: str) -> None:
        self.toks = tokenize(text)
        self.i = 0

    def peek(self) -> Tok:
        return self.toks[self.i]

    def take(self) -> Tok:
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def expect(self, text: str) -> None:
        tok = self.take()
        if tok.text != text or tok.kind not in ("op", "name"):
            found = tok.text or "the end"
            raise CardError(f"expected {text!r} at {tok.pos}, found {found!r}")

    def parse(self) -> Node:
        node = self.disj()
        tok = self.peek()
        if tok.kind != "end":
            raise CardError(f"unexpected {tok.text!r} at {tok.pos}")
        return node

    def _is_word(self, word: str) -> bool:
        tok = self.peek()
        return tok.kind == "name" and tok.text == word

    def disj(self) -> Node:
        node = self.conj()
        while self._is_word("or"):
            pos = self.take().pos
            node = Node("or", args=(node, self.conj()), pos=pos)
        return node

    def conj(self) -> Node:
        node = self.neg()
        while self._is_word("and"):
            pos = self.take().pos
            node = Node("and", args=(node, self.neg()), pos=pos)
        return node

    def neg(self) -> Node:
        if self._is_word("not"):
            pos = self.take().pos
            return Node("not", args=(self.neg(),), pos=pos)
        return self.cmp()

    def cmp(self) -> Node:
        node = self.sum()
        tok = self.peek()
        if tok.kind == "op" and tok.text in _CMP:
            self.take()
            node = Node(tok.text, args=(node, self.sum()), pos=tok.pos)
        return node

    def sum(self) -> Node:
        node = self.prod()
        while self.peek().kind == "op" and self.peek().text in ("+", "-"):
            tok = self.take()
            node = Node(tok.text, args=(node, self.prod()), pos=tok.pos)
        return node

    def prod(self) -> Node:
        node = self.atom()
        while self.peek().kind == "op" and self.peek().text == "*":
            tok = self.take()
            node = Node("*", args=(node, self.atom()), pos=tok.pos)
        return node

    def atom(self) -> Node:
        tok = self.take()
        if tok.kind == "num":
            return Node("num", int(tok.text), pos=tok.pos)
        if tok.kind == "str":
            return Node("str", tok.text, pos=tok.pos)
        if tok.kind == "name":
            if tok.text in ("and", "or", "not"):
                raise CardError(f"unexpected {tok.text!r} at {tok.pos}")
            if self.peek().kind == "op" and self.peek().text == "(":
                self.take()
                args: list[Node] = []
                if not (self.peek().kind == "op" and self.peek().text == ")"):
                    args.append(self.disj())
                    while self.peek().kind == "op" and self.peek().text == ",":
                        self.take()
                        args.append(self.disj())
                self.expect(")")
                return Node("call", tok.text, tuple(args), tok.pos)
            return Node("name", tok.text, pos=tok.pos)
        if tok.kind == "op" and tok.text == "(":
            node = self.disj()
            self.expect(")")
            return node
        found = tok.text or "the end"
        raise CardError(f"expected a value at {tok.pos}, found {found!r}")


def parse(text: str) -> Node:
    """The tree of an expression; raises CardError saying where it is malformed."""
    if not isinstance(text, str) or not text.strip():
        raise CardError("the expression is empty")
    if len(text) > 400:
        raise CardError("the expression is longer than 400 characters")
    return _Parser(text).parse()


# ------------------------------------------------------------------------------- checking & compiling
# Types: "int", "bool", "area", "colour", "kind", "lit" (a quoted word not yet given a type).

BOARD_WORDS: Final = frozenset(
    {"colour", "from", "to", "area", "kind", "adjacent", "count", "colours", "total", "areas", "sum"}
    | {"max", "before"}
)
PERFORMANCE_WORDS: Final = frozenset(
    {"did", "said", "touched", "mentions", "silent", "gestures", "words", "via", "out", "steps"} | {"seconds"}
)


@dataclass(slots=True)
class _Checker:
    domain: str  # "board" or "performance"
    binding: int = 0
    used: set[str] = field(default_factory=set)

    def fail(self, node: Node, message: str) -> CardError:
        return CardError(f"{message} (at {node.pos})")

    def word(self, node: Node, name: str) -> None:
        if name in BOARD_WORDS and self.domain != "board":
            raise self.fail(node, f"{name!r} looks at the board: only artefact cards may use it")
        if name in PERFORMANCE_WORDS and self.domain != "performance":
            raise self.fail(node, f"{name!r} looks at the performance: only action cards may use it")
        self.used.add(name)

    def coerce(self, node: Node, want: str, allow_outside: bool = False) -> Fn:
        """Compile ``node`` as a value of type ``want`` (literals are checked and converted)."""
        if node.op == "str" and want in ("area", "colour", "kind"):
            text = str(node.value)
            if want == "area":
                index = AREA_INDEX.get(text.upper())
                if index is None or (index == OUTSIDE and not allow_outside):
                    names = "C, H1-H5, T1-T5, R" + (", X" if allow_outside else "")
                    raise self.fail(node, f"{text!r} is not an area ({names})")
                return _const(index)
            if want == "colour":
                colour = COLOUR_INDEX.get(text.lower())
                if colour is None:
                    raise self.fail(node, f"{text!r} is not a colour (white, black, brown)")
                return _const(colour)
            if text.lower() not in KINDS:
                raise self.fail(node, f"{text!r} is not a kind of area ({', '.join(KINDS)})")
            return _const(KINDS.index(text.lower()))
        tp, fn = self.compile(node)
        if tp != want:
            raise self.fail(node, f"expected {_a(want)} here, found {_a(tp)}")
        return fn

    def vocab(self, node: Node, words: tuple[str, ...], what: str) -> str:
        if node.op != "str":
            raise self.fail(node, f"{what} must be a quoted word")
        text = str(node.value)
        if text not in words:
            raise self.fail(node, f"{text!r} is not a {what} ({', '.join(words)})")
        return text

    def arity(self, node: Node, *counts: int) -> None:
        if len(node.args) not in counts:
            expected = " or ".join(str(c) for c in counts)
            raise self.fail(node, f"{node.value}() takes {expected} argument(s), not {len(node.args)}")

    def over_areas(self, node: Node, want: str) -> Fn:
        self.binding += 1
        try:
            return self.coerce(node, want)
        finally:
            self.binding -= 1

    def compile(self, node: Node) -> tuple[str, Fn]:
        op = node.op
        if op == "num":
            value = int(node.value)
            return "int", lambda c: value
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
            raise self.fail(node, "comparing two quoted words is always the same; compare a value")
        if a.op == "str":
            b_type, right = self.compile(b)
            left = self.coerce(a, b_type)
        else:
            a_type, left = self.compile(a)
            right = self.coerce(b, a_type)
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
                raise self.fail(node, "'area' only means something inside areas(), sum() or max()")
            return "area", lambda c: c.area
        if name == "silent":
            return "bool", lambda c: not c.said and not c.words.strip()
        if name == "gestures":
            return "int", lambda c: len(c.gestures)
        if name == "words":
            return "int", lambda c: len(c.words.split())
        if name == "out":
            return "bool", lambda c: OUTSIDE in c.path
        if name == "steps":
            return "int", lambda c: sum(1 for a in c.path if a != OUTSIDE)
        if name == "seconds":
            return "int", lambda c: c.seconds
        raise self.fail(node, f"unknown word {name!r}")

    def call(self, node: Node) -> tuple[str, Fn]:
        name = str(node.value)
        self.word(node, name)
        args = node.args
        if name == "kind":
            self.arity(node, 1)
            a = self.coerce(args[0], "area")
            kind_index = tuple(KINDS.index(k) for k in KIND_OF)
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
                return "int", lambda c: sum(c.cur[a(c)])
            col = self.coerce(args[1], "colour")
            return "int", lambda c: c.cur[a(c)][col(c)]
        if name == "colours":
            self.arity(node, 1)
            a = self.coerce(args[0], "area")
            return "int", lambda c: sum(1 for n in c.cur[a(c)] if n)
        if name == "total":
            self.arity(node, 1, 2)
            k = self.coerce(args[0], "kind")
            members = tuple(tuple(x for x in range(NUM_AREAS) if KIND_OF[x] == kind) for kind in KINDS)
            if len(args) == 1:
                return "int", lambda c: sum(sum(c.cur[x]) for x in members[k(c)])
            col = self.coerce(args[1], "colour")
            return "int", lambda c: sum(c.cur[x][col(c)] for x in members[k(c)])
        if name in ("areas", "sum", "max"):
            if name == "areas":
                self.arity(node, 1)
                cond = self.over_areas(args[0], "bool")
                return "int", lambda c: _over(c, cond, None, "count")
            if name == "max":
                self.arity(node, 1)
                value = self.over_areas(args[0], "int")
                return "int", lambda c: _over(c, None, value, "max")
            self.arity(node, 1, 2)
            if len(args) == 1:
                value = self.over_areas(args[0], "int")
                return "int", lambda c: _over(c, None, value, "sum")
            cond = self.over_areas(args[0], "bool")
            value = self.over_areas(args[1], "int")
            return "int", lambda c: _over(c, cond, value, "sum")
        if name == "before":
            self.arity(node, 1)
            tp, inner = self.compile(args[0])
            if tp == "lit":
                raise self.fail(node, "before() of a quoted word means nothing")

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
            s = self.vocab(args[0], SAYINGS, "thing said")
            return "bool", lambda c: s in c.said
        if name == "touched":
            self.arity(node, 1)
            t = self.vocab(args[0], TOUCHES, "touch")
            return "bool", lambda c: t in c.touches
        if name == "mentions":
            self.arity(node, 1)
            if args[0].op != "str" or not str(args[0].value).strip():
                raise self.fail(node, "mentions() takes a quoted, non-empty text")
            needle = str(args[0].value).lower()
            return "bool", lambda c: needle in c.words.lower()
        if name == "via":
            self.arity(node, 1)
            a = self.coerce(args[0], "area", allow_outside=True)
            return "bool", lambda c: a(c) in c.path
        raise self.fail(node, f"unknown function {name!r}")


def _const(value: int) -> Fn:
    return lambda c: value


def _over(c: Ctx, cond: Fn | None, value: Fn | None, how: str) -> int:
    saved = c.area
    result = 0
    try:
        for area in range(NUM_AREAS):
            c.area = area
            if cond is not None and not cond(c):
                continue
            if how == "count":
                result += 1
            elif how == "sum":
                assert value is not None
                result += value(c)
            else:
                assert value is not None
                v = value(c)
                result = v if area == 0 or v > result else result
    finally:
        c.area = saved
    return result


def _a(tp: str) -> str:
    return {
        "int": "a number",
        "bool": "a condition",
        "area": "an area",
        "colour": "a colour",
        "kind": "a kind of area",
        "lit": "a quoted word",
    }[tp]


def compile_card_expr(text: str, domain: str, counting: bool) -> Fn:
    """Compile a card's expression: a number for "?" cards (``counting``), else a condition.

    ``domain`` is "board" (artefact cards) or "performance" (action cards).
    """
    node = parse(text)
    tp, fn = _Checker(domain).compile(node)
    want = "int" if counting else "bool"
    if tp != want:
        what = "a number (it is a '?' card)" if counting else "a condition (it has a fixed value)"
        raise CardError(f"the expression must give {what}, not {_a(tp)}")
    return fn


__all__ = [
    "COLOURS",
    "GESTURES",
    "SAYINGS",
    "TOUCHES",
    "UPPER_BODY",
    "CardError",
    "Ctx",
    "Node",
    "compile_card_expr",
    "parse",
    "tokenize",
]
