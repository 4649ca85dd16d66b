"""Chance: every game draws from its state's own seeded source, never from the global generator.

:class:`Chance` is a counter-based generator: its whole state is two integers, a 64-bit key (from the
deal's seed) and the number of draws made so far. Draw ``n`` is a pure function of ``(key, n)`` (the
SplitMix64 finaliser applied to ``key + n * golden``), so

- cloning a game state copies two integers instead of a Mersenne Twister's 625 words (and a reference
  to the draws a source has mixed ahead, a cache that is no part of its state: see :class:`Chance`);
- a position written as text carries its future chance exactly (``key`` and ``counter``), so a game read
  back from its position rolls the same dice and deals the same cards as the original would have.

It is not a cryptographic generator: deals on the server are unpredictable because their *seeds* come
from the operating system's secure source, not because of this function. The first draws of nearby
keys are independent enough for games (SplitMix64 passes BigCrush as a stream; each key starts its own).

``random.Random`` stays where randomness is a bot's own (its ``rng``): a bot's choices are not game state.
"""

from __future__ import annotations

import random
import struct
import types
from collections.abc import MutableSequence, Sequence
from typing import TYPE_CHECKING, Final, TypeVar

if TYPE_CHECKING:
    # mypyc's 64-bit machine integer (no tag, no overflow check); a plain int when interpreted
    from mypy_extensions import i64

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB


def key_of(seed: int) -> int:
    """The 64-bit key of any integer seed: a seed below 2**64 is its own key; larger ones fold their
    higher 64-bit words in, negative ones are mixed from their complement."""
    seed = int(seed)
    if seed < 0:
        return _splitmix(key_of(~seed) ^ _GOLDEN)
    key = seed & _MASK
    seed >>= 64
    while seed:
        key = _splitmix(key ^ (seed & _MASK))
        seed >>= 64
    return key


def _splitmix(z: int) -> int:
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK
    return z ^ (z >> 31)


def _mix(key: int, counter: int) -> int:
    """Draw ``counter`` of ``key``, alone: the SplitMix64 finaliser of ``key + counter * golden``."""
    z = (key + counter * _GOLDEN) & _MASK
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK
    return z ^ (z >> 31)


COMPILED: Final = not isinstance(_mix, types.FunctionType)
"""Whether this module runs compiled (setup.py). Then a draw is mixed alone on its 32-bit halves
(:func:`_halves`), in the machine's integers, which costs less than any block of big-integer lanes;
interpreted, each of those small operations costs as much as one on a big integer, and blocks
(:func:`_block`) are the cheaper way. Either way the draws are the same: the formula's."""
_M32: Final = 0xFFFFFFFF
_GOLDEN_HI: Final = 0x9E3779B9
_GOLDEN_LO: Final = 0x7F4A7C15
_MIX1_HI: Final = 0xBF58476D
_MIX1_LO: Final = 0x1CE4E5B9
_MIX2_HI: Final = 0x94D049BB
_MIX2_LO: Final = 0x133111EB
"""The halves of the formula's constants (literals, folded into compiled code; asserted below)."""
assert (_GOLDEN_HI << 32 | _GOLDEN_LO, _MIX1_HI << 32 | _MIX1_LO, _MIX2_HI << 32 | _MIX2_LO) == (
    _GOLDEN,
    _MIX1,
    _MIX2,
)


def _times(hi: i64, lo: i64, by_hi: i64, by_lo: i64) -> tuple[i64, i64]:
    """``(hi * 2**32 + lo) * (by_hi * 2**32 + by_lo)`` modulo 2**64, as its high and low 32-bit halves,
    from products of at most 48 bits (a half times 16 bits of the other): nothing ever leaves a compiled
    module's machine integers."""
    lo0 = lo & 0xFFFF
    lo1 = lo >> 16
    upper = lo1 * by_lo
    low = lo0 * by_lo + ((upper & 0xFFFF) << 16)  # lo * by_lo is low + (upper >> 16) * 2**32
    high = (low >> 32) + (upper >> 16)
    high += (hi & 0xFFFF) * by_lo + (((hi >> 16) * by_lo & 0xFFFF) << 16)  # hi * by_lo, modulo 2**32
    high += lo0 * by_hi + ((lo1 * by_hi & 0xFFFF) << 16)  # lo * by_hi, modulo 2**32
    return high & _M32, low & _M32


