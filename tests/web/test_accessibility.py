"""axe-core finds no violation in the lobby or at a table of either game, on desktop and phone."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import Browser, Page

from tests.server.live import LiveServer
from tests.web.keyboard import create_table, enter_lobby, start_game

AXE = Axe()
# WCAG 2.1 A and AA, and axe's best practices (a scrollable region must be focusable, ...).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


def audit(page: Page) -> None:
    results = AXE.run(page, options={"runOnly": {"type": "tag", "values": TAGS}})
    assert results.violations_count == 0, results.generate_report()


def no_horizontal_scroll(page: Page) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], width


def test_the_lobby_passes_axe(page: Page, browser: Browser, server: LiveServer) -> None:
    audit(page)  # the nickname form
    other = browser.new_context()
    host = other.new_page()
    host.goto(server.url + "/")
    host.wait_for_function("window.cardroom && window.cardroom.ready")
    enter_lobby(host, "Host")
    create_table(host, "burrito", seats=4, bots=1, level="easy", options={"bruises": 3})
    enter_lobby(page, "Axel")
    page.wait_for_selector("#tables-body tr button")  # Join and Watch
    audit(page)  # with a table listed
    other.close()


@pytest.mark.parametrize("game", ["kittens", "burrito"])
def test_a_table_passes_axe_before_and_during_the_game(page: Page, game: str) -> None:
    enter_lobby(page, f"Axe{game}")
    create_table(page, game, seats=3, bots=2, level="easy", options={})
    audit(page)
    start_game(page)
    page.wait_for_function("document.querySelectorAll('#hand [role=option]').length >= 5")
    audit(page)


@pytest.mark.parametrize("game", ["kittens", "burrito"])
def test_a_phone_screen_has_no_horizontal_scroll(page: Page, game: str) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    enter_lobby(page, f"Phone{game}")
    no_horizontal_scroll(page)
    create_table(page, game, seats=4, bots=3, level="easy", options={})
    start_game(page)
    page.wait_for_function("document.querySelectorAll('#hand [role=option]').length >= 5")
    no_horizontal_scroll(page)
    audit(page)


def test_the_history_once_it_scrolls_passes_axe(page: Page) -> None:
    """Issue 14: a scrollable history is a region the keyboard can reach (axe's best practice)."""
    enter_lobby(page, "Scroll")
    create_table(page, "burrito", seats=4, bots=3, level="normal", options={"countdown_ms": 300})
    start_game(page)
    page.wait_for_function(
        "() => { const log = document.querySelector('#log'); return log.scrollHeight > log.clientHeight + 50; }",
        timeout=60_000,
    )
    audit(page)
