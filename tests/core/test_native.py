"""The views' dataclasses, compiled by mypyc or not, are the same dataclasses to their readers: pydantic
(the view codec), msgspec (the server's ``dumps``), pickle and copy (the bot workers), ``dataclasses``."""

from __future__ import annotations

import ast
import copy
import dataclasses
import importlib
import pickle
from pathlib import Path
from typing import Any

import msgspec
import pytest

from coven.core.native import source_annotations
from coven.games import get_game
from tests.test_layout import GAMES, SRC


def view_classes() -> list[type]:
    """Every dataclass defined in a game's view module."""
    out = []
    for game in GAMES:
        module = importlib.import_module(f"coven.games.{game}.view")
        out += [
            value
            for value in vars(module).values()
            if isinstance(value, type)
            and dataclasses.is_dataclass(value)
            and value.__module__ == module.__name__
        ]
    return out


CLASSES = view_classes()


def test_every_view_module_defines_its_view_class() -> None:
    assert {cls.__name__ for cls in CLASSES} >= {
        "AmuletsView",
        "BrujasView",
        "CommandmentsView",
        "NamasteView",
        "Entry",
        "PastTrick",
        "RitualView",
    }


def _python_annotations(cls: type) -> dict[str, str]:
    """The annotations Python itself keeps for the class's source (``from __future__ import
    annotations``), compiled here from the module's text."""
    path = SRC / Path(*cls.__module__.split(".")).with_suffix(".py")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls.__name__)
    fields = [item for item in node.body if isinstance(item, ast.AnnAssign)]
    body = "\n".join(f"    {ast.get_source_segment(path.read_text(encoding='utf-8'), f)}" for f in fields)
    namespace: dict[str, Any] = {}
    exec(compile(f"from __future__ import annotations\nclass C:\n{body}\n", str(path), "exec"), namespace)
    annotations: dict[str, str] = namespace["C"].__annotations__
    return annotations


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_a_view_class_is_a_frozen_slotted_dataclass_with_its_source_types(cls: type) -> None:
    names = [f.name for f in dataclasses.fields(cls)]
    written = _python_annotations(cls)
    assert source_annotations(cls.__module__)[cls.__name__] == written
    assert {f.name: f.type for f in dataclasses.fields(cls)} == written  # what pydantic reads
    assert cls.__annotations__ == written
    assert cls.__slots__ == tuple(names)
    params = cls.__dataclass_params__  # type: ignore[attr-defined]
    assert params.frozen and params.eq


@pytest.mark.parametrize("game_id", GAMES)
def test_views_survive_pickle_copy_msgspec_and_their_codec(game_id: str) -> None:
    game = get_game(game_id)
    options = {"assistant": True} if game_id == "amulets" else {}
    state = game.new_game(3, options, seed=7)
    for _ in range(12):  # a few moves in: past tricks, spell-book lines, rituals under way
        if game.is_over(state):
            break
        seat = min(game.to_act(state))
        game.apply(state, seat, game.legal_actions(state, seat)[0])
    for view in game.views(state, [0, 1, 2, None]).values():
        for again in (pickle.loads(pickle.dumps(view)), copy.copy(view), copy.deepcopy(view)):
            assert again == view and repr(again) == repr(view) and type(again) is type(view)
        assert msgspec.json.decode(msgspec.json.encode(view)) == game.view_to_json(view)
        assert game.view_from_json(game.view_to_json(view)) == view
        with pytest.raises(dataclasses.FrozenInstanceError):
            view.seat = 5
        assert dataclasses.replace(view, seat=view.seat) == view
