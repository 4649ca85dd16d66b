"""Golden playthroughs: stored records (fixed seed and bots) replay to the stored final position.

Regenerate after a deliberate rule change with ``.venv/bin/python -m tests.games.brujas.test_golden``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from coven.core import Move, Record, replay
from coven.games.brujas import GAME
from coven.games.brujas.notation import format_position
from coven.games.brujas.state import witch_colours

GOLDEN = Path(__file__).parent / "golden"
CASES: dict[str, tuple[int, dict[str, Any], int, tuple[str, ...]]] = {
    "basic_4p": (4, {}, 2026, ("greedy", "greedy", "random", "greedy")),
    "silent_conflict_3p": (3, {"silent": True, "conflict": True}, 7, ("greedy", "random", "greedy")),
    "basic_5p": (5, {}, 11, ("greedy", "random", "greedy", "random", "greedy")),
    # Since the deal comes from coven.core.chance, seed 7 above no longer shares a victory or a witch
    # colour: this game does both, in Devils in Conflict, with face-down cards and tricks without a Lead.
    "silent_conflict_4p": (
        4,
        {"silent": True, "conflict": True},
        4,
        ("greedy", "random", "greedy", "random"),
    ),
}


def generate(name: str) -> dict[str, Any]:
    players, options, seed, bot_names = CASES[name]
    state = GAME.new_game(players, options, seed)
    bots = [GAME.bots()[b](GAME, s, seed * 10 + s) for s, b in enumerate(bot_names)]
    moves: list[Move] = []
    while GAME.to_act(state):
        (seat,) = GAME.to_act(state)
        action = bots[seat].act(GAME.view(state, seat), GAME.legal_actions(state, seat), True)
        moves.append(Move(seat, GAME.format_action(action)))
        GAME.apply(state, seat, action)
    record = Record("brujas", players, dict(GAME.options(state)), seed, bot_names, tuple(moves))
    return {
        "record": record.to_json(),
        "final_position": format_position(state),
        "scores": list(GAME.scores(state)),
        "winners": sorted(GAME.winners(state)),
    }


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough_replays(name: str) -> None:
    stored = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    record = Record.from_json(stored["record"])
    state = replay(GAME, record)
    assert GAME.is_over(state)
    assert format_position(state) == stored["final_position"]
    assert list(GAME.scores(state)) == stored["scores"]
    assert sorted(GAME.winners(state)) == stored["winners"]
    # The bots still play these games the same way.
    assert generate(name) == stored


def test_the_golden_games_exercise_every_rule() -> None:
    """Together the stored games show every event, every kind of Lead (none included), face-down cards,
    both witch moves, a witch colour shared under Devils in Conflict and a shared victory."""
    seen: set[str] = set()
    for name in CASES:
        stored = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
        record = Record.from_json(stored["record"])
        state = GAME.new_game(record.players, record.options, record.seed)
        for move in record.moves:
            for event in GAME.apply(state, move.seat, GAME.parse_action(move.action)):
                seen.add(event.kind)
                if event.kind == "trick":
                    seen.add(f"lead:{event.data['lead']}")
                if event.kind == "witch":
                    seen.add(f"witch:{event.data['direction']}")
        colours = witch_colours(state.piles, state.rank)
        if state.conflict and len(set(colours)) < len(colours):
            seen.add("conflict halves")
        if len(GAME.winners(state)) > 1:
            seen.add("shared victory")
    assert seen >= {
        *("play", "face_down", "reveal", "trick", "witch", "take", "game_over"),
        *("lead:", "lead:colour", "lead:number", "witch:up", "witch:down"),
        *("conflict halves", "shared victory"),
    }


if __name__ == "__main__":
    GOLDEN.mkdir(exist_ok=True)
    for case in CASES:
        (GOLDEN / f"{case}.json").write_text(json.dumps(generate(case), indent=1) + "\n", encoding="utf-8")
        print("wrote", case)
