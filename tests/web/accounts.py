"""Accounts with the keyboard: the entry form's three ways in (guest, log in, create an account)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import APIResponse, BrowserContext, ConsoleMessage, Page

from tests.server.live import LiveServer
from tests.web.conftest import COLLECT
from tests.web.keyboard import tab_to

# A refused request (a wrong password, a taken name) is an answer, not a page error: the
# browser still logs it as a failed resource.
REFUSED = "Failed to load resource: the server responded with a status of 4"

RETRIES = 2
"""A request on a kept-alive connection can be reset (ECONNRESET: a CI run lost a GET to
/api/records so; why, not found: not an idle connection closed as it was reused, in 40 tries).
A browser sends a request reset on a reused connection again on a new one; the tests' requests
do the same."""


def fetch(page: Page, url: str, method: str = "GET", data: Any = None) -> APIResponse:
    """`url` asked with the page's cookie, as the page's own browser would (sent again on a reset)."""
    return page.request.fetch(url, method=method, data=data, max_retries=RETRIES)


def open_page(
    context: BrowserContext, server: LiveServer, before: Callable[[Page], None] | None = None
) -> tuple[Page, list[str]]:
    """A page of `context` at the server, ready; the list collects its script errors.
    `before(page)` runs before the page loads (routes)."""
    page = context.new_page()
    if before is not None:
        before(page)
    page.add_init_script(COLLECT)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error" and not message.text.startswith(REFUSED):
            errors.append(message.text)

    page.on("console", on_console)
    page.set_default_timeout(10_000)
    page.goto(server.url + "/")
    page.wait_for_function("window.cardroom && window.cardroom.ready")
    return page, errors


def choose_mode(page: Page, mode: str) -> None:
    """The radio group "How do you want to play?": arrows move the choice."""
    tab_to(page, "input[name=enter-mode]")
    for _ in range(3):
        if page.evaluate("m => document.querySelector(`input[name=enter-mode][value=${m}]`).checked", mode):
            return
        page.keyboard.press("ArrowRight")
    raise AssertionError(f"no {mode} in the entry form")


def _account_form(page: Page, form: str, name: str, password: str, ok: bool) -> None:
    choose_mode(page, "login" if form == "login" else "register")
    tab_to(page, f"#{form}-name")
    page.keyboard.press("Control+a")
    page.keyboard.type(name)
    tab_to(page, f"#{form}-password")
    page.keyboard.press("Control+a")
    page.keyboard.type(password)
    page.keyboard.press("Enter")
    if ok:
        page.wait_for_function("document.activeElement && document.activeElement.id === 'lobby-title'")
        page.wait_for_function("window.cardroom.state.account !== null && window.cardroom.state.welcomed")
    else:
        page.wait_for_function(f"document.querySelector('#{form}-error').textContent !== ''")


def register(page: Page, name: str, password: str, ok: bool = True) -> None:
    _account_form(page, "register", name, password, ok)


def login(page: Page, name: str, password: str, ok: bool = True) -> None:
    _account_form(page, "login", name, password, ok)


def logout(page: Page) -> None:
    tab_to(page, "#logout-btn")
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement && document.activeElement.id === 'enter-title'")
    assert page.is_visible("#enter")


def me(page: Page, server: LiveServer) -> dict[str, Any]:
    """`/api/me` with the page's cookie: the account and its profile."""
    reply = fetch(page, server.url + "/api/me")
    assert reply.ok, reply.text()
    data: dict[str, Any] = reply.json()
    return data


def api_until(
    page: Page, server: LiveServer, path: str, check: Callable[[dict[str, Any]], bool], timeout: float = 10
) -> dict[str, Any]:
    """GET `path` with the page's cookie until `check` holds of its answer; that answer.
    (Not `wait_for_function` with an async predicate: Playwright takes the promise it returns
    for a true value, at once, so such a wait waits for nothing.)"""
    deadline = time.monotonic() + timeout
    while True:
        reply = fetch(page, server.url + path)
        assert reply.ok, reply.text()
        data: dict[str, Any] = reply.json()
        if check(data):
            return data
        assert time.monotonic() < deadline, f"{path} never came to the state waited for: {data}"
        time.sleep(0.1)
