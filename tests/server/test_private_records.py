"""Issue 12, item 14: a game played at a private table is recorded for the accounts that played
it: nobody else finds it in /api/records, on a player's page, as a summary, as replay frames or
as a scenario file (each answers as for a game that does not exist). A public table's game stays
public. docs/security.md."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
import websockets

from cardroom.clients.botclient import NetBot
from cardroom.server.wire import PROTOCOL_VERSION
from tests.server.live import Client, LiveServer, run_server
from tests.server.play import FAST_KITTENS, create_and_start, play_to_the_end
from tests.server.test_api import PASSWORD, call

pytestmark = pytest.mark.slow


class Member(NetBot):
    """A network bot that enters with an account's session."""

    def __init__(self, url: str, name: str, session: str, rate: float = 1.0) -> None:
        super().__init__(url, name, "kittens", "easy", seed=7, rate=rate)
        self.session = session

    async def connect(self) -> None:
        self.ws = await websockets.connect(self.url, max_size=None, ping_interval=None, close_timeout=2)
        await self.send({"type": "hello", "protocol": PROTOCOL_VERSION, "session": self.session})


FAST_CLOCK = {"CARDROOM_CLOCK_RATE": "10"}
"""A server whose games play ten times faster (`Lobby.rate`): these tests need a game's record,
not its pace (a whole game took 40 to 70 s at a person's pace on a busy run)."""
RATE = 10.0


def _play(
    server: LiveServer, session: str, name: str, private: bool, level: str = "easy", rate: float = RATE
) -> str:
    """A two-seat kittens game to its end: the account's player (a network bot) against a bot of
    `level`, on a server started with FAST_CLOCK (the player keeps its `rate`). Its websocket
    player token."""

    async def go() -> str:
        bot = Member(server.ws_url, name, session, rate)
        await create_and_start(bot, "kittens", 2, 1, FAST_KITTENS, level=level, private=private)
        await bot.send({"type": "start", "table": bot.table})
        await play_to_the_end([bot], 90)
        await bot.close()
        assert bot.token is not None
        return bot.token

    return asyncio.run(go())


def _records(
    server: LiveServer, token: str | None = None, path: str = "/api/records"
) -> list[dict[str, Any]]:
    status, answer = call(server, "GET", path, token=token)
    assert status == 200, answer
    found: list[dict[str, Any]] = answer["records"] if "records" in answer else answer["recent"]
    return found


def _recorded(server: LiveServer, token: str, count: int) -> list[dict[str, Any]]:
    deadline = time.monotonic() + 45  # a busy full run (load 15) took over 15 s
    while len(found := _records(server, token, "/api/records?mine=1")) < count:
        assert time.monotonic() < deadline, found
        time.sleep(0.1)
    return found


def test_a_private_tables_game_is_for_its_players_only() -> None:
    with run_server(FAST_CLOCK) as server:
        _, owner = call(server, "POST", "/api/register", {"name": "Owner", "password": PASSWORD})
        _, other = call(server, "POST", "/api/register", {"name": "Other", "password": PASSWORD})
        owner_player = _play(server, owner["token"], "Owner", private=True)
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
        # An account's websocket token is no guest's: without the session it finds nothing.
        for path in paths:
            status, answer = _as_guest(server, path, owner_player)
            assert (status, answer["error"]) == (404, "no_record"), path
        # Its player sees it everywhere.
        assert {r["id"] for r in _records(server, owner["token"])} == {game, public["id"]}
        assert game in {r["id"] for r in _records(server, owner["token"], "/api/players/Owner")}
        for path in paths:
            status, answer = call(server, "GET", path, token=owner["token"])
            assert status == 200, (path, answer)


def _rated(server: LiveServer, token: str | None, name: str) -> list[str]:
    """The games of the points of `name`'s rating history, on their public page as `token` sees it."""
    status, page = call(server, "GET", f"/api/players/{name}", token=token)
    assert status == 200, page
    return [point["game_id"] for played in page["games"].values() for point in played["history"]]


