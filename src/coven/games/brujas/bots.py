"""Bots."""

from __future__ import annotations

from coven.core.bot import BotFactory, RandomBot

BOTS: dict[str, BotFactory] = {"random": RandomBot, "greedy": RandomBot, "best": RandomBot}
