"""Chance: every game draws from a seeded ``random.Random`` held in its state, never the global one."""

from __future__ import annotations

import random


def copy_rng(rng: random.Random) -> random.Random:
    """An independent generator in the same position: a clone's future draws equal the original's."""
    copy = random.Random()
    copy.setstate(rng.getstate())
    return copy
