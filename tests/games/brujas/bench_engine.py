"""Engine speed: random playouts through the public fast path (not a test; run it by hand).

    .venv/bin/python -m tests.games.brujas.bench_engine [seconds] [players] [option=value ...]

The loop is the one ``coven bench engine`` uses: ``new_game`` with a fresh seed, then ``to_act`` ->
lowest seat -> ``legal_actions`` -> uniform choice -> ``apply_unchecked`` until the game is over.
"""

from __future__ import annotations

import random
import sys
import time

from coven.games.brujas import GAME


def bench(
    seconds: float = 5.0, players: int = 4, options: dict[str, object] | None = None
) -> tuple[int, float, float]:
    """(decisions, wall seconds, CPU seconds of this process)."""
    game = GAME
    rng = random.Random(0)
    rand = rng.random
    to_act, legal_actions, apply = game.to_act, game.legal_actions, game.apply_unchecked
    decisions = 0
    started = time.perf_counter()
    cpu_started = time.process_time()
    deadline = started + seconds
    while True:
        state = game.new_game(players, options, rng.getrandbits(32))
        while True:
            seats = to_act(state)
            if not seats:
                break
            seat = min(seats)
            legal = legal_actions(state, seat)
            apply(state, seat, legal[int(rand() * len(legal))])
            decisions += 1
        if time.perf_counter() >= deadline:
            break
    return decisions, time.perf_counter() - started, time.process_time() - cpu_started


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    options = dict(arg.split("=", 1) for arg in sys.argv[3:])
    decisions, wall, cpu = bench(seconds, players, options)
    print(
        f"{players} players: {decisions} decisions in {wall:.2f} s wall / {cpu:.2f} s CPU: "
        f"{decisions / wall:,.0f} decisions/s wall, {decisions / cpu:,.0f} per CPU second"
    )


if __name__ == "__main__":
    main()
