"""A game a player left counts for them as played to its end (docs/api.md#records-replays-
leaderboards): their seat's final place, the stand-in's result, is theirs. Over the real server,
on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from cardroom.server.wire import PROTOCOL_VERSION
from tests.server.live import Client, run_server
from tests.server.test_api import PASSWORD, call

QUICK_KITTENS = {
    "nope_window_ms": 300,
    "turn_ms": 3000,
    "defuse_ms": 2000,
    "choose_ms": 2000,
    "bot_think_ms": 100,
}


def test_a_player_who_leaves_mid_game_is_rated_by_their_seats_final_place(db_url: str) -> None:
    """Anna (an account) starts a game with two bots and leaves it after its first move; Eve,
    a guest, watches it to its end. Anna's profile then counts the game, won or lost as her
    seat finished, and the game is in her rating history."""
    with run_server({"CARDROOM_DB": db_url, "CARDROOM_CLOCK_RATE": "10"}) as server:
        _, made = call(server, "POST", "/api/register", {"name": "Anna", "password": PASSWORD})

        async def go() -> tuple[str, int]:
            anna = await Client.connect_raw(
                server.ws_url, {"type": "hello", "protocol": PROTOCOL_VERSION, "session": made["token"]}
            )
            await anna.expect("welcome")
            await anna.send(
                {"type": "create_table", "game": "kittens", "seats": 3, "bots": 2, "options": QUICK_KITTENS}
            )
            table = (await anna.expect("table"))["table"]
            eve = await Client.connect(server.ws_url, "Eve")
            await eve.send({"type": "spectate", "table": table})
            await eve.expect("table", table=table)
            await anna.send({"type": "start", "table": table})
            seat = (await anna.expect("table", table=table, state="playing"))["you"]
            await anna.expect("events", table=table)
            await anna.send({"type": "leave", "table": table})
            await anna.expect("tables")  # back in the lobby
            await eve.expect("table", table=table, state="over", timeout=120)
            await anna.close()
            await eve.close()
            return table, seat

        _table, seat = asyncio.run(go())
        deadline = time.monotonic() + 10
        while True:  # the end and the rating are written just after the players hear it
            status, profile = call(server, "GET", "/api/players/Anna")
            if profile["games"] or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        _, records = call(server, "GET", "/api/records")
    assert status == 200
    (record,) = records["records"]
    anna_seat: dict[str, Any] = record["seats"][seat]
    assert anna_seat["name"] == "Anna" and anna_seat["account"]
    kittens = profile["games"]["kittens"]
    assert kittens["played"] == 1  # the game she left counts for her...
    assert kittens["won"] == (1 if anna_seat["place"] == 1 else 0)  # ...as her seat finished
    assert [point["game_id"] for point in kittens["history"]] == [record["id"]]
