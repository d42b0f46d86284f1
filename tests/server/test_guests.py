"""Issue 12, item 12: a guest who went away is forgotten once the grace period is over (here
two seconds, `CARDROOM_GRACE_S`): their token no longer enters and their row leaves the
database, as do the rows of guests of an earlier run. A guest still connected is kept; a guest
seated at a game in play keeps their seat for the grace period, and the game's record keeps
their name after they are forgotten. docs/security.md."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path
from typing import Any

from cardroom.server.wire import PROTOCOL_VERSION
from tests.server.live import Client, LiveServer, run_server

FAST_KITTENS = {
    "nope_window_ms": 300,
    "turn_ms": 1500,
    "defuse_ms": 1000,
    "choose_ms": 800,
    "bot_think_ms": 0,
}


def guests(data: Path) -> set[str]:
    with sqlite3.connect(data / "cardroom.sqlite3") as db:
        return {name for (name,) in db.execute("SELECT name FROM players WHERE account_id IS NULL")}


def seated(data: Path) -> list[tuple[str | None, int]]:
    """(name, seat) of the people in the games recorded, bots as None."""
    with sqlite3.connect(data / "cardroom.sqlite3") as db:
        rows = db.execute("SELECT name, seat, bot_level FROM game_seats ORDER BY game_id, seat").fetchall()
    return [(None if level else name, seat) for name, seat, level in rows]


async def enter_again(server: LiveServer, token: str) -> dict[str, Any]:
    """Hello with an earlier token: the welcome, or the error that refused it."""
    client = await Client.connect_raw(
        server.ws_url, {"type": "hello", "protocol": PROTOCOL_VERSION, "name": "", "token": token}
    )
    try:
        while True:
            message = await client.recv()
            if message["type"] in ("welcome", "error"):
                return message
    finally:
        await client.close()


async def wait_for(what: Any, limit_s: float = 30) -> None:
    deadline = time.monotonic() + limit_s
    while not what():
        assert time.monotonic() < deadline, "not in time"
        await asyncio.sleep(0.2)


def test_idle_guests_are_forgotten_and_what_games_need_is_kept(tmp_path: Path) -> None:
    env = {"CARDROOM_DATA": str(tmp_path), "CARDROOM_GRACE_S": "2"}
    with run_server(env) as server:

        async def scenario() -> None:
            idle = await Client.connect(server.ws_url, "Idle")
            await idle.close()
            player = await Client.connect(server.ws_url, "Player")
            await player.send(
                {"type": "create_table", "game": "kittens", "seats": 2, "bots": 1, "options": FAST_KITTENS}
            )
            table = await player.expect("table")
            await player.send({"type": "start", "table": table["table"]})
            await player.expect("table", state="playing")
            await player.close()
            online = await Client.connect(server.ws_url, "Online")
            assert idle.token and player.token and online.token
            # Within the grace period everyone is still known: the player takes their seat back.
            back = await enter_again(server, player.token)
            assert back["type"] == "welcome" and back["tables"] == [table["table"]]
            # Only a guest who sat at a table has a row (issue 22): the others are in memory.
            await wait_for(lambda: "Player" in guests(tmp_path))
            assert guests(tmp_path) == {"Player"}

            # The player's seat went to a bot for good after the grace period, the table closed
            # with nobody at it (the game abandoned); the game's record still names them.
            await wait_for(lambda: "Player" not in guests(tmp_path))
            assert seated(tmp_path) == [("Player", 0), (None, 1)]
            refused = await enter_again(server, idle.token)  # gone before the player
            assert refused["type"] == "error" and refused["code"] == "bad_token"
            assert (await enter_again(server, player.token))["code"] == "bad_token"
            # Connected all along: kept (its token still enters).
            assert (await enter_again(server, online.token))["type"] == "welcome"
            await online.close()

        asyncio.run(scenario())

    # A restart forgets the guests of the earlier run who hold no seat at an open table.
    with run_server(env) as server:
        asyncio.run(wait_for(lambda: "Online" not in guests(tmp_path)))
        assert server.health()["ok"]


def test_guests_who_never_sat_at_a_table_leave_no_row(tmp_path: Path) -> None:
    """Issue 22: reconnecting as ever new guests made 6,755 rows. A guest who only looks
    around, chats or watches needs none: a restart forgets guests at no table anyway."""
    with run_server({"CARDROOM_DATA": str(tmp_path)}) as server:

        async def scenario() -> None:
            for i in range(20):
                passer = await Client.connect(server.ws_url, f"Passer{i}")
                await passer.send({"type": "chat", "text": "hi"})
                await passer.close()
            host = await Client.connect(server.ws_url, "Host")
            await host.send({"type": "create_table", "game": "kittens", "seats": 2})
            table = await host.expect("table")
            watcher = await Client.connect(server.ws_url, "Watcher")
            await watcher.send({"type": "spectate", "table": table["table"]})
            await watcher.expect("table")
            sitter = await Client.connect(server.ws_url, "Sitter")
            await sitter.send({"type": "join", "table": table["table"]})
            await sitter.expect("table")
            # The journal writes in order: once the last seat's row is in, all before it are.
            await wait_for(lambda: "Sitter" in guests(tmp_path))
            assert guests(tmp_path) == {"Host", "Sitter"}
            for client in (host, watcher, sitter):
                await client.close()

        asyncio.run(scenario())
