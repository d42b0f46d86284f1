"""A person with a finger (a phone) or a mouse (a desktop): taps and clicks, no game keys.

Text fields are typed into (a phone's on-screen keyboard); everything in the game is a tap on
what the page draws: cards, buttons beside the hand, seats of the table, choices. The player
reacts to what the page shows, as `keyboard.py`'s player reacts to what it announces.
"""

from __future__ import annotations

import contextlib
import time
from collections import Counter
from pathlib import Path
from typing import Any

from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from cardroom.narrate.burrito import card_names
from tests.web.keyboard import OFFERED, STATE, wait_for_change

# Screenshots of each view, for a reviewer to look at; the folder is not committed (.gitignore).
SHOTS = Path(__file__).parent / "screenshots"


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


class Finger:
    """Taps on a touch screen, clicks with a mouse elsewhere."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.touch = bool(page.evaluate("navigator.maxTouchPoints > 0"))

    def tap(self, selector: str, timeout_ms: float | None = None) -> None:
        target = self.page.locator(selector).first
        if self.touch:
            target.tap(timeout=timeout_ms)
        else:
            target.click(timeout=timeout_ms)

    def drag(self, source: str, target: str) -> None:
        """Press on `source`, move, let go on `target` (a finger on a phone, else the mouse)."""
        if not self.touch:
            self.page.locator(source).first.drag_to(self.page.locator(target).first)
            return
        a = self.page.locator(source).first.bounding_box()
        b = self.page.locator(target).first.bounding_box()
        assert a and b
        cdp = self.page.context.new_cdp_session(self.page)
        start = (a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
        end = (b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)
        cdp.send(
            "Input.dispatchTouchEvent",
            {"type": "touchStart", "touchPoints": [{"x": start[0], "y": start[1]}]},
        )
        for k in range(1, 6):
            x = start[0] + (end[0] - start[0]) * k / 5
            y = start[1] + (end[1] - start[1]) * k / 5
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        cdp.detach()

    def tap_if_there(self, selector: str) -> bool:
        """Tap `selector` if the page shows it; False when it is not there (or has just gone:
        the table changes under the finger, as it does for a person)."""
        if self.page.locator(selector).count() == 0:
            return False
        try:
            self.tap(selector, timeout_ms=1500)
        except PlaywrightTimeout:
            return False
        return True


# What a finger aims at during a game: buttons, cards, the others' seats, choices.
TARGETS = "#table button, #table summary, #hand [role=option]:not([aria-disabled=true]), #chooser [role=option], #felt .chip:not(.me), #felt .chip.pick"


def small_targets(page: Page) -> list[str]:
    """Visible targets smaller than 44 by 44 CSS pixels."""
    result: list[str] = page.evaluate(
        """s => [...document.querySelectorAll(s)].filter(e => e.getClientRects().length)
            .map(e => [e, e.getBoundingClientRect()]).filter(([e, r]) => r.width < 44 || r.height < 44)
            .map(([e, r]) => `${e.id || e.className || e.tagName} ${Math.round(r.width)}x${Math.round(r.height)}`)""",
        TARGETS,
    )
    return result


def crowded(page: Page) -> list[str]:
    """What overlaps on the felt: a pile, the clock or the banner under a seat, two seats,
    anything past the felt's edge, two piles' names closer than 6 pixels, and the banner's or a
    seat's connection's or name's text, or a fight control's (`CUT_CONTROLS`), cut short (each
    as "what x what")."""
    found: list[str] = page.evaluate(
        """() => {
      const felt = document.querySelector('#felt');
      const name = (e) => e.dataset.pile || (e.dataset.seat !== undefined ? `seat ${e.dataset.seat}` : e.className);
      // A seat in motion (a hit's shake, a dodge, a blast) is not where it sits: not measured.
      const still = (e) => !e.getAnimations().some(a => a.playState === 'running');
      const boxes = (s) => [...felt.querySelectorAll(s)].filter(e => e.getClientRects().length && still(e))
        .map(e => [name(e), e.getBoundingClientRect()]);
      const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
      const seats = boxes('.chip');
      const middle = boxes('.pile-spot, .banner, .clock');
      const out = [];
      for (const [n, r] of middle) for (const [s, q] of seats) if (meet(r, q)) out.push(`${n} x ${s}`);
      seats.forEach(([s, q], i) => seats.slice(i + 1).forEach(([t, r]) => { if (meet(q, r)) out.push(`${s} x ${t}`); }));
      const f = felt.getBoundingClientRect();
      for (const [n, r] of [...middle, ...seats]) {
        if (r.left < f.left || r.right > f.right || r.top < f.top || r.bottom > f.bottom) out.push(`${n} x the edge`);
      }
      // The piles' names (their words, not their boxes) apart enough to read as two.
      const labels = [...felt.querySelectorAll('.pile-spot')].filter(e => e.getClientRects().length).map(e => {
        const range = document.createRange();
        range.selectNodeContents(e.querySelector('.pile-label'));
        return [name(e), range.getBoundingClientRect()];
      });
      for (let i = 0; i < labels.length; i += 1) {
        for (const [m, q] of labels.slice(i + 1)) {
          const [n, r] = labels[i];
          const apart = Math.max(q.left - r.right, r.left - q.right);
          if (r.top < q.bottom && q.top < r.bottom && apart < 6) out.push(`label ${n} x label ${m}`);
        }
      }
      // A seat's connection ("bot", "connected") in full: squeezed beside its cards it read "b…".
      for (const text of felt.querySelectorAll('.chip-conn')) {
        if (text.getClientRects().length && text.scrollWidth > text.clientWidth + 1) {
          out.push(`seat ${text.closest('.chip').dataset.seat} x its own text: ${text.textContent}`);
        }
      }
      // A seat's name in full, yours too ("Tess (yo…" was cut by its ellipsis).
      for (const text of felt.querySelectorAll('.chip-name')) {
        if (text.getClientRects().length && (text.scrollWidth > text.clientWidth + 1 || text.scrollHeight > text.clientHeight + 1)) {
          out.push(`seat ${text.closest('.chip').dataset.seat} x its own name: ${text.textContent}`);
        }
      }
      const banner = felt.querySelector('.banner');
      if (banner && (banner.scrollWidth > banner.clientWidth || banner.scrollHeight > banner.clientHeight)) {
        out.push(`banner x its own text: ${banner.textContent}`);
      }
      out.push(...cutControls());
      return out;
    }""".replace("cutControls()", f"({CUT_CONTROLS})()")
    )
    return found


CUT_CONTROLS = """() => [...document.querySelectorAll('#actions.fight .act .label, #actions.fight .act .why')]
  .filter((t) => t.getClientRects().length && (t.scrollWidth > t.clientWidth + 1 || t.scrollHeight > t.clientHeight + 1))
  .map((t) => `${t.closest('.act').dataset.action} x its own text: ${t.textContent}`)"""
"""A fight control's name or reason cut short by its box (each as "what x what"): a phone's
line read "Nothing is coming at y…" and "or tap another fighter'…" when the reason had one line."""


def crowded_once_drawn(page: Page, seconds: float = 3.0) -> list[str]:
    """What `crowded` finds once the felt has had `seconds` to draw itself for a turned screen:
    on a busy machine the seats can be measured a frame before they move to the felt's new size,
    an overlap no person sees (a CI run: two seats over the piles, gone a moment later)."""
    deadline = time.monotonic() + seconds
    while True:
        found = crowded(page)
        if not found or time.monotonic() > deadline:
            return found
        page.wait_for_timeout(100)


def uncounted(page: Page) -> list[str]:
    """The seats on the felt that do not show how many cards their player holds, in full and
    inside the seat (each as "seat N: what it shows"): issue 13 asks every seat to show it, in
    every layout, a phone held sideways too."""
    found: list[str] = page.evaluate("""() => {
      const sizes = window.cardroom.state.room.view.hand_sizes;
      const out = [];
      for (const chip of document.querySelectorAll('#felt .chip')) {
        const i = Number(chip.dataset.seat);
        const count = chip.querySelector('.backs-count');
        const shown = count && count.checkVisibility({ visibilityProperty: true, opacityProperty: true });
        const r = shown ? count.getBoundingClientRect() : null;
        const c = chip.getBoundingClientRect();
        const inside = r && r.width > 0 && r.left >= c.left && r.right <= c.right && r.top >= c.top && r.bottom <= c.bottom;
        if (!inside || count.textContent !== String(sizes[i]) || count.scrollWidth > count.clientWidth + 1) {
          out.push(`seat ${i}: ${shown ? count.textContent : 'no count'} (holds ${sizes[i]})`);
        }
      }
      return out;
    }""")
    return found


# The scoreboard wholly on screen (the page leaves a little room round it when it brings it there).
SCOREBOARD_IN_VIEW = """() => {
    const r = document.querySelector('#scoreboard').getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight;
}"""


WHERE_IT_IS = """() => {
    const box = document.querySelector('#scoreboard').getBoundingClientRect();
    const at = (s) => { const e = document.querySelector(s); if (!e) return null;
        const r = e.getBoundingClientRect(); return [Math.round(r.top), Math.round(r.bottom)]; };
    const focus = document.activeElement;
    return {box: [Math.round(box.top), Math.round(box.bottom)], screen: innerHeight, scrolled: scrollY,
        felt: at('#felt'), hand: at('#hand'), body: document.body.className,
        focus: focus && (focus.id || focus.className || focus.tagName),
        last: [...document.querySelectorAll('#log p')].slice(-3).map(p => p.textContent)};
}"""
"""Where the scoreboard, the felt and the hand are, how far the page is scrolled, what has the
focus and the history's last lines: what a test says when the final scores are not in view (a
CI run's phone saw that once, its cause not found)."""


