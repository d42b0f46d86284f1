"""Issue 24, item 3: what you saw stays in view. The cards See the Future (and Alter the Future)
showed are drawn under the table for their owner, as faces, top first, for as long as they are
still the top of the deck (docs/rules/kittens.md#what-players-know): a draw takes the top one
away, a shuffle takes them all; the other player's page holds no trace of them.

tests/web/deals/kittens_see_the_future.json deals two players: seat 1 (Hana, first to play)
holds See the Future, Alter the Future and Shuffle, the deck's top is Favor, Red Cat, Skip, and
nobody holds a Nope.
How the page reads it: docs/keys.md#card-help-and-choices-that-forgive-a-slip-issue-24.
"""

from __future__ import annotations

from playwright.sync_api import Browser, Page

from tests.web.conftest import PHONE
from tests.web.dealt import dealt_server, person, two_at_a_table, version, view
from tests.web.pointer import shot

DEAL = "kittens_see_the_future.json"
TOP = ["favor", "red_cat", "skip"]

SEEN = "[...document.querySelectorAll('#seen .seen-card .face')].map(f => f.dataset.card)"


def seen(page: Page) -> list[str]:
    cards: list[str] = page.evaluate(SEEN)
    return cards


def cursor_to(page: Page, card: str) -> None:
    """Put the hand's cursor on `card` with the arrows, the focus in the hand."""
    page.focus("#hand")
    page.keyboard.press("Home")
    hand: list[str] = view(page)["hand"]
    for _ in range(hand.index(card)):
        page.keyboard.press("ArrowRight")


def play(page: Page, card: str) -> None:
    before = version(page)
    cursor_to(page, card)
    page.keyboard.press("Enter")
    page.wait_for_function(f"(window.cardroom.state.lastV[window.cardroom.state.current] || 0) > {before}")


def no_trace(page: Page, cards: list[str]) -> None:
    """Nothing of the seen cards on `page`: not drawn, not in any text, hidden or not."""
    assert seen(page) == []
    html: str = page.evaluate("document.documentElement.outerHTML")
    assert "seen-card" not in html
    assert "as you saw it" not in html and "You know the top of the deck" not in html
    assert view(page)["future"] == []


def test_see_the_future_stays_on_the_table_top_first_until_the_deck_changes_and_only_for_its_owner(
    browser: Browser,
) -> None:
    with dealt_server(DEAL) as url:
        hana = person(browser, url, **PHONE | {"viewport": {"width": 390, "height": 664}})
        gus = person(browser, url, viewport={"width": 1280, "height": 800})
        two_at_a_table(hana, gus)
        assert seen(hana) == [] and hana.locator("#seen").is_hidden()

        play(hana, "see_the_future")
        hana.wait_for_function(f"{SEEN}.length === 3", timeout=15_000)
        assert seen(hana) == TOP, "the three cards, top first, as faces"
        names = hana.evaluate("[...document.querySelectorAll('#seen .card-name')].map(n => n.textContent)")
        assert names == ["Favor", "Red Cat", "Skip"]
        assert hana.locator("#seen").is_visible()
        box = hana.locator("#seen").bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, "on a phone's screen"
        hana.locator("#seen").scroll_into_view_if_needed()
        shot(hana, "seen-cards-phone")
        gus.wait_for_function("window.cardroom.state.room.view.phase === 'turn'")
        no_trace(gus, TOP)

        # Hana draws the Favor: the two below it are still known, still in order.
        before = version(hana)
        hana.focus("#hand")
        hana.keyboard.press("d")
        hana.wait_for_function(f"{SEEN}.join() === 'red_cat,skip'")
        assert version(hana) > before
        no_trace(gus, TOP)

        # Gus draws the Red Cat: Hana's page follows the deck.
        gus.focus("#hand")
        gus.keyboard.press("d")
        hana.wait_for_function(f"{SEEN}.join() === 'skip'")

        # Hana shuffles: nothing of the deck is known any more, and nothing is drawn.
        play(hana, "shuffle")
        hana.wait_for_function(f"{SEEN}.length === 0")
        assert hana.locator("#seen").is_hidden()
        for page in (hana, gus):
            assert page.errors == []  # type: ignore[attr-defined]


def test_alter_the_future_shows_the_new_order_it_chose(browser: Browser) -> None:
    with dealt_server(DEAL) as url:
        hana = person(browser, url, viewport={"width": 1280, "height": 800})
        gus = person(browser, url, viewport={"width": 1280, "height": 800})
        two_at_a_table(hana, gus)
        play(hana, "alter_the_future")
        hana.wait_for_function("window.cardroom.isChoosing() || document.querySelector('#hand.reordering')")
        hana.wait_for_selector("#hand.reordering")
        # The top card goes one down: Red Cat, Favor, Skip.
        hana.keyboard.press("Shift+ArrowDown")
        hana.keyboard.press("Enter")
        hana.wait_for_function(f"{SEEN}.join() === 'red_cat,favor,skip'")
        no_trace(gus, TOP)
