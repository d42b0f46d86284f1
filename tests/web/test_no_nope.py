"""The no-Nope button on the page (issue 21, docs/rules/kittens.md#the-nope-window): pressed by
the only other player, it ends a long Nope window at once, and the page says so."""

from __future__ import annotations

from playwright.sync_api import Browser

from tests.web.dealt import SLOW, dealt_server, person, two_at_a_table, version, view
from tests.web.keyboard import wait_said

DEAL = "kittens_see_the_future.json"
"""Hana (seat 1) plays first and holds a Skip (tests/web/deals): the first move opens a window,
whatever the shuffle would have dealt (a test that drew until a simple card came once drew the
kitten, let it go off, and waited on a game that had ended)."""


def test_the_no_nope_button_ends_the_window_at_once(browser: Browser) -> None:
    with dealt_server(DEAL) as url:
        hana = person(browser, url, viewport={"width": 1100, "height": 900})
        gus = person(browser, url, viewport={"width": 1100, "height": 900})
        two_at_a_table(hana, gus, SLOW | {"nope_window_ms": 30000})
        hand = view(hana)["hand"]
        before = version(hana)
        hana.focus("#hand")
        hana.keyboard.press("Home")
        for _ in range(hand.index("skip")):
            hana.keyboard.press("ArrowRight")
        hana.keyboard.press("p")
        gus.wait_for_selector("#actions button[data-action=no_nope]")
        assert view(gus)["phase"] == "nope_window" and version(hana) > before
        gus.click("#actions button[data-action=no_nope]")
        # The window was set to 30 s: it ends now, on the last pass, not when its time runs out.
        gus.wait_for_function("window.cardroom.state.room.view.phase !== 'nope_window'", timeout=10_000)
        wait_said(gus, "No Nope from you.", timeout_ms=10_000)
        assert gus.query_selector("#actions button[data-action=no_nope]") is None
        assert view(gus)["discard"][0] == "skip"  # the Skip took effect: the window did not eat it
        for page in (hana, gus):
            assert page.errors == []  # type: ignore[attr-defined]
