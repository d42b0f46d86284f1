"""Issue 21, "Fair fights and a brisk pace": on a phone the fight's controls never move under
the finger, and a burrito is caught by touch on the page's own cue, heard as an earcon too.

A real server, a real Chromium held as a phone (390x664, touch) at seat 0, and a second person
at seat 1 on a real websocket client who calls a fight and throws a burrito at seat 0. The
table uses long flights (tests/web/test_cues.py's SLOW_THROWS): the test seat has time to act.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest
import websockets
from playwright.sync_api import Browser, Page

from tests.server.live import Client, LiveServer
from tests.web.conftest import open_page
from tests.web.keyboard import said
from tests.web.pointer import (
    CUT_CONTROLS,
    Finger,
    create_table,
    crowded,
    crowded_once_drawn,
    enter_lobby,
    history,
    shot,
    sit_down,
    start,
)
from tests.web.test_cues import SLOW_THROWS, Seat

PHONE_664: dict[str, Any] = {"viewport": {"width": 390, "height": 664}, "has_touch": True, "is_mobile": True}

# Every fight control's box, by its action, as the finger would find it now (viewport pixels),
# and whether the page has it enabled.
BOXES = """() => Object.fromEntries([...document.querySelectorAll('#actions button')].map((b) => {
  const r = b.getBoundingClientRect();
  return [b.dataset.action, {box: [r.x, r.y, r.width, r.height].map(Math.round),
                             off: b.getAttribute('aria-disabled') === 'true' || b.disabled,
                             why: b.dataset.why || '', focusable: b.tabIndex >= 0 && !b.disabled}];
}))"""


def _near(box: list[int], other: list[int]) -> bool:
    """The same place to a finger: no edge more than 2 px away (a 58-px button)."""
    return all(abs(p - q) <= 2 for p, q in zip(box, other, strict=True))


@pytest.fixture
def small_phone(browser: Browser, server: LiveServer) -> Iterator[Page]:
    yield from open_page(browser, server, **PHONE_664)


async def _one_throw(url: str, table: str, joined: Future[None], name: str = "Chloé") -> list[dict[str, Any]]:
    """Seat 1 (`name`) joins, calls a fight once the game is on, throws one burrito at seat 0
    and waits for the fight's end."""
    client = await Client.connect(url, name)
    try:
        seat = await Seat.sit_down(client, table, joined)
        await seat.call_a_fight()
        await seat.wait_for("fight_start")
        if seat.view and seat.view["fight"] and seat.view["fight"]["go_at"] is not None:
            await seat.wait_for("duel_beat", beat="burrito")  # a duel: both hold one already
            while not await seat.act({"do": "throw", "target": 0}):
                await seat.pump(0.05)
        else:
            await seat.pump(1.0)  # a moment for the finger to find the controls first
            await seat.grab_and_throw()
        await seat.wait_for("fight_over", seconds=40)
        return seat.events
    finally:
        await client.close()


@contextlib.contextmanager
def duel(
    page: Page, server: LiveServer, you: str, other: str = "Chloé"
) -> Iterator[Future[list[dict[str, Any]]]]:
    """`you` at a new burrito table of two on `page`, `other` in the second seat on a websocket
    (`_one_throw`), the game started: the throw's future (`other`'s events once the fight is over)."""
    finger = Finger(page)
    enter_lobby(page, finger, you)
    create_table(page, finger, "burrito", seats=2, bots=0, options=SLOW_THROWS)
    table = page.evaluate("window.cardroom.state.current")
    with ThreadPoolExecutor(1) as pool:
        joined: Future[None] = Future()
        thrower = pool.submit(lambda: asyncio.run(_one_throw(server.ws_url, table, joined, other)))
        joined.result(15)
        page.wait_for_function("name => window.cardroom.state.room.seats[1].name === name", arg=other)
        start(page, finger)
        yield thrower


