"""A real server process on a free port, and a real websocket client, for tests."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class LiveServer:
    url: str
    ws_url: str
    process: subprocess.Popen[bytes]
    log: str = ""

    def health(self) -> dict[str, Any]:
        with urllib.request.urlopen(self.url + "/healthz", timeout=5) as reply:
            data: dict[str, Any] = json.loads(reply.read())
            return data


@contextlib.contextmanager
def run_server(extra_env: dict[str, str] | None = None) -> Iterator[LiveServer]:
    """Start `cardroom serve` on a free port; stop it afterwards."""
    port = free_port()
    data = tempfile.TemporaryDirectory()  # its own database, unless the caller names a data folder
    env = {**os.environ, "CARDROOM_DATA": data.name, **(extra_env or {})}
    env.pop("CARDROOM_DB", None)
    # The server's log goes to a file: a pipe nobody reads would fill up and stall the server.
    log = tempfile.TemporaryFile()  # noqa: SIM115  (closed in the finally below, after the server)
    process = subprocess.Popen(
        [sys.executable, "-m", "cardroom", "serve", "--port", str(port), "--log-level", "warning"],
        stdout=subprocess.DEVNULL,
        stderr=log,
        env=env,
    )
    server = LiveServer(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/ws", process)
    deadline = time.monotonic() + 30
    while True:
        try:
            server.health()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                process.wait()
                log.seek(0)
                err = log.read().decode(errors="replace")
                log.close()
                raise RuntimeError(f"server did not start: {err}") from None
            time.sleep(0.1)
    try:
        yield server
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.seek(0)
        server.log = log.read().decode(errors="replace")
        log.close()
        data.cleanup()


class Client:
    """A websocket client that keeps every message it received, for assertions."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.inbox: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.token: str | None = None
        self.player: str | None = None

    @classmethod
    async def connect(cls, url: str, name: str | None = None, token: str | None = None) -> Client:
        ws = await websockets.connect(url, max_size=None)
        client = cls(ws)
        hello: dict[str, Any] = {"type": "hello", "protocol": 1, "name": name or ""}
        if token:
            hello["token"] = token
        await client.send(hello)
        welcome = await client.expect("welcome")
        client.token = welcome["token"]
        client.player = welcome["player"]
        return client

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def recv(self, timeout: float = 10) -> dict[str, Any]:
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        self.raw.append(text)
        message: dict[str, Any] = json.loads(text)
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

    async def close(self) -> None:
        await self.ws.close()
