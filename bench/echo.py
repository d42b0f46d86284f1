"""The floor of `bench.load`: an echo over the server's own websocket stack.

A Python server on this machine cannot spend less on an action than reading one message and
writing it to each member of its table. This server does only that, on the same stack as
`cardroom serve` (uvicorn with `ReadAheadProtocol`, Starlette, `Connection`'s writes gathered
per turn of the loop): each client names its group (its table) first, then every text it
sends goes, as it is, to every member of the group, itself included. `echo_load` drives it at
a given rate of messages a second from groups of the load run's size and measures the
server's CPU time per message: `bench.load` divides its own figure by it ("x echo").

`python -m bench.echo --port N` runs the server alone.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from typing import Any, cast

import uvicorn
import websockets
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket

from cardroom.server.connection import Connection
from cardroom.server.process import free_port
from cardroom.server.reading import ReadAheadProtocol
from cardroom.server.wire import MAX_MESSAGE_BYTES

PAYLOAD_BYTES = 1024
"""What each echoed message holds: about a batch's `events` message to one seat of a burrito
table of six (a view, a few events and their lines)."""


def app() -> Starlette:
    groups: dict[str, list[Connection]] = {}

    async def echo(websocket: WebSocket) -> None:
        await websocket.accept()
        connection = Connection(websocket)
        connection.start()
        name = await websocket.receive_text()
        group = groups.setdefault(name, [])
        group.append(connection)
        direct = connection.direct
        assert direct is not None, "the echo runs on the server's own protocol"

        def on_text(text: str) -> None:
            data = text.encode()
            for member in group:
                member.send_raw(data)

        direct.on_text = on_text
        try:
            while (await cast(Any, direct).receive())["type"] != "websocket.disconnect":
                pass
        finally:
            direct.on_text = None
            group.remove(connection)
            connection.close()
            assert connection.writer is not None
            await connection.writer

    async def health(_request: Any) -> PlainTextResponse:
        return PlainTextResponse("ok")

    return Starlette(routes=[WebSocketRoute("/ws", echo), Route("/healthz", health)])


def serve(port: int) -> None:
    config = uvicorn.Config(
        app(),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws=ReadAheadProtocol,
        ws_max_size=4 * MAX_MESSAGE_BYTES,
        ws_per_message_deflate=False,
        lifespan="off",
    )
    uvicorn.Server(config).run()


@contextlib.contextmanager
def run_echo() -> Iterator[tuple[str, int]]:
    """The echo server as a child process: its websocket address and process id."""
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "bench.echo", "--port", str(port)])
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the echo server did not start") from None
                time.sleep(0.1)
        yield f"ws://127.0.0.1:{port}/ws", process.pid
    finally:
        process.terminate()
        process.wait(10)


async def echo_load(
    ws_url: str, groups: int, size: int, rate: float, seconds: float, pid: int
) -> dict[str, Any]:
    """`groups` groups of `size` clients; one message every 1/`rate` s in all, from a member of
    each group in turn, read by all. The server's CPU time per message sent to it, in µs."""
    from bench.load import cpu_seconds  # here: bench.load imports this module

    sockets = []
    for g in range(groups):
        members = []
        for _ in range(size):
            ws = await websockets.connect(ws_url, max_size=None)
            await ws.send(f"g{g}")
            members.append(ws)
        sockets.append(members)
    payload = '{"type":"echo","pad":"' + "x" * (PAYLOAD_BYTES - 24) + '"}'
    sent = 0

    async def read(ws: Any) -> None:
        async for _frame in ws:
            pass

    async def talk(members: list[Any]) -> None:
        nonlocal sent
        every = groups / rate
        await asyncio.sleep(random.random() * every)  # the groups' moments spread, as tables'
        turn = 0
        while True:
            await members[turn % len(members)].send(payload)
            turn += 1
            sent += 1
            await asyncio.sleep(every)

    readers = [asyncio.create_task(read(ws)) for members in sockets for ws in members]
    await asyncio.sleep(1.0)  # every connection settled
    talkers = [asyncio.create_task(talk(members)) for members in sockets]
    await asyncio.sleep(1.0)
    before, started, counted = cpu_seconds(pid), time.perf_counter(), sent
    await asyncio.sleep(seconds)
    after, elapsed, counted = cpu_seconds(pid), time.perf_counter() - started, sent - counted
    for task in talkers + readers:
        task.cancel()
    await asyncio.gather(*talkers, *readers, return_exceptions=True)
    await asyncio.gather(*(ws.close() for members in sockets for ws in members), return_exceptions=True)
    used = None if before is None or after is None else after - before
    return {
        "echo_messages_per_s": round(counted / elapsed, 1),
        "echo_cpu_us_per_message": None if used is None else round(1e6 * used / max(1, counted), 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.echo")
    parser.add_argument("--port", type=int, default=8009)
    serve(parser.parse_args(argv).port)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
