"""One client connection: who it is, its bounded send queue, its rate limits and its lag.

A slow client never slows a table: messages go into a bounded queue that one writer task
drains; a connection whose queue is full, or whose oldest unsent message has waited longer
than `Limits.behind_s`, is dropped (it may reconnect and resync). The time rule catches a
client that reads, but slower than its tables talk: its queue may never fill, yet what it
reads is ever older and the server holds ever more for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from cardroom.server import closes
from cardroom.server.limits import Limits
from cardroom.server.reading import SCOPE_KEY, ReadAheadProtocol
from cardroom.server.wire import encode

log = logging.getLogger("cardroom.server")

SEND_QUEUE = 512
FRAME_BYTES = 256 * 1024
"""Messages are gathered into one frame up to about this size (a bigger message goes alone)."""


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
    """The tables of this node the player is at (seated or watching)."""
    away: dict[str, str] = field(default_factory=dict)
    """The tables of other nodes of a cluster the player is at through this node: table id ->
    the node that owns it (their messages are relayed there: server/relay.py)."""
    gone_at: float | None = None
    """When (lobby clock) the player's last connection went away; None while connected."""
    chat_limit: RateLimit | None = None
    """Chat lines, per player (all their connections together); made by `Lobby.may_chat`."""
    kept: bool = False
    """Whether the store has the player's row (a guest gets one once seated: `Lobby._remember`)."""
    saving: asyncio.Future[None] | None = None
    """The write of that row, while it is under way: in a cluster the welcome waits for it
    (server/edge.py), so that another node finds the player by their token at once."""

    @property
    def here(self) -> bool:
        """Whether the player's websocket is open at this node (not relayed from another)."""
        connection = self.connection
        return connection is not None and connection.node is None and not connection.closed


class RateLimit:
    """A token bucket: `rate` messages a second, bursts up to `burst`."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()
        self.strikes = 0

    def _refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def spent(self) -> bool:
        """Whether `allow` would say no now; asking uses nothing up."""
        self._refill()
        return self.tokens < 1

    def allow(self) -> bool:
        self._refill()
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.strikes += 1
        return False


def frames(messages: list[bytes], limit: int = FRAME_BYTES) -> Iterator[bytes]:
    """Encoded messages as the payloads of websocket text frames: one message as itself,
    several as a JSON array of them in order, each frame holding up to about `limit` bytes."""
    if len(messages) == 1:
        yield messages[0]
        return
    group: list[bytes] = []
    size = 0
    for data in messages:
        if group and size + len(data) > limit:
            yield _frame(group)
            group, size = [], 0
        group.append(data)
        size += len(data) + 1
    if group:
        yield _frame(group)


def _frame(group: list[bytes]) -> bytes:
    if len(group) == 1:
        return group[0]
    return b"[" + b",".join(group) + b"]"


class Outbox:
    """The connections of one event loop that were sent something in this turn of the loop:
    one callback at the next turn flushes them all (`Connection._flush`), rather than one
    callback, or one task woken, per connection."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.due: list[Connection] = []

    def add(self, connection: Connection) -> None:
        if not self.due:
            self.loop.call_soon(self.flush)
        self.due.append(connection)

    def flush(self) -> None:
        due, self.due = self.due, []
        for connection in due:
            try:
                connection._flush()
            except Exception:  # one connection's failure is no other's
                log.exception("flushing a connection failed")


_outboxes: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Outbox] = weakref.WeakKeyDictionary()


def outbox() -> Outbox:
    """The running loop's `Outbox`."""
    loop = asyncio.get_running_loop()
    box = _outboxes.get(loop)
    if box is None:
        box = _outboxes[loop] = Outbox(loop)
    return box


