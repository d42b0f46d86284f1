"""Issue 22: `cardroom connect` printed what came from the network raw, so an escape sequence
in a name, a chat line, a table's host or an error could clear the screen, move the cursor
over earlier lines, retitle the window, or (a bidirectional override) make a line read
backwards. Our server refuses such names and chat lines, but a client may be pointed at any
server: here a hostile one, a real websocket server on the loopback, sends them to the real
client, and nothing but the plain text reaches the terminal (cardroom/clients/terminal/plain.py)."""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import websockets

from cardroom.server.process import free_port
from cardroom.server.wire import PROTOCOL_VERSION
from tests.clients.test_connect import Terminal

HOSTILE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")

CLEAR, HOME, UP, ERASE_LINE, RED, RESET = "\x1b[2J", "\x1b[H", "\x1b[1A", "\x1b[2K", "\x1b[31m", "\x1b[0m"
TITLE = "\x1b]0;You have been logged out\x07"


def frames() -> list[dict[str, Any]]:
    """What the hostile server answers a hello with."""
    table = {
        "id": "t1",
        "game": "kittens",
        "host": f"{CLEAR}Mal{RED}lory{RESET}{HOME}",
        "seats": [{"seat": 0, "name": f"Mal{RED}lory{RESET}"}, {"seat": 1, "name": None}],
        "state": "waiting",
        "free": 1,
        "private": False,
        "spectators": 0,
    }
    return [
        {
            "type": "welcome",
            "protocol": PROTOCOL_VERSION,
            "player": "p1",
            "name": f"{TITLE}Eve\u202e",
            "token": "tok",
            "tables": [],
            "account": None,
            "profile": None,
        },
        {"type": "tables", "tables": [table], "page": 0, "pages": 1, "total": 1},
        {
            "type": "lobby_chat",
            "chat": [
                {"from": f"Mod{ERASE_LINE}erator", "text": f"{UP}{ERASE_LINE}your\rpassword\x9b31m, please"}
            ],
        },
        {"type": "chat", "from": f"Mallory{RESET}", "text": f"{CLEAR}\u202egnirts\x07\x08 done"},
        {"type": "error", "code": "odd", "message": f"{RED}Something\x1bc went wrong\x1b"},
    ]


@pytest.fixture
def hostile_server() -> Iterator[str]:
    """A websocket server on the loopback that answers any hello with `frames()`."""
    port = free_port()
    ready = threading.Event()
    loop = asyncio.new_event_loop()
    stop: asyncio.Future[None] = loop.create_future()

    async def answer(ws: Any) -> None:
        async for raw in ws:
            if json.loads(raw).get("type") == "hello":
                for frame in frames():
                    await ws.send(json.dumps(frame))

    async def serve() -> None:
        async with websockets.serve(answer, "127.0.0.1", port):
            ready.set()
            await stop

    thread = threading.Thread(target=loop.run_until_complete, args=(serve(),), daemon=True)
    thread.start()
    assert ready.wait(10), "the hostile server did not start"
    try:
        yield f"ws://127.0.0.1:{port}/ws"
    finally:
        loop.call_soon_threadsafe(stop.set_result, None)
        thread.join(10)
        loop.close()


def test_nothing_the_server_sends_can_drive_the_terminal(hostile_server: str) -> None:
    term = Terminal(hostile_server, "Eve")
    try:
        term.expect(r"^Connected to .* as Eve\. Type help")
        term.expect(r"^Table 1: kittens, .*, host Mallory\.$")
        term.expect(r"^Moderator: yourpassword, please$")
        term.expect(r"^Mallory: gnirts done$")
        term.expect(r"^Something went wrong$")
        term.type("quit\n")
        term.finish()
    finally:
        term.kill()
    printed = "\n".join(term.lines)
    assert "logged out" not in printed  # the window title's text went with its sequence
    assert not HOSTILE.search(printed), [line for line in term.lines if HOSTILE.search(line)]
