"""Every view in the phone and desktop layouts (and a phone held sideways): axe finds nothing,
nothing scrolls sideways, and a screenshot of each is written for a reviewer (issue 13)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.web.pointer import (
    Finger,
    create_table,
    crowded,
    enter_lobby,
    shot,
    small_targets,
    start,
    uncounted,
)
from tests.web.test_accessibility import audit, no_horizontal_scroll


def broken_names(page: Page) -> list[str]:
    """Card names (in the hand and on the piles) with a word split over two lines or wider than
    its card: each word of a name, as a Range, must lie on one line inside the name's box. A
    hyphen ends a word: "Guac-" and "Gator" may go on two lines, as a printer would set them; and
    so may a word's syllables at a soft hyphen (U+00AD), where the hyphen shows, with two
    letters of the word at least on each side of the break ("Disinne-sco", "Schwar-ze")."""
    found: list[str] = page.evaluate("""() => {
      const out = [];
      const SOFT = '\\u00AD';
      const key = (q) => `${Math.round(q.left)} ${Math.round(q.top)} ${Math.round(q.width)}`;
      for (const name of document.querySelectorAll('#hand .card-name, #felt .pile-spot .card-name')) {
        if (!name.getClientRects().length) continue;
        const box = name.getBoundingClientRect();
        const text = name.firstChild;
        const rects = (a, b) => {
          const range = document.createRange();
          range.setStart(text, a);
          range.setEnd(text, Math.min(b, text.length));
          return [...range.getClientRects()].filter(q => q.width > 0);
        };
        // A line by its top, within half a line (a card in the hand is turned a little: the
        // parts of one line have tops a pixel apart).
        const half = parseFloat(getComputedStyle(name).fontSize) / 2;
        const lineOf = (tops) => tops.reduce((seen, t) => (seen.some(u => Math.abs(u - t) < half) ? seen : [...seen, t]), []);
        const shown = name.textContent.replaceAll(SOFT, '');
        const hyphenShows = getComputedStyle(name).hyphens !== 'none';
        for (const word of name.textContent.matchAll(/[^\\s-]+-?/g)) {
          const whole = word[0].replaceAll(SOFT, '');
          const letters = whole.replace(/-$/, '').length;
          let at = word.index, lineBefore = null, done = 0;
          for (const piece of word[0].split(SOFT)) {
            // The hyphen drawn where a line breaks at a soft hyphen is inside the card too;
            // Chromium counts it in the range after the soft hyphen as well (not a line of it).
            const drawn = new Set(done ? rects(at - 1, at).map(key) : []);
            const own = rects(at, at + piece.length).filter(q => !drawn.has(key(q)));
            const hyphen = at + piece.length < word.index + word[0].length ? rects(at + piece.length, at + piece.length + 1) : [];
            at += piece.length + 1;
            const lines = lineOf(own.map(q => q.top));
            const all = [...own, ...hyphen];
            const left = Math.min(...all.map(q => q.left)), right = Math.max(...all.map(q => q.right));
            if (lines.length !== 1 || left < box.left - 1 || right > box.right + 1) {
              out.push(`${piece} of ${whole} in "${shown}" (${lines.length} lines, ${Math.round(right - left)} px in ${Math.round(box.width)})`);
            }
            const line = lines.length ? lines[0] : null;
            if (lineBefore !== null && Math.abs(line - lineBefore) >= half) {
              if (!hyphenShows) out.push(`${whole} in "${shown}" breaks at a soft hyphen that does not show`);
              if (done < 2 || letters - done < 2) out.push(`${whole} in "${shown}" breaks after ${done} of its ${letters} letters`);
            }
            lineBefore = line;
            done += piece.length;
          }
        }
      }
      return out;
    }""")
    return found


# A word too long for its card at the smallest type breaks between its syllables, as a printer
# of each language would break it (hyphen.js; the card names that broke anywhere, issue 23).
SYLLABLES = {
    "it": ["Di·sin·ne·sco", "Pe·scag·gio", "ma·ni·po·la·zio·ne", "esplo·si·vo"],
    "fr": ["Dé·sa·mor·çage", "Pa·res·seux", "Bû·che·ron", "Échan·ger"],
    "nl": ["Ont·man·tel", "Over·slaan", "Ont·plof·fen·de", "Per·soon·lij·ke"],
    "es": ["De·sac·ti·va·ción", "Mur·cié·la·go", "Gua·cai·mán", "Chu·rre·ro"],
    "de": [
        "Ent·schär·fung",
        "Heim·li·ches",
        "Fle·der·maus",
        "Ver·än·de·rung",
        "Rich·tungs·wech·sel",
        "Schwar·ze",
    ],
    "en": ["Ex·plo·ding", "Per·so·nal", "Cat·ter·me·lon"],
}


def test_a_long_word_breaks_between_its_syllables_in_each_language(phone: Page) -> None:
    broken = phone.evaluate(
        """async (words) => {
          const { hyphenate } = await import('/static/hyphen.js');
          return Object.fromEntries(Object.entries(words).map(([lang, ws]) =>
            [lang, ws.map(w => hyphenate(w.replaceAll('·', ''), lang).replaceAll('\\u00AD', '·'))]));
        }""",
        SYLLABLES,
    )
    assert broken == SYLLABLES


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
        assert uncounted(page) == []  # every seat shows how many cards its player holds
        # After Start the seats of the table and the hand are both on screen.
        # (The page brings them into view as it draws the first events: a busy machine draws late.)
        try:
            page.wait_for_function(
                """() => {
                const felt = document.querySelector('#felt').getBoundingClientRect();
                const hand = document.querySelector('#hand').getBoundingClientRect();
                return felt.top >= -1 && hand.top < innerHeight;  // -1: a sub-pixel scroll (seen: -0.44)
            }""",
                timeout=10_000,
            )
        except PlaywrightTimeout:
            where = page.evaluate(
                """() => [innerWidth, innerHeight, scrollY, document.activeElement && document.activeElement.id,
                document.activeElement && document.activeElement.className,
                document.querySelector('#felt').getBoundingClientRect().top,
                document.querySelector('#hand').getBoundingClientRect().top]"""
            )  # the width, height and scroll, the focus, the felt's and the hand's tops
            raise AssertionError(f"{game}: the felt and the hand not both on screen: {where}") from None
        if device == "phone":
            assert small_targets(page) == []
            page.set_viewport_size({"width": 844, "height": 390})
            page.wait_for_timeout(200)
            look(page, f"{game}-landscape-game")
            assert crowded(page) == []
            assert uncounted(page) == []
            page.set_viewport_size({"width": 390, "height": 844})
        finger.tap("#leave-btn")
        page.wait_for_selector("#lobby:not([hidden])")


# The three shapes of the screen (a phone upright, a phone held sideways, a desktop) and the
# shape of the felt in each (table.js: seats in rows along the top, or round an oval).
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
