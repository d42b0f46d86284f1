"""One client connection: who it is, its bounded send queue, its rate limit and its lag.

A slow client never slows a table: messages go into a bounded queue that one writer task
drains; a connection whose queue is full is dropped (it may reconnect and resync).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.websockets import WebSocket, WebSocketState

from cardroom.server import closes
from cardroom.server.wire import encode

log = logging.getLogger("cardroom.server")

SEND_QUEUE = 512


@dataclass(slots=True)
class Player:
    """A person known to this server: a guest with a nickname, or an account (`account_id`)."""

    id: str
    name: str
    token: str
    lang: str = "en"
    account_id: int | None = None
    connection: Connection | None = None
    lag_ms: int | None = None
    tables: set[str] = field(default_factory=set)


class RateLimit:
    """A token bucket: `rate` messages a second, bursts up to `burst`."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()
        self.strikes = 0

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.strikes += 1
        return False


class Connection:
    """A websocket after its hello: sends never block the caller."""

    def __init__(self, websocket: WebSocket, queue_size: int = SEND_QUEUE) -> None:
        self.websocket = websocket
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue(maxsize=queue_size)
        self.player: Player | None = None
        self.closed = False
        self.close_code: int | None = None
        self.limit = RateLimit(rate=40, burst=80)
        self.pings: dict[int, float] = {}
        self.next_ping = 1
        self.writer: asyncio.Task[None] | None = None
        self.on_close: Callable[[], None] | None = None

    def start(self) -> None:
        self.writer = asyncio.create_task(self._write())

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message; a connection that cannot keep up is dropped."""
        self.send_raw(encode(message))

    def send_raw(self, data: bytes) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(data)
        except asyncio.QueueFull:
            log.info("dropping a slow connection")
            self.close(closes.SLOW_CONSUMER)

    def close(self, code: int = closes.NORMAL) -> None:
        """Close once what is queued has gone out; a slow consumer's backlog is dropped instead."""
        if self.closed:
            return
        self.closed = True
        self.close_code = code
        if code == closes.SLOW_CONSUMER or self.queue.full():
            while not self.queue.empty():
                self.queue.get_nowait()
        self.queue.put_nowait(None)
        if self.on_close is not None:
            # Soon, not now: a close can happen in the middle of a table's broadcast.
            asyncio.get_running_loop().call_soon(self.on_close)

    async def _write(self) -> None:
        # `send_text` waits while the transport is paused (its buffer is over the high-water
        # mark because the peer does not read): then the queue fills and `send_raw` drops us.
        # The close frame goes out after what the peer has yet to read, or never if it never reads.
        ws = self.websocket
        try:
            while True:
                data = await self.queue.get()
                if data is None:
                    break
                await ws.send_text(data.decode())
        except Exception:  # the peer went away mid-send: the reader notices and cleans up
            self.closed = True
        finally:
            if ws.application_state != WebSocketState.DISCONNECTED:
                with contextlib.suppress(Exception):
                    await ws.close(
                        self.close_code or closes.NORMAL, closes.REASONS.get(self.close_code or 0, "")
                    )

    def ping(self) -> None:
        """Ask the client for a pong, to measure its lag."""
        ident = self.next_ping
        self.next_ping += 1
        self.pings[ident] = time.monotonic()
        if len(self.pings) > 8:
            self.pings.pop(min(self.pings))
        self.send({"type": "ping", "id": ident})

    def pong(self, ident: int) -> int | None:
        """The round trip of ping `ident`, in ms, if it was ours."""
        sent = self.pings.pop(ident, None)
        if sent is None:
            return None
        return int((time.monotonic() - sent) * 1000)
