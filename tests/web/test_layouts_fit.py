"""A table that fits the screen it is on (issue 23): on phones with their browser bars, a phone
held sideways, laptops and a wide desktop, the felt, your hand and the buttons of what you can
do now are on screen together without scrolling and nothing covers them, from two seats to
the most of both games (at each count where the felt changes shape), in all six languages no
word breaks inside itself (a card's name only between syllables, with a hyphen), a long hand
says that it scrolls and shows its first card, and the table chat is at hand with a count of
the messages not seen.

One table per seat count, looked at in every size by resizing its page (a phone turned, a
window resized), rather than a game per size."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import suppress

import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from cardroom.i18n import LANGUAGES
from tests.server.live import LiveServer
from tests.web.conftest import PHONE, open_page
from tests.web.pointer import (
    Finger,
    act,
    create_table,
    crowded_once_drawn,
    enter_lobby,
    shot,
    small_targets,
    start,
    uncounted,
)
from tests.web.test_layouts import broken_names
from tests.web.test_watching import watch

# The screens of issue 23: phones with their address and tool bars showing, one held
# sideways (touched); laptops and a wide desktop (a mouse).
SIZES = {
    "phone": {"360x640": (360, 640), "390x664": (390, 664), "412x732": (412, 732), "sideways": (664, 390)},
    "desktop": {"1366x768": (1366, 768), "1280x720": (1280, 720), "1920x1080": (1920, 1080)},
}
# Every seat count of each game (issue 23 asks for 2 to 12 and 2 to 10), the fewest to the fullest
# of each arrangement table.js makes of the felt. Upright (rowsLayout, "narrow"): three others to
# a row, one row to 4 players, two to 6; then four to a row, two rows to 9, three to 12. Held
# sideways ("short"): five others to a row, one row to 6, two to 11, three at 12. Round an oval
# ("wide", laptops and desktops): three players at its ends (seatSpot), seats of five lines to 6,
# of three past 6. A table costs a few seconds: each is looked at in every size of its device.
SEAT_COUNTS = {
    ("burrito", "phone"): tuple(range(2, 13)),
    ("kittens", "phone"): tuple(range(2, 11)),
    ("burrito", "desktop"): tuple(range(2, 13)),
    ("kittens", "desktop"): tuple(range(2, 11)),
}
MOST = {"burrito": 12, "kittens": 10}
# The words of the fullest tables in each language, at every size of issue 23 (a table is
# resized, not dealt again: a size costs about a second).
WORD_SIZES = {device: tuple(sizes) for device, sizes in SIZES.items()}
# Long enough that no game ends while it is looked at; the bots still play.
CALM = {"kittens": {"turn_ms": 60_000}, "burrito": {"countdown_ms": 3000}}

# What a player needs on screen at once: the felt, the hand and every button of what can be done
# now (and the chooser when the game asks), each wholly on screen, none over another, and what
# the browser shows at the middle of each button and of the hand's first card is that button or
# card (nothing drawn over it). Each problem as a line.
FITS = """() => {
  const vh = innerHeight, vw = innerWidth, out = [];
  const box = (e) => e.getBoundingClientRect();
  const shown = (e) => e && e.getClientRects().length > 0;
  const round = (q) => `${Math.round(q.left)},${Math.round(q.top)} ${Math.round(q.width)}x${Math.round(q.height)}`;
  const parts = [['felt', document.querySelector('#felt')], ['hand', document.querySelector('#hand')]];
  const chooser = document.querySelector('#chooser-box');
  if (shown(chooser)) parts.push(['chooser', chooser]);
  for (const b of document.querySelectorAll('#actions button')) if (shown(b)) parts.push([`button "${b.textContent}"`, b]);
  for (const [name, e] of parts) {
    const q = box(e);
    if (!shown(e) || q.top < -1 || q.left < -1 || q.bottom > vh + 1 || q.right > vw + 1) out.push(`${name} not wholly on screen (${round(q)} in ${vw}x${vh})`);
  }
  const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  parts.forEach(([n, a], i) => parts.slice(i + 1).forEach(([m, b]) => { if (meet(box(a), box(b))) out.push(`${n} x ${m}`); }));
  const covered = (name, e) => {
    const q = box(e);
    const x = q.left + q.width / 2, y = q.top + q.height / 2;
    if (x < 0 || y < 0 || x > vw || y > vh) return;
    const top = document.elementFromPoint(x, y);
    if (!top || !e.contains(top)) out.push(`${name} under ${top ? (top.id || top.className || top.tagName) : 'nothing'}`);
  };
  for (const [name, e] of parts.slice(2)) covered(name, e);
  const hand = document.querySelector('#hand');
  const first = hand.querySelector('[data-index="0"]');
  if (first) {
    const q = box(first), h = box(hand);
    if (q.left < h.left - 1 || q.right > h.right + 1) out.push('the first card scrolled out of sight');
    covered('the first card', first);
  }
  if (hand.scrollWidth > hand.clientWidth + 1) {
    const more = document.querySelector('.hand-more.after');
    const count = document.querySelector('#hand-count').textContent;
    const cards = hand.querySelectorAll('[data-index]').length;
    // The page's rule (static/layout.js): an arrow wherever a card is cut off by a quarter of its width.
    const last = [...hand.querySelectorAll('[data-index]')].at(-1);
    const cut = last && box(last).right - box(hand).right > box(last).width / 4;
    if (hand.scrollLeft < 1 && cut && !shown(more)) out.push('the hand hides cards with no arrow saying so');
    if (!count.includes(String(cards))) out.push(`the hand's count says "${count}" of ${cards} cards`);
  }
  return out;
}"""

# Words of the table's text split over two lines ("Gemeinsc / haftsstape / l"): each word of a
# pile's or a seat's name, a tag, the banner, a button, the hand's title and count, as a Range,
# on one line. Card names are broken_names' (which also wants them inside their card).
WORDS = """() => {
  const out = [];
  const sel = '#felt .pile-label, #felt .chip-name, #felt .chip .tag, #felt .chip-conn, #felt .banner, #felt .clock-label, #actions button, #hand-title, #hand-count, #chat-jump, #chooser-title, #chooser [role=option]';
  for (const e of document.querySelectorAll(sel)) {
    if (!e.getClientRects().length) continue;
    const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      for (const m of t.textContent.matchAll(/[^\\s-]+-?/g)) {
        const range = document.createRange();
        range.setStart(t, m.index);
        range.setEnd(t, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (lines.size > 1) out.push(`${m[0]} in "${e.textContent}" (${lines.size} lines)`);
      }
    }
  }
  return out;
}"""


def resize(page: Page, width: int, height: int) -> list[str]:
    """Resize the page as a phone turned or a window resized; what does not fit once it has
    settled (an empty list when all fits)."""
    page.set_viewport_size({"width": width, "height": height})
    with suppress(PlaywrightTimeout):  # then say what does not fit
        page.wait_for_function(f"({FITS})().length === 0", timeout=10_000)
    found: list[str] = page.evaluate(f"({FITS})()")
    return found


def look_at_every_size(
    page: Page, device: str, label: str, shots: bool, sizes: tuple[str, ...] | None = None
) -> list[str]:
    """What does not fit or is crowded at each size of `device` (or those of them named in
    `sizes`; a screenshot of each such size)."""
    failures = []
    for size, (width, height) in SIZES[device].items():
        if sizes is not None and size not in sizes:
            continue
        problems = {
            "unfit": resize(page, width, height),
            "crowded": crowded_once_drawn(page),
            "uncounted": uncounted(page),  # every seat shows how many cards its player holds
            "broken card names": broken_names(page),
            "broken words": page.evaluate(f"({WORDS})()"),
            "small targets": small_targets(page) if device == "phone" else [],
        }
        problems = {what: found for what, found in problems.items() if found}
        if problems:
            shot(page, f"fit-{label}-{size}-problems")
            failures.append(f"{label} at {size}: {problems}")
        elif shots:
            shot(page, f"fit-{label}-{size}")
    return failures


@pytest.mark.slow
@pytest.mark.parametrize("device", ["phone", "desktop"])
@pytest.mark.parametrize("game", ["burrito", "kittens"])
def test_the_table_hand_and_moves_fit_every_screen_at_every_seat_count(
    game: str, device: str, request: pytest.FixtureRequest
) -> None:
    """Phones (touch) at 360x640, 390x664, 412x732 and 664x390, laptops and a desktop (mouse)
    at 1366x768, 1280x720 and 1920x1080, from two seats to the game's most (SEAT_COUNTS): the
    felt, the hand and the buttons on screen without scrolling, none covering another, the felt
    clear."""
    page: Page = request.getfixturevalue(device)
    finger = Finger(page)
    enter_lobby(page, finger, f"Fit{game[:3]}{device[:2]}")
    most = MOST[game]
    failures = []
    for seats in SEAT_COUNTS[game, device]:
        width, height = next(iter(SIZES[device].values()))
        page.set_viewport_size({"width": width, "height": height})
        create_table(page, finger, game, seats=seats, bots=seats - 1, options=CALM[game])
        start(page, finger)
        failures += look_at_every_size(page, device, f"{game}-{seats}-{device}", shots=seats in (2, most))
        finger.tap("#leave-btn", timeout_ms=30_000)  # a table of bots at play keeps a busy machine busier
        page.wait_for_selector("#lobby:not([hidden])")
    assert failures == [], "\n".join(failures)


@pytest.fixture
def phone_in(browser: Browser, server: LiveServer, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A phone whose browser speaks the test's language."""
    yield from open_page(browser, server, locale=request.param, **PHONE)