SCOREBOARD_CUT_OFF = """() => {
    const box = document.querySelector('#scoreboard'), right = box.getBoundingClientRect().right;
    const out = [...box.querySelectorAll('td, th')].filter(c => c.getBoundingClientRect().right > right + 0.5)
        .map(c => c.textContent);
    const page = document.documentElement;
    if (page.scrollWidth > page.clientWidth) out.push(`page ${page.scrollWidth} wide on a screen of ${page.clientWidth}`);
    return out;
}"""
"""The final scores' cells that run past their box's edge, and a page wider than its screen."""


def enter_lobby(page: Page, finger: Finger, name: str) -> None:
    finger.tap("#nickname")
    page.keyboard.type(name)  # the on-screen keyboard
    finger.tap("#name-form button[type=submit]")
    page.wait_for_selector("#lobby:not([hidden])")


def create_table(
    page: Page, finger: Finger, game: str, seats: int, bots: int, options: dict[str, int]
) -> None:
    page.select_option("#create-game", game)  # a tap on a select opens the system's picker
    for selector, value in (("#create-seats", seats), ("#create-bots", bots)):
        page.fill(selector, str(value))
    if options and not page.evaluate("document.querySelector('#advanced').open"):
        finger.tap("#advanced summary")  # open, and left open for the next table
    for name, value in options.items():
        page.fill(f"#opt-{name}", str(value))
    finger.tap("#create-form button[type=submit]")
    page.wait_for_selector("#start-btn:not([hidden])")


