"""Bus namespaces: two deployments sharing one Redis never hear each other's notices."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from typer.testing import CliRunner

from coven import cli
from coven.bus import RedisBus, make_bus
from coven.server import Settings
from coven.server.settings import bus_prefix_for, bus_prefix_from_env
from tests.store.backends import unique_prefix


async def _heard(bus_url: str, namespaces: tuple[str, str]) -> dict[str, list[dict[str, Any]]]:
    """Each namespace's subscriber, after a notice published in the other one and then one in its own.

    Redis delivers in command order, so when a subscriber gets its own namespace's ``end`` it has
    already received anything published before on a channel it listens to."""
    heard: dict[str, list[dict[str, Any]]] = {ns: [] for ns in namespaces}
    ends = {ns: asyncio.Event() for ns in namespaces}
    listeners = {ns: RedisBus(bus_url, ns) for ns in namespaces}
    publishers = {ns: RedisBus(bus_url, ns) for ns in namespaces}
    for ns, bus in listeners.items():

        async def handler(message: dict[str, Any], ns: str = ns) -> None:
            heard[ns].append(message)
            if message.get("kind") == "end":
                ends[ns].set()

        bus.subscribe(handler)
        await bus.start()
    first, second = namespaces
    try:
        await publishers[second].publish({"kind": "action", "table": "t", "from": second})
        await publishers[first].publish({"kind": "action", "table": "t", "from": first})
        await publishers[first].publish({"kind": "end"})
        await publishers[second].publish({"kind": "end"})
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in ends.values())), timeout=10)
    finally:
        for bus in (*listeners.values(), *publishers.values()):
            await bus.close()
    return heard


@pytest.mark.redis
def test_two_namespaces_on_one_redis_do_not_hear_each_other(bus_redis_url: str) -> None:
    base = unique_prefix().rstrip(":")
    first, second = bus_prefix_for(f"{base}-blue"), bus_prefix_for(f"{base}-green")
    heard = asyncio.run(_heard(bus_redis_url, (first, second)))
    assert heard[first] == [{"kind": "action", "table": "t", "from": first}, {"kind": "end"}]
    assert heard[second] == [{"kind": "action", "table": "t", "from": second}, {"kind": "end"}]


def test_every_redis_name_is_in_the_namespace() -> None:
    bus = make_bus("redis://127.0.0.1:6379/0", "blue:")
    assert isinstance(bus, RedisBus)
    assert bus.channel == "blue:tables" and bus.key("anything") == "blue:anything"


def test_the_namespace_is_a_deployment_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    assert bus_prefix_from_env({}) == "coven:"
    assert bus_prefix_from_env({"COVEN_BUS_NAMESPACE": ""}) == "coven:"
    assert bus_prefix_from_env({"COVEN_BUS_NAMESPACE": "prod-eu"}) == "prod-eu:"
    assert bus_prefix_for("team:prod:") == "team:prod:"
    for bad in ("", "has space", "-dash-first", "ü", "x" * 65, "a\nb"):
        with pytest.raises(ValueError, match="bus namespace"):
            bus_prefix_for(bad)
    monkeypatch.setenv("COVEN_BUS_NAMESPACE", "staging")
    assert Settings().bus_prefix == "staging:"
    assert Settings(bus_prefix="explicit:").bus_prefix == "explicit:"
    monkeypatch.delenv("COVEN_BUS_NAMESPACE")
    assert Settings().bus_prefix == "coven:"


def test_coven_serve_takes_the_namespace_from_its_option_or_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import uvicorn

    runs: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: runs.append((app, kw)))
    monkeypatch.setattr(Settings, "resolved_database_url", lambda self: "sqlite://")
    runner = CliRunner()
    result = runner.invoke(cli.app, ["serve", "--bus-namespace", "blue"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(cli.app, ["serve"], env={"COVEN_BUS_NAMESPACE": "green"})
    assert result.exit_code == 0, result.output
    assert [app.state.settings.bus_prefix for app, _ in runs] == ["blue:", "green:"]
    assert runs[0][1]["ws_max_size"] == runs[0][0].state.settings.max_frame_bytes
    result = runner.invoke(cli.app, ["serve", "--bus-namespace", "not ok"])
    assert result.exit_code != 0 and "bus namespace" in result.output
    assert len(runs) == 2
