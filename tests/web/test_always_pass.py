"""Issue 21: "always pass" is a setting kept with the account. A player who never wants to
Nope says so once in Settings; each Exploding Kittens game they sit in then starts with their
standing choice to let every card go (docs/rules/kittens.md#the-nope-window), and another
browser where they log in shows the setting on."""

from __future__ import annotations

from playwright.sync_api import Browser, BrowserContext

from tests.server.live import LiveServer
from tests.web.accounts import login, me, register
from tests.web.accounts import open_page as open_account_page
from tests.web.keyboard import create_table, start_game

MINE = "window.cardroom.state.room"


def test_always_pass_is_kept_with_the_account_and_starts_each_game(
    context: BrowserContext, browser: Browser, server: LiveServer
) -> None:
    page, errors = open_account_page(context, server)
    register(page, "Paola", "paola-secret-words")
    page.click("#open-settings")
    assert not page.is_checked("#always-pass")  # off unless asked for
    saved = page.evaluate("window.cardroom.profileSaved || 0")
    page.check("#always-pass")
    page.wait_for_function("n => (window.cardroom.profileSaved || 0) > n", arg=saved)
    assert me(page, server)["profile"]["always_pass"] is True
    page.keyboard.press("Escape")

    create_table(page, "kittens", seats=3, bots=2, level="easy")
    start_game(page)
    page.wait_for_function(
        f"{MINE}.view && ({MINE}.view.always_pass || []).includes({MINE}.you)", timeout=30_000
    )
    page.wait_for_selector("#log p:text-is('You now let every card go without a Nope.')", state="attached")

    page.click("#leave-btn")
    page.wait_for_selector("#lobby:not([hidden])")

    elsewhere = browser.new_context()
    try:
        other, other_errors = open_account_page(elsewhere, server)
        login(other, "Paola", "paola-secret-words")
        other.click("#open-settings")
        assert other.is_checked("#always-pass")
        assert other_errors == []
    finally:
        elsewhere.close()
    assert errors == []
