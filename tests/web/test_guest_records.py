"""docs/security.md, "Guests and records": a guest who played at a private table finds that game in
the page's Games view, and can watch it again, while the server knows them; another guest does
not find it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.server.live import LiveServer, run_server
from tests.web.conftest import open_page
from tests.web.keyboard import create_table, enter_lobby, play_kittens_to_the_end, start_game, tab_to

FAST = {"nope_window_ms": 300, "choose_ms": 3000, "bot_think_ms": 0}


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with run_server({"CARDROOM_DB": "memory"}) as live:
        yield live


def open_games(page: Page) -> list[dict[str, Any]]:
    """Open the Games view by keyboard: the records the server answered the page with."""
    tab_to(page, "#nav-games")
    with page.expect_response(lambda r: "/api/records" in r.url) as reply:
        page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement && document.activeElement.id === 'games-title'")
    records: list[dict[str, Any]] = reply.value.json()["records"]
    return records


def test_a_guest_finds_the_private_game_they_played_and_another_guest_does_not(
    browser: Browser, server: LiveServer
) -> None:
    viewport = {"viewport": {"width": 1100, "height": 900}}
    for gwen in open_page(browser, server, **viewport):
        enter_lobby(gwen, "Gwen")
        create_table(gwen, "kittens", seats=2, bots=1, level="easy", options=FAST, private=True)
        start_game(gwen)
        play_kittens_to_the_end(gwen)
        deadline = time.monotonic() + 15
        while True:  # the game's record is written a moment after its end
            listed = open_games(gwen)
            if listed or time.monotonic() > deadline:
                break
        assert len(listed) == 1
        gwen.wait_for_selector("#games-body tr")
        rows = gwen.eval_on_selector_all("#games-body tr", "rows => rows.map(r => r.textContent)")
        assert len(rows) == 1 and "Exploding Kittens" in rows[0] and "Gwen" in rows[0], rows
        tab_to(gwen, "#games-body button[data-record]")
        gwen.keyboard.press("Enter")
        gwen.wait_for_function("window.cardroom.replayState().count > 0")
        for otto in open_page(browser, server, **viewport):
            enter_lobby(otto, "Otto")
            assert open_games(otto) == []
            assert otto.eval_on_selector_all("#games-body tr", "rows => rows.length") == 0
