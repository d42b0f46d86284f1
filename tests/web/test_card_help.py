"""Issue 24, item 2: card help everywhere. What a card is and does, short, in the same words as
Shift+D (the server's card text, in the page's language): under a mouse's hover, after a
finger's long press (which neither plays nor selects the card), and with Shift+D on the card
under the cursor; beside the card, never over it.

Seed 5 deals two players: Hana (seat 1) is first to play and holds a See the Future.
How the page reads it: docs/keys.md#card-help-and-choices-that-forgive-a-slip-issue-24.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page

from tests.web.conftest import PHONE
from tests.web.dealt import person, seeded_server, two_at_a_table, view
from tests.web.pointer import shot

DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
TIP = "#card-tip"


def card_index(page: Page, card: str) -> int:
    hand: list[str] = view(page)["hand"]
    return hand.index(card)


def overlap(page: Page, a: str, b: str) -> bool:
    boxes = page.evaluate(
        "([a, b]) => [a, b].map(s => { const r = document.querySelector(s).getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })",
        [a, b],
    )
    (l1, t1, r1, b1), (l2, t2, r2, b2) = boxes
    return bool(l1 < r2 and l2 < r1 and t1 < b2 and t2 < b1)


def shift_d(page: Page, index: int) -> str:
    """What Shift+D says of the card at `index` of the hand (the server's answer)."""
    page.focus("#hand")
    page.keyboard.press("Home")
    for _ in range(index):
        page.keyboard.press("ArrowRight")
    said = page.evaluate("window.__said.length")
    page.keyboard.press("Shift+D")
    page.wait_for_function(f"window.__said.length > {said}")
    text: str = page.evaluate(f"window.__said[{said}].text")
    return text


def test_hover_shows_what_the_card_does_beside_it_in_the_words_of_shift_d(browser: Browser) -> None:
    with seeded_server(5) as url:
        hana, gus = person(browser, url, **DESKTOP), person(browser, url, **DESKTOP)
        two_at_a_table(hana, gus)
        i = card_index(hana, "see_the_future")
        card = f"#hand [data-index='{i}']"
        hana.mouse.move(5, 5)  # away from the cards (the Start button's click left it over one)
        hana.wait_for_selector(TIP, state="hidden")
        hana.hover(card)
        hana.wait_for_selector(f"{TIP}:not([hidden])")
        tip = hana.text_content(TIP)
        assert tip and tip.startswith("See the Future: ")
        assert not overlap(hana, TIP, card), "the tip does not cover the card under the mouse"
        hana.mouse.move(5, 5)
        hana.wait_for_selector(TIP, state="hidden")
        assert shift_d(hana, i) == tip, "the same words as Shift+D"
        # Shift+D shows them beside the card under the cursor too, for sighted keyboard players.
        assert hana.locator(TIP).is_visible() and hana.text_content(TIP) == tip
        assert not overlap(hana, TIP, card)
        hana.keyboard.press("ArrowLeft")
        hana.wait_for_selector(TIP, state="hidden")


def test_a_long_press_shows_the_card_and_neither_plays_nor_selects_it_on_a_phone(browser: Browser) -> None:
    with seeded_server(5) as url:
        hana = person(browser, url, **PHONE | {"viewport": {"width": 390, "height": 664}})
        gus = person(browser, url, **DESKTOP)
        two_at_a_table(hana, gus)
        i = card_index(hana, "shuffle")
        card = f"#hand [data-index='{i}']"
        hana.locator(card).scroll_into_view_if_needed()
        box = hana.locator(card).bounding_box()
        assert box
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        cdp = hana.context.new_cdp_session(hana)
        before = hana.evaluate("window.cardroom.state.lastV[window.cardroom.state.current]")
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        hana.wait_for_selector(f"{TIP}:not([hidden])")  # while the finger is still down
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        cdp.detach()
        tip = hana.text_content(TIP)
        assert tip and tip.startswith("Shuffle: ")
        assert not overlap(hana, TIP, card), "the tip does not cover the card under the finger"
        shot(hana, "card-help-long-press-phone")
        # A tap on a card selects it on your turn (and a second unselects it). A short tap now
        # selects it: had the long press selected it too, this tap would have unselected it.
        hana.locator(card).tap()
        hana.wait_for_selector(f"{card}[aria-selected=true]")
        assert hana.locator("#hand [aria-selected=true][data-index]").count() == 1
        assert hana.evaluate("window.cardroom.state.lastV[window.cardroom.state.current]") == before
        assert view(hana)["hand"][i] == "shuffle" and view(hana)["phase"] == "turn", "nothing was played"
        assert shift_d(hana, i) == tip


def test_the_help_is_in_the_page_language(browser: Browser) -> None:
    with seeded_server(5) as url:
        hana = person(browser, url, locale="it-IT", **DESKTOP)
        gus = person(browser, url, **DESKTOP)
        two_at_a_table(hana, gus)
        i = card_index(hana, "see_the_future")
        hana.hover(f"#hand [data-index='{i}']")
        hana.wait_for_selector(f"{TIP}:not([hidden])")
        tip = hana.text_content(TIP)
        assert tip and not tip.startswith("See the Future")
        assert shift_d(hana, i) == tip
