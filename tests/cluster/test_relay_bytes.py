"""The relay forwards bytes (issue 26): what a table's owner sends a player connected to another
node crosses Redis as the owner encoded it and is written to that player's socket unread, so a
relayed watcher receives byte for byte what a watcher at the owner does
(cardroom/server/relay.py, `Relay.flush` and `Relay.outgoing`). Real `cardroom serve`
processes on one Redis and one PostgreSQL."""

from __future__ import annotations

import asyncio

import msgspec
import redis

from cardroom.clients.botclient import NetBot
from cardroom.server.wire import messages
from tests.cluster.test_nodes import cluster_env, nodes
from tests.cluster.test_relay import QUICK_KITTENS
from tests.server.live import Client
from tests.server.play import create_and_start, play_to_the_end

__all__ = ["cluster_env"]  # the fixture, shared with test_nodes


def message_bytes(frames: list[str]) -> list[bytes]:
    """Each message of these frames as the bytes it was sent as: a frame is one message, or a
    JSON array of messages (protocol 2), whose elements are cut out unparsed."""
    out: list[bytes] = []
    for frame in frames:
        data = frame.encode()
        if data.startswith(b"["):
            out += [bytes(raw) for raw in msgspec.json.decode(data, type=list[msgspec.Raw])]
        else:
            out.append(data)
    return out


def batches(client: Client, table: str) -> dict[int, bytes]:
    """The table's batches (`events` messages) this client received: version -> bytes."""
    found = {}
    for data in message_bytes(client.frames):
        message = messages(data)[0]
        if message.get("type") == "events" and message.get("table") == table:
            found[message["v"]] = data
    return found


async def watch(client: Client, table: str) -> None:
    """Watch `table`, asking again until this node's lobby knows it (it comes over the bus)."""
    async with asyncio.timeout(15):
        while True:
            await client.send({"type": "spectate", "table": table})
            while True:
                message = await client.recv()
                if message.get("type") == "table" and message.get("table") == table:
                    return
                if message.get("type") == "error":
                    break
            await asyncio.sleep(0.1)


def test_a_relayed_watcher_receives_the_same_bytes_as_one_at_the_tables_node(
    cluster_env: dict[str, str],
) -> None:
    with nodes(cluster_env, 2) as (a, b):

        async def go() -> tuple[str, Client, Client]:
            host = NetBot(a.ws_url, "Hal", "kittens", "normal", 7)
            await create_and_start(host, "kittens", seats=3, bots=2, options=QUICK_KITTENS)
            assert host.table is not None
            table = host.table
            local = await Client.connect(a.ws_url, "Lia")  # at the table's node
            relayed = await Client.connect(b.ws_url, "Rey")  # at the other node
            await watch(local, table)
            await watch(relayed, table)
            await host.send({"type": "start", "table": table})
            readers = [
                asyncio.create_task(c.expect("table", table=table, state="over", timeout=240))
                for c in (local, relayed)
            ]
            await play_to_the_end([host], limit_s=240)
            await asyncio.gather(*readers)
            for client in (local, relayed):
                await client.close()
            await host.close()
            return table, local, relayed

        table, local, relayed = asyncio.run(go())
        node_b = b.health()["cluster"]["node"]
    here, there = batches(local, table), batches(relayed, table)
    assert len(here) > 10, "the game was watched from its start to its end"
    assert there.keys() == here.keys()
    assert all(there[v] == here[v] for v in here), "the relayed watcher got other bytes"
    # They crossed Redis as they are: the owner's bytes stand whole in node B's relay stream.
    entries = redis.Redis.from_url(cluster_env["CARDROOM_REDIS"]).xrange(f"cardroom:to:{node_b}")
    carried = b"".join(fields.get(b"b", b"") for _id, fields in entries)
    assert all(data in carried for data in here.values())
