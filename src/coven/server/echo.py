"""A bare Starlette websocket echo: the yardstick ``coven bench server`` measures the server against.

Every text frame a client sends comes back unchanged on the same connection; nothing is parsed,
stored or fanned out. Served by uvicorn with the same transport settings as the bench's Coven server,
its CPU time per message is what one websocket round trip costs on this machine.
"""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

ECHO_PATH = "/ws/echo"
HEALTH_PATH = "/api/health"


async def _echo(websocket: WebSocket) -> None:
    await websocket.accept()
    try:
        while True:
            await websocket.send_text(await websocket.receive_text())
    except WebSocketDisconnect:
        pass


async def _health(_request: Request) -> JSONResponse:
    return JSONResponse({"ok": True, "echo": True})


def create_echo_app() -> Starlette:
    """The echo app: ``GET /api/health`` and the echo socket at ``/ws/echo``."""
    return Starlette(routes=[Route(HEALTH_PATH, _health), WebSocketRoute(ECHO_PATH, _echo)])