def _halves(key_hi: i64, key_lo: i64, counter: int) -> tuple[i64, i64]:
    """Draw ``counter`` of the key whose halves are given, as its high and low 32-bit halves: exactly
    :func:`_mix`'s, step by step on the halves (:func:`_times` for the products)."""
    counter_hi: i64 = counter >> 32 & _M32
    counter_lo: i64 = counter & _M32
    step_hi, step_lo = _times(counter_hi, counter_lo, _GOLDEN_HI, _GOLDEN_LO)
    lo = key_lo + step_lo
    hi = (key_hi + step_hi + (lo >> 32)) & _M32
    lo &= _M32
    lo ^= (lo >> 30 | hi << 2) & _M32  # z ^= z >> 30 (the low half first: it reads the old high one)
    hi ^= hi >> 30
    hi, lo = _times(hi, lo, _MIX1_HI, _MIX1_LO)
    lo ^= (lo >> 27 | hi << 5) & _M32
    hi ^= hi >> 27
    hi, lo = _times(hi, lo, _MIX2_HI, _MIX2_LO)
    lo ^= (lo >> 31 | hi << 1) & _M32
    hi ^= hi >> 31
    return hi, lo


BLOCK = 32
"""Draws mixed at once (:func:`_block`)."""
_LANE = 128
"""Bits per draw in a block's integer: a 64-bit value times a 64-bit constant stays inside its lane."""
_LANES_ONE = sum(1 << (_LANE * i) for i in range(BLOCK))
"""1 in every lane: ``x * _LANES_ONE`` is x in every lane."""
_LANES_MASK = _MASK * _LANES_ONE
"""The low 64 bits of every lane."""
_LANES_STEP = sum((i * _GOLDEN) << (_LANE * i) for i in range(BLOCK))
"""``i * golden`` in lane i: the steps of the counter from a block's first draw."""
_BLOCK_BYTES = BLOCK * _LANE // 8
_LANE_WORDS = struct.Struct("<" + "Q8x" * BLOCK)
"""A block's little-endian bytes read back: the low 64-bit word of every lane."""
_NO_BLOCK = -2 * BLOCK
"""``_start`` of a source that holds no block (no counter is in range of it)."""


def _block(key: int, counter: int) -> tuple[int, ...]:
    """Draws ``counter`` to ``counter + BLOCK - 1`` of ``key``, each exactly :func:`_mix`'s: SplitMix64
    on all the lanes of one integer at once. Lane i starts as ``key + (counter + i) * golden`` (below
    2**64 after the mask); each step (an xor with a right shift, a product with a 64-bit constant) is
    masked back to the low 64 bits of every lane, so what a shift brings down from the next lane and
    what a product carries above bit 64 never reach another lane's bits. The lanes are read back as
    the low 64-bit words of the lanes of the integer's little-endian bytes (one ``struct`` unpack)."""
    lanes = _LANES_MASK
    z = (((key + counter * _GOLDEN) & _MASK) * _LANES_ONE + _LANES_STEP) & lanes
    z = (((z ^ (z >> 30)) & lanes) * _MIX1) & lanes
    z = (((z ^ (z >> 27)) & lanes) * _MIX2) & lanes
    z ^= z >> 31
    draws: tuple[int, ...] = _LANE_WORDS.unpack(z.to_bytes(_BLOCK_BYTES, "little"))
    return draws