def test_a_private_game_leaves_no_point_on_its_players_public_page() -> None:
    """Issue 22: a player's page listed a private game's id, time and rating change in its
    rating history. Anyone who did not play it sees only the public game's point; the player
    sees both, and their game count still counts both."""
    with run_server(FAST_CLOCK) as server:
        _, owner = call(server, "POST", "/api/register", {"name": "Owner", "password": PASSWORD})
        _, other = call(server, "POST", "/api/register", {"name": "Other", "password": PASSWORD})
        _play(server, owner["token"], "Owner", private=True)
        (secret,) = _recorded(server, owner["token"], 1)
        _play(server, owner["token"], "Owner", private=False)
        public = next(r for r in _recorded(server, owner["token"], 2) if r["id"] != secret["id"])
        deadline = time.monotonic() + 15
        while len(_rated(server, owner["token"], "Owner")) < 2:  # the ratings follow the records
            assert time.monotonic() < deadline, "the games were never rated"
            time.sleep(0.1)

        assert sorted(_rated(server, owner["token"], "Owner")) == sorted([secret["id"], public["id"]])
        for token in (None, other["token"]):
            assert _rated(server, token, "Owner") == [public["id"]]
            page = call(server, "GET", "/api/players/Owner", token=token)[1]
            assert secret["id"] not in json.dumps(page)
            assert page["games"]["kittens"]["played"] == 2


def _as_guest(server: LiveServer, path: str, player_token: str | None) -> tuple[int, dict[str, Any]]:
    """A request as the page makes it for a guest: their websocket token in X-Cardroom-Player."""
    return call(server, "GET", path, headers={"X-Cardroom-Player": player_token} if player_token else None)


def test_a_guest_sees_the_private_games_they_played_while_the_server_knows_them(tmp_path: Path) -> None:
    """docs/security.md, "Guests and records": a guest has no account; their websocket token is who
    they are until they are forgotten (here after a grace period of two seconds away). Until then
    the private games they played are theirs to list and to watch again, as an account's are;
    another guest's token, or none, finds nothing; once forgotten, their token finds nothing."""
    with run_server({"CARDROOM_DATA": str(tmp_path), "CARDROOM_GRACE_S": "2", **FAST_CLOCK}) as server:

        async def play_as_guest() -> tuple[NetBot, Client]:
            gwen = NetBot(server.ws_url, "Gwen", "kittens", "easy", seed=7, rate=RATE)
            await create_and_start(gwen, "kittens", 2, 1, FAST_KITTENS, level="easy", private=True)
            await gwen.send({"type": "start", "table": gwen.table})
            await play_to_the_end([gwen], 90)
            otto = await Client.connect(server.ws_url, "Otto")
            return gwen, otto

        loop = asyncio.new_event_loop()
        otto: Client | None = None
        try:
            gwen, otto = loop.run_until_complete(play_as_guest())
            assert gwen.token is not None and otto.token is not None
            deadline = time.monotonic() + 15
            while not (mine := _as_guest(server, "/api/records", gwen.token)[1]["records"]):
                assert time.monotonic() < deadline, "the guest's private game is never listed for them"
                time.sleep(0.1)
            (game,) = [r["id"] for r in mine]
            paths = [
                f"/api/records/{game}",
                f"/api/records/{game}/frames?seat=0",
                f"/api/records/{game}/scenario",
            ]
            for path in paths:
                assert _as_guest(server, path, gwen.token)[0] == 200, path
            for stranger in (None, otto.token, "a-token-nobody-was-given-0123"):
                assert _as_guest(server, "/api/records", stranger)[1]["records"] == []
                for path in paths:
                    status, answer = _as_guest(server, path, stranger)
                    assert (status, answer["error"]) == (404, "no_record"), path
            loop.run_until_complete(gwen.close())  # Gwen goes away: forgotten after the grace period
            deadline = time.monotonic() + 30
            while _as_guest(server, f"/api/records/{game}", gwen.token)[0] == 200:
                assert time.monotonic() < deadline, "a guest who went away is never forgotten"
                time.sleep(0.2)
            assert _as_guest(server, "/api/records", gwen.token)[1]["records"] == []
            assert _as_guest(server, f"/api/records/{game}", gwen.token)[1]["error"] == "no_record"
        finally:
            if otto is not None:
                loop.run_until_complete(otto.close())
            loop.close()
