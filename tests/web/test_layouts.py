"""Every view in the phone and desktop layouts (and a phone held sideways): axe finds nothing,
nothing scrolls sideways, and a screenshot of each is written for a reviewer (issue 13)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.web.pointer import Finger, create_table, crowded, enter_lobby, shot, start
from tests.web.test_accessibility import audit, no_horizontal_scroll

# What a finger aims at during a game: buttons, cards, seats, choices.
TARGETS = "#table button, #table summary, #hand [role=option], #chooser [role=option], #felt .chip"


def small_targets(page: Page) -> list[str]:
    """Visible targets smaller than 44 by 44 CSS pixels."""
    result: list[str] = page.evaluate(
        """s => [...document.querySelectorAll(s)].filter(e => e.getClientRects().length)
            .map(e => [e, e.getBoundingClientRect()]).filter(([e, r]) => r.width < 44 || r.height < 44)
            .map(([e, r]) => `${e.id || e.className || e.tagName} ${Math.round(r.width)}x${Math.round(r.height)}`)""",
        TARGETS,
    )
    return result


def broken_names(page: Page) -> list[str]:
    """Card names (in the hand and on the piles) with a word split over two lines or wider than
    its card: each word of a name, as a Range, must lie on one line inside the name's box."""
    found: list[str] = page.evaluate("""() => {
      const out = [];
      for (const name of document.querySelectorAll('#hand .card-name, #felt .pile-spot .card-name')) {
        if (!name.getClientRects().length) continue;
        const box = name.getBoundingClientRect();
        const text = name.firstChild;
        for (const m of name.textContent.matchAll(/\\S+/g)) {
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
            page.set_viewport_size({"width": 390, "height": 844})
        finger.tap("#leave-btn")
        page.wait_for_selector("#lobby:not([hidden])")


# The three shapes of the screen (a phone upright, a phone held sideways, a desktop) and the
# shape of the felt in each (table.js: seats in rows along the top, or round an oval).
LAYOUTS = {"portrait": (390, 844, "narrow"), "landscape": (844, 390, "short"), "desktop": (1280, 800, "wide")}


@pytest.mark.parametrize("game", ["burrito", "kittens"])
def test_every_seat_count_in_every_layout_keeps_the_table_clear(game: str, phone: Page) -> None:
    """From two to six players, in each layout, no seat covers a pile, the clock or the banner,
    nothing is cut off at the felt's edge (the seats move as the screen turns), and no card's
    name is broken inside a word."""
    finger = Finger(phone)
    enter_lobby(phone, finger, f"Count{game}")
    for seats in range(2, 7):
        create_table(phone, finger, game, seats=seats, bots=seats - 1, options={})
        start(phone, finger)
        for layout, (width, height, shape) in LAYOUTS.items():
            phone.set_viewport_size({"width": width, "height": height})
            phone.wait_for_function(
                "s => document.querySelector('#felt').dataset.shape === s",
                arg=shape,
            )
            phone.wait_for_timeout(150)  # the seats drawn again for the new shape
            found = crowded(phone)
            if found:
                shot(phone, f"{game}-{seats}-{layout}-crowded")
            assert found == [], (seats, layout, found)
            broken = broken_names(phone)
            assert broken == [], (seats, layout, broken)  # card names break between words only
            if seats == 6:
                shot(phone, f"{game}-6-{layout}")
        phone.set_viewport_size({"width": 390, "height": 844})
        finger.tap("#leave-btn")
        phone.wait_for_selector("#lobby:not([hidden])")