DEALT = """() => {
  const r = window.cardroom.state.room, v = r && r.view;
  if (!v) return false;
  const card = document.querySelector('#hand [role=option][data-index]');
  return Boolean(card && card.checkVisibility()) || v.phase === 'game_over' || Boolean(v.alive && !v.alive[r.you]);
}"""
"""The game begun at the page: your hand shown, or already out of it (a game at four times the
clock's pace, its turns running out, drew an Exploding Kitten for a player before a busy
machine's page drew the hand: cc32a)."""


def start(page: Page, finger: Finger) -> None:
    finger.tap("#start-btn")
    page.wait_for_function(DEALT)


SETTLED = """() => document.getAnimations().every(a => a.playState !== 'running'
    || (a.effect && a.effect.target && a.effect.target.closest('.clock')))"""
"""Nothing moves on the page but a clock's bar running down (it runs until its timer ends)."""


def settled(page: Page, timeout_ms: float = 30_000) -> None:
    """Wait for the page's motion to end: a card dealt, drawn or passed flies in, a seat that
    just exploded swells for a moment; a finger aims where things have come to rest."""
    page.wait_for_function(SETTLED, timeout=timeout_ms)


LOG_HAS = """([from, s]) => [...document.querySelectorAll('#log p')].slice(from)
    .some(p => new RegExp('^(?:' + s + ')').test(p.textContent))"""
"""Whether a line of the history, from its line `from` on, matches `s` (a regular expression)
from its start."""


def log_has(page: Page, pattern: str) -> bool:
    """Whether a line of the history matches `pattern` (a regular expression) from its start."""
    return bool(page.evaluate(LOG_HAS, [0, pattern]))


