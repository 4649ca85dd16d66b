"""The observation tensors and action indices of coven.rl: fixed sizes, views only, and every index the
mask allows is a legal action that applies; the turn order is the Driver's."""

from __future__ import annotations

import random

import numpy as np
import pytest

from coven.core import Driver, GameOverError, IllegalActionError, InvalidOptionError, RecordedLog
from coven.games import get_game
from coven.rl import PASS, Encoding, Table, encoding_for
from coven.rl.amulets import ASK, CAST, PASS_INDEX
from coven.rl.commandments import CAP

GAMES = ("amulets", "brujas", "commandments", "namaste")
SAMPLE = 40


def player_counts(game_id: str) -> list[int]:
    spec = get_game(game_id).spec
    return sorted({spec.min_players, spec.max_players})


CASES = [(g, p) for g in GAMES for p in player_counts(g)]


def playout(table: Table, rng: random.Random) -> int:
    steps = 0
    while not table.is_over():
        table.step(rng.choice(table.legal_indices()))
        steps += 1
    return steps


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_every_index_the_mask_allows_is_legal_and_applies(game_id: str, players: int) -> None:
    check_masks(encoding_for(game_id, players), random.Random(players))


def test_a_judging_priestess_has_her_verdicts_indexed() -> None:
    encoding = encoding_for("commandments", 3, {"judge": "priestess"})
    check_masks(encoding, random.Random(0))


def check_masks(encoding: Encoding, rng: random.Random) -> None:
    game = encoding.game
    game_id = game.spec.id
    for seed in range(2):
        table = Table(encoding, seed=seed)
        while not table.is_over():
            seat, required = table.decision() or (-1, True)
            legal = table.legal_indices()
            mask = table.mask()
            assert legal, "a decision with nothing to choose"
            assert mask.shape == (encoding.num_actions,)
            assert sorted(np.flatnonzero(mask).tolist()) == legal
            observation = table.observe(seat)
            assert observation.shape == (encoding.observation_size,)
            assert observation.dtype == np.float32
            assert np.isfinite(observation).all()
            if game_id == "commandments":
                assert len(game.legal_actions(table.state, seat)) <= CAP
            # each allowed index is a pass (optional decisions only), a part of a decision, or a legal
            # action that the checked path accepts on a copy: all of them where there are few, else
            # the first, the last and a sample (The 3 Commandments offers 2,500 moves a turn)
            checked = legal if len(legal) <= SAMPLE else [legal[0], legal[-1], *rng.sample(legal, SAMPLE)]
            for index in checked:
                resolved = encoding.resolve(table.state, seat, (*table.prefix, index))
                if resolved is PASS:
                    assert not required
                elif resolved is not None:
                    assert game.illegal_reason(table.state, seat, resolved) is None
                    copy = game.clone(table.state)
                    game.apply(copy, seat, resolved)
            table.step(rng.choice(legal))
        assert len(table.moves) <= encoding.bounds.max_decisions


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_observations_come_from_the_view_only(game_id: str, players: int) -> None:
    """A world drawn from a seat's view (hidden parts and future chance redrawn) gives that seat the
    same observation, the same mask and the same information text."""
    encoding = encoding_for(game_id, players)
    game = encoding.game
    table = Table(encoding, seed=11)
    rng = random.Random(5)
    checked = 0
    while not table.is_over():
        seat = table.current()
        if rng.random() < 0.3:
            world = table.clone()
            world.state = game.world_from_view(game.view(table.state, seat), random.Random(checked))
            assert np.array_equal(world.observe(seat), table.observe(seat))
            assert world.legal_indices() == table.legal_indices()
            assert world.information(seat) == table.information(seat)
            checked += 1
        table.step(rng.choice(table.legal_indices()))
    assert checked > 0


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_the_turn_order_is_the_drivers(game_id: str, players: int) -> None:
    """The moves a table applies replay through the Driver's recorded log (which refuses a move made
    out of the Driver's order) to the same final scores."""
    encoding = encoding_for(game_id, players)
    game = encoding.game
    table = Table(encoding, seed=3)
    playout(table, random.Random(9))
    record = table.record()
    log = RecordedLog(game, record.moves)
    state = game.new_game(players, encoding.options, record.seed)
    driver = Driver(game, state, {seat: log.actor(seat) for seat in range(players)})
    driver.run()
    assert log.cursor == len(record.moves)
    assert game.scores(driver.state) == game.scores(table.state)
    for seat in range(players):
        assert game.view_to_json(game.view(driver.state, seat)) == game.view_to_json(
            game.view(table.state, seat)
        )


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_observations_differ_between_seats_and_over_time(game_id: str, players: int) -> None:
    """Not a constant: the seats' observations differ (each sees its own seat, hand or sheet) and they
    change as the game goes on."""
    encoding = encoding_for(game_id, players)
    table = Table(encoding, seed=2)
    first = [table.observe(seat) for seat in range(players)]
    assert not np.array_equal(first[0], first[1])
    playout(table, random.Random(1))
    assert not np.array_equal(table.observe(0), first[0])


