"""Issue 12, item 7: a private table is for its members. An outsider who knows its id (the
lobby no longer lists private tables since issue 23, but an id can still be learnt) gets
neither its state nor its chat (and so not the invitation code said there), cannot question
it, and cannot disturb its members by "leaving" it."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.server.live import Client, LiveServer

SLOW = {"turn_ms": 60_000}


async def _private_game(host: Client) -> dict[str, Any]:
    await host.send(
        {"type": "create_table", "game": "kittens", "seats": 2, "bots": 1, "options": SLOW, "private": True}
    )
    created = await host.expect("table")
    await host.send({"type": "chat", "table": created["table"], "text": f"the code is {created['code']}"})
    await host.expect("chat")
    await host.send({"type": "start", "table": created["table"]})
    return await host.expect("table", state="playing")


async def _quiet(client: Client, seconds: float) -> list[dict[str, Any]]:
    """Everything `client` receives in the next `seconds`."""
    got: list[dict[str, Any]] = []
    try:
        while True:
            got.append(await client.recv(seconds))
    except TimeoutError:
        return got


def test_an_outsider_gets_nothing_of_a_private_table(server: LiveServer) -> None:
    async def scenario() -> None:
        host = await Client.connect(server.ws_url, "Hostess")
        table = await _private_game(host)
        outsider = await Client.connect(server.ws_url, "Snoop")
        # Guessing the code at the websocket's message rate would take years (40 bits).
        assert len(table["code"]) == 10 and int(table["code"], 16) >= 0
        listed = await outsider.expect("tables")
        assert table["table"] not in [t["id"] for t in listed["tables"]]  # not listed (issue 23)
        await _quiet(host, 0.3)

        for message in (
            {"type": "resume", "table": table["table"], "since": 0},
            {"type": "query", "table": table["table"], "what": "turn"},
            {"type": "query", "table": table["table"], "what": "counts"},
            {"type": "leave", "table": table["table"]},
        ):
            await outsider.send(message)
            refused = await outsider.expect("error")
            assert refused["code"] == "not_member", (message, refused)
        got = await _quiet(outsider, 0.5)
        seen = "".join(outsider.raw)
        assert table["code"] not in seen and "the code is" not in seen
        assert not [m for m in got if m.get("type") in ("table", "events", "answer")]
        # The members heard nothing of it: no resync, no change.
        assert [m for m in await _quiet(host, 0.5) if m.get("type") == "table"] == []

        # A member still resumes and asks.
        await host.send({"type": "query", "table": table["table"], "what": "turn"})
        assert (await host.expect("answer"))["text"]
        await host.send({"type": "resume", "table": table["table"], "since": 0})
        resync = await host.expect("table")
        assert resync["code"] == table["code"] and resync["seats"][0]["name"] == "Hostess"
        for client in (host, outsider):
            await client.close()

    asyncio.run(scenario())
