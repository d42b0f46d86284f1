"""The hand's cursor and a screen reader (issue 24, docs/speech.md "Heard through Orca").

The hand is a listbox whose active option is the card under the cursor; a screen reader reads
that option whenever it changes. A fight called from the hand took three cards out of it, the
active option moved to another card, and Orca read that card ("Brawl B, 3.", "Guac Gator, 2.")
before "Brawl: you against Marco.", 2.4 s late in a fight of a few seconds. A hand that changes
under the cursor outside plain play, or losing three cards at once in it (a set), now leaves no
card under it until the player moves it; a pass in plain play keeps it where it was.
"""

from __future__ import annotations

from playwright.sync_api import Browser, Page

from tests.web.dealt import dealt_server, person
from tests.web.pointer import BURRITO_FAST, sit_down

QUIET_BOT = {**BURRITO_FAST, "countdown_ms": 1000, "fight_timeout_ms": 15000}

ACTIVE = "document.querySelector('#hand').getAttribute('aria-activedescendant')"


def _active(page: Page) -> str | None:
    found: str | None = page.evaluate(ACTIVE)
    return found


def _playing(page: Page) -> None:
    page.wait_for_function(
        "() => { const v = window.cardroom.state.room.view; return v && v.phase === 'play' && !v.fight; }",
        timeout=15_000,
    )


def test_a_called_fight_takes_the_cursor_and_a_pass_keeps_it(browser: Browser) -> None:
    with dealt_server("burrito_three_brawls.json") as url:
        page = person(browser, url)
        sit_down(page, "Brawler", "burrito", 2, QUIET_BOT)
        _playing(page)
        page.focus("#hand")
        page.keyboard.press("Home")
        assert _active(page) == "hand-0"  # Goth Sloth
        page.keyboard.press("p")  # pass it on: plain play, the cursor stays at the first slot
        page.wait_for_function(
            "() => !window.cardroom.state.room.view.hand.includes('goth_sloth')", timeout=10_000
        )
        assert _active(page) == "hand-0"
        page.keyboard.press("ArrowRight")
        label = page.evaluate("document.querySelector('#hand-1').getAttribute('aria-label')")
        assert label.startswith("Brawl B")
        page.keyboard.press("b")  # the Brawl: its three cards leave the hand
        page.wait_for_function("() => window.cardroom.state.room.view.fight !== null", timeout=10_000)
        page.wait_for_function(
            "() => window.__said.some(x => x.text.startsWith('Brawl: you against'))", timeout=10_000
        )
        assert _active(page) is None  # nothing for a screen reader to read ahead of the fight
        assert page.locator("#hand .cursor").count() == 0
        page.wait_for_function("() => window.cardroom.state.room.view.fight === null", timeout=30_000)
        assert _active(page) is None  # nor when the fight ends: the player puts the cursor back
        page.keyboard.press("ArrowRight")
        assert _active(page) == "hand-0"
        assert page.errors == []  # type: ignore[attr-defined]


def test_a_set_scored_in_plain_play_takes_the_cursor_too(browser: Browser) -> None:
    """Three cards gone at once under the cursor: Orca read the card that slid there, then
    another, ahead of the fight that began, 4.5 s late (cc28b)."""
    with dealt_server("burrito_three_gators.json") as url:
        page = person(browser, url)
        sit_down(page, "Setter", "burrito", 2, QUIET_BOT)
        _playing(page)
        page.focus("#hand")
        page.keyboard.press("Home")
        page.keyboard.press("ArrowRight")
        label = page.evaluate("document.querySelector('#hand-1').getAttribute('aria-label')")
        assert label.startswith("Guac Gator")
        page.keyboard.press("s")  # the set: its three cards leave the hand
        page.wait_for_function(
            "() => !window.cardroom.state.room.view.hand.includes('guac_gator')", timeout=10_000
        )
        assert _active(page) is None
        assert page.locator("#hand .cursor").count() == 0
        page.keyboard.press("ArrowRight")
        assert _active(page) == "hand-0"
        assert page.errors == []  # type: ignore[attr-defined]
