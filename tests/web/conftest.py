"""A real browser (Debian's Chromium, never downloaded) and a real server for the web client's tests."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, Playwright, sync_playwright

from tests.server.live import LiveServer, run_server

CHROMIUM = os.environ.get("CARDROOM_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--autoplay-policy=no-user-gesture-required",
]

# Collect every announcement the two live regions make, as it is made, trimmed (a line the same
# as the one before ends in a no-break space for the screen reader: static/ui.js `place`).
COLLECT = """
window.__said = [];
new MutationObserver((records) => {
  for (const r of records) {
    const region = r.target.closest ? r.target.closest('#polite, #assertive') : null;
    if (!region) continue;
    for (const node of r.addedNodes) {
      window.__said.push({region: region.id, text: node.textContent.trim(), t: performance.now(), at: Number(node.dataset.at), concerns: node.dataset.concerns === '1'});
    }
  }
}).observe(document, {subtree: true, childList: true});
"""


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    """One Playwright per module, stopped after it: its sync API keeps an event loop running
    in this thread, under which `asyncio.run` (the wire tests) refuses to start. Stopped, a
    test worker (pytest-xdist, `make test`) may run wire tests after browser tests."""
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"no Chromium at {CHROMIUM}: install Debian's chromium package (`make test` does)", pytrace=False
        )
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    yield browser
    browser.close()


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with run_server() as live:
        yield live


@pytest.fixture
def guest(browser: Browser, server: LiveServer) -> Iterator[Page]:
    """A second person, in a browser context of their own."""
    context = browser.new_context()
    page = context.new_page()
    page.add_init_script(COLLECT)
    page.goto(server.url + "/")
    page.wait_for_function("window.cardroom && window.cardroom.ready")
    yield page
    context.close()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A browser context of its own (cookies, storage), for tests that open pages themselves."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    yield context
    context.close()


@pytest.fixture
def page(browser: Browser, server: LiveServer) -> Iterator[Page]:
    yield from open_page(browser, server, viewport={"width": 1100, "height": 900})


# The two layouts of issue 13: a phone held upright and touched, a desktop used with a mouse.
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}


@pytest.fixture
def phone(browser: Browser, server: LiveServer) -> Iterator[Page]:
    yield from open_page(browser, server, **PHONE)


@pytest.fixture
def desktop(browser: Browser, server: LiveServer) -> Iterator[Page]:
    yield from open_page(browser, server, **DESKTOP)


def open_page(browser: Browser, server: LiveServer, **options: Any) -> Iterator[Page]:
    """A fresh browser context on the server's page; the test fails on any page error."""
    context = browser.new_context(**options)
    page = context.new_page()
    page.add_init_script(COLLECT)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(message.text)

    page.on("console", on_console)
    page.set_default_timeout(10_000)
    # Its first load is 49 files on two cores that are busy to the last (CI: 10 s passed once).
    page.goto(server.url + "/", timeout=30_000)
    page.wait_for_function("window.cardroom && window.cardroom.ready")
    yield page
    context.close()
    assert errors == [], errors