@pytest.mark.slow
@pytest.mark.parametrize("phone_in", LANGUAGES, indirect=True)
def test_no_word_breaks_inside_itself_in_any_language(phone_in: Page) -> None:
    """The fullest table of each game (the narrowest seats) in each language, on the narrowest
    phone (upright and sideways) and the smallest desktop: the piles' and seats' names, the
    cards' names, the buttons, each word on one line (a card's name may break between
    syllables, with a hyphen, as a printer would set it)."""
    page = phone_in
    lang = page.evaluate("document.documentElement.lang")
    finger = Finger(page)
    enter_lobby(page, finger, f"Words{lang}")
    failures = []
    for game, seats in MOST.items():
        page.set_viewport_size({"width": 390, "height": 664})
        create_table(page, finger, game, seats=seats, bots=seats - 1, options=CALM[game])
        start(page, finger)
        for device in SIZES:
            failures += look_at_every_size(
                page, device, f"{lang}-{game}-{seats}", shots=lang == "de", sizes=WORD_SIZES[device]
            )
        # What a screen reader says of a card is its holder's name, from the catalog: never
        # the soft hyphens drawn on its face (which is hidden from it).
        heard = page.evaluate("""() => [...document.querySelectorAll('#hand [data-index]')].map(o =>
            [o.getAttribute('aria-label'), o.querySelector('.face').getAttribute('aria-hidden')])""")
        failures += [
            f"{lang}-{game}: a card heard as {label!r}" for label, hidden in heard if "\u00ad" in label
        ]
        failures += [
            f"{lang}-{game}: {label!r}'s face is not hidden" for label, hidden in heard if hidden != "true"
        ]
        finger.tap("#leave-btn", timeout_ms=30_000)  # a table of bots at play keeps a busy machine busier
        page.wait_for_selector("#lobby:not([hidden])")
    assert failures == [], "\n".join(failures)


