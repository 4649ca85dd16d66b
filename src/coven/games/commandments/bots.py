"""Bots."""

from __future__ import annotations

from typing import Final

from coven.core import BotFactory, RandomBot

BOTS: Final[dict[str, BotFactory]] = {"random": RandomBot}