def history(page: Page, lines: int = 40) -> list[str]:
    """The last `lines` lines of the history, for a failure's message."""
    found: list[str] = page.evaluate(
        "n => [...document.querySelectorAll('#log p')].slice(-n).map(p => p.textContent)", lines
    )
    return found


def selected(page: Page) -> list[int]:
    result: list[int] = page.evaluate(
        "[...document.querySelectorAll('#hand [aria-selected=true][data-index]')].map(o => Number(o.dataset.index))"
    )
    return result


# The verb each action's button begins with (issue 13: a button's name begins with its verb).
VERBS = {
    "draw": ("Draw",),
    "draw_community": ("Draw",),
    "draw_community_2": ("Draw",),
    "play": ("Play", "Put back"),
    "pass": ("Pass",),
    "set": ("Score",),
    "call": ("Call",),
    "grab": ("Grab",),
    "dodge": ("Dodge",),
    "catch": ("Catch",),
    "nope": ("Nope",),
    "defuse": ("Defuse",),
    "give": ("Give",),
    "move_up": ("Move",),
    "move_down": ("Move",),
    "play_enter": ("Confirm",),
}


def _catch_offered(page: Page) -> bool:
    found: bool = page.evaluate(
        "!!document.querySelector(\"#actions button[data-action='catch']:not([disabled]):not([aria-disabled=true])\")"
    )
    return found


THROW_AIM = "() => document.querySelector('#actions button[data-action^=throw_]')?.dataset.action ?? null"
"""The fight's Throw button's action (`throw_N`: it throws at seat N, whom it names)."""


def act(page: Page, finger: Finger, action: str) -> bool:
    """Tap the button of `action` beside the hand, when the page offers it; its accessible name
    begins with the action's verb."""
    button = f"#actions button[data-action='{action}']:not([disabled]):not([aria-disabled=true])"
    names: list[str] = page.evaluate(
        "s => [...document.querySelectorAll(s)].map(b => b.getAttribute('aria-label') || b.textContent)",
        button,
    )
    verbs = ("Throw at",) if action.startswith("throw_") else VERBS[action]
    for name in names:
        assert name.startswith(verbs), (action, name)
    return finger.tap_if_there(button)


NOT_ALONE = {"exploding_kitten", "defuse", "nope", "feral_cat"}
CATS = {"black_cat", "white_cat", "grey_cat", "red_cat", "tabby_cat"}


def _kittens_turn(page: Page, finger: Finger, hand: list[str], done: Counter[str]) -> str:
    """Choose and tap one move of our turn; returns what was tapped ("changed" when the page
    took the card or the button away first: the caller looks again)."""
    for index in selected(page):  # a selection left from before: start clean
        finger.tap_if_there(f"#hand [data-index='{index}']")
    if not done["draw"]:  # the first turn draws at once: a quick game may end before a later one
        return "draw" if act(page, finger, "draw") else "changed"
    counts = Counter(hand)
    pair = next((c for c, n in counts.items() if n >= 2 and c not in NOT_ALONE), None)
    if pair is not None and done["pair"] < 2:
        first = hand.index(pair)
        second = hand.index(pair, first + 1)
        finger.tap_if_there(f"#hand [data-index='{first}']")
        finger.tap_if_there(f"#hand [data-index='{second}']")
        if selected(page) != [first, second]:
            return "changed"  # the hand changed under the finger: look again
        return "pair" if act(page, finger, "play") else "changed"
    for wanted, kind in (
        (("favor", "targeted_attack"), "target"),
        (("alter_the_future", "super_alter_the_future"), "alter"),
    ):
        card = next((c for c in hand if c in wanted), None)
        if card is not None and done[kind] < 2:
            if not finger.tap_if_there(f"#hand [data-index='{hand.index(card)}']"):
                return "changed"
            return kind if act(page, finger, "play") else "changed"
    single = next((c for c in hand if c not in NOT_ALONE and c not in CATS), None)
    if single is not None and done["single"] < 2:
        if not finger.tap_if_there(f"#hand [data-index='{hand.index(single)}']"):
            return "changed"
        return "single" if act(page, finger, "play") else "changed"
    return "draw" if act(page, finger, "draw") else "changed"


