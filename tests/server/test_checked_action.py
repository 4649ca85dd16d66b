"""The server's reading of a sent action: the notation round trip, read once when it can be."""

from __future__ import annotations

from itertools import islice
from typing import Any

import pytest

from coven.core import GameError
from coven.games import REGISTRY
from coven.server.tables import checked_action, checked_text_action, parse_action_json


class Counted:
    """A game's notation with aliases (``"a1"`` for ``"A1"``) and a lossy writer (``B1`` and ``B2`` are
    both written ``"B"``), counting its readings."""

    def __init__(self) -> None:
        self.readings = 0

    def parse_action(self, text: str) -> tuple[str, int]:
        self.readings += 1
        letter, digits = text[:1].upper(), text[1:]
        if letter not in {"A", "B"}:
            raise GameError(f"no action {text!r}")
        return (letter, int(digits) if digits else 1)

    def format_action(self, action: tuple[str, int]) -> str:
        letter, number = action
        return letter if letter == "B" else f"{letter}{number}"


def read(game: Any, text: str) -> object:
    return checked_text_action(text)(game)


def test_an_action_sent_in_its_own_notation_is_read_once() -> None:
    game = Counted()
    assert read(game, "A3") == ("A", 3)
    assert game.readings == 1


def test_an_alias_is_read_back_from_the_notation_and_kept() -> None:
    game = Counted()
    assert read(game, "a3") == ("A", 3)
    assert game.readings == 2  # "a3" is written "A3": that text is read too


def test_an_action_the_notation_cannot_write_is_refused() -> None:
    game = Counted()
    with pytest.raises(GameError, match="no notation"):
        read(game, "B2")  # written "B", which reads as B1
    assert read(game, "B") == ("B", 1)  # the text it is written as: the round trip holds


def test_a_json_action_is_always_read_back() -> None:
    game = Counted()
    source = checked_action(lambda g: g.parse_action("A7"))
    assert source(game) == ("A", 7)
    assert game.readings == 2  # no text to compare with: the written notation is read


@pytest.mark.parametrize("game_id", sorted(REGISTRY.ids()))
def test_every_games_legal_actions_pass_in_their_notation(game_id: str) -> None:
    game = REGISTRY.get(game_id)
    players = game.spec.player_counts[0]
    state = game.new_game(players, None, 5)
    seen = 0
    while not game.is_over(state) and seen < 200:
        seat = min(game.to_act(state))
        for action in islice(game.legal_actions(state, seat), 10):  # a legal list may be lazy and long
            text = game.format_action(action)
            assert checked_text_action(text)(game) == action
            assert checked_action(parse_action_json(game.action_to_json(action)))(game) == action
        game.apply_unchecked(state, seat, game.legal_actions(state, seat)[0])
        seen += 1
