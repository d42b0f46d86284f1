"""Relaxed timing and extra time on the page, keyboard only (docs/rules/kittens.md#time-to-react)."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.web.keyboard import create_table, enter_lobby, said, start_game, tab_to, wait_said


def test_the_host_creates_a_relaxed_table_and_grants_extra_time_and_everyone_hears_it(
    page: Page, guest: Page
) -> None:
    """docs/rules/kittens.md#time-to-react: the preset beside the per-option settings; extra time
    per player, shown on every seat and said to everyone when it changes and when the game starts."""
    enter_lobby(page, "Rafa")
    tab_to(page, "#create-timing")
    page.keyboard.type("Relaxed")
    page.wait_for_function("document.querySelector('#create-timing').value === 'relaxed'")
    create_table(page, "kittens", seats=2, bots=0, level="easy")

    enter_lobby(guest, "Sol")
    guest.wait_for_function("document.querySelector('#tables-body').textContent.includes('relaxed timing')")
    tab_to(guest, "#tables-body button")
    assert guest.evaluate("document.activeElement.textContent") == "Join the table of Rafa"
    guest.keyboard.press("Enter")
    page.wait_for_selector("#extra-1")

    tab_to(page, "#extra-1")
    assert page.evaluate("document.activeElement.textContent") == "Extra time for Sol"
    assert page.get_attribute("#extra-1", "aria-pressed") == "false"
    page.keyboard.press("Enter")
    heard = "Sol has extra time: the windows that ask them to react are twice as long."
    wait_said(guest, heard)
    page.wait_for_function("t => window.__said.some(x => x.text === t)", arg=heard)
    assert "extra time: the windows that ask them to react" in (guest.text_content("#seats") or "")
    page.wait_for_function("document.querySelector('#extra-1').getAttribute('aria-pressed') === 'true'")
    assert guest.query_selector("#extra-0") is None and guest.query_selector("#extra-1") is None

    start_game(page)
    # At the start everyone hears it again but Sol, who heard it when it was granted: a game's
    # start is when a listener has the most to hear (docs/speech.md, "In `make test`").
    start = "Extra time for Sol: the windows that ask them to react are twice as long."
    page.wait_for_function("t => window.__said.some(x => x.text === t)", arg=start)
    for who in (page, guest):
        wait_said(who, "Relaxed timing: every window to react in is twice as long.")
    assert start not in [x["text"] for x in said(guest)]
    assert guest.evaluate("window.cardroom.state.room.view.extra_time") == [1]