# Where the hand's cards are, and what lies at each one's middle (where a finger takes it):
# "the card", or what covers it.
HAND_CARDS = """() => {
  const hand = document.querySelector('#hand');
  return {width: innerWidth, height: innerHeight, scroll: hand.scrollLeft,
    left: Math.round(hand.getBoundingClientRect().left),
    cards: [...hand.querySelectorAll('[data-index]')].map(o => {
      const r = o.getBoundingClientRect();
      const u = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      return {index: o.dataset.index, x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width),
        under: u && u.closest('[role=option]') === o ? 'the card'
          : u ? `${u.tagName}#${u.id}.${u.className}` : 'nothing'};
    })};
}"""


def play_kittens_by_pointer(page: Page, finger: Finger, limit_s: float = 240) -> Counter[str]:
    """Play our seat to the end of the game by taps only; count what was done."""
    done: Counter[str] = Counter()
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        s = page.evaluate(LOOK)
        v = s["view"]
        if s["state"] == "over" or (v and v["phase"] == "game_over"):
            return done
        me = s["you"]
        tried = None
        if v is None:
            until_changed(page, s, 500)
            continue
        choosing = v["choosing"] if v["phase"] == "choosing" else None
        if s["choosing"]:
            if finger.tap_if_there("#felt .chip.pick"):
                tried = "seat"  # "whom?": a tap on their seat at the table
            elif finger.tap_if_there("#placer-confirm") or finger.tap_if_there("#chooser [role=option]"):
                # Where the card goes back: after a Defuse (the page asks where the kitten goes
                # before it sends the Defuse), or after a Sneak Draw ("Put back at…").
                putting_back = (choosing is not None and choosing["kind"] == "insert") or (
                    v["phase"] == "defusing" and v["turn"] == me
                )
                tried = "insert" if putting_back else "option"
        elif choosing and choosing["player"] == me and choosing["kind"] == "reorder":
            if not done["drag"] and len(choosing["cards"]) >= 3:  # near the end, the deck may hold fewer
                order = (
                    "[...document.querySelectorAll('#hand [data-index] .card-name')].map(o => o.textContent)"
                )
                if not page.evaluate("document.querySelector('#hand').classList.contains('reordering')"):
                    page.wait_for_timeout(30)  # the page has not drawn the cards to reorder yet
                    continue
                # The cards to reorder fly into the hand: the finger goes for them where they land.
                settled(page, timeout_ms=10_000)
                # Nothing lies over the cards to reorder (an arrow that says "more this way" once did).
                cards = page.evaluate(HAND_CARDS)
                covered = [card for card in cards["cards"] if card["under"] != "the card"]
                assert covered == [], f"cards to reorder under something: {cards}"
                before = page.evaluate(order)
                finger.drag("#hand [data-index='0']", "#hand [data-index='2']")
                after = page.evaluate(order)
                assert after[2] == before[0] and after[0] == before[1], (
                    before,
                    after,
                    page.evaluate(HAND_CARDS),
                )  # the top card went third
                done["drag"] += 1
            finger.tap_if_there("#hand [data-index='1']")
            act(page, finger, "move_up")
            act(page, finger, "play_enter")
            tried = "reorder"
        elif choosing and choosing["player"] == me and choosing["kind"] == "give":
            # The choice starts on no card (issue 24): tap one, not the Defuse if there is another.
            hand = v["hand"]
            pick = next((i for i, c in enumerate(hand) if c != "defuse"), 0)
            finger.tap_if_there(f"#hand [data-index='{pick}']")
            act(page, finger, "give")
            tried = "give"
        elif choosing and choosing["player"] == me and choosing["kind"] == "insert":
            tried = "insert" if act(page, finger, "play") else None
        elif v["phase"] == "defusing" and v["turn"] == me:
            tried = "defuse" if act(page, finger, "defuse") else None
        elif v["phase"] == "nope_window" and v["window"]["player"] != me and v["window"]["last"] != me:
            tried = "nope" if act(page, finger, "nope") else None
        elif (
            v["phase"] == "turn"
            and v["turn"] == me
            and not page.locator("#chooser-box:not([hidden])").count()
        ):
            tried = _kittens_turn(page, finger, v["hand"], done)
        if tried is None:
            until_changed(page, s, 500)
            continue
        done[tried] += 1
        wait_for_change(page, s["v"], s["choosing"])
    raise AssertionError(f"the game did not end in time: {dict(done)}")


