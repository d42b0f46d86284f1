"""Every view in the phone and desktop layouts (and a phone held sideways): axe finds nothing,
nothing scrolls sideways, and a screenshot of each is written for a reviewer (issue 13)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.web.pointer import (
    BURRITO_FAST,
    SCOREBOARD_IN_VIEW,
    Finger,
    create_table,
    crowded,
    enter_lobby,
    shot,
    small_targets,
    start,
)
from tests.web.test_accessibility import audit, no_horizontal_scroll


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

# Games that end without us: the bots are quick, our turns run out (Exploding Kittens draws for
# us) and a Throw Throw Burrito round ends with its first fight, ours or not.
TO_THE_END = {
    "kittens": {
        "turn_ms": 1500,
        "bot_think_ms": 0,
        "nope_window_ms": 300,
        "defuse_ms": 1500,
        "choose_ms": 1500,
    },
    "burrito": {**BURRITO_FAST, "bruises": 1},
}


def turn_to(page: Page, layout: str) -> None:
    width, height, shape = LAYOUTS[layout]
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function("s => document.querySelector('#felt').dataset.shape === s", arg=shape)
    page.wait_for_timeout(150)  # the seats drawn again for the new shape


def settled(page: Page) -> None:
    """Wait for the last moves' motion to end (a seat that just exploded swells for a moment)."""
    page.wait_for_function(
        "() => document.getAnimations().every(a => a.playState !== 'running')", timeout=30_000
    )


@pytest.mark.slow  # ten whole games: `make test` starts this file first
@pytest.mark.parametrize("game", ["burrito", "kittens"])
def test_every_seat_count_in_every_layout_keeps_the_table_clear(game: str, phone: Page) -> None:
    """From two to six players, in each layout, no seat covers a pile, the clock or the banner,
    nothing is cut off at the felt's edge (the seats move as the screen turns), no card's name
    is broken inside a word; and at game over, with the final scores on every seat, the same,
    and the final scoreboard (places, points, Rematch, Back to the lobby) is wholly on screen
    in each layout."""
    finger = Finger(phone)
    enter_lobby(phone, finger, f"Count{game}")
    for seats in range(2, 7):
        create_table(phone, finger, game, seats=seats, bots=seats - 1, options=TO_THE_END[game])
        start(phone, finger)
        for layout in LAYOUTS:
            turn_to(phone, layout)
            found = crowded(phone)
            if found:
                shot(phone, f"{game}-{seats}-{layout}-crowded")
            assert found == [], (seats, layout, found)
            broken = broken_names(phone)
            assert broken == [], (seats, layout, broken)  # card names break between words only
            if layout != "desktop":
                small = small_targets(phone)
                assert small == [], (seats, layout, small)  # a finger's size on a phone
            if seats == 6:
                shot(phone, f"{game}-6-{layout}")
        turn_to(phone, "portrait")
        phone.wait_for_selector("#scoreboard.final", timeout=180_000)  # bots playing to the end
        phone.wait_for_selector("#rematch-btn:not([hidden])", timeout=30_000)
        for layout in LAYOUTS:
            turn_to(phone, layout)
            settled(phone)
            found = crowded(phone)
            try:
                phone.wait_for_function(SCOREBOARD_IN_VIEW, timeout=10_000)
                in_view = True
            except PlaywrightTimeout:
                in_view = False
            if found or not in_view or seats in (2, 6):
                shot(phone, f"{game}-{seats}-{layout}-over")
            assert found == [], (seats, layout, "game over", found)
            assert in_view, (seats, layout, "the final scoreboard is not wholly on screen")
        turn_to(phone, "portrait")
        finger.tap("#lobby-btn")
        phone.wait_for_selector("#lobby:not([hidden])")


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
