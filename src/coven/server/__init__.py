"""Coven's server: the lobby (HTTP), tables, the live protocol (WebSocket, see PROTOCOL.md), bots as
seats, persistence (:mod:`coven.store`) and fan-out between processes (:mod:`coven.bus`).
"""

from coven.server.app import create_app
from coven.server.messages import PROTOCOL_VERSION, CloseCode, ErrorCode
from coven.server.settings import Settings

__all__ = ["PROTOCOL_VERSION", "CloseCode", "ErrorCode", "Settings", "create_app"]
