"""The websocket protocol the server runs on: uvicorn's, reading a few messages ahead and
writing the server's prepared frames straight to the socket.

uvicorn's sans-I/O websocket protocol stops reading a socket after every message and starts
again once the application has taken it: two epoll system calls per message a player sends,
a twentieth of the server's time under load (bench/load.py). Here reading stops only once
`READ_AHEAD` messages wait for the application, which bounds what one connection can make the
server hold just the same (a flood is then refused by the per-connection rate limit). Once a
connection's hello is done, its text messages skip the queue altogether: `on_text` hands each
to the edge as it is read, with no task to wake (server/edge.py).

Writing: a message through the ASGI layers (Starlette's websocket, its middleware's send
wrappers, uvicorn's send, the websockets library's frame) costs more than the room spends
building it, once per recipient of every batch. The server's frames are plain: text, whole,
unmasked, with no extension (the server turns compression off), so `write_text` frames them
itself and hands them to the transport in one write. It writes only while the connection is
open and its transport takes data; otherwise the caller takes the ASGI way, which waits.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

READ_AHEAD = 8
"""Messages a connection may have waiting for the application before its socket is not read."""

SCOPE_KEY = "cardroom.frames"
"""Where the ASGI scope of a websocket holds its protocol, for `Connection` to write through."""


def text_frame(payload: bytes) -> bytes:
    """A final, unmasked websocket text frame holding `payload` (RFC 6455 section 5.2), as the
    websockets library frames it for a server."""
    n = len(payload)
    if n < 126:
        return bytes((0x81, n)) + payload
    if n < 1 << 16:
        return b"\x81\x7e" + n.to_bytes(2, "big") + payload
    return b"\x81\x7f" + n.to_bytes(8, "big") + payload


class ReadAheadProtocol(WebSocketsSansIOProtocol):
    """uvicorn's protocol, pausing the socket at `READ_AHEAD` waiting messages instead of one,
    and taking whole text frames to write (`write_text`)."""

    on_text: Callable[[str], None] | None = None
    """Set by the application once it handles text messages as they are read (server/edge.py):
    each goes to it at once, with no queue and no task to wake; anything else (a binary frame,
    the disconnect) still goes through the queue."""

    on_lost: Callable[[], None] | None = None
    """Told once when the connection ends: the server's door stops counting it (server/sockets.py)."""

    def connection_lost(self, exc: Exception | None) -> None:
        on_lost, self.on_lost = self.on_lost, None
        try:
            super().connection_lost(exc)
        finally:
            if on_lost is not None:
                on_lost()

    def send_receive_event_to_app(self) -> None:
        on_text = self.on_text
        if on_text is not None and self.curr_msg_data_type == "text" and not self.close_sent:
            data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
            try:
                text = data.decode()
            except UnicodeDecodeError:
                pass  # the parent's way: a close with 1007
            else:
                self.frames = []
                on_text(text)
                return
        paused = self.read_paused
        self.read_paused = True  # the parent pauses when it was not: it is not to, yet
        try:
            super().send_receive_event_to_app()
        finally:
            self.read_paused = paused
        if not paused and self.queue.qsize() >= READ_AHEAD:
            self.read_paused = True
            self.transport.pause_reading()

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:  # None: the handshake was refused
            scope[SCOPE_KEY] = self

    def write_text(self, payloads: list[bytes]) -> bool:
        """Write each payload (JSON text) as a text frame, all in one write; False (nothing
        written) when the connection is closing or its transport is paused."""
        if (
            self.close_sent
            or self.disconnected
            or not self.writable.is_set()
            or self.conn.state is not State.OPEN
            or self.transport.is_closing()
        ):
            return False
        if len(payloads) == 1:
            self.transport.write(text_frame(payloads[0]))
        else:
            self.transport.write(b"".join([text_frame(p) for p in payloads]))
        return True
