"""The history (issue 14): the log region takes the focus, Page Up and Page Down walk it, Home
and End jump to its ends, and past an end the page says "Start of history." / "End of
history." instead of the same entry again."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page

from tests.server.live import LiveServer, run_server
from tests.web.keyboard import create_table, enter_lobby, said_once_and_logged, start_game, tab_to, wait_said


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    """Games here play five times faster (`CARDROOM_CLOCK_RATE`): the history is about how many
    lines are kept, and a burrito game past 500 lines took four minutes at a person's pace."""
    with run_server({"CARDROOM_CLOCK_RATE": "5"}) as live:
        yield live


def current(page: Page) -> str:
    return str(page.evaluate("document.activeElement.textContent"))


def entries(page: Page) -> list[str]:
    result: list[str] = page.eval_on_selector_all("#log p", "ps => ps.map(p => p.textContent)")
    return result


def test_the_history_is_walked_with_its_ends_said(page: Page) -> None:
    enter_lobby(page, "Reader")
    create_table(page, "kittens", seats=2, bots=1, level="normal", options={"turn_ms": 60000})
    start_game(page)
    page.wait_for_function("document.querySelectorAll('#log p').length >= 3")
    tab_to(page, "#log")  # the region itself is reachable with Tab
    page.keyboard.press("PageUp")
    first = entries(page)
    assert current(page) == first[-1]  # from the region, Page Up starts at the newest entry
    page.keyboard.press("PageDown")
    wait_said(page, "End of history.")
    assert current(page) == first[-1]
    page.keyboard.press("Home")
    assert current(page) == entries(page)[0]
    assert current(page).startswith("The game begins")
    page.keyboard.press("PageUp")
    wait_said(page, "Start of history.")
    assert current(page) == entries(page)[0]
    page.keyboard.press("PageDown")
    assert current(page) == entries(page)[1]
    page.keyboard.press("End")
    assert current(page) == entries(page)[-1]


def test_the_history_keeps_the_whole_game_past_five_hundred_lines(page: Page) -> None:
    """Issue 14: the history kept only its newest 500 lines, and round 1 of a 3-minute game was
    gone. Three bots play a burrito game around our seat (which only listens): past 500 lines,
    the first line is still there, and every line said is in it."""
    enter_lobby(page, "Keeper")
    create_table(page, "burrito", seats=4, bots=3, level="normal")
    start_game(page)
    # Past 520 lines, or the game's end first (then the check below says how far it got).
    page.wait_for_function(
        "document.querySelectorAll('#log p').length > 520 || !!document.querySelector('#scoreboard.final')",
        timeout=420_000,
    )
    lines = len(entries(page))
    assert lines > 520, f"the game ended after {lines} lines of history"
    assert entries(page)[0] == "Round 1 begins."
    said_once_and_logged(page)
