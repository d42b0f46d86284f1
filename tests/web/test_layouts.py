"""Every view in the phone and desktop layouts (and a phone held sideways): axe finds nothing,
nothing scrolls sideways, and a screenshot of each is written for a reviewer (issue 13)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.web.pointer import (
    Finger,
    create_table,
    crowded,
    enter_lobby,
    shot,
    small_targets,
    start,
    uncounted,
)
from tests.web.test_accessibility import audit, no_horizontal_scroll


def broken_names(page: Page) -> list[str]:
    """Card names (in the hand and on the piles) with a word split over two lines or wider than
    its card: each word of a name, as a Range, must lie on one line inside the name's box. A
    hyphen ends a word: "Guac-" and "Gator" may go on two lines, as a printer would set them."""
    found: list[str] = page.evaluate("""() => {
      const out = [];
      for (const name of document.querySelectorAll('#hand .card-name, #felt .pile-spot .card-name')) {
        if (!name.getClientRects().length) continue;
        const box = name.getBoundingClientRect();
        const text = name.firstChild;
        for (const m of name.textContent.matchAll(/[^\\s-]+-?/g)) {
          const range = document.createRange();
          range.setStart(text, m.index);
          range.setEnd(text, m.index + m[0].length);
          const rects = [...range.getClientRects()].filter(r => r.width > 0);
          const lines = new Set(rects.map(r => Math.round(r.top)));
          const r = range.getBoundingClientRect();
          if (lines.size !== 1 || r.left < box.left - 1 || r.right > box.right + 1) {
            out.push(`${m[0]} in "${name.textContent}" (${lines.size} lines, ${Math.round(r.width)} px in ${Math.round(box.width)})`);
          }
        }
      }
      return out;
    }""")
    return found


def look(page: Page, name: str) -> None:
    audit(page)
    no_horizontal_scroll(page)
    shot(page, name)


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_every_view_in_both_layouts(device: str, request: pytest.FixtureRequest) -> None:
    page: Page = request.getfixturevalue(device)
    finger = Finger(page)
    look(page, f"enter-{device}")
    enter_lobby(page, finger, f"Look{device}")
    look(page, f"lobby-{device}")
    finger.tap("#nav-games")
    page.wait_for_selector("#games:not([hidden])")
    look(page, f"games-{device}")
    finger.tap("#nav-leaderboard")
    page.wait_for_selector("#leaderboard:not([hidden])")
    look(page, f"leaderboard-{device}")
    finger.tap("#nav-lobby")
    for game, seats in (("burrito", 4), ("kittens", 5)):
        create_table(page, finger, game, seats=seats, bots=seats - 1, options={})
        look(page, f"{game}-{device}-table")
        start(page, finger)
        page.wait_for_timeout(600)  # the first events drawn
        look(page, f"{game}-{device}-game")
        assert crowded(page) == []  # every seat, pile and the clock clear of each other
        assert uncounted(page) == []  # every seat shows how many cards its player holds
        # After Start the seats of the table and the hand are both on screen.
        assert page.evaluate("""() => {
            const felt = document.querySelector('#felt').getBoundingClientRect();
            const hand = document.querySelector('#hand').getBoundingClientRect();
            return felt.top >= 0 && hand.top < innerHeight;
        }""")
        if device == "phone":
            assert small_targets(page) == []
            page.set_viewport_size({"width": 844, "height": 390})
            page.wait_for_timeout(200)
            look(page, f"{game}-landscape-game")
            assert crowded(page) == []
            assert uncounted(page) == []
            page.set_viewport_size({"width": 390, "height": 844})
        finger.tap("#leave-btn")
        page.wait_for_selector("#lobby:not([hidden])")


# The three shapes of the screen (a phone upright, a phone held sideways, a desktop) and the
# shape of the felt in each (table.js: seats in rows along the top, or round an oval).
def test_the_felt_says_the_countdown_once(phone: Page) -> None:
    """Before a round the felt's clock counts down under its name, "Countdown…"; the line of
    what is going on under the clock does not say it a second time."""
    finger = Finger(phone)
    enter_lobby(phone, finger, "Counting")
    create_table(phone, finger, "burrito", seats=2, bots=1, options={"countdown_ms": 60_000})
    start(phone, finger)
    phone.wait_for_selector("#felt .clock:not([hidden])")
    middle = phone.evaluate("document.querySelector('#felt .centre').innerText")
    assert middle.count("Countdown") == 1, middle
    shot(phone, "burrito-phone-countdown")
