"""A "whom?" question answered by a tap on a seat of the table (issue 13): the seats ringed are
the ones the question offers, and only those.

A Duel called at a table of three asks for two duelists, you among the choices. The page ringed
every seat but yours for both questions: your own seat, which a tap answered, looked untappable,
and the first duelist stayed ringed for the second question, where a tap on it did nothing.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, Page

from tests.web.conftest import PHONE
from tests.web.dealt import dealt_server, person
from tests.web.keyboard import state, wait_for_change
from tests.web.pointer import BURRITO_FAST, Finger, act, shot, sit_down, small_targets

pytestmark = pytest.mark.slow  # a round played until a Duel between two is called and fought

# Many bruises to share out: the round goes on while the hand gathers three Duels (again, when a
# bot's fight came first).
LONG_ROUND = {**BURRITO_FAST, "bruises": 30}

RINGED = "[...document.querySelectorAll('#felt .chip.pick')].map(c => Number(c.dataset.seat)).sort()"


def gather_three_duels(page: Page, finger: Finger, limit_s: float = 240) -> None:
    """Out of fights: keep the Duels, pass the rest left, draw up to five; until three are held."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        s = state(page)
        v = s["view"]
        if (
            v is None
            or s["state"] != "playing"
            or v["phase"] != "play"
            or v["fight"] is not None
            or s["choosing"]
        ):
            page.wait_for_timeout(50)
            continue
        hand = v["hand"]
        if hand.count("duel") >= 3:
            return
        tapped = len(hand) < 5 and (act(page, finger, "draw") or act(page, finger, "draw_community"))
        if not tapped:  # a full hand, or nothing to draw: pass a card on, the round goes on
            other = next((i for i, card in enumerate(hand) if card != "duel"), None)
            tapped = (
                other is not None
                and finger.tap_if_there(f"#hand [data-index='{other}']")
                and act(page, finger, "pass")
            )
        if tapped:
            wait_for_change(page, s["v"], s["choosing"], timeout_ms=1000)
        else:
            page.wait_for_timeout(30)
    s = state(page)
    shot(page, "duels-never-came")
    v = s["view"] or {}
    raise AssertionError(
        f"three Duels never came: {s['state']}, phase {v.get('phase')}, hand {v.get('hand')}, "
        f"scores {v.get('scores')}, bruises {v.get('bruises')}"
    )


def test_a_duel_rings_exactly_the_seats_each_question_offers_and_your_own_seat_names_you(
    browser: Browser,
) -> None:
    # Dealt three Duels (tests/web/deals/burrito_three_duels.json): a random deal took 10 to
    # over 240 s of play to gather them, and once failed to in a clean-clone run.
    with dealt_server("burrito_three_duels.json") as url:
        phone = person(browser, url, **PHONE)
        _duel_called_by_taps(phone)


def _duel_called_by_taps(phone: Page) -> None:
    finger = sit_down(phone, "Duelist", "burrito", 3, LONG_ROUND)
    me = state(phone)["you"]
    assert me == 0 and state(phone)["view"]["hand"].count("duel") == 3
    for _attempt in range(3):  # a bot's fight may come first and the call is refused: call again
        gather_three_duels(phone, finger)
        s = state(phone)
        if not finger.tap_if_there(f"#hand [data-index='{s['view']['hand'].index('duel')}']"):
            continue
        if not act(phone, finger, "call"):
            continue
        phone.wait_for_selector("#chooser-box:not([hidden])")
        # "Duel: first duelist?": everyone, you too.
        assert phone.evaluate(RINGED) == [0, 1, 2]
        assert phone.locator("#felt .chip.me.pick").count() == 1
        assert small_targets(phone) == []  # your own seat a finger's size too
        first = next(i for i in range(3) if i != me)
        finger.tap(f"#felt .chip[data-seat='{first}']")
        phone.wait_for_function(
            "() => document.querySelector('#chooser-title').textContent.startsWith('Duel: second')"
        )
        # "Duel: second duelist?": the first is no longer offered, nor ringed.
        assert phone.evaluate(RINGED) == sorted(i for i in range(3) if i != first)
        shot(phone, "duel-second-duelist-phone")
        finger.tap("#felt .chip.me")  # you
        phone.wait_for_function("() => !window.cardroom.isChoosing()")
        phone.wait_for_function("() => window.cardroom.state.room.view.fight !== null", timeout=15_000)
        fighters = sorted(state(phone)["view"]["fight"]["fighters"])
        if fighters == sorted([first, me]):
            return
        phone.wait_for_function("() => window.cardroom.state.room.view.fight === null", timeout=30_000)
    raise AssertionError("the Duel between the first duelist and you never started")