def test_brujas_and_namaste_index_every_action_by_its_notation() -> None:
    brujas = encoding_for("brujas", 3)
    assert brujas.num_actions == 42
    assert brujas.describe(None, 0, (), 0) == "R1"
    assert brujas.describe(None, 0, (), 41) == "down"
    namaste = encoding_for("namaste", 2)
    assert namaste.num_actions == 5 + 28 * 25
    assert namaste.describe(None, 0, (), 0) == "roll 1"
    assert namaste.describe(None, 0, (), 5) == "1@a4"
    assert namaste.describe(None, 0, (), namaste.num_actions - 1) == "28@g4"


def test_an_amulets_decision_is_kind_then_a_field_per_amulet() -> None:
    encoding = encoding_for("amulets", 3)
    table = Table(encoding, seed=4)
    # before the first question, seats 1 and 2 may cast (or pass); the asker, seat 0, must act
    assert table.decision() == (1, False)
    assert table.legal_indices() == [CAST, PASS_INDEX]
    table.step(PASS_INDEX)
    assert table.decision() == (2, False)
    table.step(PASS_INDEX)
    assert table.decision() == (0, True)
    assert table.legal_indices() == [ASK, CAST]
    table.step(ASK)
    for field in (0, 6, 12, 18):  # A1 B2 C3 D4
        assert field in table.legal_indices()
        table.step(field)
        assert field not in table.legal_indices()
        assert table.moves == []
    table.step(24)  # E5: the placement is complete, the question is asked
    assert [m.action for m in table.moves] == ["ask RA1 YB2 GC3 BD4 KE5"]
    assert table.moves[0].seat == 0
    assert table.prefix == ()


def test_a_bad_index_is_refused_and_changes_nothing() -> None:
    table = Table(encoding_for("brujas", 3), seed=0)
    illegal = next(i for i in range(table.encoding.num_actions) if i not in table.legal_indices())
    before = table.game.write_position(table.state)
    seat = table.current()
    with pytest.raises(IllegalActionError, match=f"index {illegal} is not legal for seat {seat} now: choose"):
        table.step(illegal)
    for odd in (-1, table.encoding.num_actions, 2.0, True, "3", None):
        with pytest.raises(IllegalActionError, match=f"is not legal for seat {seat} now"):
            table.step(odd)  # type: ignore[arg-type]
    assert issubclass(IllegalActionError, ValueError)  # the documented ValueError still catches it
    assert table.game.write_position(table.state) == before
    table.step(np.int64(table.legal_indices()[0]))  # type: ignore[arg-type]


def test_an_index_after_the_end_is_a_game_over_error() -> None:
    table = Table(encoding_for("namaste", 2), seed=0)
    while not table.is_over():
        table.step(table.legal_indices()[0])
    with pytest.raises(GameOverError, match="the game is over"):
        table.step(0)


def test_rewards_pay_the_winners_or_the_scores() -> None:
    table = Table(encoding_for("namaste", 2), seed=8, reward="win")
    assert table.returns() == [0.0, 0.0]
    playout(table, random.Random(2))
    winners = table.game.winners(table.state)
    assert table.returns() == [1.0 if s in winners else 0.0 for s in range(2)]
    scored = Table(encoding_for("namaste", 2), seed=8, reward="score")
    playout(scored, random.Random(2))
    assert scored.returns() == [float(s) for s in scored.game.scores(scored.state)]
    with pytest.raises(InvalidOptionError, match="reward is one of win, score, not 'money'"):
        Table(encoding_for("namaste", 2), reward="money")  # (a ValueError too, as documented)
