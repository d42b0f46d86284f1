"""Issue 12 in a real Chromium: a page on another port of the same host (same site, so the
SameSite=Strict cookie goes along) can neither change the logged-in player's profile nor open
a websocket as them (8); the page cannot be framed and a script it did not load does not run
(10); after logging out, the token the page kept no longer enters as the account (9); a private
table's finished game is in its player's Games view and in nobody else's (14).
docs/security.md."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page

from cardroom.server.process import free_port
from cardroom.server.wire import PROTOCOL_VERSION
from tests.server.live import LiveServer, run_server
from tests.web.accounts import api_until, logout, me, open_page, register
from tests.web.keyboard import create_table, play_kittens_to_the_end, start_game, tab_to

ATTACK = """<!doctype html><html><head><title>not cardroom</title></head><body>
<iframe id="framed" src="TARGET/"></iframe>
<script>
window.results = {};
fetch("TARGET/api/profile", {method: "POST", mode: "no-cors", credentials: "include",
  headers: {"Content-Type": "text/plain"}, body: '{"volume": 0.05}'})
  .then(() => { window.results.posted = true; }, () => { window.results.posted = true; });
const ws = new WebSocket("TARGET".replace("http", "ws") + "/ws");
ws.onopen = () => ws.send(JSON.stringify({type: "hello", protocol: PROTOCOL, name: "Evil"}));
ws.onmessage = (e) => { const m = JSON.parse(e.data); window.results.welcome = Array.isArray(m) ? m[0] : m; };
ws.onclose = (e) => { window.results.closed = e.code; };
</script></body></html>"""


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with run_server({"CARDROOM_DB": "memory"}) as live:
        yield live


@pytest.fixture(scope="module")
def attacker(server: LiveServer) -> Iterator[str]:
    """Another origin of the same site: a plain web server on another port of 127.0.0.1."""
    page = ATTACK.replace("TARGET", server.url).replace("PROTOCOL", str(PROTOCOL_VERSION)).encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()
    thread.join()


def profile(page: Page, server: LiveServer) -> dict[str, Any]:
    found: dict[str, Any] = me(page, server)["profile"]
    return found


def test_a_page_of_another_port_cannot_act_as_the_logged_in_player(
    context: BrowserContext, server: LiveServer, attacker: str
) -> None:
    page, errors = open_page(context, server)
    register(page, "Target", "target-secret-1")
    volume = profile(page, server)["volume"]
    assert volume != 0.05

    evil = context.new_page()
    evil.goto(attacker + "/")
    evil.wait_for_function("window.results.posted && window.results.closed !== undefined")
    results = evil.evaluate("window.results")
    assert "welcome" not in results, results  # the websocket was refused, not entered as Target
    assert profile(page, server)["volume"] == volume  # the text/plain post changed nothing
    # The page could not be framed: the frame holds no cardroom.
    framed = evil.frame_locator("#framed")
    assert framed.locator("#main").count() == 0

    # The player's own page goes on working: a save of the profile from the page itself.
    page.evaluate("window.cardroom.state.account.name")
    reply = page.evaluate(
        """async () => {
          const r = await fetch('/api/profile', {method: 'PUT', credentials: 'same-origin',
            headers: {'Content-Type': 'application/json'}, body: JSON.stringify({volume: 0.25})});
          return r.status;
        }"""
    )
    assert reply == 200 and profile(page, server)["volume"] == 0.25
    assert errors == []


def test_a_script_the_page_did_not_load_does_not_run(context: BrowserContext, server: LiveServer) -> None:
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_function("window.cardroom && window.cardroom.ready")
    page.evaluate(
        """() => {
          document.body.insertAdjacentHTML('beforeend', '<img src="/nope" onerror="window.pwned = 1">');
          const s = document.createElement('script');
          s.textContent = 'window.pwned = 2';
          document.body.append(s);
        }"""
    )
    page.wait_for_timeout(500)
    assert page.evaluate("window.pwned") is None


def test_the_pages_own_styles_apply_under_the_policy(page: Page) -> None:
    """`el(tag, {style})` goes through the CSSOM, which the policy allows (a style attribute it
    refuses): the page's fixture fails on any policy violation logged."""
    width = page.evaluate(
        """async () => {
          const { el } = await import('/static/ui.js');
          const node = el('span', { style: '--hue: 120; display: inline-block; width: 37px' });
          document.body.append(node);
          return [getComputedStyle(node).width, node.style.getPropertyValue('--hue').trim()];
        }"""
    )
    assert width == ["37px", "120"]


def test_after_logout_the_kept_token_does_not_enter_as_the_account(
    context: BrowserContext, server: LiveServer
) -> None:
    page, errors = open_page(context, server)
    register(page, "Leaving", "leaving-secret-1")
    token = page.evaluate("localStorage.getItem('cardroom.token')")
    assert token
    logout(page)
    answer = page.evaluate(
        """(token) => new Promise((resolve) => {
          const ws = new WebSocket(`ws://${location.host}/ws`);
          ws.onopen = () => ws.send(JSON.stringify({type: 'hello', protocol: PROTOCOL, token}));
          ws.onmessage = (e) => { const m = JSON.parse(e.data); resolve(Array.isArray(m) ? m[0] : m); };
          ws.onclose = (e) => resolve({closed: e.code});
        })""".replace("PROTOCOL", str(PROTOCOL_VERSION)),
        token,
    )
    assert answer.get("type") == "error" and answer["code"] == "bad_token", answer
    assert errors == []


def games_view(page: Page) -> tuple[list[dict[str, Any]], list[str]]:
    """Open the Games view by keyboard: the records the page was sent, and the rows it shows."""
    tab_to(page, "#nav-games")
    with page.expect_response(lambda r: "/api/records" in r.url) as reply:
        page.keyboard.press("Enter")
    records: list[dict[str, Any]] = reply.value.json()["records"]
    page.wait_for_function("document.activeElement && document.activeElement.id === 'games-title'")
    page.wait_for_function("n => document.querySelectorAll('#games-body tr').length === n", arg=len(records))
    rows: list[str] = page.eval_on_selector_all("#games-body tr", "rows => rows.map(r => r.textContent)")
    return records, rows


def test_a_private_game_is_in_its_players_games_view_only(
    context: BrowserContext, server: LiveServer
) -> None:
    page, errors = open_page(context, server)
    register(page, "Secretive", "secretive-secret-1")
    create_table(
        page,
        "kittens",
        seats=2,
        bots=1,
        level="easy",
        options={"nope_window_ms": 300, "choose_ms": 3000, "bot_think_ms": 0},
        private=True,
    )
    start_game(page)
    play_kittens_to_the_end(page)
    api_until(page, server, "/api/records", lambda answer: len(answer["records"]) > 0)
    _records, rows = games_view(page)
    assert len(rows) == 1 and "Secretive" in rows[0]
    assert errors == []

    stranger_context = context.browser.new_context() if context.browser else None
    assert stranger_context is not None
    try:
        stranger, _errors = open_page(stranger_context, server)
        assert games_view(stranger) == ([], [])
        assert stranger.is_visible("#games-empty") and stranger.is_hidden("#games-table")
    finally:
        stranger_context.close()
