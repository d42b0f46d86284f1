"""The keyboard: F1 help, the history read with Page Up / Page Down, the hand listbox, the 003
quick keys, game keys silent while typing, remapping, and the page's own texts through _()."""

from __future__ import annotations

import json

from playwright.sync_api import Page, Route
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from cardroom.help.keys import TABLES, TERMINAL, WEB, help_rows, key_label, keys
from cardroom.narrate import kittens
from tests.web.keyboard import create_table, enter_lobby, focused, said, start_game, state, tab_to, wait_said

SLOW = {"nope_window_ms": 300, "turn_ms": 600_000}
"""Short Nope windows; a turn that outlasts a slow walk through the settings on a busy machine."""


def kittens_started(page: Page, name: str) -> None:
    """A two-seat Exploding Kittens game where it is our turn (seat 0 plays first)."""
    enter_lobby(page, name)
    create_table(page, "kittens", seats=2, bots=1, level="hard", options=SLOW)
    start_game(page)
    page.wait_for_function("document.querySelectorAll('#hand [role=option]').length >= 8")
    # The deal and the first turn arrive as one batch after the start: wait until it is heard.
    wait_said(page, "Your turn.", "assertive")


def test_f1_lists_the_keys_for_where_the_focus_is(page: Page) -> None:
    kittens_started(page, "Fia")
    page.keyboard.press("F1")
    page.wait_for_selector("#help[open]")
    assert page.text_content("#help-title") == "Keys in the game area"
    body = page.inner_text("#help-body")
    for line in ("Shift+D", "Describe the card under the cursor", "Whose turn it is", "Page Up", "Nope"):
        assert line in body
    page.keyboard.press("Escape")
    page.wait_for_function("!document.querySelector('#help').open")
    assert focused(page, "#hand")
    tab_to(page, "#table-chat-input")
    page.keyboard.press("F1")
    page.wait_for_selector("#help[open]")
    assert page.text_content("#help-title") == "Keys in the chat box"
    page.keyboard.press("Escape")
    assert "Keys for this game" in (page.text_content("#keys-box") or "")


def test_page_up_and_page_down_move_through_the_history(page: Page) -> None:
    kittens_started(page, "Pag")
    page.keyboard.press("d")  # draw: our turn ends, the bot plays, the history grows
    page.wait_for_function("document.querySelectorAll('#log p').length >= 4")
    entries = page.eval_on_selector_all("#log p", "ps => ps.map(p => p.textContent)")
    page.keyboard.press("PageUp")
    assert page.evaluate("document.activeElement.textContent") == page.evaluate(
        "[...document.querySelectorAll('#log p')].at(-1).textContent"
    )
    last = page.evaluate("[...document.querySelectorAll('#log p')].indexOf(document.activeElement)")
    page.keyboard.press("PageUp")
    page.keyboard.press("PageUp")
    now = page.evaluate("[...document.querySelectorAll('#log p')].indexOf(document.activeElement)")
    assert now == last - 2
    assert page.evaluate("document.activeElement.getAttribute('aria-current')") == "true"
    page.keyboard.press("PageDown")
    assert (
        page.evaluate("[...document.querySelectorAll('#log p')].indexOf(document.activeElement)") == now + 1
    )
    # A region, no live region in any form: Orca 43 took role=log (even aria-live=off) for one
    # and dropped the live line equal to the history's (issue 24, docs/speech.md).
    assert page.get_attribute("#log", "role") == "region"
    assert page.get_attribute("#log", "aria-live") is None
    assert entries[0].startswith("The game begins: you hold ")
    page.keyboard.press("Escape")
    assert focused(page, "#hand")


