"""The server reads a few messages ahead of the application (cardroom/server/reading.py):
a burst a client sends at once, longer than the read-ahead, is answered whole and in order.
It writes frames it made itself: they read as the websocket library reads any."""

from __future__ import annotations

import asyncio

import pytest
from websockets.frames import Frame, Opcode
from websockets.streams import StreamReader

from cardroom.server.reading import READ_AHEAD, text_frame
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


def test_the_servers_own_frames_read_as_the_websocket_library_reads_them() -> None:
    """The server frames its messages itself (`text_frame`): every length form of RFC 6455 (one
    byte, two, eight) reads back, with the websockets library's own parser, as the same text."""
    for size in (0, 1, 125, 126, 127, 65_535, 65_536, 300_000):
        text = "é" * (size // 2) + "a" * (size % 2)  # `size` bytes of UTF-8, two to a letter
        payload = text.encode()
        assert len(payload) == size
        reader = StreamReader()
        reader.feed_data(text_frame(payload))
        reader.feed_eof()
        parser = Frame.parse(reader.read_exact, mask=False)
        with pytest.raises(StopIteration) as parsed:
            next(parser)
        frame = parsed.value.value
        assert (frame.opcode, frame.fin, frame.data) == (Opcode.TEXT, True, payload), size
        assert frame.data.decode() == text