class Connection:
    """A websocket after its hello: sends never block the caller.

    What is queued in one turn of the event loop goes out together at the next: one message as
    a frame of its own, several as one frame holding a JSON array of them, in order (protocol
    2). It goes straight to the socket when it can (`ReadAheadProtocol.write_text`: no task
    to wake, no ASGI layers per message); while the socket's buffer is full, or when the
    connection closes, the writer task takes it the ASGI way, which waits for the peer.
    """

    node: str | None = None
    """None for a websocket of this node; for a player connected to another node of a cluster
    and at a table of this one, that node (server/relay.py)."""

    def __init__(
        self, websocket: WebSocket | None, queue_size: int = SEND_QUEUE, limits: Limits | None = None
    ) -> None:
        limits = limits or Limits()
        self.websocket = websocket
        self.opened_ms = time.time() * 1000
        """Wall-clock time it opened: of two connections of one player at two nodes, the later
        one stays (server/relay.py), whatever order the nodes hear of them in."""
        self.queue_size = queue_size
        self.behind_s = limits.behind_s
        self.address = "?"
        self.pending: list[bytes] = []
        self.queued_at = 0.0
        """When the oldest message waiting in `pending` was queued."""
        self.sending_since: float | None = None
        """When the oldest message of the batch the writer is sending was queued (None: idle)."""
        self.waiter: asyncio.Future[None] | None = None
        self.player: Player | None = None
        self.session: str | None = None
        """The digest of the account session this connection entered with, if any."""
        self.closed = False
        self.close_code: int | None = None
        self.limit = RateLimit(limits.messages_per_s, limits.messages_burst)
        self.list_limit = RateLimit(limits.list_per_s, limits.list_burst)
        self.pings: dict[int, float] = {}
        self.next_ping = 1
        self.writer: asyncio.Task[None] | None = None
        self.on_close: Callable[[], None] | None = None
        self.outbox: Outbox | None = None
        """Set by `start`: a connection not started (a test's) only keeps what it is sent."""
        self.flush_due = False
        """Whether this connection is in its outbox for the loop's next turn."""
        self.held: list[bytes] | None = None
        """What waits for the welcome (`hold`, `first`); None: nothing is held."""
        self.moves = False
        """Whether the client follows a `move` to its table's node (its hello said so)."""
        scope = websocket.scope if websocket is not None else {}
        self.direct: ReadAheadProtocol | None = scope.get(SCOPE_KEY)
        """The socket's protocol, to write frames through (None under another ASGI server)."""

    def start(self) -> None:
        self.outbox = outbox()
        self.writer = asyncio.create_task(self._write())

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message; a connection that cannot keep up is dropped."""
        self.send_raw(encode(message))

    def hold(self) -> None:
        """Keep what is sent until `first`: the answer to a hello is a connection's first
        message. A cluster's welcome waits for the player's row while the player is already in
        the lobby, and a ping or a lobby chat line went out before it (a client must not be
        asked for a pong, or told a line, before it knows who it is)."""
        self.held = []

    def first(self, message: dict[str, Any]) -> None:
        """Send `message`, then what was held since `hold`."""
        held, self.held = self.held or [], None
        self.send(message)
        for data in held:
            self.send_raw(data)

    def send_raw(self, data: bytes) -> None:
        if self.closed:
            return
        if self.held is not None:
            self.held.append(data)
            return
        now = time.monotonic()
        if len(self.pending) >= self.queue_size or self.behind(now) > self.behind_s:
            log.info("dropping a slow connection")
            self.close(closes.SLOW_CONSUMER)
            return
        if not self.pending:
            self.queued_at = now
        self.pending.append(data)
        if not self.flush_due and self.outbox is not None:
            self.flush_due = True
            self.outbox.add(self)

    def _flush(self) -> None:
        """What this turn queued, straight to the socket; to the writer task when it cannot go
        straight (the socket's buffer full, the writer busy with an earlier batch, closing)."""
        self.flush_due = False
        direct, pending = self.direct, self.pending
        # A lone message is its own frame (`frames`): the usual case under load.
        if (
            direct is not None
            and pending
            and self.sending_since is None
            and not self.closed
            and direct.write_text(pending if len(pending) == 1 else list(frames(pending)))
        ):
            self.pending = []
            return
        self._wake()

    def behind(self, now: float) -> float:
        """How long the oldest message not yet handed to the network has waited, in seconds."""
        oldest = self.sending_since
        if oldest is None and self.pending:
            oldest = self.queued_at
        return 0.0 if oldest is None else now - oldest

    def _wake(self) -> None:
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def close(self, code: int = closes.NORMAL) -> None:
        """Close once what is queued has gone out; a slow consumer's backlog is dropped instead."""
        if self.closed:
            return
        self.closed = True
        self.close_code = code
        if code == closes.SLOW_CONSUMER or len(self.pending) >= self.queue_size:
            self.pending.clear()
        self._wake()
        if self.on_close is not None:
            # Soon, not now: a close can happen in the middle of a table's broadcast.
            asyncio.get_running_loop().call_soon(self.on_close)

    async def _write(self) -> None:
        # `send_text` waits while the transport is paused (its buffer is over the high-water
        # mark because the peer does not read): then the queue fills and `send_raw` drops us.
        # The close frame goes out after what the peer has yet to read, or never if it never reads.
        ws = self.websocket
        assert ws is not None, "a relayed connection has no writer"
        loop = asyncio.get_running_loop()
        try:
            while True:
                if not self.pending:
                    if self.closed:
                        break
                    self.waiter = loop.create_future()
                    await self.waiter
                    self.waiter = None
                    continue
                batch = self.pending
                self.pending = []
                payloads = list(frames(batch))
                if self.direct is not None and self.direct.write_text(payloads):
                    continue
                self.sending_since = self.queued_at
                for payload in payloads:
                    await ws.send_text(payload.decode())
                self.sending_since = None
        except Exception as exc:
            # The peer went away mid-send (the reader notices and cleans up), or the write
            # failed otherwise: then it is said, and the player leaves the lobby now (their
            # seats get stand-ins), as for any connection the server drops, not kept seated
            # behind a connection nothing is written to any more.
            if not isinstance(exc, OSError | WebSocketDisconnect):
                log.exception("writing to a connection failed: it is closed")
            self.close(closes.GOING_AWAY)
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
