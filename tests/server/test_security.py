"""Issue 12, items 8, 9, 10 and 11 against the real server: a page of another origin (another port
of the same host is enough) can neither open a websocket nor change anything; every change is
JSON; every answer carries the security headers; the session cookie is Secure behind an https
proxy the server trusts; nobody's failed logins lock out another name (11); and a logout ends
the websocket token of its account (9). docs/security.md."""

from __future__ import annotations

import asyncio
import http.client
import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
import websockets

from cardroom.server import closes
from cardroom.server.wire import PROTOCOL_VERSION, messages
from tests.server.live import Client, LiveServer, run_server
from tests.server.test_api import PASSWORD, call


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    with run_server() as server:
        yield server


def other_port(server: LiveServer) -> str:
    """An origin of the same site as the server: the same host, another port."""
    port = urlsplit(server.url).port
    assert port is not None
    return f"http://127.0.0.1:{port + 1 if port < 65535 else port - 1}"


def raw_request(
    server: LiveServer,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """Status, headers (lower-case names; Set-Cookie lines joined by newlines) and body."""
    parts = urlsplit(server.url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=10)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        reply = conn.getresponse()
        found: dict[str, str] = {}
        for name, value in reply.getheaders():
            key = name.lower()
            found[key] = f"{found[key]}\n{value}" if key in found else value
        return reply.status, found, reply.read()
    finally:
        conn.close()


async def _hello(url: str, origin: str | None) -> dict[str, Any] | int:
    try:
        ws = await websockets.connect(url, origin=origin)  # type: ignore[arg-type]
    except websockets.InvalidStatus as exc:
        return int(exc.response.status_code)
    async with ws:
        await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION, "name": "Origin test"}))
        welcome: dict[str, Any] = messages(await asyncio.wait_for(ws.recv(), 10))[0]
        return welcome


def open_socket(server: LiveServer, origin: str | None) -> dict[str, Any] | int:
    """Open /ws with this Origin (None: none, as the terminal client) and say hello: the
    welcome, or the HTTP status that refused the handshake."""
    return asyncio.run(_hello(server.ws_url, origin))


def test_a_websocket_from_another_origin_is_refused(live: LiveServer) -> None:
    assert open_socket(live, other_port(live)) == 403
    assert open_socket(live, "null") == 403
    own = open_socket(live, live.url)
    assert isinstance(own, dict) and own["type"] == "welcome"
    terminal = open_socket(live, None)  # `cardroom connect` sends no Origin: it is no browser
    assert isinstance(terminal, dict) and terminal["type"] == "welcome"


def test_a_deployment_names_the_origins_of_its_page() -> None:
    with run_server(
        {"CARDROOM_ORIGINS": "https://cards.example.org, https://www.cards.example.org/"}
    ) as server:
        welcome = open_socket(server, "https://cards.example.org")
        assert isinstance(welcome, dict) and welcome["type"] == "welcome"
        assert open_socket(server, server.url) == 403
        status, _headers, body = raw_request(
            server,
            "POST",
            "/api/register",
            json.dumps({"name": "Deployed", "password": PASSWORD}).encode(),
            {"Content-Type": "application/json", "Origin": "https://www.cards.example.org"},
        )
        assert status == 200, body


def test_changes_from_another_origin_or_not_in_json_are_refused_and_change_nothing(live: LiveServer) -> None:
    _, made = call(live, "POST", "/api/register", {"name": "Csrf", "password": PASSWORD})
    token = made["token"]
    cookie = {"Cookie": f"cardroom_session={token}"}
    attempts = [
        # The attack of the issue: a page on another port posts text/plain with the cookie.
        ({**cookie, "Origin": other_port(live), "Content-Type": "text/plain"}, 403, "bad_origin"),
        ({**cookie, "Origin": other_port(live), "Content-Type": "application/json"}, 403, "bad_origin"),
        ({**cookie, "Origin": live.url, "Content-Type": "text/plain"}, 415, "not_json"),
        ({**cookie, "Content-Type": "application/x-www-form-urlencoded"}, 415, "not_json"),
        ({"Authorization": f"Bearer {token}", "Content-Type": "text/plain"}, 415, "not_json"),
    ]
    for headers, status, code in attempts:
        for method in ("POST", "PUT"):
            got, _headers, body = raw_request(live, method, "/api/profile", b'{"volume": 0.05}', headers)
            answer = json.loads(body)
            assert (got, answer["error"]) == (status, code), headers
            assert answer["message"]
    got, _headers, body = raw_request(
        live, "POST", "/api/logout", b"", {**cookie, "Origin": other_port(live), "Content-Type": "text/plain"}
    )
    assert got == 403
    assert call(live, "GET", "/api/me", token=token)[1]["profile"]["volume"] == 0.6  # unchanged, still in

    # The page itself: its own origin, JSON.
    got, _headers, body = raw_request(
        live,
        "PUT",
        "/api/profile",
        b'{"volume": 0.05}',
        {**cookie, "Origin": live.url, "Content-Type": "application/json; charset=utf-8"},
    )
    assert got == 200, body
    assert call(live, "GET", "/api/me", token=token)[1]["profile"]["volume"] == 0.05


def test_a_refusal_of_origin_speaks_the_callers_language(live: LiveServer) -> None:
    headers = {"Origin": other_port(live), "Content-Type": "application/json"}
    _, _h, english = raw_request(live, "POST", "/api/login", b"{}", headers)
    _, _h, french = raw_request(live, "POST", "/api/login?lang=fr", b"{}", headers)
    assert json.loads(english)["message"] != json.loads(french)["message"]


