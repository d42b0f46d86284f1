"""The websocket protocol the server runs on: uvicorn's, reading a few messages ahead.

uvicorn's sans-I/O websocket protocol stops reading a socket after every message and starts
again once the application has taken it: two epoll system calls per message a player sends,
a twentieth of the server's time under load (bench/load.py). Here reading stops only once
`READ_AHEAD` messages wait for the application, which bounds what one connection can make the
server hold just the same (a flood is then refused by the per-connection rate limit).
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

READ_AHEAD = 8
"""Messages a connection may have waiting for the application before its socket is not read."""


class ReadAheadProtocol(WebSocketsSansIOProtocol):
    """uvicorn's protocol, pausing the socket at `READ_AHEAD` waiting messages instead of one."""

    def send_receive_event_to_app(self) -> None:
        paused = self.read_paused
        self.read_paused = True  # the parent pauses when it was not: it is not to, yet
        try:
            super().send_receive_event_to_app()
        finally:
            self.read_paused = paused
        if not paused and self.queue.qsize() >= READ_AHEAD:
            self.read_paused = True
            self.transport.pause_reading()