def hand_size(page: Page) -> int:
    size: int = page.evaluate("document.querySelectorAll('#hand [data-index]').length")
    return size


OVER = "window.cardroom.state.room.view.phase === 'game_over'"


def draw_up_to(page: Page, finger: Finger, cards: int) -> int:
    """Draw on each turn until the hand holds `cards` cards or the game is over; the hand's size
    then (no cards once the game is over)."""
    for _ in range(40):
        if hand_size(page) >= cards or page.evaluate(OVER):
            break
        before = hand_size(page)
        if act(page, finger, "draw"):
            page.wait_for_function(
                f"n => document.querySelectorAll('#hand [data-index]').length !== n || {OVER}",
                arg=before,
                timeout=30_000,
            )
        else:
            page.wait_for_timeout(200)
    return hand_size(page)


def test_a_long_hand_says_it_scrolls_and_shows_its_first_card(phone: Page) -> None:
    """Eleven cards on a 360-pixel phone: one row that starts at the first card (often the
    Defuse), its count, an arrow at the end that scrolls on and one at the start that comes
    back; on a laptop, where they all fit, no arrow."""
    finger = Finger(phone)
    enter_lobby(phone, finger, "Longhand")
    phone.set_viewport_size({"width": 360, "height": 640})
    options = {
        "turn_ms": 600_000,  # the measures below took over a minute in a busy run: no forced draw
        "bot_think_ms": 0,
        "nope_window_ms": 300,
        "defuse_ms": 1500,
        "choose_ms": 1500,
    }
    cards = 0
    for _ in range(4):  # a game the bot ends first (it took the Defuse with a pair) is played again
        create_table(phone, finger, "kittens", seats=2, bots=1, options=options)
        start(phone, finger)
        cards = draw_up_to(phone, finger, 11)
        # The bot plays on after the last draw and may lose (the game over empties the hand):
        # measured only once it is this player's turn again, 10 minutes in which nothing moves.
        draw = "#actions button[data-action='draw']:not([disabled]):not([aria-disabled=true])"
        phone.wait_for_function(f"s => document.querySelector(s) || {OVER}", arg=draw, timeout=30_000)
        cards = 0 if phone.evaluate(OVER) else hand_size(phone)
        if cards >= 10:
            break
        finger.tap("#leave-btn")
        phone.wait_for_selector("#lobby:not([hidden])")
    assert cards >= 10, cards
    assert resize(phone, 360, 640) == []
    shot(phone, "fit-long-hand-360x640")
    assert phone.text_content("#hand-count") == f"{cards} cards"
    assert phone.is_visible(".hand-more.after") and not phone.is_visible(".hand-more.before")
    scroll = "document.querySelector('#hand').scrollLeft"

    def tap_arrow(side: str) -> bool:
        """Tap the arrow on `side` while it shows; False once it has gone (the hand's end)."""
        before = phone.evaluate(scroll)
        if phone.is_hidden(f".hand-more.{side}"):
            return False
        try:
            finger.tap(f".hand-more.{side}", timeout_ms=3000)
        except PlaywrightTimeout:
            return False  # it went while a scroll ended
        phone.wait_for_function(f"{scroll} !== {before}", timeout=5000)
        return True

    assert tap_arrow("after")
    phone.wait_for_selector(".hand-more.before:not([hidden])")
    shot(phone, "fit-long-hand-scrolled")
    for _ in range(cards):  # on to the last card, a tap at a time
        if not tap_arrow("after"):
            break
    last_whole = """() => { const h = document.querySelector('#hand').getBoundingClientRect();
        const last = [...document.querySelectorAll('#hand [data-index]')].at(-1);
        const c = last && last.getBoundingClientRect();
        return c && c.left >= h.left - 1 && c.right <= h.right + 1; }"""
    phone.wait_for_function(last_whole, timeout=5000)
    for _ in range(cards):  # and back to the first
        if not tap_arrow("before"):
            break
    phone.wait_for_function(f"{scroll} < 1", timeout=5000)
    assert resize(phone, 360, 640) == []  # the first card whole again, nothing over it
    assert resize(phone, 1366, 768) == []
    assert not phone.is_visible(".hand-more.after") and not phone.is_visible(".hand-more.before")


