"""The frames the server and its child processes (bot workers, the store's writer) exchange over pipes:
a 4-byte big-endian length, then a pickle. Pipes between a process and the children it started carry
nothing from anyone else, so a pickle is safe here (never on a socket)."""

from __future__ import annotations

import pickle
import struct
from typing import IO

HEADER = struct.Struct("!I")
"""A frame's length, before its pickle."""


def frame(value: object) -> bytes:
    """``value`` as one frame."""
    body = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(body)) + body


def read_frame(source: IO[bytes]) -> bytes | None:
    """The next frame's pickle, or None at the end of the input (or in the middle of a frame: its writer
    is gone)."""
    header = source.read(HEADER.size)
    if len(header) < HEADER.size:
        return None
    (size,) = HEADER.unpack(header)
    body = source.read(size)
    return body if len(body) == size else None
