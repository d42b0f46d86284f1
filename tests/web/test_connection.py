"""A connection you can trust (issue 23): on a phone the network goes silent or drops, and comes
back. Every page connection here runs through a line the test can cut and restore (Playwright's
websocket routing: the page's socket on one side, the real server on the other), the way a proxy
cutting the network would: silently (nothing forwarded, nothing closed) or at once."""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, WebSocketRoute

from tests.server.live import Client, LiveServer
from tests.web.keyboard import create_table, enter_lobby, said, start_game, wait_said
from tests.web.test_paused import client_loop

SLOW = {"turn_ms": 120_000, "bot_think_ms": 0}
"""Seat 0 (the page) plays first and nothing moves while it thinks."""


class Line:
    """The page's network: while up, every message goes through; cut, nothing does (the
    sockets open already stay open, silent), and a new connection fails at once.

    With `overtake`, the answer to the page's `resume` comes the way a live batch racing it
    makes it come: the newest batch first, then every missed batch in order (the newest among
    them again), then `resumed` (docs/protocol.md, "Versions and reconnection")."""

    def __init__(self) -> None:
        self.up = True
        self.overtake = False
        self.overtaken = False
        self._answer: list[Any] | None = None

    def route(self, ws: WebSocketRoute) -> None:
        if not self.up:
            ws.close()
            return
        server = ws.connect_to_server()
        ws.on_message(lambda message: self._to_server(server, message))
        server.on_message(lambda message: self._to_page(ws, message))

    def _to_server(self, server: WebSocketRoute, message: str | bytes) -> None:
        if not self.up:
            return
        if self.overtake and isinstance(message, str) and json.loads(message).get("type") == "resume":
            self._answer = []
        server.send(message)

    def _to_page(self, page: WebSocketRoute, message: str | bytes) -> None:
        if not self.up:
            return
        if self._answer is None or not isinstance(message, str):
            page.send(message)
            return
        frame = json.loads(message)
        self._answer.extend(frame if isinstance(frame, list) else [frame])
        # `resumed` may share its frame with a live batch sent in the same turn of the server's
        # loop (one frame per turn, docs/protocol.md): what follows it goes after the answer.
        end = next((i for i, m in enumerate(self._answer) if m.get("type") == "resumed"), None)
        if end is None:
            return
        came, self._answer, self.overtake = self._answer, None, False
        answer, after = came[: end + 1], came[end + 1 :]
        batches = [m for m in answer if m.get("type") == "events"]
        if len(batches) >= 2:
            answer.insert(0, batches[-1])
            self.overtaken = True
        for m in answer + after:
            page.send(json.dumps(m))


# Every websocket the page opens, when (by its own clock): `_back_after` times the page's first
# try after the network returns, not only the try that connected (a try the line took late, on
# a busy machine, is given up after 2 s and made again: the page's pace was right all the same).
TRIES = """() => {
    const Real = window.WebSocket;
    window.__tries = [];
    window.WebSocket = function (...args) {
        window.__tries.push(performance.now());
        return new Real(...args);
    };
    Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
    window.WebSocket.prototype = Real.prototype;
}"""


@pytest.fixture
def line(page: Page) -> Iterator[Line]:
    cable = Line()
    page.route_web_socket("**/ws", cable.route)
    page.evaluate(TRIES)
    yield cable


def _playing(page: Page, name: str, options: dict[str, int]) -> None:
    enter_lobby(page, name)
    create_table(page, "kittens", seats=2, bots=1, level="normal", options=options)
    start_game(page)
    wait_said(page, "Your turn.", "assertive")


def _said_since(page: Page, t: float) -> list[str]:
    return [x["text"] for x in said(page) if x["t"] >= t]


def _notice_shown(page: Page) -> bool:
    return bool(page.evaluate("!document.querySelector('#connection-notice').hidden"))


BACK = "window.cardroom.state.welcomed && window.cardroom.state.resuming.size === 0"
"""Connected again, and every table's missed batches are in."""


