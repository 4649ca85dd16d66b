"""The counter-based chance source: reproducible, cheap to copy, written down whole, fair."""

from __future__ import annotations

import copy
import pickle
import random
from collections import Counter

import pytest

from coven.core.chance import _GOLDEN, BLOCK, COMPILED, Chance, _block, _halves, _mix, key_of


def test_same_seed_same_draws_and_a_copy_continues_identically() -> None:
    a, b = Chance(42), Chance(42)
    assert [a.bits64() for _ in range(5)] == [b.bits64() for _ in range(5)]
    clone = a.copy()
    assert clone == a and clone is not a
    assert [a.below(6) for _ in range(50)] == [clone.below(6) for _ in range(50)]
    deep = copy.deepcopy(a)
    assert deep == a and [deep.random() for _ in range(3)] == [a.random() for _ in range(3)]


def test_different_seeds_differ_and_big_or_negative_seeds_are_keys() -> None:
    sources = [Chance(seed) for seed in range(200)]
    draws = {tuple(source.below(1000) for _ in range(4)) for source in sources}
    assert len(draws) == 200
    assert key_of(5) == 5
    assert 0 <= key_of(2**200 + 3) < 2**64 and key_of(2**200 + 3) != key_of(3)
    assert 0 <= key_of(-1) < 2**64 and key_of(-1) != key_of(0)


def test_text_round_trip_carries_the_future() -> None:
    chance = Chance(2**63 + 12345)
    for _ in range(7):
        chance.bits64()
    text = chance.to_text()
    back = Chance.from_text(text)
    assert back == chance
    assert [back.randint(1, 6) for _ in range(20)] == [chance.randint(1, 6) for _ in range(20)]


BAD = ["", "12", ":3", "zz:1", "1:-1", "1:x", "1:²", "1" * 17 + ":0", "1:" + "9" * 21]


@pytest.mark.parametrize("bad", BAD)
def test_bad_chance_text_is_a_value_error(bad: str) -> None:
    with pytest.raises(ValueError):
        Chance.from_text(bad)


def test_dice_are_fair_and_shuffles_cover_all_orders() -> None:
    chance = Chance(1)
    faces = Counter(chance.randint(1, 6) for _ in range(60_000))
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert all(abs(n - 10_000) < 500 for n in faces.values())  # > 5 standard deviations apart
    orders = Counter()
    for _ in range(6000):
        deck = [0, 1, 2]
        chance.shuffle(deck)
        orders[tuple(deck)] += 1
    assert len(orders) == 6 and all(abs(n - 1000) < 200 for n in orders.values())
    picked = chance.sample(range(10), 4)
    assert len(set(picked)) == 4 and all(0 <= p < 10 for p in picked)
    floats = [chance.random() for _ in range(1000)]
    assert all(0.0 <= f < 1.0 for f in floats) and 0.45 < sum(floats) / 1000 < 0.55


def _plain(key: int, counter: int, draws: int) -> list[int]:
    """Draws ``counter + 1`` on of ``key`` by the SplitMix64 formula, one at a time (the plain path)."""
    mask, golden = (1 << 64) - 1, 0x9E3779B97F4A7C15
    out = []
    for n in range(counter + 1, counter + 1 + draws):
        z = (key + n * golden) & mask
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        out.append(z ^ (z >> 31))
    return out


@pytest.mark.parametrize(
    ("key", "counter"), [(0, 0), (42, 0), (2**64 - 1, 0), (2**63 + 12345, 7), (0x9E3779B97F4A7C15, 2**40)]
)
def test_cached_blocks_give_the_plain_draws(key: int, counter: int) -> None:
    """Blocks of draws mixed at once (lanes of one integer) equal the formula draw by draw, across block
    edges, after a copy (which shares the block) and after the counter is set from outside."""
    draws = 3 * BLOCK + 5
    plain = _plain(key, counter, draws)
    chance = Chance.at(key, counter)
    assert [chance.bits64() for _ in range(draws)] == plain
    chance = Chance.at(key, counter)
    assert [chance.below(1296) for _ in range(draws)] == [(z * 1296) >> 64 for z in plain]
    chance = Chance.at(key, counter)
    head = [chance.bits64() for _ in range(BLOCK // 2)]
    twin = chance.copy()
    assert head + [twin.bits64() for _ in range(draws - BLOCK // 2)] == plain
    chance.counter = counter  # back to the start, as a game's own inlined draws may move it
    assert [chance.bits64() for _ in range(draws)] == plain
    assert _block(key, counter + 1) == tuple(plain[:BLOCK])
    assert chance == Chance.at(key, counter + draws) and pickle.loads(pickle.dumps(chance)) == chance


def test_draws_mixed_on_halves_are_the_formula() -> None:
    """The draws compiled code mixes on 32-bit halves (see COMPILED) equal the formula, and so does
    ``below`` on them, at the ends of the keys, counters and bounds it takes."""
    rng = random.Random(7)
    keys = [0, 1, 2**32 - 1, 2**32, 2**63, 2**64 - 1, _GOLDEN] + [rng.getrandbits(64) for _ in range(60)]
    counters = [0, 1, 2, 2**32 - 1, 2**32, 2**62 - 2] + [rng.getrandbits(40) for _ in range(20)]
    sizes = [1, 2, 6, 36, 1296, 2**16 + 1, 2**30 - 1]
    for key in keys:
        for counter in counters:
            z = _mix(key, counter + 1)
            hi, lo = _halves(key >> 32, key & 0xFFFFFFFF, counter + 1)
            assert hi << 32 | lo == z, (key, counter)
            for n in sizes:
                assert Chance.at(key, counter).below(n) == (z * n) >> 64, (key, counter, n)
    # past the bounds of the halves' path (a huge bound or counter), below takes the blocks': the same
    for key, counter, n in [(5, 0, 2**32), (2**64 - 1, 2**62, 6), (3, 2**70, 1000)]:
        assert Chance.at(key, counter).below(n) == (_mix(key, counter + 1) * n) >> 64
    assert isinstance(COMPILED, bool)
