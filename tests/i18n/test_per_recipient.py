"""One table, each player in their own language (issue 6), through the real server."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import websockets

from cardroom.server.wire import PROTOCOL_VERSION
from tests.server.live import Client, LiveServer, run_server


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with run_server() as live:
        yield live


async def connect(url: str, name: str, lang: str) -> Client:
    client = Client(await websockets.connect(url, max_size=None))
    await client.send({"type": "hello", "protocol": PROTOCOL_VERSION, "name": name, "lang": lang})
    welcome = await client.expect("welcome")
    client.token, client.player = welcome["token"], welcome["player"]
    return client


async def first_batches(url: str, langs: tuple[str, str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two players at one kittens table, in `langs`; the first batch of events each receives.
    Each call's players have names of their own: the last call's are still seated (a guest
    holds their name while seated, cardroom/store/names.py)."""
    host = await connect(url, f"Ann {'-'.join(langs)}", langs[0])
    guest = await connect(url, f"Bert {'-'.join(langs)}", langs[1])
    try:
        await host.send(
            {"type": "create_table", "game": "kittens", "seats": 2, "options": {"turn_ms": 60_000}}
        )
        table: str = (await host.expect("table"))["id"]
        await guest.send({"type": "join", "table": table})
        await guest.expect("table", id=table)
        await host.send({"type": "start", "table": table})
        return (
            await host.expect("events", table=table, timeout=15),
            await guest.expect("events", table=table, timeout=15),
        )
    finally:
        await host.close()
        await guest.close()


def run(url: str, langs: tuple[str, str]) -> tuple[dict[str, Any], dict[str, Any]]:
    with ThreadPoolExecutor(1) as pool:  # its own loop: the browser tests leave one in this thread
        return pool.submit(lambda: asyncio.run(first_batches(url, langs))).result()


def test_two_players_in_one_language_hear_the_same_deal(server: LiveServer) -> None:
    en, other = run(server.ws_url, ("en", "en"))
    assert [e["event"] for e in en["events"]][:1] == ["deal"]
    assert [e["event"] for e in en["events"]] == [e["event"] for e in other["events"]]
    assert en["texts"][0] == other["texts"][0] == "The game begins: you hold 8 cards."


def test_each_player_at_one_table_hears_their_own_language(server: LiveServer) -> None:
    en, fr = run(server.ws_url, ("en", "fr"))
    assert [e["event"] for e in en["events"]] == [e["event"] for e in fr["events"]]
    assert en["texts"][0] == "The game begins: you hold 8 cards."
    assert fr["texts"][0] != en["texts"][0] and "8" in fr["texts"][0]