def test_the_hand_is_a_listbox_with_n_of_m_labels(page: Page) -> None:
    """Each card says its slot in its name and n of m in aria-posinset/aria-setsize: the count is
    no part of the name, so a draw does not rename the card under the cursor (which a screen
    reader then says again, issue 24)."""
    kittens_started(page, "Lis")
    hand = page.evaluate(
        """() => {
          const list = document.querySelector('#hand');
          const options = [...list.querySelectorAll('[role=option]')];
          return {role: list.getAttribute('role'), multi: list.getAttribute('aria-multiselectable'),
                  active: list.getAttribute('aria-activedescendant'), ids: options.map(o => o.id),
                  labels: options.map(o => o.getAttribute('aria-label')),
                  of: options.map(o => [o.getAttribute('aria-posinset'), o.getAttribute('aria-setsize')])};
        }"""
    )
    cards = state(page)["view"]["hand"]
    assert hand["role"] == "listbox" and hand["multi"] == "true"
    assert hand["active"] == hand["ids"][0]
    assert hand["labels"][0].endswith(", 1") and hand["labels"][2].endswith(", 3")
    assert hand["of"][0] == ["1", str(len(cards))]
    assert hand["of"][2] == ["3", str(len(cards))]
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    assert page.get_attribute("#hand", "aria-activedescendant") == hand["ids"][2]
    page.keyboard.press("Space")
    assert page.get_attribute(f"#{hand['ids'][2]}", "aria-selected") == "true"
    page.keyboard.press("End")
    assert page.get_attribute("#hand", "aria-activedescendant") == hand["ids"][-1]


def _answers(page: Page, key: str, start: str | tuple[str, ...]) -> None:
    """`key` makes the page say one more line starting with `start` (or one of them)."""
    starts = [start] if isinstance(start, str) else list(start)
    before = sum(1 for x in said(page) if x["text"].startswith(tuple(starts)))
    page.keyboard.press(key)
    page.wait_for_function(
        "([ss, n]) => window.__said.filter(x => ss.some(s => x.text.startsWith(s))).length > n",
        arg=[starts, before],
    )


def test_the_003_quick_keys_answer(page: Page) -> None:
    """003: shift+D describes the card under the cursor, T tells whose turn, E the counts;
    docs/keys.md#exploding-kittens: T and E with or without Shift, also while a choice is open."""
    kittens_started(page, "Qui")
    page.keyboard.press("Shift+D")
    page.wait_for_function(
        "window.__said.some(x => x.text.includes(': ') && x.region === 'polite' && x.text.length > 30)"
    )
    for key in ("t", "Shift+T"):
        _answers(page, key, "It is your turn")
    for key in ("e", "Shift+E"):
        _answers(page, key, "Cards in hand:")
    # A choice open: two cards selected and played ask "against whom?" first.
    page.keyboard.press("Home")
    page.keyboard.press("Space")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    page.keyboard.press("p")
    page.wait_for_function("window.cardroom.isChoosing()")
    assert focused(page, "#chooser")
    _answers(page, "Shift+T", "It is your turn")
    _answers(page, "e", "Cards in hand:")
    assert page.evaluate("window.cardroom.isChoosing()")  # the choice is still open
    page.keyboard.press("F1")
    page.wait_for_selector("#help[open]")
    assert page.text_content("#help-title") == "Keys in this choice"
    body = page.inner_text("#help-body")
    assert "Whose turn it is and how many turns are left" in body and "Play a Nope" not in body
    page.keyboard.press("Escape")
    page.wait_for_function("!document.querySelector('#help').open")
    assert focused(page, "#chooser")
    page.keyboard.press("Escape")
    page.wait_for_function("!window.cardroom.isChoosing()")


def test_the_page_keys_are_the_table_the_terminal_reads(page: Page) -> None:
    """docs/keys.md: the page's default key map and its F1 list come from cardroom/help/keys.py,
    the table the terminal's `?` prints; the key names read alike in both."""
    defaults = page.evaluate("import('/static/keys.js').then(m => m.DEFAULTS)")
    for game in TABLES:
        assert defaults[game] == [[k.action, k.key, k.label] for k in keys(game, WEB)]
    labels = page.evaluate(
        "(names) => import('/static/keys.js').then(m => names.map(m.keyLabel))",
        [k.key for game in TABLES for k in TABLES[game]],
    )
    assert labels == [key_label(k.key) for game in TABLES for k in TABLES[game]]
    kittens_started(page, "Tab")
    page.keyboard.press("F1")
    page.wait_for_selector("#help[open]")
    rows = page.eval_on_selector_all(
        "#help-body tbody tr",
        "rs => rs.map(r => [r.querySelector('th').textContent, r.querySelector('td').textContent])",
    )
    assert [tuple(r) for r in rows[1:-1]] == help_rows("kittens", WEB)
    page_only = {key_label(k.key) for k in keys("kittens", WEB) if k.only == WEB}  # Page Up/Down
    assert [tuple(r) for r in rows[1:-1] if r[0] not in page_only] == [
        (key_label(k.key), k.label) for k in keys("kittens", TERMINAL) if k.only is None
    ]


