"""Namaste bots: legal, sensible in plain positions, and best ahead of greedy."""

from __future__ import annotations

import math
import random
from itertools import product

from coven.bots.arena import run_tournament
from coven.games.namaste import GAME, PASS, Roll, Write
from coven.games.namaste.bots import (
    FACES,
    BestBot,
    Context,
    GreedyBot,
    RolloutCheck,
    Weights,
    greedy_move,
)
from coven.games.namaste.notation import WILD, sums
from coven.games.namaste.sheet import CELLS, parse_cell, parse_sheet

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


# A full sheet (4r + c - 7 in circle (r, c)) but for the centre d4, which only 13 fits: writing it
# completes row d and column 4, both with the pink 13 (26 points, nobody claimed them).
NEARLY_FULL = "1 / 4 5 6 / 7 8 9 10 11 / 10 11 12 . 14 15 16 / 15 16 17 18 19 / 20 21 22 / 25"


def _faces_total_hits(faces: tuple[int, ...], value: int) -> bool:
    return value in sums(faces)


def test_best_values_the_last_roll_of_the_game_exactly() -> None:
    # Three players, seat 1 about to roll in the last round: one roll (seat 2's) is left after it.
    state = GAME.position([NEARLY_FULL] * 3, active=1)
    state.ending = True
    sheet = list(parse_sheet(NEARLY_FULL))
    # Seat 0 watches seat 2's roll: it may write 13 if two white dice show it (a 1/7 and a 6).
    ctx = Context(GAME.view(state, 0), 0, Weights())
    assert ctx.future == 1 and not ctx.next_mine
    hits = sum(_faces_total_hits(f, 13) for f in product(FACES, repeat=2))
    assert math.isclose(ctx.potential(sheet), 26 * hits / 36)
    # Seat 2 rolls it: the best number of dice, else bad karma (the turquoise value, 1/7 as 1).
    ctx = Context(GAME.view(state, 2), 2, Weights())
    assert ctx.future == 1 and ctx.next_mine
    best = -math.inf
    for white in (1, 2, 3):
        total = 0.0
        for faces in product(FACES, repeat=white + 1):
            karma = 1 if faces[-1] == WILD else faces[-1]
            total += 26 if _faces_total_hits(faces, 13) else -karma
        best = max(best, total / 6 ** (white + 1))
    assert math.isclose(ctx.potential(sheet), best)


def test_best_takes_points_now_when_no_roll_is_left() -> None:
    # Seat 1 rolls last (seat 0 started): nothing is left after this roll, so the future is worth 0.
    state = GAME.position([NEARLY_FULL, EMPTY], active=1)
    state.ending = True
    ctx = Context(GAME.view(state, 0), 0, Weights())
    assert ctx.future == 0 and ctx.potential(list(parse_sheet(NEARLY_FULL))) == 0.0


def test_greedy_move_on_a_world_matches_the_greedy_bot() -> None:
    # The playouts' policy reads the state; it must answer what ``greedy`` answers from its view.
    for players, seed in ((3, 5), (4, 6)):
        state = GAME.new_game(players, {}, seed)
        rng = random.Random(seed)
        while not GAME.is_over(state):
            for seat in sorted(GAME.to_act(state)):
                legal = GAME.legal_actions(state, seat)
                if not legal:
                    continue
                expected = GreedyBot(GAME, seat, 0).act(GAME.view(state, seat), legal, True)
                assert greedy_move(state, seat, legal) == expected
                GAME.apply_unchecked(state, seat, legal[rng.randrange(len(legal))])


def test_best_checks_its_favourites_by_playouts_at_four_players() -> None:
    # Seat 0 watches seat 1's roll: 6 and 1/7 give it 13 for d4, completing row d and column 4.
    state = GAME.position([NEARLY_FULL, EMPTY, EMPTY, EMPTY], active=1, dice="6 1/7 + 2")
    bot = BestBot(GAME, 0, 1, check=RolloutCheck(playouts=8))
    write = Write(13, parse_cell("d4"))
    # Listed worst first, the playouts still put the 26 points ahead of a pass.
    assert bot.rollouts(GAME.view(state, 0), [PASS, write]) == write
    legal = GAME.legal_actions(state, 0)
    assert bot.act(GAME.view(state, 0), legal, True) == write