def test_every_answer_carries_the_security_headers(live: LiveServer) -> None:
    for method, path in (("GET", "/"), ("GET", "/static/app.js"), ("GET", "/api/me"), ("POST", "/api/login")):
        _status, headers, _body = raw_request(live, method, path)
        policy = headers["content-security-policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy, path
        assert "frame-ancestors 'none'" in policy
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "same-origin"


def _session_cookie(
    server: LiveServer, name: str, headers: dict[str, str], cookie: str = "cardroom_session"
) -> str:
    status, found, body = raw_request(
        server,
        "POST",
        "/api/register",
        json.dumps({"name": name, "password": PASSWORD}).encode(),
        {"Content-Type": "application/json", **headers},
    )
    assert status == 200, body
    (line,) = [
        c
        for c in found["set-cookie"].split("\n")
        if c.startswith(cookie + "=") and "max-age=0" not in c.lower()
    ]
    return line.lower()


def test_the_cookie_is_secure_over_https_at_a_trusted_proxy(live: LiveServer) -> None:
    """Over https the cookie is `__Host-cardroom_session`: a browser takes it only Secure, for
    Path=/ and without Domain, so no sibling subdomain or plain-http page can set or shadow it."""
    behind = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"}
    secure = _session_cookie(live, "Tls", behind, "__Host-cardroom_session")  # 127.0.0.1 is trusted
    assert "; secure" in secure and "; path=/" in secure and "domain" not in secure
    assert "httponly" in secure and "samesite=strict" in secure
    plain = _session_cookie(live, "Plain", {})
    assert "; secure" not in plain and "httponly" in plain and "samesite=strict" in plain
    with run_server({"FORWARDED_ALLOW_IPS": "192.0.2.1"}) as server:  # another proxy: not believed
        assert "; secure" not in _session_cookie(server, "Spoof", behind)


def test_the_session_is_read_under_both_cookie_names(live: LiveServer) -> None:
    """During the move to `__Host-`, a session opened under the old name still works."""
    _, token = call(live, "POST", "/api/register", {"name": "Twonames", "password": PASSWORD})
    for cookie in ("cardroom_session", "__Host-cardroom_session"):
        status, _h, body = raw_request(
            live, "GET", "/api/me", headers={"Cookie": f"{cookie}={token['token']}"}
        )
        assert status == 200 and json.loads(body)["account"]["name"] == "Twonames", cookie


def _logins(server: LiveServer, name: str, times: int, via: str | None = None) -> list[str]:
    headers = {"X-Forwarded-For": via} if via else None
    return [
        call(server, "POST", "/api/login", {"name": name, "password": "not-the-password"}, headers=headers)[
            1
        ]["error"]
        for _ in range(times)
    ]


def test_a_strangers_failed_logins_lock_out_only_that_name_from_that_address() -> None:
    with run_server() as server:
        call(server, "POST", "/api/register", {"name": "Mine", "password": PASSWORD})
        # A stranger at my address hammers another name; another at another address hammers mine.
        assert _logins(server, "Someone", 25)[-5:] == ["too_many"] * 5
        assert _logins(server, "Mine", 25, via="198.51.100.20")[-5:] == ["too_many"] * 5
        status, _ = call(server, "POST", "/api/login", {"name": "mine", "password": PASSWORD})
        assert status == 200
        # Registering has its own limit: the failed logins above did not use it up...
        status, _ = call(server, "POST", "/api/register", {"name": "Fresh", "password": PASSWORD})
        assert status == 200
        # ...and it holds: 20 registrations a minute from one address.
        answers = [
            call(server, "POST", "/api/register", {"name": f"Many {i}", "password": PASSWORD})[1].get("error")
            for i in range(22)
        ]
        assert answers[-2:] == ["too_many", "too_many"] and answers[:5] == [None] * 5
        # The login of that name from that address is limited (password guessing).
        assert _logins(server, "Mine", 21)[-1] == "too_many"


def test_logging_out_ends_the_websocket_token_of_that_session(live: LiveServer) -> None:
    _, made = call(live, "POST", "/api/register", {"name": "Leaver", "password": PASSWORD})
    session = made["token"]

    async def scenario() -> tuple[int | None, dict[str, Any], int | None]:
        first = await Client.connect_raw(
            live.ws_url, {"type": "hello", "protocol": PROTOCOL_VERSION, "session": session}
        )
        welcome = await first.expect("welcome")
        assert welcome["account"]["name"] == "Leaver"
        # The page reconnects with the token and its cookie while logged in: still the account.
        again = await Client.connect_raw(
            live.ws_url,
            {"type": "hello", "protocol": PROTOCOL_VERSION, "token": welcome["token"], "session": session},
        )
        assert (await again.expect("welcome"))["account"]["name"] == "Leaver"
        assert call(live, "POST", "/api/logout", token=session)[0] == 200
        with pytest.raises(websockets.ConnectionClosed):
            while True:
                await again.recv()
        ended = again.ws.close_code
        # The stored token alone, after the logout: refused, as an expired one.
        stale = await Client.connect_raw(
            live.ws_url, {"type": "hello", "protocol": PROTOCOL_VERSION, "token": welcome["token"]}
        )
        refused = await stale.expect("error")
        with pytest.raises(websockets.ConnectionClosed):
            while True:
                await stale.recv()
        for client in (first, again, stale):
            await client.close()
        return ended, refused, stale.ws.close_code

    ended, refused, closed = asyncio.run(scenario())
    assert ended == closes.BAD_TOKEN  # the connection that was in with that session ends
    assert refused["code"] == "bad_token" and closed == closes.BAD_TOKEN
    assert call(live, "GET", "/api/me", token=session)[0] == 401
