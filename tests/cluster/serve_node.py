"""One Coven server process of a test cluster: ``python serve_node.py PORT DATABASE BUS PREFIX NODE
thread|process`` (the last: where it commits, see ``coven serve --commit-process``).

Short leases (2 s, renewed every 0.3 s) so a killed process's tables are adopted within a test's
patience; bots without a pause; deals from the operating system as in production.
"""

from __future__ import annotations

import sys

import uvicorn

from coven.server.app import create_app
from coven.server.framing import protocols
from coven.server.settings import Settings


def main() -> None:
    port, database, bus, prefix, node, commit = sys.argv[1:7]
    settings = Settings(
        database_url=database,
        bus_url=bus,
        bus_prefix=prefix,
        node_id=node,
        bot_pause=0.0,
        ping_interval=0,
        lease_seconds=2.0,
        heartbeat_seconds=0.3,
        commit_process=commit == "process",
    )
    app = create_app(settings)
    uvicorn.run(app, host="127.0.0.1", port=int(port), log_level="warning", lifespan="on", **protocols())


if __name__ == "__main__":
    main()
