"""Issue 23, "An evening with friends on their phones": a private table is not listed to others,
Play now seats a player at the fullest open table (or opens one that starts by itself), and a
rematch is a vote: it starts when every player said ready, or when the host starts it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.live import Client, LiveServer, run_server

QUICK = {"turn_ms": 300, "defuse_ms": 300, "choose_ms": 300, "nope_window_ms": 100, "bot_think_ms": 0}


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    """A server whose Play now tables start by themselves after a second."""
    with run_server(extra_env={"CARDROOM_PLAY_NOW_S": "1"}) as live:
        yield live


async def _game_over(server: LiveServer, names: tuple[str, str]) -> tuple[Client, Client, str]:
    """Two people at a two-seat table of quick timers, their first game over (the timers play
    for them)."""
    host = await Client.connect(server.ws_url, names[0])
    await host.send({"type": "create_table", "game": "kittens", "seats": 2, "options": QUICK})
    table = (await host.expect("table"))["table"]
    friend = await Client.connect(server.ws_url, names[1])
    await friend.send({"type": "join", "table": table})
    await friend.expect("table", you=1)
    await host.send({"type": "start", "table": table})
    for client in (host, friend):
        await client.expect("table", state="over", timeout=120)
    return host, friend, table


async def _next_table(client: Client, timeout: float = 10) -> dict[str, Any]:
    return await client.expect("table", timeout=timeout)


def test_a_rematch_starts_only_when_both_players_are_ready(server: LiveServer) -> None:
    async def scenario() -> None:
        host, friend, table = await _game_over(server, ("Dora", "Fenna"))
        await friend.send({"type": "rematch", "table": table})
        for client in (host, friend):  # everyone sees who is ready; nobody's game started
            seen = await _next_table(client)
            assert seen["state"] == "over" and seen["ready"] == [1], seen
        await friend.send({"type": "rematch", "table": table, "ready": False})
        assert (await _next_table(host))["ready"] == []
        await friend.send({"type": "rematch", "table": table})
        assert (await _next_table(host))["ready"] == [1]
        await host.send({"type": "rematch", "table": table})
        for client in (host, friend):
            started = await client.expect("table", state="playing")
            assert started["state"] == "playing" and started["ready"] == [], started
            assert not any(seat["standing_in"] or seat["bot"] for seat in started["seats"])
        for client in (host, friend):
            await client.close()

    asyncio.run(scenario())


def test_the_host_starts_the_rematch_with_a_bot_for_who_never_answered(server: LiveServer) -> None:
    async def scenario() -> None:
        host, friend, table = await _game_over(server, ("Hanna", "Gijs"))
        await friend.send({"type": "start", "table": table})
        assert (await friend.expect("error"))["code"] == "not_host"
        await host.send({"type": "start", "table": table})
        started = await host.expect("table", state="playing")
        assert started["seats"][1]["standing_in"] and started["seats"][1]["name"] == "Gijs"
        assert not started["seats"][0]["standing_in"]
        await friend.expect("table", state="playing")
        await friend.send({"type": "join", "table": table})  # the seat taken back
        back = await friend.expect("table", state="playing", you=1)
        assert not back["seats"][1]["standing_in"]
        for client in (host, friend):
            await client.close()

    asyncio.run(scenario())


def test_a_private_table_is_not_in_another_players_list(server: LiveServer) -> None:
    async def scenario() -> None:
        host = await Client.connect(server.ws_url, "Priv")
        await host.send({"type": "create_table", "game": "burrito", "seats": 4, "private": True})
        created = await host.expect("table")
        outsider = await Client.connect(server.ws_url, "Passer")
        listed = await outsider.expect("tables")
        assert created["table"] not in [t["id"] for t in listed["tables"]]
        await host.send({"type": "add_bot", "table": created["table"]})
        await host.expect("table")
        friend = await Client.connect(server.ws_url, "Invited")
        await friend.send({"type": "join", "table": created["table"], "code": created["code"]})
        await friend.expect("table", you=2)
        await outsider.send({"type": "list_tables"})
        listed = await outsider.expect("tables")
        assert created["table"] not in [t["id"] for t in listed["tables"]]
        assert created["table"] not in "".join(outsider.raw)  # no table_update named it either
        for client in (host, outsider, friend):
            await client.close()

    asyncio.run(scenario())


def test_play_now_seats_a_player_at_the_fullest_open_public_table(server: LiveServer) -> None:
    async def scenario() -> None:
        emptier = await Client.connect(server.ws_url, "Emma")
        await emptier.send({"type": "create_table", "game": "burrito", "seats": 4})
        empty_id = (await emptier.expect("table"))["table"]
        fuller = await Client.connect(server.ws_url, "Fred")
        await fuller.send({"type": "create_table", "game": "burrito", "seats": 4, "bots": 2})
        full_id = (await fuller.expect("table"))["table"]
        hidden = await Client.connect(server.ws_url, "Hilde")
        await hidden.send(
            {"type": "create_table", "game": "burrito", "seats": 4, "bots": 3 - 1, "private": True}
        )
        await hidden.expect("table")
        newcomer = await Client.connect(server.ws_url, "Nina")
        await newcomer.send({"type": "play_now", "game": "burrito"})
        seated = await newcomer.expect("table")
        assert seated["table"] == full_id and seated["you"] == 3 and not seated["is_host"]
        assert empty_id != full_id
        await newcomer.send({"type": "play_now", "game": "chess"})
        assert (await newcomer.expect("error"))["code"] == "bad_game"
        for client in (emptier, fuller, hidden, newcomer):
            await client.close()

    asyncio.run(scenario())


def test_play_now_opens_a_table_that_starts_by_itself_and_a_friend_joins_it(server: LiveServer) -> None:
    async def scenario() -> None:
        first = await Client.connect(server.ws_url, "Paula")
        await first.send({"type": "play_now", "game": "kittens"})
        opened = await first.expect("table")
        if opened["starts_in_ms"] is None:  # seated first, then the countdown
            opened = await first.expect("table")
        assert opened["is_host"] and opened["state"] == "waiting" and opened["starts_in_ms"] is not None
        assert 0 < opened["starts_in_ms"] <= 1000
        friend = await Client.connect(server.ws_url, "Quinn")
        await friend.send({"type": "play_now", "game": "kittens"})
        joined = await friend.expect("table")
        assert joined["table"] == opened["table"] and joined["you"] == 1
        started = await first.expect("table", state="playing", timeout=15)
        names = [seat["name"] for seat in started["seats"]]
        assert names[:2] == ["Paula", "Quinn"] and all(seat["bot"] for seat in started["seats"][2:])
        assert started["starts_in_ms"] is None
        for client in (first, friend):
            await client.close()

    asyncio.run(scenario())