def test_the_fight_controls_stay_put_and_a_burrito_is_caught_by_touch(
    small_phone: Page, server: LiveServer
) -> None:
    """Grab, Throw, Dodge and Catch keep their boxes from the fight's start to its end, shown
    disabled (focusable, saying why) while they cannot be done; the finger taps Catch where it
    has been all along, once the page shows the window open, and catches the burrito. The
    throw was said and sounded its earcon; the catch earcon sounded too."""
    page = small_phone
    samples: list[dict[str, Any]] = []
    tapped = False
    with duel(page, server, "Marco") as thrower:
        deadline = time.monotonic() + 120
        while not thrower.done() and time.monotonic() < deadline:
            # One look at the view and the controls: in two, the fight could start or end
            # between them (cc31c: a first sample with the fight in the view and no controls).
            v, boxes = page.evaluate(f"[window.cardroom.state.room?.view ?? null, ({BOXES})()]")
            f = v and v["fight"]
            if f and 0 in f["fighters"] and (boxes or samples):  # from the fight's first drawing
                samples.append(boxes)
                catch = boxes.get("catch")
                if catch and not catch["off"] and not tapped:
                    x, y, w, h = catch["box"]
                    page.touchscreen.tap(x + w / 2, y + h / 2)  # where Catch has always been
                    tapped = True
            page.wait_for_timeout(15)
        events = thrower.result(5)
    lines = said(page)
    assert any(e["event"] == "catch" and e["player"] == 0 for e in events), history(page)
    assert tapped and len(samples) > 10
    first = samples[0]
    assert set(first) == {"grab", "throw_2", "dodge", "catch"}, first
    for sample in samples:  # in place: a pixel or two of rounding is no move under a finger
        assert set(sample) == set(first), sample
        moved = {
            a: (first[a]["box"], b["box"]) for a, b in sample.items() if not _near(first[a]["box"], b["box"])
        }
        assert moved == {}, moved
    # A disabled control is still focusable and says why (on a tap too, instead of acting).
    assert all(b["focusable"] and (b["why"] != "") == b["off"] for s in samples for b in s.values())
    # Each was disabled at some moment and enabled at another: the same button, never a new one.
    assert {a for s in samples for a, b in s.items() if b["off"]} >= {"dodge", "catch"}
    assert {a for s in samples for a, b in s.items() if not b["off"]} >= {"dodge", "catch"}
    # The throw at a player who may dodge is said short, assertively (dodging is the answer due
    # at once); the catch earcon came after it, at the window.
    incoming = next(i for i, x in enumerate(lines) if x["text"].startswith("Incoming"))
    assert lines[incoming]["region"] == "assertive"
    assert lines[incoming]["text"] == "Incoming!", lines
    throw = next(e for e in events if e["event"] == "throw")
    heard = page.evaluate(
        "window.cardroom.played.map(c => [c.cue, c.flight === undefined ? null : c.flight])"
    )
    assert ["incoming", None] in heard and ["catchNow", throw["id"]] in heard, heard
    assert heard.index(["incoming", None]) < heard.index(["catchNow", throw["id"]])


def test_the_earcons_sound_on_time_unless_muted(page: Page) -> None:
    """Issue 21: each cue that needs an answer has its own earcon, made in the page (Web Audio);
    a catch earcon scheduled for a window that will not open (a dodged burrito) never sounds,
    and the sound setting's Mute silences them all."""
    page.mouse.click(5, 5)  # browsers start audio after a gesture (sound.unlock)
    heard = page.evaluate(
        """async () => {
          const m = await import('/static/sound.js');
          m.earcon('incoming');
          m.cues.yourTurn();
          m.cues.nopeWindow();
          const dodged = m.earcon('catchNow', {delay: 150, flight: 1});
          m.earcon('catchNow', {delay: 150, flight: 2});
          dodged.cancel();
          await new Promise((done) => setTimeout(done, 400));
          return m.played.map((c) => [c.cue, c.flight === undefined ? null : c.flight]);
        }"""
    )
    assert heard == [["incoming", None], ["yourTurn", None], ["nopeWindow", None], ["catchNow", 2]]
    page.click("#open-settings")
    page.check("#mute")
    after = page.evaluate(
        """async () => {
          const m = await import('/static/sound.js');
          m.earcon('incoming');
          m.earcon('catchNow', {delay: 50, flight: 3});
          await new Promise((done) => setTimeout(done, 200));
          return m.played.length;
        }"""
    )
    assert after == len(heard)


def test_a_line_that_needs_an_answer_replaces_the_past_lines_still_waiting(page: Page) -> None:
    """Issue 21: the game's lines about the past wait politely; one that asks for an answer is
    said at once and they are not said after it (they are in the history): they never hold up
    the next answer."""
    page.evaluate(
        """async () => {
          const ui = await import('/static/ui.js');
          window.__said.length = 0;
          ui.announce('Marco dodges.', false, 'event');
          ui.announce('Zoe grabs; 1 left.', false, 'event');
          ui.announce('Incoming, Chloé!', true, 'event');
          ui.announce('Hugo passes.', false, 'event');
        }"""
    )
    page.wait_for_function("window.cardroom.quiet()")
    page.wait_for_timeout(1200)  # "Incoming, Chloé!" holds the polite lines for its 2 words
    assert [(x["region"], x["text"]) for x in said(page)] == [
        ("assertive", "Incoming, Chloé!"),
        ("polite", "Hugo passes."),
    ]


LAPTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 720}}  # issue 23's smallest laptop


@pytest.fixture
def laptop(browser: Browser, server: LiveServer) -> Iterator[Page]:
    yield from open_page(browser, server, **LAPTOP)


def test_every_seat_stays_whole_on_the_felt_through_a_fight_on_a_laptop(
    laptop: Page, server: LiveServer
) -> None:
    """A fight's four buttons stay in one row on a wide screen, so the felt keeps its height: your
    seat at its bottom and the other's at its top stay whole on it, clear of the banner and the
    piles (in two rows, at 1280x720, the banner lay over your seat and its last line under the
    felt's edge). And on a felt shorter still, a seat is moved in rather than cut by the edge
    (a CI run at 1280x800: your seat, a line taller with its lag, past the felt's edge)."""
    page = laptop
    found: list[list[str]] = []
    rows: set[int] = set()
    looks = 0
    # A name of its own: the first test's Chloé holds hers while she may still come back.
    with duel(page, server, "Lapo", "Zoé") as thrower:
        deadline = time.monotonic() + 120
        while not thrower.done() and time.monotonic() < deadline:
            # The view and the fight's buttons in one look: in two, the fight could end between
            # them (a run counted a look with no button: "rows {0, 1}").
            v, tops = page.evaluate(
                """[window.cardroom.state.room?.view ?? null,
                    [...document.querySelectorAll('#actions.fight button')].map(
                      (b) => Math.round(b.getBoundingClientRect().top))]"""
            )
            if v and v["fight"] and tops:
                looks += 1
                rows.add(len(set(tops)))
                problems = crowded(page)
                if problems:
                    if not found:
                        shot(page, "fight-laptop-problems")
                    found.append(problems)
            page.wait_for_timeout(50)
        thrower.result(5)
    assert looks > 5 and rows == {1} and found == [], (rows, found)
    # A felt shorter than any layout gives it at issue 23's sizes: the seats kept whole on it.
    page.set_viewport_size({"width": 1280, "height": 600})
    edges = [p for p in crowded_once_drawn(page) if p.endswith("the edge")]
    assert edges == [], edges


async def _call_a_war(url: str, table: str, joined: Future[None], over: threading.Event) -> None:
    """A person joins and calls a War each time they hold three War cards (a War is fought by
    everyone but its caller), until the test is `over` (a bot may call one too)."""
    client = await Client.connect(url, "Oona")

    async def play() -> None:
        seat = await Seat.sit_down(client, table, joined)
        while not over.is_set():  # War after War (a call's time runs out in the bots' fights: again)
            with contextlib.suppress(AssertionError):
                await seat.call_a_fight(("war",))

    playing = asyncio.create_task(play())
    try:
        while not over.is_set() and not playing.done():
            await asyncio.sleep(0.1)
    finally:
        playing.cancel()
        # Python 3.11's `asyncio.wait_for` can lose a cancellation that comes with a message (the
        # seat played on, and cc34d's test waited for it for ten minutes): the socket closed
        # ends any read or send it is in.
        await asyncio.wait({playing}, timeout=5)
        await client.close()
        with contextlib.suppress(asyncio.CancelledError, websockets.ConnectionClosed):
            await playing


# The fight's Throw button: its action, its name, the line under it, whether it is disabled.
THROW = """() => { const b = document.querySelector('#actions button[data-action^=throw_]');
  return b && {action: b.dataset.action, label: b.querySelector('.label').textContent,
               line: b.querySelector('.why').textContent.trim(), off: b.getAttribute('aria-disabled') === 'true'}; }"""