def test_the_table_chat_is_beside_the_table_with_a_count_of_new_messages(desktop: Page, guest: Page) -> None:
    """On a laptop the table chat is on screen beside the table during a game; scrolled out of
    sight (or on a phone, under the table), a message that comes shows as "Table chat: 1 new
    message" above the hand, which brings the chat into view and goes once it is seen."""
    finger = Finger(desktop)
    enter_lobby(desktop, finger, "Chatter")
    desktop.set_viewport_size({"width": 1366, "height": 768})
    create_table(desktop, finger, "kittens", seats=2, bots=1, options={"turn_ms": 60_000})
    start(desktop, finger)
    table = desktop.evaluate("window.cardroom.state.current")
    assert resize(desktop, 1366, 768) == []
    on_screen = """() => { const r = document.querySelector('#table-chat-input').getBoundingClientRect();
        return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; }"""
    assert desktop.evaluate(on_screen)
    watch(guest, "Guestly", table)

    def say(text: str) -> None:
        guest.fill("#table-chat-input", text)
        guest.press("#table-chat-input", "Enter")
        desktop.wait_for_function(
            "t => document.querySelector('#table-chat-log').textContent.includes(t)", arg=text
        )

    say("hello there")
    assert desktop.is_hidden("#chat-jump")  # seen at once: on screen beside the table
    # A phone: the chat under the table, out of sight.
    assert resize(desktop, 390, 664) == []
    say("your turn soon")
    desktop.wait_for_selector("#chat-jump:not([hidden])")
    assert desktop.text_content("#chat-jump") == "Table chat: 1 new message"
    say("hurry up")
    desktop.wait_for_function(
        "document.querySelector('#chat-jump').textContent === 'Table chat: 2 new messages'"
    )
    assert resize(desktop, 390, 664) == []  # the marker above the hand covers nothing
    shot(desktop, "fit-chat-unread-390x664")
    finger.tap("#chat-jump")
    desktop.wait_for_selector("#chat-jump", state="hidden")
    assert desktop.evaluate(on_screen)