# Timings short enough for a whole round in a test, long enough for a person to catch.
BURRITO_FAST = {
    "bruises": 3,
    "countdown_ms": 300,
    "flight_ms": 1500,
    "catch_window_ms": 700,
    "duel_beat_ms": 300,
    "fight_timeout_ms": 6000,
    "between_rounds_ms": 1000,
}

BATTLE = ("brawl_a", "brawl_b", "war", "duel")


def _burrito_cards(page: Page, finger: Finger, v: dict[str, Any], done: Counter[str]) -> str | None:
    """Out of a fight: call or score a triple, draw up to five (from our pile, then the
    community's), else pass the least useful card."""
    hand: list[str] = v["hand"]
    counts = Counter(hand)
    for card, n in counts.items():
        if n >= 3:
            if not finger.tap_if_there(f"#hand [data-index='{hand.index(card)}']"):
                return None  # the hand changed under the finger: look again
            action = "call" if card in BATTLE else "set"
            return action if act(page, finger, action) else None
    if len(hand) < 5:
        if v["pile_sizes"][v["seat"]]:
            if done["draw"] % 2 and finger.tap_if_there("#felt [data-pile='own']"):
                return "draw_pile"  # a tap on the pile itself draws from it
            return "draw" if act(page, finger, "draw") else None
        for i, action in enumerate(("draw_community", "draw_community_2")):
            if v["community_sizes"][i]:
                return "draw_community" if act(page, finger, action) else None
    worth = [counts[c] + (1 if c in BATTLE else 0) for c in hand]
    if not finger.tap_if_there(f"#hand [data-index='{worth.index(min(worth))}']"):
        return None
    return "pass" if act(page, finger, "pass") else None


ROUND_MOVES = ("draw", "pass", "grab", "catch", "dodge")
"""The moves a burrito round by taps makes, each at least once."""

_DREW = "(Drew )?(" + "|".join(card_names().values()) + r")\."
"""Your draw from your own pile, by its key or a tap on the pile: the card alone ("Drew War."
for a battle card, whose name alone would sound like its fight)."""

BURRITO_SAID = {  # regular expressions, from the start of the line (your call: the fight it starts)
    "draw": _DREW,
    "draw_pile": _DREW,
    "draw_community": "Drew .* from community pile ",
    "pass": "Passed ",
    "set": "Set of ",
    "call": "(Brawl|War|Duel): ",
    "grab": r"Grabbed\.",
    "throw": "Thrown",
    "throw_seat": "Thrown",
    "dodge": r"Dodged\.",
    "catch": "Caught!",
}
"""What the history says of each burrito move of ours, once the server has taken it."""

LOG_SIZE = "() => document.querySelectorAll('#log p').length"

LOOK = f"""() => ({{...({STATE})(), lines: ({LOG_SIZE})(), offered: ({OFFERED})()}})"""
"""What a person looks at before each tap, read in one round trip: the table (keyboard.py's
STATE), the history's length and the buttons offered. The loops below read the page many times
a second; each read crosses Playwright's driver to Chromium and back, and three or four of them
a look cost a whole game in the page a fifth of a core (CONTRIBUTING.md)."""


def until_changed(page: Page, look: dict[str, Any], timeout_ms: float) -> None:
    """Until the table, the chooser or the buttons offered change since `look`, at most
    `timeout_ms`: a person waits for something to answer."""
    wait_for_change(page, look["v"], look["choosing"], timeout_ms, look["offered"])


def said_since(page: Page, lines: int, kind: str, timeout_ms: float = 3000) -> bool:
    """Whether the history said our move `kind` after its first `lines` lines, within the time a
    line takes to come back. A tap can be too late (the fight over, the burrito landed): the
    server refuses it, and it is not counted as made."""
    try:
        page.wait_for_function(LOG_HAS, arg=[lines, BURRITO_SAID[kind]], timeout=timeout_ms)
    except PlaywrightTimeout:
        return False
    return True