def test_a_war_at_a_table_of_six_keeps_four_fight_controls_on_a_phone(
    small_phone: Page, server: LiveServer
) -> None:
    """In a War at a table of six (five fighters) a fighter's controls are Grab, one Throw, Dodge
    and Catch, in two rows, as in a duel: the Throw names the fighter it throws at (where T
    throws), says that a tap on another fighter's seat throws there, and such a tap does. With a
    Throw for each other fighter the bar was seven buttons in four rows and the felt, 244 pixels
    high, had its seats over one another; the felt's banner no longer lists the fighters (their
    seats are marked), which took three lines there."""
    page, finger = small_phone, Finger(small_phone)
    enter_lobby(page, finger, "Nadia")
    # The game's own pace but a short countdown: SLOW_THROWS's long fights between bots left the
    # caller little time to gather three War cards (a run saw no War in 150 s).
    create_table(page, finger, "burrito", seats=6, bots=4, options={"countdown_ms": 300, "pile_size": 20})
    table = page.evaluate("window.cardroom.state.current")
    samples: list[dict[str, Any]] = []
    found: list[list[str]] = []
    aims: list[dict[str, Any]] = []
    tapped: int | None = None
    thrown = False
    over = threading.Event()
    with ThreadPoolExecutor(1) as pool:
        joined: Future[None] = Future()
        caller = pool.submit(lambda: asyncio.run(_call_a_war(server.ws_url, table, joined, over)))
        try:
            joined.result(15)
            page.wait_for_function("() => window.cardroom.state.room.seats.some((s) => s.name === 'Oona')")
            start(page, finger)
            deadline = time.monotonic() + 200
            while time.monotonic() < deadline:
                v, boxes, aim = page.evaluate(
                    f"[window.cardroom.state.room?.view ?? null, ({BOXES})(), ({THROW})()]"
                )
                f = v and v["fight"]
                if f and 0 in f["fighters"] and len(f["fighters"]) >= 5:
                    if not boxes:  # drawn at the next frame
                        continue
                    samples.append(boxes)
                    aims.append({**aim, "fighters": f["fighters"], "holding": f["holding"][0]})
                    if len(samples) % 4 == 1 and (problems := crowded(page)):
                        found.append(problems)
                    if not f["holding"][0] and not boxes["grab"]["off"]:
                        finger.tap_if_there("#actions button[data-action=grab]")  # the War may end first
                    elif f["holding"][0] and tapped is None and not aim["off"]:
                        named = int(aim["action"].removeprefix("throw_")) - 1
                        tapped = next(s for s in f["fighters"] if s not in (0, named))
                        finger.tap_if_there(f"#felt .chip[data-seat='{tapped}']")  # not the one named
                    thrown = thrown or any(x["thrower"] == 0 and x["target"] == tapped for x in f["flights"])
                elif thrown and len(samples) > 10:
                    break  # a War is over, seat 0 threw in one by a tap on a seat, and was seen
                elif samples:
                    # It ended before seat 0 held a burrito, or as it threw, or so soon that
                    # it was seen in three looks (cc34c, a busy machine): the next War too.
                    tapped = None
                page.wait_for_timeout(50)
            else:
                raise AssertionError(
                    f"no War in 200 s in which seat 0 threw by a tap, seen in {len(samples)} looks: {history(page)}"
                )
        finally:
            over.set()
        caller.result(15)
    assert len(samples) > 10 and found == [], found
    first = samples[0]
    slots = [{("throw" if a.startswith("throw_") else a): b["box"] for a, b in s.items()} for s in samples]
    assert sorted(slots[0]) == ["catch", "dodge", "grab", "throw"], first
    for slot in slots:  # the same four, in place (a pixel or two of rounding is no move)
        assert slot.keys() == slots[0].keys() and all(_near(slots[0][a], slot[a]) for a in slot), slot
    assert len({box[1] for box in slots[0].values()}) == 2, slots[0]  # two rows, as in a duel
    names = page.evaluate("window.cardroom.state.room.seats.map(s => s.name)")
    for aim in aims:  # always one other fighter, named
        seat = int(aim["action"].removeprefix("throw_")) - 1
        assert seat != 0 and seat in aim["fighters"] and aim["label"] == f"Throw at {names[seat]}", aim
    held = [a for a in aims if a["holding"] and not a["off"]]
    assert held and all(a["line"] == "or tap another fighter's seat" for a in held), aims[-5:]
    assert tapped is not None and thrown, (tapped, history(page))


# A fight's controls drawn by the page's own code (static/actions.js) in each language the page
# speaks, for fights in which every reason and the hint show; what of them is cut short.
EVERY_LANGUAGES_REASONS = """async () => {
  const i18n = await import('/static/i18n.js');
  const { renderActions } = await import('/static/actions.js');
  const box = document.querySelector('#actions');
  const flight = { id: 1, target: 0, dodged: false, lands_at: 1e9, catch_from: 5000 };
  const fights = [
    { fighters: [0, 1, 2], go_at: 5000, holding: [false, false, false], free: 2, flights: [] },
    { fighters: [0, 1, 2], go_at: null, holding: [true, false, false], free: 1, flights: [flight] },
    { fighters: [0, 1], go_at: null, holding: [false, true], free: 0, flights: [] },
  ];
  const out = { cut: [], reasons: {} };
  try {
    for (const [code] of i18n.LANGUAGES) {
      await i18n.loadCatalog(code);
      const reasons = new Set();
      for (const fight of fights) {
        const m = { game: 'burrito', you: 0, now: 1000, throwAt: 1, seatName: () => 'Marco',
                    view: { phase: 'play', fight, hand: [] } };
        renderActions(box, m, () => {});
        box.querySelectorAll('.why').forEach((w) => reasons.add(w.textContent.trim()));
        out.cut.push(...(CUT_CONTROLS)().map((x) => `${code}: ${x}`));
      }
      out.reasons[code] = [...reasons].filter(Boolean);
    }
  } finally {
    await i18n.loadCatalog(i18n.wantedLanguage());
  }
  return out;
}""".replace("CUT_CONTROLS", CUT_CONTROLS)