PLAYING = (
    "window.cardroom.state.room && window.cardroom.state.room.view && "
    "window.cardroom.state.room.view.phase === 'play' && !window.cardroom.state.room.view.fight"
)


def burrito_started(page: Page, name: str) -> None:
    enter_lobby(page, name)
    create_table(page, "burrito", seats=2, bots=1, level="easy", options={"countdown_ms": 300})
    start_game(page)


def test_burrito_keys_do_what_they_do_in_the_terminal(page: Page) -> None:
    """docs/keys.md#throw-throw-burrito: H reads the hand, V the table, X dodges, B calls,
    C and Shift+C draw from community piles 1 and 2, as in tests/clients/test_terminal_burrito.py."""
    burrito_started(page, "Bur")
    page.wait_for_function(PLAYING)
    _answers(page, "h", "Your hand: 1: ")
    _answers(page, "v", "At the table: ")
    # X dodges in a fight, and is refused outside one. The bot may have called one meanwhile:
    # then X dodges, or is refused for a reason of the fight ("no burrito is flying at you").
    answers = ("Refused: ", "Too late: ", "Not yet: ", "Dodged.")
    _answers(page, "x", answers)
    answer = [x["text"] for x in said(page) if x["text"].startswith(answers)][-1]
    if not answer.startswith("Refused: there is no fight"):
        assert any(x["text"].startswith(("Brawl", "War", "Duel")) for x in said(page)), (
            f"{answer!r} with no fight"
        )
    for key, pile in (("c", 1), ("Shift+C", 2)):
        # The bot may call a fight between the look and the key: the draw is then refused with
        # "Not now: a fight is in progress." (stop 44's CI waited for "Drew " or "Refused: " only).
        draws = ("Drew ", "Refused: ", "Not now: ")
        for _attempt in range(5):  # card play waits for the fight's end, then the draw is tried again
            page.wait_for_function(PLAYING)
            page.keyboard.press("1")  # five cards in hand: pass one first
            _answers(page, key, draws)
            last = [x["text"] for x in said(page) if x["text"].startswith(draws)][-1]
            if last.startswith("Drew "):
                break
        assert last.endswith(f" from community pile {pile}."), last  # into slot 5: the hand is full
    hand = state(page)["view"]["hand"]
    if any(hand.count(c) >= 3 for c in ("brawl_a", "brawl_b", "war", "duel")):
        _answers(page, "b", ("Brawl: ", "War: ", "Duel: "))  # the fight's start confirms the call
    else:
        _answers(page, "b", "You hold no three battle cards of one kind")


def test_game_keys_do_nothing_while_typing_in_the_chat(page: Page) -> None:
    kittens_started(page, "Cha")
    before = state(page)
    tab_to(page, "#table-chat-input")
    page.keyboard.type("dnfe draw please")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "document.querySelector('#table-chat-log').textContent.includes('dnfe draw please')"
    )
    after = state(page)
    assert after["v"] == before["v"]
    assert after["view"]["hand"] == before["view"]["hand"]
    assert not any(x["text"].startswith("You drew") for x in said(page))
    wait_said(page, "Cha says: dnfe draw please")


