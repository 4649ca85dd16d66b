"""Namaste bots: legal, sensible in plain positions, and best ahead of greedy."""

from __future__ import annotations

from coven.bots.arena import run_tournament
from coven.games.namaste import GAME, PASS, Roll, Write
from coven.games.namaste.sheet import CELLS, parse_cell

EMPTY = ". / . . . / . . . . . / . . . . . . . / . . . . . / . . . / ."


def _best(seat: int) -> object:
    return GAME.bots()["best"](GAME, seat, 1)


def _decide(bot_name: str, state: object, seat: int) -> object:
    bot = GAME.bots()[bot_name](GAME, seat, 1)
    legal = GAME.legal_actions(state, seat)  # type: ignore[arg-type]
    action = bot.act(GAME.view(state, seat), legal, True)  # type: ignore[arg-type]
    assert action in legal
    return action


def test_best_keeps_a_small_total_out_of_the_bottom_right() -> None:
    state = GAME.position([EMPTY, EMPTY], active=1, dice="1/7 + 5")  # seat 0 may write 1 or 7
    action = _decide("best", state, 0)
    assert action is PASS or (isinstance(action, Write) and sum(CELLS[action.cell]) <= 7)


def test_best_completes_a_line_in_the_last_round() -> None:
    # 9 in b5 scores row b's 7; the free truth circles would give only 5 (g4, d7 halve it).
    sheet = "1 / 5 7 . / . . . . . / 2 . . . . . . / . . . . . / . . . / ."
    state = GAME.position([sheet, EMPTY], active=1, dice="4 5 + 2")  # 9 for seat 0
    state.ending = True  # somebody filled their sheet: this is the last round
    assert _decide("best", state, 0) == Write(9, parse_cell("b5"))


def test_best_may_wait_for_a_better_value_early_in_the_game() -> None:
    sheet = ". / 5 7 . / . . . . . / . . . . . . . / . . . . . / . . . / ."
    state = GAME.position([sheet, EMPTY], active=1, dice="6 6 + 2")  # 12 for seat 0 (b5: tight column)
    action = _decide("best", state, 0)
    assert action != Write(12, parse_cell("b5"))


def test_best_rolls_many_dice_when_only_high_circles_are_left() -> None:
    sheet = "1 / 2 3 4 / 3 4 5 6 7 / 4 5 6 7 8 9 10 / 7 8 9 10 11 / 11 12 13 / ."  # g4 needs 14+
    state = GAME.position([sheet, EMPTY])
    assert _decide("best", state, 0) == Roll(3)
    assert _decide("greedy", state, 0) in {Roll(1), Roll(2), Roll(3)}


def test_best_scores_more_than_greedy() -> None:
    result = run_tournament(GAME, ["best", "greedy"], 2, 12, seed=3)
    assert result.mean_score[0] > result.mean_score[1]
    assert result.metrics["games"] == 12
