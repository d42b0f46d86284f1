"""Issue 22: accounts a person can manage, over the real server's HTTP API, on SQLite and on
PostgreSQL: changing the password (the old one asked for, the other sessions end, this one
stays), logging out everywhere, deleting the account (its name kept from everyone, its games
left to the others under an anonymous name, its ratings gone), exporting one's data (and
nothing of anyone else's), and sessions that end at their absolute lifetime even in use.
docs/api.md, "Your account"."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from sqlalchemy import update

from cardroom.server import closes
from cardroom.server.wire import PROTOCOL_VERSION
from cardroom.store.accounts import DAY_MS, DELETED_NAME, now_ms, token_hash
from cardroom.store.db import create_engine
from cardroom.store.schema import sessions
from tests.databases import empty_postgres
from tests.server.live import Client, LiveServer, run_server
from tests.server.test_api import PASSWORD, call
from tests.server.test_private_records import FAST_CLOCK, _play, _recorded

pytestmark = pytest.mark.slow

NEW_PASSWORD = "a-brand-new-secret-7"


class Served:
    """A live server and the URL of its database (to age a session, as time would)."""

    def __init__(self, live: LiveServer, db: str) -> None:
        self.live = live
        self.db = db


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def served(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    db = (
        f"sqlite:///{tmp_path_factory.mktemp('db') / 'cardroom.sqlite3'}"
        if request.param == "sqlite"
        else empty_postgres()
    )
    with run_server({"CARDROOM_DB": db, **FAST_CLOCK}) as live:
        yield Served(live, db)


def register(live: LiveServer, name: str) -> str:
    status, made = call(live, "POST", "/api/register", {"name": name, "password": PASSWORD})
    assert status == 200, made
    token: str = made["token"]
    return token


def login(live: LiveServer, name: str, password: str = PASSWORD) -> tuple[int, dict[str, Any]]:
    return call(live, "POST", "/api/login", {"name": name, "password": password})


def alive(live: LiveServer, token: str) -> bool:
    status, answer = call(live, "GET", "/api/me", token=token)
    assert status in (200, 401), answer
    return status == 200


def test_changing_the_password_asks_the_old_one_and_ends_the_other_sessions(served: Served) -> None:
    live = served.live
    here = register(live, "Paola")
    _, other = login(live, "Paola")
    elsewhere = other["token"]

    refusals = [
        ({"old": "not-my-password", "new": NEW_PASSWORD}, here, 403, "wrong_password"),
        ({"new": NEW_PASSWORD}, here, 400, "bad_request"),
        ({"old": PASSWORD, "new": "short"}, here, 400, "bad_password"),
        ({"old": PASSWORD, "new": NEW_PASSWORD}, None, 401, "not_logged_in"),
    ]
    for body, token, status, code in refusals:
        refused = call(live, "POST", "/api/password", body, token=token)
        assert (refused[0], refused[1]["error"]) == (status, code), body
    assert alive(live, here) and alive(live, elsewhere)  # a refusal changed nothing
    assert login(live, "Paola")[0] == 200

    status, answer = call(live, "POST", "/api/password", {"old": PASSWORD, "new": NEW_PASSWORD}, token=here)
    assert status == 200, answer
    assert alive(live, here)
    assert not alive(live, elsewhere)
    assert login(live, "Paola")[1]["error"] == "wrong_login"
    assert login(live, "Paola", NEW_PASSWORD)[0] == 200


def test_logging_out_everywhere_ends_every_session_and_closes_their_websockets(served: Served) -> None:
    live = served.live
    first = register(live, "Lorenzo")
    second = login(live, "Lorenzo")[1]["token"]
    bystander = register(live, "Bystander")

    async def go() -> int | None:
        playing = await Client.connect_raw(
            live.ws_url, {"type": "hello", "protocol": PROTOCOL_VERSION, "session": second}
        )
        await playing.expect("welcome")
        status, answer = await asyncio.to_thread(call, live, "POST", "/api/logout-all", None, first)
        assert (status, answer["ended"]) == (200, 2), answer
        with pytest.raises(websockets.ConnectionClosed):
            while True:
                await playing.recv()
        code: int | None = playing.ws.close_code
        return code

    assert asyncio.run(go()) == closes.BAD_TOKEN
    assert not alive(live, first) and not alive(live, second)
    assert alive(live, bystander)
    assert login(live, "Lorenzo")[0] == 200  # the password still opens a new one


def test_a_deleted_account_leaves_its_games_to_the_others_and_its_name_to_nobody(served: Served) -> None:
    live = served.live
    token = register(live, "Delia")
    _play(live, token, "Delia", private=False)
    (game,) = _recorded(live, token, 1)
    board = call(live, "GET", "/api/leaderboard/kittens")[1]["players"]
    assert "Delia" in [p["name"] for p in board]

    status, answer = call(live, "DELETE", "/api/me", {"password": "not-her-password"}, token=token)
    assert (status, answer["error"]) == (403, "wrong_password")
    assert alive(live, token)  # nothing changed
    assert call(live, "DELETE", "/api/me", {"password": PASSWORD})[1]["error"] == "not_logged_in"

    status, answer = call(live, "DELETE", "/api/me", {"password": PASSWORD}, token=token)
    assert status == 200, answer
    assert not alive(live, token)
    assert login(live, "Delia")[1]["error"] == "wrong_login"
    # The name is kept from everyone: no new account, no guest, whatever the case.
    status, answer = call(live, "POST", "/api/register", {"name": "DELIA", "password": PASSWORD})
    assert (status, answer["error"]) == (409, "name_taken")

    async def guest() -> dict[str, Any]:
        client = await Client.connect_raw(
            live.ws_url, {"type": "hello", "protocol": PROTOCOL_VERSION, "name": "delia"}
        )
        refused = await client.expect("error")
        await client.close()
        return refused

    assert asyncio.run(guest())["code"] == "name_reserved"
    # Its game is still there, under the anonymous name; its ratings are gone.
    status, kept = call(live, "GET", f"/api/records/{game['id']}")
    assert status == 200, kept
    names = [seat["name"] for seat in kept["seats"]]
    assert DELETED_NAME in names and "Delia" not in names
    assert not any(seat["account"] for seat in kept["seats"])
    board = call(live, "GET", "/api/leaderboard/kittens")[1]["players"]
    assert "Delia" not in [p["name"] for p in board] and board  # the bot keeps its rating
    assert call(live, "GET", "/api/players/Delia")[1]["error"] == "no_player"


def test_the_export_holds_the_accounts_data_and_nothing_of_anyone_elses(served: Served) -> None:
    live = served.live
    token = register(live, "Esther")
    other = register(live, "Oskar")
    assert call(live, "PUT", "/api/profile", {"volume": 0.25}, token=token)[0] == 200
    assert call(live, "PUT", "/api/profile", {"volume": 0.75, "lang": "de"}, token=other)[0] == 200
    _play(live, token, "Esther", private=True)
    (game,) = _recorded(live, token, 1)
    deadline = time.monotonic() + 15
    while not (data := call(live, "GET", "/api/me/export", token=token)[1]).get("ratings"):
        assert time.monotonic() < deadline, data  # the rating is written a moment after the record
        time.sleep(0.1)

    assert data["account"]["name"] == "Esther" and data["profile"]["volume"] == 0.25
    assert [(g["id"], g["game"], g["name"], g["state"]) for g in data["games"]] == [
        (game["id"], "kittens", "Esther", "over")
    ]
    history = data["ratings"]["kittens"]["history"]
    assert [point["game_id"] for point in history] == [game["id"]]
    assert len(data["sessions"]) == 1 and data["sessions"][0]["current"] is True
    text = json.dumps(data)
    for secret in (token, token_hash(token), other, token_hash(other), "Oskar", "0.75"):
        assert secret not in text
    bot = next(seat["name"] for seat in game["seats"] if seat["bot"])
    assert bot not in text  # the other seats of its games are in the records, not in the export
    assert call(live, "GET", "/api/me/export")[1]["error"] == "not_logged_in"


def _age(db: str, token: str, days: float) -> None:
    """Make the session `days` old (opened then), as if it had been in use all along."""

    async def go() -> None:
        engine = create_engine(db)
        try:
            async with engine.begin() as conn:
                await conn.execute(
                    update(sessions)
                    .where(sessions.c.token_hash == token_hash(token))
                    .values(created_ms=now_ms() - int(days * DAY_MS), expires_ms=now_ms() + 20 * DAY_MS)
                )
        finally:
            await engine.dispose()

    asyncio.run(go())


def test_a_session_past_its_absolute_lifetime_is_refused_even_in_use(served: Served) -> None:
    live = served.live
    old, young = register(served.live, "Vecchio"), login(served.live, "Vecchio")[1]["token"]
    _age(served.db, old, 91)  # the default lifetime: 90 days
    _age(served.db, young, 89)
    status, answer = call(live, "GET", "/api/me", token=old)
    assert (status, answer["error"]) == (401, "session_expired")
    assert alive(live, young)


def test_the_lifetime_is_a_serve_option(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'cardroom.sqlite3'}"
    with run_server({"CARDROOM_DB": db}, extra_args=("--session-days", "2")) as live:
        old, young = register(live, "Breve"), login(live, "Breve")[1]["token"]
        _age(db, old, 2.5)
        _age(db, young, 1.5)
        assert not alive(live, old)
        assert alive(live, young)