def test_a_silent_connection_is_noticed_in_the_game_area_within_3_s(page: Page, line: Line) -> None:
    """The proxy stops forwarding without closing: within 3 s the game area says the connection
    is lost (a visible notice, said at once), and the status line no longer claims a lag."""
    _playing(page, "Nina", SLOW)
    assert not _notice_shown(page)
    cut = page.evaluate("performance.now()")
    line.up = False
    # Timed by the page's own clock: a busy test process polling late does not count.
    page.wait_for_selector("#connection-notice:not([hidden])", timeout=10_000)
    noticed = page.evaluate("window.cardroom.state.lostAt") - cut
    assert noticed < 3000, noticed
    notice = page.text_content("#connection-notice") or ""
    assert notice.startswith("Connection lost")
    assert notice in [x["text"] for x in said(page) if x["region"] == "assertive" and x["t"] >= cut]
    assert not (page.text_content("#status") or "").startswith("Connected as")
    line.up = True
    page.wait_for_function(BACK, timeout=5000)
    assert not _notice_shown(page)


def _back_after(page: Page, line: Line, online: bool = False) -> tuple[float, float]:
    """Restore the line (with `online`, tell the browser too); once the page is back, how long
    after the network returned it made its first try, and how long the try that connected took
    to its welcome, in ms: by the page's own clock, so a busy test process polling late does
    not count. The line comes back between two readings of that clock: a try after the first
    is the page's answer to it, timed from the second (asking a busy page the time took over
    50 ms in a full run, and the try made meanwhile was missed: cc31a)."""
    before: float = page.evaluate("performance.now()")
    line.up = True
    after: float = page.evaluate("performance.now()")
    if online:
        page.context.set_offline(False)
    page.wait_for_function(BACK, timeout=10_000)
    tries, connected, welcomed = page.evaluate(
        "[window.__tries, window.cardroom.state.triedAt, window.cardroom.state.welcomedAt]"
    )
    first = next(t for t in tries if t >= before)  # the try the page made as the line came back
    return max(0.0, first - after), welcomed - connected


def test_back_within_2_s_of_the_network_returning(page: Page, line: Line) -> None:
    """Cut, the page tries again every second (not 1, 2, 4 then 8 s): the network back, the page
    makes its next try within a second and is connected again within 2 s; and tries at once when
    the browser says it is back online, and makes no try while it says it is offline."""
    _playing(page, "Nora", SLOW)
    line.up = False
    page.evaluate("window.cardroom.state.ws.close()")
    # The notice is a sign the page saw the cut, not what this test times (its own times are):
    # a full run with Orca beside it on two cores took over 3 s to show it (cc22h, cc26c).
    page.wait_for_selector("#connection-notice:not([hidden])", timeout=10000)
    page.wait_for_timeout(6000)  # long enough for a doubling backoff to wait 8 s
    tried, handshake = _back_after(page, line)
    # The try is the page's: within a second of the network's return. The welcome after it is
    # the handshake through this test's line (the page, Playwright and this process relay each
    # message): some 50 ms on a quiet machine, up to 1.9 s in a full run on two cores.
    assert tried < 1200 and handshake < 2000, (tried, handshake)
    # Offline, then online again: the page does not wait for its next try.
    page.context.set_offline(True)
    line.up = False
    offline_at: float = page.evaluate("window.cardroom.state.ws?.close(); performance.now()")
    page.wait_for_selector("#connection-notice:not([hidden])", timeout=10000)
    page.wait_for_timeout(1200)  # the page's next try, were it to make one offline
    tried, handshake = _back_after(page, line, online=True)
    # Offline, the page knocks on no door: a try could only fail (Chromium logs it as an error).
    knocked = page.evaluate(
        f"window.__tries.filter(t => t >= {offline_at} && t < window.cardroom.state.onlineAt)"
    )
    assert knocked == [], knocked
    # The try follows the browser's "online" at once: timed from the page's own event (the
    # test's call that sets the browser online took 370 ms to reach it in a full run). The first
    # try after it, not the one that connected: on a busy machine the line relayed a try's
    # handshake past the heartbeat's 2 s, and the page gave it up and made another (cc29b).
    at_once = page.evaluate(
        "(() => { const on = window.cardroom.state.onlineAt;"
        " return Math.min(...window.__tries.filter(t => t >= on)) - on; })()"
    )
    assert 0 <= at_once < 300 and handshake < 2000, (at_once, tried, handshake)


