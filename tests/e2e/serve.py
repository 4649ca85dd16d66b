"""Run the real Coven server for the end-to-end tests: ``python serve.py PORT DATABASE_URL DATA_DIR``.

Bots play without a pause (``bot_pause=0``, unless ``COVEN_BOT_PAUSE`` gives one) so whole games fit in a
test run. Deals come from a fixed
sequence (the operator's choice, as ``Settings.deal_seeds`` allows; never the page's), so a run of the
suite is reproducible.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import uvicorn

from coven.server.app import create_app
from coven.server.framing import protocols
from coven.server.settings import Settings


def main() -> None:
    port, database, data_dir = int(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
    deals = random.Random(2026)
    settings = Settings(
        database_url=database,
        data_dir=data_dir,
        bot_pause=float(os.environ.get("COVEN_BOT_PAUSE", "0")),
        ping_interval=0,
        deal_seeds=lambda: deals.getrandbits(62),
        # a test module creates more tables from one address in a minute than a person: no limit, unless the
        # test asks for one
        create_limit=float(os.environ.get("COVEN_CREATE_LIMIT", "0")),
        create_burst=int(os.environ.get("COVEN_CREATE_BURST", "30")),
        sockets_per_client=int(os.environ.get("COVEN_SOCKETS_PER_CLIENT", "100")),
        spectators_per_table=int(os.environ.get("COVEN_SPECTATORS_PER_TABLE", "200")),
        chat_limit=float(os.environ.get("COVEN_CHAT_LIMIT", "1")),
        chat_burst=int(os.environ.get("COVEN_CHAT_BURST", "5")),
        bot_budget_seconds=float(os.environ.get("COVEN_BOT_BUDGET", "30")),
    )
    app = create_app(settings)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on", **protocols())


if __name__ == "__main__":
    main()
