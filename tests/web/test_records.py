"""After a finished game: the Games view lists it, the replay viewer steps through it by keyboard
(every step said in the polite live region, every hand shown in the everything mode), the
leaderboard lists the player and their page draws the rating chart. axe-core checks each view
and the entry form's login. One server with its own database for the module: the game is
played once and every test reads it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import Browser, BrowserContext, Page

from bench.replay import GAME_ID, long_game, store_game
from cardroom.server.replays import PAGE_FRAMES
from tests.server.live import LiveServer, run_server
from tests.web.accounts import choose_mode, fetch, open_page, register
from tests.web.keyboard import (
    create_table,
    play_kittens_to_the_end,
    said,
    start_game,
    tab_to,
)

AXE = Axe()
FAST = {"nope_window_ms": 300, "choose_ms": 3000, "bot_think_ms": 0}


def audit(page: Page) -> None:
    results = AXE.run(page)
    assert results.violations_count == 0, results.generate_report()


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with run_server({"CARDROOM_DB": "memory"}) as live:
        yield live


@pytest.fixture(scope="module")
def played(browser: Browser, server: LiveServer) -> Iterator[tuple[BrowserContext, Page]]:
    """Kim has an account and has played a whole two-seat Exploding Kittens game against a bot."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page, errors = open_page(context, server)
    register(page, "Kim", "kim-secret-1")
    create_table(page, "kittens", seats=2, bots=1, level="easy", options=FAST)
    start_game(page)
    play_kittens_to_the_end(page)
    deadline = time.monotonic() + 15
    while not fetch(page, server.url + "/api/records").json()["records"]:
        assert time.monotonic() < deadline, "the game was not recorded"
        time.sleep(0.2)
    yield context, page
    context.close()
    assert errors == []


def nav(page: Page, button: str, title: str) -> None:
    tab_to(page, f"#{button}")
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.activeElement && document.activeElement.id === '{title}'")


def replay(page: Page) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate("window.cardroom.replayState()")
    return result


def frames(page: Page, server: LiveServer, seat: str) -> list[dict[str, Any]]:
    """Every frame of the replay, page after page."""
    record = fetch(page, server.url + "/api/records").json()["records"][0]
    found: list[dict[str, Any]] = []
    number = 0
    while True:
        reply = fetch(page, f"{server.url}/api/records/{record['id']}/frames?seat={seat}&page={number}")
        assert reply.ok, reply.text()
        found += reply.json()["frames"]
        number += 1
        if number >= reply.json()["pages"]:
            return found


def wait_for_step(page: Page, index: int) -> None:
    """The viewer shows step `index` (a step on a page the viewer does not hold yet comes after its page)."""
    page.wait_for_function("n => window.cardroom.replayState().index === n", arg=index)


def test_the_games_view_lists_the_game_and_the_replay_steps_by_keyboard(
    played: tuple[BrowserContext, Page], server: LiveServer
) -> None:
    _context, page = played
    assert fetch(page, server.url + "/api/records").json()["records"], "the finished game is recorded"
    nav(page, "nav-games", "games-title")
    page.wait_for_selector("#games-body tr")
    rows = page.eval_on_selector_all("#games-body tr", "rows => rows.map(r => r.textContent)")
    assert len(rows) == 1 and "Exploding Kittens" in rows[0] and "Kim" in rows[0]
    audit(page)

    tab_to(page, "#games-body button[data-record]")
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement && document.activeElement.id === 'replay-title'")
    page.wait_for_function("window.cardroom.replayState().count > 0")
    everything = frames(page, server, "all")
    assert replay(page)["count"] == len(everything) and replay(page)["index"] == 0
    # Everything mode: every seat's hand is shown.
    hands = page.eval_on_selector_all("#replay-hands li", "items => items.map(i => i.textContent)")
    assert len(hands) == 2 and all("Hand: " in h for h in hands), hands
    audit(page)

    # Next step: its texts go to the polite region and into the viewer's history.
    # What was said before has been said (polite lines wait for each assertive one).
    page.wait_for_function("window.cardroom.quiet()", timeout=30_000)
    before = len(said(page))
    page.keyboard.press("ArrowRight")
    assert replay(page)["index"] == 1
    texts = everything[1]["texts"]
    assert texts
    page.wait_for_function("n => window.__said.length >= n", arg=before + len(texts))
    heard = said(page)[before:]
    assert [(x["region"], x["text"]) for x in heard] == [("polite", t) for t in texts]
    log = page.eval_on_selector_all("#replay-log p", "ps => ps.map(p => p.textContent)")
    assert log == everything[0]["texts"] + texts
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    assert replay(page)["index"] == 1
    page.keyboard.press("End")
    wait_for_step(page, len(everything) - 1)
    # The last step's lines one at a time, each once the one before has been said (docs/speech.md).
    page.wait_for_function(
        "n => window.__said.slice(n).some(x => x.text.startsWith('Game over'))", arg=before, timeout=30_000
    )
    page.keyboard.press("Home")
    wait_for_step(page, 0)
    assert page.get_attribute("#replay-step", "aria-valuetext") == f"Step 1 of {len(everything)}"

    # F1 in the viewer lists its keys.
    page.keyboard.press("F1")
    page.wait_for_selector("#help[open]")
    assert page.text_content("#help-title") == "Keys in the replay"
    assert "Previous step" in page.inner_text("#help-body")
    page.keyboard.press("Escape")
    page.wait_for_function("!document.querySelector('#help').open")
    assert page.evaluate("document.activeElement.id") == "replay-title"

    # Play at ×8 (each wait at most 3 s / 8), then pause with P.
    tab_to(page, "#replay-speed")
    page.keyboard.press("End")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("p")
    page.wait_for_function("window.cardroom.replayState().index >= 2")
    page.keyboard.press("p")
    stopped = replay(page)
    assert not stopped["playing"]
    page.wait_for_timeout(600)
    assert replay(page)["index"] == stopped["index"]

    # As seat 2 (the bot) saw it: its own hand only; Kim's is a count.
    tab_to(page, "#replay-seat")
    page.keyboard.press("End")
    page.wait_for_function(
        "n => window.cardroom.replayState().count === n", arg=len(frames(page, server, "1"))
    )
    hands = page.eval_on_selector_all("#replay-hands li", "items => items.map(i => i.textContent)")
    assert "Hand: " not in hands[0] and "cards in hand" in hands[0]
    assert "Hand: " in hands[1]
    href = page.get_attribute("#replay-download", "href") or ""
    assert href.endswith("/scenario")
    assert fetch(page, server.url + href).ok