def test_keys_are_remapped_in_the_settings_and_kept(page: Page) -> None:
    kittens_started(page, "Rem")
    tab_to(page, "#open-settings")
    page.keyboard.press("Enter")
    page.wait_for_selector("#settings[open]")
    tab_to(page, 'button[aria-label="Change the key for: Draw a card (ends your turn)"]')
    page.keyboard.press("Enter")
    page.keyboard.press("k")
    page.keyboard.press("Escape")
    page.wait_for_function("!document.querySelector('#settings').open")
    stored = json.loads(page.evaluate("localStorage.getItem('cardroom.keys')"))
    assert stored["kittens"]["draw"] == "k"
    tab_to(page, "#hand")
    v = state(page)["v"]
    page.keyboard.press("d")  # no longer draws
    page.wait_for_timeout(300)
    assert state(page)["v"] == v
    page.keyboard.press("k")
    try:  # an action's round trip: on a machine busy with other browsers, seconds
        # The card drawn may be an Exploding Kitten (the deal is random): then the draw is heard
        # as the defuse call (CI once drew one).
        page.wait_for_function(
            "window.__said.some(x => x.text.startsWith('You drew ') || x.text.startsWith('DEFUSE NOW! '))",
            timeout=30_000,
        )
    except PlaywrightTimeout:
        raise AssertionError(
            f"k did not draw: focus on {page.evaluate('document.activeElement && document.activeElement.id')}, "
            f"keys {page.evaluate('localStorage.getItem(`cardroom.keys`)')}, state {state(page)}, "
            f"last lines {[x['text'] for x in said(page)[-8:]]}"
        ) from None


def test_the_page_texts_come_from_the_catalog(page: Page) -> None:
    def catalog(route: Route) -> None:
        messages = {"Nickname": "Surnom", "Enter the lobby": "Entrer dans le salon"}
        route.fulfill(json={"lang": "en", "messages": messages})

    page.route("**/i18n/*.json", catalog)
    page.reload()
    page.wait_for_function("window.cardroom && window.cardroom.ready")
    page.wait_for_function("document.querySelector('label[for=nickname]').textContent === 'Surnom'")
    assert page.text_content("#enter-title") == "Entrer dans le salon"
    assert page.get_attribute("html", "lang") == "en"


def test_it_reconnects_and_resumes_after_a_lost_connection(page: Page) -> None:
    kittens_started(page, "Rec")
    token = page.evaluate("localStorage.getItem('cardroom.token')")
    # Every status the page shows is kept: "Connection lost" may last less than a poll of the
    # test when the page is back at once (it failed so on a busy run).
    page.evaluate("""() => {
        const status = document.querySelector('#status');
        window.__statuses = [];
        new MutationObserver(() => window.__statuses.push(status.textContent))
            .observe(status, {childList: true, characterData: true, subtree: true});
    }""")
    page.evaluate("window.cardroom.state.ws.close()")
    page.wait_for_function("window.__statuses.some(s => s.startsWith('Connection lost'))")
    page.wait_for_function(
        "window.cardroom.state.welcomed && window.cardroom.state.resuming.size === 0", timeout=15_000
    )
    assert page.evaluate("localStorage.getItem('cardroom.token')") == token
    assert page.is_visible("#table")
    page.keyboard.press("Escape")
    page.wait_for_function("document.querySelectorAll('#hand [role=option]').length >= 1")


def test_card_names_come_from_the_servers_catalog(page: Page) -> None:
    """The page keeps no copy of the card names: it shows those of /i18n/{lang}.json."""

    def catalog(route: Route) -> None:
        reply = route.fetch()
        data = reply.json()
        data["cards"]["kittens"]["defuse"]["name"] = "Désamorçage"
        route.fulfill(response=reply, json=data)

    page.route("**/i18n/*.json", catalog)
    page.reload()
    page.wait_for_function("window.cardroom && window.cardroom.ready")
    kittens_started(page, "Cat")
    labels = page.eval_on_selector_all(
        "#hand [role=option]", "os => os.map(o => o.getAttribute('aria-label'))"
    )
    cards = state(page)["view"]["hand"]
    names = kittens.card_catalog()
    for card, label in zip(cards, labels, strict=True):
        expected = "Désamorçage" if card == "defuse" else names[card]["name"]
        assert label.startswith(f"{expected}, "), (card, label)
    assert "defuse" in cards
