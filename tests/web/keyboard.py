"""A person at the keyboard: reach controls with Tab, type, press keys. No clicks anywhere."""

from __future__ import annotations

from collections import Counter
from typing import Any

from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

STATE = """() => {
  const st = window.cardroom.state;
  const r = st.room;
  const v = r ? r.view : null;
  return {
    state: r ? r.state : null,
    you: r ? r.you : null,
    v: st.current ? st.lastV[st.current] || 0 : 0,
    view: v,
    choosing: window.cardroom.isChoosing(),
    focus: document.activeElement ? document.activeElement.id : null,
  };
}"""


def focused(page: Page, selector: str) -> bool:
    return bool(page.evaluate("s => !!document.activeElement && document.activeElement.matches(s)", selector))


def tab_to(page: Page, selector: str, limit: int = 250) -> None:
    """Press Tab until `selector` has the focus."""
    for _ in range(limit):
        if focused(page, selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def enter_lobby(page: Page, name: str) -> None:
    tab_to(page, "#nickname")
    page.keyboard.type(name)
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement && document.activeElement.id === 'lobby-title'")


def fill(page: Page, selector: str, text: str) -> None:
    tab_to(page, selector)
    page.keyboard.press("Control+a")
    page.keyboard.type(text)


def create_table(
    page: Page,
    game: str,
    seats: int,
    bots: int,
    level: str,
    options: dict[str, int] | None = None,
    private: bool = False,
) -> None:
    """Fill the create form with keys only: type-ahead in the selects, digits in the fields."""
    tab_to(page, "#create-game")
    page.keyboard.type("Throw" if game == "burrito" else "Exploding")
    page.wait_for_function("g => document.querySelector('#create-game').value === g", arg=game)
    fill(page, "#create-seats", str(seats))
    fill(page, "#create-bots", str(bots))
    tab_to(page, "#create-level")
    page.keyboard.type(level)
    page.wait_for_function("l => document.querySelector('#create-level').value === l", arg=level)
    if private:
        tab_to(page, "#create-private")
        page.keyboard.press("Space")
    if options:
        tab_to(page, "#advanced summary")
        if not page.evaluate("document.querySelector('#advanced').open"):
            page.keyboard.press("Enter")
        for name, value in options.items():
            fill(page, f"#opt-{name}", str(value))
    tab_to(page, "#create-form button[type=submit]")
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement && document.activeElement.id === 'table-title'")


def start_game(page: Page) -> None:
    tab_to(page, "#start-btn")
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement && document.activeElement.id === 'hand'")


def state(page: Page) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(STATE)
    return result


def said(page: Page) -> list[dict[str, Any]]:
    """Every announcement so far: {region: polite|assertive, text}."""
    result: list[dict[str, Any]] = page.evaluate("window.__said")
    return result


SAID = "([t, r]) => window.__said.some(x => x.text === t && (r === null || x.region === r))"


def wait_said(page: Page, text: str, region: str | None = None, timeout_ms: float | None = None) -> None:
    """Until the page has put `text` in a live region (with `region`, in that one: "assertive"
    or "polite"); `timeout_ms`, else the page's default."""
    page.wait_for_function(
        SAID, arg=[text, region], **({} if timeout_ms is None else {"timeout": timeout_ms})
    )


OFFERED = """() => [...document.querySelectorAll(
  "#actions button[data-action]:not([disabled]):not([aria-disabled=true])")].map(b => b.dataset.action).join(' ')"""
"""The actions the buttons beside the hand offer now, as one string."""

CHANGED = f"""([v, c, offered, said]) => {{
  const st = window.cardroom.state;
  return (st.current ? st.lastV[st.current] || 0 : 0) > v || window.cardroom.isChoosing() !== c
    || (offered !== null && ({OFFERED})() !== offered) || (said !== null && window.__said.length > said);
}}"""


def wait_for_change(
    page: Page,
    version: int,
    choosing: bool,
    timeout_ms: float = 3000,
    offered: str | None = None,
    said: int | None = None,
) -> None:
    """Until a new batch arrives or a chooser opens or closes (a refused key changes neither),
    or, given what the buttons `offered`, they offer something else, or, given how many lines
    were `said`, the page says one more; at most `timeout_ms`.

    The page checks every 30 ms by itself: a test that read the page in a loop crossed
    Playwright's driver to Chromium and back at each look, and a whole game played so cost a
    fifth of a core (CONTRIBUTING.md)."""
    try:
        page.wait_for_function(
            CHANGED, arg=[version, choosing, offered, said], timeout=timeout_ms, polling=30
        )
    except PlaywrightTimeout:
        return  # a refused key changes nothing: look at the table again


def said_once_and_logged(page: Page) -> None:
    """Every line said reached a live region exactly once, and the history keeps every narrated
    line said (and the background lines the verbosity left unsaid as well)."""
    # Polite lines wait while each assertive one is said: on a busy machine, many seconds.
    page.wait_for_function("window.cardroom.quiet()", timeout=30_000)
    spoken, regions, log = page.evaluate(
        """[window.cardroom.spoken, window.__said,
            [...document.querySelectorAll('#log p')].map(p => p.textContent)]"""
    )
    assert [x["text"] for x in regions] == [x["text"] for x in spoken]
    events = [x["text"] for x in spoken if x["kind"] == "event"]
    assert log
    # Every line said since the game began is in the history, the first ones too: the whole game
    # is kept (an assertive line is said before the polite ones of its batch, so the order may
    # differ). A history keeping only its newest lines (500 once, issue 14) fails here.
    assert not Counter(events) - Counter(log), "said but not in the history"


def play_kittens_to_the_end(page: Page, limit_s: float = 150) -> None:
    """Play our seat by keyboard alone until the game ends: draw on each turn, defuse, answer
    every choice; the keys go where the focus already is (the hand or the chooser)."""
    import time

    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        s = state(page)
        v = s["view"]
        if s["state"] == "over" or (v and v["phase"] == "game_over"):
            return
        mine = v is not None and v["turn"] == s["you"]
        key = None
        if s["choosing"]:
            key = "Enter"  # a position for the kitten: on top, for the other player
        elif v and v["phase"] == "defusing" and mine:
            key = "f"
        elif v and v["phase"] == "choosing" and v["choosing"]["player"] == s["you"]:
            kind = v["choosing"]["kind"]
            if kind == "give":
                # The choice starts on no card (issue 24): the last card, not a Defuse if another.
                page.keyboard.press("End")
                if len(v["hand"]) > 1 and v["hand"][-1] == "defuse":
                    page.keyboard.press("ArrowLeft")
            key = {"give": "g", "reorder": "Enter", "insert": "Enter"}[kind]
        elif v and v["phase"] == "turn" and mine:
            key = "d"
        if key is None:
            wait_for_change(page, s["v"], s["choosing"], timeout_ms=500)
            continue
        assert s["focus"] in ("hand", "chooser", "placer-slider"), s["focus"]
        page.keyboard.press(key)
        wait_for_change(page, s["v"], s["choosing"])
    raise AssertionError("the game did not end in time")
