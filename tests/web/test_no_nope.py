"""The no-Nope button on the page (issue 21, docs/rules/kittens.md#the-nope-window): pressed by
the only other player, it ends a long Nope window at once, and the page says so."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.web.keyboard import create_table, enter_lobby, start_game, state, tab_to

SIMPLE = ("skip", "shuffle", "see_the_future", "attack", "reverse", "swap_top_and_bottom", "super_skip")
"""Cards played with P alone: no player to name, nothing to choose."""


def _play_a_simple_card_or_draw(page: Page) -> bool:
    """On our turn: P on a card of SIMPLE (moved to with the arrows), True; else D, False."""
    hand = state(page)["view"]["hand"]
    found = next((i for i, card in enumerate(hand) if card in SIMPLE), None)
    page.keyboard.press("Home")
    if found is None:
        page.keyboard.press("d")
        return False
    for _ in range(found):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("p")
    return True


def test_the_no_nope_button_ends_the_window_at_once(page: Page, guest: Page) -> None:
    for each in (page, guest):  # two pages and a server on a busy machine: a turn can take seconds
        each.set_default_timeout(30_000)
    enter_lobby(page, "Rafa")
    create_table(page, "kittens", seats=2, bots=0, level="easy", options={"nope_window_ms": 30000})
    enter_lobby(guest, "Sol")
    guest.wait_for_function("document.querySelector('#tables-body').textContent.includes('Rafa')")
    tab_to(guest, "#tables-body button")
    guest.keyboard.press("Enter")
    page.wait_for_selector("#extra-1")
    start_game(page)
    guest.wait_for_function("window.cardroom.state.room && window.cardroom.state.room.view")
    players = {0: page, 1: guest}
    for _ in range(12):  # turns until one player holds a card that opens a window alone
        page.wait_for_function("window.cardroom.state.room.view.phase === 'turn'")
        turn = state(page)["view"]["turn"]
        mover, other = players[turn], players[1 - turn]
        mover.wait_for_function("t => window.cardroom.state.room.view.turn === t", arg=turn)
        version = state(page)["v"]
        mover.focus("#hand")
        if _play_a_simple_card_or_draw(mover):
            break
        page.wait_for_function(
            "v => window.cardroom.state.lastV[window.cardroom.state.current] > v", arg=version
        )
    else:
        raise AssertionError("no simple card in twelve turns")
    other.wait_for_selector("#actions button[data-action=no_nope]")
    assert state(other)["view"]["phase"] == "nope_window"
    other.click("#actions button[data-action=no_nope]")
    # The window was set to 30 s: it ends now, on the last pass, not when its time runs out.
    other.wait_for_function("window.cardroom.state.room.view.phase !== 'nope_window'", timeout=10_000)
    other.wait_for_function("window.__said.some(x => x.text === 'No Nope from you.')", timeout=10_000)
    assert other.query_selector("#actions button[data-action=no_nope]") is None