def test_the_seat_is_kept_through_a_short_outage_and_the_page_says_nothing_happened(
    page: Page, line: Line
) -> None:
    """Cut for 4 s on her turn: no stand-in plays (the grace period is 30 s), and back, one line
    says what happened to her: nothing."""
    _playing(page, "Nils", SLOW)
    line.up = False
    page.wait_for_selector("#connection-notice:not([hidden])", timeout=10_000)
    page.wait_for_timeout(1500)
    line.up = True
    # How soon it is back is test_back_within_2_s_of_the_network_returning's: here what it says
    # (a busy run's page took over 5 s, its first try through the line given up, cc29b).
    page.wait_for_selector("#away-summary:not([hidden])", timeout=15_000)
    page.wait_for_function(BACK, timeout=15_000)
    assert page.text_content("#away-summary") == "While you were away, nothing happened to your seat."
    room: dict[str, Any] = page.evaluate("window.cardroom.state.room")
    assert not room["seats"][0]["standing_in"] and room["state"] == "playing"


def test_back_after_a_stand_in_played_the_page_raises_no_stale_alarm(
    page: Page, line: Line, server: LiveServer
) -> None:
    """With no grace (seat_grace_ms 0) a stand-in plays several of Noor's turns while she is
    away. Back, the history has every line she missed, but none is said again: no stale "Your
    turn." repeats, no "DEFUSE NOW!" for a kitten already defused; one line says what the
    stand-in did; only what the table asks of her now is said."""
    _playing(page, "Noor", {**SLOW, "seat_grace_ms": 0})
    line.overtake = True
    table = page.evaluate("window.cardroom.state.current")
    with client_loop() as loop:
        ready = threading.Event()
        turns: list[int] = []

        async def watch() -> None:
            wanda = await Client.connect(server.ws_url, "Wanda")
            await wanda.send({"type": "spectate", "table": table})
            await wanda.expect("table", table=table)
            ready.set()
            while len(turns) < 3:
                message = await wanda.expect("events", table=table, timeout=60)
                turns.extend(
                    e["player"] for e in message["events"] if e["event"] == "turn" and e["player"] == 0
                )
                if any(e["event"] == "game_over" for e in message["events"]):
                    break
            await wanda.close()

        watching = asyncio.run_coroutine_threadsafe(watch(), loop)
        while not ready.is_set():
            page.wait_for_timeout(50)
        line.up = False
        page.evaluate("window.cardroom.state.ws.close()")
        while not watching.done():  # Playwright's calls keep the page's line served meanwhile
            page.wait_for_timeout(100)
        watching.result()
    back_at = page.evaluate("performance.now()")
    line.up = True
    # How soon the page is back is test_back_within_2_s_of_the_network_returning's: here only what
    # it says once back. Under a loaded run (pytest -n 3) coming back took over 5 s once.
    page.wait_for_function(BACK, timeout=20_000)
    page.wait_for_selector("#away-summary:not([hidden])", timeout=5000)
    page.wait_for_function("window.cardroom.quiet()", timeout=30_000)
    again = _said_since(page, back_at)
    assert again.count("Your turn.") <= 1, again
    assert not [text for text in again if text.startswith("DEFUSE NOW!")], again
    summary = page.text_content("#away-summary") or ""
    assert summary.startswith("While you were away: a stand-in made "), summary
    log = page.eval_on_selector_all("#log p", "ps => ps.map(p => p.textContent)")
    assert line.overtaken, "a live batch came before the missed ones"
    # ("Your turn (2 turns to play)." when attacked: each turn says "Your turn" first.)
    # "Your turn" may share its line with what made it yours: "Marco defuses it. Your turn."
    yours = [text for text in log if re.search(r"(^|[.!] )Your turn", text)]
    assert len(yours) >= 1 + len(turns), "the turns she missed are not all in the history:\n" + "\n".join(log)
