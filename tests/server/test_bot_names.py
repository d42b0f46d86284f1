"""Bots' names. Issue 14: in Italian a bot level read "Bot normal". A level is stored as its code
and named in each reader's language: two players of different languages read the same leaderboard
row each in their own (cardroom/bots/names.py). And a person named like a bot of their table: the
bot gives way (a table's bots are named like people when the host seats them, and a guest may
come later under one of those names)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from tests.server.live import LiveServer, run_server
from tests.server.test_api import PASSWORD, call
from tests.server.test_names import hello
from tests.server.test_private_records import FAST_CLOCK, _play


def _bot_rows(server: LiveServer, lang: str) -> list[dict[str, Any]]:
    """The bots of the kittens leaderboard as the page asks for them in `lang` (`?lang=`)."""
    deadline = time.monotonic() + 15
    while True:
        status, answer = call(server, "GET", f"/api/leaderboard/kittens?lang={lang}")
        assert status == 200, answer
        bots = [p for p in answer["players"] if p["bot"]]
        if bots or time.monotonic() > deadline:
            return bots
        time.sleep(0.1)


def test_an_italian_player_reads_the_bot_level_in_italian_and_an_english_one_in_english() -> None:
    with run_server(FAST_CLOCK) as server:
        _, giulia = call(
            server, "POST", "/api/register", {"name": "Giulia", "password": PASSWORD, "lang": "it"}
        )
        assert giulia["profile"]["lang"] == "it"
        _play(server, giulia["token"], "Giulia", private=False, level="normal")
        (italian,) = _bot_rows(server, "it")
        (english,) = _bot_rows(server, "en")
        assert italian["level"] == english["level"] == "normal"
        assert italian["name"] == "Bot (normale)"
        assert english["name"] == "Bot (normal)"
        status, by_header = call(server, "GET", "/api/leaderboard/kittens", headers={"Accept-Language": "it"})
        assert status == 200 and [p["name"] for p in by_header["players"] if p["bot"]] == ["Bot (normale)"]


def test_a_person_who_sits_down_under_a_bots_name_keeps_it_and_the_bot_takes_another() -> None:
    """A table's bots are named when the host seats them; a guest called like one of them who
    joins later keeps their name and the bot takes another: two seats never read alike ("Chloé
    throws at Chloé", a War at a table of six played with a guest named Chloé). A server of its
    own: a guest seated at a table holds their name while they may come back, and other modules'
    guests take some of the bots' names (tests/server/test_names.py)."""

    async def scenario(live: LiveServer) -> tuple[list[str], list[str], str]:
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

    with run_server() as live:
        before, after, bot = asyncio.run(scenario(live))
    assert after.count(bot) == 1 and len(set(after)) == len(after), (before, after)
    assert sum(1 for name in after if name) == 4, after