def play_burrito_round_by_pointer(
    page: Page, finger: Finger, limit_s: float = 240, shots: str = "", to_the_end: bool = False
) -> Counter[str]:
    """Play by taps until every kind of move in ROUND_MOVES was made (a card drawn and passed; a
    burrito grabbed, caught and dodged) and, with `shots`, the first burrito in the air
    was shot in its catch window. `to_the_end`: play on until the game is over instead (the end
    of a round by taps is that test's: playing every round to its end made these tests the
    longest of the suite). A move counts once the history says it (BURRITO_SAID); a tap the
    server refused counts under "late <kind>"."""
    done: Counter[str] = Counter()
    plans: dict[int, str] = {}
    fight_key = None
    fight_seen = 0.0
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if not to_the_end and all(done[k] for k in ROUND_MOVES) and (done["shot"] or not shots):
            return done
        s = page.evaluate(LOOK)
        v = s["view"]
        if to_the_end and (s["state"] == "over" or (v and v["phase"] == "game_over")):
            return done
        if v is None or s["state"] != "playing":
            until_changed(page, s, 500)
            continue
        me = s["you"]
        f = v["fight"]
        tried = None
        lines: int = s["lines"]
        offered = s["offered"].split()
        if f is not None and (f["started_at"], tuple(f["fighters"])) != fight_key:
            fight_key = (f["started_at"], tuple(f["fighters"]))
            fight_seen = time.monotonic()
        if s["choosing"]:
            tried = "seat" if finger.tap_if_there("#felt .chip.pick") else None
            if tried is None:
                finger.tap_if_there("#chooser [role=option]")
                tried = "option"
        elif f is not None and me in f["fighters"]:
            incoming = [fl for fl in f["flights"] if fl["target"] == me and not fl["dodged"]]
            for fl in incoming:
                # Caught while a shot of the catch window is still wanted: a dodge ends the
                # flight before its window opens (a busy run dodged its chances away).
                wanted = shots and not done["shot"]
                plans.setdefault(
                    fl["id"], "dodge" if done["catch"] > done["dodge"] and not wanted else "catch"
                )
            plan = plans[incoming[0]["id"]] if incoming else None
            if shots and incoming and not done["shot"] and plan == "catch" and _catch_offered(page):
                # The Catch button comes on a timer, the felt's window at its next frame: on a
                # busy machine the shot waits that frame (a run caught every burrito before it).
                with contextlib.suppress(PlaywrightTimeout):
                    page.wait_for_selector("#felt .burrito.window", timeout=500)
            if shots and incoming and not done["shot"] and page.locator("#felt .burrito.window").count():
                shot(page, f"{shots}-catch-window")
                found = crowded(page)
                assert found == [], found  # the fight's banner in full, clear of the seats
                if finger.touch:  # Catch and Dodge big enough for a finger
                    assert small_targets(page) == []
                done["shot"] += 1
            if plan == "catch":  # only once the window is open
                tried = "catch" if "catch" in offered and act(page, finger, "catch") else None
            elif plan == "dodge":
                tried = "dodge" if "dodge" in offered and act(page, finger, "dodge") else None
            elif "grab" in offered and act(page, finger, "grab"):
                tried = "grab"
            elif f["holding"][me] and time.monotonic() - fight_seen > 2.0:
                other = next(x for x in f["fighters"] if x != me)
                if done["throw"] % 2 and finger.tap_if_there(f"#felt .chip[data-seat='{other}']"):
                    tried = "throw_seat"  # a tap on the target's seat throws at them
                else:  # the one Throw button, at the fighter it names (the nearest)
                    aim = page.evaluate(THROW_AIM)
                    tried = "throw" if aim and act(page, finger, aim) else None
        elif v["phase"] == "play" and f is None:
            page.wait_for_timeout(150)  # a person's pace
            tried = _burrito_cards(page, finger, v, done)
        if tried is None:
            # Nothing to tap yet: a burrito's window opens by the page's clock (its button is
            # offered then), a throw is made 2 s into the fight (looked at again by then).
            until_changed(page, s, 250)
            continue
        if tried in BURRITO_SAID:
            if said_since(page, lines, tried):
                done[tried] += 1
            else:
                done[f"late {tried}"] += 1
        else:
            done[tried] += 1
            wait_for_change(page, s["v"], s["choosing"], timeout_ms=1000)
    raise AssertionError(f"not every move was made in time (or the game did not end): {dict(done)}")


def sit_down(
    page: Page, name: str, game: str, seats: int, options: dict[str, int], shots: str = ""
) -> Finger:
    """Enter, create a table with bots in every other seat, start it; screenshots when `shots`."""
    finger = Finger(page)
    enter_lobby(page, finger, name)
    create_table(page, finger, game, seats=seats, bots=seats - 1, options=options)
    if shots:
        shot(page, f"{shots}-waiting")
    start(page, finger)
    if shots:
        shot(page, f"{shots}-playing")
    return finger
