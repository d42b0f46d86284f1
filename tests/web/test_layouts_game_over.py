"""Every seat count of both games in every layout, played to game over (issue 13): nothing on
the table overlaps, and the final scoreboard is wholly on screen. Its own file, apart from
test_layouts.py: four whole games, run beside the other browser files by another worker."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.server.live import LiveServer, run_server
from tests.web.pointer import (
    BURRITO_FAST,
    SCOREBOARD_CUT_OFF,
    SCOREBOARD_IN_VIEW,
    WHERE_IT_IS,
    Finger,
    create_table,
    crowded_once_drawn,
    enter_lobby,
    settled,
    shot,
    small_targets,
    start,
    uncounted,
)
from tests.web.test_layouts import broken_names


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    """Games here play four times faster (`CARDROOM_CLOCK_RATE`): what is looked at is where
    things are drawn, at any moment of a game and at its end, not the game's pace."""
    with run_server({"CARDROOM_CLOCK_RATE": "4"}) as live:
        yield live


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


OVER_AT = (2, 6)
"""The seat counts played to the end: the final scoreboard's smallest and largest (every count
from 2 to 6 in play is looked at; the scoreboard only grows a line a seat between them)."""


def turn_to(page: Page, layout: str) -> None:
    width, height, shape = LAYOUTS[layout]
    page.set_viewport_size({"width": width, "height": height})
    try:
        page.wait_for_function("s => document.querySelector('#felt').dataset.shape === s", arg=shape)
    except PlaywrightTimeout:
        shot(page, f"turned-{layout}")
        felt = page.evaluate(
            """() => { const f = document.querySelector('#felt');
              return {shape: f.dataset.shape, w: f.clientWidth, h: f.clientHeight,
                      shown: f.checkVisibility(), view: [innerWidth, innerHeight]}; }"""
        )
        raise AssertionError(
            f"the felt did not take the {shape} shape when turned to {layout}: {felt}"
        ) from None
    page.wait_for_timeout(150)  # the seats drawn again for the new shape


@pytest.mark.slow
@pytest.mark.parametrize("game", ["burrito", "kittens"])
def test_every_seat_count_in_every_layout_keeps_the_table_clear(game: str, phone: Page) -> None:
    """From two to six players, in each layout, no seat covers a pile, the clock or the banner,
    every seat shows its name in full and how many cards its player holds, nothing is cut off
    at the felt's edge (the seats move as the screen turns), no card's name
    is broken inside a word; and at game over (two and six players), with the final scores on
    every seat, the same, and the final scoreboard (places, points, Rematch, Back to the lobby) is wholly on screen
    in each layout."""
    finger = Finger(phone)
    enter_lobby(phone, finger, f"Count{game}")
    for seats in range(2, 7):
        create_table(phone, finger, game, seats=seats, bots=seats - 1, options=TO_THE_END[game])
        start(phone, finger)
        for layout in LAYOUTS:
            turn_to(phone, layout)
            found = crowded_once_drawn(phone)
            if found:
                shot(phone, f"{game}-{seats}-{layout}-crowded")
            assert found == [], (seats, layout, found)
            hidden = uncounted(phone)
            assert hidden == [], (seats, layout, hidden)  # every seat's count of cards
            broken = broken_names(phone)
            assert broken == [], (seats, layout, broken)  # card names break between words only
            if layout != "desktop":
                small = small_targets(phone)
                assert small == [], (seats, layout, small)  # a finger's size on a phone
            if seats == 6:
                shot(phone, f"{game}-6-{layout}")
        turn_to(phone, "portrait")
        if seats not in OVER_AT:
            finger.tap("#leave-btn")
            phone.wait_for_selector("#lobby:not([hidden])")
            continue
        phone.wait_for_selector("#scoreboard.final", timeout=180_000)  # bots playing to the end
        phone.wait_for_selector("#rematch-btn:not([hidden])", timeout=30_000)
        for layout in LAYOUTS:
            turn_to(phone, layout)
            settled(phone)
            found = crowded_once_drawn(phone)
            try:
                phone.wait_for_function(SCOREBOARD_IN_VIEW, timeout=10_000)
                where = None
            except PlaywrightTimeout:
                where = phone.evaluate(WHERE_IT_IS)
            if found or where is not None or seats in (2, 6):
                shot(phone, f"{game}-{seats}-{layout}-over")
            assert found == [], (seats, layout, "game over", found)
            hidden = uncounted(phone)
            assert hidden == [], (seats, layout, "game over", hidden)
            if layout != "desktop":  # the winner's seat, of two short lines, a finger's size too
                small = small_targets(phone)
                assert small == [], (seats, layout, "game over", small)
            assert where is None, (seats, layout, "the final scoreboard is not wholly on screen", where)
            cut = phone.evaluate(SCOREBOARD_CUT_OFF)
            assert cut == [], (seats, layout, "cut off at the right", cut)
        turn_to(phone, "portrait")
        finger.tap("#lobby-btn")
        phone.wait_for_selector("#lobby:not([hidden])")
