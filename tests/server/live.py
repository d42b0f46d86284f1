"""A real websocket client for tests; the real server process comes from cardroom.server.process."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections import deque
from collections.abc import AsyncIterator
from typing import Any

import uvicorn
import websockets

from cardroom.server.app import create_app
from cardroom.server.lobby import Lobby
from cardroom.server.process import LiveServer, free_port, run_server
from cardroom.server.reading import ReadAheadProtocol
from cardroom.server.serve import SHUTDOWN_S
from cardroom.server.wire import PROTOCOL_VERSION, messages

__all__ = ["Client", "LiveServer", "free_port", "in_process", "run_server"]


@contextlib.asynccontextmanager
async def in_process(lobby: Lobby, listener: socket.socket | None = None) -> AsyncIterator[int]:
    """The app around `lobby`, served in this process (for tests that look inside the server while
    it runs) on `listener`'s port, else a free one; its port."""
    port = listener.getsockname()[1] if listener is not None else free_port()
    config = uvicorn.Config(
        create_app(lobby),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws=ReadAheadProtocol,
        timeout_graceful_shutdown=SHUTDOWN_S,  # as `cardroom serve`: a stuck close never holds a test
    )
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve(sockets=[listener] if listener is not None else None))
    while not server.started:
        await asyncio.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        await serving


class Client:
    """A websocket client that keeps every message it received, for assertions."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.inbox: list[dict[str, Any]] = []
        self.raw: list[str] = []  # for each message in the inbox, the frame it came in
        self.frames: list[str] = []
        self.unread: deque[tuple[dict[str, Any], str]] = deque()
        self.token: str | None = None
        self.player: str | None = None

    @classmethod
    async def connect(cls, url: str, name: str | None = None, token: str | None = None) -> Client:
        ws = await websockets.connect(url, max_size=None)
        client = cls(ws)
        hello: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL_VERSION, "name": name or ""}
        if token:
            hello["token"] = token
        await client.send(hello)
        welcome = await client.expect("welcome")
        client.token = welcome["token"]
        client.player = welcome["player"]
        return client

    @classmethod
    async def connect_raw(cls, url: str, hello: dict[str, Any]) -> Client:
        """Connect and send `hello` as given (its answer is left to the caller)."""
        client = cls(await websockets.connect(url, max_size=None))
        await client.send(hello)
        return client

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def recv(self, timeout: float = 10) -> dict[str, Any]:
        """The next message: frames holding several (protocol 2) are taken apart in order."""
        if not self.unread:
            text = await asyncio.wait_for(self.ws.recv(), timeout)
            self.frames.append(text)
            self.unread.extend((message, text) for message in messages(text))
        message, text = self.unread.popleft()
        self.raw.append(text)
        self.inbox.append(message)
        return message

    async def expect(self, kind: str, timeout: float = 10, **fields: Any) -> dict[str, Any]:
        """The next message of `kind` (with these fields), skipping others."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise TimeoutError(f"no {kind} message with {fields}")
            message = await self.recv(left)
            if message.get("type") == kind and all(message.get(k) == v for k, v in fields.items()):
                return message

    async def create_table(self, game: str, seats: int, **fields: Any) -> dict[str, Any]:
        """Ask for a table and return the server's "table" message for it: most tests begin so.
        `fields` are the request's others (bots, options, private), sent only when given."""
        await self.send({"type": "create_table", "game": game, "seats": seats, **fields})
        return await self.expect("table")

    async def start_to_my_turn(self, table: str) -> dict[str, Any]:
        """Start `table` and wait for the first turn of this client (in the first seat); its view."""
        await self.send({"type": "start", "table": table})
        while True:
            message = await self.recv(30)
            view = message.get("view") or {}
            if (
                message.get("type") in ("table", "events")
                and view.get("turn") == 0
                and view.get("phase") == "turn"
            ):
                return view

    async def close(self) -> None:
        await self.ws.close()
