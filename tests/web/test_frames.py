"""The page draws frame by frame only while a burrito fight is on; a running clock asks for a frame
a second, its number and bar stepping together: a phone left at its turn, in the lobby or on a
finished game does not spend its battery redrawing a page that does not move
(tests/web/test_pointer.py and test_play.py play the fights)."""

from __future__ import annotations

from playwright.sync_api import Browser, Page

from tests.server.live import LiveServer
from tests.web.conftest import PHONE, open_page
from tests.web.keyboard import create_table, enter_lobby, play_kittens_to_the_end, start_game, state

COUNT_FRAMES = """() => {
    window.__frames = 0;
    const request = window.requestAnimationFrame.bind(window);
    window.requestAnimationFrame = (callback) => { window.__frames += 1; return request(callback); };
}"""
"""Counts the frames the page asks for from now on (the page asks for each frame by name)."""


BAR = "clock => new DOMMatrix(getComputedStyle(clock.querySelector('.clock-fill')).transform).a"
"""How much of the clock's bar is left, as drawn now (its horizontal scale)."""


def frames_over(page: Page, ms: int) -> int:
    before: int = page.evaluate("window.__frames")
    page.wait_for_timeout(ms)
    after: int = page.evaluate("window.__frames")
    return after - before


def at_own_turn(page: Page) -> None:
    """A kittens table with a bot, started, at the player's own turn (a minute on its clock).
    Nope windows of 0.3 s: the first test plays the game to its end (68 s in a `make test` with
    the standard 3 s), and no frame is counted while one is open."""
    create_table(
        page, "kittens", seats=2, bots=1, level="easy", options={"bot_think_ms": 0, "nope_window_ms": 300}
    )
    start_game(page)
    page.wait_for_function(
        "() => { const s = window.cardroom.state; const v = s.room && s.room.view;"
        " return v && v.turn === s.room.you && v.phase === 'turn'; }"
    )


def test_a_running_clock_asks_for_a_frame_a_second_and_the_lobby_and_a_finished_game_for_none(
    phone: Page,
) -> None:
    page = phone
    page.evaluate(COUNT_FRAMES)
    enter_lobby(page, "Ida")
    assert frames_over(page, 1500) <= 2  # a layout's one frame at most
    at_own_turn(page)
    # The turn's clock counts down: its number and its bar each second (the page's one frame a
    # second), and nothing runs between: no animation has Chromium draw the page 60 times a
    # second for a bar a few pixels shorter.
    clock = page.locator("#felt .clock")
    seconds, bar = clock.inner_text(), clock.evaluate(BAR)
    assert frames_over(page, 2500) <= 8
    assert clock.inner_text() != seconds
    assert clock.evaluate(BAR) < bar
    assert page.evaluate("document.getAnimations().length") == 0
    play_kittens_to_the_end(page)
    assert state(page)["view"]["phase"] == "game_over"
    page.wait_for_timeout(500)
    assert frames_over(page, 1500) <= 2


def test_with_no_motion_asked_for_the_clocks_bar_steps_each_second(
    browser: Browser, server: LiveServer
) -> None:
    for page in open_page(browser, server, reduced_motion="reduce", **PHONE):
        enter_lobby(page, "Ivo")
        at_own_turn(page)
        clock = page.locator("#felt .clock")
        bar = clock.evaluate(BAR)
        page.wait_for_timeout(2500)
        assert clock.evaluate(BAR) < bar
        assert page.evaluate("document.getAnimations().length") == 0
