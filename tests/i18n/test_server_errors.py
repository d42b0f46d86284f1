"""Issue 6: the server's errors reach each person in their own language."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest
import websockets

from cardroom.i18n import LANGUAGES, _, use_language
from cardroom.server.wire import PROTOCOL_VERSION, messages
from tests.server.live import LiveServer, run_server


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with run_server() as live:
        yield live


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_error_is_said_in_the_senders_language(server: LiveServer, lang: str) -> None:
    with use_language(lang):
        expected = _("That table does not exist (any more).")

    async def ask() -> str:
        async with websockets.connect(server.ws_url) as ws:
            await ws.send(
                json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION, "name": f"E-{lang}", "lang": lang})
            )
            await ws.send(json.dumps({"type": "join", "table": "no-such-table"}))
            while True:
                for message in messages(await asyncio.wait_for(ws.recv(), 10)):
                    if message["type"] == "error":
                        return str(message["message"])

    assert asyncio.run(ask()) == expected
    if lang != "en":
        assert expected != "That table does not exist (any more)."
