"""A person watching a table whose connection drops: the server lets a watcher go with their
connection, so the page watches the table again once it is back, and hears what it missed; a
table gone by then is said, and the page goes back to the lobby."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.web.pointer import Finger, act, create_table, enter_lobby, start

# The bot answers at once; the host's turn (and defuse) waits for the host.
SLOW_HOST = {"turn_ms": 600_000, "defuse_ms": 600_000, "bot_think_ms": 0, "nope_window_ms": 300}

WATCHING_AGAIN = "Connected again: you are watching the table again."


def host_a_game(page: Page, name: str) -> str:
    """A two-seat Exploding Kittens game of `name` against a bot; its table's id."""
    finger = Finger(page)
    enter_lobby(page, finger, name)
    create_table(page, finger, "kittens", seats=2, bots=1, options=SLOW_HOST)
    start(page, finger)
    table: str = page.evaluate("window.cardroom.state.current")
    return table


def watch(guest: Page, name: str, table: str) -> None:
    enter_lobby(guest, Finger(guest), name)
    guest.click(f"#watch-{table}", timeout=30_000)
    guest.wait_for_function(
        "document.querySelector('#table-state').textContent.includes('You are watching')", timeout=30_000
    )
    guest.wait_for_function("window.cardroom.state.room && window.cardroom.state.room.view", timeout=30_000)


def lose_the_connection(guest: Page, offline: bool = False) -> None:
    """The socket closes under the page, as a dropped network does (`offline`: and the network
    stays down, every try to reconnect failing, until the test brings it back); the page says
    the connection is lost (the notice, said assertively: the status line may change again
    before anyone looks, the page reconnecting at once)."""
    if offline:
        guest.context.set_offline(True)
    guest.evaluate("() => window.cardroom.state.ws.close()")
    guest.wait_for_function(
        "() => window.__said.some(x => x.text.startsWith('Connection lost'))", timeout=30_000
    )


def said(page: Page, text: str) -> bool:
    return bool(page.evaluate("t => window.__said.some(x => x.text === t)", text))


# What the watcher's history says the host did (a draw, a kitten drawn, a defuse, ...).
HOSTS_LINES = (
    "[...document.querySelectorAll('#log p')].filter(p => p.textContent.startsWith('Hostie ')).length"
)

HOSTS_MOVE = """() => { const r = window.cardroom.state.room;
    return r.state === 'playing' && ['turn', 'defusing'].includes(r.view.phase) && r.view.turn === r.you; }"""

ASKED_TO_GIVE = """() => { const r = window.cardroom.state.room;
    return r.state === 'playing' && r.view.phase === 'choosing' && r.view.choosing.kind === 'give'
        && r.view.choosing.player === r.you; }"""

VERSION = "window.cardroom.state.lastV[window.cardroom.state.current]"


def moved(page: Page, before: int) -> None:
    """Until the table has moved on from version `before`."""
    page.wait_for_function(f"v => {VERSION} > v", arg=before, timeout=30_000)


def host_moves(page: Page) -> None:
    """Once the host is to move: draw, or defuse the Exploding Kitten just drawn (the first move
    may draw it: 1 kitten in a two-player deck)."""
    finger = Finger(page)
    while True:
        page.wait_for_function(f"() => ({HOSTS_MOVE})() || ({ASKED_TO_GIVE})()", timeout=30_000)
        if not page.evaluate(ASKED_TO_GIVE):
            break
        before = page.evaluate(VERSION)  # the bot played a Favor on the host: give it a card
        hand = page.evaluate("window.cardroom.state.room.view.hand")
        pick = next((i for i, c in enumerate(hand) if c != "defuse"), 0)  # a Defuse would ask first
        finger.tap_if_there(f"#hand [data-index='{pick}']")
        assert act(page, finger, "give")
        moved(page, before)
    before = page.evaluate(VERSION)
    defusing = page.evaluate("window.cardroom.state.room.view.phase === 'defusing'")
    assert act(page, finger, "defuse" if defusing else "draw")
    if defusing:  # Defuse asks where the kitten goes back: any place will do
        page.wait_for_selector("#placer-confirm", timeout=30_000)
        assert finger.tap_if_there("#placer-confirm")
    moved(page, before)


def test_a_watcher_back_after_a_lost_connection_watches_again_and_hears_what_was_missed(
    page: Page, guest: Page
) -> None:
    table = host_a_game(page, "Hostie")
    watch(guest, "Wanda", table)
    page.wait_for_function(HOSTS_MOVE, timeout=30_000)
    before = guest.evaluate(HOSTS_LINES)
    lose_the_connection(guest, offline=True)
    host_moves(page)  # while the watcher is away
    guest.context.set_offline(False)  # the network is back: the page reconnects at once
    guest.wait_for_function("t => window.__said.some(x => x.text === t)", arg=WATCHING_AGAIN, timeout=30_000)
    assert guest.is_visible("#table")
    assert "You are watching" in (guest.text_content("#table-state") or "")
    # The history has the move made while away (the page resumed from the last version seen).
    guest.wait_for_function(f"n => {HOSTS_LINES} > n", arg=before, timeout=30_000)
    # And the watcher follows the table from now on: the host's next move.
    before = guest.evaluate(HOSTS_LINES)
    host_moves(page)
    guest.wait_for_function(f"n => {HOSTS_LINES} > n", arg=before, timeout=30_000)


def test_a_watcher_whose_table_closed_while_away_is_told_and_back_in_the_lobby(
    page: Page, guest: Page
) -> None:
    table = host_a_game(page, "Leaver")
    watch(guest, "Wilma", table)
    Finger(page).tap("#leave-btn")  # a bot takes the host's seat: the watcher is the last person there
    page.wait_for_selector("#lobby:not([hidden])")
    lose_the_connection(guest)  # and with the last person gone, the table closes
    guest.wait_for_selector("#lobby:not([hidden])", timeout=30_000)
    guest.wait_for_function(
        "() => window.__said.some(x => x.text.startsWith('You are no longer watching that table: '))",
        timeout=30_000,
    )
    assert not said(guest, WATCHING_AGAIN)
    assert guest.locator(f"#watch-{table}").count() == 0  # not in the list any more either