class Chance:
    """A seed and a counter: draws are ``mix(key + counter * golden)``, cheap to copy and to write down.

    The generator's whole state is ``key`` (fixed for its life) and ``counter``. Its first draw is
    mixed alone; from the second on it keeps :data:`BLOCK` draws at a time, a cache that is no part of
    its state (equality, the hash, the text and the position ignore it; a copy shares it, as the draws
    of both are the same). A block is mixed all at once, each draw a 128-bit lane of one Python integer
    (see :func:`_block`), which costs a fraction of a draw's dozen big-integer operations one by one.
    """

    __slots__ = ("_block", "_hi", "_key", "_lo", "_start", "counter")

    def __init__(self, seed: int = 0, counter: int = 0) -> None:
        # a seed of 0 to 2**64-1 is its own key (key_of's first case, without the call: games start often)
        self._key = key = seed if type(seed) is int and 0 <= seed <= _MASK else key_of(seed)
        self.counter = counter
        self._block: tuple[int, ...] = ()
        self._start = _NO_BLOCK
        self._hi: i64 = key >> 32  # the key's halves, for draws mixed on halves (see COMPILED)
        self._lo: i64 = key & _M32

    @property
    def key(self) -> int:
        """The 64-bit key (read-only: the cached draws belong to it)."""
        return self._key

    @classmethod
    def at(cls, key: int, counter: int) -> Chance:
        """The generator with this exact ``key`` (as :attr:`key` gives it) after ``counter`` draws."""
        if not 0 <= key <= _MASK or counter < 0:
            raise ValueError("a chance key is 0 to 2**64-1 and its counter is not negative")
        return cls(key, counter)  # a key in range is its own seed (see __init__)

    def copy(self) -> Chance:
        chance = Chance(self._key, self.counter)
        chance._block = self._block
        chance._start = self._start
        return chance

    def __copy__(self) -> Chance:
        return self.copy()

    def __deepcopy__(self, memo: object) -> Chance:
        return self.copy()

    def __reduce__(self) -> tuple[object, tuple[int, int]]:
        return (Chance.at, (self._key, self.counter))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Chance) and (self._key, self.counter) == (other._key, other.counter)

    def __hash__(self) -> int:
        return hash((self._key, self.counter))

    def __repr__(self) -> str:
        return f"Chance.at({self._key:#x}, {self.counter})"

    def to_text(self) -> str:
        """``key:counter`` in hexadecimal and decimal: the generator's whole state (see :meth:`from_text`)."""
        return f"{self._key:x}:{self.counter}"

    @classmethod
    def from_text(cls, text: str) -> Chance:
        key, sep, counter = text.partition(":")
        if (
            not sep
            or not key
            or not counter.isascii()
            or not counter.isdigit()
            or len(key) > 16
            or len(counter) > 20
            or any(c not in "0123456789abcdef" for c in key)
        ):
            raise ValueError(f"a chance is written 'key:counter' (hexadecimal key), not {text[:40]!r}")
        return cls.at(int(key, 16), int(counter))

    # ---------------------------------------------------------------- draws
    def _miss(self, counter: int) -> int:
        """Draw ``counter`` (not the first) when the cache does not hold it: with the :data:`BLOCK` draws
        from it on, kept for the draws that follow."""
        self._block = block = _block(self._key, counter)
        self._start = counter
        return block[0]

    def bits64(self) -> int:
        """The next 64 random bits: ``mix(key + counter * golden)`` after the counter's step."""
        self.counter = counter = self.counter + 1
        i = counter - self._start
        if 0 <= i < BLOCK:
            return self._block[i]
        if counter == 1:  # a source's first draw alone (Amulets draws nothing else: a block is waste)
            return _mix(self._key, 1)
        return self._miss(counter)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` for ``1 <= n <= 2**32`` (Lemire's multiply-shift: the bias is
        at most ``n / 2**64``, far below anything a game could show)."""
        if n <= 0:
            raise ValueError("below(n) needs n >= 1")
        self.counter = counter = self.counter + 1  # bits64, inlined: this is the games' hot path
        if COMPILED and n < 0x40000000 and counter <= 0x3FFFFFFFFFFFFFFF:
            # the draw on its halves (see COMPILED); hi * n stays below 2**62
            hi, lo = _halves(self._hi, self._lo, counter)
            size: i64 = n
            return (hi * size + (lo * size >> 32)) >> 32
        i = counter - self._start
        if 0 <= i < BLOCK:
            return (self._block[i] * n) >> 64
        if counter == 1:  # a source's first draw alone, _mix inlined (games start often)
            z = (self._key + _GOLDEN) & _MASK
            z = ((z ^ (z >> 30)) * _MIX1) & _MASK
            z = ((z ^ (z >> 27)) * _MIX2) & _MASK
            return ((z ^ (z >> 31)) * n) >> 64
        return (self._miss(counter) * n) >> 64

    def randrange(self, start: int, stop: int | None = None) -> int:
        if stop is None:
            return self.below(start)
        return start + self.below(stop - start)

    def randint(self, a: int, b: int) -> int:
        """A uniform integer in ``[a, b]``, both included (a die: ``randint(1, 6)``)."""
        return a + self.below(b - a + 1)

    def random(self) -> float:
        """A uniform float in ``[0, 1)`` with 53 random bits."""
        return (self.bits64() >> 11) * (1.0 / (1 << 53))

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.below(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Fisher-Yates in place."""
        for i in range(len(seq) - 1, 0, -1):
            j = self.below(i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def sample(self, population: Sequence[T], k: int) -> list[T]:
        """``k`` distinct elements in random order (a partial Fisher-Yates)."""
        pool = list(population)
        if not 0 <= k <= len(pool):
            raise ValueError("sample larger than population")
        n = len(pool)
        for i in range(k):
            j = i + self.below(n - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]


def fresh(rng: random.Random) -> Chance:
    """A new chance source drawn from a bot's (or a sampler's) generator: for a sampled world, whose
    future must be unknown to whoever sampled it."""
    return Chance.at(rng.getrandbits(64), 0)


def copy_rng(rng: random.Random) -> random.Random:
    """An independent ``random.Random`` in the same position (bots' generators only)."""
    copy = random.Random()
    copy.setstate(rng.getstate())
    return copy
