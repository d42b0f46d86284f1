"""The page draws frame by frame only while something at the table moves with the time: a phone
left in the lobby or on a finished game does not spend its battery redrawing a still page."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.web.keyboard import create_table, enter_lobby, play_kittens_to_the_end, start_game, state

COUNT_FRAMES = """() => {
    window.__frames = 0;
    const request = window.requestAnimationFrame.bind(window);
    window.requestAnimationFrame = (callback) => { window.__frames += 1; return request(callback); };
}"""
"""Counts the frames the page asks for from now on (the page asks for each frame by name)."""


def frames_over(page: Page, ms: int) -> int:
    before: int = page.evaluate("window.__frames")
    page.wait_for_timeout(ms)
    after: int = page.evaluate("window.__frames")
    return after - before


def test_frames_are_drawn_while_the_turns_clock_runs_and_not_in_the_lobby_or_after_the_game(
    phone: Page,
) -> None:
    page = phone
    page.evaluate(COUNT_FRAMES)
    enter_lobby(page, "Ida")
    assert frames_over(page, 1500) <= 2  # a layout's one frame at most
    create_table(page, "kittens", seats=2, bots=1, level="easy", options={"bot_think_ms": 0})
    start_game(page)
    page.wait_for_function(
        "() => { const s = window.cardroom.state; const v = s.room && s.room.view;"
        " return v && v.turn === s.room.you && v.phase === 'turn'; }"
    )
    # The turn's clock counts down, its bar redrawn every frame.
    seconds = page.locator("#felt .clock").inner_text()
    assert frames_over(page, 2500) > 30
    assert page.locator("#felt .clock").inner_text() != seconds
    play_kittens_to_the_end(page)
    assert state(page)["view"]["phase"] == "game_over"
    page.wait_for_timeout(500)
    assert frames_over(page, 1500) <= 2
