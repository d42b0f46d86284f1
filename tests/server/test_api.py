"""Issue 5 over the wire: accounts, sessions, profiles and records through the real server's
HTTP API and websocket, every refusal clear, and no password or token in the server's log."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from cardroom.server.wire import PROTOCOL_VERSION
from tests.server.live import Client, LiveServer, run_server

PASSWORD = "tortilla-sunrise-42"


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    with run_server() as server:
        yield server


def call(
    server: LiveServer,
    method: str,
    path: str,
    body: Any = None,
    token: str | None = None,
    raw: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, Any]]:
    """One request as the terminal client makes them (JSON, no Origin); `headers` add or replace."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    request = urllib.request.Request(server.url + path, data=data, method=method)
    if method != "GET":
        request.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_register_log_in_see_yourself_and_log_out(live: LiveServer) -> None:
    status, made = call(live, "POST", "/api/register", {"name": "Rosa", "password": PASSWORD, "lang": "es"})
    assert status == 200 and made["account"]["name"] == "Rosa" and made["profile"]["lang"] == "es"
    status, me = call(live, "GET", "/api/me", token=made["token"])
    assert status == 200 and me["account"]["name"] == "Rosa"
    status, logged = call(live, "POST", "/api/login", {"name": "rosa", "password": PASSWORD})
    assert status == 200
    assert call(live, "POST", "/api/logout", token=logged["token"])[0] == 200
    status, gone = call(live, "GET", "/api/me", token=logged["token"])
    assert status == 401 and gone["error"] == "session_expired"
    assert call(live, "GET", "/api/me", token=made["token"])[0] == 200  # the other session lives on


def test_refusals_are_clear_and_change_nothing(live: LiveServer) -> None:
    call(live, "POST", "/api/register", {"name": "Teo", "password": PASSWORD})
    cases = [
        ("POST", "/api/register", {"name": "TEO", "password": PASSWORD}, 409, "name_taken"),
        ("POST", "/api/register", {"name": "Ugo", "password": "short"}, 400, "bad_password"),
        ("POST", "/api/register", {"name": "", "password": PASSWORD}, 400, "bad_name"),
        ("POST", "/api/login", {"name": "Teo", "password": "wrong-password"}, 401, "wrong_login"),
        ("POST", "/api/login", {"name": "Nobody", "password": PASSWORD}, 401, "wrong_login"),
        ("POST", "/api/login", {"name": 5}, 400, "bad_request"),
        ("GET", "/api/me", None, 401, "not_logged_in"),
        ("GET", "/api/records/no-such-game", None, 404, "no_record"),
        ("GET", "/api/records/no-such-game/frames", None, 404, "no_record"),
        ("GET", "/api/leaderboard/chess", None, 404, "no_game"),
        ("GET", "/api/players/Nobody", None, 404, "no_player"),
    ]
    for method, path, body, status, code in cases:
        got_status, got = call(live, method, path, body)
        assert (got_status, got["error"]) == (status, code), (path, body)
        assert got["message"] and not got["message"].startswith(code)
    assert call(live, "POST", "/api/login", raw=b"{not json")[1]["error"] == "bad_request"
    assert call(live, "POST", "/api/login", raw=b"x" * 20_000)[1]["error"] == "too_big"
    assert (
        call(live, "GET", "/api/me", token="a-token-nobody-was-given-0123")[1]["error"] == "session_expired"
    )
    status, _ = call(live, "POST", "/api/login", {"name": "Teo", "password": PASSWORD})
    assert status == 200  # the account is as it was


def test_refusals_come_in_the_callers_language(live: LiveServer) -> None:
    status, got = call(live, "POST", "/api/login?lang=fr", {"name": "Nobody", "password": PASSWORD})
    assert status == 401
    _, english = call(live, "POST", "/api/login", {"name": "Nobody", "password": PASSWORD})
    assert got["message"] != english["message"]


def test_a_bad_profile_is_refused_and_a_good_one_kept(live: LiveServer) -> None:
    _, made = call(live, "POST", "/api/register", {"name": "Vera", "password": PASSWORD})
    token = made["token"]
    status, bad = call(live, "PUT", "/api/profile", {"volume": 9}, token=token)
    assert status == 400 and bad["error"] == "bad_profile"
    status, good = call(live, "PUT", "/api/profile", {"volume": 0.3, "verbosity": "brief"}, token=token)
    assert status == 200 and good["profile"]["volume"] == 0.3
    assert call(live, "GET", "/api/me", token=token)[1]["profile"]["verbosity"] == "brief"


def test_the_websocket_knows_the_account_and_guests_cannot_borrow_its_name(live: LiveServer) -> None:
    _, made = call(live, "POST", "/api/register", {"name": "Wanda", "password": PASSWORD})

    async def scenario() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        me = await Client.connect_raw(
            live.ws_url, {"type": "hello", "protocol": PROTOCOL_VERSION, "session": made["token"]}
        )
        welcome = await me.expect("welcome")
        guest = await Client.connect_raw(
            live.ws_url, {"type": "hello", "protocol": PROTOCOL_VERSION, "name": "wanda"}
        )
        refused = await guest.expect("error")
        stale = await Client.connect_raw(
            live.ws_url,
            {"type": "hello", "protocol": PROTOCOL_VERSION, "session": "expired-or-invented-token-xyz"},
        )
        expired = await stale.expect("error")
        for client in (me, guest, stale):
            await client.close()
        return welcome, refused, expired

    welcome, refused, expired = asyncio.run(scenario())
    assert welcome["name"] == "Wanda" and welcome["account"]["name"] == "Wanda"
    assert welcome["profile"]["lang"] == "en"
    assert refused["code"] == "name_reserved"
    assert expired["code"] == "session_expired"


def test_no_password_or_token_reaches_the_log() -> None:
    with run_server(log_level="debug") as server:  # the most the server ever says
        _, made = call(server, "POST", "/api/register", {"name": "Xavi", "password": PASSWORD})
        call(server, "POST", "/api/login", {"name": "Xavi", "password": "a-wrong-password"})
        _, logged = call(server, "POST", "/api/login", {"name": "Xavi", "password": PASSWORD})
        call(server, "GET", "/api/me", token=logged["token"])
        call(server, "POST", "/api/logout", token=made["token"])
        call(server, "GET", "/api/me", token=made["token"])
    log = server.log
    assert "POST /api/login" in log  # the log was written, requests and all
    for secret in (PASSWORD, "a-wrong-password", made["token"], logged["token"]):
        assert secret not in log
