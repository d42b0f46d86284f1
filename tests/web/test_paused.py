"""A table pauses while the server cannot save its game (docs/security.md, issue 12): the notice
says so when it happens, and the page says it too when it learns it from a resync (a `table`
message): a watcher arriving at a paused table, a player back after a reconnect."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

from playwright.sync_api import Browser, Page, WebSocketRoute

from tests.server.disk import PAUSED, RESUMED, SLOW_TURNS, disk, fill_the_disk, free_the_disk, pause_a_table
from tests.server.live import Client, LiveServer, run_server
from tests.web.conftest import open_page
from tests.web.keyboard import create_table, enter_lobby, said, start_game, wait_said

T = TypeVar("T")


@contextlib.contextmanager
def client_loop() -> Iterator[asyncio.AbstractEventLoop]:
    """An event loop in a thread of its own for the websocket clients (Playwright's sync API
    holds this thread's)."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield loop
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


def run(loop: asyncio.AbstractEventLoop, coroutine: Coroutine[Any, Any, T], timeout: float = 90) -> T:
    return asyncio.run_coroutine_threadsafe(coroutine, loop).result(timeout)


async def watch(server: LiveServer, table: str) -> Client:
    wanda = await Client.connect(server.ws_url, "Wanda")
    await wanda.send({"type": "spectate", "table": table})
    await wanda.expect("table", table=table)
    return wanda


def a_page(browser: Browser, server: LiveServer) -> contextlib.AbstractContextManager[Page]:
    """The page on this test's own server (closed at the end, failing on any page error)."""
    return contextlib.contextmanager(open_page)(browser, server, viewport={"width": 1100, "height": 900})


def assertive(page: Page) -> list[str]:
    return [x["text"] for x in said(page) if x["region"] == "assertive"]


def test_a_watcher_arriving_at_a_paused_table_hears_it_is_paused(browser: Browser, tmp_path: Path) -> None:
    with run_server({"CARDROOM_DATA": str(tmp_path)}) as server, client_loop() as loop, disk(server):
        anna, table = run(loop, pause_a_table(server))
        with a_page(browser, server) as page:
            enter_lobby(page, "Wanda")
            page.click(f"#watch-{table}")
            wait_said(page, PAUSED)
            assert assertive(page).count(PAUSED) == 1
            free_the_disk(server)  # the notice says play goes on, once
            wait_said(page, RESUMED, timeout_ms=30_000)
            assert assertive(page).count(PAUSED) == 1
            assert assertive(page).count(RESUMED) == 1
        run(loop, anna.close())


def test_a_player_back_after_a_reconnect_hears_the_table_is_paused(browser: Browser, tmp_path: Path) -> None:
    """Pia's connection drops at her turn; the bot standing in (at once: no grace period) draws
    for her and that draw cannot be saved: the table pauses while she is away. Back, she hears
    it from the resync."""
    with run_server({"CARDROOM_DATA": str(tmp_path)}) as server, client_loop() as loop, disk(server):
        with a_page(browser, server) as page:
            enter_lobby(page, "Pia")
            create_table(
                page, "kittens", seats=2, bots=1, level="normal", options={**SLOW_TURNS, "seat_grace_ms": 0}
            )
            start_game(page)
            page.wait_for_function("window.cardroom.state.room.view.turn === 0")
            table = page.evaluate("window.cardroom.state.current")
            wanda = run(loop, watch(server, table))  # hears the pause as it happens
            away: list[WebSocketRoute] = []
            back = threading.Event()

            def reconnect(ws: WebSocketRoute) -> None:
                """While Pia is away her page's new connections lead nowhere."""
                if back.is_set():
                    ws.connect_to_server()
                else:
                    away.append(ws)

            page.route_web_socket("**/ws", reconnect)
            fill_the_disk(server)
            page.evaluate("window.cardroom.state.ws.close()")
            run(loop, wanda.expect("notice", timeout=30, code="table_paused"))
            assert PAUSED not in assertive(page)
            back.set()
            for ws in away:
                ws.close()
            wait_said(page, PAUSED, timeout_ms=30_000)
            assert assertive(page).count(PAUSED) == 1
            free_the_disk(server)
            wait_said(page, RESUMED, timeout_ms=30_000)
            assert assertive(page).count(PAUSED) == 1
            assert assertive(page).count(RESUMED) == 1
        run(loop, wanda.close())
