"""The lobby describes every bot level a game offers (random, beginner, casual, greedy, best, and the
reference and search bots where a game has them), where a seat's bot is chosen, in English and in
French."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_i18n import MISSING, french

pytestmark = pytest.mark.browser

LEVELS = ("random", "beginner", "casual", "greedy", "best")
# A word of each level's description, per language (the catalogue's own texts).
WORDS = {
    "en": {
        "random": "at random",
        "beginner": "gentle",
        "casual": "fair share",
        "greedy": "right now",
        "best": "strongest",
        "reference": "yardstick",
        "search": "tree search",
    },
    "fr": {
        "random": "au hasard",
        "beginner": "débutant",
        "casual": "sa part",
        "greedy": "tout de suite",
        "best": "plus fort",
        "reference": "étalon",
        "search": "recherche arborescente",
    },
}
OTHER = {"en": "another bot of this game", "fr": "un autre bot de ce jeu"}
# Each level's name in French (English names them by their ids).
NAMES: dict[str, dict[str, str]] = {
    "en": {},
    "fr": {
        "random": "hasard",
        "beginner": "débutant",
        "casual": "amateur",
        "greedy": "glouton",
        "best": "meilleur",
        "reference": "référence",
        "search": "recherche",
    },
}


def check_levels(page: Any, server: Any, lang: str) -> None:
    page.goto(server.base + "/")
    page.wait_for_selector("#create-table")
    for game in server.get("/api/games"):
        bots = game["bots"]
        assert set(LEVELS) <= set(bots), (game["id"], bots)
        page.select_option("#new-game", game["id"])
        page.select_option("#new-players", str(game["min_players"]))
        # Every level the game offers, described in the seats' box.
        described = page.eval_on_selector_all(
            "#bot-levels dd", "els => Object.fromEntries(els.map((e) => [e.dataset.bot, e.textContent]))"
        )
        assert sorted(described) == sorted(bots), game["id"]
        for bot, text in described.items():
            assert text.startswith(f"{NAMES[lang].get(bot, bot)} — "), text  # the level by its name
            # every bot the games offer has a description of its own (the catch-all is for bots to come)
            assert WORDS[lang][bot] in text, (bot, text)
            assert OTHER[lang] not in text, (bot, text)
        # Under the seat: the chosen bot's description, which follows the choice.
        for bot in bots:
            page.select_option("#seat-1-kind", f"bot:{bot}")
            assert page.inner_text("#seat-1-desc") == described[bot]
            assert page.get_attribute("#seat-1-kind", "aria-describedby") == "seat-1-desc"
        page.select_option("#seat-1-kind", "human")
        assert page.inner_text("#seat-1-desc") not in described.values()
        assert not page.evaluate(MISSING)


def test_the_lobby_describes_each_bot_level(server: Any, context: Any) -> None:
    check_levels(context.new_page(), server, "en")


def test_the_bot_levels_in_french(server: Any, browser: Any) -> None:
    with french(browser, "desktop") as ctx:
        check_levels(ctx.new_page(), server, "fr")
