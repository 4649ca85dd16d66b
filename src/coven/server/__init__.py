"""Coven's server: the lobby (HTTP), tables, the live protocol (WebSocket, see PROTOCOL.md), bots as
seats, persistence (:mod:`coven.store`) and fan-out between processes (:mod:`coven.bus`).

The names below are imported when first used, not with the package: the server's child processes (the
store's writer, bot workers) import modules of it without the web application (a second of a child's
start, measured for issue 12).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from coven.server.app import create_app
    from coven.server.messages import PROTOCOL_VERSION, CloseCode, ErrorCode
    from coven.server.settings import Settings

__all__ = ["PROTOCOL_VERSION", "CloseCode", "ErrorCode", "Settings", "create_app"]

_HOMES = {
    "create_app": "coven.server.app",
    "PROTOCOL_VERSION": "coven.server.messages",
    "CloseCode": "coven.server.messages",
    "ErrorCode": "coven.server.messages",
    "Settings": "coven.server.settings",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
