"""Issue 12, item 14: a game played at a private table is recorded for the accounts that played
it: nobody else finds it in /api/records, on a player's page, as a summary, as replay frames or
as a scenario file (each answers as for a game that does not exist). A public table's game stays
public. docs/security.md."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import websockets

from cardroom.clients.botclient import NetBot
from cardroom.server.wire import PROTOCOL_VERSION
from tests.server.live import LiveServer, run_server
from tests.server.play import create_and_start, play_to_the_end
from tests.server.test_api import PASSWORD, call

FAST_KITTENS = {
    "nope_window_ms": 400,
    "turn_ms": 5000,
    "defuse_ms": 3000,
    "choose_ms": 2000,
    "bot_think_ms": 0,
}


class Member(NetBot):
    """A network bot that enters with an account's session."""

    def __init__(self, url: str, name: str, session: str) -> None:
        super().__init__(url, name, "kittens", "easy", seed=7)
        self.session = session

    async def connect(self) -> None:
        self.ws = await websockets.connect(self.url, max_size=None, ping_interval=None, close_timeout=2)
        await self.send({"type": "hello", "protocol": PROTOCOL_VERSION, "session": self.session})


def _play(server: LiveServer, session: str, name: str, private: bool, level: str = "easy") -> None:
    """A two-seat kittens game to its end: the account's player (a network bot) against a bot of `level`."""

    async def go() -> None:
        bot = Member(server.ws_url, name, session)
        await create_and_start(bot, "kittens", 2, 1, FAST_KITTENS, level=level, private=private)
        await bot.send({"type": "start", "table": bot.table})
        await play_to_the_end([bot], 90)
        await bot.close()

    asyncio.run(go())


def _records(
    server: LiveServer, token: str | None = None, path: str = "/api/records"
) -> list[dict[str, Any]]:
    status, answer = call(server, "GET", path, token=token)
    assert status == 200, answer
    found: list[dict[str, Any]] = answer["records"] if "records" in answer else answer["recent"]
    return found


def _recorded(server: LiveServer, token: str, count: int) -> list[dict[str, Any]]:
    deadline = time.monotonic() + 15
    while len(found := _records(server, token, "/api/records?mine=1")) < count:
        assert time.monotonic() < deadline, found
        time.sleep(0.1)
    return found


def test_a_private_tables_game_is_for_its_players_only() -> None:
    with run_server() as server:
        _, owner = call(server, "POST", "/api/register", {"name": "Owner", "password": PASSWORD})
        _, other = call(server, "POST", "/api/register", {"name": "Other", "password": PASSWORD})
        _play(server, owner["token"], "Owner", private=True)
        (secret,) = _recorded(server, owner["token"], 1)
        _play(server, owner["token"], "Owner", private=False)
        public = next(r for r in _recorded(server, owner["token"], 2) if r["id"] != secret["id"])

        game = secret["id"]
        paths = [
            f"/api/records/{game}",
            f"/api/records/{game}/frames?seat=all",
            f"/api/records/{game}/frames?seat=0",
            f"/api/records/{game}/scenario",
        ]
        for token in (None, other["token"]):
            assert [r["id"] for r in _records(server, token)] == [public["id"]]
            assert [r["id"] for r in _records(server, token, "/api/players/Owner")] == [public["id"]]
            for path in paths:
                status, answer = call(server, "GET", path, token=token)
                assert (status, answer["error"]) == (404, "no_record"), path
            assert call(server, "GET", f"/api/records/{public['id']}/frames?seat=all", token=token)[0] == 200
        # Its player sees it everywhere.
        assert {r["id"] for r in _records(server, owner["token"])} == {game, public["id"]}
        assert game in {r["id"] for r in _records(server, owner["token"], "/api/players/Owner")}
        for path in paths:
            status, answer = call(server, "GET", path, token=owner["token"])
            assert status == 200, (path, answer)
