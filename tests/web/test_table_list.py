"""The lobby's table list in the page: it comes in pages, and no summary can break it (issue 12, 4 and 6)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute

from tests.server.live import LiveServer, run_server
from tests.web.conftest import COLLECT
from tests.web.keyboard import create_table, enter_lobby, tab_to


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with run_server({"CARDROOM_TABLE_PAGE": "1"}) as live:
        yield live


UNREADABLE = [
    {"type": "table_update", "table": {"id": "odd1", "game": "kittens", "options": {"variants": {}},
                                       "state": "waiting", "seats": [], "free": 0, "spectators": 0}},
    {"type": "table_update", "table": {"id": "odd2", "game": "kittens", "options": {"variants": "x"},
                                       "state": "waiting", "seats": [{}], "free": 1, "spectators": 0}},
    {"type": "table_update", "table": {"id": "odd3"}},
    {"type": "table_update", "table": None},
    {"type": "tables", "tables": {"not": "a list"}, "page": 1},
]  # fmt: skip


def _visitor(browser: Browser, server: LiveServer, inject: bool) -> tuple[Page, list[str]]:
    """A second person's page; with `inject`, summaries no server sends are slipped in after
    the first table list (as a faulty or newer server might send them)."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.add_init_script(COLLECT)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    if inject:

        def route(ws: WebSocketRoute) -> None:
            upstream = ws.connect_to_server()
            injected = []

            def from_server(message: str | bytes) -> None:
                ws.send(message)
                if not injected and isinstance(message, str) and '"tables"' in message:
                    injected.append(True)
                    ws.send(json.dumps(UNREADABLE))

            upstream.on_message(from_server)
            ws.on_message(lambda message: upstream.send(message))

        page.route_web_socket("**/ws", route)
    page.goto(server.url + "/")
    page.wait_for_function("window.cardroom && window.cardroom.ready")
    return page, errors


def test_the_page_lists_the_tables_it_can_read_whatever_else_it_is_sent(
    page: Page, browser: Browser, server: LiveServer
) -> None:
    """`{"variants": {}}` in one summary made every page throw while drawing the list."""
    enter_lobby(page, "Readable")
    create_table(page, "kittens", seats=3, bots=0, level="easy")
    visitor, errors = _visitor(browser, server, inject=True)
    try:
        enter_lobby(visitor, "Visitor")
        visitor.wait_for_selector("text=Join the table of Readable")
        tab_to(visitor, "#tables-body button")
        assert visitor.evaluate("document.activeElement.textContent") == "Join the table of Readable"
        visitor.keyboard.press("Enter")
        visitor.wait_for_function("document.activeElement && document.activeElement.id === 'table-title'")
        assert errors == []
    finally:
        visitor.context.close()


def test_more_tables_fetches_the_next_page(page: Page, browser: Browser, server: LiveServer) -> None:
    enter_lobby(page, "Paged")
    create_table(page, "burrito", seats=3, bots=0, level="easy")
    second, _errors = _visitor(browser, server, inject=False)
    enter_lobby(second, "Second")
    create_table(second, "kittens", seats=2, bots=0, level="easy")
    visitor, errors = _visitor(browser, server, inject=False)
    try:
        enter_lobby(visitor, "Browser")
        visitor.wait_for_selector("#tables-body tr")
        assert visitor.locator("#tables-body tr").count() == 1
        tab_to(visitor, "#more-tables")
        visitor.keyboard.press("Enter")
        visitor.wait_for_function("document.querySelectorAll('#tables-body tr').length === 2")
        assert errors == []
    finally:
        visitor.context.close()
        second.context.close()
