"""Fan-out of table updates between server processes: in-process by default, Redis to scale out.

A bus carries small JSON notices ("table T committed step N: seat S played A", "table T's seats
changed"). The database stays the single source of truth; a notice only tells other processes to catch
up (see :mod:`coven.server.tables`).
"""

from coven.bus.base import RESYNC, Bus, Handler, LocalBus, make_bus
from coven.bus.redis import RedisBus

__all__ = ["RESYNC", "Bus", "Handler", "LocalBus", "RedisBus", "make_bus"]