def test_the_leaderboard_lists_the_player_and_their_page_draws_the_chart(
    played: tuple[BrowserContext, Page],
) -> None:
    _context, page = played
    nav(page, "nav-leaderboard", "leaderboard-title")
    page.wait_for_selector("#leaderboard-body tr")
    assert page.text_content("#leaderboard-caption") == "Leaderboard of Exploding Kittens"
    headers = page.eval_on_selector_all("#leaderboard-table thead th", "hs => hs.map(h => h.textContent)")
    assert headers == ["Rank", "Name", "Bot", "Rating", "Games", "Wins"]
    rows = page.eval_on_selector_all(
        "#leaderboard-body tr", "rows => rows.map(r => [...r.children].map(c => c.textContent))"
    )
    kim = [r for r in rows if r[1] == "Kim"]
    assert kim and kim[0][2] == "no" and kim[0][4] == "1"
    assert any(r[2] == "yes" for r in rows)
    audit(page)

    tab_to(page, "#leaderboard-body button[data-player='Kim']")
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement && document.activeElement.id === 'player-title'")
    page.wait_for_selector("svg.rating-chart[role=img]")
    label = page.get_attribute("svg.rating-chart", "aria-label") or ""
    assert label.startswith("Rating in Exploding Kittens. Games rated: 1. First ")
    assert "highest" in label
    cells = page.eval_on_selector_all(".rating-table tbody tr", "rows => rows.map(r => r.children.length)")
    assert cells == [3]
    assert page.is_visible("#player-body table.games-list")
    audit(page)

    # The header's "My page" opens the same page.
    nav(page, "nav-me", "player-title")
    assert page.text_content("#player-title") == "My page: Kim"
    assert page.get_attribute("#nav-me", "aria-current") == "page"


def test_the_login_form_passes_axe(browser: Browser, server: LiveServer) -> None:
    context = browser.new_context()
    page, errors = open_page(context, server)
    choose_mode(page, "login")
    audit(page)
    choose_mode(page, "register")
    audit(page)
    context.close()
    assert errors == []


def test_a_phone_screen_shows_the_new_views_without_horizontal_scroll(
    played: tuple[BrowserContext, Page],
) -> None:
    _context, page = played
    page.set_viewport_size({"width": 360, "height": 740})
    try:
        for button, title in (("nav-games", "games-title"), ("nav-leaderboard", "leaderboard-title")):
            nav(page, button, title)
            page.wait_for_timeout(200)
            width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            assert width[0] <= width[1], (button, width)
    finally:
        page.set_viewport_size({"width": 1100, "height": 900})


def test_a_long_game_replays_page_by_page(browser: Browser, tmp_path: Path) -> None:
    """Issue 22: a game of thousands of steps comes a page at a time, each page asked for as the
    steps reach it: its last step, the one before, and back to the first, without the whole game."""
    url = f"sqlite:///{tmp_path / 'long.sqlite3'}"
    record, end_at, winner = long_game(12, 60)
    with ThreadPoolExecutor(1) as aside:  # Playwright's own event loop runs in this thread
        aside.submit(asyncio.run, store_game(url, record, end_at, winner)).result()
    with run_server({"CARDROOM_DB": url}) as server:
        context = browser.new_context(viewport={"width": 1100, "height": 900})
        page, errors = open_page(context, server)
        asked: list[str] = []
        page.on("request", lambda r: asked.append(r.url) if "/frames" in r.url else None)
        register(page, "Lia", "lia-secret-1")
        nav(page, "nav-games", "games-title")
        page.wait_for_selector("#games-body tr")
        tab_to(page, "#games-body button[data-record]")
        page.keyboard.press("Enter")
        page.wait_for_function("window.cardroom.replayState().count > 0")
        count = replay(page)["count"]
        assert count > 100 * PAGE_FRAMES
        hands = page.eval_on_selector_all("#replay-hands li", "items => items.map(i => i.textContent)")
        assert len(hands) == 12 and all("Hand: " in h for h in hands), hands

        page.keyboard.press("End")
        wait_for_step(page, count - 1)
        assert page.text_content("#replay-position") == f"Step {count} of {count}"
        last = fetch(
            page, f"{server.url}/api/records/{GAME_ID}/frames?seat=all&page={(count - 1) // PAGE_FRAMES}"
        ).json()["frames"][-1]
        log = page.eval_on_selector_all("#replay-log p", "ps => ps.map(p => p.textContent)")
        assert last["texts"] and log[-len(last["texts"]) :] == last["texts"]
        page.keyboard.press("ArrowLeft")
        wait_for_step(page, count - 2)
        page.keyboard.press("Home")
        wait_for_step(page, 0)
        assert len(asked) <= 4, asked  # the first page, the last two, maybe the one after the first
        context.close()
    assert errors == []
