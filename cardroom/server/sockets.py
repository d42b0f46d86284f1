"""What a TCP connection may cost before it is a request: the server's door (issue 22).

uvicorn times out an idle keep-alive connection, but not one that never finishes its request:
1,100 connections from one address, each sending a header line now and then (Slowloris), held
every file descriptor of the process, kept every new client out, and each refused `accept`
was logged. So, around uvicorn's HTTP/1.1 protocol (h11):

- connections from one address (an IPv6 /64 network: `limits.client_key`) are counted; past
  `Limits.sockets_per_address` a new one is closed at once, before it holds a descriptor for
  long. A trusted proxy's connections are not counted: behind it, everyone comes from it
  (its own limits, and ours on the websockets by X-Forwarded-For, apply).
- a connection that would leave fewer than `RESERVE` descriptors free is closed at once:
  connections never take the last descriptors, which the database and the log need, and
  `accept` itself does not fail (asyncio's retries of a failed `accept` are a storm of their own).
- a request (its headers and body, or a websocket handshake) must arrive whole within
  `Limits.request_s` of the connection opening or of its previous answer: else a 408 and
  the connection is closed.
- `raise_fd_limit`: the process takes every descriptor its hard limit allows.
"""

from __future__ import annotations

import asyncio
import resource
from collections import Counter
from typing import Any

import h11
from uvicorn.middleware.proxy_headers import _TrustedHosts
from uvicorn.protocols.http.h11_impl import H11Protocol

from cardroom.server.limits import Limits, client_key

TOO_SLOW = b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
"""The whole answer to a request that did not arrive in time (h11 cannot answer half a request)."""

RESERVE = 64
"""File descriptors no connection may take: the database's, the log's, the server's own."""

UNFINISHED = (h11.IDLE, h11.SEND_BODY)
"""The client's states while its request is not all in (IDLE: not begun, or the next one)."""


def raise_fd_limit() -> int:
    """Raise the soft limit on open files to the hard one (many systems start processes at
    1,024 and allow far more); the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass  # a system that refuses: the soft limit stays
    return soft


class Door:
    """The connections open per address, and the settings of the protocol below, for one server."""

    def __init__(self, limits: Limits, trusted: str | list[str]) -> None:
        self.limits = limits
        self.trusted = _TrustedHosts(trusted)  # uvicorn's reading of --forwarded-allow-ips
        self.open: Counter[str] = Counter()

    def enter(self, host: str | None, fd: int) -> str | None:
        """Count a new connection from `host` on descriptor `fd`: its key ("" for a trusted
        proxy, not counted), or None when that address has too many open, or the process too
        few descriptors left (the kernel gives the lowest free one: a high `fd` means few left)."""
        if fd >= resource.getrlimit(resource.RLIMIT_NOFILE)[0] - RESERVE:
            return None
        if host is None or host in self.trusted:
            return ""
        key = client_key(host)
        if self.open[key] >= self.limits.sockets_per_address:
            return None
        self.open[key] += 1
        return key

    def leave(self, key: str) -> None:
        if key:
            self.open[key] -= 1
            if self.open[key] <= 0:
                del self.open[key]

    def protocol(self) -> type[H11Protocol]:
        """uvicorn's HTTP protocol class (`uvicorn.Config(http=...)`) for this door."""
        return type("DoorProtocol", (GuardedProtocol,), {"door": self})


class GuardedProtocol(H11Protocol):
    """uvicorn's h11 protocol, counted per address, with a deadline for each whole request."""

    door: Door

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.key: str | None = None  # counted at the door under this key until the connection ends
        self.deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        sock = transport.get_extra_info("socket")
        self.key = self.door.enter(self.client[0] if self.client else None, sock.fileno() if sock else -1)
        if self.key is None:
            transport.abort()  # its descriptor is free now, not when the client lets go
            return
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._check()

    def on_response_complete(self) -> None:
        self._arm()  # the next request on this connection has its own time
        super().on_response_complete()
        self._check()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        super().handle_websocket_upgrade(event)
        self._disarm()
        handed = self.transport.get_protocol()
        key, self.key = self.key, None
        if key is not None and hasattr(handed, "on_lost"):
            handed.on_lost = lambda: self.door.leave(key)  # server/reading.py
        elif key is not None:
            self.door.leave(key)

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self._disarm()
        if self.key is not None:
            self.door.leave(self.key)
            self.key = None

    def _arm(self) -> None:
        self._disarm()
        self.deadline = self.loop.call_later(self.door.limits.request_s, self._too_slow)

    def _disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _check(self) -> None:
        """The request is all in (or the connection went to the websocket): no deadline."""
        if self.conn.their_state not in UNFINISHED or self.transport.get_protocol() is not self:
            self._disarm()

    def _too_slow(self) -> None:
        self.deadline = None
        if not self.transport.is_closing() and self.conn.their_state in UNFINISHED:
            if self.conn.our_state in (h11.IDLE, h11.SEND_RESPONSE):  # no answer begun
                self.transport.write(TOO_SLOW)
            self.transport.close()
