"""The server reads a few messages ahead of the application (cardroom/server/reading.py):
a burst a client sends at once, longer than the read-ahead, is answered whole and in order."""

from __future__ import annotations

import asyncio

from cardroom.server.reading import READ_AHEAD
from tests.server.live import Client, LiveServer


def test_a_burst_longer_than_the_read_ahead_is_answered_whole_and_in_order(server: LiveServer) -> None:
    count = 3 * READ_AHEAD + 1  # under the rate limit's burst: every one is answered

    async def scenario() -> list[int]:
        client = await Client.connect(server.ws_url, "Burst")
        # Sent without waiting between them: the server's socket holds many at once.
        await asyncio.gather(*(client.send({"type": "ping", "id": i}) for i in range(count)))
        pongs = [(await client.expect("pong", timeout=30))["id"] for _ in range(count)]
        await client.send({"type": "ping", "id": count})  # reading goes on after the burst
        pongs.append((await client.expect("pong", timeout=30))["id"])
        await client.close()
        return pongs

    assert asyncio.run(scenario()) == list(range(count + 1))
