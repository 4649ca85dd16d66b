"""docs/tutorial.md runs: its python blocks, in order, as one script."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

TUTORIAL = Path(__file__).resolve().parents[2] / "docs" / "tutorial.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)


def blocks() -> list[str]:
    return BLOCK.findall(TUTORIAL.read_text(encoding="utf-8"))


def test_the_tutorial_has_code_for_each_step() -> None:
    code = "\n".join(blocks())
    for needle in (
        "get_game(",
        "Driver(",
        "make_env(",
        "make_parallel_env(",
        "load(",
        "ISMCTSBot(",
        # (OpenSpiel's bot draws its worlds with an unseeded sampler of its own: the tutorial's search gave
        # another result now and then, run after run, until it drew them from its seeded random_state)
        "bot.set_resampler(",
        "Record.loads(",
        "replay_steps(",
    ):
        assert needle in code


def test_the_tutorial_runs() -> None:
    namespace: dict[str, object] = {"__name__": "tutorial"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for number, block in enumerate(blocks(), 1):
            exec(compile(block, f"{TUTORIAL.name} block {number}", "exec"), namespace)
    printed = out.getvalue()
    assert "final reward" in printed
    assert "parallel game over, rewards" in printed
    assert "IS-MCTS (seat 0) against random:" in printed
    assert "winners" in printed
    assert "[bold]" not in printed and "[/" not in printed  # the view drawn, not its markup
