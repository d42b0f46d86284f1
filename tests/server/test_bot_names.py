"""A person named like a bot of their table: the bot gives way (a table's bots are named like
people when the host seats them, and a guest may come later under one of those names).

A module of its own, with a server of its own: a guest seated at a table holds their name
while they may come back, and the names here are the bots' own (tests/server/test_names.py
uses some of them for guests of its own)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from tests.server.live import LiveServer, run_server
from tests.server.test_names import hello


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    with run_server() as server:
        yield server


def test_a_person_who_sits_down_under_a_bots_name_keeps_it_and_the_bot_takes_another(
    live: LiveServer,
) -> None:
    """A table's bots are named when the host seats them; a guest called like one of them who
    joins later keeps their name and the bot takes another: two seats never read alike ("Chloé
    throws at Chloé", a War at a table of six played with a guest named Chloé)."""

    async def scenario() -> tuple[list[str], list[str], str]:
        _welcome, host = await hello(live, "Ottavia")
        await host.send({"type": "create_table", "game": "burrito", "seats": 4, "bots": 2})
        table = await host.expect("table")
        while sum(1 for seat in table["seats"] if seat["bot"]) < 2:
            table = await host.expect("table", id=table["id"])
        before = [seat["name"] for seat in table["seats"]]
        bot = before[1]
        welcome, guest = await hello(live, bot)
        assert welcome["type"] == "welcome", welcome
        await guest.send({"type": "join", "table": table["id"]})
        joined = await guest.expect("table", id=table["id"])
        await guest.close()
        await host.close()
        return before, [seat["name"] for seat in joined["seats"]], bot

    before, after, bot = asyncio.run(scenario())
    assert after.count(bot) == 1 and len(set(after)) == len(after), (before, after)
    assert sum(1 for name in after if name) == 4, after