def test_every_reason_and_hint_of_the_fight_controls_is_whole_on_a_phone_in_every_language(
    small_phone: Page,
) -> None:
    """On a phone (390x664) a fight control's line under its name (why it cannot be done now, or
    how else to throw) is read whole in each of the six languages: the longest, German's "oder
    tippe auf den Platz eines anderen Kämpfers", takes two lines; in one, the English "Nothing
    is coming at you" read "Nothing is coming at y…"."""
    page = small_phone
    # A name no other test of this module's server uses: a guest's name is held for a while
    # after their page closes (cc34c: "Marco", the duel test's, kept this page at the door).
    sit_down(page, "Wilma", "burrito", 2, {"pile_size": 20})
    found = page.evaluate(EVERY_LANGUAGES_REASONS)
    reasons = found["reasons"]
    assert len(reasons) == 6 and all(len(r) == 7 for r in reasons.values()), reasons  # six and the hint
    assert "oder tippe auf den Platz eines anderen Kämpfers" in reasons["de"], reasons["de"]
    assert found["cut"] == [], "; ".join(sorted(set(found["cut"])))


# The Throw control, ready to throw (a burrito in hand, the fight on), drawn by the page's own
# code in each language for fighters with the longest names a player may take (24 letters).
LONG_NAMES_THROW = """async (names) => {
  const i18n = await import('/static/i18n.js');
  const { renderActions } = await import('/static/actions.js');
  const box = document.querySelector('#actions');
  const fights = [
    { fighters: [0, 1], go_at: null, holding: [true, false], free: 0, flights: [] },
    { fighters: [0, 1, 2], go_at: null, holding: [true, false, false], free: 1, flights: [] },
  ];
  const out = [];
  try {
    for (const [code] of i18n.LANGUAGES) {
      await i18n.loadCatalog(code);
      for (const name of names) {
        for (const fight of fights) {
          const m = { game: 'burrito', you: 0, now: 1000, throwAt: 1, seatName: () => name,
                      view: { phase: 'play', fight, hand: [] } };
          renderActions(box, m, () => {});
          const b = box.querySelector('[data-action^=throw_]');
          const label = b.querySelector('.label');
          out.push({ code, name, fighters: fight.fighters.length, text: label.textContent,
                     cut: label.scrollWidth > label.clientWidth + 1 || label.scrollHeight > label.clientHeight + 1,
                     inside: label.getBoundingClientRect().top >= b.getBoundingClientRect().top
                       && label.getBoundingClientRect().bottom <= b.getBoundingClientRect().bottom,
                     height: b.getBoundingClientRect().height,
                     others: [...box.children].map((x) => x.getBoundingClientRect().height) });
        }
      }
    }
  } finally {
    await i18n.loadCatalog(i18n.wantedLanguage());
  }
  return out;
}"""


def test_the_throw_control_names_a_long_named_fighter_whole_on_a_phone(small_phone: Page) -> None:
    """Whom a burrito goes to is what a thrower reads last: on a phone's cell (about 150 pixels)
    "Throw at Maximilian Wolkenstein" read "Throw at Maxim…". Ready to throw, the control's name
    takes two lines when it needs them, in each language, the hint giving way; the button keeps
    its height (nothing moves under a finger)."""
    page = small_phone
    sit_down(page, "Wanda", "burrito", 2, {"pile_size": 20})
    names = ["Maximilian Wolkenstein", "Bartholomäusschwertfeger", "Marco"]
    drawn = page.evaluate(LONG_NAMES_THROW, names)
    page.set_viewport_size({"width": 1280, "height": 720})  # and a laptop's four in a row
    drawn += page.evaluate(LONG_NAMES_THROW, names)
    assert len(drawn) == 2 * 6 * 3 * 2
    cut = [
        f"{d['code']}, {d['fighters']} fighters: {d['text']}" for d in drawn if d["cut"] or not d["inside"]
    ]
    assert cut == [], cut
    assert all(d["name"] in d["text"] for d in drawn)
    assert all(abs(h - d["height"]) < 1 for d in drawn for h in d["others"]), drawn[:2]
